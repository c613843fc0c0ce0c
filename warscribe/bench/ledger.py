"""`warscribe bench diff`: the change ledger between two real releases of the whole game, then growth.

The two releases are the BSData/wh40k-10e revisions around the December 2025 update in
../shared/bsdata/history (or $WARSCRIBE_BSDATA/history). Measured:

- ``warscribe diff OLD.tar.xz NEW.tar.xz`` end to end in a fresh interpreter, building both
  sides (what a user waits for; the goal is under 3 minutes), with its peak memory;
- each side's ``warscribe build`` alone;
- ``warscribe diff OLD NEW`` of the two build folders end to end (the diff alone, as run;
  the goal is under 10 s), and its parts, each the median of --repeat runs: loading the
  builds, the record comparison (``diff.compare``), placing it in the ledger (engine impact
  included), and rendering text, Markdown and JSON;
- and first, the corpus-size growth of ``bench diff`` (:func:`warscribe.bench.build.run_bench_tool`).

CPU seconds are shown beside wall seconds: on a shared machine the wall clock also counts
the other jobs.

``warscribe bench diff --ruleset 11e``: the 11th edition's sources given directly, each pair
built (or read) and compared end to end in a fresh interpreter (the goal: under 60 s): the
app's data 867 -> 886 (../shared/app11e), the Munitorum Field Manual v1.0 (2026-06-24) -> v1.1
(../shared/mfm); then each side of the app's pair built alone, the diff of the two builds, and
the 10th -> 11th migration of two builds (the 10th-edition BattleScribe snapshot and the app's
912, built first, not timed).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

from warscribe import ROOT
from warscribe.bench.timing import median_time

RELEASES = ("wh40k-10e-d1f57a7.tar.xz", "wh40k-10e-2e02d6f.tar.xz")  # 2025-12-08, 2025-12-13


def _history() -> Path:
    return Path(os.environ.get("WARSCRIBE_BSDATA", ROOT.parent / "shared" / "bsdata")) / "history"



def _manifest(data: Path, sources: Path) -> Path:
    """A sources folder holding a copy of the release and its manifest, for `warscribe build` in a child."""
    import hashlib
    import shutil

    import yaml

    sources.mkdir(parents=True)
    shutil.copyfile(data, sources / data.name)
    entry = {"file": data.name, "original_name": data.name, "sha256": hashlib.sha256(data.read_bytes()).hexdigest(),
             "ruleset": "10e",
             "kind": "battlescribe"}
    (sources / "manifest.yaml").write_text(yaml.safe_dump({"sources": [entry]}, sort_keys=False), encoding="utf-8")
    return sources / "manifest.yaml"


def _row(what: str, wall: float, cpu: float, extra: str = "") -> None:
    print(f"  {what:<56} {wall:>8.2f} {cpu:>8.2f}  {extra}")


APP = ("gdc-11e-867.tar.xz", "gdc-11e-886.tar.xz")
MANUAL = ("mfm-11e-v1.0-2026-06-24.tar.xz", "mfm-11e-v1.1-2026-07-22.tar.xz")
MIGRATION = ("bsdata/wh40k-10e-801555b.tar.xz", "10e", "battlescribe"), ("app11e/gdc-11e-912.tar.xz", "11e", "app-json")


def _shared() -> Path:
    return ROOT.parent / "shared"


def _source_manifest(data: Path, sources: Path, ruleset: str, kind: str) -> Path:
    import hashlib
    import shutil

    import yaml

    sources.mkdir(parents=True)
    shutil.copyfile(data, sources / data.name)
    entry = {"file": data.name, "original_name": data.name, "sha256": hashlib.sha256(data.read_bytes()).hexdigest(),
             "ruleset": ruleset, "kind": kind}
    (sources / "manifest.yaml").write_text(yaml.safe_dump({"sources": [entry]}, sort_keys=False), encoding="utf-8")
    return sources / "manifest.yaml"


def run_bench_11e(args) -> int:
    from warscribe.bench.timing import timed, timed_build

    repeat = args.repeat or 3
    app = [Path(os.environ.get("WARSCRIBE_APP11E", _shared() / "app11e")) / n for n in APP]
    manual = [Path(os.environ.get("WARSCRIBE_MFM", _shared() / "mfm")) / n for n in MANUAL]
    missing = [str(f) for f in app + manual if not f.is_file()]
    if missing:
        print(f"warscribe bench diff --ruleset 11e: missing {', '.join(missing)}", file=sys.stderr)
        return 2
    print(f"warscribe diff benchmark, 11th edition: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"  {'':<56} {'wall s':>8} {'cpu s':>8}")
    for label, (old, new) in (("app data 867 -> 886", app), ("Field Manual v1.0 -> v1.1", manual)):
        wall, peak, cpu = timed(["diff", str(old), str(new)])
        _row(f"warscribe diff, {label} (both read or built)", wall, cpu, f"peak {peak:.0f} MiB")
    with tempfile.TemporaryDirectory(prefix="warscribe-bench-diff11-") as tmp:
        outs = []
        for f in app:
            folder = Path(tmp) / f.stem.split(".")[0]
            wall, peak, records, _output, cpu = timed_build(_source_manifest(f, folder / "sources", "11e", "app-json"),
                                                           folder / "out", allow_errors=True)
            _row(f"warscribe build, {f.name} ({records} records)", wall, cpu, f"peak {peak:.0f} MiB")
            outs.append(folder / "out")
        runs = [timed(["diff", str(outs[0]), str(outs[1])]) for _ in range(repeat)]
        _row("warscribe diff OLD NEW (two app builds: the diff alone)", statistics.median(r[0] for r in runs),
             statistics.median(r[2] for r in runs), f"peak {max(r[1] for r in runs):.0f} MiB")
        builds = []
        for rel, ruleset, kind in MIGRATION:
            f = _shared() / rel
            if not f.is_file():
                print(f"  (migration skipped: {f} is missing)")
                return 0
            folder = Path(tmp) / f"m-{ruleset}"
            timed_build(_source_manifest(f, folder / "sources", ruleset, kind), folder / "out", allow_errors=True)
            builds.append(folder / "out")
        runs = [timed(["diff", str(builds[0]), str(builds[1])]) for _ in range(repeat)]
        _row("warscribe diff 10e-build 11e-build (the migration)", statistics.median(r[0] for r in runs),
             statistics.median(r[2] for r in runs), f"peak {max(r[1] for r in runs):.0f} MiB")
    return 0


def run_bench(args) -> int:
    if getattr(args, "ruleset", "10e") == "11e":
        return run_bench_11e(args)
    from warscribe.ledger import diff as diffmod
    from warscribe import ledger
    from warscribe.bench.build import run_bench_tool
    from warscribe.bench.timing import timed, timed_build
    from warscribe.ledger.diff import as_dict
    from warscribe.ledger import render
    from warscribe.schema import bundle
    from warscribe.schema.text import json_text
    from warscribe.ledger.model import Side
    from warscribe.ledger.sides import archive_date

    repeat = args.repeat = args.repeat or 5
    old_file, new_file = (_history() / name for name in RELEASES)
    for f in (old_file, new_file):
        if not f.is_file():
            print(f"warscribe bench diff: {f} is missing (the two releases of ../shared/bsdata/history)",
                  file=sys.stderr)
            return 2
    # The corpus growth first, while this process is small (see below).
    status = run_bench_tool(args)
    print()
    print(f"warscribe diff benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"{old_file.name} -> {new_file.name}")
    print(f"  {'':<56} {'wall s':>8} {'cpu s':>8}")
    wall, peak, cpu = timed(["diff", str(old_file), str(new_file)])
    _row("warscribe diff OLD.tar.xz NEW.tar.xz (both built)", wall, cpu, f"peak {peak:.0f} MiB")
    # Every child process is timed while this one is still small: a child's peak memory counts
    # what it inherited from its parent before exec.
    with tempfile.TemporaryDirectory(prefix="warscribe-bench-diff-") as tmp:
        outs, sides = [], []
        for name, f in (("old", old_file), ("new", new_file)):
            folder = Path(tmp) / name
            wall, peak, records, _output, cpu = timed_build(_manifest(f, folder / "sources"), folder / "out")
            _row(f"warscribe build, {name} side ({records} records)", wall, cpu, f"peak {peak:.0f} MiB")
            outs.append(folder / "out")
            sides.append(Side(f.name, f.name, "battlescribe", archive_date(f)))
        runs = [timed(["diff", str(outs[0]), str(outs[1])]) for _ in range(repeat)]
        _row("warscribe diff OLD NEW (two builds: the diff alone)", statistics.median(r[0] for r in runs),
             statistics.median(r[2] for r in runs), f"peak {max(r[1] for r in runs):.0f} MiB")
        w, c, (old, new) = median_time(lambda: (bundle.load(outs[0]), bundle.load(outs[1])), repeat)
        _row("  of which: load both builds", w, c)
        w, c, diff = median_time(lambda: diffmod.compare(old, new), repeat)
        _row("  of which: compare records (diff.compare)", w, c,
             f"{len(diff.changed)} changed, {len(diff.added)} added, {len(diff.removed)} removed; "
             f"{diff.noise.total} noise left out")
        w, c, book = median_time(lambda: ledger.make(old, new, diff, tuple(sides)), repeat)
        counts = book.counts()
        _row("  of which: compose the ledger (engine impact included)", w, c,
             f"{counts['total']} changes, {counts['points']} points")
        for name, fn in (("text", lambda: render.render_text(book)), ("markdown", lambda: render.render_markdown(book)),
                         ("json", lambda: json_text(dict(as_dict(diff), ledger=book.as_dict())))):
            w, c, out = median_time(fn, repeat)
            _row(f"  of which: render {name}", w, c, f"{len(out) // 1024} KiB")
    return status
