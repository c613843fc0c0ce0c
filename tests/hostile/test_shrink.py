"""A source that yields nothing is an error, and a build never replaces a previous one with less unless asked."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
from pathlib import Path

import pytest

from conftest import ROOT, write_manifest
from warscribe.build import shrinkage
from warscribe.cli import main
from warscribe.extract.pipeline import Result, extract
from warscribe.schema.diagnostics import Report

DATA = ROOT / "tests" / "fixtures" / "battlescribe" / "json"
PAGE = ROOT / "tests" / "fixtures" / "battlescribe" / "datasheet-testers-alpha-squad.10e.txt"


def _archive(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def _good(folder: Path) -> dict[str, bytes]:
    return {f"wh40k/{p.name}": p.read_bytes() for p in sorted(DATA.iterdir())}


def _sources(folder: Path, members: dict[str, bytes], page: bool = False) -> Path:
    """A manifest in `folder` naming data.tar.gz holding `members` (and the Testers page, if asked)."""
    for old in folder.glob("*"):
        if old.is_file():
            old.unlink()
    _archive(folder / "data.tar.gz", members)
    entries = [{"file": "data.tar.gz", "ruleset": "10e", "kind": "battlescribe"}]
    if page:
        shutil.copy(PAGE, folder / PAGE.name)
        entries.append({"file": PAGE.name, "ruleset": "10e", "kind": "datasheet-page", "faction": "Testers"})
    return write_manifest(folder, entries)


def _build(manifest: Path, out: Path, *flags: str) -> int:
    return main(["build", "--manifest", str(manifest), "--out", str(out), "--no-site", "-q", *flags])


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_archive_that_yields_nothing_is_an_error_and_never_replaces_a_good_build(tmp_path, capsys):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    assert _build(_sources(src, _good(src)), out) == 0
    good = _snapshot(out)
    assert json.loads(good["manifest.json"])["sources"][0]["records"] > 0
    capsys.readouterr()

    _archive(tmp_path / "inner.tar.gz", _good(src))
    manifest = _sources(src, {"release/inner.tar.gz": (tmp_path / "inner.tar.gz").read_bytes()})
    assert _build(manifest, out) == 1
    shown = capsys.readouterr().err  # diagnostics and the refusal on stderr
    assert "nested-archive" in shown and "release/inner.tar.gz" in shown
    assert "holds less than the one in" in shown and "--allow-shrink" in shown
    assert "nothing from src/data.tar.gz, which gave 19 records" in shown  # Test System and Test Library
    assert _snapshot(out) == good  # byte for byte
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inner.tar.gz", "out", "src"]  # no staging folder

    # Asked to, it replaces the build: still an error (exit 1), the output now empty.
    assert _build(manifest, out, "--allow-shrink") == 1
    assert json.loads((out / "manifest.json").read_text())["records"]["datasheet"] == 0


def test_a_source_yielding_no_records_is_an_error_naming_it(tmp_path):
    manifest = _sources(tmp_path, {"wh40k/README.md": b"# nothing here", "wh40k/.github/ci.yml": b"x: 1"}, page=True)
    result = extract(manifest)
    archive, page = (f"{tmp_path.name}/{name}" for name in ("data.tar.gz", PAGE.name))
    [err] = result.report.errors
    assert (err.code, err.file) == ("no-records", archive) and "yields no records" in err.message
    assert result.yields == {archive: 0, page: result.yields[page]} and result.yields[page] > 0


def test_a_source_refused_with_its_own_error_is_not_reported_twice(tmp_path):
    manifest = _sources(tmp_path, {"wh40k/../evil.cat": b"<catalogue/>"})
    assert [d.code for d in extract(manifest).report.errors] == ["unsafe-member"]


def test_a_source_that_stops_yielding_is_less_even_when_the_total_barely_moves(tmp_path, capsys):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    assert _build(_sources(src, _good(src), page=True), out) == 0
    before = _snapshot(out)
    counts = {s["file"]: s["records"] for s in json.loads(before["manifest.json"])["sources"]}
    assert counts["src/data.tar.gz"] > 0 and counts[f"src/{PAGE.name}"] > 0
    capsys.readouterr()
    # The page saved empty: its records are the catalogue's too, so the total hardly moves; the page gave nothing.
    (src / PAGE.name).write_text("\n", encoding="utf-8")
    manifest = write_manifest(src, [{"file": "data.tar.gz", "ruleset": "10e", "kind": "battlescribe"},
                                    {"file": PAGE.name, "ruleset": "10e", "kind": "datasheet-page", "faction": "Testers"}])
    assert _build(manifest, out) == 1
    shown = capsys.readouterr().err  # diagnostics and the refusal on stderr
    assert f"nothing from src/{PAGE.name}, which gave {counts['src/' + PAGE.name]} records" in shown
    assert "records where it held" not in shown  # not by count
    assert _snapshot(out) == before
    # A source dropped from the manifest on purpose is no loss of this kind.
    manifest = write_manifest(src, [{"file": "data.tar.gz", "ruleset": "10e", "kind": "battlescribe"}])
    assert _build(manifest, out) == 0


def _result(counts: dict[str, int], yields: dict[str, int]) -> Result:
    records = [{"kind": kind, "id": f"{kind}/{i}"} for kind, n in counts.items() for i in range(n)]
    return Result(records, Report(), yields=yields)


@pytest.mark.parametrize("now, yields, reason", [
    ({"datasheet": 88, "weapon": 1}, {"a": 89}, "89 records where it held 100"),
    ({"datasheet": 94, "weapon": 1}, {"a": 95}, ""),  # a rules update removes a few
    ({"datasheet": 99, "weapon": 1}, {"a": 100, "b": 0}, ""),  # b gave nothing before either
    ({"datasheet": 99}, {"a": 99}, "no weapon records where it held 1"),
    ({"datasheet": 100, "weapon": 1}, {"a": 0, "c": 101}, "nothing from a, which gave 100 records"),
])
def test_what_counts_as_less(now, yields, reason):
    previous = {"generator": "warscribe 0", "records": {"datasheet": 99, "weapon": 1},
                "sources": [{"file": "a", "records": 100}, {"file": "b", "records": 0}]}
    got = shrinkage(previous, _result(now, yields))
    assert got == ([reason] if reason else [])


def test_an_old_or_foreign_manifest_never_blocks_a_build():
    assert shrinkage(None, _result({}, {})) == []
    assert shrinkage({"generator": "warscribe 0", "files": {}}, _result({}, {})) == []
    assert shrinkage({"records": {"datasheet": "x"}, "sources": ["a", {"file": 1}]}, _result({}, {})) == []


def test_an_export_is_not_replaced_by_less_either(tmp_path, capsys):
    src, out = tmp_path / "src", tmp_path / "csv"
    src.mkdir()
    good = _sources(src, _good(src))
    assert main(["export", "--manifest", str(good), "--format", "wahapedia-csv", "--out", str(out), "-q"]) == 0
    before = _snapshot(out)
    empty = _sources(src, {"wh40k/README.md": b"nothing"})
    assert main(["export", "--manifest", str(empty), "--format", "wahapedia-csv", "--out", str(out), "-q"]) == 1
    assert "--allow-shrink" in capsys.readouterr().err and _snapshot(out) == before
