"""Stratagems, enhancements and detachments, from the export's rows."""

from __future__ import annotations

import re

from warscribe.extract.stratagem_text import DESIGNER, stratagem_fields, timing
from warscribe.extract.wahapedia.common import Rows, Sighting, text
from warscribe.extract.wahapedia.tables import Row
from warscribe.schema import ids, records
from warscribe.schema.text import slugify
from warscribe.schema.values import parse_int

_CATEGORY = re.compile(r"\b(Battle Tactic|Strategic Ploy|Epic Deed|Wargear)\b")
_RESTRICTION = re.compile(r"^(?P<restr>[^.]*?\bmodels? only\.)\s*(?P<text>.*)$", re.S)
# The `type` column's first part names where a stratagem without a detachment comes from.
_ORIGINS = (("boarding actions", "boarding-actions"), ("challenger", "challenger"), ("core", "core"))
_TURNS = {"your turn": "your", "opponent's turn": "opponent", "either player's turn": "either"}
_PHASES = ("command", "movement", "shooting", "charge", "fight", "any")
#: The `detachment` of rows that are an army rule's parts, not a detachment's.
ARMY_RULES = "army rules"
_COST = re.compile(r"^\+?\s*(?P<n>\d+)(?:\s*pts)?$", re.I)


def turn_of(raw: str) -> str | None:
    """'Either player’s turn' -> 'either'; None where it is not one of the three."""
    return _TURNS.get(raw.strip().replace("’", "'").lower())


def phases_of(raw: str) -> list[str] | None:
    """'Shooting or Fight phase' -> ['shooting', 'fight']; 'Any phase' -> ['any']; None if unreadable."""
    words = re.split(r"\s*(?:,|\bor\b|\band\b)\s*", re.sub(r"\s+phases?\s*$", "", raw.strip(), flags=re.I).lower())
    out = [w.strip() for w in words if w.strip()]
    return out if out and all(w in _PHASES for w in out) else None


class DetachmentRows(Rows):
    """Stratagems.csv, Enhancements.csv, Detachments.csv and Detachment_abilities.csv into records."""

    def detachment_of(self, row: Row) -> tuple[str | None, str | None]:
        """(detachment key, detachment name) of a stratagem/enhancement/rule row; (None, None) if it names none.

        The key is the detachment's id in the export where it has one (11th edition), else
        its faction and name (the 10th-edition export has no Detachments.csv: a detachment
        is known by the name its rows give, and two factions may have one name).
        """
        did = row["detachment_id"]
        name = text(row["detachment"]).strip()
        if did and did in self.detachments:
            name = self.detachments[did]["name"]
        if not name:
            return None, None
        key = did or f"{row['faction_id']}:{name.casefold()}"
        entry = self.detachments.setdefault(key, {"name": name, "faction_id": row["faction_id"], "rows": [],
                                                  "named_by": []})
        if not entry["faction_id"]:
            entry["faction_id"] = row["faction_id"]
        entry["named_by"].append(row)
        return key, name

    def stratagem_origin(self, row: Row) -> tuple[str, str | None] | None:
        """(origin, detachment id) of a stratagem row; None (reported) if its faction is unknown."""
        kind = text(row["type"])
        key, det = self.detachment_of(row)
        if det is None:
            head = kind.split("–", 1)[0].split(" - ", 1)[0].strip().lower()
            for prefix, origin in _ORIGINS:
                if head.startswith(prefix):
                    return origin, None
            row.error(self.report, "bad-stratagem", "type", f"type {kind!r} names neither a detachment nor core, "
                      "Boarding Actions or Challenger; read as a core stratagem",
                      expected="'Core – Battle Tactic Stratagem' or a detachment", level="warning")
            return "core", None
        faction = self.faction(row)
        if faction is None:
            row.error(self.report, "unknown-reference", "faction_id", "detachment stratagem without a known faction; skipped",
                      expected="an id of Factions.csv")
            return None
        return "detachment", ids.detachment(faction, det)

    def is_army_rule(self, row: Row) -> bool:
        """An army rule's part stored among the stratagems: Aeldari's Agile Manoeuvres (detachment
        'Army Rules', no CP cost, no stratagem type) are the Battle Focus rule's, not stratagems."""
        named = text(row["detachment"]).strip().lower() == ARMY_RULES
        return named or (not row["cp_cost"].strip() and "stratagem" not in row["type"].lower())

    def stratagems(self) -> tuple[list[Sighting], list[Row]]:
        """The stratagem records, and the rows that are army rules' parts (see `army_rule_abilities`)."""
        out, army = [], []
        for r in self.rows("Stratagems.csv"):
            name = text(r["name"])
            if not name:
                r.error(self.report, "bad-stratagem", "name", "stratagem without a name; skipped", expected="a name")
                continue
            if self.is_army_rule(r):
                army.append(r)
                continue
            where = self.stratagem_origin(r)
            if where is None:
                continue
            origin, det_id = where
            try:
                cp = parse_int(r["cp_cost"].upper().removesuffix("CP"), "cp_cost")
            except ValueError as exc:
                r.error(self.report, "bad-stratagem", "cp_cost", f"{exc}; stratagem skipped", expected="1, 2 ...")
                continue
            category = _CATEGORY.search(text(r["type"]))
            parts, note = self._labelled_text(r, "stratagem", name)
            text_fields = {key: parts.pop(key, None) for key in ("when", "target", "effect", "restrictions")}
            for label in parts:
                r.error(self.report, "stratagem-text", "description",
                        f"stratagem {name}: {label.upper()}: is not a field of a stratagem record; its text is not kept",
                        expected="WHEN, TARGET, EFFECT, RESTRICTIONS", found=label.upper(), level="warning")
            for key in ("when", "target", "effect"):
                if text_fields[key] is None:
                    r.error(self.report, "stratagem-text", "description", f"stratagem {name} has no {key.upper()}:",
                            expected=f"<b>{key.upper()}:</b> ...", found="nothing", level="warning")
            body = " ".join(v for v in text_fields.values() if v)
            turn, phases = self._timing(r, name, text_fields["when"])
            record = records.stratagem(
                id=ids.stratagem(origin, self.ruleset, name, det_id), name=name, ruleset=self.ruleset, cp=cp,
                category=category.group(1) if category else None, origin=origin, detachment=det_id,
                turn=turn or records.OMIT, phases=phases or records.OMIT, **text_fields, flavour=text(r["legend"]) or None, designer_note=note or records.OMIT,
                mentions=self.mentions(r, "description", body))
            out.append(Sighting(record, [r]))
        return out, army

    def _timing(self, row: Row, name: str, when: str | None) -> tuple[str | None, list[str] | None]:
        """(turn, phases) from the turn and phase columns; from WHEN where a column is empty.

        Where WHEN plainly says otherwise (another phase, the other player's turn), the
        column is kept and the disagreement reported: the columns are the site's filters,
        WHEN is the rule, and one of them is wrong.
        """
        said_phases, said_turn = timing(when)
        values = []
        for column, read, expected in (("turn", turn_of, "Your turn, Opponent’s turn or Either player’s turn"),
                                       ("phase", phases_of, "'Shooting phase', 'Shooting or Fight phase', 'Any phase'")):
            raw = text(row[column])
            value = read(raw) if raw else None
            if raw and value is None:
                row.error(self.report, "bad-stratagem", column, f"{column} {raw!r} cannot be read; read from WHEN",
                          expected=expected, level="warning")
            values.append(value)
        turn, phases = values
        if phases and said_phases and "any" not in phases + said_phases and not set(phases) & set(said_phases):
            row.error(self.report, "stratagem-mismatch", "phase", f"stratagem {name}: the phase column says "
                      f"{', '.join(phases)}, WHEN says {', '.join(said_phases)}; the column is kept",
                      expected=f"WHEN: {when}", level="warning")
        if turn in ("your", "opponent") and said_turn in ("your", "opponent") and turn != said_turn:
            row.error(self.report, "stratagem-mismatch", "turn", f"stratagem {name}: the turn column says {turn}, "
                      f"WHEN says {said_turn}; the column is kept", expected=f"WHEN: {when}", level="warning")
        return turn or said_turn, phases or said_phases

    def _labelled_text(self, row: Row, what: str, name: str) -> tuple[dict, str | None]:
        lines = text(row["description"]).split("\n")
        fields, flavour, stray = stratagem_fields(lines)
        for piece in ([flavour] if flavour else []) + stray:
            row.error(self.report, "stratagem-text", "description", f"{what} {name}: text before WHEN:",
                      expected="WHEN: ...", found=piece, level="warning")
        return fields, fields.pop("designer_note", None)

    def army_rule_abilities(self, rows: list[Row]) -> list[Sighting]:
        """Army rules' parts (TRIGGER: ... EFFECT: ...) as abilities of their faction."""
        out = []
        for r in rows:
            name = text(r["name"])
            faction = self.faction(r)
            if faction is None:
                r.error(self.report, "unknown-reference", "faction_id", "army rule without a known faction; skipped",
                        expected="an id of Factions.csv")
                continue
            body = text(r["description"])
            if not body:
                r.error(self.report, "empty-field", "description", f"army rule {name} has no text; skipped",
                        expected="TRIGGER: ... EFFECT: ...", level="warning")
                continue
            for column in ("cp_cost", "type", "turn"):
                if r[column].strip():
                    r.error(self.report, "bad-stratagem", column, f"army rule {name}: {column} is not kept "
                            "(an ability has no such field)", expected="empty", level="warning")
            record = records.ability(id=ids.faction_ability(faction, name), name=name, ruleset=self.ruleset,
                                     type="faction", text=body, flavour=text(r["legend"]) or records.OMIT,
                                     mentions=self.mentions(r, "description", body))
            out.append(Sighting(record, [r]))
        return out

    def enhancements(self) -> list[Sighting]:
        out = []
        for r in self.rows("Enhancements.csv"):
            name = text(r["name"])
            _key, det = self.detachment_of(r)
            faction = self.faction(r)
            if faction is None or not name:
                r.error(self.report, "unknown-reference", "faction_id", "enhancement without a known faction; skipped",
                        expected="an id of Factions.csv")
                continue
            det_id = ids.detachment(faction, det) if det else None
            cost = _COST.match(r["cost"].strip())
            if not cost:
                r.error(self.report, "bad-cost", "cost", f"cost {r['cost'].strip()!r} is not points; enhancement skipped",
                        expected="points: '25' or '+25'")
                continue
            body = text(r["description"])
            m = _RESTRICTION.match(body)
            body = (m.group("text") if m else body) or None
            record = records.enhancement(
                id=ids.enhancement(name, det_id, faction), name=name, ruleset=self.ruleset, detachment=det_id,
                points=int(cost["n"]), text=body, restriction=m.group("restr") if m else None,
                flavour=text(r["legend"]) if r["legend"] else records.OMIT,
                mentions=self.mentions(r, "description", body or ""))
            out.append(Sighting(record, [r]))
        return out

    def _rule(self, r: Row) -> dict:
        rule = {"name": text(r["name"])}
        if r["legend"]:
            rule["flavour"] = text(r["legend"])
        paragraphs = text(r["description"]).split("\n\n")
        notes = [p for p in paragraphs if DESIGNER.match(p)]
        rule["text"] = "\n\n".join(p for p in paragraphs if p not in notes)
        if notes:
            rule["designer_note"] = DESIGNER.match(notes[0]).group("text").strip()
        mentions = self.mentions(r, "description", rule["text"])
        if mentions:
            rule["mentions"] = mentions
        return rule

    def detachment_records(self, stratagems: list[Sighting], enhancements: list[Sighting]) -> list[Sighting]:
        rules: dict[str, list[Row]] = {}
        for r in self.rows("Detachment_abilities.csv"):
            key, _det = self.detachment_of(r)
            if key:
                rules.setdefault(key, []).append(r)
            else:
                r.error(self.report, "unknown-reference", "detachment", "detachment rule without a detachment; skipped",
                        expected="the detachment's name")
        by_detachment: dict[str, list[Sighting]] = {}
        for s in stratagems + enhancements:
            if s.record.get("detachment"):
                by_detachment.setdefault(s.record["detachment"], []).append(s)
        out = []
        for key, entry in sorted(self.detachments.items(), key=lambda kv: (kv[1]["name"], kv[0])):
            fac = self.factions.get(entry["faction_id"])
            if fac is None:
                continue  # its rows were reported (unknown faction)
            faction = self.faction(entry["named_by"][0] if entry["named_by"] else entry["rows"][0])
            det_id = ids.detachment(faction, entry["name"])
            own = by_detachment.get(det_id, [])
            rule_rows = rules.get(key, [])
            printed = [self._rule(r) for r in rule_rows]
            strats = sorted(s.record["id"] for s in own if s.record["kind"] == "stratagem")
            enh = sorted(s.record["id"] for s in own if s.record["kind"] == "enhancement")
            record = records.detachment(
                id=det_id, name=entry["name"], ruleset=self.ruleset, faction=faction,
                rule=printed[0] if printed else None, additional_rules=printed[1:] or records.OMIT,
                stratagems=list(dict.fromkeys(strats)), enhancements=list(dict.fromkeys(enh)))
            rows = list(entry["rows"]) + rule_rows
            if not rows:
                rows = entry["named_by"][:1]
            sighting = Sighting(record, rows)
            for field_name, kind in (("stratagems", "stratagem"), ("enhancements", "enhancement")):
                part = [s.rows[0] for s in own if s.record["kind"] == kind]
                if part:
                    sighting.parts.append(([field_name], part))
            out.append(sighting)
        return out

    def title_publications(self, sightings: list[Sighting]) -> set[str]:
        """Give the detachment-level sightings the publication whose title names their detachment.

        The export's stratagems, enhancements and detachment rules name no publication, but
        Source.csv titles the releases of one detachment after it ('Grotmas Calendar: Adeptus
        Custodes - Solar Spearhead', 'Orks - More Dakka!'), and Boarding Actions after itself:
        those sightings get that publication, marked ``by: title``. Returns the ids of the
        publications given.
        """
        detachments: dict[str, list[dict]] = {}
        for s in sightings:
            if s.record["kind"] == "detachment":
                detachments.setdefault(slugify(s.record["name"]), []).append(s.record)
        chosen: dict[str, dict] = {}  # detachment id (or 'boarding-actions') -> publication
        for src in self.rows("Source.csv"):
            title = text(src["name"])
            head, _, tail = title.rpartition(" - ")
            if not head and slugify(title) == "boarding-actions":
                chosen["boarding-actions"] = src
                continue
            matches = detachments.get(slugify(tail), []) if head else []
            if len(matches) > 1:
                matches = [d for d in matches if slugify(d["faction"]) in slugify(head)]
            if len(matches) == 1:
                chosen[matches[0]["id"]] = src
        given: set[str] = set()
        for s in sightings:
            rec = s.record
            key = rec["id"] if rec["kind"] == "detachment" else rec.get("detachment") or (
                "boarding-actions" if rec.get("origin") == "boarding-actions" else None)
            src = chosen.get(key) if key else None
            if src is not None and s.publication is None:
                s.publication = dict(self._read_publication(src), by="title")
                given.add(src["id"])
        return given

