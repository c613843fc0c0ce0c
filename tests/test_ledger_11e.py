"""The change ledger of 11th edition, held to an independent reading of two releases of each source.

- The app's data 867 (2026-06-17) -> 886 (2026-07-14): both built (``realdata.build``), compared;
  the archives are also read here with ``tarfile`` and ``json`` alone (nothing of
  ``extract/app``): every matched-play datasheet's prices per size, condition and requisition
  tier (``additionalCost``: ``afterSelections`` N prices the (N+1)th selection on), every
  stratagem's CP, WHEN, TARGET and EFFECT, every enhancement's cost.
- The Munitorum Field Manual v1.0 (2026-06-24) -> v1.1 (2026-07-22), given directly: read here
  with ``tarfile`` and ``yaml`` alone: each unit's costs per tier and size and its wargear, each
  detachment's DP, objective and unique tag, each enhancement's points.

A unit whose prices differ between the two releases must be in the ledger's points section, and
one listed there must be one (recall and precision at least 99%); every changed stratagem and
enhancement must be found; what the noise rules left out is counted.
"""

from __future__ import annotations

import html
import json
import re
import tarfile
import tempfile
from pathlib import Path

import pytest
import yaml

import realdata
from warscribe.ledger import make, render
from warscribe.ledger.diff import compare
from warscribe.ledger.model import Side
from warscribe.ledger.sides import build_sources, load_side, source_kind
from warscribe.schema import bundle

pytestmark = pytest.mark.slow


def fold(name: str) -> str:
    return " ".join(re.sub(r"[^\w ]", "", name.replace("’", "").replace("'", "")).casefold().split())


def plain(text) -> str:
    """An app text without its markup, as a reader compares two versions of it."""
    if isinstance(text, dict):
        text = text.get("en") or ""
    text = re.sub(r"<[^>]+>|\*\*|\^\^|■", " ", html.unescape(str(text or "")))
    return " ".join(text.replace("’", "'").replace("“", '"').replace("”", '"').casefold().split())


# -- the app's data, read independently -------------------------------------------------------------


def app_reading(archive: Path) -> dict:
    """{'units': {name: prices}, 'stratagems': {(detachment, name): fields}, 'enhancements': {(det, name): cost}}."""
    units: dict[str, set] = {}
    strats: dict[tuple, tuple] = {}
    enh: dict[tuple, object] = {}
    with tarfile.open(archive) as tf:
        for m in tf.getmembers():
            parts = m.name.split("/")
            if not m.isfile() or not m.name.endswith(".json") or len(parts) != 2:
                continue  # faction files only: core/, combatpatrol/, missions/ are not armies
            doc = json.load(tf.extractfile(m))
            if "datasheets" not in doc:
                continue
            for ds in doc.get("datasheets") or []:
                prices = set()
                extra = ds.get("additionalCost") or {}
                for p in ds.get("points") or []:
                    cond = p.get("keyword") or p.get("detachment")
                    cond = plain(cond) if cond else None
                    prices.add((int(p["models"]), int(p["cost"]), cond, None))
                    if extra.get("cost"):
                        prices.add((int(p["models"]), int(p["cost"]) + int(extra["cost"]), cond,
                                    int(extra["afterSelections"]) + 1))
                units.setdefault(fold(ds["name"]["en"]), set()).update(prices)
            for s in doc.get("stratagems") or []:
                key = (fold(str(s.get("detachment") or "")), fold(s["name"]["en"]))
                strats[key] = (s.get("cost"), plain(s.get("when")), plain(s.get("target")), plain(s.get("effect")))
            for e in doc.get("enhancements") or []:
                enh[(fold(str(e.get("detachment") or "")), fold(re.sub(r"\s*\(Upgrade\)$", "", e["name"]["en"])))] = (
                    e.get("cost"), plain(e.get("description")))
    return {"units": units, "stratagems": strats, "enhancements": enh}


def changed(a: dict, b: dict) -> set:
    return {k for k in set(a) & set(b) if a[k] != b[k]}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    old_dir = realdata.build(tmp_path_factory, "app-11e-867")
    new_dir = realdata.build(tmp_path_factory, "app-11e-886")
    old, new = bundle.load(old_dir), bundle.load(new_dir)
    sides = (Side.of_sources("867", "867", "build", build_sources(old)),
             Side.of_sources("886", "886", "build", build_sources(new)))
    diff = compare(old, new)
    book = make(old, new, diff, sides)
    reading = (app_reading(realdata.path("app-11e-867")), app_reading(realdata.path("app-11e-886")))
    return book, reading


def _recall_and_precision(label: str, truth: set, found: set, at_least: int) -> None:
    """The ledger's repriced units against an independent reading: both at least 0.99."""
    hit = truth & found
    recall, precision = len(hit) / len(truth), len(hit) / len(found)
    print(f"{label}: {len(truth)} repriced units read, {len(found)} in the ledger; "
          f"recall {recall:.3f}, precision {precision:.3f}")
    assert len(truth) > at_least
    assert recall >= 0.99, sorted(truth - found)[:20]
    assert precision >= 0.99, sorted(found - truth)[:20]


def test_app_points_recall_and_precision(app):
    book, (a, b) = app
    found = {fold(i.group) for i in book.section("points") if i.kind == "datasheet"}
    _recall_and_precision("app 867 -> 886", changed(a["units"], b["units"]), found, 100)


def test_app_requisition_tiers_are_told_apart(app):
    book, _ = app
    guard = [i for i in book.section("points") if i.group == "Custodian Guard"]
    assert {(i.what, i.old, i.new) for i in guard} >= {("4 models, 4th+", None, 180), ("5 models, 4th+", None, 225)}


def test_app_every_changed_stratagem_and_enhancement_found(app):
    book, (a, b) = app
    strats = changed(a["stratagems"], b["stratagems"])
    found = {fold(i.what.split(":")[0]) for i in book.items if i.kind == "stratagem"}
    assert {name for _det, name in strats} <= found, sorted({n for _d, n in strats} - found)
    enh = changed(a["enhancements"], b["enhancements"])
    found_e = {fold(i.what.split(":")[0]) for i in book.items if i.kind == "enhancement"}
    assert {name for _det, name in enh} <= found_e, sorted({n for _d, n in enh} - found_e)
    print(f"app 867 -> 886: {len(strats)} changed stratagems, {len(enh)} changed enhancements, all found")


def test_app_noise_counted_and_sides_cited(app):
    book, _ = app
    assert book.noise["reference"]["count"] > 100  # core abilities' refs, once 886 carries the core rules
    assert book.noise["derived-list"]["count"] > 0
    print("noise:", {k: v["count"] for k, v in book.noise.items()})
    assert book.old.version == "app data 867" and book.new.version == "app data 886"
    item = next(i for i in book.section("points") if i.group == "Custodian Guard")
    assert item.old_source.file.endswith("gdc-11e-867.tar.xz/gdc/adeptuscustodes.json")
    assert item.new_source.file.endswith("gdc-11e-886.tar.xz/gdc/adeptuscustodes.json")
    assert "app data 867 → app data 886" in render.cite(item.old_source, item.new_source)
    # the JSON form: the ledger schema, with a side's `version` (the 11th-edition sources' releases)
    schema_ok(book.as_dict())


def test_leader_becoming_support_is_one_change(app):
    book, _ = app
    moves = [i for i in book.items if i.what == "Leader / Support"]
    assert moves and all(" became " in i.note for i in moves)


def schema_ok(data: dict) -> None:
    from warscribe.schema.registry import validator

    errors = [f"{list(e.path)}: {e.message}" for e in validator("ledger").iter_errors(data)]
    assert not errors, errors[:5]


# -- the Field Manual, read independently -----------------------------------------------------------


def manual_reading(archive: Path) -> dict:
    units: dict[tuple, set] = {}
    dets: dict[tuple, tuple] = {}
    enh: dict[tuple, object] = {}
    with tarfile.open(archive) as tf:
        for m in tf.getmembers():
            if not m.isfile() or not m.name.endswith(".yaml") or m.name.endswith("meta.yaml"):
                continue
            doc = yaml.load(tf.extractfile(m), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            faction = fold(doc["name"])

            def costs(pricing, head=""):
                out = set()
                for tier in pricing or []:
                    for c in tier.get("costs") or []:
                        out.add((head, tier.get("range"), c.get("models"), c.get("points"), c.get("desc") or c.get("note")))
                return out

            for u in doc.get("units") or []:
                # a unit given again under a heading ("Every Model Has The Imperium Keyword") is priced again there
                prices = costs(u.get("pricing"), u.get("groupTitle") or "")
                prices |= {("wargear", w.get("item") or w.get("name"), w.get("points")) for w in u.get("wargear") or []}
                units.setdefault((faction, fold(u["name"])), set()).update(prices)
            for d in doc.get("detachments") or []:
                dets.setdefault((faction, fold(d["name"])), (d.get("dp"), str(d.get("objective") or "").casefold(),
                                                            str(d.get("unique") or "").casefold()))
                for e in d.get("enhancements") or []:
                    name = fold(re.sub(r"\s*\(Upgrade\)$", "", e["name"]))
                    enh.setdefault((faction, fold(d["name"]), name), e.get("points"))
    return {"units": units, "detachments": dets, "enhancements": enh}


@pytest.fixture(scope="module")
def mfm():
    with tempfile.TemporaryDirectory() as tmp:
        old, old_side = load_side(str(realdata.path("mfm-11e-v1.0")), Path("."), Path(tmp))
        new, new_side = load_side(str(realdata.path("mfm-11e")), Path("."), Path(tmp))
    book = make(old, new, compare(old, new), (old_side, new_side))
    reading = (manual_reading(realdata.path("mfm-11e-v1.0")), manual_reading(realdata.path("mfm-11e")))
    return book, reading


def test_field_manual_is_recognised_by_content():
    assert source_kind(realdata.path("mfm-11e")) == "field-manual"
    assert source_kind(realdata.path("app-11e-867")) == "app-json"


def test_field_manual_points_recall_and_precision(mfm):
    book, (a, b) = mfm
    found = {(fold(i.faction), fold(i.group)) for i in book.section("points") if i.kind == "datasheet"}
    _recall_and_precision("Field Manual v1.0 -> v1.1", changed(a["units"], b["units"]), found, 200)


def test_field_manual_every_enhancement_and_detachment_found(mfm):
    book, (a, b) = mfm
    enh = changed(a["enhancements"], b["enhancements"])
    found = {(fold(i.faction), fold(i.what)) for i in book.section("points") if i.kind == "enhancement"}
    assert {(f, n) for f, _d, n in enh} <= found, sorted({(f, n) for f, _d, n in enh} - found)
    dets = changed(a["detachments"], b["detachments"])
    found_d = {(fold(i.faction), fold(i.group)) for i in book.section("detachments") if i.kind == "detachment"}
    assert dets <= found_d, sorted(dets - found_d)
    added = set(b["units"]) - set(a["units"])
    found_added = {(fold(i.faction), fold(i.what)) for i in book.section("added") if i.kind == "datasheet"}
    assert added == found_added
    print(f"Field Manual v1.0 -> v1.1: {len(enh)} repriced enhancements, {len(dets)} changed detachments, "
          f"{len(added)} units added: all found")


def test_field_manual_sides_carry_version_and_date(mfm):
    book, _ = mfm
    assert book.old.how == book.new.how == "field-manual"
    assert book.old.version == "Field Manual v1.0 2026-06-23"  # meta.yaml's lastUpdated
    assert book.new.version == "Field Manual v1.1 2026-07-22"
    item = book.section("points")[0]
    assert item.old_source.release and item.new_source.release and item.new_source.date == "2026-07-22"
    text = render.render_text(book)
    assert "Field Manual v1.0 2026-06-23 → Field Manual v1.1 2026-07-22" in text
    schema_ok(book.as_dict())
