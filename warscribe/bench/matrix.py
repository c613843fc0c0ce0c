"""`warscribe bench matrix`: compute and write times of the corpus matrix as it grows.

Every corpus weapon against every unit profile with 10 models (the goal: under 20 s on
two cores for 4,398 x 1,687), and square fractions of it, so that the growth with
weapons x targets shows. Wall and CPU seconds are both printed: on a shared machine
the CPU time is the one that says what the code costs.
"""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path

from warscribe import ROOT
from warscribe.engine.batch import evaluate_matrix
from warscribe.engine.tsv import read_units, read_weapons
from warscribe.matrix import write_csv, write_npz

CORPUS = ROOT.parent / "shared" / "corpus"


def run_bench(args) -> int:
    corpus = Path(getattr(args, "corpus", None) or CORPUS)
    weapons_tsv, units_tsv = corpus / "bsdata-10e-weapons.tsv", corpus / "bsdata-10e-units.tsv"
    if not (weapons_tsv.is_file() and units_tsv.is_file()):
        print(f"corpus not found in {corpus}: skipped")
        return 0
    weapons = [r for r in read_weapons(weapons_tsv) if r.value is not None]
    targets = [r for r in read_units(units_tsv, 10) if r.value is not None]
    print(f"warscribe matrix benchmark: {len(weapons):,} weapons x {len(targets):,} units of 10 models")
    print(f"{'share':>6} {'pairs':>11} {'cases':>8} {'compute s':>10} {'cpu s':>7} {'csv s':>7} {'npz s':>7}")
    rows = []
    for share in (0.125, 0.25, 0.5, 1.0):
        side = math.sqrt(share)
        ws, ts = weapons[: max(1, round(len(weapons) * side))], targets[: max(1, round(len(targets) * side))]
        wall, cpu = time.perf_counter(), time.process_time()
        m = evaluate_matrix([r.value for r in ws], ["10e"] * len(ws), [r.value for r in ts])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        with tempfile.TemporaryDirectory() as tmp:
            ids = ([r.id for r in ws], [r.id for r in ts])
            start = time.perf_counter()
            write_csv(Path(tmp) / "m.csv", *ids, m)
            csv_s = time.perf_counter() - start
            start = time.perf_counter()
            write_npz(Path(tmp) / "m.npz", *ids, m, [])
            npz_s = time.perf_counter() - start
        pairs = len(ws) * len(ts)
        rows.append((pairs, cpu))
        print(f"{share:>6.3f} {pairs:>11,} {m.cases:>8,} {wall:>10.2f} {cpu:>7.2f} {csv_s:>7.2f} {npz_s:>7.2f}")
    (p0, t0), (p1, t1) = rows[0], rows[-1]
    print(f"growth: {p1 / p0:.0f}x the pairs took {t1 / t0:.1f}x the compute CPU time "
          f"(exponent {math.log(t1 / t0) / math.log(p1 / p0):.2f}; 1.00 is linear)")
    return 0
