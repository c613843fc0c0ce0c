"""What the reading modules share: BattleScribe's values as Python ones, and its names.

Attribute values are strings in the XML form and typed in the JSON form; these read
both alike.
"""

from __future__ import annotations

import re

WEAPON_TYPES = {"Ranged Weapons": "ranged", "Melee Weapons": "melee"}
# Army-building bookkeeping reached through units' links; not part of a datasheet. 'Crusade' as a
# word: a Crusader Squad's 'Crusaders' are its models.
NOT_WARGEAR = re.compile(r"enhancement|\bcrusade\b|battle honour|battle scar|weapon modification|^warlord$|"
                         r"requisition|detachment", re.I)


def flag(value) -> bool:
    return value is True or str(value).lower() == "true"


def number(value, default: float = 0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def plain(text: str) -> str:
    """BattleScribe markup as the rules print it: ^^**Paladin Squad**^^ -> PALADIN SQUAD."""
    text = re.sub(r"\^\^(.*?)\^\^", lambda m: m.group(1).replace("*", "").upper(), text, flags=re.S)
    text = text.replace("**", "").replace("\u00a0", " ")
    return re.sub(r"[ \t]+\n", "\n", text).strip()


def characteristics(profile: dict) -> dict[str, str]:
    """A profile's characteristics by upper-case name: {'M': '6"', 'T': '4', ...}."""
    return {str(c.get("name", "")).upper(): str(c.get("$text", "")).strip()
            for c in profile.get("characteristics") or [] if isinstance(c, dict)}


def bounds(obj: dict) -> tuple[int, int | None]:
    """The least and most selections an entry or group's constraints allow within the unit (no most: None).

    A constraint's scope is its parent, itself, or an entry or group of the unit named by id;
    one counted across the roster or a force is a rule of army building, not of the unit.
    """
    lo, hi = 0, None
    for c in obj.get("constraints") or []:
        if not isinstance(c, dict) or c.get("field") != "selections" or c.get("scope") in ("roster", "force"):
            continue
        value = int(number(c.get("value")))
        if c.get("type") == "min":
            lo = value
        elif c.get("type") == "max":
            hi = value
    return lo, hi
