"""What building records from the export's rows shares: the tables, look-ups, sightings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from warscribe.extract import provenance
from warscribe.extract.html import fragment_text
from warscribe.extract.wahapedia.tables import Row, Table
from warscribe.schema import records
from warscribe.schema.abilities import find_mentions
from warscribe.schema.diagnostics import Report

#: The text of a field (HTML read as a page is). The export repeats the same cell thousands
#: of times (a keyword, a weapon's abilities, a faction rule shared by five factions), and
#: reading HTML is the reader's main cost, so each distinct cell is read once.
text = lru_cache(maxsize=1 << 16)(fragment_text)

def without_banner(body: str, name: str, flavour: str) -> str:
    """A rule's text without the banner the rules site prints above it: the rule's name and
    its flavour (a field of its own), which the export repeats at the head of the HTML of
    core abilities (Abilities.csv: FIRING DECK, then the legend, then the rule)."""
    paragraphs = body.split("\n\n")
    folded = {name.casefold().strip(), flavour.strip()} - {""}
    drop = 0
    while drop < min(2, len(paragraphs) - 1) and paragraphs[drop].strip().casefold() in {
            f.casefold() for f in folded}:
        drop += 1
    return "\n\n".join(paragraphs[drop:])


_DATE = re.compile(r"^(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$")


def faction_name(name: str) -> str:
    """A faction's name as the knowledge base writes it: the rules site's name, with a straight
    apostrophe ('T’au Empire' -> "T'au Empire"), as the BattleScribe reader gives it, so that
    the `faction` of a record is the same string from both sources."""
    return text(name).replace("’", "'")


@dataclass
class Sighting:
    """A record from the export with where each part of it came from."""

    record: dict
    rows: list[Row]  # the main rows (provenance without 'fields')
    parts: list[tuple[list[str], list[Row]]] = field(default_factory=list)  # (fields, rows)
    publication: dict | None = None  # Source.csv's publication of the record, where the export says

    def source(self, ruleset: str) -> list[dict]:
        """Provenance of the whole record: its main rows, then each part's rows with its fields.
        The entry of its first row (a datasheet's Datasheets.csv row, a weapon's profile row) says
        the publication it is printed in."""
        entries = provenance.from_rows(self.rows, ruleset)
        if self.publication:
            first = self.rows[0]
            for e in entries:
                if e["file"] == first.file and e["first_line"] <= first.line <= e["last_line"]:
                    e["publication"] = dict(self.publication)
                    break
        return entries + [p for fields, rows in self.parts for p in provenance.from_rows(rows, ruleset, fields)]


class Rows:
    """The tables of one export with the look-ups every kind of record needs."""

    def __init__(self, tables: dict[str, Table], ruleset: str, report: Report):
        self.t = tables
        self.ruleset = ruleset
        self.report = report
        self.factions = {r["id"]: r for r in self.rows("Factions.csv")}
        self.abilities: dict[str, list[Row]] = {}  # Abilities.csv id -> its rows (one per faction)
        for r in self.rows("Abilities.csv"):
            self.abilities.setdefault(r["id"], []).append(r)
        self.detachments: dict[str, dict] = {}  # detachment key -> {name, faction_id, rows}
        self.names: dict[str, str] = {}  # datasheet id -> the datasheet record's name
        self.publications = {r["id"]: r for r in self.rows("Source.csv")}
        self._publication: dict[str, dict | None] = {}

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
        return faction_name(fac["name"])

    def publication(self, row: Row, column: str = "source_id") -> dict | None:
        """The publication (Source.csv) that `row` names: name, type, version, errata date."""
        sid = row[column].strip()
        if not sid:
            return None
        if sid not in self._publication:
            src = self.publications.get(sid)
            if src is None:
                row.error(self.report, "unknown-reference", column, f"publication {sid!r} is not in Source.csv; "
                          "the record is kept without it", expected="an id of Source.csv", level="warning")
                self._publication[sid] = None
            else:
                self._publication[sid] = self._read_publication(src)
        return self._publication[sid]

    def _read_publication(self, src: Row) -> dict:
        out = {"id": src["id"], "name": text(src["name"])}
        for column in ("type", "version"):
            if src[column].strip():
                out[column] = src[column].strip()
        raw = src["errata_date"].strip()
        if raw:
            m = _DATE.match(raw)
            if m:
                out["errata_date"] = f"{m['y']}-{int(m['m']):02d}-{int(m['d']):02d}"
            else:
                src.error(self.report, "bad-date", "errata_date", "not a date; the publication is kept without it",
                          expected="DD.MM.YYYY (as the export writes it)", level="warning")
        return out

    def mentions(self, row: Row, column: str, body: str) -> list[dict]:
        """The abilities `body` names (OMIT if none); a misspelt one is reported at its row."""
        mentions, problems = find_mentions(body)
        for p in problems:
            row.error(self.report, "scraping-typo", column, f"ability {p.text!r}: {p.message}",
                      expected="[ABILITY] as printed in weapon profiles", found=p.text, level="warning")
        return mentions or records.OMIT
