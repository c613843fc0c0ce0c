"""Outputs never destroy what Warscribe did not write, and a failed build keeps the previous one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from warscribe.outputs import OutputError, staged


def run(*args, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, "-m", "warscribe.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env)


@pytest.mark.parametrize("fmt", ["json", "wahapedia-csv"])
def test_export_refuses_a_folder_of_other_files_and_leaves_it_alone(tmp_path, fmt):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes", encoding="utf-8")
    (mine / "table.csv").write_text("a|b|\n", encoding="utf-8")
    proc = run("export", "--format", fmt, "--out", mine, "-q")
    assert proc.returncode == 1 and "not a Warscribe output" in proc.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt", "table.csv"]
    # An empty or new folder is fine, and so is exporting again over our own output.
    assert run("export", "--format", fmt, "--out", tmp_path / "new", "-q").returncode == 0
    assert run("export", "--format", fmt, "--out", tmp_path / "new", "-q").returncode == 0


def test_a_build_whose_manifest_cannot_be_read_keeps_the_previous_build(tmp_path):
    out = tmp_path / "out"
    assert run("build", "--out", out, "-q").returncode == 0
    before = (out / "json" / "warscribe.json").read_bytes()
    bad = tmp_path / "sources"
    bad.mkdir()
    (bad / "manifest.yaml").write_text("sources: [\n", encoding="utf-8")
    proc = run("build", "--sources", bad, "--out", out, "-q")
    assert proc.returncode == 2 and "previous output" in proc.stderr
    assert (out / "json" / "warscribe.json").read_bytes() == before


def test_a_failure_while_writing_leaves_the_destination_untouched(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"generator": "warscribe 0"}), encoding="utf-8")
    (out / "old.txt").write_text("old", encoding="utf-8")
    with pytest.raises(OSError):
        with staged(out) as stage:
            (stage / "half.txt").write_text("half", encoding="utf-8")
            raise OSError(28, "No space left on device")
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "old.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left behind
    with staged(out) as stage:
        (stage / "new.txt").write_text("new", encoding="utf-8")
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "new.txt"]


def test_a_file_or_link_as_destination_is_refused(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError):
        with staged(tmp_path / "file"):
            pass
    os.symlink(tmp_path, tmp_path / "link")
    with pytest.raises(OutputError):
        with staged(tmp_path / "link"):
            pass
