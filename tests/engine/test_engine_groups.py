"""Targets with several kinds of model: one test per rule, derived by hand in the docstring.

Small cases: one or two attacks against two or three models. 'Torrent S4 against T4'
hits automatically and wounds on 4+ (1/2: a 6 is a critical wound, 1/6; 4-5 a normal
one, 2/6). Sv 7 means no save.
"""

from __future__ import annotations

import pytest

from warscribe.engine import ScenarioError, evaluate
from engine_helpers import ROOT, inline, scenario

APPROX = dict(rel=1e-12, abs=1e-12)
CHAR = ["CHARACTER", "INFANTRY"]


def kind(name, count=1, toughness=4, save=7, wounds=1, **extra):
    return {"name": name, "count": count, "toughness": toughness, "save": save, "wounds": wounds, **extra}


def torrent(attacks=1, strength=4, damage=1, abilities=(), **extra):
    return inline(attacks=attacks, skill=None, strength=strength, damage=damage,
                  abilities=["TORRENT", *abilities], **extra)


def run(weapons, kinds, ruleset="11e", attached=True, order=None, **kw):
    target = {"models": kinds, "attached": attached}
    if order is not None:
        target["allocation_order"] = order
    groups = weapons if isinstance(weapons, list) else [(1, weapons)]
    return evaluate(scenario(groups, target=target, ruleset=ruleset, **kw))


def slain(result) -> dict[str, float]:
    """Expected models slain per kind."""
    return {m.name: m.expected_models_slain for m in result.by_model}


GUARD_LEADER = [kind("Guard"), kind("Leader", keywords=CHAR)]


# --- allocation order -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_character_models_are_allocated_last(ruleset):
    """Leader listed first, Guard second, one wound (1/2): the attack goes to the Guard
    (11e 05.03: no CHARACTER group before a non-CHARACTER one; 10e Leader), so the Guard
    dies with 1/2 and the Leader never."""
    r = run(torrent(), [kind("Leader", keywords=CHAR), kind("Guard")], ruleset)
    assert slain(r) == pytest.approx({"Leader": 0.0, "Guard": 0.5}, **APPROX)
    assert [m.name for m in r.by_model] == ["Guard", "Leader"]  # allocation order


def test_11e_kinds_with_the_same_w_sv_insv_are_one_group():
    """11e 05.03: A (W1), B (W2), C (W1), all Sv 7: A and C form one group, allocated
    before B. Two attacks, each wounding with 1/2: C dies when both wound, 1/4, and B
    is never hurt. In 10e (not attached) the order is as listed, so the second wound
    goes to B (W2): B loses a wound with 1/4 and C is never slain."""
    kinds = [kind("A"), kind("B", wounds=2), kind("C")]
    r = run(torrent(attacks=2), kinds, "11e", attached=False)
    assert slain(r) == pytest.approx({"A": 0.5 + 0.25, "C": 0.25, "B": 0.0}, **APPROX)
    assert [m.name for m in r.by_model] == ["A", "C", "B"]
    r = run(torrent(attacks=2), kinds, "10e", attached=False)
    assert slain(r) == pytest.approx({"A": 0.75, "B": 0.0, "C": 0.0}, **APPROX)
    assert r.wounds_removed[2] == pytest.approx(0.25, **APPROX)


def test_allocation_order_can_be_chosen():
    """Two kinds, A with no save, B with Sv 2+; one attack with AP 0 that wounds on 4+.
    Default order (A first): A dies with 1/2. Order [B, A]: the attack goes to B, which
    fails its 2+ save on a 1 only: 1/2 x 1/6 = 1/12."""
    kinds = [kind("A"), kind("B", save=2)]
    assert slain(run(torrent(), kinds, attached=False))["A"] == pytest.approx(0.5, **APPROX)
    r = run(torrent(), kinds, attached=False, order=["B", "A"])
    assert slain(r) == pytest.approx({"B": 1 / 12, "A": 0.0}, **APPROX)


@pytest.mark.parametrize("ruleset,attached,quote", [
    ("11e", False, "No CHARACTER group can be earlier in the allocation order than a non-CHARACTER group"),
    ("11e", True, "No CHARACTER group can be earlier in the allocation order than a non-CHARACTER group"),
    ("10e", True, "10e Leader"),
])
def test_illegal_order_quotes_the_constraint(ruleset, attached, quote):
    with pytest.raises(ScenarioError, match="target.allocation_order") as err:
        run(torrent(), GUARD_LEADER, ruleset, attached, order=["Leader", "Guard"])
    assert quote in str(err.value) and "'Leader'" in str(err.value)


def test_10e_unit_not_attached_may_put_a_character_first():
    """10e: outside an attached unit no rule keeps CHARACTER models last: with the order
    [Leader, Guard] the one wound (1/2) goes to the Leader."""
    r = run(torrent(), GUARD_LEADER, "10e", attached=False, order=["Leader", "Guard"])
    assert slain(r) == pytest.approx({"Leader": 0.5, "Guard": 0.0}, **APPROX)


def test_11e_one_group_split_by_the_order_is_an_error():
    kinds = [kind("A"), kind("B", wounds=2), kind("C")]
    with pytest.raises(ScenarioError, match="'A' and 'C' form one allocation group") as err:
        run(torrent(), kinds, attached=False, order=["A", "B", "C"])
    assert "One group for all other models with the same W, Sv and InSv characteristics" in str(err.value)


@pytest.mark.parametrize("order,message", [
    (["Guard"], "missing 'Leader'"),
    (["Guard", "Leader", "Guard"], "given more than once"),
    (["Guard", "Boss"], "unknown model kind 'Boss'"),
])
def test_order_must_name_every_kind_once(order, message):
    with pytest.raises(ScenarioError, match=message):
        run(torrent(), GUARD_LEADER, order=order)


def test_kind_names_are_unique_and_attached_needs_a_character():
    with pytest.raises(ScenarioError, match=r"target.models\[1\].name"):
        run(torrent(), [kind("A"), kind("A")])
    with pytest.raises(ScenarioError, match="target.attached"):
        run(torrent(), [kind("A"), kind("B")], attached=True)


# --- [PRECISION] ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_precision_picks_out_the_character(ruleset):
    """Attached Guard + Leader, one [PRECISION] attack wounding with 1/2: it goes to the
    Leader (10e Precision; 11e 24.28), who dies with 1/2; the Guard is untouched."""
    r = run(torrent(abilities=["PRECISION"]), GUARD_LEADER, ruleset)
    assert slain(r) == pytest.approx({"Guard": 0.0, "Leader": 0.5}, **APPROX)
    assert r.by_model[1].p_all_slain == pytest.approx(0.5, **APPROX)


def test_precision_in_10e_needs_an_attached_unit():
    """10e Precision works on an attached unit only: not attached, the wound (1/2) goes
    to the Guard. 11e 24.28 asks only for a CHARACTER model in the unit."""
    r = run(torrent(abilities=["PRECISION"]), GUARD_LEADER, "10e", attached=False)
    assert slain(r) == pytest.approx({"Guard": 0.5, "Leader": 0.0}, **APPROX)
    r = run(torrent(abilities=["PRECISION"]), GUARD_LEADER, "11e", attached=False)
    assert slain(r) == pytest.approx({"Guard": 0.0, "Leader": 0.5}, **APPROX)


def test_11e_precision_lasts_until_the_character_group_is_destroyed():
    """Guard, L1, L2 (CHARACTERs, W1); two [PRECISION] attacks, each wounding with 1/2.
    11e 24.28: L1's group is current until it is destroyed, then the normal order
    (the Guard): L1 dies with 3/4, the Guard when both wound, 1/4, L2 never.
    10e: each wounding [PRECISION] attack can go to a CHARACTER, so the second goes to
    L2: L1 3/4, L2 1/4, the Guard 0."""
    kinds = [kind("Guard"), kind("L1", keywords=CHAR), kind("L2", keywords=CHAR)]
    r = run(torrent(attacks=2, abilities=["PRECISION"]), kinds, "11e")
    assert slain(r) == pytest.approx({"Guard": 0.25, "L1": 0.75, "L2": 0.0}, **APPROX)
    r = run(torrent(attacks=2, abilities=["PRECISION"]), kinds, "10e")
    assert slain(r) == pytest.approx({"Guard": 0.0, "L1": 0.75, "L2": 0.25}, **APPROX)


def test_11e_precision_picks_again_for_the_next_weapon_group():
    """Two weapon groups of one [PRECISION] attack each: the second group declares the
    allocation order anew and picks L2 once L1 is dead. L1 dies with 1/2 + 1/2 x 1/2
    = 3/4 (either group), L2 with 1/4 (L1 dead, then a wound), the Guard with 0."""
    kinds = [kind("Guard"), kind("L1", keywords=CHAR), kind("L2", keywords=CHAR)]
    w = torrent(abilities=["PRECISION"])
    r = run([(1, w), (1, w)], kinds, "11e")
    assert slain(r) == pytest.approx({"Guard": 0.0, "L1": 0.75, "L2": 0.25}, **APPROX)


def test_devastating_mortal_wounds_with_precision():
    """One [PRECISION] [DEVASTATING WOUNDS] attack, wound roll 4+: a 6 (1/6) is a
    critical wound, 4-5 (2/6) a normal wound. 11e: the normal wound goes to the Leader
    (24.28), the mortal wounds end the attack sequence before the Allocation Order step
    and go by 06.02 to a non-CHARACTER model: Leader 2/6, Guard 1/6. 10e: mortal wounds
    of a [PRECISION] attack can be allocated to a CHARACTER: Leader 1/2, Guard 0."""
    w = torrent(abilities=["PRECISION", "DEVASTATING WOUNDS"])
    assert slain(run(w, GUARD_LEADER, "11e")) == pytest.approx({"Guard": 1 / 6, "Leader": 2 / 6}, **APPROX)
    assert slain(run(w, GUARD_LEADER, "10e")) == pytest.approx({"Guard": 0.0, "Leader": 0.5}, **APPROX)


def test_devastating_mortal_wounds_skip_the_save_of_the_model_they_go_to():
    """No [PRECISION]: Guard Sv 2+, Leader behind. One [DEVASTATING WOUNDS] attack:
    the critical wound (1/6) kills the Guard outright; a normal wound (2/6) must beat
    its 2+ save (fails 1/6): 1/6 + 2/6 x 1/6 = 8/36, in both rulesets."""
    kinds = [kind("Guard", save=2), kind("Leader", keywords=CHAR)]
    for ruleset in ("10e", "11e"):
        r = run(torrent(abilities=["DEVASTATING WOUNDS"]), kinds, ruleset)
        assert slain(r) == pytest.approx({"Guard": 8 / 36, "Leader": 0.0}, **APPROX)


# --- the model allocated to: save, Feel No Pain, damage ----------------------------------


def test_save_and_feel_no_pain_of_the_model_allocated_to():
    """A [PRECISION] attack, S8 against T4 (2+: 5/6), AP 0, D1 to a Leader with Sv 2+
    (fails 1/6) and Feel No Pain 5+ (the point gets through 4/6); the Guard has no save
    and would not matter: 5/6 x 1/6 x 4/6 = 5/54."""
    kinds = [kind("Guard"), kind("Leader", save=2, feel_no_pain=5, keywords=CHAR)]
    r = run(torrent(strength=8, abilities=["PRECISION"]), kinds)
    assert slain(r)["Leader"] == pytest.approx(5 / 54, **APPROX)
    assert r.expected_damage == pytest.approx(5 / 54, **APPROX)


def test_excess_damage_is_lost_at_each_model():
    """One D3 attack wounding with 1/2 against a W1 Guard then a W2 Leader: even a 3
    kills only the Guard (the excess is lost). Guard 1/2, Leader 0; wounds removed 1/2;
    damage inflicted before the loss: 1/2 x 2 = 1."""
    kinds = [kind("Guard"), kind("Leader", wounds=2, keywords=CHAR)]
    r = run(torrent(damage="D3"), kinds)
    assert slain(r) == pytest.approx({"Guard": 0.5, "Leader": 0.0}, **APPROX)
    assert r.expected_wounds_removed == pytest.approx(0.5, **APPROX)
    assert r.expected_damage == pytest.approx(1.0, **APPROX)
    assert r.damage is None and "damage" not in r.to_json()


# --- the unit's Toughness ----------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_attached_unit_uses_the_bodyguard_toughness(ruleset):
    """Guard T4, Leader T8. S4 attacks: attached, T4 (4+, 1/2); not attached, the highest
    T, 8 (S4 <= T/2: 6+, 1/6) (11e 05.02.01; 10e Leader for the attached unit)."""
    kinds = [kind("Guard", toughness=4), kind("Leader", toughness=8, keywords=CHAR)]
    assert run(torrent(), kinds, ruleset).groups[0].expected_wounds == pytest.approx(0.5, **APPROX)
    assert run(torrent(), kinds, ruleset, attached=False).groups[0].expected_wounds == pytest.approx(1 / 6, **APPROX)


def test_toughness_follows_the_models_alive_in_11e_not_in_10e():
    """Guard T4 (W1) with an attached T3 Leader; two weapon groups of one S4 attack each.
    11e 05.02.01 ('bodyguard models ... that are on the battlefield'): once the Guard is
    dead (1/2) the Leader's T3 applies, S4 > T3 wounds on 3+ (2/3): Leader 1/2 x 2/3 = 1/3.
    10e keeps the bodyguard's T4 for the attacking unit's attacks: 1/2 x 1/2 = 1/4."""
    kinds = [kind("Guard", toughness=4), kind("Leader", toughness=3, keywords=CHAR)]
    w = torrent()
    assert slain(run([(1, w), (1, w)], kinds, "11e"))["Leader"] == pytest.approx(1 / 3, **APPROX)
    assert slain(run([(1, w), (1, w)], kinds, "10e"))["Leader"] == pytest.approx(1 / 4, **APPROX)


# --- outputs ------------------------------------------------------------------------------------


def test_totals_and_by_model_agree():
    """The totals are the sums over kinds: models slain 0/1/2 and wounds removed match
    the per-kind distributions, and every distribution sums to 1."""
    kinds = [kind("Guard", count=3, wounds=2, save=4), kind("Leader", wounds=3, save=3, keywords=CHAR)]
    r = run([(5, inline(attacks=2, ap=-1, damage="D3", abilities=["PRECISION"]))], kinds)
    assert sum(r.models_slain) == pytest.approx(1.0, abs=1e-12)
    assert sum(m.expected_models_slain for m in r.by_model) == pytest.approx(r.expected_models_slain, **APPROX)
    for m in r.by_model:
        assert sum(m.models_slain) == pytest.approx(1.0, abs=1e-12)
        assert m.p_all_slain == m.models_slain[-1]
    assert r.p_wipe <= min(m.p_all_slain for m in r.by_model)


def test_kinds_all_alike_give_the_single_profile_numbers():
    """A unit listed as 1 Sergeant + 4 Marines with one profile is 5 alike models: the
    same distributions as the single-profile form, and by_model splits them in
    allocation order (the Sergeant is slain first)."""
    w = inline(attacks=3, ap=-1, damage=2, abilities=["SUSTAINED HITS 1"])
    single = evaluate(scenario([(5, w)], target={"toughness": 4, "save": 3, "wounds": 2, "models": 5}))
    kinds = [kind("Sergeant", save=3, wounds=2), kind("Marine", count=4, save=3, wounds=2)]
    r = run([(5, w)], kinds, attached=False)
    assert r.models_slain == pytest.approx(single.models_slain, **APPROX)
    assert r.wounds_removed == pytest.approx(single.wounds_removed, **APPROX)
    assert r.by_model[1].models_slain[4] == pytest.approx(single.models_slain[5], **APPROX)
    assert r.by_model[0].models_slain[1] == pytest.approx(1 - single.models_slain[0], **APPROX)


def test_single_profile_by_model_is_the_whole_unit():
    r = evaluate(scenario([(2, inline())], target={"toughness": 4, "save": 3, "wounds": 1, "models": 3}))
    [only] = r.by_model
    assert only.models_slain == r.models_slain and only.p_all_slain == r.p_wipe


# --- datasheets from the knowledge base ----------------------------------------------------------


@pytest.fixture(scope="module")
def export_kb():
    """The Wahapedia CSV fixture exports (the only source with model characteristics today)."""
    from warscribe.engine.kb import KnowledgeBase
    from warscribe.extract.wahapedia import load_export
    from warscribe.schema.bundle import from_records
    from warscribe.schema.diagnostics import Report

    records = []
    for edition in ("10e", "11e"):
        report = Report()
        records += load_export(ROOT / "tests" / "fixtures" / "wahapedia" / edition, edition, edition, report).records()
        assert report.errors == []
    return KnowledgeBase(from_records(records))


PALADINS_LED = {"ref": "Paladin Squad", "models": 5, "leader": "imperial-agents/inquisitor"}


def test_datasheet_target_reads_model_characteristics(export_kb):
    """Paladin Squad (1 Paragon, 3-9 Paladins: T5 Sv2+ 4++ W3) with 5 models, led by
    the Inquisitor (T3 Sv4+ W4, CHARACTER): 1 Paragon, 4 Paladins and the Inquisitor,
    an attached unit, the same numbers as the kinds written out."""
    w = inline(attacks=6, skill=2, strength=5, abilities=["PRECISION", "SUSTAINED HITS 1"])
    r = evaluate(scenario([(2, w)], target=PALADINS_LED, ruleset="11e"), kb=export_kb)
    assert [(m.name, m.count) for m in r.by_model] == [("Paragon", 1), ("Paladin", 4), ("Inquisitor", 1)]
    paladin = dict(toughness=5, save=2, invulnerable=4, wounds=3)
    kinds = [kind("Paragon", **paladin), kind("Paladin", count=4, **paladin),
             kind("Inquisitor", toughness=3, save=4, wounds=4, keywords=["CHARACTER"])]
    written = run([(2, w)], kinds, "11e")
    assert r.to_json() == written.to_json()
    assert r.groups[0].expected_wounds == pytest.approx(12 * (5 / 6 + 1 / 6) * 3 / 6, **APPROX)  # S5 vs T5: 4+


def test_datasheet_target_errors(export_kb):
    with pytest.raises(ScenarioError, match="say which ruleset"):
        evaluate(scenario([(1, inline())], target=PALADINS_LED, ruleset=None), kb=export_kb)
    with pytest.raises(ScenarioError, match=r"target.ref: datasheet 'grey-knights/paladin-squad' has 4-10 models "
                                            r"\(1 Paragon, 3-9 Paladins\), not 11"):
        evaluate(scenario([(1, inline())], target={**PALADINS_LED, "models": 11}, ruleset="11e"), kb=export_kb)
    with pytest.raises(ScenarioError, match="target.leader: datasheet 'grey-knights/paladin-squad' has no CHARACTER"):
        evaluate(scenario([(1, inline())], target={**PALADINS_LED, "leader": "Paladin Squad"}, ruleset="11e"),
                 kb=export_kb)
    with pytest.raises(ScenarioError, match="target.ref: unknown datasheet 'Paladin Squat'.*did you mean: Paladin Squad"):
        evaluate(scenario([(1, inline())], target={**PALADINS_LED, "ref": "Paladin Squat"}, ruleset="11e"), kb=export_kb)


def test_a_mistyped_name_two_factions_share_is_suggested_once():
    from engine_helpers import BUNDLE

    sheets = [{"id": f"{faction}/krieg-command-squad", "kind": "datasheet", "name": "Krieg Command Squad",
               "ruleset": "10e", "keywords": ["INFANTRY"], "faction_keywords": [], "composition": [], "abilities": []}
              for faction in ("astra-militarum", "genestealer-cults")]
    bundle = {"meta": {}, "data": {**BUNDLE["data"], "datasheet": sheets}}
    with pytest.raises(ScenarioError) as caught:
        evaluate(scenario([(1, inline())], target={"ref": "Krieg Comand Squad", "models": 5}), kb=bundle)
    hint = str(caught.value).split("did you mean: ")[1]
    assert hint.split(", ").count("Krieg Command Squad") == 1


def test_datasheet_from_text_pages_has_no_model_characteristics():
    from engine_helpers import BUNDLE

    sheet = {"id": "grey-knights/paladin-squad", "kind": "datasheet", "name": "Paladin Squad", "ruleset": "10e",
             "keywords": ["INFANTRY"], "faction_keywords": [], "composition": [], "abilities": []}
    bundle = {"meta": {}, "data": {**BUNDLE["data"], "datasheet": [sheet]}}
    with pytest.raises(ScenarioError, match="has no model characteristics in this build"):
        evaluate(scenario([(1, inline())], target={"ref": "Paladin Squad", "models": 5}), kb=bundle)


# --- the command line ---------------------------------------------------------------------------


def test_calc_reads_a_datasheet_target_from_the_bundle(capsys, tmp_path, export_kb):
    import json

    import yaml

    from warscribe.cli import main

    bundle = tmp_path / "warscribe.json"
    bundle.write_text(json.dumps({"meta": {}, "data": {"datasheet": export_kb.bundle.kind("datasheet"),
                                                       "weapon": export_kb.bundle.kind("weapon")}}), encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario([(2, "grey-knights/paladin-squad/psilencer")], target=PALADINS_LED,
                                            ruleset="11e")), encoding="utf-8")
    assert main(["calc", str(path), "--kb", str(bundle), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in data["by_model"]] == ["Paragon", "Paladin", "Inquisitor"]
    assert 0.0 < data["by_model"][2]["p_all_slain"] < 1.0 and "damage" not in data
    assert main(["calc", str(path), "--kb", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "1 x Inquisitor: CHARACTER T3 Sv4+ W4" in out and "Model kind" in out

    bad = scenario([(1, inline())], target={"models": [kind("Boss", keywords=CHAR), kind("Guard")],
                                            "allocation_order": ["Boss", "Guard"]})
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    assert main(["calc", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: target.allocation_order: CHARACTER 'Boss'") and "Traceback" not in err
