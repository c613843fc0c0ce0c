"""HTML for generated pages: every piece of scraped text is escaped here, every href made here.

Generated pages are HTML handed to the theme as they are (:mod:`hooks`), so nothing from
a source may reach a page except through :func:`esc`. Links are only ever made by
:func:`a` from URLs the site computes from record ids (:mod:`urls`), never from text
found in a source.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

_SAFE_HREF = re.compile(r"^(?:\.{1,2}/|[a-z0-9#])[A-Za-z0-9._~/#%-]*$")
_SAFE_ATTR = re.compile(r"^[a-z][a-z0-9-]*$")
_SPECIAL = re.compile(r"[&<>\"']")
_NEWLINES = re.compile(r"\s*\n\s*")


def esc(text: object) -> str:
    """Text as HTML: `<`, `>`, `&` and quotes become entities; newlines become spaces.

    Newlines go because a blank line would end Markdown's raw-HTML block early and let
    the rest of the text be read as Markdown.
    """
    text = str(text)
    if "\n" in text:
        text = _NEWLINES.sub(" ", text)
    return html.escape(text, quote=True) if _SPECIAL.search(text) else text


def safe_href(href: str) -> str:
    """A relative href made by the site; anything else (a scheme, a quote...) is refused."""
    if not _SAFE_HREF.match(href) or ":" in href:
        raise ValueError(f"refusing to write the link target {href!r}")
    return href


@lru_cache(maxsize=None)
def _attribute(key: str) -> str:
    """'class_' -> 'class', 'aria_label' -> 'aria-label'; event handlers refused."""
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
        if value is True:
            out.append(" " + name)
        else:
            value = str(value)
            out.append(f' {name}="{html.escape(value, quote=True) if _SPECIAL.search(value) else value}"')
    return "".join(out)


def el(tag: str, inner: str = "", **values: object) -> str:
    """An element around already-safe HTML `inner`."""
    return f"<{tag}{attrs(**values)}>{inner}</{tag}>" if values else f"<{tag}>{inner}</{tag}>"


def a(href: str, text_html: str, **values: object) -> str:
    return el("a", text_html, href=href, **values)


def tip_link(href: str, text: str, tip: str | None, **values: object) -> str:
    """A link with a hover/focus tooltip (CSS only) holding a rule's summary."""
    if not tip:
        return a(href, esc(text), **values)
    return el("span", a(href, esc(text), **values) + el("span", esc(tip), class_="ws-tip", role="tooltip"),
              class_="ws-tipped")


class GroupRow:
    """A row of a table that heads the rows after it (a weapon's name over its profiles): one cell
    across every column, already-safe HTML."""

    def __init__(self, html_text: str, class_: str = "ws-group-row"):
        self.html = html_text
        self.class_ = class_

    def render(self, columns: int) -> str:
        return f'<tr{attrs(class_=self.class_)}><th{attrs(colspan=columns, scope="rowgroup")}>{self.html}</th></tr>'


def table(head: list[str], rows: list, label: str | None = None, **values: object) -> str:
    """A table of already-safe cells in a box that scrolls sideways on a narrow screen.

    Each cell carries its column's name (``data-label``), so that a stylesheet can lay a row
    out as a card on a phone; the box is focusable and named, so a keyboard can scroll it.
    A row is a list of cells, or a :class:`GroupRow`.
    """
    labels = [html.escape(" ".join(re.sub(r"<[^>]+>", " ", h).split()), quote=True) for h in head]
    # Spaces between cells: text taken from the page must not run words together.
    thead = "<thead><tr>" + " ".join(f"<th>{h}</th>" for h in head) + "</tr></thead>"
    body = " ".join(row.render(len(head)) if isinstance(row, GroupRow) else
                    "<tr>" + " ".join(f'<td data-label="{lab}">{c}</td>' for lab, c in zip(labels, row)) + "</tr>"
                    for row in rows)
    return el("div", el("table", thead + "<tbody>" + body + "</tbody>", **values), class_="ws-scroll",
              tabindex="0", role="region", aria_label=label or "table")
