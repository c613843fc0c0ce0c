"""Datasheets of one faction file of the app's data, with their weapons and keyword records.

Each object of a file's ``datasheets`` becomes a datasheet record filed under the army
(:func:`.factions.army_name` of the file's faction), its parts read by their own modules:
:mod:`.composition` (model lines, points, wargear options), :mod:`.abilities`, :mod:`.weapons`;
its models and keywords here. A Combat Patrol file's datasheets are Combat Patrol's own (a
game mode with its own units): their ids are the matched-play formula under the mode
(:func:`warscribe.schema.ids.in_game_mode`), so they never meet matched play's, and they say
their ``game_mode``. Keyword records are one per keyword the file's datasheets carry, under the
ids every reader gives keywords; files read apart give one keyword several records, which
:func:`merge_keywords` makes one.

Every record's first provenance entry is the datasheet's own place (the line its id is written
on: the app numbers nothing inside a datasheet). What cannot be read is reported there.
"""

from __future__ import annotations

import re

from warscribe.extract.app import abilities as unit_abilities
from warscribe.extract.app import composition as parts
from warscribe.extract.app.factions import army_name
from warscribe.extract.app.markup import english, is_text, plain
from warscribe.extract.app.sheet import Sheet, name_of, names_of
from warscribe.extract.app.source import AppFile
from warscribe.extract.app.weapons import weapons
from warscribe.schema import KEYWORD_PATTERN, ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.values import parse_inches, parse_int, parse_plus

# Keys of a datasheet object the reader does not make fields of, on purpose, and why.
IGNORED_KEYS = {
    "id": "the app's own id (a UUID); record ids come from the army and the name, as every reader's do",
    "source": "the app's tag of the data set ('40k-11e'); the ruleset is the source's",
    "faction_id": "the id of the file's own faction, which the file says once",
    "fluff": "the unit's background text; datasheet records keep rules, not flavour",
    "imperialArmour": "a flag for Forge World models; no field of a datasheet says it",
}
# Keys read into the record.
READ_KEYS = frozenset({"name", "factions", "keywords", "stats", "rangedWeapons", "meleeWeapons", "abilities",
                       "composition", "loadout", "wargear", "points", "baseSize", "wargearOptions", "leader",
                       "additionalCost", "transport"})
# Keys of a model's characteristics: name and M to OC are read; showName and showDamagedMarker are
# the card's layout (whether the profile's name is printed; the damaged marker beside W, whose
# profile is the "Damaged" ability).
_STAT_KEYS = {"name": None, "m": "M", "t": "T", "sv": "Sv", "w": "W", "ld": "Ld", "oc": "OC"}
_STAT_LAYOUT = frozenset({"showName", "showDamagedMarker"})
_KEYWORD = re.compile(KEYWORD_PATTERN)
# A characteristic printed with a marker: '20+"' (a minimum move), '5*' (a footnote).
_MARKED = re.compile(r'^(?P<value>.*?\d["\u201d\u2033]?)\s*(?P<mark>\+|\*{1,3}|†|‡)\s*(?P<inch>["\u201d\u2033]?)$')


def read_faction(file: AppFile, report: Report, game_mode: str | None = None) -> list[tuple[dict, list[dict]]]:
    """The datasheet, weapon and keyword records of one faction (or Combat Patrol) file, each with its
    provenance entries, in the file's order (keywords last, by name)."""
    doc = file.doc
    faction = doc.get("name")
    if not is_text(faction) or not plain(english(faction)):
        report.error(file.name, 1, "empty-field",
                     "the file names no faction; its datasheets are not read", expected="a faction name",
                     found=str(faction)[:80])
        return []
    army = army_name(faction)
    listed = doc.get("datasheets")
    if listed is None:
        return []
    if not isinstance(listed, list):
        report.error(file.name, 1, "empty-field", "datasheets is not a list; none read", expected="a list",
                     found=type(listed).__name__)
        return []
    rules = doc.get("rules") if isinstance(doc.get("rules"), dict) else {}
    army_rules = {ids.faction_ability(army, name_of(r.get("name")))
                  for r in rules.get("army") or [] if isinstance(r, dict) and name_of(r.get("name"))}
    items: list[tuple[dict, list[dict]]] = []
    made: dict[str, int] = {}
    carriers: dict[str, tuple[bool, list[str], Sheet]] = {}
    for ds in listed:
        if not isinstance(ds, dict):
            report.warning(file.name, 1, "empty-field", "a datasheet that is not an object; left out",
                           expected="an object", found=str(ds)[:80])
            continue
        got = _datasheet(file, report, ds, army, army_rules, game_mode)
        if got is None:
            continue
        record, sheet, weapon_items = got
        if record["id"] in made:
            sheet.warn("conflicting-duplicate", f"{record['id']} is given again (first on line {made[record['id']]}); "
                       "the first is kept", expected="one datasheet of a name", found=record["name"])
            continue
        made[record["id"]] = sheet.line
        items.append((record, [sheet.prov()]))
        items += weapon_items
        for word in record["keywords"] + record["faction_keywords"]:
            is_faction, holders, _first = carriers.setdefault(word, (False, [], sheet))
            carriers[word] = (is_faction or word in record["faction_keywords"], holders + [record["id"]], _first)
    for word in sorted(carriers):
        is_faction, holders, sheet = carriers[word]
        record = records.keyword(id=ids.keyword(file.ruleset, word), name=word, ruleset=file.ruleset,
                                 faction_keyword=is_faction, datasheets=sorted(set(holders)), usage=[])
        items.append((record, [sheet.prov()]))
    return items


def merge_keywords(items: list[tuple[dict, list[dict]]]) -> list[tuple[dict, list[dict]]]:
    """One keyword record per id: files read apart each give the keywords their datasheets carry
    (INFANTRY in every army); the datasheets and places are joined, the first record's place first."""
    out: list[tuple[dict, list[dict]]] = []
    at: dict[str, int] = {}
    for record, prov in items:
        if record.get("kind") != "keyword":
            out.append((record, prov))
            continue
        i = at.get(record["id"])
        if i is None:
            at[record["id"]] = len(out)
            out.append((dict(record), list(prov)))
            continue
        first, first_prov = out[i]
        first["faction_keyword"] = first["faction_keyword"] or record["faction_keyword"]
        first["datasheets"] = sorted(set(first["datasheets"]) | set(record["datasheets"]))
        first_prov += [p for p in prov if p not in first_prov]
    return out


def _datasheet(file: AppFile, report: Report, ds: dict, army: str, army_rules: set[str],
               game_mode: str | None) -> tuple[dict, Sheet, list] | None:
    line = int(ds.get("$line", 1))
    name = name_of(ds.get("name")) if is_text(ds.get("name")) else ""
    sheet = Sheet(file, report, line, name or "?")
    if not name:
        report.error(file.name, line, "bad-title", "a datasheet without a name; left out", expected="a name",
                     found=str(ds.get("name"))[:80])
        return None
    for key in sorted(set(ds) - READ_KEYS - set(IGNORED_KEYS) - {"$line"}):
        sheet.warn("unknown-section", f"{key!r} is a key the reader does not know; left out",
                   expected="the keys of a datasheet (extract/app/datasheets.py)", found=key)
    ds_id = ids.in_game_mode(game_mode, ids.datasheet(army, name))
    keywords = _keywords(sheet, ds.get("keywords"), "keywords")
    faction_keywords = _keywords(sheet, ds.get("factions"), "factions")
    abilities, leader, support, invulnerable = unit_abilities.abilities(sheet, ds, army, None if game_mode else army_rules, file.ruleset)
    weapon_items, weapon_ids, weapon_rules = weapons(sheet, ds, ds_id, file.ruleset)
    for rule in weapon_rules:
        if not any(a["name"].casefold() == rule["name"].casefold() for a in abilities):
            abilities.append(rule)
    transport = sheet.text(ds.get("transport"), "the transport text") if ds.get("transport") is not None else ""
    loadout = sheet.text(ds.get("loadout"), "the loadout") if ds.get("loadout") is not None else ""
    record = records.datasheet(
        id=ds_id, name=name, ruleset=file.ruleset, faction=army, keywords=keywords,
        faction_keywords=faction_keywords, composition=parts.composition(sheet, ds), points=parts.points(sheet, ds, unpriced=game_mode is not None),
        abilities=abilities, transport=transport or records.OMIT, weapons=weapon_ids, loadout=loadout or records.OMIT,
        wargear_options=parts.wargear_options(sheet, ds), leader=leader or records.OMIT,
        support=support or records.OMIT, models=_models(sheet, ds, invulnerable),
        names=names_of(ds.get("name")) or records.OMIT, game_mode=game_mode or records.OMIT)
    return record, sheet, weapon_items


def _keywords(sheet: Sheet, listed, what: str) -> list[str]:
    """Keywords in capitals, as datasheets print them, each once, in the app's order."""
    if not isinstance(listed, list):
        sheet.warn("bad-keyword", f"its {what} are not a list; none read", expected="a list", found=type(listed).__name__)
        return []
    out: list[str] = []
    for raw in listed:
        word = re.sub(r"\s+", " ", plain(english(raw)) if is_text(raw) else "").strip().upper().replace("\u2019", "'")
        if not _KEYWORD.match(word):
            sheet.warn("bad-keyword", f"a keyword of its {what} is not a keyword; left out",
                       expected="letters (accented ones too), digits, spaces, hyphens, apostrophes", found=str(raw)[:80])
            continue
        if word not in out:
            out.append(word)
    return out


def _models(sheet: Sheet, ds: dict, invulnerable: tuple[int, str | None] | None) -> list[dict]:
    stats = ds.get("stats")
    if not isinstance(stats, list) or not stats:
        sheet.error("bad-characteristic", "it has no model characteristics", expected="a list of stats",
                    found=str(stats)[:80])
        return []
    base = ds.get("baseSize")
    base_size = sheet.text(base, "the base size") if base is not None else ""
    models: list[dict] = []
    for stat in stats:
        if not isinstance(stat, dict):
            sheet.error("bad-characteristic", "a model's characteristics are not an object; left out",
                        expected="{name, m, t, sv, w, ld, oc}", found=str(stat)[:80])
            continue
        model = _model(sheet, stat)
        if model is None:
            continue
        if invulnerable is not None:
            model["invulnerable"] = invulnerable[0]
            if invulnerable[1]:
                model["invulnerable_text"] = invulnerable[1]
        if base_size:
            model["base_size"] = base_size
        markers = model.pop("markers", None)
        if markers:
            model["markers"] = markers
        if model not in models:
            models.append(model)
    return models


def _model(sheet: Sheet, stat: dict) -> dict | None:
    name = name_of(stat.get("name")) if is_text(stat.get("name")) else ""
    for extra in sorted(set(stat) - set(_STAT_KEYS) - _STAT_LAYOUT - {"$line"}):
        sheet.warn("unknown-section", f"model {name!r} has {extra!r}, which the reader does not know; left out",
                   expected=", ".join(_STAT_KEYS), found=extra)
    raw = {field: str(stat.get(key, "")).strip() for key, field in _STAT_KEYS.items() if field}
    markers: dict[str, str] = {}
    for field, value in raw.items():
        m = _MARKED.match(value)
        # '+' is a marker on M alone: on Sv and Ld it is the value's own ('3+').
        if m and (m.group("mark") != "+" or field == "M"):
            markers[field] = m.group("mark")
            raw[field] = m.group("value") + m.group("inch")
    try:
        if not name:
            raise ValueError("no name")
        model = {"name": name, "M": parse_inches(raw["M"], "M"), "T": parse_int(raw["T"], "T"),
                 "Sv": parse_plus(raw["Sv"], "Sv"), "W": parse_int(raw["W"], "W"),
                 "Ld": parse_plus(raw["Ld"], "Ld", allow_none=True),
                 "OC": None if raw["OC"] in ("-", "") else parse_int(raw["OC"], "OC")}
    except ValueError as exc:
        sheet.error("bad-characteristic", f"model {name!r}: {exc}; model left out",
                    expected="M, T, SV, W, LD, OC values", found=", ".join(f"{k}={v}" for k, v in raw.items()))
        return None
    if markers:
        model["markers"] = markers
    return model
