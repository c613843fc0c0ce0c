"""Damage reduction: 'each time an attack is allocated to this model, subtract 1 from the Damage
characteristic of that attack' (to a minimum of 1), and halving ('halve the Damage characteristic of
that attack', rounding up, before any subtraction), as a target's fields, per model kind, and as the
compiled effects of a datasheet's ability read from its text."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from warscribe.engine import evaluate, parse_scenario
from warscribe.engine.dist import halved, reduced
from warscribe.engine.evaluate import evaluate_scenario
from warscribe.engine.groups import evaluate_kinds
from warscribe.extract.effects import Context, compile_text
from warscribe.extract.keyexpr import Known

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_sim import simulate  # noqa: E402
from engine_helpers import weapon_record  # noqa: E402

LASCANNON = {"name": "Lascannon", "range": 48, "attacks": 1, "skill": 3, "strength": 12, "ap": -3, "damage": "D6+1",
             "abilities": []}
BOLTER = {"name": "Bolter", "range": 24, "attacks": 2, "skill": 3, "strength": 4, "ap": 0, "damage": 1, "abilities": []}


def _scenario(weapon, target, ruleset="10e", models=5):
    return {"ruleset": ruleset, "attacker": {"weapons": [{"models": models, "weapon": weapon}]}, "target": target}


def test_reduced_never_takes_damage_below_one():
    assert reduced([0.0, 1.0], 1) == [0.0, 1.0]  # 1 stays 1
    assert reduced([0.0, 0.5, 0.5], 1) == [0.0, 1.0]
    assert reduced([0.0, 0.0, 0.0, 1.0], 1) == [0.0, 0.0, 1.0]
    assert reduced([0.0] + [1 / 6] * 6, 2) == pytest.approx([0.0, 3 / 6, 1 / 6, 1 / 6, 1 / 6])
    assert reduced([0.25, 0.0, 0.75], 3) == [0.25, 0.75]  # a chance of nothing (Feel No Pain) stays nothing


def test_halved_rounds_up():
    assert halved([0.0, 1.0]) == [0.0, 1.0]
    assert halved([0.0] + [1 / 6] * 6) == pytest.approx([0.0, 2 / 6, 2 / 6, 2 / 6])  # 1-2, 3-4, 5-6
    assert halved([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]) == [0.0, 0.0, 0.0, 0.0, 1.0]  # 7 -> 4


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_a_lascannon_into_a_dreadnought_by_hand(ruleset):
    """5 lascannons, BS 3+, S12 vs T10 (3+ to wound), Sv 2+ AP-3 (5+): D6+1 less 1 is a D6."""
    target = {"toughness": 10, "save": 2, "wounds": 12, "models": 1}
    plain = evaluate(_scenario(LASCANNON, target, ruleset))
    less = evaluate(_scenario(LASCANNON, {**target, "damage_reduction": 1}, ruleset))
    unsaved = 5 * (2 / 3) * (2 / 3) * (4 / 6)
    assert plain.expected_damage == pytest.approx(unsaved * 4.5, abs=1e-12)
    assert less.expected_damage == pytest.approx(unsaved * 3.5, abs=1e-12)
    # Halved, rounding up: 2..7 -> 1, 2, 2, 3, 3, 4 (2.5); then less 1, never below 1: 1, 1, 1, 2, 2, 3 (5/3).
    half = evaluate(_scenario(LASCANNON, {**target, "damage_halved": True}, ruleset))
    both = evaluate(_scenario(LASCANNON, {**target, "damage_halved": True, "damage_reduction": 1}, ruleset))
    assert half.expected_damage == pytest.approx(unsaved * 2.5, abs=1e-12)
    assert both.expected_damage == pytest.approx(unsaved * 5 / 3, abs=1e-12)


def test_damage_one_is_not_reduced_to_nothing():
    """The reason the old reading was wrong: Damage 1 less 1 was 0 (nothing inflicted); it is 1."""
    target = {"toughness": 4, "save": 3, "wounds": 2, "models": 5}
    assert evaluate(_scenario(BOLTER, {**target, "damage_reduction": 1})).expected_damage == \
        evaluate(_scenario(BOLTER, target)).expected_damage


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_per_kind_reduction_agrees_with_dice(ruleset):
    """Only the kind with the ability is harder to hurt; [DEVASTATING WOUNDS] packets too."""
    heavy = {"name": "Heavy", "range": 24, "attacks": "D6", "skill": 3, "strength": 8, "ap": -2, "damage": "D3+1",
             "abilities": ["DEVASTATING WOUNDS", "SUSTAINED HITS 1"]}
    data = _scenario(heavy, {"models": [
        {"name": "Guards", "count": 3, "toughness": 5, "save": 3, "wounds": 3, "damage_reduction": 1},
        {"name": "Brutes", "count": 1, "toughness": 5, "save": 3, "wounds": 4, "damage_halved": True},
        {"name": "Others", "count": 2, "toughness": 5, "save": 4, "wounds": 2, "feel_no_pain": 6}]}, ruleset, models=3)
    s = parse_scenario(data)
    exact = evaluate_scenario(s)
    trials = 20_000
    outcomes = simulate(s, trials=trials, seed=11)
    for exact_dist, got in ((exact.models_slain, [o.models_slain for o in outcomes]),
                            (exact.wounds_removed, [o.wounds_removed for o in outcomes])):
        mean = sum(i * p for i, p in enumerate(exact_dist))
        sd = sum((i - mean) ** 2 * p for i, p in enumerate(exact_dist)) ** 0.5
        assert abs(sum(got) / trials - mean) < 4 * sd / trials ** 0.5
    # Made alike, the kinds' allocation gives the single profile's numbers.
    kinds = tuple(replace(k, save=3, wounds=3, feel_no_pain=None, damage_reduction=1, damage_halved=True)
                  for k in s.target.kinds)
    alike = replace(s, target=replace(s.target, kinds=kinds, save=3, wounds=3, feel_no_pain=None, damage_reduction=1,
                                      damage_halved=True))
    single = replace(s, target=replace(alike.target, kinds=()))
    assert evaluate_kinds(alike).models_slain == pytest.approx(evaluate_scenario(single).models_slain, abs=1e-12)


def _effects(text: str) -> list[dict]:
    return compile_text(text, Context("11e", Known(["VEHICLE", "INFANTRY"])))


def _bundle(ability_text: str, tank_models: int = 1) -> dict:
    src = [{"file": "sources/x.txt", "first_line": 1, "last_line": 2, "ruleset": "11e"}]
    def sheet(did, name, comp, model, weapons, loadout, keywords, abilities=()):
        return {"id": did, "kind": "datasheet", "name": name, "ruleset": "11e", "faction": "Testers", "source": src,
                "keywords": keywords, "faction_keywords": ["TESTERS"], "composition": comp,
                "models": [model], "weapons": weapons, "loadout": loadout, "abilities": list(abilities)}
    model = {"M": 6, "T": 10, "Sv": 2, "W": 12, "Ld": 6, "OC": 3}
    tank = sheet("t/dread", "Test Dreadnought", [{"name": "Test Dreadnought", "min": 1, "max": tank_models}],
                 {"name": "Test Dreadnought", **model}, [], None, ["VEHICLE"],
                 [{"name": "Guardian", "type": "datasheet", "text": ability_text, "effects": _effects(ability_text)}])
    gunners = sheet("t/gunners", "Test Gunners", [{"name": "Gunner", "min": 5, "max": 5}],
                    {"name": "Gunner", "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 1}, ["t/gunners/lascannon"],
                    "Every model is equipped with: lascannon.", ["INFANTRY"])
    las = weapon_record("t/gunners/lascannon", "Lascannon", "11e", range=48, attacks=1, skill=3, strength=12, ap=-3,
                        damage="D6+1")
    return {"meta": {}, "data": {"weapon": [las], "datasheet": [tank, gunners]}}


ALLOCATED = "Each time an attack is allocated to this model, subtract 1 from the Damage characteristic of that attack."


def test_the_sentence_compiles_to_a_reduction_of_the_bearer():
    [effect] = _effects(ALLOCATED)
    assert effect["status"] == "compiled" and effect["side"] == "target"
    assert effect["changes"] == [{"op": "characteristic", "characteristic": "damage", "add": -1}]
    assert effect["when"] == {"assumed": ["the bearer only"]}
    [unit_wide] = _effects("Until the end of the phase, each time an attack is allocated to a model in your unit, "
                           "subtract 1 from the Damage characteristic of that attack.")
    assert unit_wide["status"] == "compiled" and "when" not in unit_wide
    [halve] = _effects("Each time an attack is allocated to this model, halve the Damage characteristic of that attack.")
    assert halve["status"] == "compiled" and halve["side"] == "target"
    assert halve["changes"] == [{"op": "characteristic", "characteristic": "damage", "halve": True}]
    [doubled] = _effects("Each time an attack is allocated to this model, double the Damage characteristic of that attack.")
    assert doubled["status"] == "uncompiled"  # not read: never approximated


def test_a_datasheets_reduction_applies_against_it_from_the_knowledge_base():
    kb = _bundle(ALLOCATED)
    result = evaluate({"attacker": {"datasheet": "Test Gunners", "models": 5},
                       "target": {"datasheet": "Test Dreadnought"}}, kb)
    by_hand = evaluate(_scenario(LASCANNON, {"models": [
        {"name": "Test Dreadnought", "count": 1, "toughness": 10, "save": 2, "wounds": 12, "keywords": ["VEHICLE"],
         "damage_reduction": 1}]}, "11e"))
    assert result.wounds_removed == pytest.approx(by_hand.wounds_removed, abs=1e-12)
    assert result.expected_damage == pytest.approx(by_hand.expected_damage, abs=1e-12)
    assert any("Damage -1" in e["change"] and e["applied"] for e in result.effects)


def test_this_models_reduction_on_a_unit_of_several_is_not_calculated():
    """Which of three models bears it the scenario does not say: listed, with its sentence, never guessed."""
    kb = _bundle(ALLOCATED, tank_models=3)
    data = {"attacker": {"datasheet": "Test Gunners", "models": 5},
            "target": {"datasheet": "Test Dreadnought", "models": 3}}
    result = evaluate(data, kb)
    [missed] = result.not_calculated
    assert missed["rule"] == "Guardian" and "bearer" in missed["reason"] and missed["sentence"] == ALLOCATED
    plain = evaluate({**data, "target": {**data["target"], "abilities": []}}, kb)
    assert result.wounds_removed == plain.wounds_removed
    named = evaluate({**data, "target": {**data["target"], "abilities": ["Guardian"]}}, kb)
    assert [m["rule"] for m in named.not_calculated] == ["Guardian"]
