"""Rows of the export into records (through the schema's constructors), and into the build's store."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from warscribe.extract.limits import Limits

from warscribe.extract import provenance
from warscribe.extract.html import fragment_text
from warscribe.extract.wahapedia.common import Sighting
from warscribe.extract.wahapedia.datasheets import DatasheetRows
from warscribe.extract.wahapedia.detachments import DetachmentRows
from warscribe.extract.wahapedia.tables import read_export
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm


class _Builder(DatasheetRows, DetachmentRows):
    """Every kind of record the export gives."""


@dataclass
class Export:
    display: str
    ruleset: str
    sightings: list[Sighting]

    def records(self) -> list[dict]:
        """The records with their provenance (``source``), in a stable order."""
        out = []
        for s in self.sightings:
            rec = dict(s.record)
            rec["source"] = s.source(self.ruleset)
            out.append(rec)
        return out


def load_export(folder: Path, display: str, ruleset: str, report: Report, limits: Limits | None = None) -> Export:
    """Read an export folder into records (the rest still loads when a table is malformed)."""
    tables = read_export(folder, display, report, limits or Limits())
    b = _Builder(tables, ruleset, report)
    for r in b.rows("Detachments.csv"):
        b.detachments[r["id"]] = {"name": fragment_text(r["name"]), "faction_id": r["faction_id"], "rows": [r]}
    sightings = b.datasheets()
    stratagems = b.stratagems()
    enhancements = b.enhancements()
    sightings += stratagems + enhancements + b.detachment_records(stratagems, enhancements)
    seen: dict[str, Sighting] = {}
    unique = []
    for s in sightings:
        rid = s.record["id"]
        if rid in seen:
            s.rows[0].error(report, "duplicate-id", "name", f"{rid} is given twice; the first is kept",
                            expected="one row per record", found=s.record["name"], level="warning")
            continue
        seen[rid] = s
        unique.append(s)
    return Export(display, ruleset, unique)


def add_export(store, export: Export, report: Report) -> None:
    """Merge an export's records into the build's store.

    A record the store lacks is added whole. A record it has keeps its fields; a field
    it lacks (model characteristics, which text pages do not print) is added, and the
    export's provenance entry for it says ``fields: [...]``. A field both give
    differently is reported and the first kept.
    """
    for s in export.sightings:
        rid = s.record["id"]
        existing = store.get(rid)
        if existing is None:
            rec = dict(s.record)
            rec["source"] = s.source(export.ruleset)
            store.records[rid] = rec
            continue
        added = [k for k in s.record if k not in existing]
        differing = sorted(k for k in s.record if k in existing and k not in ("source", "ruleset")
                           and not _agrees(existing[k], s.record[k]))
        if differing:
            first = existing["source"][0]
            row = s.rows[0]
            report.warning(row.file, row.line, "conflicting-duplicate",
                           f"{rid} differs from its sighting at {first['file']}:{first['first_line']} in "
                           f"{', '.join(differing)}; the first is kept", expected="the same values",
                           found=", ".join(differing))
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
        store.add_provenance(existing, entries)


def _agrees(old, new) -> bool:
    """`new` says nothing against `old`: a mapping may lack keys the export has no column for."""
    if isinstance(old, str) and isinstance(new, str):
        return norm(old) == norm(new)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_agrees(o, n) for o, n in zip(old, new))
    if isinstance(old, dict) and isinstance(new, dict):
        return all(k in old and _agrees(old[k], v) for k, v in new.items() if k not in ("source", "ruleset"))
    return old == new
