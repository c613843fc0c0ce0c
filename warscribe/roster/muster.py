"""The 11th edition's muster rules, read from a build's records at run time.

The values are the sources', never typed here: the battle-size table (points, Detachment
Points, enhancement limit, unit limit) and its footnotes are parsed from the app's core
rules (``11e/rules/25-03-select-battle-size``), the rest of the muster from 25.04 (one
enhancement per unit, attached units included; Upgrades up to N of one; each support unit
attached; a lone 3 DP detachment at Incursion; no detachment twice); the Leader and Support
rules are the ability records' (24.22, and Support's number as each source prints it). What
the Field Manual alone carries (each detachment's DP, its unique tag, requisition thresholds,
a unit between two sizes paying the higher cost, Leader/Support lists) is on the records the
checks read; its citation names the record's Field Manual source.

A text the parser does not recognise is not guessed around: :func:`read` returns the rules
it could read and, for each it could not, the reason, which the list's result reports
(``roster-muster-rules``) and the checks list as unchecked.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from warscribe.roster.names import key
from warscribe.roster.rules import Edition, Rule
from warscribe.schema.bundle import Bundle

TABLE_ID = "11e/rules/25-03-select-battle-size"
FILL_ID = "11e/rules/25-04-fill-your-army-roster"
ATTACHED_ID = "11e/rules/19-01-forming-attached-units"
LEADER_ID = "11e/abilities/leader"
SUPPORT_ID = "11e/abilities/support"

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COLUMNS = {"points": ("points total",), "dp": ("detachment points",), "enhancements": ("enhancement limit",),
            "units": ("unit limit",)}


@dataclass
class Size:
    name: str  # as the table prints it, title-cased: 'Strike Force'
    points: int
    dp: int
    enhancements: int
    units: int


@dataclass
class Muster:
    """What the 11th edition's muster rules allow, each value with the record it was read from."""

    sizes: dict[str, Size] = field(default_factory=dict)
    wide_keywords: list[str] = field(default_factory=list)  # unit limit doubled
    wide_factor: int = 0
    epic_hero: int | None = None
    lone_detachment: dict | None = None  # {'size': 'Incursion', 'dp': 3}
    per_unit: int | None = None  # enhancements per unit, attached units included
    upgrade_copies: int | None = None  # the same Upgrade at most this many times
    support_attached: bool = False  # each support unit must be attached
    bearer: str | None = None  # the keyword a unit needs to be given an enhancement (Upgrades aside)
    excluded: list[str] = field(default_factory=list)  # keywords whose models may not be given one
    warlord: str | None = None  # the keyword the Warlord's unit needs
    detachment_once: bool = False
    enhancement_once: bool = False
    cites: dict[str, Rule] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # what could not be read, and why
    disagreements: list[dict] = field(default_factory=list)  # {'what', 'values': [{'value', 'record', 'sources'}]}


def as_dict(m: Muster) -> dict:
    """For the JSON output: the battle sizes read, each rule with its record and sources, what disagrees."""
    return {"battle_sizes": [{"name": s.name, "points": s.points, "detachment_points": s.dp,
                              "enhancements": s.enhancements, "unit_limit": s.units} for s in m.sizes.values()],
            "unit_limit_keywords": m.wide_keywords, "unit_limit_factor": m.wide_factor or None,
            "epic_hero_limit": m.epic_hero, "lone_detachment": m.lone_detachment,
            "enhancements_per_unit": m.per_unit, "upgrade_copies": m.upgrade_copies,
            "rules": {name: dict(r.as_dict(), cite=r.cite) for name, r in sorted(m.cites.items())},
            "disagreements": m.disagreements, "problems": m.problems}


def _sources(rec: dict) -> list[str]:
    return [f"{s['file']}:{s['first_line']}" for s in rec.get("source", [])]


def cite(rec: dict, what: str, number: str | None = None) -> Rule:
    number = number or rec.get("number") or ""
    name = rec.get("title") or rec.get("name") or rec["id"]
    text = f"11e Core Rules {number} {name}".replace("  ", " ") + f": {what}"
    return Rule(name=rec["id"], cite=text, record=rec["id"], number=number, sources=tuple(_sources(rec)))


def _cells(row: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]


def _table(text: str) -> list[list[str]]:
    return [_cells(r) for r in re.findall(r"<tr>(.*?)</tr>", text, re.S)]


def _title(name: str) -> str:
    return " ".join(w.capitalize() for w in name.split())


def _needed(m: Muster, rec: dict, pattern: str, text: str, what: str) -> re.Match | None:
    """The first match of `pattern` in a rule's text; none is one of the muster's problems (`what` was not found)."""
    found = re.search(pattern, text)
    if found is None:
        m.problems.append(f"{rec['id']}: {what} was not found")
    return found


def _read_table(m: Muster, rec: dict) -> None:
    rows = _table(rec.get("text") or "")
    if len(rows) < 2:
        m.problems.append(f"{rec['id']}: no table of battle sizes in its text")
        return
    head = [c.casefold() for c in rows[0]]
    where = {}
    for col, words in _COLUMNS.items():
        hits = [i for i, h in enumerate(head) if any(h.startswith(w) for w in words)]
        if not hits:
            m.problems.append(f"{rec['id']}: the battle-size table has no column {words[0]!r} (columns: "
                              f"{', '.join(rows[0])})")
            return
        where[col] = hits[0]
    for row in rows[1:]:
        try:
            values = {col: int(row[i].replace(",", "").replace(" ", "")) for col, i in where.items()}
        except (ValueError, IndexError):
            m.problems.append(f"{rec['id']}: a row of the battle-size table is not numbers: {' | '.join(row)}")
            continue
        name = _title(row[0])
        m.sizes[name] = Size(name, values["points"], values["dp"], values["enhancements"], values["units"])
    text = rec.get("text") or ""
    wide = _needed(m, rec, r"unit limit for ([A-Z][A-Za-z ]+?) units is (double|triple)", text,
                   "the table's note on BATTLELINE units' limit")
    if wide:
        m.wide_keywords = [k.strip() for k in re.split(r"\band\b|,", wide.group(1)) if k.strip()]
        m.wide_factor = 2 if wide.group(2) == "double" else 3
    epic = _needed(m, rec, r"every EPIC HERO has a unit limit of (\d+)", text, "the table's note on EPIC HEROES")
    if epic:
        m.epic_hero = int(epic.group(1))
    sizes = ", ".join(f"{s.name} {s.points} pts / {s.dp} DP / {s.enhancements} enhancements / {s.units} per "
                      "datasheet" for s in m.sizes.values())
    m.cites["points-limit"] = cite(rec, f"the army's points may not exceed the battle size's points total ({sizes})")
    m.cites["detachment-points"] = cite(rec, "the detachments' Detachment Points may not exceed the battle size's "
                                        f"({', '.join(f'{s.name} {s.dp}' for s in m.sizes.values())})")
    wide_txt = (f"; {' and '.join(m.wide_keywords)} units {wide.group(2)} that" if wide else "")
    m.cites["unit-limit"] = cite(rec, "units of one datasheet name: at most the battle size's unit limit ("
                                 + ", ".join(f"{s.name} {s.units}" for s in m.sizes.values()) + ")" + wide_txt
                                 + (f"; an EPIC HERO {m.epic_hero}" if m.epic_hero else ""))


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word.casefold())


def _read_fill(m: Muster, rec: dict) -> None:
    text = rec.get("text") or ""
    per_unit = _needed(m, rec, r"No unit \(including attached units\) can have more than (\w+) enhancement", text,
                       "its limit of enhancements per unit")
    if per_unit:
        m.per_unit = _number(per_unit.group(1))
    up = _needed(m, rec, r"include up to (\w+) of the same Upgrade", text, "its limit of copies of one Upgrade")
    if up:
        m.upgrade_copies = _number(up.group(1))
    bearer = _needed(m, rec, r"Only ([A-Z][A-Z ]*?) units can be given enhancements", text,
                     "which units may be given enhancements")
    excluded = re.search(r"([A-Z][A-Z ]*?) models cannot be given enhancements", text)
    m.bearer = bearer.group(1) if bearer else None
    # 'EPIC HEROES models': the keyword is singular.
    m.excluded = [re.sub(r"HEROES$", "HERO", excluded.group(1))] if excluded else []
    warlord = _needed(m, rec, r"Select one ([A-Z][A-Z ]*?) unit to be your Warlord", text,
                      "which unit may be the Warlord")
    m.warlord = warlord.group(1) if warlord else None
    m.enhancement_once = bool(re.search(r"cannot include more than one of the same enhancement", text))
    m.support_attached = bool(re.search(r"Each support unit in your roster must be attached", text))
    m.detachment_once = bool(re.search(r"cannot select the same detachment more than once", text))
    lone = re.search(r"If you are playing an? (\w+) battle, you can select an? (\d+)\s*DP detachment as your only "
                     r"detachment", text)
    if lone:
        m.lone_detachment = {"size": _title(lone.group(1)), "dp": int(lone.group(2))}
    m.cites["enhancement-limit"] = cite(rec, "no unit (attached units included) may have more than "
                                        f"{m.per_unit} enhancement; the same enhancement once; the same Upgrade up to "
                                        f"{m.upgrade_copies} times, its 2nd and later not counted against the limit "
                                        "(Select Battle Size, 25.03)")
    m.cites["enhancements"] = cite(rec, "enhancements of the selected detachments, each on a different unit; only "
                                   "CHARACTER units (Upgrades: any unit); not EPIC HEROES")
    m.cites["unattached-support"] = cite(rec, "each support unit in your roster must be attached to a bodyguard unit")
    m.cites["unique-detachment"] = cite(rec, "you cannot select the same detachment more than once")
    dp = m.cites.get("detachment-points")
    if lone and dp is not None:
        m.cites["detachment-points"] = Rule(dp.name, dp.cite + f"; at {m.lone_detachment['size']} a lone "
                                            f"{m.lone_detachment['dp']} DP detachment ({rec.get('number')}'s note)",
                                            record=dp.record, number=dp.number, sources=dp.sources + tuple(_sources(rec)))
    m.cites["warlord"] = cite(rec, "select one CHARACTER unit, of the army faction, to be your Warlord's unit")


def _read_attachment(m: Muster, kb: Bundle, leader: dict | None, support: dict | None) -> None:
    """Leader and Support: the ability records' numbers against the cross-reference in 19.01."""
    forming = kb.get(ATTACHED_ID)
    ref = re.search(r"Leader or Support ability[^()]*\((\d+\.\d+)\s*&\s*(\d+\.\d+)\)", (forming or {}).get("text") or "")
    for rec, printed in ((leader, ref.group(1) if ref else None), (support, ref.group(2) if ref else None)):
        if rec is None:
            continue
        if printed and rec.get("number") and printed != rec["number"]:
            clash = [r["id"] for r in kb.kind("ability") if r.get("number") == rec["number"] and r["id"] != rec["id"]
                     and r.get("ruleset") == "11e"]
            m.disagreements.append({
                "what": f"the number of the {rec['name']} rule",
                "values": [{"value": rec["number"], "record": rec["id"], "sources": _sources(rec),
                            "note": f"also the number of {', '.join(clash)}" if clash else ""},
                           {"value": printed, "record": forming["id"], "sources": _sources(forming),
                            "note": f"cited in {forming.get('number')} {forming.get('title')}"}]})
    other = {d["values"][0]["record"]: f"{d['values'][1]['value']} in {(forming or {}).get('number')}"
             for d in m.disagreements}
    both = " / ".join(f"{r['name'].title()} {r.get('number')}" + (f" ({other[r['id']]})" if r["id"] in other else "")
                      for r in (leader, support) if r)
    text = ("each leader and support unit may be attached to one bodyguard unit its datasheet lists; unless "
            "otherwise stated a bodyguard unit has at most one leader unit and one support unit")
    if leader is not None:
        m.cites["attachment"] = Rule("attachment", f"11e Core Rules {both}: {text}", record=leader["id"],
                                     number=leader.get("number") or "",
                                     sources=tuple(_sources(leader) + (_sources(support) if support else [])))
    else:
        m.problems.append(f"{LEADER_ID}: not in the build; attachments not checked")


def read(kb: Bundle) -> Muster:
    m = Muster()
    table = kb.get(TABLE_ID)
    if table is None:
        m.problems.append(f"the build has no record {TABLE_ID} (the app's core rules): the battle-size table "
                          "(points, Detachment Points, enhancement and unit limits) cannot be read")
    else:
        _read_table(m, table)
    fill = kb.get(FILL_ID)
    if fill is None:
        m.problems.append(f"the build has no record {FILL_ID} (the app's core rules): enhancement, Upgrade and "
                          "Support muster rules cannot be read")
    else:
        _read_fill(m, fill)
    _read_attachment(m, kb, kb.get(LEADER_ID), kb.get(SUPPORT_ID))
    return m


# -- the rules only the Field Manual states: cited by the record that carries the value -------------------


def manual_source(rec: dict) -> str | None:
    """The Field Manual file and line a record's value came from, where one of its sources is the manual."""
    for s in rec.get("source", []):
        if "mfm" in s["file"].split("/", 1)[0]:
            return f"{s['file']}:{s['first_line']}"
    return None


def manual_rule(name: str, what: str, rec: dict | None) -> Rule:
    where = manual_source(rec) if rec else None
    return Rule(name, f"Munitorum Field Manual (its notes, meta.yaml): {what}" + (f" [{where}]" if where else ""),
                sources=(where,) if where else ())


def edition(kb: Bundle, base: Edition) -> tuple[Edition, Muster]:
    """The 11e edition of `base` (its shape, 10e-style rules kept where 11e adds nothing) with the values read from `kb`."""
    m = read(kb)
    rules = dict(base.rules)
    rules.update(m.cites)
    sizes = {s.name: s.points for s in m.sizes.values()}
    # A rule not read is not checked (its problem is reported), never filled in from here.
    enhancements = {"per_unit": m.per_unit, "bearer": m.bearer, "excluded": m.excluded}
    warlord = {"count": 1, "keyword": m.warlord}
    ed = Edition(base.ruleset, sizes, base.datasheet_limit, enhancements, warlord,
                 {s.name: s.dp for s in m.sizes.values()} or None, rules, muster=m, from_build=True)
    return ed, m


def size_key(name: str | None) -> str:
    return key(name or "")
