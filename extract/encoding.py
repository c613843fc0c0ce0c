"""Source bytes as text: UTF-8, with the first undecodable byte located for the report."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BadBytes:
    """Where decoding first failed: line and byte column (1-based), and the bytes found there."""

    line: int
    column: int
    found: str  # repr of up to 8 bytes from the first undecodable one


def decode_utf8(data: bytes) -> tuple[str, BadBytes | None]:
    """`data` decoded as UTF-8, undecodable bytes replaced by U+FFFD; where the first one was (or None).

    A byte-order mark is not text: left in, it would start the first line (a page's
    'Faction – Unit' title, a CSV header) and end up in a record.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return data.decode("utf-8", errors="replace"), BadBytes(line, column, repr(data[exc.start:exc.start + 8]))
