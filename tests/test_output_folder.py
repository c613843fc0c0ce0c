"""The output folder: nothing the command did not write is deleted without a word; its mode is kept.

A build replaces its previous output, but what that output's manifest.json does not
list (a user's file, another command's export) is kept, or, where the new output
writes that very path, the build refuses and changes nothing; a part of the previous
output the new one lacks is named as removed. Stale scratch folders of killed runs are
removed (or put back) by the next run, and named.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from warscribe.outputs import OutputError, staged


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "warscribe", *map(str, args)], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def records_only(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records") / "out"
    assert run("build", "--out", out, "-q", "--no-site").returncode == 0
    return out


def _copy(build: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(build, out)
    return out


def test_exports_inside_the_build_folder_survive_the_next_build_or_are_named(tmp_path, records_only):
    out = _copy(records_only, tmp_path)
    assert run("export", "--out", out / "json", "-q").returncode == 0  # the README's defaults: out/json
    assert run("export", "--format", "wahapedia-csv", "--out", out / "wahapedia-csv", "-q").returncode == 0
    csv_files = sorted(p.name for p in (out / "wahapedia-csv").iterdir())
    proc = run("build", "--out", out, "-q", "--no-site")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (out / "wahapedia-csv").iterdir()) == csv_files  # kept, whole
    assert "kept wahapedia-csv/ (written by another Warscribe command, not by this build)" in proc.stderr
    # out/json is the build's own folder: the export there is replaced, and the build says so.
    assert "replaced json/, an output of another Warscribe command, with this build's" in proc.stderr
    assert not (out / "json" / "schemas").exists()


def _list_in_manifest(out: Path, *files: str) -> None:
    """As if the previous build had written `files` (listed in its manifest.json)."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"].update({f: "0" * 64 for f in files})
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_build_without_site_names_the_site_it_removes(tmp_path, records_only):
    out = _copy(records_only, tmp_path)
    (out / "site" / "css").mkdir(parents=True)
    (out / "site" / "index.html").write_text("<p>the previous site</p>", encoding="utf-8")
    (out / "site" / "css" / "site.css").write_text("p {}", encoding="utf-8")
    _list_in_manifest(out, "site/index.html", "site/css/site.css")
    proc = run("build", "--out", out, "-q", "--no-site")
    assert proc.returncode == 0
    assert not (out / "site").exists()
    assert "removed site/ of the previous output (2 files): this build does not write it" in proc.stderr


def test_a_users_files_in_the_output_folder_are_kept_and_named(tmp_path, records_only):
    out = _copy(records_only, tmp_path)
    (out / "notes.txt").write_text("my notes", encoding="utf-8")
    (out / "records" / "weapon" / "mine.yaml").write_text("mine: 1\n", encoding="utf-8")
    (out / "empty-folder").mkdir()
    os.symlink("notes.txt", out / "link-to-notes")
    proc = run("build", "--out", out, "-q", "--no-site")
    assert proc.returncode == 0, proc.stderr
    assert (out / "notes.txt").read_text(encoding="utf-8") == "my notes"
    assert (out / "records" / "weapon" / "mine.yaml").read_text(encoding="utf-8") == "mine: 1\n"
    assert (out / "empty-folder").is_dir() and os.readlink(out / "link-to-notes") == "notes.txt"
    assert ("kept 4 entries Warscribe did not write: empty-folder/, link-to-notes, notes.txt, "
            "records/weapon/mine.yaml") in proc.stderr
    # Still not ours on the next build: not listed in its manifest, kept again.
    assert "notes.txt" not in json.loads((out / "manifest.json").read_text())["files"]
    again = run("build", "--out", out, "-q", "--no-site")
    assert again.returncode == 0 and (out / "notes.txt").is_file() and "kept 4 entries" in again.stderr


def test_a_users_file_where_the_build_writes_makes_it_refuse_and_change_nothing(tmp_path, records_only):
    out = _copy(records_only, tmp_path)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    del manifest["files"]["json/weapon.json"]  # as if the previous build had not written it: the user did
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (out / "json" / "weapon.json").write_text("my own weapons", encoding="utf-8")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    proc = run("build", "--out", out, "-q", "--no-site")
    assert proc.returncode == 1 and "json/weapon.json was not written by Warscribe" in proc.stderr
    assert "nothing was replaced" in proc.stderr and "Traceback" not in proc.stderr
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("umask, mode", [(0o022, 0o755), (0o027, 0o750), (0o077, 0o700)])
def test_a_new_output_folder_follows_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        with staged(tmp_path / "out") as stage:
            (stage / "a.txt").write_text("a", encoding="utf-8")
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == mode


def test_a_replaced_output_folder_keeps_its_mode(tmp_path, records_only):
    out = _copy(records_only, tmp_path)
    os.chmod(out, 0o751)
    assert run("build", "--out", out, "-q", "--no-site").returncode == 0
    assert out.stat().st_mode & 0o777 == 0o751


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid  # reaped: no process has it (until the system reuses it)


def test_stale_scratch_folders_are_removed_put_back_or_reported(tmp_path):
    from warscribe.outputs import clean_stale

    pid = _dead_pid()
    out = tmp_path / "out"
    with staged(out) as stage:
        (stage / "a.txt").write_text("a", encoding="utf-8")
    stale = tmp_path / f".out.new-{pid}-0123abcd"
    (stale / "site").mkdir(parents=True)
    (stale / "site" / "page.html").write_text("x" * 1000, encoding="utf-8")
    serving = tmp_path / f".out.serve-{pid}-89abcdef"
    serving.mkdir()
    legacy = tmp_path / ".out.new-k2j3h4g5"  # an earlier Warscribe's staging folder: no pid in its name
    legacy.mkdir()
    mine = tmp_path / f".out.new-{os.getpid()}-00000000"  # a run in progress (this one)
    mine.mkdir()
    notes = clean_stale(out)
    assert not stale.exists() and not serving.exists()
    assert f"removed a staging folder left by an interrupted run (process {pid}): {stale.name}, 1 kB" in notes
    assert any(n.startswith(f"removed a server's scratch site left by an interrupted run (process {pid})") for n in notes)
    assert legacy.exists() and any(str(legacy) in n and "left alone" in n for n in notes)
    assert mine.exists() and len(notes) == 3
    shutil.rmtree(legacy)  # reported, never removed by us: the test clears it (no test leaves a staging folder)
    # Killed between setting the previous output aside and moving the new one in: it is put back.
    shutil.rmtree(mine)
    os.replace(out, tmp_path / f".out.old-{pid}-fedcba98")
    notes = clean_stale(out)
    assert (out / "a.txt").read_text(encoding="utf-8") == "a" and any("restored the previous output" in n for n in notes)


def test_a_failed_write_keeps_a_users_files_in_place(tmp_path):
    out = tmp_path / "out"
    with staged(out) as stage:
        (stage / "ours.txt").write_text("ours", encoding="utf-8")
    (out / "mine.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OSError):
        with staged(out) as stage:
            raise OSError(28, "No space left on device")
    assert (out / "mine.txt").read_text(encoding="utf-8") == "mine"
    with pytest.raises(OutputError, match="mine.txt was not written by Warscribe"):
        with staged(out) as stage:
            (stage / "mine.txt").write_text("clash", encoding="utf-8")
    assert (out / "mine.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
