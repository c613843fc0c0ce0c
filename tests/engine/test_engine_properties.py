"""Properties over random scenarios: sums to one, agreement with dice, monotonicity."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dice_sim import simulate
from warscribe.engine import Conditions, Group, Modifiers, Scenario, Target, Weapon, evaluate_scenario
from warscribe.engine.groups import evaluate_kinds
from warscribe.engine.model import ModelKind
from warscribe.engine.scenario import allocation_order
from warscribe.schema.abilities import parse_ability

ABILITY_TEXTS = [
    "SUSTAINED HITS 1",
    "SUSTAINED HITS D3",
    "LETHAL HITS",
    "DEVASTATING WOUNDS",
    "ANTI-INFANTRY 4+",
    "TWIN-LINKED",
    "TORRENT",
    "LANCE",
    "MELTA 2",
    "RAPID FIRE 1",
    "BLAST",
    "HEAVY",
    "IGNORES COVER",
    "PSYCHIC",
    "HAZARDOUS",
]
ABILITIES = {text: parse_ability(text)[0] for text in ABILITY_TEXTS + ["PRECISION"]}


@st.composite
def weapons(draw, extra: tuple[str, ...] = ()) -> Weapon:
    texts = draw(st.lists(st.sampled_from(ABILITY_TEXTS + list(extra)), max_size=3, unique=True))
    if "SUSTAINED HITS 1" in texts and "SUSTAINED HITS D3" in texts:
        texts.remove("SUSTAINED HITS D3")
    skill = None if "TORRENT" in texts else draw(st.integers(2, 6))
    return Weapon(
        name="W",
        type=draw(st.sampled_from(["ranged", "melee"])),
        attacks=draw(st.sampled_from([1, 2, 3, "D3", "D6"])),
        skill=skill,
        strength=draw(st.sampled_from([3, 4, 5, 8, "D6"])),
        ap=draw(st.integers(-3, 0)),
        damage=draw(st.sampled_from([1, 1, 2, 3, "D3", "D6"])),
        abilities=tuple(ABILITIES[t] for t in texts),
    )


@st.composite
def scenarios(draw, max_groups: int = 2) -> Scenario:
    groups = tuple(
        Group(models=draw(st.integers(1, 3)), weapon=draw(weapons())) for _ in range(draw(st.integers(1, max_groups)))
    )
    target = Target(
        toughness=draw(st.integers(3, 6)),
        save=draw(st.integers(2, 7)),
        wounds=draw(st.integers(1, 3)),
        models=draw(st.integers(1, 6)),
        invulnerable=draw(st.sampled_from([None, None, 4, 5])),
        feel_no_pain=draw(st.sampled_from([None, None, 5, 6])),
        keywords=draw(st.sampled_from([frozenset(), frozenset({"INFANTRY"})])),
        damage_reduction=draw(st.sampled_from([0, 0, 0, 1, 2])),
        damage_halved=draw(st.sampled_from([False, False, False, True])),
    )
    conditions = Conditions(
        half_range=draw(st.booleans()),
        stationary=draw(st.booleans()),
        charged=draw(st.booleans()),
        cover=draw(st.booleans()),
    )
    modifiers = Modifiers(
        hit=draw(st.integers(-2, 2)),
        wound=draw(st.integers(-1, 1)),
        reroll_hits=draw(st.sampled_from(["none", "ones", "failed"])),
        reroll_wounds=draw(st.sampled_from(["none", "ones", "failed"])),
        critical_hit=draw(st.sampled_from([5, 6, 6])),
        critical_wound=draw(st.sampled_from([5, 6, 6])),
    )
    return Scenario(
        ruleset=draw(st.sampled_from(["10e", "11e"])),
        groups=groups,
        target=target,
        conditions=conditions,
        modifiers=modifiers,
    )


SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _sd(dist: list[float]) -> float:
    m = sum(i * p for i, p in enumerate(dist))
    return math.sqrt(max(0.0, sum((i - m) ** 2 * p for i, p in enumerate(dist))))


@settings(max_examples=150, **SETTINGS)
@given(scenarios(max_groups=3))
def test_distributions_sum_to_one(s):
    r = evaluate_scenario(s)
    for dist in (r.models_slain, r.wounds_removed, r.damage):
        assert abs(sum(dist) - 1.0) < 1e-9
        assert min(dist) >= -1e-15
    assert r.expected_damage >= r.expected_wounds_removed - 1e-9
    assert len(r.models_slain) == s.target.models + 1
    assert 0.0 <= r.p_wipe <= 1.0 + 1e-12


TRIALS = 3000


@pytest.mark.slow
@settings(max_examples=30, **SETTINGS)
@given(scenarios())
def test_agrees_with_dice_simulation(s):
    """Means within 5 standard errors; every bucket of models slain within 5 binomial SEs."""
    r = evaluate_scenario(s)
    outcomes = simulate(s, TRIALS, seed=7)
    n = len(outcomes)
    for dist, values in (
        (r.wounds_removed, [o.wounds_removed for o in outcomes]),
        (r.models_slain, [o.models_slain for o in outcomes]),
    ):
        exact = sum(i * p for i, p in enumerate(dist))
        tol = 5 * _sd(dist) / math.sqrt(n) + 1e-9
        assert abs(sum(values) / n - exact) <= tol, (exact, sum(values) / n)
    for k, p in enumerate(r.models_slain):
        freq = sum(1 for o in outcomes if o.models_slain == k) / n
        tol = 5 * math.sqrt(p * (1 - p) / n) + 2.0 / n
        assert abs(freq - p) <= tol, (k, p, freq)
    capped = [min(o.damage, r.damage_cap) for o in outcomes]
    damage_mean = sum(i * p for i, p in enumerate(r.damage))
    assert abs(sum(capped) / n - damage_mean) <= 5 * _sd(r.damage) / math.sqrt(n) + 1e-9


def _better_ap(w: Weapon) -> Weapon:
    return replace(w, ap=w.ap - 1)


@settings(max_examples=80, **SETTINGS)
@given(scenarios(max_groups=3), st.data())
def test_better_ap_never_lowers_wounds_removed(s, data):
    i = data.draw(st.integers(0, len(s.groups) - 1))
    groups = list(s.groups)
    groups[i] = replace(groups[i], weapon=_better_ap(groups[i].weapon))
    better = replace(s, groups=tuple(groups))
    assert evaluate_scenario(better).expected_wounds_removed >= evaluate_scenario(s).expected_wounds_removed - 1e-9


@settings(max_examples=80, **SETTINGS)
@given(scenarios(max_groups=3), st.data())
def test_more_models_never_lower_wounds_removed(s, data):
    i = data.draw(st.integers(0, len(s.groups) - 1))
    groups = list(s.groups)
    groups[i] = replace(groups[i], models=groups[i].models + 1)
    more = replace(s, groups=tuple(groups))
    assert evaluate_scenario(more).expected_wounds_removed >= evaluate_scenario(s).expected_wounds_removed - 1e-9


@settings(max_examples=40, **SETTINGS)
@given(scenarios(max_groups=3))
def test_same_input_same_output(s):
    assert evaluate_scenario(s).to_json() == evaluate_scenario(s).to_json()


def _w(damage, abilities=(), attacks=2, skill=3, strength=5, ap=-1) -> Weapon:
    return Weapon(name="W", type="ranged", attacks=attacks, skill=skill, strength=strength, ap=ap, damage=damage,
                  abilities=tuple(ABILITIES[t] for t in abilities))


def _check_against_dice(s: Scenario, trials: int = 6000) -> None:
    r = evaluate_scenario(s)
    outcomes = simulate(s, trials, seed=11)
    n = len(outcomes)
    for k, p in enumerate(r.wounds_removed):
        freq = sum(1 for o in outcomes if o.wounds_removed == k) / n
        assert abs(freq - p) <= 5 * math.sqrt(p * (1 - p) / n) + 2.0 / n, (k, p, freq)


def test_10e_devastating_wounds_wait_for_every_group():
    """Two [DEVASTATING WOUNDS] groups before and between normal groups (10e): packets of
    both wait for all normal damage, then resolve in group order."""
    target = Target(toughness=4, save=3, wounds=3, models=4)
    groups = (
        Group(2, _w(2, ["DEVASTATING WOUNDS", "SUSTAINED HITS 1"])),
        Group(3, _w(1)),
        Group(1, _w("D3", ["DEVASTATING WOUNDS"], attacks=3)),
        Group(2, _w(2, ["LETHAL HITS"])),
    )
    mods = Modifiers(critical_wound=5)
    for ruleset in ("10e", "11e"):
        _check_against_dice(Scenario(ruleset=ruleset, groups=groups, target=target, modifiers=mods))


def test_feel_no_pain_and_overkill_against_dice():
    target = Target(toughness=5, save=4, wounds=2, models=5, feel_no_pain=5)
    groups = (Group(3, _w("D3", ["ANTI-INFANTRY 4+", "DEVASTATING WOUNDS"], attacks="D6")), Group(2, _w(3)))
    _check_against_dice(Scenario(ruleset="11e", groups=groups, target=Target(**{**vars(target), "keywords": frozenset({"INFANTRY"})})))


# --- targets with several kinds of model ------------------------------------------------------

KEYWORDS = [frozenset(), frozenset({"INFANTRY"})]


@st.composite
def model_kinds(draw) -> ModelKind:
    return ModelKind(
        name="",
        count=draw(st.integers(1, 3)),
        toughness=draw(st.integers(3, 6)),
        save=draw(st.integers(2, 7)),
        wounds=draw(st.integers(1, 3)),
        invulnerable=draw(st.sampled_from([None, None, 4, 5])),
        feel_no_pain=draw(st.sampled_from([None, None, 5, 6])),
        keywords=draw(st.sampled_from(KEYWORDS)),
        damage_reduction=draw(st.sampled_from([0, 0, 0, 1, 2])),
        damage_halved=draw(st.sampled_from([False, False, False, True])),
    )


@st.composite
def kinds_scenarios(draw, max_groups: int = 2) -> Scenario:
    """Any mix of kinds (0-2 CHARACTERs, then W1-3 leaders), attached or not, both rulesets."""
    ruleset = draw(st.sampled_from(["10e", "11e"]))
    others = draw(st.lists(model_kinds(), min_size=1, max_size=3))
    leaders = draw(st.lists(model_kinds(), min_size=0, max_size=2))
    kinds = [replace(k, name=f"K{i}") for i, k in enumerate(others)]
    kinds += [replace(k, name=f"L{i}", count=1, keywords=k.keywords | {"CHARACTER"}) for i, k in enumerate(leaders)]
    attached = bool(leaders) and draw(st.booleans())
    order = allocation_order(tuple(kinds), None, ruleset, attached)
    base = scenario_strategy_base(draw, ruleset, max_groups, extra=("PRECISION", "PRECISION"))
    first = order[0]
    target = Target(toughness=first.toughness, save=first.save, wounds=first.wounds, models=sum(k.count for k in order),
                    kinds=order, attached=attached)
    return replace(base, target=target)


def scenario_strategy_base(draw, ruleset: str, max_groups: int, extra=()) -> Scenario:
    groups = tuple(
        Group(models=draw(st.integers(1, 3)), weapon=draw(weapons(extra))) for _ in range(draw(st.integers(1, max_groups)))
    )
    return Scenario(
        ruleset=ruleset,
        groups=groups,
        target=Target(toughness=4, save=3, wounds=1, models=1),
        conditions=Conditions(half_range=draw(st.booleans()), cover=draw(st.booleans())),
        modifiers=Modifiers(critical_wound=draw(st.sampled_from([5, 6, 6])), reroll_wounds=draw(st.sampled_from(["none", "ones"]))),
    )


@settings(max_examples=100, **SETTINGS)
@given(kinds_scenarios(max_groups=3))
def test_kinds_distributions_sum_to_one(s):
    r = evaluate_scenario(s)
    for dist in [r.models_slain, r.wounds_removed] + [m.models_slain for m in r.by_model]:
        assert abs(sum(dist) - 1.0) < 1e-9
        assert min(dist) >= -1e-15
    assert abs(sum(m.expected_models_slain for m in r.by_model) - r.expected_models_slain) < 1e-9
    assert r.expected_damage >= r.expected_wounds_removed - 1e-9


@pytest.mark.slow
@settings(max_examples=30, **SETTINGS)
@given(kinds_scenarios())
def test_kinds_agree_with_dice_simulation(s):
    """Per kind, every bucket of models slain within 5 binomial SEs of the dice; means of
    wounds removed and damage inflicted (until the unit is destroyed) within 5 SEs."""
    r = evaluate_scenario(s)
    outcomes = simulate(s, TRIALS, seed=5)
    n = len(outcomes)
    for index, model in enumerate(r.by_model):
        for k, p in enumerate(model.models_slain):
            freq = sum(1 for o in outcomes if o.slain_by_kind[index] == k) / n
            assert abs(freq - p) <= 5 * math.sqrt(max(0.0, p * (1 - p)) / n) + 2.0 / n, (model.name, k, p, freq)
    exact = r.expected_wounds_removed
    assert abs(sum(o.wounds_removed for o in outcomes) / n - exact) <= 5 * _sd(r.wounds_removed) / math.sqrt(n) + 1e-9
    damage = [o.damage for o in outcomes]
    mean = sum(damage) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in damage) / n)
    assert abs(mean - r.expected_damage) <= 5 * sd / math.sqrt(n) + 0.02, (mean, r.expected_damage)


@settings(max_examples=40, **SETTINGS)
@given(kinds_scenarios())
def test_general_allocation_matches_the_alike_chain(s):
    """Made alike (every kind the first kind's profile, no CHARACTER), the general
    allocation over states gives the single-profile chain's distributions."""
    first = s.target.kinds[0]
    kinds = tuple(replace(first, name=f"K{i}", count=k.count, keywords=frozenset()) for i, k in enumerate(s.target.kinds))
    alike = replace(s, target=replace(s.target, kinds=kinds, attached=False, models=sum(k.count for k in kinds)))
    profile = Target(toughness=first.toughness, save=first.save, wounds=first.wounds, models=alike.target.models,
                     invulnerable=first.invulnerable, feel_no_pain=first.feel_no_pain,
                     damage_reduction=first.damage_reduction, damage_halved=first.damage_halved)
    single = evaluate_scenario(replace(alike, target=profile))
    general = evaluate_kinds(alike)
    for a, b in ((single.wounds_removed, general.wounds_removed), (single.models_slain, general.models_slain)):
        assert max(abs(x - y) for x, y in zip(a, b)) < 1e-9
    assert abs(single.expected_damage - general.expected_damage) <= 1e-9 + 1e-9 * single.expected_damage or single.p_wipe > 0


def _check_kinds_against_dice(s: Scenario, trials: int = 4000) -> None:
    r = evaluate_scenario(s)
    outcomes = simulate(s, trials, seed=13)
    n = len(outcomes)
    for index, model in enumerate(r.by_model):
        for k, p in enumerate(model.models_slain):
            freq = sum(1 for o in outcomes if o.slain_by_kind[index] == k) / n
            assert abs(freq - p) <= 5 * math.sqrt(max(0.0, p * (1 - p)) / n) + 2.0 / n, (model.name, k, p, freq)


def test_ten_bodyguards_and_a_leader_against_dice():
    """10 Henchmen (W1) and an Inquisitor (W4, 5+ invulnerable, Feel No Pain 6+), attached
    or not, against [PRECISION] + [SUSTAINED HITS], plain, and [PRECISION] +
    [DEVASTATING WOUNDS] groups (critical wounds on 5+), in both rulesets."""
    henchmen = ModelKind("Henchman", 10, 3, 5, 1)
    inquisitor = ModelKind("Inquisitor", 1, 3, 4, 4, invulnerable=5, feel_no_pain=6, keywords=frozenset({"CHARACTER"}))
    groups = (
        Group(2, _w(1, ["PRECISION", "SUSTAINED HITS 1"], attacks=4, strength=5, ap=0)),
        Group(3, _w(1, attacks=3, strength=4, ap=0)),
        Group(1, _w(2, ["PRECISION", "DEVASTATING WOUNDS"], attacks=3, strength=4)),
    )
    for ruleset in ("10e", "11e"):
        for attached in (True, False):
            target = Target(toughness=3, save=5, wounds=1, models=11, kinds=(henchmen, inquisitor), attached=attached)
            _check_kinds_against_dice(Scenario(ruleset=ruleset, groups=groups, target=target,
                                               modifiers=Modifiers(critical_wound=5)))


@settings(max_examples=60, **SETTINGS)
@given(kinds_scenarios(max_groups=3), st.integers(1, 4))
def test_devastating_groups_agree_whichever_way_they_are_resolved(s, models):
    """A [DEVASTATING WOUNDS] group is resolved by the joint law of its wounds and packets
    or attack by attack on the states, as a cost model picks (engine/devastating.py); forced
    either way, every distribution and expectation agrees."""
    from warscribe.engine import devastating

    first = s.groups[0]
    weapon = first.weapon
    if not weapon.has("devastating-wounds"):
        weapon = replace(weapon, abilities=weapon.abilities + (ABILITIES["DEVASTATING WOUNDS"],))
    s = replace(s, groups=(replace(first, models=models, weapon=weapon),) + s.groups[1:])
    chosen = devastating._joint_cheaper
    results = []
    try:
        for forced in (True, False):
            devastating._joint_cheaper = lambda *args, forced=forced: forced
            results.append(evaluate_kinds(s))
    finally:
        devastating._joint_cheaper = chosen
    _assert_same_results(*results)


def _forced_routes(s: Scenario, routes) -> list:
    """``evaluate_kinds`` with each [DEVASTATING WOUNDS] group forced down a route: the joint
    law ("joint"), hit by hit ("hits", where every hit rolls alike) or attack by attack ("steps")."""
    from warscribe.engine import devastating

    joint, hits = devastating._joint_cheaper, devastating._by_hits_applies
    out = []
    try:
        for route in routes:
            devastating._joint_cheaper = lambda *args, route=route: route == "joint"
            devastating._by_hits_applies = (lambda *args, route=route: route == "hits" and hits(*args))
            out.append(evaluate_kinds(s))
    finally:
        devastating._joint_cheaper, devastating._by_hits_applies = joint, hits
    return out


def _assert_same_results(a, b) -> None:
    pairs = [(a.wounds_removed, b.wounds_removed), (a.models_slain, b.models_slain)]
    pairs += [(x.models_slain, y.models_slain) for x, y in zip(a.by_model, b.by_model)]
    for x, y in pairs:
        assert len(x) == len(y) and max(abs(p - q) for p, q in zip(x, y)) < 1e-12
    for x, y in zip(a.groups, b.groups):
        assert abs(x.expected_unsaved - y.expected_unsaved) < 1e-10 and abs(x.expected_damage - y.expected_damage) < 1e-10


@settings(max_examples=50, **SETTINGS)
@given(kinds_scenarios(max_groups=2), st.integers(1, 4), st.sampled_from(["SUSTAINED HITS 1", "SUSTAINED HITS D3", None]))
def test_devastating_groups_hit_by_hit_agree_with_the_joint_law_and_the_steps(s, models, sustained):
    """Hit by hit (engine/devastating.py ``_by_hits``: the group's hits, each a normal wound, a
    packet or nothing, with a binomial weight per number of packets) gives the distributions
    and expectations of the joint law and of attack-by-attack stepping."""
    first = s.groups[0]
    weapon = first.weapon
    texts = ["DEVASTATING WOUNDS"] + ([sustained] if sustained else [])
    kept = tuple(a for a in weapon.abilities if not a["id"].startswith("sustained") and a["id"] != "lethal-hits")
    weapon = replace(weapon, abilities=kept + tuple(ABILITIES[t] for t in texts if ABILITIES[t] not in kept))
    s = replace(s, groups=(replace(first, models=models, weapon=weapon),) + s.groups[1:])
    joint, hits, steps = _forced_routes(s, ("joint", "hits", "steps"))
    _assert_same_results(joint, hits)
    _assert_same_results(steps, hits)


@settings(max_examples=150, **SETTINGS)
@given(weapons(), st.sampled_from(["10e", "11e"]), st.integers(3, 8), st.booleans())
def test_per_attack_law_is_the_mixture_over_its_hits(weapon, ruleset, toughness, devastating):
    """Where a profile gives hits per attack and one hit's chances (no [LETHAL HITS] critical
    hit), its joint law of (normal, packet) events per attack is the mixture over the hits of
    their multinomial law: what ``_by_hits`` relies on."""
    from math import comb

    from warscribe.engine.attack import group_profile

    if devastating and not weapon.has("devastating-wounds"):
        weapon = replace(weapon, abilities=weapon.abilities + (ABILITIES["DEVASTATING WOUNDS"],))
    target = Target(toughness=toughness, save=3, wounds=2, models=5)
    prof = group_profile(ruleset, 1, weapon, target, Conditions(), Modifiers(critical_wound=5), saves=False)
    if prof.per_hit is None:
        assert weapon.has("lethal-hits")
        return
    a, b = prof.per_hit
    law: dict = {}
    for h, ph in enumerate(prof.hits_per_attack):
        for k in range(h + 1):
            for m in range(h - k + 1):
                p = ph * comb(h, k) * comb(h - k, m) * a ** k * b ** m * (1 - a - b) ** (h - k - m)
                law[(k, m)] = law.get((k, m), 0.0) + p
    for key in set(law) | set(prof.per_attack):
        assert abs(law.get(key, 0.0) - prof.per_attack.get(key, 0.0)) < 1e-14, key
