"""Text helpers of the contract: slugs (the id alphabet), normal forms, paragraph joins, safe forms."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache

# Characters that cannot be written (a lone surrogate has no UTF-8 form) or that a display
# acts on instead of showing: C0 and C1 controls but tab and newline (ESC starts the
# sequences that clear a screen or move the cursor, CR overwrites a line), DEL, the
# bidirectional controls that reorder what is shown, the line and paragraph separators
# (line breaks to some readers, not to others), and the noncharacters of the first plane
# (U+FFFE is a byte-order mark read backwards; YAML cannot write them). No source text
# needs one; in a record each is replaced by U+FFFD and reported (extract/characters.py).
# Only characters of the first plane: a class holding any beyond it makes every search
# ten times slower, and this one runs over every text of the whole game.
UNSAFE_CLASS = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
                "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff")
UNSAFE = re.compile(f"[{UNSAFE_CLASS}]")
# On a terminal a newline or tab from data could forge a line of output as well.
_TERMINAL_UNSAFE = re.compile(f"[\t\n{UNSAFE_CLASS}]")


def _escape(ch: str) -> str:
    return ch.encode("unicode_escape", "backslashreplace").decode("ascii")


def printable(text: str, limit: int | None = None) -> str:
    """`text` safe for a terminal: unsafe characters, newlines and tabs escaped (\\x1b), cut to `limit` characters.

    The one escaping helper for text from data on its way to a terminal (diagnostics, diff,
    check, calc, census ...); JSON on its way there goes through :func:`json_text`.
    """
    if limit is not None and len(text) > limit:
        text = text[: limit - 3] + "..."
    return _TERMINAL_UNSAFE.sub(lambda m: _escape(m.group()), text)


def _json_escape(ch: str) -> str:
    return f"\\u{ord(ch):04x}"


def json_text(value, indent: int | None = 2) -> str:
    """`value` as JSON text (UTF-8 readable, no ASCII escaping) in which no unsafe character appears raw.

    JSON escapes C0 controls itself; the rest of the unsafe characters (C1, bidirectional
    controls, lone surrogates ...) can only stand inside strings, where a \\u escape means
    the same: the text reads back to the same value and is safe to write and to show.
    """
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return UNSAFE.sub(lambda m: _json_escape(m.group()), text)


# A spreadsheet reads a cell that begins with one of these as a formula ('=HYPERLINK(...)',
# '+cmd|...', '@SUM(...)'), a tab or CR as the start of one after its whitespace.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)")  # AP -1, a cost +45, 0.5: values, never formulas


def spreadsheet_cell(text: str) -> str:
    """A CSV/TSV cell no spreadsheet runs: a text beginning with = + - @ tab or CR gets a leading apostrophe.

    The apostrophe is what spreadsheet tools write themselves (and hide) for text that would
    read as a formula. A number (``-1``, ``+45``) and a lone ``-`` (no value) are left exactly
    as they are. A text that already begins with apostrophes before such a character gets
    one more, so that :func:`spreadsheet_text` gives back every text exactly.
    """
    rest = text.lstrip("'")
    if rest.startswith(FORMULA_START) and (text.startswith("'") or not (text == "-" or _NUMBER.fullmatch(text))):
        return "'" + text
    return text


def spreadsheet_text(cell: str) -> str:
    """The text :func:`spreadsheet_cell` was given: one leading apostrophe dropped before = + - @ tab or CR."""
    if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_START):
        return cell[1:]
    return cell


def replace_unsafe(text: str) -> tuple[str, list[tuple[int, str]]]:
    """`text` with each unsafe character replaced by U+FFFD, and (0-based index, character) of each."""
    found = [(m.start(), m.group()) for m in UNSAFE.finditer(text)]
    return (UNSAFE.sub("\ufffd", text) if found else text), found


def describe_character(ch: str) -> str:
    """'ESC (U+001B)', 'RIGHT-TO-LEFT OVERRIDE (U+202E)', 'a lone surrogate (U+D800)'."""
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        name = "a lone surrogate"
    else:
        name = _C0_NAMES.get(code) or unicodedata.name(ch, "a control character" if code < 0xA0 else "a noncharacter")
    return f"{name} (U+{code:04X})"


_C0_NAMES = {0: "NUL", 7: "BEL", 8: "BS", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL", 0x9B: "CSI"}


def slugify(text: str) -> str:
    """Stable kebab-case slug: 'Ordo Xenos Alien Hunters' -> 'ordo-xenos-alien-hunters'."""
    text = text.replace("\u2011", "-").replace("’", "").replace("'", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return text or "unnamed"


def number_slug(number: str) -> str:
    return number.replace(".", "-")


def clean_name(text: str) -> str:
    """A name as a key: the non-breaking hyphen of 'WILL‑SAPPING SALVO' is a hyphen."""
    return re.sub(r"\s+", " ", text.replace("\u2011", "-").replace("\u00a0", " ")).strip()


@lru_cache(maxsize=65536)
def norm(text: str) -> str:
    """Comparison form: case, spacing, bullets, stray asterisks and quotes folded away.

    Two passages that differ only by scraping noise compare equal in this form.
    """
    text = text.replace("\u2011", "-").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = text.replace("*", "")
    text = re.sub(r"(?m)^\s*(?:-|•|\d+\.)\s+", "", text)
    text = re.sub(r"\s+-\s+(?=[A-Z])", " ", text)
    text = re.sub(r"([.:;])(?=[A-Za-z\[])", r"\1 ", text)
    text = re.sub(r"\s+", " ", text)
    return text.strip().casefold()


def join_paragraphs(parts: list[str]) -> str:
    """Paragraphs apart by a blank line; a run of '- ' bullets stays one block."""
    out = ""
    previous_bullet = False
    for part in (p.strip() for p in parts):
        if not part:
            continue
        bullet = part.startswith("- ")
        if out:
            out += "\n" if bullet and previous_bullet else "\n\n"
        out += part
        previous_bullet = bullet
    return out


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
