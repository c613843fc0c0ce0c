"""Issue 28 part 2: BattleScribe link graphs (diamonds, cycles, deep chains, fan-out) are walked
in time linear in the catalogue, report what they cut with file and entry, and bound what one
record holds. The same catalogues are the link-graph cases of `warscribe bench hostile`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warscribe.bench.hostile import CASES, _link_source, generate
from warscribe.extract import battlescribe as bs
from warscribe.extract.battlescribe import walk
from warscribe.schema.diagnostics import Report


def _read(tmp_path: Path, shape: str, n: int):
    _link_source(tmp_path, shape, n)
    report = Report()
    files = bs.load(tmp_path / "data", "data", "10e", 0, None, report)
    items, _index = bs.read(files, report)
    by_code: dict[str, list] = {}
    for d in report.sorted():
        by_code.setdefault(d.code, []).append(d)
    return {r["id"]: r for r, _p in items}, by_code


def test_diamonds_are_walked_once_per_node(tmp_path):
    # 32 levels of groups each linking twice to the next: 2^32 paths to one weapon, read once.
    records, found = _read(tmp_path, "diamonds", 32)
    unit = records["hostile/unit-u0"]
    assert unit["weapons"] == ["hostile/unit-u0/bolter"]
    assert not found.get("link-budget") and not found.get("deep-link-chain")


def test_cycles_are_reported_with_file_and_entry_and_the_rest_is_read(tmp_path):
    records, found = _read(tmp_path, "cycle", 50)
    assert len([r for r in records if r.startswith("hostile/unit-")]) == 50
    cycles = found["cyclic-link"]
    assert len(cycles) == 100  # each unit: its self-linking info group and its two entries' loop
    assert all(d.file.endswith("Hostile.cat") and d.line >= 1 for d in cycles)
    assert {m for d in cycles for m in ("entry il0", "entry l-b0") if m in d.message} == {"entry il0", "entry l-b0"}


def test_a_deep_chain_stops_at_the_depth_bound_with_a_warning(tmp_path):
    records, found = _read(tmp_path, "chain", 2000)
    assert "hostile/unit-u0" in records
    (deep,) = found["deep-link-chain"]
    assert f"deeper than {walk.MAX_DEPTH}" in deep.message and "entry e" in deep.message


def test_fan_out_is_bounded_per_record_and_a_repeated_link_read_once(tmp_path):
    records, found = _read(tmp_path, "fanout", walk.MAX_PROFILES + 500)
    unit = records["hostile/unit-u0"]
    assert len(unit["weapons"]) == walk.MAX_PROFILES  # the bound, not the 2,500 distinct or 5,000 links
    (budget,) = found["link-budget"]
    assert "Unit u0" in budget.message and budget.file.endswith("Hostile.cat")
    # below the bound, a weapon linked n times over is one weapon
    (tmp_path / "small").mkdir()
    small, found_small = _read(tmp_path / "small", "fanout", 50)
    assert len(small["hostile/unit-u0"]["weapons"]) == 50 and not found_small.get("link-budget")


WARNS = {"link-diamonds": None, "link-cycle": "cyclic-link", "link-chain": "deep-link-chain",
         "link-fanout": "link-budget"}


@pytest.mark.parametrize("case", [c for c in CASES if c.startswith("link-")])
def test_each_link_case_of_the_bench_builds_and_says_what_it_cut(case, tmp_path):
    from warscribe.build import run_build

    size = CASES[case][1][0] if case != "link-fanout" else walk.MAX_PROFILES + 1
    manifest = generate(case, size, tmp_path)
    status = run_build(manifest, tmp_path / "out", quiet=True, site=False)
    assert status == 0
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    codes = {d["code"] for d in report["diagnostics"]}
    assert WARNS[case] is None or WARNS[case] in codes, codes
    assert not codes & (set(WARNS.values()) - {WARNS[case]}), codes
