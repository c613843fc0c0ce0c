"""mkdocs hook of the generated configuration: keeps site/'s hand-written files current under `serve`.

`mkdocs serve` watches site/ (the configuration's `watch`); on each rebuild this copies
it again beside the generated pages, so an edited stylesheet or page shows at once.
"""

from __future__ import annotations

from pathlib import Path


def on_pre_build(config, **kwargs) -> None:
    from warscribe.sitegen.generate import copy_handwritten

    copy_handwritten(Path(config["docs_dir"]))
