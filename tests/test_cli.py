"""`warscribe build` and `warscribe export` end to end, as a user runs them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "warscribe.cli", *args], cwd=cwd, capture_output=True, text=True)


def test_build_writes_records_json_and_report(tmp_path):
    out = tmp_path / "out"
    proc = run("build", "--out", str(out), "-q", "--no-site")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not (out / "site").exists()
    assert "0 unaccounted" in proc.stdout and "0 errors" in proc.stdout
    bundle = json.loads((out / "json" / "warscribe.json").read_text())
    assert bundle["meta"]["count"] == sum(len(v) for v in bundle["data"].values())
    weapons = json.loads((out / "json" / "weapon.json").read_text())
    assert weapons["meta"]["kind"] == "weapon" and len(weapons["data"]) == 10
    psilencer = yaml.safe_load((out / "records" / "weapon" / "grey-knights" / "paladin-squad" / "psilencer.yaml").read_text())
    assert psilencer["abilities"][2] == {"id": "sustained-hits", "text": "sustained hits 1", "value": 1}
    report = json.loads((out / "report.json").read_text())
    assert all(s["unaccounted"] == 0 for s in report["sources"].values())
    manifest = json.loads((out / "manifest.json").read_text())
    assert sum(manifest["records"].values()) == bundle["meta"]["count"]
    assert "json/warscribe.json" in manifest["files"] and "report.json" in manifest["files"]
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name != "manifest.json")
    assert sorted(manifest["files"]) == files
    report = (out / "report.json").read_bytes()
    assert manifest["files"]["report.json"] == {"size": len(report), "sha256": hashlib.sha256(report).hexdigest()}


@pytest.mark.slow
def test_build_is_byte_identical_twice(tmp_path):
    for name in ("a", "b"):
        assert run("build", "--out", str(tmp_path / name), "-q").returncode == 0
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b
    listed = json.loads((tmp_path / "a" / "manifest.json").read_text())["files"]
    assert "site/index.html" in listed and sorted(listed) == sorted(p.as_posix() for p in files_a if p.name != "manifest.json")
    for rel in files_a:
        data = (tmp_path / "a" / rel).read_bytes()
        assert data == (tmp_path / "b" / rel).read_bytes(), rel
        # No path of this machine: a build elsewhere (another checkout, an installed wheel) is the same bytes.
        assert str(ROOT).encode() not in data and str(tmp_path).encode() not in data, rel


def test_strict_makes_warnings_fatal(tmp_path):
    proc = run("build", "--out", str(tmp_path / "s"), "-q", "--strict", "--no-site")
    assert proc.returncode == 1 and "--strict" in proc.stdout


def test_build_reports_errors_in_exit_status(tmp_path):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "manifest.yaml").write_text(
        "sources:\n  - file: empty.txt\n    original_name: empty.txt\n"
        "    sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
        "    ruleset: 10e\n    kind: datasheet-page\n")
    proc = run("build", "--manifest", str(tmp_path / "manifest.yaml"), "--out", str(tmp_path / "o"), "--no-site")
    assert proc.returncode == 1
    assert "empty.txt:1: error: source file is empty" in proc.stderr  # diagnostics on stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_export_json(tmp_path):
    proc = run("export", "--out", str(tmp_path / "j"), "-q")
    assert proc.returncode == 0
    assert json.loads((tmp_path / "j" / "stratagem.json").read_text())["meta"]["count"] == 68


def test_census_lists_unknown_abilities():
    from conftest import corpus_path
    path = corpus_path("bsdata-10e-weapons.tsv")
    proc = run("census", str(path))
    assert proc.returncode == 0
    assert "4398 weapon profiles" in proc.stdout and "Bubblechukka" in proc.stdout
    assert run("census", "/nonexistent.tsv").returncode == 2
