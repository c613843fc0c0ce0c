"""`warscribe roster` output: text for a terminal, JSON for programs (``schema/roster.schema.json``).

Everything a list says is untrusted: in text it is escaped (``printable``) before it
reaches the terminal; JSON escapes control characters itself.
"""

from __future__ import annotations

import json

from warscribe.roster.examine import Result
from warscribe.roster.muster import as_dict as muster_dict
from warscribe.roster.resolve import Match
from warscribe.schema.diagnostics import printable

SCHEMA_VERSION = 1
FORMAT_NAMES = {"gw-app": "Warhammer 40,000 app text export", "newrecruit-text": "New Recruit text (+++ header)",
                "newrecruit-simple": "New Recruit simple text", "battlescribe": "BattleScribe roster"}


def _named(n) -> dict | None:
    return {"name": n.name, "line": n.line} if n is not None else None


def _match(m: Match | None) -> dict | None:
    return m.as_dict() if m is not None else None


def roster_dict(result: Result) -> dict:
    r, res, prices = result.roster, result.resolution, result.prices
    units = []
    for i, unit in enumerate(r.units):
        ur = res.units[i] if res else None
        enhancements = []
        for k, enh in enumerate(unit.enhancements):
            m = ur.enhancements[k][1] if ur and k < len(ur.enhancements) else None
            enhancements.append({"name": enh.name, "line": enh.line, "declared_points": enh.points,
                                 "upgrade": enh.upgrade, "labelled": enh.explicit, "resolved": _match(m)})
        units.append({
            "index": i, "line": unit.line, "last_line": unit.last_line, "name": unit.name,
            "declared_points": unit.points, "models": ur.models if ur else unit.models,
            "models_inferred": bool(ur and ur.models_inferred), "section": unit.section,
            "allied": unit.allied, "outside_faction": bool(ur and ur.outside), "warlord": unit.warlord,
            "group": unit.group, "role": unit.role, "label": unit.label,
            "model_lines": [{"name": m.name, "line": m.line, "count": m.count, "wargear": m.wargear}
                            for m in unit.model_lines],
            "wargear": [w.name for w in unit.wargear],
            "datasheet": _match(ur.datasheet) if ur else None,
            "enhancements": enhancements,
            "raw": unit.raw,
        })
    out = {
        "file": r.file,
        "format": {"name": r.format or None, "variant": r.variant or None, "detected_by": r.detected_by or None,
                   "evidence": r.detection or None},
        "language": r.language,
        "edition": {"ruleset": res.ruleset if res else r.edition, "evidence": result.edition_evidence or r.edition_evidence},
        "knowledge_base": res.kb.origin if res and res.kb else None,
        "name": r.name, "declared_total": r.declared_total,
        "battle_size": ({"name": r.battle_size.name, "line": r.battle_size.line, "points_limit": r.points_limit}
                        if r.battle_size else ({"name": None, "line": None, "points_limit": r.points_limit}
                                               if r.points_limit else None)),
        "factions": [_match(m) for m in res.factions] if res else [_named(f) for f in r.factions],
        "army": sorted(res.army) if res else [],
        "army_evidence": res.faction_evidence if res else "",
        "detachments": [dict(_match(m), points=_points_of(r, m), **_manual(m)) for m in res.detachments] if res
        else [{"name": d.name, "line": d.line, "points": d.points} for d in r.detachments],
        "dispositions": [_named(d) for d in r.dispositions],
        "units": units,
        "attachments": [{"leader": a.leader, "bodyguard": a.bodyguard, "role": a.role, "line": a.line}
                        for a in (res.attachments if res else [])],
        "repricing": prices.as_dict() if prices else None,
        "findings": [f.as_dict() for f in sorted(result.findings, key=lambda f: (f.diagnostic.line, f.diagnostic.code))],
        "unchecked": [u.as_dict() for u in result.unchecked],
        "notes": [_named(n) for n in r.notes],
        "lines": {"total": r.lines, "classified": dict(sorted(r.classified.items()))},
        "app_version": r.app_version, "data_version": r.data_version,
        "errors": result.errors, "warnings": result.warnings,
    }
    if result.changes is not None:
        out["since"] = result.changes.as_dict()
    if result.edition is not None and result.edition.muster is not None:
        out["muster"] = muster_dict(result.edition.muster)
    return out


def _manual(m: Match) -> dict:
    """11e: what the records (the Field Manual) say of a detachment: its DP, Force Disposition, unique tag."""
    rec = m.record or {}
    return {k: rec[k] for k in ("detachment_points", "force_disposition", "unique") if k in rec}


def _points_of(roster, m: Match) -> int | None:
    for d in roster.detachments:
        if d.line == m.line:
            return d.points
    return None


def as_json(results: list[Result]) -> str:
    doc = {"version": SCHEMA_VERSION, "rosters": [roster_dict(r) for r in results],
           "summary": {"rosters": len(results), "errors": sum(r.errors for r in results),
                       "warnings": sum(r.warnings for r in results)}}
    return json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n"


def _p(text) -> str:
    return printable(str(text), 200)


def render_text(result: Result) -> str:
    r, res, prices = result.roster, result.resolution, result.prices
    out = []
    fmt = FORMAT_NAMES.get(r.format, r.format or "unknown format")
    head = f"{_p(r.file)}: {fmt}" + (f" ({r.variant})" if r.variant else "")
    if r.detected_by:
        head += f", recognised by its {r.detected_by}: {_p(r.detection)}"
    out.append(head)
    if res is None:
        for f in result.findings:
            out.append("  " + f.diagnostic.render().replace("\n", "\n  "))
        return "\n".join(out)
    out.append(f"  edition {res.ruleset} ({_p(result.edition_evidence)}); knowledge base {_p(res.kb.origin)}")
    army = " / ".join(sorted(res.army)) or "faction not resolved"
    dets = ", ".join(_p(m.record["name"] if m.record else m.name) for m in res.detachments) or "no detachment"
    size = f"{_p(r.battle_size.name)} ({r.points_limit})" if r.battle_size else (str(r.points_limit or "no battle size"))
    out.append(f"  {_p(r.name or '(untitled)')}: {_p(army)}; {dets}; {size}")
    out.append(f"  {'line':>5}  {'unit':<40} {'models':>6} {'declared':>8} {'now':>5}  resolved as")
    attached = {a.leader: a for a in res.attachments}
    for p, ur in zip(prices.units, res.units):
        name = ur.unit.name + (" (Warlord)" if ur.unit.warlord else "")
        models = "" if ur.models is None else f"{ur.models}{'?' if ur.models_inferred else ''}"
        kb = "-" if p.kb is None else str(p.kb)
        changed = "" if p.delta in (None, 0) else f" ({p.delta:+d})"
        m = ur.datasheet
        how = m.record["id"] if m.record else ("AMBIGUOUS" if m.via == "ambiguous" else "UNRESOLVED")
        if m.alias:
            how += f" (was {m.name})"
        if p.threshold:
            how += f" (selection {p.copy}: the {p.threshold}+ price)"
        if p.wargear:
            how += f" (+{p.wargear} wargear)"
        out.append(f"  {ur.unit.line:>5}  {_p(name)[:40]:<40} {models:>6} {'' if p.declared is None else p.declared:>8} "
                   f"{kb:>5}  {_p(how)}{changed}")
        for enh, em in ur.enhancements:
            got = em.record["id"] if em.record else em.via.upper()
            out.append(f"  {enh.line:>5}    + {_p(enh.name)[:38]:<38} {'':>6} {'':>8} "
                       f"{'' if em.record is None else em.record.get('points', ''):>5}  {_p(got)}")
        if p.unit in attached:
            a = attached[p.unit]
            out.append(f"  {a.line:>5}    {a.role} of {_p(res.units[a.bodyguard].unit.name)} "
                       f"(line {res.units[a.bodyguard].unit.line})")
    if any(ur.models_inferred for ur in res.units):
        out.append("  ? models: the list prints no model count; the datasheet's smallest size is assumed")
    total = f"  total: declared {prices.declared_total if prices.declared_total is not None else '-'}"
    if prices.declared_sum is not None and prices.declared_sum != prices.declared_total:
        total += f" (its units add up to {prices.declared_sum})"
    if prices.kb_total is not None:
        base = prices.declared_sum if prices.declared_sum is not None else prices.declared_total
        total += f"; now {prices.kb_total}" + (f" ({prices.kb_total - base:+d})" if base is not None else "")
    else:
        total += f"; {prices.unpriced} unit(s) not priced"
    out.append(total)
    findings = sorted(result.findings, key=lambda f: (f.diagnostic.line, f.diagnostic.code))
    if findings:
        out.append(f"  {result.errors} error(s), {result.warnings} warning(s):")
        for f in findings:
            text = "    " + f.diagnostic.render().replace("\n", "\n    ")
            if f.rule:
                text += f"\n        rule:     {_p(f.rule)}"
            out.append(text)
    else:
        out.append("  no findings")
    if result.unchecked:
        out.append(f"  not checked ({len(result.unchecked)}):")
        for u in result.unchecked:
            out.append(f"    line {u.line}: {u.check}: {_p(u.reason)}")
    if result.edition is not None and result.edition.muster is not None:
        m = result.edition.muster
        sizes = "; ".join(f"{s.name} {s.points} pts, {s.dp} DP, {s.enhancements} enhancements, {s.units} per "
                          "datasheet" for s in m.sizes.values())
        out.append(f"  muster rules read from the knowledge base: {_p(sizes) or 'none'}")
        for d in m.disagreements:
            out.append(f"    sources disagree on {_p(d['what'])}: " + "; ".join(
                f"{_p(v['value'])} in {_p(v['record'])} ({_p(', '.join(v['sources'][:3]))})"
                + (f", {_p(v['note'])}" if v.get("note") else "") for v in d["values"]))
    if result.changes is not None:
        out += _changes_text(result.changes)
    return "\n".join(out)


def _changes_text(ch) -> list[str]:
    out = [f"  since {_p(ch.old)}: {ch.old_total if ch.old_total is not None else '-'} -> "
           f"{ch.new_total if ch.new_total is not None else '-'} points"]
    for u in ch.units:
        if u["old"] != u["new"] or u["old_id"] != u["new_id"]:
            out.append(f"    line {u['line']}: {_p(u['name'])}: {u['old']} -> {u['new']}"
                       + (f" ({_p(u['old_id'])} -> {_p(u['new_id'])})" if u["old_id"] != u["new_id"] else ""))
    seen = set()
    for u in ch.units:
        if u.get("tiers") and u["new_id"] not in seen:
            seen.add(u["new_id"])
            out.append(f"    {_p(u['name'])}: " + ", ".join(
                f"{t['models']} model{'s' if t['models'] != 1 else ''}" + (f" from selection {t['from_copy']} on" if t["from_copy"] > 1 else "")
                + f" {t['old'] if t['old'] is not None else '-'} -> {t['new'] if t['new'] is not None else '-'}"
                for t in u["tiers"]))
    for rec in ch.records:
        if rec.old_id is None:
            out.append(f"    {_p(rec.id)}: not in the old build")
            continue
        if rec.new_id is None:
            out.append(f"    {_p(rec.id)}: not in the new build")
            continue
        paths = ", ".join(sorted({f.path.split('[')[0].split('.')[0] for f in rec.fields}))
        out.append(f"    {_p(rec.id)}: {len(rec.fields)} field change(s) ({_p(paths)})")
    return out
