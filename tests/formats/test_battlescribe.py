"""BattleScribe data: the reader on hand-made catalogues in both forms, hostile input,
the snapshots' Paladin Squad and Inquisitor, and a page meeting a catalogue."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from warscribe.extract import battlescribe as bs
from warscribe.extract.battlescribe import files as bs_files
from warscribe.extract.pipeline import extract
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import record_errors

from conftest import ROOT, bsdata_path, write_manifest

FIXTURES = ROOT / "tests" / "fixtures" / "battlescribe"
PAGE = FIXTURES / "datasheet-testers-alpha-squad.10e.txt"
FORMS = ["xml", "json"]


def read(path: Path, name: str = "bs", chosen=None, ruleset: str = "10e"):
    report = Report()
    files = bs.load(path, name, ruleset, 0, chosen, report)
    items, index = bs.read(files, report)
    return {r["id"]: (r, p[0]) for r, p in items}, report, index


def codes(report: Report) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in report.sorted():
        out.setdefault(d.code, []).append(d.message)
    return out


# -- the reader on hand-made catalogues ---------------------------------------------------

def test_both_forms_give_the_same_records_and_findings():
    xml, xml_report, _ = read(FIXTURES / "xml")
    js, js_report, _ = read(FIXTURES / "json")
    assert {k: r for k, (r, _p) in xml.items()} == {k: r for k, (r, _p) in js.items()}
    assert [(d.code, d.message) for d in xml_report.sorted()] == [(d.code, d.message) for d in js_report.sorted()]


@pytest.mark.parametrize("form", FORMS)
def test_datasheet_through_links_shared_profiles_and_groups(form):
    by_id, _report, _ = read(FIXTURES / form)
    ds, prov = by_id["testers/alpha-squad"]
    assert record_errors(dict(ds, source=[prov])) == []
    assert ds["faction"] == "Testers"
    assert ds["keywords"] == ["INFANTRY", "ALPHA SQUAD"] and ds["faction_keywords"] == ["TESTERS"]
    # the group's constraints give the composition; its name loses the count
    assert ds["composition"] == [{"name": "Alpha Marines", "min": 5, "max": 10}]
    # the base cost at the smallest unit, the model-count modifier as a price per size
    assert ds["points"] == [{"models": 5, "points": 100, "condition": None}, {"models": 10, "points": 200, "condition": None}]
    abilities = {a["name"]: a for a in ds["abilities"]}
    assert abilities["Deep Strike"] == {"name": "Deep Strike", "type": "core", "text": None, "ref": "10e/abilities/deep-strike"}
    assert abilities["Oath of Testing"]["ref"] == "testers/abilities/oath-of-testing"
    assert abilities["Steady Advance"]["psychic"] is True
    assert abilities["Steady Advance"]["text"].endswith("as if it were ALPHA SQUAD veterans.")
    assert abilities["Testing Banner"]["type"] == "wargear"
    assert "Secret Gear" not in abilities and "Lethal Hits" not in abilities  # hidden; a weapon's rule
    # the shared invulnerable-save profile (game system) lands on the model
    assert ds["models"] == [{"name": "Alpha Squad", "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 2, "invulnerable": 4}]
    assert ds["wargear_options"] == [{"text": "Alpha Marine: Weapon Choice: one of the following:",
                                      "choices": ["Bolt rifle", "Plasma gun"]}]
    assert ds["led_by"]["units"] == ["Captain Test"]
    # the models carry the cost: a price at every unit size
    assert by_id["testers/walkers"][0]["points"] == [{"models": 1, "points": 60, "condition": None},
                                                     {"models": 2, "points": 120, "condition": None},
                                                     {"models": 3, "points": 180, "condition": None}]
    assert "testers/squad-sergeant" not in by_id  # a shared model no army list offers: part of other units
    assert by_id["testers/captain-test"][0]["points"] == [
        {"models": 1, "points": 85, "condition": None},
        {"models": 1, "points": 95, "condition": "Army Faction is not Imperium - Testers"}]
    assert by_id["testers/captain-test"][0]["leader"] == {
        "text": "This model can be attached to the following units:", "units": ["Alpha Squad"]}
    assert sorted(ds["weapons"]) == ["testers/alpha-squad/bolt-rifle", "testers/alpha-squad/plasma-gun-supercharge",
                                     "testers/alpha-squad/power-sword"]


@pytest.mark.parametrize("form", FORMS)
def test_weapons_from_a_linked_library_with_parsed_abilities(form):
    by_id, _report, _ = read(FIXTURES / form)
    rifle, prov = by_id["testers/alpha-squad/bolt-rifle"]
    assert (rifle["type"], rifle["range"], rifle["attacks"], rifle["skill"], rifle["strength"], rifle["ap"],
            rifle["damage"]) == ("ranged", 24, 2, 3, 4, -1, 1)
    assert [a["id"] for a in rifle["abilities"]] == ["assault", "heavy", "lethal-hits"]
    assert prov["file"] == f"bs/Test Library.{'cat' if form == 'xml' else 'json'}"
    assert prov["entry"] == {"catalogue": "Test Library", "id": "profile-bolt-rifle"}
    plasma = by_id["testers/alpha-squad/plasma-gun-supercharge"][0]
    assert plasma["name"] == "Plasma gun - supercharge"
    assert plasma["abilities"] == [{"id": "hazardous", "text": "Hazardous"}, {"id": "rapid-fire", "text": "Rapid Fire 1", "value": 1}]
    sword = by_id["testers/alpha-squad/power-sword"][0]
    assert (sword["type"], sword["range"], sword["attacks"], sword["abilities"]) == ("melee", None, "D6+1", [])


@pytest.mark.parametrize("form", FORMS)
def test_rules_detachments_and_enhancements(form):
    by_id, _report, _ = read(FIXTURES / form)
    assert by_id["10e/abilities/deep-strike"][0]["type"] == "core"
    lethal = by_id["10e/abilities/lethal-hits"][0]
    assert (lethal["type"], lethal["ability_id"]) == ("weapon", "lethal-hits")
    assert by_id["testers/abilities/oath-of-testing"][0]["text"].endswith("against MONSTER units.")
    detachment = by_id["testers/test-host"][0]
    assert detachment["rule"] == {"name": "Testing Doctrine", "text": "Add 1 to Advance rolls made for TESTERS units."}
    assert detachment["enhancements"] == ["testers/test-host/enhancements/shiny-relic"]
    relic = by_id["testers/test-host/enhancements/shiny-relic"][0]
    assert (relic["points"], relic["restriction"], relic["text"]) == (15, "TESTERS model only.", "The bearer has the Stealth ability.")
    infantry, prov = by_id["10e/keywords/infantry"]
    assert (infantry["datasheets"], infantry["faction_keyword"]) == (["testers/alpha-squad", "testers/captain-test"], False)
    assert prov["entry"] == {"catalogue": "Test System", "id": "cat-infantry"}  # the category's definition
    assert by_id["10e/keywords/testers"][0]["faction_keyword"] is True
    for record, prov in by_id.values():
        assert record_errors(dict(record, source=[prov])) == [], record["id"]


@pytest.mark.parametrize("form", FORMS)
def test_what_is_not_understood_is_reported_by_file_and_entry(form):
    by_id, report, index = read(FIXTURES / form)
    found = codes(report)
    suffix = "cat" if form == "xml" else "json"
    assert all(d.file == f"bs/Testers.{suffix}" and d.line > 1 for d in report.diagnostics)
    assert "entry unit-alpha" in found["unsupported-modifier"][0] and "increment 10" in found["unsupported-modifier"][0]
    assert "entry profile-orders" in found["unknown-profile-type"][0]
    assert "'rule-nowhere'" in found["unresolved-link"][0] and index.unresolved == 1
    assert any("entry upgrade-secret" in m for m in found["hidden-entry"])
    assert any("entry unit-hidden" in m for m in found["hidden-entry"])
    assert "entry el-loop-a" in found["cyclic-link"][0]
    assert "Hit & Run" in found["bad-keyword"][0]
    # what an unknown profile type holds is kept, as text
    orders = next(a for a in by_id["testers/alpha-squad"][0]["abilities"] if a["name"] == "Battle Orders")
    assert orders["text"] == 'Effect: Move 2"\nDuration: Until your next turn'
    assert "testers/hidden-hero" not in by_id
    assert report.errors == []


def test_provenance_points_at_the_entry_in_either_form():
    xml, _r, _ = read(FIXTURES / "xml")
    js, _r, _ = read(FIXTURES / "json")
    xml_prov, js_prov = xml["testers/alpha-squad"][1], js["testers/alpha-squad"][1]
    xml_lines = (FIXTURES / "xml" / "Testers.cat").read_text(encoding="utf-8").splitlines()
    js_lines = (FIXTURES / "json" / "Testers.json").read_text(encoding="utf-8").splitlines()
    assert 'id="unit-alpha"' in xml_lines[xml_prov["first_line"] - 1]
    assert '"id": "unit-alpha"' in js_lines[js_prov["first_line"] - 1]
    assert xml_prov["entry"] == js_prov["entry"] == {"catalogue": "Imperium - Testers", "id": "unit-alpha"}


# -- hostile and broken input ----------------------------------------------------------------

BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<catalogue id="bomb" name="&lol9;" type="catalogue"/>
"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE catalogue [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<catalogue id="ext" name="&secret;" type="catalogue"/>
"""


@pytest.mark.parametrize("payload", [BOMB, EXTERNAL], ids=["entity-bomb", "external-entity"])
def test_entity_declarations_are_refused_and_the_rest_is_read(tmp_path, payload):
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / "xml", folder)
    (folder / "Evil.cat").write_bytes(payload)
    started = time.perf_counter()
    by_id, report, _ = read(folder)
    assert time.perf_counter() - started < 30  # generous: an expanding bomb would not finish
    [error] = report.errors
    assert (error.file, error.code, error.line) == ("bs/Evil.cat", "bad-battlescribe", 2)
    assert "document type declaration refused" in error.message
    assert "testers/alpha-squad" in by_id  # the other files are read


@pytest.mark.parametrize("name, data, line, what", [
    ("Broken.cat", b'<?xml version="1.0"?>\n<catalogue id="x" type="catalogue">\n  <sharedRules>\n</catalogue>\n', 4, "malformed XML"),
    ("Broken.json", b'{\n  "catalogue": {\n    "id": "x",\n    "name": \n  }\n}\n', 5, "malformed JSON"),
    ("Other.cat", b'<?xml version="1.0"?>\n<roster id="x"/>\n', 1, "neither a game system nor a catalogue"),
    ("Latin1.json", '{"catalogue": {"name": "Caf\u00e9"}}'.encode("latin-1"), 1, "not UTF-8"),
])
def test_malformed_files_give_located_errors(tmp_path, name, data, line, what):
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES / "xml", folder)
    (folder / name).write_bytes(data)
    by_id, report, _ = read(folder)
    [error] = report.errors
    assert (error.file, error.line, error.code) == (f"bs/{name}", line, "bad-battlescribe")
    assert what in error.message
    assert "testers/alpha-squad" in by_id


def test_nesting_is_bounded(tmp_path):
    deep = b"<catalogue>" + b"<a>" * 500 + b"</a>" * 500 + b"</catalogue>"
    (tmp_path / "Deep.cat").write_bytes(deep)
    (tmp_path / "Deep.json").write_bytes(b'{"catalogue": ' + b"[" * 5000 + b"]" * 5000 + b"}")
    _by_id, report, _ = read(tmp_path)
    assert [(e.file, e.code) for e in report.errors] == [("bs/Deep.cat", "bad-battlescribe"), ("bs/Deep.json", "bad-battlescribe")]
    assert all("nested" in e.message for e in report.errors)


def _tar(folder: Path, out: Path, extra: dict[str, bytes] | None = None) -> Path:
    with tarfile.open(out, "w:xz") as tf:
        for p in sorted(folder.iterdir()):
            tf.add(p, arcname=f"data/{p.name}")
        for name, data in (extra or {}).items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return out


def test_archives_read_like_folders_and_refuse_unsafe_members(tmp_path):
    folder_records = {k: r for k, (r, _p) in read(FIXTURES / "json")[0].items()}
    archive = _tar(FIXTURES / "json", tmp_path / "data.tar.xz", {"../escape.cat": b"<catalogue/>"})
    by_id, report, _ = read(archive, "data.tar.xz")
    assert {k: r for k, (r, _p) in by_id.items()} == folder_records
    assert by_id["testers/alpha-squad"][1]["file"] == "data.tar.xz/data/Testers.json"
    assert [(e.code, e.found) for e in report.errors] == [("unsafe-member", "../escape.cat")]
    with zipfile.ZipFile(tmp_path / "data.zip", "w") as zf:
        for p in sorted((FIXTURES / "xml").iterdir()):
            zf.write(p, arcname=p.name)
    by_zip, zip_report, _ = read(tmp_path / "data.zip", "data.zip")
    assert {k: r for k, (r, _p) in by_zip.items()} == folder_records and zip_report.errors == []


def test_chosen_files_and_a_missing_choice(tmp_path):
    by_id, report, _ = read(FIXTURES / "xml", chosen=["Test System.gst", "Test Library.cat", "Nope.cat"])
    assert "testers/alpha-squad" not in by_id and "10e/abilities/deep-strike" in by_id
    assert [(e.code, e.message) for e in report.errors] == [("missing-source", "chosen file 'Nope.cat' is not in bs")]


def test_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(bs_files, "MAX_FILE", 3000)
    by_id, report, _ = read(FIXTURES / "xml")
    assert {e.file for e in report.errors if e.code == "too-large"} == {"bs/Testers.cat", "bs/Test Library.cat"}
    assert "10e/abilities/deep-strike" in by_id  # the small game system is read


# -- in a build: the manifest, and records meeting --------------------------------------------

def _build(tmp_path: Path, page_first: bool = True, data: str = "xml"):
    shutil.copy(PAGE, tmp_path / PAGE.name)
    shutil.copytree(FIXTURES / data, tmp_path / "bsdata")
    page = {"file": PAGE.name, "ruleset": "10e", "kind": "datasheet-page", "faction": "Testers"}
    data_entry = {"file": "bsdata", "ruleset": "10e", "kind": "battlescribe"}
    return extract(write_manifest(tmp_path, [page, data_entry] if page_first else [data_entry, page]))


def test_a_page_and_a_catalogue_disagreeing_on_one_cost_make_one_record_and_one_finding(tmp_path):
    result = _build(tmp_path)
    [ds] = [r for r in result.records if r["id"] == "testers/alpha-squad"]
    assert [(p["models"], p["points"]) for p in ds["points"]] == [(5, 100), (10, 210)]  # the page's, listed first
    [finding] = [d for d in result.report.diagnostics if d.code == "source-disagreement"]
    assert finding.file.endswith("bsdata/Testers.cat") and finding.line == 16
    assert "testers/alpha-squad: points differs" in finding.message
    assert "10 models: 210" in finding.expected and "datasheet-testers-alpha-squad.10e.txt:1" in finding.expected
    assert "10 models: 200" in finding.found and "(entry unit-alpha)" in finding.found
    files = [(s["file"].rsplit("/", 1)[-1], s.get("entry", {}).get("id"), s.get("fields")) for s in ds["source"]]
    assert files == [("datasheet-testers-alpha-squad.10e.txt", None, None), ("Testers.cat", "unit-alpha", None),
                     ("Testers.cat", "unit-alpha", ["models", "led_by"])]
    assert "models" in ds and list(ds)[-1] == "source" and list(ds).index("led_by") < list(ds).index("models")
    # keywords: the datasheets of every source
    assert next(r for r in result.records if r["id"] == "10e/keywords/character")["datasheets"] == ["testers/captain-test"]
    # the weapons agree: one record each, with both provenances and no finding
    rifle = next(r for r in result.records if r["id"] == "testers/alpha-squad/bolt-rifle")
    assert len({s["file"] for s in rifle["source"]}) == 2
    assert result.report.errors == [] and result.rejected == []


def test_the_source_listed_first_wins(tmp_path):
    result = _build(tmp_path, page_first=False)
    ds = next(r for r in result.records if r["id"] == "testers/alpha-squad")
    assert [(p["models"], p["points"]) for p in ds["points"]] == [(5, 100), (10, 200)]
    [finding] = [d for d in result.report.diagnostics if d.code == "source-disagreement"]
    assert "10 models: 200" in finding.expected and finding.file.endswith(PAGE.name)


def test_a_changed_catalogue_is_refused_by_its_checksum_and_the_build_goes_on(tmp_path):
    shutil.copy(PAGE, tmp_path / PAGE.name)
    shutil.copytree(FIXTURES / "json", tmp_path / "bsdata")
    manifest = write_manifest(tmp_path, [{"file": PAGE.name, "ruleset": "10e", "kind": "datasheet-page", "faction": "Testers"},
                                         {"file": "bsdata", "ruleset": "10e", "kind": "battlescribe"}])
    (tmp_path / "bsdata" / "Testers.json").write_text("{}", encoding="utf-8")
    result = extract(manifest)
    assert [e.code for e in result.report.errors] == ["checksum"]
    assert any(r["id"] == "testers/alpha-squad" for r in result.records)  # from the page


# -- the snapshots: Grey Knights and Agents of the Imperium ----------------------------------

SNAPSHOTS = {"10e": ("wh40k-10e-801555b.tar.xz", "cat", "gst"), "11e": ("wh40k-11e-54c189f.tar.xz", "json", "json")}


@pytest.fixture(scope="module", params=sorted(SNAPSHOTS))
def snapshot(request):
    archive, ext, system = SNAPSHOTS[request.param]
    path = bsdata_path(archive)
    chosen = [f"Warhammer 40,000.{system}", f"Imperium - Grey Knights.{ext}", f"Imperium - Agents of the Imperium.{ext}"]
    by_id, report, index = read(path, archive, chosen, ruleset=request.param)
    return request.param, by_id, report


def test_snapshot_paladin_squad(snapshot):
    ruleset, by_id, _report = snapshot
    ds, prov = by_id["grey-knights/paladin-squad"]
    assert prov["entry"] == {"catalogue": "Imperium - Grey Knights", "id": "6528-4634-c2cf-2840"}
    assert sorted(ds["keywords"]) == ["GRENADES", "IMPERIUM", "INFANTRY", "PALADIN SQUAD", "PSYKER", "TERMINATOR"]
    assert ds["faction_keywords"] == ["GREY KNIGHTS"]
    assert sorted((c["name"], c["min"], c["max"]) for c in ds["composition"]) == [("Paladins", 3, 9), ("Paragon", 1, 1)]
    first = 180 if ruleset == "10e" else 170
    assert [(p["models"], p["points"]) for p in ds["points"]] == [(4, first), (5, first + 45), (8, 360), (10, 450)]
    assert {(m["M"], m["T"], m["Sv"], m["W"], m["Ld"], m["OC"], m["invulnerable"]) for m in ds["models"]} == {(5, 5, 2, 3, 6, 1, 4)}
    assert {a["name"]: a["type"] for a in ds["abilities"]} == {
        "Deep Strike": "core", "Gate of Infinity": "faction", "Attuned Onslaught": "datasheet",
        "Ancient's Banner": "wargear", "Apothecary's narthecium": "wargear"}
    assert sorted(ds["weapons"]) == [f"grey-knights/paladin-squad/{w}" for w in
                                     ("incinerator", "nemesis-force-weapon", "psilencer", "psycannon", "storm-bolter")]
    psilencer = by_id["grey-knights/paladin-squad/psilencer"][0]
    assert (psilencer["range"], psilencer["attacks"], psilencer["skill"], psilencer["strength"], psilencer["ap"],
            psilencer["damage"]) == (24, 6, 2, 5, 0, 1)
    assert [a["id"] for a in psilencer["abilities"]] == ["precision", "psychic", "sustained-hits"]
    incinerator = by_id["grey-knights/paladin-squad/incinerator"][0]
    assert (incinerator["attacks"], incinerator["skill"], [a["id"] for a in incinerator["abilities"]]) == (
        "D6", None, ["ignores-cover", "torrent"])


def test_snapshot_inquisitor(snapshot):
    ruleset, by_id, _report = snapshot
    ds, prov = by_id["imperial-agents/inquisitor"]
    assert prov["entry"]["catalogue"] == "Imperium - Agents of the Imperium"
    assert ds["faction"] == "Imperial Agents" and ds["faction_keywords"] == ["AGENTS OF THE IMPERIUM"]
    assert sorted(ds["keywords"]) == ["CHARACTER", "GRENADES", "IMPERIUM", "INFANTRY", "INQUISITOR"]
    # +10 points outside an Agents of the Imperium army: the page's "Assigned Agent" price
    assert ds["points"] == [{"models": 1, "points": 55, "condition": None},
                            {"models": 1, "points": 65, "condition": "Army Faction is not Imperium - Agents of the Imperium"}]
    assert ds["models"] == [{"name": "Inquisitor", "M": 6, "T": 3, "Sv": 4, "W": 4, "Ld": 6, "OC": 1, "invulnerable": 5}]
    assert sorted(w.rsplit("/", 1)[1] for w in ds["weapons"]) == [
        "bolt-pistol", "combi-weapon", "force-weapon", "inquisitorial-melee-weapon", "psychic-shock-wave"]
    shock = by_id["imperial-agents/inquisitor/psychic-shock-wave"][0]
    assert (shock["range"], shock["attacks"], shock["skill"], shock["strength"]) == (18, "2D6", None, 3)
    assert [a["id"] for a in shock["abilities"]] == ["devastating-wounds", "psychic", "torrent"]
    assert "Inquisitorial Agents" in ds["leader"]["units"]


def test_snapshot_reports_links_into_catalogues_it_was_not_given(snapshot):
    _ruleset, _by_id, report = snapshot
    missing = [d for d in report.diagnostics if d.code == "missing-catalogue"]
    assert any("Imperium - Imperial Knights - Library" in d.message for d in missing)
    assert report.errors == []


def test_data_outside_the_manifest_folder_needs_a_trusted_root(tmp_path):
    project, data = tmp_path / "project", tmp_path / "bsdata"
    project.mkdir()
    shutil.copytree(FIXTURES / "json", data)
    from warscribe.extract.wahapedia import folder_sha256

    entry = {"file": "../bsdata", "original_name": "bsdata", "sha256": folder_sha256(data), "ruleset": "10e",
             "kind": "battlescribe"}
    manifest = project / "manifest.yaml"
    manifest.write_text(json.dumps({"sources": [entry]}), encoding="utf-8")
    refused = extract(manifest)
    assert [e.code for e in refused.report.errors] == ["unconfined-source"] and refused.records == []
    trusted = extract(manifest, roots=(data,))
    assert trusted.report.errors == [] and any(r["id"] == "testers/alpha-squad" for r in trusted.records)
    # a trusted root widens confinement to itself only
    (tmp_path / "other").mkdir()
    elsewhere = extract(manifest, roots=(tmp_path / "other",))
    assert [e.code for e in elsewhere.report.errors] == ["unconfined-source"]


def test_cli_builds_a_page_with_data_beside_the_project(tmp_path):
    """`warscribe build --data DIR`: the written record has both provenances; the finding is in report.json."""
    import subprocess
    import sys

    project, data = tmp_path / "project", tmp_path / "bsdata"
    project.mkdir()
    shutil.copy(PAGE, project / PAGE.name)
    shutil.copytree(FIXTURES / "xml", data)
    manifest = write_manifest(project, [{"file": PAGE.name, "ruleset": "10e", "kind": "datasheet-page", "faction": "Testers"}])
    from warscribe.extract.wahapedia import folder_sha256

    text = manifest.read_text(encoding="utf-8") + (
        f"- file: ../bsdata\n  original_name: bsdata\n  sha256: {folder_sha256(data)}\n  ruleset: 10e\n  kind: battlescribe\n")
    manifest.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--manifest", str(manifest), "--data", str(data),
                          "--out", str(out), "-q"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    bundle = json.loads((out / "json" / "warscribe.json").read_text(encoding="utf-8"))
    [ds] = [r for r in bundle["data"]["datasheet"] if r["id"] == "testers/alpha-squad"]
    assert sorted({s["file"] for s in ds["source"]}) == ["bsdata/Testers.cat", f"project/{PAGE.name}"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [d["code"] for d in report["diagnostics"]].count("source-disagreement") == 1


def test_an_empty_list_on_the_page_is_filled_not_a_disagreement():
    from warscribe.extract.battlescribe.merge import add_records
    from warscribe.extract.store import Store
    from warscribe.schema import records

    def sheet(led_by: list[str], source: str) -> dict:
        return records.datasheet(
            id="testers/alpha-squad", name="Alpha Squad", ruleset="10e", faction="Testers", keywords=["INFANTRY"],
            faction_keywords=["TESTERS"], composition=[], points=[], abilities=[], weapons=[], wargear_options=[],
            led_by={"text": "This unit can be led by the following units:", "units": led_by},
            source=[{"file": source, "first_line": 1, "last_line": 1, "ruleset": "10e"}])

    report = Report()
    store = Store(report, {})
    store.records["testers/alpha-squad"] = sheet([], "page.txt")
    catalogue = sheet(["Captain Test"], "bs/Testers.cat")
    prov = catalogue.pop("source")[0]
    add_records(store, [(catalogue, [prov])], {"page.txt": 0, "bs/Testers.cat": 1}.get, report)
    merged = store.records["testers/alpha-squad"]
    assert merged["led_by"]["units"] == ["Captain Test"] and report.diagnostics == []
    assert merged["source"][-1]["fields"] == ["led_by"]
