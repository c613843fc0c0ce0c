"""The command line behaves as Python users and linters' users expect.

Every command and option has help text and the top-level help lists every command;
`python -m warscribe` works; diagnostics go to stderr and data to stdout; one spelling
(`--format json`, `--json` its short form) for JSON output; `diff` exits 1 when there
are differences; counts agree wherever they are shown; the first build is short to
read (warnings counted by code, `--verbose` for each); progress covers every stage.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT
from warscribe.cli import parser
from warscribe.schema.diagnostics import Report


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "warscribe", *map(str, args)], cwd=cwd, capture_output=True, text=True)


# -- help and entry points ---------------------------------------------------------------


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_and_option_has_help_text():
    for name, sub in _subparsers(parser()).items():
        assert sub.description, name
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help.strip(), f"warscribe {name} {action.option_strings or action.dest}"


def test_the_top_level_help_lists_every_command_with_its_help():
    from warscribe.cli import COMMANDS

    text = re.sub(r"\s+", " ", parser().format_help())
    names = list(_subparsers(parser()))
    assert names == [c.name for c in COMMANDS] and "init" in names and "manifest" in names
    for cmd in COMMANDS:
        assert f"{cmd.name} {cmd.help}" in text, cmd.name


def test_python_dash_m_warscribe_runs_the_command():
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("warscribe ")
    assert run("check", "--help").stdout.startswith("usage: warscribe check")


def test_a_missing_manifest_is_one_line_naming_init_and_exit_2(tmp_path):
    from warscribe import cli

    assert cli.main(["build", "--manifest", str(tmp_path / "none.yaml"), "--out", str(tmp_path / "o"), "-q"]) == 2
    proc = subprocess.run([sys.executable, "-c", "import sys; from warscribe import cli, paths; "
                           "paths.CHECKOUT = None; cli.CHECKOUT = None; "
                           "cli.default_manifest = lambda: None; sys.exit(cli.main(['build']))"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "`warscribe init`" in proc.stderr


# -- one spelling for JSON; diff's exit status -------------------------------------------


def test_json_output_is_format_json_everywhere_with_json_as_its_short_form():
    subs = _subparsers(parser())
    for name in ("check", "calc", "effects", "diff"):
        options = {o for a in subs[name]._actions for o in a.option_strings}
        assert {"--format", "--json"} <= options, name
        defaults = {"check": [], "calc": ["x.yaml"], "effects": [], "diff": ["a"]}[name]
        assert subs[name].parse_args([*defaults, "--json"]).format == "json"
        assert subs[name].parse_args([*defaults, "--format", "json"]).format == "json"
        assert subs[name].parse_args(defaults).format == "text"


@pytest.fixture(scope="module")
def seed_site(tmp_path_factory):
    """The seeds built with the site, as `warscribe build` prints it (stdout, stderr)."""
    out = tmp_path_factory.mktemp("seed") / "out"
    proc = run("build", "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out, proc


@pytest.fixture(scope="module")
def seed_records(tmp_path_factory):
    """The seeds' records (no site)."""
    out = tmp_path_factory.mktemp("seed-records") / "out"
    proc = run("build", "--out", out, "--no-site", "-q")
    assert proc.returncode == 0, proc.stderr
    return out


def test_calc_effects_and_check_give_json_with_either_spelling(seed_records):
    out = seed_records
    scenario = ROOT / "examples" / "scenarios" / "single-weapon.yaml"
    for args in (["calc", scenario, "--kb", out], ["effects", "--kb", out], ["check", out]):
        a, b = run(*args, "--json"), run(*args, "--format", "json")
        assert a.stdout == b.stdout and isinstance(json.loads(a.stdout), dict), args


def test_diff_exits_1_when_there_are_differences_and_0_when_none(seed_records, tmp_path):
    out = seed_records
    same = run("diff", out, out)
    assert same.returncode == 0 and same.stderr == ""
    edited = tmp_path / "edited"
    (edited / "json").mkdir(parents=True)
    bundle = json.loads((out / "json" / "warscribe.json").read_text(encoding="utf-8"))
    weapon = next(w for w in bundle["data"]["weapon"] if w["id"] == "grey-knights/paladin-squad/psilencer")
    weapon["ap"] = -3
    (edited / "json" / "warscribe.json").write_text(json.dumps(bundle), encoding="utf-8")
    changed = run("diff", out, edited)
    assert changed.returncode == 1 and "psilencer" in changed.stdout and changed.stderr == ""


# -- what the first build prints ---------------------------------------------------------


@pytest.mark.slow
def test_the_first_build_is_short_warnings_counted_by_code_every_line_with_verbose(seed_site, tmp_path):
    _, proc = seed_site
    report = json.loads((seed_site[0] / "report.json").read_text(encoding="utf-8"))
    shown = proc.stdout + proc.stderr
    assert len(shown.splitlines()) <= 12, shown
    assert "warning:" not in shown  # counted, not listed
    assert f"0 errors, {report['warnings']} warnings (repaired-character 13, heading-lost 9," in proc.stdout
    assert "--verbose lists each one" in proc.stdout and "they do not fail the build" in proc.stdout
    doc = re.search(r"what each code means: (\S+diagnostics\.md)", proc.stdout)
    assert doc and (ROOT / doc.group(1) if not Path(doc.group(1)).is_absolute() else Path(doc.group(1))).is_file()
    verbose = run("build", "--out", tmp_path / "v", "--verbose", "--no-site")
    listed = [line for line in verbose.stderr.splitlines() if ": warning: " in line]
    assert len(listed) == report["warnings"] and verbose.stdout.count(": warning: ") == 0


@pytest.mark.slow
def test_diagnostics_on_stderr_data_on_stdout(seed_site):
    _, proc = seed_site
    assert proc.stdout.startswith("Lines per source") and "Records: 229" in proc.stdout
    bad = run("calc", "/nonexistent.yaml")
    assert bad.returncode == 2 and bad.stdout == "" and "nonexistent" in bad.stderr


# -- counts agree ------------------------------------------------------------------------


@pytest.mark.slow
def test_unresolved_references_agree_on_the_command_line_and_the_diagnostics_page(seed_site):
    out, proc = seed_site
    said = int(re.search(r"; (\d+) unresolved references", proc.stdout).group(1))
    page = (out / "site" / "diagnostics" / "index.html").read_text(encoding="utf-8")
    stated = int(re.search(r"(\d+) unresolved references in the site", page).group(1))
    # The table has a row per reference (its text, on however many pages), and says how often in all.
    table = page[page.index('id="unresolved"'):]
    rows = table.count("<tr>") - 1  # less the header row
    groups, times = map(int, re.search(r"(\d+) references? the site could not link, (\d+) times in all", table).groups())
    assert said == stated == times == 18
    assert rows == groups and 0 < groups <= times


def test_warnings_announced_are_the_warnings_listed(seed_records):
    out = seed_records
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["warnings"] == sum(d["level"] == "warning" for d in report["diagnostics"])
    assert report["errors"] == sum(d["level"] == "error" for d in report["diagnostics"])
    # A finding two stages make of one line is one finding, in the counts as in the list.
    r = Report()
    for _ in range(2):
        r.warning("a.txt", 3, "lost-table", "table lost in scraping")
        r.error("a.txt", 4, "bad-title", "no title")
    assert len(r.warnings) == len(r.errors) == 1 and len(r.sorted()) == 2


def test_check_says_1_error_not_1_errors():
    from warscribe.checks.command import render_text

    text = render_text({"errors": 1, "warnings": 1, "codes": {}, "sources_not_found": []}, [])
    assert text == "1 error, 1 warning\n"


# -- progress ----------------------------------------------------------------------------


def test_progress_moves_through_every_stage_to_its_end(tmp_path, monkeypatch):
    """Every stage reports, and counted stages count to their last item (not 'validate 1/N' throughout)."""
    import warscribe.build as build_module
    from warscribe.progress import Progress

    seen: list[tuple[str, int, int]] = []

    class Recording(Progress):
        def __call__(self, stage, done, total):
            seen.append((stage, done, total))
            super().__call__(stage, done, total)

    monkeypatch.setattr(build_module, "Progress", Recording)
    assert build_module.run_build(ROOT / "sources" / "manifest.yaml", tmp_path / "out", quiet=True) == 0
    stages = list(dict.fromkeys(stage for stage, _, _ in seen))
    # The records are written while mkdocs builds the site (in its own process): after the pages.
    assert stages == ["read", "parse", "link", "compile", "validate", "site: pages", "site: mkdocs", "write",
                      "manifest"]
    for stage in ("read", "parse", "validate", "write", "site: mkdocs"):
        last = [(d, t) for s, d, t in seen if s == stage][-1]
        assert last[0] == last[1] - 1 and last[1] > 1, (stage, last)  # shown as t/t
    # Pages are counted as they are made (their number is known at the end): up to mkdocs' total.
    pages = [d for s, d, _ in seen if s == "site: pages"]
    assert pages == list(range(len(pages))) and len(pages) == [t for s, _, t in seen if s == "site: mkdocs"][-1]


def test_progress_names_the_data_sources_it_reads_after_the_pages(tmp_path):
    """BattleScribe data and a Wahapedia export are read after the pages (seconds for the whole game):
    the line says so, instead of staying on the last page."""
    import shutil

    from conftest import write_manifest
    from warscribe.extract.pipeline import extract

    fixtures = ROOT / "tests" / "fixtures"
    shutil.copytree(fixtures / "battlescribe" / "xml", tmp_path / "bsdata")
    shutil.copytree(fixtures / "wahapedia" / "10e", tmp_path / "wahapedia")
    manifest = write_manifest(tmp_path, [{"file": "bsdata", "ruleset": "10e", "kind": "battlescribe"},
                                         {"file": "wahapedia", "ruleset": "10e", "kind": "wahapedia-csv"}])
    seen: list[str] = []
    result = extract(manifest, progress=lambda stage, done, total: seen.append(stage))
    assert result.records
    stages = list(dict.fromkeys(seen))
    assert stages.index("parse: Wahapedia export") < stages.index("parse: BattleScribe data") < stages.index("link")


def test_progress_is_for_a_terminal_only(tmp_path):
    """A build in a pipe prints no progress line (no carriage returns or escapes) on either stream."""
    proc = run("build", "--out", tmp_path / "out", "-q", "--no-site")
    assert proc.returncode == 0
    assert "\r" not in proc.stdout + proc.stderr and "\x1b" not in proc.stdout + proc.stderr


# -- matrix without a usable target ------------------------------------------------------


def test_matrix_without_a_usable_target_is_a_clear_error(seed_records, tmp_path):
    out = seed_records
    proc = run("matrix", "--weapons", out, "--targets", out, "--out", tmp_path / "m.csv")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "no usable target: all 2 targets were skipped" in proc.stderr and "YAML list of targets" in proc.stderr
    assert not (tmp_path / "m.csv").exists()
    empty = tmp_path / "none.yaml"
    empty.write_text("[]\n", encoding="utf-8")
    proc = run("matrix", "--weapons", out, "--targets", empty, "--out", tmp_path / "m.csv")
    assert proc.returncode == 2 and "no usable target: no targets" in proc.stderr


# -- the project's metadata --------------------------------------------------------------


def test_license_urls_and_classifiers():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["license"] == "MIT" and "LICENSE" in meta["license-files"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert {"Homepage", "Source", "Issues"} <= set(meta["urls"])
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in meta["classifiers"])
