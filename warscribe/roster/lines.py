"""The pieces every text reader needs: a list's lines with their indent and bullet, and its numbers.

Army builders print numbers with thousands separators that vary with the locale
('1,990', '2 000' with a no-break or narrow no-break space, '1.990') and bullets that
vary with the version ('•', '◦', '-', '*'); these helpers read them all one way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BULLETS = "•◦▪‣∙·-*"
# No-break and narrow no-break spaces: in names they are spaces; in numbers, separators.
_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " ", "\t": "    "})
NUMBER = r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+(?!\d)|\d+"


def number(text: str) -> int:
    """'1,990' / '2\u00a0000' / '1.990' / '2000' -> the integer."""
    return int(re.sub(r"[,.\u00a0\u202f ]", "", text))


@dataclass(frozen=True)
class Line:
    no: int  # 1-based
    raw: str  # as written (without the line break)
    indent: int  # leading spaces (a tab counts four)
    bullet: str  # the bullet character, or ''
    text: str  # without indent, bullet and surrounding spaces; no-break spaces made spaces

    @property
    def blank(self) -> bool:
        return not self.text and not self.bullet


def split(text: str) -> list[Line]:
    out = []
    for i, raw in enumerate(text.split("\n"), 1):
        raw = raw.removesuffix("\r")
        plain = raw.translate(_SPACES)
        stripped = plain.lstrip(" ")
        indent = len(plain) - len(stripped)
        bullet = ""
        if stripped and stripped[0] in BULLETS and (len(stripped) == 1 or stripped[1] == " "):
            bullet, stripped = stripped[0], stripped[1:]
        out.append(Line(i, raw, indent, bullet, re.sub(r" {2,}", " ", stripped.strip())))
    return out


def spaced(text: str) -> str:
    """A name with no-break spaces and runs of spaces made single spaces."""
    return re.sub(r"\s+", " ", text.translate(_SPACES)).strip()


def shouted(text: str) -> bool:
    """All capitals (three letters or more): how builders print a section heading (CHARACTERS, AUTRES FICHES)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


COUNT = re.compile(r"^(\d+)\s*[x×]\s+(.+)$")


def counted(text: str) -> tuple[int | None, str]:
    """'9x Khorne Berzerker' -> (9, 'Khorne Berzerker'); no count -> (None, text)."""
    m = COUNT.match(text)
    return (int(m.group(1)), m.group(2).strip()) if m else (None, text)


def items(text: str) -> list[str]:
    """A comma-separated wargear list, split at top-level commas (not inside brackets)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [i for i in out if i]
