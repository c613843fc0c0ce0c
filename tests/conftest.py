"""Shared test set-up: the --update-golden switch and paths to the data the tests read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def pytest_configure(config: pytest.Config) -> None:
    """Say once what to install, instead of an import error in every test module."""
    import importlib.util

    missing = [m for m in ("bs4", "jsonschema", "yaml", "hypothesis", "mkdocs") if importlib.util.find_spec(m) is None]
    if missing:
        raise pytest.UsageError(f"missing packages ({', '.join(missing)}): run the tests as the README says, "
                                "after `pip install -e '.[test]'` in a virtual environment")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite the golden files from the current output instead of comparing")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def _shared(variable: str, folder: str, name: str, what: str) -> Path:
    """A file of the shared data beside the repository (../shared/<folder>), or of $variable.

    Missing data skips the test on a developer's machine but fails under CI, where the
    shared data is always laid beside the clone: a skipped check must not pass for a green run.
    """
    path = Path(os.environ.get(variable, ROOT.parent / "shared" / folder)) / name
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"{what} {path} is missing")
        pytest.skip(f"{what} {path} is missing")
    return path


def corpus_path(name: str) -> Path:
    """A file of the shared BattleScribe corpus (../shared/corpus, or $WARSCRIBE_CORPUS)."""
    return _shared("WARSCRIBE_CORPUS", "corpus", name, "corpus file")


def bsdata_path(name: str) -> Path:
    """A snapshot of the BattleScribe data (../shared/bsdata, or $WARSCRIBE_BSDATA)."""
    return _shared("WARSCRIBE_BSDATA", "bsdata", name, "BattleScribe snapshot")


def rosters_path(name: str) -> Path:
    """A real army list of ../shared/rosters (or $WARSCRIBE_ROSTERS)."""
    return _shared("WARSCRIBE_ROSTERS", "rosters", name, "army list")


def write_manifest(folder: Path, entries: list[dict]) -> Path:
    """A manifest for `entries` ({file, ruleset, kind, ...}) in `folder`, checksums filled in."""
    import hashlib

    import yaml

    from warscribe.extract.wahapedia import folder_sha256

    sources = []
    for e in entries:
        path = folder / e["file"]
        sha = folder_sha256(path) if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
        sources.append({"original_name": Path(e["file"]).name, "sha256": sha, **e})
    path = folder / "manifest.yaml"
    path.write_text(yaml.safe_dump({"sources": sources}, sort_keys=False), encoding="utf-8")
    return path


def without_annotated(record: dict) -> dict:
    """`record` without the fields an annotation filled (its provenance names them), for comparing readers:
    annotations sit beside the seeds' manifest, not beside the fixtures'."""
    import copy

    out = copy.deepcopy(record)
    for entry in record.get("source", []):
        if "annotation" in entry:
            for path in entry["fields"]:
                *parents, key = path.split(".")
                owner = out
                for part in parents:
                    owner = owner.get(part, {})
                if key in owner:
                    owner[key] = [] if isinstance(owner[key], list) else None
    return out


def _left_behind(session: pytest.Session) -> list[str]:
    """Staging folders of outputs (`.<out>.new-*`, `.<out>.old-*`) under the session's temporary folders,
    and child processes of the test run still running: what no test may leave behind (issue 28)."""
    found = []
    factory = getattr(session.config, "_tmp_path_factory", None)
    base = factory.getbasetemp() if factory is not None else None
    if base is not None and base.is_dir():
        for top, dirs, _files in os.walk(base):
            for name in list(dirs):
                if name.startswith(".") and (".new-" in name or ".old-" in name):
                    found.append(f"staging folder {Path(top) / name}")
                    dirs.remove(name)
    children = Path(f"/proc/{os.getpid()}/task")
    for task in children.glob("*/children") if children.is_dir() else ():
        for pid in task.read_text().split():
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, IndexError):
                continue
            if state != "Z":
                found.append(f"process {pid} ({command.strip()[:120]})")
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a test left a staging folder or a running child process behind."""
    leftovers = _left_behind(session)
    if leftovers:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        for item in leftovers:
            if reporter is not None:
                reporter.write_line(f"left behind by the tests: {item}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
