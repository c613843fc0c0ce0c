"""Records as a Wahapedia-style CSV export (the 11th-edition layout), for ``warscribe export``.

Every cell is written through :func:`~warscribe.schema.text.spreadsheet_cell`: a text that a
spreadsheet would run as a formula (beginning with = + - @, tab or CR) gets a leading
apostrophe, numbers (AP ``-1``, a cost ``+45``) stay as the format gives them; the export's
reader (extract/wahapedia/tables.py) takes the apostrophe off again.
"""

from __future__ import annotations

import html
from pathlib import Path

from warscribe.extract.wahapedia.layout import BOM, LAYOUT, SEPARATOR
from warscribe.schema.text import slugify, spreadsheet_cell


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
        lines.append(SEPARATOR.join(spreadsheet_cell(str(row.get(c, ""))) for c in columns) + SEPARATOR)
    (out / name).write_bytes((BOM + "\r\n".join(lines) + "\r\n").encode("utf-8"))


EDITIONS = {"10e": "10th", "11e": "11th"}
_TURNS = {"your": "Your turn", "opponent": "Opponent’s turn", "either": "Either player’s turn"}


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
    for name, rows in _Edition(records, ruleset).tables().items():
        _write(out, name, rows)


class _Edition:
    """The export's tables for the records of one ruleset, with export ids made from record ids."""

    def __init__(self, records: list[dict], ruleset: str):
        self.ruleset = ruleset
        by_kind: dict[str, list[dict]] = {}
        for rec in sorted(records, key=lambda r: r["id"]):
            by_kind.setdefault(rec["kind"], []).append(rec)
        self.by_kind = by_kind
        self.det_faction = {d["id"]: slugify(d["faction"]) for d in by_kind.get("detachment", [])}
        self.det_name = {d["id"]: d["name"] for d in by_kind.get("detachment", [])}
        self.det_ids = {d["id"]: f"{i:06d}" for i, d in enumerate(by_kind.get("detachment", []), start=1)}
        self.weapons = {w["id"]: w for w in by_kind.get("weapon", [])}
        self.ds_ids = {d["id"]: f"{i:09d}" for i, d in enumerate(by_kind.get("datasheet", []), start=1)}
        # A leader list names units; the same name in another faction is another datasheet.
        self.ds_by_name: dict[tuple[str | None, str], str] = {}
        for d in by_kind.get("datasheet", []):
            self.ds_by_name.setdefault((d["faction"], d["name"]), self.ds_ids[d["id"]])
            self.ds_by_name.setdefault((None, d["name"]), self.ds_ids[d["id"]])
        self.abilities_seen: dict[tuple[str, str], str] = {}
        # Core and faction ability records (their texts go into Abilities.csv), and those written.
        self.abilities = {a["id"]: a for a in by_kind.get("ability", []) if a["type"] in ("core", "faction")}
        self.written_abilities: set[str] = set()
        self.pairs: set[tuple[str, str]] = set()  # (leader, led) rows written
        self.t: dict[str, list[dict]] = {name: [] for name in LAYOUT}

    def tables(self) -> dict[str, list[dict]]:
        t = self.t
        # No date in Last_update.csv: the same records must give the same bytes.
        t["Source.csv"] = [{"id": "1", "name": "Warscribe knowledge base", "type": "Export",
                            "edition": EDITIONS.get(self.ruleset, self.ruleset)}]
        for ds in self.by_kind.get("datasheet", []):
            self.datasheet(ds)
        for d in self.by_kind.get("detachment", []):
            self.detachment(d)
        for n, s in enumerate(self.by_kind.get("stratagem", []), start=1):
            self.stratagem(n, s)
        for n, e in enumerate(self.by_kind.get("enhancement", []), start=1):
            self.enhancement(n, e)
        for rid, rule in sorted(self.abilities.items()):  # core and faction rules no datasheet names
            if rid not in self.written_abilities:
                self.t["Abilities.csv"].append({
                    "id": f"{len(self.t['Abilities.csv']) + 1:06d}", "name": _cell(rule["name"]),
                    "faction_id": "" if rule["type"] == "core" else rid.split("/", 1)[0],
                    "legend": _cell(rule.get("flavour")), "description": _cell(rule["text"])})
        factions = {slugify(rec["faction"]): rec["faction"]
                    for rec in self.by_kind.get("datasheet", []) + self.by_kind.get("detachment", [])}
        t["Factions.csv"] = [{"id": fid, "name": _cell(name)} for fid, name in sorted(factions.items())]
        return t

    def datasheet(self, ds: dict) -> None:
        t, weapons, abilities_seen = self.t, self.weapons, self.abilities_seen
        did = self.ds_ids[ds["id"]]
        # one publication for all: a Legends datasheet carries its mark in its name, as the reader takes it back
        name = ds["name"] + (" [Legends]" if ds.get("legends") else "")
        t["Datasheets.csv"].append({"id": did, "name": _cell(name), "faction_id": slugify(ds["faction"]),
                                    "source_id": "1", "virtual": "false", "is_support": "false",
                                    "leader_head": _cell((ds.get("leader") or {}).get("text")),
                                    "transport": _cell(ds.get("transport")), "loadout": _cell(ds.get("loadout"))})
        for n, m in enumerate(ds.get("models", []), start=1):
            marks = m.get("markers", {})  # '20"+' (a minimum move), '5*' (a footnote), as the site prints them
            t["Datasheets_models.csv"].append({
                "datasheet_id": did, "line": n, "name": _cell(m["name"]),
                "M": "-" if m.get("M") is None else f'{m["M"]}"' + marks.get("M", ""),
                "T": f'{m.get("T", "")}{marks.get("T", "")}', "Sv": f'{m["Sv"]}+{marks.get("Sv", "")}',
                "inv_sv": "-" if m.get("invulnerable") is None else f'{m["invulnerable"]}+{marks.get("invulnerable", "")}',
                "inv_sv_descr": _cell(m.get("invulnerable_text")), "W": f'{m.get("W", "")}{marks.get("W", "")}',
                "Ld": "-" if m.get("Ld") is None else f'{m["Ld"]}+{marks.get("Ld", "")}',
                "OC": "-" if m.get("OC") is None else f'{m["OC"]}{marks.get("OC", "")}',
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
        for kws, faction in ((ds["keywords"], "false"), (ds["faction_keywords"], "true")):
            for kw in kws:
                # A keyword of some models only: a row per model that has it, naming the model.
                holders = [m["name"] for m in ds.get("models", []) if kw in (m.get("keywords") or ())] or [""]
                for holder in holders:
                    t["Datasheets_keywords.csv"].append({"datasheet_id": did, "keyword": _cell(kw), "model": _cell(holder),
                                                         "is_faction_keyword": faction})
        for n, a in enumerate(ds["abilities"], start=1):
            name = a["name"] + (" (Psychic)" if a.get("psychic") else "")
            row = {"datasheet_id": did, "line": n, "type": a["type"].capitalize(), "description": _cell(a["text"])}
            if a.get("ref"):
                rule = self.abilities.get(a["ref"])
                named = rule["name"] if rule else a["name"]
                key = (a["ref"], named)
                if key not in abilities_seen:
                    abilities_seen[key] = f"{len(abilities_seen) + 1:06d}"
                    self.written_abilities.add(a["ref"])
                    t["Abilities.csv"].append({
                        "id": abilities_seen[key], "name": _cell(named),
                        "faction_id": "" if a["type"] == "core" else slugify(ds["faction"]),
                        # The rule's text where the build has it (the export's own Abilities.csv carries it).
                        "legend": _cell(rule.get("flavour")) if rule else "", "description": _cell(rule["text"]) if rule else ""})
                row["ability_id"] = abilities_seen[key]
                if rule and a["name"] != named:
                    if a["name"].startswith(named + " "):
                        row["parameter"] = _cell(a["name"][len(named) + 1:])  # 'Feel No Pain 5+': the 5+
                    else:
                        row["name"] = _cell(name)  # as the datasheet prints it ('Deep Strike' of 'DEEP STRIKE')
            else:
                row["name"] = _cell(name)
            t["Datasheets_abilities.csv"].append(row)
        n = 0
        notes: dict[tuple[str, str], None] = {}
        for o in ds["wargear_options"]:
            # Footnotes as the site prints them: the marker after its choice, a row with the marker as button.
            marks = {note.get("choice"): note["marker"] for note in o.get("notes", [])}
            text = _cell(o["text"] + marks.get(None, "")) + (
                "<ul>" + "".join(f"<li>{_cell(c + marks.get(c, ''))}</li>" for c in o["choices"]) + "</ul>"
                if o.get("choices") else "")
            n += 1
            t["Datasheets_options.csv"].append({"datasheet_id": did, "line": n, "button": "", "description": text})
            for note in o.get("notes", []):
                notes.setdefault((note["marker"], note["text"]), None)
        for marker, note_text in notes:  # one row a footnote, after the options, however many it serves
            n += 1
            t["Datasheets_options.csv"].append({"datasheet_id": did, "line": n, "button": marker,
                                                "description": _cell(f"{marker} {note_text}")})
        for n, c in enumerate(ds["composition"], start=1):
            count = str(c["min"]) if c["min"] == c["max"] else f'{c["min"]}-{c["max"]}'
            t["Datasheets_unit_composition.csv"].append({"datasheet_id": did, "line": n,
                                                         "description": _cell(f'{count} {c["name"]}')})
        self.costs(did, ds["points"], ds.get("extra_points", []))
        self.leaders(did, ds)

    def costs(self, did: str, points: list[dict], extra: list[dict] = ()) -> None:
        """Cost rows, each condition as a header row before its costs (as the site prints them),
        then what optional models or wargear add ('Attack Bike' | '+55')."""
        t = self.t
        n = 0
        condition = None
        for p in points:
            if p["condition"] != condition:
                condition = p["condition"]
                n += 1
                t["Datasheets_models_cost.csv"].append({"datasheet_id": did, "line": n,
                                                        "description": _cell(condition or "YOUR UNIT COSTS"), "cost": ""})
            n += 1
            t["Datasheets_models_cost.csv"].append({"datasheet_id": did, "line": n,
                                                    "description": f'{p["models"]} model{"s" if p["models"] != 1 else ""}',
                                                    "cost": p["points"]})
        for e in extra:
            n += 1
            t["Datasheets_models_cost.csv"].append({"datasheet_id": did, "line": n, "description": _cell(e["name"]),
                                                    "cost": f'+{e["points"]}'})

    def leaders(self, did: str, ds: dict) -> None:
        t, ds_by_name = self.t, self.ds_by_name
        for key in ("leader", "led_by"):
            for unit in (ds.get(key) or {}).get("units", []):
                other = ds_by_name.get((ds["faction"], unit)) or ds_by_name.get((None, unit))
                if other:
                    pair = (did, other) if key == "leader" else (other, did)
                    if pair not in self.pairs:  # the leader's list and the led unit's both say it: one row
                        self.pairs.add(pair)
                        t["Datasheets_leader.csv"].append({"leader_id": pair[0], "attached_id": pair[1]})

    def detachment(self, d: dict) -> None:
        t, det_ids = self.t, self.det_ids
        t["Detachments.csv"].append({"id": det_ids[d["id"]], "faction_id": slugify(d["faction"]), "name": _cell(d["name"])})
        for n, rule in enumerate(([d["rule"]] if d.get("rule") else []) + d.get("additional_rules", [])):
            t["Detachment_abilities.csv"].append({
                "id": det_ids[d["id"]] + (f"-{n + 1}" if n else ""), "faction_id": slugify(d["faction"]),
                "name": _cell(rule["name"]), "legend": _cell(rule.get("flavour")),
                "description": _cell(rule["text"] + (f"\n\nDesigner’s Note: {rule['designer_note']}"
                                                     if rule.get("designer_note") else "")),
                "detachment": _cell(d["name"]), "detachment_id": det_ids[d["id"]]})

    def stratagem(self, n: int, s: dict) -> None:
        t, det_name, det_faction, det_ids = self.t, self.det_name, self.det_faction, self.det_ids
        det = s.get("detachment")
        label = {"core": "Core", "boarding-actions": "Boarding Actions", "challenger": "Challenger"}.get(
            s["origin"], det_name.get(det, ""))
        kind = " – ".join(x for x in (label, s.get("category")) if x) + " Stratagem"
        parts = [f"<b>{k.upper()}:</b> {_cell(s[k])}" for k in ("when", "target", "effect", "restrictions") if s.get(k)]
        if s.get("designer_note"):
            parts.append(f"<b>Designer’s Note:</b> {_cell(s['designer_note'])}")
        t["Stratagems.csv"].append({
            "faction_id": det_faction.get(det, ""), "name": _cell(s["name"]), "id": f"{n:06d}", "type": _cell(kind),
            "cp_cost": s["cp"], "legend": _cell(s.get("flavour")), "turn": _TURNS.get(s.get("turn"), ""),
            "phase": " or ".join(p.capitalize() for p in s.get("phases", [])) + (" phase" if s.get("phases") else ""),
            "detachment": _cell(det_name.get(det, "")),
            "detachment_id": det_ids.get(det, ""), "description": "<br><br>".join(parts)})

    def enhancement(self, n: int, e: dict) -> None:
        t, det_name, det_faction, det_ids = self.t, self.det_name, self.det_faction, self.det_ids
        det = e.get("detachment")
        faction = det_faction.get(det) or slugify(e["id"].split("/")[0])
        text = " ".join(x for x in (e.get("restriction"), e.get("text")) if x)
        t["Enhancements.csv"].append({
            "faction_id": faction, "name": _cell(e["name"]), "id": f"{n:06d}", "cost": e["points"],
            "detachment": _cell(det_name.get(det, "")), "detachment_id": det_ids.get(det, ""),
            "legend": _cell(e.get("flavour")), "description": _cell(text)})
