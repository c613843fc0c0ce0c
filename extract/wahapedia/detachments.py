"""Stratagems, enhancements and detachments, from the export's rows."""

from __future__ import annotations

import re

from warscribe.extract.html import fragment_text
from warscribe.extract.stratagem_text import DESIGNER, stratagem_fields
from warscribe.extract.wahapedia.common import Rows, Sighting
from warscribe.extract.wahapedia.tables import Row
from warscribe.schema import ids, records
from warscribe.schema.values import parse_int

_CATEGORY = re.compile(r"\b(Battle Tactic|Strategic Ploy|Epic Deed|Wargear)\b")
_RESTRICTION = re.compile(r"^(?P<restr>[^.]*?\bmodel only\.)\s*(?P<text>.*)$", re.S)


class DetachmentRows(Rows):
    """Stratagems.csv, Enhancements.csv, Detachments.csv and Detachment_abilities.csv into records."""

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
                mentions=self.mentions(r, "description", text))
            out.append(Sighting(record, [r]))
        return out

    def _stratagem_text(self, row: Row) -> tuple[dict, str | None]:
        fields, flavour, stray = stratagem_fields(fragment_text(row["description"]).split("\n"))
        for text in ([flavour] if flavour else []) + stray:
            row.error(self.report, "stratagem-text", "description", "text before WHEN:", expected="WHEN: ...",
                      found=text, level="warning")
        return fields, fields.pop("designer_note", None)

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
                mentions=self.mentions(r, "description", text or ""))
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
                mentions = self.mentions(r, "description", rule["text"])
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
