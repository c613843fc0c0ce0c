"""What each model of a datasheet carries: its default loadout, or one the caller chose.

A datasheet record names its weapons (``weapons``: one record per profile; 11e marks a
weapon of several profiles with ``profile_of``/``profile``, 10e names them 'Plasma pistol -
standard') and, for the 11th edition, its loadout as printed ('Every model is equipped with:
bolt pistol; bolt rifle; close combat weapon.', 'The Navis Sergeant-at-Arms is equipped
with: ...', 'One other Navis Armsman is equipped with: ...'). The 10th-edition BattleScribe
data prints no loadout; it gives the wargear options, each with its default ('Intercessor
Sergeant: Weapon 1: one of the following (Bolt Rifle by default)'), from which the default
loadout is inferred (``_from_options``): the weapons no option mentions, for every model;
the defaults of a model's own options; and, for a model whose own options name no weapon
by default, the other models' defaults (the unit's standard kit). What was read, inferred
or not understood is returned as notes, never dropped.

Weapons are matched by name: letter case, punctuation, plurals ('2 twin big shootas') and a
leading count aside; a name with a profile ('Black Sword - Strike') picks that profile,
a name without one every profile of the weapon (the attack picks one: ``engine.unit``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field

from warscribe.engine.composition import words

_DASHES = re.compile(r"\s+[-–—]\s+")
_COUNT = re.compile(r"^\s*(?:(\d+)\s*x?\s+|an?\s+)?(.+?)\s*$", re.IGNORECASE)
_CLAUSE = re.compile(r"(?P<who>[^.:\n]*?)\s+(?:is|are)\s+(?:also\s+)?equipped\s+with:?\s*(?P<what>[^\n]*)", re.IGNORECASE)
_DEFAULT = re.compile(r"\((?P<default>[^()]*?)\s+by default\)", re.IGNORECASE)
_EVERY = ("every", "each", "all", "this", "these", "the unit", "its")


@dataclass
class Weapon:
    """A weapon of the datasheet: its name and its profiles' records (one for most)."""

    name: str
    profiles: list[dict]


@dataclass
class Carrier:
    """``count`` models (of the composition line ``line``) carrying ``weapons`` (name -> how many each)."""

    line: str
    count: int
    weapons: dict[str, int] = field(default_factory=dict)
    # A profile forced by name ('Plasma pistol - supercharge'): weapon name -> profile record ids.
    profiles: dict[str, list[str]] = field(default_factory=dict)


@lru_cache(maxsize=65536)
def _key(name: str) -> tuple[str, ...]:
    return words(name.replace("’", "'").replace("‘", "'"))


def weapons_of(datasheet: dict, get) -> dict[str, Weapon]:
    """The datasheet's weapons by name, each with its profiles' records (``get``: id -> record)."""
    out: dict[str, Weapon] = {}
    folded: dict[str, Weapon] = {}
    for wid in datasheet.get("weapons") or ():
        record = get(wid)
        if record is None:
            continue
        base = record.get("profile_of")
        if not base:
            parts = _DASHES.split(record["name"], maxsplit=1)
            base = parts[0] if len(parts) == 2 else record["name"]
        found = folded.get(base.casefold())
        if found is None:
            out[base] = folded[base.casefold()] = Weapon(base, [record])
        else:
            found.profiles.append(record)
    return out


def match_weapon(text: str, weapons: dict[str, Weapon]) -> tuple[Weapon, list[dict]] | None:
    """The weapon an item of a loadout names, and the profiles it means (all, or the one named)."""
    key = _key(text)
    if not key:
        return None
    for weapon in weapons.values():
        if _key(weapon.name) == key:
            return weapon, weapon.profiles
        for p in weapon.profiles:
            if _key(p["name"]) == key or (p.get("profile") and _key(f"{weapon.name} {p['profile']}") == key):
                return weapon, [p]
    # 'Grenade Launcher' for 'Astartes grenade launcher': the one weapon whose name holds every word.
    wider = [w for w in weapons.values() if set(key) < set(_key(w.name))]
    if len(wider) == 1:
        return wider[0], wider[0].profiles
    return None


def item(text: str) -> tuple[int, str]:
    """'2 lascannons' -> (2, 'lascannons'); 'bolt rifle' -> (1, 'bolt rifle')."""
    m = _COUNT.match(text.strip().rstrip("."))
    if not m:
        return 1, text.strip()
    return (int(m.group(1)) if m.group(1) else 1), m.group(2)


def _items(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[;,]|\s+and\s+(?=\d)", text) if p.strip().strip(".")]


def _add(carrier: Carrier, text: str, weapons: dict[str, Weapon], notes: list[str]) -> None:
    """One item of a loadout onto ``carrier``; an item that names no weapon is noted."""
    n, name = item(text)
    found = match_weapon(name, weapons)
    parts = [name]
    if found is None and re.search(r"\s+(?:and|w/)\s+", name, re.IGNORECASE):
        parts = [p for p in re.split(r"\s+(?:and|w/)\s+", name, flags=re.IGNORECASE) if p.strip()]
    for part in parts:
        found = match_weapon(part, weapons)
        if found is None:
            notes.append(f"loadout: {part!r} is not a weapon of the datasheet (wargear without a profile): not used")
            continue
        weapon, profiles = found
        carrier.weapons[weapon.name] = carrier.weapons.get(weapon.name, 0) + n
        if len(profiles) < len(weapon.profiles):
            carrier.profiles[weapon.name] = [p["id"] for p in profiles]


def _line_of(who: str, lines: list[str]) -> int | None:
    """The composition line a loadout clause's subject names ('The Navis Sergeant-at-Arms', 'One other Navis Armsman')."""
    key = [w for w in _key(who) if w not in ("the", "one", "other", "model", "a", "an")]
    key = [w for w in key if not w.isdigit()]
    if not key:
        return None
    exact = [i for i, line in enumerate(lines) if _key(line) == tuple(key)]
    if len(exact) == 1:
        return exact[0]
    inside = [i for i, line in enumerate(lines) if set(key) <= set(_key(line)) or set(_key(line)) <= set(key)]
    return inside[0] if len(inside) == 1 else None


def _count_of(who: str) -> int | None:
    first = who.strip().split()[0].casefold() if who.strip() else ""
    if first in ("one", "a", "an"):
        return 1
    if first.isdigit():
        return int(first)
    numbers = {"two": 2, "three": 3, "four": 4, "five": 5}
    return numbers.get(first)


def default_loadout(datasheet: dict, counts: list[int], weapons: dict[str, Weapon]) -> tuple[list[Carrier], list[str]]:
    """The carriers of the datasheet's default loadout for ``counts`` models per composition line, and notes."""
    lines = [c["name"] for c in datasheet.get("composition") or []] or [datasheet.get("name", "models")]
    counts = list(counts) if counts else [1]
    notes: list[str] = []
    text = datasheet.get("loadout")
    if text:
        carriers = _from_text(text, lines, counts, weapons, notes)
    else:
        carriers = _from_options(datasheet, lines, counts, weapons, notes)
    return [c for c in carriers if c.count > 0 and c.weapons], notes


def _from_text(text: str, lines: list[str], counts: list[int], weapons: dict[str, Weapon], notes: list[str]) -> list[Carrier]:
    left = list(counts)
    carriers: list[Carrier] = []
    clauses = list(_CLAUSE.finditer(text))
    if not clauses:
        notes.append(f"loadout: {text.strip()[:120]!r} names no weapons in a form the engine reads: every weapon of "
                     "the datasheet is taken, once per model")
        return [Carrier(line, n, {w: 1 for w in weapons}) for line, n in zip(lines, counts)]
    for m in clauses:
        who = m.group("who").strip()
        what = re.sub(r"\.\s*$", "", m.group("what").strip())
        first = who.casefold()
        if first.startswith(_EVERY) or "model" == first.split()[-1:] or not lines:
            targets = [(i, left[i]) for i in range(len(lines))]
        else:
            i = _line_of(who, lines)
            if i is None and len(lines) == 1:
                i = 0
            if i is None:
                notes.append(f"loadout: {who!r} names no line of the unit's composition ({', '.join(lines)}): "
                             "its weapons go to the models not yet equipped")
                targets = [(j, left[j]) for j in range(len(lines))]
            else:
                n = _count_of(who)
                targets = [(i, min(left[i], n if n is not None else left[i]))]
        for i, n in targets:
            if n <= 0:
                continue
            carrier = Carrier(lines[i], n)
            for part in _items(what):
                _add(carrier, part, weapons, notes)
            left[i] -= n
            carriers.append(carrier)
    for i, n in enumerate(left):
        if n > 0:
            notes.append(f"loadout: {n} {lines[i]} model(s) are equipped by no sentence of the loadout: they make no attacks")
    return carriers


def _choice_weapons(choice: str, weapons: dict[str, Weapon]) -> list[str]:
    """The weapon names a wargear choice names ('Boy w/ Slugga and choppa', '2 Heavy Bolters')."""
    out = []
    text = re.sub(r"\(up to \d+\)", "", choice, flags=re.IGNORECASE)
    text = text.split(" w/ ", 1)[1] if " w/ " in text else text
    for part in re.split(r",|\s+and\s+", text):
        found = match_weapon(item(part)[1], weapons) if part.strip() else None
        if found:
            out.append(found[0].name)
    whole = match_weapon(item(text)[1], weapons)
    if whole and whole[0].name not in out:
        out.append(whole[0].name)
    return out


def _from_options(datasheet: dict, lines: list[str], counts: list[int], weapons: dict[str, Weapon],
                  notes: list[str]) -> list[Carrier]:
    mentioned: set[str] = set()
    own: dict[int, list[str]] = {}  # line -> weapons its own options' defaults name
    own_named: set[int] = set()  # lines whose own options' defaults name a weapon
    for option in datasheet.get("wargear_options") or ():
        for choice in option.get("choices") or ():
            mentioned.update(_choice_weapons(choice, weapons))
    for option in datasheet.get("wargear_options") or ():
        text = option.get("text", "")
        owner = _line_of(text.split(":", 1)[0], lines) if ":" in text else None
        m = _DEFAULT.search(text)
        if not m:
            continue
        named = _choice_weapons(m.group("default"), weapons)
        for i in ([owner] if owner is not None else range(len(lines))):
            own.setdefault(i, []).extend(named)
            if named:
                own_named.add(i)
    fixed = [w for w in weapons if w not in mentioned]
    kit = list(dict.fromkeys(w for ws in own.values() for w in ws))
    carriers = []
    for i, (line, n) in enumerate(zip(lines, counts)):
        chosen = fixed + [w for w in own.get(i, []) if w not in fixed]
        if i not in own_named:
            chosen += [w for w in kit if w not in chosen]
        carriers.append(Carrier(line, n, {w: 1 for w in dict.fromkeys(chosen)}))
    if datasheet.get("wargear_options"):
        notes.append("loadout: the record prints no loadout; the default was inferred from its wargear options "
                     "(weapons no option mentions, and each option's default): give `loadout` to choose")
    return carriers


def chosen_loadout(spec: list, lines: list[str], counts: list[int], weapons: dict[str, Weapon], field_name: str,
                   error) -> list[Carrier]:
    """Carriers from a caller's ``loadout``: strings ('bolt rifle': every model; '2 plasma pistol': two
    models) or ``{models: N, weapons: [...]}``; the models no entry counts carry what every-model
    entries give. ``error(message)`` raises."""
    total = sum(counts)
    every = Carrier(lines[0] if len(lines) == 1 else "models", total)
    carriers: list[Carrier] = []
    for i, entry in enumerate(spec):
        where = f"{field_name}[{i}]"
        if isinstance(entry, str):
            n, name = item(entry)
            explicit = bool(re.match(r"^\s*\d", entry))
            names, models = [name], (n if explicit else None)
        else:
            names, models = list(entry["weapons"]), entry["models"]
        for name in names:
            if match_weapon(name, weapons) is None:
                error(f"{where}: {name!r} is not a weapon of this datasheet (its weapons: {', '.join(weapons)})")
        if models is None:
            for name in names:
                _add(every, name, weapons, [])
        else:
            carrier = Carrier(every.line, models)
            for name in names:
                _add(carrier, name, weapons, [])
            carriers.append(carrier)
    taken = sum(c.count for c in carriers)
    if taken > total:
        error(f"{field_name}: the entries count {taken} models; the unit has {total}")
    out = []
    for c in carriers:
        merged = Carrier(c.line, c.count, {**every.weapons, **c.weapons}, {**every.profiles, **c.profiles})
        out.append(merged)
    if total - taken > 0 and every.weapons:
        out.append(Carrier(every.line, total - taken, dict(every.weapons), dict(every.profiles)))
    return [c for c in out if c.weapons]
