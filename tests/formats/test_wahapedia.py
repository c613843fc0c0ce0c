"""The Wahapedia CSV export: fixture -> the text records, round trip, malformed exports, build merge."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest

from warscribe.schema.diagnostics import Report
from warscribe.extract.compiler import without_derived
from warscribe.extract.pipeline import extract
from warscribe.export_csv import write_export
from warscribe.extract.wahapedia import folder_sha256, load_export

from conftest import without_annotated

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "wahapedia"
CARRIED = ("datasheet", "weapon", "stratagem", "detachment", "enhancement", "keyword", "ability")

# What the text pages give and the export has no column for (docs/formats.md).
EXPECTED_10E = {
    "grey-knights/paladin-squad", "grey-knights/paladin-squad/incinerator", "grey-knights/paladin-squad/psilencer",
    "grey-knights/paladin-squad/psycannon", "grey-knights/paladin-squad/storm-bolter",
    "grey-knights/paladin-squad/nemesis-force-weapon", "grey-knights/sanctic-spearhead", "grey-knights/baneslayer-strike",
    "grey-knights/sanctic-spearhead/abominus-class-targets", "grey-knights/sanctic-spearhead/truesilver-will",
    "grey-knights/baneslayer-strike/psybolt-ammunition", "grey-knights/baneslayer-strike/relentless-boarders",
    "grey-knights/baneslayer-strike/sanctic-circle", "core-10e/command-re-roll",
}
EXPECTED_11E = {
    "imperial-agents/inquisitor", "imperial-agents/inquisitor/bolt-pistol", "imperial-agents/inquisitor/combi-weapon",
    "imperial-agents/inquisitor/psychic-shock-wave", "imperial-agents/inquisitor/inquisitorial-melee-weapon",
    "imperial-agents/inquisitor/force-weapon", "imperial-agents/ordo-malleus-daemon-hunters",
    "imperial-agents/ordo-malleus-daemon-hunters/rites-of-exorcism",
    "imperial-agents/ordo-malleus-daemon-hunters/ritual-of-warding",
    "imperial-agents/ordo-malleus-daemon-hunters/enhancements/formidable-resolve",
    "imperial-agents/ordo-malleus-daemon-hunters/enhancements/gift-of-the-prescient",
    "imperial-agents/ordo-malleus-daemon-hunters/enhancements/grimoire-of-true-names-aura",
    "imperial-agents/ordo-xenos-alien-hunters", "imperial-agents/ordo-xenos-alien-hunters/rapid-tactical-relocation",
    "imperial-agents/ordo-xenos-alien-hunters/enhancements/universal-anathema", "boarding-actions/battlefield-command",
}
# Keyword records: one per keyword the datasheets carry (Datasheets_keywords.csv).
EXPECTED_10E |= {f"10e/keywords/{k}" for k in ("grenades", "grey-knights", "imperium", "infantry", "paladin-squad",
                                                "psyker", "terminator")}
EXPECTED_11E |= {f"11e/keywords/{k}" for k in ("agents-of-the-imperium", "character", "grenades", "imperium",
                                                "infantry", "inquisitor")}


def comparable(record: dict, drop_models: bool = True) -> dict:
    """A record without provenance and without what the export does not carry."""
    rec = copy.deepcopy({k: v for k, v in without_annotated(without_derived(record)).items() if k != "source"})
    if drop_models:
        rec.pop("models", None)
    rec.pop("number", None)  # 11th-edition core stratagem numbers: no column
    rec.pop("rulesets", None)  # seen under both editions in the text sources; an export is of one
    for p in rec.get("points", []) if rec["kind"] == "datasheet" else []:
        p.pop("condition_text", None)  # the page's tooltip on a cost condition: no column
    if rec.get("led_by", {}).get("units") == []:
        rec.pop("led_by")  # a 'LED BY' heading with its list lost: the export has only leader rows
    if rec["kind"] == "keyword":
        rec.pop("usage")  # the pages' 'keyword is used in' lists: no column
    if rec["kind"] == "ability":
        for key in ("heading", "bullets"):  # how a page printed it (its bullets are in its text): no column
            rec.pop(key, None)
    return rec


@pytest.fixture(scope="module")
def text_records() -> dict[str, dict]:
    return {r["id"]: r for r in extract(ROOT / "sources" / "manifest.yaml").records}


def load(folder: Path, ruleset: str, report: Report | None = None):
    report = report if report is not None else Report()
    return {r["id"]: r for r in load_export(folder, "x", ruleset, report).records()}, report


# -- the fixture gives the text records ------------------------------------------------------

@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_fixture_export_gives_the_text_records(edition, text_records):
    records, report = load(FIXTURE / edition, edition)
    assert report.errors == []
    assert set(records) == (EXPECTED_10E if edition == "10e" else EXPECTED_11E)
    for rid, rec in records.items():
        assert comparable(rec) == comparable(text_records[rid]), rid


def test_fixture_adds_model_characteristics():
    records, _ = load(FIXTURE / "10e", "10e")
    models = records["grey-knights/paladin-squad"]["models"]
    assert models[0] == {"name": "Paragon", "M": 5, "T": 5, "Sv": 2, "invulnerable": 4, "W": 3, "Ld": 6, "OC": 1,
                         "base_size": "40mm"}
    records, _ = load(FIXTURE / "11e", "11e")
    [inq] = records["imperial-agents/inquisitor"]["models"]
    assert (inq["M"], inq["T"], inq["Sv"], inq["invulnerable"]) == (6, 3, 4, None)
    source = records["imperial-agents/inquisitor"]["source"]
    assert source[-1]["fields"] == ["models"] and source[-1]["file"] == "x/Datasheets_models.csv"


# -- round trip ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_round_trip_gives_the_same_records(ruleset, text_records, tmp_path):
    originals = [r for r in text_records.values() if r["ruleset"] == ruleset]
    write_export(originals, tmp_path)
    back, report = load(tmp_path, ruleset)
    assert report.errors == []
    carried = {r["id"]: r for r in originals if r["kind"] in CARRIED
               and (r["kind"] != "keyword" or r["datasheets"])  # a keyword only the pages' lists name: no row
               and (r["kind"] != "ability" or r["type"] in ("core", "faction"))}  # Abilities.csv holds these
    assert set(back) == set(carried)
    for rid in carried:
        assert comparable(back[rid], False) == comparable(carried[rid], False), rid


def test_round_trip_keeps_models_and_writes_identical_bytes(tmp_path):
    fixture, _ = load(FIXTURE / "11e", "11e")
    write_export(list(fixture.values()), tmp_path / "a")
    write_export(list(fixture.values()), tmp_path / "b")
    assert folder_sha256(tmp_path / "a") == folder_sha256(tmp_path / "b")
    back, _ = load(tmp_path / "a", "11e")
    assert {k: comparable(v, False) for k, v in back.items()} == {k: comparable(v, False) for k, v in fixture.items()}
    assert (tmp_path / "a" / "Datasheets.csv").read_bytes().startswith("\ufeffid|name|faction_id|".encode())


# -- quirks ----------------------------------------------------------------------------------------

def _export(tmp_path: Path, files: dict[str, str]) -> Path:
    base = {
        "Factions.csv": "id|name|link|\nGK|Grey Knights||\n",
        "Datasheets.csv": "id|name|faction_id|\n1|Test Squad|GK|\n",
    }
    base.update(files)
    for name, text in base.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_multi_profile_weapons_and_bs_ws_spellings(tmp_path):
    folder = _export(tmp_path, {"Datasheets_wargear.csv": (
        "datasheet_id|line|line_in_wargear|name|description|range|type|A|BS_WS|S|AP|D|\n"
        "1|1|2|➤ Plasma gun – supercharge|Hazardous, Rapid Fire 1|24\"|Ranged|1|3|8|-3|2|\n"
        "1|1|1|➤ Plasma gun – standard|Rapid Fire 1|24\"|Ranged|1|3+|7|-2|1|\n"
        "1|2|1|Flamer|Ignores Cover, Torrent|12\"|Ranged|D6|N/A|4|0|1|\n"
        "1|3|1|Combat blade|DEVASTATING WOUNDS: INFANTRY, Anti-INFANTRY 4+|Melee|Melee|3|-|4|0|1|\n")})
    records, report = load(folder, "10e")
    ds = records["grey-knights/test-squad"]
    assert ds["weapons"] == ["grey-knights/test-squad/plasma-gun-standard", "grey-knights/test-squad/plasma-gun-supercharge",
                             "grey-knights/test-squad/flamer", "grey-knights/test-squad/combat-blade"]
    standard, supercharge = records[ds["weapons"][0]], records[ds["weapons"][1]]
    assert (standard["strength"], standard["skill"], supercharge["strength"], supercharge["skill"]) == (7, 3, 8, 3)
    assert [a["id"] for a in supercharge["abilities"]] == ["hazardous", "rapid-fire"]
    assert records[ds["weapons"][2]]["skill"] is None
    blade = records[ds["weapons"][3]]
    assert blade["skill"] is None
    assert blade["abilities"][0] == {"id": "devastating-wounds", "text": "DEVASTATING WOUNDS: INFANTRY", "condition": "INFANTRY"}
    assert blade["abilities"][1] == {"id": "anti", "text": "Anti-INFANTRY 4+", "keyword": "INFANTRY", "threshold": 4}
    assert report.errors == []


def test_costs_with_spaces_and_header_rows(tmp_path):
    folder = _export(tmp_path, {"Datasheets_models_cost.csv": (
        "datasheet_id|line|description|cost|\n"
        "1|1|Some Detachment||\n1|2|YOUR UNIT COSTS||\n1|3|5 models|  90|\n1|4|10 models| 180 |\n"
        "1|5|Other||\n1|6|1 model|15|\n")})
    records, _ = load(folder, "10e")
    assert records["grey-knights/test-squad"]["points"] == [
        {"models": 5, "points": 90, "condition": "Some Detachment"},
        {"models": 10, "points": 180, "condition": "Some Detachment"},
        {"models": 1, "points": 15, "condition": "Other"}]


# -- the classes the real export of the whole game shows (issue 26), each on rows of its own -------

def test_ranged_and_melee_profiles_of_one_name_and_names_differing_in_case(tmp_path):
    folder = _export(tmp_path, {"Datasheets_wargear.csv": (
        "datasheet_id|line|line_in_wargear|name|description|range|type|A|BS_WS|S|AP|D|\n"
        "1|1|1|Toxic lance||Melee|Melee|4|3|6|-1|2|\n"
        "1|2|1|Toxic Lance||9\"|Ranged|2|3|6|-1|2|\n"
        "1|3|1|Zealot’s spear||12\"|Ranged|D6|N/A|5|-0|1|\n"
        "1|4|1|Zealot's spear||Melee|Melee|3|4|5|-1|2|\n"
        "1|5|1|Deathstrike||N/A|Ranged|2D6|2|16|-4|1|\n")})
    records, report = load(folder, "10e")
    assert report.errors == [] and not [d for d in report.warnings if d.code == "id-collision"]
    ds = records["grey-knights/test-squad"]
    assert ds["weapons"] == [f"grey-knights/test-squad/{w}" for w in
                             ("toxic-lance-melee", "toxic-lance", "zealots-spear", "zealots-spear-melee", "deathstrike")]
    assert records["grey-knights/test-squad/zealots-spear"]["ap"] == 0
    assert records["grey-knights/test-squad/deathstrike"]["range"] is None


def test_characteristics_with_markers(tmp_path):
    folder = _export(tmp_path, {"Datasheets_models.csv": (
        "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|\n"
        "1|1|Jet|20+\"|9|3+|5*|* Against ranged attacks only|12|7+|0|Use model|\n"
        "1|2|Runtherd|6\"|5*|5+|-||2|7+|1|32mm|\n")})
    records, report = load(folder, "10e")
    jet, runtherd = records["grey-knights/test-squad"]["models"]
    assert (jet["M"], jet["invulnerable"], jet["markers"]) == (20, 5, {"M": "+", "invulnerable": "*"})
    assert (runtherd["T"], runtherd["markers"]) == (5, {"T": "*"})
    assert report.errors == []


def test_loadout_transport_and_damaged_profile_columns(tmp_path):
    folder = _export(tmp_path, {
        "Datasheets.csv": (
            "id|name|faction_id|loadout|transport|damaged_w|damaged_description|\n"
            "1|Test Squad|GK|<b>This model is equipped with:</b> storm bolter; armoured tracks.|This model has a <a href=\"/x#Transport-Capacity\">transport capacity</a> of 12 "
            "<span class=\"kwb\">INFANTRY</span> models.|1-5|While this model has 1-5 wounds remaining, subtract 1 "
            "from the <a href=\"/x#Hit-Roll\">Hit roll</a>.|\n"
            "2|Plain Squad|GK|||||\n"
            "3|Broken Squad|GK|||1-4||\n"),
        "Datasheets_abilities.csv": ("datasheet_id|line|ability_id|name|description|type|\n"
                                     "1|1||Self Repair|Regains 1 lost wound.|Datasheet|\n")})
    records, report = load(folder, "10e")
    ds = records["grey-knights/test-squad"]
    assert ds["transport"] == "This model has a transport capacity of 12 INFANTRY models."
    assert ds["loadout"] == "This model is equipped with: storm bolter; armoured tracks."
    assert ds["abilities"] == [
        {"name": "Self Repair", "type": "datasheet", "text": "Regains 1 lost wound."},
        {"name": "Damaged: 1-5 Wounds Remaining", "type": "datasheet",
         "text": "While this model has 1-5 wounds remaining, subtract 1 from the Hit roll."}]
    plain = records["grey-knights/plain-squad"]
    assert "transport" not in plain and "loadout" not in plain and plain["abilities"] == []
    # A range without its text: said, with the row and column, and left out.
    assert records["grey-knights/broken-squad"]["abilities"] == []
    assert [(d.code, d.line, d.column) for d in report.diagnostics] == [("bad-damaged-profile", 4, 7)]


def test_keywords_of_one_model_go_on_its_profile_and_survive_our_export(tmp_path):
    (tmp_path / "in").mkdir()
    folder = _export(tmp_path / "in", {
        "Datasheets.csv": "id|name|faction_id|\n1|Dark Apostle|GK|\n2|Ravenwing Command Squad|GK|\n",
        "Datasheets_models.csv": (
            "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|\n"
            "1|1|DARK APOSTLE|6\"|4|3+|4+||5|6+|1||\n1|2|DARK DISCIPLE|6\"|4|3+|-||1|6+|1||\n"
            "2|1|Ravenwing Command Squad|12\"|5|3+|-||4|6+|2||\n"),
        "Datasheets_unit_composition.csv": "datasheet_id|line|description|\n1|1|1 Dark Apostle and 2 Dark Disciples|\n",
        "Datasheets_keywords.csv": (
            "datasheet_id|keyword|model|is_faction_keyword|\n"
            "1|Infantry|ALL MODELS|false|\n1|Character|DARK APOSTLE ONLY|false|\n1|Grey Knights||true|\n"
            "1|Grenades||false|\n1|Grenades|DARK APOSTLE|false|\n"  # printed for everyone too: everyone's
            "2|Mounted||false|\n2|Character|RAVENWING CHAMPION|false|\n")})
    records, report = load(folder, "10e")
    apostle = records["grey-knights/dark-apostle"]
    assert apostle["keywords"] == ["INFANTRY", "CHARACTER", "GRENADES"]  # the unit has every model's keywords
    assert [m.get("keywords") for m in apostle["models"]] == [["CHARACTER"], None]
    squad = records["grey-knights/ravenwing-command-squad"]
    assert squad["keywords"] == ["MOUNTED", "CHARACTER"] and "keywords" not in squad["models"][0]
    assert [(d.code, d.line, d.column) for d in report.diagnostics] == [("unmatched-model-keyword", 8, 3)]
    # The engine's model kinds: only the Dark Apostle is a CHARACTER.
    from warscribe.engine.kb import model_kinds
    assert [(k.name, k.count, k.character) for k in model_kinds(apostle, 3, "target")] == [
        ("DARK APOSTLE", 1, True), ("DARK DISCIPLE", 2, False)]
    write_export(list(records.values()), tmp_path / "out")
    back, _ = load(tmp_path / "out", "10e")
    assert comparable(back["grey-knights/dark-apostle"], False) == comparable(apostle, False)


def test_compositions_with_alternatives_and_costs_described_by_their_models(tmp_path):
    folder = _export(tmp_path, {
        "Datasheets_unit_composition.csv": (
            "datasheet_id|line|description|\n1|1|1 Runtherd and 10 Gretchin|\n1|2|OR|\n1|3|2 Runtherds and 20 Gretchin|\n"
            "1|4|10 MODELS MAXIMUM|\n"),
        "Datasheets_models_cost.csv": (
            "datasheet_id|line|description|cost|\n1|1|1 Spanner and 4 Burna Boyz|60|\n"
            "1|2|1 model (<ky>AGENTS OF THE IMPERIUM</ky> Detachment)|110|\n1|3|Attack Bike|+55|\n"),
        "Enhancements.csv": ("id|faction_id|name|cost|detachment|legend|description|\n"
                             "9|GK|Micromelta Rounds|+45|Strike|x|<b>VINDICARE ASSASSIN</b> models only. Rule text.|\n")})
    records, report = load(folder, "10e")
    ds = records["grey-knights/test-squad"]
    assert ds["composition"] == [{"name": "Runtherd", "min": 1, "max": 2}, {"name": "Gretchin", "min": 10, "max": 20}]
    assert ds["points"] == [{"models": 5, "points": 60, "condition": None},
                            {"models": 1, "points": 110, "condition": "AGENTS OF THE IMPERIUM Detachment"}]
    assert ds["extra_points"] == [{"name": "Attack Bike", "points": 55}]
    enh = records["grey-knights/strike/enhancements/micromelta-rounds"]
    assert (enh["points"], enh["restriction"], enh["text"]) == (45, "VINDICARE ASSASSIN models only.", "Rule text.")
    assert [d.code for d in report.diagnostics] == ["bad-composition"]  # the unit-size limit: no field, located
    assert report.diagnostics[0].line == 5


def test_army_rule_actions_and_several_rules_of_a_detachment(tmp_path):
    folder = _export(tmp_path, {
        "Stratagems.csv": (
            "faction_id|id|name|type|cp_cost|legend|turn|phase|detachment|description|\n"
            "GK|1|OPPORTUNITY SEIZED|||||Movement phase|Army Rules|<b>TRIGGER:</b> An enemy ends a move.<br><br>"
            "<b>EFFECT:</b> One unit moves.|\n"
            "GK|2|FAST|Strike – Strategic Ploy Stratagem|1||Your turn|Movement or Charge phase|Strike|"
            "<b>WHEN:</b> Your Movement phase.<br><br><b>TARGET:</b> One unit.<br><br><b>EFFECT:</b> It moves.|\n"
            "|3|OPEN FIRE|Challenger – Battle Tactic Stratagem|0||Your turn|Shooting phase||"
            "<b>WHEN:</b> Your Shooting phase.<br><br><b>TARGET:</b> One unit.<br><br><b>EFFECT:</b> It shoots.|\n"),
        "Detachment_abilities.csv": (
            "id|faction_id|name|legend|description|detachment|\n7|GK|First Rule||One.|Strike|\n8|GK|KEYWORDS||Two.|Strike|\n")})
    records, report = load(folder, "10e")
    assert report.errors == []
    action = records["grey-knights/abilities/opportunity-seized"]
    assert (action["kind"], action["type"]) == ("ability", "faction") and "TRIGGER:" in action["text"]
    assert "grey-knights/army-rules" not in records
    fast = records["grey-knights/strike/fast"]
    assert (fast["turn"], fast["phases"], fast["cp"]) == ("your", ["movement", "charge"], 1)
    assert records["challenger-10e/open-fire"]["origin"] == "challenger"
    strike = records["grey-knights/strike"]
    assert strike["rule"]["name"] == "First Rule" and [r["name"] for r in strike["additional_rules"]] == ["KEYWORDS"]


def test_keywords_with_accents_and_curly_quotes_become_keyword_records(tmp_path):
    folder = _export(tmp_path, {"Datasheets_keywords.csv": (
        "datasheet_id|keyword|model|is_faction_keyword|\n1|Regimental Attachés||false|\n1|‘Iron Hand’ Straken||false|\n"
        "1|||true|\n1|Grey Knights||true|\n")})
    records, report = load(folder, "10e")
    assert records["grey-knights/test-squad"]["keywords"] == ["REGIMENTAL ATTACHÉS", "‘IRON HAND’ STRAKEN"]
    assert records["10e/keywords/regimental-attaches"]["datasheets"] == ["grey-knights/test-squad"]
    assert records["10e/keywords/grey-knights"]["faction_keyword"] is True
    assert [(d.code, d.line) for d in report.diagnostics] == [("empty-field", 4)]


def test_one_unit_in_two_publications_is_kept_apart(tmp_path):
    folder = _export(tmp_path, {
        "Datasheets.csv": "id|name|faction_id|source_id|\n1|Karanak|GK|10|\n2|Karanak|GK|11|\n3|Other|GK|12|\n4|Other|GK|13|\n",
        "Source.csv": ("id|name|type|edition|version|errata_date|errata_link|\n10|Chaos Daemons|Index|10||09.07.2025 0:00:00||\n"
                       "11|Legends: Legiones Daemonica|Datasheet|10||12.03.2025||\n12|Book A|Codex|10|1.0|||\n"
                       "13|Book B|Codex|10|1.0|||\n")})
    records, report = load(folder, "10e")
    assert records["grey-knights/karanak"]["source"][0]["publication"]["errata_date"] == "2025-07-09"
    # the Legends one: its id keeps the mark (where the sources meet), its name is as printed, `legends` says it
    legends = records["grey-knights/karanak-legends"]
    assert (legends["name"], legends.get("legends")) == ("Karanak", True)
    assert "legends" not in records["grey-knights/karanak"]
    assert records["grey-knights/other-book-b"]["name"] == "Other (Book B)"
    assert [(d.code, d.line) for d in report.diagnostics] == [("id-collision", 5)]


def test_bom_crlf_newlines_in_fields_and_html(tmp_path):
    folder = _export(tmp_path, {"Datasheets_abilities.csv": (
        "\ufeffdatasheet_id|line|ability_id|name|description|type|\r\n"
        "1|1||Purge &amp; Cleanse (Psychic)|Each time this unit shoots,\r\n<br><br>add 1 to <span class=\"kwb\">hit</span> &lt;rolls&gt;.|"
        "Datasheet|\r\n")})
    records, report = load(folder, "10e")
    [ability] = records["grey-knights/test-squad"]["abilities"]
    assert ability == {"name": "Purge & Cleanse", "type": "datasheet", "psychic": True,
                       "text": "Each time this unit shoots,\n\nadd 1 to hit <rolls>."}
    assert report.diagnostics == []


def test_a_label_a_stratagem_record_has_no_field_for_is_reported(tmp_path):
    folder = _export(tmp_path, {"Stratagems.csv": (
        "faction_id|name|id|type|cp_cost|legend|detachment|description|\n"
        "|RAPID DASH|1|Core – Strategic Ploy Stratagem|1||"
        "|<b>WHEN:</b> Your Movement phase.<br><b>TARGET:</b> One unit.<br><b>EFFECT:</b> It moves."
        "<br><b>MAXIMUM DISTANCE:</b> 6\"|\n")})
    records, report = load(folder, "10e")
    assert records["core-10e/rapid-dash"]["effect"] == "It moves."
    assert "maximum distance" not in records["core-10e/rapid-dash"]
    [warning] = [d for d in report.warnings if d.code == "stratagem-text"]
    assert warning.found == "MAXIMUM DISTANCE" and warning.line == 2

# -- malformed exports ---------------------------------------------------------------------------

def _copy_fixture(tmp_path: Path) -> Path:
    folder = tmp_path / "export"
    shutil.copytree(FIXTURE / "10e", folder)
    return folder


def test_missing_column_names_file_and_column_and_the_rest_loads(tmp_path):
    folder = _copy_fixture(tmp_path)
    path = folder / "Datasheets_wargear.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("|BS_WS|", "|BS|", 1), encoding="utf-8")
    records, report = load(folder, "10e")
    [err] = report.errors
    assert (err.file, err.line, err.code) == ("x/Datasheets_wargear.csv", 1, "missing-column")
    assert "'BS_WS'" in err.message and "row 0" in err.message
    assert records["grey-knights/paladin-squad"]["weapons"] == []
    assert "grey-knights/sanctic-spearhead/truesilver-will" in records


def test_wrong_separator_is_reported(tmp_path):
    folder = _copy_fixture(tmp_path)
    (folder / "Datasheets_keywords.csv").write_text("datasheet_id,keyword,model,is_faction_keyword\n000000891,Infantry,,false\n",
                                                     encoding="utf-8")
    records, report = load(folder, "10e")
    [err] = report.errors
    assert (err.file, err.line, err.column, err.code) == ("x/Datasheets_keywords.csv", 1, 1, "wrong-separator")
    assert "','" in err.found
    assert records["grey-knights/paladin-squad"]["keywords"] == []
    assert len(records["grey-knights/paladin-squad"]["models"]) == 2


def test_bad_encoding_names_row_and_column(tmp_path):
    folder = _copy_fixture(tmp_path)
    path = folder / "Datasheets_unit_composition.csv"
    path.write_bytes(path.read_bytes().replace(b"Paladins", b"Palad\xe9ns"))
    records, report = load(folder, "10e")
    codes = [(e.file, e.code) for e in report.errors]
    assert codes == [("x/Datasheets_unit_composition.csv", "bad-encoding")] * 2
    row_error = report.errors[1]
    assert (row_error.line, row_error.column) == (3, 3)
    assert "row 2, column 'description'" in row_error.message
    assert records["grey-knights/paladin-squad"]["composition"][1]["name"] == "Palad\ufffdns"


def test_row_with_too_many_fields_is_reported_and_skipped(tmp_path):
    folder = _copy_fixture(tmp_path)
    path = folder / "Datasheets_wargear.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[2] = lines[2] + "surplus|"
    path.write_text("\n".join(lines), encoding="utf-8")
    records, report = load(folder, "10e")
    [err] = report.errors
    assert (err.file, err.line, err.column, err.code) == ("x/Datasheets_wargear.csv", 3, 14, "too-many-fields")
    assert "row 2" in err.message and "surplus" in err.found
    assert "grey-knights/paladin-squad/psilencer" not in records
    assert "grey-knights/paladin-squad/psycannon" in records


def test_row_with_too_few_fields_and_a_bad_value(tmp_path):
    folder = _copy_fixture(tmp_path)
    path = folder / "Datasheets_models.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[1] = "000000891|1|Paragon|5\"|5|"
    lines[2] = lines[2].replace("|3|6+|", "|three|6+|")
    path.write_text("\n".join(lines), encoding="utf-8")
    records, report = load(folder, "10e")
    assert [(e.code, e.line, e.column) for e in report.errors] == [("too-few-fields", 2, 6), ("bad-characteristic", 3, 9)]
    assert "column 'W'" in report.errors[1].message
    assert "models" not in records["grey-knights/paladin-squad"]


# -- the build merges the export into the text records ------------------------------------------

def test_build_with_text_and_export_gains_models_with_field_provenance(text_records):
    result = extract(FIXTURE / "manifest.yaml")
    assert result.report.errors == []
    built = {r["id"]: r for r in result.records}
    for ds_id in ("grey-knights/paladin-squad", "imperial-agents/inquisitor"):
        ds = built[ds_id]
        assert ds["models"] and "models" not in text_records[ds_id]
        assert comparable(ds) == comparable(text_records[ds_id])
        fields = [s for s in ds["source"] if "fields" in s]
        assert [s["fields"] for s in fields] == [["models"]]
        assert fields[0]["file"].endswith("/Datasheets_models.csv")
        assert ds["source"][0]["file"].endswith(".txt")
    assert not [d for d in result.report.warnings if d.code == "conflicting-duplicate"]
    assert set(built) == set(text_records)


def test_changed_export_fails_its_checksum(tmp_path):
    folder = _copy_fixture(tmp_path)
    before = folder_sha256(folder)
    (folder / "Last_update.csv").write_text("last_update|\n2030-01-01|\n", encoding="utf-8")
    assert folder_sha256(folder) != before


def test_export_of_several_editions_writes_one_folder_each(text_records, tmp_path):
    write_export(list(text_records.values()), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["10e", "11e"]
    back, report = load(tmp_path / "11e", "11e")
    assert "imperial-agents/inquisitor" in back and "grey-knights/paladin-squad" not in back
    assert "11th" in (tmp_path / "11e" / "Source.csv").read_text(encoding="utf-8-sig")


def test_a_rule_s_banner_is_not_its_text():
    from warscribe.extract.wahapedia.common import without_banner

    body = "FIRING DECK\n\nSome transports have hatches.\n\nSome TRANSPORT models have Firing Deck x."
    assert without_banner(body, "Firing Deck", "Some transports have hatches.") == \
        "Some TRANSPORT models have Firing Deck x."
    # Only the head: the name or the legend further down is the rule's own text, and a
    # text that is nothing but its name is kept.
    assert without_banner("Deep Strike\n\nDeep Strike", "Deep Strike", "") == "Deep Strike"
    later = "Each time... \n\nFIRING DECK"
    assert without_banner(later, "Firing Deck", "") == later
