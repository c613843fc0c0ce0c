"""`python -m warscribe`: the same as the `warscribe` command."""

import sys

from warscribe.cli import main

sys.exit(main())
