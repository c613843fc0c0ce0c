"""Shared test set-up: the --update-golden switch and paths to the data the tests read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def _hypothesis_profiles() -> None:
    """Property tests: under CI (the variable CI set) the same examples on every run, so a red run is
    the code's and a rerun says the same; on a developer's machine ("dev", Hypothesis' defaults, as
    before), new random examples each time.

    Loaded here, before any test module is imported: a test's own ``@settings(max_examples=...)``
    takes every setting it does not name (derandomize among them) from the loaded profile, and no
    test names derandomize=False or a @seed. Each pytest-xdist worker imports this file with the
    same environment: the same profile. ``--hypothesis-profile`` still overrides it.
    """
    try:
        from hypothesis import settings
    except ImportError:
        return  # pytest_configure says what to install
    base = settings.get_profile("default")  # not settings(): Hypothesis may have loaded its own 'ci' already
    settings.register_profile("dev", base)
    # As many examples as the default (tests naming max_examples keep theirs); no example database,
    # no deadline (a slow shared runner is not a failure), the failing example's blob printed.
    settings.register_profile("ci", base, derandomize=True, max_examples=base.max_examples, database=None,
                              deadline=None, print_blob=True)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")


_hypothesis_profiles()


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


def run_temp(tmp_path_factory) -> Path:
    """The run's base temporary folder: under pytest-xdist the one every worker's own folder is in."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory, name: str, make) -> tuple[Path, dict]:
    """(folder, record): `make(folder)` run once per test run for `name`, its record (JSON) kept beside.

    A build several test modules read (the seeds' site, a whole game) costs seconds to a minute.
    Under pytest-xdist the workers share the run's base temporary folder: the first to ask makes
    it while holding a lock, the others wait and read the same folder. Tests only read it.
    """
    import fcntl
    import json
    import shutil

    folder = run_temp(tmp_path_factory) / "made-once" / name
    folder.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, even if this worker dies
        done = folder.parent / f"{name}.json"
        if not done.is_file():
            shutil.rmtree(folder)  # what a worker that died half-way left
            folder.mkdir()
            done.write_text(json.dumps(make(folder)), encoding="utf-8")
        return folder, json.loads(done.read_text(encoding="utf-8"))


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow tests first. pytest-xdist (--dist loadscope --no-loadscope-reorder) hands out whole
    modules, or classes, in this order: the long ones (a whole game built and browsed) start at once
    on every worker and the many short ones fill in after, instead of one long module starting last
    while the other workers wait for it."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _xdist_role(config: pytest.Config) -> str:
    """'worker' in a pytest-xdist worker, 'controller' in the process that drives workers, '' without xdist."""
    if hasattr(config, "workerinput"):
        return "worker"
    return "controller" if getattr(config.option, "numprocesses", None) else ""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when a test left a staging folder or a running child process behind.

    Under pytest-xdist each worker looks at its own children and writes what it finds beside the
    run's temporary folders; the controller (whose children are the workers) reads them and fails
    the run, since a worker's exit status is not the run's.
    """
    role = _xdist_role(session.config)
    factory = getattr(session.config, "_tmp_path_factory", None)
    if role == "worker":
        leftovers = _left_behind(session)
        if leftovers and factory is not None:
            name = f"left-behind-{session.config.workerinput['workerid']}.txt"
            (run_temp(factory) / name).write_text("\n".join(leftovers), encoding="utf-8")
        return
    if role == "controller":
        found = sorted(factory.getbasetemp().glob("left-behind-*.txt")) if factory is not None else []
        leftovers = [line for f in found for line in f.read_text(encoding="utf-8").splitlines()]
        leftovers += [item for item in _left_behind(session) if item.startswith("staging folder")]
        leftovers = list(dict.fromkeys(leftovers))  # a worker's staging folder is under the controller's too
    else:
        leftovers = _left_behind(session)
    if leftovers:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        for item in leftovers:
            if reporter is not None:
                reporter.write_line(f"left behind by the tests: {item}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
