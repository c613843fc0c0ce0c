"""Rules written for one model ('this model', 'the bearer') against a unit of several, built from
datasheets (engine/unit.py, engine/effects.py): the model is known when the rule's datasheet brings
one model to the unit (an attached Leader) or, for an enhancement, when the unit has one CHARACTER
model. Its invulnerable save, Feel No Pain or damage reduction is then that model's kind's alone:
the result equals the same target written by hand as model kinds, and agrees with the dice
simulator (tests/engine/dice_sim.py). Where the model is not known, the rule is not calculated."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from warscribe.engine import evaluate, parse_scenario
from warscribe.extract.effects import Context, compile_text
from warscribe.extract.keyexpr import Known

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_sim import simulate  # noqa: E402
from engine_helpers import assert_agrees_with_dice  # noqa: E402

HALO = "This model has a 4+ invulnerable save."
ARMOURED = "Each time an attack is allocated to this model, subtract 1 from the Damage characteristic of that attack."
STUBBORN = "This model has the Feel No Pain 5+ ability."
SERGEANT = "This model has a 5+ invulnerable save."
RELIC = "The bearer has a 4+ invulnerable save."

HEAVY = {"name": "Heavy", "range": 24, "attacks": 3, "skill": 3, "strength": 8, "ap": -3, "damage": "D3+1",
         "abilities": ["PRECISION"]}
RIFLE = {"name": "Rifle", "range": 24, "attacks": 2, "skill": 3, "strength": 5, "ap": -2, "damage": 2, "abilities": []}

# The squad and its leader written by hand, as engine/unit.py reads them from the datasheets.
GUARDS = {"name": "Guard", "count": 5, "toughness": 4, "save": 3, "wounds": 2, "keywords": ["INFANTRY", "TESTERS"]}
CAPTAIN = {"name": "Guard Captain", "count": 1, "toughness": 4, "save": 3, "wounds": 5,
           "keywords": ["INFANTRY", "CHARACTER", "TESTERS"]}


def _effects(text: str, ruleset: str) -> list[dict]:
    return compile_text(text, Context(ruleset, Known(["INFANTRY", "CHARACTER", "TESTERS"])))


def _bundle(ruleset: str) -> dict:
    src = [{"file": "sources/x.txt", "first_line": 1, "last_line": 2, "ruleset": ruleset}]

    def ability(name: str, text: str, kind: str = "datasheet") -> dict:
        return {"name": name, "type": kind, "text": text, "effects": _effects(text, ruleset)}

    def sheet(did, name, composition, model, keywords, abilities=(), **extra):
        return {"id": did, "kind": "datasheet", "name": name, "ruleset": ruleset, "faction": "Testers", "source": src,
                "keywords": list(keywords), "faction_keywords": ["TESTERS"], "composition": composition,
                "models": [{"M": 6, "Ld": 6, "OC": 1, **model}], "weapons": [], "loadout": None,
                "abilities": list(abilities), **extra}

    squad = sheet("t/guards", "Guard Squad", [{"name": "Guard Sergeant", "min": 1, "max": 1},
                                              {"name": "Guards", "min": 4, "max": 9}],
                  {"name": "Guard", "T": 4, "Sv": 3, "W": 2}, ["INFANTRY"], [ability("Sergeant's Halo", SERGEANT)])
    leads = {"text": "This model can be attached to:", "units": ["Guard Squad"]}
    captain = sheet("t/captain", "Guard Captain", [{"name": "Guard Captain", "min": 1, "max": 1}],
                    {"name": "Guard Captain", "T": 4, "Sv": 3, "W": 5}, ["INFANTRY", "CHARACTER"],
                    [ability("Iron Halo", HALO), ability("Armoured", ARMOURED), ability("Stubborn", STUBBORN),
                     ability("Relic Shield", RELIC, "wargear"), ability("Storm Shield", RELIC, "wargear")],
                    leader=leads)
    captain["loadout"] = "This model is equipped with: bolt pistol; power sword; relic shield."
    ancient = sheet("t/ancient", "Guard Ancient", [{"name": "Guard Ancient", "min": 1, "max": 1}],
                    {"name": "Guard Ancient", "T": 4, "Sv": 3, "W": 4}, ["INFANTRY", "CHARACTER"], leader=leads)
    relic = {"id": "t/det/warding-relic", "kind": "enhancement", "name": "Warding Relic", "ruleset": ruleset,
             "source": src, "points": 10, "text": RELIC, "effects": _effects(RELIC, ruleset)}
    return {"meta": {}, "data": {"weapon": [], "datasheet": [squad, captain, ancient], "enhancement": [relic]}}


BUNDLES = {r: _bundle(r) for r in ("10e", "11e")}


def _data(ruleset: str, **target) -> dict:
    return {"ruleset": ruleset, "attacker": {"weapons": [{"models": 4, "weapon": HEAVY}, {"models": 5, "weapon": RIFLE}]},
            "target": {"datasheet": "Guard Squad", "models": 5, "attached": ["Guard Captain"], **target}}


def _by_hand(ruleset: str, **captain) -> dict:
    return {"ruleset": ruleset, "attacker": _data(ruleset)["attacker"],
            "target": {"attached": True, "models": [GUARDS, {**CAPTAIN, **captain}]}}


def _same(result, by_hand) -> None:
    for name in ("expected_damage", "expected_models_slain", "expected_wounds_removed", "p_wipe"):
        assert getattr(result, name) == pytest.approx(getattr(by_hand, name), abs=1e-12), name
    for got, want in ((result.models_slain, by_hand.models_slain), (result.wounds_removed, by_hand.wounds_removed)):
        assert len(got) == len(want) and all(abs(a - b) <= 1e-12 for a, b in zip(got, want))


def _agree(scenario, trials: int = 4000, seed: int = 5) -> None:
    """Exact means and P(wipe) within four standard errors of the simulated ones (the simulator reads
    the scenario's target: every group here has the same one, the effects changed it alike)."""
    [target] = {g.target for g in scenario.groups}
    flat = replace(scenario, target=target, groups=tuple(replace(g, target=None) for g in scenario.groups))
    assert_agrees_with_dice(evaluate(scenario), simulate(flat, trials, seed), trials, flat.target.models)


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
@pytest.mark.parametrize(("ability", "field", "value", "said"), [
    ("Iron Halo", "invulnerable", 4, "4+ invulnerable save (Guard Captain: the bearer)"),
    ("Armoured", "damage_reduction", 1, "Damage -1 for each attack allocated (to a minimum of 1) (Guard Captain: the bearer)"),
    ("Stubborn", "feel_no_pain", 5, "Feel No Pain 5+ (Guard Captain: the bearer)"),
])
def test_a_leaders_own_rule_is_its_models(ruleset, ability, field, value, said):
    data = _data(ruleset, abilities=[ability])
    s = parse_scenario(data, BUNDLES[ruleset])
    assert s.not_calculated == ()
    kinds = {k.name: k for k in s.groups[0].target.kinds}
    assert getattr(kinds["Guard Captain"], field) == value
    assert getattr(kinds["Guard"], field) in (None, 0)  # the bodyguard's own, untouched
    result = evaluate(data, BUNDLES[ruleset])
    _same(result, evaluate(_by_hand(ruleset, **{field: value})))
    changes = {e["change"] for e in result.effects}
    assert said in changes and "the bearer: Guard Captain" in changes
    assert not any(c.startswith("assumed: the bearer") for c in changes)
    # it changes the result: the captain is harder to kill than without it
    plain = evaluate(_data(ruleset, abilities=[]), BUNDLES[ruleset])
    assert result.expected_wounds_removed < plain.expected_wounds_removed
    _agree(s)


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_all_three_together_and_the_enhancement_on_the_one_character(ruleset):
    data = _data(ruleset, abilities=["Iron Halo", "Armoured", "Stubborn"], enhancement="Warding Relic")
    result = evaluate(data, BUNDLES[ruleset])
    assert [m["rule"] for m in result.not_calculated] == []
    _same(result, evaluate(_by_hand(ruleset, invulnerable=4, damage_reduction=1, feel_no_pain=5)))
    relic = [e for e in result.effects if e["name"] == "Warding Relic" and e["group"] is None]
    assert [e["change"] for e in relic] == ["the bearer: Guard Captain"]
    alone = evaluate(_data(ruleset, abilities=[], enhancement="Warding Relic"), BUNDLES[ruleset])
    _same(alone, evaluate(_by_hand(ruleset, invulnerable=4)))
    _agree(parse_scenario(data, BUNDLES[ruleset]))


def test_a_rule_of_a_squad_of_five_stays_not_calculated():
    """'This model' on the squad's datasheet: one of its five models, the records do not say which."""
    data = _data("11e", abilities=["Sergeant's Halo"], attached=[])
    result = evaluate(data, BUNDLES["11e"])
    [missed] = result.not_calculated
    assert missed["rule"] == "Sergeant's Halo" and missed["sentence"] == SERGEANT
    assert "bearer (one model) only" in missed["reason"]
    assert not result.effects
    with_leader = evaluate(_data("11e", abilities=["Sergeant's Halo", "Iron Halo"]), BUNDLES["11e"])
    assert [m["rule"] for m in with_leader.not_calculated] == ["Sergeant's Halo"]
    _same(with_leader, evaluate(_by_hand("11e", invulnerable=4)))


def test_an_enhancement_with_two_characters_stays_not_calculated():
    data = _data("11e", abilities=[], attached=["Guard Captain", "Guard Ancient"], enhancement="Warding Relic")
    result = evaluate(data, BUNDLES["11e"])
    [missed] = result.not_calculated
    assert missed["rule"] == "Warding Relic" and "bearer (one model) only" in missed["reason"]
    plain = evaluate({**data, "target": {k: v for k, v in data["target"].items() if k != "enhancement"}}, BUNDLES["11e"])
    _same(result, plain)


def test_a_one_model_target_is_unchanged():
    """A unit of one model was already exact: the effect applies to it, as before, and says so as before."""
    data = {"ruleset": "11e", "attacker": _data("11e")["attacker"],
            "target": {"datasheet": "Guard Captain", "abilities": ["Iron Halo"]}}
    result = evaluate(data, BUNDLES["11e"])
    assert {e["change"] for e in result.effects} == {"4+ invulnerable save", "assumed: the bearer only"}
    by_hand = {"ruleset": "11e", "attacker": data["attacker"], "target": {"models": [{**CAPTAIN, "invulnerable": 4}]}}
    _same(result, evaluate(by_hand))


def test_a_wargears_rule_only_when_the_loadout_names_the_wargear():
    """The captain's loadout names its relic shield, not a storm shield: one it may not have taken."""
    shield = evaluate(_data("11e", abilities=["Relic Shield"]), BUNDLES["11e"])
    assert not shield.not_calculated
    _same(shield, evaluate(_by_hand("11e", invulnerable=4)))
    storm = evaluate(_data("11e", abilities=["Storm Shield"]), BUNDLES["11e"])
    [missed] = storm.not_calculated
    assert missed["rule"] == "Storm Shield" and "bearer (one model) only" in missed["reason"]
    _same(storm, evaluate(_data("11e", abilities=[]), BUNDLES["11e"]))
