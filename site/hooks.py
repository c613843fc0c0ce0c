"""mkdocs hooks of the generated configuration: pages that are HTML already, the theme's
templates from site/handwritten/overrides, and the hand-written files kept current under `serve`.

The generated configuration names a one-line copy of this module beside it
(``out/site-src/hooks.py``), so that it holds no path of this machine and two builds
of the same sources are byte-identical wherever they run.

* Generated pages (``pages.PAGE_MARKER``) are HTML made by :mod:`markup`, every scraped
  string escaped there. Their Markdown is not parsed (``on_page_markdown`` gives the page
  a renderer that takes the HTML as it is, with the table of contents that came with it):
  a Markdown pass would only re-read that HTML, and took most of a large site's build time.
  Hand-written Markdown pages of site/handwritten/ render as usual.
* mkdocs reads every page before it writes any (``_populate_page``, then ``_build_page``),
  so it held the whole site's text at once (690 MB for the 7,605 pages of the whole game).
  Of a generated page it reads only the head here (``on_page_read_source``: title, table of
  contents, sidebar); the body is read when the page is written (``on_page_context``) and let
  go once it is (``on_post_page``).
* ``on_env`` puts site/handwritten/overrides before the theme's templates (``main.html``, the sidebar),
  and the theme's own under ``material/`` so that an override can include the original.
  It also gives them ``ws_partial(name)``: the theme's navigation and tabs (``partials/nav.html``,
  ``partials/tabs.html``, a third of the time of every page) are the same on every page
  that is not in the navigation, but for their links, which are relative to the page. So
  each is rendered once per set of those links (a few dozen on the whole game's 7,605
  pages) and reused; a page in the navigation (its entry is marked active) is rendered
  in full. The bytes are the theme's own either way (a test builds a site both ways).
* Under `mkdocs serve`, site/handwritten/ is watched (``on_serve``), and each rebuild copies it again
  beside the generated pages (``on_pre_build``), so an edited stylesheet or page shows at once.
"""

from __future__ import annotations

import json
import types
from pathlib import Path

# What the generated configuration's hook file says: it only borrows these functions.
SHIM = ("# Written by warscribe build: the site's mkdocs hooks live in the warscribe package.\n"
        "from warscribe.site.hooks import (  # noqa: F401\n"
        "    on_env, on_page_context, on_page_markdown, on_page_read_source, on_post_page, on_pre_build, on_serve)\n")
_HEAD_LINES = 8  # a generated page's head ends within its first lines (front matter, marker, head)


def on_pre_build(config, **kwargs) -> None:
    from warscribe.site.theme import copy_handwritten

    copy_handwritten(Path(config["docs_dir"]))


def on_serve(server, config, builder, **kwargs):
    from warscribe.site.theme import HANDWRITTEN

    server.watch(str(HANDWRITTEN))
    return server


def on_env(env, config, files, **kwargs):
    import jinja2

    from warscribe.site.theme import HANDWRITTEN

    theme = env.loader
    env.loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(HANDWRITTEN / "overrides")),
                                      jinja2.PrefixLoader({"material": theme}), theme])
    partials = _Partials(env)
    env.globals["ws_partial"] = jinja2.pass_context(lambda context, name: partials.render(context, name))
    return env


_NO_CACHE = "WARSCRIBE_SITE_NO_PARTIAL_CACHE"  # set: every partial rendered in full (what the test compares with)


class _Partials:
    """``ws_partial(name)`` in a template: the theme's template `name` as an include would give it, reused
    across pages for which it cannot differ (see the module's docstring)."""

    def __init__(self, env):
        import os

        self.env = env
        self.cache: dict[tuple, str] = {}
        self.enabled = not os.environ.get(_NO_CACHE)
        self.links: list[str] | None = None  # every URL of the navigation, in its order
        self.listed: set[int] = set()  # ids of the pages in the navigation
        self.page, self.page_links = None, ()

    def _learn(self, nav) -> None:
        self.links, stack = [], list(nav.items)[::-1]
        while stack:
            item = stack.pop()
            if getattr(item, "url", None) is not None:
                self.links.append(item.url)
            stack.extend(list(getattr(item, "children", None) or [])[::-1])
        self.listed = {id(p) for p in nav.pages}

    def render(self, context, name: str):
        from markupsafe import Markup
        from mkdocs.utils.templates import url_filter

        page, nav = context.get("page"), context.get("nav")
        links = None
        if self.enabled and page is not None and nav is not None:
            if self.links is None:
                self._learn(nav)
            if id(page) not in self.listed:
                if self.page is not page:  # the links of the page being built, for each of its partials
                    self.page, self.page_links = page, tuple(url_filter(context, u) for u in self.links)
                links = self.page_links
        html = self.cache.get((name, links)) if links is not None else None
        if html is None:
            html = self.env.get_template(name).render(context.get_all())
            if links is not None:
                self.cache[(name, links)] = html
        return Markup(html)


def on_page_read_source(page, config, **kwargs) -> str | None:
    """A generated page's source up to and with its head line (None: a hand-written page, read whole by mkdocs)."""
    from warscribe.site.pages import PAGE_MARKER

    path = page.file.abs_src_path
    if not path:
        return None
    lines = []
    with open(path, encoding="utf-8-sig", errors="strict") as fh:  # as mkdocs opens a page
        for line in fh:
            lines.append(line)
            if len(lines) >= 2 and lines[-2] == PAGE_MARKER + "\n":
                page.ws_body_from = path
                return "".join(lines)
            if len(lines) == _HEAD_LINES:
                break
    return None


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    from warscribe.site.pages import PAGE_MARKER

    if markdown.startswith(PAGE_MARKER):
        page.render = types.MethodType(_render_html, page)
    return markdown


def on_page_context(context, page, config, nav, **kwargs):
    """The body of a generated page whose head alone was read (on_page_read_source), as it is about to be written."""
    path = getattr(page, "ws_body_from", None)
    if path is not None:
        from warscribe.site.pages import PAGE_MARKER

        with open(path, encoding="utf-8-sig", errors="strict") as fh:
            text = fh.read()
        head = text.index(PAGE_MARKER + "\n") + len(PAGE_MARKER) + 1
        page.content = text[text.index("\n", head) + 1:]
    return context


def on_post_page(output: str, page, config, **kwargs) -> str:
    if getattr(page, "ws_body_from", None) is not None:
        page.content = ""  # written: mkdocs would keep every page's body to the end of the build
    return output


def _render_html(page, config, files) -> None:
    """Page.render for a generated page: its body is the content (``on_page_context`` reads it when its head
    alone was read); its first line, the table of contents and the sidebar (``pages.Page.markdown``)."""
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
