"""Schema violations and duplicate ids: the records as the contract defines them.

A record merged from many sources carries one provenance entry per sighting (400 in
the 100x benchmark corpus), and validating each with jsonschema would make the check
grow with the copies rather than with the records. Entries that the provenance schema
cannot tell apart (same keys and value types, same ruleset and fields, lines both
valid or both not) are validated once: :func:`_provenance_class` keeps every property
the schema constrains, and ``tests/test_check_diff.py`` holds it to the schema.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.diagnostics import Diagnostic
from warscribe.schema.registry import record_errors

# The provenance properties _provenance_class knows; anything else is kept as is.
PROVENANCE_FIELDS = ("file", "first_line", "first_column", "last_line", "last_column", "ruleset", "fields", "entry",
                     "repairs", "annotation", "publication", "agrees", "differs")


def _provenance_class(entry):
    """A stand-in for `entry` that the provenance schema accepts or rejects exactly as it does `entry`."""
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    if isinstance(out.get("file"), str):
        out["file"] = ""
    for key in ("first_line", "last_line"):
        value = out.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            out[key] = 1
    item = out.get("entry")  # a BattleScribe entry: any two strings are alike to the schema
    if isinstance(item, dict) and set(item) == {"catalogue", "id"} and all(isinstance(v, str) for v in item.values()):
        out["entry"] = {"catalogue": "", "id": ""}
    return out


def _validated_form(record: dict) -> tuple[dict, list[int]]:
    """The record with its provenance de-duplicated by class, and each kept entry's original index."""
    sources = record.get("source")
    if not isinstance(sources, list) or len(sources) < 2:
        return record, list(range(len(sources))) if isinstance(sources, list) else []
    kept, index, seen = [], [], set()
    for i, entry in enumerate(sources):
        cls = _provenance_class(entry)
        key = json.dumps(cls, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            kept.append(entry)
            index.append(i)
    return {**record, "source": kept}, index


def _original_path(path: str, index: list[int]) -> str:
    parts = path.split("/")
    if len(parts) > 1 and parts[0] == "source" and parts[1].isdigit() and int(parts[1]) < len(index):
        parts[1] = str(index[int(parts[1])])
    return "/".join(parts)


def run(ctx: Context) -> Iterator[Diagnostic]:
    for record in ctx.bundle:
        form, index = _validated_form(record)
        for path, message in record_errors(form):
            path = _original_path(path, index)
            yield ctx.finding("schema", f"{record.get('kind')} record breaks its schema at {path}: {message}",
                              record, expected=f"schema/{record.get('kind')}.schema.json", found=path)
    for rid in ctx.bundle.duplicates:
        first = ctx.bundle.get(rid)
        yield ctx.finding("duplicate-record", f"two records have the id {rid}; readers keep the first",
                          first, expected="one record per id", found=rid)
