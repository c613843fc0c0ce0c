"""The 11th edition's muster checks: Detachment Points, unique tags, unit and enhancement limits, attachments.

The limits are the build's own (``muster``: the app's core rules, read at run time); the
values per detachment and datasheet are the records' (the Field Manual's DP, unique tag,
Leader and Support lists). Each finding cites the rule with its number and sources; a
rule the build does not give is listed as unchecked with the reason, never assumed.
"""

from __future__ import annotations

from collections import defaultdict

from warscribe.roster import names
from warscribe.roster.model import Unchecked
from warscribe.roster.muster import Muster, manual_rule
from warscribe.roster.reprice import Repricing
from warscribe.roster.resolve import Resolution
from warscribe.roster.rules import Edition
from warscribe.schema.keywords import unit_keywords


def run(res: Resolution, prices: Repricing, edition: Edition, size: str | None, unchecked: list[Unchecked]) -> None:
    m: Muster = edition.muster
    line = res.roster.title_line or 1
    for problem in m.problems:
        res.find("roster-muster-rules", line, f"the knowledge base's muster rules: {problem}",
                 expected="the app's core rules (25.03, 25.04)", found="not readable")
    for check in (detachment_points, unique_detachment, unit_limit, enhancement_limit, attachments,
                  unattached_support):
        check(res, m, size, unchecked)


def _size(m: Muster, size: str | None, line: int, check: str, unchecked: list[Unchecked]):
    if not m.sizes:
        unchecked.append(Unchecked(check, line, "the battle-size table could not be read from the knowledge base"))
        return None
    if size is None or size not in m.sizes:
        unchecked.append(Unchecked(check, line, f"the battle size is not one of the table's "
                                   f"({', '.join(m.sizes)})" if size is None else
                                   f"{size} is not in the table of 25.03 ({', '.join(m.sizes)})"))
        return None
    return m.sizes[size]


def detachment_points(res: Resolution, m: Muster, size, unchecked: list[Unchecked]) -> None:
    dets = [d for d in res.detachments if d.record is not None]
    line = res.roster.detachments[0].line if res.roster.detachments else (res.roster.title_line or 1)
    if not dets:
        return
    costs = [(d, d.record.get("detachment_points")) for d in dets]
    missing = [d.record["name"] for d, dp in costs if not isinstance(dp, int)]
    if missing:
        unchecked.append(Unchecked("detachment-points", line, f"the knowledge base gives no Detachment Points for "
                                   f"{', '.join(missing)}"))
        return
    spent = sum(dp for _d, dp in costs)
    declared = sum(d.points for d in res.roster.detachments if d.points is not None)
    battle = _size(m, size, line, "detachment-points", unchecked)
    if battle is None:
        return
    rule = m.cites["detachment-points"]
    shown = " + ".join(f"{d.record['name']} {dp}" for d, dp in costs)
    lone = m.lone_detachment
    if lone and lone["size"] == battle.name and len(dets) == 1 and spent <= lone["dp"]:
        return
    if spent > battle.dp:
        also = (f"; a lone {lone['dp']} DP detachment is allowed at {lone['size']}"
                if lone and lone["size"] == battle.name else "")
        res.find("roster-detachment-points", line, f"the detachments cost {spent} Detachment Points ({shown}); "
                 f"{battle.name} allows {battle.dp}{also}" + (f" (the list declares {declared})"
                                                              if declared and declared != spent else ""),
                 expected=f"at most {battle.dp}", found=str(spent), rule=rule)


def unique_detachment(res: Resolution, m: Muster, size, unchecked: list[Unchecked]) -> None:
    seen_ids: dict[str, int] = {}
    tags: dict[str, list] = defaultdict(list)
    for d in res.detachments:
        if d.record is None:
            continue
        if d.record["id"] in seen_ids and m.detachment_once:
            res.find("roster-unique-detachment", d.line, f"{d.record['name']} is selected twice",
                     expected="each detachment once", found="twice", rule=m.cites.get("unique-detachment"),
                     record=d.record["id"])
        seen_ids[d.record["id"]] = d.line
        tag = d.record.get("unique")
        if tag:
            tags[names.key(tag)].append(d)
    for group in tags.values():
        if len(group) > 1:
            tag = group[0].record["unique"]
            res.find("roster-unique-detachment", group[1].line, f"{' and '.join(d.record['name'] for d in group)} "
                     f"share the unique tag '{tag}'; an army may select one detachment with it",
                     expected=f"one detachment tagged '{tag}'", found=f"{len(group)}",
                     rule=manual_rule("unique-detachment", "you cannot select more than one detachment that has the "
                                      "same unique tag (stated only by the Field Manual)", group[1].record),
                     record=group[1].record["id"])


def unit_limit(res: Resolution, m: Muster, size, unchecked: list[Unchecked]) -> None:
    seen: dict[str, list[int]] = defaultdict(list)
    for i, ur in enumerate(res.units):
        if ur.datasheet.record is not None:
            seen[ur.datasheet.record["id"]].append(i)
    if not any(len(v) > 1 for v in seen.values()):
        return
    battle = _size(m, size, res.roster.title_line or 1, "unit-limit", unchecked)
    if battle is None:
        return
    for rid, units in seen.items():
        rec = res.kb.get(rid)
        kws = set(unit_keywords(rec))
        if "EPIC HERO" in kws and m.epic_hero is not None:
            most, what = m.epic_hero, "an EPIC HERO"
        elif m.wide_factor and any(k in kws for k in m.wide_keywords):
            most = battle.units * m.wide_factor
            what = f"a {' or '.join(k for k in m.wide_keywords if k in kws)} datasheet at {battle.name}"
        else:
            most, what = battle.units, f"a datasheet at {battle.name}"
        if len(units) > most:
            extra = units[most]
            res.find("roster-unit-limit", res.units[extra].unit.line, f"{len(units)} units of {rec['name']}; {what} "
                     f"may be taken {most} time{'s' if most != 1 else ''}", expected=f"at most {most}",
                     found=f"{len(units)} (lines {', '.join(str(res.units[u].unit.line) for u in units)})",
                     rule=m.cites["unit-limit"], unit=extra, record=rid)


def _upgrade(enh, rec: dict | None) -> bool:
    return bool(enh.upgrade or (rec or {}).get("upgrade"))


def _attached_groups(res: Resolution) -> list[list[int]]:
    """The units of the list as the army's units: an attached unit (bodyguard, leader, support) is one."""
    parent = list(range(len(res.units)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a in res.attachments:
        parent[root(a.leader)] = root(a.bodyguard)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(res.units)):
        groups[root(i)].append(i)
    return list(groups.values())


def enhancement_limit(res: Resolution, m: Muster, size, unchecked: list[Unchecked]) -> None:
    rule = m.cites.get("enhancement-limit")
    taken = [(i, enh, mt.record) for i, ur in enumerate(res.units) for enh, mt in ur.enhancements]
    if not taken:
        return
    if rule is None:
        unchecked.append(Unchecked("enhancement-limit", taken[0][1].line, "25.04 could not be read"))
        return
    # -- per unit, an attached unit counting as one
    if m.per_unit is not None:
        for group in _attached_groups(res):
            here = [(i, enh) for i, enh, _r in taken if i in group]
            if len(here) > m.per_unit:
                i, enh = here[m.per_unit]
                who = " + ".join(res.units[g].unit.name for g in sorted(group))
                res.find("roster-enhancement-limit", enh.line, f"{who} ({'an attached unit' if len(group) > 1 else 'one unit'}) "
                         f"has {len(here)} enhancements: {', '.join(e.name for _g, e in here)}",
                         expected=f"at most {m.per_unit} per unit", found=str(len(here)), rule=rule, unit=i)
    # -- the same enhancement: once; an Upgrade up to its limit
    by_rec: dict[str, list] = defaultdict(list)
    for i, enh, rec in taken:
        if rec is not None:
            by_rec[rec["id"]].append((i, enh, rec))
    counted = 0
    for _rid, uses in by_rec.items():
        i, enh, rec = uses[0]
        if _upgrade(enh, rec):
            counted += 1
            most = m.upgrade_copies
            if most is not None and len(uses) > most:
                j, e, _r = uses[most]
                res.find("roster-enhancement-limit", e.line, f"the Upgrade {rec['name']} is on {len(uses)} units",
                         expected=f"at most {most}", found=f"lines {', '.join(str(u[1].line) for u in uses)}",
                         rule=rule, unit=j, record=rec["id"])
        else:
            counted += len(uses)
            if len(uses) > 1 and m.enhancement_once:
                j, e, _r = uses[1]
                res.find("roster-enhancement-limit", e.line, f"{rec['name']} is taken {len(uses)} times",
                         expected="each enhancement once", found=f"lines {', '.join(str(u[1].line) for u in uses)}",
                         rule=rule, unit=j, record=rec["id"])
    counted += sum(1 for _i, _e, rec in taken if rec is None)
    battle = _size(m, size, taken[0][1].line, "enhancement-limit", unchecked)
    if battle is not None and counted > battle.enhancements:
        # The first enhancement past the limit, in the list's order, counting an Upgrade's first use only.
        seen, n, at = set(), 0, taken[-1]
        for t in taken:
            rid = t[2]["id"] if t[2] else None
            if rid in seen and _upgrade(t[1], t[2]):
                continue
            seen.add(rid)
            n += 1
            if n == battle.enhancements + 1:
                at = t
                break
        res.find("roster-enhancement-limit", at[1].line, f"the army has {counted} enhancements (an Upgrade's "
                 f"second and third uses not counted); {battle.name} allows {battle.enhancements}",
                 expected=f"at most {battle.enhancements}", found=str(counted), rule=rule, unit=at[0])


def _kind(rec: dict) -> str | None:
    return "support" if rec.get("support") else ("leader" if rec.get("leader") else None)


def _names(att: dict | None) -> set[str]:
    return {names.key(u) for u in (att or {}).get("units", [])}


def attachments(res: Resolution, m: Muster, size, unchecked: list[Unchecked]) -> None:
    rule = m.cites.get("attachment")
    if rule is None:
        if res.attachments:
            unchecked.append(Unchecked("attachment", res.attachments[0].line, "the Leader rule is not in the build"))
        return
    per_guard: dict[tuple[int, str], list[int]] = defaultdict(list)
    for att in res.attachments:
        lead, guard = res.units[att.leader], res.units[att.bodyguard]
        a, b = lead.datasheet.record, guard.datasheet.record
        if a is None or b is None:
            unchecked.append(Unchecked("attachment", att.line, f"{lead.unit.name} attached to {guard.unit.name}: a "
                                       "unit did not resolve"))
            continue
        kind = _kind(a)
        if kind is None:
            res.find("roster-attachment", att.line, f"{lead.unit.name} is attached to {guard.unit.name}, but its "
                     "datasheet has neither the Leader nor the Support ability", expected="a Leader or Support unit",
                     found=lead.unit.name, rule=rule, unit=att.leader, record=a["id"])
            continue
        per_guard[(att.bodyguard, kind)].append(att.leader)
        if len(per_guard[(att.bodyguard, kind)]) == 2:
            res.find("roster-attachment", att.line, f"{guard.unit.name} (line {guard.unit.line}) has two {kind} "
                     f"units attached: {res.units[per_guard[(att.bodyguard, kind)][0]].unit.name} and "
                     f"{lead.unit.name}", expected=f"one {kind} unit", found="two", rule=rule, unit=att.leader,
                     record=a["id"])
        listed = _names(a.get(kind))
        ok = names.key(b["name"]) in listed or (kind == "leader" and names.key(a["name"]) in _names(b.get("led_by")))
        if ok:
            continue
        if lead.enhancements:
            # The Field Manual's leaderTo/supportTo: an enhancement may let its bearer join other units; the
            # records do not carry those lists, so such a pairing is not judged.
            unchecked.append(Unchecked("attachment", att.line, f"{lead.unit.name} attached to {guard.unit.name}: its "
                                       f"enhancement {lead.enhancements[0][0].name} may allow it (the Field Manual's "
                                       "leaderTo/supportTo lists are not in the records)"))
            continue
        can = sorted((a.get(kind) or {}).get("units", []))
        res.find("roster-attachment", att.line, f"{lead.unit.name} ({kind}) cannot be attached to {guard.unit.name}: "
                 f"its {kind.title()} list names " + (", ".join(can) if can else "no unit"),
                 expected=", ".join(can)[:200] or f"a unit its {kind} list names", found=guard.unit.name, rule=rule,
                 unit=att.leader, record=a["id"])


def unattached_support(res: Resolution, m: Muster, size, unchecked: list[Unchecked]) -> None:
    if not m.support_attached:
        return
    attached = {a.leader for a in res.attachments}
    for i, ur in enumerate(res.units):
        rec = ur.datasheet.record
        if rec is None or not rec.get("support") or i in attached or ur.unit.role == "bodyguard":
            continue
        res.find("roster-unattached-support", ur.unit.line, f"{ur.unit.name} is a Support unit not attached to a "
                 "bodyguard unit", expected="attached to one of: " + ", ".join(rec["support"].get("units", []))[:180],
                 found="not attached", rule=m.cites["unattached-support"], unit=i, record=rec["id"])
