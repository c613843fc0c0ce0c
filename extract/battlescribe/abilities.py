"""A unit's abilities: the rules its tree links (core and faction abilities, by reference)
and its ability profiles (datasheet and wargear abilities, as text), with the profiles
that are not abilities but say something of the unit: Leader (every one of them: a
character may have two) and Invulnerable Save (per model kind: the model's own, else
the unit's; 'Invulnerable save' in any case, the number from the name or the text, the
data's 'Invunerable Save' too). A Transport profile (whatever it is named: the data often
names it after the unit, 'Chaos Rhino', and now and then types it as an ability) is the
datasheet's TRANSPORT box, not an ability.

A unit with a Leader profile has the core ability Leader, whether or not the data also links
the rule (it does not for Azrael and 15 others). A core ability that is printed with a value
(Feel No Pain 4+) but linked without one is linked for reference only: the unit's own
ability text gives it under a condition.

What the data shows only in another army or with a detachment chosen (Templar Vows on
a Space Marines unit shown only in a Black Templars army) was left out by the walk and is
not the unit's own ability; :mod:`.datasheets` reports it, grouped. Wargear offered only
with a choice made (the C'tan Shard's Animus Damper with the Pantheon of Woe detachment, a
Crucible character's storm shield with the Space Wolves chapter) is the unit's, its ability
text ending with what it needs: '(Only with Pantheon of Woe.)'.

An invulnerable save a wargear choice gives (a Librarius Adept's conversion field, its
Terminator armour) is not the model's own: it is that wargear's ability, named after it
(the save's sentence added to the wargear's own ability where it has one).
"""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.common import WEAPON_TYPES, plain
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.rules import rule_record
from warscribe.extract.battlescribe.walk import Model, Walk
from warscribe.schema import ids
from warscribe.schema.text import clean_name

# Core abilities printed with their value (FEEL NO PAIN 4+, SCOUTS 6", DEADLY DEMISE D3, FIRING DECK 2):
# linked without one, the data links the rule for reference (a datasheet ability gives it 'until the
# end of the phase'), and it is not the unit's own.
_VALUED_CORE = ("feel no pain", "scouts", "deadly demise", "firing deck")
# A list item; a line starting with one '*' is a footnote ('* This model cannot be attached to ...').
_BULLET = re.compile(r"^\s*(?:[-■•●▪]|\d+\.)\s*")
_CAPACITY = re.compile(r"this model has a transport capacity", re.I)
_INVULNERABLE = re.compile(r"^invul?nerable save", re.I)
_INV_NUMBER = re.compile(r"(\d)\+\s*\**\s*\)?\s*(?:invulnerable save)?", re.I)
# What makes an invulnerable save more than a number: a condition, a limit.
_INV_CONDITION = re.compile(r"\bagainst\b|\bcannot\b|\bwhile\b|\bonly\b|\bfirst time\b|\*", re.I)


def ability_text(profile: dict) -> str:
    chars = [(str(c.get("name")), plain(str(c.get("$text", "")))) for c in profile.get("characteristics") or []
             if isinstance(c, dict)]
    return "\n".join(v if len(chars) == 1 else f"{k}: {v}" for k, v in chars if v)


def abilities(out: Output, walk: Walk, faction: str) -> tuple[list[dict], dict | None, str | None]:
    """The unit's abilities, its leader list and its transport capacity (each or None)."""
    items: list[dict] = []
    seen: set[str] = set()
    leaders: list[str] = []
    transport: list[str] = []
    for shown, target, _owner, _context in walk.rules:
        if not shown or shown.lower() in seen:
            continue
        core = target.file.kind == "gameSystem"
        if core and shown.strip().casefold() in _VALUED_CORE:
            continue  # its value, if the unit has it always, is a profile of the same name ('Scouts': 9")
        seen.add(shown.lower())
        record = rule_record(out, target.file, target.obj, None if core else faction)
        if record is None:
            continue
        out.emit(record, target.file, target.obj)
        if record["type"] == "weapon":
            continue  # [LETHAL HITS] linked for reference: a weapon's ability, not the unit's
        items.append({"name": shown, "type": "core" if core else "faction", "text": None, "ref": record["id"]})
    worn: list[tuple[str, str, tuple[str, ...]]] = []  # invulnerable saves wargear gives: (wargear, text, needs)
    for found in walk.profiles:
        profile, pfile = found.profile, found.file
        type_name = str(profile.get("typeName", ""))
        pname = clean_name(found.shown)
        if type_name in ("Unit", *WEAPON_TYPES):
            continue
        if type_name not in ("Abilities", "Transport"):
            if (pfile.name, type_name) not in out.unknown_types:
                out.unknown_types.add((pfile.name, type_name))
                out.warn(pfile, profile, "unknown-profile-type",
                         f"profile type {type_name!r} is not a known one; its profiles are kept as ability text",
                         expected="Unit, Ranged Weapons, Melee Weapons, Abilities or Transport", found=type_name)
        text = ability_text(profile)
        if type_name == "Transport" or (type_name == "Abilities" and _transport_box(pname, text, walk)):
            if text and text not in transport:
                transport.append(text)
            continue
        if pname == "Leader" and type_name == "Abilities":
            leaders.append(text)
            continue
        if _INVULNERABLE.match(pname) and type_name == "Abilities" and invulnerable(pname, text) is not None:
            if found.context == "wargear":
                worn.append((clean_name(found.within) or pname, text or pname, found.needs))
            continue  # a characteristic of the models it is found on (or of the wargear that gives it)
        if not pname or not text or pname.lower() in seen:
            continue
        seen.add(pname.lower())
        if found.context == "wargear" and found.needs:
            text = _needing(text, found.needs)
        item = {"name": re.sub(r"\s*\(Psychic\)\s*$", "", pname) or pname,
                "type": "wargear" if found.context == "wargear" else "datasheet", "text": text}
        if pname.endswith("(Psychic)"):
            item["psychic"] = True
        items.append(item)
    for gear, text, needs in worn:
        same = next((i for i in items if i["name"].casefold() == gear.casefold() and i["type"] == "wargear"), None)
        if same is None:
            seen.add(gear.lower())
            items.append({"name": gear, "type": "wargear", "text": _needing(text, needs) if needs else text})
        elif text not in (same["text"] or ""):
            same["text"] = f"{same['text']}\n{text}" if same["text"] else text
    if leaders and "leader" not in seen:
        core = out.get(ids.core_ability(walk.unit.file.ruleset, "Leader"))
        if core is not None:  # a Leader profile is the printed LEADER ability, linked to its rule or not
            items.insert(0, {"name": "Leader", "type": "core", "text": None, "ref": core["id"]})
    return items, leader(leaders) if leaders else None, "\n".join(transport) or None


def _needing(text: str, needs: tuple[str, ...]) -> str:
    """An ability's text with the choices its wargear is offered only with (any one of them)."""
    return f"{text}\n(Only with {' or '.join(needs)}.)"


def _transport_box(name: str, text: str, walk: Walk) -> bool:
    """An Abilities profile that is the TRANSPORT box: named so, or named after the unit and saying
    what it carries (the data types Land Raider Banisher's so)."""
    return name.lower() == "transport" or (name.casefold() == clean_name(walk.unit.name).casefold()
                                           and _CAPACITY.match(text) is not None)


def invulnerable(name: str, text: str) -> tuple[int, str | None] | None:
    """The save an 'Invulnerable Save' profile gives, and its text where it says more than the number."""
    m = _INV_NUMBER.search(name) or re.search(r"(\d)\+\s*invulnerable save", text, re.I) or \
        re.fullmatch(r"\s*(\d)\+\s*", text)
    if m is None:
        m = re.search(r"invulnerable save of (\d)\+", text, re.I)
    if m is None:
        return None
    return int(m.group(1)), (text if _INV_CONDITION.search(f"{name} {text}") else None)


def invulnerables(walk: Walk) -> dict[int, tuple[int, str | None]]:
    """id(owner) -> the invulnerable save its own profiles give (the unit's own apply to every model)."""
    out: dict[int, tuple[int, str | None]] = {}
    for found in walk.profiles:
        if found.context == "wargear" or found.profile.get("typeName") != "Abilities":
            continue
        name = clean_name(found.shown)
        if not _INVULNERABLE.match(name):
            continue
        inv = invulnerable(name, ability_text(found.profile))
        if inv is not None:
            out.setdefault(id(found.owner), inv)
    return out


def model_invulnerable(invs: dict[int, tuple[int, str | None]], model: Model, unit: Model) -> tuple[int, str | None] | None:
    return invs.get(id(model)) or invs.get(id(unit))


def leader(texts: list[str]) -> dict:
    """'This model can be attached to the following units:' and the units, from every Leader profile:
    listed one a line, or inline ('... units: A, B and C'; 'A; B'); paragraphs after the list
    (who else may join) are kept in the text."""
    head = ""
    notes: list[str] = []
    units: list[str] = []
    for text in texts:
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if not lines:
            continue
        first, rest = lines[0], lines[1:]
        listed = [ln for ln in rest if _BULLET.match(ln)]
        others = [ln for ln in rest if not _BULLET.match(ln)]
        inline = ""
        if ":" in first:
            first, inline = first.split(":", 1)
            first += ":"
        if not inline.strip() and not listed and others and first.endswith(":"):
            inline = others.pop(0)  # the list on the next line, unbulleted ('PLAGUE MARINES, POXWALKERS')
        head = head or first
        names = [_BULLET.sub("", ln) for ln in listed]
        if inline.strip():
            names += re.split(r"\s*(?:,|;|\band\b|\bor\b)\s*", inline.strip().rstrip("."))
        for raw in names:
            for part in raw.split(";"):
                unit = _unit_name(part)
                if unit and unit not in units:
                    units.append(unit)
        notes += [ln for ln in others if ln not in notes]
    return {"text": "\n".join([head] + notes) if notes else head, "units": units}


def _unit_name(raw: str) -> str:
    unit = re.sub(r"\s*[*†‡]+$", "", raw.strip().rstrip(".").strip())
    if unit and unit.upper() == unit and any(c.isalpha() for c in unit):
        unit = " ".join(w.capitalize() if not w.startswith("[") else w for w in unit.split())
    return unit
