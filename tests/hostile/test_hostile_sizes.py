"""Hostile sizes parse in linear time; limits refuse what is too big with located errors; progress only on a terminal."""

from __future__ import annotations

import io
import time

import pytest

from conftest import ROOT, write_manifest
from warscribe.bench.hostile import ability_lines, paragraph
from warscribe.extract.limits import Limits
from warscribe.extract.lines import read_text
from warscribe.extract.page import parse_page
from warscribe.extract.pipeline import extract
from warscribe.extract.wahapedia.tables import Table, _rows
from warscribe.progress import Progress
from warscribe.schema.diagnostics import Report

PAGE = ROOT / "sources" / "datasheet-grey-knights-paladin-squad.10e.txt"


def test_twenty_thousand_ability_lines_parse_in_linear_time():
    """Was quadratic (a backward scan per line, the text re-joined per continuation): 61 s."""
    text = ability_lines(20000) + "\n" + "\n".join(f"More of litany 20000, paragraph {n}." for n in range(5000))
    report = Report()
    doc = read_text("p.txt", text.encode(), "10e", "datasheet-page", {}, report)
    start = time.perf_counter()
    page = parse_page(doc, report)
    assert time.perf_counter() - start < 30  # generous: about a second when linear, minutes when quadratic
    litanies = [a for a in page.abilities if a[1].startswith("Litany")]
    assert len(litanies) == 20000
    assert page.keywords and page.points  # the sections after the abilities are still read


def test_a_four_megabyte_csv_field_with_line_breaks_is_read_in_linear_time():
    """Was quadratic (the growing row re-joined and re-counted per line): 81 s."""
    columns = ["id", "name", "description"]
    field = "\n".join(["Each time this unit makes a Charge move, add 1 to the Damage."] * 65000)
    physical = ["id|name|description|", f"1|A|{field}|", "2|B|short|"]
    physical = physical[:1] + "\n".join(physical[1:]).split("\n")
    table = Table("Abilities.csv", "x/Abilities.csv", columns)
    start = time.perf_counter()
    _rows(table, physical, Report(), Limits(max_line_length=0))
    assert time.perf_counter() - start < 30
    assert [r["id"] for r in table.rows] == ["1", "2"] and len(table.rows[0]["description"]) == len(field)


def test_a_source_over_the_size_limit_is_refused_with_a_located_error(tmp_path):
    (tmp_path / "p.txt").write_bytes(PAGE.read_bytes())
    result = extract(write_manifest(tmp_path, [{"file": "p.txt", "ruleset": "10e", "kind": "datasheet-page"}]),
                     limits=Limits(max_source_bytes=1000))
    [err] = result.report.errors
    assert (err.code, err.line) == ("source-too-large", 1) and "1,000" in err.message and result.records == []


def test_a_line_over_the_length_limit_is_refused_at_its_line_and_column(tmp_path):
    (tmp_path / "p.txt").write_text(paragraph(5000), encoding="utf-8")
    (tmp_path / "q.txt").write_bytes(PAGE.read_bytes())
    manifest = write_manifest(tmp_path, [{"file": "p.txt", "ruleset": "10e", "kind": "datasheet-page"},
                                         {"file": "q.txt", "ruleset": "10e", "kind": "datasheet-page"}])
    result = extract(manifest, limits=Limits(max_line_length=4096))
    [err] = result.report.errors
    assert err.code == "line-too-long" and err.file.endswith("p.txt")
    assert (err.line, err.column) == (30, 4097) and len(err.found) <= 60
    assert any(r["kind"] == "datasheet" for r in result.records)  # the other source still builds


def test_a_csv_field_over_the_length_limit_skips_its_row_only(tmp_path):
    columns = ["id", "name", "description"]
    table = Table("Abilities.csv", "x/Abilities.csv", columns)
    report = Report()
    _rows(table, ["id|name|description|", "1|A|" + "x" * 500 + "|", "2|B|short|"], report, Limits(max_line_length=100))
    assert [r["id"] for r in table.rows] == ["2"]
    [err] = report.errors
    assert (err.code, err.line) == ("line-too-long", 2) and "'description'" in err.message


def test_limits_are_options_of_build_and_export():
    from warscribe.cli import parser

    args = parser().parse_args(["build", "--max-source-bytes", "2M", "--max-line-length", "0"])
    assert (args.max_source_bytes, args.max_line_length) == (2 << 20, 0)
    args = parser().parse_args(["export", "--max-line-length", "64K"])
    assert args.max_line_length == 64 << 10
    with pytest.raises(SystemExit):
        parser().parse_args(["build", "--max-line-length", "lots"])


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_only_on_a_terminal_after_the_delay_and_is_erased():
    tty = _Tty()
    with Progress(tty, delay=0.05, interval=0.02) as progress:
        progress("parse", 2, 4)
        time.sleep(0.3)
    out = tty.getvalue()
    assert "warscribe: parse 3/4" in out and out.endswith("\r\x1b[K")
    pipe = io.StringIO()
    with Progress(pipe, delay=0, interval=0.01) as progress:
        progress("parse", 0, 1)
        time.sleep(0.05)
    assert pipe.getvalue() == ""
    quick = _Tty()
    with Progress(quick, delay=5):
        pass
    assert quick.getvalue() == ""


def test_a_long_run_of_spaces_in_a_stratagem_list_is_read_in_linear_time():
    """The origin patterns backtracked over whitespace runs: 4,000 spaces took 1.5 s, a megabyte hours."""
    lines = PAGE.read_text(encoding="utf-8").split("\n")
    at = lines.index("STRATAGEMS") + 1
    lines[at:at] = ["HOSTILE GAMBIT", "1CP", "A" + " " * 200_000 + "B"]
    report = Report()
    doc = read_text("p.txt", "\n".join(lines).encode(), "10e", "datasheet-page", {}, report)
    start = time.perf_counter()
    page = parse_page(doc, report)
    assert time.perf_counter() - start < 30  # well under a second when linear
    assert page.stratagems[0].name == "HOSTILE GAMBIT"
