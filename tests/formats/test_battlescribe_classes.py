"""BattleScribe fidelity (issue 19), class by class, on hand-made catalogues in both forms:
what a player reads on each datasheet is what the catalogue says, and what the reader
cannot read is reported by file and entry. The same classes on the real 10e snapshot are
in test_battlescribe_snapshot.py."""

from __future__ import annotations

import pytest

from warscribe.extract import battlescribe as bs
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import record_errors

from conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "battlescribe"
FORMS = {"xml": ("Test System.gst", "cat"), "json": ("Test System.json", "json")}


def read_classes(form: str):
    system, _ext = FORMS[form]
    report = Report()
    files = bs.load(FIXTURES / form / system, f"bs/{system}", "10e", 0, None, report)
    files += bs.load(FIXTURES / "classes" / form, "bs", "10e", 0, None, report)
    items, _index = bs.read(files, report)
    return {r["id"]: r for r, _p in items}, {r["id"]: p for r, p in items}, report


@pytest.fixture(scope="module", params=sorted(FORMS))
def classes(request):
    return (request.param, *read_classes(request.param))


def _findings(report: Report, code: str) -> list:
    return [d for d in report.sorted() if d.code == code]


def test_both_forms_give_the_same_records_and_findings():
    xml, _p, xml_report = read_classes("xml")
    js, _p, js_report = read_classes("json")
    assert xml == js
    assert [(d.code, d.message) for d in xml_report.sorted()] == [(d.code, d.message) for d in js_report.sorted()]


def test_every_record_is_valid(classes):
    _form, by_id, provs, _report = classes
    for rid, record in by_id.items():
        assert record_errors(dict(record, source=provs[rid])) == [], rid


def test_class1_weapons_of_one_name_are_all_kept(classes):
    _form, by_id, _p, report = classes
    ds = by_id["classes/spear-squad"]
    # a ranged and a melee profile of one name: two weapons, the melee one '-melee'
    assert by_id["classes/spear-squad/guardian-spear"]["type"] == "ranged"
    assert by_id["classes/spear-squad/guardian-spear-melee"]["type"] == "melee"
    # the sergeant's spear, another melee profile of the same name: kept, numbered, reported
    assert {by_id[w]["attacks"] for w in ("classes/spear-squad/guardian-spear-melee",
                                          "classes/spear-squad/guardian-spear-melee-2")} == {5, 6}
    assert sorted(w.rsplit("/", 1)[1] for w in ds["weapons"]) == ["guardian-spear", "guardian-spear-melee",
                                                                   "guardian-spear-melee-2"]
    [variant] = _findings(report, "weapon-variant")
    assert "'Guardian spear'" in variant.message and "attacks" in variant.message and variant.line > 1


def test_class2_invulnerable_save_per_model_kind_in_any_case(classes):
    _form, by_id, _p, _report = classes
    models = {m["name"]: m for m in by_id["classes/warboss-pair"]["models"]}
    assert models["Warboss"]["invulnerable"] == 4  # 'Invulnerable save' with a capital I, linked
    assert models["Grot"]["invulnerable"] == 2 and "cannot re-roll" in models["Grot"]["invulnerable_text"]
    assert "invulnerable_text" not in models["Warboss"]
    assert by_id["classes/captain-classes"]["models"][0]["invulnerable"] == 4  # 'This model has a 4+ Invulnerable save'
    assert not any(a["name"].startswith("Invulnerable") for a in by_id["classes/warboss-pair"]["abilities"])


def test_class3_enhancements_tied_to_their_detachment_and_bearers_to_their_restriction(classes):
    _form, by_id, _p, _report = classes
    alpha, beta = by_id["classes/alpha-host"], by_id["classes/beta-host"]
    assert alpha["enhancements"] == ["classes/alpha-host/enhancements/shiny-relic",
                                     "classes/alpha-host/enhancements/captains-honour"]
    assert beta["enhancements"] == ["classes/beta-host/enhancements/beta-charm"]
    shiny = by_id["classes/alpha-host/enhancements/shiny-relic"]
    assert (shiny["detachment"], shiny["points"], shiny["restriction"]) == ("classes/alpha-host", 15, "CLASSES model only.")
    # the characters that link the group; a Captain-only one on the Captain alone; never a squad
    assert shiny["bearers"] == ["classes/captain-classes", "classes/lieutenant-classes"]
    assert by_id["classes/alpha-host/enhancements/captains-honour"]["bearers"] == ["classes/captain-classes"]
    assert by_id["classes/beta-host/enhancements/beta-charm"]["bearers"] == ["classes/captain-classes",
                                                                            "classes/lieutenant-classes"]


def test_class4_a_library_unit_is_a_datasheet_of_each_army_that_links_it(classes):
    _form, by_id, provs, _report = classes
    ours, theirs = by_id["classes/shared-squad"], by_id["allies/shared-squad"]
    assert (ours["faction"], ours["faction_keywords"]) == ("Classes", ["CLASSES"])
    assert (theirs["faction"], theirs["faction_keywords"]) == ("Allies", ["ALLIES"])
    assert ours["models"] == theirs["models"] and ours["points"] == theirs["points"]
    # provenance: the library's entry, then the army's link with what it gave
    entry, link = provs["allies/shared-squad"]
    assert entry["entry"]["id"] == "unit-shared" and entry["file"] == "bs/Classes Library.cat".replace(
        ".cat", ".cat" if _form == "xml" else ".json")
    assert link["entry"]["id"] == "root-allies-shared" and "faction_keywords" in link["fields"]


def test_class5_modifiers_on_a_units_own_profiles(classes):
    _form, by_id, _p, report = classes
    assert by_id["classes/captain-classes/plasma-pistol"]["skill"] == 2  # set 2+ for a Captain
    assert by_id["classes/lieutenant-classes/plasma-pistol"]["skill"] == 3
    assert by_id["classes/captain-classes/plasma-pistol"]["strength"] == 7  # the overcharge is an option: not applied
    [pending] = _findings(report, "conditional-characteristic")
    assert "S increment 1" in pending.message and "upg-overcharge" in pending.message


def test_class6_points_per_legal_unit_size(classes):
    _form, by_id, _p, _report = classes
    line = by_id["classes/line-squad"]
    assert [(p["models"], p["points"]) for p in line["points"]] == [(5, 80), (10, 160)]  # not '6 models: 160'
    assert line["composition"] == [{"name": "Line Sergeant", "min": 1, "max": 1},
                                   {"name": "Line Troopers", "min": 4, "max": 9}]
    assert [(p["models"], p["points"]) for p in by_id["classes/horde"]["points"]] == [(10, 100), (20, 200)]
    assert [(p["models"], p["points"]) for p in by_id["classes/spear-squad"]["points"]] == [(4, 170), (5, 215)]
    assert by_id["classes/spear-squad"]["composition"] == [{"name": "Spear Sergeant", "min": 1, "max": 1},
                                                           {"name": "Spear Guard", "min": 3, "max": 4}]
    # the unit's size a choice ('10 models' or '20 models', each holding its Packlings); a second
    # Outcast when the twenty is chosen, set by modifiers on the constraints
    pack = by_id["classes/pack"]
    assert pack["composition"] == [{"name": "Pack Leader", "min": 1, "max": 1}, {"name": "Outcast", "min": 1, "max": 2},
                                   {"name": "Packling", "min": 8, "max": 17}]
    assert [(p["models"], p["points"], p["condition"]) for p in pack["points"]] == [(10, 65, None), (20, 140, None)]
    assert pack["wargear_options"][0]["choices"] == ["10 models", "20 models"]


def test_class7_conditional_rules_are_not_the_units_own(classes):
    _form, by_id, _p, report = classes
    names = [a["name"] for a in by_id["classes/line-squad"]["abilities"]]
    assert names == ["Oath of Classes"]  # not Other Vows (another army's), not Beta Doctrine (a detachment's)
    assert by_id["classes/beta-host"]["rule"] == {
        "name": "Beta Doctrine", "text": "Each time a CLASSES unit shoots, re-roll a Wound roll of 1."}
    assert by_id["classes/alpha-host"]["rule"]["name"] == "Alpha Doctrine"
    assert "classes/allies-host" not in by_id  # shown only in an Allies army: not a Classes detachment
    found = {d.message.split("'")[1] for d in _findings(report, "conditional-rule")}
    assert found == {"Other Vows", "Beta Doctrine", "Gamma Rites"}


def test_class8_wargear_options(classes):
    _form, by_id, _p, _report = classes
    assert by_id["classes/line-squad"]["wargear_options"] == []  # the fixed gear is no option
    assert by_id["classes/horde"]["wargear_options"] == [{
        "text": "Hordelings: each of the 10-20 models is one of the following (Hordeling w/ flayer by default):",
        "choices": ["Hordeling w/ flayer", "Hordeling w/ reaper"]}]
    assert by_id["classes/horde"]["composition"] == [{"name": "Hordelings", "min": 10, "max": 20}]


def test_class9_every_leader_profile_and_list_form(classes):
    _form, by_id, _p, _report = classes
    leader = by_id["classes/captain-classes"]["leader"]
    assert leader["units"] == ["Line Squad", "Spear Squad", "Horde"]
    assert leader["text"].startswith("This model can be attached to the following units:")
    assert "cannot be attached to a Line Squad unless" in leader["text"]  # the footnote kept, not a unit
    assert by_id["classes/horde"]["led_by"]["units"] == ["Captain Classes"]


def test_class10_accented_keywords_kept_and_hidden_categories_left_out(classes):
    _form, by_id, _p, report = classes
    keywords = by_id["classes/captain-classes"]["keywords"]
    assert "KÂHL" in keywords and "PISTOL REPLACEMENT" not in keywords
    assert not [d for d in _findings(report, "bad-keyword") if "Kâhl" in d.message]
    assert by_id["10e/keywords/kahl"]["name"] == "KÂHL"
    assert all(r["ruleset"] == "10e" for r in by_id.values())


def test_class12_repeated_findings_grouped(classes):
    _form, _by_id, _p, report = classes
    [grouped] = [d for d in _findings(report, "unsupported-modifier") if "wargear" in d.message]
    assert grouped.message.startswith("3 times:") and "Duelist A" in grouped.message and "Duelist C" in grouped.message
    assert grouped.file.endswith("Imperium - Classes.cat" if _form == "xml" else "Imperium - Classes.json")


def test_link_graph_a_self_linking_info_group_is_read_once_and_reported(classes):
    _form, by_id, _p, report = classes
    assert [a["name"] for a in by_id["classes/looper"]["abilities"]] == ["Endless"]
    [cycle] = [d for d in _findings(report, "cyclic-link") if "il-self" in d.found or "Self again" in d.message]
    assert cycle.file.startswith("bs/Imperium - Classes") and cycle.line > 1


# Issue 27: classes of disagreement with the Wahapedia export traced to this reader.

def test_class13_a_transport_profile_is_the_transport_box_not_an_ability(classes):
    _form, by_id, _p, _report = classes
    rhino = by_id["classes/classes-rhino"]
    # the data names the Transport profile after the unit ('Classes Rhino'): not an ability of that name
    assert rhino["transport"] == "This model has a transport capacity of 10 CLASSES INFANTRY models."
    assert not [a for a in rhino["abilities"] if a["name"] in ("Classes Rhino", "Transport")]
    assert "transport" not in by_id["classes/line-squad"]


def test_class14_an_allied_points_budget_is_not_a_keyword(classes):
    _form, by_id, _p, _report = classes
    # 'Classes Allies' only limits allies' points; 'Damned' has a budget too but is a printed keyword
    assert by_id["classes/classes-rhino"]["keywords"] == ["DAMNED"]
    assert "10e/keywords/classes-allies" not in by_id


def test_class15_a_detachment_rule_the_data_hides_until_chosen_is_not_the_units(classes):
    _form, by_id, _p, report = classes
    # hidden while the force holds no Beta Host and the unit is not inside one: no unit ever is
    assert "Gamma Rites" not in [a["name"] for a in by_id["classes/classes-rhino"]["abilities"]]
    assert "Gamma Rites" in {d.message.split("'")[1] for d in _findings(report, "conditional-rule")}


def test_class16_a_valued_core_ability_linked_without_its_value_is_for_reference(classes):
    _form, by_id, _p, _report = classes
    abilities = {a["name"]: a for a in by_id["classes/classes-rhino"]["abilities"]}
    # 'Feel No Pain' linked bare: the unit has it only for a phase (its Armoured Hull says so)
    assert "Feel No Pain" not in abilities and "Armoured Hull" in abilities
    # 'Scouts' linked bare beside a profile giving its value: the profile is kept
    assert abilities["Scouts"]["text"] == '6"'
    assert abilities["Deep Strike"]["type"] == "core"  # a core ability without a value is the unit's


def test_class17_one_weapon_profile_written_in_two_cases_is_one_weapon(classes):
    _form, by_id, _p, report = classes
    assert by_id["classes/classes-rhino"]["weapons"] == ["classes/classes-rhino/storm-bolter"]
    assert "classes/classes-rhino/storm-bolter-2" not in by_id
    assert not [d for d in _findings(report, "id-collision") if "storm-bolter" in d.message.lower()]


def test_class18_the_datas_misspelt_invulnerable_save_is_read(classes):
    _form, by_id, _p, _report = classes
    rhino = by_id["classes/classes-rhino"]
    assert rhino["models"][0]["invulnerable"] == 5  # 'Invunerable Save'
    assert not [a for a in rhino["abilities"] if a["name"].startswith("Inv")]


def test_class19_a_leader_profile_is_the_leader_ability_linked_or_not(classes):
    _form, by_id, _p, _report = classes
    captain = by_id["classes/captain-classes"]
    # the data gives the list (a Leader profile) but links no Leader rule: the datasheet still has it
    assert [a for a in captain["abilities"] if a["name"] == "Leader"] == [
        {"name": "Leader", "type": "core", "text": None, "ref": "10e/abilities/leader"}]
    assert "Leader" not in [a["name"] for a in by_id["classes/line-squad"]["abilities"]]


def test_class20_a_group_name_that_heads_or_lists_lines_is_not_a_models_name(classes):
    _form, by_id, _p, _report = classes
    # '5-10 Aspect Warriors and 1 Exarch': the Exarch is a line of its own, the rest Aspect Warriors
    assert by_id["classes/aspect-squad"]["composition"] == [{"name": "Aspect Exarch", "min": 1, "max": 1},
                                                            {"name": "Aspect Warriors", "min": 4, "max": 9}]
    # 'Squad Members' heads Kill Marines (with or without a plasma gun): the line is theirs
    assert by_id["classes/kill-squad"]["composition"] == [{"name": "Kill Marine", "min": 5, "max": 5}]
    assert by_id["classes/kill-squad"]["wargear_options"][0]["text"].startswith("Kill Marine: each of the 5 models")
