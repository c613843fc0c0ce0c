"""Keyword records: one per keyword the datasheets carry (Datasheets_keywords.csv)."""

from __future__ import annotations

from warscribe.extract.wahapedia.common import Rows, Sighting
from warscribe.extract.wahapedia.datasheets import keyword_of
from warscribe.extract.wahapedia.tables import Row, true
from warscribe.schema import ids, records


class KeywordRows(Rows):
    def keyword_records(self, datasheet_ids: dict[str, str]) -> list[Sighting]:
        """A record per keyword (upper case), listing the datasheets that carry it, sourced at every
        row that gives it; `datasheet_ids`: Wahapedia datasheet id -> record id, of the datasheets made."""
        rows: dict[str, list[Row]] = {}
        for r in self.rows("Datasheets_keywords.csv"):
            if r["datasheet_id"] not in datasheet_ids:
                continue  # reported with the datasheet
            kw = keyword_of(r)
            if not kw:
                r.error(self.report, "empty-field", "keyword", "an empty keyword; row skipped",
                        expected="a keyword", found="nothing", level="warning")
                continue
            rows.setdefault(kw, []).append(r)
        out = []
        for kw, given in sorted(rows.items()):
            record = records.keyword(
                id=ids.keyword(self.ruleset, kw), name=kw, ruleset=self.ruleset,
                faction_keyword=any(true(r["is_faction_keyword"]) for r in given),
                datasheets=sorted({datasheet_ids[r["datasheet_id"]] for r in given}), usage=[])
            out.append(Sighting(record, given))
        return out
