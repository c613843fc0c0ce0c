"""One hand-made list per rule: a legal list passes clean; each breaks one rule and gets that rule's finding, on its line."""

from __future__ import annotations

import pytest

from roster_helpers import KB10, KB11, app_list, check_list, code_set, codes, finding

BERZERKERS = """Khorne Berzerkers (180 points)
  • 1x Khorne Berzerker Champion
    • 1x Chainblade
  • 9x Khorne Berzerker
    • 9x Chainblade"""

LEGAL = f"""CHARACTERS

Master of Executions (95 points)
  • Warlord
  • 1x Axe of dismemberment
  • Enhancement: Berzerker Glaive

Slaughterbound (115 points)
  • 1x Lacerator and daemonic claw
  • Enhancement: Favoured of Khorne


BATTLELINE

{BERZERKERS}


DEDICATED TRANSPORTS

Chaos Rhino (85 points)
  • 1x Armoured tracks
"""


def test_a_legal_list_has_no_findings():
    result = check_list(app_list(LEGAL, title="Legal (475 points)"))
    assert codes(result) == [] and result.unchecked == []
    assert result.prices.kb_total == result.prices.declared_sum == 475
    assert [u.datasheet.record["id"] for u in result.resolution.units] == [
        "world-eaters/master-of-executions", "world-eaters/slaughterbound", "world-eaters/khorne-berzerkers",
        "world-eaters/chaos-rhino"]


def test_points_per_unit_size_old_to_new():
    text = app_list(LEGAL.replace("Chaos Rhino (85 points)", "Chaos Rhino (75 points)"), title="Old (465 points)")
    result = check_list(text)
    f = finding(result, "roster-points")
    assert f.diagnostic.line == text.splitlines().index("Chaos Rhino (75 points)") + 1
    assert "declared 75 -> 85" in f.diagnostic.message and "Muster Your Army" in f.rule
    total = [x for x in result.findings if x.diagnostic.code == "roster-total"]
    assert any("465 -> 475" in t.diagnostic.message for t in total)


def test_points_for_the_larger_size():
    big = BERZERKERS.replace("(180 points)", "(360 points)").replace("9x Khorne Berzerker\n", "19x Khorne Berzerker\n")
    result = check_list(app_list(LEGAL.replace(BERZERKERS, big), title="Big (655 points)"))
    assert "roster-points" not in code_set(result)
    assert result.prices.units[2].models == 20 and result.prices.units[2].kb == 360


def test_declared_total_that_does_not_add_up():
    result = check_list(app_list(LEGAL, title="Wrong (500 points)"))
    f = finding(result, "roster-total")
    assert f.diagnostic.line == 1 and "declares 500" in f.diagnostic.message and "475" in f.diagnostic.message


def test_total_over_the_battle_size():
    text = app_list(LEGAL, title="Small (475 points)", size="Incursion (400 points)")
    f = finding(check_list(text), "roster-points-limit")
    assert f.diagnostic.line == 4 and f.diagnostic.found == "475" and "Incursion 1000" in f.rule
    assert "over the Incursion limit of 400" in f.diagnostic.message


def test_unit_size_outside_the_composition():
    small = BERZERKERS.replace("9x Khorne Berzerker\n", "4x Khorne Berzerker\n")
    text = app_list(LEGAL.replace(BERZERKERS, small), title="T (475 points)")
    f = finding(check_list(text), "roster-unit-size")
    assert f.diagnostic.line == text.splitlines().index("Khorne Berzerkers (180 points)") + 1
    assert "5 models" in f.diagnostic.message and "10-20" in f.diagnostic.message and "Unit Composition" in f.rule


def _maulerfiends(n: int) -> str:
    return "\n\n".join(["Maulerfiend (145 points)\n  • 2x Magma cutter"] * n)


def test_rule_of_three():
    text = app_list(LEGAL + "\n\nOTHER DATASHEETS\n\n" + _maulerfiends(4), title=f"T ({475 + 4 * 145} points)",
                    size="Onslaught (3000 points)")
    result = check_list(text)
    f = finding(result, "roster-datasheet-limit")
    fourth = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith("Maulerfiend")][3]
    assert f.diagnostic.line == fourth and "3 times" in f.diagnostic.message and "at most 3" in f.rule
    assert "roster-datasheet-limit" not in code_set(check_list(app_list(
        LEGAL + "\n\nOTHER DATASHEETS\n\n" + _maulerfiends(3), title=f"T ({475 + 3 * 145} points)")))


def test_six_dedicated_transports_but_not_seven():
    rhinos = lambda n: "\n\n".join(["Chaos Rhino (85 points)\n  • 1x Armoured tracks"] * n)  # noqa: E731
    ok = check_list(app_list(LEGAL + "\n\n" + rhinos(5), title=f"T ({475 + 5 * 85} points)"))
    assert "roster-datasheet-limit" not in code_set(ok)
    bad = check_list(app_list(LEGAL + "\n\n" + rhinos(6), title=f"T ({475 + 6 * 85} points)"))
    assert "DEDICATED TRANSPORT" in finding(bad, "roster-datasheet-limit").diagnostic.message


def test_an_epic_hero_once():
    kharn = "Khârn the Betrayer (100 points)\n  • 1x Gorechild"
    f = finding(check_list(app_list(LEGAL + "\n\n" + kharn + "\n\n" + kharn, title="T (675 points)")),
                "roster-datasheet-limit")
    assert "EPIC HERO" in f.diagnostic.message and "1 time" in f.diagnostic.message


def test_eleventh_edition_limits_at_incursion():
    text = app_list(LEGAL + "\n\nOTHER DATASHEETS\n\n" + _maulerfiends(3), title=f"T ({475 + 3 * 145} points)",
                    size="Incursion (1000 points)", detachment="Berzerker Warband (2 Detachment Points)",
                    version="v2.0.5 (128)")
    result = check_list(text, [KB11])
    assert result.resolution.ruleset == "11e"
    f = finding(result, "roster-unit-limit")  # 11e: the limit read from the core rules' table
    assert "2 times" in f.diagnostic.message and "Incursion" in f.diagnostic.message and "25.03" in f.rule


def test_enhancement_of_another_detachment():
    text = app_list(LEGAL.replace("Enhancement: Berzerker Glaive", "Enhancement: Wrathful Mark")
                    .replace("(95 points)", "(80 points)"), title="T (460 points)")
    f = finding(check_list(text), "roster-enhancement-detachment")
    assert f.diagnostic.line == text.splitlines().index("  • Enhancement: Wrathful Mark") + 1
    assert "Vessels of Wrath" in f.diagnostic.message and "Berzerker Warband" in f.diagnostic.expected


def test_enhancement_on_a_unit_that_is_not_a_character():
    text = app_list(LEGAL + "\n\nMaulerfiend (155 points)\n  • 2x Magma cutter\n  • Enhancement: Battle-lust",
                    title="T (630 points)")
    f = finding(check_list(text), "roster-enhancement-bearer")
    assert "not a CHARACTER" in f.diagnostic.message and "CHARACTER" in f.rule


def test_enhancement_on_an_epic_hero():
    text = app_list(LEGAL + "\n\nKhârn the Betrayer (110 points)\n  • 1x Gorechild\n  • Enhancement: Battle-lust",
                    title="T (585 points)")
    f = finding(check_list(text), "roster-enhancement-bearer")
    assert "EPIC HERO" in f.diagnostic.message


def test_enhancement_restriction_not_met():
    swapped = LEGAL.replace("Enhancement: Berzerker Glaive", "Enhancement: Favoured of Khorne!") \
        .replace("  • Enhancement: Favoured of Khorne\n", "  • Enhancement: Berzerker Glaive\n") \
        .replace("Favoured of Khorne!", "Favoured of Khorne").replace("(95 points)", "(75 points)") \
        .replace("(115 points)", "(135 points)")
    f = finding(check_list(app_list(swapped, title="T (475 points)")), "roster-enhancement-bearer")
    assert "Master of Executions may not take Favoured of Khorne" in f.diagnostic.message
    assert "DAEMON" in f.diagnostic.expected


def test_two_enhancements_on_one_unit():
    text = app_list(LEGAL.replace("  • Enhancement: Berzerker Glaive", "  • Enhancement: Berzerker Glaive\n"
                                  "  • Enhancement: Battle-lust").replace("(95 points)", "(105 points)"),
                    title="T (485 points)")
    f = finding(check_list(text), "roster-enhancement-count")
    assert f.diagnostic.line == text.splitlines().index("  • Enhancement: Battle-lust") + 1
    assert "2 enhancements" in f.diagnostic.message


def test_one_enhancement_twice():
    second = "\n\nMaster of Executions (95 points)\n  • 1x Axe of dismemberment\n  • Enhancement: Berzerker Glaive"
    f = finding(check_list(app_list(LEGAL + second, title="T (570 points)")), "roster-enhancement-count")
    assert "taken 2 times" in f.diagnostic.message


def test_more_enhancements_than_the_army_may_have():
    extra = ("\n\nMaster of Executions (70 points)\n  • 1x Axe of dismemberment\n  • Enhancement: Battle-lust"
             "\n\nMaster of Executions (95 points)\n  • 1x Axe\n  • Enhancement: Wrathful Mark")
    result = check_list(app_list(LEGAL + extra, title="T (640 points)", detachment="Berzerker Warband"))
    f = [x for x in result.findings if x.diagnostic.code == "roster-enhancement-count"]
    assert any("4 enhancements" in x.diagnostic.message and x.diagnostic.expected == "at most 3" for x in f)


ATTACHED = """Attached Units
Attached Unit 1

{leader}
• Attached as: Leader (Character)
  • Warlord
  • 1x Axe of dismemberment

{guard}
• Attached as: Bodyguard
  • 1x Exalted Eightbound Champion
    • 1x Chainblades
  • 2x Exalted Eightbound
    • 2x Chainblades
"""


def _eleventh(units: str, title: str) -> str:
    return app_list(units, title=title, detachment="Berzerker Warband (3 Detachment Points)",
                    version="v2.0.5 (128)")


def test_leader_attached_to_a_unit_it_cannot_lead():
    text = _eleventh(ATTACHED.format(leader="Master of Executions (60 points)", guard="Exalted Eightbound (140 points)"),
                     "T (200 points)")
    result = check_list(text, [KB11])
    f = finding(result, "roster-attachment")  # 11e: Leader and Support lists alike
    assert f.diagnostic.line == text.splitlines().index("Master of Executions (60 points)") + 1
    assert "Leader list names Khorne Berzerkers" in f.diagnostic.message and "24.22" in f.rule
    ok = _eleventh(ATTACHED.format(leader="Slaughterbound (100 points)", guard="Exalted Eightbound (140 points)"),
                   "T (240 points)")
    assert "roster-attachment" not in code_set(check_list(ok, [KB11]))


def test_two_leaders_on_one_bodyguard():
    two = ATTACHED.format(leader="Slaughterbound (100 points)", guard="Exalted Eightbound (140 points)").replace(
        "\nExalted Eightbound (140 points)",
        "\nSlaughterbound (100 points)\n• Attached as: Leader (Character)\n  • 1x Claw\n\nExalted Eightbound (140 points)")
    result = check_list(_eleventh(two, "T (340 points)"), [KB11])
    assert "two leader units" in finding(result, "roster-attachment").diagnostic.message


def test_no_warlord():
    f = finding(check_list(app_list(LEGAL.replace("  • Warlord\n", ""), title="T (475 points)")), "roster-warlord")
    assert f.diagnostic.line == 1 and "no Warlord" in f.diagnostic.message and "Warlord" in f.rule


def test_two_warlords():
    text = app_list(LEGAL.replace("  • 1x Lacerator", "  • Warlord\n  • 1x Lacerator"), title="T (475 points)")
    f = finding(check_list(text), "roster-warlord")
    assert "second Warlord" in f.diagnostic.message
    assert f.diagnostic.line == text.splitlines().index("Slaughterbound (115 points)") + 1


def test_a_warlord_that_is_not_a_character():
    text = app_list(LEGAL.replace("  • Warlord\n", "").replace("  • 1x Armoured tracks", "  • Warlord\n  • 1x Armoured tracks"),
                    title="T (475 points)")
    assert "is not a CHARACTER" in finding(check_list(text), "roster-warlord").diagnostic.message


def test_detachment_points_over_the_battle_size():
    text = app_list(LEGAL, title="T (475 points)", detachment="Berzerker Warband and Cult of Blood (4 Detachment Points)",
                    version="v2.0.5 (128)")
    result = check_list(text, [KB11])
    assert [m.record["id"] for m in result.resolution.detachments] == ["world-eaters/berzerker-warband",
                                                                      "world-eaters/cult-of-blood"]
    f = finding(result, "roster-detachment-points")
    assert f.diagnostic.line == 5 and "Strike Force allows 3" in f.diagnostic.message and "Detachment Points" in f.rule


def test_a_unit_of_another_faction():
    text = app_list(LEGAL + "\n\nChaos Lord (90 points)\n  • 1x Sword", title="T (565 points)")
    f = finding(check_list(text), "roster-outside-faction")
    assert "Chaos Space Marines" in f.diagnostic.message
    allied = app_list(LEGAL + "\n\nALLIED UNITS\n\nChaos Lord (90 points)\n  • 1x Sword", title="T (565 points)")
    result = check_list(allied)
    assert "roster-outside-faction" not in code_set(result) and result.roster.units[-1].allied


def test_the_armys_faction_chooses_between_records_of_one_name():
    result = check_list(app_list(LEGAL, title="T (475 points)"))
    assert result.resolution.units[3].datasheet.record["id"] == "world-eaters/chaos-rhino"
    lost = check_list(app_list(LEGAL, title="T (475 points)", faction="Nobody"))
    assert "roster-unresolved" in code_set(lost)  # the faction line
    # The faction inferred from the units that belong to one faction only; the Rhino then resolves.
    assert lost.resolution.army == {"World Eaters"} and lost.resolution.units[3].datasheet.ok


def test_unresolved_names_give_the_line_and_the_nearest_names():
    text = app_list(LEGAL.replace("Chaos Rhino (85 points)", "Chaos Rhyno (85 points)"), title="T (475 points)")
    f = finding(check_list(text), "roster-unresolved")
    assert f.diagnostic.line == text.splitlines().index("Chaos Rhyno (85 points)") + 1
    assert "nearest: 'Chaos Rhino'" in f.diagnostic.message


def test_no_substring_guess():
    text = app_list(LEGAL.replace("Chaos Rhino (85 points)", "Rhino (85 points)"), title="T (475 points)")
    result = check_list(text)
    assert not result.resolution.units[3].datasheet.ok and "roster-unresolved" in code_set(result)


@pytest.mark.parametrize("spelling", ["KHARN THE BETRAYER", "Kharn the Betrayer", "Khârn the Betrayer [Legends]",
                                      "Khârn  the\u00a0Betrayer", "Khârn the Betrayer (Legends)"])
def test_names_fold_case_accents_spaces_and_legends(spelling):
    text = app_list(LEGAL + f"\n\n{spelling} (100 points)\n  • 1x Gorechild", title="T (575 points)")
    ur = check_list(text).resolution.units[-1]
    assert ur.datasheet.record["id"] == "world-eaters/kharn-the-betrayer" and ur.datasheet.via == "name"


def test_a_known_rename_resolves_through_the_alias_table():
    text = app_list(LEGAL + "\n\nALLIED UNITS\n\nThe Emperor's Champion (95 points)\n  • 1x Sword",
                    title="T (570 points)")
    result = check_list(text)
    ur = result.resolution.units[-1]
    assert ur.datasheet.record["id"] == "black-templars/emperors-champion" and ur.datasheet.via == "alias"
    f = finding(result, "roster-renamed")
    assert "ca2f-f408-c1bd-b87f" in f.diagnostic.message  # the reason: the BattleScribe entry id


def test_an_unstated_edition_is_decided_by_the_builds_and_said():
    nr = ("+++++++++++++++++++++++++++++++++++++++++++++++\n+ FACTION KEYWORD: Chaos - World Eaters\n"
          "+ DETACHMENT: Berzerker Warband\n+ TOTAL ARMY POINTS: 85pts\n"
          "+++++++++++++++++++++++++++++++++++++++++++++++\n\n1x Chaos Rhino (85 pts): Armoured tracks, Warlord\n")
    result = check_list(nr, [KB10, KB11])
    f = finding(result, "roster-edition")
    assert "does not say its edition" in f.diagnostic.message and result.resolution.ruleset in ("10e", "11e")
    assert check_list(nr, [KB10, KB11], edition="11e").resolution.ruleset == "11e"
    none = check_list(app_list(LEGAL, title="T (475 points)", version="v2.0.5 (128)"), [KB10])
    assert "no-knowledge-base" in code_set(none) and none.resolution is None


def test_enhancements_among_wargear_are_found_by_name_in_simple_text():
    simple = ("World Eaters - Test - [95 pts]\n\n# ++ Army Roster ++ [95 pts]\n## Configuration\n"
              "Battle Size: Strike Force (2000 Point limit)\nDetachment: Berzerker Warband\n\n"
              "## Character [95 pts]\nMaster of Executions [95 pts]: Warlord, Berzerker Glaive, Axe of dismemberment\n")
    result = check_list(simple)
    ur = result.resolution.units[0]
    assert [(e.name, e.explicit) for e, _ in ur.enhancements] == [("Berzerker Glaive", False)]
    assert [w.name for w in ur.unit.wargear] == ["Axe of dismemberment"] and ur.unit.warlord
    assert codes(result) == [("roster-edition", 1)]
