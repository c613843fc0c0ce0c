"""Dangling references: ids, rule numbers, [ABILITIES], stratagems and keywords that resolve to no record.

Ids in reference fields come from the bundle loader (``Bundle.dangling``). Names in
running text are read here: a rule number in brackets (``Moving (03)``, ``(06.03)``),
an ``[ABILITY]``, ``<Name> Stratagem``; and names in fields: a datasheet's keywords,
its core and faction abilities (whose text lives in their own record).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.abilities import find_mentions, parse_ability
from warscribe.schema.diagnostics import Diagnostic

_NUMBER_REF = re.compile(r"\((\d{2}(?:\.\d{2}){0,3})\)")
_BRACKETED = re.compile(r"\[([A-Z][A-Z0-9’' \-]{1,40})\]")
_STRATAGEM_REF = re.compile(r"\b((?:[A-Z][A-Za-z’'\-]+ ){1,4})Stratagem\b")
# Words that start a '<X> Stratagem' phrase without naming one.
_NOT_A_NAME = {"this", "that", "the", "a", "an", "any", "each", "same", "every", "one", "another", "core",
               "new", "such", "which", "its", "your", "their", "use", "used", "uses", "using"}


def run(ctx: Context) -> Iterator[Diagnostic]:
    b = ctx.bundle
    for d in b.dangling:
        record = b.get(d.record)
        yield ctx.finding("dangling-reference", f"{d.field} names {d.target}, which is not a record of this build",
                          record, expected="the id of a record in the build", found=d.target)
    numbers = _numbers(ctx)
    weapon_rules = {(r["ruleset"], r["ability_id"]) for r in b.kind("ability") if r.get("ability_id")}
    stratagem_names = {(r["ruleset"], r["name"].casefold()) for r in b.kind("stratagem")}
    categories = {str(r.get("category") or "").casefold() for r in b.kind("stratagem")}
    for record in b:
        ruleset = record.get("ruleset")
        for path, text in ctx.texts(record):
            yield from _rule_numbers(ctx, record, path, text, numbers.get(ruleset, set()))
            yield from _abilities(ctx, record, path, text, weapon_rules)
            yield from _stratagems(ctx, record, path, text, stratagem_names, categories)
        if record.get("kind") == "datasheet":
            yield from _datasheet_names(ctx, record)


def _numbers(ctx: Context) -> dict[str, set[str]]:
    """Rule numbers per ruleset, with every section above each (01.02.04 gives 01.02 and 01)."""
    out: dict[str, set[str]] = {}
    for record in ctx.bundle:
        number = record.get("number")
        if isinstance(number, str):
            parts = number.split(".")
            out.setdefault(record["ruleset"], set()).update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def _rule_numbers(ctx, record, path, text, known) -> Iterator[Diagnostic]:
    for m in _NUMBER_REF.finditer(text):
        if m.group(1) not in known:
            yield ctx.finding("unresolved-rule-number",
                              f"{path} cites rule {m.group(1)}, but no {record['ruleset']} record has that number",
                              record, snippet=m.group(0), expected=f"a {record['ruleset']} rule numbered {m.group(1)}")


def _abilities(ctx, record, path, text, weapon_rules) -> Iterator[Diagnostic]:
    ruleset = record["ruleset"]
    mentions, _problems = find_mentions(text)  # spelling problems are the text checks' business
    for ability in mentions:
        if ability["id"] != "custom" and (ruleset, ability["id"]) not in weapon_rules:
            yield ctx.finding("unresolved-ability",
                              f"{path} names {ability['text']}, but the build has no {ruleset} rule for it",
                              record, snippet=ability["text"], expected=f"a {ruleset} ability record with "
                              f"ability_id {ability['id']}")
    for m in _BRACKETED.finditer(text):
        name = m.group(1).strip()
        parsed, _ = parse_ability(m.group(0))
        if parsed is not None or re.search(r"\b[XY]\b", name):  # known, or a placeholder such as [ANTI-X Y+]
            continue
        if not ctx.bundle.named(name, None, ruleset):
            yield ctx.finding("unresolved-ability", f"{path} names [{name}], which is neither a weapon ability "
                              "nor a record of the build", record, snippet=m.group(0),
                              expected="a weapon ability or the name of a record")


def _stratagems(ctx, record, path, text, names, categories) -> Iterator[Diagnostic]:
    for m in _STRATAGEM_REF.finditer(text):
        words = m.group(1).split()
        while words and words[0].casefold() in _NOT_A_NAME:
            words = words[1:]
        name = " ".join(words)
        if not name or name.casefold() in categories or name.casefold() in _NOT_A_NAME:
            continue
        if (record["ruleset"], name.casefold()) not in names and name.casefold() != record.get("name", "").casefold():
            yield ctx.finding("unresolved-stratagem",
                              f"{path} names the {name} Stratagem, but the build has no {record['ruleset']} "
                              "stratagem of that name", record, snippet=m.group(0),
                              expected=f"a {record['ruleset']} stratagem named {name}")


def _datasheet_names(ctx, ds) -> Iterator[Diagnostic]:
    ruleset = ds["ruleset"]
    for field in ("keywords", "faction_keywords"):
        for name in ds.get(field) or []:
            if not ctx.bundle.named(name, "keyword", ruleset):
                yield ctx.finding("unresolved-keyword", f"{field} holds {name}, which has no {ruleset} keyword record",
                                  ds, snippet=name, expected=f"a {ruleset} keyword record named {name}")
    for ab in ds.get("abilities") or []:
        if ab.get("type") in ("core", "faction") and ab.get("text") is None:
            # 'Deadly Demise D3' points at the rule Deadly Demise by its ref
            if not ctx.bundle.named(ab["name"], "ability", ruleset) and not (ab.get("ref") and ctx.bundle.get(ab["ref"])):
                yield ctx.finding("unresolved-reference",
                                  f"{ab['type']} ability {ab['name']} has its text in a {ruleset} ability record, "
                                  "and the build has none", ds, snippet=ab["name"],
                                  expected=f"a {ruleset} ability record named {ab['name']}")
