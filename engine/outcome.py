"""A Result from the distributions an evaluator computed: one place for what both share.

Both evaluators (one kind of model: ``engine.evaluate``; several: ``engine.groups``) end
with the distributions of wounds removed and models slain and one summary per weapon
group; the means, the attacker's [HAZARDOUS] wounds, notes and the effects log are
derived from those the same way.
"""

from __future__ import annotations

from warscribe.engine import dist as D
from warscribe.engine.attack import GroupProfile
from warscribe.engine.model import GroupSummary, ModelSummary, Result, Scenario
from warscribe.engine.rules import attacker_hazard


def result(scenario: Scenario, profiles: list[GroupProfile], summaries: list[GroupSummary], wounds_removed: D.Dist,
           models_slain: D.Dist, p_wipe: float, by_model: list[ModelSummary], damage: D.Dist | None = None,
           damage_cap: int | None = None) -> Result:
    return Result(
        ruleset=scenario.ruleset,
        expected_damage=sum(s.expected_damage for s in summaries),
        expected_wounds_removed=D.mean(wounds_removed),
        expected_models_slain=D.mean(models_slain),
        p_wipe=p_wipe,
        models_slain=models_slain,
        wounds_removed=wounds_removed,
        damage=damage,
        damage_cap=damage_cap,
        attacker_mortal_wounds=attacker_hazard(scenario.ruleset, scenario.attacker_keywords, profiles),
        groups=summaries,
        notes=list(scenario.unit_notes) + [n for p in profiles for n in p.notes],
        effects=list(scenario.effects),
        by_model=by_model,
        loadout=list(scenario.loadout),
        not_calculated=list(scenario.not_calculated),
        unit=bool(scenario.loadout),
    )
