"""Annotations: facts the sources lost, restored by a person and applied by the build.

``annotations.yaml`` beside the manifest (``schema/annotations.schema.json``) lists
facts with who stated them, why, the source text that proves each (``evidence``) and
the source text whose lost part it restores (``fills``). The build applies a fact only
while both texts are still where the annotation says, only to a field the sources left
empty, and marks the field in the record's provenance; anything else is reported.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from warscribe.extract import provenance
from warscribe.extract.manifest import _provenance_name
from warscribe.schema import safeyaml
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import fast_validator
from warscribe.schema.text import norm

FILE = "annotations.yaml"


def apply(manifest: Path, records: list[dict], report: Report) -> None:
    """Apply the annotations beside `manifest` (if any) to `records`, in place."""
    path = manifest.parent / FILE
    if not path.is_file():
        return
    name = _provenance_name(manifest, FILE)
    try:
        data = safeyaml.load_file(path)
    except (OSError, UnicodeDecodeError) as exc:
        report.error(name, 1, "bad-annotation", f"cannot read the annotations: {exc}")
        return
    except safeyaml.YamlError as exc:
        report.error(name, exc.line or 1, "bad-annotation", f"cannot read the annotations: {exc.message}",
                     column=exc.column or None)
        return
    problems = sorted(fast_validator("annotations").iter_errors(data), key=lambda e: list(e.absolute_path))
    if problems:
        for e in problems:
            where = "/".join(str(p) for p in e.absolute_path) or "document"
            report.error(name, 1, "bad-annotation", f"{where}: {e.message}; no annotation applied",
                         expected="an entry as schema/annotations.schema.json says", found=where)
        return
    lines = _item_lines(path.read_text(encoding="utf-8"))
    by_id = {r["id"]: r for r in records}
    for index, note in enumerate(data["annotations"]):
        line = lines[index] if index < len(lines) else 1
        _apply_one(manifest.parent, name, line, note, by_id, report)


def _item_lines(text: str) -> list[int]:
    """The line each annotation starts on (the file was already loaded safely and within bounds)."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    for key, value in node.value:
        if key.value == "annotations":
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _still_there(folder: Path, place: dict) -> bool:
    path = folder / place["file"]
    try:
        source_lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return False
    return place["line"] <= len(source_lines) and norm(place["text"]) in norm(source_lines[place["line"] - 1])


def _apply_one(folder: Path, name: str, line: int, note: dict, by_id: dict, report: Report) -> None:
    label = f"annotation of {note['record']} {note['field']}"
    for role in ("evidence", "fills"):
        place = note[role]
        if not _still_there(folder, place):
            report.warning(name, line, "stale-annotation",
                           f"{label}: its {role} text is no longer at {place['file']}:{place['line']}; not applied",
                           expected=place["text"], found="other text or nothing")
            return
    record = by_id.get(note["record"])
    if record is None:
        report.warning(name, line, "stale-annotation", f"{label}: the build has no record {note['record']}; not applied",
                       expected=note["record"], found="nothing")
        return
    owner, key = _field(record, note["field"])
    if owner is None:
        report.warning(name, line, "stale-annotation", f"{label}: the record has no field {note['field']}; not applied",
                       expected=note["field"], found=", ".join(sorted(record)))
        return
    if owner.get(key):
        # The sources give the value now: they win, and the annotation is reported for removal.
        report.warning(name, line, "stale-annotation",
                       f"{label}: the sources now give this field; the annotation is not applied",
                       expected="an empty field", found=str(owner[key])[:80])
        return
    owner[key] = note["value"]
    entry = provenance.entry(name, line, line, record["ruleset"], fields=[note["field"]])
    entry["annotation"] = {"stated_by": note["stated_by"], "reason": note["reason"], "evidence": note["evidence"]}
    record["source"].append(entry)


def _field(record: dict, path: str) -> tuple[dict | None, str]:
    """The dict holding the field a dotted path names, and its key (None if the record has no such field)."""
    *parents, key = path.split(".")
    owner = record
    for part in parents:
        owner = owner.get(part)
        if not isinstance(owner, dict):
            return None, key
    return (owner, key) if key in owner else (None, key)
