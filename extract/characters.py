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

_search = UNSAFE.search

MAX_NAMED = 3  # characters named in one finding; the rest are counted


def clean_records(records: list[dict], report: Report) -> None:
    """Replace (in place) and report every unsafe character in the records' strings, keys included.

    This runs over every text of the whole game (900,000 values for the 10th edition's
    BattleScribe data, under a second): one search per string, the field's path made only
    for a string that holds one.
    """
    for rec in records:
        _walk(rec, [], rec, report)


def _walk(value, trail: list, record: dict, report: Report) -> None:
    """Clean the strings inside the dict or list `value`, at `trail` (keys and indexes) in `record`."""
    bad_keys = []
    for key, item in value.items() if type(value) is dict else enumerate(value):
        kind = type(item)
        if kind is str:
            if _search(item):
                value[key] = _clean(item, trail + [key], record, report)
        elif kind is dict or kind is list:
            trail.append(key)
            _walk(item, trail, record, report)
            trail.pop()
        if type(key) is str and _search(key):
            bad_keys.append(key)
    for key in bad_keys:  # a key from data: the value moves to a safe name
        value[_clean(key, trail + ["(a key)"], record, report)] = value.pop(key)


def _clean(text: str, trail: list, record: dict, report: Report) -> str:
    cleaned, found = replace_unsafe(text)
    path = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in trail).lstrip(".")
    _report(record, path.replace(".(a key)", " (a key)"), text, found, report)
    return cleaned


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
