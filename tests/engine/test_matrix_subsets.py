"""`warscribe matrix` subsets (--faction, --keyword, --name; --target-*) and the size estimate before computing."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml

from engine_helpers import weapon_record
from warscribe.cli import main
from warscribe.matrix import estimate_bytes


def _datasheet(did: str, name: str, faction: str, keywords: list[str], faction_keywords: list[str]) -> dict:
    return {"id": did, "kind": "datasheet", "name": name, "ruleset": "11e", "faction": faction,
            "keywords": keywords, "faction_keywords": faction_keywords,
            "composition": [{"name": name, "min": 5, "max": 10}],
            "models": [{"name": name, "T": 4, "Sv": 3, "W": 2}]}


DATASHEETS = [
    _datasheet("space-marines/intercessor-squad", "Intercessor Squad", "Space Marines", ["INFANTRY", "BATTLELINE"],
               ["ADEPTUS ASTARTES"]),
    _datasheet("space-marines/predator-destructor", "Predator Destructor", "Space Marines", ["VEHICLE"],
               ["ADEPTUS ASTARTES"]),
    _datasheet("orks/boyz", "Boyz", "Orks", ["INFANTRY", "BATTLELINE"], ["ORKS"]),
    _datasheet("chaos-space-marines/legionaries", "Legionaries", "Chaos Space Marines", ["INFANTRY"],
               ["HERETIC ASTARTES"]),
]
WEAPONS = [
    weapon_record("space-marines/intercessor-squad/bolt-rifle", "Bolt rifle", "11e"),
    weapon_record("space-marines/predator-destructor/predator-autocannon", "Predator autocannon", "11e",
                  attacks=2, strength=9, ap=-1, damage=3),
    weapon_record("orks/boyz/slugga", "Slugga", "11e", range=12),
    weapon_record("orks/boyz/choppa", "Choppa", "11e", type="melee", range=None, skill=3, attacks=3),
    weapon_record("chaos-space-marines/legionaries/boltgun", "Boltgun", "11e"),
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("subsets")
    bundle = {"meta": {"generator": "tests"}, "data": {"weapon": WEAPONS, "datasheet": DATASHEETS}}
    (folder / "kb.json").write_text(json.dumps(bundle), encoding="utf-8")
    (folder / "targets.yaml").write_text(yaml.safe_dump([
        {"name": "Guardsmen", "toughness": 3, "save": 5, "wounds": 1, "models": 10, "keywords": ["INFANTRY"]},
        {"name": "Tank", "toughness": 10, "save": 3, "wounds": 13, "models": 1, "keywords": ["VEHICLE"]},
    ]), encoding="utf-8")
    (folder / "weapons.tsv").write_text(
        "catalogue\tname\ttype\trange\tA\tBS_WS\tS\tAP\tD\tkeywords\n"
        "Xenos - Orks\tSlugga\tranged\t12\"\t1\t5+\t4\t0\t1\t-\n"
        "Imperium - Space Marines\tBolt rifle\tranged\t24\"\t2\t3+\t4\t-1\t1\t-\n", encoding="utf-8")
    return folder


def _matrix(folder: Path, capsys, *args: str, weapons="kb.json", targets="kb.json") -> tuple[int, list[dict], str]:
    out = folder / "m.csv"
    out.unlink(missing_ok=True)
    code = main(["matrix", "--weapons", str(folder / weapons), "--targets", str(folder / targets),
                 "--out", str(out), *args])
    err = capsys.readouterr().err
    rows = []
    if out.exists():
        with out.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
    return code, rows, err


def _pairs(rows) -> set[tuple[str, str]]:
    return {(r["weapon"].rsplit("/", 1)[-1], r["target"].rsplit("/", 1)[-1]) for r in rows}


def test_faction_is_whole_and_ignores_case_and_punctuation(kb, capsys):
    code, rows, _ = _matrix(kb, capsys, "--faction", "space-marines", "--target-faction", "ORKS")
    assert code == 0
    # Chaos Space Marines is another faction, not a match of a part of the name
    assert _pairs(rows) == {("bolt-rifle", "boyz"), ("predator-autocannon", "boyz")}


def test_values_of_one_option_are_ored_options_anded(kb, capsys):
    code, rows, _ = _matrix(kb, capsys, "--faction", "Orks", "--faction", "Space Marines", "--keyword", "infantry",
                            "--target-keyword", "VEHICLE", "--target-keyword", "battleline")
    assert code == 0
    assert {w for w, _t in _pairs(rows)} == {"bolt-rifle", "slugga", "choppa"}  # not the Predator's (a VEHICLE)
    assert {t for _w, t in _pairs(rows)} == {"intercessor-squad", "predator-destructor", "boyz"}
    # rows keep the input order: weapons, then targets within a weapon
    assert [r["weapon"] for r in rows][::3] == [w["id"] for w in WEAPONS if w["id"].startswith(("space", "orks"))][:1] + \
        ["orks/boyz/slugga", "orks/boyz/choppa"]


def test_keyword_may_be_a_faction_keyword(kb, capsys):
    code, rows, _ = _matrix(kb, capsys, "--keyword", "Heretic Astartes", "--target-name", "legion")
    assert code == 0 and _pairs(rows) == {("boltgun", "legionaries")}


def test_name_is_a_part_of_the_weapons_or_its_datasheets_name(kb, capsys):
    code, rows, _ = _matrix(kb, capsys, "--name", "BOLT", "--name", "boyz", "--target-name", "squad")
    assert code == 0
    assert {w for w, _t in _pairs(rows)} == {"bolt-rifle", "boltgun", "slugga", "choppa"}
    assert {t for _w, t in _pairs(rows)} == {"intercessor-squad"}


def test_yaml_targets_by_name_and_keyword_and_tsv_weapons_by_name(kb, capsys):
    code, rows, _ = _matrix(kb, capsys, "--name", "space marines/", "--target-keyword", "vehicle",
                            weapons="weapons.tsv", targets="targets.yaml")
    assert code == 0
    assert [(r["weapon"], r["target"]) for r in rows] == [("Imperium - Space Marines/Bolt rifle#2", "Tank")]


@pytest.mark.parametrize("args, message", [
    (["--faction", "Space Marine"], "--faction 'Space Marine': none of the 5 weapons of "),
    (["--faction", "Space Marine"], "nearest: 'Space Marines', 'Chaos Space Marines'"),
    (["--target-faction", "Necrons"], "its 3 factions: Chaos Space Marines, Orks, Space Marines"),
    (["--keyword", "VEHICEL"], "nearest: 'VEHICLE'"),
    (["--target-name", "knight"], "--target-name 'knight': none of the 4 targets of "),
    (["--faction", "Orks", "--keyword", "VEHICLE"], "each matches some weapons of "),
    (["--faction", "Orks", "--keyword", "VEHICLE"], "no weapon matches all"),
])
def test_a_subset_that_selects_nothing_is_unusable_input(kb, capsys, args, message):
    code, rows, err = _matrix(kb, capsys, *args)
    assert code == 2 and not rows
    assert message in err and err.count("\n") == 1 and err.startswith("error: ")


def test_faction_of_a_source_without_factions_is_refused(kb, capsys):
    code, _rows, err = _matrix(kb, capsys, "--faction", "Orks", weapons="weapons.tsv")
    assert code == 2 and "names no faction of its weapons" in err and "--name" in err
    code, _rows, err = _matrix(kb, capsys, "--target-faction", "Orks", targets="targets.yaml")
    assert code == 2 and "names no faction of its targets" in err and "--target-name" in err


def test_rows_outside_the_subset_are_not_listed_as_skipped(kb, capsys, tmp_path):
    bundle = json.loads((kb / "kb.json").read_text(encoding="utf-8"))
    bundle["data"]["datasheet"].append({"id": "orks/gretchin", "kind": "datasheet", "name": "Gretchin",
                                        "faction": "Orks", "keywords": ["INFANTRY"]})
    (tmp_path / "kb.json").write_text(json.dumps(bundle), encoding="utf-8")
    _code, _rows, err = _matrix(tmp_path, capsys, "--target-faction", "Space Marines")
    assert "gretchin" not in err
    _code, _rows, err = _matrix(tmp_path, capsys, "--target-faction", "Orks")
    assert "skipped target orks/gretchin: no model characteristics" in err


def test_a_large_output_is_refused_before_computing_unless_forced(kb, capsys):
    code, rows, err = _matrix(kb, capsys, "--max-size", "1K")
    assert code == 2 and not rows and err.count("\n") == 1
    assert "5 weapons x 4 targets = 20 rows, about 2.1 KB, more than --max-size 1 KB" in err
    for option in ("--faction", "--keyword", "--name", "--target-faction", "--target-keyword", "--target-name",
                   "--force"):
        assert option in err
    code, rows, err = _matrix(kb, capsys, "--max-size", "1K", "--force")
    assert code == 0 and len(rows) == 20
    assert "5 weapons x 4 targets = 20 rows, about 2.1 KB: computing" in err
    code, rows, _err = _matrix(kb, capsys, "--max-size", "0")
    assert code == 0 and len(rows) == 20


def test_the_estimate_is_near_the_file_written(kb, capsys):
    for suffix in (".csv", ".npz"):
        out = kb / f"e{suffix}"
        assert main(["matrix", "--weapons", str(kb / "kb.json"), "--targets", str(kb / "kb.json"), "--out", str(out),
                     "-q"]) == 0
        ids = [w["id"] for w in WEAPONS], [d["id"] for d in DATASHEETS]
        estimate, size = estimate_bytes(suffix, *ids), out.stat().st_size
        assert 0.7 * size <= estimate <= 1.6 * size, (suffix, estimate, size)


def test_the_whole_game_is_refused_at_the_default_limit():
    """The estimate's arithmetic at the whole 11e game's scale (8,155 weapons x 1,489 datasheets), without a build."""
    weapons = [f"space-marines/intercessor-squad/weapon-{i}" for i in range(8155)]
    targets = [f"space-marines/datasheet-{i}" for i in range(1489)]
    assert 1.0e9 < estimate_bytes(".csv", weapons, targets) < 2.0e9
    assert 2.0e8 < estimate_bytes(".npz", weapons, targets) < 4.0e8
