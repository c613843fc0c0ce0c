"""Builds of the seeds and of edited copies of them, for the check and diff tests."""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
from collections.abc import Callable
from pathlib import Path

import yaml

from warscribe.build import run_build

from conftest import ROOT

INQUISITOR = "datasheet-imperial-agents-inquisitor.11e.txt"
PALADINS = "datasheet-grey-knights-paladin-squad.10e.txt"


def build(manifest: Path, out: Path) -> Path:
    with contextlib.redirect_stdout(io.StringIO()):
        run_build(manifest=manifest, out=out, quiet=True, site=False)  # the records only: no site needed
    return out


def copy_sources(folder: Path, edits: dict[str, Callable[[list[str]], list[str]]] | None = None,
                 reverse: bool = False) -> Path:
    """The seeds copied to folder/sources, each file edited line by line, the manifest re-checksummed."""
    target = folder / "sources"
    shutil.copytree(ROOT / "sources", target)
    manifest = yaml.safe_load((target / "manifest.yaml").read_text(encoding="utf-8"))
    for entry in manifest["sources"]:
        edit = (edits or {}).get(entry["file"])
        if edit:
            path = target / entry["file"]
            lines = path.read_text(encoding="utf-8").split("\n")
            path.write_text("\n".join(edit(lines)), encoding="utf-8")
            entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    if reverse:
        manifest["sources"].reverse()
    path = target / "manifest.yaml"
    path.write_text(yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def replace_line(number: int, old: str, new: str) -> Callable[[list[str]], list[str]]:
    """An edit of one line (1-based) that fails loudly if the line is not what the test expects."""
    def edit(lines: list[str]) -> list[str]:
        assert old in lines[number - 1], f"line {number} is {lines[number - 1]!r}, expected it to hold {old!r}"
        lines[number - 1] = lines[number - 1].replace(old, new)
        return lines
    return edit


def delete_lines(first: int, last: int, first_text: str) -> Callable[[list[str]], list[str]]:
    def edit(lines: list[str]) -> list[str]:
        assert first_text in lines[first - 1], f"line {first} is {lines[first - 1]!r}"
        return lines[: first - 1] + lines[last:]
    return edit
