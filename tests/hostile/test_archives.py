"""Hostile archives: nested archives, names given twice, links, decompression bombs; refused by name, in bounded memory."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from warscribe.extract.battlescribe import files
from warscribe.schema.diagnostics import Report

DATA = ROOT / "tests" / "fixtures" / "battlescribe" / "json"
MB = 1 << 20


def _tar(path: Path, members: list[tuple[str, bytes | None, str]], fmt=tarfile.PAX_FORMAT) -> Path:
    """members: (name, data, kind) with kind 'file', 'symlink' or 'hardlink' (data is then the target)."""
    with tarfile.open(path, "w:gz", format=fmt) as tf:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
            else:
                info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
                info.linkname = data.decode()
                tf.addfile(info)
    return path


def _data_members() -> list[tuple[str, bytes, str]]:
    return [(f"data/{p.name}", p.read_bytes(), "file") for p in sorted(DATA.iterdir())]


def _open(path: Path, name: str = "src"):
    report = Report()
    members = files.open_source(path, name, None, report)
    return members, report


def _codes(report: Report) -> list[tuple[str, str]]:
    return [(d.code, d.found) for d in report.sorted()]


def test_an_archive_holding_only_an_archive_refuses_it_by_name(tmp_path):
    inner = _tar(tmp_path / "inner.tar.gz", _data_members())
    outer = _tar(tmp_path / "outer.tar.gz", [("release/inner.tar.gz", inner.read_bytes(), "file"),
                                             ("release/README.md", b"hello", "file")])
    members, report = _open(outer, "outer.tar.gz")
    assert members == []
    [err] = report.errors
    assert err.code == "nested-archive" and err.found == "release/inner.tar.gz" and "not opened" in err.message


def test_a_data_file_that_is_compressed_is_refused_as_an_archive_not_parsed(tmp_path):
    cat = gzip.compress((DATA / "Testers.json").read_bytes())
    with zipfile.ZipFile(tmp_path / "d.zip", "w") as zf:
        zf.writestr("Testers.json", cat)
        zf.writestr("Test System.json", (DATA / "Test System.json").read_bytes())
    members, report = _open(tmp_path / "d.zip", "d.zip")
    assert [m.path for m in members] == ["Test System.json"]
    assert [(d.code, d.file) for d in report.errors] == [("nested-archive", "d.zip/Testers.json")]


@pytest.mark.parametrize("second", ["data/Testers.json", "./data/Testers.json", "data//Testers.json"])
def test_a_member_given_twice_is_refused_by_name_and_neither_copy_is_read(tmp_path, second):
    evil = b'{"catalogue": {"id": "evil"}}'
    archive = _tar(tmp_path / "d.tar.gz", _data_members() + [(second, evil, "file")])
    members, report = _open(archive)
    assert [m.path for m in members] == ["data/Test Library.json", "data/Test System.json"]
    assert _codes(report) == [("duplicate-member", "data/Testers.json")]
    assert "given 2 times" in report.errors[0].message


def test_a_zip_member_given_twice_is_refused(tmp_path):
    with zipfile.ZipFile(tmp_path / "d.zip", "w") as zf:
        zf.writestr("a.cat", b"<catalogue/>")
        with pytest.warns(UserWarning, match="Duplicate name"):
            zf.writestr("a.cat", b"<catalogue id='evil'/>")
    members, report = _open(tmp_path / "d.zip")
    assert members == [] and _codes(report) == [("duplicate-member", "a.cat")]


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_link_members_are_refused_by_name_saying_what_they_are(tmp_path, kind):
    archive = _tar(tmp_path / "d.tar.gz", _data_members() + [("data/Extra.cat", b"/etc/passwd", kind)])
    members, report = _open(archive)
    assert len(members) == 3
    [err] = report.errors
    assert (err.code, err.found) == ("unsafe-member", "data/Extra.cat")
    assert ("symbolic link" if kind == "symlink" else "hard link") in err.message and "/etc/passwd" in err.message


def test_a_symlink_in_a_zip_is_refused(tmp_path):
    with zipfile.ZipFile(tmp_path / "d.zip", "w") as zf:
        info = zipfile.ZipInfo("Extra.cat")
        info.create_system = 3
        info.external_attr = (0o120777 << 16)
        zf.writestr(info, "/etc/passwd")
        zf.writestr("Test System.json", (DATA / "Test System.json").read_bytes())
    members, report = _open(tmp_path / "d.zip")
    assert [m.path for m in members] == ["Test System.json"]
    [err] = report.errors
    assert err.code == "unsafe-member" and "symbolic link" in err.message and "'/etc/passwd'" in err.message


def _bomb_tar(path: Path, count: int, size: int, name: str = "data/f{}.bin") -> Path:
    """A .tar.gz of `count` members of `size` zero bytes, made of concatenated gzip members (made in no time)."""
    zeros = gzip.compress(b"\0" * size, compresslevel=1)
    with path.open("wb") as fh:
        for i in range(count):
            info = tarfile.TarInfo(name.format(i))
            info.size = size
            fh.write(gzip.compress(info.tobuf(format=tarfile.GNU_FORMAT)))
            fh.write(zeros)
        fh.write(gzip.compress(b"\0" * 1024))
    return path


def _peak(fn) -> tuple[object, int]:
    tracemalloc.start()
    try:
        value = fn()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", ["data/f{}.cat", "data/f{}.bin"])  # read, and skipped over: both are counted
def test_a_tar_bomb_of_many_members_is_refused_whole_by_its_total_in_bounded_memory(tmp_path, monkeypatch, name):
    monkeypatch.setattr(files, "MAX_TOTAL", 8 * MB)
    archive = _bomb_tar(tmp_path / "bomb.tar.gz", 64, MB, name)  # 64 MB unpacked, 8 MB accepted
    (members, report), peak = _peak(lambda: _open(archive, "bomb.tar.gz"))
    assert members == []
    [err] = report.errors
    assert err.code == "archive-too-large" and err.file == "bomb.tar.gz"
    assert "decompression bomb" in err.message and "8,388,608" in err.message
    assert peak < 3 * 8 * MB  # what was held is bounded by the total accepted, not by the bomb


def test_a_tar_member_whose_header_says_it_is_huge_is_refused_at_its_header(tmp_path):
    # Only the header: had the reader gone on to unpack it, it would find the stream cut short.
    info = tarfile.TarInfo("data/huge.cat")
    info.size = 64 << 30
    (tmp_path / "h.tar.gz").write_bytes(gzip.compress(info.tobuf(format=tarfile.GNU_FORMAT) + b"\0" * 4096))
    (members, report), peak = _peak(lambda: _open(tmp_path / "h.tar.gz"))
    assert members == [] and [d.code for d in report.errors] == ["archive-too-large"]
    assert peak < 4 * MB


def test_a_huge_extended_header_is_refused_before_it_is_read_into_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILE", MB)
    pax = tarfile.TarInfo("././@PaxHeader")
    pax.type = tarfile.XHDTYPE
    pax.size = 32 * MB
    path = tmp_path / "pax.tar.gz"
    with path.open("wb") as fh:
        fh.write(gzip.compress(pax.tobuf(format=tarfile.USTAR_FORMAT)))
        fh.write(gzip.compress(b"\0" * pax.size, compresslevel=1))
    (members, report), peak = _peak(lambda: _open(path))
    assert members == [] and [d.code for d in report.errors] == ["archive-too-large"]
    assert "asks to unpack 33,554,432 bytes at once" in report.errors[0].message
    assert peak < 8 * MB


def test_a_zip_bomb_is_refused_by_its_declared_total_before_anything_is_unpacked(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_TOTAL", 8 * MB)
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(16):
            zf.writestr(f"f{i}.cat", b"\0" * MB)
    unpacked = []
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda *a, **k: unpacked.append(a) or pytest.fail("unpacked"))
    members, report = _open(tmp_path / "bomb.zip")
    assert members == [] and unpacked == []
    [err] = report.errors
    assert err.code == "archive-too-large" and "decompression bomb" in err.message
    assert "say they unpack to 16,777,216 bytes, where at most 8,388,608 bytes unpacked are accepted" in err.message


def test_an_archive_with_too_many_members_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_MEMBERS", 10)
    archive = _bomb_tar(tmp_path / "many.tar.gz", 20, 0, "data/e{}.txt")
    members, report = _open(archive)
    assert members == [] and [d.code for d in report.errors] == ["archive-too-large"]
    assert "more than 10 members" in report.errors[0].message


def test_a_truncated_or_corrupt_archive_is_one_located_error(tmp_path):
    good = _tar(tmp_path / "d.tar.gz", _data_members()).read_bytes()
    (tmp_path / "cut.tar.gz").write_bytes(good[: len(good) // 2])
    (tmp_path / "junk.tar.xz").write_bytes(b"\xfd7zXZ\x00" + os.urandom(4000))
    (tmp_path / "junk.zip").write_bytes(b"PK\x03\x04" + os.urandom(4000))
    for name in ("cut.tar.gz", "junk.tar.xz", "junk.zip"):
        members, report = _open(tmp_path / name, name)
        assert [(d.code, d.file) for d in report.errors] == [("bad-archive", name)], name


def test_the_shared_reader_serves_any_reader_and_keeps_the_archive_order_out_of_the_result(tmp_path):
    rows = [("export/Datasheets.csv", b"id|name|\n", "file"), ("export/Abilities.csv", b"id|\n", "file"),
            ("export/notes.txt", b"x", "file")]
    report = Report()
    got = files.read_archive(_tar(tmp_path / "w.tar.gz", rows), "w.tar.gz", report, lambda n: n.endswith(".csv"))
    assert [(m.name, m.path, m.data) for m in got] == [
        ("w.tar.gz/export/Abilities.csv", "export/Abilities.csv", b"id|\n"),
        ("w.tar.gz/export/Datasheets.csv", "export/Datasheets.csv", b"id|name|\n")]
    assert report.diagnostics == []
