"""The Wahapedia CSV export, both ways: a folder of pipe-separated tables <-> our records.

The export is a folder of ``Name.csv`` files: UTF-8 (a byte-order mark is allowed),
``|`` between fields and after the last one, a header row, no quoting, HTML inside text
fields and newlines inside fields. Columns are found by their header name, never by
position: the set and order of columns changed between editions. docs/formats.md
lists which columns become which record fields.

Reading gives the same records the text pages give (datasheets with their weapons,
stratagems, detachments, enhancements), plus what the text pages lack: model
characteristics. :func:`add_export` merges them into the build's store; a field the
store's record lacks is added, and the provenance entry for it names the fields.

A malformed table costs its own rows, not the export: every problem is reported with
the file, the row, the line it starts on and the column.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from warscribe.schema.abilities import find_mentions, parse_ability_list
from warscribe.schema.diagnostics import Report
from warscribe.extract.blocks import stratagem_fields
from warscribe.extract.html import fragment_text
from warscribe.schema.text import norm, slugify
from warscribe.schema.values import parse_ap, parse_dice, parse_inches, parse_int, parse_plus, parse_range, parse_skill

SEPARATOR = "|"
BOM = "\ufeff"

# Columns a table must have to be read at all; other columns are used when present.
REQUIRED = {
    "Factions.csv": ["id", "name"],
    "Datasheets.csv": ["id", "name", "faction_id"],
    "Datasheets_models.csv": ["datasheet_id", "line", "name", "M", "T", "Sv", "W", "Ld", "OC"],
    "Datasheets_wargear.csv": ["datasheet_id", "line", "name", "description", "range", "type", "A", "BS_WS", "S",
                               "AP", "D"],
    "Datasheets_keywords.csv": ["datasheet_id", "keyword", "is_faction_keyword"],
    "Datasheets_abilities.csv": ["datasheet_id", "line", "ability_id", "name", "description", "type"],
    "Datasheets_options.csv": ["datasheet_id", "line", "description"],
    "Datasheets_unit_composition.csv": ["datasheet_id", "line", "description"],
    "Datasheets_models_cost.csv": ["datasheet_id", "line", "description", "cost"],
    "Datasheets_leader.csv": ["leader_id", "attached_id"],
    "Abilities.csv": ["id", "name", "description"],
    "Stratagems.csv": ["faction_id", "name", "id", "type", "cp_cost", "legend", "detachment", "description"],
    "Enhancements.csv": ["faction_id", "name", "id", "cost", "detachment", "description"],
    "Detachment_abilities.csv": ["id", "faction_id", "name", "legend", "description", "detachment"],
    "Detachments.csv": ["id", "faction_id", "name"],
}
# Without these there is nothing to read; the others may be absent from an export.
ESSENTIAL = ("Factions.csv", "Datasheets.csv")

# Columns written, per file, in the 11th-edition layout (a superset of the 10th's).
LAYOUT = {
    "Factions.csv": ["id", "name", "link"],
    "Source.csv": ["id", "name", "type", "edition", "version", "errata_date", "errata_link"],
    "Last_update.csv": ["last_update"],
    "Datasheets.csv": ["id", "name", "faction_id", "source_id", "legend", "role", "loadout", "transport", "virtual",
                       "is_support", "leader_head", "leader_footer", "damaged_w", "damaged_description", "link"],
    "Datasheets_models.csv": ["datasheet_id", "line", "name", "M", "T", "Sv", "inv_sv", "inv_sv_descr", "W", "Ld", "OC",
                              "base_size", "base_size_descr"],
    "Datasheets_wargear.csv": ["datasheet_id", "line", "line_in_wargear", "dice", "name", "description", "range",
                               "type", "A", "BS_WS", "S", "AP", "D"],
    "Datasheets_keywords.csv": ["datasheet_id", "keyword", "model", "is_faction_keyword"],
    "Datasheets_abilities.csv": ["datasheet_id", "line", "ability_id", "model", "name", "description", "type",
                                 "parameter"],
    "Datasheets_options.csv": ["datasheet_id", "line", "button", "description"],
    "Datasheets_unit_composition.csv": ["datasheet_id", "line", "description"],
    "Datasheets_models_cost.csv": ["datasheet_id", "line", "description", "cost"],
    "Datasheets_leader.csv": ["leader_id", "attached_id"],
    "Datasheets_stratagems.csv": ["datasheet_id", "stratagem_id"],
    "Datasheets_enhancements.csv": ["datasheet_id", "enhancement_id"],
    "Datasheets_detachment_abilities.csv": ["datasheet_id", "detachment_ability_id"],
    "Abilities.csv": ["id", "name", "legend", "faction_id", "description"],
    "Stratagems.csv": ["faction_id", "name", "id", "type", "cp_cost", "legend", "turn", "phase", "detachment",
                       "detachment_id", "description"],
    "Enhancements.csv": ["faction_id", "name", "id", "cost", "detachment", "detachment_id", "upgrade", "legend",
                         "description", "support_leader"],
    "Detachment_abilities.csv": ["id", "faction_id", "name", "legend", "description", "detachment", "detachment_id"],
    "Detachments.csv": ["id", "faction_id", "name", "legend", "type", "dp", "force_disposition"],
}

_CATEGORY = re.compile(r"\b(Battle Tactic|Strategic Ploy|Epic Deed|Wargear)\b")
_DESIGNER = re.compile(r"^Designer[’']s Note:\s*(?P<text>.*)$", re.S)
_COMPOSITION = re.compile(r"^(?P<min>\d+)(?:\s*-\s*(?P<max>\d+))?\s+(?P<name>\S.*)$")
_MODELS = re.compile(r"^(?P<n>\d+)\s+models?$", re.I)
_RESTRICTION = re.compile(r"^(?P<restr>[^.]*?\bmodel only\.)\s*(?P<text>.*)$", re.S)


def folder_sha256(folder: Path) -> str:
    """Checksum of an export folder: ``cd DIR && LC_ALL=C sha256sum * | sha256sum``.

    That is the sha256 of the lines '<sha256 of file>  <name>\\n' for every regular,
    non-hidden file directly in the folder, in byte order of the names.
    """
    lines = []
    for path in sorted((p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")),
                       key=lambda p: p.name.encode()):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


# -- reading tables ---------------------------------------------------------------------

@dataclass
class Row:
    file: str  # as reported: '<folder>/<Name>.csv'
    number: int  # data row, 1-based (the header is row 0)
    line: int  # physical line the row starts on
    last_line: int
    values: dict[str, str]
    columns: list[str]

    def __getitem__(self, column: str) -> str:
        return self.values.get(column, "")

    def col(self, column: str) -> int:
        return self.columns.index(column) + 1 if column in self.columns else 0

    def error(self, report: Report, code: str, column: str, message: str, expected: str = "", found: str = "",
              level: str = "error") -> None:
        where = f"{Path(self.file).name} row {self.number}, column {column!r}: "
        getattr(report, level)(self.file, self.line, code, where + message, expected=expected,
                               found=found if found else self[column], column=self.col(column))


@dataclass
class Table:
    name: str
    file: str
    columns: list[str]
    rows: list[Row] = field(default_factory=list)


def read_table(folder: Path, name: str, display: str, report: Report) -> Table | None:
    """One file of the export; None (reported) if it is absent, undecodable as a table or lacks a column."""
    path = folder / name
    file = f"{display}/{name}"
    if not path.is_file():
        if name in ESSENTIAL:
            report.error(file, 1, "missing-file", f"the export has no {name}", expected=name, found="nothing")
        return None
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        report.error(file, line, "bad-encoding", f"{name} is not valid UTF-8 (byte {col} of line {line}); "
                     "undecodable bytes replaced, rows with them reported",
                     expected="UTF-8 text", found=repr(data[exc.start:exc.start + 8]))
        text = data.decode("utf-8", errors="replace")
    text = text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")
    physical = text.split("\n")
    header = physical[0]
    if SEPARATOR not in header:
        counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
        found = max(counts, key=counts.get) if any(counts.values()) else "no separator"
        report.error(file, 1, "wrong-separator", f"{name} row 0 (header): columns are not separated by '|'; file not read",
                     expected="'|' between columns and after the last", found=repr(found) + " in " + header[:80],
                     column=1)
        return None
    columns = [c.strip() for c in header.split(SEPARATOR)]
    if columns and columns[-1] == "":
        columns.pop()
    missing = [c for c in REQUIRED.get(name, []) if c not in columns]
    if missing:
        for c in missing:
            report.error(file, 1, "missing-column", f"{name} row 0 (header): column {c!r} is missing; file not read",
                         expected=", ".join(REQUIRED[name]), found=", ".join(columns), column=len(columns) + 1)
        return None
    table = Table(name, file, columns)
    _rows(table, physical, report)
    return table


def _rows(table: Table, physical: list[str], report: Report) -> None:
    n = len(table.columns)
    buf: list[str] = []
    start = 0
    number = 0

    def complete(piece: str) -> bool:
        return piece.count(SEPARATOR) >= n and piece.rstrip().endswith(SEPARATOR)

    def emit(lines: list[str], first: int) -> None:
        nonlocal number
        number += 1
        joined = "\n".join(lines)
        parts = joined.split(SEPARATOR)
        row = Row(table.file, number, first, first + len(lines) - 1, {}, table.columns)
        if joined.rstrip().endswith(SEPARATOR):
            parts = parts[:-1]
        if len(parts) > n:
            extra = len(parts) - n
            row.values = dict(zip(table.columns, (p.strip() for p in parts)))
            report.error(table.file, first, "too-many-fields",
                         f"{table.name} row {number}: {len(parts)} fields for {n} columns "
                         f"(first extra at column {n + 1}); row skipped",
                         expected=f"{n} fields: {', '.join(table.columns)}",
                         found=f"{extra} more: " + SEPARATOR.join(parts[n:])[:80], column=n + 1)
            return
        if len(parts) < n:
            report.error(table.file, first, "too-few-fields",
                         f"{table.name} row {number}: {len(parts)} fields for {n} columns "
                         f"(column {table.columns[len(parts)]!r} and after missing); row skipped",
                         expected=f"{n} fields: {', '.join(table.columns)}", found=joined[:80],
                         column=len(parts) + 1)
            return
        row.values = {c: p.strip() for c, p in zip(table.columns, parts)}
        for c, v in row.values.items():
            if "\ufffd" in v:
                row.error(report, "bad-encoding", c, "text is not valid UTF-8; undecodable bytes replaced",
                          expected="UTF-8 text")
        table.rows.append(row)

    for index, line in enumerate(physical[1:], start=2):
        if not buf:
            if not line.strip():
                continue
            start = index
        elif complete(line) and line.count(SEPARATOR) == n:
            # The next line is a whole row by itself: what came before was cut short.
            emit(buf, start)
            buf, start = [], index
        buf.append(line)
        if complete("\n".join(buf)):
            emit(buf, start)
            buf = []
    if buf:
        emit(buf, start)


def read_export(folder: Path, display: str, report: Report) -> dict[str, Table]:
    tables = {}
    for name in REQUIRED:
        table = read_table(folder, name, display, report)
        if table is not None:
            tables[name] = table
    known = set(REQUIRED) | set(LAYOUT)
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.suffix == ".csv" and path.name not in known:
                report.warning(f"{display}/{path.name}", 1, "unknown-table", f"{path.name} is not a table of the export; ignored",
                               expected=", ".join(sorted(known)), found=path.name)
    return tables


def _true(raw: str) -> bool:
    return raw.strip().lower() in ("true", "1", "yes")


def _line_key(row: Row) -> tuple:
    def num(v: str) -> tuple:
        v = v.strip()
        return (0, int(v), "") if v.isdigit() else (1, 0, v)
    return (num(row["line"]), num(row["line_in_wargear"]), row.number)


# -- tables into records --------------------------------------------------------------------

@dataclass
class Sighting:
    """A record from the export with where each part of it came from."""

    record: dict
    rows: list[Row]  # the main rows (provenance without 'fields')
    parts: list[tuple[list[str], list[Row]]] = field(default_factory=list)  # (fields, rows)


def _prov(rows: list[Row], ruleset: str, fields: list[str] | None = None) -> list[dict]:
    by_file: dict[str, list[Row]] = {}
    for r in rows:
        by_file.setdefault(r.file, []).append(r)
    out = []
    for file, rs in by_file.items():
        entry = {"file": file, "first_line": min(r.line for r in rs), "last_line": max(r.last_line for r in rs),
                 "ruleset": ruleset}
        if fields:
            entry["fields"] = fields
        out.append(entry)
    return out


class _Builder:
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

    # -- datasheets --------------------------------------------------------------------

    def datasheets(self) -> list[Sighting]:
        out = []
        models = self.by_datasheet("Datasheets_models.csv")
        wargear = self.by_datasheet("Datasheets_wargear.csv")
        keywords = self.by_datasheet("Datasheets_keywords.csv")
        abilities = self.by_datasheet("Datasheets_abilities.csv")
        options = self.by_datasheet("Datasheets_options.csv")
        composition = self.by_datasheet("Datasheets_unit_composition.csv")
        costs = self.by_datasheet("Datasheets_models_cost.csv")
        leads = self.by_datasheet("Datasheets_leader.csv", "leader_id")
        led = self.by_datasheet("Datasheets_leader.csv", "attached_id")
        for r in self.rows("Datasheets.csv"):
            self.names[r["id"]] = fragment_text(r["name"])
        for r in self.rows("Datasheets.csv"):
            faction = self.faction(r)
            if faction is None:
                r.error(self.report, "unknown-reference", "faction_id", "datasheet without a known faction; skipped",
                        expected="an id of Factions.csv")
                continue
            name = self.names[r["id"]]
            ds_id = f"{slugify(faction)}/{slugify(name)}"
            weapons = self.weapons(ds_id, wargear.get(r["id"], []))
            record = {
                "id": ds_id, "kind": "datasheet", "name": name, "ruleset": self.ruleset, "faction": faction,
                "keywords": self.keywords(keywords.get(r["id"], []), False),
                "faction_keywords": self.keywords(keywords.get(r["id"], []), True),
                "composition": self.composition(composition.get(r["id"], [])),
                "points": self.points(costs.get(r["id"], [])),
                "abilities": self.datasheet_abilities(faction, abilities.get(r["id"], [])),
                "weapons": [w.record["id"] for w in weapons],
                "wargear_options": self.options(options.get(r["id"], [])),
            }
            rows = [r] + keywords.get(r["id"], []) + composition.get(r["id"], []) + costs.get(r["id"], []) \
                + abilities.get(r["id"], []) + options.get(r["id"], [])
            if r["leader_head"] or leads.get(r["id"]):
                record["leader"] = {"text": fragment_text(r["leader_head"]),
                                    "units": [self.names.get(x["attached_id"], x["attached_id"]) for x in leads.get(r["id"], [])]}
            if led.get(r["id"]):
                record["led_by"] = {"text": "This unit can be led by the following units:",
                                    "units": [self.names.get(x["leader_id"], x["leader_id"]) for x in led[r["id"]]]}
            sighting = Sighting(record, rows)
            model_rows = models.get(r["id"], [])
            profiles = self.models(model_rows)
            if profiles:
                record["models"] = profiles
                sighting.parts.append((["models"], model_rows))
            out.append(sighting)
            out.extend(weapons)
        return out

    def keywords(self, rows: list[Row], faction: bool) -> list[str]:
        out: list[str] = []
        for r in rows:
            if _true(r["is_faction_keyword"]) != faction:
                continue
            kw = re.sub(r"\s+", " ", fragment_text(r["keyword"])).upper()
            if kw and kw not in out:
                out.append(kw)
        return out

    def composition(self, rows: list[Row]) -> list[dict]:
        out = []
        for r in sorted(rows, key=_line_key):
            for text in fragment_text(r["description"]).split("\n"):
                text = text.strip().removeprefix("- ").strip()
                if not text:
                    continue
                m = _COMPOSITION.match(text)
                if not m:
                    r.error(self.report, "bad-composition", "description", "not a model count; line skipped",
                            expected="'1 Paragon' or '3-9 Paladins'", found=text, level="warning")
                    continue
                lo = int(m.group("min"))
                out.append({"name": m.group("name").strip(), "min": lo, "max": int(m.group("max") or lo)})
        return out

    def points(self, rows: list[Row]) -> list[dict]:
        out = []
        condition = None
        for r in sorted(rows, key=_line_key):
            label = fragment_text(r["description"])
            cost = r["cost"].strip()
            if not cost:
                # A header row mixed into the cost table: the condition for the rows below,
                # or the table's own title.
                if label.upper() != "YOUR UNIT COSTS":
                    condition = label or None
                continue
            m = _MODELS.match(label)
            try:
                if not m:
                    raise ValueError(f"description {label!r} is not 'N models'")
                out.append({"models": int(m.group("n")), "points": parse_int(cost, "cost"), "condition": condition})
            except ValueError as exc:
                column = "cost" if m else "description"
                r.error(self.report, "bad-cost", column, f"{exc}; row skipped", expected="'5 models' | '225'")
        return out

    def datasheet_abilities(self, faction: str, rows: list[Row]) -> list[dict]:
        out = []
        for r in sorted(rows, key=_line_key):
            ref_row = self.abilities.get(r["ability_id"]) if r["ability_id"] else None
            if r["ability_id"] and ref_row is None:
                r.error(self.report, "unknown-reference", "ability_id", "ability is not in Abilities.csv",
                        expected="an id of Abilities.csv", level="warning")
            name = fragment_text(r["name"] or (ref_row["name"] if ref_row else ""))
            if r["parameter"]:
                name = f"{name} {r['parameter'].strip()}"
            kind = r["type"].strip().lower()
            kind = kind if kind in ("core", "faction", "wargear") else "datasheet"
            if not name:
                r.error(self.report, "bad-ability", "name", "ability without a name; skipped", expected="a name")
                continue
            psychic = bool(re.search(r"\s*\(Psychic\)$", name))
            name = re.sub(r"\s*\(Psychic\)$", "", name)
            text = fragment_text(r["description"]) or None
            ability: dict = {"name": name, "type": kind, "text": text}
            if ref_row is not None and kind == "core":
                ability["ref"] = f"{self.ruleset}/abilities/{slugify(name)}"
            elif ref_row is not None and kind == "faction":
                ability["ref"] = f"{slugify(faction)}/abilities/{slugify(name)}"
            if psychic:
                ability["psychic"] = True
            out.append(ability)
        return out

    def options(self, rows: list[Row]) -> list[dict]:
        out: list[dict] = []
        for r in sorted(rows, key=_line_key):
            text = fragment_text(r["description"])
            items = [x for x in re.split(r"\n+", text) if x.strip()]
            if not items:
                continue
            option = {"text": items[0].removeprefix("- ")}
            choices = [x[2:].strip() for x in items[1:] if x.startswith("- ")]
            if choices:
                option["choices"] = choices
            rest = [x for x in items[1:] if not x.startswith("- ")]
            if rest:
                option["text"] = "\n".join([option["text"]] + rest)
            out.append(option)
        return out

    def models(self, rows: list[Row]) -> list[dict]:
        out = []
        for r in sorted(rows, key=_line_key):
            try:
                values = {
                    "name": fragment_text(r["name"]),
                    "M": parse_inches(r["M"], "M"), "T": parse_int(r["T"], "T"), "Sv": parse_plus(r["Sv"], "Sv"),
                    "invulnerable": parse_plus(r["inv_sv"], "inv_sv", allow_none=True),
                    "W": parse_int(r["W"], "W"), "Ld": parse_plus(r["Ld"], "Ld", allow_none=True),
                    "OC": parse_plus(r["OC"], "OC", allow_none=True),
                }
            except ValueError as exc:
                column = str(exc).split(" ", 1)[0]
                r.error(self.report, "bad-characteristic", column, f"{exc}; model skipped",
                        expected="M 6\", T 4, Sv 3+, W 2, Ld 6+, OC 1")
                continue
            if r["inv_sv_descr"]:
                values["invulnerable_text"] = fragment_text(r["inv_sv_descr"])
            if r["base_size"]:
                values["base_size"] = fragment_text(r["base_size"])
            out.append(values)
        return out

    def weapons(self, ds_id: str, rows: list[Row]) -> list[Sighting]:
        out = []
        for r in sorted(rows, key=_line_key):
            name = re.sub(r"^[➤►>\s]+", "", fragment_text(r["name"]))
            if not name:
                r.error(self.report, "bad-weapon-row", "name", "weapon without a name; skipped", expected="a name")
                continue
            abilities, problems = parse_ability_list(fragment_text(r["description"]))
            for p in problems:
                r.error(self.report, "weapon-ability", "description", p.message, expected="a known weapon ability",
                        found=p.text, level="warning")
            kind = r["type"].strip().lower()
            if kind not in ("ranged", "melee"):
                r.error(self.report, "bad-weapon-value", "type", "weapon type is neither Ranged nor Melee; skipped",
                        expected="Ranged or Melee")
                continue
            record = {"id": f"{ds_id}/{slugify(name)}", "kind": "weapon", "name": name, "ruleset": self.ruleset,
                      "datasheet": ds_id, "type": kind}
            try:
                column = "range"
                record["range"] = parse_range(r["range"])
                column = "A"
                record["attacks"] = parse_dice(r["A"], "A")
                column = "BS_WS"
                record["skill"] = parse_skill(r["BS_WS"])
                column = "S"
                record["strength"] = parse_dice(r["S"], "S")
                column = "AP"
                record["ap"] = parse_ap(r["AP"])
                column = "D"
                record["damage"] = parse_dice(r["D"], "D")
            except ValueError as exc:
                r.error(self.report, "bad-weapon-value", column, f"weapon {name!r}: {exc}; skipped",
                        expected="range, A, BS/WS, S, AP, D values")
                continue
            record["abilities"] = abilities
            out.append(Sighting(record, [r]))
        return out

    # -- detachments, stratagems, enhancements -------------------------------------------

    def detachment_of(self, row: Row) -> tuple[str | None, str | None]:
        """(detachment id in the export, detachment name) of a stratagem/enhancement/rule row."""
        did = row["detachment_id"]
        name = fragment_text(row["detachment"])
        if did and did in self.detachments:
            name = self.detachments[did]["name"]
        if not name:
            return None, None
        key = did or f"name:{name}"
        entry = self.detachments.setdefault(key, {"name": name, "faction_id": row["faction_id"], "rows": []})
        if not entry["faction_id"]:
            entry["faction_id"] = row["faction_id"]
        return key, name

    def stratagem_prefix(self, row: Row) -> tuple[str, str | None, str] | None:
        kind = fragment_text(row["type"])
        key, det = self.detachment_of(row)
        if det is None:
            if kind.lower().startswith("boarding actions"):
                return "boarding-actions", None, "boarding-actions"
            return "core", None, f"core-{self.ruleset}"
        faction = self.faction(row)
        if faction is None:
            row.error(self.report, "unknown-reference", "faction_id", "detachment stratagem without a known faction; skipped",
                      expected="an id of Factions.csv")
            return None
        det_id = f"{slugify(faction)}/{slugify(det)}"
        return "detachment", det_id, det_id

    def stratagems(self) -> list[Sighting]:
        out = []
        for r in self.rows("Stratagems.csv"):
            name = fragment_text(r["name"])
            where = self.stratagem_prefix(r)
            if where is None or not name:
                continue
            origin, det_id, prefix = where
            try:
                cp = parse_int(r["cp_cost"].upper().removesuffix("CP"), "cp_cost")
            except ValueError as exc:
                r.error(self.report, "bad-stratagem", "cp_cost", f"{exc}; stratagem skipped", expected="1, 2 ...")
                continue
            category = _CATEGORY.search(fragment_text(r["type"]))
            record = {"id": f"{prefix}/{slugify(name)}", "kind": "stratagem", "name": name, "ruleset": self.ruleset,
                      "cp": cp, "category": category.group(1) if category else None, "origin": origin,
                      "detachment": det_id, "when": None, "target": None, "effect": None, "restrictions": None,
                      "flavour": fragment_text(r["legend"]) or None}
            fields, note = self._stratagem_text(r)
            record.update(fields)
            if note:
                record["designer_note"] = note
            for key in ("when", "target", "effect"):
                if record[key] is None:
                    r.error(self.report, "stratagem-text", "description", f"stratagem {name} has no {key.upper()}:",
                            expected=f"<b>{key.upper()}:</b> ...", found="nothing", level="warning")
            text = " ".join(v for v in (record["when"], record["target"], record["effect"], record["restrictions"]) if v)
            self._mentions(r, "description", record, text)
            out.append(Sighting(record, [r]))
        return out

    def _stratagem_text(self, row: Row) -> tuple[dict, str | None]:
        fields, flavour, stray = stratagem_fields(fragment_text(row["description"]).split("\n"))
        for text in ([flavour] if flavour else []) + stray:
            row.error(self.report, "stratagem-text", "description", "text before WHEN:", expected="WHEN: ...",
                      found=text, level="warning")
        return fields, fields.pop("designer_note", None)

    def _mentions(self, row: Row, column: str, record: dict, text: str) -> None:
        mentions, problems = find_mentions(text)
        if mentions:
            record["mentions"] = mentions
        for p in problems:
            row.error(self.report, "scraping-typo", column, f"ability {p.text!r}: {p.message}",
                      expected="[ABILITY] as printed in weapon profiles", found=p.text, level="warning")

    def enhancements(self) -> list[Sighting]:
        out = []
        for r in self.rows("Enhancements.csv"):
            name = fragment_text(r["name"])
            _key, det = self.detachment_of(r)
            faction = self.faction(r)
            if faction is None or not name:
                r.error(self.report, "unknown-reference", "faction_id", "enhancement without a known faction; skipped",
                        expected="an id of Factions.csv")
                continue
            det_id = f"{slugify(faction)}/{slugify(det)}" if det else None
            try:
                cost = parse_int(r["cost"], "cost")
            except ValueError as exc:
                r.error(self.report, "bad-cost", "cost", f"{exc}; enhancement skipped", expected="points")
                continue
            text = fragment_text(r["description"])
            m = _RESTRICTION.match(text)
            record = {"id": f"{det_id or slugify(faction)}/enhancements/{slugify(name)}", "kind": "enhancement",
                      "name": name, "ruleset": self.ruleset, "detachment": det_id, "points": cost,
                      "text": (m.group("text") if m else text) or None, "restriction": m.group("restr") if m else None}
            if r["legend"]:
                record["flavour"] = fragment_text(r["legend"])
            self._mentions(r, "description", record, record["text"] or "")
            out.append(Sighting(record, [r]))
        return out

    def detachment_records(self, stratagems: list[Sighting], enhancements: list[Sighting]) -> list[Sighting]:
        rules: dict[str, list[Row]] = {}
        for r in self.rows("Detachment_abilities.csv"):
            key, _det = self.detachment_of(r)
            if key:
                rules.setdefault(key, []).append(r)
        out = []
        for key, entry in sorted(self.detachments.items(), key=lambda kv: kv[1]["name"]):
            fac = self.factions.get(entry["faction_id"])
            if fac is None:
                continue
            faction = fragment_text(fac["name"])
            det_id = f"{slugify(faction)}/{slugify(entry['name'])}"
            rule = None
            rows = list(entry["rows"])
            for i, r in enumerate(rules.get(key, [])):
                if i:
                    r.error(self.report, "extra-detachment-rule", "name", "a second rule for one detachment; ignored",
                            expected="one rule per detachment", level="warning")
                    continue
                rule = {"name": fragment_text(r["name"])}
                if r["legend"]:
                    rule["flavour"] = fragment_text(r["legend"])
                paragraphs = fragment_text(r["description"]).split("\n\n")
                notes = [p for p in paragraphs if _DESIGNER.match(p)]
                rule["text"] = "\n\n".join(p for p in paragraphs if p not in notes)
                if notes:
                    rule["designer_note"] = _DESIGNER.match(notes[0]).group("text").strip()
                self._mentions(r, "description", rule, rule["text"])
                rows.append(r)
            record = {"id": det_id, "kind": "detachment", "name": entry["name"], "ruleset": self.ruleset,
                      "faction": faction, "rule": rule,
                      "stratagems": sorted(s.record["id"] for s in stratagems if s.record["detachment"] == det_id),
                      "enhancements": sorted(e.record["id"] for e in enhancements if e.record["detachment"] == det_id)}
            if not rows:
                rows = [s.rows[0] for s in stratagems + enhancements if s.record["detachment"] == det_id][:1]
            out.append(Sighting(record, rows))
        return out


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
            rec["source"] = _prov(s.rows, self.ruleset) + [p for fields, rows in s.parts
                                                            for p in _prov(rows, self.ruleset, fields)]
            out.append(rec)
        return out


def load_export(folder: Path, display: str, ruleset: str, report: Report) -> Export:
    """Read an export folder into records (the rest still loads when a table is malformed)."""
    tables = read_export(folder, display, report)
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
            rec["source"] = _prov(s.rows, export.ruleset) + [p for fields, rows in s.parts
                                                              for p in _prov(rows, export.ruleset, fields)]
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
        entries = _prov(s.rows, export.ruleset)
        uncovered = [k for k in added if k not in covered]
        if uncovered:
            entries += _prov(s.rows, export.ruleset, uncovered)
        for fields, rows in s.parts:
            if set(fields) <= set(added):
                entries += _prov(rows, export.ruleset, fields)
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


# -- writing ------------------------------------------------------------------------------

def _cell(value) -> str:
    """A text as an HTML field: escaped, line breaks as <br>, '|' as an entity."""
    if value is None:
        return ""
    text = html.escape(str(value), quote=False).replace("|", "&#124;")
    return text.replace("\r", "").replace("\n", "<br>")


def _write(out: Path, name: str, rows: list[dict]) -> None:
    columns = LAYOUT[name]
    lines = [SEPARATOR.join(columns) + SEPARATOR]
    for row in rows:
        lines.append(SEPARATOR.join(str(row.get(c, "")) for c in columns) + SEPARATOR)
    (out / name).write_bytes((BOM + "\r\n".join(lines) + "\r\n").encode("utf-8"))


EDITIONS = {"10e": "10th", "11e": "11th"}


def write_export(records: list[dict], out: Path) -> None:
    """Write records as a Wahapedia-style export (the 11th-edition layout) into `out`.

    An export holds one edition, as the site's do: records of one ruleset are written
    into `out` itself; records of several into `out/10e/`, `out/11e/` ... Ids are made
    from our record ids, so the same records give byte-identical files. Only what the
    format carries is written: datasheets with their weapons, models, abilities,
    options, composition and costs; stratagems, enhancements, detachments.
    """
    rulesets = sorted({r["ruleset"] for r in records})
    out.mkdir(parents=True, exist_ok=True)
    if len(rulesets) <= 1:
        _write_edition(records, out, rulesets[0] if rulesets else "")
        return
    for old in out.glob("*.csv"):
        old.unlink()
    for ruleset in rulesets:
        _write_edition([r for r in records if r["ruleset"] == ruleset], out / ruleset, ruleset)


def _write_edition(records: list[dict], out: Path, ruleset: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.csv"):
        old.unlink()
    by_kind: dict[str, list[dict]] = {}
    for rec in sorted(records, key=lambda r: r["id"]):
        by_kind.setdefault(rec["kind"], []).append(rec)
    factions: dict[str, str] = {}
    for rec in by_kind.get("datasheet", []) + by_kind.get("detachment", []):
        factions[slugify(rec["faction"])] = rec["faction"]
    det_faction = {d["id"]: slugify(d["faction"]) for d in by_kind.get("detachment", [])}
    det_name = {d["id"]: d["name"] for d in by_kind.get("detachment", [])}
    weapons = {w["id"]: w for w in by_kind.get("weapon", [])}
    ds_ids = {d["id"]: f"{i:09d}" for i, d in enumerate(by_kind.get("datasheet", []), start=1)}
    ds_by_name = {d["name"]: ds_ids[d["id"]] for d in by_kind.get("datasheet", [])}
    t: dict[str, list[dict]] = {name: [] for name in LAYOUT}
    # No date in Last_update.csv: the same records must give the same bytes.
    t["Source.csv"] = [{"id": "1", "name": "Warscribe knowledge base", "type": "Export",
                        "edition": EDITIONS.get(ruleset, ruleset)}]
    abilities_seen: dict[tuple[str, str], str] = {}
    for ds in by_kind.get("datasheet", []):
        did = ds_ids[ds["id"]]
        t["Datasheets.csv"].append({"id": did, "name": _cell(ds["name"]), "faction_id": slugify(ds["faction"]),
                                    "source_id": "1", "virtual": "false", "is_support": "false",
                                    "leader_head": _cell((ds.get("leader") or {}).get("text"))})
        for n, m in enumerate(ds.get("models", []), start=1):
            t["Datasheets_models.csv"].append({
                "datasheet_id": did, "line": n, "name": _cell(m["name"]),
                "M": "-" if m.get("M") is None else f'{m["M"]}"', "T": m.get("T", ""), "Sv": f'{m["Sv"]}+',
                "inv_sv": "-" if m.get("invulnerable") is None else f'{m["invulnerable"]}+',
                "inv_sv_descr": _cell(m.get("invulnerable_text")), "W": m.get("W", ""),
                "Ld": "-" if m.get("Ld") is None else f'{m["Ld"]}+', "OC": "-" if m.get("OC") is None else m["OC"],
                "base_size": _cell(m.get("base_size"))})
        for n, wid in enumerate(ds["weapons"], start=1):
            w = weapons.get(wid)
            if w is None:
                continue
            t["Datasheets_wargear.csv"].append({
                "datasheet_id": did, "line": n, "line_in_wargear": 1, "name": _cell(w["name"]),
                "description": _cell(", ".join(a["text"].strip("[]") for a in w["abilities"])),
                "range": "Melee" if w["range"] is None else f'{w["range"]}"', "type": w["type"].capitalize(),
                "A": w["attacks"], "BS_WS": "N/A" if w["skill"] is None else f'{w["skill"]}+', "S": w["strength"],
                "AP": w["ap"], "D": w["damage"]})
        for kw in ds["keywords"]:
            t["Datasheets_keywords.csv"].append({"datasheet_id": did, "keyword": _cell(kw), "is_faction_keyword": "false"})
        for kw in ds["faction_keywords"]:
            t["Datasheets_keywords.csv"].append({"datasheet_id": did, "keyword": _cell(kw), "is_faction_keyword": "true"})
        for n, a in enumerate(ds["abilities"], start=1):
            name = a["name"] + (" (Psychic)" if a.get("psychic") else "")
            row = {"datasheet_id": did, "line": n, "type": a["type"].capitalize(), "description": _cell(a["text"])}
            if a.get("ref"):
                key = (a["ref"], a["name"])
                if key not in abilities_seen:
                    abilities_seen[key] = f"{len(abilities_seen) + 1:06d}"
                    t["Abilities.csv"].append({"id": abilities_seen[key], "name": _cell(a["name"]),
                                               "faction_id": "" if a["type"] == "core" else slugify(ds["faction"])})
                row["ability_id"] = abilities_seen[key]
            else:
                row["name"] = _cell(name)
            t["Datasheets_abilities.csv"].append(row)
        for n, o in enumerate(ds["wargear_options"], start=1):
            text = _cell(o["text"]) + ("<ul>" + "".join(f"<li>{_cell(c)}</li>" for c in o["choices"]) + "</ul>"
                                       if o.get("choices") else "")
            t["Datasheets_options.csv"].append({"datasheet_id": did, "line": n, "button": "", "description": text})
        for n, c in enumerate(ds["composition"], start=1):
            count = str(c["min"]) if c["min"] == c["max"] else f'{c["min"]}-{c["max"]}'
            t["Datasheets_unit_composition.csv"].append({"datasheet_id": did, "line": n,
                                                         "description": _cell(f'{count} {c["name"]}')})
        n = 0
        condition = None
        for p in ds["points"]:
            if p["condition"] != condition:
                condition = p["condition"]
                n += 1
                t["Datasheets_models_cost.csv"].append({"datasheet_id": did, "line": n,
                                                        "description": _cell(condition or "YOUR UNIT COSTS"), "cost": ""})
            n += 1
            t["Datasheets_models_cost.csv"].append({"datasheet_id": did, "line": n,
                                                    "description": f'{p["models"]} model{"s" if p["models"] != 1 else ""}',
                                                    "cost": p["points"]})
        for key in ("leader", "led_by"):
            for unit in (ds.get(key) or {}).get("units", []):
                other = ds_by_name.get(unit)
                if other:
                    pair = (did, other) if key == "leader" else (other, did)
                    t["Datasheets_leader.csv"].append({"leader_id": pair[0], "attached_id": pair[1]})
    det_ids = {d["id"]: f"{i:06d}" for i, d in enumerate(by_kind.get("detachment", []), start=1)}
    for d in by_kind.get("detachment", []):
        t["Detachments.csv"].append({"id": det_ids[d["id"]], "faction_id": slugify(d["faction"]), "name": _cell(d["name"])})
        if d.get("rule"):
            t["Detachment_abilities.csv"].append({
                "id": det_ids[d["id"]], "faction_id": slugify(d["faction"]), "name": _cell(d["rule"]["name"]),
                "legend": _cell(d["rule"].get("flavour")),
                "description": _cell(d["rule"]["text"] + (f"\n\nDesigner’s Note: {d['rule']['designer_note']}"
                                                          if d["rule"].get("designer_note") else "")),
                "detachment": _cell(d["name"]), "detachment_id": det_ids[d["id"]]})
    for n, s in enumerate(by_kind.get("stratagem", []), start=1):
        det = s.get("detachment")
        label = {"core": "Core", "boarding-actions": "Boarding Actions"}.get(s["origin"], det_name.get(det, ""))
        kind = " – ".join(x for x in (label, s.get("category")) if x) + " Stratagem"
        parts = [f"<b>{k.upper()}:</b> {_cell(s[k])}" for k in ("when", "target", "effect", "restrictions") if s.get(k)]
        if s.get("designer_note"):
            parts.append(f"<b>Designer’s Note:</b> {_cell(s['designer_note'])}")
        t["Stratagems.csv"].append({
            "faction_id": det_faction.get(det, ""), "name": _cell(s["name"]), "id": f"{n:06d}", "type": _cell(kind),
            "cp_cost": s["cp"], "legend": _cell(s.get("flavour")), "detachment": _cell(det_name.get(det, "")),
            "detachment_id": det_ids.get(det, ""), "description": "<br><br>".join(parts)})
    for n, e in enumerate(by_kind.get("enhancement", []), start=1):
        det = e.get("detachment")
        faction = det_faction.get(det) or slugify(e["id"].split("/")[0])
        text = " ".join(x for x in (e.get("restriction"), e.get("text")) if x)
        t["Enhancements.csv"].append({
            "faction_id": faction, "name": _cell(e["name"]), "id": f"{n:06d}", "cost": e["points"],
            "detachment": _cell(det_name.get(det, "")), "detachment_id": det_ids.get(det, ""),
            "legend": _cell(e.get("flavour")), "description": _cell(text)})
    t["Factions.csv"] = [{"id": fid, "name": _cell(name)} for fid, name in sorted(factions.items())]
    for name, rows in t.items():
        _write(out, name, rows)
