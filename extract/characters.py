"""Every text of every record, from any source, checked for characters that cannot be written or shown.

A lone surrogate (a JSON name's ``\\ud800``) has no UTF-8 form and would stop the
writing of the whole build; ESC, BEL, CR and the bidirectional overrides would act on
whoever displays the record (a terminal, an editor, a spreadsheet). Each is replaced by
U+FFFD and reported once per field, with the record's source line, the field and the
characters found (`control-characters`). The readers of text pages do the same per
line (with its column), so what they give arrives here clean.
"""

from __future__ import annotations

from warscribe.schema.diagnostics import EXCERPT, Report
from warscribe.schema.text import UNSAFE, describe_character, printable, replace_unsafe

MAX_NAMED = 3  # characters named in one finding; the rest are counted


def clean_records(records: list[dict], report: Report) -> None:
    """Replace (in place) and report every unsafe character in the records' strings, keys included."""
    for rec in records:
        _clean(rec, "", rec, report)


def _clean(value, path: str, record: dict, report: Report):
    """`value` with its strings made safe (the same object where nothing changed)."""
    if isinstance(value, str):
        if not UNSAFE.search(value):
            return value
        cleaned, found = replace_unsafe(value)
        _report(record, path, value, found, report)
        return cleaned
    if isinstance(value, dict):
        for key in list(value):
            here = f"{path}.{key}" if path else str(key)
            new_key = _clean(key, here + " (a key)", record, report) if isinstance(key, str) else key
            new = _clean(value[key], here, record, report)
            if new_key is not key:
                del value[key]
            value[new_key] = new
        return value
    if isinstance(value, list):
        for i, item in enumerate(value):
            value[i] = _clean(item, f"{path}[{i}]", record, report)
        return value
    return value


def _report(record: dict, path: str, text: str, found: list[tuple[int, str]], report: Report) -> None:
    src = (record.get("source") or [{}])[0]
    named = ", ".join(f"{describe_character(ch)} at character {i + 1}" for i, ch in found[:MAX_NAMED])
    more = f" and {len(found) - MAX_NAMED} more" if len(found) > MAX_NAMED else ""
    start = max(found[0][0] - 20, 0)
    rid = printable(str(record.get("id", "?")), EXCERPT)
    entry = src.get("entry") if isinstance(src.get("entry"), dict) else None  # BattleScribe: the entry, not a line
    at = f" (entry {entry.get('id')} in {entry.get('catalogue')})" if entry else ""
    report.error(str(src.get("file", "<record>")), int(src.get("first_line") or 1), "control-characters",
                 f"{rid}: {path}: {named}{more}; replaced by U+FFFD{at}", expected="text that can be written and shown",
                 found=printable(text[start:start + EXCERPT]))
