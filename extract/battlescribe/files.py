"""Opening BattleScribe data: a folder, chosen files in it, or a .tar.xz/.tar.gz/.zip of one.

Every member is untrusted. :func:`read_archive` is the one safe way into an archive,
for any reader (BattleScribe data here; a CSV export may come zipped too): only
regular files at a relative path are read, each at most ``MAX_FILE`` bytes and all of
the archive's members together (counted as they are unpacked, whether read or not) at
most ``MAX_TOTAL``. What is refused is reported by name: links (symbolic or hard) and
devices, absolute paths and '..', a name given twice, an archive inside the archive.
An archive that unpacks to more than the total, or holds more than ``MAX_MEMBERS``
members, is refused whole as soon as that is known (a decompression bomb), before its
contents are held in memory.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from warscribe.schema.diagnostics import Report

SUFFIXES = (".gst", ".cat", ".json")
MAX_FILE = 64 * 1024 * 1024
MAX_TOTAL = 256 * 1024 * 1024  # the largest real checkout unpacks to 43 MB
MAX_MEMBERS = 10_000  # a checkout holds about 60
ARCHIVES = (".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar", ".zip")
# Names of archives and compressed files a member may be; such a member is refused by name.
NESTED = ARCHIVES + (".tar.bz2", ".tbz2", ".gz", ".xz", ".bz2", ".zst", ".7z", ".rar", ".bsr", ".catz", ".gstz")
# How an archive or compressed file begins (a member named .cat that is one is refused the same way).
_MAGIC = (b"PK\x03\x04", b"\x1f\x8b", b"\xfd7zXZ\x00", b"BZh", b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07", b"\x28\xb5\x2f\xfd")
_CHUNK = 1 << 20
_HEADER = 512  # a tar header's size: an archive of many empty members still costs this much each


@dataclass
class Member:
    name: str  # as cited in provenance: '<source>/<member path>'
    data: bytes
    path: str = ""  # the member's path inside the archive (or the file's name in the folder)


@dataclass(frozen=True)
class Bounds:
    """What one archive may hold: bytes per member, bytes in all (unpacked), members."""

    max_file: int
    max_total: int
    max_members: int

    @classmethod
    def default(cls) -> Bounds:
        return cls(MAX_FILE, MAX_TOTAL, MAX_MEMBERS)  # read when called, so a test may lower them


class _Refused(Exception):
    """The whole archive is refused (a bomb): why, and what was accepted."""

    def __init__(self, why: str, bound: str):
        super().__init__(why)
        self.why, self.bound = why, bound


@dataclass
class _Entry:
    path: str  # as stored in the archive
    size: int  # as the archive says
    kind: str  # "file", "dir", "symlink", "hardlink" or "special"
    target: str  # a link's target
    open: Callable  # () -> a binary stream of the member's bytes


def is_archive(path: Path) -> bool:
    return path.is_file() and path.name.lower().endswith(ARCHIVES)


def _wanted(name: str, chosen: set[str] | None) -> bool:
    return name.endswith(SUFFIXES) and (chosen is None or name in chosen or PurePosixPath(name).name in chosen)


def _unsafe_path(name: str) -> str:
    """Why a member's path may not be read ('' if it may)."""
    p = PurePosixPath(name)
    if not name or p.is_absolute():
        return "an absolute path"
    if ".." in p.parts:
        return "a path leading out of the archive ('..')"
    if "\\" in name or "\x00" in name:
        return "a path with a backslash or NUL"
    return ""


def _zip_entries(zf: zipfile.ZipFile, bounds: Bounds) -> Iterator[_Entry]:
    infos = zf.infolist()
    # A zip says every size up front (its central directory): a bomb is refused before any byte is unpacked.
    if len(infos) > bounds.max_members:
        raise _Refused(f"it has {len(infos):,} members", f"at most {bounds.max_members:,} members")
    declared = sum(i.file_size for i in infos)
    if declared > bounds.max_total:
        raise _Refused(f"its members say they unpack to {declared:,} bytes", f"at most {bounds.max_total:,} bytes unpacked")
    for info in infos:
        mode = info.external_attr >> 16 if info.create_system == 3 else 0  # Unix permissions, where made on Unix
        if info.is_dir():
            kind = "dir"
        elif stat.S_ISLNK(mode):
            kind = "symlink"
        elif stat.S_IFMT(mode) not in (0, stat.S_IFREG):  # zipfile's own writestr sets no file type
            kind = "special"
        else:
            kind = "file"
        target = zf.read(info)[:200].decode("utf-8", "replace") if kind == "symlink" and info.file_size < 4096 else ""
        yield _Entry(info.filename, info.file_size, kind, target, lambda i=info: zf.open(i))


def _tar_entries(tf: tarfile.TarFile) -> Iterator[_Entry]:
    # In archive order, one header at a time (never getmembers(), which unpacks the whole stream first).
    while True:
        info = tf.next()
        if info is None:
            return
        if info.isdir():
            kind = "dir"
        elif info.issym():
            kind = "symlink"
        elif info.islnk():
            kind = "hardlink"
        elif info.isreg():
            kind = "file"
        else:
            kind = "special"
        yield _Entry(info.name, info.size, kind, info.linkname, lambda i=info: tf.extractfile(i))


def _read(stream, limit: int) -> bytes:
    """At most `limit` + 1 bytes of `stream`, a chunk at a time (a member larger than it says stops there)."""
    chunks, got = [], 0
    with stream:
        while got <= limit:
            chunk = stream.read(min(_CHUNK, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    return b"".join(chunks)


def read_archive(path: Path, display: str, report: Report, wanted: Callable[[str], bool],
                 bounds: Bounds | None = None) -> list[Member]:
    """The regular files of archive `path` whose member path `wanted` accepts, in name order.

    Members are cited as '<display>/<member path>'. Refused members are reported by name and
    skipped; an archive that cannot be read, or unpacks to more than the bounds allow, is
    reported and gives nothing.
    """
    bounds = bounds or Bounds.default()
    size = path.stat().st_size
    if size > bounds.max_total:
        report.error(display, 1, "archive-too-large", f"the archive is {size:,} bytes, more than the {bounds.max_total:,} "
                     "a source may unpack to; not opened", expected=f"at most {bounds.max_total:,} bytes",
                     found=f"{size:,} bytes")
        return []
    taken: dict[str, Member] = {}
    seen: dict[str, int] = {}  # normalised path of a wanted member -> how many times the archive gives it
    unpacked = members = 0

    def refuse(what: str, name: str, expected: str) -> None:
        report.error(display, 1, "unsafe-member", f"archive member {name!r} is {what}; refused",
                     expected=expected, found=name)

    try:
        with _open(path, bounds) as archive:
            entries = _zip_entries(archive, bounds) if isinstance(archive, zipfile.ZipFile) else _tar_entries(archive)
            for entry in entries:
                members += 1
                unpacked += entry.size + _HEADER
                if members > bounds.max_members:
                    raise _Refused(f"it has more than {bounds.max_members:,} members", f"at most {bounds.max_members:,} members")
                if unpacked > bounds.max_total:
                    raise _Refused(f"its members up to {entry.path!r} unpack to {unpacked:,} bytes",
                                   f"at most {bounds.max_total:,} bytes unpacked")
                if entry.kind == "dir":
                    continue
                name = PurePosixPath(entry.path).as_posix() if entry.path else entry.path
                if name.lower().endswith(NESTED):
                    report.error(display, 1, "nested-archive", f"archive member {entry.path!r} is itself an archive; "
                                 "not opened (nested archives are not read)",
                                 expected="data files directly in the archive (unpack the inner archive and list it)",
                                 found=entry.path)
                    continue
                if not wanted(name):
                    continue
                if entry.kind != "file":
                    what = {"symlink": f"a symbolic link (to {entry.target!r})", "hardlink":
                            f"a hard link (to {entry.target!r})", "special": "a device, pipe or other special file"}
                    refuse(what[entry.kind], entry.path, "a regular file")
                    continue
                why = _unsafe_path(entry.path)
                if why:
                    refuse(why, entry.path, "a regular file at a relative path inside the archive")
                    continue
                seen[name] = seen.get(name, 0) + 1
                if seen[name] > 1:
                    taken.pop(name, None)  # which copy is meant cannot be told: neither is read
                    continue
                cited = f"{display}/{name}"
                if entry.size > bounds.max_file:
                    report.error(cited, 1, "too-large", f"{name} is {entry.size:,} bytes; skipped",
                                 expected=f"at most {bounds.max_file:,} bytes a file", found=f"{entry.size:,}")
                    continue
                data = _read(entry.open(), bounds.max_file)
                if len(data) > bounds.max_file:  # the header lied (a zip's sizes are only its word)
                    report.error(cited, 1, "too-large", f"{name} is larger than it said; skipped",
                                 expected=f"at most {bounds.max_file:,} bytes", found=f"more than {entry.size:,}")
                    continue
                if data.startswith(_MAGIC) or data[257:262] == b"ustar":
                    report.error(cited, 1, "nested-archive", f"{name} is a compressed file or an archive, not data; "
                                 "not opened (nested archives are not read)", expected="a data file",
                                 found=repr(data[:8]))
                    continue
                taken[name] = Member(cited, data, name)
    except _Refused as exc:
        report.error(display, 1, "archive-too-large", f"archive refused whole as a decompression bomb (or not the "
                     f"data): {exc.why}, where {exc.bound} are accepted; nothing of it was read",
                     expected=exc.bound, found=exc.why)
        return []
    except (OSError, EOFError, tarfile.TarError, zipfile.BadZipFile, lzma.LZMAError, zlib.error,
            RuntimeError, NotImplementedError) as exc:  # RuntimeError: an encrypted zip member
        report.error(display, 1, "bad-archive", f"cannot read the archive: {exc}", expected="a tar or zip archive")
        return []
    for name, count in sorted(seen.items()):
        if count > 1:
            report.error(display, 1, "duplicate-member", f"archive member {name!r} is given {count} times; "
                         "none of them read", expected="each member once", found=name)
    return [taken[name] for name in sorted(taken, key=lambda n: n.encode())]


class _Capped:
    """An archive's unpacked stream that refuses to run past `limit` bytes or to read a block over `block`.

    Every byte a tar reader unpacks passes through here, members skipped over too, so the
    count is exact whatever the headers say (a huge extended header is refused before it
    is read into memory).
    """

    def __init__(self, raw, limit: int, block: int):
        self.raw, self.limit, self.block = raw, limit, block
        self.name = getattr(raw, "name", None)

    def _past(self, where: int) -> None:
        if where > self.limit:
            raise _Refused(f"it unpacks to more than {self.limit:,} bytes", f"at most {self.limit:,} bytes unpacked")

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0 or size > self.block:
            asked = "everything" if size is None or size < 0 else f"{size:,} bytes"
            raise _Refused(f"a header of it asks to unpack {asked} at once", f"blocks of at most {self.block:,} bytes")
        data = self.raw.read(size)
        self._past(self.raw.tell())
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        target = offset if whence == 0 else self.raw.tell() + offset if whence == 1 else None
        if target is None:  # from the end: the whole stream would be unpacked to find it
            raise _Refused("it must be unpacked whole to be read", "an archive read from its start")
        self._past(target)
        return self.raw.seek(target)

    def tell(self) -> int:
        return self.raw.tell()

    def close(self) -> None:
        self.raw.close()


@contextlib.contextmanager
def _open(path: Path, bounds: Bounds):
    """A ZipFile, or a TarFile reading the unpacked stream through :class:`_Capped`."""
    if path.name.lower().endswith(".zip"):
        with zipfile.ZipFile(path) as zf:
            yield zf
        return
    with path.open("rb") as fh:
        head = fh.read(6)
    opener = {b"\xfd7zXZ": lzma.open, b"\x1f\x8b": gzip.open, b"BZh": bz2.open}
    raw = next((o(path, "rb") for magic, o in opener.items() if head.startswith(magic)), None) or path.open("rb")
    capped = _Capped(raw, bounds.max_total, bounds.max_file + _CHUNK)
    try:
        with tarfile.open(fileobj=capped, mode="r:") as tf:
            yield tf
    finally:
        capped.close()


def open_source(path: Path, display: str, chosen: list[str] | None, report: Report) -> list[Member]:
    """The data files of `path` (folder, archive or single file), in name order."""
    wanted = set(chosen) if chosen else None
    if is_archive(path):
        members = read_archive(path, display, report, lambda name: _wanted(name, wanted))
    else:
        members = _read_files(path, display, wanted, report)
    if wanted:
        found = {PurePosixPath(m.name).name for m in members} | {m.name.split("/", 1)[-1] for m in members}
        for name in sorted(wanted - found):
            report.error(display, 1, "missing-source", f"chosen file {name!r} is not in {display}",
                         expected="a .gst, .cat or .json file of the data", found="nothing")
    return members


def _read_files(path: Path, display: str, wanted: set[str] | None, report: Report) -> list[Member]:
    """The data files directly in folder `path` (links and hidden files left out), or the file `path` itself."""
    if path.is_dir():
        files = [(p, f"{display}/{p.name}", p.name) for p in sorted(path.iterdir(), key=lambda p: p.name.encode())
                 if p.is_file() and not p.is_symlink() and not p.name.startswith(".") and _wanted(p.name, wanted)]
    elif path.is_file():
        files = [(path, display, path.name)]
    else:
        files = []
    total = 0
    members = []
    for file, cited, name in files:
        size = file.stat().st_size
        if size > MAX_FILE or total + size > MAX_TOTAL:
            report.error(cited, 1, "too-large", f"{name} is {size:,} bytes; skipped",
                         expected=f"at most {MAX_FILE:,} bytes a file and {MAX_TOTAL:,} in all", found=f"{size:,}")
            continue
        with file.open("rb") as fh:
            data = _read(fh, MAX_FILE)
        total += len(data)
        members.append(Member(cited, data, name))
    return members
