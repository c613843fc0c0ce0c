"""The intermediate form every reader produces: numbered lines of one document.

Readers (plain text today, HTML and others later) turn a file into a
:class:`Document`. Extraction reads only Documents, so one extractor serves every
input format. Each :class:`Line` remembers the source line it came from and, once
extraction has used it, what it was used for: every line ends up either used by a
record or classified as ignorable, and the build reports the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.extract.encoding import decode_utf8
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import UNSAFE, describe_character

# What a line may be classified as when no record uses it.
IGNORABLE = {
    "blank": "empty line",
    "navigation": "site navigation (army-list menus, category links)",
    "advert": "advertising or credits",
    "duplicate": "a repeat of a line already used",
    "heading": "a heading or list label whose content is recorded elsewhere",
    "lost-table": "a table whose cells were lost in scraping",
}


@dataclass
class Line:
    no: int  # 1-based line number in the source file
    text: str
    col: int = 1  # 1-based column where this piece starts (run-on lines are split)
    # Table cells, when the reader saw a table row ('| a | b |').
    cells: list[str] | None = None
    use: str | None = None  # record id, or "class:<name>" from IGNORABLE
    # Characters repaired when read: (column, as found, as repaired); the record keeps them in provenance.
    repairs: list[tuple[int, str, str]] = field(default_factory=list)

    def mark(self, use: str) -> None:
        if self.use is None:
            self.use = use

    def classify(self, cls: str) -> None:
        assert cls in IGNORABLE, cls
        self.mark("class:" + cls)


@dataclass
class Document:
    path: str  # as recorded in provenance, relative to the repository root
    ruleset: str
    kind: str
    meta: dict
    lines: list[Line] = field(default_factory=list)
    raw_line_count: int = 0
    _last_col: dict[int, int] | None = field(default=None, repr=False, compare=False)

    def unaccounted(self) -> list[Line]:
        return [ln for ln in self.lines if ln.use is None]

    def shares_line(self, ln: Line) -> bool:
        """Whether the physical line of `ln` holds a piece after it (a run-on line)."""
        if self._last_col is None:
            self._last_col = {}
            for piece in self.lines:
                self._last_col[piece.no] = max(self._last_col.get(piece.no, 0), piece.col)
        return self._last_col.get(ln.no, 0) > ln.col

    def forget_pieces(self) -> None:
        """After a line was cut into pieces (or pieces replaced): `shares_line` looks again."""
        self._last_col = None


# A run-on: a sentence ends and the next heading or sentence starts with no space
# ("...Leader ability.POINT-BLANK PURGATION", "...(13.08).[IGNORES COVER]24.18",
# "...as follows:- Your deployment zone"). Splitting there recovers the lines the
# page had before scraping glued them.
_RUN_ON = re.compile(
    r"(?<=[A-Za-z0-9)\]’'\"”*][.!?])(?=[A-Z\[‘'“])"  # ".X" / ".[" — sentence then capital
    r"|(?<=[a-z)\]][.:])(?=- [A-Z‘'“\[])"  # ".- Item" / ":- Item" — inline bullet
    r"|(?<=[a-z)][.])(?=\d\d\.\d\d)"  # "roll.13.08 Benefit of Cover"
    r"|(?<=[a-z.)]) (?=- (?:[A-Z][a-z]+ ){1,3}[A-Za-z]+: )"  # "... unit. - Resolve Damage: ..."
    r"|(?<=[a-z)][.:])(?=\s{2,}- [A-Z‘'“\[])"  # "... apply:  - That unit ..." — a list flattened into a line
)


# What every run-on has (punctuation with no space after it, or ' - '): one quick scan
# that most lines fail, before the slower pattern with its look-behinds.
_MAYBE_RUN_ON = re.compile(r"[.!?:][^\s]| - ")


def split_run_ons(text: str) -> list[tuple[int, str]]:
    """Split one physical line into (column, piece) at run-on boundaries."""
    if not _MAYBE_RUN_ON.search(text):
        return [(1, text)]
    pieces: list[tuple[int, str]] = []
    start = 0
    for m in _RUN_ON.finditer(text):
        cut = m.start()
        if cut <= start:
            continue
        pieces.append((start + 1, text[start:cut].rstrip()))
        start = cut
        while start < len(text) and text[start] == " ":
            start += 1
    pieces.append((start + 1, text[start:]))
    return [(c, p) for c, p in pieces if p or len(pieces) == 1]


# Scraping damage that has one reading, so it is repaired (and reported, with the original
# kept in provenance): a no-break space is a space; a closing curly quote right after a
# number is an inch mark ('9”' is 9 inches, the rules print distances as 9").
# Each with the character it repairs, so that a line without it is not searched.
_REPAIRS = (
    ("\u00a0", re.compile("\u00a0"), " ", "no-break space"),
    ("\u201d", re.compile("(?<=\\d)\u201d"), '"', "curly quote as an inch mark"),
)


def repair_characters(text: str) -> tuple[str, list[tuple[int, str, str, str]]]:
    """`text` with its unambiguous character damage repaired; each repair as (column, found, repaired, what)."""
    repairs = []
    for char, pattern, replacement, what in _REPAIRS:
        if char not in text:
            continue
        for m in pattern.finditer(text):
            repairs.append((m.start() + 1, m.group(0), replacement, what))
        text = pattern.sub(replacement, text)  # same length: columns stay the source's
    return text, sorted(repairs)
_TABLE_ROW = re.compile(r"^(?:\|.*|[^|]+\|.*)\|\s*$")


def table_cells(text: str) -> list[str] | None:
    """Cells of a table row: '| a | b |', or 'label | |' (a row whose first cell lost its bar).

    The empty cell after the closing bar is not a cell; empty cells inside the row are.
    """
    text = text.strip()
    if not _TABLE_ROW.match(text) or text.count("|") < 2:
        return None
    inner = text[1:] if text.startswith("|") else text
    return [c.strip() for c in inner[:-1].split("|")]


def read_text(path: str, data: bytes, ruleset: str, kind: str, meta: dict, report: Report) -> Document | None:
    """Read a plain-text scrape into a Document; None (with an error) if unreadable."""
    doc = Document(path=path, ruleset=ruleset, kind=kind, meta=meta)
    if not data.strip():
        report.error(path, 1, "empty-source", "source file is empty", expected="rules text", found=f"{len(data)} bytes")
        return None
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        report.error(path, line, "binary-source", "source file contains binary data (NUL byte)", expected="UTF-8 text", found="NUL byte")
        return None
    text, _bad = decode_utf8(data)  # each line with replaced bytes is reported below
    physical = text.split("\n")
    if physical and physical[-1] == "":
        physical.pop()
    doc.raw_line_count = len(physical)
    for no, raw in enumerate(physical, start=1):
        raw = raw.rstrip("\r")
        if "\ufffd" in raw:
            col = raw.index("\ufffd") + 1
            report.error(path, no, "bad-encoding", "line is not valid UTF-8; undecodable bytes replaced", expected="UTF-8 text", found=raw, column=col)
        unsafe = UNSAFE.search(raw)
        if unsafe:
            report.error(path, no, "control-characters", f"line contains {describe_character(unsafe.group())} (and "
                         "any other character that cannot be shown); replaced by U+FFFD", expected="printable text",
                         found=repr(raw), column=unsafe.start() + 1)
            raw = UNSAFE.sub("\ufffd", raw)
        if not raw.strip():
            ln = Line(no, raw)
            ln.classify("blank")
            doc.lines.append(ln)
            continue
        raw, repairs = repair_characters(raw)
        for col, found, repaired, what in repairs:
            report.warning(path, no, "repaired-character", f"{what} repaired; the original is kept in provenance",
                           expected=repaired, found=found, column=col)
        cells = table_cells(raw)
        if cells is not None:
            doc.lines.append(Line(no, raw.strip(), 1, cells=cells,
                                  repairs=[(c, f, r) for c, f, r, _w in repairs]))
            continue
        indent = len(raw) - len(raw.lstrip())
        pieces = [(col + indent, piece) for col, piece in split_run_ons(raw.strip())]
        for k, (col, piece) in enumerate(pieces):
            # A piece owns the repairs up to the next piece (the spaces between them too).
            end = pieces[k + 1][0] if k + 1 < len(pieces) else len(raw) + 1
            mine = [(c, f, r) for c, f, r, _w in repairs if (col <= c or k == 0) and c < end]
            doc.lines.append(Line(no, piece, col, repairs=mine))
    return doc
