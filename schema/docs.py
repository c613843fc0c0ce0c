"""Where a page of the documentation is: docs/ of a checkout, or the copy a wheel installs.

Messages that send a user to the documentation name a file that exists on this
machine, whichever way Warscribe was installed (the wheel ships docs/ as package
``warscribe.docs``).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def docs_folder() -> Path:
    """docs/ of the checkout (an editable install maps ``warscribe.docs`` there) or of the installed package."""
    try:
        spec = importlib.util.find_spec("warscribe.docs")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return _HERE.parent / "docs"


def doc(name: str) -> str:
    """The page `name` (e.g. "formats.md") as a path to show: relative to the working folder when inside it."""
    path = docs_folder() / name
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return rel if not rel.startswith("..") else str(path)
