"""Getting an army list's bytes safely: a file, standard input, or the XML inside a .rosz.

A list is a few kilobytes, so everything is bounded far below what a real list needs:
the bytes read (never more than the limit plus one, whatever a header claims), the
length of a text line, and for a zipped BattleScribe roster the number of members,
each member's size and its compression ratio (a zip bomb is refused before it is
inflated past the limit). What is refused raises :class:`RosterError` with a code of
the diagnostics vocabulary, the place, what was expected and what was found.
"""

from __future__ import annotations

import io
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from warscribe.schema.diagnostics import Diagnostic, code_info

KiB = 1 << 10
MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 4 * MiB  # a list file, standard input, or a .rosz as stored
    max_member_bytes: int = 16 * MiB  # the XML inside a .rosz, inflated
    max_members: int = 16  # a .rosz holds one .ros
    max_ratio: int = 100  # inflated / stored size of a member (BattleScribe XML: about 7)
    max_line: int = 64 * KiB  # characters on one line of a text list


class RosterError(Exception):
    """A list that cannot be read at all; the other lists of the run are read on."""

    def __init__(self, code: str, message: str, line: int = 1, expected: str = "", found: str = "", column: int = 0):
        code_info(code)
        super().__init__(message)
        self.code, self.message, self.line = code, message, line
        self.expected, self.found, self.column = expected, found, column

    def diagnostic(self, file: str) -> Diagnostic:
        return Diagnostic(file, self.line, "error", self.code, self.message, self.expected, self.found, self.column)


def read_bytes(path: str, limits: Limits = Limits(), stdin=None) -> bytes:
    """The bytes of `path` ('-': standard input), at most `limits.max_bytes`."""
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(limits.max_bytes + 1)
    else:
        p = Path(path)
        if not p.exists():
            raise RosterError("roster-missing", f"{path}: no such file", expected="an army list file", found="nothing")
        if not p.is_file():
            raise RosterError("roster-missing", f"{path} is not a file", expected="an army list file", found="a folder")
        with p.open("rb") as f:
            data = f.read(limits.max_bytes + 1)
    if len(data) > limits.max_bytes:
        raise RosterError("roster-too-large", f"the list is larger than {limits.max_bytes:,} bytes; not read",
                          expected=f"at most {limits.max_bytes:,} bytes (a list is a few kilobytes)",
                          found=f"more than {limits.max_bytes:,} bytes")
    return data


def unzip_roster(data: bytes, limits: Limits = Limits()) -> tuple[str, bytes]:
    """The one .ros member of a .rosz (name, bytes); RosterError for anything else."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError) as exc:
        raise RosterError("roster-archive", f"not a readable zip archive: {exc}", expected="a .rosz (a zip holding one .ros)",
                          found="a damaged or truncated zip") from None
    if len(infos) > limits.max_members:
        raise RosterError("roster-archive", f"the archive holds {len(infos):,} members; not read",
                          expected=f"at most {limits.max_members} (a .rosz holds one .ros)", found=f"{len(infos):,} members")
    rosters = [i for i in infos if not i.is_dir() and i.filename.lower().endswith(".ros")]
    if len(rosters) != 1:
        names = ", ".join(i.filename for i in infos[:5]) or "nothing"
        raise RosterError("roster-archive", f"the archive holds {len(rosters)} .ros files; expected one",
                          expected="one .ros member", found=names)
    info = rosters[0]
    name = PurePosixPath(info.filename)
    if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
        raise RosterError("roster-archive", f"archive member {info.filename!r} refused",
                          expected="a plain file name inside the archive", found=info.filename)
    if info.flag_bits & 0x1:
        raise RosterError("roster-archive", "the archive is encrypted", expected="an unencrypted .rosz",
                          found=info.filename)
    if info.file_size > limits.max_member_bytes:
        raise RosterError("roster-archive", f"{info.filename} inflates to {info.file_size:,} bytes; not read",
                          expected=f"at most {limits.max_member_bytes:,} bytes", found=f"{info.file_size:,} bytes")
    if info.compress_size and info.file_size / info.compress_size > limits.max_ratio:
        raise RosterError("roster-archive", f"{info.filename} inflates {info.file_size / info.compress_size:,.0f} times "
                          "(a zip bomb?); not read", expected=f"a compression ratio of at most {limits.max_ratio}",
                          found=f"{info.compress_size:,} bytes stored, {info.file_size:,} inflated")
    # The header's sizes are the archive's claim: read no more than the limit allows, whatever it says.
    allowed = min(limits.max_member_bytes, max(info.compress_size, 1) * limits.max_ratio)
    try:
        with zf.open(info) as member:
            inflated = member.read(allowed + 1)
    except (zipfile.BadZipFile, EOFError, OSError, RuntimeError, ValueError, NotImplementedError) as exc:
        raise RosterError("roster-archive", f"cannot inflate {info.filename}: {exc}", expected="a complete .rosz",
                          found="a damaged member") from None
    if len(inflated) > allowed:
        raise RosterError("roster-archive", f"{info.filename} inflates past what its header says (a zip bomb?); not read",
                          expected=f"at most {allowed:,} bytes", found=f"more than {allowed:,} bytes")
    return info.filename, inflated


def decode(data: bytes, limits: Limits = Limits()) -> str:
    """Text of a list: UTF-8 (a byte-order mark dropped) or UTF-16 with its mark; lines bounded."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise RosterError("roster-encoding", f"not valid UTF-16 at byte {exc.start}", expected="UTF-16 text after its mark",
                              found=repr(data[exc.start:exc.start + 8])) from None
    else:
        if b"\x00" in data[:8192]:
            raise RosterError("roster-binary", "the file is binary, not an army list",
                              line=data[: data.index(b"\x00")].count(b"\n") + 1,
                              expected="text exported by an army builder, or a BattleScribe .ros/.rosz",
                              found=repr(data[:16]))
        data = data.removeprefix(b"\xef\xbb\xbf")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise RosterError("roster-encoding", "not UTF-8 text", line=line, column=column,
                              expected="UTF-8 (save or export the list as UTF-8)",
                              found=repr(data[exc.start:exc.start + 8])) from None
    start = 0
    number = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > limits.max_line:
            raise RosterError("roster-too-large", f"line {number} is {stop - start:,} characters long; not read",
                              line=number, expected=f"at most {limits.max_line:,} characters a line",
                              found=text[start:start + 40])
        if end < 0:
            return text
        start, number = end + 1, number + 1
