"""Bad input gets a clear error naming file and line; the rest of the build still completes."""

from __future__ import annotations

import shutil

import pytest

from warscribe.extract.pipeline import extract
from warscribe.extract.store import Store
from warscribe.schema.diagnostics import Report

from conftest import ROOT, write_manifest

SEED = ROOT / "sources" / "datasheet-grey-knights-paladin-squad.10e.txt"


def _build(tmp_path, files: dict[str, bytes], with_seed=True):
    entries = []
    if with_seed:
        shutil.copy(SEED, tmp_path / SEED.name)
        entries.append({"file": SEED.name, "ruleset": "10e", "kind": "datasheet-page"})
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        entries.append({"file": name, "ruleset": "11e", "kind": "datasheet-page"})
    return extract(write_manifest(tmp_path, entries))


def _codes(result, file):
    return {d.code for d in result.report.diagnostics if d.file.endswith(file)}


def test_empty_file_is_an_error_and_the_rest_builds(tmp_path):
    result = _build(tmp_path, {"empty.txt": b""})
    errors = [d for d in result.report.errors if d.file.endswith("empty.txt")]
    assert errors and errors[0].code == "empty-source" and errors[0].line == 1
    assert any(r["id"] == "grey-knights/paladin-squad" for r in result.records)


def test_binary_junk_names_the_line(tmp_path):
    result = _build(tmp_path, {"junk.txt": b"Faction \xe2\x80\x93 Unit\nok line\n\x00\x01\x02binary"})
    err = [d for d in result.report.errors if d.file.endswith("junk.txt")][0]
    assert (err.code, err.line) == ("binary-source", 3)


def test_bad_encoding_names_line_and_column(tmp_path):
    result = _build(tmp_path, {"latin.txt": "Faction – Unit\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n".encode()
                               + b"| Caf\xe9 gun | 12\" | 1 | 3+ | 4 | 0 | 1 | |\n"})
    err = [d for d in result.report.errors if d.code == "bad-encoding"][0]
    assert (err.line, err.column) == (3, 6)


def test_truncated_weapon_table_is_reported_not_guessed(tmp_path):
    page = ("Faction – Unit\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
            "| Gun [assault] | |||||||\n| Gun [assault] | 24\" | 2 | 3+ |\nKEYWORDS: INFANTRY\n")
    result = _build(tmp_path, {"truncated.txt": page.encode()}, with_seed=False)
    errs = [d for d in result.report.errors if d.code == "bad-weapon-row"]
    assert errs and errs[0].line == 4 and "6 cells" in errs[0].expected
    assert not any(r["kind"] == "weapon" for r in result.records)  # never a half-read weapon
    assert any(r["kind"] == "datasheet" for r in result.records)


def test_bad_weapon_value_names_the_value(tmp_path):
    page = ("Faction – Unit\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
            "| Gun | 24\" | 2 | 9+ | 4 | 0 | 1 | |\nKEYWORDS: INFANTRY\n")
    result = _build(tmp_path, {"value.txt": page.encode()}, with_seed=False)
    err = [d for d in result.report.errors if d.code == "bad-weapon-value"][0]
    assert err.line == 3 and "BS/WS '9+'" in err.message


def test_text_before_any_section_is_reported(tmp_path):
    page = "Faction – Unit\nWhat is this line?\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
    result = _build(tmp_path, {"unknown.txt": page.encode()}, with_seed=False)
    warn = [d for d in result.report.warnings if d.code == "unknown-section"][0]
    assert warn.line == 2 and warn.found == "What is this line?"


def test_page_without_title_is_an_error(tmp_path):
    result = _build(tmp_path, {"notitle.txt": b"Just some text\nand more\n"})
    err = [d for d in result.report.errors if d.file.endswith("notitle.txt")][0]
    assert err.code == "bad-title" and "Faction" in err.expected


def test_checksum_mismatch_skips_the_source(tmp_path):
    shutil.copy(SEED, tmp_path / SEED.name)
    manifest = write_manifest(tmp_path, [{"file": SEED.name, "ruleset": "10e", "kind": "datasheet-page"}])
    (tmp_path / SEED.name).write_bytes(SEED.read_bytes() + b"tampered\n")
    result = extract(manifest)
    assert [d.code for d in result.report.errors] == ["checksum"]
    assert result.records == []


def test_manifest_errors_name_the_entry(tmp_path):
    (tmp_path / "manifest.yaml").write_text("sources:\n  - file: a.txt\n    ruleset: 12e\n")
    result = extract(tmp_path / "manifest.yaml")
    err = result.report.errors[0]
    assert err.code == "bad-manifest" and err.line == 2 and "sha256" in err.message


def test_schema_failure_is_reported_with_path_and_not_written():
    from warscribe.schema.registry import record_errors
    record = {"id": "x/y", "kind": "weapon", "name": "Gun", "ruleset": "10e",
              "source": [{"file": "f", "first_line": 1, "last_line": 1, "ruleset": "10e"}],
              "datasheet": "x", "type": "ranged", "range": 24, "attacks": "D7", "skill": 3,
              "strength": 4, "ap": 1, "damage": 1, "abilities": []}
    paths = [p for p, _m in record_errors(record)]
    assert paths == ["ap", "attacks"]


def test_conflicting_duplicates_are_reported():
    """Two sightings of one id that disagree: the first is kept, the conflict reported."""
    from warscribe.extract.lines import Document, Line
    report = Report()
    store = Store(report, {})
    doc = Document("f.txt", "10e", "datasheet-page", {})
    base = {"id": "a/b", "kind": "rule", "name": "B", "ruleset": "10e"}
    store.add({**base, "text": "one"}, doc, [Line(1, "x")])
    store.add({**base, "text": "two"}, doc, [Line(9, "y")])
    assert store.records["a/b"]["text"] == "one"
    assert [d.code for d in report.warnings] == ["conflicting-duplicate"]
    assert [d.line for d in report.warnings] == [9]


@pytest.mark.parametrize("junk", [b"\xff\xfe\x00\x00", b"   \n\n  \n"])
def test_unreadable_sources_never_raise(tmp_path, junk):
    result = _build(tmp_path, {"bad.txt": junk})
    assert result.report.errors
    assert any(r["id"] == "grey-knights/paladin-squad" for r in result.records)


def test_a_record_failing_its_schema_is_reported_and_not_written(tmp_path, monkeypatch, capsys):
    """Corrupt one record after linking: the build names it, its path and value, and skips it."""
    from warscribe.extract import store as store_module
    from warscribe.build import run_build

    original = store_module.Store.finish

    def corrupting_finish(self):
        records = original(self)
        for r in records:
            if r["id"] == "grey-knights/paladin-squad/psilencer":
                r["ap"] = 2
        return records

    monkeypatch.setattr(store_module.Store, "finish", corrupting_finish)
    status = run_build(ROOT / "sources" / "manifest.yaml", tmp_path / "out", quiet=False, site=False)
    out = capsys.readouterr().err  # diagnostics on stderr
    assert status == 1
    assert "grey-knights/paladin-squad/psilencer: ap: 2 is greater than the maximum of 0; record not written" in out
    assert not (tmp_path / "out" / "records" / "weapon" / "grey-knights" / "paladin-squad" / "psilencer.yaml").exists()
    assert (tmp_path / "out" / "records" / "weapon" / "grey-knights" / "paladin-squad" / "psycannon.yaml").exists()
