"""The shared real data (../shared), built whole once per test run.

Tests of the whole game (every catalogue of a BattleScribe snapshot, the Wahapedia
export, two releases) all need the same few builds, and each costs tens of seconds, so
they are made once per run and shared (across pytest-xdist workers too): ``realdata.build(tmp_path_factory,
"bsdata-10e")`` returns the build folder (``json/warscribe.json``, ``report.json``, ...).
A source missing from ../shared skips the test here and fails it under CI (conftest).

Mark such tests ``@pytest.mark.slow``: ``pytest -m "not slow"`` is the quick edit-test loop.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
from pathlib import Path

from conftest import ROOT, _shared, made_once, write_manifest

# name -> (shared folder, file in it, ruleset, manifest kind)
SOURCES = {
    "bsdata-10e": ("bsdata", "wh40k-10e-801555b.tar.xz", "10e", "battlescribe"),
    "bsdata-11e": ("bsdata", "wh40k-11e-54c189f.tar.xz", "11e", "battlescribe"),
    "bsdata-10e-2025-07": ("bsdata", "history/wh40k-10e-51e5f8f.tar.xz", "10e", "battlescribe"),
    "bsdata-10e-2025-12-before": ("bsdata", "history/wh40k-10e-d1f57a7.tar.xz", "10e", "battlescribe"),
    "bsdata-10e-2025-12-after": ("bsdata", "history/wh40k-10e-2e02d6f.tar.xz", "10e", "battlescribe"),
    "wahapedia-10e": ("wahapedia", "wahapedia-10e-2025-07.tar.xz", "10e", "wahapedia-csv"),
    "app-11e": ("app11e", "gdc-11e-912.tar.xz", "11e", "app-json"),
    "app-11e-867": ("app11e", "gdc-11e-867.tar.xz", "11e", "app-json"),
    "app-11e-886": ("app11e", "gdc-11e-886.tar.xz", "11e", "app-json"),
    "mfm-11e": ("mfm", "mfm-11e-v1.1-2026-07-22.tar.xz", "11e", "field-manual"),
    "mfm-11e-v1.0": ("mfm", "mfm-11e-v1.0-2026-06-24.tar.xz", "11e", "field-manual"),
}
_VARIABLES = {"bsdata": "WARSCRIBE_BSDATA", "wahapedia": "WARSCRIBE_WAHAPEDIA", "corpus": "WARSCRIBE_CORPUS",
              "app11e": "WARSCRIBE_APP11E", "mfm": "WARSCRIBE_MFM"}
# An example manifest naming several shared sources: the sources it needs.
_EXAMPLE_SOURCES = {"11e": ("app-11e", "mfm-11e", "bsdata-11e")}

_built: dict[tuple, tuple[Path, int, str]] = {}


def path(name: str) -> Path:
    """The shared file of source `name` (skipped here, failed under CI, when missing)."""
    folder, file, _ruleset, _kind = SOURCES[name]
    return _shared(_VARIABLES[folder], folder, file, f"shared source {name}")


def manifest(folder: Path, *names: str, rank: bool = True) -> Path:
    """A manifest in `folder` naming the shared sources `names` (copied in), ranked in that order."""
    entries = []
    for i, name in enumerate(names, 1):
        src = path(name)
        _f, _file, ruleset, kind = SOURCES[name]
        target = folder / src.name
        if not target.exists():
            shutil.copyfile(src, target)
        entry = {"file": src.name, "ruleset": ruleset, "kind": kind}
        if rank:
            entry["rank"] = i
        entries.append(entry)
    return write_manifest(folder, entries)


def build(tmp_path_factory, *names: str, site: bool = False) -> Path:
    """The build of the shared sources `names` (ranked in that order), made once per test run
    (conftest.made_once: once for every pytest-xdist worker too).

    Returns the output folder; ``status(...)`` and ``log(...)`` give its exit status and
    what the build printed. Tests read these folders and never change them.
    """
    def make(work: Path) -> tuple[Path, tuple[Path, ...]]:
        src = work / "sources"
        src.mkdir()
        return manifest(src, *names), ()

    return _cached(tmp_path_factory, _key(names, site, False), "-".join(names), make, site)


def example(tmp_path_factory, name: str, site: bool = False) -> Path:
    """The build of ``examples/<name>/manifest.yaml`` (the seeds with shared data beside them, as the
    README runs it), made once per test run like ``build``; ``status(name, example=True)``."""
    def make(work: Path) -> tuple[Path, tuple[Path, ...]]:
        # skipped here, failed under CI, when the shared data is missing
        folders = sorted({path(n).parent for n in _EXAMPLE_SOURCES.get(name, (name,))})
        return ROOT / "examples" / name / "manifest.yaml", (ROOT / "sources", *folders)

    return _cached(tmp_path_factory, _key((name,), site, True), f"example-{name}", make, site)


def _cached(tmp_path_factory, key: tuple, label: str, make, site: bool) -> Path:
    if key not in _built:
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:8]

        def run(work: Path) -> dict:
            from warscribe.build import run_build

            man, roots = make(work)
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                status = run_build(man, work / "out", quiet=True, site=site, roots=roots)
            return {"status": status, "log": printed.getvalue()}

        work, record = made_once(tmp_path_factory, f"{label}{'-site' if site else ''}-{digest}", run)
        _built[key] = (work / "out", record["status"], record["log"])
    return _built[key][0]


def _key(names: tuple[str, ...], site: bool, example: bool) -> tuple:
    return (names, site, "example") if example else (names, site)


def status(*names: str, site: bool = False, example: bool = False) -> int:
    return _built[_key(names, site, example)][1]


def log(*names: str, site: bool = False, example: bool = False) -> str:
    return _built[_key(names, site, example)][2]


__all__ = ["ROOT", "SOURCES", "build", "example", "log", "manifest", "path", "status"]
