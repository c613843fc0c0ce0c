"""BattleScribe records meet the records of the other sources of a build.

A record whose id the store already holds (the seeds' Paladin Squad, read from a page)
is one record with both provenances. For every field the two sources both give
(points, characteristics, keywords, abilities ...), a difference is a finding,
``source-disagreement``, with both values and both provenances; the record keeps the
value of the better-ranked source (the manifest's ``rank``; unranked sources in the order
listed), and the other source's provenance entry says which compared fields agree
(``agrees``) and which give another value (``differs``, with that value). Notation is
folded away before comparing (``extract/sources_compare.py``). A field only BattleScribe gives (model
characteristics, leader lists) is added, its provenance entry naming the fields.
"""

from __future__ import annotations

from typing import Callable

from warscribe.schema import records
from warscribe.schema.diagnostics import Report
from warscribe.extract.sources_compare import cite, host_keywords, merge_fields
from warscribe.extract.sources_merge import match_units, note_agreement, source_of

# Fields a BattleScribe record may add where another source lacks them.
ADDED = ("models", "leader", "led_by", "transport", "bearers")


def add_records(store, items: list[tuple[dict, list[dict]]], rank_of: Callable[[str], int], report: Report,
                source_name: Callable[[str], str] = source_of) -> int:
    """Put BattleScribe records (each with its provenance entries, the entry first) into `store`;
    returns the number of findings reported.

    Units the store holds under another id (another faction's, another spelling) are
    matched first (:func:`~warscribe.extract.sources_merge.match_units`). Of two values,
    the one of the better-ranked source (`rank_of`: lower first) is kept; each source's
    provenance entry then says which compared fields agree with it and which differ.
    """
    findings = 0
    # Matching looks at each record's first entry; the renamed records keep all of theirs.
    matched = match_units(store, [(record, provs[0]) for record, provs in items], source_name, report)
    hosts = _hosts(store)
    for (record, _first), (_old, provs) in zip(matched, items):
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
        outcome = merge_fields(existing, record, first, prov, ours_first, report,
                               hosts.get(existing.get("faction"), frozenset()), source_name)
        findings += len(outcome.differ)
        filled, agree, differ = outcome.filled, outcome.agree, outcome.differ
        for k in ("leader", "led_by"):  # a list lost in scraping ("This unit can be led by:" and nothing)
            if k in existing and k in record and not existing[k]["units"] and record[k]["units"]:
                existing[k] = dict(existing[k], units=record[k]["units"])
                filled.append(k)
        new_fields = [k for k in ADDED if k in record and k not in existing]
        for k in new_fields:
            existing[k] = record[k]
        added = filled + new_fields
        records.in_constructor_order(existing)
        if ours_first:  # the record's first source gave the values now replaced
            existing["source"][0] = note_agreement(first, agree, differ)
            entries = list(provs)
        else:
            entries = [note_agreement(prov, agree, differ)] + list(provs[1:])
        if added:
            entries.append(dict(prov, fields=added))
        store.add_provenance(existing, entries)
    return findings


def _hosts(store) -> dict[str, frozenset[str]]:
    """Each faction of the store's units -> its own faction keywords (``sources_compare.host_keywords``)."""
    by_faction: dict[str, list[dict]] = {}
    for r in store.records.values():
        if r["kind"] == "datasheet":
            by_faction.setdefault(r.get("faction") or "", []).append(r)
    return {f: host_keywords(f, units) for f, units in by_faction.items()}
