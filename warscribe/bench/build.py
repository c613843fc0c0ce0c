"""`warscribe bench build|site|check|diff`: time and peak memory of builds, sites, checks and diffs as the sources grow.

The corpus at scale N holds N copies of every seed; datasheet pages get renamed units
(so each copy adds new datasheet and weapon records), while their stratagems, rules
and detachments stay the same (so each copy also exercises merging). Each build runs
in a fresh interpreter, so peak memory is that build's own.
"""

from __future__ import annotations

import hashlib
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

from warscribe.bench.timing import growth, timed, timed_build
from warscribe.paths import samples


def generate_corpus(folder: Path, scale: int, edit=None) -> tuple[Path, int]:
    """Write `scale` copies of the seeds with a manifest; return (manifest, source lines).

    `edit(text, file)`, when given, changes every copy of a file (as an erratum would)."""
    seeds = samples()  # the checkout's sources/, or the wheel's copy of them
    manifest = yaml.safe_load((seeds / "manifest.yaml").read_text(encoding="utf-8"))
    entries = []
    lines = 0
    for copy in range(1, scale + 1):
        for entry in manifest["sources"]:
            data = (seeds / entry["file"]).read_bytes()
            if edit:
                data = edit(data.decode("utf-8"), entry["file"]).encode("utf-8")
            if entry["kind"] == "datasheet-page" and copy > 1:
                text = data.decode("utf-8")
                first, rest = text.split("\n", 1)
                data = (f"{first} Mk {copy}\n" + rest).encode("utf-8")
            name = f"{copy:04d}-{entry['file']}"
            (folder / name).write_bytes(data)
            lines += data.count(b"\n")
            entries.append({**entry, "file": name, "sha256": hashlib.sha256(data).hexdigest()})
    path = folder / "manifest.yaml"
    path.write_text(yaml.safe_dump({"sources": entries}, sort_keys=False), encoding="utf-8")
    return path, lines


# The erratum `bench diff` applies to every copy: the Inquisitor's bolt pistol gains AP -1.
_ERRATUM = ('| Bolt pistol pistol | 12" | 1 | 3+ | 4 | 0 | 1 |', '| Bolt pistol pistol | 12" | 1 | 3+ | 4 | -1 | 1 |')


def _erratum(text: str, _file: str) -> str:
    return text.replace(*_ERRATUM)


def run_bench_tool(args) -> int:
    """`bench check` / `bench diff`: each scale built once, then the command timed in fresh interpreters."""
    scales = sorted({1, 10, max(1, args.scale // 2), args.scale})
    print(f"warscribe {args.target} benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {args.repeat} runs per scale (each in a fresh interpreter)")
    print(f"{'scale':>6} {'lines':>8} {'records':>8} {'median s':>9} {'cpu s':>7} {'µs/line':>8} {'peak MiB':>9}")
    rows = []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            (base / "a").mkdir()
            manifest, lines = generate_corpus(base / "a", scale)
            records = timed_build(manifest, base / "out-a")[2]
            if args.target == "check":
                command = ["check", str(base / "out-a"), "--sources", str(base / "a")]
            else:
                (base / "b").mkdir()
                edited, _ = generate_corpus(base / "b", scale, _erratum)
                timed_build(edited, base / "out-b")
                command = ["diff", str(base / "out-a"), str(base / "out-b"), "--format", "json"]
            runs = [timed(command) for _ in range(args.repeat)]
        median = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[2] for r in runs)
        rows.append((scale, lines, cpu))
        print(f"{scale:>6} {lines:>8} {records:>8} {median:>9.2f} {cpu:>7.2f} {1e6 * cpu / lines:>8.1f} "
              f"{max(r[1] for r in runs):>9.1f}")
    growth(rows, "CPU time")
    return 0


def run_bench(args) -> int:
    if args.repeat is None:
        args.repeat = 1 if args.target == "site" else 5  # a site build at 100x is slow enough once
    if args.target in ("check", "diff"):
        return run_bench_tool(args)
    if args.target == "site":
        return run_site_bench(args)
    scales = sorted({1, 10, max(1, args.scale // 2), args.scale})
    print(f"warscribe build benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {args.repeat} runs per scale")
    print(f"{'scale':>6} {'sources':>8} {'lines':>8} {'records':>8} {'median s':>9} {'µs/line':>8} {'peak MiB':>9}")
    rows = []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            manifest, lines = generate_corpus(Path(tmp), scale)
            runs = [timed_build(manifest, Path(tmp) / "out") for _ in range(args.repeat)]
        median = statistics.median(r[0] for r in runs)
        peak = max(r[1] for r in runs)
        rows.append((scale, lines, median))
        print(f"{scale:>6} {4 * scale:>8} {lines:>8} {runs[0][2]:>8} {median:>9.2f} {1e6 * median / lines:>8.1f} {peak:>9.1f}")
    growth(rows)
    return 0


def run_site_bench(args) -> int:
    """Whole builds with the site (extraction, pages, engine tables, mkdocs): time, pages, search index
    (the titles file search fetches first); then the whole game (bench/site.py)."""
    repeat = args.repeat
    scales = sorted({1, 10, args.scale})
    print(f"warscribe site benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {repeat} runs per scale (build and site together)")
    print(f"{'scale':>6} {'sources':>8} {'records':>8} {'pages':>7} {'median s':>9} {'cpu s':>7} {'ms/page':>8} "
          f"{'index KiB':>10} {'site MiB':>9} {'peak MiB':>9}")
    wall, cpu_rows = [], []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            manifest, lines = generate_corpus(Path(tmp), scale)
            out = Path(tmp) / "out"
            runs = [timed_build(manifest, out, site=True) for _ in range(repeat)]
            pages = re.search(r"Site: (\d+) pages", runs[-1][3])
            if not pages:
                raise SystemExit(f"the site did not build at scale {scale}:\n{runs[-1][3]}")
            index = (out / "site" / "search" / "titles.json").stat().st_size / 1024
            size = sum(p.stat().st_size for p in (out / "site").rglob("*") if p.is_file()) / 2**20
        median = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[4] for r in runs)
        n = int(pages.group(1))
        wall.append((scale, lines, median))
        cpu_rows.append((scale, lines, cpu))
        print(f"{scale:>6} {4 * scale:>8} {runs[0][2]:>8} {n:>7} {median:>9.2f} {cpu:>7.2f} {1000 * median / n:>8.1f} "
              f"{index:>10.0f} {size:>9.1f} {max(r[1] for r in runs):>9.1f}")
    growth(wall, "wall time")
    growth(cpu_rows, "CPU time")
    from warscribe.bench.site import run_whole_game

    return run_whole_game()
