"""`warscribe bench roster [BUILD]`: how long a list takes against a whole-game build, and what loading costs.

BUILD is a build folder (or bundle file); given a BattleScribe snapshot instead (the
default: the whole 10th-edition game in ../shared/bsdata), it is built first into a
temporary folder. Measured, each the median of --repeat runs (CPU seconds beside wall
seconds, which a shared machine inflates):

- loading the bundle (``bundle.load``) and indexing one edition of it for names;
- per list of ../shared/rosters (or $WARSCRIBE_ROSTERS): reading, then resolving,
  re-pricing and checking, then rendering the report;
- ``warscribe roster LIST --kb BUILD`` end to end in a fresh interpreter (what a user waits for);
- growth: hand-made lists of 500 to 8,000 units, with the exponent of time against
  size (1.00 is linear).
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from warscribe import ROOT
from warscribe.bench.timing import median_time



def _build_folder(data: Path, ruleset: str, work: Path) -> Path:
    import hashlib

    import yaml

    from warscribe.build import run_build

    src = work / "sources"
    src.mkdir()
    (src / data.name).symlink_to(data.resolve())
    entry = {"file": data.name, "original_name": data.name, "sha256": hashlib.sha256(data.read_bytes()).hexdigest(),
             "ruleset": ruleset, "kind": "battlescribe"}
    (src / "manifest.yaml").write_text(yaml.safe_dump({"sources": [entry]}), encoding="utf-8")
    out = work / "out"
    run_build(src / "manifest.yaml", out, quiet=True, site=False, roots=(data.resolve().parent,))
    return out


def _synthetic(kb, ruleset: str, units: int) -> bytes:
    """An app export of `units` units drawn in turn from the build's datasheets of one faction."""
    from collections import Counter

    datasheets = [d for d in kb.kind("datasheet") if d.get("ruleset") == ruleset and d.get("points")]
    faction = Counter(d["faction"] for d in datasheets).most_common(1)[0][0]
    mine = [d for d in datasheets if d["faction"] == faction]
    lines = [f"Growth ({units * 100} points)", "", faction, "Strike Force (2000 points)", "Some Detachment", "", ""]
    for i in range(units):
        d = mine[i % len(mine)]
        lines += [f"{d['name']} ({d['points'][0]['points']} points)", f"  • {d['points'][0]['models']}x Model",
                  "    • 1x Weapon", ""]
    return "\n".join(lines).encode("utf-8")


def run_bench(args) -> int:
    from warscribe.roster import examine, read_data, read_path
    from warscribe.roster.report import render_text
    from warscribe.roster.resolve import Index
    from warscribe.schema import bundle

    repeat = args.repeat or 5
    data = Path(args.data)
    tmp = tempfile.TemporaryDirectory()
    if data.is_dir() or data.suffix == ".json":
        build = data
    elif data.is_file():
        w = time.perf_counter()
        build = _build_folder(data, args.ruleset, Path(tmp.name))
        print(f"built {data.name} into a temporary folder in {time.perf_counter() - w:.1f} s")
    else:
        print(f"{data}: no build or BattleScribe snapshot there", file=sys.stderr)
        return 2
    lists_dir = Path(os.environ.get("WARSCRIBE_ROSTERS", ROOT.parent / "shared" / "rosters"))
    lists = sorted(p for p in lists_dir.glob("*") if p.is_file() and not p.name.endswith((".source", ".md")))
    print(f"warscribe roster benchmark: {build}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {repeat} runs")
    from warscribe.roster.command import KINDS

    wall, cpu, whole = median_time(lambda: bundle.load(build), repeat)
    size = bundle.locate(build).stat().st_size
    print(f"  load the whole bundle: {len(whole):,} records, {size / 1e6:.1f} MB: {wall:.3f} s ({cpu:.3f} s CPU)")
    del whole
    wall, cpu, kb = median_time(lambda: bundle.load(build, kinds=KINDS), repeat)
    print(f"  load what `roster` reads ({', '.join(KINDS)}): {len(kb):,} records: {wall:.3f} s ({cpu:.3f} s CPU)")
    from warscribe.roster.examine import main_ruleset

    ruleset = main_ruleset(kb)
    wall, cpu, _ = median_time(lambda: Index(kb, ruleset), repeat)
    print(f"  index the {ruleset} records for names: {wall:.3f} s ({cpu:.3f} s CPU)")
    print(f"  {'list':<40} {'units':>5} {'read ms':>8} {'check ms':>9} {'render ms':>10} {'total ms':>9}")
    worst = 0.0
    for path in lists:
        rw, _c, roster = median_time(lambda p=path: read_path(str(p)), repeat)
        cw, _c, result = median_time(lambda r=roster: examine(r, [kb], ruleset), repeat)
        tw, _c, _ = median_time(lambda r=result: render_text(r), repeat)
        total = rw + cw + tw
        worst = max(worst, total)
        print(f"  {path.name[:40]:<40} {len(roster.units):>5} {rw * 1e3:>8.1f} {cw * 1e3:>9.1f} {tw * 1e3:>10.1f} "
              f"{total * 1e3:>9.1f}")
    if lists:
        cmd = [sys.executable, "-m", "warscribe.cli", "roster", str(lists[0]), "--kb", str(build), "--edition", ruleset]
        walls = []
        for _ in range(min(repeat, 3)):
            w = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=False)
            walls.append(time.perf_counter() - w)
        print(f"  `warscribe roster {lists[0].name} --kb BUILD` in a fresh interpreter: {statistics.median(walls):.2f} s "
              f"(start, imports, load and index included); slowest list in process: {worst * 1e3:.0f} ms")
    print("  growth (hand-made lists):")
    print(f"  {'units':>7} {'KB':>7} {'s':>7}")
    points = []
    for units in (500, 2000, 8000):
        blob = _synthetic(kb, ruleset, units)
        wall, _c, _ = median_time(lambda b=blob: render_text(examine(read_data(b, "growth.txt"), [kb], ruleset)),
                              max(1, repeat // 2))
        points.append((len(blob), wall))
        print(f"  {units:>7} {len(blob) / 1e3:>7.0f} {wall:>7.3f}")
    (a, ta), (b, tb) = points[0], points[-1]
    print(f"  growth exponent: {math.log(tb / ta) / math.log(b / a):.2f}")
    tmp.cleanup()
    return 0
