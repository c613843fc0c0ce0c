"""BattleScribe records meet the records of the other sources of a build.

A record whose id the store already holds (the seeds' Paladin Squad, read from a page)
is one record with both provenances. For every field the two sources both give
(points, characteristics, keywords, abilities ...), a difference is a finding,
``source-disagreement``, with both values and both provenances; the record keeps the
value of the source the manifest lists first. A field only BattleScribe gives (model
characteristics, leader lists) is added, its provenance entry naming the fields.
"""

from __future__ import annotations

import inspect
from typing import Callable

from warscribe.schema import records
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm

# The fields compared between sources, per kind. Texts are not compared word for word:
# scraped pages and BattleScribe word the same rule differently far too often.
COMPARED = {
    "datasheet": ("keywords", "faction_keywords", "composition", "points", "abilities", "weapons", "models"),
    "weapon": ("type", "range", "attacks", "skill", "strength", "ap", "damage", "abilities"),
    "enhancement": ("points", "detachment"),
    "detachment": ("enhancements",),
}
# Fields a BattleScribe record may add where another source lacks them.
ADDED = ("models", "leader", "led_by", "bearers")


def comparable(kind: str, name: str, value):
    """The form two sources' values are compared in: order and spelling folded away."""
    if value is None:
        return None
    if name in ("keywords", "faction_keywords", "weapons", "enhancements"):
        return sorted(set(value))
    if name == "composition":
        return sorted((norm(c["name"]), c["min"], c["max"]) for c in value)
    if name == "points" and kind == "datasheet":
        return sorted({(p["models"], p["points"]) for p in value})
    if name == "abilities" and kind == "datasheet":
        return sorted({norm(a["name"]).removesuffix(" (psychic)") for a in value})
    if name == "abilities":
        return sorted((a["id"], str(a.get("value", "")), a.get("keyword", ""), str(a.get("threshold", "")),
                       a.get("name", "").casefold() if a["id"] == "custom" else "") for a in value)
    if name == "models":
        return sorted(tuple(m.get(k) for k in ("M", "T", "Sv", "W", "Ld", "OC", "invulnerable")) for m in value)
    return value


def shown(kind: str, name: str, value) -> str:
    """A value as a finding prints it."""
    if name == "points" and kind == "datasheet":
        return ", ".join(f"{p['models']} models: {p['points']}" + (f" ({p['condition']})" if p.get("condition") else "")
                         for p in value)
    if name == "composition":
        return ", ".join(f"{c['min']}-{c['max']} {c['name']}" for c in value)
    if name == "abilities" and kind == "datasheet":
        return ", ".join(a["name"] for a in value)
    if name == "abilities":
        return ", ".join(a["text"] for a in value) or "none"
    if name == "models":
        return "; ".join(", ".join(f"{k} {m[k]}" for k in m if k != "name") for m in value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return "null" if value is None else str(value)


def cite(prov: dict) -> str:
    where = f"{prov['file']}:{prov['first_line']}"
    entry = prov.get("entry")
    return f"{where} (entry {entry['id']})" if entry else where


def add_records(store, items: list[tuple[dict, list[dict]]], rank_of: Callable[[str], int], report: Report) -> int:
    """Put BattleScribe records (each with its provenance entries, the entry first) into `store`;
    returns the number of findings reported."""
    findings = 0
    for record, provs in items:
        rid = record["id"]
        prov = provs[0]
        existing = store.get(rid)
        if existing is None:
            record["source"] = list(provs)
            store.records[rid] = record
            continue
        first = existing["source"][0]
        if existing["ruleset"] != record["ruleset"] or existing["kind"] != record["kind"]:
            report.warning(prov["file"], prov["first_line"], "ruleset-collision",
                           f"{rid} is already a {existing['ruleset']} {existing['kind']} from {cite(first)}; "
                           f"the {record['ruleset']} one here is left out (ids do not carry the edition)",
                           expected=f"a {existing['ruleset']} record", found=f"{record['ruleset']} {record['kind']}")
            continue
        ours_first = rank_of(prov["file"]) < rank_of(first["file"])
        kind = record["kind"]
        if kind == "keyword":  # the datasheets carrying it: every source's
            existing["datasheets"] = sorted(set(existing["datasheets"]) | set(record["datasheets"]))
            existing["faction_keyword"] = existing["faction_keyword"] or record["faction_keyword"]
        filled: list[str] = []
        for name in COMPARED.get(kind, ()):
            if name not in record or name not in existing:
                continue
            if existing[name] in (None, [], "") or record[name] in (None, [], ""):
                # One source does not give it (a page lists no enhancements): nothing to disagree on.
                if existing[name] in (None, [], "") and record[name] not in (None, [], ""):
                    existing[name] = record[name]
                    filled.append(name)
                continue
            old, new = comparable(kind, name, existing[name]), comparable(kind, name, record[name])
            if old == new:
                continue
            findings += 1
            kept, kept_prov, other, other_prov = ((record, prov, existing, first) if ours_first
                                                  else (existing, first, record, prov))
            report.warning(other_prov["file"], other_prov["first_line"], "source-disagreement",
                           f"{rid}: {name} differs between {cite(kept_prov)} and {cite(other_prov)}; "
                           f"the value of {kept_prov['file']} (listed first in the manifest) is kept",
                           expected=f"{shown(kind, name, kept[name])} [{cite(kept_prov)}]",
                           found=f"{shown(kind, name, other[name])} [{cite(other_prov)}]")
            if ours_first:
                existing[name] = record[name]
        for k in ("leader", "led_by"):  # a list lost in scraping ("This unit can be led by:" and nothing)
            if k in existing and k in record and not existing[k]["units"] and record[k]["units"]:
                existing[k] = dict(existing[k], units=record[k]["units"])
                filled.append(k)
        new_fields = [k for k in ADDED if k in record and k not in existing]
        for k in new_fields:
            existing[k] = record[k]
        added = filled + new_fields
        _reorder(existing)
        entries = list(provs)
        if added:
            entries.append(dict(prov, fields=added))
        store.add_provenance(existing, entries)
    return findings


def _reorder(record: dict) -> None:
    """Keys in the constructor's order (added fields included), provenance last."""
    params = [p for p in inspect.signature(records.CONSTRUCTORS[record["kind"]]).parameters
              if p not in ("id", "name", "ruleset")]
    order = ["id", "kind", "name", "ruleset", *params]
    ordered = {k: record[k] for k in order if k in record}
    ordered.update((k, v) for k, v in record.items() if k not in ordered)
    record.clear()
    record.update(ordered)
