"""One test per rule, with the expected value derived by hand in the docstring."""

from __future__ import annotations

import pytest

from warscribe.engine import evaluate
from warscribe.engine.dist import dice, mean
from warscribe.engine.rules import d6_roll, wound_need
from engine_helpers import bundle_path, inline, scenario  # noqa: F401 (fixture)

APPROX = dict(rel=1e-12, abs=1e-12)
NO_SAVE = {"toughness": 4, "save": 7, "wounds": 1, "models": 20}


def run(*groups, target=None, **kw):
    return evaluate(scenario(list(groups), target=target, **kw))


def hits(*groups, **kw):
    return run(*groups, **kw).groups[0].expected_hits


def wounds(*groups, **kw):
    return run(*groups, **kw).groups[0].expected_wounds


# --- dice -------------------------------------------------------------------------


def test_dice_expressions():
    """D6 = 3.5, 2D6 = 7 (P(7) = 6/36), D3+1 = 3, D6+3 = 6.5; 0 is allowed."""
    assert mean(dice("D6")) == pytest.approx(3.5)
    assert dice("2D6")[7] == pytest.approx(6 / 36)
    assert mean(dice("D3+1")) == pytest.approx(3.0)
    assert mean(dice("D6+3")) == pytest.approx(6.5)
    assert dice(0) == [1.0]


def test_random_attacks_per_model():
    """2 models with D6 attacks each: 7 attacks expected; 2D6 attacks range 2..12."""
    r = run((2, inline(attacks="D6", abilities=["TORRENT"], skill=None)), target=NO_SAVE)
    assert r.groups[0].expected_attacks == pytest.approx(7.0)


# --- hit roll ---------------------------------------------------------------------


def test_hit_roll_basic():
    """BS 3+: faces 3-6 hit = 4/6; the 6 is a critical hit (1/6)."""
    r = d6_roll(3, 0)
    assert (r.fail, r.success + r.critical, r.critical) == pytest.approx((2 / 6, 4 / 6, 1 / 6))


def test_hit_modifiers_capped_and_one_always_fails():
    """BS 3+ with +2 is capped to +1: faces 2-6 hit (5/6), the unmodified 1 still fails.
    BS 6+ with -3 is capped to -1: only the critical 6 hits (1/6)."""
    assert hits((1, inline(skill=3)), modifiers={"hit": 2}) == pytest.approx(5 / 6)
    assert hits((1, inline(skill=6)), modifiers={"hit": -3}) == pytest.approx(1 / 6)


def test_critical_hit_threshold():
    """critical_hit 5 with [SUSTAINED HITS 1], BS 4+: hits = 3/6 + 2/6 (extra) = 5/6."""
    assert hits((1, inline(skill=4, abilities=["SUSTAINED HITS 1"])), modifiers={"critical_hit": 5}) == pytest.approx(5 / 6)


def test_torrent_hits_automatically_without_critical():
    """[TORRENT] with [SUSTAINED HITS 2]: every attack hits exactly once (01.05.01: an
    automatic success is not a critical hit), so hits = attacks = 3."""
    assert hits((1, inline(attacks=3, skill=None, abilities=["TORRENT", "SUSTAINED HITS 2"]))) == pytest.approx(3.0)


def test_heavy_when_stationary():
    """[HEAVY] BS 4+ stationary: +1, faces 3-6 hit = 4/6; moving: 3/6."""
    w = inline(skill=4, abilities=["HEAVY"])
    assert hits((1, w), conditions={"stationary": True}) == pytest.approx(4 / 6)
    assert hits((1, w)) == pytest.approx(3 / 6)


def test_reroll_hit_ones():
    """BS 3+ re-rolling 1s: 4/6 + 1/6 * 4/6 = 28/36."""
    assert hits((1, inline(skill=3)), modifiers={"reroll_hits": "ones"}) == pytest.approx(28 / 36)


def test_reroll_failed_hits_once_before_modifiers():
    """BS 4+ with -1 re-rolling failures: a face hits on 5-6 (2/6); failures (4/6) are
    re-rolled once: 2/6 + 4/6 * 2/6 = 20/36. Critical hits: 1/6 + 4/6 * 1/6 = 10/36,
    so [SUSTAINED HITS 1] adds 10/36 hits."""
    w = inline(skill=4, abilities=["SUSTAINED HITS 1"])
    assert hits((1, w), modifiers={"hit": -1, "reroll_hits": "failed"}) == pytest.approx(30 / 36)


# --- wound roll -------------------------------------------------------------------


@pytest.mark.parametrize(
    "s,t,need",
    [(8, 4, 2), (9, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (3, 6, 6), (4, 7, 5), (1, 2, 6)],
)
def test_wound_table(s, t, need):
    """S >= 2T: 2+; S > T: 3+; S = T: 4+; S <= T/2: 6+; otherwise 5+."""
    assert wound_need(s, t) == need


def test_wound_modifier_capped():
    """S4 vs T4 (4+) with +3 capped to +1: faces 3-6 wound = 4/6."""
    assert wounds((1, inline(skill=None)), modifiers={"wound": 3}) == pytest.approx(4 / 6)


def test_anti_keyword():
    """S4 vs T5 wounds on 5+ (2/6); [ANTI-INFANTRY 4+] against INFANTRY: 4+ is a critical
    wound, so 3/6; against a target without the keyword: 2/6."""
    w = inline(skill=None, abilities=["ANTI-INFANTRY 4+"])
    inf = {"toughness": 5, "save": 7, "wounds": 1, "models": 5, "keywords": ["INFANTRY"]}
    veh = dict(inf, keywords=["VEHICLE"])
    assert wounds((1, w), target=inf) == pytest.approx(3 / 6)
    assert wounds((1, w), target=veh) == pytest.approx(2 / 6)


def test_twin_linked_rerolls_failed_wounds():
    """S4 vs T4 [TWIN-LINKED]: 3/6 + 3/6 * 3/6 = 27/36."""
    assert wounds((1, inline(skill=None, abilities=["TWIN-LINKED"]))) == pytest.approx(27 / 36)


def test_reroll_wound_ones():
    """S4 vs T4 re-rolling wound 1s: 3/6 + 1/6 * 3/6 = 21/36."""
    assert wounds((1, inline(skill=None)), modifiers={"reroll_wounds": "ones"}) == pytest.approx(21 / 36)


def test_lance_on_the_charge():
    """[LANCE] S4 vs T4: charged +1, faces 3-6 = 4/6; not charged 3/6."""
    w = inline(skill=3, range=None, abilities=["LANCE"])
    assert wounds((1, w), conditions={"charged": True}) == pytest.approx(4 / 6 * 4 / 6)
    assert wounds((1, w)) == pytest.approx(4 / 6 * 3 / 6)


def test_critical_wound_threshold_and_devastating():
    """critical_wound 5 with [DEVASTATING WOUNDS], S4 vs T4, Sv 2+ AP0 against T4 W1 x 10.
    Per hit: critical (5-6) 2/6 -> mortal wounds; face 4 (1/6) -> save 2+ fails 1/6.
    Unsaved events = 2/6 + 1/36 = 13/36."""
    r = run((1, inline(skill=None, abilities=["DEVASTATING WOUNDS"])),
            target={"toughness": 4, "save": 2, "wounds": 1, "models": 10}, modifiers={"critical_wound": 5})
    assert r.groups[0].expected_unsaved == pytest.approx(13 / 36)
    assert r.expected_wounds_removed == pytest.approx(13 / 36)


# --- sustained / lethal -----------------------------------------------------------


def test_sustained_and_lethal_on_the_same_critical():
    """BS 4+, S4 vs T4, [SUSTAINED HITS 1] + [LETHAL HITS]. Normal hits (faces 4-5, 2/6)
    wound on 3/6; the critical (1/6) wounds automatically and its extra hit rolls to
    wound (3/6): wounds = 2/6 * 1/2 + 1/6 * (1 + 1/2) = 5/12. Extra hits do not gain
    [LETHAL HITS] (that would give 1/6 * 2 = 2/6 for the critical instead)."""
    w = inline(skill=4, abilities=["SUSTAINED HITS 1", "LETHAL HITS"])
    assert wounds((1, w)) == pytest.approx(5 / 12)


def test_sustained_hits_dice():
    """[SUSTAINED HITS D3], BS 4+: hits = 3/6 + 1/6 * 2 = 5/6."""
    assert hits((1, inline(skill=4, abilities=["SUSTAINED HITS D3"]))) == pytest.approx(5 / 6)


def test_lethal_hits_cannot_be_devastating():
    """BS 4+, S4 vs T4, Sv 7 (no save), [LETHAL HITS] + [DEVASTATING WOUNDS] against W1
    models. Critical hit (1/6): automatic wound, not critical, so normal damage (no
    devastating wound). Normal hit (faces 4-5, 2/6), S4 vs T4: face 6 is a critical
    wound -> devastating (1/6), faces 4-5 wound normally (2/6); with no save both
    remove a model. Unsaved events per attack = 1/6 + 2/6 * 3/6 = 1/3."""
    w = inline(skill=4, abilities=["LETHAL HITS", "DEVASTATING WOUNDS"])
    r = run((1, w), target={"toughness": 4, "save": 7, "wounds": 1, "models": 5})
    assert r.groups[0].expected_unsaved == pytest.approx(1 / 3)


# --- saves ------------------------------------------------------------------------


def test_armour_save_with_ap():
    """Sv 3+ against AP-1: saves on 4+ (3/6); an auto-hitting S8 vs T4 attack wounds on
    2+ (5/6): unsaved = 5/6 * 3/6 = 5/12."""
    r = run((1, inline(skill=None, strength=8, ap=-1)), target={"toughness": 4, "save": 3, "wounds": 1, "models": 5})
    assert r.groups[0].expected_unsaved == pytest.approx(5 / 12)


def test_invulnerable_save_used_when_better():
    """Sv 3+ 4+ invulnerable against AP-3: armour would need 6+ (1/6), invulnerable 4+
    (3/6) is used: unsaved = 5/6 * 3/6 = 5/12; against AP0 armour 3+ (4/6) is better:
    5/6 * 2/6 = 5/18."""
    tgt = {"toughness": 4, "save": 3, "invulnerable": 4, "wounds": 1, "models": 5}
    assert run((1, inline(skill=None, strength=8, ap=-3)), target=tgt).groups[0].expected_unsaved == pytest.approx(5 / 12)
    assert run((1, inline(skill=None, strength=8, ap=0)), target=tgt).groups[0].expected_unsaved == pytest.approx(5 / 18)


def test_unmodified_save_of_one_fails():
    """10e, Sv 2+ in cover against AP-1: -1 +1 = 0, so 2+; the unmodified 1 still fails:
    unsaved = 5/6 (wound) * 1/6 = 5/36."""
    r = run((1, inline(skill=None, strength=8, ap=-1)), target={"toughness": 4, "save": 2, "wounds": 1, "models": 5},
            ruleset="10e", conditions={"cover": True})
    assert r.groups[0].expected_unsaved == pytest.approx(5 / 36)


def test_cover_10e():
    """10e Benefit of Cover: +1 to the armour save. Sv 4+ AP0 in cover saves on 3+:
    unsaved = 5/6 * 2/6 = 10/36. Sv 3+ against AP0 gets no cover (2/6 fails: 10/36).
    Sv 3+ AP-1 in cover: 3+ again (10/36) instead of 4+ (15/36). [IGNORES COVER]:
    Sv 4+ AP0 fails 3/6: 15/36. Melee attacks never get it."""
    def unsaved(save, ap, abilities=(), cover=True, rng=24):
        w = inline(skill=None, strength=8, ap=ap, abilities=abilities, range=rng)
        tgt = {"toughness": 4, "save": save, "wounds": 1, "models": 5}
        return run((1, w), target=tgt, ruleset="10e", conditions={"cover": cover}).groups[0].expected_unsaved
    assert unsaved(4, 0) == pytest.approx(10 / 36)
    assert unsaved(3, 0) == pytest.approx(10 / 36)
    assert unsaved(3, -1) == pytest.approx(10 / 36)
    assert unsaved(3, -1, cover=False) == pytest.approx(15 / 36)
    assert unsaved(4, 0, abilities=["IGNORES COVER"]) == pytest.approx(15 / 36)
    assert unsaved(4, 0, rng=None) == pytest.approx(15 / 36)


def test_cover_10e_does_not_help_invulnerable():
    """Sv 6+ 5+ invulnerable, AP-2, cover: armour 6+ -2 +1 -> 7+ (0), invulnerable 5+
    (2/6) unchanged: unsaved = 5/6 * 4/6 = 20/36."""
    tgt = {"toughness": 4, "save": 6, "invulnerable": 5, "wounds": 1, "models": 5}
    r = run((1, inline(skill=None, strength=8, ap=-2)), target=tgt, ruleset="10e", conditions={"cover": True})
    assert r.groups[0].expected_unsaved == pytest.approx(20 / 36)


def test_cover_11e_worsens_bs():
    """11e 13.08: cover worsens BS by 1. BS 3+ becomes 4+: hits 3/6 (not 4/6); the save
    is untouched. [IGNORES COVER]: 4/6. [PSYCHIC] may ignore the BS modifier: 4/6.
    In 10e the same cover leaves hits at 4/6."""
    assert hits((1, inline(skill=3)), conditions={"cover": True}) == pytest.approx(3 / 6)
    assert hits((1, inline(skill=3, abilities=["IGNORES COVER"])), conditions={"cover": True}) == pytest.approx(4 / 6)
    assert hits((1, inline(skill=3, abilities=["PSYCHIC"])), conditions={"cover": True}) == pytest.approx(4 / 6)
    assert hits((1, inline(skill=3)), conditions={"cover": True}, ruleset="10e") == pytest.approx(4 / 6)


def test_psychic_ignores_negative_hit_modifiers_in_11e_only():
    """[PSYCHIC] BS 3+ with -1: 11e ignores it (4/6); 10e applies it (3/6)."""
    w = inline(skill=3, abilities=["PSYCHIC"])
    assert hits((1, w), modifiers={"hit": -1}) == pytest.approx(4 / 6)
    assert hits((1, w), modifiers={"hit": -1}, ruleset="10e") == pytest.approx(3 / 6)


# --- attacks ----------------------------------------------------------------------


def test_rapid_fire_at_half_range():
    """[RAPID FIRE 2], A2: 4 attacks at half range, 2 otherwise; melee never."""
    w = inline(attacks=2, abilities=["RAPID FIRE 2"])
    assert run((3, w), conditions={"half_range": True}).groups[0].expected_attacks == pytest.approx(12)
    assert run((3, w)).groups[0].expected_attacks == pytest.approx(6)


def test_blast_10e_and_11e():
    """[BLAST] D6 against 11 models: +2 (10e, 11e): 5.5. [BLAST 2] against 12 models
    (11e 24.05 example, A3): 3 + 2*2 = 7."""
    t11 = {"toughness": 4, "save": 3, "wounds": 1, "models": 11}
    t12 = dict(t11, models=12)
    assert run((1, inline(attacks="D6", abilities=["BLAST"])), target=t11, ruleset="10e").groups[0].expected_attacks == pytest.approx(5.5)
    assert run((1, inline(attacks="D6", abilities=["BLAST"])), target=t11).groups[0].expected_attacks == pytest.approx(5.5)
    assert run((1, inline(attacks=3, abilities=["BLAST 2"])), target=t12).groups[0].expected_attacks == pytest.approx(7)


def test_cleave_11e():
    """[CLEAVE 1] with A3 against 16 models (the rule's own example): 3 + 3*1 = 6 attack
    dice; [CLEAVE 2] against 9 models: 3 + 2 = 5."""
    assert run((1, inline(attacks=3, abilities=["CLEAVE 1"])), target={"toughness": 4, "save": 3, "wounds": 1, "models": 16}).groups[0].expected_attacks == pytest.approx(6)
    assert run((1, inline(attacks=3, abilities=["[CLEAVE 2]"])), target={"toughness": 4, "save": 3, "wounds": 1, "models": 9}).groups[0].expected_attacks == pytest.approx(5)


# --- damage -----------------------------------------------------------------------


def test_melta_at_half_range():
    """[MELTA 2] D6: mean damage 5.5 at half range, 3.5 otherwise (auto-hit S16 vs T4
    wounds 5/6, Sv 7): expected damage = 5/6 * 5.5 and 5/6 * 3.5."""
    w = inline(skill=None, strength=16, damage="D6", abilities=["MELTA 2"])
    tgt = {"toughness": 4, "save": 7, "wounds": 20, "models": 1}
    assert run((1, w), target=tgt, conditions={"half_range": True}).expected_damage == pytest.approx(5 / 6 * 5.5)
    assert run((1, w), target=tgt).expected_damage == pytest.approx(5 / 6 * 3.5)


def test_feel_no_pain_per_point():
    """D3 damage, FNP 5+, one model W10, auto-hit S8 (5/6), Sv 7: each point is lost
    with 4/6: expected = 5/6 * 2 * 4/6 = 10/9; P(0 wounds) = 1/6 + 5/6 * (1/3*(2/6) +
    1/3*(2/6)^2 + 1/3*(2/6)^3)."""
    w = inline(skill=None, strength=8, damage="D3")
    tgt = {"toughness": 4, "save": 7, "wounds": 10, "models": 1, "feel_no_pain": 5}
    r = run((1, w), target=tgt)
    assert r.expected_wounds_removed == pytest.approx(10 / 9)
    q = 2 / 6
    assert r.wounds_removed[0] == pytest.approx(1 / 6 + 5 / 6 * (q + q**2 + q**3) / 3)


def test_excess_damage_is_lost():
    """One D6+6 attack (auto-hit, S8 2+ 5/6, no save) against W2 models: at most one model
    dies, 2 wounds; expected wounds removed = 5/6 * 2; damage before loss = 5/6 * 9.5."""
    w = inline(skill=None, strength=8, damage="D6+6")
    r = run((1, w), target={"toughness": 4, "save": 7, "wounds": 2, "models": 5})
    assert r.expected_wounds_removed == pytest.approx(5 / 6 * 2)
    assert r.expected_models_slain == pytest.approx(5 / 6)
    assert r.expected_damage == pytest.approx(5 / 6 * 9.5)


def test_wounded_model_takes_the_next_attack():
    """Two certain D2 wounds on W3 models: the first leaves a model on 1 wound, the second
    must go to it and kills it (1 point lost): exactly 1 model and 3 wounds."""
    w = inline(attacks=2, skill=None, strength=8, damage=2)
    r = run((1, w), target={"toughness": 4, "save": 7, "wounds": 3, "models": 3}, modifiers={"wound": 1})
    # S8 vs T4 wounds on 2+; +1 cannot beat the unmodified 1, so condition on both wounding.
    p2 = (5 / 6) ** 2
    assert r.wounds_removed[4] == 0.0 and r.models_slain[2] == 0.0
    assert r.wounds_removed[3] == pytest.approx(p2)
    assert r.models_slain[1] == pytest.approx(p2)


def test_devastating_wounds_damage_one_model_each():
    """[DEVASTATING WOUNDS] D6 against W1 models with critical_wound 2: each critical wound
    (5/6) slays one model, the other mortal wounds are lost (24.10)."""
    w = inline(attacks=1, skill=None, damage="D6", abilities=["DEVASTATING WOUNDS"])
    r = run((1, w), target={"toughness": 4, "save": 2, "wounds": 1, "models": 5}, modifiers={"critical_wound": 2})
    assert r.expected_models_slain == pytest.approx(5 / 6)
    assert r.models_slain[2] == 0.0


def test_devastating_wounds_timing_10e_vs_11e():
    """Target 2 models W2. Group 1: torrent [DEVASTATING WOUNDS] D2, critical_wound 2, so
    a mortal-wound packet with 5/6. Group 2: torrent S8 D1, no save: 1 damage with 5/6.
    11e: the packet resolves after its own group: it kills a fresh model (2), then the
    normal wound takes 1 from the next: both -> 3 wounds. 10e: the packet waits for the
    unit's other attacks: the normal wound first (1), then the packet can only finish
    that model (1 more, the rest lost): both -> 2 wounds.
    E[11e] = 5/6*2 + 5/6*1 = 5/2; E[10e] = 25/36*2 + 5/36*2 + 5/36*1 = 65/36."""
    dev = inline(skill=None, strength=8, damage=2, abilities=["DEVASTATING WOUNDS"])
    plain = inline(skill=None, strength=8, damage=1)
    tgt = {"toughness": 4, "save": 7, "wounds": 2, "models": 2}
    mods = {"critical_wound": 2}
    assert run((1, dev), (1, plain), target=tgt, modifiers=mods).expected_wounds_removed == pytest.approx(5 / 2)
    assert run((1, dev), (1, plain), target=tgt, modifiers=mods, ruleset="10e").expected_wounds_removed == pytest.approx(65 / 36)


def test_devastating_condition_keyword():
    """DEVASTATING WOUNDS: INFANTRY only applies against INFANTRY: against a VEHICLE a 6 to
    wound is an ordinary wound and the 2+ save applies (S8 vs T4: 5/6 wound, 1/6
    unsaved = 5/36); against INFANTRY the 6 (1/6) skips the save: 1/6 + 4/6 * 1/6 = 10/36."""
    w = inline(skill=None, strength=8, abilities=["DEVASTATING WOUNDS: INFANTRY"])
    veh = {"toughness": 4, "save": 2, "wounds": 1, "models": 5, "keywords": ["VEHICLE"]}
    inf = dict(veh, keywords=["INFANTRY"])
    assert run((1, w), target=veh).groups[0].expected_unsaved == pytest.approx(5 / 36)
    assert run((1, w), target=inf).groups[0].expected_unsaved == pytest.approx(10 / 36)


# --- hazardous --------------------------------------------------------------------


def test_hazardous_10e():
    """10e: one test per weapon, fails on a 1, 3 mortal wounds: 5 models -> 5 * 1/6 * 3 = 2.5."""
    r = run((5, inline(abilities=["HAZARDOUS"])), ruleset="10e")
    assert r.attacker_mortal_wounds == pytest.approx(2.5)


def test_hazardous_11e():
    """11e 06.03: fails on 1-2 (1/3), 1 mortal wound: 5 models -> 5/3; a VEHICLE unit takes
    3 per failure: 5."""
    assert run((5, inline(abilities=["HAZARDOUS"]))).attacker_mortal_wounds == pytest.approx(5 / 3)
    r = run((5, inline(abilities=["HAZARDOUS"])), keywords=["VEHICLE"])
    assert r.attacker_mortal_wounds == pytest.approx(5.0)


def test_no_hazardous_key_without_hazardous_weapons():
    r = run((1, inline()))
    assert r.attacker_mortal_wounds is None
    assert "attacker_mortal_wounds" not in r.to_json()


# --- ruleset default --------------------------------------------------------------


def test_ruleset_defaults(bundle_path):
    """Inline weapons only: 11e (current edition). A 10e record referenced: 10e."""
    s = scenario([(1, inline())], ruleset=None)
    assert evaluate(s).ruleset == "11e"
    s = scenario([(1, "Psilencer")], ruleset=None)
    assert evaluate(s, kb=bundle_path).ruleset == "10e"
    s = scenario([(1, "Psilencer")], ruleset="11e")
    assert evaluate(s, kb=bundle_path).ruleset == "11e"


def test_every_distribution_sums_to_one():
    r = run((3, inline(attacks="D6", damage="D3", abilities=["SUSTAINED HITS 1", "DEVASTATING WOUNDS"])),
            (2, inline(attacks=4, damage=2)), target={"toughness": 4, "save": 4, "wounds": 3, "models": 5, "feel_no_pain": 6},
            ruleset="10e")
    for d in (r.models_slain, r.wounds_removed, r.damage):
        assert sum(d) == pytest.approx(1.0, abs=1e-9)
