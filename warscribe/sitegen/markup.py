"""HTML for generated pages: every piece of scraped text is escaped here, every href made here.

Generated pages are Markdown files, and Markdown passes raw HTML through untouched, so
nothing from a source may reach a page except through :func:`esc`. Links are only
ever made by :func:`a` from URLs the site computes from record ids (:mod:`urls`),
never from text found in a source.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

_SAFE_HREF = re.compile(r"^(?:\.{1,2}/|[a-z0-9#])[A-Za-z0-9._~/#%-]*$")
_SAFE_ATTR = re.compile(r"^[a-z][a-z0-9-]*$")


def esc(text: object) -> str:
    """Text as HTML: `<`, `>`, `&` and quotes become entities; newlines become spaces.

    Newlines go because a blank line would end Markdown's raw-HTML block early and let
    the rest of the text be read as Markdown.
    """
    return html.escape(re.sub(r"\s*\n\s*", " ", str(text)), quote=True)


def safe_href(href: str) -> str:
    """A relative href made by the site; anything else (a scheme, a quote...) is refused."""
    if not _SAFE_HREF.match(href) or ":" in href:
        raise ValueError(f"refusing to write the link target {href!r}")
    return href


@lru_cache(maxsize=None)
def _attribute(key: str) -> str:
    """'class_' -> 'class', 'data_search_exclude' -> 'data-search-exclude'; event handlers refused."""
    name = key.rstrip("_").replace("_", "-")
    if not _SAFE_ATTR.match(name) or name.startswith("on"):
        raise ValueError(f"refusing to write the attribute {name!r}")
    return name


def attrs(**values: object) -> str:
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = _attribute(key)
        if name == "href":
            value = safe_href(str(value))
        out.append(f' {name}' if value is True else f' {name}="{html.escape(str(value), quote=True)}"')
    return "".join(out)


def el(tag: str, inner: str = "", **values: object) -> str:
    """An element around already-safe HTML `inner`."""
    return f"<{tag}{attrs(**values)}>{inner}</{tag}>"


def a(href: str, text_html: str, **values: object) -> str:
    return el("a", text_html, href=href, **values)


def tip_link(href: str, text: str, tip: str | None, **values: object) -> str:
    """A link with a hover/focus tooltip (CSS only) holding a rule's summary."""
    if not tip:
        return a(href, esc(text), **values)
    return el("span", a(href, esc(text), **values) + el("span", esc(tip), class_="ws-tip", role="tooltip",
                                                          data_search_exclude=True), class_="ws-tipped")


def table(head: list[str], rows: list[list[str]], **values: object) -> str:
    """A table of already-safe cells, wrapped so that it scrolls on a narrow screen."""
    # Spaces between cells: the search index strips tags, and words must not run together.
    thead = el("thead", el("tr", " ".join(el("th", h) for h in head)))
    tbody = el("tbody", " ".join(el("tr", " ".join(el("td", c) for c in row)) for row in rows))
    return el("div", el("table", thead + tbody, **values), class_="ws-scroll")


def block(html_text: str) -> str:
    """A raw-HTML block for a Markdown page: one element on one line, blank lines around it.

    One element, because Python-Markdown copies the rest of the page at the end of every
    top-level element of a raw block: a text of many paragraphs, left as siblings, costs
    time quadratic in its length (a 6 MB rules text took minutes).
    """
    if "\n" in html_text:
        raise ValueError("a raw-HTML block must not span lines")
    return "\n" + el("div", html_text, class_="ws-block") + "\n"


def heading(level: int, text: str, anchor: str | None = None) -> str:
    """A Markdown heading (so that the table of contents sees it) with escaped text."""
    safe = esc(text)
    safe = re.sub(r"([\\`*_{}\[\]()#+!|~])", r"\\\1", safe)
    return "\n" + "#" * level + " " + safe + (f" {{ #{anchor} }}" if anchor else "") + "\n"
