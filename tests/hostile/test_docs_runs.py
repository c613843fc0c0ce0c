"""Every command docs/ shows runs as written, in order, on a fresh copy of the checkout (issue 44).

Each page that shows commands (```sh blocks, ```console transcripts; the convention is in
docs/development.md, the reading in doc_commands.py) is run in its own copy of the checkout,
from the state the page itself describes: a page that needs a build makes it in its first
lines. Every command must exit with the status its page gives it (0 unless its line says
`# exit status N`) and print no traceback. Commands reading the real data in ../shared (the
whole-game builds, tens of seconds each) and those reading what they write run under CI only.
"""

from __future__ import annotations

import pytest

from conftest import ROOT
from doc_commands import LANGUAGES, Builds, blocks, commands, failures, fresh_checkout, run_in_order, under_ci

pytestmark = pytest.mark.slow

PAGES = sorted((ROOT / "docs").glob("*.md"))
WITH_COMMANDS = [p for p in PAGES if commands(p)]


def test_every_fenced_block_says_what_it_holds():
    """Output is never taken for commands, nor commands for output: every fence names its language."""
    unnamed = [f"{b.page}:{b.line}: ```{b.language}" for p in [ROOT / "README.md", *PAGES] for b in blocks(p)
               if b.language not in LANGUAGES]
    assert not unnamed, f"fences without one of {sorted(LANGUAGES)}:\n" + "\n".join(unnamed)


def test_the_pages_with_commands_are_found():
    names = {p.name for p in WITH_COMMANDS}
    assert {"commands.md", "engine.md", "formats.md", "roster.md"} <= names, names


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    return Builds(tmp_path_factory.mktemp("doc-builds"))


@pytest.mark.parametrize("page", WITH_COMMANDS, ids=lambda p: p.name)
def test_every_command_of_the_page_runs_as_written_in_order(page, tmp_path, builds):
    ran = run_in_order(commands(page), fresh_checkout(tmp_path), builds=builds)
    wrong = failures(ran)
    assert not wrong, "\n".join(wrong)
    if under_ci():
        assert not [r for r in ran if r.skipped], [str(r.command) for r in ran if r.skipped]
