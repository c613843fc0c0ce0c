"""The site's hand-written part (site/handwritten/: the mkdocs configuration, the home page's
introduction, the theme's templates and assets): where it is, and its copy beside the generated pages.

Apart from the generator, so that the mkdocs hooks (hooks.py) can reach it without importing
the generator that writes them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

# The hand-written pages, templates and assets: beside this module in a checkout and in a wheel alike.
HANDWRITTEN = Path(__file__).resolve().parent / "handwritten"
BASE_CONFIG = HANDWRITTEN / "mkdocs.yml"
NOT_PAGES = {"index.md", "mkdocs.yml"}  # the home page's introduction and the configuration
NOT_COPIED = {"overrides"}  # the theme's templates (hooks.on_env reads them where they are)


def copy_handwritten(docs: Path) -> None:
    """site/handwritten/ beside the generated pages (index.md is the home page's introduction, not a page)."""
    for path in sorted(HANDWRITTEN.rglob("*")):
        rel = path.relative_to(HANDWRITTEN)
        if path.is_dir() or rel.as_posix() in NOT_PAGES or "__pycache__" in rel.parts or rel.parts[0] in NOT_COPIED:
            continue
        target = docs / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
