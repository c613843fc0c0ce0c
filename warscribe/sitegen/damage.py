"""Each weapon against reference targets, computed by the engine, with a small SVG per result.

Numbers are per model carrying the weapon, with no modifiers or conditions (not at half
range, not stationary, no cover), so that weapons compare on one footing. Identical
profiles (the same weapon on many datasheets) are computed once.
"""

from __future__ import annotations

from dataclasses import dataclass

from warscribe.engine import Conditions, Group, Modifiers, Scenario, ScenarioError, Target, evaluate
from warscribe.engine.kb import weapon_from_record
from warscribe.sitegen.markup import el, esc


@dataclass(frozen=True)
class Reference:
    label: str
    target: Target


REFERENCES: tuple[Reference, ...] = (
    Reference("T3 Sv5+ W1 ×10", Target(toughness=3, save=5, wounds=1, models=10, keywords=frozenset({"INFANTRY"}))),
    Reference("T4 Sv3+ W2 ×10", Target(toughness=4, save=3, wounds=2, models=10, keywords=frozenset({"INFANTRY"}))),
    Reference("T5 Sv2+ 4++ W3 ×5", Target(toughness=5, save=2, invulnerable=4, wounds=3, models=5,
                                          keywords=frozenset({"INFANTRY"}))),
    Reference("T10 Sv3+ W12 ×1", Target(toughness=10, save=3, wounds=12, models=1, keywords=frozenset({"VEHICLE"}))),
)


@dataclass(frozen=True)
class Outcome:
    wounds: float
    slain: float
    slain_dist: tuple[float, ...]


class DamageTable:
    """Engine results per weapon profile and reference target, cached by profile."""

    def __init__(self) -> None:
        self._cache: dict[tuple, list[Outcome] | str] = {}
        self.evaluations = 0

    @staticmethod
    def _key(weapon: dict) -> tuple:
        abilities = tuple(sorted(tuple(sorted((k, str(v)) for k, v in a.items() if k != "text"))
                                 for a in weapon.get("abilities", [])))
        return (weapon["ruleset"], weapon["type"], weapon.get("range"), weapon["attacks"], weapon["skill"],
                weapon["strength"], weapon["ap"], weapon["damage"], abilities)

    def outcomes(self, weapon: dict) -> list[Outcome] | str:
        """One outcome per reference target, or the engine's reason for declining."""
        key = self._key(weapon)
        if key not in self._cache:
            self._cache[key] = self._compute(weapon)
        return self._cache[key]

    def _compute(self, record: dict) -> list[Outcome] | str:
        try:
            weapon = weapon_from_record(record)
            out = []
            for ref in REFERENCES:
                scenario = Scenario(ruleset=record["ruleset"], groups=(Group(models=1, weapon=weapon),),
                                    target=ref.target, conditions=Conditions(), modifiers=Modifiers(),
                                    attacker_keywords=frozenset(), name=None)
                result = evaluate(scenario)
                self.evaluations += 1
                out.append(Outcome(result.expected_wounds_removed, result.expected_models_slain,
                                   tuple(result.models_slain)))
            return out
        except (ScenarioError, ValueError, KeyError, TypeError) as exc:
            return str(exc) or type(exc).__name__


def sparkline(dist: tuple[float, ...], label: str) -> str:
    """Bars of P(models slain = k), k = 0..models; the tallest bar fills the height."""
    width, height = 64, 18
    n = len(dist)
    top = max(dist) or 1.0
    bar = width / n
    rects = []
    for k, p in enumerate(dist):
        h = round(height * p / top, 2)
        if h <= 0:
            continue
        rects.append(f'<rect x="{k * bar:.2f}" y="{height - h:.2f}" width="{max(bar - 1, 0.5):.2f}" height="{h}"/>')
    return (f'<svg class="ws-spark" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
            f'aria-label="{esc(label)}">' + "".join(rects) + "</svg>")


def cell(outcome: Outcome, ref: Reference) -> str:
    shares = ", ".join(f"{k}: {p:.0%}" for k, p in enumerate(outcome.slain_dist) if p >= 0.005)
    label = f"Models slain against {ref.label}: {shares}"
    return (el("span", f"{outcome.wounds:.2f}", class_="ws-num", title="expected wounds removed") + " / "
            + el("span", f"{outcome.slain:.2f}", class_="ws-num", title="expected models slain")
            + "<br>" + sparkline(outcome.slain_dist, label))
