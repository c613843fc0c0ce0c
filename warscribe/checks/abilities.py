"""Weapon abilities: ones the lexicon does not know, parameters missing, rules the build lacks."""

from __future__ import annotations

from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.abilities import ABILITIES, canonical_text
from warscribe.schema.diagnostics import Diagnostic

_NEEDS = {"value": ("value",), "anti": ("keyword", "threshold")}


def run(ctx: Context) -> Iterator[Diagnostic]:
    rules = {(r["ruleset"], r["ability_id"]) for r in ctx.bundle.kind("ability") if r.get("ability_id")}
    for weapon in ctx.bundle.kind("weapon"):
        for ab in weapon.get("abilities") or []:
            written = ab.get("text") or ab.get("name") or ab.get("id", "")
            if ab.get("id") not in ABILITIES:
                if ab.get("id") == "custom" and ctx.bundle.named(ab.get("name", ""), "ability", weapon["ruleset"]):
                    continue  # a weapon-specific rule whose text the build holds
                yield ctx.finding("unknown-weapon-ability",
                                  f"weapon ability '{written}' is not in the ability lexicon, and no "
                                  f"{weapon['ruleset']} ability record of that name gives its rule",
                                  weapon, snippet=written, expected="one of " + ", ".join(
                                      name for name, _ in ABILITIES.values()))
                continue
            name, kind = ABILITIES[ab["id"]]
            missing = [p for p in _NEEDS.get(kind, ()) if ab.get(p) in (None, "")]
            if missing:
                yield ctx.finding("missing-parameter", f"[{name}] on {weapon['name']} lacks its "
                                  f"{' and '.join(missing)}", weapon, snippet=written,
                                  expected=f"[{name} X]" if kind == "value" else "[ANTI-KEYWORD X+]")
            elif (weapon["ruleset"], ab["id"]) not in rules:
                yield ctx.finding("unresolved-reference", f"weapon ability [{canonical_text(ab)}] has no "
                                  f"{weapon['ruleset']} rule in the build", weapon, snippet=written,
                                  expected=f"a {weapon['ruleset']} ability record with ability_id {ab['id']}")
