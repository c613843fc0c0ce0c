"""`warscribe build` and `warscribe export`: run the pipeline, write YAML, JSON and a report.

Outputs are byte-identical for identical sources: no timestamps, sorted records,
sorted keys where order carries no meaning.
"""

from __future__ import annotations

import io
import os
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from warscribe.extract.limits import Limits
from warscribe.extract.pipeline import Result, extract, line_accounting
from warscribe.schema import SCHEMA_DIR
from warscribe.schema.diagnostics import plural
from warscribe.schema.docs import doc
from warscribe.schema.registry import KINDS
from warscribe import __version__
from warscribe.outputs import OutputError, file_entries, is_warscribe_output, read_manifest, staged
from warscribe.progress import Progress
from warscribe.schema.text import printable
from warscribe.writers import SCHEMA_VERSION, RecordWriteError, json_file, meta, write_json, write_yaml

def record_counts(result: Result) -> dict[str, int]:
    """Records per kind, in the order of KINDS."""
    return {k: sum(1 for r in result.records if r["kind"] == k) for k in KINDS}


def build_report(result: Result) -> dict:
    diagnostics = result.report.sorted()
    return {
        "records": record_counts(result),
        "rejected": [r["id"] for r in result.rejected],
        "sources": {d.path: line_accounting(d) for d in result.documents},
        # Counted from the list written below, so the counts and the list always agree.
        "errors": sum(1 for d in diagnostics if d.level == "error"),
        "warnings": sum(1 for d in diagnostics if d.level == "warning"),
        "diagnostics": [d.as_dict() for d in diagnostics],
    }


def by_code(diagnostics) -> str:
    """'repaired-character 13, heading-lost 7, ...': codes by count, most frequent first."""
    counts = Counter(d.code for d in diagnostics)
    return ", ".join(f"{code} {n}" for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def print_diagnostics(result: Result, verbose: bool, quiet: bool, stream=None) -> None:
    """Errors in full, warnings only with `verbose` (a summary by code says what they were)."""
    stream = stream or sys.stderr  # looked up per call, so redirection works
    if quiet:
        return
    for d in result.report.sorted():
        if verbose or d.level == "error":
            print(d.render(), file=stream)


def print_summary(result: Result, report: dict, out: Path, quiet: bool, stream=None, verbose: bool = False) -> None:
    stream = stream or sys.stdout  # looked up per call, so redirection works
    if report["sources"]:
        print("Lines per source (used by records / classified / unaccounted):", file=stream)
    for path, acc in report["sources"].items():
        classified = sum(acc["classified"].values())
        detail = ", ".join(f"{k} {v}" for k, v in acc["classified"].items())
        print(f"  {printable(path)}: {acc['lines']} lines; {acc['used_by_records']} used; {classified} classified ({detail});"
              f" {acc['unaccounted']} unaccounted", file=stream)
    total = sum(report["records"].values())
    kinds = ", ".join(f"{v} {k}" for k, v in report["records"].items())
    print(f"Records: {total} ({kinds}); {len(report['rejected'])} rejected by schema", file=stream)
    codes = by_code(result.report.sorted())
    print(f"{plural(report['errors'], 'error')}, {plural(report['warnings'], 'warning')}"
          + (f" ({codes})" if codes else "") + f". Output in {out}/ (report: {out}/report.json)", file=stream)
    if report["warnings"] and not verbose and not quiet:
        print(f"Warnings name scraping damage or gaps in the sources (each kept as printed, or repaired and "
              f"recorded in provenance); they do not fail the build unless --strict. --verbose lists each one; "
              f"what each code means: {doc('diagnostics.md')}", file=stream)


# Errors of the manifest stage: the sources could not all be read, so the build would
# silently lose records. The previous output is kept instead.
_UNREADABLE = {"bad-manifest", "missing-source", "checksum", "unknown-format", "unconfined-source", "duplicate-source"}


def _unreadable(result: Result) -> list:
    return [d for d in result.report.errors if d.code in _UNREADABLE]


def _kept(out: Path) -> str:
    """What became of `out` when nothing was written: only a previous output is "kept"."""
    return (f"the previous output in {out}/ is kept" if is_warscribe_output(out)
            else f"{out}/ was not touched" if out.exists() else f"{out}/ was not created")


def _refuse_unreadable(result: Result, out: Path, what: str) -> None:
    """Only the errors that stopped the run (not every warning of the sources that were read), and why.

    The command then exits 2, as every command does for input it cannot use (docs/commands.md)."""
    unreadable = sorted(set(_unreadable(result))) or result.report.sorted()
    for d in unreadable:
        print(d.render(), file=sys.stderr)
    print(f"The sources could not all be read: nothing {what}; {_kept(out)}.", file=sys.stderr)
    if any(d.code == "checksum" for d in unreadable):
        print("If the edit is intended, `warscribe manifest --update` records the new checksums "
              "(it lists each file it changes); then run again.", file=sys.stderr)


# A build with this share of the previous one's records or less is "less" (see shrinkage()).
SHRINK = 0.9


def shrinkage(previous: dict | None, result: Result) -> list[str]:
    """How the new build holds less than the previous one written there (nothing when it does not).

    Less is: under 90% of its records, a kind of record it had and this one has none of,
    or a source that gave records and now gives none. A rules update removes a few
    records; a source that stopped yielding (an empty archive, a moved folder) removes many.
    """
    if not previous or not isinstance(previous.get("records"), dict):
        return []
    before = {k: v for k, v in previous["records"].items() if isinstance(v, int)}
    now = record_counts(result)
    old_total, new_total = sum(before.values()), sum(now.values())
    reasons = []
    if new_total < SHRINK * old_total:
        reasons.append(f"{new_total:,} records where it held {old_total:,}")
    gone = [k for k, v in before.items() if v and not now.get(k)]
    if gone:
        reasons.append("no " + ", ".join(gone) + " records where it held " +
                       ", ".join(f"{before[k]:,}" for k in gone))
    for src in previous.get("sources") or []:
        name = src.get("file") if isinstance(src, dict) else None
        if isinstance(src.get("records") if name else None, int) and src["records"] and result.yields.get(name) == 0:
            reasons.append(f"nothing from {name}, which gave {src['records']:,} records")
    return reasons


def _refuse_shrink(result: Result, out: Path, reasons: list[str], quiet: bool, stream=None) -> int:
    stream = stream or sys.stderr
    for d in result.report.sorted():
        if d.level == "error":  # quiet or not, the errors say why it holds less
            print(d.render(), file=stream)
    print(f"This build holds less than the one in {out}/: {printable('; '.join(reasons), 1000)}. Nothing written; "
          f"the previous output is kept. Pass --allow-shrink to replace it anyway.", file=stream)
    return 1


def run_build(manifest: Path, out: Path, strict: bool = False, quiet: bool = False, site: bool = True,
              roots: tuple[Path, ...] = (), limits: Limits | None = None, allow_shrink: bool = False,
              verbose: bool = False, since: str | None = None) -> int:
    """Extract, write and (with `site`) build the site; the summary on stdout, diagnostics and notes on stderr."""
    # Read before anything is written: `--since out` is the build this one replaces.
    before = _previous(since) if since else None
    site_log = io.StringIO()
    site_failed = False
    notes: list[str] = []
    stage = out  # until the staging folder exists
    error = ""
    changes = None
    with Progress() as progress:  # over every stage; what is printed waits until it is erased
        result = extract(manifest, roots, limits, progress)
        report = build_report(result)
        unreadable = bool(_unreadable(result) or not result.sources)
        reasons = [] if allow_shrink or unreadable else shrinkage(read_manifest(out), result)
        if not unreadable and not reasons:
            try:
                with staged(out, notes, what="build") as stage:
                    records = None
                    if site or isinstance(before, tuple):
                        from warscribe.schema import bundle

                        records = bundle.from_records(result.records, meta(result, None, len(result.records)), str(out))
                    changes = _changes(before, records) if isinstance(before, tuple) else None
                    if site:
                        # Inside the stage: records and site move into place together. A site that fails
                        # to build is reported, and the records are still written: while mkdocs builds
                        # (its own process, on the other core), this one writes them.
                        from warscribe.site import build as build_site

                        site_failed = build_site(records, report["diagnostics"], stage, quiet=not verbose,
                                                 stream=site_log, progress=progress, ledger=changes,
                                                 meanwhile=lambda: write_build(result, report, stage, progress)) != 0
                    else:
                        write_build(result, report, stage, progress)
                    progress("manifest", 0, 1)
                    write_build_manifest(result, report, stage)
            except OutputError as exc:
                error = f"error: {exc}"
            except RecordWriteError as exc:
                error = f"error: {exc.strerror}; nothing written, {_kept(out)}"
            except OSError as exc:
                where = printable(str(exc.filename or out).replace(str(stage), str(out)), 200)
                error = f"error: cannot write the build to {out}/: {exc.strerror or exc} ({where}); {_kept(out)}"
    for note in notes:
        print(f"warscribe build: {printable(note, 1000)}", file=sys.stderr)
    if unreadable:
        _refuse_unreadable(result, out, "written")
        return 2
    if reasons:
        return _refuse_shrink(result, out, reasons, quiet)
    if error:
        print(error, file=sys.stderr)
        return 1
    print_diagnostics(result, verbose, quiet)
    print_summary(result, report, out, quiet, verbose=verbose)
    if since:
        _print_changes(since, before, changes)
    for line in site_log.getvalue().replace(str(stage), str(out)).splitlines():
        print(printable(line), file=sys.stdout if line.startswith("Site: ") else sys.stderr)
    if result.report.errors or result.rejected or site_failed:
        return 1
    if strict and result.report.warnings:
        print("--strict: warnings count as errors", file=sys.stdout)
        return 1
    return 0


def _previous(since: str):
    """The previous build of `--since` (bundle, side), or the error that keeps it out (a string)."""
    from warscribe.ledger import previous
    from warscribe.ledger.sides import DiffError

    try:
        return previous(since)
    except DiffError as exc:
        return str(exc)


def _changes(before: tuple, records):
    """The change ledger from the previous build (bundle, side) to this one's records."""
    from warscribe.ledger import since

    return since(before[0], before[1], records)


def _print_changes(spec: str, before, changes) -> None:
    from warscribe.ledger.render import counts_line

    if changes is None:
        print(f"warning: --since {printable(spec, 200)}: {printable(str(before), 500)}; no \"What changed\" page",
              file=sys.stdout)
    else:
        print(f"Changes since {printable(spec, 200)}: {counts_line(changes)}", file=sys.stdout)


def write_build(result: Result, report: dict, out: Path, progress=None) -> None:
    """The records, the JSON and the report of a build into `out` (a fresh folder)."""
    write_yaml(result, out, progress)
    write_json(result, out / "json")
    (out / "report.json").write_text(json_file(report), encoding="utf-8")


def write_build_manifest(result: Result, report: dict, out: Path) -> None:
    """manifest.json, written last: sources (with the records each gave), counts per kind, every file's size and sha256 (the site's too)."""
    manifest_out = {
        "generator": f"warscribe {__version__}",
        "schema_version": SCHEMA_VERSION,
        "sources": _sources_with_yields(result),
        "records": report["records"],
        "files": file_entries(out),
    }
    (out / "manifest.json").write_text(json_file(manifest_out), encoding="utf-8")


def _sources_with_yields(result: Result) -> list[dict]:
    """The sources of the bundle's meta, each with how many records it gave (what a later build must not lose)."""
    return [dict(s, records=result.yields.get(s["file"], 0)) for s in meta(result, None, 0)["sources"]]


def _build_time() -> str:
    """Now, or SOURCE_DATE_EPOCH where a reproducible-build setup gives one, in UTC."""
    stamp = os.environ.get("SOURCE_DATE_EPOCH")
    moment = datetime.fromtimestamp(int(stamp), timezone.utc) if stamp and stamp.isdigit() else datetime.now(timezone.utc)
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def write_schemas(out: Path) -> None:
    """The JSON Schemas the records follow, beside them (schemas/<name>.schema.json)."""
    folder = out / "schemas"
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        (folder / path.name).write_bytes(path.read_bytes())


def export_manifest(result: Result, out: Path, build_time: bool = False) -> dict:
    """What an export holds: version, sources with sha256, counts per kind, every file's size and sha256."""
    manifest = {"generator": f"warscribe {__version__}", "warscribe": __version__, "schema_version": SCHEMA_VERSION}
    if build_time:
        manifest["build_time"] = _build_time()
    manifest.update({
        "sources": sorted(_sources_with_yields(result), key=lambda s: s["file"]),
        "records": record_counts(result),
        "files": file_entries(out),
    })
    return manifest


def run_export(manifest: Path, out: Path, fmt: str, quiet: bool = False, build_time: bool = False,
               roots: tuple[Path, ...] = (), limits: Limits | None = None, allow_shrink: bool = False,
              since: str | None = None) -> int:
    # Read before anything is written: `--since out` is the build this one replaces.
    before = _previous(since) if since else None
    with Progress() as progress:
        result = extract(manifest, roots, limits, progress)
    if _unreadable(result) or not result.sources:
        _refuse_unreadable(result, out, "exported")
        return 2
    reasons = [] if allow_shrink else shrinkage(read_manifest(out), result)
    if reasons:
        return _refuse_shrink(result, out, reasons, quiet, sys.stderr)
    notes: list[str] = []
    try:
        with staged(out, notes, what="export") as stage:
            if fmt == "json":
                write_json(result, stage)
                write_schemas(stage)
            else:
                from warscribe.export_csv import write_export

                write_export(result.records, stage)
            # Either format: what it holds, for `check` and for the next export not to replace it with less.
            (stage / "manifest.json").write_text(json_file(export_manifest(result, stage, build_time)), encoding="utf-8")
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write to {out}/: {exc.strerror or exc}; nothing changed there", file=sys.stderr)
        return 1
    finally:
        for note in notes:
            print(f"warscribe export: {printable(note, 1000)}", file=sys.stderr)
    if not quiet:
        for d in result.report.errors:
            print(d.render(), file=sys.stderr)
    print(f"Exported {len(result.records)} records as {fmt} to {out}/")
    return 1 if result.report.errors else 0
