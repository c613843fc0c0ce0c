"""Characters that cannot be written or shown: found in every text field of every source, reported, replaced;
and never printed raw by any command."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from checkdiff_helpers import build, copy_sources
from conftest import ROOT, write_manifest
from warscribe.extract.pipeline import extract
from warscribe.schema.text import UNSAFE, json_text, printable

BS = ROOT / "tests" / "fixtures" / "battlescribe" / "json"
CSV = ROOT / "tests" / "fixtures" / "wahapedia" / "10e"
HTML = ROOT / "tests" / "fixtures" / "html" / "datasheet-grey-knights-paladin-squad.10e.html"
PAGE = ROOT / "sources" / "datasheet-grey-knights-paladin-squad.10e.txt"
# ESC (a screen-clearing sequence), BEL, CSI (C1), a right-to-left override, CR, and a lone surrogate.
HOSTILE = "\x1b[2J\x07\x9b\u202e\r\ud800"
RAW = [b"\x1b", b"\x07", "\x9b".encode(), "\u202e".encode(), b"\r", b"\xed\xa0\x80"]


def _cli(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "warscribe.cli", *map(str, args)], capture_output=True, cwd=cwd)


def _assert_clean(proc: subprocess.CompletedProcess) -> str:
    shown = proc.stdout + proc.stderr
    assert not [raw for raw in RAW if raw in shown], shown[:2000]
    return shown.decode("utf-8")


def _control_findings(result) -> list:
    return [d for d in result.report.errors if d.code == "control-characters"]


def test_a_lone_surrogate_and_controls_in_a_json_name_are_reported_replaced_and_the_build_is_written(tmp_path):
    data = tmp_path / "bsdata"
    shutil.copytree(BS, data)
    path = data / "Testers.json"
    text = path.read_text(encoding="utf-8").replace('"Alpha Squad"', '"Alpha \\ud800\\u001b[31m\\u0007 Squad"')
    path.write_text(text, encoding="utf-8")
    manifest = write_manifest(tmp_path, [{"file": "bsdata", "ruleset": "10e", "kind": "battlescribe"}])
    proc = _cli("build", "--manifest", manifest, "--out", tmp_path / "out", "--no-site")
    shown = _assert_clean(proc)
    assert proc.returncode == 1 and "Traceback" not in shown
    assert "a lone surrogate (U+D800) at character 7, ESC (U+001B) at character 8, BEL (U+0007)" in shown
    assert re.search(f"{tmp_path.name}/bsdata/Testers.json:[0-9]+: error: testers/alpha-31m-squad: name:", shown)
    assert "(entry unit-alpha in Imperium - Testers)" in shown
    record = yaml.safe_load((tmp_path / "out" / "records" / "datasheet" / "testers" / "alpha-31m-squad.yaml")
                            .read_text(encoding="utf-8"))
    assert record["name"] == "Alpha \ufffd\ufffd[31m\ufffd Squad"
    report = (tmp_path / "out" / "report.json").read_bytes()
    assert not [raw for raw in RAW if raw in report] and json.loads(report)["errors"] >= 1


def test_every_source_kind_is_checked_with_its_file_and_place(tmp_path):
    # A Wahapedia export, an HTML page and a text page, each with a hostile unit name.
    shutil.copytree(CSV, tmp_path / "10e")
    ds = tmp_path / "10e" / "Datasheets.csv"
    ds.write_bytes(ds.read_bytes().replace(b"|Paladin Squad|", "|Paladin\x1b]0;pwned\x07 Squad|".encode(), 1))
    html = HTML.read_text(encoding="utf-8").replace("Paladin Squad", "Paladin &#x202e;Squad")
    (tmp_path / "page.html").write_text(html, encoding="utf-8")
    (tmp_path / "page.txt").write_text(PAGE.read_text(encoding="utf-8").replace("KEYWORDS", "KEY\x1bWORDS", 1),
                                       encoding="utf-8")
    for file, kind in (("10e", "wahapedia-csv"), ("page.html", "datasheet-page"), ("page.txt", "datasheet-page")):
        folder = tmp_path / kind / file
        folder.mkdir(parents=True)
        shutil.move(str(tmp_path / file), folder / file)
        result = extract(write_manifest(folder, [{"file": file, "ruleset": "10e", "kind": kind}]))
        found = _control_findings(result)
        assert found, file
        assert all(d.file.startswith(f"{file}/") or d.file == file for d in found), [d.file for d in found]
        if file == "page.txt":  # the text reader places it on its line and column, and it arrives here replaced
            [d] = found
            assert d.line > 1 and d.column > 0 and "ESC (U+001B)" in d.message
        else:
            assert any("grey-knights/paladin" in d.message and ": name:" in d.message for d in found)
        assert not [r for r in result.records if UNSAFE.search(json.dumps(r, ensure_ascii=False))]


def test_the_safe_forms_read_back_the_same():
    text = "a" + HOSTILE + "\ufffe\tb\n"
    assert json.loads(json_text({"k": text})) == {"k": text}
    assert not UNSAFE.search(json_text({"k": text})) and "\n" not in printable(text) and "\t" not in printable(text)
    assert printable(text) == "a\\x1b[2J\\x07\\x9b\\u202e\\r\\ud800\\ufffe\\tb\\n"
    assert printable("x" * 500, 100) == "x" * 97 + "..."


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    """The seeds' build, and a copy of it whose bundle holds names no build of ours would write (edited by hand)."""
    root = tmp_path_factory.mktemp("chars")
    seeds = build(copy_sources(root / "seeds"), root / "seeds" / "out")
    hostile = root / "hostile"
    shutil.copytree(seeds, hostile)
    path = hostile / "json" / "warscribe.json"
    bundle = json.loads(path.read_text(encoding="utf-8"))
    for kind in ("weapon", "datasheet", "stratagem", "ability"):
        for rec in bundle["data"][kind][:3]:
            rec["name"] = rec["name"] + HOSTILE
            for field in ("text", "effect"):
                if isinstance(rec.get(field), str):
                    rec[field] = HOSTILE + rec[field]
    path.write_text(json.dumps(bundle), encoding="utf-8")  # ASCII JSON: the surrogate as \ud800
    report = json.loads((hostile / "report.json").read_text(encoding="utf-8"))
    report["diagnostics"].append({"file": "x" + HOSTILE, "line": 1, "level": "error", "code": "schema",
                                  "message": "m" + HOSTILE, "found": HOSTILE})
    (hostile / "report.json").write_text(json.dumps(report), encoding="utf-8")
    return seeds, hostile, bundle


@pytest.mark.parametrize("command", [
    ["check", "{hostile}"], ["check", "{hostile}", "--json"],
    ["diff", "{seeds}", "{hostile}"], ["diff", "{seeds}", "{hostile}", "--format", "markdown"],
    ["diff", "{seeds}", "{hostile}", "--format", "json"],
    ["effects", "--kb", "{hostile}"], ["effects", "--kb", "{hostile}", "--json", "--all"],
])
def test_no_command_prints_control_characters_from_a_build(hostile_build, command):
    seeds, hostile, _bundle = hostile_build
    proc = _cli(*[c.format(seeds=seeds, hostile=hostile) for c in command])
    shown = _assert_clean(proc)
    if command[0] != "effects":
        assert "\\x1b[2J" in shown or "\\u001b[2J" in shown  # shown, escaped


def test_calc_prints_a_weapon_name_from_the_knowledge_base_escaped(hostile_build, tmp_path):
    _seeds, hostile, bundle = hostile_build
    weapon = bundle["data"]["weapon"][0]
    scenario = {"ruleset": weapon["ruleset"], "attacker": {"weapons": [{"models": 1, "ref": weapon["id"]}]},
                "target": {"toughness": 4, "save": 3, "wounds": 2, "models": 5}}
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    for flags in ([], ["--json"]):
        shown = _assert_clean(_cli("calc", tmp_path / "s.yaml", "--kb", hostile, *flags))
        assert "2J" in shown
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(dict(scenario, attacker={"weapons": [
        {"models": 1, "ref": "no/such\x1b[2Jweapon"}]})), encoding="utf-8")
    proc = _cli("calc", tmp_path / "bad.yaml", "--kb", hostile)
    assert proc.returncode == 2 and "\\x1b[2J" in _assert_clean(proc)


def test_census_and_matrix_print_names_from_a_tsv_escaped(tmp_path):
    header = "catalogue\tname\ttype\trange\tA\tBS_WS\tS\tAP\tD\tkeywords\n"
    rows = ["Evil\tGun\x1b[2J\tranged\t24\"\t2\t3+\t4\t0\t1\tRapid Fire 1, Evil\x1b]0;x\x07 rule\u202e\n",
            "Evil\tBroken\x07\tranged\t24\"\tx\t3+\t4\t0\t1\t-\n"]
    (tmp_path / "w.tsv").write_text(header + "".join(rows), encoding="utf-8")
    shown = _assert_clean(_cli("census", tmp_path / "w.tsv"))
    assert "Evil\\x1b]0;x\\x07 rule\\u202e" in shown
    targets = [{"name": "Target\x1b[2J", "toughness": 4, "save": 3, "wounds": 2, "models": 5},
               {"name": "Bad\x07", "toughness": 0, "save": 3, "wounds": 2, "models": 5}]
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(targets), encoding="utf-8")
    proc = _cli("matrix", "--weapons", tmp_path / "w.tsv", "--targets", tmp_path / "t.yaml", "--out", tmp_path / "m.csv")
    shown = _assert_clean(proc)
    assert "skipped" in shown and "\\x07" in shown


def test_build_prints_source_names_escaped(tmp_path):
    name = "page\x1b[2J.txt"
    shutil.copy(PAGE, tmp_path / name)
    manifest = write_manifest(tmp_path, [{"file": name, "ruleset": "10e", "kind": "datasheet-page"}])
    shown = _assert_clean(_cli("build", "--manifest", manifest, "--out", tmp_path / "out", "--no-site"))
    assert "page\\x1b[2J.txt" in shown
