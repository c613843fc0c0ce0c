"""Provenance entries (a record's ``source``): which file, which lines, which ruleset.

Text and HTML pages give lines of a Document; the Wahapedia export gives table rows;
BattleScribe data gives entries (``entry``: catalogue and entry id, beside the line).
All become the same entries here; ``fields`` names the fields an entry backs when it
backs only some of the record (model characteristics added from the export).
"""

from __future__ import annotations

from warscribe.extract.lines import Document, Line

# Lines of one sighting further apart than this are separate places on the page
# (a stratagem's list entry at the top and its text further down).
GAP = 4


def entry(file: str, first_line: int, last_line: int, ruleset: str, fields: list[str] | None = None,
          item: dict | None = None) -> dict:
    """`item`: for structured data, the entry read ({catalogue, id} of a BattleScribe entry)."""
    out = {"file": file, "first_line": first_line, "last_line": last_line, "ruleset": ruleset}
    if fields:
        out["fields"] = fields
    if item:
        out["entry"] = item
    return out


def from_lines(doc: Document, lines: list[Line], fields: list[str] | None = None) -> list[dict]:
    """One entry per cluster of nearby lines."""
    entries: list[dict] = []
    for no in sorted({ln.no for ln in lines}):
        if entries and no - entries[-1]["last_line"] <= GAP:
            entries[-1]["last_line"] = no
            continue
        entries.append(entry(doc.path, no, no, doc.ruleset, fields))
    return entries


def from_rows(rows: list, ruleset: str, fields: list[str] | None = None) -> list[dict]:
    """One entry per file of the table rows (anything with ``file``, ``line`` and ``last_line``)."""
    by_file: dict[str, list] = {}
    for r in rows:
        by_file.setdefault(r.file, []).append(r)
    return [entry(file, min(r.line for r in rs), max(r.last_line for r in rs), ruleset, fields)
            for file, rs in by_file.items()]


def key(e: dict) -> tuple:
    return (e["file"], e["first_line"], e["last_line"], tuple(e.get("fields") or ()))


def merge_spans(entries: list[dict]) -> list[dict]:
    """Join sightings in one file that are separated by blank lines only (3 lines or fewer)."""
    merged: list[dict] = []
    for e in entries:
        if merged:
            last = merged[-1]
            if (last["file"] == e["file"] and last.get("fields") == e.get("fields")
                    and e["first_line"] - last["last_line"] <= GAP):
                # Also folds a span inside another (one passage seen through two records).
                last["last_line"] = max(last["last_line"], e["last_line"])
                continue
        merged.append(dict(e))
    return merged
