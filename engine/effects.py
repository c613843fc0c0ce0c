"""Applying compiled effects (``schema/effect.schema.json``) to a checked scenario.

A scenario names effects on either side (``attacker.effects``, ``target.effects``): a
stratagem, enhancement, ability, detachment (its rule) or datasheet ability of the
knowledge base, by id or name. Their compiled entries become changes to each weapon
group's weapon, the target it meets, the conditions and the roll modifiers; the
probability code then runs unchanged on those per-group contexts. Every change made
is logged (which effect changed what, for which group), and so is every entry that
did not apply and why.

Eligibility is checked, never assumed: a stratagem whose TARGET keywords the unit
lacks, or an effect none of whose entries can apply (wrong side, a condition the
scenario contradicts), is a ``ScenarioError`` that says why. Conditions a scenario
cannot express (an objective marker in range) are applied and listed as assumed.

An effect for one model ("the bearer", "this model") against a target of several models is
applied to that model's kind alone when the caller knows which kind bears it (``bearers``: a
unit built from datasheets knows its Leader's kind), and only where it is a characteristic of
that model (invulnerable save, Feel No Pain, damage reduction); otherwise it is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from warscribe.engine.errors import ScenarioError
from warscribe.engine.model import Conditions, Group, Modifiers, Scenario, Target, Weapon
from warscribe.engine.rules import REROLLS
from warscribe.schema.abilities import canonical_text
from warscribe.schema.bundle import Bundle
from warscribe.schema.keywords import describe, matches
from warscribe.schema.text import slugify

SIDES = ("attacker", "target")
BEARER = "the bearer only"  # an assumed condition: the change is for one model (extract/effects.py)
# What one model of a unit of several can have of its own: each kind's save, Feel No Pain and damage
# reduction are rolled per kind at allocation; the others (Toughness, weapons, rolls) are the unit's.
PER_MODEL = ("invulnerable", "feel_no_pain")
_ROLL_NAME = {"hit": "hit roll", "wound": "wound roll"}
_DICE_PLUS = re.compile(r"^(?P<dice>[1-9]?D[36])(?:\+(?P<plus>\d+))?$")


@dataclass
class Source:
    """An effect the scenario names: where its compiled entries came from."""

    id: str
    name: str
    kind: str
    effects: list[dict]
    eligible: dict | None = None  # keyword expression the owning unit must meet
    eligible_what: str = ""  # "stratagem TARGET", "enhancement restriction"


@dataclass
class _State:
    """One weapon group's context while effects are applied."""

    weapon: Weapon
    original: Weapon
    target: Target
    conditions: Conditions
    modifiers: Modifiers
    ignore: set[str] = field(default_factory=set)


# --- finding the named effects ------------------------------------------------------

def _sources(bundle: Bundle) -> list[Source]:
    out: list[Source] = []
    for rec in bundle.kind("stratagem"):
        if rec.get("effects"):
            out.append(Source(rec["id"], rec["name"], "stratagem", rec["effects"],
                              rec.get("target_keywords"), "stratagem TARGET"))
    for rec in bundle.kind("enhancement"):
        if rec.get("effects"):
            out.append(Source(rec["id"], rec["name"], "enhancement", rec["effects"],
                              rec.get("restriction_keywords"), "enhancement restriction"))
    for kind in ("ability", "rule"):
        for rec in bundle.kind(kind):
            if rec.get("effects"):
                out.append(Source(rec["id"], rec["name"], kind, rec["effects"]))
    for rec in bundle.kind("detachment"):
        rule = rec.get("rule") or {}
        if rule.get("effects"):
            out.append(Source(rec["id"], rec["name"], "detachment rule", rule["effects"]))
            out.append(Source(rec["id"], rule["name"], "detachment rule", rule["effects"]))
    for rec in bundle.kind("datasheet"):
        for ability in rec.get("abilities", []):
            if ability.get("effects"):
                out.append(Source(f"{rec['id']}#{slugify(ability['name'])}", ability["name"],
                                  "datasheet ability", ability["effects"]))
    return out


# The sources of a bundle, indexed once: a whole game has thousands, and a unit against a unit
# names a dozen (its abilities, its leader's, stratagems), each looked up by id or name.
_INDEXED: dict[int, tuple[Bundle, list[Source], dict[str, Source], dict[str, list[Source]]]] = {}
INDEXED_BUNDLES = 4


def _indexed(bundle: Bundle) -> tuple[list[Source], dict[str, Source], dict[str, list[Source]]]:
    kept = _INDEXED.get(id(bundle))
    if kept is None or kept[0] is not bundle:
        sources = _sources(bundle)
        by_id: dict[str, Source] = {}
        by_slug: dict[str, list[Source]] = {}
        for s in sources:
            by_id.setdefault(s.id, s)
            by_slug.setdefault(slugify(s.name), []).append(s)
        while len(_INDEXED) >= INDEXED_BUNDLES:
            del _INDEXED[next(iter(_INDEXED))]
        kept = _INDEXED[id(bundle)] = (bundle, sources, by_id, by_slug)
    return kept[1], kept[2], kept[3]


def resolve(ref: str, bundle: Bundle, ruleset: str, field_name: str) -> Source:
    """The effect a scenario names: by id, or by name (case and punctuation aside) in its ruleset."""
    sources, ids, slugs = _indexed(bundle)
    if ref in ids:
        return ids[ref]
    key = slugify(ref)
    named = slugs.get(key, [])
    same = [s for s in named if _ruleset(bundle, s) == ruleset] or named
    unique = {s.id: s for s in same}
    if len(unique) == 1:
        return next(iter(unique.values()))
    if len(unique) > 1:
        raise ScenarioError(f"{field_name}: {ref!r} names {len(unique)} effects; use one of the ids: {', '.join(sorted(unique))}",
                            "unknown-effect")
    close = sorted({s.name for s in sources if key and key in slugify(s.name)})[:5]
    hint = f"; did you mean: {', '.join(close)}" if close else ""
    raise ScenarioError(f"{field_name}: no effect named {ref!r} in {bundle.origin} (stratagems, enhancements, "
                        f"abilities, detachment rules with compiled effects){hint}", "unknown-effect")


def _ruleset(bundle: Bundle, source: Source) -> str | None:
    rec = bundle.get(source.id.split("#")[0])
    return rec.get("ruleset") if rec else None


# --- conditions ---------------------------------------------------------------------

def _keywords_text(keywords: frozenset[str]) -> str:
    return ", ".join(sorted(keywords)) if keywords else "none given"


def _unmet(when: dict | None, side: str, scenario: Scenario, state: _State | None) -> str | None:
    """Why `when` does not hold for this scenario (and group), or None when it holds."""
    if not when:
        return None
    own = scenario.attacker_keywords if side == "attacker" else scenario.target.keywords
    other = scenario.target.keywords if side == "attacker" else scenario.attacker_keywords
    own_field = "attacker.keywords" if side == "attacker" else "target.keywords"
    other_field = "target.keywords" if side == "attacker" else "attacker.keywords"
    if "unit" in when and not matches(when["unit"], own):
        return f"needs a {describe(when['unit'])} unit ({own_field}: {_keywords_text(own)})"
    if "enemy" in when and not matches(when["enemy"], other):
        return f"needs attacks involving a {describe(when['enemy'])} unit ({other_field}: {_keywords_text(other)})"
    if "enemy_models_at_least" in when and side == "attacker" and scenario.target.models < when["enemy_models_at_least"]:
        return f"needs a target of {when['enemy_models_at_least']} or more models (target.models: {scenario.target.models})"
    if when.get("charged") and not scenario.conditions.charged:
        return "needs a unit that made a charge move this turn (conditions.charged: true)"
    if state is not None:
        if "attack" in when and state.weapon.type != when["attack"]:
            return f"applies to {when['attack']} attacks only"
        if when.get("weapon_had") and not state.original.has(when["weapon_had"]):
            return f"applies to weapons that already had [{when['weapon_had'].upper().replace('-', ' ')}]"
        if when.get("strength_gt_toughness"):
            strength = state.weapon.strength
            if not isinstance(strength, int):
                raise ScenarioError(f"{state.weapon.name}: a condition on Strength > Toughness with a random Strength ({strength}) is not modelled", "effect-not-modelled")
            if strength <= state.target.toughness:
                return f"needs Strength greater than Toughness (S{strength} against T{state.target.toughness})"
    return None


def _weapon_unmet(scope: dict | None, weapon: Weapon) -> str | None:
    if not scope:
        return None
    if "type" in scope and weapon.type != scope["type"]:
        return f"applies to {scope['type']} weapons"
    if "ability" in scope and not weapon.has(scope["ability"]):
        return f"applies to weapons with [{scope['ability'].upper().replace('-', ' ')}]"
    if "name" in scope and scope["name"].casefold() not in weapon.name.casefold():
        return f"applies to {scope['name']} weapons"
    return None


# --- changes ------------------------------------------------------------------------

def _add_dice(value: int | str, add: int, what: str) -> int | str:
    if isinstance(value, int):
        if value + add < 0:
            raise ScenarioError(f"{what}: {value} {add:+d} is below 0")
        return max(value + add, 0)
    m = _DICE_PLUS.match(value.strip().upper())
    plus = int(m.group("plus") or 0) + add if m else -1
    if m is None or plus < 0:
        raise ScenarioError(f"{what}: adding {add:+d} to {value} is not modelled", "effect-not-modelled")
    return m.group("dice") + (f"+{plus}" if plus else "")


def _apply(change: dict, state: _State, log, bearer: tuple[str, ...] = ()) -> None:
    """``bearer``: the kinds a change for one model is made to (none: every kind, as for the unit)."""
    op = change["op"]
    w, t, m = state.weapon, state.target, state.modifiers
    kinds = _kinds_changed(t, bearer)
    whose = f" ({', '.join(bearer)}: the bearer)" if bearer else ""
    if op == "modify":
        key = change["roll"]
        m = replace(m, **{key: getattr(m, key) + change["value"]})
        log(f"{_ROLL_NAME[key]} {change['value']:+d}")
    elif op == "critical":
        key = f"critical_{change['roll']}"
        if change["threshold"] < getattr(m, key):
            m = replace(m, **{key: change["threshold"]})
            log(f"critical {change['roll']} on {change['threshold']}+")
    elif op == "reroll":
        key = f"reroll_{change['roll']}s"
        if REROLLS.index(change["which"]) > REROLLS.index(getattr(m, key)):
            m = replace(m, **{key: change["which"]})
            log(f"re-roll {change['which']} {_ROLL_NAME[change['roll']]}s" if change["which"] == "failed"
                else f"re-roll {_ROLL_NAME[change['roll']]}s of 1")
    elif op == "ability":
        ability = change["ability"]
        same = [a for a in w.abilities if a["id"] == ability["id"] and a.get("keyword") == ability.get("keyword")]
        if not same:
            w = replace(w, abilities=w.abilities + (ability,))
            log(f"gains [{canonical_text(ability)}]")
    elif op == "characteristic":
        key = change["characteristic"]
        if key == "toughness":
            def tough(old: int) -> int:
                return change["set"] if "set" in change else old + change["add"]
            log(f"Toughness {t.toughness} -> {tough(t.toughness)}")
            t = _every_kind(replace(t, toughness=tough(t.toughness)), lambda k: replace(k, toughness=tough(k.toughness)))
        elif key == "wounds":
            pass  # unit-level: applied once in apply_effects
        elif key == "damage" and change.get("halve"):
            # 'Halve the Damage characteristic of that attack': each attack as it is allocated, rounding up,
            # before any subtraction (division before subtraction).
            t = kinds(replace(t, damage_halved=True), lambda k: replace(k, damage_halved=True))
            log(f"Damage halved for each attack allocated (rounding up){whose}")
        elif key == "damage" and change.get("add", 0) < 0:
            # 'Subtract 1 from the Damage characteristic of that attack': it acts on each attack as it is
            # allocated and never takes Damage below 1 (a dice Damage too: each roll, not the dice).
            less = -change["add"]
            t = kinds(replace(t, damage_reduction=t.damage_reduction + less),
                      lambda k: replace(k, damage_reduction=k.damage_reduction + less))
            log(f"Damage -{less} for each attack allocated (to a minimum of 1){whose}")
        else:
            field_name = {"attacks": "attacks", "damage": "damage", "strength": "strength", "ap": "ap"}[key]
            old = getattr(w, field_name)
            if "set" in change:
                new = change["set"]
            elif key == "ap":
                new = min(0, old + change["add"])
            else:
                new = _add_dice(old, change["add"], f"{w.name}: {key}")
            w = replace(w, **{field_name: new})
            log(f"{ {'ap': 'AP', 'attacks': 'Attacks', 'damage': 'Damage', 'strength': 'Strength'}[key]} {old} -> {new}")
    elif op == "invulnerable":
        value = change["value"]
        if any(k.invulnerable is None or value < k.invulnerable for k in _borne(t, bearer)):
            t = kinds(replace(t, invulnerable=_better(t.invulnerable, value)),
                      lambda k: replace(k, invulnerable=_better(k.invulnerable, value)))
            log(f"{value}+ invulnerable save{whose}")
    elif op == "feel_no_pain":
        against = change.get("against")
        if against == "damage-1" and state.original.damage != 1:
            log(f"Feel No Pain {change['value']}+ not applied: only against an unmodified Damage of 1 (D {state.original.damage})", applied=False)
        elif against == "mortal-wounds":
            if w.has("devastating-wounds"):
                raise ScenarioError(f"{w.name}: Feel No Pain against mortal wounds only, with [DEVASTATING WOUNDS] attacks, "
                                    "is not modelled (the engine has one Feel No Pain for every point of damage)", "effect-not-modelled")
            log(f"Feel No Pain {change['value']}+ against mortal wounds: this group inflicts none", applied=False)
        elif any(k.feel_no_pain is None or change["value"] < k.feel_no_pain for k in _borne(t, bearer)):
            value = change["value"]
            t = kinds(replace(t, feel_no_pain=_better(t.feel_no_pain, value)),
                      lambda k: replace(k, feel_no_pain=_better(k.feel_no_pain, value)))
            log(f"Feel No Pain {value}+{whose}")
    elif op == "cover":
        if not state.conditions.cover:
            state.conditions = replace(state.conditions, cover=True)
            log("Benefit of Cover")
    elif op == "ignore_modifiers":
        state.ignore.update(change["to"])
        log("ignores modifiers to " + " and ".join("BS/WS" if x == "skill" else "the hit roll" for x in change["to"]))
    state.weapon, state.target, state.modifiers = w, t, m


def _better(current: int | None, value: int) -> int:
    """An X+ roll given by an effect: kept only where it beats the one the model has."""
    return value if current is None or value < current else current


def _every_kind(target: Target, change) -> Target:
    """A change of the target's models made to each of its kinds too (a unit of several kinds).

    The allocation order stays the one the scenario's characteristics gave (docs/engine.md).
    """
    return replace(target, kinds=tuple(change(k) for k in target.kinds)) if target.kinds else target


def _kinds_changed(target: Target, bearer: tuple[str, ...]):
    """How a change of the target's models is made: to every kind, or to the bearer's kinds alone."""
    if not bearer:
        return _every_kind

    def some(_whole: Target, change) -> Target:
        kinds = tuple(change(k) if k.name in bearer else k for k in target.kinds)
        first = kinds[0]  # the unit's own fields are the first kind's (engine/model.py Target)
        return replace(target, kinds=kinds, invulnerable=first.invulnerable, feel_no_pain=first.feel_no_pain,
                       damage_reduction=first.damage_reduction)
    return some


def _borne(target: Target, bearer: tuple[str, ...]) -> tuple:
    kinds = target.model_kinds()
    return tuple(k for k in kinds if k.name in bearer) if bearer else kinds


def _is_bearers(entry: dict, change: dict) -> bool:
    return BEARER in (entry.get("when") or {}).get("assumed", []) + (change.get("when") or {}).get("assumed", [])


def _per_model(change: dict) -> bool:
    return change["op"] in PER_MODEL or (change["op"] == "characteristic" and change["characteristic"] == "damage"
                                         and "set" not in change and (change.get("halve") or change.get("add", 0) < 0))


def _bearer_of(entry: dict, change: dict, side: str, scenario: Scenario, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds a change for one model is made to alone: its bearer's, when known and the target has several models."""
    if side != "target" or not kinds or scenario.target.models <= 1 or not scenario.target.kinds:
        return ()
    return kinds if _is_bearers(entry, change) and _per_model(change) else ()


def _entries(source: Source, side: str) -> list[dict]:
    out = []
    for entry in source.effects:
        if entry["status"] != "compiled":
            continue
        granted = [c for c in entry["changes"] if c["op"] == "grant"]
        if granted:
            for change in granted:
                out += [dict(e, when={**(e.get("when") or {}), **(entry.get("when") or {})}) for e in change["effects"]]
            continue
        out.append(entry)
    return out


def apply_effects(scenario: Scenario, named: dict[str, list[str]], bundle: Bundle,
                  bearers: dict[str, tuple[str, ...]] | None = None) -> Scenario:
    """The scenario with the named effects applied to every group, and the log of what changed.

    ``bearers``: by source id, the target's kinds (by name) that bear a target effect for one model.
    """
    bearers = bearers or {}
    states = [_State(g.weapon, g.weapon, scenario.target, scenario.conditions, scenario.modifiers) for g in scenario.groups]
    log: list[dict] = []
    wounds_add = 0
    for side in SIDES:
        for index, ref in enumerate(named.get(side) or []):
            where = f"{side}.effects[{index}]"
            source = resolve(ref, bundle, scenario.ruleset, where)
            own = scenario.attacker_keywords if side == "attacker" else scenario.target.keywords
            if source.eligible is not None and not matches(source.eligible, own):
                raise ScenarioError(
                    f"{where}: {source.name} ({source.id}) needs a {describe(source.eligible)} unit by its {source.eligible_what}; "
                    f"{side}.keywords: {_keywords_text(own)}", "effect-not-eligible")
            entries = _entries(source, side)
            borne_by = bearers.get(source.id, ()) if side == "target" else ()
            reasons: list[str] = []
            applied_any = False
            for entry in entries:
                if entry["side"] != side:
                    other = "attacks its unit makes" if entry["side"] == "attacker" else "attacks made against its unit"
                    reasons.append(f"'{entry['text'][:60]}...' changes the {other}: list it under {entry['side']}.effects")
                    continue
                why = _unmet(entry.get("when"), side, scenario, None)
                if why:
                    reasons.append(why)
                    continue
                assumed = list((entry.get("when") or {}).get("assumed", []))
                placed: tuple[str, ...] = ()
                for state in states:
                    why = _weapon_unmet(entry.get("weapons"), state.weapon) or _unmet(entry.get("when"), side, scenario, state)
                    if why:
                        reasons.append(f"{state.weapon.name}: {why}")
                        continue
                    changes = _chosen(entry["changes"], side, scenario, state, reasons)
                    for change in changes:
                        if change["op"] == "characteristic" and change["characteristic"] == "wounds":
                            continue

                        def note(what: str, applied: bool = True, _state=state) -> None:
                            log.append({"effect": source.id, "name": source.name, "side": side,
                                        "group": _state.weapon.name, "change": what, "applied": applied})
                        bearer = _bearer_of(entry, change, side, scenario, borne_by)
                        placed = placed or bearer
                        _apply(change, state, note, bearer)
                        applied_any = True
                    for change in changes:
                        assumed += (change.get("when") or {}).get("assumed", [])
                for change in entry["changes"]:
                    if _is_bearers(entry, change) and side == "target" and scenario.target.models > 1 and \
                            not _bearer_of(entry, change, side, scenario, borne_by):
                        raise ScenarioError(f"{where}: {source.name} applies to the bearer (one model) only; the scenario "
                                            f"does not say which model bears it (target.models: {scenario.target.models})",
                                            "effect-not-modelled")
                    if change["op"] == "characteristic" and change["characteristic"] == "wounds" and \
                            not _unmet(change.get("when"), side, scenario, None):
                        if side != "target":
                            continue
                        wounds_add += change["add"]
                        log.append({"effect": source.id, "name": source.name, "side": side, "group": None,
                                    "change": f"Wounds {scenario.target.wounds} -> {scenario.target.wounds + wounds_add}",
                                    "applied": True})
                        applied_any = True
                for text in dict.fromkeys(assumed):
                    said = f"the bearer: {', '.join(placed)}" if placed and text == BEARER else f"assumed: {text}"
                    log.append({"effect": source.id, "name": source.name, "side": side, "group": None,
                                "change": said, "applied": True})
            if not applied_any:
                detail = "; ".join(dict.fromkeys(reasons)) or "it has no compiled effect on the attack sequence"
                raise ScenarioError(f"{where}: {source.name} ({source.id}) changes nothing in this scenario: {detail}",
                                    "effect-not-applicable")
    return _finish(scenario, states, log, wounds_add)


def _chosen(changes: list[dict], side: str, scenario: Scenario, state: _State, reasons: list[str]) -> list[dict]:
    """The changes whose own conditions hold; an `instead` change replaces its kind's other change."""
    out: list[dict] = []
    for change in changes:
        why = _unmet(change.get("when"), side, scenario, state)
        if why:
            reasons.append(f"{state.weapon.name}: {why}")
            continue
        if change.get("instead"):
            kind = (change["op"], change.get("roll"), change.get("characteristic"))
            out = [c for c in out if (c["op"], c.get("roll"), c.get("characteristic")) != kind]
        out.append(change)
    return out


def _finish(scenario: Scenario, states: list[_State], log: list[dict], wounds_add: int) -> Scenario:
    groups = []
    for group, state in zip(scenario.groups, states):
        modifiers = state.modifiers
        conditions = state.conditions
        if "hit" in state.ignore and modifiers.hit < 0:
            modifiers = replace(modifiers, hit=0)
        if "skill" in state.ignore and scenario.ruleset == "11e" and conditions.cover:
            conditions = replace(conditions, cover=False)  # 11e cover worsens BS (13.08)
        changed = (state.target != scenario.target, conditions != scenario.conditions, modifiers != scenario.modifiers)
        groups.append(Group(
            models=group.models,
            weapon=state.weapon,
            target=_more_wounds(state.target, wounds_add) if changed[0] or wounds_add else None,
            conditions=conditions if changed[1] else None,
            modifiers=modifiers if changed[2] else None,
        ))
    target = _more_wounds(scenario.target, wounds_add) if wounds_add else scenario.target
    return replace(scenario, groups=tuple(groups), target=target, effects=tuple(log))


def _more_wounds(target: Target, add: int) -> Target:
    return _every_kind(replace(target, wounds=target.wounds + add), lambda k: replace(k, wounds=k.wounds + add))
