"""The README's commands run as written, in order, in a fresh copy of the checkout (issue 44).

Each shell block of the README is read in order; its commands are run as a newcomer would
type them, from the checkout with ../shared beside it (here a copy of sources/ and examples/,
with the shared data linked beside it). The two set-up lines (a virtual environment and pip,
then pytest) are what CI itself runs (`.ci/run`), so they are not run again here. The
whole-game builds take a minute or more: they run under CI (and whenever CI=true), and are
skipped on a developer's machine.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

# Run by CI itself (.ci/run): making the environment, and the test suite.
_CI_RUNS = ("python3 -m venv", "python -m pytest")


def readme_commands() -> list[str]:
    """The command lines of the README's shell blocks, in order (continuation lines joined)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        block = re.sub(r"\\\n\s*", " ", block)
        lines += [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    return lines


def _long(command: str) -> bool:
    """A whole-game build: a minute or more."""
    return "--manifest examples/" in command


def test_the_readme_shows_commands_and_the_set_up_lines_are_cis():
    commands = readme_commands()
    assert any(c.startswith("warscribe build --manifest examples/11e/") for c in commands)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]'" in ci and "python -m pytest" in ci  # what the skipped lines do


def test_every_readme_command_runs_as_written_in_order(tmp_path):
    shared = ROOT.parent / "shared"
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for folder in ("sources", "examples"):
        shutil.copytree(ROOT / folder, checkout / folder)
    if shared.is_dir():
        (tmp_path / "shared").symlink_to(shared, target_is_directory=True)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    run_long = bool(os.environ.get("CI"))
    ran = []
    for command in readme_commands():
        if command.startswith(_CI_RUNS):
            continue
        if _long(command) and not run_long:
            continue
        if _long(command) and not shared.is_dir():
            pytest.fail(f"{command}: ../shared is missing")
        cwd = checkout
        for step in command.split(" && "):
            words = shlex.split(step)
            if words[0] == "mkdir":
                (cwd / words[-1]).mkdir(parents=True, exist_ok=True)
                continue
            if words[0] == "cd":
                cwd = cwd / words[1]
                continue
            assert words[0] == "warscribe", f"the README runs {step!r}: only warscribe's commands are run here"
            proc = subprocess.run([sys.executable, "-m", "warscribe", *words[1:]], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=900)
            shown = proc.stdout[-2000:] + proc.stderr[-2000:]
            assert "Traceback" not in shown, (step, shown)
            # 0, or 1 where the real data has errors it reports (The Red Terror's AP '-'): never 2,
            # the status of a command that cannot be used as written.
            assert proc.returncode in (0, 1), (step, proc.returncode, shown)
            if words[1] == "build":
                out = words[words.index("--out") + 1] if "--out" in words else "out"
                assert (cwd / out / "manifest.json").is_file(), (step, shown)
            ran.append(step)
    assert any(r.startswith("warscribe init") for r in ran) and any(r == "warscribe build" for r in ran)
