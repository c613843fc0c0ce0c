"""The list against its edition's muster rules and the knowledge base's records.

One function per rule of ``rules.yaml``; each finding names the line of the list, a
code of the diagnostics vocabulary and the rule's citation. A check the records cannot
support (an enhancement without a detachment, a datasheet without a composition) is
not guessed: it is listed as unchecked, with the reason, so a reader sees what the
verdict rests on.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from warscribe.roster import gains, names
from warscribe.roster.model import Unchecked
from warscribe.roster.reprice import Repricing
from warscribe.roster.resolve import Resolution
from warscribe.roster.rules import Edition
from warscribe.schema.keywords import has_keyword, matches, unit_keywords


def run(res: Resolution, prices: Repricing, edition: Edition) -> list[Unchecked]:
    unchecked: list[Unchecked] = []
    size = edition.size_name(res.roster.battle_size.name if res.roster.battle_size else None, res.roster.points_limit)
    if edition.muster is not None:
        from warscribe.roster import check11

        needs = {points_limit: "points-limit", enhancements: "enhancements", warlord: "warlord"}
        for check in (points, total, points_limit, unit_size, enhancements, warlord, faction):
            if needs.get(check, "points") not in edition.rules:
                unchecked.append(Unchecked(needs[check], res.roster.title_line or 1, "the rule is not in the "
                                           "knowledge base's core rules (see roster-muster-rules)"))
                continue
            check(res, prices, edition, size, unchecked)
        check11.run(res, prices, edition, size, unchecked)
        return unchecked
    for check in (points, total, points_limit, unit_size, datasheet_limit, enhancements, leaders, warlord,
                  detachment_points, faction):
        check(res, prices, edition, size, unchecked)
    return unchecked


def _keywords(rec: dict | None) -> set[str]:
    return set(unit_keywords(rec)) if rec else set()


def points(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("points").text()
    for p in prices.units:
        ur = res.units[p.unit]
        if ur.datasheet.record is None:
            continue
        if p.datasheet is None:
            res.find("roster-unpriced", p.line, f"{p.name}: the knowledge base gives no points for "
                     f"{ur.datasheet.record['id']}", expected="points for the unit's size", found="none",
                     rule=rule, unit=p.unit, record=ur.datasheet.record["id"])
            continue
        if p.delta and p.copy is not None and _manual_finding(res, p, ur, edition, prices):
            pass
        elif p.delta:
            parts = f"{p.datasheet} for {p.tier} model{'s' if p.tier != 1 else ''}"
            if p.threshold:
                parts += f" as selection {p.copy} (from the {_nth(p.threshold)} on)"
            if p.wargear:
                parts += f" + wargear {p.wargear}"
            for enh, m in ur.enhancements:
                if m.record is not None:
                    parts += f" + {m.record['name']} {m.record['points']}"
            res.find("roster-points", p.line, f"{p.name}: declared {p.declared} -> {p.kb} in the knowledge base "
                     f"({parts})", expected=str(p.kb), found=str(p.declared), rule=rule, unit=p.unit,
                     record=ur.datasheet.record["id"])
        for enh, m in ur.enhancements:
            if enh.points is not None and m.record is not None and m.record.get("points") != enh.points:
                res.find("roster-points", enh.line, f"enhancement {enh.name}: declared +{enh.points} -> "
                         f"+{m.record.get('points')} in the knowledge base", expected=str(m.record.get("points")),
                         found=str(enh.points), rule=rule, unit=p.unit, record=m.record["id"])


def _nth(n: int) -> str:
    return f"{n}{'st' if n % 10 == 1 and n != 11 else 'nd' if n % 10 == 2 and n != 12 else 'rd' if n % 10 == 3 and n != 13 else 'th'}"


def _manual_finding(res: Resolution, p, ur, edition: Edition, prices: Repricing) -> bool:
    """11e: a unit priced below its cost for one of the Field Manual's two reasons; False when neither explains it.

    Requisition: the list pays what an earlier selection would (the threshold's tier is skipped).
    Starting strength: the list pays the listed size below the unit's (the next size up is due).
    """
    from warscribe.roster.reprice import manual_points

    if p.declared is None or p.kb is None or p.declared >= p.kb:
        return False
    rec = ur.datasheet.record
    extras = p.kb - p.datasheet  # enhancements and wargear, as re-priced
    paid = p.declared - extras
    models = ur.models
    if p.threshold:
        first, _size, _t, _n = manual_points(rec, models, 1, res.army)
        # Priced as an earlier selection: at most the first selection's price, or no more than an earlier
        # copy of the same size declares (a list priced with older points keeps that tell).
        earlier = [q for q in prices.units if q.copy is not None and q.copy < p.copy and q.models == p.models
                   and res.units[q.unit].datasheet.record is rec and q.declared is not None
                   and q.declared - (q.kb - q.datasheet) >= paid]
        if (first is not None and paid <= first) or earlier:
            res.find("roster-requisition", p.line, f"{p.name} is selection {p.copy} of its datasheet; from the "
                     f"{_nth(p.threshold)} on it costs {p.datasheet} for {p.tier} models, but the list pays "
                     f"{paid}" + (f" (+{extras} enhancement/wargear)" if extras else ""),
                     expected=str(p.kb), found=str(p.declared), rule=edition.rule("requisition"), unit=p.unit,
                     record=rec["id"])
            return True
    if models is not None and p.tier is not None and models < p.tier:
        entries = [e for e in rec.get("points", []) if (e.get("from_copy") or None) == p.threshold
                   and not e.get("condition")]
        lower = [e for e in entries if e["models"] < models]
        if lower:  # between two listed sizes and paying less than the next one up
            below = max(lower, key=lambda e: e["models"])
            res.find("roster-starting-strength", p.line, f"{p.name} has {models} models, between the listed sizes "
                     f"{below['models']} ({below['points']}) and {p.tier} ({p.datasheet}); it pays the next size up, "
                     f"but the list pays {paid}" + (f" (+{extras} enhancement/wargear)" if extras else ""),
                     expected=str(p.kb), found=str(p.declared), rule=edition.rule("starting-strength"), unit=p.unit,
                     record=rec["id"])
            return True
    return False


def total(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    roster = res.roster
    line = roster.total_line or roster.title_line or 1
    rule = edition.rule("points").text()
    if prices.declared_total is not None and prices.declared_sum is not None \
            and prices.declared_total != prices.declared_sum:
        res.find("roster-total", line, f"the list declares {prices.declared_total} points; its units' declared points "
                 f"add up to {prices.declared_sum}", expected=str(prices.declared_sum),
                 found=str(prices.declared_total), rule=rule)
    if prices.kb_total is not None and prices.declared_sum is not None and prices.kb_total != prices.declared_sum:
        res.find("roster-total", line, f"re-priced: {prices.declared_sum} -> {prices.kb_total} points "
                 f"({prices.kb_total - prices.declared_sum:+d})", expected=str(prices.kb_total),
                 found=str(prices.declared_sum), rule=rule)
    if prices.unpriced:
        unchecked.append(Unchecked("points", line, f"{prices.unpriced} unit(s) could not be priced from the "
                                   "knowledge base; the re-priced total is not given"))


def points_limit(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    roster = res.roster
    limit = roster.points_limit or (edition.battle_sizes.get(size) if size else None)
    line = roster.battle_size.line if roster.battle_size else (roster.total_line or 1)
    if limit is None:
        unchecked.append(Unchecked("points-limit", line, "the list names no battle size"))
        return
    rule = edition.rule("points-limit").text()
    # Re-priced where every unit could be; else what the list declares.
    if prices.kb_total is not None:
        cost, how = prices.kb_total, "re-priced"
    elif prices.declared_sum is not None:
        cost, how = prices.declared_sum, "as declared"
    else:
        cost, how = prices.declared_total, "as the list's total"
    if cost is not None and cost > limit:
        named = f"{roster.battle_size.name} limit" if roster.battle_size else "battle size's limit"
        res.find("roster-points-limit", line, f"the army costs {cost} points ({how}), over the {named} of {limit}",
                 expected=f"at most {limit}", found=str(cost), rule=rule)


def unit_size(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("unit-size").text()
    for i, ur in enumerate(res.units):
        rec = ur.datasheet.record
        if rec is None or ur.models is None or ur.models_inferred:
            continue
        comp = rec.get("composition") or []
        if not comp:
            unchecked.append(Unchecked("unit-size", ur.unit.line, f"{rec['id']} has no unit composition in the "
                                       "knowledge base"))
            continue
        low, high = sum(c["min"] for c in comp), sum(c["max"] for c in comp)
        if not low <= ur.models <= high:
            shown = ", ".join(f"{c['min']}-{c['max']} {c['name']}" if c["min"] != c["max"] else f"{c['min']} {c['name']}"
                              for c in comp)
            res.find("roster-unit-size", ur.unit.line, f"{ur.unit.name} has {ur.models} models; its datasheet allows "
                     f"{low}-{high} ({shown})" if low != high else f"{ur.unit.name} has {ur.models} models; its "
                     f"datasheet allows {low} ({shown})", expected=f"{low}-{high} models" if low != high else
                     f"{low} models", found=f"{ur.models} models", rule=rule, unit=i, record=rec["id"])


def datasheet_limit(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("datasheet-limit").text()
    seen: dict[str, list[int]] = defaultdict(list)
    for i, ur in enumerate(res.units):
        if ur.datasheet.record is not None:
            seen[ur.datasheet.record["id"]].append(i)
    for rid, units in seen.items():
        rec = res.kb.get(rid)
        most, what = edition.datasheet_max(_keywords(rec), size)
        if len(units) > most:
            extra = units[most]
            res.find("roster-datasheet-limit", res.units[extra].unit.line,
                     f"{len(units)} units of {rec['name']}; {what} may be taken {most} time{'s' if most != 1 else ''}",
                     expected=f"at most {most}", found=f"{len(units)} (lines "
                     f"{', '.join(str(res.units[u].unit.line) for u in units)})", rule=rule, unit=extra, record=rid)


def enhancements(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("enhancements")
    chosen = [m.record for m in res.detachments if m.record is not None]
    chosen_ids = {d["id"] for d in chosen}
    listed = set().union(*(set(d.get("enhancements", [])) for d in chosen)) if chosen else set()
    taken: dict[str, list[tuple[int, int]]] = defaultdict(list)  # enhancement id -> (unit, line)
    count = 0
    rules = edition.enhancements
    army_gains = gains.read(res.kb, res.army) if res.kb is not None else []
    for i, ur in enumerate(res.units):
        ds = ur.datasheet.record
        resolved = [(e, m) for e, m in ur.enhancements if m.record is not None]
        count += len(ur.enhancements)
        if edition.muster is None and len(ur.enhancements) > rules["per_unit"]:
            res.find("roster-enhancement-count", ur.enhancements[rules["per_unit"]][0].line,
                     f"{ur.unit.name} has {len(ur.enhancements)} enhancements", expected=f"at most {rules['per_unit']}",
                     found=", ".join(e.name for e, _ in ur.enhancements), rule=rule, unit=i)
        for enh, m in resolved:
            rec = m.record
            if not enh.upgrade:
                taken[rec["id"]].append((i, enh.line))
            # -- the detachment
            if not chosen:
                unchecked.append(Unchecked("enhancements", enh.line, f"{enh.name}: the army's detachment did not "
                                           "resolve; membership not checked"))
            elif rec.get("detachment") in chosen_ids or rec["id"] in listed:
                pass
            elif rec.get("detachment") is None and not listed:
                unchecked.append(Unchecked("enhancements", enh.line, f"{enh.name}: the knowledge base joins it to no "
                                           f"detachment, and {', '.join(d['name'] for d in chosen)} lists no "
                                           "enhancements; membership not checked"))
            else:
                owner = res.kb.get(rec.get("detachment") or "")
                res.find("roster-enhancement-detachment", enh.line, f"{enh.name} is an enhancement of "
                         f"{owner['name'] if owner else 'another detachment'}, not of the army's "
                         f"{' / '.join(d['name'] for d in chosen)}", expected=" / ".join(d["name"] for d in chosen),
                         found=owner["name"] if owner else "another detachment", rule=rule, unit=i, record=rec["id"])
            # -- the bearer
            if ds is None:
                continue
            kws = _keywords(ds)
            upgrade = enh.upgrade or bool(rec.get("upgrade"))
            # 11e: an Upgrade goes on any unit its restriction allows, CHARACTER or not (25.04).
            if not upgrade and rules["bearer"] and not has_keyword(kws, rules["bearer"]):
                res.find("roster-enhancement-bearer", enh.line, f"{enh.name} is on {ur.unit.name}, which is not a "
                         f"{rules['bearer']}", expected=f"a {rules['bearer']} unit", found=", ".join(sorted(kws))[:100],
                         rule=rule, unit=i, record=rec["id"])
                continue
            excluded = [] if upgrade else [k for k in rules["excluded"] if has_keyword(kws, k)]
            if excluded:
                res.find("roster-enhancement-bearer", enh.line, f"{enh.name} is on {ur.unit.name}, an {excluded[0]}",
                         expected=f"a {rules['bearer']} that is not an {excluded[0]}", found=ur.unit.name, rule=rule,
                         unit=i, record=rec["id"])
                continue
            bearers = rec.get("bearers") or []
            # A keyword the army's rules give the unit (a Land Speeder drawn into a Dark Angels army is
            # RAVENWING): the build's bearers were found from the datasheets' own keywords.
            more = gains.gained(army_gains, kws) - kws
            expr = rec.get("restriction_keywords")
            if bearers:
                ok = ds["id"] in bearers or bool(more and expr is not None and matches(expr, kws | more))
            elif expr is not None:
                ok = matches(expr, kws | more)
            else:
                if rec.get("restriction"):
                    unchecked.append(Unchecked("enhancements", enh.line, f"{enh.name}: its restriction "
                                               f"({rec['restriction'][:60]!r}) is not compiled to keywords in the "
                                               "knowledge base"))
                ok = True
            if not ok:
                res.find("roster-enhancement-bearer", enh.line, f"{ur.unit.name} may not take {enh.name}"
                         + (f" ({rec['restriction']})" if rec.get("restriction") else ""),
                         expected=rec.get("restriction") or "a datasheet of its bearers", found=ur.unit.name,
                         rule=rule, unit=i, record=rec["id"])
    if edition.muster is not None:
        return  # 11e: the limits are check11's (attached units, Upgrades)
    for rid, where in taken.items():
        if len(where) > 1:
            unit, line = where[1]
            res.find("roster-enhancement-count", line, f"{res.kb.get(rid)['name']} is taken {len(where)} times",
                     expected="each enhancement once", found=f"lines {', '.join(str(w[1]) for w in where)}",
                     rule=rule, unit=unit, record=rid)
    most = edition.enhancement_max(size)
    if count > most:
        lines = [e.line for ur in res.units for e, _m in ur.enhancements]
        res.find("roster-enhancement-count", lines[most], f"the army has {count} enhancements"
                 + (f" at {size}" if size else ""), expected=f"at most {most}", found=str(count), rule=rule)


def _can_lead(leader: dict, bodyguard: dict) -> bool:
    units = {names.key(u) for u in (leader.get("leader") or {}).get("units", [])}
    led_by = {names.key(u) for u in (bodyguard.get("led_by") or {}).get("units", [])}
    return names.key(bodyguard["name"]) in units or names.key(leader["name"]) in led_by


def leaders(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("leader").text()
    per_guard: Counter = Counter()
    for att in res.attachments:
        lead, guard = res.units[att.leader], res.units[att.bodyguard]
        per_guard[(att.bodyguard, att.role)] += 1
        if per_guard[(att.bodyguard, att.role)] == 2:
            res.find("roster-leader", att.line, f"{guard.unit.name} (line {guard.unit.line}) has more than one "
                     f"{att.role} attached", expected=f"one {att.role} unit", found=f"{lead.unit.name} and another",
                     rule=rule, unit=att.leader)
        a, b = lead.datasheet.record, guard.datasheet.record
        if a is None or b is None:
            unchecked.append(Unchecked("leader", att.line, f"{lead.unit.name} attached to {guard.unit.name}: "
                                       "a unit did not resolve"))
            continue
        if not _can_lead(a, b):
            can = (a.get("leader") or {}).get("units", [])
            res.find("roster-leader", att.line, f"{lead.unit.name} cannot be attached to {guard.unit.name}: its "
                     "datasheet " + (f"leads {', '.join(can)}" if can else "lists no units it can lead"),
                     expected=", ".join(can) or "a unit its datasheet lists", found=guard.unit.name, rule=rule,
                     unit=att.leader, record=a["id"])


def warlord(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("warlord").text()
    roster = res.roster
    chosen = [i for i, ur in enumerate(res.units) if ur.unit.warlord]
    if not chosen and roster.header_warlord is not None:
        want = names.key(roster.header_warlord.name)
        chosen = [i for i, ur in enumerate(res.units) if names.key(ur.unit.name) == want][:1]
    if not chosen:
        if roster.units:
            res.find("roster-warlord", roster.title_line or 1, "the army has no Warlord",
                     expected="one CHARACTER marked Warlord", found="none", rule=rule)
        return
    for extra in chosen[edition.warlord["count"]:]:
        res.find("roster-warlord", res.units[extra].unit.line, f"{res.units[extra].unit.name} is a second Warlord",
                 expected="one Warlord", found=f"{len(chosen)} Warlords", rule=rule, unit=extra)
    for i in chosen[:edition.warlord["count"]]:
        rec = res.units[i].datasheet.record
        if rec is not None and edition.warlord["keyword"] and not has_keyword(_keywords(rec), edition.warlord["keyword"]):
            res.find("roster-warlord", res.units[i].unit.line, f"the Warlord {res.units[i].unit.name} is not a "
                     f"{edition.warlord['keyword']}", expected=f"a {edition.warlord['keyword']}",
                     found=res.units[i].unit.name, rule=rule, unit=i, record=rec["id"])


def detachment_points(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    table = edition.detachment_points
    if not table:
        return
    declared = [d for d in res.roster.detachments if d.points is not None]
    line = res.roster.detachments[0].line if res.roster.detachments else 1
    if not declared:
        unchecked.append(Unchecked("detachment-points", line, "the list declares no detachment points, and the "
                                   "knowledge base's detachments carry none"))
        return
    spent = sum(d.points for d in declared)
    allowed = table.get(size) if size else None
    if allowed is None:
        unchecked.append(Unchecked("detachment-points", line, "the battle size is unknown"))
        return
    if spent > allowed:
        res.find("roster-detachment-points", declared[0].line, f"the detachments cost {spent} detachment points; "
                 f"{size} allows {allowed}", expected=f"at most {allowed}", found=str(spent),
                 rule=edition.rule("detachment-points").text())
    unchecked.append(Unchecked("detachment-points", line, "each detachment's cost is the list's own: the knowledge "
                               "base's detachments carry no detachment points"))


def faction(res: Resolution, prices: Repricing, edition: Edition, size, unchecked: list[Unchecked]) -> None:
    rule = edition.rule("faction").text()
    for i, ur in enumerate(res.units):
        if ur.outside and not ur.unit.allied:
            rec = ur.datasheet.record
            res.find("roster-outside-faction", ur.unit.line, f"{ur.unit.name} is a {res.index.faction_of(rec)} "
                     f"datasheet, not of the army's {' / '.join(sorted(res.army))}", expected=" / ".join(sorted(res.army)),
                     found=res.index.faction_of(rec) or "", rule=rule, unit=i, record=rec["id"])
