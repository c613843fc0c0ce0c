"""`warscribe bench battlescribe DATA`: time and peak memory of builds of BattleScribe data
as the number of catalogues grows.

DATA is a snapshot (a folder, or a .tar.xz/.zip of one). Each step builds the game
system with the first N catalogues (in name order) in a fresh interpreter, so the
peak memory is that build's own; CPU seconds are reported beside wall seconds, which
a shared machine inflates.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

from warscribe.bench.timing import timed_build
from warscribe.extract.battlescribe.files import open_source
from warscribe.extract.wahapedia import folder_sha256
from warscribe.schema.diagnostics import Report


def _subset(members, count: int, folder: Path) -> int:
    """Write the game systems and the first `count` catalogues to `folder`; return their bytes."""
    systems = [m for m in members if m.name.endswith(".gst") or m.name.endswith("Warhammer 40,000.json")]
    catalogues = [m for m in members if m not in systems][:count]
    for m in systems + catalogues:
        (folder / m.name.rsplit("/", 1)[-1]).write_bytes(m.data)
    return sum(len(m.data) for m in systems + catalogues)


def run_bench(args) -> int:
    args.repeat = args.repeat or 1  # a whole-game build is slow enough once per step
    data = Path(args.data)
    report = Report()
    members = open_source(data, data.name, None, report)
    if report.errors or not members:
        for d in report.sorted():
            print(d.render(), file=sys.stderr)
        print(f"{data}: no BattleScribe data read", file=sys.stderr)
        return 2
    ruleset = args.ruleset
    total = sum(1 for m in members if not m.name.endswith((".gst", "Warhammer 40,000.json")))
    steps = sorted({max(1, total // 4), max(1, total // 2), total})
    print(f"warscribe BattleScribe benchmark: {data.name}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {args.repeat} runs per step")
    print(f"{'catalogues':>10} {'MB':>6} {'records':>8} {'median s':>9} {'cpu s':>7} {'peak MiB':>9}")
    rows = []
    for count in steps:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "data"
            folder.mkdir()
            size = _subset(members, count, folder)
            manifest = Path(tmp) / "manifest.yaml"
            entry = {"file": "data", "original_name": data.name, "sha256": folder_sha256(folder), "ruleset": ruleset,
                     "kind": "battlescribe"}
            manifest.write_text(yaml.safe_dump({"sources": [entry]}, sort_keys=False), encoding="utf-8")
            runs = [timed_build(manifest, Path(tmp) / "out", allow_errors=True) for _ in range(args.repeat)]
        median = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[4] for r in runs)
        rows.append((size, cpu))
        print(f"{count:>10} {size / 1e6:>6.1f} {runs[0][2]:>8} {median:>9.2f} {cpu:>7.2f} {max(r[1] for r in runs):>9.1f}")
    if len(rows) > 1:
        (s0, t0), (s1, t1) = rows[0], rows[-1]
        print(f"growth: {s1 / s0:.1f}x the data took {t1 / t0:.1f}x the CPU time "
              f"(exponent {math.log(t1 / t0) / math.log(s1 / s0):.2f}; 1.00 is linear)")
    return 0
