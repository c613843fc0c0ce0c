"""A unit's weapons: every Ranged Weapons / Melee Weapons profile its tree reaches, one
weapon record each, its keywords cell read through the one ability vocabulary."""

from __future__ import annotations

from warscribe.extract.battlescribe.common import WEAPON_TYPES, characteristics
from warscribe.extract.battlescribe.index import DataFile
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.walk import Walk
from warscribe.schema import ids, records
from warscribe.schema.abilities import parse_ability_list
from warscribe.schema.text import clean_name
from warscribe.schema.values import parse_ap, parse_dice, parse_range, parse_skill


def weapons(out: Output, found: Walk, data: DataFile, ds_id: str) -> list[str]:
    """Emit the weapon records of datasheet `ds_id`; their ids, in the order found."""
    made: list[str] = []
    for profile, _ctx, pfile in found.profiles:
        kind = WEAPON_TYPES.get(str(profile.get("typeName", "")))
        if not kind:
            continue
        name = clean_name(str(profile.get("name", "")).lstrip("➤").strip())
        chars = characteristics(profile)
        try:
            skill_raw = chars.get("BS", chars.get("WS", ""))
            values = dict(range=parse_range(chars.get("RANGE", "")) if kind == "ranged" else None,
                          attacks=parse_dice(chars.get("A", ""), "A"), skill=parse_skill(skill_raw),
                          strength=parse_dice(chars.get("S", ""), "S"), ap=parse_ap(chars.get("AP", "")),
                          damage=parse_dice(chars.get("D", ""), "D"))
        except ValueError as exc:
            out.warn(pfile, profile, "bad-characteristic", f"weapon {name!r}: {exc}; weapon left out",
                     expected="Range, A, BS/WS, S, AP, D values", found=", ".join(f"{k}={v}" for k, v in chars.items()))
            continue
        abilities, problems = parse_ability_list(chars.get("KEYWORDS", ""))
        for problem in problems:  # kept as written (a weapon-specific rule is `custom`), and said
            out.warn(pfile, profile, "weapon-ability", f"weapon {name!r}: {problem.text!r}: {problem.message}",
                     expected="an ability of the vocabulary (schema/abilities.py)", found=problem.text)
        wid = ids.weapon(ds_id, name)
        if wid in made:
            continue
        made.append(wid)
        record = records.weapon(id=wid, name=name, ruleset=data.ruleset, datasheet=ds_id, type=kind,
                                abilities=abilities, **values)
        out.emit(record, pfile, profile)
    return made
