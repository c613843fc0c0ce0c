"""Reading a scenario: YAML or a dict in, a checked ``engine.model.Scenario`` out.

Checking happens in two passes: ``schema/scenario.schema.json`` (shapes, ranges), then
what a schema cannot say (ability spellings, weapon references, the size of the
target's state space). Every failure is a ``ScenarioError`` whose message starts with
the field path, e.g. ``attacker.weapons[0].weapon.abilities[1]``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from warscribe.engine.effects import apply_effects
from warscribe.engine.errors import ScenarioError
from warscribe.engine.kb import KnowledgeBase
from warscribe.schema import DEFAULT_OUT, safeyaml
from warscribe.engine.model import CURRENT_RULESET, Conditions, Group, Modifiers, Scenario, Target, Weapon
from warscribe.schema.abilities import parse_ability
from warscribe.schema.registry import registry

SCHEMA_BASE = "https://warscribe.dev/schema/"
SCENARIO_ID = SCHEMA_BASE + "scenario.schema.json"
WEAPON_ID = SCHEMA_BASE + "weapon.schema.json"

# The allocation chain has models x wounds + 1 states; beyond this it gets slow.
MAX_TARGET_WOUNDS = 2000


@lru_cache(maxsize=4)
def validator(schema_id: str) -> Draft202012Validator:
    reg = registry()
    return Draft202012Validator(reg[schema_id].contents, registry=reg)


def field_path(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _message(error: ValidationError) -> str:
    where = field_path(error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        where = f"{where}.{missing}" if where else missing
        return f"{where}: required field is missing"
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed)) if isinstance(error.instance, dict) else []
        name = f"{where}.{extra[0]}" if where and extra else (extra[0] if extra else where)
        return f"{name or '(top level)'}: unknown field (allowed: {', '.join(allowed)})"
    if error.validator in ("oneOf", "anyOf"):
        hint = error.schema.get("x-error") or error.schema.get("description")
        if hint:
            return f"{where or '(top level)'}: {error.instance!r} is not valid: {hint[0].lower() + hint[1:]}"
    return f"{where or '(top level)'}: {error.message}"


def _check(instance, schema_id: str, prefix: str = "") -> None:
    errors = sorted(validator(schema_id).iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        lines = []
        for e in errors:
            line = _message(e)
            if prefix:
                line = f"{prefix}: {line}"
            if line not in lines:
                lines.append(line)
        raise ScenarioError("\n".join(lines[:6]))


def read_yaml(path: str | Path) -> dict:
    """A scenario file as a dict: safe YAML, duplicate keys refused, size and aliases bounded."""
    try:
        data = safeyaml.load_file(path)
    except FileNotFoundError:
        raise ScenarioError("no such scenario file") from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror or exc}") from None
    except safeyaml.YamlError as exc:
        where = f" (line {exc.line}, column {exc.column})" if exc.line else ""
        raise ScenarioError(f"not valid YAML{where}: {exc.message}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"(top level): a scenario is a mapping with `attacker` and `target`, not {type(data).__name__}")
    return data


def _keywords(values) -> frozenset[str]:
    return frozenset(v.upper() for v in values or ())


def _abilities(values, field: str) -> tuple[dict, ...]:
    out = []
    for i, value in enumerate(values or ()):
        where = f"{field}[{i}]"
        if isinstance(value, dict):
            if value["id"] == "custom":
                raise ScenarioError(f"{where}: unknown weapon ability {value.get('name', value['text'])!r}")
            out.append(value)
            continue
        ability, problems = parse_ability(value)
        if ability is None or ability["id"] == "custom":
            raise ScenarioError(
                f"{where}: unknown weapon ability {value!r} (known: see docs/engine.md, e.g. 'SUSTAINED HITS 1', 'ANTI-INFANTRY 4+')"
            )
        if problems:
            raise ScenarioError(f"{where}: {value!r}: {problems[0].message}")
        out.append(ability)
    return tuple(out)


def _skill(value) -> int | None:
    if value is None or (isinstance(value, str) and value.upper() == "N/A"):
        return None
    return int(str(value).rstrip("+"))


def _inline_weapon(profile: dict, field: str) -> Weapon:
    rng = profile.get("range")
    melee_range = rng is None or (isinstance(rng, str) and rng.lower() == "melee")
    wtype = profile.get("type") or ("melee" if melee_range else "ranged")
    return Weapon(
        name=profile["name"],
        type=wtype,
        range=None if melee_range else float(rng),
        attacks=profile["attacks"],
        skill=_skill(profile["skill"]),
        strength=profile["strength"],
        ap=profile["ap"],
        damage=profile["damage"],
        abilities=_abilities(profile.get("abilities"), f"{field}.abilities"),
    )


def _knowledge_base(kb) -> KnowledgeBase:
    if kb is None or isinstance(kb, (str, Path)):
        return KnowledgeBase.load(kb or DEFAULT_OUT / "json" / "warscribe.json")
    if isinstance(kb, dict):
        return KnowledgeBase(kb)
    return kb


def _ref_weapon(ref: str, field: str, kb) -> Weapon:
    kb = _knowledge_base(kb)
    weapon = kb.resolve(ref, field)
    record = kb.by_id.get(weapon.id) if weapon.id else None
    if record is not None:
        _check(record, WEAPON_ID, prefix=f"{field}: knowledge-base record {weapon.id!r}")
    return weapon


def parse_scenario(data: dict, kb: KnowledgeBase | dict | str | Path | None = None) -> Scenario:
    """Check a scenario dict and build the Scenario; ``kb`` is only read for ``ref`` groups."""
    if not isinstance(data, dict):
        raise ScenarioError(f"a scenario is a mapping with `attacker` and `target`, not {type(data).__name__}")
    _check(data, SCENARIO_ID)
    groups = []
    ref_rulesets = set()
    for i, entry in enumerate(data["attacker"]["weapons"]):
        field = f"attacker.weapons[{i}]"
        if "ref" in entry:
            weapon = _ref_weapon(entry["ref"], f"{field}.ref", kb)
            if weapon.ruleset:
                ref_rulesets.add(weapon.ruleset)
        else:
            weapon = _inline_weapon(entry["weapon"], f"{field}.weapon")
        groups.append(Group(models=entry["models"], weapon=weapon))

    ruleset = data.get("ruleset")
    if ruleset is None:
        if len(ref_rulesets) > 1:
            raise ScenarioError(
                f"ruleset: the referenced weapons come from {' and '.join(sorted(ref_rulesets))}; say which ruleset to use"
            )
        ruleset = ref_rulesets.pop() if ref_rulesets else CURRENT_RULESET

    t = data["target"]
    target = Target(
        toughness=t["toughness"],
        save=t["save"],
        wounds=t["wounds"],
        models=t["models"],
        invulnerable=t.get("invulnerable"),
        feel_no_pain=t.get("feel_no_pain"),
        keywords=_keywords(t.get("keywords")),
    )
    if target.models * target.wounds > MAX_TARGET_WOUNDS:
        raise ScenarioError(
            f"target: {target.models} models x {target.wounds} wounds is more than {MAX_TARGET_WOUNDS} wounds in total"
        )
    c = data.get("conditions") or {}
    m = data.get("modifiers") or {}
    scenario = Scenario(
        ruleset=ruleset,
        groups=tuple(groups),
        target=target,
        conditions=Conditions(**{k: bool(v) for k, v in c.items()}),
        modifiers=Modifiers(**m),
        attacker_keywords=_keywords(data["attacker"].get("keywords")),
        name=data.get("name"),
    )
    named = {side: data[side].get("effects") for side in ("attacker", "target") if data[side].get("effects")}
    if named:
        scenario = apply_effects(scenario, named, _knowledge_base(kb).bundle)
    return scenario


def load_scenario(path: str | Path, kb: KnowledgeBase | dict | str | Path | None = None) -> Scenario:
    return parse_scenario(read_yaml(path), kb)
