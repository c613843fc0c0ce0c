"""The effects compiler on the seeds: each of the issue's examples compiles to the expected tree.

Engine tests for the same examples (with against without) are in tests/engine/test_effects_engine.py.
"""

from __future__ import annotations

import pytest

from warscribe.extract.effects import Context, compile_text, split_sentences
from warscribe.extract.keyexpr import Known
from warscribe.extract.pipeline import extract
from warscribe.schema.registry import validator

from conftest import ROOT


@pytest.fixture(scope="module")
def seeds():
    return {r["id"]: r for r in extract(ROOT / "sources" / "manifest.yaml").records}


def compiled(effects: list[dict]) -> list[dict]:
    """The compiled entries without their text (the tree the tests compare)."""
    return [{k: v for k, v in e.items() if k not in ("text", "status")} for e in effects if e["status"] == "compiled"]


def kw(name: str) -> dict:
    return {"keyword": name}


def test_every_effect_entry_of_the_seeds_is_valid():
    check = validator("effect")
    records = extract(ROOT / "sources" / "manifest.yaml").records
    entries = []
    for rec in records:
        entries += rec.get("effects", [])
        entries += (rec.get("rule") or {}).get("effects", []) if rec["kind"] == "detachment" else []
        for ability in rec.get("abilities", []) if rec["kind"] == "datasheet" else []:
            entries += ability.get("effects", [])
    assert len(entries) > 300
    for entry in entries:
        assert not list(check.iter_errors(entry)), entry


# -- roll modifiers ---------------------------------------------------------------------------

def test_abominus_class_targets_wound_plus_one_against_monster_or_vehicle(seeds):
    [effect] = compiled(seeds["grey-knights/sanctic-spearhead/abominus-class-targets"]["effects"])
    assert effect == {"side": "attacker", "when": {"enemy": {"any": [kw("MONSTER"), kw("VEHICLE")]}},
                      "changes": [{"op": "modify", "roll": "wound", "value": 1}]}


def test_inquisitorial_agents_subtract_one_from_the_wound_roll(seeds):
    [effect] = compiled(seeds["imperial-agents/inquisitorial-agents/abilities/while-an-inquisitor-model-is-leading"]["effects"])
    # A unit led by an INQUISITOR has the INQUISITOR keyword (a unit has all its models' keywords).
    assert effect == {"side": "target", "when": {"unit": kw("INQUISITOR")},
                      "changes": [{"op": "modify", "roll": "wound", "value": -1}]}


def test_shining_resolve_keeps_its_condition(seeds):
    [effect] = compiled(seeds["grey-knights/hallowed-conclave/shining-resolve"]["effects"])
    assert effect == {"side": "target", "when": {"strength_gt_toughness": True},
                      "changes": [{"op": "modify", "roll": "wound", "value": -1}]}


def test_appointed_hour_critical_hits_on_five(seeds):
    [effect] = compiled(seeds["grey-knights/augurium-task-force/appointed-hour"]["effects"])
    assert effect == {"side": "attacker", "changes": [{"op": "critical", "roll": "hit", "threshold": 5}]}


# -- weapons gain abilities ----------------------------------------------------------------------

def test_chaos_bane_ranged_weapons_gain_anti_chaos(seeds):
    [effect] = compiled(seeds["grey-knights/banishers/chaos-bane"]["effects"])
    assert effect["weapons"] == {"type": "ranged"}
    assert effect["changes"] == [{"op": "ability", "ability": {"id": "anti", "keyword": "CHAOS", "threshold": 4, "text": "[ANTI-CHAOS 4+]"}}]


def test_sustained_hits_and_the_critical_hit_for_weapons_that_already_had_it(seeds):
    gain, already = compiled(seeds["grey-knights/void-purge-force/sanctified-slaughter"]["effects"])
    assert gain == {"side": "attacker", "weapons": {"type": "melee"},
                    "changes": [{"op": "ability", "ability": {"id": "sustained-hits", "value": 1, "text": "[SUSTAINED HITS 1]"}}]}
    assert already["weapons"] == {"type": "melee"} and already["when"] == {"weapon_had": "sustained-hits"}
    assert already["changes"] == [{"op": "critical", "roll": "hit", "threshold": 5}]


def test_scraping_damage_in_an_ability_is_read(seeds):
    # '[SUSTAINED HITS liability.' is [SUSTAINED HITS 1] followed by 'ability'.
    [effect] = compiled(seeds["grey-knights/brotherhood-strike/purgation-pattern"]["effects"])
    assert effect["changes"][0]["ability"]["id"] == "sustained-hits" and effect["changes"][0]["ability"]["value"] == 1


def test_banishers_lethal_hits_for_psychic_melee_weapons(seeds):
    sustained, lethal = compiled(seeds["grey-knights/banishers"]["rule"]["effects"])
    assert lethal["weapons"] == {"type": "melee", "ability": "psychic"}
    assert lethal["changes"] == [{"op": "ability", "ability": {"id": "lethal-hits", "text": "[LETHAL HITS]"}}]
    assert sustained["changes"][0]["ability"]["id"] == "sustained-hits"


def test_truesilver_channelling_devastating_wounds_for_psychic_weapons_only(seeds):
    [effect] = compiled(seeds["grey-knights/brotherhood-strike/truesilver-channelling"]["effects"])
    assert effect == {"side": "attacker", "weapons": {"ability": "psychic"},
                      "changes": [{"op": "ability", "ability": {"id": "devastating-wounds", "text": "[DEVASTATING WOUNDS]"}}]}


def test_point_blank_purgation_pistol_and_twin_linked_for_storm_bolters_only(seeds):
    [effect] = compiled(seeds["grey-knights/hallowed-conclave/point-blank-purgation"]["effects"])
    assert effect["weapons"] == {"name": "storm bolter"}
    assert [c["ability"]["id"] for c in effect["changes"]] == ["pistol", "twin-linked"]


# -- characteristics ---------------------------------------------------------------------------

def test_psybolt_ammunition_improves_storm_bolter_ap(seeds):
    [effect] = compiled(seeds["grey-knights/baneslayer-strike/psybolt-ammunition"]["effects"])
    assert effect == {"side": "attacker", "weapons": {"name": "storm bolter"},
                      "changes": [{"op": "characteristic", "characteristic": "ap", "add": -1}]}


def test_giants_of_the_battlefield_adds_an_attack_to_melee_weapons(seeds):
    [effect] = compiled(seeds["grey-knights/hallowed-conclave/giants-of-the-battlefield"]["effects"])
    assert effect == {"side": "attacker", "weapons": {"type": "melee"},
                      "changes": [{"op": "characteristic", "characteristic": "attacks", "add": 1}]}


def test_attuned_onslaught_adds_damage_after_a_charge(seeds):
    [ability] = [a for a in seeds["grey-knights/paladin-squad"]["abilities"] if a["name"] == "Attuned Onslaught"]
    [effect] = compiled(ability["effects"])
    assert effect == {"side": "attacker", "weapons": {"type": "melee"},
                      "when": {"unit": kw("PALADIN SQUAD"), "charged": True},
                      "changes": [{"op": "characteristic", "characteristic": "damage", "add": 1}]}


def test_hyperstimms_toughness_and_the_eversor_feel_no_pain(seeds):
    toughness, fnp = compiled(seeds["imperial-agents/veiled-blade-elimination-force/hyperstimms"]["effects"])
    assert toughness == {"side": "target", "changes": [{"op": "characteristic", "characteristic": "toughness", "add": 1}]}
    assert fnp == {"side": "target", "when": {"unit": kw("EVERSOR ASSASSIN")}, "changes": [{"op": "feel_no_pain", "value": 4}]}


def test_will_sapping_salvo_changes_damage_to_three_for_a_culexus(seeds):
    _sustained, damage = compiled(seeds["imperial-agents/veiled-blade-elimination-force/will-sapping-salvo"]["effects"])
    assert damage == {"side": "attacker", "weapons": {"type": "ranged"}, "when": {"unit": kw("CULEXUS ASSASSIN")},
                      "changes": [{"op": "characteristic", "characteristic": "damage", "set": 3}]}


# -- re-rolls ------------------------------------------------------------------------------------

def test_brotherhood_strike_rerolls_hit_and_wound_rolls_of_one(seeds):
    [effect] = compiled(seeds["grey-knights/brotherhood-strike"]["rule"]["effects"])
    assert effect["changes"] == [{"op": "reroll", "roll": "hit", "which": "ones"},
                                 {"op": "reroll", "roll": "wound", "which": "ones"}]
    assert effect["when"] == {"assumed": ["set up using the Deep Strike ability"]}


def test_sanctified_kill_zone_rerolls_the_wound_roll_instead_for_a_purifier_squad(seeds):
    [effect] = compiled(seeds["grey-knights/warpbane-task-force/sanctified-kill-zone"]["effects"])
    assert effect["changes"] == [
        {"op": "reroll", "roll": "wound", "which": "ones"},
        {"op": "reroll", "roll": "wound", "which": "failed", "when": {"unit": kw("PURIFIER SQUAD")}, "instead": True}]


def test_a_condition_between_two_changes_belongs_to_the_second(seeds):
    [effect] = compiled(seeds["imperial-agents/ordo-malleus-daemon-hunters"]["rule"]["effects"])
    assert effect["when"] == {"unit": {"any": [kw("INQUISITOR"), kw("INQUISITORIAL AGENTS"), kw("ORDO MALLEUS")]}}
    assert effect["changes"] == [{"op": "reroll", "roll": "hit", "which": "ones"},
                                 {"op": "reroll", "roll": "wound", "which": "ones", "when": {"enemy": kw("DAEMON")}}]


# -- defensive effects -----------------------------------------------------------------------------

def test_invulnerable_saves(seeds):
    [go] = compiled(seeds["core-10e/go-to-ground"]["effects"])
    assert go == {"side": "target", "changes": [{"op": "invulnerable", "value": 6}, {"op": "cover"}]}
    [aegis] = compiled(seeds["grey-knights/warpbane-task-force/aegis-eternal"]["effects"])
    assert aegis == {"side": "target", "when": {"assumed": ["wholly within your Hallowed Ground"]},
                     "changes": [{"op": "invulnerable", "value": 4}]}


def test_feel_no_pain_against_damage_one_and_against_mortal_wounds(seeds):
    [chant] = compiled(seeds["grey-knights/banishers/warding-chant"]["effects"])
    assert chant["changes"] == [{"op": "feel_no_pain", "value": 5, "against": "damage-1"}]
    [will] = compiled(seeds["grey-knights/sanctic-spearhead/truesilver-will"]["effects"])
    assert will["changes"] == [{"op": "feel_no_pain", "value": 4, "against": "mortal-wounds"}]


def test_stealth_is_granted_with_the_stealth_abilitys_own_effect(seeds):
    [veil] = compiled(seeds["grey-knights/brotherhood-strike/shining-veil"]["effects"])
    [grant] = veil["changes"]
    assert grant["op"] == "grant" and grant["ability"] == "10e/abilities/stealth"
    assert compiled(grant["effects"]) == [{"side": "target", "when": {"attack": "ranged"},
                                           "changes": [{"op": "modify", "roll": "hit", "value": -1}]}]
    # 11e Stealth is the benefit of cover instead.
    assert compiled(seeds["11e/abilities/stealth"]["effects"]) == [
        {"side": "target", "when": {"attack": "ranged"}, "changes": [{"op": "cover"}]}]


def test_ignore_any_or_all_modifiers(seeds):
    [anticipation] = compiled(seeds["grey-knights/augurium-task-force/aggressive-anticipation"]["effects"])
    assert anticipation == {"side": "attacker", "changes": [{"op": "ignore_modifiers", "to": ["skill", "hit"]}]}
    [psychic] = compiled(seeds["11e/abilities/psychic"]["effects"])
    assert psychic == {"side": "attacker", "weapons": {"ability": "psychic"},
                       "changes": [{"op": "ignore_modifiers", "to": ["skill", "hit"]}]}


# -- what is not understood is kept, never guessed ------------------------------------------------

CTX = Context("10e", Known(["INFANTRY", "VEHICLE"]))


@pytest.mark.parametrize("text", [
    "Each time an attack is made with such a weapon, the target cannot have the Benefit of Cover against that attack.",
    "Add 1 to the Attacks characteristic for every five models in the target unit (rounding down).",
    "You re-roll that roll, test or saving throw.",
    # Qualifiers the compiler cannot read (from BattleScribe data): compiling the rest would be a guess.
    "This model has the Feel No Pain 2+ ability against Psychic Attacks.",
    "While this model has 1-5 wounds remaining, each time this model makes an attack, subtract 1 from the Hit roll.",
    "Each time a model in this unit makes a ranged attack that targets an enemy unit within half range, "
    "improve the Armour Penetration characteristic of that attack by 1.",
    "This model’s twin heavy onslaught gatling cannon has the [SUSTAINED HITS 2] ability when targeting Infantry units.",
    "Improve the Strength and Armour Penetration characteristics of the bearer's melee weapons by 1, "
    "and those weapons have the [Precision] ability.",
    # 'instead' of an earlier sentence's +1: adding both would be wrong.
    "If this unit made a Charge move this turn, add 2 to the Attacks characteristic of melee weapons equipped by models in this unit instead.",
])
def test_qualified_or_unknown_sentences_stay_uncompiled(text):
    [entry] = compile_text(text, CTX)
    assert entry == {"text": text, "status": "uncompiled", "attack_relevant": True}


def test_a_later_separate_instruction_is_kept_as_outside_text(seeds):
    [effect] = seeds["imperial-agents/imperialis-fleet/displacer-field"]["effects"]
    assert effect["status"] == "compiled" and effect["changes"] == [{"op": "invulnerable", "value": 4}]
    assert effect["outside"].startswith("after the attacking unit has resolved its attacks, unless your unit")


def test_sentences_outside_the_attack_sequence_are_uncompiled_and_marked_so():
    [entry] = compile_text("Your unit can make a Normal move of up to D6\".", CTX)
    assert entry["status"] == "uncompiled" and entry["attack_relevant"] is False


def test_frames_of_a_single_model_and_of_the_bearer():
    [entry] = compile_text("Each time this model makes a melee attack, re-roll a Wound roll of 1.", CTX)
    assert entry["side"] == "attacker" and entry["when"] == {"attack": "melee"}
    [entry] = compile_text("Each time an attack targets this unit, subtract 1 from the Wound roll.", CTX)
    assert entry["side"] == "target" and entry["changes"] == [{"op": "modify", "roll": "wound", "value": -1}]
    [entry] = compile_text("The bearer has a 4+ invulnerable save.", CTX)
    assert entry["side"] == "target" and entry["changes"] == [{"op": "invulnerable", "value": 4}]
    assert entry["when"] == {"assumed": ["the bearer only"]}
    [entry] = compile_text("Models in this unit have a 4+ invulnerable save against ranged attacks.", CTX)
    assert entry["changes"] == [{"op": "invulnerable", "value": 4, "when": {"attack": "ranged"}}]


def test_weapon_ability_definitions_are_native():
    ctx = Context("10e", Known([]), ability_id="blast")
    [entry] = compile_text("Add 1 to the Attacks characteristic for every five models in the target unit (rounding down).", ctx)
    assert entry["status"] == "native" and entry["ability"] == "blast"


def test_sentences_split_at_stops_lines_bullets_and_table_pipes():
    text = "First one.Second one.\n- Bullet three\nFour | Five."
    assert split_sentences(text) == ["First one.", "Second one.", "Bullet three", "Four", "Five."]


def test_seed_coverage_of_attack_sentences(seeds):
    """Every attack-relevant sentence of the seeds' detachment rules, enhancements and
    datasheet abilities compiles; the stratagems' uncompiled ones are listed in docs/effects.md."""
    for rid, rec in seeds.items():
        groups = []
        if rec["kind"] in ("enhancement",):
            groups.append(rec.get("effects", []))
        if rec["kind"] == "detachment" and rec["rule"]:
            groups.append(rec["rule"]["effects"])
        if rec["kind"] == "datasheet":
            groups += [a.get("effects", []) for a in rec["abilities"]]
        for effects in groups:
            gaps = [e["text"] for e in effects if e["status"] == "uncompiled" and e["attack_relevant"]
                    and e["text"] not in OUTSIDE_THE_ENGINE]
            assert not gaps, (rid, gaps)


# Attack-relevant sentences of those kinds that the engine does not model: mortal wounds
# from an Enhancement are not an attack, so how they are allocated changes no number.
OUTSIDE_THE_ENGINE = {"Mortal wounds inflicted by this Enhancement are allocated as if they had the [PRECISION] ability."}
