"""Which army builder wrote a list: by its signature first, then by its shape.

A signature is something only that builder writes: the zip magic of a .rosz, the
BattleScribe roster namespace, the app's 'Exported with App Version' line, New
Recruit's 'Created with newrecruit.eu' line, its '+ FACTION KEYWORD:' header, or its
'# ++ Army Roster ++' heading. A list pasted without them (the signature is the first
thing people cut) is recognised by its shape: the kinds of lines it is made of. The
result says which of the two decided, and the evidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from warscribe.roster.source import RosterError

ROSTER_NAMESPACE = b"http://www.battlescribe.net/schema/rosterSchema"

GWAPP_SIGNATURE = re.compile(r"^\s*(Exported with App Version|Export[ée] avec la Version de l.Appli)\b.*$", re.M)
NR_SIGNATURE = re.compile(r"^\s*Created with newrecruit\.eu\b.*$", re.M)
NR_HEADER = re.compile(r"^\+\s*FACTION KEYWORD\s*:.*$", re.M)
NR_SIMPLE_SIGNATURE = re.compile(r"^#\s*\+\+\s*Army Roster\s*\+\+.*$", re.M)

# Shapes: what a line of each format looks like, counted over the first lines.
_SHAPES = {
    "gw-app": re.compile(r"^\S.*\(\s*\d[\d,.\u00a0\u202f ]*\s*(?:points|Points|POINTS)\s*\)\s*$"),
    "newrecruit-text": re.compile(r"^(?:Char\d+:\s*)?(?:\d+x\s+)?\S.*\(\s*\d+\s*pts\s*\)(?::.*)?$|^\+{5,}\s*$|^\+ [A-Z ]+:"),
    "newrecruit-simple": re.compile(r"^\S.*\[\s*\d+\s*pts\s*\]\s*:?.*$|^##\s+\S"),
}
SHAPE_LINES = 400


@dataclass(frozen=True)
class Detected:
    format: str
    by: str  # 'signature' or 'shape'
    evidence: str
    line: int = 0


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def detect_bytes(data: bytes) -> Detected | None:
    """A binary signature (a zip, BattleScribe XML), or None for text."""
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return Detected("battlescribe", "signature", "zip archive (PK header): a .rosz", 1)
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        if ROSTER_NAMESPACE in data[:4096] or re.match(rb"<\?xml[^>]*\?>\s*<roster\b", head):
            return Detected("battlescribe", "signature", "XML with the BattleScribe roster namespace", 1)
        return Detected("battlescribe", "shape", "XML (no BattleScribe roster namespace in the first 4 KB)", 1)
    return None


def detect_text(text: str) -> Detected:
    """The text format; RosterError when neither a signature nor a shape fits."""
    for fmt, pattern in (("gw-app", GWAPP_SIGNATURE), ("newrecruit-text", NR_SIGNATURE),
                         ("newrecruit-text", NR_HEADER), ("newrecruit-simple", NR_SIMPLE_SIGNATURE)):
        m = pattern.search(text)
        if m:
            return Detected(fmt, "signature", m.group(0).strip()[:120], _line_of(text, m.start()))
    counts = {fmt: 0 for fmt in _SHAPES}
    lines = [line.rstrip() for line in text.split("\n", SHAPE_LINES)[:SHAPE_LINES]]
    for line in lines:
        for fmt, pattern in _SHAPES.items():
            if pattern.match(line):
                counts[fmt] += 1
    best = max(counts, key=lambda f: (counts[f], f == "gw-app"))
    if counts[best] == 0:
        nonblank = sum(1 for line in lines if line.strip())
        if not nonblank:
            raise RosterError("roster-empty", "the list is empty", expected="an exported army list", found="no text")
        first = next(line for line in lines if line.strip())
        raise RosterError("roster-format", "no army-list format recognised: no signature line and no unit line "
                          "('Name (N points)', 'Name (N pts)', 'Name [N pts]')",
                          line=lines.index(first) + 1,
                          expected="a Warhammer 40,000 app, New Recruit or BattleScribe export", found=first[:100])
    others = ", ".join(f"{f} {n}" for f, n in counts.items() if f != best and n)
    return Detected(best, "shape", f"{counts[best]} lines shaped as {best}" + (f" (and {others})" if others else ""))
