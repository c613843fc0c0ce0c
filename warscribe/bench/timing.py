"""Timing what the benches measure: medians in this process, commands in fresh interpreters.

Every bench reports wall and CPU time the same way, so these live apart from any one bench.
"""

from __future__ import annotations

import math
import re
import statistics
import time
from pathlib import Path

from warscribe.bench.measure import run_warscribe


def median_time(fn, repeat: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of `repeat` calls of `fn` in this process, and its last result."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def median_wall(fn, repeat: int) -> float:
    """Median wall seconds of `repeat` calls of `fn` in this process: the clock read around the call
    alone (the engine's calls take tens of microseconds; ``median_time``'s CPU clock would be inside)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def timed_build(manifest: Path, out: Path, site: bool = False,
                 allow_errors: bool = False) -> tuple[float, float, str, str, float]:
    """Wall seconds, peak RSS (MiB), record count, output and CPU seconds of one build in a child process.

    The reference site is left out (--no-site) unless `site` is true. `allow_errors`: a build
    that reports errors (exit status 1) still counts, as long as it wrote records.
    """
    flags = [] if site else ["--no-site"]
    run = run_warscribe(["build", "--manifest", str(manifest), "--out", str(out), "-q", *flags])
    records = re.search(r"Records: (\d+)", run.output)
    if run.status not in ((0, 1) if allow_errors else (0,)) or not records:
        raise SystemExit(f"build failed at {manifest}:\n{run.output}")
    return run.wall, run.peak_mib, records.group(1), run.output, run.cpu


def timed(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MiB) and CPU seconds (user + system) of one command in a child process.

    CPU time is reported beside wall time: on a shared machine the wall clock measures the
    other jobs as much as this one."""
    run = run_warscribe(command)
    if run.status not in (0, 1):
        raise SystemExit(f"warscribe {' '.join(command)} failed:\n{run.output[-4000:]}")
    return run.wall, run.peak_mib, run.cpu


def growth(rows: list[tuple[int, int, float]], what: str = "time") -> None:
    if len(rows) > 1:
        (_, l0, t0), (_, l1, t1) = rows[0], rows[-1]
        print(f"growth: {l1 / l0:.0f}x the lines took {t1 / t0:.1f}x the {what} "
              f"(exponent {math.log(t1 / t0) / math.log(l1 / l0):.2f}; 1.00 is linear)")
