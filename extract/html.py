"""The HTML reader: a saved rules-site page into the same Document the text reader makes.

Extraction reads only :class:`~extract.lines.Document` lines, so this reader's job is
to lay the page out the way a text dump of it reads: one line per block of text, table
rows as ``| a | b |`` with their cells, list items as ``- item``, the page body first
and every tooltip text after it. What the site's markup says and a text dump loses is
kept in the text: weapon abilities in ``kwb`` spans become the bracket notation
``Bolt pistol [pistol]`` that :func:`extract.abilities.split_weapon_name` reads
without guessing.

Conventions of the site handled here (see docs/formats.md):

* weapon abilities as ``<span class="kwb">`` (or ``kwb2``/``kwbw``) inside the first
  cell of a table row; elsewhere such spans are plain text (keywords);
* tooltips as ``<span class="tooltipNNNNN" data-tooltip-content="#tooltip_contentNNNNN">``
  whose content is an element with that id somewhere in the page, often hidden: the
  content is taken out of the flow and read after the body, like a text dump has it;
* stratagem texts run together as ``<b>WHEN:</b> ... <b>TARGET:</b> ... <b>EFFECT:</b>``:
  each label starts a line;
* header rows (all ``<th>``) read as ``RANGED WEAPONS | RANGE | ... |``, data rows as
  ``| a | b |``, both with their cells, as the text reader gives them;
* navigation and advertising (``nav``, ``header``, ``footer``, ``aside``, menus, ad
  blocks) become one classified line each, so line accounting still sees them;
  scripts, styles and templates are dropped unread.

The page is untrusted input: nothing is evaluated, entities are decoded once by the
parser and the resulting text is kept as text.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, ProcessingInstruction, Tag

from warscribe.schema.diagnostics import Report
from warscribe.extract.encoding import decode_utf8
from warscribe.extract.lines import Document, Line, repair_characters
from warscribe.extract.stratagem_text import LABEL_ONLY

# Never content: dropped with everything inside.
_DROPPED = {"script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "canvas",
            "head", "title", "meta", "link", "button", "input", "select", "textarea", "option", "form"}
_NAVIGATION_TAGS = {"nav", "header", "footer", "aside", "menu"}
# Class or id words that mark site chrome. Matched per hyphen/underscore-separated word,
# so 'adblock' or 'header-ad' match and 'shadow' or 'loadout' do not.
_NAVIGATION_WORDS = {"nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs", "sidebar", "header",
                     "footer", "topbar", "toc"}
_ADVERT_WORDS = {"ad", "ads", "adv", "advert", "adverts", "advertisement", "adsbygoogle", "adblock", "banner",
                 "sponsor", "sponsored", "promo", "affiliate"}
_BLOCK = {"address", "article", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div", "dl",
          "dt", "fieldset", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "html", "li",
          "main", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
          "ul"}
_ABILITY_CLASSES = {"kwb", "kwb2", "kwbw"}
_TOOLTIP_ID = re.compile(r"^tooltip_content\d+$")
# HTML whitespace (not U+00A0, which is content).
_SPACE = re.compile(r"[ \t\n\r\f]+")


def _collapse(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _words(tag: Tag) -> set[str]:
    names = list(tag.get("class") or [])
    if tag.get("id"):
        names.append(tag["id"])
    if tag.get("role"):
        names.append(tag["role"])
    return {w for name in names for w in re.split(r"[-_\s]+", name.lower()) if w}


def _chrome(tag: Tag) -> str | None:
    """'navigation' or 'advert' for site chrome, else None."""
    words = _words(tag)
    if words & _ADVERT_WORDS:
        return "advert"
    if tag.name in _NAVIGATION_TAGS or words & _NAVIGATION_WORDS:
        return "navigation"
    return None


def _is_ability_span(tag: Tag) -> bool:
    return tag.name == "span" and bool(set(tag.get("class") or []) & _ABILITY_CLASSES)


class _Reader:
    def __init__(self, doc: Document, report: Report, tooltip_ids: set[str], fragment: bool = False):
        self.doc = doc
        self.report = report
        self.tooltip_ids = tooltip_ids
        # A field of a data export (fragment_text): its tables are rules laid out in boxes,
        # not weapon profiles, so no cell's spans are weapon abilities and a one-cell row
        # reads as the paragraphs and items it holds.
        self.fragment = fragment
        self.buf: list[str] = []
        self.buf_line = 0
        self.cursor = 1  # source line of the parser's position, as far as we know it
        self.prefix = ""  # '- ' while inside a list item's first line
        self.deferred: list[Tag] = []
        # What separates each emitted line from the one before: "soft" after one <br>,
        # "hard" after a block boundary or <br><br> (paragraphs, for field texts).
        self.breaks: list[str] = []
        self.next_break = "hard"

    # -- output --------------------------------------------------------------------

    def flush(self, after: str = "hard") -> None:
        text = _collapse("".join(self.buf))
        if text:
            self.doc.lines.append(Line(self.buf_line, self.prefix + text))
            self.breaks.append(self.next_break)
            self.prefix = ""
            self.next_break = after
        elif after == "hard" or self.next_break == "soft":
            self.next_break = "hard"  # a second <br> in a row ends a paragraph
        self.buf = []

    def add_line(self, line: Line) -> None:
        """A line made whole (a table row, a chrome line), with its break like flush()'s lines."""
        self.doc.lines.append(line)
        self.breaks.append(self.next_break)
        self.next_break = "soft"  # the rows of one table, one a line

    def add_text(self, text: str) -> None:
        if not self.buf or not _collapse("".join(self.buf)):
            lead = len(text) - len(text.lstrip(" \t\n\r\f"))
            self.buf_line = self.cursor + text[:lead].count("\n")
        self.buf.append(text)
        self.cursor += text.count("\n")

    # -- walking -------------------------------------------------------------------

    def is_tooltip_content(self, tag: Tag) -> bool:
        tid = tag.get("id")
        return bool(tid) and (tid in self.tooltip_ids or bool(_TOOLTIP_ID.match(tid)))

    def walk(self, node, in_tooltip: bool = False) -> None:
        for child in list(node.children):
            self.visit(child, in_tooltip)

    def visit(self, node, in_tooltip: bool) -> None:
        if isinstance(node, (Comment, Doctype, Declaration, ProcessingInstruction)):
            return
        if isinstance(node, NavigableString):
            self.add_text(str(node))
            return
        if not isinstance(node, Tag):
            return
        if node.sourceline:
            self.cursor = node.sourceline
        name = node.name.lower()
        if name in _DROPPED:
            return
        if not in_tooltip and self.is_tooltip_content(node):
            self.flush()
            self.deferred.append(node)
            return
        chrome = _chrome(node) if name not in ("html", "body") else None
        if chrome:
            self.flush()
            text = _collapse(node.get_text(" "))
            if text:
                ln = Line(node.sourceline or self.cursor, text)
                ln.classify(chrome)
                self.add_line(ln)
            return
        if name == "br":
            self.flush("soft")
            return
        if name == "table":
            self.flush()
            self.table(node, in_tooltip)
            return
        if name in ("b", "strong") and LABEL_ONLY.match(_collapse(node.get_text())):
            self.flush("soft")
        if name in _BLOCK:
            self.flush()
            if name == "li":
                self.prefix = "- "
            self.walk(node, in_tooltip)
            self.flush()
            self.prefix = ""
            return
        self.walk(node, in_tooltip)

    def table(self, table: Tag, in_tooltip: bool) -> None:
        for row in _rows(table):
            cells = [c for c in row.find_all(["td", "th"], recursive=False)]
            if not cells:
                continue
            if self.fragment and len(cells) == 1:
                self.flush()
                self.walk(cells[0], in_tooltip)
                self.flush()
                continue
            texts = [self.cell_text(c, first=(i == _first_filled(cells))) for i, c in enumerate(cells)]
            line_no = row.sourceline or self.cursor
            if all(c.name == "th" for c in cells):
                # A heading row, as text dumps print one: 'RANGED WEAPONS | RANGE | ... |'.
                self.add_line(Line(line_no, _collapse(" | ".join(texts) + " |"), cells=texts))
            else:
                self.add_line(Line(line_no, _collapse("| " + " | ".join(texts) + " |"), cells=texts))
        self.next_break = "hard"
        # A nested tooltip content inside a cell is still read, after the body.
        for inner in table.find_all(id=True):
            if not in_tooltip and self.is_tooltip_content(inner):
                self.deferred.append(inner)

    def cell_text(self, cell: Tag, first: bool) -> str:
        """A cell's text; in the first cell, ability spans become '[a, b]' after the name."""
        abilities: list[str] = []
        parts: list[str] = []

        def gather(node) -> None:
            for child in node.children:
                if isinstance(child, (Comment, Doctype, Declaration, ProcessingInstruction)):
                    continue
                if isinstance(child, NavigableString):
                    parts.append(str(child))
                elif isinstance(child, Tag):
                    if child.name in _DROPPED or (child.get("id") and self.is_tooltip_content(child)):
                        continue
                    if first and not self.fragment and _is_ability_span(child) and not child.find(_is_ability_span):
                        ability = _collapse(child.get_text(" ")).strip("[] ")
                        if ability:
                            abilities.append(ability)
                        continue
                    if child.name == "br" or child.name in _BLOCK:
                        parts.append(" ")
                    gather(child)
                    if child.name in _BLOCK:  # 'M +3"' in its box, then 'Add 3" ...': words apart
                        parts.append(" ")

        gather(cell)
        text = _collapse("".join(parts))
        if abilities:
            # Separators the site prints between spans belong to no name.
            text = text.strip(" ,;") + " [" + ", ".join(abilities) + "]"
        return text.strip()


def _first_filled(cells: list[Tag]) -> int:
    for i, c in enumerate(cells):
        if _collapse(c.get_text()):
            return i
    return 0


def _rows(table: Tag) -> list[Tag]:
    """The table's own rows (through thead/tbody/tfoot, even nested ones as the Wahapedia export
    writes `<tbody><tbody><tr>`), not those of nested tables."""
    rows = []
    sections = [table]
    while sections:
        for child in sections.pop(0).children:
            if isinstance(child, Tag):
                if child.name == "tr":
                    rows.append(child)
                elif child.name in ("thead", "tbody", "tfoot"):
                    sections.append(child)
    return rows


def fragment_text(fragment: str) -> str:
    """The text of an HTML fragment (a field of a data export), read as a page is.

    Lines of one paragraph are joined by a newline; paragraphs (block elements, or
    ``<br><br>``) by a blank line; list items read as ``- item``.
    """
    if "<" not in fragment and "&" not in fragment:
        # Plain text: its own newlines are the breaks.
        paragraphs = re.split(r"\n[ \t\r\f]*\n\s*", fragment.strip())
        return "\n\n".join("\n".join(_collapse(x) for x in p.split("\n") if x.strip()) for p in paragraphs if p.strip())
    doc = Document(path="", ruleset="", kind="", meta={})
    reader = _Reader(doc, Report(), set(), fragment=True)
    soup = BeautifulSoup(fragment, "html.parser")
    if nesting_depth(soup)[0] > MAX_DEPTH:
        # Too deep to walk: its plain text, one paragraph (the CSV reader reports the cell).
        return _collapse(soup.get_text(" "))
    reader.walk(soup)
    reader.flush()
    out = ""
    for ln, brk in zip(doc.lines, reader.breaks):
        if ln.use is None:
            out += ("" if not out else "\n" if brk == "soft" else "\n\n") + ln.text
    return out


# Real pages nest a few dozen elements deep. The reader walks the tree recursively, so a
# hostile page nested thousands deep is refused up front rather than crashing the build.
MAX_DEPTH = 200


def nesting_depth(soup: Tag) -> tuple[int, int]:
    """(deepest element nesting, source line of the deepest element), without recursion."""
    deepest, line = 0, 1
    stack = [(soup, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest, line = depth, node.sourceline or line
        stack.extend((c, depth + 1) for c in node.contents if isinstance(c, Tag))
    return deepest, line


def read_html(path: str, data: bytes, ruleset: str, kind: str, meta: dict, report: Report) -> Document | None:
    """Read a saved HTML page into a Document; None (with an error) if unreadable."""
    if not data.strip():
        report.error(path, 1, "empty-source", "source file is empty", expected="an HTML page", found=f"{len(data)} bytes")
        return None
    text, bad = decode_utf8(data)
    if bad is not None:
        report.error(path, bad.line, "bad-encoding", "page is not valid UTF-8; undecodable bytes replaced",
                     expected="UTF-8 text", found=bad.found, column=bad.column)
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        report.error(path, line, "binary-source", "page contains binary data (NUL byte)", expected="HTML text", found="NUL byte")
        return None
    soup = BeautifulSoup(text, "html.parser")
    depth, deep_line = nesting_depth(soup)
    if depth > MAX_DEPTH:
        report.error(path, deep_line, "too-deep", f"elements nested {depth} deep; page not read",
                     expected=f"at most {MAX_DEPTH} levels of nesting", found=f"{depth} levels")
        return None
    doc = Document(path=path, ruleset=ruleset, kind=kind, meta=meta)
    doc.raw_line_count = text.count("\n") + (0 if text.endswith("\n") else 1)

    references: dict[str, Tag] = {}
    for span in soup.find_all(attrs={"data-tooltip-content": True}):
        target = span["data-tooltip-content"].lstrip("#")
        references.setdefault(target, span)
    reader = _Reader(doc, report, set(references))
    reader.walk(soup)
    reader.flush()
    # Tooltip texts after the body, in page order; a content inside another is read with it.
    seen: set[int] = set()
    for tag in reader.deferred:
        if id(tag) in seen or any(id(p) in seen for p in tag.parents):
            continue
        seen.add(id(tag))
        reader.cursor = tag.sourceline or reader.cursor
        reader.visit(tag, in_tooltip=True)
        reader.flush()
    present = {t.get("id") for t in soup.find_all(id=True)}
    for target, span in sorted(references.items(), key=lambda kv: (kv[1].sourceline or 0, kv[0])):
        if target not in present:
            report.warning(path, span.sourceline or 1, "missing-tooltip",
                           f"tooltip {_collapse(span.get_text())!r} points at #{target}, which the page lacks",
                           expected=f"an element with id {target}", found="nothing",
                           column=(span.sourcepos or 0) + 1)
    if not any(ln.use is None for ln in doc.lines):
        report.error(path, 1, "empty-source", "page has no readable text", expected="rules text", found="markup only")
        return None
    for ln in doc.lines:
        # The same unambiguous repairs as a text page, located at the text's line.
        ln.text, repairs = repair_characters(ln.text)
        for col, found, repaired, what in repairs:
            report.warning(path, ln.no, "repaired-character", f"{what} repaired; the original is kept in provenance",
                           expected=repaired, found=found)
            ln.repairs.append((ln.col + col - 1, found, repaired))
    return doc
