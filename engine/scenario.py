"""Reading a scenario: YAML or a dict in, a checked ``engine.model.Scenario`` out.

Checking happens in two passes: ``schema/scenario.schema.json`` (shapes, ranges), then
what a schema cannot say (ability spellings, weapon references, the size of the
target's state space). Every failure is a ``ScenarioError`` whose message starts with
the field path, e.g. ``attacker.weapons[0].weapon.abilities[1]``.
"""

from __future__ import annotations

import copy
import io
import pickle
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from jsonschema.exceptions import ValidationError

from warscribe.engine.effects import apply_effects
from warscribe.engine.attack import attacks_per_model
from warscribe.engine.errors import ScenarioError
from warscribe.engine.devastating import MAX_KINDS_WORK, devastating_work
from warscribe.engine.unit_states import state_count
from warscribe.engine import unit
from warscribe.engine.kb import KnowledgeBase, model_kinds
from warscribe.schema.docs import doc
from warscribe.schema import DEFAULT_OUT, safeyaml
from warscribe.engine.model import CURRENT_RULESET, Conditions, Group, ModelKind, Modifiers, Scenario, Target, Weapon
from warscribe.schema.abilities import parse_ability
from warscribe.schema.registry import fast_check, fast_validator
from warscribe.schema.values import MAX_CHARACTERISTIC, implausible

# The allocation chain has models x wounds + 1 states; beyond this it gets slow.
MAX_TARGET_WOUNDS = 2000
# A target with several kinds of model: (non-CHARACTER wounds + 1) x (CHARACTER wounds + 1) states.
MAX_ALLOCATION_STATES = 20000

# The constraints an allocation order must meet, as the sources give them.
CHARACTER_LAST_11E = ('05.03 Allocation Order: "No CHARACTER group can be earlier in the allocation order than a '
                      'non-CHARACTER group."')
CHARACTER_LAST_10E = ("10e Leader: while an attached unit has bodyguard models, attacks cannot be allocated to its "
                      "CHARACTER models (they are allocated last)")
ONE_GROUP_11E = ('05.03 Create Groups: "One group for all other models with the same W, Sv and InSv '
                 'characteristics." (a group is allocated to as a whole, so its kinds must be adjacent)')
# A whole-number A, S or D above MAX_CHARACTERISTIC (schema/values.py, where the build's
# warning reads it too) is refused: the engine's lists are indexed by these values.
# 10e [DEVASTATING WOUNDS] packets that wait for later groups need the joint count of
# (normal, devastating) events: one step per attack over (wounds + 1)^2 cells.
MAX_DEFERRED_WORK = 50_000_000
NO_CONDITIONS, NO_MODIFIERS = Conditions(), Modifiers()


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


def _check(instance, name: str, prefix: str = "") -> None:
    """Validate against schema ``name``: the compiled check first, jsonschema for the messages."""
    if fast_check(name)(instance):
        return
    errors = sorted(fast_validator(name).iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message))
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


@lru_cache(maxsize=1024)
def _parsed_ability(text: str):
    return parse_ability(text)


def _abilities(values, field: str) -> tuple[dict, ...]:
    out = []
    for i, value in enumerate(values or ()):
        where = f"{field}[{i}]"
        if isinstance(value, dict):
            if value["id"] == "custom":
                raise ScenarioError(f"{where}: unknown weapon ability {value.get('name', value['text'])!r}")
            out.append(copy.deepcopy(value))  # the weapon is kept (``_kept``): never the caller's object
            continue
        ability, problems = _parsed_ability(value)
        if ability is None or ability["id"] == "custom":
            raise ScenarioError(
                f"{where}: unknown weapon ability {value!r} (known: see {doc('engine.md')}, e.g. 'SUSTAINED HITS 1', 'ANTI-INFANTRY 4+')"
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


def _check_size(weapon: Weapon, field: str) -> None:
    for name in ("attacks", "strength", "damage"):
        value = getattr(weapon, name)
        if isinstance(value, int) and value > MAX_CHARACTERISTIC:
            raise ScenarioError(
                f"{field}.{name}: {value} is more than the engine computes in reasonable time (at most {MAX_CHARACTERISTIC:,})"
            )


@lru_cache(maxsize=4)
def _kb_file(path: Path, _mtime_ns: int, _size: int) -> KnowledgeBase:
    return KnowledgeBase.load(path)


def _knowledge_base(kb) -> KnowledgeBase:
    """The KnowledgeBase for ``kb``; a file is read again only when it changed."""
    if isinstance(kb, KnowledgeBase):
        return kb
    if isinstance(kb, dict):
        return KnowledgeBase(kb)
    path = Path(kb or DEFAULT_OUT / "json" / "warscribe.json").resolve()
    try:
        stat = path.stat()
    except OSError:
        return KnowledgeBase.load(path)  # reports the missing bundle
    return _kb_file(path, stat.st_mtime_ns, stat.st_size)


def _ref_weapon(ref: str, field: str, kb) -> Weapon:
    kb = _knowledge_base(kb)
    weapon = kb.resolve(ref, field)
    record = kb.by_id.get(weapon.id) if weapon.id else None
    if record is not None:
        _check(record, "weapon", prefix=f"{field}: knowledge-base record {weapon.id!r}")
    return weapon


def _check_work(scenario: Scenario) -> None:
    """Refuse what would take unreasonably long, naming the weapon group."""
    if scenario.target.kinds:
        _check_kinds_work(scenario)
        return
    if scenario.ruleset != "10e" or len(scenario.groups) < 2:
        return
    target = scenario.target
    cells = (target.models * target.wounds + 1) ** 2
    groups = scenario.groups
    for i, group in enumerate(groups[:-1]):
        if scenario.ruleset != "10e" or not group.weapon.has("devastating-wounds"):
            continue
        attacks = group.models * (len(attacks_per_model(group.weapon, target, scenario.conditions)) - 1)
        if attacks * cells > MAX_DEFERRED_WORK:
            raise ScenarioError(
                f"attacker.weapons[{i}]: up to {attacks:,} attacks whose 10e [DEVASTATING WOUNDS] wait for the later "
                f"groups, against {target.models * target.wounds:,} wounds, is more than the engine computes in "
                "reasonable time; put this group last or split the scenario"
            )


def _check_kinds_work(scenario: Scenario) -> None:
    """A target with several kinds: [DEVASTATING WOUNDS] groups keep a count of packets beside the states."""
    rows = 1
    for i, group in enumerate(scenario.groups):
        work, packets = devastating_work(scenario.ruleset, group.target or scenario.target, group,
                                         group.conditions or scenario.conditions)
        if rows * work > MAX_KINDS_WORK:
            raise ScenarioError(
                f"attacker.weapons[{i}]: [DEVASTATING WOUNDS] with up to {packets:,} mortal-wound packets against "
                f"{state_count(scenario.ruleset, scenario.target):,} allocation states"
                + (" (times the packets of earlier groups still waiting)" if rows > 1 else "")
                + " is more than the engine computes in reasonable time; split the group or the scenario")
        if scenario.ruleset == "10e" and packets:
            rows *= packets + 1  # 10e: the packets wait for every group


# Scenarios checked and built before, by their exact input (``_exact_key``): a caller
# evaluating the same dict again (a matrix, a sweep, a service) skips the check and the
# build, which are about a third of a small call. Only scenarios that read no knowledge
# base are kept (a ``ref`` or named effect depends on the bundle as well as the dict).
_PARSED: dict[bytes, Scenario] = {}
PARSED_ENTRIES = 512
# Weapons (by their inline profile) and targets (by theirs and the ruleset, which orders
# the kinds) built before (``_kept``); a target given by reference is built every time.
_WEAPONS: OrderedDict = OrderedDict()
_TARGETS: OrderedDict = OrderedDict()
PARTS_KEPT = 1024
# A key longer than this is not kept (a scenario of a few groups is well under 1 KB).
PARSED_KEY_BYTES = 32_768


_PICKLERS = threading.local()


class _ExactPickler(pickle.Pickler):
    """Pickles exact dicts, lists, strings, numbers, booleans and None (and the builtins pickle
    writes natively, each with its own opcode); anything else, a subclass included, is refused."""

    def reducer_override(self, obj):
        raise pickle.PicklingError(f"not plain data: {type(obj).__name__}")


def _exact_key(data: dict) -> bytes | None:
    """Bytes equal only for inputs the check and the build cannot tell apart, or None.

    Pickle writes the exact type of every value (True, 1 and 1.0 differ; so do 0.0 and
    -0.0, a list and a tuple, 1 and "1" as keys) and dicts in their order; a value of any
    other type (or nesting too deep to pickle) gives no key, so that input is checked as
    always. Two inputs sharing one object where another shares none get different keys:
    a missed hit, never a wrong one.
    """
    kept = _PICKLERS.__dict__
    if "pickler" not in kept:  # one per thread, reused: making it is a third of a small key's cost
        kept["buffer"] = io.BytesIO()
        kept["pickler"] = _ExactPickler(kept["buffer"], 5)
    buffer, pickler = kept["buffer"], kept["pickler"]
    buffer.seek(0)
    buffer.truncate()
    pickler.clear_memo()
    try:
        pickler.dump(data)
    except (pickle.PicklingError, RecursionError, TypeError, ValueError, AttributeError):
        kept.clear()  # a dump that failed half way leaves the pickler in no known state
        return None
    key = buffer.getvalue()
    return key if len(key) <= PARSED_KEY_BYTES else None


def _reads_kb(data: dict) -> bool:
    """Whether the (checked) scenario's meaning depends on the knowledge base too."""
    if "datasheet" in data["attacker"] or "datasheet" in data["target"]:
        return True
    return ("ref" in data["target"] or any("ref" in entry for entry in data["attacker"]["weapons"])
            or bool(data["attacker"].get("effects")) or bool(data["target"].get("effects")))


def parse_scenario(data: dict, kb: KnowledgeBase | dict | str | Path | None = None) -> Scenario:
    """Check a scenario dict and build the Scenario; ``kb`` is only read for ``ref`` groups.

    The same input again (exactly: ``_exact_key``) gives the Scenario built the first time
    (frozen, so shared safely); an input that failed is checked again every time.
    """
    if not isinstance(data, dict):
        raise ScenarioError(f"a scenario is a mapping with `attacker` and `target`, not {type(data).__name__}")
    key = _exact_key(data)
    if key is not None:
        known = _PARSED.pop(key, None)
        if known is not None:
            _PARSED[key] = known  # most recently used last
            return known
    if isinstance(data.get("attacker"), dict) and isinstance(data.get("target"), dict) and \
            ("datasheet" in data["attacker"] or "datasheet" in data["target"]):
        # A unit against a unit: kept by the exact input and the knowledge base it read.
        base = _knowledge_base(kb)
        return unit.cached(key, base, lambda: _parse(data, base))
    scenario = _parse(data, kb)
    if key is not None and not _reads_kb(data):
        if len(_PARSED) >= PARSED_ENTRIES:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[key] = scenario
    return scenario


def _parse(data: dict, kb) -> Scenario:
    _check(data, "scenario")
    if unit.uses_units(data):
        return _parse_units(data, kb)
    groups, ref_rulesets = _groups(data["attacker"]["weapons"], kb)

    t = data["target"]
    if "ref" in t:
        key, (target, target_rulesets) = None, _target(t, kb)
    else:
        key = _exact_key(t)
        target, target_rulesets = _kept(_TARGETS, key, "as given", lambda: _target(t, kb)[0]), set()
    ruleset = data.get("ruleset")
    if ruleset is None:
        ref_rulesets |= target_rulesets
        if len(ref_rulesets) > 1:
            raise ScenarioError(
                f"ruleset: the referenced records come from {' and '.join(sorted(ref_rulesets))}; say which ruleset to use"
            )
        ruleset = ref_rulesets.pop() if ref_rulesets else CURRENT_RULESET
    target = _kept(_TARGETS, key, ruleset, lambda: _checked_target(target, t, ruleset))
    c = data.get("conditions")
    m = data.get("modifiers")
    scenario = Scenario(
        ruleset=ruleset,
        groups=tuple(groups),
        target=target,
        conditions=Conditions(**{k: bool(v) for k, v in c.items()}) if c else NO_CONDITIONS,
        modifiers=Modifiers(**m) if m else NO_MODIFIERS,
        attacker_keywords=_keywords(data["attacker"].get("keywords")),
        name=data.get("name"),
    )
    named = {side: data[side].get("effects") for side in ("attacker", "target") if data[side].get("effects")}
    if named:
        scenario = apply_effects(scenario, named, _knowledge_base(kb).bundle)
    _check_work(scenario)
    return scenario


def _groups(entries: list[dict], kb) -> tuple[list[Group], set[str]]:
    groups, rulesets = [], set()
    for i, entry in enumerate(entries):
        field = f"attacker.weapons[{i}]"
        if "ref" in entry:
            weapon = _ref_weapon(entry["ref"], f"{field}.ref", kb)
            if weapon.ruleset:
                rulesets.add(weapon.ruleset)
        else:
            profile = entry["weapon"]
            weapon = _kept(_WEAPONS, _exact_key(profile), None, lambda: _inline_weapon(profile, f"{field}.weapon"))
        _check_size(weapon, f"{field}.{'ref' if 'ref' in entry else 'weapon'}")
        groups.append(Group(models=entry["models"], weapon=weapon))
    return groups, rulesets


def _parse_units(data: dict, kb) -> Scenario:
    """A scenario naming datasheets (``engine.unit``): the unit's weapons, loadout and rules."""
    base = _knowledge_base(kb)
    c, m = data.get("conditions"), data.get("modifiers")
    conditions = Conditions(**{k: bool(v) for k, v in c.items()}) if c else NO_CONDITIONS
    modifiers = Modifiers(**m) if m else NO_MODIFIERS
    a = data["attacker"]
    if "datasheet" not in a:
        groups, rulesets = _groups(a["weapons"], kb)
        a = {**a, "weapons": groups, "rulesets": rulesets}

    def profile_target(t: dict) -> Target:
        return _target(t, base)[0]

    scenario = unit.build({**data, "attacker": a}, base, profile_target, conditions, modifiers)
    for i, g in enumerate(scenario.groups):
        _check_size(g.weapon, f"attacker weapon {g.weapon.name!r}")
    target = scenario.target
    if target.kinds:
        total = sum(k.count * k.wounds for k in target.kinds)
        if total > MAX_TARGET_WOUNDS:
            raise ScenarioError(f"target: its models have {total} wounds in total, more than {MAX_TARGET_WOUNDS}")
        target = _allocated(target, None, scenario.ruleset)
        scenario = _reallocated(scenario, target)
    else:
        _checked_target(target, {}, scenario.ruleset)
    _check_work(scenario)
    return scenario


def _reallocated(scenario: Scenario, target: Target) -> Scenario:
    """The scenario with its target's kinds in allocation order (and each group's changed target too)."""
    from dataclasses import replace

    def order(t: Target | None) -> Target | None:
        if t is None or not t.kinds:
            return t
        by_name = {k.name: k for k in t.kinds}
        kinds = tuple(by_name[k.name] for k in target.kinds)
        first = kinds[0]
        return t.but(kinds=kinds, save=first.save, wounds=first.wounds, invulnerable=first.invulnerable,
                     feel_no_pain=first.feel_no_pain, damage_reduction=first.damage_reduction,
                     damage_halved=first.damage_halved)
    groups = tuple(replace(g, target=order(g.target)) for g in scenario.groups)
    return replace(scenario, target=order(scenario.target), groups=groups)


def _checked_target(target: Target, t: dict, ruleset: str) -> Target:
    """The target's size checked, and its kinds in allocation order."""
    if target.kinds:
        total = sum(k.count * k.wounds for k in target.kinds)
        if total > MAX_TARGET_WOUNDS:
            raise ScenarioError(f"target: its models have {total} wounds in total, more than {MAX_TARGET_WOUNDS}")
        return _allocated(target, t.get("allocation_order"), ruleset)
    if target.models * target.wounds > MAX_TARGET_WOUNDS:
        raise ScenarioError(
            f"target: {target.models} models x {target.wounds} wounds is more than {MAX_TARGET_WOUNDS} wounds in total"
        )
    return target


def _kept(store: OrderedDict, key: bytes | None, extra, build):
    """``build()``, or what it gave before for the same exact input (``key``, from ``_exact_key``;
    None: nothing is kept) and ``extra``.

    The weapons and targets of a matrix repeat across its scenarios (every weapon against
    every target), each scenario new: a new scenario of known parts checks the whole
    input but builds only what it has not seen. A part that failed is never kept.
    """
    if key is None:
        return build()
    key = (key, extra)
    found = store.get(key)
    if found is not None:
        store.move_to_end(key)
        return found
    value = store[key] = build()
    if len(store) > PARTS_KEPT:
        store.popitem(last=False)
    return value


def _target(t: dict, kb) -> tuple[Target, set[str]]:
    """The target as given: one profile, a list of kinds, or datasheet references.

    Returns the target (kinds as listed) and the rulesets of the datasheets it names.
    """
    keywords = _keywords(t.get("keywords"))
    if "ref" in t:
        base = _knowledge_base(kb)
        unit = base.datasheet(t["ref"], "target.ref")
        kinds = model_kinds(unit, t["models"], "target.ref")
        rulesets = {unit["ruleset"]}
        attached = "leader" in t
        if attached:
            leader = base.datasheet(t["leader"], "target.leader")
            low = sum(c["min"] for c in leader.get("composition") or []) or 1
            led = model_kinds(leader, low, "target.leader")
            if not any(k.character for k in led):
                raise ScenarioError(f"target.leader: datasheet {leader['id']!r} has no CHARACTER keyword: it cannot lead a unit")
            taken = {k.name for k in kinds}
            for k in led:
                name = k.name if k.name not in taken else f"{k.name} (leader)"
                kinds.append(ModelKind(**{**vars(k), "name": name}))
            rulesets.add(leader["ruleset"])
        kinds = [ModelKind(**{**vars(k), "keywords": k.keywords | keywords}) for k in kinds]
        return _kinds_target(kinds, attached, t.get("name") or unit["name"], keywords), rulesets
    if isinstance(t["models"], list):
        names: set[str] = set()
        kinds = []
        for i, k in enumerate(t["models"]):
            if k["name"] in names:
                raise ScenarioError(f"target.models[{i}].name: {k['name']!r} names another kind too; names must be unique")
            names.add(k["name"])
            kinds.append(ModelKind(name=k["name"], count=k.get("count", 1), toughness=k["toughness"], save=k["save"],
                                   wounds=k["wounds"], invulnerable=k.get("invulnerable"),
                                   feel_no_pain=k.get("feel_no_pain"), damage_reduction=k.get("damage_reduction", 0),
                                   damage_halved=k.get("damage_halved", False),
                                   keywords=_keywords(k.get("keywords")) | keywords))
        attached = bool(t.get("attached", False))
        if attached and not any(k.character for k in kinds):
            raise ScenarioError("target.attached: an attached unit needs a model kind with the CHARACTER keyword (its leader)")
        return _kinds_target(kinds, attached, t.get("name"), keywords), set()
    return Target(
        toughness=t["toughness"],
        save=t["save"],
        wounds=t["wounds"],
        models=t["models"],
        invulnerable=t.get("invulnerable"),
        feel_no_pain=t.get("feel_no_pain"),
        damage_reduction=t.get("damage_reduction", 0),
        damage_halved=t.get("damage_halved", False),
        keywords=keywords,
        name=t.get("name"),
    ), set()


def _kinds_target(kinds: list[ModelKind], attached: bool, name: str | None, keywords: frozenset[str]) -> Target:
    """A Target over kinds (as listed; ``_allocated`` puts them in allocation order)."""
    first = kinds[0]
    guards = [k.toughness for k in kinds if not k.character]
    toughness = max(guards) if attached and guards else max(k.toughness for k in kinds)
    every = frozenset().union(keywords, *(k.keywords for k in kinds))
    return Target(toughness=toughness, save=first.save, wounds=first.wounds, models=sum(k.count for k in kinds),
                  invulnerable=first.invulnerable, feel_no_pain=first.feel_no_pain,
                  damage_reduction=first.damage_reduction, damage_halved=first.damage_halved, keywords=every,
                  kinds=tuple(kinds), attached=attached, name=name)


def allocation_order(kinds: tuple[ModelKind, ...], order: list[str] | None, ruleset: str,
                     attached: bool) -> tuple[ModelKind, ...]:
    """The kinds in the defender's allocation order, checked against the rules.

    Default: non-CHARACTER kinds as listed (11e: kinds of one allocation group, the
    same W, Sv and InSv, together), then CHARACTER kinds. The constraints on wounded
    models (05.03) hold by themselves: the defender keeps this order for every weapon
    group and only the first living model of it can be wounded.
    """
    def group_key(k: ModelKind):
        return (k.wounds, k.save, k.invulnerable)

    if order is None:
        others = [k for k in kinds if not k.character]
        if ruleset == "11e":
            keys = list(dict.fromkeys(group_key(k) for k in others))
            others = [k for key in keys for k in others if group_key(k) == key]
        return tuple(others + [k for k in kinds if k.character])
    field = "target.allocation_order"
    by_name = {k.name: k for k in kinds}
    for name in order:
        if name not in by_name:
            raise ScenarioError(f"{field}: unknown model kind {name!r} (kinds: {', '.join(by_name)})")
    repeated = sorted({n for n in order if order.count(n) > 1})
    if repeated:
        raise ScenarioError(f"{field}: {', '.join(map(repr, repeated))} given more than once")
    missing = [n for n in by_name if n not in order]
    if missing:
        raise ScenarioError(f"{field}: every model kind must be placed; missing {', '.join(map(repr, missing))}")
    ordered = tuple(by_name[n] for n in order)
    if ruleset == "11e" or attached:
        rule = CHARACTER_LAST_11E if ruleset == "11e" else CHARACTER_LAST_10E
        for i, k in enumerate(ordered):
            later = [x for x in ordered[i + 1:] if not x.character]
            if k.character and later:
                raise ScenarioError(f"{field}: CHARACTER {k.name!r} comes before {later[0].name!r}, which is not one; {rule}")
    if ruleset == "11e":
        seen: list = []
        for i, k in enumerate(ordered):
            if k.character:
                continue
            key = group_key(k)
            if key in seen and group_key(ordered[i - 1]) != key:
                other = next(x for x in ordered if not x.character and group_key(x) == key)
                raise ScenarioError(f"{field}: {other.name!r} and {k.name!r} form one allocation group "
                                    f"(W{k.wounds}, Sv{k.save}+, InSv {k.invulnerable or '-'}) and must be adjacent; "
                                    f"{ONE_GROUP_11E}")
            if key not in seen:
                seen.append(key)
    return ordered


def _allocated(target: Target, order: list[str] | None, ruleset: str) -> Target:
    kinds = allocation_order(target.kinds, order, ruleset, target.attached)
    first = kinds[0]
    target = target.but(kinds=kinds, save=first.save, wounds=first.wounds, invulnerable=first.invulnerable,
                     feel_no_pain=first.feel_no_pain, damage_reduction=first.damage_reduction,
                     damage_halved=first.damage_halved)
    states = state_count(ruleset, target)
    if states > MAX_ALLOCATION_STATES:
        raise ScenarioError(f"target: {states} allocation states (wounds of the non-CHARACTER models + 1, times those "
                            f"of the CHARACTER models + 1) is more than {MAX_ALLOCATION_STATES}")
    return target


def load_scenario(path: str | Path, kb: KnowledgeBase | dict | str | Path | None = None) -> Scenario:
    return parse_scenario(read_yaml(path), kb)


def check_plausible(scenario: Scenario) -> None:
    """Refuse a weapon no rules document prints (S 0, D 0, A 0, or beyond the engine's limit)."""
    for i, group in enumerate(scenario.groups):
        w = group.weapon
        for field, why in implausible({"attacks": w.attacks, "strength": w.strength, "damage": w.damage}):
            where = f"attacker.weapons[{i}].{'ref' if w.id else 'weapon'}"
            raise ScenarioError(f"{where}.{field}: {why}" + (f" (knowledge-base record {w.id!r})" if w.id else ""))
