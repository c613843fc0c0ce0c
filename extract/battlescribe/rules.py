"""Rules as ability records: the game system's are core (or weapon) abilities, a
catalogue's are its faction's."""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.common import flag, plain
from warscribe.extract.battlescribe.index import DataFile
from warscribe.extract.battlescribe.output import Output
from warscribe.schema import ids, records
from warscribe.schema.abilities import ABILITIES
from warscribe.schema.text import clean_name

# A weapon ability's rule by its name without the parameter: 'SUSTAINED HITS' -> sustained-hits.
_WEAPON_RULES = {name.replace("-", " "): ability_id for ability_id, (name, _kind) in ABILITIES.items()}


def shared_rules(out: Output, data: DataFile, faction: str | None) -> None:
    """A record for each shared rule of a file: core abilities with no `faction`, else the faction's."""
    for rule in data.root.get("sharedRules") or []:
        if not isinstance(rule, dict) or flag(rule.get("hidden")):
            continue
        record = rule_record(out, data, rule, faction)
        if record:
            out.emit(record, data, rule)


def rule_record(out: Output, data: DataFile, rule: dict, faction: str | None) -> dict | None:
    """The ability record of one rule (not yet emitted); None, reported, for an empty rule."""
    name = clean_name(str(rule.get("name", "")))
    text = plain(str(rule.get("description") or ""))
    if not name or not text:
        out.warn(data, rule, "empty-rule", "rule without a name or text; not made a record",
                 expected="a name and a description", found=name or "no name")
        return None
    if faction is None:
        ability_id = _WEAPON_RULES.get(re.sub(r"[\s\-]*(?:X|\d+\+?)?$", "", name).upper().replace("-", " "))
        if ability_id:  # 'Melta', 'Anti-', 'Sustained Hits': the rule of a weapon ability
            return records.ability(id=ids.weapon_ability(data.ruleset, ability_id), name=name,
                                   ruleset=data.ruleset, type="weapon", ability_id=ability_id, text=text)
        return records.ability(id=ids.core_ability(data.ruleset, name), name=name, ruleset=data.ruleset,
                               type="core", text=text)
    return records.ability(id=ids.faction_ability(faction, name), name=name, ruleset=data.ruleset,
                           type="faction", text=text)
