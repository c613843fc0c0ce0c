"""The README's commands run as written, in order, in a fresh copy of the checkout (issue 44).

Its ```sh blocks are read in order (tests/hostile/doc_commands.py, shared with the docs' test)
and each command run as a newcomer would type it, from the checkout with ../shared beside it
(here a copy of sources/ and examples/, with the shared data linked beside it). The two set-up
lines (a virtual environment and pip, then pytest) are what CI itself runs (`.ci/run`), so they
are not run again here. The whole-game builds take tens of seconds each: they run under CI (and
whenever CI=true), and are left out on a developer's machine.
"""

from __future__ import annotations

import pytest

from conftest import ROOT
from doc_commands import commands, failures, fresh_checkout, run_in_order

pytestmark = pytest.mark.slow

# Run by CI itself (.ci/run): making the environment, and the test suite.
_CI_RUNS = ("python3 -m venv", "python -m pytest")


def readme_commands():
    return commands(ROOT / "README.md")


def test_the_readme_shows_commands_and_the_set_up_lines_are_cis():
    shown = [c.text for c in readme_commands()]
    assert any(c.startswith("warscribe build --manifest examples/11e/") for c in shown)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]'" in ci and "python -m pytest" in ci  # what the skipped lines do


def test_every_readme_command_runs_as_written_in_order(tmp_path):
    checkout = fresh_checkout(tmp_path)
    ran = run_in_order([c for c in readme_commands() if not c.text.startswith(_CI_RUNS)], checkout)
    # Each as the README says: 0, or the status its line gives ('# exit status 1': the real data has
    # an error the whole-game build reports and goes on past).
    wrong = failures(ran)
    assert not wrong, "\n".join(wrong)
    done = [r.command.text for r in ran if not r.skipped]
    assert any("warscribe init && warscribe build" in t for t in done)
    assert any(t == "warscribe build" or t.endswith("&& warscribe build") for t in done)
