"""Keywords an army's own rules give its units, read from the build's faction abilities at run time.

A chapter's army rule can give units drawn from its parent faction a keyword the datasheet does
not print (the Dark Angels' The Ravenwing: 'The following ADEPTUS ASTARTES units gain the
RAVENWING keyword if they are drawn from the Dark Angels Chapter: ■ MOUNTED units ■ VEHICLE
units that can FLY'). Which enhancements such a unit may take (RAVENWING FLY unit only) then
depends on it. Only that sentence's shape is read: a list item it cannot read entirely is left
out, so a gain is never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from warscribe.schema.bundle import Bundle
from warscribe.schema.text import slugify

_CAPS = r"[A-Z][A-Z'’\-]*(?: [A-Z][A-Z'’\-]*)*"
_GAIN = re.compile(rf"The following ({_CAPS}) units gain the ({_CAPS}) keyword if they are drawn from the "
                   rf"([A-Z][\w'’ -]*?) Chapter:\s*((?:\s*■[^■]+)+)")
# One item: 'MOUNTED units', 'VEHICLE units that can FLY', 'LAND RAIDER, REPULSOR and DREADNOUGHT units'.
_ITEM = re.compile(rf"^({_CAPS}(?:(?:, | and ){_CAPS})*) units(?: that can ({_CAPS}))?$")


@dataclass(frozen=True)
class Gain:
    """Units with `among` and every keyword of one of `ways` gain `keyword` in an army of `chapter`."""

    keyword: str
    among: str
    chapter: str
    ways: tuple[frozenset[str], ...]
    rule: str  # the ability record's id

    def gives(self, keywords: set[str]) -> bool:
        return self.among in keywords and any(way <= keywords for way in self.ways)


def read(kb: Bundle, factions: set[str]) -> list[Gain]:
    """The gains the faction abilities of `factions` (names as the build has them) state."""
    prefixes = tuple(f"{slugify(f)}/abilities/" for f in factions)
    out = []
    for rec in kb.kind("ability"):
        if not rec["id"].startswith(prefixes) or not rec.get("text"):
            continue
        for m in _GAIN.finditer(rec["text"]):
            ways = []
            for item in m.group(4).split("■"):
                found = _ITEM.match(item.strip())
                if found is None:
                    continue
                for name in re.split(r", | and ", found.group(1)):
                    ways.append(frozenset({name} | ({found.group(2)} if found.group(2) else set())))
            if ways:
                out.append(Gain(m.group(2), m.group(1), m.group(3), tuple(ways), rec["id"]))
    return out


def gained(gains: list[Gain], keywords: set[str]) -> set[str]:
    """The keywords a unit of `keywords` gains from `gains`."""
    return {g.keyword for g in gains if g.gives(keywords)}
