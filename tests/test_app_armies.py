"""The app's army and core files (extract/app/armies.py, core.py, faq.py): small inline files, and a
sample of the real data read independently (tarfile + json) and compared field by field with the records."""

from __future__ import annotations

import json
import random
import re
import tarfile
from pathlib import Path

import pytest

from warscribe.extract.app import armies, core, load
from warscribe.extract.app.factions import army_name
from warscribe.extract.app.markup import plain
from warscribe.extract.app.source import AppFile
from warscribe.extract.battlescribe.tree import parse_json
from warscribe.schema import ids
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import record_errors

ARCHIVE = Path("/work/shared/app11e/gdc-11e-912.tar.xz")


def _file(doc: dict, path: str = "gdc/space_marines.json", role: str = "faction") -> AppFile:
    data = json.dumps(doc, indent=1, ensure_ascii=False).encode()
    return AppFile(f"app.tar.xz/{path}", path, role, parse_json(data), "11e")


def _valid(items):
    for record, prov in items:
        assert record_errors({**record, "source": prov}) == [], record["id"]
    return items


def _of(items, kind):
    return [r for r, _p in items if r["kind"] == kind]


def _army(**over) -> dict:
    doc = {
        "id": "f", "name": "Adeptus Astartes",
        "rules": {
            "army": [{"name": {"en": "Oath of Moment"}, "rules": [
                {"order": 1, "type": "text", "text": {"en": "If your Army Faction is **ADEPTUS ASTARTES**, select."}}]}],
            "detachment": [{"detachment": "Gladius Task Force", "detachment_id": "d1", "rules": [
                {"name": {"en": "Combat Doctrines"}, "rules": [
                    {"order": 3, "type": "header", "text": {"en": "DEVASTATOR DOCTRINE"}},
                    {"order": 1, "type": "text", "text": {"en": "Select one doctrine."}},
                    {"order": 2, "type": "image", "text": {"en": "-"}},
                    {"order": 4, "type": "text", "text": {"en": "This unit is eligible to shoot."}}]},
                {"name": {"en": "Second Rule"}, "rules": [{"order": 1, "type": "text", "text": {"en": "More."}}]}]}],
        },
        "detachments": [
            {"id": "d1", "name": {"en": "Gladius Task Force", "fr": "Force d'Intervention Gladius"},
             "detachmentPoints": 2, "forceDisposition": {"id": "fd", "name": {"en": "Take and Hold", "fr": "Prendre"}}},
            {"id": "d2", "name": {"en": "Stormlance Task Force"}, "detachmentPoints": 3,
             "forceDisposition": {"id": "fd2", "name": {"en": "Disruption"}},
             "detachmentPointsOverrides": [{"faction": "Black Templars", "detachmentPoints": 2}]},
        ],
        "stratagems": [
            {"id": "s1", "name": {"en": "Armour of Contempt", "de": "Verachtung"}, "cost": 1, "turn": "opponents",
             "type": "Battle Tactic", "phase": ["shooting", "fight"],
             "when": {"en": "Your opponent’s Shooting phase or the Fight phase."},
             "target": {"en": "One **ADEPTUS ASTARTES** unit from your army."},
             "effect": {"en": "Worsen the <b>AP</b> by 1."}, "restrictions": {"en": "Once per battle."},
             "fluff": {"en": "*Unyielding.*"}, "detachment": "Gladius Task Force", "detachment_id": "d1"},
            {"id": "s2", "name": {"en": "Order the Advance"}, "cost": 2, "turn": "your", "type": "", "phase": [],
             "when": {"en": "Start of your Movement phase."}, "target": {"en": "One unit."},
             "effect": {"en": "Re-roll."}, "detachment": "Stormlance Task Force", "detachment_id": "d2"},
        ],
        "enhancements": [
            {"id": "e1", "name": {"en": "Bellicose Weapon Spirits (Upgrade)", "de": "Waffengeister (Aufwertung)"},
             "cost": "15", "keywords": ["Speeder"], "excludes": [],
             "description": {"en": "<k>Speeder</k> unit only. This unit can re-roll:\r<ul><li>Damage rolls.</li></ul>"},
             "detachment_id": "d1"},
            {"id": "e2", "name": {"en": "Blade Masters"}, "cost": "null", "keywords": [], "excludes": ["Terminator"],
             "description": {"en": "Upgrade: <k>Chaos Lord</k> model only (excluding <k>Terminator</k> models). "
                                   "Attacks have -1."}, "detachment_id": "d1"},
            {"id": "e3", "name": {"en": "Scroll"}, "cost": 20, "keywords": [], "excludes": [],
             "description": {"en": "When this unit declares a charge, you can use this."}, "detachment_id": "d2"},
        ],
        "datasheets": [],
    }
    doc.update(over)
    return doc


@pytest.fixture(scope="module")
def army():
    report = Report()
    items = _valid(armies.read_faction(_file(_army()), report))
    return items, report


def test_army_rule_is_a_faction_ability(army):
    items, _report = army
    [rule] = _of(items, "ability")
    assert rule["id"] == armies.army_rule_id("Space Marines", "Oath of Moment") == "space-marines/abilities/oath-of-moment"
    assert (rule["type"], rule["text"]) == ("faction", "If your Army Faction is ADEPTUS ASTARTES, select.")


def test_stratagem_fields(army):
    items, report = army
    s1, s2 = _of(items, "stratagem")
    assert s1["id"] == "space-marines/gladius-task-force/armour-of-contempt"
    assert (s1["cp"], s1["category"], s1["origin"], s1["detachment"]) == (
        1, "Battle Tactic", "detachment", "space-marines/gladius-task-force")
    assert (s1["turn"], s1["phases"]) == ("opponent", ["shooting", "fight"])  # the schema's order of phases
    assert s1["target"] == "One ADEPTUS ASTARTES unit from your army."
    assert (s1["effect"], s1["restrictions"], s1["flavour"]) == ("Worsen the AP by 1.", "Once per battle.", "Unyielding.")
    assert s1["names"] == {"de": "Verachtung"} and "game_mode" not in s1
    # No category ("") is null; no phase is read from WHEN, and said.
    assert (s2["category"], s2["phases"], s2["restrictions"], s2["flavour"]) == (None, ["movement"], None, None)
    assert any(d.code == "empty-field" and "Order the Advance" in d.message for d in report.diagnostics)


def test_enhancement_upgrade_points_and_restriction(army):
    items, report = army
    e1, e2, e3 = _of(items, "enhancement")
    assert e1["id"] == "space-marines/gladius-task-force/enhancements/bellicose-weapon-spirits"
    assert (e1["name"], e1["upgrade"], e1["points"]) == ("Bellicose Weapon Spirits", True, 15)
    assert e1["names"] == {"de": "Waffengeister"}  # each language's marker left off too
    assert (e1["restriction"], e1["text"]) == ("SPEEDER unit only.", "This unit can re-roll:\n\n■ Damage rolls.")
    # "Upgrade:" before the text; "null" points; the excluded keyword is the restriction's, not an enhancement.
    assert (e2["upgrade"], e2["points"]) == (True, None)
    assert e2["restriction"] == "CHAOS LORD model only (excluding TERMINATOR models)."
    assert e2["text"] == "Attacks have -1." and "excludes" not in e2
    assert (e3["upgrade"], e3["points"], e3["restriction"]) == (False, 20, None)
    assert not [d for d in report.diagnostics if "excluded keyword" in d.message]


def test_detachment_points_disposition_and_rules(army):
    items, report = army
    gladius, storm = _of(items, "detachment")
    assert (gladius["detachment_points"], gladius["force_disposition"]) == (2, "Take and Hold")
    assert gladius["rule"] == {"name": "Combat Doctrines",
                               "text": "Select one doctrine.\n\nDEVASTATOR DOCTRINE\n\nThis unit is eligible to shoot."}
    assert gladius["additional_rules"] == [{"name": "Second Rule", "text": "More."}]
    assert gladius["stratagems"] == ["space-marines/gladius-task-force/armour-of-contempt"]
    assert len(gladius["enhancements"]) == 2 and "unique" not in gladius
    assert gladius["names"] == {"fr": "Force d'Intervention Gladius"}
    assert (storm["rule"], storm["detachment_points"]) == (None, 3)
    codes = {(d.code, d.message.split(":")[0]) for d in report.diagnostics}
    assert ("app-unused", "detachment 'Stormlance Task Force'") in codes  # the other armies' DP, said
    assert ("missing-detachment-rule", "detachment 'Stormlance Task Force'") in codes
    assert any(d.code == "app-unused" and "picture" in d.message for d in report.diagnostics)


def test_combat_patrol_ids_do_not_collide():
    report = Report()
    mp = _valid(armies.read_faction(_file(_army()), report))
    cp = _valid(armies.read_faction(_file(_army(), "gdc/combatpatrol/space_marines.json", "combat-patrol"), report,
                                    game_mode="combat-patrol"))
    assert not {r["id"] for r, _p in mp} & {r["id"] for r, _p in cp}
    det = _of(cp, "detachment")[0]
    assert det["id"] == "combat-patrol/space-marines/gladius-task-force" and det["game_mode"] == "combat-patrol"
    assert all(r.get("game_mode") == "combat-patrol" for r in _of(cp, "stratagem") + _of(cp, "enhancement"))
    assert _of(cp, "stratagem")[0]["detachment"] == det["id"]


def _core_doc() -> dict:
    return {"id": "c", "name": {"en": "Core Rules"}, "sections": [
        {"id": "s1", "name": {"en": "01. Core Concepts"}, "containers": [
            {"id": "k1", "type": "standard", "title": {"en": "Units and Models"}, "subTitle": {"en": "01.02"},
             "components": [
                 {"order": 1, "type": "text", "text": {"en": "A unit:<ul><li>Friendly.</li><li>Enemy.</li></ul>"}},
                 {"order": 2, "type": "accordion", "title": {"en": "01.02.04 - Not On The Battlefield"},
                  "text": {"en": "Embarked units are not <b>visible</b>."}},
                 {"order": 3, "type": "accordion", "title": {"en": "1.2.5 - Other Model"}, "text": {"en": "Other."}}]},
            {"id": "k2", "type": "stratagem", "title": {"en": "Command Re-Roll"}, "subTitle": {"en": "15.02"},
             "stratagem_id": "x", "components": []}]},
        {"id": "s2", "name": {"en": "24. Core Abilities"}, "containers": [
            {"id": "k3", "type": "standard", "title": {"en": "Abilities"}, "subTitle": {"en": "24.01"},
             "components": [{"order": 1, "type": "text", "text": {"en": "Abilities are listed."}}]},
            {"id": "k4", "type": "standard", "title": {"en": "[LETHAL HITS]"}, "subTitle": {"en": "24.23"},
             "components": [{"order": 1, "type": "text", "text": {"en": "Critical hits wound."}}]},
            {"id": "k5", "type": "standard", "title": {"en": "Deep Strike"}, "subTitle": {"en": "24.09"},
             "components": [{"order": 1, "type": "text", "text": {"en": "Set up anywhere."}}]}]}]}


def _faqs() -> dict:
    return {"faqs": [
        {"id": "q1", "order": 1, "publication": {"id": "p", "name": {"en": "Codex: Space Marines"}},
         "errataHeader": {"en": "Gladius Task Force, Armour of Contempt Stratagem"}, "errataText": {"en": "Change **1CP**."},
         "targets": [{"type": "stratagem", "id": "app-own-id", "name": {"en": "Armour of Contempt"}},
                     {"type": "detachment", "id": "d2", "name": {"en": "Stormlance Task Force"}},
                     {"type": "armyRule", "id": "zz", "name": {"en": "Oath of Moment"}},
                     {"type": "datasheet", "id": "yy", "name": {"en": "Nobody"}}]},
        {"id": "q2", "order": 2, "publication": {"id": "c", "name": {"en": "Core Rules"}},
         "question": {"en": "Can a unit be <b>visible</b>?"}, "answer": {"en": "No."},
         "targets": [{"type": "ruleContainer", "id": "k1", "name": {"en": "Units and Models"}}]}]}


@pytest.fixture(scope="module")
def core_read():
    report = Report()
    files = [_file(_army()), _file(_core_doc(), "gdc/core/core_rules.json", "core"),
             _file({"keywords": [{"key": "lethal-hits", "name": "Lethal Hits", "appliesTo": ["weapons"],
                                  "description": "Critical hits wound."},
                                 {"key": "linked-fire", "name": "Linked Fire", "appliesTo": ["weapons"],
                                  "description": "Measure from another model."}]}, "gdc/keywords.json", "keywords"),
             _file(_faqs(), "gdc/faqs.json", "faqs"),
             _file({"id": "m", "primaryMissions": []}, "gdc/missions/combat_patrol.json", "mission")]
    return _valid(core.read(files, report)), report


def test_rule_numbering(core_read):
    items, report = core_read
    rules = {r["id"]: r for r in _of(items, "rule")}
    units = rules["11e/rules/01-02-units-and-models"]
    assert (units["number"], units["title"], units["text"]) == ("01.02", "Units and Models", "A unit:\n\n■ Friendly.\n■ Enemy.")
    assert units["bullets"] == ["Friendly.", "Enemy."]
    acc = rules["11e/rules/01-02-04-not-on-the-battlefield"]
    assert (acc["number"], acc["title"], acc["text"]) == ("01.02.04", "Not On The Battlefield", "Embarked units are not visible.")
    assert rules["11e/rules/01-02-05-other-model"]["number"] == "01.02.05"  # printed "1.2.5": said
    assert any(d.code == "bad-app-data" and "1.2.5" in d.message for d in report.diagnostics)
    assert "11e/rules/24-01-abilities" in rules


def test_core_abilities_and_stratagems(core_read):
    items, report = core_read
    abilities = {r["id"]: r for r in _of(items, "ability")}
    lethal = abilities["11e/abilities/lethal-hits"]
    assert (lethal["type"], lethal["ability_id"], lethal["number"], lethal["name"]) == ("weapon", "lethal-hits", "24.23", "LETHAL HITS")
    assert [p["file"] for p in [p for r, p in items if r["id"] == lethal["id"]][0]] == [
        "app.tar.xz/gdc/core/core_rules.json", "app.tar.xz/gdc/keywords.json"]
    assert abilities["11e/abilities/deep-strike"]["type"] == "core"
    assert abilities["11e/abilities/deep-strike"]["number"] == "24.09"
    assert abilities["11e/abilities/linked-fire"]["ability_id"] == "linked-fire"
    # The core stratagems are only named in the app's core rules: said, no record.
    assert not _of(items, "stratagem")
    assert any(d.code == "stratagem-without-text" and "Command Re-Roll" in d.message for d in report.diagnostics)
    assert any(d.code == "ignored-file" and d.file.endswith("missions/combat_patrol.json") for d in report.diagnostics)


def test_faq_amends_resolution(core_read):
    items, report = core_read
    q1, q2 = _of(items, "faq")
    assert q1["id"] == "11e/faqs/codex-space-marines/gladius-task-force-armour-of-contempt-stratagem"
    assert (q1["publication"], q1["order"], q1["text"]) == ("Codex: Space Marines", 1, "Change 1CP.")
    assert q1["amends"] == [
        {"type": "stratagem", "name": "Armour of Contempt", "ref": "space-marines/gladius-task-force/armour-of-contempt"},
        {"type": "detachment", "name": "Stormlance Task Force", "ref": "space-marines/stormlance-task-force"},
        {"type": "army-rule", "name": "Oath of Moment", "ref": "space-marines/abilities/oath-of-moment"},
        {"type": "datasheet", "name": "Nobody"}]
    assert (q2["name"], q2["text"]) == ("Can a unit be visible?", "No.")
    assert q2["amends"] == [{"type": "rule", "name": "Units and Models", "ref": "11e/rules/01-02-units-and-models"}]
    assert any(d.code == "unresolved-reference" and "4 of 5" in d.message for d in report.diagnostics)


# -- the real data, read independently ---------------------------------------------------------------------

_ORDER = ("command", "movement", "shooting", "charge", "fight", "any")


def _en(value) -> str:
    return plain(value["en"] if isinstance(value, dict) else value)


def _nm(value) -> str:
    return re.sub(r"\s+", " ", _en(value)).replace("\u2019", "'").replace("\u2011", "-").strip()


@pytest.fixture(scope="module")
def real():
    if not ARCHIVE.exists():
        pytest.skip(f"{ARCHIVE} is not on this machine")
    raw: dict[str, dict] = {}
    with tarfile.open(ARCHIVE) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".json"):
                data = tar.extractfile(member).read()
                raw[member.name] = json.loads(data)
                if member.name.endswith("faqs.json"):
                    raw["faqs text"] = data.decode()
    report = Report()
    files = load(ARCHIVE, "app.tar.xz", "11e", report)
    items = []
    for f in files:
        if f.role in ("faction", "combat-patrol"):
            items += armies.read_faction(f, report, game_mode="combat-patrol" if f.role == "combat-patrol" else None)
    items += core.read(files, report)
    return raw, {r["id"]: (r, p) for r, p in items}, report


def _factions(raw):
    for path, doc in sorted(raw.items()):
        if "/missions/" in path or "/core/" in path or not path.endswith(".json") or path.endswith(("faqs.json", "keywords.json")):
            continue
        mode = "combat-patrol" if "/combatpatrol/" in path else None
        yield path, doc, army_name(doc["name"]), mode


def _det_id(doc, faction, mode, app_id):
    [det] = [d for d in doc["detachments"] if d["id"] == app_id]
    return ids.in_game_mode(mode, ids.detachment(faction, _nm(det["name"])))


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_stratagems(real):
    raw, by_id, _report = real
    pool = [(p, doc, fac, mode, s) for p, doc, fac, mode in _factions(raw) for s in doc["stratagems"]]
    assert len([x for x in pool if x[3] is None]) == 1355
    for path, doc, faction, mode, s in random.Random(39).sample(pool, 40):
        det = _det_id(doc, faction, mode, s["detachment_id"])
        rec, prov = by_id[ids.stratagem("detachment", "11e", _nm(s["name"]), det)]
        assert prov[0]["file"] == f"app.tar.xz/{path}"
        assert (rec["name"], rec["cp"], rec["detachment"], rec["origin"]) == (_nm(s["name"]), s["cost"], det, "detachment")
        assert rec["category"] == (s["type"] or None)
        assert rec["turn"] == {"your": "your", "opponents": "opponent", "either": "either"}[s["turn"]]
        if s["phase"]:
            assert rec["phases"] == [p for p in _ORDER if p in s["phase"]]
        for ours, theirs in (("when", "when"), ("target", "target"), ("effect", "effect"),
                             ("restrictions", "restrictions"), ("flavour", "fluff")):
            assert rec[ours] == (_en(s[theirs]) if s.get(theirs) else None), (rec["id"], ours)
        assert rec.get("game_mode") == mode


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_enhancements(real):
    raw, by_id, _report = real
    pool = [(p, doc, fac, mode, e) for p, doc, fac, mode in _factions(raw) for e in doc["enhancements"]]
    assert len([x for x in pool if x[3] is None]) == 913
    for path, doc, faction, mode, e in random.Random(39).sample(pool, 25):
        det = _det_id(doc, faction, mode, e["detachment_id"])
        name = _nm(e["name"])
        upgrade = name.endswith("(Upgrade)") or _en(e["description"]).startswith("Upgrade:")
        name = name.removesuffix("(Upgrade)").strip()
        rec, _prov = by_id[ids.enhancement(name, det, faction)]
        assert (rec["name"], rec["detachment"], rec["upgrade"]) == (name, det, upgrade)
        assert rec["points"] == (None if e["cost"] in ("null", None) else int(e["cost"]))
        body = _en(e["description"]).removeprefix("Upgrade:").strip()
        assert body == " ".join(x for x in (rec["restriction"], rec["text"]) if x), rec["id"]
        if rec["restriction"]:
            assert rec["restriction"].endswith(".") and "only" in rec["restriction"]


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_detachments(real):
    raw, by_id, _report = real
    pool = [(p, doc, fac, mode, d) for p, doc, fac, mode in _factions(raw) for d in doc["detachments"]]
    assert len([x for x in pool if x[3] is None]) == 268
    for path, doc, faction, mode, d in random.Random(39).sample(pool, 20):
        rec, _prov = by_id[_det_id(doc, faction, mode, d["id"])]
        assert (rec["faction"], rec["detachment_points"]) == (faction, d["detachmentPoints"])
        assert rec["force_disposition"] == _nm(d["forceDisposition"]["name"])
        [wrap] = [w for w in doc["rules"]["detachment"] if w["detachment_id"] == d["id"]]
        names = [_nm(r["name"]) for r in wrap["rules"]]
        assert [rec["rule"]["name"]] + [r["name"] for r in rec.get("additional_rules", [])] == names
        strats = [s for s in doc["stratagems"] if s["detachment_id"] == d["id"]]
        assert rec["stratagems"] == [ids.stratagem("detachment", "11e", _nm(s["name"]), rec["id"]) for s in strats]
        assert len(rec["enhancements"]) == len([e for e in doc["enhancements"] if e["detachment_id"] == d["id"]])
        assert "unique" not in rec


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_core_rule_accordions(real):
    raw, by_id, _report = real
    doc = raw["gdc/core/core_rules.json"]
    pool = [(c, a) for s in doc["sections"] for c in s["containers"] for a in c["components"] if a["type"] == "accordion"]
    for container, acc in random.Random(39).sample(pool, 20):
        head = _en(acc["title"])
        number, _, title = head.partition(" - ")
        number = ".".join(p.zfill(2) for p in number.strip().split("."))
        title = title.strip() or _en(container["title"])
        rec, prov = by_id[ids.rule("11e", title, number)]
        assert (rec["number"], rec["text"]) == (number, _en(acc["text"]))
        assert rec["title"] == (title if head.partition(" - ")[2] else None)
        assert prov[0]["file"] == "app.tar.xz/gdc/core/core_rules.json"


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_faqs(real):
    raw, by_id, report = real
    faqs, text = raw["gdc/faqs.json"]["faqs"], raw["faqs text"]
    records = {p[0]["first_line"]: r for r, p in by_id.values() if r["kind"] == "faq"}
    assert len(records) == len(faqs) == 837  # each on the line of its own id
    for entry in random.Random(39).sample(faqs, 20):
        written = '"id": "%s"' % entry["id"]
        rec = records[text[:text.index(written)].count("\n") + 1]
        assert (rec["name"], rec["order"]) == (_en(entry.get("errataHeader") or entry["question"]), entry["order"])
        assert rec["text"] == _en(entry.get("errataText") or entry.get("answer") or "")
        assert rec["publication"] == _nm(entry["publication"]["name"])
        assert [(a["type"], a["name"]) for a in rec["amends"]] == [
            ({"ruleContainer": "rule", "armyRule": "army-rule"}.get(t["type"], t["type"]), _nm(t["name"]))
            for t in entry.get("targets") or []]
        for a in rec["amends"]:  # datasheets are another module's records
            assert "ref" not in a or a["ref"] in by_id or a["type"] == "datasheet", a
    assert any(d.code == "unresolved-reference" and "of 1,125 FAQ targets" in d.message for d in report.diagnostics)


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_records_validate(real):
    _raw, by_id, _report = real
    bad = [rid for rid, (r, p) in by_id.items() if record_errors({**r, "source": p})]
    assert bad == []
