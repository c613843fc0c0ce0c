"""`warscribe matrix`: exact results for every weapon against every target.

Weapons come from a knowledge base (a build folder or bundle; record ids) or a
BattleScribe-style weapons TSV (``<catalogue>/<name>#<row>``); targets from the
knowledge base's datasheets that carry model characteristics, a YAML list of
reference targets (ids: their names), or a units TSV with ``--target-models N``.
Each pair is one weapon group (``--models`` models with the weapon, default 1)
attacking the target, under the conditions given; the numbers are those of
``warscribe calc --json`` for that scenario (``engine.batch`` computes them).

Output, rows in input order (weapons, then targets within a weapon):

* ``.csv``: ``weapon,target,expected_wounds_removed,expected_models_slain,p_wipe``,
  floats written as the shortest text that reads back to the same value;
* ``.npz`` (numpy's zip of arrays, loaded by ``numpy.load``): ``weapon`` and
  ``target`` (ids), the three value arrays of shape (weapons, targets), and
  ``skipped_id`` / ``skipped_reason``.

Subsets (``Subset``): ``--faction``, ``--keyword``, ``--name`` choose weapons (by their
datasheets), ``--target-faction``, ``--target-keyword``, ``--target-name`` targets; the
values of one option are OR-ed, the options AND-ed. Before computing, the output's size
is estimated from the ids' lengths and the rows (weapons x targets); above ``--max-size``
the command refuses, naming the estimate and these options, unless ``--force``.

Rows the engine cannot evaluate (a Strength of ``8+``, a target without model
characteristics) are listed with the reason on stderr (and in the .npz), never
dropped silently. The same inputs give byte-identical files (no timestamps; the zip
entries carry a fixed date). Files are written to a temporary name, then renamed.
"""

from __future__ import annotations

import csv
import difflib
import operator
import io
import os
import re
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from jsonschema import Draft202012Validator

from warscribe.engine.batch import Matrix, evaluate_matrix
from warscribe.engine.errors import ScenarioError
from warscribe.engine.kb import weapon_from_record
from warscribe.engine.model import Conditions, Target, Weapon
from warscribe.engine.scenario import MAX_CHARACTERISTIC, MAX_TARGET_WOUNDS
from warscribe.engine.tsv import Row, TsvError, read_units, read_weapons
from warscribe.schema import safeyaml
from warscribe.schema.bundle import BundleError
from warscribe.schema.bundle import load as load_bundle
from warscribe.schema.registry import derived_schema
from warscribe.schema.text import printable, spreadsheet_cell

COLUMNS = ("weapon", "target", "expected_wounds_removed", "expected_models_slain", "p_wipe")
MAX_REFERENCE_TARGETS = 100_000
MAX_SIZE = 200 << 20  # bytes of output written without --force (the whole 11e game is about 1.5 GB of CSV)
# The three numbers of a CSV row as written, with their commas and newline: 34 bytes on
# average for Orks and Space Marines weapons against 11e vehicles, 41 for Necrons weapons
# against every 11e datasheet; 42 keeps the estimate at or a little above the file.
# The ids' lengths are counted exactly.
CSV_VALUES_BYTES = 42


class MatrixError(Exception):
    """An input the matrix cannot start from (missing file, wrong columns...)."""


# ---------------------------------------------------------------- sources


def _is_tsv(path: Path) -> bool:
    return path.suffix.lower() in (".tsv", ".txt")


def weapon_rows(source: str | Path, ruleset: str | None, subset: Subset | None = None) -> list[Row]:
    path = Path(source)
    if _is_tsv(path):
        try:
            rows = read_weapons(path, ruleset or "10e")
        except TsvError as exc:
            raise MatrixError(str(exc)) from None
        facets = [_tsv_facets(r.id) for r in rows]
    else:
        bundle = _bundle(path)
        records = bundle.kind("weapon")
        rows = [Row(r["id"], weapon_from_record(r, r["id"])) for r in records]
        facets = [_weapon_facets(r, bundle.get(r.get("datasheet") or "")) for r in records]
    if subset:
        rows = subset.select(rows, facets, "weapon", path)
    return [_sized(row) for row in rows]


def _sized(row: Row) -> Row:
    weapon = row.value
    if isinstance(weapon, Weapon):
        for name in ("attacks", "strength", "damage"):
            value = getattr(weapon, name)
            if isinstance(value, int) and value > MAX_CHARACTERISTIC:
                return Row(row.id, None, f"{name} {value} is more than the engine computes (at most {MAX_CHARACTERISTIC:,})")
    return row


def _bundle(path: Path):
    try:
        return load_bundle(path)
    except BundleError as exc:
        raise MatrixError(str(exc)) from None


def target_rows(source: str | Path, target_models: int | None, subset: Subset | None = None) -> list[Row]:
    path = Path(source)
    if _is_tsv(path):
        if not target_models:
            raise MatrixError(f"{path}: a units TSV has no model counts: give --target-models N")
        try:
            rows = read_units(path, target_models)
        except TsvError as exc:
            raise MatrixError(str(exc)) from None
        facets = [_tsv_facets(r.id) for r in rows]
    elif path.suffix.lower() in (".yaml", ".yml"):
        rows, facets = reference_targets(path, target_models, with_facets=True)
    else:
        bundle = _bundle(path)
        rows = datasheet_targets(bundle, target_models)
        facets = [_datasheet_facets(ds, (ds.get("name"),)) for ds in bundle.kind("datasheet")]
    if subset:
        rows = subset.select(rows, facets, "target", path)
    return [_bounded(row) for row in rows]


def _bounded(row: Row) -> Row:
    t = row.value
    if isinstance(t, Target) and t.models * t.wounds > MAX_TARGET_WOUNDS:
        return Row(row.id, None, f"{t.models} models x {t.wounds} wounds is more than {MAX_TARGET_WOUNDS} wounds in total")
    return row


def datasheet_targets(bundle, target_models: int | None) -> list[Row]:
    """One target per datasheet: its first model profile; models from --target-models or its composition."""
    rows = []
    for ds in bundle.kind("datasheet"):
        profiles = [m for m in ds.get("models") or () if all(m.get(k) is not None for k in ("T", "Sv", "W"))]
        if not profiles:
            rows.append(Row(ds["id"], None, "no model characteristics (T, Sv, W) in the knowledge base"))
            continue
        m = profiles[0]
        count = target_models or sum(int(c.get("min") or 0) for c in ds.get("composition") or ()) or 1
        try:
            target = Target(toughness=int(m["T"]), save=min(7, int(m["Sv"])), wounds=int(m["W"]), models=count,
                            invulnerable=m.get("invulnerable"), keywords=frozenset(k.upper() for k in ds.get("keywords") or ()))
        except (TypeError, ValueError) as exc:
            rows.append(Row(ds["id"], None, f"model characteristics not usable: {exc}"))
            continue
        rows.append(Row(ds["id"], target))
    return rows


def reference_targets(path: Path, target_models: int | None, with_facets: bool = False):
    """A YAML list of targets shaped like a scenario's ``target`` (plus a unique ``name``).

    ``with_facets``: also what subsets match each by (its name and keywords), as a second list.
    """
    try:
        data = safeyaml.load_file(path)
    except OSError as exc:
        raise MatrixError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except safeyaml.YamlError as exc:
        where = f" (line {exc.line}, column {exc.column})" if exc.line else ""
        raise MatrixError(f"{path}: not valid YAML{where}: {exc.message}") from None
    if not isinstance(data, list) or len(data) > MAX_REFERENCE_TARGETS:
        raise MatrixError(f"{path}: expected a list of targets (at most {MAX_REFERENCE_TARGETS:,})")
    schema = derived_schema("scenario")["properties"]["target"]
    check = Draft202012Validator(schema)
    rows, facets, seen = [], [], set()
    for i, entry in enumerate(data):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not name:
            raise MatrixError(f"{path}: [{i}]: every target needs a `name` (its id in the output)")
        if name in seen:
            raise MatrixError(f"{path}: [{i}]: the name {name!r} is used twice")
        seen.add(name)
        keywords = entry.get("keywords")
        facets.append(Facets(None, _keywords(keywords if isinstance(keywords, list) else ()), (name,)))
        errors = sorted(check.iter_errors(entry), key=lambda e: list(map(str, e.absolute_path)))
        if errors:
            where = "/".join(map(str, errors[0].absolute_path)) or "(target)"
            rows.append(Row(name, None, f"{where}: {errors[0].message}"))
            continue
        rows.append(Row(name, Target(
            toughness=entry["toughness"], save=entry["save"], wounds=entry["wounds"],
            models=target_models or entry["models"], invulnerable=entry.get("invulnerable"),
            feel_no_pain=entry.get("feel_no_pain"), damage_reduction=entry.get("damage_reduction", 0),
            damage_halved=entry.get("damage_halved", False),
            keywords=frozenset(k.upper() for k in entry.get("keywords") or ()),
        )))
    return (rows, facets) if with_facets else rows


# ---------------------------------------------------------------- subsets


@dataclass(frozen=True)
class Facets:
    """What a subset matches a weapon or target by; ``None``: its source does not say (a TSV, a YAML target)."""

    faction: str | None
    keywords: frozenset[str] | None
    names: tuple[str, ...]


def _fold(text: str) -> str:
    """A faction's comparison form: 'Space Marines', 'space-marines' and 'SPACE MARINES' are one."""
    return re.sub(r"[^0-9a-z]+", "", text.casefold())


def _keywords(values) -> frozenset[str]:
    return frozenset(" ".join(str(k).split()).casefold() for k in values if isinstance(k, str))


def _datasheet_facets(ds: dict | None, names: tuple) -> Facets:
    if ds is None:
        return Facets(None, frozenset(), tuple(n for n in names if n))
    return Facets(ds.get("faction") or None,
                  _keywords(list(ds.get("keywords") or ()) + list(ds.get("faction_keywords") or ())),
                  tuple(n for n in names if n))


def _weapon_facets(weapon: dict, ds: dict | None) -> Facets:
    return _datasheet_facets(ds, (weapon.get("name"), ds.get("name") if ds else None))


def _tsv_facets(row_id: str) -> Facets:
    return Facets(None, None, (row_id.rsplit("#", 1)[0],))  # '<catalogue>/<name>' without the row number


@dataclass(frozen=True)
class Subset:
    """The weapons (or targets) chosen on the command line: OR within an option, AND across options.

    ``factions``: the datasheet's faction, whole, ignoring case, spaces and punctuation
    ('space-marines' is Space Marines; Chaos Space Marines is not); ``keywords``: one of
    the datasheet's keywords or faction keywords, whole, ignoring case; ``names``: a part
    of the name, ignoring case (a weapon's name or its datasheet's; a TSV row's catalogue
    and name; a YAML target's name).
    """

    factions: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    prefix: str = ""  # of the options' names: '' for weapons, 'target-' for targets

    def __bool__(self) -> bool:
        return bool(self.factions or self.keywords or self.names)

    def options(self) -> str:
        return " ".join(f"--{self.prefix}{kind} {v!r}" for kind, values in
                        (("faction", self.factions), ("keyword", self.keywords), ("name", self.names)) for v in values)

    def select(self, rows: list[Row], facets: list[Facets], what: str, source) -> list[Row]:
        """The rows the subset chooses, in their order; MatrixError for a value that matches nothing."""
        tests = []
        for kind, values, test in (
                ("faction", self.factions, lambda f, v: f.faction is not None and _fold(f.faction) == _fold(v)),
                ("keyword", self.keywords, lambda f, v: f.keywords is not None and " ".join(v.split()).casefold() in f.keywords),
                ("name", self.names, lambda f, v: any(v.casefold() in n.casefold() for n in f.names))):
            if not values:
                continue
            if kind != "name" and all((f.faction if kind == "faction" else f.keywords) is None for f in facets):
                raise MatrixError(f"--{self.prefix}{kind}: {source} names no {kind} of its {what}s (a TSV or a YAML "
                                  f"list of targets); choose from it by --{self.prefix}name, or give a build")
            for v in values:
                if not any(test(f, v) for f in facets):
                    raise MatrixError(f"--{self.prefix}{kind} {v!r}: none of the {len(rows):,} {what}s of {source} "
                                      f"matches{self._known(kind, v, facets)}")
            tests.append(lambda f, values=values, test=test: any(test(f, v) for v in values))
        chosen = [row for row, f in zip(rows, facets) if all(t(f) for t in tests)]
        if not chosen:
            raise MatrixError(f"{self.options()}: each matches some {what}s of {source}, but no {what} matches all "
                              "(the values of one option are OR-ed, the options AND-ed)")
        return chosen

    @staticmethod
    def _known(kind: str, value: str, facets: list[Facets]) -> str:
        if kind == "name":
            return " (a part of a name, ignoring case)"
        known = sorted({f.faction for f in facets if f.faction} if kind == "faction"
                       else {k.upper() for f in facets for k in f.keywords or ()})
        folded = {k.casefold(): k for k in known}
        near_names = [folded[k] for k in difflib.get_close_matches(value.casefold(), list(folded), 3, 0.6)]
        if near_names:
            return "; nearest: " + ", ".join(repr(k) for k in near_names)
        if kind == "faction":
            return f"; its {len(known)} factions: " + ", ".join(known)
        return f" (a whole keyword such as {known[0]!r}, ignoring case; {len(known):,} keywords there)" if known else ""


# ---------------------------------------------------------------- size


def estimate_bytes(suffix: str, weapon_ids: list[str], target_ids: list[str]) -> int:
    """The output's size before it is computed: ids counted exactly, the numbers at their usual width."""
    w, t = len(weapon_ids), len(target_ids)
    if suffix == ".npz":
        # numpy's str arrays hold 4 bytes per character of the longest id; three float64 values a pair
        ids = sum(4 * max(map(len, xs), default=0) * len(xs) for xs in (weapon_ids, target_ids))
        return 24 * w * t + ids + 4096
    weapons = sum(len(_csv_cell(x).encode("utf-8")) + 1 for x in weapon_ids)
    targets = sum(len(_csv_cell(x).encode("utf-8")) + 1 for x in target_ids)
    return len(",".join(COLUMNS)) + 1 + weapons * t + targets * w + CSV_VALUES_BYTES * w * t


def human_bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"


# ---------------------------------------------------------------- output


def _csv_cell(text: str) -> str:
    """A weapon or target name as a CSV cell: quoted as needed, never run as a spreadsheet formula."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow([spreadsheet_cell(text)])
    return buf.getvalue()


def write_csv(path: Path, weapon_ids: list[str], target_ids: list[str], matrix: Matrix, progress=None) -> None:
    values = matrix.values.tolist()  # Python floats: repr is the shortest round-trip text
    case_text = [f"{a!r},{b!r},{c!r}\n" for a, b, c in zip(*values)]
    targets = [_csv_cell(t) + "," for t in target_ids]
    with _atomic(path, "w") as fh:
        fh.write(",".join(COLUMNS) + "\n")
        for i, wid in enumerate(weapon_ids):
            prefix = _csv_cell(wid) + ","
            # map() with C-level functions: no Python frame per cell (7 million cells on the whole game)
            rows = map(operator.add, targets, map(case_text.__getitem__, matrix.case_of[i].tolist()))
            fh.write(prefix + prefix.join(rows))
            if progress and i % 64 == 0:
                progress(i + 1, len(weapon_ids))


def write_npz(path: Path, weapon_ids: list[str], target_ids: list[str], matrix: Matrix, skipped: list[Row]) -> None:
    import numpy as np

    arrays = {
        "weapon": np.array(weapon_ids, dtype=str),
        "target": np.array(target_ids, dtype=str),
        "expected_wounds_removed": matrix.expected_wounds_removed,
        "expected_models_slain": matrix.expected_models_slain,
        "p_wipe": matrix.p_wipe,
        "skipped_id": np.array([r.id for r in skipped], dtype=str),
        "skipped_reason": np.array([r.reason or "" for r in skipped], dtype=str),
    }
    with _atomic(path, "wb") as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            with zf.open(info, "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.ascontiguousarray(array), allow_pickle=False)


class _atomic:
    """Write to a temporary file beside ``path``; rename over it only when complete."""

    def __init__(self, path: Path, mode: str):
        self.path, self.mode = path, mode

    def __enter__(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        kwargs = {"encoding": "utf-8", "newline": ""} if "b" not in self.mode else {}
        self.fh = os.fdopen(fd, self.mode, **kwargs)
        return self.fh

    def __exit__(self, kind, exc, tb):
        self.fh.close()
        if kind is None:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.tmp, 0o666 & ~umask)  # mkstemp made it private; a normal output file is not
            os.replace(self.tmp, self.path)
        else:
            os.unlink(self.tmp)
        return False


# ---------------------------------------------------------------- command


class _Progress:
    """A one-line bar on stderr, only when stderr is a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.last = -1.0

    def __call__(self, label: str):
        def update(done: int, total: int) -> None:
            if not self.enabled:
                return
            now = time.monotonic()
            if done < total and now - self.last < 0.1:
                return
            self.last = now
            filled = int(30 * done / max(total, 1))
            sys.stderr.write(f"\r{label:<10} [{'#' * filled}{'.' * (30 - filled)}] {done:,}/{total:,}")
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()

        return update


def run_matrix(args) -> int:
    out = Path(args.out)
    if out.suffix.lower() not in (".csv", ".npz"):
        print(f"error: --out {out}: the name must end in .csv or .npz", file=sys.stderr)
        return 2
    quiet = getattr(args, "quiet", False)
    progress = _Progress(not quiet)
    weapon_subset = Subset(*(tuple(getattr(args, k, None) or ()) for k in ("faction", "keyword", "name")))
    target_subset = Subset(*(tuple(getattr(args, f"target_{k}", None) or ()) for k in ("faction", "keyword", "name")),
                           prefix="target-")
    try:
        weapons = weapon_rows(args.weapons, args.ruleset, weapon_subset)
        targets = target_rows(args.targets, args.target_models, target_subset)
    except MatrixError as exc:
        print(f"error: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    skipped = [r for r in weapons + targets if r.value is None]
    for kind, rows in (("weapon", weapons), ("target", targets)):
        for r in rows:
            if r.value is None:
                print(f"skipped {kind} {printable(r.id, 200)}: {printable(r.reason or '', 1000)}", file=sys.stderr)
    w_ok = [r for r in weapons if r.value is not None]
    t_ok = [r for r in targets if r.value is not None]
    for kind, flag, rows, ok, hint in (
            ("weapon", "--weapons", weapons, w_ok, "a build with weapon records, or a weapons TSV"),
            ("target", "--targets", targets, t_ok,
             "a build whose datasheets carry model characteristics (T, Sv, W: from BattleScribe or Wahapedia "
             "data; the text pages of the sample sources have none), a YAML list of targets, or a units TSV "
             "with --target-models")):
        if not ok:
            found = f"all {len(rows):,} {kind}s were skipped (listed above)" if rows else f"no {kind}s"
            given = printable(str(args.weapons if kind == "weapon" else args.targets), 200)
            print(f"error: {flag} {given}: no usable {kind}: {found}; "
                  f"give {hint}", file=sys.stderr)
            return 2
    weapon_ids, target_ids = [r.id for r in w_ok], [r.id for r in t_ok]
    pairs = len(w_ok) * len(t_ok)
    size = estimate_bytes(out.suffix.lower(), weapon_ids, target_ids)
    limit = getattr(args, "max_size", MAX_SIZE)
    estimate = f"{len(w_ok):,} weapons x {len(t_ok):,} targets = {pairs:,} rows, about {human_bytes(size)}"
    if limit and size > limit and not getattr(args, "force", False):
        print(f"error: --out {printable(str(out), 200)}: {estimate}, more than --max-size {human_bytes(limit)}: "
              "choose weapons with --faction, --keyword, --name and targets with --target-faction, "
              "--target-keyword, --target-name, or pass --force", file=sys.stderr)
        return 2
    if not quiet:
        print(f"{estimate}: computing", file=sys.stderr)
    conditions = Conditions(half_range=args.half_range, stationary=args.stationary, charged=args.charged, cover=args.cover)
    rulesets = [args.ruleset or r.value.ruleset or "11e" for r in w_ok]
    start, cpu = time.perf_counter(), time.process_time()
    try:
        matrix = evaluate_matrix([r.value for r in w_ok], rulesets, [r.value for r in t_ok], models=args.models,
                                 conditions=conditions, progress=progress("evaluate"))
    except ScenarioError as exc:
        print(f"error: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    computed, computed_cpu = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    try:
        if out.suffix.lower() == ".csv":
            write_csv(out, weapon_ids, target_ids, matrix, progress("write"))
        else:
            write_npz(out, weapon_ids, target_ids, matrix, skipped)
    except OSError as exc:
        print(f"error: {out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    written, written_cpu = time.perf_counter() - start, time.process_time() - cpu
    if not quiet:
        print(f"{len(w_ok):,} weapons x {len(t_ok):,} targets = {pairs:,} pairs "
              f"({matrix.classes[0]:,} x {matrix.classes[1]:,} classes, {matrix.cases:,} distinct cases); "
              f"{len(skipped)} rows skipped", file=sys.stderr)
        print(f"computed in {computed:.2f} s (CPU {computed_cpu:.2f} s), written in {written:.2f} s "
              f"(CPU {written_cpu:.2f} s): {out}", file=sys.stderr)
    return 0
