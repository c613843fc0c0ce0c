"""Each weapon against reference targets, computed by the engine, with a chart per result.

Numbers are per model carrying the weapon, with no modifiers or conditions (not at half
range, not stationary, no cover), so that weapons compare on one footing. Identical
profiles (the same weapon on many datasheets) are computed, and drawn, once.

A chart shows the chance of each outcome on a fixed scale (0 to 100%, so that charts
compare): models slain for a unit of several models, wounds removed for a single model
(where "slain" would be a yes/no bar).
"""

from __future__ import annotations

from dataclasses import dataclass

from warscribe.engine import Conditions, Group, Modifiers, Scenario, ScenarioError, Target, evaluate
from warscribe.engine.kb import weapon_from_record
from warscribe.site.markup import el, esc


@dataclass(frozen=True)
class Reference:
    name: str  # what a player calls such a unit
    label: str  # its profile
    target: Target


REFERENCES: tuple[Reference, ...] = (
    Reference("Light infantry", "T3 Sv5+ W1 ×10",
              Target(toughness=3, save=5, wounds=1, models=10, keywords=frozenset({"INFANTRY"}))),
    Reference("Power-armoured infantry", "T4 Sv3+ W2 ×10",
              Target(toughness=4, save=3, wounds=2, models=10, keywords=frozenset({"INFANTRY"}))),
    Reference("Terminator-armoured infantry", "T5 Sv2+ 4++ W3 ×5",
              Target(toughness=5, save=2, invulnerable=4, wounds=3, models=5, keywords=frozenset({"INFANTRY"}))),
    Reference("Battle tank", "T10 Sv3+ W12 ×1",
              Target(toughness=10, save=3, wounds=12, models=1, keywords=frozenset({"VEHICLE"}))),
)


@dataclass(frozen=True)
class Outcome:
    wounds: float
    slain: float
    slain_dist: tuple[float, ...]
    wounds_dist: tuple[float, ...] = ()


class DamageTable:
    """Engine results per weapon profile and reference target, cached by profile."""

    def __init__(self) -> None:
        self._cache: dict[tuple, list[Outcome] | str] = {}
        self._cells: dict[tuple, list[str]] = {}
        self._frames: dict[tuple, list[tuple[int, str]]] = {}
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

    def cells(self, weapon: dict) -> list[str]:
        """The HTML of the weapon's cell for each reference target (drawn once per profile)."""
        key = self._key(weapon)
        if key not in self._cells:
            outcomes = self.outcomes(weapon)
            if isinstance(outcomes, str):
                self._cells[key] = [el("span", "—", title=outcomes, class_="ws-declined")] * len(REFERENCES)
                self._frames[key] = []
            else:
                self._cells[key] = [cell(o, r) for o, r in zip(outcomes, REFERENCES)]
                self._frames[key] = [(len(d), what) for d, what in (plotted(o, r) for o, r in zip(outcomes, REFERENCES))]
        return self._cells[key]

    def frames(self, weapons: list[dict]) -> str:
        """The chart axes the cells of these weapons use (call after :meth:`cells`)."""
        return frames(k for w in weapons for k in self._frames.get(self._key(w), []))

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
                                   tuple(result.models_slain), tuple(result.wounds_removed)))
            return out
        except (ScenarioError, ValueError, KeyError, TypeError) as exc:
            return str(exc) or type(exc).__name__


def plotted(outcome: Outcome, ref: Reference) -> tuple[tuple[float, ...], str]:
    """What a chart shows: models slain, or wounds removed against a single model."""
    if ref.target.models == 1 and outcome.wounds_dist:
        return outcome.wounds_dist, "wounds removed"
    return outcome.slain_dist, "models slain"


# Chart geometry, in SVG units: plot area inside margins for the axis labels.
_W, _H = 104, 54
_LEFT, _RIGHT, _TOP, _BOTTOM = 21, 3, 4, 15


def frame_id(n: int, what: str) -> str:
    return f"ws-axes-{n}-{what.replace(' ', '-')}"


def frame(n: int, what: str) -> str:
    """The axes of a chart of n bars: gridlines and labels at 0, 50 and 100%, ticks, the axis's name.

    Drawn once per page (:func:`frames`) and used by every chart of that shape."""
    width, height = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    bar = width / max(n, 1)
    parts = []
    for share in (0.5, 1.0):
        y = _TOP + height * (1 - share)
        parts.append(f'<line class="ws-grid" x1="{_LEFT}" y1="{y:g}" x2="{_W - _RIGHT}" y2="{y:g}"/>'
                     f'<text class="ws-tick" x="{_LEFT - 2}" y="{y + 3:g}" text-anchor="end">{share:.0%}</text>')
    baseline = _TOP + height
    parts.append(f'<text class="ws-tick" x="{_LEFT - 2}" y="{baseline + 3:g}" text-anchor="end">0%</text>'
                 f'<line class="ws-axis" x1="{_LEFT}" y1="{baseline}" x2="{_W - _RIGHT}" y2="{baseline}"/>')
    for k in (sorted({0, (n - 1) // 2, n - 1}) if n > 2 else range(n)):
        parts.append(f'<text class="ws-tick" x="{_LEFT + (k + 0.5) * bar:.1f}" y="{baseline + 9}" '
                     f'text-anchor="middle">{k}</text>')
    parts.append(f'<text class="ws-axis-title" x="{_LEFT + width / 2:g}" y="{_H - 0.5}" text-anchor="middle">'
                 f'{esc(what)}</text>')
    return f'<g id="{frame_id(n, what)}">' + "".join(parts) + "</g>"


def frames(keys) -> str:
    """The axes that the page's charts use, defined once (hidden) before them."""
    return ('<svg class="ws-chart-defs" width="0" height="0" aria-hidden="true"><defs>'
            + "".join(frame(n, what) for n, what in sorted(set(keys))) + "</defs></svg>")


def chart(dist: tuple[float, ...], what: str, label: str) -> str:
    """Bars of P(outcome = k) for k = 0..n on a fixed 0-100% scale, over the axes of :func:`frame`.

    The axes are referenced with ``xlink:href``: the theme's instant navigation (off in
    site/handwritten/mkdocs.yml, but a site may turn it on) rewrites every element's ``href``, which an SVG
    ``use`` does not allow."""
    n = len(dist)
    width, height = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    bar = width / max(n, 1)
    rects = []
    for k, p in enumerate(dist):
        h = height * min(max(p, 0.0), 1.0)
        if h >= 0.05:
            rects.append(f'<rect x="{_LEFT + k * bar + bar * 0.1:.1f}" y="{_TOP + height - h:.1f}" '
                         f'width="{max(bar * 0.8, 0.6):.1f}" height="{h:.1f}"/>')
    return (f'<svg class="ws-chart" viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" role="img">'
            f'<title>{esc(label)}</title><use xlink:href="#{frame_id(n, what)}"/>' + "".join(rects) + "</svg>")


def cell(outcome: Outcome, ref: Reference) -> str:
    dist, what = plotted(outcome, ref)
    shares = ", ".join(f"{k}: {p:.0%}" for k, p in enumerate(dist) if p >= 0.005)
    label = f"Chance of each number of {what} against {ref.name} ({ref.label}): {shares}"
    return (el("span", f"{outcome.wounds:.2f}", class_="ws-num", title="expected wounds removed") + " / "
            + el("span", f"{outcome.slain:.2f}", class_="ws-num", title="expected models slain")
            + "<br>" + chart(dist, what, label))
