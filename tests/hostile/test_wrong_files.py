"""The wrong kind of file where a command expects a build or a TSV: one located line, exit status 2.

A newcomer passes a manifest where a build is expected, a binary or an empty file, a folder:
the message says what was expected and what was found, never a parser's traceback nor
"Expecting value: line 1 column 1 (char 0)", and never a count of nothing as a success.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from warscribe.schema.sniff import what_is


def run(*args):
    return subprocess.run([sys.executable, "-m", "warscribe", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)

WRONG = {
    "binary": (b"\x00\x01\x02\xff" * 64, "binary data"),
    "empty": (b"", "an empty file"),
    "yaml": (b"sources:\n  - file: page.txt\n    kind: datasheet-page\n", "YAML"),
    "commented-yaml": (b"# The whole game.\n#\n#   warscribe build ...\nsources:\n  - file: x.tar.xz\n", "YAML"),
    "latin1": ("Chaos Space Marines \u00e9".encode("latin-1") * 5 + b"x" * 10, "binary data (not UTF-8"),
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_what_a_file_is(tmp_path, case):
    data, said = WRONG[case]
    path = tmp_path / "f"
    path.write_bytes(data)
    assert what_is(path).startswith(said)


def test_text_is_not_called_anything(tmp_path):
    for text in ('{"meta": {}}', "name\tkeywords\nbolt rifle\tAssault\n", "[1, 2]"):
        (tmp_path / "f").write_text(text, encoding="utf-8")
        assert what_is(tmp_path / "f") is None
    assert what_is(tmp_path) == "a folder"
    assert what_is(tmp_path / "none") == "nothing (no such file)"


@pytest.mark.parametrize("case", ["binary", "empty", "yaml", "commented-yaml"])
def test_a_build_expected_and_another_file_given(tmp_path, case):
    data, said = WRONG[case]
    path = tmp_path / "given"
    path.write_bytes(data)
    for argv in (["check", str(path)], ["effects", "--kb", str(path)]):
        proc = run(*argv)
        assert proc.returncode == 2, (argv, proc.stdout, proc.stderr)
        assert f"found {said}" in proc.stderr and "expected a Warscribe build" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr and "Expecting value" not in proc.stderr
        assert proc.stderr.count("\n") == 1


def test_malformed_json_where_a_build_is_expected_is_located(tmp_path):
    path = tmp_path / "warscribe.json"
    path.write_text('{"meta": {},\n "data": [1, 2,]}', encoding="utf-8")
    proc = run("check", str(path))
    assert proc.returncode == 2 and f"{path}:2:" in proc.stderr and "malformed JSON" in proc.stderr, proc.stderr


@pytest.mark.parametrize("case", ["binary", "empty", "yaml", "folder", "header-only", "no-keywords"])
def test_census_of_what_is_not_a_weapon_tsv(tmp_path, case):
    path = tmp_path / "weapons.tsv"
    if case == "folder":
        path.mkdir()
    elif case == "header-only":
        path.write_text("name\tkeywords\n", encoding="utf-8")
    elif case == "no-keywords":
        path.write_text("name\trange\nbolt rifle\t24\n", encoding="utf-8")
    else:
        path.write_bytes(WRONG[case][0])
    proc = run("census", str(path))
    assert proc.returncode == 2, proc.stdout
    assert "expected a weapon TSV" in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert "weapon profiles" not in proc.stdout and "Traceback" not in proc.stderr
