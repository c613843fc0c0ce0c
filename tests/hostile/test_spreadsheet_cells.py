"""Spreadsheet formulas: every CSV/TSV the tool writes neutralises text cells a spreadsheet would run; numbers stay;
the reader of our own export undoes it, so the round trip holds."""

from __future__ import annotations

import copy
import csv

import yaml
from hypothesis import given, strategies as st

from conftest import ROOT
from formats.test_wahapedia import comparable, load
from warscribe.export_csv import write_export
from warscribe.extract.pipeline import extract
from warscribe.schema.text import FORMULA_START, spreadsheet_cell, spreadsheet_text

CARRIED = ("datasheet", "weapon", "stratagem", "detachment", "enhancement")


@given(st.text(alphabet=st.sampled_from("'=+-@\t\r 0123456789.,aZ|<"), max_size=8) | st.text(max_size=20))
def test_every_text_comes_back_and_no_cell_starts_a_formula(text):
    cell = spreadsheet_cell(text)
    assert spreadsheet_text(cell) == text
    if cell.startswith(FORMULA_START):  # only a number or a lone '-' may start so
        assert cell == text and (cell == "-" or cell.lstrip("+-").replace(".", "").replace(",", "").isdigit())


def test_numbers_stay_as_the_format_gives_them():
    for value in ("-1", "+45", "-", "0", "3", "-0.5", "D6+1", "2D3", "N/A", "12\""):
        assert spreadsheet_cell(value) == value
    for text in ("=1+1", "+cmd|' /C calc'!A0", "-2 to hit", "@SUM(A1:A9)", "\tindent", "\rx", "-1+A1", "--"):
        assert spreadsheet_cell(text) == "'" + text


def _hostile(records: list[dict]) -> list[dict]:
    """The seeds' 10e records with texts a spreadsheet would run (ids unchanged: the slugs drop the signs)."""
    out = copy.deepcopy(records)
    for rec in out:
        if rec["kind"] == "datasheet":
            rec["name"] = "=" + rec["name"]
            ability = next(a for a in rec["abilities"] if a.get("text") and not a.get("ref"))
            ability["text"] = "+cmd|' /C calc'!A0 " + ability["text"]
        elif rec["kind"] == "stratagem":
            rec["effect"] = "@SUM(A1:A9) " + rec["effect"]
            rec["when"] = "-1 CP " + rec["when"]
            rec["flavour"] = "'=already quoted, by hand"
    return out


def test_the_wahapedia_export_neutralises_formulas_and_reads_back_the_same(tmp_path):
    originals = [r for r in extract(ROOT / "sources" / "manifest.yaml").records if r["ruleset"] == "10e"]
    hostile = _hostile(originals)
    write_export(hostile, tmp_path)
    cells = {}
    for path in tmp_path.glob("*.csv"):
        rows = list(csv.reader(path.read_text(encoding="utf-8-sig").splitlines(), delimiter="|"))
        cells[path.name] = {c for row in rows[1:] for c in row}
    assert "'=Paladin Squad" in cells["Datasheets.csv"] and "=Paladin Squad" not in cells["Datasheets.csv"]
    assert any(c.startswith("'+cmd|") or c.startswith("'+cmd&#124;") for c in cells["Datasheets_abilities.csv"])
    assert any(c.startswith("<b>WHEN:</b> -1 CP") for c in cells["Stratagems.csv"])  # not at a cell's start: kept
    assert "''=already quoted, by hand" in cells["Stratagems.csv"]
    for name, found in cells.items():  # no text cell may start a formula; numbers may
        risky = [c for c in found if c.startswith(FORMULA_START) and spreadsheet_cell(c) != c]
        assert not risky, (name, risky[:3])
    assert "-1" in cells["Datasheets_wargear.csv"] or "-2" in cells["Datasheets_wargear.csv"]  # AP as the format has it
    back, report = load(tmp_path, "10e")
    assert report.errors == []
    back = {rid: r for rid, r in back.items() if r["kind"] in CARRIED}  # (keyword records: formats/test_wahapedia.py)
    carried = {r["id"]: r for r in hostile if r["kind"] in CARRIED}
    assert set(back) == set(carried)
    for rid in carried:
        assert comparable(back[rid], False) == comparable(carried[rid], False), rid


def test_the_matrix_csv_neutralises_target_names(tmp_path):
    from warscribe.cli import main

    header = "catalogue\tname\ttype\trange\tA\tBS_WS\tS\tAP\tD\tkeywords\n"
    (tmp_path / "w.tsv").write_text(header + "Cat\tBolter\tranged\t24\"\t2\t3+\t4\t-1\t1\t-\n", encoding="utf-8")
    targets = [{"name": '=HYPERLINK("http://evil","x")', "toughness": 4, "save": 3, "wounds": 2, "models": 5},
               {"name": "-1 armour", "toughness": 4, "save": 3, "wounds": 2, "models": 5}]
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(targets), encoding="utf-8")
    assert main(["matrix", "--weapons", str(tmp_path / "w.tsv"), "--targets", str(tmp_path / "t.yaml"),
                 "--out", str(tmp_path / "m.csv"), "-q"]) == 0
    rows = list(csv.reader((tmp_path / "m.csv").read_text(encoding="utf-8").splitlines()))
    assert {r[1] for r in rows[1:]} == {"'=HYPERLINK(\"http://evil\",\"x\")", "'-1 armour"}
    assert all(not r[2].startswith("'") for r in rows[1:])  # the numbers as they are
