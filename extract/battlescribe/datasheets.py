"""Datasheets: the root unit (or single-model) entries with a ``Unit`` profile, their
keywords and models, and who leads whom.

A datasheet's parts are read by their own modules: :mod:`.walk` gathers what its tree
holds, :mod:`.composition` its model lines and points, :mod:`.abilities` and
:mod:`.weapons` the rest.
"""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.abilities import abilities
from warscribe.extract.battlescribe.common import characteristics, flag
from warscribe.extract.battlescribe.composition import composition, points
from warscribe.extract.battlescribe.factions import entry_faction
from warscribe.extract.battlescribe.index import DataFile
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.walk import walk_unit
from warscribe.extract.battlescribe.weapons import weapons
from warscribe.schema import ids, records
from warscribe.schema.text import clean_name
from warscribe.schema.values import parse_inches, parse_int, parse_plus

_KEYWORD = re.compile(r"^[A-Z0-9][A-Z0-9 '’\-]*$")


def datasheet(out: Output, data: DataFile, entry: dict) -> None:
    """Emit the datasheet of `entry` with its weapons and linked rules; a hidden or profile-less unit is reported."""
    name = clean_name(str(entry.get("name", "")))
    if flag(entry.get("hidden")):
        out.warn(data, entry, "hidden-entry", f"unit {name!r} is hidden in the data; not made a datasheet")
        return
    found = walk_unit(out, data, entry)
    units = [p for p, ctx, _f in found.profiles if p.get("typeName") == "Unit"]
    if not units:
        if entry.get("type") == "unit":
            out.warn(data, entry, "no-unit-profile", f"unit {name!r} has no Unit profile; not made a datasheet",
                     expected="a profile of type Unit", found="none")
        return
    keywords, faction_keywords = _keywords(out, data, entry)
    faction = entry_faction(data, entry)
    ds_id = ids.datasheet(faction, name)
    lines, model_costs = composition(out, data, entry)
    unit_abilities, leader, invulnerable = abilities(out, found, faction)
    models = _models(out, data, units, invulnerable)
    weapon_ids = weapons(out, found, data, ds_id)
    record = records.datasheet(
        id=ds_id, name=name, ruleset=data.ruleset, faction=faction, keywords=keywords,
        faction_keywords=faction_keywords, composition=lines,
        points=points(out, data, entry, lines, model_costs), abilities=unit_abilities, weapons=weapon_ids,
        wargear_options=found.options, leader=leader or records.OMIT, models=models)
    out.emit(record, data, entry)


def _keywords(out: Output, data: DataFile, entry: dict) -> tuple[list[str], list[str]]:
    """The unit's keywords and faction keywords from its categories, each category noted for its keyword record."""
    faction_keywords, keywords = [], []
    for c in entry.get("categoryLinks") or []:
        cname = clean_name(str(c.get("name", ""))) if isinstance(c, dict) else ""
        word = (cname[9:] if cname.startswith("Faction: ") else cname).upper()
        if not _KEYWORD.match(word):
            out.warn(data, c, "bad-keyword", f"category {cname!r} is not a keyword; left out",
                     expected="letters, digits, spaces, hyphens", found=cname)
            continue
        target = faction_keywords if cname.startswith("Faction: ") else keywords
        if word not in target:
            target.append(word)
            out.categories.setdefault((data.ruleset, word), []).append((data, c, cname.startswith("Faction: ")))
    return keywords, faction_keywords


def _models(out: Output, data: DataFile, units: list[dict], invulnerable: int | None) -> list[dict]:
    """One model per model kind, though every model entry may repeat its profile."""
    models: list[dict] = []
    for p in units:
        model = _model(out, data, p, invulnerable)
        if model and model not in models:
            models.append(model)
    return models


def _model(out: Output, data: DataFile, profile: dict, invulnerable: int | None) -> dict | None:
    chars = characteristics(profile)
    # Aircraft: '20+"' in the data, '20"+' as printed.
    chars["M"] = re.sub(r'^(\d+)\+(["”″])$', r"\1\2+", chars.get("M", "-"))
    try:
        model = {"name": clean_name(str(profile.get("name", ""))), "M": parse_inches(chars.get("M", "-"), "M"),
                 "T": parse_int(chars.get("T", ""), "T"), "Sv": parse_plus(chars.get("SV", ""), "Sv"),
                 "W": parse_int(chars.get("W", ""), "W"), "Ld": parse_plus(chars.get("LD", "-"), "Ld", allow_none=True),
                 "OC": None if chars.get("OC", "-") in ("-", "") else parse_int(chars["OC"], "OC")}
    except ValueError as exc:
        out.warn(data, profile, "bad-characteristic", f"unit profile {profile.get('name')!r}: {exc}; model left out",
                 expected="M, T, SV, W, LD, OC values", found=", ".join(f"{k}={v}" for k, v in chars.items()))
        return None
    inv = chars.get("INSV", "")
    if re.fullmatch(r"\d\+?", inv):
        invulnerable = int(inv[0])
    if invulnerable is not None:
        model["invulnerable"] = invulnerable
    return model


def led_by(out: Output) -> None:
    """A unit a leader names is led by that leader (the data states only one side)."""
    by_name: dict[tuple[str, str, str], dict] = {}
    for record, _p in out.records:
        if record["kind"] == "datasheet":
            by_name.setdefault((record["ruleset"], record["faction"], record["name"].lower()), record)
    for record, _p in out.records:
        if record["kind"] != "datasheet" or "leader" not in record:
            continue
        for unit in record["leader"]["units"]:
            led = by_name.get((record["ruleset"], record["faction"], unit.lower()))
            if led is not None:
                entry = led.setdefault("led_by", {"text": "This unit can be led by the following units:", "units": []})
                if record["name"] not in entry["units"]:
                    entry["units"].append(record["name"])
    for record, _p in out.records:
        if "led_by" in record:
            record["led_by"]["units"].sort()
            record["models"] = record.pop("models")  # key order: as the constructor gives it
