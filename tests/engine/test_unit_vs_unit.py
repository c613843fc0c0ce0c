"""A unit against a unit from the knowledge base (engine/unit.py, engine/loadout.py).

The exact results are held equal to the plain dice simulator (tests/engine/dice_sim.py, which
shares nothing with the engine's probability code) within four standard errors, on a small
bundle here and on the whole game of both editions (slow)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from warscribe.engine import ScenarioError, evaluate, parse_scenario

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from dice_sim import simulate  # noqa: E402
from engine_helpers import assert_agrees_with_dice, weapon_record  # noqa: E402

SRC = [{"file": "sources/x.txt", "first_line": 1, "last_line": 2, "ruleset": "11e"}]


def _sheet(did, name, composition, models, weapons, loadout=None, keywords=("INFANTRY",), abilities=(), **extra):
    return {"id": did, "kind": "datasheet", "name": name, "ruleset": "11e", "faction": "Testers", "source": SRC,
            "keywords": list(keywords), "faction_keywords": ["TESTERS"], "composition": composition,
            "models": models, "weapons": weapons, "loadout": loadout, "abilities": list(abilities), **extra}


def _model(name, t, sv, w, inv=None):
    out = {"name": name, "M": 6, "T": t, "Sv": sv, "W": w, "Ld": 6, "OC": 1}
    if inv:
        out["invulnerable"] = inv
    return out


def _bundle() -> dict:
    w = weapon_record
    weapons = [
        w("t/squad/bolt-pistol", "Bolt pistol", "11e", range=12, abilities=[{"id": "pistol", "text": "Pistol"}]),
        w("t/squad/bolt-rifle", "Bolt rifle", "11e", attacks=2, ap=-1),
        w("t/squad/plasma-gun-standard", "Plasma gun – Standard", "11e", attacks=1, strength=7, ap=-2, damage=1,
          profile_of="Plasma gun", profile="Standard"),
        w("t/squad/plasma-gun-supercharge", "Plasma gun – Supercharge", "11e", attacks=1, strength=8, ap=-3, damage=2,
          profile_of="Plasma gun", profile="Supercharge", abilities=[{"id": "hazardous", "text": "Hazardous"}]),
        w("t/squad/close-combat-weapon", "Close combat weapon", "11e", type="melee", range=None, attacks=3,
          strength=4),
        w("t/squad/power-fist", "Power fist", "11e", type="melee", range=None, attacks=2, strength=8, ap=-2,
          damage=2),
        w("t/boss/master-bolter", "Master bolter", "11e", attacks=2, skill=2, ap=-1, damage=2),
        w("t/boss/sword", "Sword", "11e", type="melee", range=None, attacks=5, skill=2, strength=5, ap=-2, damage=2),
        w("t/tank/cannon", "Cannon", "11e", attacks="D6", skill=4, strength=9, ap=-2, damage=3),
    ]
    squad = _sheet("t/squad", "Test Squad", [{"name": "Test Sergeant", "min": 1, "max": 1},
                                             {"name": "Testers", "min": 4, "max": 9}],
                   [_model("Tester", 4, 3, 2)],
                   ["t/squad/bolt-pistol", "t/squad/bolt-rifle", "t/squad/plasma-gun-standard",
                    "t/squad/plasma-gun-supercharge", "t/squad/close-combat-weapon", "t/squad/power-fist"],
                   loadout="The Test Sergeant is equipped with: bolt pistol; bolt rifle; power fist.\n"
                           "One Tester is equipped with: bolt pistol; plasma gun; close combat weapon.\n"
                           "Every other model is equipped with: bolt pistol; bolt rifle; close combat weapon.",
                   abilities=[{"name": "Steady Aim", "type": "datasheet", "text": "Each time this unit makes an attack, "
                               "re-roll a Hit roll of 1. While this unit is near a banner it feels brave.",
                               "effects": [
                                   {"text": "Each time this unit makes an attack, re-roll a Hit roll of 1.",
                                    "status": "compiled", "side": "attacker",
                                    "changes": [{"op": "reroll", "roll": "hit", "which": "ones"}]},
                                   {"text": "While this unit is near a banner, add 1 to the Strength of its attacks.",
                                    "status": "uncompiled", "attack_relevant": True}]}])
    boss = _sheet("t/boss", "Test Boss", [{"name": "Test Boss", "min": 1, "max": 1}], [_model("Test Boss", 4, 3, 5, inv=4)],
                  ["t/boss/master-bolter", "t/boss/sword"], loadout="This model is equipped with: master bolter; sword.",
                  keywords=("INFANTRY", "CHARACTER"), leader={"text": "This model can be attached to:", "units": ["Test Squad"]})
    tank = _sheet("t/tank", "Test Tank", [{"name": "Test Tank", "min": 1, "max": 1}], [_model("Test Tank", 10, 3, 12)],
                  ["t/tank/cannon"], loadout="This model is equipped with: cannon.", keywords=("VEHICLE",))
    stratagem = {"id": "t/det/focus", "kind": "stratagem", "name": "Focused Fire", "ruleset": "11e", "source": SRC,
                 "cp": 1, "text": "Add 1 to the Wound roll.", "effects": [
                     {"text": "Add 1 to the Wound roll.", "status": "compiled", "side": "attacker",
                      "changes": [{"op": "modify", "roll": "wound", "value": 1}]}]}
    vague = {"id": "t/det/vague", "kind": "stratagem", "name": "Vague Orders", "ruleset": "11e", "source": SRC, "cp": 1,
             "text": "Your unit fights with great zeal.",
             "effects": [{"text": "Your unit fights with great zeal.", "status": "uncompiled", "attack_relevant": True}]}
    return {"meta": {}, "data": {"weapon": weapons, "datasheet": [squad, boss, tank], "stratagem": [stratagem, vague]}}


BUNDLE = _bundle()


def _flat(s):
    """The scenario with the per-group changes effects made hoisted (the simulator reads the scenario's),
    when every group has the same ones."""
    mods = {g.modifiers for g in s.groups}
    targets = {g.target for g in s.groups}
    assert len(mods) == 1 and len(targets) == 1, "per-group changes differ"
    m, t = mods.pop(), targets.pop()
    groups = tuple(replace(g, modifiers=None, target=None) for g in s.groups)
    return replace(s, groups=groups, modifiers=m or s.modifiers, target=t or s.target)


def _agree(scenario, trials: int, seed: int = 7) -> None:
    """Exact means and P(wipe) within four standard errors of the simulated ones."""
    assert_agrees_with_dice(evaluate(scenario), simulate(_flat(scenario), trials, seed), trials, scenario.target.models)


def test_default_loadout_sentences_and_choices():
    s = parse_scenario({"attacker": {"datasheet": "Test Squad", "models": 10}, "target": {"datasheet": "Test Tank"}}, BUNDLE)
    fired = {(e["line"], e["models"]): e["fires"] for e in s.loadout}
    # the sergeant's own sentence, one Tester's, and the eight others'
    assert fired == {("Test Sergeant", 1): ["Bolt rifle"], ("Testers", 1): ["Plasma gun – Supercharge"],
                     ("Testers", 8): ["Bolt rifle"]}
    groups = {g.weapon.name: g.models for g in s.groups}
    assert groups == {"Bolt rifle": 9, "Plasma gun – Supercharge": 1}
    choices = [c for e in s.loadout for c in e["choices"]]
    assert any("best profile by expected damage" in c for c in choices)
    assert any("fires its other ranged weapons" in c for c in choices)


def test_fight_phase_one_melee_weapon_each_and_leader_fires():
    s = parse_scenario({"attacker": {"datasheet": "Test Squad", "models": 5, "phase": "fight", "attached": ["Test Boss"]},
                        "target": {"datasheet": "Test Tank"}}, BUNDLE)
    assert {g.weapon.name: g.models for g in s.groups} == {"Power fist": 1, "Close combat weapon": 4, "Sword": 1}


def test_rules_applied_and_not_calculated_listed():
    data = {"attacker": {"datasheet": "Test Squad", "models": 5, "stratagems": ["Focused Fire", "Vague Orders"]},
            "target": {"datasheet": "Test Tank"}}
    s = parse_scenario(data, BUNDLE)
    changes = {(e["name"], e["change"]) for e in s.effects}
    assert ("Steady Aim", "re-roll hit rolls of 1") in changes
    assert ("Focused Fire", "wound roll +1") in changes
    missing = {(e["rule"], e["sentence"]) for e in s.not_calculated}
    assert ("Steady Aim", "While this unit is near a banner, add 1 to the Strength of its attacks.") in missing
    assert any(rule == "Vague Orders" for rule, _s in missing)
    none = parse_scenario({**data, "attacker": {**data["attacker"], "abilities": []}}, BUNDLE)
    assert not any(e["name"] == "Steady Aim" for e in none.effects)
    assert evaluate(none).expected_damage < evaluate(s).expected_damage


def test_chosen_loadout_and_errors():
    s = parse_scenario({"attacker": {"datasheet": "Test Squad", "models": 5,
                                     "loadout": ["bolt rifle", "2 plasma gun - standard"]},
                        "target": {"datasheet": "Test Tank"}}, BUNDLE)
    assert {g.weapon.name: g.models for g in s.groups} == {"Bolt rifle": 5, "Plasma gun – Standard": 2}
    with pytest.raises(ScenarioError, match="not a weapon of this datasheet"):
        parse_scenario({"attacker": {"datasheet": "Test Squad", "loadout": ["lascannon"]},
                        "target": {"datasheet": "Test Tank"}}, BUNDLE)
    with pytest.raises(ScenarioError, match="has 5-10 models"):
        parse_scenario({"attacker": {"datasheet": "Test Squad", "models": 11}, "target": {"datasheet": "Test Tank"}}, BUNDLE)


def test_json_per_weapon_and_total(tmp_path, capsys):
    from warscribe.cli import main

    kb = tmp_path / "warscribe.json"
    kb.write_text(json.dumps(BUNDLE), encoding="utf-8")
    code = main(["calc", "--attacker", "Test Squad", "--attacker-models", "10", "--attached", "Test Boss",
                 "--target", "Test Squad", "--target-attached", "Test Boss", "--stratagem", "Focused Fire",
                 "--kb", str(kb), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {w["name"] for w in out["weapons"]} == {"Bolt rifle", "Plasma gun – Supercharge", "Master bolter"}
    for w in out["weapons"]:
        assert abs(sum(w["models_slain"]) - 1) < 1e-9
    assert abs(sum(out["models_slain"]) - 1) < 1e-9 and 0 <= out["p_wipe"] <= 1
    assert out["not_calculated"] and out["loadout"]


@pytest.mark.parametrize("phase", ["shooting", "fight"])
def test_matches_dice_simulation_attached_target(phase):
    s = parse_scenario({"attacker": {"datasheet": "Test Squad", "models": 10, "phase": phase, "attached": ["Test Boss"]},
                        "target": {"datasheet": "Test Squad", "models": 5, "attached": ["Test Boss"], "abilities": []}},
                       BUNDLE)
    assert s.target.attached and len(s.groups) >= 3
    _agree(s, 3000)


# --- the whole game ------------------------------------------------------------------------------

PAIRS_10E = [
    ({"datasheet": "space-marines/intercessor-squad", "models": 10, "attached": ["space-marines/captain"]},
     {"datasheet": "space-marines/terminator-squad", "models": 5}),
    ({"datasheet": "orks/boyz", "models": 10, "phase": "fight"},
     {"datasheet": "space-marines/intercessor-squad", "models": 5, "attached": ["space-marines/lieutenant"]}),
]
PAIRS_11E = [
    ({"datasheet": "space-marines/intercessor-squad", "models": 10, "attached": ["space-marines/captain"]},
     {"datasheet": "space-marines/intercessor-squad", "models": 5, "attached": ["space-marines/lieutenant"]}),
    ({"datasheet": "space-marines/intercessor-squad", "models": 10, "phase": "fight"},
     {"datasheet": "astra-militarum/cadian-shock-troops", "models": 10}),
]


def _whole_game(kb, pairs):
    for attacker, target in pairs:
        s = parse_scenario({"attacker": attacker, "target": target}, kb)
        try:
            _flat(s)
        except AssertionError:
            s = parse_scenario({"attacker": {**attacker, "abilities": []}, "target": {**target, "abilities": []}}, kb)
        _agree(s, 1500)


@pytest.mark.slow
def test_whole_game_10e_matches_dice_simulation(tmp_path_factory):
    import realdata

    kb = realdata.build(tmp_path_factory, "bsdata-10e") / "json" / "warscribe.json"
    _whole_game(kb, PAIRS_10E)


@pytest.mark.slow
def test_whole_game_11e_matches_dice_simulation(tmp_path_factory):
    import realdata

    kb = realdata.example(tmp_path_factory, "11e") / "json" / "warscribe.json"
    _whole_game(kb, PAIRS_11E)
