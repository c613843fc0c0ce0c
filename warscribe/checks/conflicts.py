"""Conflicts: one name with different rules text in one ruleset; one rule number on two rules.

Legitimate variants are not conflicts: a Boarding Actions stratagem and the core one of
the same name, two detachments' stratagems or enhancements of the same name, two
factions' abilities. Records are grouped by what makes them the same rule (ruleset,
family, origin/detachment, name) and a group with more than one text is reported.

Rule numbers are read from the records' ``number`` fields and, where the sources are at
hand, from the headings the records were read from: a heading may print two rules
(``LEADER24.22 / SUPPORT24.23``) of which the record keeps one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.diagnostics import Diagnostic
from warscribe.schema.text import norm

_HEADING_NUMBER = re.compile(r"\[?([A-Z][A-Z’' \-]*[A-Z])\]?\s*(\d{2}(?:\.\d{2}){1,3})\b")


def _variant(record: dict) -> tuple:
    """What distinguishes records that may share a name legitimately."""
    kind = record["kind"]
    if kind == "stratagem":
        return ("stratagem", record.get("origin"), record.get("detachment"))
    if kind == "enhancement":
        return ("enhancement", record.get("detachment"))
    if kind == "ability" and record.get("type") == "faction":
        return ("faction-ability", record["id"].split("/")[0])
    if kind in ("ability", "rule"):
        return ("rule",)
    return ()


def _name(record: dict) -> str:
    return re.sub(r"^\d+\.\s+", "", str(record.get("name", ""))).casefold()


def _text(ctx: Context, record: dict) -> str:
    return norm(" ".join(t for path, t in ctx.texts(record) if not path.startswith(("flavour", "rule.flavour"))))


def run(ctx: Context) -> Iterator[Diagnostic]:
    yield from _name_conflicts(ctx)
    yield from _number_conflicts(ctx)


def _name_conflicts(ctx: Context) -> Iterator[Diagnostic]:
    groups: dict[tuple, list[dict]] = {}
    for record in ctx.bundle:
        variant = _variant(record)
        if variant:
            groups.setdefault((record["ruleset"], variant, _name(record)), []).append(record)
    for (ruleset, _variant_key, _n), records in groups.items():
        texts: dict[str, dict] = {}
        for record in records:
            text = _text(ctx, record)
            if text:
                texts.setdefault(text, record)
        if len(texts) < 2:
            continue
        first, *others = texts.values()
        for other in others:
            yield ctx.finding("conflicting-text",
                              f"{other['name']} has a different text from {first['id']} in {ruleset}",
                              other, expected=f"the text of {first['id']}", found=_text(ctx, other)[:120])


def _number_conflicts(ctx: Context) -> Iterator[Diagnostic]:
    """One number printed for two rules of a ruleset, seen in the records' numbers and in their headings.

    A heading that names another rule (``LEADER24.22 / SUPPORT24.23`` on the LEADER
    record) speaks for the record of that name where the build has one. Two records
    whose own ``number`` fields collide are the build's finding (``number-collision``,
    in its report), not repeated here.
    """
    named: dict[tuple[str, str], dict] = {}
    for record in ctx.bundle:
        if record.get("kind") in ("rule", "ability"):
            named.setdefault((record["ruleset"], _name(record)), record)
    # (ruleset, number) -> {normalised name: (record, snippet)}; and the names whose record holds the number
    holders: dict[tuple[str, str], dict[str, tuple[dict, str]]] = {}
    numbered: dict[tuple[str, str], set[str]] = {}
    for record in ctx.bundle:
        number = record.get("number")
        if isinstance(number, str):
            holders.setdefault((record["ruleset"], number), {}).setdefault(_name(record), (record, number))
            numbered.setdefault((record["ruleset"], number), set()).add(_name(record))
        for prov in record.get("source") or []:
            lines = ctx.sources.get(prov.get("file", ""))
            line_no = int(prov.get("first_line", 0))
            if not lines or not 0 < line_no <= len(lines):
                continue
            for m in _HEADING_NUMBER.finditer(lines[line_no - 1][:200]):
                name = m.group(1).strip().casefold()
                owner = named.get((record["ruleset"], name), record)
                holders.setdefault((record["ruleset"], m.group(2)), {}).setdefault(name, (owner, m.group(0)))
    for (ruleset, number), names in holders.items():
        if len(names) < 2 or set(names) <= numbered.get((ruleset, number), set()):
            continue
        (first_name, (first, _)), *rest = sorted(names.items(), key=lambda kv: (kv[1][0]["id"], kv[0]))
        for name, (record, snippet) in rest:
            yield ctx.finding("number-conflict",
                              f"rule number {number} is printed for {name.upper()} ({record['id']}) and for "
                              f"{first_name.upper()} ({first['id']}) in {ruleset}", record, snippet=snippet,
                              expected=f"one rule numbered {number}", found=snippet)
