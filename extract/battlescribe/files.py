"""Opening BattleScribe data: a folder, chosen files in it, or a .tar.xz/.tar.gz/.zip of one.

Every member is untrusted: only regular files with a data suffix directly named (no
absolute paths, no '..', no links) are read, each at most ``MAX_FILE`` bytes and all
together at most ``MAX_TOTAL``; what is refused is reported by name.
"""

from __future__ import annotations

import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from warscribe.schema.diagnostics import Report

SUFFIXES = (".gst", ".cat", ".json")
MAX_FILE = 64 * 1024 * 1024
MAX_TOTAL = 512 * 1024 * 1024
ARCHIVES = (".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar", ".zip")


@dataclass
class Member:
    name: str  # as cited in provenance: '<source>/<member path>'
    data: bytes


def is_archive(path: Path) -> bool:
    return path.is_file() and path.name.lower().endswith(ARCHIVES)


def _wanted(name: str, chosen: set[str] | None) -> bool:
    return name.endswith(SUFFIXES) and (chosen is None or name in chosen or PurePosixPath(name).name in chosen)


def _safe(name: str) -> bool:
    p = PurePosixPath(name)
    return not p.is_absolute() and ".." not in p.parts and "\\" not in name


def _archive_members(path: Path):
    """(name, size as the archive says, regular file?, read at most MAX_FILE + 1 bytes) in name order."""
    if path.name.lower().endswith(".zip"):
        with zipfile.ZipFile(path) as zf:
            for info in sorted(zf.infolist(), key=lambda i: i.filename.encode()):
                if not info.is_dir():
                    yield info.filename, info.file_size, True, lambda i=info: zf.open(i).read(MAX_FILE + 1)
        return
    with tarfile.open(path, "r:*") as tf:
        for info in sorted(tf.getmembers(), key=lambda i: i.name.encode()):
            if not info.isdir():
                yield info.name, info.size, info.isreg(), lambda i=info: tf.extractfile(i).read(MAX_FILE + 1)


def open_source(path: Path, display: str, chosen: list[str] | None, report: Report) -> list[Member]:
    """The data files of `path` (folder, archive or single file), in name order."""
    wanted = set(chosen) if chosen else None
    total = 0
    members: list[Member] = []

    def take(name: str, size: int, read, cited: str | None = None) -> None:
        nonlocal total
        if size > MAX_FILE or total + size > MAX_TOTAL:
            report.error(f"{display}/{name}", 1, "too-large", f"{name} is {size} bytes; skipped",
                         expected=f"at most {MAX_FILE} bytes a file and {MAX_TOTAL} in all", found=str(size))
            return
        data = read()
        if len(data) > MAX_FILE:  # the header lied
            report.error(f"{display}/{name}", 1, "too-large", f"{name} is larger than it said; skipped",
                         expected=f"at most {MAX_FILE} bytes", found=f"more than {size}")
            return
        total += len(data)
        members.append(Member(cited or f"{display}/{name}", data))

    if path.is_dir():
        for p in sorted(path.iterdir(), key=lambda p: p.name.encode()):
            if p.is_file() and not p.is_symlink() and not p.name.startswith(".") and _wanted(p.name, wanted):
                take(p.name, p.stat().st_size, p.read_bytes)
    elif is_archive(path):
        try:
            for name, size, regular, read in _archive_members(path):
                if not _wanted(name, wanted):
                    continue
                if not regular or not _safe(name):
                    report.error(display, 1, "unsafe-member", f"archive member {name!r} refused",
                                 expected="a regular file at a relative path inside the archive", found=name)
                    continue
                take(name, size, read)
        except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
            report.error(display, 1, "bad-archive", f"cannot read the archive: {exc}", expected="a tar or zip archive")
    elif path.is_file():
        take(path.name, path.stat().st_size, path.read_bytes, cited=display)
    if wanted:
        found = {PurePosixPath(m.name).name for m in members} | {m.name.split("/", 1)[-1] for m in members}
        for name in sorted(wanted - found):
            report.error(display, 1, "missing-source", f"chosen file {name!r} is not in {display}",
                         expected="a .gst, .cat or .json file of the data", found="nothing")
    return members
