"""A unit's wargear options as readable text: its choice groups, and its model variants.

A group is an option when a player chooses in it: ``one of the following``, ``up to 2``,
``any of the following`` when nothing bounds it. A group whose every member the unit
always takes (each at least once) is its fixed loadout, not an option (its weapons are
the datasheet's weapons). Model variants of one line (a Necron Warrior with a gauss
flayer or a gauss reaper) are the option to field each model as either, the data's
default named.
"""

from __future__ import annotations

from warscribe.extract.battlescribe.common import NOT_WARGEAR, bounds
from warscribe.extract.battlescribe.composition import Line, _model_bounds
from warscribe.extract.battlescribe.walk import Walk, linked_name
from warscribe.schema.text import clean_name


def _member_bounds(member: dict, link: dict | None) -> tuple[int, int | None]:
    if link is not None and any(isinstance(c, dict) and c.get("field") == "selections"
                                for c in link.get("constraints") or []):
        return bounds(link)
    return bounds(member)


def options(walk: Walk, lines: list[Line]) -> list[dict]:
    out: list[dict] = []
    for group in walk.groups:
        members = [(m, link) for m, _f, link in group.members]
        if any(m.get("type") == "model" for m, _l in members):
            continue  # model choices: read as the lines' variants below
        chosen = [(m, link) for m, link in members if not NOT_WARGEAR.search(str((link or m).get("name", "")))]
        optional = [(m, link) for m, link in chosen if _member_bounds(m, link)[0] < 1]
        lo, hi = bounds(group.obj)
        if not chosen or (not optional and (hi is None or hi >= len(chosen))) or \
                (lo == hi == len(chosen) and all((_member_bounds(m, link)[1] or 2) <= 1 for m, link in chosen)):
            continue  # every member is taken: the unit's loadout
        names = [linked_name(link, m, group.scope) if link is not None else clean_name(str(m.get("name", "")))
                 for m, link in chosen]
        # a choice offered only with another made (the unit's chapter, a detachment) says so
        names = [f"{n} (only with {' or '.join(walk.needs[id(m)])})" if id(m) in walk.needs else n
                 for n, (m, _l) in zip(names, chosen)]
        if len(names) < 2 and lo >= 1:
            continue
        count = "one" if hi == 1 else f"up to {hi}" if hi else "any"
        default = str(group.obj.get("defaultSelectionEntryId", ""))
        default_name = next((n for (m, link), n in zip(chosen, names)
                             if default and default in (str(m.get("id")), str((link or {}).get("id")))), None)
        where = f"{group.owner.name}: " + (f"with {group.within}: " if group.within else "")
        text = f"{where}{clean_name(str(group.obj.get('name', 'options')))}: {count} of the following"
        if lo == 0 and hi:
            text += " (optional)"
        if default_name:
            text += f" ({default_name} by default)"
        option = {"text": text + ":", "choices": names}
        if option not in out:
            out.append(option)
    for line in lines:
        if len(line.variants) < 2:
            continue
        choices = []
        for v in line.variants:
            lo, hi = _model_bounds(v)
            choices.append(v.name if hi is None or hi >= line.hi else f"{v.name} (up to {hi})")
        span = f"{line.lo}-{line.hi}" if line.lo != line.hi else str(line.lo)
        out.append({"text": f"{line.name}: each of the {span} models is one of the following "
                            f"({line.variants[0].name} by default):", "choices": choices})
    return out
