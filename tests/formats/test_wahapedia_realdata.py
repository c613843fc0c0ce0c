"""The whole 10th-edition game from a real Wahapedia export (../shared/wahapedia), built once.

Every check here reads the export a second, independent way: the archive opened with
``tarfile``, each table split with plain Python (``_parse``), HTML stripped with a regex,
values read with ``int``; nothing of ``extract/wahapedia`` is used. A seeded random sample
of each table's rows is compared field by field with the records of the build; every row
of every table must be part of a record's provenance or carry a diagnostic.
"""

from __future__ import annotations

import collections
import html
import json
import random
import re
import tarfile
import unicodedata

import pytest

import realdata

pytestmark = pytest.mark.slow

SEED = 26
SAMPLE = 60  # rows a table
ARCHIVE = "wahapedia-10e-2025-07.tar.xz"


# -- record ids, made here from the documented formulas (schema/ids.py, docs/records.md) -------
# Not with warscribe.schema.ids: an id the build gets wrong must not be looked up the same wrong way.

def slug(text: str) -> str:
    """A name as an id part: lower-case ASCII letters and digits, every run of anything else one
    '-' (none at either end); apostrophes dropped ('Zealot's' -> 'zealots') and accents taken off
    ('Kâhl' -> 'kahl'); 'unnamed' when nothing is left."""
    text = unicodedata.normalize("NFKD", re.sub(r"['’]", "", text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "unnamed"


class Id:
    """faction/datasheet, faction/detachment, <detachment>/<stratagem> or core-10e/..., ..."""

    @staticmethod
    def datasheet(faction: str, name: str) -> str:
        return f"{slug(faction)}/{slug(name)}"

    detachment = datasheet

    @staticmethod
    def stratagem(origin: str, ruleset: str, name: str, detachment_id: str | None) -> str:
        prefix = {"core": f"core-{ruleset}", "boarding-actions": "boarding-actions",
                  "challenger": f"challenger-{ruleset}"}.get(origin, detachment_id)
        assert prefix, (origin, name)
        return f"{prefix}/{slug(name)}"

    @staticmethod
    def enhancement(name: str, detachment_id: str | None, faction: str) -> str:
        return f"{detachment_id or slug(faction)}/enhancements/{slug(name)}"

    @staticmethod
    def keyword(ruleset: str, name: str) -> str:
        return f"{ruleset}/keywords/{slug(name)}"

    @staticmethod
    def core_ability(ruleset: str, name: str) -> str:
        return f"{ruleset}/abilities/{slug(name)}"

    @staticmethod
    def faction_ability(faction: str, name: str) -> str:
        return f"{slug(faction)}/abilities/{slug(name)}"


def test_the_tests_slug_follows_the_documented_examples():
    assert slug("Ordo Xenos Alien Hunters") == "ordo-xenos-alien-hunters"
    assert slug("T’au Empire") == slug("T'au Empire") == "tau-empire"
    assert slug("KÂHL") == "kahl" and slug("‘IRON HAND’ STRAKEN") == "iron-hand-straken"
    assert slug("Hell Blade [Legends]") == "hell-blade-legends" and slug("?!") == "unnamed"
    assert Id.stratagem("core", "10e", "Command Re-roll", None) == "core-10e/command-re-roll"


# -- the export, read independently -------------------------------------------------------------

def _parse(text: str) -> list[dict]:
    """Rows of one table: '|' between fields and after the last; a row may span lines."""
    lines = text.replace("\r\n", "\n").split("\n")
    columns = lines[0].split("|")[:-1]
    rows, buf, start = [], [], 0
    for no, line in enumerate(lines[1:], start=2):
        if not buf:
            if not line.strip():
                continue
            start = no
        buf.append(line)
        joined = "\n".join(buf)
        if joined.count("|") >= len(columns) and joined.rstrip().endswith("|"):
            row = dict(zip(columns, (v.strip() for v in joined.split("|")[:-1])))
            row["_line"], row["_last"] = start, no
            rows.append(row)
            buf = []
    return rows


@pytest.fixture(scope="module")
def tables() -> dict[str, list[dict]]:
    out = {}
    with tarfile.open(realdata.path("wahapedia-10e")) as tf:
        for member in tf.getmembers():
            if member.isfile() and member.name.endswith(".csv"):
                out[member.name.rsplit("/", 1)[-1]] = _parse(tf.extractfile(member).read().decode("utf-8-sig"))
    return out


def plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", " ", fragment))).strip()


def words(fragment: str | None) -> list[str]:
    return re.findall(r"[A-Za-z0-9]+", plain(fragment or ""))


def sample(rows: list[dict], n: int = SAMPLE) -> list[dict]:
    return random.Random(SEED).sample(rows, min(n, len(rows)))


def number(raw: str) -> int | None:
    m = re.search(r"\d+", raw)
    return int(m.group()) if m else None


def dice(raw: str):
    raw = raw.strip().upper()
    return int(raw) if raw.isdigit() else raw


# -- the build ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def out(tmp_path_factory):
    # With its site: the site's tests read this very build, so the whole game is built once per run.
    return realdata.build(tmp_path_factory, "wahapedia-10e", site=True)


@pytest.fixture(scope="module")
def records(out) -> dict[str, dict]:
    bundle = json.loads((out / "json" / "warscribe.json").read_text(encoding="utf-8"))
    return {r["id"]: r for recs in bundle["data"].values() for r in recs}


@pytest.fixture(scope="module")
def diagnostics(out) -> list[dict]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))["diagnostics"]


@pytest.fixture(scope="module")
def at(diagnostics) -> dict[tuple[str, int], list[dict]]:
    """Diagnostics by (table, line)."""
    out = collections.defaultdict(list)
    for d in diagnostics:
        out[(d["file"].rsplit("/", 1)[-1], d["line"])].append(d)
    return out


@pytest.fixture(scope="module")
def look(tables):
    """Independent look-ups: faction names, publications, datasheet ids and names."""
    factions = {r["id"]: plain(r["name"]).replace("’", "'") for r in tables["Factions.csv"]}
    sources = {r["id"]: r for r in tables["Source.csv"]}
    names, dsid, legends = {}, {}, set()
    for r in tables["Datasheets.csv"]:
        name = plain(r["name"]).strip()
        src = sources.get(r["source_id"])
        names[r["id"]] = name  # as printed; a Legends datasheet's id says '-legends', its record `legends`
        if src and src["name"].split(":", 1)[0].strip().endswith("Legends"):
            legends.add(r["id"])
            name += " [Legends]"
        dsid[r["id"]] = Id.datasheet(factions[r["faction_id"]], name)
    # Karanak is printed in the Chaos Daemons index and as a Legends datasheet: two records.
    assert len(set(dsid.values())) == len(dsid)
    return {"factions": factions, "sources": sources, "names": names, "dsid": dsid, "legends": legends}


def provenance_at(record: dict, table: str, line: int) -> dict | None:
    return next((s for s in record["source"] if s["file"].endswith("/" + table)
                 and s["first_line"] <= line <= s["last_line"]), None)


# -- the build as a whole ----------------------------------------------------------------------

def test_the_whole_game_builds_without_errors(out, records, diagnostics):
    assert realdata.status("wahapedia-10e", site=True) == 0, realdata.log("wahapedia-10e", site=True)[-3000:]
    assert "Traceback" not in realdata.log("wahapedia-10e", site=True)
    assert [d for d in diagnostics if d["level"] == "error"] == []
    codes = collections.Counter(d["code"] for d in diagnostics)
    # What the export itself gets wrong, each row located; nothing the reader cannot read.
    assert set(codes) <= {"empty-field", "unknown-reference", "weapon-ability", "bad-composition",
                          "stratagem-mismatch", "scraping-typo", "unused-publication", "unread-table",
                          "conflicting-duplicate", "id-collision", "unmatched-model-keyword"}, codes
    assert not any(d["code"] == "unresolved-reference" for d in diagnostics)  # core and faction abilities resolve


def test_counts_per_kind_follow_from_the_tables(records, tables, look):
    kinds = collections.Counter(r["kind"] for r in records.values())
    strat = tables["Stratagems.csv"]
    army = [r for r in strat if r["detachment"] == "Army Rules"]
    origin_ids = set()
    for r in strat:
        if r in army:
            continue
        det = plain(r["detachment"]).strip()
        fac = look["factions"].get(r["faction_id"])
        head = r["type"].split("–")[0].strip().lower()
        origin = "detachment" if det else "boarding-actions" if head.startswith("boarding") else \
            "challenger" if head.startswith("challenger") else "core"
        origin_ids.add(Id.stratagem(origin, "10e", plain(r["name"]), Id.detachment(fac, det) if det else None))
    dets = {(r["faction_id"], plain(r["detachment"]).strip().lower())
            for t in ("Stratagems.csv", "Enhancements.csv", "Detachment_abilities.csv") for r in tables[t]
            if r["detachment"].strip() and r["detachment"] != "Army Rules"}
    known = set(look["dsid"])
    keywords = {re.sub(r"\s+", " ", plain(r["keyword"])).strip().upper() for r in tables["Datasheets_keywords.csv"]
                if r["datasheet_id"] in known and r["keyword"].strip()}
    assert kinds["datasheet"] == len(tables["Datasheets.csv"]) == 1624
    assert kinds["stratagem"] == len(origin_ids) == 1132  # NEW ORDERS is printed three times
    assert kinds["enhancement"] == len(tables["Enhancements.csv"]) == 700
    assert kinds["detachment"] == len(dets) == 202
    assert kinds["ability"] == len(tables["Abilities.csv"]) + len(army) == 73
    assert kinds["keyword"] == len(keywords) == 1335
    assert kinds["weapon"] == sum(1 for r in tables["Datasheets_wargear.csv"] if r["datasheet_id"] in known) == 6634


def test_every_row_is_part_of_a_record_or_has_a_diagnostic(records, tables, at, look):
    covered = collections.defaultdict(set)
    publications, factions = set(), set()
    for rec in records.values():
        for s in rec["source"]:
            covered[s["file"].rsplit("/", 1)[-1]].update(range(s["first_line"], s["last_line"] + 1))
            if "publication" in s:
                publications.add(s["publication"]["id"])
        factions.add(rec.get("faction"))
    missing = collections.Counter()
    for table, rows in tables.items():
        if at.get((table, 1)) and any(d["code"] == "unread-table" for d in at[(table, 1)]):
            continue  # named once, with why it is not read
        for r in rows:
            # The look-up tables are part of records as values: a faction's name, a publication.
            used = (table == "Factions.csv" and look["factions"][r["id"]] in factions) or \
                   (table == "Source.csv" and r["id"] in publications)
            if not used and r["_line"] not in covered[table] and not at.get((table, r["_line"])):
                missing[table] += 1
    assert not missing, missing


# -- samples of each table, field by field ---------------------------------------------------

def test_datasheets_rows(records, tables, look):
    for r in sample(tables["Datasheets.csv"]):
        rec = records[look["dsid"][r["id"]]]
        assert rec["name"] == look["names"][r["id"]]
        assert bool(rec.get("legends")) == (r["id"] in look["legends"]), rec["id"]
        assert rec["faction"] == look["factions"][r["faction_id"]]
        entry = provenance_at(rec, "Datasheets.csv", r["_line"])
        assert entry is not None, rec["id"]
        src = look["sources"].get(r["source_id"])
        if src:
            d, m, y = re.match(r"(\d+)\.(\d+)\.(\d+)", src["errata_date"]).groups()
            assert entry["publication"]["name"] == plain(src["name"])
            assert entry["publication"]["errata_date"] == f"{y}-{m}-{d}"


def test_loadout_transport_and_damaged_columns_of_every_datasheet(records, tables, look):
    transports = damaged = loadouts = 0
    for r in tables["Datasheets.csv"]:
        rec = records[look["dsid"][r["id"]]]
        if r["loadout"]:
            loadouts += 1
            assert words(rec["loadout"]) == words(r["loadout"]), rec["id"]
        else:
            assert "loadout" not in rec, rec["id"]
        if r["transport"]:
            transports += 1
            assert words(rec["transport"]) == words(r["transport"]), rec["id"]
        else:
            assert "transport" not in rec, rec["id"]
        boxes = [a for a in rec["abilities"] if a["name"].startswith("Damaged: ")]
        if r["damaged_w"]:
            damaged += 1
            assert [(a["name"], a["type"]) for a in boxes] == [(f"Damaged: {r['damaged_w']} Wounds Remaining",
                                                                "datasheet")], rec["id"]
            assert words(boxes[0]["text"]) == words(r["damaged_description"]), rec["id"]
        else:
            assert boxes == [], rec["id"]
    # The July 2025 export: 1,617 of 1,624 datasheets print their loadout, 174 a transport capacity,
    # 352 a damaged profile.
    assert (loadouts, transports, damaged) == (1617, 174, 352)


def test_model_rows(records, tables, look):
    by_ds = collections.defaultdict(list)
    for r in tables["Datasheets_models.csv"]:
        by_ds[r["datasheet_id"]].append(r)
    rows = [r for r in tables["Datasheets_models.csv"] if r["datasheet_id"] in look["dsid"]]
    marked = [r for r in rows if "*" in r["T"] + r["inv_sv"] or "+" in r["M"]][:5]
    for r in sample(rows) + marked:
        rec = records[look["dsid"][r["datasheet_id"]]]
        index = sorted(by_ds[r["datasheet_id"]], key=lambda x: int(x["line"])).index(r)
        model = rec["models"][index]
        assert model["name"] == plain(r["name"]).strip()
        for column, field in (("M", "M"), ("T", "T"), ("Sv", "Sv"), ("inv_sv", "invulnerable"), ("W", "W"),
                              ("Ld", "Ld"), ("OC", "OC")):
            assert model[field] == number(r[column]), (rec["id"], column)
        assert ("+" in r["M"]) == ("+" in model.get("markers", {}).get("M", ""))
        assert ("*" in r["T"]) == (model.get("markers", {}).get("T") == "*")
        assert provenance_at(rec, "Datasheets_models.csv", r["_line"])["fields"] == ["models"]


def _weapon_name(row: dict) -> str:
    return re.sub(r"^[➤\s]+", "", plain(row["name"]).strip())


def _one_name(name: str) -> str:
    """Names that differ only in case or apostrophe are one weapon (docs/formats.md)."""
    return name.replace("’", "'").casefold()


def weapon_ids(ds_id: str, rows: list[dict]) -> dict[tuple[str, str], str]:
    """(name, type) -> id of a datasheet's weapons, as ids.weapons' docstring says, in the rows' order
    (line, line in wargear): '<datasheet>/<slug>'; a melee profile whose name slugs like a ranged one
    of the datasheet ends '-melee'; a later, different name that slugs alike gets '-2', '-3' ..."""
    rows = sorted(rows, key=lambda r: (int(r["line"]), int(r["line_in_wargear"] or 0)))
    given = [(_one_name(_weapon_name(r)), r["type"].lower()) for r in rows]
    ranged = {slug(n) for n, kind in given if kind == "ranged"}
    out: dict[tuple[str, str], str] = {}
    for name, kind in given:
        if (name, kind) in out:
            continue
        base = f"{ds_id}/{slug(name)}" + ("-melee" if kind == "melee" and slug(name) in ranged else "")
        taken, wid, n = set(out.values()), base, 1
        while wid in taken:
            n += 1
            wid = f"{base}-{n}"
        out[(name, kind)] = wid
    return out


def test_wargear_rows(records, tables, look):
    rows = [r for r in tables["Datasheets_wargear.csv"] if r["datasheet_id"] in look["dsid"]]
    by_ds = collections.defaultdict(list)
    for r in rows:
        by_ds[r["datasheet_id"]].append(r)
    for r in sample(rows, 120):
        ds = look["dsid"][r["datasheet_id"]]
        name = _weapon_name(r)
        kind = r["type"].lower()
        [weapon] = [w for w in records.values() if w["kind"] == "weapon" and w["datasheet"] == ds
                    and w["name"] == name and w["type"] == kind]
        assert weapon["id"] == weapon_ids(ds, by_ds[r["datasheet_id"]])[(_one_name(name), kind)]
        assert weapon["id"] in records[ds]["weapons"]
        assert weapon["range"] == (None if r["range"] in ("Melee", "N/A") else int(r["range"].rstrip('"')))
        assert weapon["attacks"] == dice(r["A"])
        assert weapon["skill"] == (None if r["BS_WS"] in ("N/A", "-") else number(r["BS_WS"]))
        assert weapon["strength"] == dice(r["S"])
        assert weapon["ap"] == int(r["AP"].replace("-0", "0"))
        assert weapon["damage"] == dice(r["D"])
        assert provenance_at(weapon, "Datasheets_wargear.csv", r["_line"])


def test_a_ranged_and_a_melee_profile_of_one_name_are_two_weapons(records, tables, look):
    pairs = collections.defaultdict(set)
    for r in tables["Datasheets_wargear.csv"]:
        if r["datasheet_id"] in look["dsid"]:
            pairs[(r["datasheet_id"], slug(plain(r["name"])))].add(r["type"])
    both = [k for k, v in pairs.items() if v == {"Ranged", "Melee"}]
    assert len(both) >= 60
    for did, name in both:
        ds = look["dsid"][did]
        assert records[f"{ds}/{name}"]["type"] == "ranged"
        assert records[f"{ds}/{name}-melee"]["type"] == "melee"
    harpoon = [w for w in records.values() if w["kind"] == "weapon" and w["name"].lower() == "toxinjector harpoon"]
    assert sorted(w["id"].rsplit("/", 1)[1] for w in harpoon) == ["toxinjector-harpoon", "toxinjector-harpoon-melee"]


def test_keyword_rows(records, tables, look, at):
    for r in sample(tables["Datasheets_keywords.csv"], 150):
        if r["datasheet_id"] not in look["dsid"]:
            continue
        ds = records[look["dsid"][r["datasheet_id"]]]
        kw = re.sub(r"\s+", " ", plain(r["keyword"])).strip().upper()
        if not kw:
            assert any(d["code"] == "empty-field" for d in at[("Datasheets_keywords.csv", r["_line"])])
            continue
        assert kw in (ds["faction_keywords"] if r["is_faction_keyword"] == "true" else ds["keywords"])
        record = records[Id.keyword("10e", kw)]
        assert record["name"] == kw and ds["id"] in record["datasheets"]
        assert provenance_at(record, "Datasheets_keywords.csv", r["_line"])
    for kw in ("REGIMENTAL ATTACHÉS", "‘IRON HAND’ STRAKEN", "KHÂRN THE BETRAYER", "NOB WITH WAAAGH! BANNER"):
        assert records[Id.keyword("10e", kw)]["name"] == kw


def test_keywords_of_one_model_are_on_its_profile(records, tables, look, at):
    """Every keyword row naming a model: on the one profile of that name (' ONLY' aside), else reported."""
    profiles = collections.defaultdict(list)
    for r in tables["Datasheets_models.csv"]:
        profiles[r["datasheet_id"]].append(plain(r["name"]).strip())
    placed = reported = 0
    for r in tables["Datasheets_keywords.csv"]:
        model = re.sub(r"\s+only$", "", plain(r["model"]).strip(), flags=re.I)
        kw = re.sub(r"\s+", " ", plain(r["keyword"])).strip().upper()
        if not model or model.casefold() in ("all", "all models") or not kw or not profiles[r["datasheet_id"]]:
            continue
        ds = records[look["dsid"][r["datasheet_id"]]]
        exact = [name for name in profiles[r["datasheet_id"]] if name.casefold() == model.casefold()]
        if len(exact) == 1:
            placed += 1
            [profile] = [m for m in ds["models"] if m["name"].strip().casefold() == exact[0].casefold()]
            assert kw in profile["keywords"], (ds["id"], kw)
        elif not any(kw in (m.get("keywords") or ()) for m in ds["models"]):
            reported += 1
            assert any(d["code"] == "unmatched-model-keyword" for d in at[("Datasheets_keywords.csv", r["_line"])])
    # The July 2025 export: rows naming a profile exactly, and the 23 that name none (a Ravenwing
    # Champion, an Astropath sharing their squad's profile).
    assert placed > 100 and reported == 23
    apostle = records["chaos-space-marines/dark-apostle"]
    assert [m.get("keywords") for m in apostle["models"]] == [["DARK APOSTLE", "CHARACTER"], None]


def test_ability_rows(records, tables, look):
    ability_names = {r["id"]: plain(r["name"]).strip() for r in tables["Abilities.csv"]}
    for r in sample(tables["Datasheets_abilities.csv"], 150):
        if r["datasheet_id"] not in look["dsid"]:
            continue
        ds = records[look["dsid"][r["datasheet_id"]]]
        name = plain(r["name"]).strip() or ability_names[r["ability_id"]]
        if r["parameter"].strip():
            name += " " + r["parameter"].strip()
        name = re.sub(r"\s*\(Psychic\)$", "", name)
        [ability] = [a for a in ds["abilities"] if a["name"] == name][:1]
        if r["type"] in ("Core", "Faction"):
            assert ability["type"] == r["type"].lower()
            assert ability["ref"] in records  # its rule text is an ability record
        else:
            assert words(ability["text"]) == words(r["description"])


def test_abilities_csv_rows_are_ability_records(records, tables, look):
    for r in tables["Abilities.csv"]:
        name = plain(r["name"]).strip()
        rid = Id.faction_ability(look["factions"][r["faction_id"]], name) if r["faction_id"] else \
            Id.core_ability("10e", name)
        rec = records[rid]
        assert rec["type"] == ("faction" if r["faction_id"] else "core")
        # The rules site's banner (the name in capitals, then the legend) heads some
        # descriptions; the legend is the record's flavour, so the text starts after it.
        expected, banner, legend = words(r["description"]), words(name), words(r["legend"])
        if [w.casefold() for w in expected[:len(banner)]] == [w.casefold() for w in banner]:
            expected = expected[len(banner):]
        if legend and expected[:len(legend)] == legend:
            expected = expected[len(legend):]
        assert words(rec["text"]) == expected, rid
    firing_deck = records["10e/abilities/firing-deck"]
    assert firing_deck["text"].startswith("Some TRANSPORT models have"), firing_deck["text"][:80]
    assert not any(e["text"] in ("FIRING DECK", firing_deck["flavour"]) for e in firing_deck.get("effects", []))


def test_composition_rows(records, tables, look):
    by_ds = collections.defaultdict(list)
    for r in tables["Datasheets_unit_composition.csv"]:
        by_ds[r["datasheet_id"]].append(r)
    simple = [r for did, rows in by_ds.items() if did in look["dsid"] for r in rows
              if all(re.fullmatch(r"\d+(-\d+)? [A-Za-z][A-Za-z ’'-]*", plain(x["description"]).strip()) for x in rows)]
    for r in sample(simple):
        m = re.fullmatch(r"(\d+)(?:-(\d+))? (.+)", plain(r["description"]).strip())
        entry = {"name": m[3], "min": int(m[1]), "max": int(m[2] or m[1])}
        assert entry in records[look["dsid"][r["datasheet_id"]]]["composition"]
    gretchin = records["orks/gretchin"]["composition"]  # '1 Runtherd and 10 Gretchin', 'OR', '2 Runtherds and 20 Gretchin'
    assert gretchin == [{"name": "Runtherd", "min": 1, "max": 2}, {"name": "Gretchin", "min": 10, "max": 20}]


def test_cost_rows(records, tables, look):
    rows = [r for r in tables["Datasheets_models_cost.csv"] if r["datasheet_id"] in look["dsid"]]
    headers = {r["datasheet_id"] for r in rows if not r["cost"].strip()}
    plain_rows = [r for r in rows if r["datasheet_id"] not in headers and re.fullmatch(r"\d+ models?", r["description"])]
    for r in sample(plain_rows):
        points = records[look["dsid"][r["datasheet_id"]]]["points"]
        assert {"models": number(r["description"]), "points": int(r["cost"]), "condition": None} in points
    for r in rows:
        ds = records[look["dsid"][r["datasheet_id"]]]
        if r["cost"].startswith("+"):
            assert {"name": plain(r["description"]), "points": int(r["cost"][1:])} in ds["extra_points"]
        elif " and " in r["description"]:  # '1 Spanner and 4 Burna Boyz'
            models = sum(int(n) for n in re.findall(r"\d+", r["description"]))
            assert {"models": models, "points": int(r["cost"]), "condition": None} in ds["points"]
        elif "(" in r["description"]:  # '1 model (AGENTS OF THE IMPERIUM Detachment)'
            condition = re.search(r"\((.*)\)", plain(r["description"]))[1].strip()
            assert {"models": number(r["description"]), "points": int(r["cost"]), "condition": condition} in ds["points"]


def test_leader_rows(records, tables, look):
    for r in sample(tables["Datasheets_leader.csv"]):
        leader, led = records[look["dsid"][r["leader_id"]]], records[look["dsid"][r["attached_id"]]]
        assert led["name"] in leader["leader"]["units"]
        assert leader["name"] in led["led_by"]["units"]


def test_option_rows(records, tables, look):
    rows = [r for r in tables["Datasheets_options.csv"] if r["datasheet_id"] in look["dsid"]
            and plain(r["description"]).strip() != "None" and r["button"] == "•"]
    for r in sample(rows):
        options = records[look["dsid"][r["datasheet_id"]]]["wargear_options"]
        assert any(words(o["text"] + " " + " ".join(o.get("choices", []))) == words(r["description"]) for o in options)


def test_stratagem_rows(records, tables, look):
    turns = {"Your turn": "your", "Opponent’s turn": "opponent", "Either player’s turn": "either"}
    for r in sample([r for r in tables["Stratagems.csv"] if r["detachment"] != "Army Rules"], 150):
        det = plain(r["detachment"]).strip()
        head = r["type"].split("–")[0].strip().lower()
        origin = "detachment" if det else "boarding-actions" if head.startswith("boarding") else \
            "challenger" if head.startswith("challenger") else "core"
        det_id = Id.detachment(look["factions"][r["faction_id"]], det) if det else None
        rec = records[Id.stratagem(origin, "10e", plain(r["name"]).strip(), det_id)]
        assert (rec["origin"], rec["detachment"], rec["cp"]) == (origin, det_id, int(r["cp_cost"]))
        assert rec["category"] == re.search(r"(Battle Tactic|Strategic Ploy|Epic Deed|Wargear)", r["type"])[1]
        assert rec["turn"] == turns[r["turn"]]
        assert rec["phases"] == r["phase"].removesuffix(" phase").lower().split(" or ")
        if rec["name"] == "NEW ORDERS":
            continue  # printed three times; the first is kept
        body, _, note = r["description"].partition("Designer’s Note:")
        parts = re.split(r"<b>(WHEN|TARGET|EFFECT|RESTRICTIONS):</b>", body)
        said = dict(zip(parts[1::2], parts[2::2]))
        for label, part in said.items():
            assert words(rec[label.lower()]) == words(part), (rec["id"], label)
        assert words(rec.get("designer_note")) == words(note)
        assert words(rec["flavour"]) == words(r["legend"])
        assert provenance_at(rec, "Stratagems.csv", r["_line"])
        if det_id:
            assert rec["id"] in records[det_id]["stratagems"]


def test_army_rule_rows_are_faction_abilities(records, tables, look):
    army = [r for r in tables["Stratagems.csv"] if r["detachment"] == "Army Rules"]
    assert len(army) == 6 and all(not r["cp_cost"] for r in army)
    for r in army:
        rec = records[Id.faction_ability(look["factions"][r["faction_id"]], plain(r["name"]).strip())]
        assert rec["kind"] == "ability" and rec["type"] == "faction"
        assert words(rec["text"]) == words(r["description"])
        assert not any(s.get("detachment") == "aeldari/army-rules" for s in records.values())
    assert "aeldari/army-rules" not in records


def test_enhancement_rows(records, tables, look):
    for r in sample(tables["Enhancements.csv"], 100):
        faction = look["factions"][r["faction_id"]]
        det_id = Id.detachment(faction, plain(r["detachment"]).strip())
        rec = records[Id.enhancement(plain(r["name"]).strip(), det_id, faction)]
        assert rec["points"] == int(r["cost"].lstrip("+"))
        assert rec["detachment"] == det_id and rec["id"] in records[det_id]["enhancements"]
        assert records[det_id]["faction"] == faction
        m = re.match(r"(.*?\bmodels? only\.)(.*)$", plain(r["description"]).strip(), re.S)
        if m:
            assert words(rec["restriction"]) == words(m[1]) and words(rec["text"]) == words(m[2])
        else:
            assert rec["restriction"] is None and words(rec["text"]) == words(r["description"])
    assert records["imperial-agents/veiled-blade-elimination-force/enhancements/micromelta-rounds"]["points"] == 45


def test_detachment_rule_rows(records, tables, look):
    by_det = collections.defaultdict(list)
    for r in tables["Detachment_abilities.csv"]:
        by_det[(r["faction_id"], plain(r["detachment"]).strip())].append(r)
    for (fid, det), rows in by_det.items():
        rec = records[Id.detachment(look["factions"][fid], det)]
        printed = [rec["rule"]] + rec.get("additional_rules", [])
        assert [x["name"] for x in printed] == [plain(r["name"]).strip() for r in rows]
        for rule, r in zip(printed, rows):
            said = collections.Counter(words(rule["text"]) + words(rule.get("designer_note")))
            assert said + collections.Counter(["Designer", "s", "Note"] if rule.get("designer_note") else []) \
                == collections.Counter(words(r["description"])), rec["id"]
    assert [r["name"] for r in records["tau-empire/kroot-hunting-pack"]["additional_rules"]] == \
        ["Skirmish Fighters", "KEYWORDS"]


def test_source_rows_are_publications_on_provenance(records, tables, at):
    given = collections.defaultdict(set)
    for rec in records.values():
        for s in rec["source"]:
            if "publication" in s:
                given[s["publication"]["id"]].add(s["publication"].get("by", "source_id"))
    for r in tables["Source.csv"]:
        if r["id"] not in given:
            assert [d["code"] for d in at[("Source.csv", r["_line"])]] == ["unused-publication"], r["name"]
    assert "title" in given[next(r["id"] for r in tables["Source.csv"] if r["name"] == "Orks - More Dakka!")]


def test_one_unit_in_two_publications_is_kept_apart(records):
    index, legends = records["chaos-daemons/karanak"], records["chaos-daemons/karanak-legends"]
    assert (index["name"], legends["name"], legends.get("legends")) == ("Karanak", "Karanak", True)
    assert "legends" not in index
    assert [s["publication"]["name"] for s in index["source"] if "publication" in s] == ["Chaos Daemons"]
    assert [s["publication"]["name"] for s in legends["source"] if "publication" in s] == ["Legends: Legiones Daemonica"]


def test_compiled_targets_agree_with_the_exports_links(records, tables, look):
    """Datasheets_stratagems.csv is not read: which units a stratagem can target is compiled
    from its TARGET. The export's links say the same for most pairs (measured here)."""
    strat_id = {}
    for r in tables["Stratagems.csv"]:
        if r["detachment"] == "Army Rules":
            continue
        det = plain(r["detachment"]).strip()
        head = r["type"].split("–")[0].strip().lower()
        origin = "detachment" if det else "boarding-actions" if head.startswith("boarding") else \
            "challenger" if head.startswith("challenger") else "core"
        strat_id[r["id"]] = Id.stratagem(origin, "10e", plain(r["name"]).strip(),
                                          Id.detachment(look["factions"][r["faction_id"]], det) if det else None)
    linked = {(look["dsid"][r["datasheet_id"]], strat_id[r["stratagem_id"]]) for r in tables["Datasheets_stratagems.csv"]
              if r["datasheet_id"] in look["dsid"] and r["stratagem_id"] in strat_id}
    for origins, least in ((("core", "boarding-actions"), 1.0), (("detachment",), 0.95)):
        links = {(d, s) for d, s in linked if records[s]["origin"] in origins}
        compiled = {(d, s) for s in {s for _d, s in links} for d in records[s]["targets"]}
        # Every unit the export lets use a stratagem, the compiled TARGET lets too (nearly: the
        # compiler reads keywords; a detachment's own limits, such as a chapter's, it does not know).
        assert len(links & compiled) / len(links) >= least, (origins, len(links), len(links & compiled))


def test_the_whole_game_round_trips_through_our_export(records, tmp_path):
    """`warscribe export --format wahapedia-csv` of the whole game, read back, gives the same records
    (what the format carries; a leader list's order follows the leader rows, so it is compared as a set)."""
    from formats.test_wahapedia import CARRIED, comparable
    from warscribe.export_csv import write_export
    from warscribe.extract.wahapedia import load_export
    from warscribe.schema.diagnostics import Report

    write_export(list(records.values()), tmp_path)
    report = Report()
    back = {r["id"]: r for r in load_export(tmp_path, "x", "10e", report).records()}
    assert report.errors == []
    carried = {rid: r for rid, r in records.items() if r["kind"] in CARRIED and (r["kind"] != "keyword" or r["datasheets"])
               and (r["kind"] != "ability" or r["type"] in ("core", "faction"))}
    assert set(back) == set(carried)

    def same(rec: dict) -> dict:
        rec = comparable(rec, False)
        for key in ("leader", "led_by"):
            if key in rec:
                rec[key] = dict(rec[key], units=sorted(rec[key]["units"]))
        return rec

    differing = [rid for rid in carried if same(back[rid]) != same(carried[rid])]
    assert not differing, differing[:5]


def test_the_example_manifest_names_the_export_with_its_checksum():
    from warscribe.extract.manifest import load_manifest
    from warscribe.extract.pipeline import READERS
    from warscribe.schema.diagnostics import Report

    report = Report()
    manifest = realdata.ROOT / "examples" / "wahapedia-10e" / "manifest.yaml"
    [source] = load_manifest(manifest, report, READERS, (realdata.path("wahapedia-10e").parent,))
    assert report.diagnostics == [] and source.entry["kind"] == "wahapedia-csv"
    assert source.path.name == ARCHIVE
