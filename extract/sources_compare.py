"""How two sources' values of one field are compared: notation, spelling and fields one source lacks folded away.

A difference here is a finding (``source-disagreement``), so what counts must be a real
difference in the game's values, never in how a source writes them down:

- characteristics: ``3+`` and ``3``, ``24"`` and ``24``, case (:func:`plain`);
- keywords: case, plural, apostrophes, spacing ("STARWEAVER", "STAR WEAVER"); the faction
  keyword of the army a unit is listed under as an ally (Wahapedia's Astra Militarum
  vehicles under Genestealer Cults carry GENESTEALER CULTS, BattleScribe's do not);
- datasheet abilities, by name: spelling variants, parameters one source leaves off; not
  compared at all: faction abilities (army and detachment rules, which each source attaches
  to units its own way, under either type), weapon abilities listed on the unit, and what
  another source gives in a column of its own (invulnerable save, damaged profile, the
  transport profile BattleScribe names after the unit, the Leader list), except that the
  wounds ranges of damaged boxes are compared where both sources give one;
- points: the (models, points) pairs and the selection a price applies from, so a size one
  source alone prices is a difference (the BattleScribe reader reports a price its data gives
  for a size beyond the unit's composition, ``unsupported-modifier``, rather than keep it);
- model lines: the characteristics and the invulnerable save of each distinct profile;
- the transport box: its numbers (capacity, the space a bulky model takes) and the kinds of
  model it cannot carry, not its wording.

Weapons are compared as the set of the unit's weapon ids, after
:func:`~warscribe.extract.sources_merge.match_units` has given a weapon spelled another way
the id of its counterpart, so a weapon counts only when it is in one source alone.
"""

from __future__ import annotations

import functools
import re

from dataclasses import dataclass, field

from warscribe.extract.sources_merge import folded_name, loose_words, paired, source_of
from warscribe.schema.abilities import parse_ability
from warscribe.schema.diagnostics import Report

# The fields compared between sources, per kind. Texts are not compared word for word:
# scraped pages and BattleScribe word the same rule differently far too often.
COMPARED = {
    "datasheet": ("keywords", "faction_keywords", "composition", "points", "abilities", "weapons", "models",
                  "transport"),
    "weapon": ("type", "range", "attacks", "skill", "strength", "ap", "damage", "abilities"),
    "enhancement": ("points", "detachment"),
    "detachment": ("enhancements",),
}

# A model's characteristics as compared, with its invulnerable save (no save and none alike).
CHARACTERISTICS = ("M", "T", "Sv", "W", "Ld", "OC", "invulnerable")


def plain(value) -> str:
    """A characteristic as compared: inch marks, '+' and case are notation."""
    return str(value).replace('"', "").replace("+", "").strip().casefold()


# Abilities one source gives for what another says in a column of its own (an invulnerable
# save, a damaged profile, transport capacity, the Leader list, a footnote to the unit's
# composition): a field one source lacks. "invunerable" is BattleScribe's own spelling on
# some Forge World units.
_PROFILE_ABILITIES = ("invulnerable save", "invunerable save", "damaged", "transport", "leader",
                      "unit composition")
# Notes a source prints among the abilities, not abilities.
_NOT_ABILITIES = ("designers note",)
_FILLER = {"the", "of", "a", "an", "and"}
_PARAMETER = re.compile(r"\d")


def same(kind: str, name: str, old, new, unit_name: str = "", hosts: frozenset[str] = frozenset()) -> bool:
    """Whether two sources' values of one field agree, notation aside.

    `unit_name` is the name of the unit the field belongs to; `hosts` the faction keywords of
    the army it is listed under (:func:`host_keywords`): one source alone giving one of
    those is how it lists allies, not a value of the unit.
    """
    if name == "abilities" and kind == "datasheet":
        return _same_abilities(old, new, unit_name)
    if name == "abilities":
        return _same_weapon_abilities(old, new)
    if name == "faction_keywords":
        a, b = _keywords(old), _keywords(new)
        return a == b or (a ^ b) <= {_keyword(h) for h in hosts}
    return comparable(kind, name, old) == comparable(kind, name, new)


def host_keywords(faction: str, units) -> frozenset[str]:
    """The faction keywords of an army: its name, and the faction keyword most of the units
    listed under it carry (LEGIONES DAEMONICA for Chaos Daemons, UNALIGNED for Unaligned Forces)."""
    counts: dict[str, int] = {}
    for u in units:
        for k in {_keyword(k) for k in u.get("faction_keywords") or ()}:
            counts[k] = counts.get(k, 0) + 1
    common = {k for k, n in counts.items() if 2 * n > len(units)}
    return frozenset({_keyword(faction)} | common)


def comparable(kind: str, name: str, value):
    """The form two sources' values are compared in: order, notation and spelling folded away."""
    if value is None:
        return None
    if name in ("weapons", "enhancements"):
        return sorted(set(value))
    if name in ("keywords", "faction_keywords"):
        return sorted(_keywords(value))
    if name == "composition":  # the unit's size: sources split and name its model lines differently
        return (sum(c["min"] for c in value), sum(c["max"] for c in value))
    if name == "points" and kind == "datasheet":
        # Each size a source prices, at the selection its price applies from: a size one source
        # alone prices is a difference, and so is a requisition tier that starts at another copy.
        # The condition's wording is not compared (each source words an army's price its own way).
        return sorted({(p["models"], p["points"], p.get("from_copy") or 1) for p in value})
    if name == "abilities" and kind == "datasheet":
        return sorted(_abilities(value, ""))
    if name == "abilities":
        return sorted((a["id"], plain(a.get("value", "")), a.get("keyword", "").casefold(), str(a.get("threshold", "")),
                       folded_name(a.get("name", "")) if a["id"] == "custom" else "") for a in value)
    if name == "models":
        return sorted({tuple(plain(m.get(k) or "-") for k in CHARACTERISTICS) for m in value})
    if name == "transport":
        return _transport(value)
    if isinstance(value, (str, int)) and not isinstance(value, bool):  # 2 and "2+" alike
        return plain(value)
    return value


# The kinds of model a transport cannot carry: 'It cannot transport JUMP PACK, KATAPHRON or SYDONIAN SKATROS models.'
_BARRED = re.compile(r"cannot\s+transport\s+([^.]*)", re.I)
_BARRED_FILLER = {"or", "and", "model", "the", "a", "an", "any"}


def _transport(text: str) -> tuple[tuple[int, ...], list[str]]:
    """A transport box as compared: its numbers (the capacity, the space a bulky model takes) and
    the kinds of model it cannot carry. The rest is wording: the sources word, case and spell it
    each their own way ('TRIUMPH OF SAINT KATHERINE', 'Triumph of Saint Katherine')."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", text))
    barred = {w for m in _BARRED.finditer(text) for w in loose_words(m.group(1)) if w not in _BARRED_FILLER}
    return numbers, sorted(barred)


def _weapon_ability_key(ability: dict) -> tuple[str, str]:
    """A weapon ability as compared: (id, its value); an ability a source writes without the
    value it needs ("Sustained Hits" alone, kept as a custom one) is that ability, value unsaid ('')."""
    if ability["id"] == "custom":
        written = ability.get("name") or ability.get("text") or ""
        parsed, problems = parse_ability(written + " 1")
        if parsed is not None and not problems:
            return parsed["id"], ""
        return "custom", folded_name(written)
    value = plain(ability.get("value", ""))
    if ability.get("keyword"):
        value = f"{ability['keyword'].casefold()} {ability.get('threshold', '')}"
    return ability["id"], value


def _same_weapon_abilities(old, new) -> bool:
    """The same abilities, each with the same value where both write one."""
    a, b = {}, {}
    for side, value in ((a, old), (b, new)):
        for ability in value:
            key, said = _weapon_ability_key(ability)
            side.setdefault(key, set()).add(said)
    if set(a) != set(b):
        return False
    return all("" in a[k] or "" in b[k] or a[k] == b[k] for k in a)


def _keyword(keyword: str) -> str:
    """A keyword as compared: words run together and singular (loose_words), so spacing, case,
    apostrophes and plurals are alike."""
    return "".join(loose_words(keyword))


def _keywords(value) -> set[str]:
    return {_keyword(k) for k in value or ()}


def _ability_key(ability_name: str) -> tuple[str, str] | None:
    """An ability's name as compared and its parameter ('Deadly Demise D6' -> 'deadly demise', 'd6')."""
    folded = folded_name(ability_name).removesuffix(" psychic")
    if folded.startswith(_PROFILE_ABILITIES) or folded.startswith(_NOT_ABILITIES) or _weapon_ability(ability_name):
        return None
    words = [re.sub(r"(.)\1+", r"\1", w) for w in folded.split() if w not in _FILLER]
    cut = len(words)
    while cut > 1 and _PARAMETER.search(words[cut - 1]):
        cut -= 1
    return " ".join(words[:cut]), " ".join(words[cut:])


def _abilities(value, unit_name: str, skip: frozenset[str] = frozenset()) -> dict[str, str]:
    """Compared abilities of a unit: name -> parameter ('' where none is written)."""
    out: dict[str, str] = {}
    for a in value:
        if a.get("type") == "faction":
            continue
        key = _ability_key(a["name"])
        if key is None or key[0] in skip or (unit_name and key[0] == unit_name):
            continue  # the unit's own name: BattleScribe's transport profile
        out[key[0]] = out.get(key[0]) or key[1]
    return out


def _same_abilities(old, new, unit_name: str) -> bool:
    """Both sources give the same abilities: names alike (spelling aside), and a parameter both
    write the same; a faction ability under either source's type is no one's."""
    skip = frozenset(k[0] for a in (*old, *new) if a.get("type") == "faction" and (k := _ability_key(a["name"])))
    own = _ability_key(unit_name) if unit_name else None
    a = _abilities(old, own[0] if own else "", skip)
    b = _abilities(new, own[0] if own else "", skip)
    pairs = paired(sorted(set(a) - set(b)), sorted(set(b) - set(a)))
    if len(pairs) != len(set(a) - set(b)) or len(pairs) != len(set(b) - set(a)):
        return False
    for name in set(a) & set(b):
        if a[name] and b[name] and a[name] != b[name]:
            return False
    if not all(not a[x] or not b[y] or a[x] == b[y] for x, y in pairs.items()):
        return False
    damaged_a, damaged_b = _damaged(old), _damaged(new)
    return not (damaged_a and damaged_b and damaged_a != damaged_b)


_DAMAGED = re.compile(r"damaged\W+(\d+)\s*-\s*(\d+)", re.I)


def _damaged(value) -> set[tuple[int, int]]:
    """The wounds ranges of a unit's damaged boxes ('Damaged: 1-5 Wounds Remaining' -> (1, 5)).

    Compared only where both sources give one: a source without the box lacks the field (the
    Wahapedia export leaves it out of the Chaos legions' copies of shared Legends datasheets,
    134 of them against BattleScribe 51e5f8f), it does not say the unit has none."""
    return {(int(m[1]), int(m[2])) for a in value if (m := _DAMAGED.match(a["name"]))}


@functools.lru_cache(maxsize=4096)
def _weapon_ability(name: str) -> bool:
    """A weapon ability and nothing else ('Pistol', 'Sustained Hits' with its value left off);
    'Heavy Weapons Squad' or 'Blast Shield' only begin like one."""
    for text in (name, name + " 1"):
        ability, problems = parse_ability(text)
        if ability is not None and not problems:
            return True
    return False


def shown(kind: str, name: str, value) -> str:
    """A value as a finding prints it."""
    if name == "points" and kind == "datasheet":
        return ", ".join(f"{p['models']} models: {p['points']}" + (f" ({p['condition']})" if p.get("condition") else "")
                         + (f" (from selection {p['from_copy']})" if p.get("from_copy") else "") for p in value)
    if name == "extra_points":
        return ", ".join(f"{p['name']} +{p['points']}" for p in value) or "none"
    if name in ("leader", "led_by", "support") and isinstance(value, dict):
        return ", ".join(value.get("units") or ()) or "no unit"
    if name == "composition":
        return ", ".join(f"{c['min']}-{c['max']} {c['name']}" for c in value)
    if name == "abilities" and kind == "datasheet":
        return ", ".join(a["name"] for a in value)
    if name == "abilities":
        return ", ".join(a["text"] for a in value) or "none"
    if name == "models":
        return "; ".join(", ".join(f"{k} {m[k]}" for k in m if k not in ("name", "invulnerable_text", "base_size")
                                   and m[k] is not None) for m in value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return "null" if value is None else str(value)


@dataclass
class Outcome:
    """What :func:`merge_fields` did to one record: the compared fields that agree, those that
    differ (field -> the value of the source not kept), and those one source filled in."""
    agree: list[str] = field(default_factory=list)
    differ: dict[str, object] = field(default_factory=dict)
    filled: list[str] = field(default_factory=list)


def cite(prov: dict) -> str:
    where = f"{prov['file']}:{prov['first_line']}"
    entry = prov.get("entry")
    return f"{where} (entry {entry['id']})" if entry else where


def merge_fields(existing: dict, record: dict, first: dict, prov: dict, ours_first: bool, report: Report,
                 hosts: frozenset[str] = frozenset(), source_name=source_of) -> Outcome:
    """`record` (a later source's sighting, at `prov`) met with `existing` (first seen at `first`), field by field.

    For each compared field (`COMPARED`) both give, a real difference is a finding
    ``source-disagreement`` with both values and places, and `existing` keeps the value of
    the better-ranked source (`ours_first`: `record`'s). A field one source leaves empty is
    no disagreement: `existing` takes the other's value.
    """
    out = Outcome()
    kind = record["kind"]
    for name in COMPARED.get(kind, ()):
        if name not in record or name not in existing:
            continue
        if existing[name] in (None, [], "") or record[name] in (None, [], ""):
            # One source does not give it (a page lists no enhancements): nothing to disagree on.
            if existing[name] in (None, [], "") and record[name] not in (None, [], ""):
                existing[name] = record[name]
                out.filled.append(name)
            continue
        if same(kind, name, existing[name], record[name], existing.get("name", ""), hosts):
            out.agree.append(name)
            continue
        kept, kept_prov, other, other_prov = ((record, prov, existing, first) if ours_first
                                              else (existing, first, record, prov))
        report_disagreement(report, existing["id"], kind, name, kept[name], kept_prov, other[name], other_prov,
                            source_name)
        out.differ[name] = other[name]
        if ours_first:
            existing[name] = record[name]
    return out


def report_disagreement(report: Report, record_id: str, kind: str, name: str, kept, kept_prov: dict, other,
                        other_prov: dict, source_name=source_of) -> None:
    """The finding ``source-disagreement``: field `name` of a record is `kept` (the better-ranked
    source's, at `kept_prov`) where another source gives `other` (at `other_prov`, where it is reported)."""
    report.warning(other_prov["file"], other_prov["first_line"], "source-disagreement",
                   f"{record_id}: {name} differs between {cite(kept_prov)} and {cite(other_prov)}; "
                   f"the value of {source_name(kept_prov['file'])} (ranked first) is kept",
                   expected=f"{shown(kind, name, kept)} [{cite(kept_prov)}]",
                   found=f"{shown(kind, name, other)} [{cite(other_prov)}]")
