"""Rows of the export into records (through the schema's constructors), and into the build's store."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from warscribe.extract.limits import Limits

from warscribe.extract import provenance
from warscribe.extract.sources_compare import COMPARED, merge_fields
from warscribe.extract.sources_merge import note_agreement
from warscribe.extract.wahapedia.abilities import AbilityRows
from warscribe.extract.wahapedia.common import Sighting, text
from warscribe.extract.wahapedia.datasheets import DatasheetRows
from warscribe.extract.wahapedia.detachments import DetachmentRows
from warscribe.extract.wahapedia.keywords import KeywordRows
from warscribe.extract.wahapedia.tables import read_export
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm


class _Builder(DatasheetRows, DetachmentRows, AbilityRows, KeywordRows):
    """Every kind of record the export gives."""


@dataclass
class Export:
    display: str
    ruleset: str
    sightings: list[Sighting]
    files: list[str] = field(default_factory=list)  # the tables read, as cited, in the order read

    def records(self) -> list[dict]:
        """The records with their provenance (``source``), in a stable order."""
        out = []
        for s in self.sightings:
            rec = dict(s.record)
            rec["source"] = s.source(self.ruleset)
            out.append(rec)
        return out


def load_export(path: Path, display: str, ruleset: str, report: Report, limits: Limits | None = None) -> Export:
    """Read an export (a folder, or an archive of one) into records; a malformed table costs its own rows."""
    tables = read_export(path, display, report, limits or Limits())
    b = _Builder(tables, ruleset, report)
    for r in b.rows("Detachments.csv"):
        b.detachments[r["id"]] = {"name": text(r["name"]), "faction_id": r["faction_id"], "rows": [r], "named_by": []}
    sightings = b.datasheets()
    stratagems, army_rules = b.stratagems()
    enhancements = b.enhancements()
    sightings += stratagems + enhancements + b.detachment_records(stratagems, enhancements)
    sightings += b.ability_records() + b.army_rule_abilities(army_rules)
    made = {ds_id: s.record["id"] for ds_id, s in _datasheets_by_row(sightings).items()}
    sightings += b.keyword_records(made)
    named = {r["source_id"].strip() for r in b.rows("Datasheets.csv")} | b.title_publications(sightings)
    for r in b.rows("Source.csv"):
        if r["id"] not in named:
            r.error(report, "unused-publication", "name", f"{text(r['name'])} is named by no row and titles no "
                    "detachment; it is on no record's provenance", expected="a publication a row names",
                    level="warning")
    return Export(display, ruleset, _one_per_id(sightings, report), [t.file for t in tables.values()])


def _datasheets_by_row(sightings: list[Sighting]) -> dict[str, Sighting]:
    """Wahapedia datasheet id -> its datasheet sighting (the first row of a datasheet is its Datasheets.csv row)."""
    return {s.rows[0]["id"]: s for s in sightings if s.record["kind"] == "datasheet"}


def _one_per_id(sightings: list[Sighting], report: Report) -> list[Sighting]:
    """One sighting per record id. Rows that give the same record again (NEW ORDERS in three
    mission packs) add their rows to its provenance; rows that give it differently are
    reported with the fields that differ, and the first is kept."""
    seen: dict[str, Sighting] = {}
    unique = []
    for s in sightings:
        rid = s.record["id"]
        first = seen.get(rid)
        if first is None:
            seen[rid] = s
            unique.append(s)
            continue
        differing = sorted(k for k in set(first.record) | set(s.record)
                           if k != "source" and first.record.get(k) != s.record.get(k))
        row, was = s.rows[0], first.rows[0]
        if differing:
            row.error(report, "conflicting-duplicate", "name",
                      f"{rid} is given again, differently in {', '.join(differing)}, by row {row.number} "
                      f"(first: {Path(was.file).name} row {was.number}); the first is kept",
                      expected="one row per record", found=s.record["name"], level="warning")
            continue
        first.rows.extend(s.rows)
        first.parts.extend(s.parts)
    return unique


def add_export(store, export: Export, report: Report, rank_of=None) -> None:
    """Merge an export's records into the build's store.

    A record the store lacks is added whole. A record it has (a datasheet page of the
    same unit) gains the fields it lacks (model characteristics, which text pages do not
    print), and the export's provenance entry for them says ``fields: [...]``. A compared
    field both give (points, keywords, weapons' profiles: ``extract/sources_compare.py``)
    goes through the ranked merge: the better-ranked source's value is kept (`rank_of(file)`,
    lower first; of equal ranks, or without it, the store's), a real difference is a ``source-disagreement``
    and the provenance entries say which fields agree and which differ. Any other field
    both give differently (a text worded otherwise) is reported and the first kept.
    """
    for file in export.files:  # provenance lists the export's tables in the order they are read
        store.order.setdefault(file, len(store.order))
    for s in export.sightings:
        rid = s.record["id"]
        existing = store.get(rid)
        if existing is None:
            rec = dict(s.record)
            rec["source"] = s.source(export.ruleset)
            store.records[rid] = rec
            continue
        unsaid = _NO_COLUMN.get(s.record["kind"], ())
        if s.record["kind"] == "keyword":  # the datasheets carrying it: every source's
            existing["datasheets"] = sorted(set(existing["datasheets"]) | set(s.record["datasheets"]))
            unsaid = (*unsaid, "datasheets")
        added = [k for k in s.record if k not in existing and k not in unsaid]
        compared = COMPARED.get(s.record["kind"], ())
        differing = sorted(k for k in s.record if k in existing and k not in ("source", "ruleset") and k not in unsaid
                           and k not in compared and not _agrees(existing[k], s.record[k]))
        first = existing["source"][0]
        row = s.rows[0]
        if differing:
            report.warning(row.file, row.line, "conflicting-duplicate",
                           f"{rid} differs from its sighting at {first['file']}:{first['first_line']} in "
                           f"{', '.join(differing)}; the first is kept", expected="the same values",
                           found=", ".join(differing))
        here = {"file": row.file, "first_line": row.line, "last_line": row.line, "ruleset": export.ruleset}
        ours_first = rank_of is not None and rank_of(row.file) < rank_of(first["file"])
        outcome = merge_fields(existing, s.record, first, here, ours_first, report)
        for k in added:
            existing[k] = s.record[k]
        existing["source"] = existing.pop("source")  # provenance stays the last field
        covered = {f for fields, _rows in s.parts for f in fields}
        entries = provenance.from_rows(s.rows, export.ruleset)
        uncovered = [k for k in added if k not in covered]
        if uncovered:
            entries += provenance.from_rows(s.rows, export.ruleset, uncovered)
        for fields, rows in s.parts:
            if set(fields) <= set(added):
                entries += provenance.from_rows(rows, export.ruleset, fields)
        if outcome.agree or outcome.differ:
            if ours_first:  # the record's first source gave the values now replaced
                existing["source"][0] = note_agreement(first, outcome.agree, outcome.differ)
            else:
                entries[0] = note_agreement(entries[0], outcome.agree, outcome.differ)
        store.add_provenance(existing, entries)


# Fields of a record from the export that the export has no column for (their value is empty).
_NO_COLUMN = {"keyword": ("usage",)}


def _agrees(old, new) -> bool:
    """`new` says nothing against `old`: a mapping may lack keys the export has no column for."""
    if isinstance(old, str) and isinstance(new, str):
        return norm(old) == norm(new)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_agrees(o, n) for o, n in zip(old, new))
    if isinstance(old, dict) and isinstance(new, dict):
        return all(k in old and _agrees(old[k], v) for k, v in new.items() if k not in ("source", "ruleset"))
    return old == new
