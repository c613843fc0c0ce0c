"""Rows of the export into records (through the schema's constructors), and into the build's store."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from warscribe.extract import provenance
from warscribe.extract.html import fragment_text
from warscribe.extract.stratagem_text import DESIGNER, stratagem_fields
from warscribe.extract.wahapedia.tables import Row, Table, line_key, read_export, true
from warscribe.schema import ids, records
from warscribe.schema.abilities import find_mentions, parse_ability_list
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm
from warscribe.schema.values import parse_ap, parse_dice, parse_inches, parse_int, parse_plus, parse_range, parse_skill

_CATEGORY = re.compile(r"\b(Battle Tactic|Strategic Ploy|Epic Deed|Wargear)\b")
_COMPOSITION = re.compile(r"^(?P<min>\d+)(?:\s*-\s*(?P<max>\d+))?\s+(?P<name>\S.*)$")
_MODELS = re.compile(r"^(?P<n>\d+)\s+models?$", re.I)
_RESTRICTION = re.compile(r"^(?P<restr>[^.]*?\bmodel only\.)\s*(?P<text>.*)$", re.S)
# Weapon profile: (column, record field, parser), in the order they are checked.
_PROFILE = (("range", "range", parse_range), ("A", "attacks", lambda v: parse_dice(v, "A")),
            ("BS_WS", "skill", parse_skill), ("S", "strength", lambda v: parse_dice(v, "S")),
            ("AP", "ap", parse_ap), ("D", "damage", lambda v: parse_dice(v, "D")))


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
            ds_id = ids.datasheet(faction, name)
            weapons = self.weapons(ds_id, wargear.get(r["id"], []))
            fields = dict(
                keywords=self.keywords(keywords.get(r["id"], []), False),
                faction_keywords=self.keywords(keywords.get(r["id"], []), True),
                composition=self.composition(composition.get(r["id"], [])),
                points=self.points(costs.get(r["id"], [])),
                abilities=self.datasheet_abilities(faction, abilities.get(r["id"], [])),
                weapons=[w.record["id"] for w in weapons],
                wargear_options=self.options(options.get(r["id"], [])),
            )
            rows = [r] + keywords.get(r["id"], []) + composition.get(r["id"], []) + costs.get(r["id"], []) \
                + abilities.get(r["id"], []) + options.get(r["id"], [])
            leader = led_by = records.OMIT
            if r["leader_head"] or leads.get(r["id"]):
                leader = {"text": fragment_text(r["leader_head"]),
                          "units": [self.names.get(x["attached_id"], x["attached_id"]) for x in leads.get(r["id"], [])]}
            if led.get(r["id"]):
                led_by = {"text": "This unit can be led by the following units:",
                          "units": [self.names.get(x["leader_id"], x["leader_id"]) for x in led[r["id"]]]}
            model_rows = models.get(r["id"], [])
            profiles = self.models(model_rows)
            record = records.datasheet(id=ds_id, name=name, ruleset=self.ruleset, faction=faction, **fields,
                                       leader=leader, led_by=led_by, models=profiles or records.OMIT)
            sighting = Sighting(record, rows)
            if profiles:
                sighting.parts.append((["models"], model_rows))
            out.append(sighting)
            out.extend(weapons)
        return out

    def keywords(self, rows: list[Row], faction: bool) -> list[str]:
        out: list[str] = []
        for r in rows:
            if true(r["is_faction_keyword"]) != faction:
                continue
            kw = re.sub(r"\s+", " ", fragment_text(r["keyword"])).upper()
            if kw and kw not in out:
                out.append(kw)
        return out

    def composition(self, rows: list[Row]) -> list[dict]:
        out = []
        for r in sorted(rows, key=line_key):
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
        for r in sorted(rows, key=line_key):
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
        for r in sorted(rows, key=line_key):
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
                ability["ref"] = ids.core_ability(self.ruleset, name)
            elif ref_row is not None and kind == "faction":
                ability["ref"] = ids.faction_ability(faction, name)
            if psychic:
                ability["psychic"] = True
            out.append(ability)
        return out

    def options(self, rows: list[Row]) -> list[dict]:
        out: list[dict] = []
        for r in sorted(rows, key=line_key):
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
        for r in sorted(rows, key=line_key):
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
        for r in sorted(rows, key=line_key):
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
            values = {}
            try:
                for column, field_name, parse in _PROFILE:
                    values[field_name] = parse(r[column])
            except ValueError as exc:
                r.error(self.report, "bad-weapon-value", column, f"weapon {name!r}: {exc}; skipped",
                        expected="range, A, BS/WS, S, AP, D values")
                continue
            record = records.weapon(id=ids.weapon(ds_id, name), name=name, ruleset=self.ruleset, datasheet=ds_id,
                                    type=kind, **values, abilities=abilities)
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

    def stratagem_origin(self, row: Row) -> tuple[str, str | None] | None:
        """(origin, detachment id) of a stratagem row; None (reported) if its faction is unknown."""
        kind = fragment_text(row["type"])
        key, det = self.detachment_of(row)
        if det is None:
            if kind.lower().startswith("boarding actions"):
                return "boarding-actions", None
            return "core", None
        faction = self.faction(row)
        if faction is None:
            row.error(self.report, "unknown-reference", "faction_id", "detachment stratagem without a known faction; skipped",
                      expected="an id of Factions.csv")
            return None
        return "detachment", ids.detachment(faction, det)

    def stratagems(self) -> list[Sighting]:
        out = []
        for r in self.rows("Stratagems.csv"):
            name = fragment_text(r["name"])
            where = self.stratagem_origin(r)
            if where is None or not name:
                continue
            origin, det_id = where
            try:
                cp = parse_int(r["cp_cost"].upper().removesuffix("CP"), "cp_cost")
            except ValueError as exc:
                r.error(self.report, "bad-stratagem", "cp_cost", f"{exc}; stratagem skipped", expected="1, 2 ...")
                continue
            category = _CATEGORY.search(fragment_text(r["type"]))
            parts, note = self._stratagem_text(r)
            text_fields = {key: parts.pop(key, None) for key in ("when", "target", "effect", "restrictions")}
            for label in parts:
                r.error(self.report, "stratagem-text", "description",
                        f"stratagem {name}: {label.upper()}: is not a field of a stratagem record; its text is not kept",
                        expected="WHEN, TARGET, EFFECT, RESTRICTIONS", found=label.upper(), level="warning")
            for key in ("when", "target", "effect"):
                if text_fields[key] is None:
                    r.error(self.report, "stratagem-text", "description", f"stratagem {name} has no {key.upper()}:",
                            expected=f"<b>{key.upper()}:</b> ...", found="nothing", level="warning")
            text = " ".join(v for v in text_fields.values() if v)
            record = records.stratagem(
                id=ids.stratagem(origin, self.ruleset, name, det_id), name=name, ruleset=self.ruleset, cp=cp,
                category=category.group(1) if category else None, origin=origin, detachment=det_id, **text_fields,
                flavour=fragment_text(r["legend"]) or None, designer_note=note or records.OMIT,
                mentions=self._mentions(r, "description", text))
            out.append(Sighting(record, [r]))
        return out

    def _stratagem_text(self, row: Row) -> tuple[dict, str | None]:
        fields, flavour, stray = stratagem_fields(fragment_text(row["description"]).split("\n"))
        for text in ([flavour] if flavour else []) + stray:
            row.error(self.report, "stratagem-text", "description", "text before WHEN:", expected="WHEN: ...",
                      found=text, level="warning")
        return fields, fields.pop("designer_note", None)

    def _mentions(self, row: Row, column: str, text: str) -> list[dict]:
        """The abilities `text` names (OMIT if none); a misspelt one is reported at its row."""
        mentions, problems = find_mentions(text)
        for p in problems:
            row.error(self.report, "scraping-typo", column, f"ability {p.text!r}: {p.message}",
                      expected="[ABILITY] as printed in weapon profiles", found=p.text, level="warning")
        return mentions or records.OMIT

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
            det_id = ids.detachment(faction, det) if det else None
            try:
                cost = parse_int(r["cost"], "cost")
            except ValueError as exc:
                r.error(self.report, "bad-cost", "cost", f"{exc}; enhancement skipped", expected="points")
                continue
            text = fragment_text(r["description"])
            m = _RESTRICTION.match(text)
            text = (m.group("text") if m else text) or None
            record = records.enhancement(
                id=ids.enhancement(name, det_id, faction), name=name, ruleset=self.ruleset, detachment=det_id,
                points=cost, text=text, restriction=m.group("restr") if m else None,
                flavour=fragment_text(r["legend"]) if r["legend"] else records.OMIT,
                mentions=self._mentions(r, "description", text or ""))
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
            det_id = ids.detachment(faction, entry["name"])
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
                notes = [p for p in paragraphs if DESIGNER.match(p)]
                rule["text"] = "\n\n".join(p for p in paragraphs if p not in notes)
                if notes:
                    rule["designer_note"] = DESIGNER.match(notes[0]).group("text").strip()
                mentions = self._mentions(r, "description", rule["text"])
                if mentions:
                    rule["mentions"] = mentions
                rows.append(r)
            record = records.detachment(
                id=det_id, name=entry["name"], ruleset=self.ruleset, faction=faction, rule=rule,
                stratagems=sorted(s.record["id"] for s in stratagems if s.record["detachment"] == det_id),
                enhancements=sorted(e.record["id"] for e in enhancements if e.record["detachment"] == det_id))
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
            rec["source"] = s.source(self.ruleset)
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
