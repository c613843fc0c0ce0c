"""What building records from the export's rows shares: the tables, look-ups, sightings."""

from __future__ import annotations

from dataclasses import dataclass, field

from warscribe.extract import provenance
from warscribe.extract.html import fragment_text
from warscribe.extract.wahapedia.tables import Row, Table
from warscribe.schema import records
from warscribe.schema.abilities import find_mentions
from warscribe.schema.diagnostics import Report


@dataclass
class Sighting:
    """A record from the export with where each part of it came from."""

    record: dict
    rows: list[Row]  # the main rows (provenance without 'fields')
    parts: list[tuple[list[str], list[Row]]] = field(default_factory=list)  # (fields, rows)

    def source(self, ruleset: str) -> list[dict]:
        """Provenance of the whole record: its main rows, then each part's rows with its fields."""
        return provenance.from_rows(self.rows, ruleset) + [
            p for fields, rows in self.parts for p in provenance.from_rows(rows, ruleset, fields)]


class Rows:
    """The tables of one export with the look-ups every kind of record needs."""

    def __init__(self, tables: dict[str, Table], ruleset: str, report: Report):
        self.t = tables
        self.ruleset = ruleset
        self.report = report
        self.factions = {r["id"]: r for r in self.rows("Factions.csv")}
        self.abilities = {r["id"]: r for r in self.rows("Abilities.csv")}
        self.detachments: dict[str, dict] = {}  # detachment id -> {name, faction_id, rows}
        self.names: dict[str, str] = {}  # datasheet id -> name

    def rows(self, name: str) -> list[Row]:
        table = self.t.get(name)
        return table.rows if table else []

    def by_datasheet(self, name: str, key: str = "datasheet_id") -> dict[str, list[Row]]:
        out: dict[str, list[Row]] = {}
        for r in self.rows(name):
            out.setdefault(r[key], []).append(r)
        return out

    def faction(self, row: Row, column: str = "faction_id") -> str | None:
        fid = row[column]
        fac = self.factions.get(fid)
        if fac is None:
            if fid:
                row.error(self.report, "unknown-reference", column, f"faction {fid!r} is not in Factions.csv",
                          expected="an id of Factions.csv")
            return None
        return fragment_text(fac["name"])

    def mentions(self, row: Row, column: str, text: str) -> list[dict]:
        """The abilities `text` names (OMIT if none); a misspelt one is reported at its row."""
        mentions, problems = find_mentions(text)
        for p in problems:
            row.error(self.report, "scraping-typo", column, f"ability {p.text!r}: {p.message}",
                      expected="[ABILITY] as printed in weapon profiles", found=p.text, level="warning")
        return mentions or records.OMIT
