"""`warscribe bench build`: time and peak memory of full builds as the sources grow.

The corpus at scale N holds N copies of every seed; datasheet pages get renamed units
(so each copy adds new datasheet and weapon records), while their stratagems, rules
and detachments stay the same (so each copy also exercises merging). Each build runs
in a fresh interpreter, so peak memory is that build's own.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from warscribe import ROOT


def generate_corpus(folder: Path, scale: int) -> tuple[Path, int]:
    """Write `scale` copies of the seeds with a manifest; return (manifest, source lines)."""
    manifest = yaml.safe_load((ROOT / "sources" / "manifest.yaml").read_text(encoding="utf-8"))
    entries = []
    lines = 0
    for copy in range(1, scale + 1):
        for entry in manifest["sources"]:
            data = (ROOT / "sources" / entry["file"]).read_bytes()
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


def _timed_build(manifest: Path, out: Path) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MiB) and the summary line of one build in a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "warscribe.cli", "build", "--manifest", str(manifest),
                             "--out", str(out), "-q"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    records = re.search(r"Records: (\d+)", output)
    if proc.returncode not in (0,) or not records:
        raise SystemExit(f"build failed at {manifest}:\n{output}")
    return elapsed, usage.ru_maxrss / 1024, records.group(1)


def run_bench(args) -> int:
    scales = sorted({1, 10, max(1, args.scale // 2), args.scale})
    print(f"warscribe build benchmark: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {args.repeat} runs per scale")
    print(f"{'scale':>6} {'sources':>8} {'lines':>8} {'records':>8} {'median s':>9} {'µs/line':>8} {'peak MiB':>9}")
    rows = []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            manifest, lines = generate_corpus(Path(tmp), scale)
            runs = [_timed_build(manifest, Path(tmp) / "out") for _ in range(args.repeat)]
        median = statistics.median(r[0] for r in runs)
        peak = max(r[1] for r in runs)
        rows.append((scale, lines, median))
        print(f"{scale:>6} {4 * scale:>8} {lines:>8} {runs[0][2]:>8} {median:>9.2f} {1e6 * median / lines:>8.1f} {peak:>9.1f}")
    if len(rows) > 1:
        (_, l0, t0), (_, l1, t1) = rows[0], rows[-1]
        print(f"growth: {l1 / l0:.0f}x the lines took {t1 / t0:.1f}x the time "
              f"(exponent {math.log(t1 / t0) / math.log(l1 / l0):.2f}; 1.00 is linear)")
    return 0
