"""From one weapon group to counts of damaging events: the attack sequence up to saves.

A *damaging event* is something that will take a number of wounds off the model
currently being allocated to: an unsaved wound (normal damage) or a critical wound of
a [DEVASTATING WOUNDS] weapon (a packet of mortal wounds that can damage one model at
most). Both remove ``min(B, w)`` wounds, where B is the weapon's damage after Feel No
Pain and w the current model's remaining wounds, so the allocation chain treats them
alike; only their order differs (``engine.allocation``).

Per attack we compute the joint distribution of (normal events, devastating events);
per group, the sum over the random number of attacks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from warscribe.engine import dist as D
from warscribe.engine.model import Conditions, ModelKind, Modifiers, Target, Weapon
from warscribe.engine.rules import (
    REROLLS,
    RollOutcome,
    cap_modifier,
    d6_roll,
    feel_no_pain_loses,
    hit_modifier,
    hit_skill,
    save_fail,
    wound_need,
)


@dataclass
class GroupProfile:
    """Everything the allocation chain and the summaries need about one weapon group."""

    name: str
    models: int
    attacks_per_model: D.Dist
    per_attack: D.Joint  # (normal events, devastating events) from one attack
    event_damage: D.Dist  # wounds one event takes off before the model cap (after FNP)
    devastating: bool
    hazardous: bool
    expected_hits_per_attack: float
    expected_wounds_per_attack: float
    notes: list[str]
    # When every hit of an attack rolls to wound alike (no [LETHAL HITS] critical hit):
    # the hits one attack makes, and one hit's chances of a normal event and of a packet.
    # ``per_attack`` is then the mixture over those hits of their multinomial law.
    hits_per_attack: D.Dist | None = None
    per_hit: tuple[float, float] | None = None

    @property
    def attacks(self) -> D.Dist:
        """Total attacks made by the group."""
        return D.sum_iid(self.attacks_per_model, self.models)

    @property
    def expected_attacks(self) -> float:
        return self.models * D.mean(self.attacks_per_model)

    @property
    def wounding(self) -> float:
        """Probability that an event takes at least one wound (Feel No Pain can stop all)."""
        return 1.0 - self.event_damage[0]

    @property
    def wounding_damage(self) -> D.Dist:
        """Damage of an event that takes at least one wound."""
        keep = self.wounding
        if keep <= 0.0:
            return self.event_damage
        return [0.0] + [p / keep for p in self.event_damage[1:]]


def active_abilities(weapon: Weapon, target: Target) -> Weapon:
    """Drop abilities limited to a keyword the target lacks ('DEVASTATING WOUNDS: INFANTRY')."""
    kept = tuple(a for a in weapon.abilities if "condition" not in a or a["condition"].upper() in target.keywords)
    return weapon if len(kept) == len(weapon.abilities) else replace(weapon, abilities=kept)


def _ability(weapon: Weapon, ability_id: str) -> dict | None:
    for a in weapon.abilities:
        if a["id"] == ability_id:
            return a
    return None


def _stronger(a: str, b: str) -> str:
    return a if REROLLS.index(a) >= REROLLS.index(b) else b


def attacks_per_model(weapon: Weapon, target: Target, conditions: Conditions) -> D.Dist:
    """A characteristic plus [BLAST] and [RAPID FIRE X].

    [BLAST]: one extra attack per five target models, rounding down (10e Blast);
    [BLAST X] adds X per five models instead (11e 24.05), and so does [CLEAVE X] (11e)
    when all the weapon's attacks have one target. [RAPID FIRE X]: X more
    attacks within half range (10e Rapid Fire, 11e 24.30).
    """
    total = D.dice(weapon.attacks)
    blast = _ability(weapon, "blast")
    if blast is not None:
        per_five = blast.get("value", 1)
        for _ in range(target.models // 5):
            total = D.convolve(total, D.dice(per_five))
    cleave = _ability(weapon, "cleave")
    if cleave is not None:
        # The scenario's weapon group targets one unit, the condition [CLEAVE] asks for.
        for _ in range(target.models // 5):
            total = D.convolve(total, D.dice(cleave["value"]))
    rapid = _ability(weapon, "rapid-fire")
    if rapid is not None and conditions.half_range and weapon.type == "ranged":
        total = D.convolve(total, D.dice(rapid["value"]))
    return total


def damage_per_event(weapon: Weapon, target: Target, conditions: Conditions) -> D.Dist:
    """D characteristic, plus X for [MELTA X] at half range, less the target's damage
    reduction (to a minimum of 1), thinned by Feel No Pain.

    [MELTA X] (11e 24.25) adds X to D; [DEVASTATING WOUNDS] inflicts mortal wounds
    equal to D 'after any modifiers' (10e), so both kinds of event share this. A
    reduction ('each time an attack is allocated to this model, subtract 1 from the
    Damage characteristic of that attack') acts on the attack as it is allocated, after
    the attacker's own modifiers, and never takes D below 1. Feel No Pain is rolled for
    every point of damage, mortal wounds included (10e Feel No Pain, 11e 24.12).
    """
    damage = D.dice(weapon.damage)
    melta = _ability(weapon, "melta")
    if melta is not None and conditions.half_range and weapon.type == "ranged":
        damage = D.convolve(damage, D.dice(melta["value"]))
    return D.thin(as_allocated(damage, target), feel_no_pain_loses(target.feel_no_pain))


def as_allocated(damage: D.Dist, models: Target | ModelKind) -> D.Dist:
    """An attack's damage as the models it is allocated to take it: halved (rounding up), then less their
    damage reduction (never below 1); division before subtraction."""
    if models.damage_halved:
        damage = D.halved(damage)
    return D.reduced(damage, models.damage_reduction)


def hit_roll(ruleset: str, weapon: Weapon, target: Target, conditions: Conditions, mods: Modifiers) -> RollOutcome:
    """Hit roll outcome for one attack.

    [TORRENT] (and a skill of N/A) hits automatically; 11e 01.05.01: an automatic
    success is not a critical, so no [SUSTAINED HITS] or [LETHAL HITS].
    """
    if weapon.has("torrent") or weapon.skill is None:
        return RollOutcome(0.0, 1.0, 0.0)
    skill = hit_skill(ruleset, weapon, target, conditions.cover)
    mod = hit_modifier(ruleset, weapon, mods.hit, conditions.stationary)
    return d6_roll(skill, mod, mods.critical_hit, mods.reroll_hits)


def wound_roll(weapon: Weapon, target: Target, conditions: Conditions, mods: Modifiers) -> RollOutcome:
    """Wound roll outcome for one hit that is not an automatic wound.

    Critical on an unmodified 6, or the [ANTI-X Y+] threshold against a target with
    keyword X (10e Anti, 11e 24.03). [LANCE] adds 1 when the unit charged (11e 24.21).
    [TWIN-LINKED] re-rolls the wound roll: we re-roll failed ones only. A random
    Strength is rolled per attack.
    """
    critical = mods.critical_wound
    for a in weapon.abilities:
        if a["id"] == "anti" and a["keyword"] in target.keywords:
            critical = min(critical, a["threshold"])
    mod = mods.wound + (1 if weapon.has("lance") and conditions.charged else 0)
    mod = cap_modifier(mod)
    reroll = mods.reroll_wounds
    if weapon.has("twin-linked"):
        reroll = _stronger(reroll, "failed")
    if isinstance(weapon.strength, int):
        return d6_roll(wound_need(weapon.strength, target.toughness), mod, critical, reroll)
    fail = success = crit = 0.0
    for s, ps in enumerate(D.dice(weapon.strength)):
        if ps:
            r = d6_roll(wound_need(s, target.toughness), mod, critical, reroll)
            fail += ps * r.fail
            success += ps * r.success
            crit += ps * r.critical
    return RollOutcome(fail, success, crit)


def group_profile(
    ruleset: str,
    models: int,
    weapon: Weapon,
    target: Target,
    conditions: Conditions,
    mods: Modifiers,
    saves: bool = True,
) -> GroupProfile:
    """The attack sequence of one group up to damage.

    With ``saves=False`` the events are wounds before any save (the allocation of a
    target with several kinds of model rolls the save, and Feel No Pain, against the
    model each wound is allocated to: ``engine.groups``).
    """
    weapon = active_abilities(weapon, target)
    notes = [
        f"{weapon.name}: ignored ability {a.get('name', a['text'])!r} (outside the vocabulary)"
        for a in weapon.abilities
        if a["id"] == "custom"
    ]
    if weapon.skill is None and not weapon.has("torrent"):
        notes.append(f"{weapon.name}: skill N/A without [TORRENT]: treated as hitting automatically")
    hit = hit_roll(ruleset, weapon, target, conditions, mods)
    wound = wound_roll(weapon, target, conditions, mods)
    unsaved = save_fail(ruleset, weapon, target, conditions.cover) if saves else 1.0
    devastating = weapon.has("devastating-wounds")
    lethal = weapon.has("lethal-hits")
    sustained = _ability(weapon, "sustained-hits")

    extra_hits = D.dice(sustained["value"]) if sustained is not None else [1.0]
    per_attack = _per_attack_joint(hit, wound, unsaved, devastating, lethal, tuple(extra_hits))
    hits_per_attack, per_hit = None, None
    if not (lethal and hit.critical):
        hits_per_attack = [hit.fail, hit.success]
        for x, px in enumerate(extra_hits):
            if px:
                D.add_scaled(hits_per_attack, D.point(1 + x), hit.critical * px)
        per_hit = _rolled(wound, unsaved, devastating)

    per_model = attacks_per_model(weapon, target, conditions)

    mean_extra = D.mean(extra_hits)
    p_wound = wound.success + wound.critical
    hits = hit.success + hit.critical * (1.0 + mean_extra)
    wounds = hit.success * p_wound + hit.critical * ((1.0 if lethal else p_wound) + mean_extra * p_wound)
    return GroupProfile(
        name=weapon.name,
        models=models,
        attacks_per_model=per_model,
        per_attack=per_attack,
        event_damage=damage_per_event(weapon, target, conditions),
        devastating=devastating,
        hazardous=weapon.has("hazardous"),
        expected_hits_per_attack=hits,
        expected_wounds_per_attack=wounds,
        notes=notes,
        hits_per_attack=hits_per_attack,
        per_hit=per_hit,
    )


def _rolled(wound: RollOutcome, unsaved: float, devastating: bool) -> tuple[float, float]:
    """(normal event, devastating event) from one hit that rolls to wound.

    10e/11e [DEVASTATING WOUNDS]: a critical wound skips the save and becomes a mortal-wound packet."""
    if devastating:
        return wound.success * unsaved, wound.critical
    return (wound.success + wound.critical) * unsaved, 0.0


def per_attack_joint(
    hit: RollOutcome,
    wound: RollOutcome,
    unsaved: float,
    devastating: bool,
    lethal: bool,
    extra_hits: tuple[float, ...],
) -> D.Joint:
    """(normal events, devastating events) from one attack, given its rolls' outcomes.

    ``extra_hits`` is the distribution of [SUSTAINED HITS] extra hits on a critical
    hit ((1.0,) without it).
    """
    normal, dev = _rolled(wound, unsaved, devastating)
    rolled: D.Joint = {(0, 0): 1.0 - normal - dev, (1, 0): normal, (0, 1): dev}
    # [LETHAL HITS]: the critical hit itself wounds automatically (no wound roll, so
    # no critical wound: 11e 24.23 and 01.05.01); hits added by [SUSTAINED HITS] are
    # not critical hits and roll to wound as usual.
    automatic: D.Joint = {(0, 0): 1.0 - unsaved, (1, 0): unsaved}

    crit_base = automatic if lethal else rolled
    extra: D.Joint = {}
    power: D.Joint = {(0, 0): 1.0}
    for x, px in enumerate(extra_hits):
        if px:
            for key, p in power.items():
                extra[key] = extra.get(key, 0.0) + px * p
        if x < len(extra_hits) - 1:
            power = D.joint_convolve(power, rolled)
    crit = D.joint_convolve(crit_base, extra)

    per_attack: D.Joint = {(0, 0): hit.fail}
    for part, weight in ((rolled, hit.success), (crit, hit.critical)):
        if weight:
            for key, p in part.items():
                per_attack[key] = per_attack.get(key, 0.0) + weight * p
    return {key: p for key, p in per_attack.items() if p > 0.0} or {(0, 0): 1.0}


# A pure function of a few small values that repeat across weapons and calls; its dicts are only read.
_per_attack_joint = lru_cache(maxsize=1024)(per_attack_joint)


def events_per_attack(profile: GroupProfile) -> D.Dist:
    """Distribution of damaging events (normal + devastating) from one attack."""
    return D.joint_total(profile.per_attack)


def wounding_events(profile: GroupProfile, cap: int) -> D.Dist:
    """Distribution of the group's events that take at least one wound, lumped at ``cap``.

    Events that Feel No Pain turns into nothing are dropped first (binomial thinning),
    so every event left takes a wound: once there are as many as the target has
    wounds, more change nothing, and lumping at any cap at or above that is exact.
    Counted per model, then summed over the models by repeated squaring, so the time
    grows with the dice of one model, not with the group's total.
    """
    per_attack = D.thin(events_per_attack(profile), profile.wounding, cap)
    per_model = D.random_sum(profile.attacks_per_model, per_attack, cap)
    return D.sum_iid(per_model, profile.models, cap)


def wounding_events_joint(profile: GroupProfile, cap: int) -> D.Joint:
    """(normal, devastating) events that take a wound, each lumped at ``cap``."""
    unit = D.joint_thin(profile.per_attack, profile.wounding)
    return D.joint_random_sum(profile.attacks, unit, cap, cap)
