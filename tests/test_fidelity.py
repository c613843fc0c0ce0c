"""Record fidelity (issue 9): each class of defect on its seed record, and on a small
hand-written source that shows the same defect somewhere new."""

from __future__ import annotations

import pytest

from warscribe.extract.pipeline import extract, line_accounting

from conftest import ROOT, write_manifest


@pytest.fixture(scope="module")
def seeds():
    return extract(ROOT / "sources" / "manifest.yaml")


def _records(result) -> dict[str, dict]:
    return {r["id"]: r for r in result.records}


def _codes(result, code: str) -> list:
    return [d for d in result.report.sorted() if d.code == code]


def build(tmp_path, text: str, ruleset: str = "11e", kind: str = "datasheet-page",
          name: str = "page.txt", **extra):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return extract(write_manifest(tmp_path, [{"file": name, "ruleset": ruleset, "kind": kind, **extra}]))


PAGE_HEAD = """Test Faction – Test Unit
RANGED WEAPONS | RANGE | A | BS | S | AP | D | |
| Test gun | 24" | 2 | 3+ | 4 | 0 | 1 | |
ABILITIES
CORE: Deep Strike
KEYWORDS: INFANTRY, TEST UNIT
"""


# -- line accounting ---------------------------------------------------------------------

def test_seed_line_accounting_counts_physical_lines(seeds):
    for doc in seeds.documents:
        acc = line_accounting(doc)
        total = acc["used_by_records"] + sum(acc["classified"].values()) + acc["unaccounted"]
        assert total == acc["lines"] == doc.raw_line_count, doc.path
    paladin = next(d for d in seeds.documents if "paladin" in d.path)
    assert line_accounting(paladin)["lines"] == 847


def test_run_on_line_is_counted_once(tmp_path):
    text = PAGE_HEAD + "Hit Roll\nRoll one D6 for each attack.Wound Roll\nRoll one D6 again.\n"
    result = build(tmp_path, text, ruleset="10e")
    acc = line_accounting(result.documents[0])
    assert acc["lines"] == 9
    assert acc["used_by_records"] + sum(acc["classified"].values()) + acc["unaccounted"] == 9


# -- lists printed after later parts -----------------------------------------------------

def test_seed_command_re_roll_keeps_its_rolls_in_when(seeds):
    rec = _records(seeds)["core-11e/command-re-roll"]
    assert rec["when"].count("\n- ") == 8 and rec["when"].endswith("attacks generated with a weapon.")
    assert "- " not in rec["effect"]
    assert rec["effect"].startswith("You re-roll that roll.")
    assert any(d.line == 313 for d in _codes(seeds, "list-regrouped"))


def test_seed_close_quarters_eligibility_list_under_eligible_if(seeds):
    text = _records(seeds)["11e/rules/10-06-close-quarters-shooting"]["text"]
    assert text.index("- Engaged") < text.index("WHILE SHOOTING")
    assert text.index("WHILE SHOOTING") < text.index("- MONSTER/VEHICLE Models")


def test_list_after_later_parts_goes_back_to_target(tmp_path):
    text = PAGE_HEAD + """STRATAGEMS
HOLD FAST
1CP
Core
C
HOLD FAST
1CP
Core – Battle Tactic Stratagem
WHEN: Your Command phase.
TARGET: One unit from your army that is one of the following:
EFFECT: Until the end of the turn, your unit cannot be moved.
- An INFANTRY unit
- A MOUNTED unit
EFFECT: Until the end of the turn, your unit cannot be moved.
"""
    result = build(tmp_path, text, ruleset="10e")
    rec = _records(result)["core-10e/hold-fast"]
    assert rec["target"] == "One unit from your army that is one of the following:\n- An INFANTRY unit\n- A MOUNTED unit"
    assert rec["effect"] == "Until the end of the turn, your unit cannot be moved."
    assert [d.line for d in _codes(result, "list-regrouped")] == [18]


# -- one heading naming two rules --------------------------------------------------------

def test_seed_leader_support_heading_makes_both_records(seeds):
    recs = _records(seeds)
    support = recs["11e/abilities/support"]
    assert support["number"] == "24.23" and support["type"] == "core"
    assert support["text"] == recs["11e/abilities/leader"]["text"]
    assert recs["11e/abilities/leader"]["number"] == "24.22"
    collisions = {d.line for d in _codes(seeds, "number-collision")}
    assert collisions == {212, 471}


def test_two_named_heading_elsewhere_and_collision(tmp_path):
    text = PAGE_HEAD + """FIGHTS FIRST24.10 / STEALTH24.11
Some units strike before their foes.
Each time this unit is selected, it fights first.
[BLAST]24.11
Each time you gather attack dice for a [BLAST] weapon, add one attack dice.
"""
    result = build(tmp_path, text)
    recs = _records(result)
    assert recs["11e/abilities/fights-first"]["number"] == "24.10"
    assert recs["11e/abilities/stealth"]["number"] == "24.11"
    assert recs["11e/abilities/stealth"]["text"] == "Each time this unit is selected, it fights first."
    assert {d.line for d in _codes(result, "number-collision")} == {7, 10}


# -- rulesets of shared records ----------------------------------------------------------

def test_seed_boarding_actions_stratagem_seen_under_both_rulesets(seeds):
    from warscribe.schema import bundle
    rec = _records(seeds)["boarding-actions/command-re-roll"]
    assert rec["rulesets"] == ["10e", "11e"] and rec["ruleset"] == "10e"
    assert {s["ruleset"] for s in rec["source"]} == {"10e", "11e"}
    b = bundle.from_records(seeds.records)
    assert rec in b.named("COMMAND RE-ROLL", "stratagem", "11e")
    assert "rulesets" not in _records(seeds)["core-11e/command-re-roll"]


def test_shared_record_rulesets_on_other_pages(tmp_path):
    strat = """STRATAGEMS
VOID LEAP
1CP
Boarding Actions – Epic Deed
BA
VOID LEAP
1CP
Boarding Actions – Epic Deed Stratagem
WHEN: Your Movement phase.
TARGET: One unit from your army.
EFFECT: Your unit can move through walls.
"""
    (tmp_path / "a.txt").write_text(PAGE_HEAD + strat, encoding="utf-8")
    (tmp_path / "b.txt").write_text(PAGE_HEAD.replace("Test Unit", "Other Unit").replace("TEST UNIT", "OTHER UNIT") + strat,
                                    encoding="utf-8")
    result = extract(write_manifest(tmp_path, [{"file": "a.txt", "ruleset": "11e", "kind": "datasheet-page"},
                                               {"file": "b.txt", "ruleset": "10e", "kind": "datasheet-page"}]))
    rec = _records(result)["boarding-actions/void-leap"]
    assert rec["ruleset"] == "11e" and rec["rulesets"] == ["10e", "11e"]
    assert list(rec)[:5] == ["id", "kind", "name", "ruleset", "rulesets"]
    assert result.rejected == []


# -- provenance --------------------------------------------------------------------------

def test_seed_list_only_detachments_cite_the_lines_naming_them(seeds):
    recs = _records(seeds)
    for det_id, line in [("grey-knights/sanctic-spearhead", 170), ("imperial-agents/ordo-xenos-alien-hunters", 74),
                         ("imperial-agents/veiled-blade-elimination-force", 115)]:
        assert recs[det_id]["source"][0]["first_line"] == line, det_id
        assert 1 not in {s["first_line"] for s in recs[det_id]["source"]}
    warned = {d.line for d in _codes(seeds, "missing-detachment-rule")}
    assert warned == {170, 74, 115}


def test_seed_run_on_line_gives_columns(seeds):
    src = _records(seeds)["boarding-actions/command-re-roll"]["source"]
    entry = next(s for s in src if s["first_line"] == 487)
    assert entry["first_column"] == 245
    line = (ROOT / "sources" / "datasheet-imperial-agents-inquisitor.11e.txt").read_text(encoding="utf-8").split("\n")[486]
    assert line[244:].startswith("COMMAND RE-ROLL")


def test_list_only_detachment_and_run_on_columns(tmp_path):
    text = PAGE_HEAD + """STRATAGEMS
IRON WILL
1CP
Hidden Host – Epic Deed
Hit Roll
Roll one D6 for each attack.Wound Roll
Roll one D6 again.
"""
    result = build(tmp_path, text, ruleset="10e")
    recs = _records(result)
    assert recs["test-faction/hidden-host"]["source"][0]["first_line"] == 10
    assert [d.line for d in _codes(result, "missing-detachment-rule")] == [10]
    hit, wound = recs["10e/rules/hit-roll"]["source"][0], recs["10e/rules/wound-roll"]["source"][0]
    assert (hit["first_line"], hit["last_line"], hit["last_column"]) == (11, 12, 28)
    assert "first_column" not in hit
    assert (wound["first_line"], wound["first_column"], wound["last_line"]) == (12, 29, 13)


# -- [CLEAVE X] --------------------------------------------------------------------------

def test_cleave_is_in_the_vocabulary_and_the_schema():
    from warscribe.schema.abilities import parse_ability
    from warscribe.schema.registry import validator
    ability, problems = parse_ability("Cleave 1")
    assert ability == {"id": "cleave", "text": "Cleave 1", "value": 1} and problems == []
    check = validator("weapon-ability")
    assert list(check.iter_errors(ability)) == []
    assert list(check.iter_errors({"id": "cleave", "text": "[CLEAVE]"})) != []  # X is required


def test_cleave_weapon_on_a_page(tmp_path):
    text = PAGE_HEAD.replace('| Test gun | 24" | 2 | 3+ | 4 | 0 | 1 | |',
                             '| Test gun | 24" | 2 | 3+ | 4 | 0 | 1 | |\nMELEE WEAPONS | RANGE | A | WS | S | AP | D | |\n'
                             '| Great axe [cleave 1, lethal hits] | Melee | 3 | 3+ | 6 | -1 | 2 | |')
    result = build(tmp_path, text)
    axe = _records(result)["test-faction/test-unit/great-axe"]
    assert axe["abilities"][0] == {"id": "cleave", "text": "cleave 1", "value": 1}
    assert not _codes(result, "weapon-ability") and result.rejected == []


# -- footnotes in wargear options --------------------------------------------------------

def test_seed_paladin_footnote_tied_to_its_choice(seeds):
    options = _records(seeds)["grey-knights/paladin-squad"]["wargear_options"]
    banner = options[2]
    assert banner["choices"][-1] == "1 storm bolter and 1 Ancient’s banner"
    assert banner["notes"] == [{"marker": "*", "choice": "1 storm bolter and 1 Ancient’s banner",
                                "text": "That model’s storm bolter cannot be replaced."}]
    assert len(options) == 3 and not any(o["text"].startswith("*") for o in options)
    assert not [d for d in _codes(seeds, "stray-asterisk") if d.line in (24, 25)]


def test_footnote_on_an_option_and_a_marker_without_footnote(tmp_path):
    text = PAGE_HEAD.replace("ABILITIES\n", """WARGEAR OPTIONS
- 1 model can be equipped with 1 auspex.†
- 1 model can have its gun replaced with 1 plasma gun*
† This model cannot also take a plasma gun.
ABILITIES
""")
    result = build(tmp_path, text)
    options = _records(result)["test-faction/test-unit"]["wargear_options"]
    assert options[0] == {"text": "1 model can be equipped with 1 auspex.",
                          "notes": [{"marker": "†", "text": "This model cannot also take a plasma gun."}]}
    assert options[1] == {"text": "1 model can have its gun replaced with 1 plasma gun*"}
    assert [d.line for d in _codes(result, "stray-asterisk")] == [6]


# -- a sub-heading inside a tooltip ------------------------------------------------------

def test_seed_fall_back_moves_keeps_its_summary(seeds):
    recs = _records(seeds)
    fall_back, escape = recs["10e/rules/fall-back-moves"], recs["10e/rules/desperate-escape-tests"]
    assert fall_back["bullets"][0] == 'Fall Back Move: Models move up to M".' and len(fall_back["bullets"]) == 5
    assert escape["bullets"] == [] and "- " not in escape["text"]
    assert escape["text"].startswith("Unlike when making other types of move")
    assert [d.line for d in _codes(seeds, "subheading-split")] == [359]


def test_sub_heading_in_another_tooltip(tmp_path):
    text = PAGE_HEAD + """Advance Moves
When a unit Advances, make an Advance roll for that unit by rolling one D6.
Advance Rolls
Add the result in inches to the Move characteristic of each model in that unit.
- Advance Move: Models move up to M+D6".
- Units that Advance cannot shoot or charge this turn.
Charge Moves
When a unit declares a charge, roll 2D6.
- Charge roll: 2D6.
"""
    result = build(tmp_path, text, ruleset="10e")
    recs = _records(result)
    assert recs["10e/rules/advance-moves"]["bullets"] == ['Advance Move: Models move up to M+D6".',
                                                         "Units that Advance cannot shoot or charge this turn."]
    assert recs["10e/rules/advance-rolls"]["bullets"] == []
    assert recs["10e/rules/charge-moves"]["bullets"] == ["Charge roll: 2D6."]
    assert [d.line for d in _codes(result, "subheading-split")] == [11]


# -- scraping defects --------------------------------------------------------------------

def _found(result, code):
    return [(d.line, d.column, d.found) for d in _codes(result, code)]


def test_seed_scraping_defects_are_reported(seeds):
    page = "sources/datasheet-imperial-agents-inquisitor.11e.txt"
    assert [(d.file, d.line, d.found) for d in _codes(seeds, "glued-words")] == [(page, 557, "theyfightforthe")]
    assert [(d.file, d.line, d.found) for d in _codes(seeds, "lost-apostrophe")] == [(page, 700, "bearers ranged")]
    assert [(d.line, d.column) for d in _codes(seeds, "flattened-table")] == [(690, 82), (691, 1)]
    assert [(d.line, d.found) for d in _codes(seeds, "table-debris")] == [(426, "+1CP")]


def test_seed_repairs_keep_the_original_in_provenance(seeds):
    recs = _records(seeds)
    circle = recs["grey-knights/baneslayer-strike/sanctic-circle"]
    assert "within 9\" of" in circle["effect"] and "”" not in circle["effect"]
    repairs = [r for s in circle["source"] for r in s.get("repairs", [])]
    assert {"line": 335, "column": 45, "found": "”", "repaired": '"'} in repairs
    heavy = recs["11e/abilities/heavy"]
    assert "\u00a0" not in heavy["text"] and "\n- That unit is unengaged." in heavy["text"]
    assert [r["found"] for r in heavy["source"][0]["repairs"]] == ["\u00a0"] * 3
    assert len(_codes(seeds, "repaired-character")) == 13


def test_scraping_defects_in_a_new_place(tmp_path):
    text = PAGE_HEAD + """Iron Resolve
Each time a model in this unit would lose a wound, roll one D6. The attacker’s weapon and the attacker’s unit are not affected. The attacker’s rules apply.
Iron Resolve Detachment
Storm of Fire
Whenunitsarewithin\u00a06” of this unit, the attackers weapon loses its abilities.
Choose one of the following:Hold The Line Until the end of the turn, add 1 to saves.
+2CP
"""
    result = build(tmp_path, text, ruleset="10e")
    assert _found(result, "glued-words") == [(11, 1, "Whenunitsarewithin")]
    assert _found(result, "lost-apostrophe") == [(11, 41, "attackers weapon")]
    assert [(line, col) for line, col, _f in _found(result, "flattened-table")] == [(12, 29)]
    assert _found(result, "table-debris") == [(13, 1, "+2CP")]
    assert sorted((line, col) for line, col, _f in _found(result, "repaired-character")) == [(11, 19), (11, 21)]
    rule = _records(result)["10e/rules/storm-of-fire"]
    assert rule["text"].startswith('Whenunitsarewithin 6" of this unit')
    assert rule["source"][0]["repairs"] == [{"line": 11, "column": 19, "found": "\u00a0", "repaired": " "},
                                            {"line": 11, "column": 21, "found": "”", "repaired": '"'}]


# -- items whose label was lost ----------------------------------------------------------

def test_seed_fall_back_move_items_of_a_lost_label_set_apart(seeds):
    recs = _records(seeds)
    rec = recs["11e/rules/09-07-fall-back-move"]
    before, after = rec["text"].split("\n\n(Label lost in the source: the items below are not part of BEFORE MOVING.)\n\n")
    assert before.endswith("BEFORE MOVING: Select fall-back mode:\n\n"
                           "- Ordered Retreat: If your unit is not battle-shocked, you can select this mode.\n"
                           "- Desperate Escape: Otherwise, you must select this mode. Make a hazard roll for each "
                           "model in your unit (06.03).")
    assert after.split("\n") == [
        "- Desperate Escape: Each model that is moved can be moved through enemy models.",
        "- Your unit must be unengaged.",
        "- Until the end of the turn, unless otherwise stated, your unit is not eligible to shoot, declare a charge "
        "or start an action.",
        "- Desperate Escape: If your unit is not battle-shocked, you must make a battle-shock roll for your unit (01.07)."]
    assert "WHILE MOVING" not in rec["text"] and "AFTER MOVING" not in rec["text"]
    assert len(rec["bullets"]) == 6  # the text's items, unlabelled by design
    repair = rec["source"][0]["repairs"]
    assert repair == [{"line": 550, "column": 1,
                       "found": "- Desperate Escape: Each model that is moved can be moved through enemy models.",
                       "repaired": "(Label lost in the source: the items below are not part of BEFORE MOVING.)\n\n"
                                   "- Desperate Escape: Each model that is moved can be moved through enemy models."}]
    [d] = _codes(seeds, "label-lost")
    assert (d.file, d.line, d.column) == ("sources/datasheet-imperial-agents-inquisitor.11e.txt", 550, 1)
    assert "repeats the name 'Desperate Escape'" in d.message and d.found.startswith("- Desperate Escape: Each model")
    # Lists that keep their shape are untouched.
    assert recs["11e/rules/09-05-normal-move"]["text"].endswith("AFTER MOVING: Your unit must be unengaged.")
    assert [r["id"] for r in seeds.records if "Label lost" in repr(r)] == ["11e/rules/09-07-fall-back-move"]


LOST_LABELS = """DIG IN12.04
ELIGIBLE IF: Your unit is unengaged.
EFFECT: Select dig-in posture:
- Hunker Down: Your unit has the benefit of cover.
- Brace: Add 1 to armour saving throws made for your unit.
- Your unit cannot shoot this turn.
- Brace: Your unit cannot be selected to charge.
SURGE MOVE09.09
MAXIMUM DISTANCE: D6".
BEFORE MOVING: Select surge route:
- Direct Line: Your unit must end closer to the closest enemy unit.
- Flanking Path: Your unit can move through terrain.
- Flanking Path: Your unit must end wholly within 6" of a battlefield edge.
SET-UP DISTANCE: 9".
MARCH09.10
BEFORE MOVING: Select march order:
- Column: Add 2" to your unit's M characteristic.
- Line: Your unit can move through friendly models.
- Square: Each time your unit is charged:
- Subtract 1 from the Charge roll.
- Your unit cannot be selected to shoot.
WHILE MOVING: Your unit cannot move through terrain.
"""


def test_items_of_a_lost_label_elsewhere(tmp_path):
    result = build(tmp_path, PAGE_HEAD + LOST_LABELS)
    recs = _records(result)
    dig = recs["11e/rules/12-04-dig-in"]["text"]
    assert dig.endswith("EFFECT: Select dig-in posture:\n\n- Hunker Down: Your unit has the benefit of cover.\n"
                        "- Brace: Add 1 to armour saving throws made for your unit.\n\n"
                        "(Label lost in the source: the items below are not part of EFFECT.)\n\n"
                        "- Your unit cannot shoot this turn.\n- Brace: Your unit cannot be selected to charge.")
    surge = recs["11e/rules/09-09-surge-move"]["text"]
    assert ("- Flanking Path: Your unit can move through terrain.\n\n(Label lost in the source: the items below are "
            "not part of BEFORE MOVING.)\n\n- Flanking Path: Your unit must end wholly within") in surge
    assert surge.endswith("SET-UP DISTANCE: 9\".")
    assert [(d.line, d.column, d.found) for d in _codes(result, "label-lost")] == [
        (12, 1, "- Your unit cannot shoot this turn."),
        (19, 1, "- Flanking Path: Your unit must end wholly within 6\" of a battlefield edge.")]
    assert "has no name" in _codes(result, "label-lost")[0].message
    # A well-formed list, with a sub-list under an item that introduces one, is untouched.
    march = recs["11e/rules/09-10-march"]
    assert "Label lost" not in march["text"] and "repairs" not in march["source"][0]
    assert "- Square: Each time your unit is charged:\n- Subtract 1 from the Charge roll." in march["text"]


def test_items_of_a_lost_label_in_a_stratagem(tmp_path):
    text = PAGE_HEAD + """STRATAGEMS
SHIFTING STANCE
1CP
Core
C
SHIFTING STANCE
1CP
Core – Battle Tactic Stratagem
WHEN: Your Movement phase.
TARGET: One unit from your army.
EFFECT: Select one stance:
- Guarded Stance: Your unit has a 5+ invulnerable save.
- Striking Stance: Add 1 to the Hit roll.
- Guarded Stance: Your unit cannot Advance.
"""
    result = build(tmp_path, text, ruleset="10e")
    effect = _records(result)["core-10e/shifting-stance"]["effect"]
    assert effect == ("Select one stance:\n- Guarded Stance: Your unit has a 5+ invulnerable save.\n"
                      "- Striking Stance: Add 1 to the Hit roll.\n"
                      "(Label lost in the source: the items below are not part of EFFECT.)\n"
                      "- Guarded Stance: Your unit cannot Advance.")
    assert [d.line for d in _codes(result, "label-lost")] == [20]


# -- flattened option tables -------------------------------------------------------------

def test_seed_flattened_option_table_rebuilt_as_a_list(seeds):
    rule = _records(seeds)["imperial-agents/imperialis-fleet"]["rule"]
    intro, eliminate, acquire = rule["text"].replace("\n\n", "\n").split("\n")
    assert intro == "At the start of your Command phase, you can select one of the following to apply:"
    assert eliminate.startswith("- Eliminate At All Costs: Select one enemy unit on the battlefield. Until")
    assert eliminate.endswith("add 1 to the Hit roll.")
    assert acquire.startswith("- Acquire At All Costs: Select one objective marker on the battlefield.")
    assert acquire.endswith("models in that unit have a 5+ invulnerable save.")
    assert "|" not in rule["text"]
    entry = next(s for s in _records(seeds)["imperial-agents/imperialis-fleet"]["source"] if s.get("repairs"))
    assert [(r["line"], r["column"]) for r in entry["repairs"]] == [(690, 82), (691, 1)]
    assert entry["repairs"][0]["found"].startswith("Eliminate At All Costs Select one enemy unit")
    assert entry["repairs"][0]["found"].endswith("add 1 to the Hit roll. |")
    assert entry["repairs"][0]["repaired"] == eliminate
    diags = _codes(seeds, "flattened-table")
    assert [(d.line, d.column) for d in diags] == [(690, 82), (691, 1)]
    assert all("rebuilt" in d.message for d in diags)
    assert diags[0].expected == "- Eliminate At All Costs: Select one..."
    # The effects compiler reads each option's sentences.
    effects = {e["text"]: e for e in rule["effects"]}
    assert effects[intro]["status"] == "uncompiled"
    assert "Eliminate At All Costs: Select one enemy unit on the battlefield." in effects
    hit = next(e for e in rule["effects"] if e["text"].endswith("add 1 to the Hit roll."))
    assert hit["status"] == "compiled" and hit["changes"] == [{"op": "modify", "roll": "hit", "value": 1}]
    save = next(e for e in rule["effects"] if e["text"].endswith("5+ invulnerable save."))
    assert save["status"] == "compiled" and save["changes"] == [{"op": "invulnerable", "value": 5}]


def test_seed_lone_cost_cell_is_the_cost_of_the_mode_below_it(seeds):
    # Issue 43: '+1CP' is the added cost of the mode printed right after it ('Into the Fray'),
    # a cell of that mode's row split off in scraping: it goes back on the mode's line.
    rec = _records(seeds)["core-11e/heroic-intervention"]
    assert "within the maximum distance.\n- Into the Fray (+1CP):\n- When making the charge roll" in rec["effect"]
    assert "\n+1CP" not in rec["effect"]
    assert [e["text"] for e in rec["effects"] if "CP" in e["text"]] == ["Into the Fray (+1CP):"]
    repairs = [r for s in rec["source"] for r in s.get("repairs", [])]
    assert repairs == [{"line": 426, "column": 1, "found": "+1CP", "repaired": ""},
                       {"line": 427, "column": 1, "found": "- Into the Fray:", "repaired": "- Into the Fray (+1CP):"}]
    [debris] = _codes(seeds, "table-debris")
    assert (debris.line, debris.column, debris.found) == (426, 1, "+1CP") and "Into the Fray" in debris.message
    assert not any(d.line in range(416, 430) for d in _codes(seeds, "label-lost") + _codes(seeds, "flattened-table"))


def test_lone_cost_cell_elsewhere(tmp_path):
    text = PAGE_HEAD + """STRATAGEMS
OVERLOAD
1CP
Core
C
OVERLOAD
1CP
Core Stratagem
WHEN: Your Shooting phase.
TARGET: One unit from your army.
EFFECT: Select one of the following modes:
- Steady: Add 1 to the Hit roll.
+2CP
- Overcharge: Add 1 to the Wound roll.
Hold the Gate
Choose one of the following at the start of the battle:
- Wall: Add 1 to saves.
+1CP
- Spikes: Add 1 to the Strength characteristic.
This text has a cell at its end.
+3CP
"""
    result = build(tmp_path, text, ruleset="11e")
    recs = _records(result)
    strat = recs["core-11e/overload"]
    assert strat["effect"] == ("Select one of the following modes:\n- Steady: Add 1 to the Hit roll.\n"
                               "- Overcharge (+2CP): Add 1 to the Wound roll.")
    gate = recs["11e/rules/hold-the-gate"]
    assert "- Spikes (+1CP): Add 1 to the Strength characteristic." in gate["text"]
    assert "\n+1CP" not in gate["text"] and gate["text"].endswith("This text has a cell at its end.\n\n+3CP")
    # Placed or not, each cell is reported where it is printed.
    assert [(d.line, d.found, "Overcharge" in d.message or "Spikes" in d.message)
            for d in _codes(result, "table-debris")] == [(19, "+2CP", True), (24, "+1CP", True), (27, "+3CP", False)]
    assert line_accounting(result.documents[0])["unaccounted"] == 0


FLATTENED = """Hold the Breach
Iron Bastion Detachment
The breach must hold, whatever it costs.
At the start of the battle round, choose one of these orders:
Stand Fast Select one unit from your army. Until the end of the battle round, models in that unit have a 4+ invulnerable save. |
Open Fire Select one enemy unit. Until the end of the battle round, each time a model from your army makes an attack that targets that enemy unit, add 1 to the Wound roll. |
Advance Swiftly Select one unit from your army; it can Advance and still shoot this turn. |
Ranks Broken
Shattered Legion Detachment
The line is gone; only the fighting remains.
Each battle round, select one of the following:Last Stand Until the end of the turn, each model from your army has a 5+ invulnerable save. |
Rally Point Select one objective marker; it stays under your control. |
Fall back to the gate and hold it. |
"""


def test_flattened_option_table_elsewhere(tmp_path):
    result = build(tmp_path, PAGE_HEAD + FLATTENED, ruleset="10e")
    recs = _records(result)
    rule = recs["test-faction/iron-bastion"]["rule"]
    assert rule["text"] == (
        "At the start of the battle round, choose one of these orders:\n\n"
        "- Stand Fast: Select one unit from your army. Until the end of the battle round, models in that unit have "
        "a 4+ invulnerable save.\n"
        "- Open Fire: Select one enemy unit. Until the end of the battle round, each time a model from your army "
        "makes an attack that targets that enemy unit, add 1 to the Wound roll.\n"
        "- Advance Swiftly: Select one unit from your army; it can Advance and still shoot this turn.")
    assert [(r["line"], r["column"]) for r in recs["test-faction/iron-bastion"]["source"][0]["repairs"]] == [
        (11, 1), (12, 1), (13, 1)]
    # Each option's sentences are compiled on their own, the option's name apart.
    assert [e["text"] for e in rule["effects"]][1:3] == ["Stand Fast: Select one unit from your army.",
                                                        "Until the end of the battle round, models in that unit "
                                                        "have a 4+ invulnerable save."]
    compiled = [e["changes"] for e in rule["effects"] if e["status"] == "compiled"]
    assert compiled == [[{"op": "invulnerable", "value": 4}], [{"op": "modify", "roll": "wound", "value": 1}]]
    # A row that does not split like the others: the table is kept as printed and reported as before.
    broken = recs["test-faction/shattered-legion"]["rule"]["text"]
    assert "select one of the following:Last Stand Until the end" in broken and "- Last Stand" not in broken
    assert "repairs" not in recs["test-faction/shattered-legion"]["source"][0]
    diags = _codes(result, "flattened-table")
    assert [(d.line, d.column, "rebuilt" in d.message) for d in diags] == [
        (11, 1, True), (12, 1, True), (13, 1, True), (17, 48, False), (18, 1, False)]


def test_well_formed_option_list_untouched(tmp_path):
    text = PAGE_HEAD + """Hold the Breach
Iron Bastion Detachment
The breach must hold, whatever it costs.
At the start of the battle round, choose one of these orders:
- Stand Fast: Until the end of the battle round, models from your army have a 4+ invulnerable save.
- Open Fire: Until the end of the battle round, add 1 to the Wound roll.
"""
    result = build(tmp_path, text, ruleset="10e")
    det = _records(result)["test-faction/iron-bastion"]
    assert det["rule"]["text"] == ("At the start of the battle round, choose one of these orders:\n\n"
                                   "- Stand Fast: Until the end of the battle round, models from your army have a "
                                   "4+ invulnerable save.\n"
                                   "- Open Fire: Until the end of the battle round, add 1 to the Wound roll.")
    assert "repairs" not in det["source"][0]
    assert _codes(result, "flattened-table") == [] and _codes(result, "label-lost") == []


# -- untitled passages -------------------------------------------------------------------

def test_seed_inquisitorial_agents_passages_are_abilities_of_that_unit(seeds):
    recs = _records(seeds)
    unit = [r for r in seeds.records if r.get("unit") == "imperial-agents/inquisitorial-agents"]
    assert sorted((r["type"], r["heading"]) for r in unit) == [("datasheet", "lost"), ("datasheet", "lost"),
                                                               ("wargear", "inferred")]
    tome = recs["imperial-agents/inquisitorial-agents/abilities/tome-skull"]
    assert tome["name"] == "Tome-skull" and tome["text"].startswith("Once per battle for each Tome-skull")
    assert not [r for r in seeds.records if r["id"].startswith("11e/rules/inquisitorial-agents")]
    assert [d.line for d in _codes(seeds, "heading-inferred") if "Tome-skull" in d.message] == [25]


def test_untitled_unit_passages_elsewhere(tmp_path):
    text = """Vigilators

Each time this model makes an attack, re-roll a hit roll of 1.

While this model is equipped with a Psyber-eagle, enemy units cannot be hidden from it.

A unit has all the keywords printed on its datasheet.
"""
    result = build(tmp_path, text, kind="rules-extract", name="extract.txt", title="Vigilators", faction="Inquisition")
    recs = _records(result)
    eagle = recs["inquisition/vigilators/abilities/psyber-eagle"]
    assert (eagle["type"], eagle["heading"], eagle["unit"]) == ("wargear", "inferred", "inquisition/vigilators")
    lost = [r for r in result.records if r.get("heading") == "lost"]
    assert [r["name"] for r in lost] == ["Vigilators: Each time this model makes an attack, re-roll a hit roll…"]
    assert [r["kind"] for r in result.records if r["text"].startswith("A unit has all")] == ["rule"]


# -- flavour and rules text --------------------------------------------------------------

def test_seed_flavour_and_rules_where_the_page_puts_them(seeds):
    recs = _records(seeds)
    duty = recs["grey-knights/void-purge-force"]["rule"]
    assert duty["flavour"].startswith("None can be allowed to reach an escape craft")
    assert duty["text"] == "Add 1 to Advance and Charge rolls made for units from your army."
    off = recs["11e/rules/01-02-04-not-on-the-battlefield"]
    assert "flavour" not in off and off["text"].startswith("A unit that is embarked within a TRANSPORT")
    assert "flavour" not in recs["11e/rules/05-04-04-destroyed"]
    assert {d.line for d in _codes(seeds, "flavour-undecided")} == {180, 431}


def test_flavour_by_place_and_rules_kept_elsewhere(tmp_path):
    text = PAGE_HEAD + """Hold the Gate
Iron Bastion Detachment
The gate must not fall, whatever the cost; every warrior knows it.
Each time a unit from your army is selected to fight, add 1 to its Attacks characteristic.
Heavy Going
Some units are burdened by their wargear. The following applies to such units:
- It cannot Advance.
- It cannot Fall Back.
Models in such units are never slowed by terrain.
"""
    result = build(tmp_path, text, ruleset="10e")
    rule = _records(result)["test-faction/iron-bastion"]["rule"]
    assert rule["flavour"] == "The gate must not fall, whatever the cost; every warrior knows it."
    assert rule["text"].startswith("Each time a unit from your army is selected to fight")
    going = _records(result)["10e/rules/heavy-going"]
    assert "flavour" not in going and going["text"].startswith("Some units are burdened by their wargear.")
    assert [d.line for d in _codes(result, "flavour-undecided")] == [12]


# -- annotations -------------------------------------------------------------------------

def test_seed_annotation_restores_the_leader_list_with_provenance(seeds):
    ds = _records(seeds)["imperial-agents/inquisitor"]
    assert ds["leader"]["units"] == ["Inquisitorial Agents"]
    [entry] = [s for s in ds["source"] if s["file"] == "sources/annotations.yaml"]
    assert entry["fields"] == ["leader.units"] and entry["annotation"]["evidence"]["line"] == 3
    assert not _codes(seeds, "stale-annotation") and not _codes(seeds, "bad-annotation")


ANNOTATED_PAGE = PAGE_HEAD.replace("KEYWORDS:", "LEADER\nThis model can be attached to the following units:\nKEYWORDS:")
NOTE = """annotations:
  - record: test-faction/test-unit
    field: leader.units
    value: [Test Squad]
    stated_by: a tester
    reason: the other page says so
    evidence: {file: other.txt, line: 1, text: while this model leads a Test Squad}
    fills: {file: page.txt, line: 7, text: attached to the following units}
"""


def test_annotation_applied_marked_and_reported_when_stale(tmp_path):
    (tmp_path / "other.txt").write_text("Note: while this model leads a Test Squad, it is brave.\n", encoding="utf-8")
    (tmp_path / "annotations.yaml").write_text(NOTE, encoding="utf-8")
    result = build(tmp_path, ANNOTATED_PAGE)
    ds = _records(result)["test-faction/test-unit"]
    assert ds["leader"]["units"] == ["Test Squad"]
    assert ds["source"][-1]["fields"] == ["leader.units"] and ds["source"][-1]["first_line"] == 2
    assert result.rejected == []
    # The evidence changes: the annotation is reported and not applied.
    (tmp_path / "other.txt").write_text("Note: this model is brave.\n", encoding="utf-8")
    result = build(tmp_path, ANNOTATED_PAGE)
    assert _records(result)["test-faction/test-unit"]["leader"]["units"] == []
    assert [(d.file.endswith("annotations.yaml"), d.line) for d in _codes(result, "stale-annotation")] == [(True, 2)]
    # A malformed file is an error, located, and nothing is applied.
    (tmp_path / "annotations.yaml").write_text(NOTE.replace("stated_by: a tester\n", ""), encoding="utf-8")
    result = build(tmp_path, ANNOTATED_PAGE)
    assert [d.code for d in result.report.errors] == ["bad-annotation"]


# -- issue 43: the seeds' own audit cases ------------------------------------------------

def test_seed_assigned_agents_flavour_apart_from_its_rule(seeds):
    # Four narrative sentences before the first rules sentence: flavour, however many there are.
    rec = _records(seeds)["imperial-agents/abilities/assigned-agents"]
    assert rec["flavour"].startswith("Throughout the Imperium there exist numerous martial organisations")
    assert rec["flavour"].endswith("enforce their presence on the field of battle.")
    assert rec["text"].startswith("If your Army Faction is AGENTS OF THE IMPERIUM, then in the Select Detachment")
    assert not any(e["text"].startswith("Throughout the Imperium") for e in rec["effects"])
    # The extract's passage repeating the flavour still backs the record.
    assert any(s["file"].endswith("inquisitors-hand.11e.txt") and s["first_line"] == 47 for s in rec["source"])


def test_long_flavour_before_rules_elsewhere(tmp_path):
    text = PAGE_HEAD.replace("CORE: Deep Strike", "CORE: Deep Strike\nFACTION: Oath of the Hunt") + """Oath of the Hunt
The hunters of the order swear their oaths in blood. They range across the stars. No prey escapes them for long. Their names are feared on a hundred worlds.
Each time a model from your army makes an attack that targets an enemy CHARACTER unit, add 1 to the Hit roll.
Long Marches
Armies cross the field in long columns. Scouts go ahead of them. Columns are slow. Supply trains follow them. You keep them in order.
Each time a unit from your army Advances, add 1 to the Advance roll.
"""
    result = build(tmp_path, text, ruleset="10e")
    recs = _records(result)
    oath = recs["test-faction/abilities/oath-of-the-hunt"]
    assert oath["flavour"].startswith("The hunters of the order") and oath["flavour"].endswith("hundred worlds.")
    assert oath["text"].startswith("Each time a model from your army makes an attack")
    # A long first paragraph that speaks to the player is not narrative: it stays rules text.
    marches = recs["10e/rules/long-marches"]
    assert "flavour" not in marches and marches["text"].startswith("Armies cross the field in long columns.")


def test_seed_battle_shock_step_title_without_its_number(seeds):
    recs = _records(seeds)
    rec = recs["10e/rules/battle-shock"]
    assert (rec["name"], rec["title"], rec["number"]) == ("Battle-shock", "Battle-shock", None)
    assert rec["text"].startswith("In this step, you must take a Battle-shock test")
    assert rec["source"][0]["first_line"] == 316
    assert not [r for r in seeds.records if r["id"].startswith("10e/rules/2-")]


def test_numbered_step_headings_elsewhere(tmp_path):
    text = PAGE_HEAD + """1. Command
Both players gain 1CP.
3. Fight Phase
Units that are engaged fight, in an order the players take turns to choose.
"""
    result = build(tmp_path, text, ruleset="10e")
    recs = _records(result)
    assert recs["10e/rules/command"]["title"] == "Command"
    assert recs["10e/rules/fight-phase"]["name"] == "Fight Phase"
    assert not [r for r in result.records if r["kind"] == "rule" and r["title"][0].isdigit()]


MULTI_PROFILE = "Before selecting targets for this weapon, select one of its profiles to make attacks with."


def test_seed_multi_profile_weapon_rule_is_a_record(seeds):
    # The tooltip of a weapon with several profiles is a rule of the game, not help text of the site.
    holding = [r for r in seeds.records if MULTI_PROFILE in (r.get("text") or "")]
    assert sorted(r["ruleset"] for r in holding) == ["10e", "11e"]
    for rec in holding:
        assert rec["kind"] == "rule" and rec["text"] == MULTI_PROFILE
    cited = {(s["file"], s["first_line"]) for r in holding for s in r["source"]}
    assert cited == {("sources/datasheet-grey-knights-paladin-squad.10e.txt", 245),
                     ("sources/datasheet-imperial-agents-inquisitor.11e.txt", 196)}
    for doc in seeds.documents:
        assert "interface" not in line_accounting(doc)["classified"], doc.path
        assert line_accounting(doc)["unaccounted"] == 0, doc.path
    assert {d.line for d in _codes(seeds, "heading-lost") if d.file.endswith("txt") and "datasheet" in d.file} == {
        245, 196}


def test_multi_profile_weapon_rule_on_two_pages_is_one_record(tmp_path):
    page = PAGE_HEAD + "Hit Roll\nRoll one D6 for each attack.\n" + MULTI_PROFILE + "\nWound Roll\nRoll one D6 again.\n"
    (tmp_path / "a.txt").write_text(page, encoding="utf-8")
    (tmp_path / "b.txt").write_text(page.replace("Test Unit", "Other Unit").replace("TEST UNIT", "OTHER UNIT"),
                                    encoding="utf-8")
    result = extract(write_manifest(tmp_path, [{"file": "a.txt", "ruleset": "10e", "kind": "datasheet-page"},
                                               {"file": "b.txt", "ruleset": "10e", "kind": "datasheet-page"}]))
    [rec] = [r for r in result.records if MULTI_PROFILE in (r.get("text") or "")]
    assert rec["kind"] == "rule" and [(s["file"].rsplit("/", 1)[-1], s["first_line"]) for s in rec["source"]] == [
        ("a.txt", 9), ("b.txt", 9)]
    # Not part of the rule printed before it.
    assert _records(result)["10e/rules/hit-roll"]["text"] == "Roll one D6 for each attack."
    for doc in result.documents:
        assert line_accounting(doc)["unaccounted"] == 0
