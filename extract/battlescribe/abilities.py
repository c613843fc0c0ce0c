"""A unit's abilities: the rules its tree links (core and faction abilities, by reference)
and its ability profiles (datasheet and wargear abilities, as text), with the two profiles
that are not abilities but say something of the unit: Leader and Invulnerable Save."""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.common import WEAPON_TYPES, plain
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.rules import rule_record
from warscribe.extract.battlescribe.walk import Walk
from warscribe.schema.text import clean_name

_BULLET = re.compile(r"^\s*(?:[-■•*]|\d+\.)\s*")


def abilities(out: Output, found: Walk, faction: str) -> tuple[list[dict], dict | None, int | None]:
    """The unit's abilities, its leader list (or None) and its invulnerable save (or None)."""
    items: list[dict] = []
    seen: set[str] = set()
    leader = None
    invulnerable: int | None = None
    for shown, target in found.rules:
        if not shown or shown.lower() in seen:
            continue
        seen.add(shown.lower())
        core = target.file.kind == "gameSystem"
        record = rule_record(out, target.file, target.obj, None if core else faction)
        if record is None:
            continue
        out.emit(record, target.file, target.obj)
        items.append({"name": shown, "type": "core" if core else "faction", "text": None, "ref": record["id"]})
    for profile, context, pfile in found.profiles:
        type_name = str(profile.get("typeName", ""))
        pname = clean_name(str(profile.get("name", "")))
        chars = {str(c.get("name")): plain(str(c.get("$text", ""))) for c in profile.get("characteristics") or []
                 if isinstance(c, dict)}
        if type_name in ("Unit", *WEAPON_TYPES):
            continue
        if type_name not in ("Abilities", "Transport"):
            if (pfile.name, type_name) not in out.unknown_types:
                out.unknown_types.add((pfile.name, type_name))
                out.warn(pfile, profile, "unknown-profile-type",
                         f"profile type {type_name!r} is not a known one; its profiles are kept as ability text",
                         expected="Unit, Ranged Weapons, Melee Weapons, Abilities or Transport", found=type_name)
        text = "\n".join(v if len(chars) == 1 else f"{k}: {v}" for k, v in chars.items() if v)
        if pname == "Leader" and type_name == "Abilities":
            head, units_led = _leader(text)
            leader = {"text": head, "units": units_led}
            continue
        if pname.startswith("Invulnerable Save") and type_name == "Abilities":
            m = re.search(r"(\d)\+", pname) or re.search(r"(\d)\+ invulnerable save", text)
            if m:
                invulnerable = int(m.group(1))
                continue
        if not pname or not text or pname.lower() in seen:
            continue
        seen.add(pname.lower())
        item = {"name": re.sub(r"\s*\(Psychic\)\s*$", "", pname) or pname,
                "type": "wargear" if context == "wargear" else "datasheet", "text": text}
        if pname.endswith("(Psychic)"):
            item["psychic"] = True
        items.append(item)
    return items, leader, invulnerable


def _leader(text: str) -> tuple[str, list[str]]:
    """'This model can be attached to the following units:' and the units, listed or inline."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    head = lines[0].strip() if lines else text
    listed = [_BULLET.sub("", ln) for ln in lines[1:] if _BULLET.match(ln)]
    if not listed and ":" in head:
        head, inline = head.split(":", 1)
        head += ":"
        listed = inline.split(",")
    units = []
    for raw in listed:
        unit = re.sub(r"\s*\*+$", "", raw.strip().rstrip("."))
        if unit and unit.upper() == unit:
            unit = " ".join(w.capitalize() if not w.startswith("[") else w for w in unit.split())
        if unit:
            units.append(unit)
    return head, units
