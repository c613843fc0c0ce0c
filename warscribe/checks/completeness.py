"""What the build lacks: enhancements, detachment rules and stratagems without text; unaccounted lines."""

from __future__ import annotations

from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.diagnostics import Diagnostic


def run(ctx: Context) -> Iterator[Diagnostic]:
    b = ctx.bundle
    for e in b.kind("enhancement"):
        if not (e.get("text") or "").strip():
            yield ctx.finding("enhancement-without-text", f"enhancement {e['name']} has no rules text",
                              e, snippet=e["name"], expected="its rules text (a source that prints it)")
    for d in b.kind("detachment"):
        rule = d.get("rule")
        if rule is None:
            yield ctx.finding("missing-detachment-rule", f"detachment {d['name']} has no detachment rule",
                              d, snippet=d["name"], expected="its detachment rule")
        elif not (rule.get("text") or "").strip():
            yield ctx.finding("detachment-rule-without-text", f"detachment rule {rule.get('name')} of "
                              f"{d['name']} has no text", d, snippet=rule.get("name", ""), expected="its text")
    for s in b.kind("stratagem"):
        if not any((s.get(f) or "").strip() for f in ("when", "target", "effect")):
            yield ctx.finding("stratagem-without-text", f"stratagem {s['name']} is listed without its full text",
                              s, snippet=s["name"], expected="WHEN, TARGET and EFFECT")
    for file, acc in sorted(((ctx.report or {}).get("sources") or {}).items()):
        if isinstance(acc, dict) and acc.get("unaccounted"):
            yield ctx.finding("unaccounted-lines", f"{acc['unaccounted']} of {acc.get('lines', '?')} lines of this "
                              "source are used by no record and classified by no rule", file=file, line=0,
                              expected="0 unaccounted lines", found=str(acc["unaccounted"]))
