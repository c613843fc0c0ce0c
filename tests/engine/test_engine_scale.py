"""Large inputs: exact answers (or a clear error naming the field) in bounded time.

The time bound per case is generous (the issue asks for one; the machine is shared):
it catches a blow-up (the quadratic or overflowing code this replaced took minutes
or crashed), not a slowdown. Speed itself is measured by `warscribe bench engine`.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from fractions import Fraction

import pytest
import yaml

from dice_sim import simulate
from engine_helpers import inline, scenario
from warscribe.engine import ScenarioError, evaluate
from warscribe.engine import dist as D
from warscribe.engine.scenario import parse_scenario

TIME_BOUND = 60.0  # seconds per case


def timed(data):
    start = time.perf_counter()
    result = evaluate(data)
    elapsed = time.perf_counter() - start
    assert elapsed < TIME_BOUND, f"took {elapsed:.1f} s"
    return result


def exact_binomial(n: int, p: Fraction, k: int) -> Fraction:
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


@pytest.mark.parametrize("n, p", [(10, 0.5), (1029, 1 / 3), (1030, 1 / 3), (5000, 0.01), (20000, 0.5), (10**6, 0.2)])
def test_binomial_never_overflows_and_matches_exact_arithmetic(n, p):
    dist = D.binomial(n, p, cap=200)
    assert len(dist) == min(n, 200) + 1
    assert abs(sum(dist) - 1.0) < 1e-9
    if n > 20000:  # exact rationals of that size take minutes: check the mean instead
        assert abs(sum(k * q for k, q in enumerate(dist[:-1])) + 200 * dist[-1] - 200) < 1e-9
        return
    exact_p = Fraction(p)
    for k in range(0, min(n, 199) + 1, 37):
        exact = exact_binomial(n, exact_p, k)
        assert abs(dist[k] - float(exact)) <= 1e-12 * max(float(exact), 1e-300) + 1e-300


def test_10000_attack_dice_exact_against_closed_form():
    """100 models x A 100, D1 against 10 x W2: wounds removed = min(K, 20), K binomial."""
    weapon = inline(attacks=100, skill=3, strength=4, ap=0, damage=1)
    target = {"toughness": 8, "save": 2, "wounds": 2, "models": 10}
    r = timed(scenario([(100, weapon)], target))
    # hit 4/6, wound on 6+ (S4 vs T8) 1/6, save 2+ fails 1/6
    p = Fraction(4, 6) * Fraction(1, 6) * Fraction(1, 6)
    below = [exact_binomial(10000, p, k) for k in range(20)]
    assert abs(r.wounds_removed[5] - float(below[5])) < 1e-12
    assert abs(r.p_wipe - float(1 - sum(below))) < 1e-9
    assert abs(sum(r.wounds_removed) - 1.0) < 1e-9


@pytest.mark.parametrize("attacks, models", [(11, 100), ("2D6", 100), (100, 100)])
def test_more_than_1030_attacks_no_longer_crash(attacks, models):
    weapon = inline(attacks=attacks, abilities=["SUSTAINED HITS D3"])
    r = timed(scenario([(models, weapon)], {"toughness": 4, "save": 3, "wounds": 2, "models": 10, "feel_no_pain": 5}))
    assert abs(sum(r.models_slain) - 1.0) < 1e-9
    assert r.p_wipe > 0.999


def test_100_model_target_with_sustained_d3_and_fnp_against_dice():
    weapon = inline(attacks="D6", skill=4, strength=4, ap=0, damage=1, abilities=["SUSTAINED HITS D3"])
    data = scenario([(10, weapon)], {"toughness": 4, "save": 5, "wounds": 1, "models": 100, "feel_no_pain": 5})
    r = timed(data)
    outcomes = simulate(parse_scenario(data), 2000, seed=3)
    exact = sum(i * p for i, p in enumerate(r.wounds_removed))
    sd = math.sqrt(sum((i - exact) ** 2 * p for i, p in enumerate(r.wounds_removed)))
    observed = sum(o.wounds_removed for o in outcomes) / len(outcomes)
    assert abs(observed - exact) <= 5 * sd / math.sqrt(len(outcomes))
    assert abs(sum(r.wounds_removed) - 1.0) < 1e-9


def test_10000_dice_against_2000_wounds_with_dice_damage():
    weapon = inline(attacks=100, skill=3, strength=6, ap=-2, damage="D6", abilities=["SUSTAINED HITS D3", "LETHAL HITS"])
    r = timed(scenario([(100, weapon)], {"toughness": 5, "save": 3, "wounds": 20, "models": 100, "feel_no_pain": 6}))
    assert abs(sum(r.wounds_removed) - 1.0) < 1e-9
    assert 1990.0 < r.expected_wounds_removed <= 2000.0 + 1e-6


def test_10e_deferred_devastating_wounds_at_scale():
    first = inline(attacks=100, damage="D3", abilities=["DEVASTATING WOUNDS", "SUSTAINED HITS 1"])
    data = scenario([(100, first), (5, inline(attacks=2))], {"toughness": 4, "save": 3, "wounds": 2, "models": 10},
                    ruleset="10e")
    r = timed(data)
    assert abs(sum(r.wounds_removed) - 1.0) < 1e-9


def test_beyond_reasonable_time_is_a_clear_error_naming_the_field():
    big = scenario([(1, inline(attacks=20000))])
    with pytest.raises(ScenarioError, match=r"^attacker\.weapons\[0\]\.weapon\.attacks: 20000 is more than"):
        evaluate(big)
    deferred = scenario([(100, inline(attacks=100, abilities=["DEVASTATING WOUNDS"])), (1, inline())],
                        {"toughness": 4, "save": 3, "wounds": 20, "models": 100}, ruleset="10e")
    with pytest.raises(ScenarioError, match=r"^attacker\.weapons\[0\]: up to 10,000 attacks"):
        evaluate(deferred)


MIXED = {"attached": True, "keywords": ["INFANTRY"], "models": [
    {"name": "Boy", "count": 10, "toughness": 5, "save": 5, "wounds": 1},
    {"name": "Warboss", "toughness": 6, "save": 4, "wounds": 6, "keywords": ["CHARACTER"]},
    {"name": "Painboy", "toughness": 5, "save": 5, "wounds": 3, "feel_no_pain": 5, "keywords": ["CHARACTER"]}]}


def test_devastating_wounds_against_several_kinds_at_scale():
    """Hundreds of hits, each a possible mortal-wound packet, against an attached unit whose
    Feel No Pain lets no cap on the packets hold: exact, in bounded time."""
    weapon = inline(attacks="2D6", abilities=["SUSTAINED HITS D3", "DEVASTATING WOUNDS"])
    for ruleset in ("11e", "10e"):
        r = timed(scenario([(30, weapon), (5, inline(attacks=2))], MIXED, ruleset=ruleset))
        assert abs(sum(r.wounds_removed) - 1.0) < 1e-9 and r.p_wipe > 0.999


def _routes(data: dict) -> list[bool]:
    """Whether each [DEVASTATING WOUNDS] group (or part) of the scenario took the joint law."""
    from warscribe.engine import forget_calls
    from warscribe.engine import devastating

    chosen = devastating._joint_cheaper
    taken: list[bool] = []

    def spy(*args):
        taken.append(chosen(*args))
        return taken[-1]

    forget_calls()
    devastating._joint_cheaper = spy
    try:
        evaluate(data)
    finally:
        devastating._joint_cheaper = chosen
    return taken


def test_devastating_wounds_keep_the_joint_law_up_to_its_budget():
    """The joint law of wounds and packets is the law before issue 24, bit for bit: the bench's
    dice-heavy scenarios (up to 73 attacks) all take it. Far beyond its budget (240 attacks of
    [SUSTAINED HITS D3]) the group goes hit by hit instead: the joint law's cost grows as the
    cube of the attacks."""
    from warscribe.bench import peer as bench_peer

    families = dict(bench_peer.families())
    for ruleset in ("11e", "10e"):
        for name, data in families[f"dice-heavy [DEV] (cliff), {ruleset}"]:
            taken = _routes(data)
            assert taken and all(taken), name
    storm = bench_peer._weapon("Storm", "D6", 4, 5, 0, 1, ["SUSTAINED HITS D3", "DEVASTATING WOUNDS"])
    target = bench_peer.ATTACHED["Intercessors + Captain"]
    big = {"ruleset": "11e", "attacker": {"weapons": [{"models": 40, "weapon": storm}]}, "target": target}
    assert _routes(big) == [False]


def test_devastating_wounds_against_several_kinds_beyond_reasonable_time_is_a_clear_error():
    """Where the packets (each hit can make one) times the allocation states would take many
    seconds, the group is refused by name rather than run for minutes."""
    weapon = inline(attacks="2D6", abilities=["SUSTAINED HITS D3", "DEVASTATING WOUNDS"])
    with pytest.raises(ScenarioError, match=r"^attacker\.weapons\[1\]: \[DEVASTATING WOUNDS\] with up to 4,800 "
                                            r"mortal-wound packets against 110 allocation states"):
        evaluate(scenario([(5, inline()), (100, weapon)], MIXED))
    # Without Feel No Pain the packets stop at the unit's wounds: the same group is computed.
    no_fnp = {**MIXED, "models": [{k: v for k, v in m.items() if k != "feel_no_pain"} for m in MIXED["models"]]}
    r = timed(scenario([(5, inline()), (100, weapon)], no_fnp))
    assert abs(sum(r.wounds_removed) - 1.0) < 1e-9


def test_calc_prints_no_traceback_on_large_or_refused_input(tmp_path):
    ok = tmp_path / "big.yaml"
    ok.write_text(yaml.safe_dump(scenario([(100, inline(attacks=11))])), encoding="utf-8")
    refused = tmp_path / "huge.yaml"
    refused.write_text(yaml.safe_dump(scenario([(1, inline(attacks=10**9))])), encoding="utf-8")
    run = [sys.executable, "-m", "warscribe.cli", "calc"]
    good = subprocess.run(run + [str(ok), "--json"], capture_output=True, text=True)
    assert good.returncode == 0, good.stderr
    bad = subprocess.run(run + [str(refused)], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert "attacker.weapons[0].weapon.attacks: 1000000000 is more than" in bad.stderr
