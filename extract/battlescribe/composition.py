"""A unit's composition and price: its model lines with their min/max, and the points
at each unit size and under each army condition its cost modifiers give."""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.common import bounds, flag, number
from warscribe.extract.battlescribe.index import DataFile, Index
from warscribe.extract.battlescribe.output import Output
from warscribe.schema.text import clean_name

_COUNT_PREFIX = re.compile(r"^\s*\d+(?:\s*-\s*\d+)?\s+")


def composition(out: Output, data: DataFile, entry: dict) -> tuple[list[dict], list[float | None]]:
    """Model lines with their min/max, and each line's points per model where its models cost any."""
    if entry.get("type") == "model":
        return [{"name": clean_name(str(entry.get("name"))), "min": 1, "max": 1}], [None]
    lines, costs = [], []

    def models_in(obj: dict, file: DataFile, depth: int) -> list[tuple[dict, DataFile]]:
        found = [(e, file) for e in obj.get("selectionEntries") or [] if isinstance(e, dict)]
        for link in obj.get("entryLinks") or []:
            if isinstance(link, dict) and depth < 3:
                t = out.index.resolve(file, link, ("selectionEntry", "selectionEntryGroup"))
                if t and t.what == "selectionEntry":
                    found.append((dict(t.obj, **{k: v for k, v in link.items() if k == "constraints" and v}), t.file))
        return [(e, f) for e, f in found if e.get("type") == "model" and not flag(e.get("hidden"))]

    def line(name: str, lo: int, hi: int | None, models: list[dict]) -> None:
        lines.append({"name": name, "min": lo, "max": max(hi or lo or 1, 1)})
        prices = {out.pts_of(m) for m in models}
        costs.append(prices.pop() if len(prices) == 1 else None)

    for model, _f in models_in(entry, data, 0):
        line(clean_name(str(model.get("name"))), *bounds(model), [model])
    for group in entry.get("selectionEntryGroups") or []:
        if not isinstance(group, dict) or flag(group.get("hidden")):
            continue
        inner = models_in(group, data, 0)
        if not inner:
            continue
        lo, hi = bounds(group)
        if hi is not None:
            line(_COUNT_PREFIX.sub("", clean_name(str(group.get("name")))) or str(group.get("name")), lo, hi,
                 [m for m, _f in inner])
        else:
            for model, _f in inner:
                line(clean_name(str(model.get("name"))), *bounds(model), [model])
    return lines, costs


def points(out: Output, data: DataFile, entry: dict, model_lines: list[dict], model_costs: list[float | None]) -> list[dict]:
    """The unit's price, the price per model count its modifiers set, and prices under an army condition.

    Where the models carry the cost (War Walkers: 85 each), the price of the smallest and the
    largest unit.
    """
    base = out.pts_of(entry)
    smallest = max(sum(c["min"] for c in model_lines), 1)
    largest = max(sum(c["max"] for c in model_lines), smallest)
    per_model = bool(model_costs) and all(c is not None for c in model_costs) and any(model_costs)
    if per_model:
        tiers = {n: int((base or 0) + sum(c[key] * cost for c, cost in zip(model_lines, model_costs)))
                 for n, key in ((smallest, "min"), (largest, "max"))}
        base = tiers[smallest]
    elif base is None:
        return []
    else:
        tiers = {smallest: int(base)}
    conditional: list[dict] = []
    mods = [m for m in entry.get("modifiers") or [] if isinstance(m, dict)]
    for group in entry.get("modifierGroups") or []:
        if isinstance(group, dict):
            mods += [dict(m, conditions=(m.get("conditions") or []) + (group.get("conditions") or []))
                     for m in group.get("modifiers") or [] if isinstance(m, dict)]
    for mod in mods:
        if str(mod.get("field")) not in out.pts:
            continue
        conditions = mod.get("conditions") or []
        simple = len(conditions) == 1 and not mod.get("conditionGroups") and not mod.get("repeats")
        c = conditions[0] if simple else {}
        value = int(number(mod.get("value")))
        if mod.get("type") == "set" and c.get("field") == "selections" and c.get("childId") == "model":
            n = int(number(c.get("value")))
            models = {"atLeast": n, "equalTo": n, "greaterThan": n + 1}.get(str(c.get("type")))
            if models and models >= 1:
                tiers[models] = value
                continue
        army = army_condition(out.index, c) if simple else None
        if army and mod.get("type") in ("set", "increment", "decrement"):
            price = {"set": value, "increment": int(base) + value, "decrement": int(base) - value}[mod["type"]]
            conditional.append({"models": smallest, "points": price, "condition": army})
            continue
        # Modifiers carry no id of their own: the unit's entry locates them.
        out.warn(data, entry, "unsupported-modifier",
                 f"{entry.get('name')!r}: cost modifier ({mod.get('type')} {mod.get('value')}) under conditions "
                 "other than a model count or the army's faction; not read into points",
                 expected="set pts when at least N models, or a price when the army is (not) a faction",
                 found=_describe(mod))
    return [{"models": n, "points": p, "condition": None} for n, p in sorted(tiers.items())] + conditional


def army_condition(index: Index, condition: dict) -> str | None:
    """'Army Faction is not Imperium - Agents of the Imperium' from an (not)instanceOf primary-catalogue test."""
    if condition.get("scope") != "primary-catalogue" or condition.get("type") not in ("instanceOf", "notInstanceOf"):
        return None
    catalogue = index.by_id.get(str(condition.get("childId")))
    if catalogue is None:
        return None
    return f"Army Faction is {'not ' if condition['type'] == 'notInstanceOf' else ''}{catalogue.title}"


def _describe(mod: dict) -> str:
    parts = []
    for c in mod.get("conditions") or []:
        if isinstance(c, dict):
            parts.append(f"{c.get('type')} {c.get('value')} {c.get('field')} of {c.get('childId')} in {c.get('scope')}")
    if mod.get("conditionGroups"):
        parts.append("condition groups")
    if mod.get("repeats"):
        parts.append("repeats")
    return "; ".join(parts) or "no condition"
