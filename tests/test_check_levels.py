"""`warscribe check` on the seeds' own build: it agrees with the build, and names the right records."""

from __future__ import annotations

import json
import shutil

import pytest

from checkdiff_helpers import build
from conftest import ROOT
from warscribe.checks import run_checks
from warscribe.checks.context import load
from warscribe.cli import main


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    return build(ROOT / "sources" / "manifest.yaml", tmp_path_factory.mktemp("seeds") / "out")


def test_build_and_check_agree_on_the_seeds(seeds, capsys):
    report = json.loads((seeds / "report.json").read_text(encoding="utf-8"))
    assert main(["check", str(seeds), "--sources", str(ROOT / "sources")]) == report["errors"] == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("0 errors, ")
    # Every code the build reports keeps the level the build gave it.
    findings = run_checks(load(seeds, ROOT / "sources"), {"build"})
    levels = {(d["code"], d["level"]) for d in report["diagnostics"]}
    assert {(f.code, f.level) for f in findings} == levels


def test_a_heading_that_prints_another_rules_number_names_that_rule(seeds, tmp_path):
    """LEADER24.22 / SUPPORT24.23 heads the LEADER record: SUPPORT's number speaks for the SUPPORT record."""
    edited = tmp_path / "out"
    shutil.copytree(seeds, edited)
    path = edited / "json" / "warscribe.json"
    bundle = json.loads(path.read_text(encoding="utf-8"))
    for record in bundle["data"]["ability"]:
        if record["id"] == "11e/abilities/lethal-hits":
            record["number"] = None  # 24.23 now comes from its heading only: a conflict the build did not see
    path.write_text(json.dumps(bundle), encoding="utf-8")
    findings = [f for f in run_checks(load(edited, ROOT / "sources"), {"conflicts"}) if f.code == "number-conflict"]
    assert [f.message for f in findings] == [
        "rule number 24.23 is printed for SUPPORT (11e/abilities/support) and for LETHAL HITS "
        "(11e/abilities/lethal-hits) in 11e"]
    assert findings[0].level == "warning"  # as the build's number-collision: one problem, one level
