"""File names made from record ids: portable and bounded, the id itself unchanged.

A record is written to ``records/<kind>/<id>.yaml`` (and its site page to
``<kind>/<id>/``): each '/'-separated part of the id is a folder, the last one the file.
A part is used as it is when it is a slug (lower-case ASCII letters, digits and '-', as
every id formula of :mod:`warscribe.schema.ids` makes), at most :data:`MAX_PART` bytes,
and not a name Windows reserves (CON, PRN, AUX, NUL, COM0-9, LPT0-9). Any other part
(too long, reserved, upper case, other characters, '.', '..', empty) is written as a
plain prefix of it, '~' and the first 12 hex digits of the sha256 of the part:
``con~5b9b2d8c1f3e``. The name is a function of the id alone (the same on every machine),
never holds '~' unless made so (so it meets no plain part), never ends in a dot or a
space, and never differs from another only by case (two records never share a file on a
case-insensitive file system). The id in the record stays what it is.
"""

from __future__ import annotations

import hashlib
import re

MAX_PART = 100  # bytes: with '.yaml' and a hash well under the 255 of a file name; real ids' parts reach 62
_PLAIN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{d}{n}" for d in ("com", "lpt") for n in "0123456789"}
_HASH = 12


def part_name(part: str) -> str:
    """One part of an id as a folder or file name (without suffix)."""
    if len(part) <= MAX_PART and _PLAIN.fullmatch(part) and part not in _RESERVED:
        return part
    digest = hashlib.sha256(part.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH]
    prefix = re.sub(r"[^a-z0-9]+", "-", part.lower()).strip("-")[: MAX_PART - _HASH - 1].rstrip("-")
    return f"{prefix}~{digest}" if prefix else f"~{digest}"


def record_path(record_id: str, suffix: str = "") -> str:
    """The relative path made from an id ('grey-knights/paladin-squad' + '.yaml'), '/'-separated."""
    return "/".join(part_name(p) for p in record_id.split("/")) + suffix
