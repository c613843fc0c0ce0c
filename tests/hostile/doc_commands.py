"""The commands the README and docs/ show, read from their Markdown and run as written (issue 44).

One reading for every test that holds the documentation to the command line
(test_readme_runs.py, test_docs_runs.py, test_readme_commands.py). The convention it reads is
stated for writers in docs/development.md ("Commands in the docs"):

- a ```sh block holds commands: each line is one command (a line ending in a backslash goes on
  to the next; a here-document `<<'EOF'` takes the lines up to its end marker); `#` starts a comment;
- a ```console block is a transcript: its `$ ` lines are commands, the other lines their output;
- ```text is output (or a drawing), ```yaml, ```json and ```python are files and code: never run;
- a fence without a language is refused, so output is never taken for a command nor the other
  way round;
- a command exits 0 unless its line says otherwise in a closing comment, `# exit status N`.

Run in order in a fresh copy of the checkout (sources/ and examples/, with ../shared linked
beside it), each command starts from the top of the copy (a `cd` lasts for its own line) and
sees what the commands before it on the page wrote. A command that reads the real data in
../shared (the whole-game builds, tens of seconds each) runs only under CI (CI=true), as does a
command that names what such a command writes.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT

COMMANDS = "sh"
TRANSCRIPT = "console"
LANGUAGES = {COMMANDS, TRANSCRIPT, "text", "yaml", "json", "python"}

_FENCE = re.compile(r"^```([\w-]*)[ \t]*$")
_STATUS = re.compile(r"#\s*exit status (\d+)\b")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")
SHARED = "../shared"


@dataclass(frozen=True)
class Block:
    page: str      # relative to the checkout
    line: int      # of the opening fence, counted from 1
    language: str  # "" when the fence names none
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Command:
    page: str
    line: int     # where the command starts
    text: str     # as written; continuation lines joined, a here-document's lines kept
    status: int   # the exit status the page gives it

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text.splitlines()[0]}"

    def words(self) -> list[str]:
        """The first line's words as the shell splits them, comment left out."""
        return shlex.split(self.text.splitlines()[0], comments=True)

    def outputs(self) -> list[str]:
        """What the command writes that a later one may read: `--out DIR`, a file after `>`."""
        words = self.words()
        found = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--out", ">")]
        return [f.rstrip("/") for f in found]

    def reads_shared(self) -> bool:
        return SHARED in self.text


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file, in order."""
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
        assert end is not None, f"{page}:{i + 1}: a fence that never closes"
        found.append(Block(page, i + 1, opening.group(1), tuple(lines[i + 1:end])))
        i = end + 1
    return found


def _block_commands(block: Block) -> list[Command]:
    found = []
    lines = list(block.lines)
    i = 0
    while i < len(lines):
        start = i
        text = lines[i]
        if block.language == TRANSCRIPT:
            if not text.startswith("$ "):
                i += 1
                continue
            text = text[2:]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1].rstrip() + " " + lines[i].strip()
        i += 1
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        heredoc = _HEREDOC.search(text.split("#")[0])
        if heredoc:
            end = next((j for j in range(i, len(lines)) if lines[j].strip() == heredoc.group(2)), None)
            assert end is not None, f"{block.page}:{block.line + start + 1}: a here-document without its end"
            text = "\n".join([text, *lines[i:end + 1]])
            i = end + 1
        status = _STATUS.search(text.splitlines()[0])
        found.append(Command(block.page, block.line + start + 1, text, int(status.group(1)) if status else 0))
    return found


def commands(path: Path) -> list[Command]:
    """The commands of a page's ```sh blocks and ```console transcripts, in order."""
    return [c for b in blocks(path) if b.language in (COMMANDS, TRANSCRIPT) for c in _block_commands(b)]


def inline_commands(path: Path) -> list[str]:
    """Commands named in prose, `warscribe ...` in backquotes (often with [OPTIONAL] parts)."""
    text = re.sub(r"\\\n\s*", " ", path.read_text(encoding="utf-8"))
    return re.findall(r"`(warscribe [^`]+)`", text)


def fresh_checkout(tmp_path: Path) -> Path:
    """A copy of what a clone holds that commands read (sources/, examples/), ../shared beside it."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for folder in ("sources", "examples"):
        shutil.copytree(ROOT / folder, checkout / folder)
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (tmp_path / "shared").symlink_to(shared, target_is_directory=True)
    return checkout


def under_ci() -> bool:
    return bool(os.environ.get("CI"))


@dataclass
class Ran:
    command: Command
    skipped: str = ""   # why it was not run
    status: int | None = None
    shown: str = ""     # the end of its output
    reused: bool = False


class Builds:
    """Whole-game builds already run as written, copied instead of run again.

    Several pages make the same build with the same command (the live edition into out/11e);
    the same sources give byte-identical output, so a later page gets a copy of the first one's
    folder (hard links) with its exit status and output, saving tens of seconds each. Only the
    very command, run from a copy of the checkout: the suite's own builds of the example
    manifests (tests/realdata.py) are not the command as written (they report other
    diagnostics), so they are not taken.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.done: dict[str, tuple[Path, int, str]] = {}

    @staticmethod
    def cacheable(command: Command) -> bool:
        words = command.words()
        return command.reads_shared() and words[:2] == ["warscribe", "build"] and len(command.outputs()) == 1

    def restore(self, command: Command, checkout: Path) -> Ran | None:
        if command.text not in self.done:
            return None
        kept, status, shown = self.done[command.text]
        target = checkout / command.outputs()[0]
        if target.exists():
            return None  # the page's own state differs from the first page's: run it
        shutil.copytree(kept, target, symlinks=True, copy_function=os.link)
        return Ran(command, status=status, shown=shown, reused=True)

    def keep(self, ran: Ran, checkout: Path) -> None:
        made = checkout / ran.command.outputs()[0]
        if made.is_dir() and ran.command.text not in self.done:
            kept = self.folder / str(len(self.done))
            shutil.copytree(made, kept, symlinks=True, copy_function=os.link)
            self.done[ran.command.text] = (kept, ran.status, ran.shown)


def run_in_order(commands: list[Command], checkout: Path, *, run_shared: bool | None = None,
                 builds: Builds | None = None, timeout: float = 900) -> list[Ran]:
    """Run each command with bash from the top of `checkout`, `warscribe` being this environment's.

    Commands reading ../shared run only when `run_shared` (default: under CI); without them, a
    command naming one of their outputs is left out too, with the reason. With `builds`, a
    whole-game build another page already ran as written is copied from it.
    """
    if run_shared is None:
        run_shared = under_ci()
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "warscribe").is_file(), f"{bin_dir}: no warscribe command (pip install -e . first)"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    shared_there = (checkout.parent / "shared").is_dir()
    left_out: list[str] = []
    ran = []
    for command in commands:
        needs = [o for o in left_out for w in command.words() if w.rstrip("/") == o or w.startswith(o + "/")]
        if needs:
            ran.append(Ran(command, skipped=f"reads {needs[0]}, which a command left out writes"))
            left_out += command.outputs()
            continue
        if command.reads_shared() and not run_shared:
            ran.append(Ran(command, skipped="reads ../shared: run under CI"))
            left_out += command.outputs()
            continue
        if command.reads_shared() and not shared_there:
            ran.append(Ran(command, status=-1, shown=f"{SHARED} is missing beside the checkout"))
            continue
        cacheable = builds is not None and Builds.cacheable(command)
        reused = builds.restore(command, checkout) if cacheable else None
        if reused:
            ran.append(reused)
            continue
        proc = subprocess.run(["bash", "-c", command.text], cwd=checkout, env=env, capture_output=True,
                              text=True, timeout=timeout)
        ran.append(Ran(command, status=proc.returncode, shown=proc.stdout[-2000:] + proc.stderr[-2000:]))
        if cacheable:
            builds.keep(ran[-1], checkout)
    return ran


def failures(ran: list[Ran], also: tuple[int, ...] = ()) -> list[str]:
    """Each command run that did not exit as its page says (or with a status in `also`), or printed
    a traceback."""
    wrong = []
    for r in ran:
        if r.skipped:
            continue
        if r.status not in (r.command.status, *also) or "Traceback" in r.shown:
            wrong.append(f"{r.command}\n  exit status {r.status}, the page says {r.command.status}\n"
                         + "\n".join("  | " + ln for ln in r.shown.splitlines()[-15:]))
    return wrong
