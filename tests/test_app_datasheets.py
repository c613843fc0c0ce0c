"""The app's datasheets (extract/app/datasheets.py): small inline files, and a sample of the real data
read independently (tarfile + json) and compared field by field with the records."""

from __future__ import annotations

import json
import random
import re
import tarfile
from pathlib import Path

import pytest

from warscribe.extract.app import datasheets
from warscribe.extract.app.source import AppFile
from warscribe.extract.battlescribe.tree import parse_json
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import record_errors

ARCHIVE = Path("/work/shared/app11e/gdc-11e-912.tar.xz")


def _ds(**over) -> dict:
    ds = {
        "id": "ds-1", "name": {"en": "Assault Intercessor Squad", "fr": "Escouade d'Intercessors d'Assaut"},
        "factions": ["Adeptus Astartes"], "keywords": [{"en": "Infantry"}, {"en": "Assault Intercessor Squad"}],
        "stats": [{"name": {"en": "Assault Intercessor"}, "m": "6\"", "t": "4", "sv": "3+", "w": "2", "ld": "6+",
                   "oc": "2", "showName": True}],
        "rangedWeapons": [], "meleeWeapons": [],
        "abilities": {"faction": [{"name": {"en": "Oath of Moment"}}], "core": [{"name": {"en": "Deadly Demise D3"}}]},
        "composition": [{"en": "**1 Assault Intercessor Sergeant**"}, {"en": "**4‐9 Assault Intercessors**"}],
        "loadout": {"en": "**Every model is equipped with:** heavy bolt pistol."},
        "wargear": [{"en": "None"}], "points": [{"cost": "75", "models": "5", "keyword": None, "detachment": None}],
        "baseSize": {"en": "32mm"}, "fluff": {"en": "Flavour."},
    }
    ds.update(over)
    return ds


def _read(*sheets, game_mode=None, name="Adeptus Astartes"):
    doc = {"id": "f", "name": name, "rules": {"army": [{"name": {"en": "Oath of Moment"}}]}, "datasheets": list(sheets)}
    data = json.dumps(doc, indent=1, ensure_ascii=False).encode()
    file = AppFile("app.tar.xz/gdc/x.json", "gdc/x.json", "faction", parse_json(data), "11e")
    report = Report()
    items = datasheets.read_faction(file, report, game_mode=game_mode)
    for record, prov in items:
        assert record_errors({**record, "source": prov}) == [], record["id"]
    return items, report


def _only(items, kind):
    return [r for r, _p in items if r["kind"] == kind]


def _line(items, name="Assault Intercessor Squad"):
    """The line the datasheet's id is written on, as its record's first provenance entry says."""
    [line] = [p[0]["first_line"] for r, p in items if r["kind"] == "datasheet" and r["name"] == name]
    return line


def test_composition_points_and_requisition():
    items, report = _read(_ds(points=[{"cost": "150", "models": "10", "keyword": None, "detachment": None},
                                      {"cost": "75", "models": "5", "keyword": None, "detachment": None},
                                      {"cost": "90", "models": "5", "keyword": {"en": "Imperium"}, "detachment": None}],
                              additionalCost={"cost": "10", "afterSelections": 2}))
    ds = _only(items, "datasheet")[0]
    assert ds["id"] == "space-marines/assault-intercessor-squad" and ds["faction"] == "Space Marines"
    assert ds["names"] == {"fr": "Escouade d'Intercessors d'Assaut"}
    assert ds["composition"] == [{"name": "Assault Intercessor Sergeant", "min": 1, "max": 1},
                                 {"name": "Assault Intercessors", "min": 4, "max": 9}]
    assert ds["points"] == [
        {"models": 5, "points": 75, "condition": None, "from_copy": None},
        {"models": 10, "points": 150, "condition": None, "from_copy": None},
        {"models": 5, "points": 85, "condition": None, "from_copy": 3},
        {"models": 10, "points": 160, "condition": None, "from_copy": 3},
        {"models": 5, "points": 90, "condition": "IMPERIUM", "from_copy": None},
        {"models": 5, "points": 100, "condition": "IMPERIUM", "from_copy": 3}]
    assert ds["abilities"] == [
        {"name": "Deadly Demise D3", "type": "core", "text": None, "ref": "11e/abilities/deadly-demise"},
        {"name": "Oath of Moment", "type": "faction", "text": None, "ref": "space-marines/abilities/oath-of-moment"}]
    assert ds["keywords"] == ["INFANTRY", "ASSAULT INTERCESSOR SQUAD"] and ds["faction_keywords"] == ["ADEPTUS ASTARTES"]
    assert ds["loadout"] == "Every model is equipped with: heavy bolt pistol."
    assert ds["models"] == [{"name": "Assault Intercessor", "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 2,
                             "base_size": "32mm"}]
    assert not report.diagnostics


def test_model_lines_listed_with_commas_are_a_line_each():
    """The app's Jakhals: '1 Jakhal Pack Leader, 1 Dishonoured and 8 Jakhals' is three model lines."""
    items, report = _read(_ds(composition=[{"en": "**1 Jakhal Pack Leader, 1 Dishonoured and 8 Jakhals**"}]))
    assert _only(items, "datasheet")[0]["composition"] == [{"name": "Jakhal Pack Leader", "min": 1, "max": 1},
                                                           {"name": "Dishonoured", "min": 1, "max": 1},
                                                           {"name": "Jakhals", "min": 8, "max": 8}]
    assert not report.diagnostics


def test_a_size_priced_twice_is_reported_at_its_line():
    items, report = _read(_ds(points=[{"cost": "75", "models": "5", "keyword": None, "detachment": None},
                                      {"cost": "80", "models": "5", "keyword": None, "detachment": None}]))
    assert _only(items, "datasheet")[0]["points"] == [{"models": 5, "points": 75, "condition": None, "from_copy": None}]
    [d] = report.diagnostics
    assert (d.code, d.file, d.line) == ("conflicting-duplicate", "app.tar.xz/gdc/x.json", _line(items))
    assert d.line > 1
    assert d.found == "75 and 80"


def test_multi_profile_weapons_and_abilities():
    pistol = {"profiles": [
        {"name": {"en": "Plasma pistol – Standard"}, "range": "12\"", "attacks": "1", "skill": "3+", "strength": "7",
         "ap": "-2", "damage": "1", "keywords": ["Pistol"]},
        {"name": {"en": "Plasma pistol – Supercharge"}, "range": "12\"", "attacks": "1", "skill": "3+", "strength": "8",
         "ap": "-3", "damage": "2", "keywords": ["Pistol", "Hazardous"]}]}
    prism = {"profiles": [{"name": {"en": "Prism beam"}, "range": "60\"", "attacks": "D6", "skill": "3+",
                           "strength": "9", "ap": "-3", "damage": "D6+1",
                           "keywords": ["Blast", "Cleave 1", "Close-quarters", "Anti-infantry 4+", "Linked Fire",
                                        "Gravity Thing"]}],
             "abilities": [{"name": {"en": "Linked Fire"}, "description": {"en": "Measure from another **FIRE PRISM**."}}]}
    fist = {"profiles": [{"name": {"en": "Power fist"}, "range": "Melee", "attacks": "3", "skill": "3+",
                          "strength": "8", "ap": "-2", "damage": "2", "keywords": []}]}
    items, report = _read(_ds(rangedWeapons=[pistol, prism], meleeWeapons=[fist]))
    ds = _only(items, "datasheet")[0]
    weapons = {w["id"]: w for w in _only(items, "weapon")}
    assert ds["weapons"] == list(weapons) == [
        "space-marines/assault-intercessor-squad/plasma-pistol-standard",
        "space-marines/assault-intercessor-squad/plasma-pistol-supercharge",
        "space-marines/assault-intercessor-squad/prism-beam", "space-marines/assault-intercessor-squad/power-fist"]
    sc = weapons["space-marines/assault-intercessor-squad/plasma-pistol-supercharge"]
    assert (sc["name"], sc["profile_of"], sc["profile"]) == ("Plasma pistol – Supercharge", "Plasma pistol", "Supercharge")
    assert (sc["range"], sc["attacks"], sc["skill"], sc["strength"], sc["ap"], sc["damage"]) == (12, 1, 3, 8, -3, 2)
    assert [a["id"] for a in sc["abilities"]] == ["pistol", "hazardous"]
    beam = weapons["space-marines/assault-intercessor-squad/prism-beam"]
    assert [a["id"] for a in beam["abilities"]] == ["blast", "cleave", "close-quarters", "anti", "custom", "custom"]
    assert beam["abilities"][1]["value"] == 1 and beam["damage"] == "D6+1"
    assert "profile_of" not in beam
    fist_record = weapons["space-marines/assault-intercessor-squad/power-fist"]
    assert fist_record["type"] == "melee" and fist_record["range"] is None
    assert {"name": "Linked Fire", "type": "wargear", "text": "Measure from another FIRE PRISM."} in ds["abilities"]
    # The weapon's own rule is no finding; an ability nobody defines is, at the datasheet's line.
    [d] = report.diagnostics
    assert (d.code, d.line, d.found) == ("weapon-ability", _line(items), "Gravity Thing")


def test_invulnerable_with_condition_damaged_support_and_leader():
    abilities = {
        "invul": {"value": "5+", "info": {"en": "*Against ranged attacks only*"}},
        "damaged": {"range": {"en": "1-4 WOUNDS REMAINING"}, "description": {"en": "Subtract 1 from the Hit roll."}},
        "special": [{"name": {"en": "Support"}, "description": {
            "en": "This model can be attached to the following units:\n\n■ ***CRUSADERS**\n■ **BATTLE SISTERS SQUAD**"}}],
        "other": [{"name": {"en": "Smite"}, "description": {"en": "Roll a D6."}, "isPsychic": True, "isAura": False}],
    }
    leader = {"en": "This model can be attached to the following units:  ■ **ASSAULT INTERCESSOR SQUAD** "
                    "■ **TACTICAL SQUAD**"}
    items, report = _read(_ds(abilities=abilities, leader=leader))
    ds = _only(items, "datasheet")[0]
    assert ds["models"][0]["invulnerable"] == 5
    assert ds["models"][0]["invulnerable_text"] == "Against ranged attacks only"
    assert ds["abilities"] == [
        {"name": "Damaged: 1-4 Wounds Remaining", "type": "datasheet", "text": "Subtract 1 from the Hit roll."},
        {"name": "Smite", "type": "datasheet", "text": "Roll a D6.", "psychic": True}]
    assert ds["support"] == {"text": "This model can be attached to the following units:",
                             "units": ["Crusaders", "Battle Sisters Squad"]}
    assert ds["leader"]["units"] == ["Assault Intercessor Squad", "Tactical Squad"]
    assert not report.diagnostics


def test_wargear_options_choices_notes_and_costs():
    wargear = [{"en": "For every 5 models in this unit, 1 Terminator’s storm bolter can be replaced with one of the "
                      "following: ◦ 1 assault cannon ◦ 1 heavy flamer ◦ 1 cyclone missile launcher and 1 storm bolter.*"
                      "  * This model’s storm bolter cannot be replaced."},
               {"en": "This model’s suncannon can be replaced with 1 heavy wraithcannon."}]
    priced = [{"instruction": {"en": "For every 5 models in this unit, 1 Terminator’s storm bolter can be replaced "
                                     "with one of the following:"},
               "options": [{"name": {"en": "Heavy flamer"}, "cost": "5"}, {"name": {"en": "Assault cannon"}, "cost": "0"}]},
              {"instruction": {"en": "This model’s suncannon can be replaced with 1 heavy wraithcannon."},
               "options": [{"name": {"en": "Heavy wraithcannon"}, "cost": "10"}]},
              {"instruction": {"en": "Default Wargear"}, "options": [{"name": {"en": "Storm bolter"}, "cost": "3"}]}]
    items, report = _read(_ds(wargear=wargear, wargearOptions=priced))
    first, second = _only(items, "datasheet")[0]["wargear_options"]
    assert first["choices"] == ["1 assault cannon", "1 heavy flamer", "1 cyclone missile launcher and 1 storm bolter"]
    assert first["notes"] == [{"marker": "*", "choice": "1 cyclone missile launcher and 1 storm bolter",
                               "text": "This model’s storm bolter cannot be replaced."}]
    assert first["costs"] == {"1 heavy flamer": 5}
    assert second == {"text": "This model’s suncannon can be replaced with 1 heavy wraithcannon.",
                      "costs": {"Heavy wraithcannon": 10}}
    [d] = report.diagnostics  # the price under 'Default Wargear' belongs to no option
    assert d.code == "bad-cost" and d.found == "Storm bolter: 3"


def test_bad_values_are_reported_with_their_line():
    bad_weapon = {"profiles": [{"name": {"en": "Gaping maw"}, "range": "Melee", "attacks": "3", "skill": "3+",
                                "strength": "6", "ap": "-", "damage": "1", "keywords": []}]}
    items, report = _read(
        _ds(meleeWeapons=[bad_weapon], composition=[{"en": "**1 Sergeant**"}, {"en": "Only in a pinch."}],
            points=[{"cost": "lots", "models": "5", "keyword": None, "detachment": None}],
            stats=[{"name": {"en": "X"}, "m": "6\"", "t": "four", "sv": "3+", "w": "2", "ld": "6+", "oc": "2"}],
            mystery=1),
        _ds(id="ds-2", name={"en": "Aircraft"}, stats=[{"name": {"en": "Jet"}, "m": "20+\"", "t": "9", "sv": "3+",
                                                        "w": "12", "ld": "7+", "oc": "0"}]))
    first, second = _only(items, "datasheet")
    assert first["weapons"] == [] and first["points"] == [] and first["models"] == []
    assert first["composition"] == [{"name": "Sergeant", "min": 1, "max": 1}]
    assert second["models"][0]["M"] == 20 and second["models"][0]["markers"] == {"M": "+"}
    line = _line(items)
    codes = sorted((d.code, d.line) for d in report.diagnostics)
    assert codes == [("bad-characteristic", line), ("bad-composition", line), ("bad-cost", line),
                     ("bad-weapon-value", line), ("unknown-section", line)]
    assert _line(items, "Aircraft") > line


def test_combat_patrol_ids_and_keywords():
    items, report = _read(_ds(points=[{"cost": "null", "models": "5", "keyword": None, "detachment": None}]),
                          game_mode="combat-patrol")
    ds = _only(items, "datasheet")[0]
    assert ds["id"] == "combat-patrol/space-marines/assault-intercessor-squad" and ds["game_mode"] == "combat-patrol"
    assert ds["points"] == [] and not report.diagnostics
    keywords = {k["id"]: k for k in _only(items, "keyword")}
    assert keywords["11e/keywords/adeptus-astartes"]["faction_keyword"] is True
    assert keywords["11e/keywords/infantry"]["datasheets"] == [ds["id"]]
    merged = datasheets.merge_keywords(items + _read(_ds(id="z", name={"en": "Other"}))[0])
    infantry = [r for r, _p in merged if r["id"] == "11e/keywords/infantry"]
    assert len(infantry) == 1 and len(infantry[0]["datasheets"]) == 2


# -- the real data, read independently ---------------------------------------------------------

@pytest.fixture(scope="module")
def real():
    if not ARCHIVE.exists():
        pytest.skip("the app's data is not on this machine")
    raw: dict[str, bytes] = {}
    with tarfile.open(ARCHIVE) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if member.isfile() and member.name.endswith(".json") and parts[-2] == "gdc":
                raw[member.name] = tar.extractfile(member).read()
    sheets = []  # (file, datasheet as the json module reads it)
    records: dict[str, tuple[dict, list]] = {}
    for name, data in sorted(raw.items()):
        doc = json.loads(data)
        if "datasheets" not in doc:
            continue
        sheets += [(name, ds) for ds in doc["datasheets"]]
        file = AppFile(f"x/{name}", name, "faction", parse_json(data), "11e")
        for record, _prov in datasheets.read_faction(file, Report()):
            records[record["id"]] = record
    return sheets, records


def _en(value) -> str:
    return value["en"] if isinstance(value, dict) else value


def _plain_upper(text: str) -> str:
    return re.sub(r"<[^>]+>|\*", "", text).strip().upper().replace("’", "'")


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_a_sample_of_the_real_data_matches(real):
    sheets, records = real
    by_name: dict[str, list[dict]] = {}
    for record in records.values():
        if record["kind"] == "datasheet":
            by_name.setdefault(record["name"], []).append(record)
    sample = random.Random(39).sample(sheets, 40)
    assert len({f for f, _ in sample}) > 10  # across factions
    for _file, ds in sample:
        name = _en(ds["name"]).replace("’", "'")
        [record] = [r for r in by_name[name] if set(r["faction_keywords"]) == {f.upper().replace("’", "'") for f in ds["factions"]}]
        assert record["keywords"] == list(dict.fromkeys(_plain_upper(_en(k)) for k in ds["keywords"]))
        models = {m["name"]: m for m in record["models"]}
        for stat in ds["stats"]:
            model = models[_en(stat["name"]).replace("’", "'")]
            assert model["T"] == int(stat["t"]) and model["W"] == int(stat["w"])
            assert model["Sv"] == int(stat["sv"].rstrip("+"))
            assert model["M"] == (None if stat["m"] == "-" else int(re.match(r"\d+", stat["m"]).group()))
            assert model["Ld"] == int(stat["ld"].rstrip("+")) and model["OC"] == (None if stat["oc"] == "-" else int(stat["oc"]))
            invul = (ds["abilities"].get("invul") or {}).get("value")
            if invul:
                assert model["invulnerable"] == int(invul[0])
        expected_points = {}
        for p in ds["points"]:
            key = (int(p["models"]), None if not (p["keyword"] or p["detachment"]) else "?")
            expected_points.setdefault(key, int(p["cost"]))
        got = {(p["models"], None if p["condition"] is None else "?"): p["points"] for p in record["points"]
               if p["from_copy"] is None}
        assert got == expected_points
        extra = ds.get("additionalCost")
        if extra:
            assert {p["points"] - got[(p["models"], None if p["condition"] is None else "?")]
                    for p in record["points"] if p["from_copy"]} == {int(extra["cost"])}
            assert {p["from_copy"] for p in record["points"] if p["from_copy"]} == {extra["afterSelections"] + 1}
        # weapons: every profile, its characteristics and its abilities' texts
        weapons = {records[w]["name"].casefold() + records[w]["type"]: records[w] for w in record["weapons"]}
        for key, kind in (("rangedWeapons", "ranged"), ("meleeWeapons", "melee")):
            for group in ds[key]:
                for profile in group["profiles"]:
                    weapon = weapons[_en(profile["name"]).replace("’", "'").casefold() + kind]
                    assert str(weapon["attacks"]) == profile["attacks"].strip().upper()
                    assert str(weapon["strength"]) == profile["strength"].strip()
                    assert str(weapon["damage"]) == profile["damage"].strip().upper()
                    assert weapon["ap"] == int(profile["ap"].replace("–", "-"))
                    assert weapon["skill"] == (None if profile["skill"] == "N/A" else int(profile["skill"][0]))
                    if kind == "ranged" and profile["range"] != "N/A":
                        assert weapon["range"] == int(profile["range"].rstrip('"'))
                    assert [a["text"] for a in weapon["abilities"]] == [k.strip() for k in profile["keywords"]]
        # composition: the numbers of each line
        numbers = []
        for line in ds["composition"]:
            m = re.search(r"(\d+)(?:\s*[-‐‑–]\s*(\d+))?", _en(line))
            if m and not _en(line).startswith(("OR", "**This")):
                numbers.append((int(m.group(1)), int(m.group(2) or m.group(1))))
        if "OR" not in [_en(x) for x in ds["composition"]]:
            assert [(c["min"], c["max"]) for c in record["composition"]] == numbers
        if ds.get("leader"):
            listed = re.findall(r"■\s*\**([^■*]+?)\**\s*(?=■|$)", _en(ds["leader"]).replace("\n", " "))
            assert [u.casefold() for u in record["leader"]["units"]][:len(listed)] == [
                re.sub(r"\s+", " ", u).strip().casefold() for u in listed]
