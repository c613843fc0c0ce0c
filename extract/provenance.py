"""Provenance entries (a record's ``source``): which file, which lines, which ruleset.

Text and HTML pages give lines of a Document; the Wahapedia export gives table rows;
BattleScribe data gives entries (``entry``: catalogue and entry id, beside the line); a row
of the export that names its publication says it (``publication``, from Source.csv).
All become the same entries here; ``fields`` names the fields an entry backs when it
backs only some of the record (model characteristics added from the export).
"""

from __future__ import annotations

from warscribe.extract.lines import Document, Line

# Lines of one sighting further apart than this are separate places on the page
# (a stratagem's list entry at the top and its text further down).
GAP = 4
#: Files read as tables of rows (the Wahapedia export).
TABLE_SUFFIXES = (".csv",)


def entry(file: str, first_line: int, last_line: int, ruleset: str, fields: list[str] | None = None,
          first_column: int | None = None, last_column: int | None = None, item: dict | None = None) -> dict:
    """`item`: for structured data, the entry read ({catalogue, id} of a BattleScribe entry)."""
    out = {"file": file, "first_line": first_line, "last_line": last_line, "ruleset": ruleset}
    if first_column:
        out["first_column"] = first_column
    if last_column:
        out["last_column"] = last_column
    if fields:
        out["fields"] = list(fields)
    if item:
        out["entry"] = item
    return out


def from_lines(doc: Document, lines: list[Line], fields: list[str] | None = None) -> list[dict]:
    """One entry per cluster of nearby lines.

    Where a physical line holds two records (a run-on line split into pieces), the entry
    says where on it this record starts (`first_column`) or ends (`last_column`).
    """
    entries: list[dict] = []
    pieces = sorted(lines, key=lambda ln: (ln.no, ln.col))
    for ln in pieces:
        if entries and ln.no - entries[-1]["last_line"] <= GAP:
            last = entries[-1]
            last["last_line"] = ln.no
            last.pop("last_column", None)
        else:
            last = entry(doc.path, ln.no, ln.no, doc.ruleset, fields, first_column=ln.col if ln.col > 1 else None)
            entries.append(last)
        if doc.shares_line(ln):
            last["last_column"] = ln.col + len(ln.text) - 1
        for col, found, repaired in ln.repairs:
            last.setdefault("repairs", []).append({"line": ln.no, "column": col, "found": found, "repaired": repaired})
    return [_ordered(e) for e in entries]


def _ordered(e: dict) -> dict:
    """Keys in schema order (fields last) whatever order they were set in."""
    order = ("file", "first_line", "first_column", "last_line", "last_column", "ruleset", "fields", "entry", "repairs",
             "publication", "agrees", "differs")
    return {k: e[k] for k in order if k in e}


def from_rows(rows: list, ruleset: str, fields: list[str] | None = None) -> list[dict]:
    """One entry per run of adjacent table rows of a file (anything with ``file``, ``line`` and
    ``last_line``), so an entry never spans rows of other records."""
    by_file: dict[str, list] = {}
    for r in rows:
        by_file.setdefault(r.file, []).append(r)
    out = []
    for file, rs in by_file.items():
        rs = sorted(rs, key=lambda r: r.line)
        first, last = rs[0].line, rs[0].last_line
        for r in rs[1:]:
            if r.line > last + 1:
                out.append(entry(file, first, last, ruleset, fields))
                first = r.line
            last = max(last, r.last_line)
        out.append(entry(file, first, last, ruleset, fields))
    return out


def key(e: dict) -> tuple:
    return (e["file"], e["first_line"], e.get("first_column", 1), e["last_line"], e.get("last_column", 0),
            tuple(e.get("fields") or ()))


def merge_spans(entries: list[dict]) -> list[dict]:
    """Join sightings in one file that are separated by blank lines only (3 lines or fewer)."""
    merged: list[dict] = []
    for e in entries:
        if merged:
            last = merged[-1]
            # Between two rows of a table lie other rows, not blank lines: rows join only when adjacent.
            gap = 1 if e["file"].endswith(TABLE_SUFFIXES) else GAP
            if (last["file"] == e["file"] and last.get("fields") == e.get("fields")
                    and e["first_line"] - last["last_line"] <= gap):
                # Also folds a span inside another (one passage seen through two records).
                for repair in e.get("repairs", []):
                    if repair not in last.setdefault("repairs", []):
                        last["repairs"].append(repair)
                if e["last_line"] > last["last_line"] or (
                        e["last_line"] == last["last_line"] and "last_column" not in e):
                    last.pop("last_column", None)
                    if "last_column" in e:
                        last["last_column"] = e["last_column"]
                    last["last_line"] = e["last_line"]
                merged[-1] = _ordered(last)
                continue
        merged.append(dict(e))
    return merged
