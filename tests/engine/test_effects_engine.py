"""The engine applies compiled effects: each example of the issue against the same scenario without it.

The knowledge base is the seeds' build, so the effects are the ones the compiler made from
the sources. Where an effect is the same as a scenario setting (a wound-roll modifier, an
ability on the weapon), the result must equal that scenario's exactly.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from warscribe.engine import KnowledgeBase, ScenarioError, evaluate
from warscribe.extract.pipeline import extract
from warscribe.schema.bundle import from_records

from engine_helpers import ROOT, inline

PALADINS = ["INFANTRY", "PSYKER", "TERMINATOR", "GRENADES", "IMPERIUM", "PALADIN SQUAD", "GREY KNIGHTS"]
INQUISITOR = ["INFANTRY", "CHARACTER", "GRENADES", "IMPERIUM", "INQUISITOR", "AGENTS OF THE IMPERIUM"]
STORM_BOLTER = inline("Storm bolter", attacks=2, skill=2, strength=4, ap=0, damage=1, abilities=["RAPID FIRE 2"])
SWORD = inline("Nemesis force weapon", range=None, attacks=4, skill=2, strength=6, ap=-2, damage=2, abilities=["PSYCHIC"])


@pytest.fixture(scope="module")
def kb():
    return KnowledgeBase(from_records(extract(ROOT / "sources" / "manifest.yaml").records))


def scenario(weapons, target, ruleset="10e", attacker=None, attacker_effects=(), target_effects=(), **extra):
    data = {"ruleset": ruleset,
            "attacker": {"keywords": attacker if attacker is not None else PALADINS,
                         "weapons": [{"models": m, "weapon": w} for m, w in weapons]},
            "target": dict(target)}
    if attacker_effects:
        data["attacker"]["effects"] = list(attacker_effects)
    if target_effects:
        data["target"]["effects"] = list(target_effects)
    data.update(extra)
    return data


def damage(data, kb) -> float:
    return evaluate(data, kb).expected_damage


def same(a, b, kb) -> None:
    ra, rb = evaluate(a, kb), evaluate(b, kb)
    assert ra.models_slain == pytest.approx(rb.models_slain, abs=1e-12)
    assert ra.expected_damage == pytest.approx(rb.expected_damage, abs=1e-12)


TANK = {"toughness": 8, "save": 3, "wounds": 10, "models": 1, "keywords": ["VEHICLE"]}
MARINES = {"toughness": 4, "save": 3, "wounds": 2, "models": 10, "keywords": ["INFANTRY"]}


# -- roll modifiers ------------------------------------------------------------------------------

def test_abominus_class_targets(kb):
    base = scenario([(5, STORM_BOLTER)], TANK)
    with_it = scenario([(5, STORM_BOLTER)], TANK, attacker_effects=["ABOMINUS-CLASS TARGETS"])
    assert damage(with_it, kb) > damage(base, kb)
    same(with_it, dict(base, modifiers={"wound": 1}), kb)
    # S4 against T8 wounds on a 6, on a 5+ with the effect: twice as many wounds.
    assert evaluate(with_it, kb).groups[0].expected_wounds == pytest.approx(2 * evaluate(base, kb).groups[0].expected_wounds)
    log = evaluate(with_it, kb).effects
    assert log[0]["effect"] == "grey-knights/sanctic-spearhead/abominus-class-targets" and log[0]["change"] == "wound roll +1"


def test_abominus_class_targets_against_infantry_is_an_error(kb):
    with pytest.raises(ScenarioError, match="changes nothing in this scenario: needs attacks involving a MONSTER or VEHICLE unit"):
        evaluate(scenario([(5, STORM_BOLTER)], MARINES, attacker_effects=["ABOMINUS-CLASS TARGETS"]), kb)


def test_inquisitorial_agents_subtract_one_from_the_wound_roll(kb):
    target = {"toughness": 3, "save": 5, "wounds": 1, "models": 6, "keywords": ["INFANTRY", "INQUISITOR", "INQUISITORIAL AGENTS"]}
    rule = "imperial-agents/inquisitorial-agents/abilities/while-an-inquisitor-model-is-leading"
    base = scenario([(5, STORM_BOLTER)], target, ruleset="11e")
    with_it = scenario([(5, STORM_BOLTER)], target, ruleset="11e", target_effects=[rule])
    assert damage(with_it, kb) < damage(base, kb)
    same(with_it, dict(base, modifiers={"wound": -1}), kb)
    unled = dict(target, keywords=["INFANTRY", "INQUISITORIAL AGENTS"])
    with pytest.raises(ScenarioError, match="needs a INQUISITOR unit"):
        evaluate(scenario([(5, STORM_BOLTER)], unled, ruleset="11e", target_effects=[rule]), kb)


def test_shining_resolve_only_against_stronger_attacks(kb):
    strong = inline("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage=6)
    target = {"toughness": 5, "save": 2, "wounds": 3, "models": 5, "keywords": ["INFANTRY", "TERMINATOR"]}
    base = scenario([(3, strong)], target)
    with_it = scenario([(3, strong)], target, target_effects=["Shining Resolve"])
    same(with_it, dict(base, modifiers={"wound": -1}), kb)
    assert damage(with_it, kb) < damage(base, kb)
    with pytest.raises(ScenarioError, match=r"Strength greater than Toughness \(S4 against T5\)"):
        evaluate(scenario([(5, STORM_BOLTER)], target, target_effects=["Shining Resolve"]), kb)


def test_appointed_hour_critical_hits_on_five(kb):
    psilencer = inline("Psilencer", attacks=6, skill=2, strength=5, abilities=["SUSTAINED HITS 1", "PSYCHIC"])
    base = scenario([(2, psilencer)], MARINES)
    with_it = scenario([(2, psilencer)], MARINES, attacker_effects=["APPOINTED HOUR"])
    assert evaluate(with_it, kb).groups[0].expected_hits > evaluate(base, kb).groups[0].expected_hits
    same(with_it, dict(base, modifiers={"critical_hit": 5}), kb)


# -- weapons gain abilities ---------------------------------------------------------------------------

def test_chaos_bane_anti_chaos(kb):
    chaos = {"toughness": 5, "save": 3, "wounds": 2, "models": 5, "keywords": ["INFANTRY", "CHAOS"]}
    base = scenario([(5, STORM_BOLTER)], chaos)
    with_it = scenario([(5, STORM_BOLTER)], chaos, attacker_effects=["Chaos Bane"])
    armed = scenario([(5, dict(STORM_BOLTER, abilities=["RAPID FIRE 2", "ANTI-CHAOS 4+"]))], chaos)
    assert damage(with_it, kb) > damage(base, kb)
    same(with_it, armed, kb)


def test_sanctified_slaughter_sustained_hits_and_critical_five_for_weapons_that_had_it(kb):
    base = scenario([(5, SWORD)], MARINES)
    with_it = scenario([(5, SWORD)], MARINES, attacker_effects=["Sanctified Slaughter"])
    same(with_it, scenario([(5, dict(SWORD, abilities=["PSYCHIC", "SUSTAINED HITS 1"]))], MARINES), kb)
    assert damage(with_it, kb) > damage(base, kb)
    had = dict(SWORD, abilities=["PSYCHIC", "SUSTAINED HITS 1"])
    same(scenario([(5, had)], MARINES, attacker_effects=["Sanctified Slaughter"]),
         scenario([(5, had)], MARINES, modifiers={"critical_hit": 5}), kb)


def test_banishers_lethal_hits_for_psychic_melee_weapons(kb):
    base = scenario([(5, SWORD)], TANK)
    with_it = scenario([(5, SWORD)], TANK, attacker_effects=["grey-knights/banishers"])
    # The rule offers two options (sustained hits, lethal hits); naming the detachment applies both.
    assert damage(with_it, kb) > damage(base, kb)
    same(with_it, scenario([(5, dict(SWORD, abilities=["PSYCHIC", "SUSTAINED HITS 1", "LETHAL HITS"]))], TANK), kb)
    plain = inline("Power fist", range=None, attacks=3, skill=3, strength=8, ap=-2, damage=2)
    with pytest.raises(ScenarioError, match=r"applies to weapons with \[PSYCHIC\]"):
        evaluate(scenario([(5, plain)], TANK, attacker_effects=["Channelled Force"]), kb)


def test_truesilver_channelling_devastating_wounds_for_psychic_weapons_only(kb):
    psycannon = inline("Psycannon", attacks=3, skill=2, strength=8, ap=-1, damage=2, abilities=["PSYCHIC"])
    groups = [(2, psycannon), (3, STORM_BOLTER)]
    result = evaluate(scenario(groups, MARINES, attacker_effects=["Truesilver Channelling"]), kb)
    base = evaluate(scenario(groups, MARINES), kb)
    assert result.groups[0].expected_unsaved > base.groups[0].expected_unsaved
    assert result.groups[1].expected_unsaved == pytest.approx(base.groups[1].expected_unsaved)
    assert [(e["group"], e["change"]) for e in result.effects] == [("Psycannon", "gains [DEVASTATING WOUNDS]")]


def test_point_blank_purgation_twin_linked_storm_bolters(kb):
    base = scenario([(5, STORM_BOLTER), (5, SWORD)], MARINES)
    with_it = scenario([(5, STORM_BOLTER), (5, SWORD)], MARINES, attacker_effects=["Point-Blank Purgation"])
    assert damage(with_it, kb) > damage(base, kb)
    same(with_it, scenario([(5, dict(STORM_BOLTER, abilities=["RAPID FIRE 2", "PISTOL", "TWIN-LINKED"])), (5, SWORD)], MARINES), kb)


# -- characteristics -----------------------------------------------------------------------------------

def test_psybolt_ammunition_improves_storm_bolter_ap(kb):
    psilencer = inline("Psilencer", attacks=6, skill=2, strength=5)
    with_it = scenario([(5, STORM_BOLTER), (2, psilencer)], MARINES, attacker_effects=["Psybolt Ammunition"])
    same(with_it, scenario([(5, dict(STORM_BOLTER, ap=-1)), (2, psilencer)], MARINES), kb)
    assert damage(with_it, kb) > damage(scenario([(5, STORM_BOLTER), (2, psilencer)], MARINES), kb)


def test_giants_of_the_battlefield_adds_attacks_to_melee_weapons(kb):
    with_it = scenario([(5, SWORD), (5, STORM_BOLTER)], MARINES, attacker_effects=["Giants of the Battlefield"])
    same(with_it, scenario([(5, dict(SWORD, attacks=5)), (5, STORM_BOLTER)], MARINES), kb)


def test_giants_of_the_battlefield_on_an_inquisitor_is_an_error(kb):
    with pytest.raises(ScenarioError, match="needs a TERMINATOR unit by its stratagem TARGET; attacker.keywords: "
                                            "AGENTS OF THE IMPERIUM, CHARACTER"):
        evaluate(scenario([(1, SWORD)], MARINES, ruleset="11e", attacker=INQUISITOR,
                          attacker_effects=["Giants of the Battlefield"]), kb)


def test_attuned_onslaught_adds_damage_after_a_charge(kb):
    charged = scenario([(5, SWORD)], MARINES, attacker_effects=["Attuned Onslaught"], conditions={"charged": True})
    same(charged, scenario([(5, dict(SWORD, damage=3))], MARINES, conditions={"charged": True}), kb)
    with pytest.raises(ScenarioError, match=r"charge move this turn \(conditions.charged: true\)"):
        evaluate(scenario([(5, SWORD)], MARINES, attacker_effects=["Attuned Onslaught"]), kb)


def test_hyperstimms_adds_toughness(kb):
    inquisitor = {"toughness": 3, "save": 4, "wounds": 4, "models": 1, "keywords": INQUISITOR}
    base = scenario([(5, STORM_BOLTER)], inquisitor, ruleset="11e")
    with_it = scenario([(5, STORM_BOLTER)], inquisitor, ruleset="11e", target_effects=["Hyperstimms"])
    same(with_it, scenario([(5, STORM_BOLTER)], dict(inquisitor, toughness=4), ruleset="11e"), kb)
    assert damage(with_it, kb) < damage(base, kb)
    log = evaluate(with_it, kb).effects
    assert any(e["change"] == "Toughness 3 -> 4" for e in log)


def test_will_sapping_salvo_damage_three_for_a_culexus(kb):
    gun = inline("Animus speculum", attacks=3, skill=2, strength=5, ap=-3, damage=1)
    culexus = ["INFANTRY", "CHARACTER", "AGENTS OF THE IMPERIUM", "OFFICIO ASSASSINORUM", "CULEXUS ASSASSIN"]
    with_it = scenario([(1, gun)], MARINES, ruleset="11e", attacker=culexus, attacker_effects=["Will-Sapping Salvo"])
    same(with_it, scenario([(1, dict(gun, damage=3, abilities=["SUSTAINED HITS 1"]))], MARINES, ruleset="11e"), kb)
    # Another AGENTS OF THE IMPERIUM INFANTRY unit gets the sustained hits only.
    other = scenario([(1, gun)], MARINES, ruleset="11e", attacker=INQUISITOR, attacker_effects=["Will-Sapping Salvo"])
    same(other, scenario([(1, dict(gun, abilities=["SUSTAINED HITS 1"]))], MARINES, ruleset="11e"), kb)


def test_formidable_resolve_wounds_for_the_bearer_alone(kb):
    inquisitor = {"toughness": 3, "save": 4, "wounds": 4, "models": 1, "keywords": INQUISITOR}
    same(scenario([(5, STORM_BOLTER)], inquisitor, ruleset="11e", target_effects=["Formidable Resolve"]),
         scenario([(5, STORM_BOLTER)], dict(inquisitor, wounds=5), ruleset="11e"), kb)
    with pytest.raises(ScenarioError, match=r"applies to the bearer \(one model\) only.*target.models: 4"):
        evaluate(scenario([(5, STORM_BOLTER)], dict(inquisitor, models=4), ruleset="11e",
                          target_effects=["Formidable Resolve"]), kb)


# -- re-rolls ------------------------------------------------------------------------------------------

def test_brotherhood_strike_rerolls_ones(kb):
    with_it = scenario([(5, STORM_BOLTER)], MARINES, attacker_effects=["Fury of Titan"])
    same(with_it, scenario([(5, STORM_BOLTER)], MARINES, modifiers={"reroll_hits": "ones", "reroll_wounds": "ones"}), kb)
    assert any(e["change"] == "assumed: set up using the Deep Strike ability" for e in evaluate(with_it, kb).effects)


def test_sanctified_kill_zone_full_reroll_for_a_purifier_squad(kb):
    ones = scenario([(5, STORM_BOLTER)], MARINES, attacker_effects=["Sanctified Kill Zone"])
    same(ones, scenario([(5, STORM_BOLTER)], MARINES, modifiers={"reroll_wounds": "ones"}), kb)
    purifiers = scenario([(5, STORM_BOLTER)], MARINES, attacker=["INFANTRY", "PSYKER", "PURIFIER SQUAD"],
                         attacker_effects=["Sanctified Kill Zone"])
    same(purifiers, scenario([(5, STORM_BOLTER)], MARINES, modifiers={"reroll_wounds": "failed"}), kb)


# -- defensive effects ---------------------------------------------------------------------------------

def test_go_to_ground_invulnerable_save_and_cover(kb):
    target = {"toughness": 4, "save": 4, "wounds": 1, "models": 10, "keywords": ["INFANTRY"]}
    plasma = inline("Plasma gun", attacks=2, skill=3, strength=8, ap=-3, damage=2)
    base = scenario([(5, plasma)], target)
    with_it = scenario([(5, plasma)], target, target_effects=["Go to Ground"])
    same(with_it, scenario([(5, plasma)], dict(target, invulnerable=6), conditions={"cover": True}), kb)
    assert damage(with_it, kb) < damage(base, kb)
    with pytest.raises(ScenarioError, match="list it under target.effects"):
        evaluate(scenario([(5, plasma)], target, attacker_effects=["Go to Ground"]), kb)


def test_displacer_field_four_plus_invulnerable(kb):
    inquisitor = {"toughness": 3, "save": 4, "wounds": 4, "models": 1, "keywords": INQUISITOR}
    plasma = inline("Plasma gun", attacks=2, skill=3, strength=8, ap=-3, damage=2)
    same(scenario([(5, plasma)], inquisitor, ruleset="11e", target_effects=["Displacer Field"]),
         scenario([(5, plasma)], dict(inquisitor, invulnerable=4), ruleset="11e"), kb)


def test_warding_chant_feel_no_pain_against_damage_one_only(kb):
    psykers = dict(MARINES, keywords=["INFANTRY", "PSYKER"])
    with_it = scenario([(5, STORM_BOLTER), (5, SWORD)], psykers, target_effects=["Warding Chant"])
    result = evaluate(with_it, kb)
    fnp = evaluate(scenario([(5, STORM_BOLTER)], dict(psykers, feel_no_pain=5)), kb)
    plain = evaluate(scenario([(5, SWORD)], psykers), kb)
    assert result.groups[0].expected_damage == pytest.approx(fnp.groups[0].expected_damage)
    assert result.groups[1].expected_damage == pytest.approx(plain.groups[0].expected_damage)
    assert any(not e["applied"] and e["group"] == "Nemesis force weapon" for e in result.effects)


def test_feel_no_pain_against_mortal_wounds_with_devastating_wounds_is_not_modelled(kb):
    target = {"toughness": 10, "save": 2, "wounds": 12, "models": 1, "keywords": ["PSYKER", "VEHICLE"]}
    dev = inline("Psychic lance", attacks=3, skill=3, strength=6, damage=2, abilities=["DEVASTATING WOUNDS"])
    with pytest.raises(ScenarioError, match="Feel No Pain against mortal wounds only"):
        evaluate(scenario([(1, dev)], target, target_effects=["Truesilver Will"]), kb)


def test_shining_veil_stealth_and_aggressive_anticipation_ignoring_it(kb):
    base = scenario([(5, STORM_BOLTER)], MARINES)
    veiled = scenario([(5, STORM_BOLTER)], MARINES, target_effects=["Shining Veil"])
    same(veiled, dict(base, modifiers={"hit": -1}), kb)
    # 10e Stealth is against ranged attacks: melee ones are untouched, and alone they make it an error.
    mixed = evaluate(scenario([(5, STORM_BOLTER), (5, SWORD)], MARINES, target_effects=["Shining Veil"]), kb)
    assert mixed.groups[1].expected_hits == pytest.approx(evaluate(scenario([(5, SWORD)], MARINES), kb).groups[0].expected_hits)
    with pytest.raises(ScenarioError, match="Nemesis force weapon: applies to ranged attacks only"):
        evaluate(scenario([(5, SWORD)], MARINES, target_effects=["Shining Veil"]), kb)
    ignoring = scenario([(5, STORM_BOLTER)], MARINES, attacker_effects=["Aggressive Anticipation"],
                        target_effects=["Shining Veil"])
    same(ignoring, base, kb)


def test_the_compiled_psychic_rule_agrees_with_the_engines_own(kb):
    """11e [PSYCHIC] compiles to 'ignore modifiers to BS/WS and the hit roll'; applied as an
    effect it gives what the engine's built-in rule gives: cover and -1 to hit ignored."""
    gun = inline("Psychic bolt", attacks=4, skill=3, strength=4, abilities=["PSYCHIC"])
    hindered = scenario([(5, gun)], MARINES, ruleset="11e", conditions={"cover": True}, modifiers={"hit": -1})
    compiled = scenario([(5, gun)], MARINES, ruleset="11e", conditions={"cover": True}, modifiers={"hit": -1},
                        attacker_effects=["11e/abilities/psychic"])
    clear = scenario([(5, gun)], MARINES, ruleset="11e")
    same(compiled, clear, kb)
    same(hindered, clear, kb)
    plain = dict(gun, abilities=[])
    assert damage(scenario([(5, plain)], MARINES, ruleset="11e", conditions={"cover": True}, modifiers={"hit": -1}), kb) \
        < damage(clear, kb)


# -- naming effects --------------------------------------------------------------------------------------

def test_an_unknown_effect_suggests_names(kb):
    with pytest.raises(ScenarioError, match=r"attacker.effects\[0\]: no effect named 'Chaos Ban'.*did you mean: CHAOS BANE"):
        evaluate(scenario([(5, STORM_BOLTER)], MARINES, attacker_effects=["Chaos Ban"]), kb)


@pytest.mark.slow
def test_calc_shows_which_effects_changed_what(tmp_path):
    out = tmp_path / "out"
    build = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--out", str(out), "-q"], cwd=ROOT,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    path = tmp_path / "s.yaml"
    path.write_text(
        "ruleset: 10e\n"
        "attacker:\n  keywords: [INFANTRY, PSYKER, TERMINATOR]\n  effects: [ABOMINUS-CLASS TARGETS]\n"
        "  weapons:\n    - {models: 5, ref: grey-knights/paladin-squad/storm-bolter}\n"
        "target: {toughness: 8, save: 3, wounds: 10, models: 1, keywords: [VEHICLE]}\n", encoding="utf-8")
    calc = subprocess.run([sys.executable, "-m", "warscribe.cli", "calc", str(path), "--kb", str(out)], cwd=ROOT,
                          capture_output=True, text=True)
    assert calc.returncode == 0, calc.stderr
    assert "Effects applied:\n  attacker: ABOMINUS-CLASS TARGETS [Storm bolter]: wound roll +1" in calc.stdout
    path.write_text(path.read_text().replace("keywords: [VEHICLE]", "keywords: [INFANTRY]"), encoding="utf-8")
    calc = subprocess.run([sys.executable, "-m", "warscribe.cli", "calc", str(path), "--kb", str(out)], cwd=ROOT,
                          capture_output=True, text=True)
    assert calc.returncode == 2 and "changes nothing in this scenario" in calc.stderr and "Traceback" not in calc.stderr
    example = subprocess.run([sys.executable, "-m", "warscribe.cli", "calc", "examples/with-build/stratagems.yaml",
                              "--kb", str(out), "--json"], cwd=ROOT, capture_output=True, text=True)
    assert example.returncode == 0, example.stderr
    assert [e["change"] for e in json.loads(example.stdout)["effects"]] == [
        "wound roll +1", "wound roll +1", "AP 0 -> -1"]
    report = subprocess.run([sys.executable, "-m", "warscribe.cli", "effects", "--kb", str(out)], cwd=ROOT,
                            capture_output=True, text=True)
    assert report.returncode == 0
    assert report.stdout.splitlines()[0].startswith("kind") and "\nstratagem " in report.stdout
    assert "[attack] core-10e/command-re-roll: You re-roll that roll, test or saving throw." in report.stdout


# -- targets with several kinds of model ------------------------------------------------------------
# A unit change made by an effect is made to every kind; the allocation chain then reads each
# kind's own save and Feel No Pain, so the result equals the same unit written with the change.

RETINUE = {"attached": True, "keywords": ["INFANTRY", "AGENTS OF THE IMPERIUM"], "models": [
    {"name": "Henchman", "count": 6, "toughness": 3, "save": 5, "wounds": 1},
    {"name": "Inquisitor", "toughness": 3, "save": 4, "invulnerable": 5, "wounds": 4, "feel_no_pain": 6,
     "keywords": ["CHARACTER", "INQUISITOR"]}]}


def _kinds(**changes):
    """RETINUE with each kind changed: a value, or a function of the kind's own value."""
    models = []
    for kind in RETINUE["models"]:
        kind = dict(kind)
        for key, value in changes.items():
            kind[key] = value(kind.get(key)) if callable(value) else value
        models.append(kind)
    return dict(RETINUE, models=models)


def _better(value):
    return lambda own: value if own is None or value < own else own


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_attacker_effects_against_several_kinds(kb, ruleset):
    with_it = scenario([(5, STORM_BOLTER)], RETINUE, ruleset=ruleset, attacker_effects=["Fury of Titan"])
    same(with_it, scenario([(5, STORM_BOLTER)], RETINUE, ruleset=ruleset,
                           modifiers={"reroll_hits": "ones", "reroll_wounds": "ones"}), kb)


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_invulnerable_save_and_cover_for_every_kind(kb, ruleset):
    plasma = inline("Plasma gun", attacks=2, skill=3, strength=8, ap=-3, damage=2)
    stratagem = "Go to Ground" if ruleset == "10e" else "Displacer Field"
    value = 6 if ruleset == "10e" else 4
    extra = {"conditions": {"cover": True}} if ruleset == "10e" else {}
    with_it = scenario([(5, plasma)], RETINUE, ruleset=ruleset, target_effects=[stratagem])
    same(with_it, scenario([(5, plasma)], _kinds(invulnerable=_better(value)), ruleset=ruleset, **extra), kb)
    assert damage(with_it, kb) < damage(scenario([(5, plasma)], RETINUE, ruleset=ruleset), kb)


def test_toughness_for_every_kind(kb):
    with_it = scenario([(5, STORM_BOLTER)], RETINUE, ruleset="11e", target_effects=["Hyperstimms"])
    same(with_it, scenario([(5, STORM_BOLTER)], _kinds(toughness=lambda t: t + 1), ruleset="11e"), kb)


def test_feel_no_pain_for_every_kind_and_one_group_only(kb):
    """Warding Chant: 5+ against Damage 1 only. The storm bolters meet it on every kind
    (the Inquisitor's own 6+ gives way to the better 5+); the sword does not."""
    retinue = dict(RETINUE, keywords=["INFANTRY", "PSYKER"])
    fnp = dict(_kinds(feel_no_pain=_better(5)), keywords=["INFANTRY", "PSYKER"])
    same(scenario([(5, STORM_BOLTER)], retinue, target_effects=["Warding Chant"]),
         scenario([(5, STORM_BOLTER)], fnp), kb)
    both = evaluate(scenario([(5, SWORD), (5, STORM_BOLTER)], retinue, target_effects=["Warding Chant"]), kb)
    assert any(not e["applied"] and e["group"] == "Nemesis force weapon" for e in both.effects)
    plain = evaluate(scenario([(5, SWORD), (5, STORM_BOLTER)], retinue), kb)
    assert both.expected_models_slain < plain.expected_models_slain
