"""Datasheets, their weapons and model characteristics, from the export's rows."""

from __future__ import annotations

import re

from warscribe.extract.collisions import weapon_ids
from warscribe.extract.wahapedia.common import Rows, Sighting, text
from warscribe.extract.wahapedia.tables import Row, line_key, true
from warscribe.extract.wargear import tie_footnotes
from warscribe.schema import ids, records
from warscribe.schema.abilities import parse_ability_list
from warscribe.schema.text import clean_name
from warscribe.schema.values import parse_ap, parse_dice, parse_inches, parse_int, parse_plus, parse_range, parse_skill

# A model line of a composition: '1 Paragon', '3-9 Paladins', '0‑3 Kill Team Infiltrators with ...'.
_COUNT = re.compile(r"^(?P<min>\d+)(?:\s*[-‑–]\s*(?P<max>\d+))?\s+(?P<name>\S.*)$")
# Between the model lines of one composition or cost line: ', ' or ' and ' before a count.
_PARTS = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?=\d)")
# A keyword printed after a model's name: '1 Chaplain Cassius – EPIC HERO'.
_NAME_KEYWORDS = re.compile(r"\s+[–-]\s+[A-Z][A-Z' -]*$")
_FOOTNOTE = re.compile(r"\s*(\*{1,3}|†|‡)$")
_ALTERNATIVE = re.compile(r"^(?:or|one of the following):?$", re.I)
_UNIT_CAP = re.compile(r"^(?:this unit can contain a maximum of (?P<a>\d+) models\.?|(?P<b>\d+) models maximum\.?)$", re.I)
_MODELS = re.compile(r"^(?P<n>\d+)\s+models?(?:\s*\((?P<cond>[^()]+)\))?$", re.I)
_PLUS = re.compile(r"^\+\s*(?P<n>\d+)$")
_BULLETS = {"•", "-", "–", "·"}  # an option's button that is only its bullet, not a footnote marker
# Weapon profile: (column, record field, parser), in the order they are checked.
_PROFILE = (("range", "range", parse_range), ("A", "attacks", lambda v: parse_dice(v, "A")),
            ("BS_WS", "skill", parse_skill), ("S", "strength", lambda v: parse_dice(v, "S")),
            ("AP", "ap", parse_ap), ("D", "damage", lambda v: parse_dice(v, "D")))
# Model characteristics: (column, record field, parser).
_CHARACTERISTICS = (("M", "M", lambda v: parse_inches(v, "M")), ("T", "T", lambda v: parse_int(v, "T")),
                    ("Sv", "Sv", lambda v: parse_plus(v, "Sv")),
                    ("inv_sv", "invulnerable", lambda v: parse_plus(v, "inv_sv", allow_none=True)),
                    ("W", "W", lambda v: parse_int(v, "W")), ("Ld", "Ld", lambda v: parse_plus(v, "Ld", allow_none=True)),
                    ("OC", "OC", lambda v: parse_plus(v, "OC", allow_none=True)))
# Datasheets_abilities.csv types -> the record's ability type. The export's own layout
# names ('Special (правая колонка)', 'Fortification (левая колонка)', 'Primarch', an
# untitled box) are boxes of the datasheet: its abilities.
_ABILITY_TYPES = {"core": "core", "faction": "faction", "wargear": "wargear", "wargear profile": "wargear"}


_LEGENDS_MARK = re.compile(r"\s*\[legends\]\s*$", re.I)


def printed(name: str) -> str:
    """A datasheet's name as printed: without the ' [Legends]' its id keeps (the record says `legends`)."""
    return _LEGENDS_MARK.sub("", name) or name


def is_legends(publication: dict | None) -> bool:
    """A Legends publication ('Legends: Orks', 'Horus Heresy Legends: Adeptus Astartes')."""
    return bool(publication) and publication["name"].split(":", 1)[0].strip().endswith("Legends")


def _model_key(name: str) -> str:
    """One model line in several alternatives: 'Runtherd' and 'Runtherds' are one kind of model."""
    key = name.casefold()
    return key[:-1] if key.endswith("s") else key


def _split_parts(line: str) -> list[str]:
    """'1 Sword Brother, 4 Initiates and 5 Neophytes' -> its model lines (not inside parentheses)."""
    parts, depth, start, seen = [], 0, 0, 0
    for m in _PARTS.finditer(line):
        chunk = line[seen:m.start()]  # counted once: linear in the line
        depth += chunk.count("(") - chunk.count(")")
        seen = m.start()
        if depth == 0:
            parts.append(line[start:m.start()])
            start = m.end()
    parts.append(line[start:])
    return [p.strip() for p in parts]


class DatasheetRows(Rows):
    """Datasheets.csv and the Datasheets_*.csv tables into datasheet and weapon records."""

    def datasheet_names(self) -> dict[str, tuple[str, str, dict | None]]:
        """Datasheet id -> (faction, record name, publication), for every datasheet of a known faction.

        A datasheet of a Legends publication is named 'Name [Legends]', as the BattleScribe
        data names it, so both give it one id; a unit printed in two other publications
        under one name is kept apart, the later one named after its publication.
        """
        out: dict[str, tuple[str, str, dict | None]] = {}
        taken: dict[str, Row] = {}
        for r in self.rows("Datasheets.csv"):
            faction = self.faction(r)
            if faction is None:
                r.error(self.report, "unknown-reference", "faction_id", "datasheet without a known faction; skipped",
                        expected="an id of Factions.csv")
                continue
            name = clean_name(text(r["name"]))
            if not name:
                r.error(self.report, "bad-title", "name", "datasheet without a name; skipped", expected="a name")
                continue
            publication = self.publication(r)
            if is_legends(publication) and not name.endswith("[Legends]"):
                name += " [Legends]"
            ds_id = ids.datasheet(faction, name)
            first = taken.get(ds_id)
            if first is not None and publication and publication != out[first["id"]][2]:
                apart = f"{name} ({publication['name']})"
                r.error(self.report, "id-collision", "name",
                        f"{name!r} of {publication['name']} has the id of the one of row {first.number} "
                        f"({(out[first['id']][2] or {}).get('name', 'no publication')}); kept apart as {apart!r}",
                        expected="one datasheet per name and faction", found=name, level="warning")
                name = apart
                ds_id = ids.datasheet(faction, name)
            taken.setdefault(ds_id, r)
            out[r["id"]] = (faction, name, publication)
            self.names[r["id"]] = name
        return out

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
        known = self.datasheet_names()
        listed = {r["id"] for r in self.rows("Datasheets.csv")}
        for rows_of, column in ((models, "datasheet_id"), (wargear, "datasheet_id"), (keywords, "datasheet_id"),
                                (abilities, "datasheet_id"), (options, "datasheet_id"), (composition, "datasheet_id"),
                                (costs, "datasheet_id"), (leads, "leader_id"), (led, "attached_id")):
            for did, rows in rows_of.items():
                if did not in listed:  # (a datasheet listed but skipped was reported at its own row)
                    for r in rows:
                        r.error(self.report, "unknown-reference", column,
                                f"datasheet {did!r} is not in Datasheets.csv; row skipped",
                                expected="an id of Datasheets.csv", level="warning")
        for r in self.rows("Datasheets.csv"):
            if r["id"] not in known:
                continue
            faction, name, publication = known[r["id"]]
            did = r["id"]
            ds_id = ids.datasheet(faction, name)
            weapons = self.weapons(ds_id, wargear.get(did, []), publication)
            points, extra = self.points(costs.get(did, []))
            fields = dict(
                keywords=self.keywords(keywords.get(did, []), False),
                faction_keywords=self.keywords(keywords.get(did, []), True),
                composition=self.composition(composition.get(did, [])),
                points=points, extra_points=extra or records.OMIT,
                abilities=self.datasheet_abilities(faction, abilities.get(did, [])) + self.damaged(r),
                weapons=list(dict.fromkeys(w.record["id"] for w in weapons)),
                wargear_options=self.options(options.get(did, [])),
                transport=text(r["transport"]) or records.OMIT,
                loadout=text(r["loadout"]) or records.OMIT,
            )
            rows = [r] + keywords.get(did, []) + composition.get(did, []) + costs.get(did, []) \
                + abilities.get(did, []) + options.get(did, [])
            leader = led_by = records.OMIT
            lead_rows = [x for x in leads.get(did, []) if x["attached_id"] in known]
            led_rows = [x for x in led.get(did, []) if x["leader_id"] in known]
            if r["leader_head"] or r["leader_footer"] or lead_rows:
                head = text(r["leader_head"]) or "This model can be attached to the following units:"
                footer = text(r["leader_footer"])
                leader = {"text": head + (f"\n\n{footer}" if footer else ""),
                          "units": list(dict.fromkeys(printed(self.names[x["attached_id"]]) for x in lead_rows))}
            if led_rows:
                led_by = {"text": "This unit can be led by the following units:",
                          "units": list(dict.fromkeys(printed(self.names[x["leader_id"]]) for x in led_rows))}
            model_rows = models.get(did, [])
            profiles = self.models(model_rows)
            self.model_keywords(profiles, keywords.get(did, []), fields["keywords"] + fields["faction_keywords"])
            legends = is_legends(publication) or printed(name) != name
            record = records.datasheet(id=ds_id, name=printed(name), legends=legends or records.OMIT,
                                       ruleset=self.ruleset, faction=faction, **fields,
                                       leader=leader, led_by=led_by, models=profiles or records.OMIT)
            sighting = Sighting(record, rows, publication=publication)
            if lead_rows or led_rows:
                sighting.parts.append((["leader", "led_by"] if lead_rows and led_rows else
                                       ["leader"] if lead_rows else ["led_by"], lead_rows + led_rows))
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
            kw = keyword_of(r)
            if kw and kw not in out:  # an empty cell is reported by the keyword records (keywords.py)
                out.append(kw)
        return out

    def model_keywords(self, profiles: list[dict], rows: list[Row], unit_order: list[str]) -> None:
        """Keywords printed for one model only (the `model` column: 'DARK APOSTLE ONLY', 'TEMPESTOR
        PRIME') go on that model's profile as well as on the unit. One that names no single profile
        ('RAVENWING CHAMPION', who shares the squad's profile) stays the unit's, and is reported."""
        cells = [(r, _model_cell(r), keyword_of(r)) for r in rows]
        # A keyword also printed for every model (no model named, or 'ALL MODELS') is everyone's.
        everyone = {kw for _r, named, kw in cells if named.casefold() in _ALL_MODELS | {""}}
        for r, named, kw in cells:
            if not named or not kw or named.casefold() in _ALL_MODELS or not profiles or kw in everyone:
                continue
            index = _profile_named(profiles, named)
            if index is None:
                r.error(self.report, "unmatched-model-keyword", "model",
                        f"keyword {kw!r} is printed for {named!r}, which names no single model profile of the "
                        f"datasheet ({', '.join(p['name'] for p in profiles)}); kept as the whole unit's",
                        expected="the name of one model profile (Datasheets_models.csv)", level="warning")
                continue
            own = profiles[index].setdefault("keywords", [])
            if kw not in own:
                own.append(kw)
        place = {k: i for i, k in enumerate(unit_order)}
        for p in profiles:  # in the unit's order (so our own export, a row per holder, reads back alike)
            if "keywords" in p:
                p["keywords"].sort(key=lambda k: place.get(k, len(place)))

    def composition(self, rows: list[Row]) -> list[dict]:
        """Model lines with their min and max; a composition given as alternatives ('1 Runtherd and
        10 Gretchin', 'OR', '2 Runtherds and 20 Gretchin') gives each model its range over them."""
        alternatives: list[list[tuple[str, int, int]]] = [[]]
        each_line_alone = False  # 'One of the following:' lists alternatives, one a line
        for r in sorted(rows, key=line_key):
            lines = [t.strip() for t in text(r["description"]).split("\n")]
            named: tuple[str, list[str]] | None = None  # '8 Kill Team Veterans:' and the names listed below
            for line in lines:
                if not line:
                    continue
                if named is not None and line.startswith("- "):
                    named[1].append(line[2:].strip())
                    continue
                line = line.removeprefix("- ").strip().rstrip(".").strip()
                if _ALTERNATIVE.match(line):
                    each_line_alone = each_line_alone or line.lower().startswith("one of")
                    if alternatives[-1]:
                        alternatives.append([])
                    continue
                cap = _UNIT_CAP.match(line)
                if cap:
                    r.error(self.report, "bad-composition", "description",
                            f"a unit-size limit ({cap['a'] or cap['b']} models), not a model line; not kept "
                            "(a composition has no field for it)", expected="'1 Paragon' or '3-9 Paladins'",
                            found=line, level="warning")
                    continue
                if line.endswith(":"):
                    line = line[:-1].strip()
                    named = (line, [])
                lines_of_models = []
                for part in _split_parts(line):
                    m = _COUNT.match(part)
                    if not m:
                        lines_of_models = None
                        break
                    name = _NAME_KEYWORDS.sub("", _FOOTNOTE.sub("", m["name"].strip())).strip()
                    lo = int(m["min"])
                    lines_of_models.append((name, lo, int(m["max"] or lo)))
                if not lines_of_models:
                    r.error(self.report, "bad-composition", "description", "not a model count; line skipped",
                            expected="'1 Paragon', '3-9 Paladins' or '1 Sergeant and 9 Troopers'", found=line,
                            level="warning")
                    named = None
                    continue
                if each_line_alone and alternatives[-1]:
                    alternatives.append([])
                alternatives[-1].extend(lines_of_models)
            if named is not None and named[1]:
                r.error(self.report, "bad-composition", "description",
                        f"the names of the {named[0]} ({', '.join(named[1])}) are not kept (a composition "
                        "has no field for them)", expected="model lines", found=", ".join(named[1]), level="warning")
        alternatives = [a for a in alternatives if a]
        if len(alternatives) <= 1:
            return [{"name": n, "min": lo, "max": hi} for n, lo, hi in (alternatives[0] if alternatives else [])]
        # Per kind of model: its name as first printed, how many alternatives have it, and the least
        # and most of it they have (an alternative without it has none of it).
        seen: dict[str, list] = {}  # key -> [name, alternatives, least, most]
        for alt in alternatives:
            total: dict[str, list[int]] = {}
            for name, lo, hi in alt:
                key = _model_key(name)
                seen.setdefault(key, [name, 0, None, 0])
                got = total.setdefault(key, [0, 0])
                got[0] += lo
                got[1] += hi
            for key, (lo, hi) in total.items():
                entry = seen[key]
                entry[1] += 1
                entry[2] = lo if entry[2] is None else min(entry[2], lo)
                entry[3] = max(entry[3], hi)
        return [{"name": name, "min": least if count == len(alternatives) else 0, "max": max(most, 1)}
                for name, count, least, most in seen.values()]

    def points(self, rows: list[Row]) -> tuple[list[dict], list[dict]]:
        """(points per unit size, points added for an optional model or wargear)."""
        out, extra = [], []
        condition = None
        for r in sorted(rows, key=line_key):
            label = text(r["description"])
            cost = r["cost"].strip()
            if not cost:
                # A header row mixed into the cost table: the condition for the rows below,
                # or the table's own title.
                if label.upper() != "YOUR UNIT COSTS":
                    condition = label or None
                continue
            plus = _PLUS.match(cost)
            if plus:
                if not label:
                    r.error(self.report, "bad-cost", "description", "an added cost without what it is for; row skipped",
                            expected="'Attack Bike' | '+55'")
                    continue
                extra.append({"name": label, "points": int(plus["n"])})
                continue
            m = _MODELS.match(label)
            count = int(m["n"]) if m else None
            if count is None:
                parts = [_COUNT.match(p) for p in _split_parts(label)]
                if parts and all(parts):
                    count = sum(int(p["max"] or p["min"]) for p in parts)  # '1 Spanner and 4 Burna Boyz': 5
            try:
                if count is None:
                    raise ValueError(f"description {label!r} is not 'N models' nor the unit's models")
                out.append({"models": count, "points": parse_int(cost, "cost"),
                            "condition": (m["cond"].strip() if m and m["cond"] else condition)})
            except ValueError as exc:
                column = "cost" if count is not None else "description"
                r.error(self.report, "bad-cost", column, f"{exc}; row skipped",
                        expected="'5 models' or '1 Spanner and 4 Burna Boyz' | '225'")
        return out, extra

    def datasheet_abilities(self, faction: str, rows: list[Row]) -> list[dict]:
        out = []
        for r in sorted(rows, key=line_key):
            ref_rows = self.abilities.get(r["ability_id"]) if r["ability_id"] else None
            if r["ability_id"] and ref_rows is None:
                r.error(self.report, "unknown-reference", "ability_id", "ability is not in Abilities.csv",
                        expected="an id of Abilities.csv", level="warning")
            ref_name = clean_name(text(ref_rows[0]["name"])) if ref_rows else ""
            name = clean_name(text(r["name"])) or ref_name
            if r["parameter"].strip():
                name = f"{name} {r['parameter'].strip()}"
            kind = _ABILITY_TYPES.get(r["type"].strip().lower(), "datasheet")
            if not name:
                r.error(self.report, "bad-ability", "name", "ability without a name; skipped", expected="a name")
                continue
            psychic = bool(re.search(r"\s*\(Psychic\)$", name))
            name = re.sub(r"\s*\(Psychic\)$", "", name)
            ability: dict = {"name": name, "type": kind, "text": text(r["description"]) or None}
            if ref_rows and kind == "core":
                ability["ref"] = ids.core_ability(self.ruleset, ref_name)
            elif ref_rows and kind == "faction":
                factions = [self.faction(x) for x in ref_rows if x["faction_id"]]
                owner = faction if faction in factions or not factions else factions[0]
                ability["ref"] = ids.faction_ability(owner, ref_name)
            if psychic:
                ability["psychic"] = True
            out.append(ability)
        return out

    def damaged(self, r: Row) -> list[dict]:
        """The datasheet's damaged profile (columns damaged_w, damaged_description) as the box the
        page prints after the abilities, named as BattleScribe names it: 'Damaged: 1-5 Wounds Remaining'."""
        wounds = re.sub(r"\s+", "", text(r["damaged_w"]))
        body = text(r["damaged_description"])
        if not wounds and not body:
            return []
        if not re.fullmatch(r"\d+-\d+", wounds) or not body:
            column = "damaged_description" if wounds and not body else "damaged_w"
            r.error(self.report, "bad-damaged-profile", column, "a damaged profile needs its wounds ('1-5') and its text; "
                    "left out", expected="damaged_w like '1-5' and a damaged_description", level="warning")
            return []
        return [{"name": f"Damaged: {wounds} Wounds Remaining", "type": "datasheet", "text": body}]

    def options(self, rows: list[Row]) -> list[dict]:
        out: list[dict] = []
        for r in sorted(rows, key=line_key):
            body = text(r["description"])
            items = [x for x in re.split(r"\n+", body) if x.strip()]
            if not items or (len(items) == 1 and items[0].strip().rstrip(".").lower() == "none"):
                continue  # 'None': the datasheet has no wargear options
            option = {"text": items[0].removeprefix("- ")}
            choices = [x[2:].strip() for x in items[1:] if x.startswith("- ")]
            if choices:
                option["choices"] = choices
            rest = [x for x in items[1:] if not x.startswith("- ")]
            if rest:
                option["text"] = "\n".join([option["text"]] + rest)
            button = r["button"].strip()
            if button and button not in _BULLETS and not option["text"].startswith(button):
                option["text"] = f"{button} {option['text']}"  # a footnote row: its marker in the button
            out.append(option)
        return tie_footnotes(out)[0]

    def models(self, rows: list[Row]) -> list[dict]:
        out = []
        for r in sorted(rows, key=line_key):
            values: dict = {"name": text(r["name"])}
            markers: dict[str, str] = {}
            try:
                for column, field_name, parse in _CHARACTERISTICS:
                    raw, marker = _marked(r[column], column)
                    values[field_name] = parse(raw)
                    if marker:
                        markers[field_name] = marker
            except ValueError as exc:
                r.error(self.report, "bad-characteristic", column, f"{exc}; model skipped",
                        expected="M 6\" (20+\" for a minimum move), T 4 (5* with a footnote), Sv 3+, W 2, Ld 6+, OC 1")
                continue
            if r["inv_sv_descr"]:
                values["invulnerable_text"] = text(r["inv_sv_descr"])
            if r["base_size"]:
                values["base_size"] = text(r["base_size"])
            if markers:
                values["markers"] = markers
            out.append(values)
        return out

    def weapons(self, ds_id: str, rows: list[Row], publication: dict | None = None) -> list[Sighting]:
        """One weapon record a profile row. A ranged and a melee profile of one name are two weapons
        (the melee one's id ends in -melee); names differing only in case or apostrophe are one."""
        out = []
        rows = sorted(rows, key=line_key)
        named = []
        spelling: dict[tuple[str, str], str] = {}
        for r in rows:
            name = re.sub(r"^[➤►>\s]+", "", clean_name(text(r["name"])))
            kind = r["type"].strip().lower()
            if not name:
                r.error(self.report, "bad-weapon-row", "name", "weapon without a name; skipped", expected="a name")
                continue
            if kind not in ("ranged", "melee"):
                r.error(self.report, "bad-weapon-value", "type", "weapon type is neither Ranged nor Melee; skipped",
                        expected="Ranged or Melee")
                continue
            same = spelling.setdefault((name.casefold().replace("’", "'"), kind), name)
            named.append((r, name, kind, same))
        wids = weapon_ids(self.report, rows[0].file, ds_id, [(same, r.line) for r, _n, _k, same in named],
                          [kind for _r, _n, kind, _s in named]) if named else []
        for (r, name, kind, _same), wid in zip(named, wids):
            abilities, problems = _weapon_abilities(text(r["description"]))
            for p in problems:
                r.error(self.report, "weapon-ability", "description", p.message, expected="a known weapon ability",
                        found=p.text, level="warning")
            values = {}
            try:
                for column, field_name, parse in _PROFILE:
                    values[field_name] = parse(r[column])
            except ValueError as exc:
                r.error(self.report, "bad-weapon-value", column, f"weapon {name!r}: {exc}; skipped",
                        expected="range, A, BS/WS, S, AP, D values")
                continue
            if kind == "melee":
                values["range"] = None
            record = records.weapon(id=wid, name=name, ruleset=self.ruleset, datasheet=ds_id,
                                    type=kind, **values, abilities=abilities)
            out.append(Sighting(record, [r], publication=publication))
        return out


# The `model` cell of a keyword every model has.
_ALL_MODELS = {"all", "all models"}


def _model_cell(row: Row) -> str:
    """The `model` cell of a Datasheets_keywords.csv row, spaces folded ('' for every model)."""
    return re.sub(r"\s+", " ", text(row["model"])).strip()


def _profile_named(profiles: list[dict], named: str) -> int | None:
    """The one model profile a keyword row's `model` cell names ('SAINT CELESTINE' is the profile
    'CELESTINE', 'FABIUS BILE ONLY' is 'FABIUS BILE'), or None."""
    def fold(name: str) -> str:
        words = re.sub(r"\s+only$", "", re.sub(r"\s+", " ", name).strip().casefold()).split()
        return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)

    key = fold(named)
    names = [fold(p["name"]) for p in profiles]
    exact = [i for i, n in enumerate(names) if n == key]
    if len(exact) == 1:
        return exact[0]
    within = [i for i, n in enumerate(names) if n and (f" {n} " in f" {key} " or f" {key} " in f" {n} ")]
    return within[0] if len(within) == 1 else None


def keyword_of(row: Row) -> str:
    """The keyword of a Datasheets_keywords.csv row, upper case ('' for an empty cell)."""
    return re.sub(r"\s+", " ", text(row["keyword"])).strip().upper()


def _marked(raw: str, column: str) -> tuple[str, str]:
    """A characteristic without its marker, and the marker: '5*' -> ('5', '*'); M '20+"' -> ('20"', '+')."""
    raw = raw.strip()
    marker = ""
    m = _FOOTNOTE.search(raw)
    if m:
        raw, marker = raw[:m.start()].strip(), m.group(1)
    if column == "M" and "+" in raw:
        raw, marker = raw.replace("+", "").strip(), "+" + marker
    return raw, marker


def _weapon_abilities(cell: str):
    """A weapon's abilities from its description: a comma-separated list, or one whose
    abilities the export parts with full stops ("HAZARDOUS. IGNORES COVER. PSYCHIC",
    about 50 rows) when every part is a known ability; a sentence stays what it is."""
    abilities, problems = parse_ability_list(cell)
    if problems and ". " in cell:
        parted, parted_problems = parse_ability_list(cell.replace(". ", ", "))
        if not parted_problems:
            return parted, parted_problems
    return abilities, problems
