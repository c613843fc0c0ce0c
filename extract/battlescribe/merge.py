"""BattleScribe records meet the records of the other sources of a build.

A record whose id the store already holds (the seeds' Paladin Squad, read from a page)
is one record with both provenances. For every field the two sources both give
(points, characteristics, keywords, abilities ...), a difference is a finding,
``source-disagreement``, with both values and both provenances; the record keeps the
value of the better-ranked source (the manifest's ``rank``; unranked sources in the order
listed), and the other source's provenance entry says which compared fields agree
(``agrees``) and which give another value (``differs``, with that value). Notation is
folded away before comparing (:func:`comparable`). A field only BattleScribe gives (model
characteristics, leader lists) is added, its provenance entry naming the fields.
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Callable

from warscribe.schema import records
from warscribe.schema.diagnostics import Report
from warscribe.schema.abilities import parse_ability
from warscribe.schema.keywords import same_keywords
from warscribe.extract.sources_merge import folded_name, match_units, note_agreement, source_of

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


def _plain(value) -> str:
    """A characteristic as compared: inch marks, '+' and case are notation."""
    return str(value).replace('"', "").replace("+", "").strip().casefold()


# Abilities BattleScribe gives for what the other sources say in a column of their own (an
# invulnerable save, a damaged profile, transport capacity): a field one source lacks.
_PROFILE_ABILITIES = ("invulnerable save", "damaged", "transport")
_FILLER = {"the", "of", "a", "an", "and"}


def _ability_name(ability: dict) -> str | None:
    """A datasheet ability's name as compared, or None for one that is not compared.

    Spelling variants (Channeller / Channeler, 'of the') are alike. Not compared: faction
    abilities (army and detachment rules, which each source attaches to units its own way),
    weapon abilities listed on the unit (One Shot, Pistol), and what another source
    gives in a column of its own (_PROFILE_ABILITIES).
    """
    if ability.get("type") == "faction":
        return None
    folded = folded_name(ability["name"]).removesuffix(" psychic")
    if folded.startswith(_PROFILE_ABILITIES) or _weapon_ability(ability["name"]):
        return None
    words = [w for w in folded.split() if w not in _FILLER]
    return " ".join(re.sub(r"(.)\1+", r"\1", w) for w in words)


@functools.lru_cache(maxsize=4096)
def _weapon_ability(name: str) -> bool:
    return any(parse_ability(text)[0] is not None for text in (name, name + " 1"))


def same(kind: str, name: str, old, new) -> bool:
    """Whether two sources' values of one field agree, notation aside."""
    if name in ("keywords", "faction_keywords"):  # case, plural and apostrophes are notation
        return same_keywords(old, new)
    return comparable(kind, name, old) == comparable(kind, name, new)


def comparable(kind: str, name: str, value):
    """The form two sources' values are compared in: order, notation and spelling folded away."""
    if value is None:
        return None
    if name in ("weapons", "enhancements"):
        return sorted(set(value))
    if name == "composition":  # the unit's size: sources split and name its model lines differently
        return (sum(c["min"] for c in value), sum(c["max"] for c in value))
    if name == "points" and kind == "datasheet":
        return sorted({(p["models"], p["points"]) for p in value})
    if name == "abilities" and kind == "datasheet":
        return sorted({n for a in value if (n := _ability_name(a)) is not None})
    if name == "abilities":
        return sorted((a["id"], _plain(a.get("value", "")), a.get("keyword", "").casefold(), str(a.get("threshold", "")),
                       folded_name(a.get("name", "")) if a["id"] == "custom" else "") for a in value)
    if name == "models":
        return sorted({tuple(_plain(m.get(k)) for k in CHARACTERISTICS) for m in value})
    if isinstance(value, (str, int)) and not isinstance(value, bool):  # 2 and "2+" alike
        return _plain(value)
    return value


# A model's characteristics as compared; the invulnerable save is its own field (`invulnerable`).
CHARACTERISTICS = ("M", "T", "Sv", "W", "Ld", "OC")


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
        filled: list[str] = []
        agree: list[str] = []
        differ: dict[str, object] = {}  # field -> the value of the source not kept
        for name in COMPARED.get(kind, ()):
            if name not in record or name not in existing:
                continue
            if existing[name] in (None, [], "") or record[name] in (None, [], ""):
                # One source does not give it (a page lists no enhancements): nothing to disagree on.
                if existing[name] in (None, [], "") and record[name] not in (None, [], ""):
                    existing[name] = record[name]
                    filled.append(name)
                continue
            if same(kind, name, existing[name], record[name]):
                agree.append(name)
                continue
            findings += 1
            kept, kept_prov, other, other_prov = ((record, prov, existing, first) if ours_first
                                                  else (existing, first, record, prov))
            report.warning(other_prov["file"], other_prov["first_line"], "source-disagreement",
                           f"{rid}: {name} differs between {cite(kept_prov)} and {cite(other_prov)}; "
                           f"the value of {source_name(kept_prov['file'])} (ranked first) is kept",
                           expected=f"{shown(kind, name, kept[name])} [{cite(kept_prov)}]",
                           found=f"{shown(kind, name, other[name])} [{cite(other_prov)}]")
            differ[name] = other[name]
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
        if ours_first:  # the record's first source gave the values now replaced
            existing["source"][0] = note_agreement(first, agree, differ)
            entries = list(provs)
        else:
            entries = [note_agreement(prov, agree, differ)] + list(provs[1:])
        if added:
            entries.append(dict(prov, fields=added))
        store.add_provenance(existing, entries)
    return findings


def _reorder(record: dict) -> None:
    """Keys in the constructor's order (added fields included), provenance last."""
    order = _key_order(record["kind"])
    ordered = {k: record[k] for k in order if k in record}
    ordered.update((k, v) for k, v in record.items() if k not in ordered)
    record.clear()
    record.update(ordered)


@functools.lru_cache(maxsize=None)
def _key_order(kind: str) -> tuple[str, ...]:
    params = [p for p in inspect.signature(records.CONSTRUCTORS[kind]).parameters if p not in ("id", "name", "ruleset")]
    return ("id", "kind", "name", "ruleset", *params)
