"""Names that become file names: portable, bounded, deterministic; a write that fails names the record and its source."""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from conftest import ROOT, write_manifest
from warscribe.schema.filenames import MAX_PART, part_name, record_path

DATA = ROOT / "tests" / "fixtures" / "battlescribe" / "json"
WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {f"{d}{n}" for d in ("com", "lpt") for n in "0123456789"}


def _portable(name: str) -> bool:
    return (0 < len(name.encode()) <= MAX_PART and all(c.isascii() and (c.isalnum() or c in "-~") for c in name)
            and name == name.lower() and name.split(".")[0] not in WINDOWS_RESERVED and not name.endswith((".", " ")))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=400), min_size=1, max_size=4))
def test_every_id_makes_a_portable_bounded_name_for_each_part(parts):
    path = record_path("/".join(parts), ".yaml")
    assert path == record_path("/".join(parts), ".yaml")  # deterministic
    names = path.removesuffix(".yaml").split("/")
    assert len(names) == len("/".join(parts).split("/"))
    assert all(_portable(n) for n in names), names


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("aAbB-._~ cCoOnN1é\x1b/"), max_size=12), min_size=2, max_size=40,
                unique=True))
def test_distinct_ids_never_share_a_file_even_where_case_is_ignored(ids):
    assert len({record_path(i).casefold() for i in ids}) == len(ids)


@pytest.mark.parametrize("part, name", [
    ("paladin-squad", "paladin-squad"),  # every id our formulas make is kept as it is
    ("con", None), ("NUL", None), ("com1", None), ("lpt9", None), ("aux", None),
    ("Paladin-Squad", None), ("name.", None), ("name ", None), ("..", None), ("", None),
    ("a" * MAX_PART, "a" * MAX_PART), ("a" * (MAX_PART + 1), None), ("é" * 200, None),
])
def test_plain_parts_are_kept_and_the_rest_made_safe(part, name):
    got = part_name(part)
    if name is not None:
        assert got == name
    else:
        assert got != part and "~" in got and _portable(got)


def _hostile_names(tmp_path: Path, name: str) -> Path:
    data = tmp_path / "bsdata"
    shutil.copytree(DATA, data)
    path = data / "Testers.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"Alpha Squad"', json.dumps(name)), encoding="utf-8")
    return write_manifest(tmp_path, [{"file": "bsdata", "ruleset": "10e", "kind": "battlescribe"}])


@pytest.mark.parametrize("name", ["A" * 300 + " Squad", "CON", "Nul", "é" * 200])
def test_a_long_or_reserved_unit_name_builds_with_its_site_and_keeps_its_id(tmp_path, name):
    manifest = _hostile_names(tmp_path, name)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--manifest", str(manifest), "--out", str(out),
                           "-q"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [ds] = [r for r in json.loads((out / "json" / "datasheet.json").read_text())["data"] if r["name"] == name]
    written = out / "records" / "datasheet" / (record_path(ds["id"], ".yaml"))
    assert yaml.safe_load(written.read_text(encoding="utf-8"))["id"] == ds["id"]
    for path in out.rglob("*"):
        assert len(path.name.encode()) <= MAX_PART + 10 and path.name.split(".")[0].lower() not in WINDOWS_RESERVED
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder left


def test_a_record_that_cannot_be_written_is_named_with_its_source_not_the_staging_folder(tmp_path, monkeypatch, capsys):
    from warscribe import build, writers

    manifest = _hostile_names(tmp_path, "B" * 5000)
    real = writers.record_yaml

    def full_disk(rec):
        if rec["kind"] == "datasheet" and rec["name"].startswith("BBB"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(rec)

    monkeypatch.setattr(writers, "record_yaml", full_disk)
    assert build.run_build(manifest, tmp_path / "out", quiet=True, site=False) == 1
    err = capsys.readouterr().err
    assert "cannot write record testers/bbbb" in err and "No space left on device" in err
    assert f"(from {tmp_path.name}/bsdata/Testers.json:" in err
    assert ".out.new-" not in err and "B" * 200 not in err and "b" * 200 not in err and len(err) < 1000
    assert not (tmp_path / "out").exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
