"""One entry point for every format: bytes in, a :class:`Roster` out, errors inside it, never raised.

The format is detected by signature, then by shape (``detect``); the roster says which
decided and on what evidence.
"""

from __future__ import annotations

from warscribe.roster import detect, gwapp, newrecruit
from warscribe.roster.model import Roster
from warscribe.roster.source import Limits, RosterError, decode, read_bytes, unzip_roster

READERS = {"gw-app": gwapp.read, "newrecruit-text": newrecruit.read, "newrecruit-simple": newrecruit.read_simple}


def read_data(data: bytes, file: str, limits: Limits = Limits()) -> Roster:
    """The list in `data` (named `file` in findings)."""
    roster = Roster(file)
    try:
        found = detect.detect_bytes(data)
        if found is not None:
            roster.format, roster.detected_by, roster.detection = found.format, found.by, found.evidence
            if data.startswith(b"PK"):
                member, data = unzip_roster(data, limits)
                roster.file = f"{file}/{member}"
                roster.variant = "rosz"
            else:
                if len(data) > limits.max_member_bytes:
                    raise RosterError("roster-too-large", f"the roster is larger than {limits.max_member_bytes:,} bytes",
                                      expected=f"at most {limits.max_member_bytes:,} bytes", found=f"{len(data):,} bytes")
                roster.variant = "ros"
            from warscribe.roster import battlescribe  # the XML parser's package is large to import

            return battlescribe.read(data, roster)
        text = decode(data, limits)
        found = detect.detect_text(text)
        roster.format, roster.detected_by, roster.detection = found.format, found.by, found.evidence
        return READERS[found.format](text, roster)
    except RosterError as exc:
        roster.errors.append(exc.diagnostic(roster.file))
        roster.units = []
        return roster


def read_path(path: str, limits: Limits = Limits(), stdin=None) -> Roster:
    """The list in a file (or '-', standard input)."""
    name = "<stdin>" if path == "-" else path
    try:
        data = read_bytes(path, limits, stdin)
    except RosterError as exc:
        roster = Roster(name)
        roster.errors.append(exc.diagnostic(name))
        return roster
    return read_data(data, name, limits)
