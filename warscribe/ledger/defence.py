"""What a change of a unit's defensive characteristics changes: expected models lost to reference attackers.

For each datasheet whose T, Sv, invulnerable save, W or Feel No Pain changed, the unit (at
its smallest priced size, its models as the first model line whose defence changed) is
attacked on both sides by a few reference attackers, the classic profiles a rules change
is judged on, and the engine gives the expected number of its models destroyed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from warscribe.ledger.model import Defence

# (name, models, profile): one ranged anti-infantry, one heavy support, one anti-tank, one melee.
REFERENCE_ATTACKERS: tuple[tuple[str, int, dict], ...] = (
    ("10 bolt rifles (A2 BS3+ S4 AP-1 D1)", 10,
     {"name": "Bolt rifle", "type": "ranged", "range": 24, "attacks": 2, "skill": 3, "strength": 4, "ap": -1, "damage": 1}),
    ("3 heavy bolters (A3 BS3+ S5 AP-1 D2)", 3,
     {"name": "Heavy bolter", "type": "ranged", "range": 36, "attacks": 3, "skill": 3, "strength": 5, "ap": -1,
      "damage": 2}),
    ("2 lascannons (A1 BS3+ S12 AP-3 D6+1)", 2,
     {"name": "Lascannon", "type": "ranged", "range": 48, "attacks": 1, "skill": 3, "strength": 12, "ap": -3,
      "damage": "D6+1"}),
    ("5 power fists (A3 WS3+ S8 AP-2 D2)", 5,
     {"name": "Power fist", "type": "melee", "range": None, "attacks": 3, "skill": 3, "strength": 8, "ap": -2,
      "damage": 2}),
)
DEFENSIVE = ("T", "Sv", "invulnerable", "W")
_FNP = re.compile(r"^\s*feel no pain\s+([2-6])\+", re.I)


def feel_no_pain(datasheet: dict) -> int | None:
    """The unit's own Feel No Pain (its core ability 'Feel No Pain 5+'), the best if several."""
    found = [int(m.group(1)) for a in datasheet.get("abilities") or [] if isinstance(a, dict)
             and (m := _FNP.match(str(a.get("name") or "")))]
    return min(found) if found else None


def smallest_size(datasheet: dict) -> int:
    sizes = [t["models"] for t in datasheet.get("points") or [] if isinstance(t.get("models"), int)]
    if sizes:
        return max(1, min(sizes))
    total = sum(c.get("min") or 0 for c in datasheet.get("composition") or [] if isinstance(c, dict))
    return max(1, total)


def _defence(model: dict) -> tuple:
    return tuple(model.get(k) for k in DEFENSIVE)


def _target(datasheet: dict, model: dict) -> dict | None:
    if not all(isinstance(model.get(k), int) for k in ("T", "Sv", "W")):
        return None
    inv = model.get("invulnerable")
    return {"toughness": model["T"], "save": min(max(model["Sv"], 2), 7),
            "invulnerable": inv if isinstance(inv, int) and 2 <= inv <= 6 else None,
            "wounds": min(model["W"], 100), "models": min(smallest_size(datasheet), 100),
            "feel_no_pain": feel_no_pain(datasheet)}


def changed_model(a: dict, b: dict) -> tuple[dict, dict] | None:
    """The (old, new) model line whose defence changed (by name), or the first ones if only Feel No Pain did."""
    old = {m.get("name"): m for m in a.get("models") or [] if isinstance(m, dict)}
    new = {m.get("name"): m for m in b.get("models") or [] if isinstance(m, dict)}
    for name, m in new.items():
        if name in old and _defence(old[name]) != _defence(m):
            return old[name], m
    if feel_no_pain(a) != feel_no_pain(b) and old and new:
        name = next((n for n in new if n in old), None)
        return (old[name], new[name]) if name is not None else (next(iter(old.values())), next(iter(new.values())))
    return None


def impact(pairs: list[tuple[dict, dict]], faction_of: Callable[[dict], str]) -> list[Defence]:
    """Expected models destroyed by each reference attacker, before and after, for units whose defence changed."""
    out = []
    cache: dict[str, float | str] = {}
    for a, b in pairs:
        found = changed_model(a, b)
        if found is None:
            continue
        before, after = _target(a, found[0]), _target(b, found[1])
        rows, errors = [], []
        for name, models, weapon in REFERENCE_ATTACKERS:
            x = _slain(b.get("ruleset", "10e"), models, weapon, before, cache)
            y = _slain(b.get("ruleset", "10e"), models, weapon, after, cache)
            for v in (x, y):
                if isinstance(v, str) and v not in errors:
                    errors.append(v)
            x = x if isinstance(x, float) else None
            y = y if isinstance(y, float) else None
            rows.append({"attacker": name, "old": x, "new": y,
                         "delta": round(y - x, 6) if x is not None and y is not None else None})
        out.append(Defence(b["id"], faction_of(b), b.get("name", ""), str(found[1].get("name", "")),
                           before or {}, after or {}, rows, "; ".join(errors)))
    return sorted(out, key=lambda d: (-d.size, d.record))


def _slain(ruleset: str, models: int, weapon: dict, target: dict | None, cache: dict) -> float | str:
    from warscribe.engine import ScenarioError, evaluate

    if target is None:
        return "no T, Sv and W to attack"
    key = json.dumps([ruleset, models, weapon, target], sort_keys=True)
    if key not in cache:
        scenario = {"ruleset": ruleset, "attacker": {"weapons": [{"models": models, "weapon": weapon}]},
                    "target": target}
        try:
            cache[key] = round(evaluate(scenario).expected_models_slain, 6)
        except ScenarioError as exc:
            cache[key] = str(exc)
    return cache[key]
