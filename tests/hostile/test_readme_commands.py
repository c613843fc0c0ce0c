"""The README and the command line agree: every command the docs show is accepted as written."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import pytest

from conftest import ROOT
from doc_commands import commands, inline_commands
from warscribe.cli import parser

PLACEHOLDERS = {"SCENARIO.yaml": "examples/scenarios/x.yaml", "DIR": "/tmp/warscribe-docs-dir", "TSV": "x.tsv",
                "NAME": "lines", "N": "3", "FILE": "m.yaml"}


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _documented() -> list[str]:
    """Commands named in prose (`warscribe calc SCENARIO.yaml [--format json]`)."""
    return sorted({c for path in PAGES for c in inline_commands(path)})


def _shown() -> dict[str, list[str]]:
    """Each warscribe command of the pages' ```sh blocks and transcripts, as the shell splits it."""
    found = {}
    for path in PAGES:
        for command in commands(path):
            words, part = command.words() + ["&&"], []
            for word in words:
                if word not in ("&&", "||", "|", ";"):
                    part.append(word)
                    continue
                if part[:1] == ["warscribe"]:
                    found[f"{command.page}:{command.line}: {' '.join(part)}"] = part[1:]
                part = []
    return found


def _expansions(command: str) -> list[list[str]]:
    """Each way to write `command`: optional groups left out or given, 'a|b' as each alternative."""
    # A quoted argument ("Deathwing Terminator Squad") is one word, as the shell reads it.
    parts = [p[1:-1] if p.startswith('"') else p for p in re.findall(r'\[[^\]]*\]|"[^"]*"|\S+', command)]
    choices = []
    for part in parts[1:]:
        if part.startswith("["):
            inner = part[1:-1]
            options = [[]] + [alt.split() for alt in re.split(r"\s\|\s", inner)]
        else:
            options = [[part]]
        expanded = []
        for option in options:
            for words in itertools.product(*[w.split("|") if "|" in w and not w.startswith("-") else [w]
                                             for w in option]):
                expanded.append([PLACEHOLDERS.get(w, w) for w in words])
        choices.append(expanded)
    return [[w for group in combo for w in group] for combo in itertools.product(*choices)]


@pytest.mark.parametrize("command", _documented())
def test_every_documented_command_is_accepted(command):
    words = command.split()
    if len(words) == 2:  # prose naming a command ('`warscribe calc` computes ...'): it must exist
        sub = next(a for a in parser()._actions if a.dest == "command")
        assert words[1] in sub.choices
        return
    for argv in _expansions(command):
        try:
            parser().parse_args(argv)
        except SystemExit as exc:
            pytest.fail(f"{command!r} as {argv}: rejected (exit {exc.code})")


@pytest.mark.parametrize("where", sorted(_shown()))
def test_every_command_a_block_shows_is_accepted(where):
    try:
        parser().parse_args(_shown()[where])
    except SystemExit as exc:
        pytest.fail(f"{where}: rejected (exit {exc.code})")


def test_export_takes_its_folder_as_an_argument_as_the_readme_shows(tmp_path):
    out = tmp_path / "csv"
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "export", "--format", "wahapedia-csv", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert (out / "10e" / "Datasheets.csv").is_file() and (out / "11e" / "Datasheets.csv").is_file()
    clash = subprocess.run([sys.executable, "-m", "warscribe.cli", "export", str(out), "--out", str(tmp_path / "x")],
                           capture_output=True, text=True, cwd=ROOT)
    assert clash.returncode == 2 and "two output folders" in clash.stderr
