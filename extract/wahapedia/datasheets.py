"""Datasheets, their weapons and model characteristics, from the export's rows."""

from __future__ import annotations

import re

from warscribe.extract.collisions import weapon_ids
from warscribe.extract.html import fragment_text
from warscribe.extract.wahapedia.common import Rows, Sighting
from warscribe.extract.wahapedia.tables import Row, line_key, true
from warscribe.extract.wargear import tie_footnotes
from warscribe.schema import ids, records
from warscribe.schema.abilities import parse_ability_list
from warscribe.schema.values import parse_ap, parse_dice, parse_inches, parse_int, parse_plus, parse_range, parse_skill

_COMPOSITION = re.compile(r"^(?P<min>\d+)(?:\s*-\s*(?P<max>\d+))?\s+(?P<name>\S.*)$")
_MODELS = re.compile(r"^(?P<n>\d+)\s+models?$", re.I)
# Weapon profile: (column, record field, parser), in the order they are checked.
_PROFILE = (("range", "range", parse_range), ("A", "attacks", lambda v: parse_dice(v, "A")),
            ("BS_WS", "skill", parse_skill), ("S", "strength", lambda v: parse_dice(v, "S")),
            ("AP", "ap", parse_ap), ("D", "damage", lambda v: parse_dice(v, "D")))


class DatasheetRows(Rows):
    """Datasheets.csv and the Datasheets_*.csv tables into datasheet and weapon records."""

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
            button = r["button"].strip()
            if button and not option["text"].startswith(button):
                option["text"] = f"{button} {option['text']}"  # a footnote row: its marker in the button
            out.append(option)
        return tie_footnotes(out)[0]

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
        rows = sorted(rows, key=line_key)
        names = [re.sub(r"^[➤►>\s]+", "", fragment_text(r["name"])) for r in rows]
        wids = weapon_ids(self.report, rows[0].file, ds_id, [(n, r.line) for n, r in zip(names, rows) if n]) if rows else []
        by_name = dict(zip([n for n in names if n], wids))
        for r, name in zip(rows, names):
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
            record = records.weapon(id=by_name[name], name=name, ruleset=self.ruleset, datasheet=ds_id,
                                    type=kind, **values, abilities=abilities)
            out.append(Sighting(record, [r]))
        return out
