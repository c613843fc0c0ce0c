"""The shared real data (../shared), built whole once per test session.

Tests of the whole game (every catalogue of a BattleScribe snapshot, the Wahapedia
export, two releases) all need the same few builds, and each costs tens of seconds, so
they are made once per session and shared: ``realdata.build(tmp_path_factory,
"bsdata-10e")`` returns the build folder (``json/warscribe.json``, ``report.json``, ...).
A source missing from ../shared skips the test here and fails it under CI (conftest).

Mark such tests ``@pytest.mark.slow``: ``pytest -m "not slow"`` is the quick edit-test loop.
"""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

from conftest import ROOT, _shared, write_manifest

# name -> (shared folder, file in it, ruleset, manifest kind)
SOURCES = {
    "bsdata-10e": ("bsdata", "wh40k-10e-801555b.tar.xz", "10e", "battlescribe"),
    "bsdata-11e": ("bsdata", "wh40k-11e-54c189f.tar.xz", "11e", "battlescribe"),
    "bsdata-10e-2025-07": ("bsdata", "history/wh40k-10e-51e5f8f.tar.xz", "10e", "battlescribe"),
    "bsdata-10e-2025-12-before": ("bsdata", "history/wh40k-10e-d1f57a7.tar.xz", "10e", "battlescribe"),
    "bsdata-10e-2025-12-after": ("bsdata", "history/wh40k-10e-2e02d6f.tar.xz", "10e", "battlescribe"),
    "wahapedia-10e": ("wahapedia", "wahapedia-10e-2025-07.tar.xz", "10e", "wahapedia-csv"),
}
_VARIABLES = {"bsdata": "WARSCRIBE_BSDATA", "wahapedia": "WARSCRIBE_WAHAPEDIA", "corpus": "WARSCRIBE_CORPUS"}

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
    """The build of the shared sources `names` (ranked in that order), made once per session.

    Returns the output folder; ``status(...)`` and ``log(...)`` give its exit status and
    what the build printed.
    """
    key = (names, site)
    if key not in _built:
        from warscribe.build import run_build

        work = tmp_path_factory.mktemp("realdata-" + "-".join(names))
        src = work / "sources"
        src.mkdir()
        man = manifest(src, *names)
        out = work / "out"
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            status = run_build(man, out, quiet=True, site=site)
        _built[key] = (out, status, printed.getvalue())
    return _built[key][0]


def status(*names: str, site: bool = False) -> int:
    return _built[(names, site)][1]


def log(*names: str, site: bool = False) -> str:
    return _built[(names, site)][2]


__all__ = ["ROOT", "SOURCES", "build", "log", "manifest", "path", "status"]
