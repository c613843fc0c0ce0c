"""A unit of an army list as one side of a calculation: `warscribe calc --roster LIST --attacker UNIT`.

The list is read and resolved as `warscribe roster` reads it; the unit named (by its name
as the list prints it, or by the number of the line it starts on) becomes the scenario's
side: its datasheet, its models as listed, their weapons as listed (each model line's
items with their counts), and the Leader and Support units the list attaches to it. A
character attached to a unit stands for that unit: the side is its bodyguard with it attached.
"""

from __future__ import annotations

from warscribe.engine.errors import ScenarioError
from warscribe.roster.examine import examine
from warscribe.roster.names import key as _key
from warscribe.roster.read import read_path
from warscribe.roster.resolve import Resolution
from warscribe.schema import bundle

# The record kinds a list is resolved against (as `warscribe roster` loads them).
_KINDS = ("datasheet", "weapon", "enhancement", "detachment", "rule", "ability")


def side_from_list(list_path: str, which: str, kb_path: str) -> tuple[dict, list[str]]:
    """The scenario side (``{datasheet, models, loadout, attached, enhancement}``) of unit `which` of the
    list at `list_path`, and notes on what of the list it does not use. ScenarioError: why not."""
    roster = read_path(list_path)
    if roster.errors:
        d = roster.errors[0]
        raise ScenarioError(f"{d.file}:{d.line}: {d.message}")
    try:
        kb = bundle.load(kb_path, kinds=_KINDS)
    except bundle.BundleError as exc:
        raise ScenarioError(str(exc)) from None
    res = examine(roster, [kb]).resolution
    if res is None:
        raise ScenarioError(f"{list_path}: the knowledge base {kb_path} has no records of the list's edition")
    i = _pick(res, which, list_path)
    for a in res.attachments:
        if a.leader == i:  # a character stands for the unit it is attached to
            i = a.bodyguard
            break
    ur = res.units[i]
    rec = ur.datasheet.record
    if rec is None:
        raise ScenarioError(f"{list_path}:{ur.unit.line}: {ur.unit.name!r} names no datasheet of the knowledge base")
    side: dict = {"datasheet": rec["id"]}
    if ur.models:
        side["models"] = ur.models
    notes: list[str] = []
    loadout = _loadout(ur.unit, _weapon_names(kb, rec), notes)
    if loadout:
        side["loadout"] = loadout
    attached = [res.units[a.leader] for a in res.attachments if a.bodyguard == i]
    ids = [u.datasheet.record["id"] for u in attached if u.datasheet.record is not None]
    if ids:
        side["attached"] = ids
        notes.append("attached units fire the loadout their datasheets give by default, not the list's")
    enhancements = [m.record["name"] for u in attached for _e, m in u.enhancements if m.record is not None]
    if enhancements:
        side["enhancement"] = enhancements[0]
    return side, notes


def _pick(res: Resolution, which: str, list_path: str) -> int:
    units = res.units
    if which.strip().isdigit():
        line = int(which)
        hits = [i for i, u in enumerate(units) if u.unit.line <= line <= max(u.unit.line, u.unit.last_line)]
        if hits:
            return hits[0]
        raise ScenarioError(f"{list_path}: no unit of the list is on line {line}")
    key = which.casefold().strip()
    hits = [i for i, u in enumerate(units) if u.unit.name.casefold() == key]
    if len(hits) == 1:
        return hits[0]
    if hits:
        lines = ", ".join(str(units[i].unit.line) for i in hits)
        raise ScenarioError(f"{list_path}: {len(hits)} units are named {which!r} (lines {lines}); give the line "
                            "number of the one meant")
    known = ", ".join(sorted({u.unit.name for u in units})[:12])
    raise ScenarioError(f"{list_path}: no unit named {which!r} (its units: {known})")


def _weapon_names(kb, rec: dict) -> dict[str, str]:
    """The datasheet's weapons by `_key`: the record's name (a profile's weapon by its shared name)."""
    names: dict[str, str] = {}
    for w in kb.weapons_of(rec):
        names.setdefault(_key(w["name"]), w["name"])
        if w.get("profile_of"):
            names.setdefault(_key(w["profile_of"]), w["profile_of"])
    return names


def _loadout(unit, weapons: dict[str, str], notes: list[str]) -> list:
    """The list's weapons as the engine's `loadout`: per model line, the models carrying each item."""
    out: list = []
    unused: list[str] = []
    for line in unit.model_lines:
        items = [(name, min(line.gear_counts.get(name, line.count), line.count)) for name in line.wargear]
        unused += [n for n, _c in items if _key(n) not in weapons]
        items = [(weapons[_key(n)], c) for n, c in items if _key(n) in weapons]
        # The first c models of the line carry an item counted c: one carrier per run of models
        # that carry the same items.
        cuts = sorted({0, line.count, *(c for _n, c in items)})
        for lo, hi in zip(cuts, cuts[1:]):
            carried = [n for n, c in items if c > lo]
            if carried and hi > lo:
                out.append({"models": hi - lo, "weapons": carried})
    for gear in unit.wargear:  # items under no model line: every model's (a character's)
        if _key(gear.name) in weapons:
            out.append(weapons[_key(gear.name)])
        else:
            unused.append(gear.name)
    if unused:
        notes.append("not weapons of the datasheet, so not fired: " + ", ".join(dict.fromkeys(unused)))
    return out
