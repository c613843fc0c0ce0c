"""A unit's weapons: every Ranged Weapons / Melee Weapons profile its tree reaches, as the
unit's models have it (the profile's own modifiers applied: a Captain's plasma pistol is
BS 2+), one weapon record per distinct profile, its keywords cell read through the one
ability vocabulary.

The same profile reached through several models is one weapon, also where one of them
writes its name in another case ('Shuriken Pistol', 'Shuriken pistol'). A ranged and a melee
profile of one name are two (the melee one's id ends in ``-melee``, as every reader
names them, :func:`warscribe.schema.ids.weapons`); two different profiles of one name
and type (a sergeant's and a trooper's) are both kept, the later with a numbered id, and
reported (``weapon-variant``). Nothing is dropped without a finding.
"""

from __future__ import annotations

from warscribe.extract import collisions
from warscribe.extract.battlescribe.common import WEAPON_TYPES
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.profiles import characteristics_in, report_pending
from warscribe.extract.battlescribe.walk import Walk
from warscribe.schema import ids, records
from warscribe.schema.abilities import parse_ability_list
from warscribe.schema.text import clean_name
from warscribe.schema.values import parse_ap, parse_dice, parse_range, parse_skill

_VALUES = ("range", "attacks", "skill", "strength", "ap", "damage")


def weapons(out: Output, walk: Walk, ds_id: str, ruleset: str) -> list[str]:
    """Emit the weapon records of datasheet `ds_id`; their ids, in the order found."""
    distinct: list[tuple[str, str, dict, list, object]] = []  # (name, type, values, abilities, found)
    seen: set[tuple] = set()
    for f in walk.profiles:
        kind = WEAPON_TYPES.get(str(f.profile.get("typeName", "")))
        if not kind:
            continue
        name = clean_name(f.shown.lstrip("➤").strip())
        chars, pending = characteristics_in(f.profile, f.scope)
        for mod in pending:
            report_pending(out, f, name, mod)
        try:
            skill_raw = chars.get("BS", chars.get("WS", ""))
            values = dict(range=parse_range(chars.get("RANGE", "")) if kind == "ranged" else None,
                          attacks=parse_dice(chars.get("A", ""), "A"), skill=parse_skill(skill_raw),
                          strength=parse_dice(chars.get("S", ""), "S"), ap=parse_ap(chars.get("AP", "")),
                          damage=parse_dice(chars.get("D", ""), "D"))
        except ValueError as exc:
            out.warn(f.file, f.profile, "bad-characteristic", f"weapon {name!r}: {exc}; weapon left out",
                     expected="Range, A, BS/WS, S, AP, D values",
                     found=", ".join(f"{k}={v}" for k, v in chars.items()))
            continue
        abilities, problems = parse_ability_list(chars.get("KEYWORDS", ""))
        for problem in problems:  # kept as written (a weapon-specific rule is `custom`), and said
            out.warn(f.file, f.profile, "weapon-ability", f"weapon {name!r}: {problem.text!r}: {problem.message}",
                     expected="an ability of the vocabulary (schema/abilities.py)", found=problem.text)
        key = (name.casefold(), kind, tuple(values[k] for k in _VALUES), repr(abilities))
        if key in seen:
            continue  # the same profile through another model (its name written in another case there)
        seen.add(key)
        distinct.append((name, kind, values, abilities, f))
    if not distinct:
        return []
    named = [(name, int(f.profile.get("$line", 1))) for name, _k, _v, _a, f in distinct]
    first_file = distinct[0][4].file.name
    wids = collisions.weapon_ids(out.report, first_file, ds_id, named, [k for _n, k, _v, _a, _f in distinct])
    made: list[str] = []
    by_id: dict[str, tuple] = {}
    for wid, (name, kind, values, abilities, f) in zip(wids, distinct):
        if wid in by_id:  # one name and type, another profile: kept under the next free number
            first = by_id[wid]
            base, n = wid, 2
            while f"{base}-{n}" in by_id or f"{base}-{n}" in wids:
                n += 1
            wid = f"{base}-{n}"
            differing = [k for k in _VALUES if first[2][k] != values[k]] + (["abilities"] if first[3] != abilities else [])
            out.group("weapon-variant", f"{f.file.name}:{f.profile.get('id')}", f.file, f.profile,
                     f"weapon {name!r} has another profile on its datasheet differing in "
                     f"{', '.join(differing)}; both kept, this one under a numbered id ({wid})", wid,
                     expected="one profile per weapon name and type",
                     found="; ".join(f"{k} {first[2][k]} / {values[k]}" for k in differing if k in values) or "abilities")
        by_id[wid] = (name, kind, values, abilities)
        made.append(wid)
        record = records.weapon(id=wid, name=name, ruleset=ruleset, datasheet=ds_id, type=kind,
                                abilities=abilities, **values)
        out.emit(record, f.file, f.profile)
    return made
