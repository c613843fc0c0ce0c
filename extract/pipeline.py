"""The extraction pipeline, as named stages: manifest, read, parse, link, validate.

Each stage reports into one :class:`Report` and passes on what it could make, so a
bad source costs its own records and nothing else.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from warscribe.schema.diagnostics import Report
from warscribe.schema import RULESETS
from warscribe.extract.extracts import parse_extract
from warscribe.extract.html import read_html
from warscribe.extract.lines import Document, read_text
from warscribe.extract.link import Linker
from warscribe.extract.page import parse_page
from warscribe.schema.registry import fast_validator, record_errors, schema
from warscribe.extract.store import Store
from warscribe.extract.wahapedia import add_export, folder_sha256, load_export

READERS = {".txt": read_text, ".html": read_html}
# Source kinds, as the manifest schema declares them.
KINDS_OF_SOURCE = tuple(schema("manifest")["$defs"]["entry"]["properties"]["kind"]["enum"])


@dataclass
class Source:
    path: Path  # on disk
    name: str  # as recorded in provenance: 'sources/<file>'
    entry: dict
    sha256: str = ""


@dataclass
class Result:
    records: list[dict]
    report: Report
    documents: list[Document] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)


def register_reader(suffix: str, reader) -> None:
    """Readers for other formats (HTML ...) plug in here; extraction stays the same."""
    READERS[suffix] = reader


def load_manifest(manifest: Path, report: Report) -> list[Source]:
    """Stage 1: the manifest, with every entry checked (file present, checksum, fields)."""
    mname = _display(manifest)
    try:
        data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        report.error(mname, getattr(getattr(exc, "problem_mark", None), "line", 0) + 1, "bad-manifest",
                     f"cannot read the manifest: {exc}", expected="a YAML file with a 'sources' list")
        return []
    entries = (data or {}).get("sources") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        report.error(mname, 1, "bad-manifest", "manifest has no 'sources' list", expected="sources: [...]", found=str(type(data).__name__))
        return []
    sources = []
    text_lines = manifest.read_text(encoding="utf-8").splitlines()
    check = fast_validator("manifest")
    for index, entry in enumerate(entries):
        line = _entry_line(text_lines, entry.get("file") if isinstance(entry, dict) and isinstance(entry.get("file"), str) else None)
        # Each entry is checked apart, so one bad entry costs only its own source.
        problems = sorted(check.iter_errors({"sources": [entry]}), key=lambda e: list(e.absolute_path))
        if problems:
            missing = [m for e in problems if e.validator == "required" for m in e.validator_value
                       if isinstance(entry, dict) and m not in entry]
            other = [f"{'/'.join(str(p) for p in list(e.absolute_path)[2:]) or 'entry'}: {e.message}"
                     for e in problems if e.validator != "required"]
            what = ([f"lacks {', '.join(missing)}"] if missing else []) + other
            name = f" ({entry['file']})" if isinstance(entry, dict) and isinstance(entry.get("file"), str) else ""
            report.error(mname, line, "bad-manifest", f"sources[{index}]{name}: {'; '.join(what)}",
                         expected="file, original_name, sha256, ruleset, kind (see schema/manifest.schema.json)",
                         found=", ".join(sorted(map(str, entry))) if isinstance(entry, dict) else type(entry).__name__)
            continue
        path = manifest.parent / entry["file"]
        src = Source(path, _provenance_name(manifest, entry["file"]), entry)
        if entry["kind"] == "wahapedia-csv":
            # An export is a folder; its checksum covers every file in it (see folder_sha256).
            if not path.is_dir():
                report.error(mname, line, "missing-source", f"export folder {entry['file']} does not exist",
                             expected="a folder of .csv files", found="nothing" if not path.exists() else "a file")
                continue
            src.sha256 = folder_sha256(path)
            if src.sha256 != entry["sha256"]:
                report.error(src.name, 1, "checksum", "export folder differs from the manifest's checksum; skipped",
                             expected=entry["sha256"], found=src.sha256)
                continue
            sources.append(src)
            continue
        if not path.is_file():
            report.error(mname, line, "missing-source", f"source file {entry['file']} does not exist", expected="a file", found="nothing")
            continue
        src.sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        if src.sha256 != entry["sha256"]:
            report.error(src.name, 1, "checksum", "source file differs from the manifest's checksum; skipped",
                         expected=entry["sha256"], found=src.sha256)
            continue
        if path.suffix not in READERS:
            report.error(src.name, 1, "unknown-format", f"no reader for {path.suffix!r} files",
                         expected=" or ".join(sorted(READERS)), found=path.suffix)
            continue
        sources.append(src)
    return sources


_PROJECT_MARKERS = (".git", "pyproject.toml", "mkdocs.yml")


def _provenance_name(manifest: Path, as_listed: str) -> str:
    """How records cite a source: its path from the project that holds the manifest.

    The project is the nearest folder above the manifest with a project marker (a
    checkout); without one, the manifest's own folder is named ('sources/x.txt'). The
    name never depends on the working directory or on where the project sits on disk.
    """
    folder = manifest.resolve().parent
    path = (folder / as_listed)
    for top in folder.parents if not any((folder / m).exists() for m in _PROJECT_MARKERS) else [folder]:
        if any((top / m).exists() for m in _PROJECT_MARKERS):
            break
    else:
        top = folder.parent
    try:
        return Path(os.path.normpath(path)).relative_to(top).as_posix()
    except ValueError:
        return Path(as_listed).as_posix()


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _entry_line(lines: list[str], file: str | None) -> int:
    for no, text in enumerate(lines, start=1):
        if file and file in text:
            return no
    return 1


def extract(manifest: Path) -> Result:
    """Run every stage on the sources in `manifest` and return validated records."""
    report = Report()
    sources = load_manifest(manifest, report)

    # Stage 2: read.
    documents: list[Document] = []
    exports = []
    for src in sources:
        prov_name = src.name
        if src.entry["kind"] == "wahapedia-csv":
            exports.append(load_export(src.path, prov_name, src.entry["ruleset"], report))
            continue
        reader = READERS[src.path.suffix]
        doc = reader(prov_name, src.path.read_bytes(), src.entry["ruleset"], src.entry["kind"], src.entry, report)
        if doc is not None:
            documents.append(doc)

    # Stage 3: parse; stage 4: link. Pages first: their headings name what extracts repeat.
    store = Store(report, {d.path: i for i, d in enumerate(documents)})
    linker = Linker(report, store)
    for doc in documents:
        if doc.kind == "datasheet-page":
            page = parse_page(doc, report)
            if page is not None:
                linker.add_page(page)
    linker.link_pages()
    for doc in documents:
        if doc.kind == "rules-extract":
            title, passages = parse_extract(doc, report)
            linker.link_passages(doc, doc.meta.get("title") or title, passages)
    linker.link_keywords()
    for export in exports:
        add_export(store, export, report)
    records = store.finish()
    _resolve_references(records, report)

    # Stage 5: validate. A record that fails its schema is reported and not written.
    valid, rejected = [], []
    for rec in records:
        errors = record_errors(rec)
        if errors:
            src = rec["source"][0]
            for path, message in errors:
                report.error(src["file"], src["first_line"], "schema", f"{rec['id']}: {path}: {message}; record not written",
                             expected=f"a valid {rec['kind']} record", found=path)
            rejected.append(rec)
        else:
            valid.append(rec)

    for doc in documents:
        for ln in doc.unaccounted():
            report.warning(doc.path, ln.no, "unaccounted-line", "line not used by any record nor classified",
                           expected="a record's line or an ignorable line", found=ln.text, column=ln.col)
    return Result(valid, report, documents, sources, rejected)


def _resolve_references(records: list[dict], report: Report) -> None:
    """Datasheet abilities point at ability records; drop pointers the sources cannot back."""
    ids = {r["id"] for r in records}
    for rec in records:
        if rec["kind"] == "datasheet":
            for ability in rec["abilities"]:
                ref = ability.get("ref")
                if ref and ref not in ids:
                    src = rec["source"][0]
                    report.warning(src["file"], src["first_line"], "unresolved-reference",
                                   f"{rec['id']}: ability {ability['name']!r} has no rule text in the sources",
                                   expected=ref, found="nothing")
                    del ability["ref"]
        if rec["kind"] == "rule":
            for entry in rec["see_also"]:
                number = entry.get("number")
                match = [r["id"] for r in records if r["kind"] in ("rule", "ability") and r.get("number") == number
                         and r["ruleset"] == rec["ruleset"]] if number else []
                if match:
                    entry["ref"] = match[0]


def line_accounting(doc: Document) -> dict:
    """Per source: physical lines, and how their pieces were used or classified."""
    counts: dict[str, int] = {}
    used_lines: set[int] = set()
    unaccounted: set[int] = set()
    for ln in doc.lines:
        if ln.use is None:
            unaccounted.add(ln.no)
        elif ln.use.startswith("class:"):
            counts[ln.use[6:]] = counts.get(ln.use[6:], 0) + 1
        else:
            used_lines.add(ln.no)
    return {"lines": doc.raw_line_count, "used_by_records": len(used_lines),
            "classified": dict(sorted(counts.items())), "unaccounted": len(unaccounted)}
