"""The record store: records by id, with provenance merged across sources.

A record seen in several places (the Boarding Actions stratagems on both pages, a
rule passage in an extract and on a page) is one record with every provenance.
When two sightings disagree, the first is kept and the disagreement reported; sources
are read in their ranked order (``extract.manifest.ranked``: by ``rank``, then file
name), so which one is first never depends on the order of the manifest's entries.
"""

from __future__ import annotations

from warscribe.schema.diagnostics import Report
from warscribe.extract import provenance
from warscribe.extract.lines import Document, Line
from warscribe.schema import records
from warscribe.schema.text import norm

# Fields that differ between sightings without making them different records.
_IDENTITY_IGNORED = {"source", "ruleset"}


def _comparable(value):
    if isinstance(value, str):
        return norm(value)
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items() if k not in _IDENTITY_IGNORED}
    return value


class Store:
    def __init__(self, report: Report, source_order: dict[str, int]):
        self.records: dict[str, dict] = {}
        self._seen: dict[str, set[tuple]] = {}
        self.report = report
        self.order = source_order

    def get(self, record_id: str) -> dict | None:
        return self.records.get(record_id)

    def add(self, record: dict, doc: Document, lines: list[Line], merge=None) -> dict:
        """Add a record seen at `lines` of `doc`; merge with an earlier sighting of its id.

        `merge(old, new)` may combine the two (e.g. a rule printed twice with different
        parts); without it, sightings must agree except for provenance.
        """
        rid = record["id"]
        provs = provenance.from_lines(doc, lines)
        prov = provs[0]
        for ln in lines:
            ln.mark(rid)
        existing = self.records.get(rid)
        if existing is None:
            record["source"] = provs
            self.records[rid] = record
            return record
        if merge is not None:
            merge(existing, record)
        else:
            old = {k: _comparable(v) for k, v in existing.items() if k not in _IDENTITY_IGNORED}
            new = {k: _comparable(v) for k, v in record.items() if k not in _IDENTITY_IGNORED}
            if old != new:
                diff = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
                first = existing["source"][0]
                self.report.warning(doc.path, prov["first_line"], "conflicting-duplicate",
                                    f"{rid} differs from its sighting at {first['file']}:{first['first_line']} "
                                    f"in {', '.join(diff)}; the first is kept",
                                    expected="the same text", found=", ".join(diff))
        self.add_provenance(existing, provs)
        return existing

    def add_provenance(self, record: dict, provs: list[dict]) -> None:
        # Exact repeats are common (one passage matched by several lines); overlaps are
        # folded later by _merge_spans, so a set of exact keys is enough here.
        seen = self._seen.setdefault(record["id"], {provenance.key(e) for e in record["source"]})
        for prov in provs:
            if provenance.key(prov) not in seen:
                seen.add(provenance.key(prov))
                record["source"].append(prov)

    def finish(self) -> list[dict]:
        """Records in a deterministic order, provenance in ranked source order, spans merged."""
        out = []
        for rid in sorted(self.records):
            rec = self.records[rid]
            if not rec.get("source"):  # a reader's bug, not the data's: validation rejects it, located
                out.append(rec)
                continue
            rec["source"] = provenance.merge_spans(sorted(rec["source"], key=lambda p: (self.order.get(p["file"], 99), p["first_line"], p["last_line"])))
            rec["ruleset"] = rec["source"][0]["ruleset"] if "fields" not in rec["source"][0] else rec["ruleset"]
            seen_under = sorted({p["ruleset"] for p in rec["source"]} | {rec["ruleset"]})
            if len(seen_under) > 1:
                # Said, not chosen: one text printed under both editions (Boarding Actions).
                rec = records.with_rulesets(rec, seen_under)
            out.append(rec)
        return out
