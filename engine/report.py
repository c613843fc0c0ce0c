"""Presenting a Result: JSON text, or a readable table with small text histograms."""

from __future__ import annotations

import json

from warscribe.engine.model import Result, Scenario
from warscribe.schema.diagnostics import printable

BAR_WIDTH = 40
SHOW_AT_LEAST = 0.0005  # histogram rows below this probability are folded into the tails


def to_json_text(result: Result) -> str:
    return json.dumps(result.to_json(), indent=2)


def _pct(p: float) -> str:
    return f"{100.0 * p:6.2f}%"


def histogram(title: str, dist: list[float], last_label: str | None = None) -> list[str]:
    """One row per count; tiny tails are folded into '<= a' / '>= b' rows."""
    lo = 0
    while lo < len(dist) - 1 and dist[lo] < SHOW_AT_LEAST:
        lo += 1
    hi = len(dist) - 1
    while hi > lo and dist[hi] < SHOW_AT_LEAST:
        hi -= 1
    rows: list[tuple[str, float]] = []
    if lo > 0:
        rows.append((f"<={lo}", sum(dist[: lo + 1])))
    else:
        rows.append(("0", dist[0]))
    for i in range(lo + 1, hi):
        rows.append((str(i), dist[i]))
    if hi > lo:
        label = last_label if (last_label and hi == len(dist) - 1) else str(hi)
        if hi < len(dist) - 1:
            label = f">={hi}"
        rows.append((label, sum(dist[hi:])))
    peak = max(p for _, p in rows) or 1.0
    width = max(len(label) for label, _ in rows)
    lines = [title]
    for label, p in rows:
        bar = "#" * round(BAR_WIDTH * p / peak)
        lines.append(f"  {label:>{width}}  {_pct(p)}  {bar}")
    return lines


def to_text(result: Result, scenario: Scenario) -> str:
    t = scenario.target
    lines = []
    title = scenario.name or "Scenario"
    lines.append(f"{title}  (ruleset {result.ruleset})")
    inv = f" ({t.invulnerable}+ invulnerable)" if t.invulnerable else ""
    fnp = f", Feel No Pain {t.feel_no_pain}+" if t.feel_no_pain else ""
    fnp += ", Damage halved" if t.damage_halved else ""
    fnp += f", Damage -{t.damage_reduction} (min 1)" if t.damage_reduction else ""
    kw = f", {', '.join(sorted(t.keywords))}" if t.keywords else ""
    if t.kinds:
        attached = ", attached unit" if t.attached else ""
        lines.append(f"Target: {t.models} model(s), T{t.toughness} for wound rolls{attached}{kw}; allocation order:")
        for k in t.kinds:
            inv = f" ({k.invulnerable}+ invulnerable)" if k.invulnerable else ""
            fnp = f", Feel No Pain {k.feel_no_pain}+" if k.feel_no_pain else ""
            fnp += ", Damage halved" if k.damage_halved else ""
            fnp += f", Damage -{k.damage_reduction} (min 1)" if k.damage_reduction else ""
            role = " CHARACTER" if k.character else ""
            lines.append(f"  {k.count} x {k.name}:{role} T{k.toughness} Sv{k.save}+{inv} W{k.wounds}{fnp}")
    else:
        lines.append(f"Target: {t.models} model(s), T{t.toughness} Sv{t.save}+{inv} W{t.wounds}{fnp}{kw}")
    cond = [name for name, on in vars(scenario.conditions).items() if on]
    if cond:
        lines.append(f"Conditions: {', '.join(cond)}")
    lines.append("")
    header = ("Weapon group", "attacks", "hits", "wounds", "unsaved", "damage")
    rows = [
        (f"{g.models} x {g.name}", g.expected_attacks, g.expected_hits, g.expected_wounds, g.expected_unsaved, g.expected_damage)
        for g in result.groups
    ]
    name_w = max(len(header[0]), *(len(r[0]) for r in rows))
    lines.append(f"{header[0]:<{name_w}}" + "".join(f"{h:>9}" for h in header[1:]))
    for r in rows:
        lines.append(f"{r[0]:<{name_w}}" + "".join(f"{x:9.2f}" for x in r[1:]))
    lines.append("(expected values; 'unsaved' counts [DEVASTATING WOUNDS] critical wounds too)")
    lines.append("")
    summary = [
        ("Expected damage inflicted " + ("(until destroyed)" if t.kinds else "(before loss)"), f"{result.expected_damage:.3f}"),
        ("Expected wounds removed", f"{result.expected_wounds_removed:.3f}"),
        ("Expected models slain", f"{result.expected_models_slain:.3f}"),
        ("Probability of destroying the unit", _pct(result.p_wipe).strip()),
    ]
    if result.attacker_mortal_wounds is not None:
        summary.append(("Expected mortal wounds to the attacker ([HAZARDOUS])", f"{result.attacker_mortal_wounds:.3f}"))
    key_w = max(len(k) for k, _ in summary)
    lines.extend(f"{k:<{key_w}}  {v}" for k, v in summary)
    lines.append("")
    if t.kinds:
        name_w = max(len("Model kind"), *(len(m.name) for m in result.by_model))
        lines.append(f"{'Model kind':<{name_w}}  {'models':>6}  {'expected slain':>14}  {'all slain':>9}")
        for m in result.by_model:
            lines.append(f"{m.name:<{name_w}}  {m.count:>6}  {m.expected_models_slain:14.3f}  {_pct(m.p_all_slain):>9}")
        lines.append("")
    lines.extend(histogram("Models slain", result.models_slain))
    lines.append("")
    lines.extend(histogram("Wounds removed", result.wounds_removed))
    if result.effects:
        lines.append("")
        lines.append("Effects applied:")
        for e in result.effects:
            where = f" [{e['group']}]" if e["group"] else ""
            mark = "" if e["applied"] else " (not applied)"
            lines.append(f"  {e['side']}: {e['name']}{where}: {e['change']}{mark}")
    if result.unit:
        lines.append("")
        lines.append("Loadout (what each model fires):")
        for e in result.loadout:
            line = f" ({e['line']})" if e["line"] and e["line"] != e["unit"] else ""
            lines.append(f"  {e['models']} x {e['unit']}{line}: fires {', '.join(e['fires']) or 'nothing'}"
                         f"; carries {', '.join(e['carries'])}")
            lines.extend(f"    choice: {c}" for c in e["choices"])
        lines.append("")
        lines.append(f"Not calculated ({len(result.not_calculated)}):" if result.not_calculated else "Not calculated: none")
        for e in result.not_calculated:
            lines.append(f"  {e['side']}: {e['rule']} ({e['reason']}): {e['sentence']}")
    for note in result.notes:
        lines.append(f"note: {note}")
    # Names come from scenario files and the knowledge base: no control character reaches the terminal.
    return "\n".join(printable(line) for line in lines)
