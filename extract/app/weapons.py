"""A datasheet's weapons in the app's data: one weapon record per profile.

The app groups a weapon's profiles (``rangedWeapons`` / ``meleeWeapons``: ``[{profiles: [...],
abilities: [...]}]``): a weapon of several profiles names each "Plasma pistol – Standard",
"Plasma pistol – Supercharge" (an en dash), which become ``profile_of`` and ``profile``. A
profile's ``keywords`` are its weapon abilities, read through the one vocabulary
(:mod:`warscribe.schema.abilities`); a group's ``abilities`` are the weapon's own rules
(Linked Fire, Psychic Assassin) that its keywords name: they are printed under the weapon on the
datasheet, and are kept as the datasheet's wargear abilities (:func:`weapon_rules`), the keyword
a ``custom`` ability of the weapon.

Characteristics go through the parsers every reader shares (:mod:`warscribe.schema.values`);
ids through :func:`warscribe.schema.ids.weapons`, so a ranged and a melee profile of one name
are two weapons as with every other reader.
"""

from __future__ import annotations

import re

from warscribe.extract import collisions
from warscribe.extract.app.sheet import Sheet, name_of, names_of
from warscribe.schema import records
from warscribe.schema.abilities import parse_ability_list
from warscribe.schema.values import parse_ap, parse_dice, parse_range, parse_skill

KINDS = (("rangedWeapons", "ranged"), ("meleeWeapons", "melee"))
# One profile of a weapon of several: 'Plasma pistol – Standard' (an en dash between spaces).
_PROFILE = re.compile(r"^(?P<weapon>.+?)\s+[\u2013\u2014]\s+(?P<profile>.+)$")
_VALUES = ("range", "attacks", "skill", "strength", "ap", "damage")
# What a profile holds; `name` and `keywords` are read apart from the characteristics.
PROFILE_KEYS = frozenset({"name", "range", "attacks", "skill", "strength", "ap", "damage", "keywords"})
GROUP_KEYS = frozenset({"profiles", "abilities"})


def weapons(sheet: Sheet, ds: dict, ds_id: str, ruleset: str) -> tuple[list[tuple[dict, list[dict]]], list[str], list[dict]]:
    """The weapon records of datasheet `ds_id` (with their provenance), their ids in the order given,
    and the weapons' own rules as datasheet abilities."""
    found: list[tuple[str, str, dict, list, dict]] = []  # (name, type, values, abilities, extra fields)
    rules: list[dict] = []
    for key, kind in KINDS:
        groups = ds.get(key)
        if groups is None:
            continue
        if not isinstance(groups, list):
            sheet.warn("bad-weapon-row", f"{key} is not a list; its weapons left out", expected="a list of weapons",
                       found=type(groups).__name__)
            continue
        for group in groups:
            if not isinstance(group, dict) or not isinstance(group.get("profiles"), list):
                sheet.warn("bad-weapon-row", f"a weapon of {key} has no profiles; left out",
                           expected="{profiles: [...]}", found=str(group)[:80])
                continue
            for extra in sorted(set(group) - GROUP_KEYS - {"$line"}):
                sheet.warn("unknown-section", f"a weapon of {key} has {extra!r}, which the reader does not know; "
                           "left out", expected=", ".join(sorted(GROUP_KEYS)), found=extra)
            own = _rule_names(sheet, group, rules)
            profiles = [p for p in group["profiles"] if isinstance(p, dict)]
            if len(profiles) != len(group["profiles"]):
                sheet.warn("bad-weapon-row", f"a profile of {key} is not an object; left out",
                           expected="an object per profile", found=str(group["profiles"])[:80])
            for profile in profiles:
                read = _profile(sheet, profile, kind, own, several=len(profiles) > 1)
                if read is not None:
                    found.append(read)
    distinct: list[tuple[str, str, dict, list, dict]] = []
    by_key: dict[tuple[str, str], tuple] = {}
    for item in found:
        name, kind, values, abilities, _extra = item
        first = by_key.get((name, kind))
        if first is None:
            by_key[(name, kind)] = item
            distinct.append(item)
        elif (first[2], first[3]) != (values, abilities):
            differing = [k for k in _VALUES if first[2][k] != values[k]] + (["abilities"] if first[3] != abilities else [])
            sheet.warn("conflicting-duplicate", f"{kind} weapon {name!r} is given twice with different profiles "
                       f"(differing in {', '.join(differing)}); the first is kept",
                       expected="one profile per weapon name and type",
                       found="; ".join(f"{k} {first[2][k]} / {values[k]}" for k in differing if k in values) or "abilities")
        # the same profile again (a weapon listed for two models): one weapon
    if not distinct:
        return [], [], rules
    wids = collisions.weapon_ids(sheet.report, sheet.file.name, ds_id, [(n, sheet.line) for n, *_ in distinct],
                                 [k for _n, k, *_ in distinct])
    made = []
    for wid, (name, kind, values, abilities, extra) in zip(wids, distinct):
        record = records.weapon(id=wid, name=name, ruleset=ruleset, datasheet=ds_id, type=kind,
                                abilities=abilities, **values, **extra)
        made.append((record, [sheet.prov()]))
    return made, list(dict.fromkeys(wids)), rules


def _rule_names(sheet: Sheet, group: dict, rules: list[dict]) -> set[str]:
    """The weapon's own rules (its group's `abilities`), added to `rules` as wargear abilities; their
    names, folded, for telling a weapon's own rule from an unknown weapon ability."""
    own: set[str] = set()
    listed = group.get("abilities")
    if listed is None:
        return own
    if not isinstance(listed, list):
        sheet.warn("bad-ability", "a weapon's abilities are not a list; left out", expected="a list",
                   found=type(listed).__name__)
        return own
    for rule in listed:
        name = name_of(rule.get("name")) if isinstance(rule, dict) else ""
        text = sheet.text(rule.get("description"), "a weapon's ability") if isinstance(rule, dict) else ""
        if not name or not text:
            sheet.warn("bad-ability", "a weapon's own rule without a name or text; left out",
                       expected="{name, description}", found=str(rule)[:80])
            continue
        own.add(name.casefold())
        if not any(r["name"].casefold() == name.casefold() for r in rules):
            rules.append({"name": name, "type": "wargear", "text": text})
    return own


def _profile(sheet: Sheet, profile: dict, kind: str, own: set[str], several: bool) -> tuple | None:
    name = name_of(profile.get("name"))
    if not name:
        sheet.warn("bad-weapon-row", f"a {kind} weapon profile has no name; left out", expected="a name",
                   found=str(profile.get("name"))[:80])
        return None
    for extra in sorted(set(profile) - PROFILE_KEYS - {"$line"}):
        sheet.warn("unknown-section", f"weapon {name!r} has {extra!r}, which the reader does not know; left out",
                   expected=", ".join(sorted(PROFILE_KEYS)), found=extra)
    raw = {k: profile.get(k) for k in _VALUES}
    try:
        bad = [k for k, v in raw.items() if not isinstance(v, (str, int)) or isinstance(v, bool)]
        if bad:
            raise ValueError(f"{', '.join(bad)} missing or not a value")
        raw = {k: str(v) for k, v in raw.items()}
        values = dict(range=parse_range(raw["range"]) if kind == "ranged" else None,
                      attacks=parse_dice(raw["attacks"], "A"), skill=parse_skill(raw["skill"]),
                      strength=parse_dice(raw["strength"], "S"), ap=parse_ap(raw["ap"]),
                      damage=parse_dice(raw["damage"], "D"))
        if kind == "melee" and raw["range"].strip().lower() != "melee":
            raise ValueError(f"range {raw['range']!r} of a melee weapon")
    except ValueError as exc:
        sheet.error("bad-weapon-value", f"{kind} weapon {name!r}: {exc}; weapon left out",
                    expected="Range, A, BS/WS, S, AP, D values", found=", ".join(f"{k}={v}" for k, v in raw.items()))
        return None
    abilities = _abilities(sheet, name, profile.get("keywords"), own)
    extra: dict = {}
    m = _PROFILE.match(name)
    if m and several:
        extra = {"profile_of": m.group("weapon"), "profile": m.group("profile")}
    other = names_of(profile.get("name"))
    if other:
        extra["names"] = other
    return name, kind, values, abilities, extra


def _abilities(sheet: Sheet, weapon: str, keywords, own: set[str]) -> list[dict]:
    if keywords is None:
        return []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        sheet.warn("weapon-ability", f"weapon {weapon!r}: its keywords are not a list of texts; left out",
                   expected="a list of ability names", found=str(keywords)[:80])
        return []
    # One ability an item (the app splits them): a comma inside one is no separator.
    abilities, problems = parse_ability_list("\n".join(k.strip() for k in keywords if k.strip()), separator="\n")
    for problem in problems:
        if problem.message == "not a known weapon ability" and problem.text.strip("[]").strip().casefold() in own:
            continue  # the weapon's own rule, printed under it (a wargear ability of the datasheet)
        sheet.warn("weapon-ability", f"weapon {weapon!r}: {problem.text!r}: {problem.message}",
                   expected="an ability of the vocabulary (schema/abilities.py), or a rule the weapon defines",
                   found=problem.text)
    return abilities
