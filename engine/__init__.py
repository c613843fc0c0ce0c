"""Warscribe's attack engine: exact outcome distributions for one unit attacking another.

Public API::

    from warscribe.engine import evaluate
    result = evaluate({"attacker": {...}, "target": {...}})   # or evaluate("scenario.yaml")
    result.p_wipe, result.models_slain, result.to_json()

``evaluate`` accepts a scenario dict (the shape of ``schema/scenario.schema.json``), a
path to a YAML scenario, or an already checked ``Scenario``. ``kb`` is the knowledge
base for ``ref`` weapons: a path to the bundle, the bundle dict, or a
``KnowledgeBase``; it is read only when a scenario uses ``ref``. Bad input raises
``ScenarioError`` with a message naming the field. See docs/engine.md.

To validate once and evaluate many times: ``checked = parse_scenario(data)``, then
``evaluate(checked)`` (no validation). A dict is checked by the schema's compiled
form (``warscribe.schema.registry.fast_check``); jsonschema only words the errors.
The same dict again (exactly the same values and types) gets the Scenario checked the
first time (``engine.scenario._exact_key``).
"""

from __future__ import annotations

from pathlib import Path

from warscribe.engine.errors import ScenarioError
from warscribe.engine.evaluate import evaluate_scenario
from warscribe.engine.kb import KnowledgeBase
from warscribe.engine.model import Conditions, Group, GroupSummary, Modifiers, Result, Scenario, Target, Weapon
from warscribe.engine.scenario import load_scenario, parse_scenario

__all__ = [
    "Conditions",
    "Group",
    "GroupSummary",
    "KnowledgeBase",
    "Modifiers",
    "Result",
    "Scenario",
    "ScenarioError",
    "Target",
    "Weapon",
    "evaluate",
    "evaluate_scenario",
    "forget_calls",
    "load_scenario",
    "parse_scenario",
]


def evaluate(scenario: Scenario | dict | str | Path, kb: KnowledgeBase | dict | str | Path | None = None) -> Result:
    """Exact distributions for a scenario (dict, YAML path or Scenario)."""
    if isinstance(scenario, (str, Path)):
        scenario = load_scenario(scenario, kb)
    elif not isinstance(scenario, Scenario):
        scenario = parse_scenario(scenario, kb)
    return evaluate_scenario(scenario)


def forget_calls(everything: bool = False) -> None:
    """Drop what is kept of earlier scenarios (checked scenarios, group profiles, the
    untouched unit after [DEVASTATING WOUNDS]), so the next call costs what a new
    scenario of known weapons and units costs (every weapon against every target): the
    bench times first calls with it. What belongs to one weapon or one unit stays (the
    weapons and targets built, each unit's plan and chains) unless ``everything``: then
    those go too, with every table kept by its inputs (dice, rolls, counts, joint laws),
    and the next call costs what a scenario never seen costs (the compiled schema stays:
    a process compiles it once). Results never depend on it."""
    from warscribe.engine import (  # (``scenario`` is evaluate's argument)
        attack, chains, devastating, dist, group_counts, groups, rules, scenario, unit, unit_states)

    scenario._PARSED.clear()
    unit._BUILT.clear()
    group_counts._PROFILES.clear()
    groups._FRESH.clear()
    if everything:
        scenario._WEAPONS.clear()
        scenario._TARGETS.clear()
        chains._CHAINS.clear()
        unit_states._PLANS.clear()
        unit._LOADOUTS.clear()  # (the knowledge base's indexes, effects._INDEXED, stay: they belong to its loading)
        for module in (attack, dist, unit_states, chains, group_counts, devastating, groups, rules, scenario):
            for value in vars(module).values():
                if hasattr(value, "cache_clear") and value.__module__.startswith("warscribe.engine"):
                    value.cache_clear()
