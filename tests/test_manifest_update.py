"""The maintainer's loop: edit a source, build (refused, in a few clear lines), record the checksum, build."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

PALADINS = "datasheet-grey-knights-paladin-squad.10e.txt"


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "warscribe", *map(str, args)], cwd=cwd, capture_output=True, text=True)


def test_an_edited_source_is_named_and_its_checksum_recorded(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(ROOT / "sources", sources)
    page = sources / PALADINS
    page.write_text(page.read_text(encoding="utf-8").replace("Paladin Squad", "Paladin Squad", 1) + "\n",
                    encoding="utf-8")
    before = (sources / "manifest.yaml").read_text(encoding="utf-8")

    built = run("build", "--sources", sources, "--out", tmp_path / "out", "--no-site")
    assert built.returncode == 2 and built.stdout == ""  # a source that cannot be used: 2
    lines = built.stderr.strip().splitlines()
    assert len(lines) <= 6, built.stderr  # the one refused source and what to do: not every warning of the others
    assert f"sources/{PALADINS}:1: error: source file differs from the manifest's checksum" in lines[0]
    assert "`warscribe manifest --update`" in built.stderr
    assert "previous output" not in built.stderr and "out/ was not created" in built.stderr  # there was none
    assert not (tmp_path / "out").exists()

    listed = run("manifest", "--sources", sources)
    assert listed.returncode == 1
    assert f"changed  {PALADINS}: dda964ef5a93… ->" in listed.stdout and listed.stdout.count("changed  ") == 1
    assert (sources / "manifest.yaml").read_text(encoding="utf-8") == before  # only with --update

    updated = run("manifest", "--sources", sources, "--update")
    assert updated.returncode == 0, updated.stderr
    assert f"updated  {PALADINS}" in updated.stdout and "4 sources; 1 checksum recorded" in updated.stdout
    after = (sources / "manifest.yaml").read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(changed) == 1 and changed[0][0].strip().startswith("sha256: dda964ef")  # one line, comments kept
    assert len(before.splitlines()) == len(after.splitlines())

    assert run("build", "--sources", sources, "--out", tmp_path / "out", "-q", "--no-site").returncode == 0
    assert run("manifest", "--sources", sources).returncode == 0


def test_missing_sources_are_listed_and_never_rewritten(tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(ROOT / "sources", sources)
    (sources / PALADINS).unlink()
    proc = run("manifest", "--sources", sources, "--update")
    assert proc.returncode == 1 and f"missing  {PALADINS}: does not exist" in proc.stdout
    assert "0 checksums recorded; 1 missing or unreadable" in proc.stdout


def test_rewrite_touches_only_the_sha_line_of_the_entry_even_with_nested_lists():
    from warscribe.manifest_update import rewrite

    text = ("# header\nsources:\n"
            "  - file: a.tar.xz\n    files:\n      - x.cat\n      - y.cat\n    sha256: " + "a" * 64 + "  # note\n"
            "    kind: battlescribe\n"
            "  - file: b.txt\n    sha256: '" + "a" * 64 + "'\n"
            "  - file: c.txt\n    sha256: new\n")
    out = rewrite(text, {1: ("a" * 64, "b" * 64), 2: ("new", "c" * 64)})
    assert out.splitlines()[6] == "    sha256: " + "a" * 64 + "  # note"
    assert out.splitlines()[9] == "    sha256: '" + "b" * 64 + "'"
    assert out.splitlines()[11] == "    sha256: " + "c" * 64
    with pytest.raises(ValueError):
        rewrite("sources: [{file: a.txt, sha256: x}]\n", {0: ("x", "y")})
