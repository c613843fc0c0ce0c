"""The extraction pipeline, as named stages: manifest, read, parse, link, validate.

Each stage reports into one :class:`Report` and passes on what it could make, so a
bad source costs its own records and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


from warscribe.schema.diagnostics import Report
from warscribe.extract import annotations, app, battlescribe, defects, fieldmanual
from warscribe.extract.attachments import derive_led_by
from warscribe.extract.battlescribe.merge import add_records
from warscribe.extract.characters import clean_records
from warscribe.extract.compiler import compile_records
from warscribe.extract.extracts import parse_extract
from warscribe.extract.html import read_html
from warscribe.extract.limits import Limits
from warscribe.extract.lines import Document, read_text
from warscribe.extract.link import Linker
from warscribe.extract.link.rules import report_number_collisions
from warscribe.extract.page import parse_page
from warscribe.schema.registry import record_errors
from warscribe.schema.values import implausible
from warscribe.extract.store import Store
from warscribe.extract.manifest import Source, load_manifest, ranked
from warscribe.extract.sources_merge import ranker
from warscribe.extract.wahapedia import add_export, load_export

READERS = {".txt": read_text, ".html": read_html}


@dataclass
class Result:
    records: list[dict]
    report: Report
    documents: list[Document] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)
    # source name -> how many records cite it (a record from two sources counts for both)
    yields: dict[str, int] = field(default_factory=dict)


def register_reader(suffix: str, reader) -> None:
    """Readers for other formats (HTML ...) plug in here; extraction stays the same."""
    READERS[suffix] = reader


def _no_progress(stage: str, done: int, total: int) -> None:
    pass


def extract(manifest: Path, roots: tuple[Path, ...] = (), limits: Limits | None = None, progress=_no_progress) -> Result:
    """Run every stage on the sources in `manifest` and return validated records.

    `roots`: folders outside the manifest's that its sources may also lie in (see load_manifest).
    `progress(stage, done, total)` is told where the build is (for a progress display).
    """
    limits = limits or Limits()
    report = Report()
    listed = load_manifest(manifest, report, READERS, roots)
    # Sources are read in ranked order (a `rank`, then file name), never the manifest's, so
    # equal sources in any order give the same records. BattleScribe's rule for sources of
    # different kinds that disagree ("the source listed first wins", issue 11) keeps the
    # manifest's order: it gets each source's place in the list.
    sources = ranked(listed)
    place = {id(src): i for i, src in enumerate(listed)}

    # Stage 2: read. A source over a size limit is refused whole (reported), not cut.
    documents: list[Document] = []
    exports = []
    bsdata = []
    apps: list[list[app.AppFile]] = []
    manuals = []
    for n, src in enumerate(sources):
        progress("read", n, len(sources))
        prov_name = src.name
        if src.entry["kind"] == "wahapedia-csv":
            exports.append(load_export(src.path, battlescribe.cited_name(prov_name), src.entry["ruleset"], report, limits))
            continue
        if src.entry["kind"] == "app-json":
            apps.append(app.load(src.path, battlescribe.cited_name(prov_name), src.entry["ruleset"], report))
            continue
        if src.entry["kind"] == "field-manual":
            manuals.append(fieldmanual.load(src.path, battlescribe.cited_name(prov_name), report))
            continue
        if src.entry["kind"] == "battlescribe":
            # XML data (a folder or an archive), read by its own bounded reader.
            bsdata += battlescribe.load(src.path, prov_name, src.entry["ruleset"], place[id(src)], src.entry.get("files"),
                                        report)
            continue
        if limits.source_too_large(report, prov_name, src.path.stat().st_size):
            continue
        data = src.path.read_bytes()
        if src.path.suffix != ".html" and limits.long_line(report, prov_name, data):
            continue
        reader = READERS[src.path.suffix]
        doc = reader(prov_name, data, src.entry["ruleset"], src.entry["kind"], src.entry, report)
        if doc is not None and src.path.suffix == ".html":
            # A page's markup may be one long line; its text lines are what is limited.
            long = next((ln for ln in doc.lines if limits.too_long(len(ln.text))), None)
            if long is not None:
                limits.report_line(report, prov_name, long.no, len(long.text), long.text)
                doc = None
        if doc is not None:
            defects.rebuild_tables(doc, report)
            documents.append(doc)

    # Stage 3: parse; stage 4: link. Pages first: their headings name what extracts repeat.
    store = Store(report, {d.path: i for i, d in enumerate(documents)})
    linker = Linker(report, store)
    for n, doc in enumerate(documents):
        progress("parse", n, len(documents))
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
    # The export over the pages: a value of the better `rank` is kept; of two unranked
    # sources the page's, whatever the manifest's order.
    rank_of = ranker({battlescribe.cited_name(src.name): src.entry.get("rank", 1001) for src in listed})
    for n, export in enumerate(exports):
        progress("parse: Wahapedia export", n, len(exports))
        add_export(store, export, report, rank_of)
    # Ranked sources first (by `rank`), the unranked after them in the manifest's order.
    by_rank = sorted(listed, key=lambda src: src.entry.get("rank", 1001))
    place_of = ranker({battlescribe.cited_name(s.name): i for i, s in enumerate(by_rank)})
    for n, files in enumerate(apps):
        # The app's records meet the store's as BattleScribe's do: by id, else by faction and name.
        progress("parse: the app's data", n, len(apps))
        add_records(store, app.read(files, report), place_of, report)
    if bsdata:
        # The whole game's data takes seconds here; the line must not stay on the last page.
        progress("parse: BattleScribe data", 0, 1)
        battlescribe.add_to_store(store, bsdata, by_rank, report)
    for n, manual in enumerate(manuals):
        # Points, Detachment Points and attachment lists over every unit the other sources gave.
        progress("parse: the Field Manual", n, len(manuals))
        fieldmanual.apply(store, manual, place_of, report)
    progress("link", 0, 1)
    records = store.finish()
    # Sources print only the Leader's side of an attachment (the app, BattleScribe) or both (the
    # pages): every unit a Leader's list names is led by it, whichever source gave the list.
    derive_led_by(records)
    annotations.apply(manifest, records, report)
    _resolve_references(records, report)
    report_number_collisions(report, records)
    defects.scan(documents, report)
    progress("compile", 0, 1)

    # Stage 4b: compile rules text into keyword expressions and effects.
    records = compile_records(records)
    # Every text of every record, whatever its source, made safe to write and to show.
    clean_records(records, report)

    # Stage 5: validate. A record that fails its schema is reported and not written.
    valid, rejected = [], []
    for n, rec in enumerate(records):
        progress("validate", n, len(records))
        errors = record_errors(rec)
        if errors:
            src = (rec.get("source") or [{"file": "(no source)", "first_line": 1}])[0]
            for path, message in errors:
                report.error(src["file"], src["first_line"], "schema", f"{rec['id']}: {path}: {message}; record not written",
                             expected=f"a valid {rec['kind']} record", found=path)
            rejected.append(rec)
        else:
            valid.append(rec)
            if rec["kind"] == "weapon":
                _warn_implausible(rec, report)

    for doc in documents:
        for ln in doc.unaccounted():
            report.warning(doc.path, ln.no, "unaccounted-line", "line not used by any record nor classified",
                           expected="a record's line or an ignorable line", found=ln.text, column=ln.col)
    yields = records_per_source(valid, sources)
    _report_empty_sources(yields, report)
    return Result(valid, report, documents, sources, rejected, yields)


def records_per_source(records: list[dict], sources: list[Source]) -> dict[str, int]:
    """How many records cite each source: a page by its name, an archive's or folder's files by '<source>/...'."""
    # A page outside the project keeps its climbed name ('../../sources/x.txt') in provenance; an archive's
    # files are cited by its file name.
    names = {**{s.name: s.name for s in sources}, **{battlescribe.cited_name(s.name): s.name for s in sources}}
    counts = {s.name: 0 for s in sources}
    for rec in records:
        cited = set()
        for prov in rec.get("source") or ():
            file = prov.get("file", "")
            while file and file not in names:
                file = file.rpartition("/")[0]
            if file:
                cited.add(names[file])
        for name in cited:
            counts[name] += 1
    return counts


def _report_empty_sources(yields: dict[str, int], report: Report) -> None:
    """A source that gives no record is an error, unless an error about it already says why."""
    explained = {d.file for d in report.errors}
    for name, count in yields.items():
        if count == 0 and not any(f == name or f.startswith(name + "/") for f in explained):
            report.error(name, 1, "no-records", f"{name} yields no records; the build holds nothing from it",
                         expected="records (datasheets, rules, ...) read from the source",
                         found="no record, and no error saying why")


def _warn_implausible(weapon: dict, report: Report) -> None:
    src = weapon["source"][0]
    for field, why in implausible(weapon):
        report.warning(src["file"], src["first_line"], "implausible-characteristic",
                       f"{weapon['id']}: {why}; the calculator will refuse it",
                       expected="a characteristic a datasheet prints", found=f"{field}: {weapon[field]}")


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
    """Per source: physical lines, each counted once.

    A run-on line is split into pieces; the line counts as unaccounted when any piece is
    (lost text is never hidden by a used neighbour), else as used when any piece is used by
    a record, else under the class of its first piece.
    """
    uses: dict[int, list[str | None]] = {}
    for ln in doc.lines:
        uses.setdefault(ln.no, []).append(ln.use)
    counts: dict[str, int] = {}
    used = unaccounted = 0
    for pieces in uses.values():
        if any(u is None for u in pieces):
            unaccounted += 1
        elif any(not u.startswith("class:") for u in pieces):
            used += 1
        else:
            cls = pieces[0][6:]
            counts[cls] = counts.get(cls, 0) + 1
    return {"lines": doc.raw_line_count, "used_by_records": used,
            "classified": dict(sorted(counts.items())), "unaccounted": unaccounted}
