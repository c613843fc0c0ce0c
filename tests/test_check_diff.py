"""`warscribe check`, `warscribe diff` and `warscribe export` on the seeds and on edited copies of them.

The seeds' check report is a golden file (tests/golden/check.json): refresh it with
`python -m pytest tests/test_check_diff.py --update-golden` and review its diff.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from warscribe.checks import run_checks
from warscribe.checks.command import report_dict
from warscribe.checks.context import load
from warscribe.cli import main
from warscribe.ledger.diff import as_dict, compare, compare_rulesets, render_markdown, render_text
from warscribe.schema import bundle

from checkdiff_helpers import INQUISITOR, PALADINS, build, copy_sources, delete_lines, replace_line
from conftest import GOLDEN, ROOT


def _rename(lines: list[str]) -> list[str]:
    return ["COUNTEROFFENSIVE" if line.strip() == "COUNTER-OFFENSIVE" else line for line in lines]


EDITS = {
    "ap": {INQUISITOR: replace_line(4, "| 4 | 0 | 1 |", "| 4 | -1 | 1 |")},
    "rename": {PALADINS: _rename, INQUISITOR: _rename},
    "rename-text-only": {PALADINS: replace_line(485, "COUNTER-OFFENSIVE", "COUNTERATTACK")},
    "enhancement-text": {INQUISITOR: delete_lines(707, 708, "This merciless")},
    "rule-number": {INQUISITOR: replace_line(708, "re-roll the Hit roll.", "re-roll the Hit roll (99.99).")},
}
WITCH_HUNTER = "imperial-agents/ordo-hereticus-purgation-force/enhancements/witch-hunter"


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """name -> (build folder, sources folder): the seeds as they are, reversed, and each edit."""
    root = tmp_path_factory.mktemp("builds")
    out = {}
    for name, edits in [("seeds", None), ("reversed", None), *EDITS.items()]:
        manifest = copy_sources(root / name, edits, reverse=name == "reversed")
        out[name] = (build(manifest, root / name / "out"), manifest.parent)
    return out


def _findings(builds, name):
    folder, sources = builds[name]
    return run_checks(load(folder, sources))


def _new_findings(builds, name):
    before = {(f.code, f.record, f.message) for f in _findings(builds, "seeds")}
    return [f for f in _findings(builds, name) if (f.code, f.record, f.message) not in before]


def _diff(builds, name):
    return compare(bundle.load(builds["seeds"][0]), bundle.load(builds[name][0]))


# -- check -------------------------------------------------------------------------------


def test_check_report_on_seeds_matches_golden(builds, update_golden):
    folder, sources = builds["seeds"]
    ctx = load(folder, sources)
    text = json.dumps(report_dict(run_checks(ctx), ctx.missing_sources), ensure_ascii=False, indent=2) + "\n"
    path = GOLDEN / "check.json"
    if update_golden:
        path.write_text(text, encoding="utf-8")
        return
    assert text == path.read_text(encoding="utf-8")


def test_seed_findings_name_code_level_record_and_place(builds):
    findings = _findings(builds, "seeds")
    by_code = {}
    for f in findings:
        by_code.setdefault(f.code, []).append(f)
    # The build's own diagnostics are part of the report.
    assert "heading-lost" in by_code and "scraping-typo" in by_code
    # Real defects of the seeds, each placed on its source line and column.
    # 24.23 is printed for LETHAL HITS and for SUPPORT: the build's finding, at the level the build gave it,
    # naming the two records (not LEADER's, whose heading prints SUPPORT's number), and not repeated by a check.
    collisions = by_code["number-collision"]
    assert {(f.level, f.line) for f in collisions} == {("warning", 212), ("warning", 471)}
    assert all(f.file.endswith(INQUISITOR) and "24.23" in f.message for f in collisions)
    assert {f.message.split(":")[0] for f in collisions} == {"11e/abilities/lethal-hits", "11e/abilities/support"}
    assert "number-conflict" not in by_code and not any("abilities/leader" in f.message for f in findings)
    typo, = by_code["possible-typo"]
    assert (typo.found, typo.line, typo.column) == ("Anny", 211, 9) and "'Any'" in typo.expected
    assert typo.record == "grey-knights/abilities/gate-of-infinity"
    assert {f.found for f in by_code["mixed-case"]} == {"COvER", "INFANTRy"}
    bracket, = by_code["broken-bracket"]
    assert bracket.found.startswith("[SUSTAINED HITS liability") and bracket.line == 522
    assert all(f.message and f.level in ("error", "warning") for f in findings)


def test_seed_check_exits_nonzero_on_error_and_on_warning_when_asked(builds, capsys):
    folder, sources = builds["seeds"]
    # The build of the seeds reports no error, and neither does the check: they agree on levels.
    assert main(["check", str(folder), "--sources", str(sources)]) == 0
    text = capsys.readouterr().out
    assert text.strip().splitlines()[-1].startswith("0 errors, 78 warnings")
    assert json.loads((folder / "report.json").read_text())["errors"] == 0
    assert main(["check", str(folder), "--sources", str(sources), "--only", "text"]) == 0
    capsys.readouterr()
    assert main(["check", str(folder), "--sources", str(sources), "--only", "text", "--fail-on", "warning"]) == 1
    capsys.readouterr()
    assert main(["check", str(folder), "--json", "--only", "conflicts", "--sources", str(sources)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0 and report["codes"] == {}


def test_check_reports_a_missing_build_without_traceback(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nothing")]) == 2
    assert "no Warscribe build" in capsys.readouterr().err


def test_check_finds_a_deleted_enhancement_text(builds):
    new = _new_findings(builds, "enhancement-text")
    assert any(f.code == "enhancement-without-text" and f.record == WITCH_HUNTER for f in new)


def test_check_finds_a_dangling_rule_number(builds):
    new = _new_findings(builds, "rule-number")
    found, = [f for f in new if f.code == "unresolved-rule-number"]
    assert found.record == WITCH_HUNTER and found.found == "(99.99)"
    assert found.file.endswith(INQUISITOR) and found.line == 708 and found.column > 1


def test_check_finds_a_stratagem_renamed_in_one_place(builds):
    codes = {f.code for f in _new_findings(builds, "rename-text-only")}
    assert {"unlisted-stratagem", "stratagem-without-text"} <= codes


def test_check_finds_schema_violations_duplicates_and_dangling_ids(builds, tmp_path):
    data = json.loads((builds["seeds"][0] / "json" / "warscribe.json").read_text(encoding="utf-8"))
    weapons = data["data"]["weapon"]
    weapons[0]["ap"] = 3
    weapons[1]["abilities"] = [{"id": "sustained-hits", "text": "sustained hits"}]
    weapons[3]["abilities"] = [{"id": "custom", "name": "BLAZING FURY", "text": "blazing fury"}]
    weapons.append(dict(weapons[2]))
    data["data"]["stratagem"][0]["detachment"] = "nowhere/no-such-detachment"
    (tmp_path / "warscribe.json").write_text(json.dumps(data), encoding="utf-8")
    findings = run_checks(load(tmp_path / "warscribe.json"))
    got = {(f.code, f.record, f.level) for f in findings}
    assert ("schema", weapons[0]["id"], "error") in got
    assert ("duplicate-record", weapons[2]["id"], "error") in got
    assert ("dangling-reference", data["data"]["stratagem"][0]["id"], "error") in got
    assert ("missing-parameter", weapons[1]["id"], "error") in got
    assert ("unknown-weapon-ability", weapons[3]["id"], "warning") in got


def test_source_order_changes_no_check_output(builds):
    def rendered(name):
        folder, sources = builds[name]
        ctx = load(folder, sources)
        return json.dumps(report_dict(run_checks(ctx), ctx.missing_sources))
    assert rendered("seeds") == rendered("reversed")


# -- diff --------------------------------------------------------------------------------


def test_diff_of_a_build_with_itself_is_empty(builds):
    b = bundle.load(builds["seeds"][0])
    diff = compare(b, b)
    assert diff.empty and not diff.impact
    assert "No differences." in render_text(diff)


def test_source_order_changes_no_diff_output(builds):
    """Sources are consulted by rank, then file name (extract.manifest.ranked), never manifest order."""
    diff = _diff(builds, "reversed")
    assert diff.empty, render_text(diff)


def test_diff_finds_a_changed_ap_and_its_impact(builds):
    diff = _diff(builds, "ap")
    change, = diff.changed
    assert change.id == "imperial-agents/inquisitor/bolt-pistol"
    assert [(f.path, f.old, f.new) for f in change.fields] == [("ap", 0, -1)]
    impact, = diff.impact
    assert impact.weapon == change.id and len(impact.rows) == 5
    assert all(r["new"] > r["old"] and r["delta"] > 0 for r in impact.rows)


def test_diff_pairs_a_renamed_stratagem(builds):
    diff = _diff(builds, "rename")
    assert not diff.added and not diff.removed
    pairs = {(c.old_id, c.id) for c in diff.changed}
    assert ("boarding-actions/counter-offensive", "boarding-actions/counteroffensive") in pairs
    assert all(c.renamed and [(f.path, f.new) for f in c.fields] == [("name", "COUNTEROFFENSIVE")]
               for c in diff.changed)


def test_diff_finds_a_deleted_enhancement_text_and_a_new_rule_number(builds):
    change, = _diff(builds, "enhancement-text").changed
    assert change.id == WITCH_HUNTER
    assert any(f.path == "text" and "PSYKER" in f.old and not f.new for f in change.fields)
    change, = _diff(builds, "rule-number").changed
    text, = [f for f in change.fields if f.path == "text"]
    assert "(99.99)" in text.new and "(99.99)" not in text.old
    assert "{+roll (99.99).+}" in render_text(_diff(builds, "rule-number"))


def test_diff_outputs_markdown_and_json(builds):
    diff = _diff(builds, "ap")
    md = render_markdown(diff)
    assert "| weapon `imperial-agents/inquisitor/bolt-pistol` | ap | 0 | -1 |" in md and "### Impact" in md
    data = as_dict(diff)
    assert data["summary"] == {"added": 0, "removed": 0, "changed": 1, "renamed": 0}
    assert data["changed"][0]["fields"] == [{"path": "ap", "old": 0, "new": -1}]


def test_ruleset_compare_pairs_editions_of_one_rule(builds):
    diff = compare_rulesets(bundle.load(builds["seeds"][0]), "10e", "11e")
    pairs = {c.old_id: c.id for c in diff.changed}
    assert pairs["10e/abilities/devastating-wounds"] == "11e/abilities/devastating-wounds"
    assert pairs["10e/abilities/hazardous"] == "11e/abilities/hazardous"
    assert pairs["core-10e/heroic-intervention"] == "core-11e/heroic-intervention"
    assert all(not c.renamed or c.old_id.split("/")[0] != c.id.split("/")[0] for c in diff.changed)
    assert "renamed" not in render_text(diff).splitlines()[1].replace("(0 renamed)", "")


@pytest.mark.slow
def test_diff_cli_builds_git_revisions(tmp_path):
    """Two revisions of a repository, each built from its sources by `warscribe diff`."""
    repo = tmp_path / "repo"
    copy_sources(repo)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "seeds"], check=True)
    copy_sources(tmp_path / "edited", EDITS["ap"])
    (repo / "sources").rename(tmp_path / "old-sources")
    (tmp_path / "edited" / "sources").rename(repo / "sources")
    subprocess.run([*git, "commit", "-qam", "AP"], check=True)
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "diff", "HEAD~1", "HEAD", "--repo", str(repo),
                           "--format", "json"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # 1: there are differences (as diff(1) says)
    data = json.loads(proc.stdout)
    assert data["changed"][0]["fields"] == [{"path": "ap", "old": 0, "new": -1}] and data["impact"]
    bad = subprocess.run([sys.executable, "-m", "warscribe.cli", "diff", "no-such-rev", "HEAD", "--repo", str(repo)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "neither a build folder nor a git revision" in bad.stderr


# -- export ------------------------------------------------------------------------------


def test_export_writes_schemas_and_a_byte_identical_manifest(tmp_path):
    manifest = str(ROOT / "sources" / "manifest.yaml")
    assert main(["export", "--manifest", manifest, "--out", str(tmp_path / "a"), "-q"]) == 0
    assert main(["export", "--manifest", manifest, "--out", str(tmp_path / "b"), "-q"]) == 0
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b
    data = json.loads((tmp_path / "a" / "manifest.json").read_text(encoding="utf-8"))
    assert "build_time" not in data and data["warscribe"]
    assert [s["file"] for s in data["sources"]] == sorted(s["file"] for s in data["sources"])
    assert all(len(s["sha256"]) == 64 for s in data["sources"])
    assert data["records"]["weapon"] == 10 and sum(data["records"].values()) == 229
    assert "schemas/weapon.schema.json" in data["files"] and "warscribe.json" in data["files"]
    import hashlib

    for rel, info in data["files"].items():
        raw = (tmp_path / "a" / rel).read_bytes()
        assert info == {"size": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}


def test_export_records_build_time_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    manifest = str(ROOT / "sources" / "manifest.yaml")
    assert main(["export", "--manifest", manifest, "--out", str(tmp_path), "-q", "--build-time"]) == 0
    data = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert data["build_time"] == "1970-01-02T00:00:00Z"


def test_provenance_classes_keep_every_constraint_of_the_provenance_schema():
    """structure.py validates one provenance entry per class; the class must keep what the schema checks."""
    from warscribe.checks.structure import PROVENANCE_FIELDS
    from warscribe.schema.registry import schema

    prov = schema("defs")["$defs"]["provenance"]
    assert tuple(prov["properties"]) == PROVENANCE_FIELDS and prov["additionalProperties"] is False
    assert prov["properties"]["file"] == {"type": "string", "description": prov["properties"]["file"]["description"]}
    for key in ("first_line", "last_line"):
        assert prov["properties"][key] == {"type": "integer", "minimum": 1}


def test_a_broken_provenance_entry_deep_in_a_merged_record_is_reported_at_its_index(builds, tmp_path):
    data = json.loads((builds["seeds"][0] / "json" / "warscribe.json").read_text(encoding="utf-8"))
    stratagem = data["data"]["stratagem"][0]
    good = stratagem["source"][0]
    stratagem["source"] = [dict(good, first_line=n) for n in range(1, 40)] + [dict(good, first_line=0)]
    (tmp_path / "warscribe.json").write_text(json.dumps(data), encoding="utf-8")
    schema_findings = [f for f in run_checks(load(tmp_path / "warscribe.json")) if f.code == "schema"]
    assert [(f.record, f.found) for f in schema_findings] == [(stratagem["id"], "source/39/first_line")]


def _ctx(records):
    from warscribe.checks.context import Context

    return Context(bundle=bundle.from_records(records))


def _rule(rid, name, text, ruleset="11e", **extra):
    return {"id": rid, "kind": "rule", "name": name, "ruleset": ruleset, "number": None, "title": name,
            "text": text, "bullets": [], "see_also": [], "source": [{"file": "s.txt", "first_line": 1,
                                                                      "last_line": 2, "ruleset": ruleset}], **extra}


def _stratagem(rid, name, origin, effect, detachment=None):
    return {"id": rid, "kind": "stratagem", "name": name, "ruleset": "10e", "cp": 1, "category": None,
            "origin": origin, "detachment": detachment, "when": "Any phase.", "target": "One unit.",
            "effect": effect, "restrictions": None, "flavour": None,
            "source": [{"file": "s.txt", "first_line": 3, "last_line": 4, "ruleset": "10e"}]}


def test_conflicts_tell_a_changed_text_from_a_legitimate_variant():
    records = [
        _rule("11e/rules/cover", "Cover", "A unit in cover adds 1 to its saving throws."),
        _rule("11e/rules/13-08-cover", "Cover", "A unit in cover adds 2 to its saving throws."),
        _rule("10e/rules/cover", "Cover", "Something else entirely.", ruleset="10e"),  # another edition
        _stratagem("core-10e/insane-bravery", "INSANE BRAVERY", "core", "Pass the test."),
        _stratagem("boarding-actions/insane-bravery", "INSANE BRAVERY", "boarding-actions", "Pass it twice."),
    ]
    found = [(f.code, f.record) for f in run_checks(_ctx(records), {"conflicts"})]
    assert found == [("conflicting-text", "11e/rules/cover")] or found == [("conflicting-text", "11e/rules/13-08-cover")]


def test_text_checks_find_run_ons_repeats_empty_fields_and_keep_clean_text_quiet():
    clean = "Each time an attack is made with this weapon, you can re-roll the Hit roll. Units within 6\" benefit."
    records = [
        _rule("11e/rules/clean", "Clean", clean + " " + clean.replace("Each time", "Whenever")),
        _rule("11e/rules/glued", "Glued", "Roll one D6 for that unit.Designer's note: roll again."),
        _rule("11e/rules/twice", "Twice", "Each time a model in this unit is destroyed, roll one D6. "
              "Each time a model in this unit is destroyed, roll one D6."),
        _rule("11e/rules/empty", "Empty", "  "),
    ]
    found = {(f.code, f.record) for f in run_checks(_ctx(records), {"text"})}
    assert found == {("run-on", "11e/rules/glued"), ("duplicated-text", "11e/rules/twice"),
                     ("empty-field", "11e/rules/empty")}


def test_references_find_unknown_abilities_stratagems_and_keywords():
    records = [
        _rule("11e/rules/a", "A", "Weapons gain [FROBNICATE] and the [LETHAL HITS] ability; use the "
              "Blazing Salvo Stratagem, or any Battle Tactic Stratagem."),
        _stratagem("core-10e/x", "X", "core", "Effect."),
    ]
    records[1]["category"] = "Battle Tactic"
    found = {(f.code, f.found) for f in run_checks(_ctx(records), {"references"})}
    assert found == {("unresolved-ability", "[FROBNICATE]"), ("unresolved-ability", "[LETHAL HITS]"),
                     ("unresolved-stratagem", "Blazing Salvo Stratagem")}


def test_check_report_holds_every_diagnostic_of_the_build(builds):
    folder, sources = builds["seeds"]
    build_report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    checked = [f.as_dict() for f in run_checks(load(folder, sources))]
    assert build_report["diagnostics"] and all(d in checked for d in build_report["diagnostics"])


def test_check_survives_a_damaged_report(builds, tmp_path, capsys):
    import shutil

    folder = tmp_path / "out"
    shutil.copytree(builds["seeds"][0], folder)
    (folder / "report.json").write_text('{"diagnostics": "oops", "rejected": ["x/y"]}', encoding="utf-8")
    assert main(["check", str(folder), "--only", "build"]) == 1
    out = capsys.readouterr().out
    assert "'diagnostics' is not a list" in out and "record x/y failed its schema" in out
    (folder / "report.json").write_text("[1, 2", encoding="utf-8")
    assert main(["check", str(folder)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_diff_impact_covers_weapons_whose_ability_rules_changed(builds):
    text = (builds["seeds"][0] / "json" / "warscribe.json").read_text(encoding="utf-8")
    old, data = bundle.from_bundle(json.loads(text)), json.loads(text)
    for rec in data["data"]["ability"]:
        if rec["id"] == "11e/abilities/devastating-wounds":
            rec["text"] += " Errata: this now applies to critical hits as well."
    diff = compare(old, bundle.from_bundle(data))
    assert [c.id for c in diff.changed] == ["11e/abilities/devastating-wounds"]
    weapons = {i.weapon: i.reason for i in diff.impact}
    devastating = {w["id"] for w in old.kind("weapon") if w["ruleset"] == "11e"
                   and any(a["id"] == "devastating-wounds" for a in w["abilities"])}
    assert devastating and set(weapons) == devastating
    assert all(reason == "rules changed: devastating-wounds" for reason in weapons.values())
