"""Hostile manifests and scenarios: confined paths, bounded YAML, duplicates refused, located errors."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest

from conftest import ROOT, write_manifest
from warscribe.engine import ScenarioError, evaluate
from warscribe.extract.pipeline import extract
from warscribe.schema import safeyaml

SEED = ROOT / "sources" / "datasheet-grey-knights-paladin-squad.10e.txt"

BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{n}: &{n} [" + ",".join([f"*{p}"] * 9) + "]\n" for p, n in zip("abcdefgh", "bcdefghi"))


def _entry(file: str, data: bytes, kind: str = "datasheet-page") -> dict:
    return {"file": file, "original_name": "x", "sha256": hashlib.sha256(data).hexdigest(), "ruleset": "10e", "kind": kind}


def _manifest(folder: Path, entries: list[dict]) -> Path:
    import yaml

    path = folder / "manifest.yaml"
    path.write_text(yaml.safe_dump({"sources": entries}), encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink", "symlinked-folder"])
def test_a_source_outside_the_manifests_folder_is_never_read(tmp_path, how):
    secret = tmp_path / "secret.txt"
    secret.write_text("Paladin Squad\nTOP SECRET\n", encoding="utf-8")
    folder = tmp_path / "sources"
    folder.mkdir()
    listed = {"dotdot": "../secret.txt", "absolute": str(secret), "symlink": "link.txt", "symlinked-folder": "d/secret.txt"}[how]
    if how == "symlink":
        os.symlink(secret, folder / "link.txt")
    if how == "symlinked-folder":
        os.symlink(tmp_path, folder / "d")
    result = extract(_manifest(folder, [_entry(listed, secret.read_bytes())]))
    assert result.records == []
    [err] = result.report.errors
    assert err.code == "unconfined-source" and err.line >= 1
    # Not even a checksum of the outside file is printed.
    assert hashlib.sha256(secret.read_bytes()).hexdigest() not in err.render()


def test_a_source_listed_twice_is_an_error_and_read_once(tmp_path):
    (tmp_path / SEED.name).write_bytes(SEED.read_bytes())
    entry = _entry(SEED.name, SEED.read_bytes())
    result = extract(_manifest(tmp_path, [entry, dict(entry, file="./" + SEED.name)]))
    assert [d.code for d in result.report.errors] == ["duplicate-source"]
    assert any(r["kind"] == "datasheet" for r in result.records)


def test_a_duplicated_top_level_key_is_refused_with_its_line(tmp_path):
    (tmp_path / SEED.name).write_bytes(SEED.read_bytes())
    good = write_manifest(tmp_path, [{"file": SEED.name, "ruleset": "10e", "kind": "datasheet-page"}])
    good.write_text(good.read_text(encoding="utf-8") + "sources: []\n", encoding="utf-8")
    result = extract(good)
    [err] = result.report.errors
    assert err.code == "bad-manifest" and "duplicate key 'sources'" in err.message and err.line > 1


@pytest.mark.parametrize("value", ["12345", "[a, b]", "{x: 1}", "null"])
def test_manifest_values_of_the_wrong_type_are_located_errors(tmp_path, value):
    (tmp_path / "manifest.yaml").write_text(
        f"sources:\n  - file: {value}\n    original_name: a\n    sha256: {'0' * 64}\n    ruleset: 10e\n"
        "    kind: datasheet-page\n", encoding="utf-8")
    result = extract(tmp_path / "manifest.yaml")
    [err] = result.report.errors
    assert err.code == "bad-manifest" and "file" in err.message


def test_a_yaml_alias_bomb_is_refused_quickly_in_a_manifest_and_a_scenario(tmp_path):
    (tmp_path / "manifest.yaml").write_text(BOMB + "sources: []\n", encoding="utf-8")
    start = time.monotonic()
    result = extract(tmp_path / "manifest.yaml")
    assert [d.code for d in result.report.errors] == ["bad-manifest"]
    assert "expands to more than" in result.report.errors[0].message
    (tmp_path / "s.yaml").write_text(BOMB, encoding="utf-8")
    with pytest.raises(ScenarioError, match="expands to more than"):
        evaluate(tmp_path / "s.yaml")
    assert time.monotonic() - start < 10  # generous: without the bound this takes minutes and gigabytes


def test_safe_yaml_limits_depth_size_and_recursion():
    with pytest.raises(safeyaml.YamlError, match="nested deeper"):
        safeyaml.loads("x: " + "[" * 500 + "]" * 500)
    with pytest.raises(safeyaml.YamlError, match="larger than"):
        safeyaml.loads("x: 1\n" * 10, safeyaml.Limits(max_bytes=20))
    with pytest.raises(safeyaml.YamlError):
        safeyaml.loads("a: &x [*x]\n")
    with pytest.raises(safeyaml.YamlError, match="not allowed|could not determine a constructor"):
        safeyaml.loads("!!python/object/apply:os.system ['true']\n")
    assert safeyaml.loads("a: &x {b: 1}\nc: *x\n") == {"a": {"b": 1}, "c": {"b": 1}}


def test_a_scenario_file_too_large_is_refused_before_reading(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * (safeyaml.MAX_BYTES + 10) + b"\n")
    with pytest.raises(ScenarioError, match="more than"):
        evaluate(big)


@pytest.mark.slow
def test_escape_sequences_in_a_source_never_reach_the_terminal(tmp_path):
    import subprocess
    import sys

    page = SEED.read_bytes().replace(b"KEYWORDS", b"\x1b[2J\x1b[H0 errors, 0 warnings\x07\xe2\x80\xae KEYWORDS", 1)
    (tmp_path / "page.txt").write_bytes(page)
    manifest = write_manifest(tmp_path, [{"file": "page.txt", "ruleset": "10e", "kind": "datasheet-page"}])
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--manifest", str(manifest),
                           "--out", str(tmp_path / "out")], capture_output=True, text=True)
    shown = proc.stdout + proc.stderr
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b[2J" in shown  # shown, escaped, where the line is reported


def test_a_page_nested_too_deep_is_a_located_error_and_the_rest_builds(tmp_path):
    deep = "<html><body><h1>Paladin Squad</h1>" + "<div>" * 600 + "x" + "</div>" * 600 + "</body></html>"
    (tmp_path / "deep.html").write_text(deep, encoding="utf-8")
    (tmp_path / SEED.name).write_bytes(SEED.read_bytes())
    manifest = write_manifest(tmp_path, [{"file": "deep.html", "ruleset": "10e", "kind": "datasheet-page"},
                                         {"file": SEED.name, "ruleset": "10e", "kind": "datasheet-page"}])
    result = extract(manifest)
    assert [d.code for d in result.report.errors] == ["too-deep"]
    assert any(r["id"] == "grey-knights/paladin-squad" for r in result.records)
