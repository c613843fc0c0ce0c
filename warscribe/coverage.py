"""`warscribe effects`: how much of the knowledge base's rules text compiled into effects.

For each kind of record that carries effects (stratagems, enhancements, abilities,
detachment rules, datasheet abilities, headingless rule passages): how many sentences
compiled, how many are abilities the engine applies itself (native), how many are
uncompiled, split into those that speak of the attack sequence and the rest; then the
uncompiled sentences themselves, attack-relevant ones first.
"""

from __future__ import annotations

import sys
from pathlib import Path

from warscribe.schema.bundle import BundleError, load
from warscribe.schema.text import json_text, printable

# (report label, record kind, where its effects live)
KINDS = (
    ("stratagem", "stratagem", lambda r: [(r["id"], r.get("effects"))]),
    ("detachment rule", "detachment", lambda r: [(r["id"], (r.get("rule") or {}).get("effects"))]
     + [(f"{r['id']}#{x['name']}", x.get("effects")) for x in r.get("additional_rules", [])]),
    ("enhancement", "enhancement", lambda r: [(r["id"], r.get("effects"))]),
    ("ability", "ability", lambda r: [(r["id"], r.get("effects"))]),
    ("datasheet ability", "datasheet", lambda r: [(f"{r['id']}#{a['name']}", a.get("effects")) for a in r.get("abilities", [])]),
    ("rule (headingless)", "rule", lambda r: [(r["id"], r.get("effects"))]),
)


def coverage(bundle) -> dict:
    """Counts per kind and the uncompiled sentences, as a JSON-ready dict."""
    kinds: dict[str, dict] = {}
    uncompiled: list[dict] = []
    for label, kind, effects_of in KINDS:
        counts = {"records": 0, "sentences": 0, "compiled": 0, "native": 0,
                  "uncompiled_attack": 0, "uncompiled_other": 0}
        for rec in bundle.kind(kind):
            for owner, effects in effects_of(rec):
                if effects is None:
                    continue
                counts["records"] += 1
                for e in effects:
                    counts["sentences"] += 1
                    if e["status"] == "uncompiled":
                        relevant = e.get("attack_relevant", False)
                        counts["uncompiled_attack" if relevant else "uncompiled_other"] += 1
                        uncompiled.append({"kind": label, "record": owner, "attack_relevant": relevant, "text": e["text"]})
                    else:
                        counts[e["status"]] += 1
        kinds[label] = counts
    total = {k: sum(c[k] for c in kinds.values()) for k in next(iter(kinds.values()))}
    uncompiled.sort(key=lambda u: (not u["attack_relevant"], u["kind"], u["record"]))
    return {"kinds": kinds, "total": total, "uncompiled": uncompiled}


def _share(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f}%" if whole else "    -"


def to_text(report: dict, show_all: bool) -> str:
    header = f"{'kind':<20}{'records':>8}{'sentences':>10}{'compiled':>9}{'native':>7}{'uncompiled':>11}{'(attack)':>9}  attack coverage"
    lines = [header]
    for label, c in list(report["kinds"].items()) + [("total", report["total"])]:
        relevant = c["compiled"] + c["native"] + c["uncompiled_attack"]
        lines.append(f"{label:<20}{c['records']:>8}{c['sentences']:>10}{c['compiled']:>9}{c['native']:>7}"
                     f"{c['uncompiled_attack'] + c['uncompiled_other']:>11}{c['uncompiled_attack']:>9}  "
                     f"{_share(c['compiled'] + c['native'], relevant)}")
    lines.append("(attack coverage: compiled or native among the sentences that speak of the attack sequence)")
    shown = [u for u in report["uncompiled"] if show_all or u["attack_relevant"]]
    if shown:
        lines.append("")
        lines.append("Uncompiled sentences" + ("" if show_all else " about the attack sequence (--all lists every one)") + ":")
        for u in shown:
            flag = "attack" if u["attack_relevant"] else "other "
            text = printable(u["text"].replace("\n", " "))
            lines.append(f"  [{flag}] {printable(u['record'])}: {text}")
    return "\n".join(lines)


def run_effects(kb: str, as_json: bool, show_all: bool) -> int:
    try:
        bundle = load(Path(kb))
    except BundleError as exc:
        print(f"error: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    report = coverage(bundle)
    print(json_text(report) if as_json else to_text(report, show_all))
    return 0
