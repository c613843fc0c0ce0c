"""Hostile and broken lists: each gets a clear, located error with its code, and never stops the other lists."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from conftest import rosters_path
from roster_helpers import KB10
from warscribe.roster import examine, read_data, read_path
from warscribe.roster.source import Limits



@pytest.fixture(scope="module")
def ros() -> bytes:
    """A real BattleScribe roster (read in the test, so missing shared data skips it, or fails under CI)."""
    return zipfile.ZipFile(rosters_path("battlescribe10e-necrons-1.rosz")).read("Necrons 10e.ros")


def _error(roster):
    assert roster.units == [] and len(roster.errors) == 1, roster.errors
    return roster.errors[0]


def _zip(members: dict[str, bytes], method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_a_huge_file_is_refused_after_reading_no_more_than_the_limit(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"Unit (10 points)\n" * (300_000))
    limits = Limits(max_bytes=1 << 20)
    e = _error(read_path(str(path), limits))
    assert e.code == "roster-too-large" and "1,048,576" in e.message


def test_a_huge_line_is_refused_with_its_line():
    e = _error(read_data(b"Title (100 points)\n\n" + b"x" * 70_000 + b"\n", "long.txt"))
    assert (e.code, e.line) == ("roster-too-large", 3) and "70,000 characters" in e.message


def test_binary_input():
    e = _error(read_data(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image.png"))
    assert e.code == "roster-binary" and "PNG" in e.found


def test_bad_encoding_is_located():
    e = _error(read_data("Liste (100 points)\n\nUnité\n".encode("latin-1"), "latin1.txt"))
    assert (e.code, e.line, e.column) == ("roster-encoding", 3, 5)


@pytest.mark.parametrize("data", [b"", b"   \n\n\t\n"])
def test_an_empty_list(data):
    assert _error(read_data(data, "empty.txt")).code == "roster-empty"


def test_text_that_is_no_army_list():
    e = _error(read_data(b"Dear diary,\ntoday I painted.\n", "diary.txt"))
    assert (e.code, e.line) == ("roster-format", 1) and "Dear diary" in e.found


def test_a_missing_file():
    e = _error(read_path("/nonexistent/list.txt"))
    assert e.code == "roster-missing"


def test_a_zip_bomb_is_refused_before_it_is_inflated():
    bomb = _zip({"bomb.ros": b" " * (50 << 20)})  # 50 MB of spaces: a few tens of kilobytes stored
    assert len(bomb) < 200_000
    e = _error(read_data(bomb, "bomb.rosz"))
    assert e.code == "roster-archive" and ("inflates" in e.message)


def test_a_zip_whose_header_lies_about_its_size():
    data = bytearray(_zip({"lie.ros": b"<" * (4 << 20)}))
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).infolist()[0]
    real = info.file_size.to_bytes(4, "little")
    fake = (info.compress_size * 2).to_bytes(4, "little")
    assert data.count(real) == 2  # the local header's and the central directory's size fields
    data = data.replace(real, fake)
    e = _error(read_data(bytes(data), "lie.rosz"))
    # Inflating stops at the size the header claims (and at the limit), so the lie shows as a bad checksum.
    assert e.code == "roster-archive" and "inflate" in e.message


def test_an_archive_of_many_members_or_not_one_roster(ros):
    many = _zip({f"m{i}.ros": b"<roster/>" for i in range(40)})
    assert "40 members" in _error(read_data(many, "many.rosz")).message
    two = _zip({"a.ros": ros, "b.ros": ros})
    assert "2 .ros files" in _error(read_data(two, "two.rosz")).message
    none = _zip({"readme.txt": b"hello"})
    assert "0 .ros files" in _error(read_data(none, "none.rosz")).message
    assert _error(read_data(b"PK\x03\x04 not really a zip", "broken.rosz")).code == "roster-archive"


def test_an_unsafe_member_name(ros):
    e = _error(read_data(_zip({"../../etc/evil.ros": ros}), "evil.rosz"))
    assert e.code == "roster-archive" and "refused" in e.message


LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="&b;"></roster>"""


def test_entities_are_refused():
    e = _error(read_data(LAUGHS, "laughs.ros"))
    assert e.code == "roster-xml" and "document type declaration" in e.message and e.line == 2


def test_deep_xml_is_refused():
    deep = b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema">' + b"<a x='1'>" * 500 + b"</a>" * 500 \
        + b"</roster>"
    e = _error(read_data(deep, "deep.ros"))
    assert e.code == "roster-xml" and "nested deeper" in e.message


def test_malformed_xml_is_located(ros):
    e = _error(read_data(ros[:5000], "cut.ros"))
    assert e.code == "roster-xml" and e.line > 1 and "malformed" in e.message


def test_xml_that_is_not_a_roster():
    e = _error(read_data(b'<?xml version="1.0"?>\n<catalogue name="x"/>', "x.cat"))
    assert e.code == "roster-format" and "<catalogue>" in e.found


def test_a_broken_list_never_stops_the_others(tmp_path, capsys):
    from warscribe.cli import main

    good = rosters_path("gwapp11e-worldeaters-1.txt")
    bad = tmp_path / "bad.rosz"
    bad.write_bytes(_zip({"bomb.ros": b" " * (50 << 20)}))
    kb = tmp_path / "kb.json"
    kb.write_text(json.dumps({"meta": {}, "data": {k: v for k, v in KB10.by_kind.items()}}), encoding="utf-8")
    status = main(["roster", str(bad), str(good), "--kb", str(kb), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 1 and [len(r["units"]) for r in doc["rosters"]] == [0, 16]
    assert doc["rosters"][0]["findings"][0]["code"] == "roster-archive"


def test_terminal_escapes_in_a_list_are_shown_escaped():
    from warscribe.roster.report import render_text

    text = "Evil\x1b[2J (100 points)\n\nWorld Eaters\nStrike Force (2000 points)\nBerzerker Warband\n\n" \
           "Master\x1b]0;pwned\x07 of Executions (60 points)\n  • Warlord\n"
    out = render_text(examine(read_data(text.encode(), "evil.txt"), [KB10]))
    assert "\x1b" not in out and "\x07" not in out and "\\x1b" in out


def test_thousands_of_unknown_units_are_read_and_reported(tmp_path):
    lines = ["Big (100000 points)", "", "World Eaters", "Strike Force (2000 points)", "Berzerker Warband", ""]
    lines += [f"Unknown Unit {i} (5 points)\n  • 1x Thing" for i in range(3000)]
    result = examine(read_data("\n".join(lines).encode(), "big.txt"), [KB10])
    unresolved = [f for f in result.findings if f.diagnostic.code == "roster-unresolved"]
    assert len(result.roster.units) == 3000 and len(unresolved) == 3000
