"""The Munitorum Field Manual as a source: reading its YAML, applying it to records, pricing a unit."""

from __future__ import annotations

import random
import re
import tarfile

import pytest
import yaml
from hypothesis import given, strategies as st

from conftest import _shared
from warscribe.extract import fieldmanual
from warscribe.extract.fieldmanual.model import parse_range
from warscribe.extract.sources_merge import folded_name, ranker
from warscribe.extract.store import Store
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import record_errors

META = """\
version: "9.9"
lastUpdated: 2026-07-22
notes: Points.
factions:
  - space-marines
"""

FACTION = """\
name: Space Marines
slug: space-marines
version: "9.9"
detachments:
  - name: Emperor’S Shield
    dp: 2
    objective: TAKE AND HOLD
    unique: Shield
    enhancements:
      - { name: Bulwark Of Faith, points: 20 }
      - { name: Stalwart (Upgrade), points: 10 }
units:
  - name: Aggressor Squad
    pricing:
      - range: "[1,2]"
        label: Your 1st To 2nd Units Cost
        costs:
          - { models: 3, points: 80 }
          - { models: 6, points: 165 }
      - range: "[3,)"
        label: Your 3rd + Unit Costs
        costs:
          - { models: 3, points: 90 }
          - { models: 6, points: 175 }
  - name: Outrider Squad
    pricing:
      - range: "[1,)"
        label: Your Unit Costs
        costs:
          - { models: 3, points: 70 }
          - { models: 1, points: 60, desc: Invader ATV, addon: true }
    wargear:
      - { item: Multi-melta, points: 10 }
  - name: Apothecary
    pricing:
      - range: "[1,)"
        costs:
          - { models: 1, points: 40 }
    role: support
    attachTo:
      - Intercessor Squad
  - name: Captain
    pricing:
      - range: "[1,)"
        costs:
          - { models: 1, points: 80 }
    role: leader
    attachTo:
      - Intercessor Squad
      - Aggressor Squad
  - name: Old Dreadnought
    legends: true
    pricing:
      - range: "[1,)"
        costs:
          - { models: 1, points: 150 }
"""


def manual_folder(tmp_path, faction: str = FACTION, meta: str = META):
    data = tmp_path / "mfm" / "data"
    data.mkdir(parents=True)
    (data / "meta.yaml").write_text(meta, encoding="utf-8")
    (data / "space-marines.yaml").write_text(faction, encoding="utf-8")
    return tmp_path / "mfm"


def load(tmp_path, faction: str = FACTION, meta: str = META):
    report = Report()
    return fieldmanual.load(manual_folder(tmp_path, faction, meta), "sources/mfm", report), report


def codes(report: Report) -> list[str]:
    return sorted(d.code for d in report.diagnostics)


# -- reading


@pytest.mark.parametrize("text, bounds", [("[1,2]", (1, 2)), ("[3,)", (3, None)), ("[1,)", (1, None)),
                                          ("[1,1]", (1, 1)), ("[2,)", (2, None)), ("(0,2]", (1, 2)),
                                          ("[1,4)", (1, 3)), (" [ 4 , ) ", (4, None))])
def test_ranges(text, bounds):
    assert parse_range(text) == bounds


@pytest.mark.parametrize("text", ["[0,2]", "[3,1]", "[1,]", "1-2", "[a,)", "[1,2", ""])
def test_malformed_ranges(text):
    assert parse_range(text) is None


def test_tiers_addon_wargear_roles(tmp_path):
    manual, report = load(tmp_path)
    assert report.diagnostics == []
    assert (manual.version, manual.last_updated, manual.source) == ("9.9", "2026-07-22", "sources/mfm")
    units = {u.name: u for u in manual.units()}
    assert units["Aggressor Squad"].points_entries() == [
        {"models": 3, "points": 80, "condition": None, "from_copy": None},
        {"models": 6, "points": 165, "condition": None, "from_copy": None},
        {"models": 3, "points": 90, "condition": None, "from_copy": 3},
        {"models": 6, "points": 175, "condition": None, "from_copy": 3}]
    outriders = units["Outrider Squad"]
    assert outriders.points_entries() == [{"models": 3, "points": 70, "condition": None, "from_copy": None}]
    assert outriders.extra_points() == [{"name": "Invader ATV", "points": 60}, {"name": "Multi-melta", "points": 10}]
    assert (units["Apothecary"].role, units["Apothecary"].attach_to) == ("support", ["Intercessor Squad"])
    assert units["Captain"].role == "leader" and units["Old Dreadnought"].legends
    assert units["Aggressor Squad"].file == "sources/mfm/data/space-marines.yaml"
    assert units["Aggressor Squad"].line == 13
    det = manual.detachments()[0]
    assert (det.name, det.dp, det.objective, det.unique, det.line) == ("Emperor’S Shield", 2, "TAKE AND HOLD", "Shield", 5)
    assert [(e.name, e.points, e.upgrade) for e in det.enhancements] == [("Bulwark Of Faith", 20, False),
                                                                         ("Stalwart", 10, True)]


BAD = """\
name: Space Marines
detachments:
  - name: Broken
    dp: two
    objective: TAKE AND HOLD
units:
  - name: Bad Range
    pricing:
      - range: "1 to 2"
        costs:
          - { models: 3, points: 80 }
  - name: Bad Cost
    colour: red
    pricing:
      - range: "[1,)"
        costs:
          - { models: 0, points: 80 }
          - { models: 5, points: 100 }
  - just a string
  - name: Cheaper Later
    role: captain
    pricing:
      - range: "[1,2]"
        costs:
          - { models: 5, points: 100 }
      - range: "[3,)"
        costs:
          - { models: 5, points: 90 }
          - { models: 10, points: 180 }
  - name: Bad Range
    pricing:
      - range: "[1,)"
        costs:
          - { models: 3, points: 80 }
"""


def test_bad_shapes_reported_at_their_line(tmp_path):
    manual, report = load(tmp_path, BAD)
    found = {(d.line, d.code, d.level) for d in report.diagnostics}
    assert (4, "bad-field-manual", "error") in found  # dp: two
    assert (9, "bad-field-manual", "error") in found  # range "1 to 2"
    assert (13, "bad-field-manual", "warning") in found  # unknown key colour
    assert (17, "bad-field-manual", "error") in found  # models: 0
    assert (19, "bad-field-manual", "error") in found  # a string for a unit
    assert (21, "bad-field-manual", "error") in found  # unknown role
    assert (28, "field-manual-inconsistent", "warning") in found  # 5 models cheaper from the 3rd
    assert (26, "field-manual-inconsistent", "warning") in found  # tiers of different sizes
    assert (30, "field-manual-inconsistent", "warning") in found  # Bad Range given twice
    for d in report.diagnostics:
        assert d.file == "sources/mfm/data/space-marines.yaml" and d.expected and d.found
    units = {u.name: u for u in manual.units()}
    assert [e["models"] for e in units["Bad Cost"].points_entries()] == [5]
    assert units["Cheaper Later"].role is None
    assert manual.detachments()[0].dp is None


def test_unreadable_yaml_and_missing_meta(tmp_path):
    manual, report = load(tmp_path, "name: [unclosed\n")
    assert [(d.code, d.line) for d in report.errors] == [("bad-field-manual", 2)]
    assert manual.factions == []
    report = Report()
    folder = tmp_path / "nometa"
    folder.mkdir()
    (folder / "orks.yaml").write_text("name: Orks\nunits: []\n", encoding="utf-8")
    manual = fieldmanual.load(folder, "nometa", report)
    assert "bad-field-manual" in codes(report) and manual.version is None and manual.factions[0].name == "Orks"


def test_aliases_bounded(tmp_path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    _manual, report = load(tmp_path, bomb)
    assert any(d.code == "bad-field-manual" and "expands" in d.message for d in report.errors)


# -- applying


PLACE = {"file": "app/space_marines.json", "first_line": 7, "last_line": 7, "ruleset": "11e"}


def datasheet(name, faction="Space Marines", points=(), **extra):
    return records.datasheet(id=ids.datasheet(faction, name), name=name, ruleset="11e", faction=faction,
                             keywords=[], faction_keywords=[faction.upper()], composition=[], points=list(points),
                             abilities=[], weapons=[], wargear_options=[], source=[dict(PLACE)], **extra)


def store_of(*recs):
    store = Store(Report(), {})
    for rec in recs:
        store.records[rec["id"]] = rec
    return store


def ranks(manual_first: bool):
    return ranker({"sources/mfm": 1 if manual_first else 2, "app": 2 if manual_first else 1})


def test_applied_to_records(tmp_path):
    manual, _ = load(tmp_path)
    det = records.detachment(id="space-marines/emperors-shield", name="Emperor's Shield", ruleset="11e",
                             faction="Space Marines", rule=None, stratagems=[],
                             enhancements=["space-marines/emperors-shield/bulwark-of-faith"],
                             force_disposition="Take and Hold", source=[dict(PLACE)])
    enh = records.enhancement(id="space-marines/emperors-shield/bulwark-of-faith", name="Bulwark of Faith",
                              ruleset="11e", detachment=det["id"], points=None, text="x", restriction=None,
                              source=[dict(PLACE)])
    stalwart = records.enhancement(id="space-marines/emperors-shield/stalwart", name="Stalwart", ruleset="11e",
                                   detachment=det["id"], points=10, text="x", restriction=None, source=[dict(PLACE)])
    aggressors = datasheet("Aggressor Squad", points=[{"models": 3, "points": 80, "condition": None},
                                                      {"models": 6, "points": 165, "condition": None}])
    captain = datasheet("Captain", points=[{"models": 1, "points": 80, "condition": None}],
                        leader={"text": "Attached to:", "units": ["Intercessor Squads", "Aggressor Squad"]})
    store = store_of(det, enh, stalwart, aggressors, captain, datasheet("Outrider Squads"), datasheet("Apothecary"))
    report = Report()
    out = fieldmanual.apply(store, manual, ranks(True), report)
    r = store.records
    # First tier the same, later tier added: no disagreement.
    assert [(p["models"], p["points"], p.get("from_copy")) for p in r["space-marines/aggressor-squad"]["points"]] == [
        (3, 80, None), (6, 165, None), (3, 90, 3), (6, 175, 3)]
    outriders = r["space-marines/outrider-squads"]
    assert outriders["points"] == [{"models": 3, "points": 70, "condition": None, "from_copy": None}]
    assert outriders["extra_points"] == [{"name": "Invader ATV", "points": 60}, {"name": "Multi-melta", "points": 10}]
    assert list(outriders)[-1] == "source"
    assert outriders["source"][-1]["fields"] == ["extra_points", "points"]
    assert r["space-marines/apothecary"]["support"]["units"] == ["Intercessor Squad"]
    assert r["space-marines/captain"]["source"][-1].get("agrees") == ["leader", "points"]
    assert (r[det["id"]]["detachment_points"], r[det["id"]]["force_disposition"], r[det["id"]]["unique"]) == (
        2, "TAKE AND HOLD", "Shield")
    assert r[enh["id"]]["points"] == 20 and r[stalwart["id"]]["upgrade"] is True
    assert (out.units_matched, out.units_unmatched, out.legends_unmatched) == (4, 1, 1)
    assert (out.detachments_matched, out.enhancements_matched) == (1, 2)
    unmatched = [d for d in report.diagnostics if d.code == "unmatched-unit"]
    assert len(unmatched) == 1 and unmatched[0].line == 51 and "Legends" in unmatched[0].message
    assert "source-disagreement" not in codes(report)
    for rec in r.values():
        assert record_errors(rec) == []


@pytest.mark.parametrize("manual_first", [True, False])
def test_disagreement_with_an_app_record(tmp_path, manual_first):
    manual, _ = load(tmp_path)
    app = [{"models": 3, "points": 85, "condition": None}, {"models": 6, "points": 165, "condition": None}]
    store = store_of(datasheet("Aggressor Squad", points=app),
                     datasheet("Captain", points=[{"models": 1, "points": 80, "condition": None}],
                               leader={"text": "t", "units": ["Terminator Squad"]}))
    report = Report()
    out = fieldmanual.apply(store, manual, ranks(manual_first), report)
    found = [d for d in report.diagnostics if d.code == "source-disagreement"]
    assert len(found) == 2 and out.disagreements == {"datasheet.points": 1, "datasheet.leader": 1}
    rec = store.records["space-marines/aggressor-squad"]
    manual_entry = next(p for p in rec["source"] if p["file"].startswith("sources/mfm"))
    app_entry = next(p for p in rec["source"] if p["file"].startswith("app"))
    if manual_first:
        assert rec["points"] == manual.units()[0].points_entries()
        assert app_entry["differs"] == {"points": app} and "differs" not in manual_entry
        assert found[0].file == "app/space_marines.json"
    else:
        assert rec["points"] == app
        assert manual_entry["differs"]["points"][2] == {"models": 3, "points": 90, "condition": None, "from_copy": 3}
        assert found[0].file == "sources/mfm/data/space-marines.yaml" and found[0].line in (13, 70)
    assert all("differs between" in d.message for d in found)


def test_sub_faction_units_under_the_parent(tmp_path):
    templars = FACTION.replace("name: Space Marines\nslug: space-marines", "name: Black Templars\nparent: Space Marines")
    templars = templars.replace("  - name: Aggressor Squad\n", "  - name: Aggressor Squad\n    groupTitle: Space Marines\n")
    data = manual_folder(tmp_path) / "data"
    (data / "black-templars.yaml").write_text(templars, encoding="utf-8")
    (data / "meta.yaml").write_text(META + "  - black-templars\n", encoding="utf-8")
    report = Report()
    manual = fieldmanual.load(data.parent, "sources/mfm", report)
    store = store_of(datasheet("Aggressor Squad"), datasheet("T'au Sept", faction="T'au Empire"))
    out = fieldmanual.apply(store, manual, ranks(True), report)
    rec = store.records["space-marines/aggressor-squad"]
    assert out.matched[("sources/mfm/data/black-templars.yaml", 13)] == rec["id"]
    # The Space Marines file's own entry is the one on the record.
    assert [p["file"] for p in rec["source"][1:]] == ["sources/mfm/data/space-marines.yaml"] * 2
    assert "field-manual-inconsistent" not in codes(report)


# -- pricing


def test_price_examples():
    points = [{"models": 5, "points": 100, "condition": None}, {"models": 10, "points": 200, "condition": None},
              {"models": 5, "points": 110, "condition": None, "from_copy": 3},
              {"models": 10, "points": 220, "condition": None, "from_copy": 3}]
    assert fieldmanual.price(points, 5) == 100
    assert fieldmanual.price(points, 7) == 200  # between two sizes: the higher cost
    assert fieldmanual.price(points, 7, 2) == 200
    assert fieldmanual.price(points, 7, 3) == 220 and fieldmanual.price(points, 5, 9) == 110
    assert fieldmanual.price(points, 4) is None and fieldmanual.price(points, 11) is None
    assert fieldmanual.price([], 1) is None
    with pytest.raises(ValueError):
        fieldmanual.price(points, 0)


_sizes = st.lists(st.integers(1, 30), min_size=1, max_size=5, unique=True).map(sorted)


@st.composite
def priced(draw):
    sizes = draw(_sizes)
    thresholds = [None] + sorted(draw(st.sets(st.integers(2, 6), max_size=2)))
    base = draw(st.lists(st.integers(0, 300), min_size=len(sizes), max_size=len(sizes)).map(sorted))
    entries = []
    for n, threshold in enumerate(thresholds):
        for size, cost in zip(sizes, base):
            entries.append({"models": size, "points": cost + 10 * n, "condition": None, "from_copy": threshold})
    return sizes, thresholds, draw(st.permutations(entries))


@given(priced(), st.integers(1, 40), st.integers(1, 10))
def test_price_properties(case, models, copy_number):
    sizes, thresholds, entries = case
    got = fieldmanual.price(entries, models, copy_number)
    if models < sizes[0] or models > sizes[-1]:
        assert got is None
        return
    # The tier: the highest threshold reached; the size: the smallest listed at least as large.
    tier = max(t or 1 for t in thresholds if (t or 1) <= copy_number)
    size = min(s for s in sizes if s >= models)
    want = next(e["points"] for e in entries if e["models"] == size and (e["from_copy"] or 1) == tier)
    assert got == want
    # More models never cost less; a later selection never less when tiers only rise.
    if models > sizes[0]:
        assert fieldmanual.price(entries, models - 1, copy_number) <= got
    assert fieldmanual.price(entries, models, copy_number + 1) >= got


# -- the real manual, read independently


REAL = "mfm-11e-v1.1-2026-07-22.tar.xz"


def _independent():
    path = _shared("WARSCRIBE_MFM", "mfm", REAL, "Munitorum Field Manual")
    factions = {}
    with tarfile.open(path) as tf:
        for member in tf.getmembers():
            if member.isfile() and member.name.endswith(".yaml") and not member.name.endswith("meta.yaml"):
                factions[member.name] = yaml.safe_load(tf.extractfile(member).read().decode("utf-8"))
    return path, factions


def _expected_points(unit: dict) -> list[tuple[int, int, int | None]]:
    out = []
    for tier in unit["pricing"]:
        low = int(re.match(r"\[(\d+),", tier["range"])[1])
        out += [(c["models"], c["points"], None if low == 1 else low) for c in tier["costs"] if not c.get("addon")]
    return out


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_manual_matches_an_independent_reading():
    path, factions = _independent()
    report = Report()
    manual = fieldmanual.load(path, REAL, report)
    assert report.errors == []
    ours_units = {(u.file.rsplit("/", 1)[1], u.name, u.line): u for u in manual.units()}
    by_name = {}
    for (file, name, _line), u in ours_units.items():
        by_name.setdefault((file, name), []).append(u)
    theirs = [(file.rsplit("/", 1)[1], f["name"], u) for file, f in sorted(factions.items()) for u in f["units"]]
    rng = random.Random(39)
    for file, faction, unit in rng.sample(theirs, 60):
        candidates = by_name[(file, unit["name"])]
        assert candidates, unit["name"]
        ours = candidates[0]
        assert ours.faction == faction and ours.group == unit.get("groupTitle") or len(candidates) == 1 and ours.headed
        got = [(p["models"], p["points"], p["from_copy"]) for p in ours.points_entries()]
        want = _expected_points(unit)
        if unit.get("groupTitle") and ours.group != unit["groupTitle"]:  # a unit again under a heading
            assert set(want) <= set(got)
        else:
            assert got[:len(want)] == want
        assert ours.role == unit.get("role") and ours.attach_to == (unit.get("attachTo") or [])
        assert ours.legends == bool(unit.get("legends"))
        wargear = [(w["item"], w["points"]) for w in unit.get("wargear") or ()]
        assert [(e["name"], e["points"]) for e in ours.extra_points() if (e["name"], e["points"]) in wargear] == wargear
    ours_dets = {(d.file.rsplit("/", 1)[1], d.name): d for d in manual.detachments()}
    dets = [(file.rsplit("/", 1)[1], d) for file, f in sorted(factions.items()) for d in f["detachments"]]
    for file, det in rng.sample(dets, 20):
        ours = ours_dets[(file, det["name"])]
        assert (ours.dp, ours.objective, ours.unique) == (det["dp"], det["objective"], det.get("unique"))
        assert [(e.name + (" (Upgrade)" if e.upgrade else ""), e.points) for e in ours.enhancements] == [
            (e["name"], e["points"]) for e in det["enhancements"]]


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_real_manual_applied_to_a_store():
    """Every sampled unit, as a bare record of its faction, gets the manual's points (tiers included)."""
    path, factions = _independent()
    theirs = [(f["name"], u) for _file, f in sorted(factions.items()) for u in f["units"]
              if not u.get("groupTitle")]
    sample = random.Random(39).sample(theirs, 60)
    recs, wanted = {}, {}
    for faction, unit in sample:
        rec = datasheet(unit["name"], faction=faction.replace("\u2019", "'"))
        recs[rec["id"]] = rec
        wanted.setdefault(rec["id"], _expected_points(unit))
    store = store_of(*recs.values())
    report = Report()
    manual = fieldmanual.load(path, REAL, report)
    out = fieldmanual.apply(store, manual, ranker({REAL: 1, "app": 2}), report)
    for rid, want in wanted.items():
        got = [(p["models"], p["points"], p["from_copy"]) for p in store.records[rid]["points"]]
        assert got[:len(want)] == want, rid
        assert record_errors(store.records[rid]) == []
    assert out.units_matched >= len(wanted)
    assert not [d for d in report.diagnostics if d.code == "source-disagreement"]
    assert {folded_name(r["faction"]) for r in recs.values()} <= {folded_name(f.name) for f in manual.factions}
