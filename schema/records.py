"""One keyword-only constructor per record kind: the only place a record dict is made.

Every reader (text and HTML pages, rules extracts, the Wahapedia CSV export,
BattleScribe data) makes its records here, so a record has one shape and one key
order whatever its source. The key order is the order records are written in (YAML
and JSON), so it is part of the byte-identical output; optional fields are left out
when not given (``OMIT``), never written as null unless the schema says null.

``tests/test_contract.py`` checks every constructor's parameters against its kind's
JSON Schema: required fields are required here, every schema property is a
parameter, and nothing else is.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any


class _Omit:
    def __repr__(self) -> str:
        return "OMIT"

    def __bool__(self) -> bool:
        return False


#: Default of an optional field: the key is left out of the record.
OMIT: Any = _Omit()


def _record(kind: str, id: str, name: str, ruleset: str, rulesets: list[str], fields: dict[str, Any]) -> dict:
    record = {"id": id, "kind": kind, "name": name, "ruleset": ruleset}
    if rulesets is not OMIT:
        record["rulesets"] = rulesets
    for key, value in fields.items():
        if value is not OMIT:
            record[key] = value
    return record


def datasheet(*, id: str, name: str, ruleset: str, faction: str, keywords: list[str],
              faction_keywords: list[str], composition: list[dict], points: list[dict],
              abilities: list[dict], weapons: list[str], wargear_options: list[dict],
              extra_points: list[dict] = OMIT, transport: str = OMIT, loadout: str = OMIT, leader: dict = OMIT,
              led_by: dict = OMIT, support: dict = OMIT, models: list[dict] = OMIT,
              stratagems: list[str] = OMIT, names: dict = OMIT, game_mode: str = OMIT, legends: bool = OMIT,
              source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("datasheet", id, name, ruleset, rulesets, dict(
        faction=faction, keywords=keywords, faction_keywords=faction_keywords, composition=composition,
        points=points, extra_points=extra_points, abilities=abilities, transport=transport, weapons=weapons,
        loadout=loadout, wargear_options=wargear_options,
        leader=leader, led_by=led_by, support=support, models=models, stratagems=stratagems, names=names,
        game_mode=game_mode, legends=legends, source=source))


def weapon(*, id: str, name: str, ruleset: str, datasheet: str, type: str, range: int | float | None,
           attacks: int | str, skill: int | None, strength: int | str, ap: int, damage: int | str,
           abilities: list[dict], profile_of: str = OMIT, profile: str = OMIT, names: dict = OMIT,
           source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("weapon", id, name, ruleset, rulesets, dict(
        datasheet=datasheet, type=type, range=range, attacks=attacks, skill=skill, strength=strength,
        ap=ap, damage=damage, abilities=abilities, profile_of=profile_of, profile=profile, names=names,
        source=source))


def stratagem(*, id: str, name: str, ruleset: str, cp: int, category: str | None, origin: str,
              detachment: str | None, turn: str = OMIT, phases: list[str] = OMIT, when: str | None = None, target: str | None = None,
              effect: str | None = None, restrictions: str | None = None, flavour: str | None = None,
              number: str = OMIT, designer_note: str = OMIT, mentions: list[dict] = OMIT,
              target_keywords: dict | None = OMIT, targets: list[str] = OMIT, names: dict = OMIT,
              game_mode: str = OMIT, effects: list[dict] = OMIT,
              source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("stratagem", id, name, ruleset, rulesets, dict(
        cp=cp, category=category, origin=origin, detachment=detachment, turn=turn, phases=phases, when=when, target=target,
        effect=effect, restrictions=restrictions, flavour=flavour, number=number,
        designer_note=designer_note, mentions=mentions, target_keywords=target_keywords, targets=targets,
        names=names, game_mode=game_mode, effects=effects, source=source))


def detachment(*, id: str, name: str, ruleset: str, faction: str, rule: dict | None,
               stratagems: list[str], enhancements: list[str], additional_rules: list[dict] = OMIT,
               detachment_points: int | None = OMIT, force_disposition: str | None = OMIT, unique: str | None = OMIT,
               names: dict = OMIT, game_mode: str = OMIT,
               source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("detachment", id, name, ruleset, rulesets, dict(
        faction=faction, rule=rule, additional_rules=additional_rules, stratagems=stratagems,
        enhancements=enhancements, detachment_points=detachment_points, force_disposition=force_disposition,
        unique=unique, names=names, game_mode=game_mode, source=source))


def enhancement(*, id: str, name: str, ruleset: str, detachment: str | None, points: int | None,
                text: str | None, restriction: str | None, upgrade: bool = OMIT, excludes: list[str] = OMIT,
                flavour: str = OMIT,
                mentions: list[dict] = OMIT, restriction_keywords: dict | None = OMIT, bearers: list[str] = OMIT,
                names: dict = OMIT, game_mode: str = OMIT,
                effects: list[dict] = OMIT, source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("enhancement", id, name, ruleset, rulesets, dict(
        detachment=detachment, points=points, upgrade=upgrade, excludes=excludes, text=text, restriction=restriction,
        flavour=flavour, mentions=mentions, restriction_keywords=restriction_keywords, bearers=bearers,
        names=names, game_mode=game_mode, effects=effects, source=source))


def ability(*, id: str, name: str, ruleset: str, type: str, text: str, ability_id: str = OMIT,
            number: str = OMIT, heading: str = OMIT, unit: str = OMIT, flavour: str = OMIT,
            bullets: list[str] = OMIT, mentions: list[dict] = OMIT, names: dict = OMIT, effects: list[dict] = OMIT,
            source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("ability", id, name, ruleset, rulesets, dict(
        type=type, ability_id=ability_id, number=number, heading=heading, unit=unit, flavour=flavour, text=text,
        bullets=bullets, mentions=mentions, names=names, effects=effects, source=source))


def rule(*, id: str, name: str, ruleset: str, number: str | None, title: str | None, text: str,
         bullets: list[str], see_also: list[dict], flavour: str = OMIT, mentions: list[dict] = OMIT,
         game_mode: str = OMIT, effects: list[dict] = OMIT, source: list[dict] = OMIT,
         rulesets: list[str] = OMIT) -> dict:
    return _record("rule", id, name, ruleset, rulesets, dict(
        number=number, title=title, flavour=flavour, text=text, bullets=bullets, see_also=see_also,
        mentions=mentions, game_mode=game_mode, effects=effects, source=source))


def keyword(*, id: str, name: str, ruleset: str, faction_keyword: bool, datasheets: list[str],
            usage: list[dict], source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("keyword", id, name, ruleset, rulesets, dict(
        faction_keyword=faction_keyword, datasheets=datasheets, usage=usage, source=source))


def faq(*, id: str, name: str, ruleset: str, publication: str | None, text: str, amends: list[dict],
        order: int = OMIT, game_mode: str = OMIT, source: list[dict] = OMIT, rulesets: list[str] = OMIT) -> dict:
    return _record("faq", id, name, ruleset, rulesets, dict(
        publication=publication, order=order, text=text, amends=amends, game_mode=game_mode, source=source))


#: kind -> constructor
CONSTRUCTORS = {
    "datasheet": datasheet, "weapon": weapon, "stratagem": stratagem, "detachment": detachment,
    "enhancement": enhancement, "ability": ability, "rule": rule, "keyword": keyword, "faq": faq,
}


def in_constructor_order(record: dict) -> None:
    """`record`'s keys put back in its constructor's order (after a reader added fields to it),
    `rulesets` after `ruleset` and provenance last, as every record is written."""
    order = _key_order(record["kind"])
    ordered = {k: record[k] for k in order if k in record}
    ordered.update((k, v) for k, v in record.items() if k not in ordered)
    record.clear()
    record.update(ordered)


@functools.lru_cache(maxsize=None)
def _key_order(kind: str) -> tuple[str, ...]:
    fields = [p for p in inspect.signature(CONSTRUCTORS[kind]).parameters
              if p not in ("id", "name", "ruleset", "rulesets", "source")]
    return ("id", "kind", "name", "ruleset", "rulesets", *fields, "source")


def with_rulesets(record: dict, rulesets: list[str]) -> dict:
    """`record` saying every ruleset it was seen under, in the constructors' key order."""
    out = {}
    for key, value in record.items():
        if key != "rulesets":
            out[key] = value
        if key == "ruleset":
            out["rulesets"] = list(rulesets)
    return out


def make(kind: str, **fields: Any) -> dict:
    """The record of `kind` from its fields (for readers that dispatch on kind)."""
    try:
        constructor = CONSTRUCTORS[kind]
    except KeyError:
        raise ValueError(f"unknown record kind {kind!r}; expected one of {', '.join(CONSTRUCTORS)}") from None
    return constructor(**fields)
