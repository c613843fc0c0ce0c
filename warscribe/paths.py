"""Where things are: the checkout Warscribe runs from (if any), the shared data beside it, the samples.

Defaults are relative to the working folder, or to the checkout when Warscribe runs
from one (an editable install); never to the install itself, where a wheel's
site-packages holds neither sources nor data.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from warscribe import ROOT

# A checkout has its project file and the contract's sources beside the packages; a
# wheel's site-packages has neither.
CHECKOUT: Path | None = ROOT if (ROOT / "pyproject.toml").is_file() and (ROOT / "schema" / "diagnostics.py").is_file() else None


def beside_checkout(*parts: str) -> Path | None:
    """A path in the folder beside the checkout (../shared/...), or None outside a checkout."""
    return CHECKOUT.parent.joinpath(*parts) if CHECKOUT is not None else None


def default_manifest() -> Path | None:
    """sources/manifest.yaml of the working folder, else the checkout's; None when neither exists."""
    here = Path("sources") / "manifest.yaml"
    if here.is_file() or CHECKOUT is None:
        return here if here.is_file() else None
    theirs = CHECKOUT / "sources" / "manifest.yaml"
    return theirs if theirs.is_file() else None


def samples() -> Path:
    """The sample sources: sources/ of the checkout, or its copy in an installed wheel (warscribe.samples)."""
    spec = importlib.util.find_spec("warscribe.samples")
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return ROOT / "sources"
