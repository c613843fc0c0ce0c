"""mkdocs hooks of the generated configuration: pages that are HTML already, the theme's
templates from site/overrides, and site/'s hand-written files kept current under `serve`.

The generated configuration names a one-line copy of this module beside it
(``out/site-src/hooks.py``), so that it holds no path of this machine and two builds
of the same sources are byte-identical wherever they run.

* Generated pages (``pages.PAGE_MARKER``) are HTML made by :mod:`markup`, every scraped
  string escaped there. Their Markdown is not parsed (``on_page_markdown`` gives the page
  a renderer that takes the HTML as it is, with the table of contents that came with it):
  a Markdown pass would only re-read that HTML, and took most of a large site's build time.
  Hand-written Markdown pages of site/ render as usual.
* ``on_env`` puts site/overrides before the theme's templates (``main.html``, the sidebar),
  and the theme's own under ``material/`` so that an override can include the original.
* Under `mkdocs serve`, site/ is watched (``on_serve``), and each rebuild copies it again
  beside the generated pages (``on_pre_build``), so an edited stylesheet or page shows at once.
"""

from __future__ import annotations

import json
import types
from pathlib import Path

# What the generated configuration's hook file says: it only borrows these functions.
SHIM = ("# Written by warscribe build: the site's mkdocs hooks live in the warscribe package.\n"
        "from warscribe.sitegen.hooks import on_env, on_page_markdown, on_pre_build, on_serve  # noqa: F401\n")


def on_pre_build(config, **kwargs) -> None:
    from warscribe.sitegen.generate import copy_handwritten

    copy_handwritten(Path(config["docs_dir"]))


def on_serve(server, config, builder, **kwargs):
    from warscribe.sitegen.generate import HANDWRITTEN

    server.watch(str(HANDWRITTEN))
    return server


def on_env(env, config, files, **kwargs):
    import jinja2

    from warscribe.sitegen.generate import HANDWRITTEN

    theme = env.loader
    env.loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(HANDWRITTEN / "overrides")),
                                      jinja2.PrefixLoader({"material": theme}), theme])
    return env


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    from warscribe.sitegen.pages import PAGE_MARKER

    if markdown.startswith(PAGE_MARKER):
        page.render = types.MethodType(_render_html, page)
    return markdown


def _render_html(page, config, files) -> None:
    """Page.render for a generated page: its body is the content; its first line, the table of contents
    and the sidebar (``pages.Page.markdown``)."""
    from mkdocs.structure.toc import get_toc

    _marker, head, body = page.markdown.split("\n", 2)
    meta = json.loads(head)
    tokens, stack = [], []
    for level, anchor, name in meta["toc"]:
        token = {"level": level, "id": anchor, "name": name, "children": []}
        while stack and stack[-1]["level"] >= level:
            stack.pop()
        (stack[-1]["children"] if stack else tokens).append(token)
        stack.append(token)
    page.content = body
    page.toc = get_toc(tokens)
    page.ws_nav = meta.get("nav", "")
    page._title_from_render = None
    page.present_anchor_ids = {t[1] for t in meta["toc"]}
    page.links_to_anchors = {}
