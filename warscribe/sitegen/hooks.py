"""mkdocs hooks of the generated configuration: keep site/'s hand-written files current under `serve`.

The generated configuration names a one-line copy of this module beside it
(``out/site-src/hooks.py``), so that it holds no path of this machine and two builds
of the same sources are byte-identical wherever they run. Under `mkdocs serve`, site/
is watched (``on_serve``), and each rebuild copies it again beside the generated pages
(``on_pre_build``), so an edited stylesheet or page shows at once.
"""

from __future__ import annotations

from pathlib import Path

# What the generated configuration's hook file says: it only borrows these functions.
SHIM = ("# Written by warscribe build: the site's mkdocs hooks live in the warscribe package.\n"
        "from warscribe.sitegen.hooks import on_pre_build, on_serve  # noqa: F401\n")


def on_pre_build(config, **kwargs) -> None:
    from warscribe.sitegen.generate import copy_handwritten

    copy_handwritten(Path(config["docs_dir"]))


def on_serve(server, config, builder, **kwargs):
    from warscribe.sitegen.generate import HANDWRITTEN

    server.watch(str(HANDWRITTEN))
    return server
