"""Evaluate a checked scenario: weapon groups in order, then the allocation chain.

Order of resolution (what the distributions depend on):

* groups resolve in the order given; within a group every damaging event has the
  same damage distribution, so the order of its normal and devastating events only
  matters across groups;
* 11e 24.10: [DEVASTATING WOUNDS] mortal wounds are inflicted 'after resolving any
  normal damage inflicted by those attacks', i.e. right after their own group;
* 10e Devastating Wounds: such attacks 'are only allocated to models after all other
  attacks made by the attacking unit have been allocated and resolved', so their
  packets wait until every group's normal damage is done, then resolve in group
  order. While they wait, the chain keeps one state vector per pending count.
"""

from __future__ import annotations

from functools import reduce
from operator import add

from warscribe.engine import dist as D
from warscribe.engine.allocation import Chain, start
from warscribe.engine.attack import GroupProfile, group_profile, wounding_events, wounding_events_joint
from warscribe.engine.groups import evaluate_kinds
from warscribe.engine.model import GroupSummary, ModelSummary, Result, Scenario
from warscribe.engine.outcome import result

MIN_DAMAGE_CAP = 200


def damage_cap(models: int, wounds: int) -> int:
    """Where the 'damage before loss' distribution is clipped (last entry: cap or more)."""
    return max(MIN_DAMAGE_CAP, models * wounds)


def evaluate_scenario(scenario: Scenario) -> Result:
    if scenario.target.kinds:
        # Several kinds of model: allocation order, the unit's Toughness, [PRECISION].
        return evaluate_kinds(scenario)
    target = scenario.target
    models, wounds = target.models, target.wounds
    cap = damage_cap(models, wounds)
    profiles = [
        group_profile(scenario.ruleset, g.models, g.weapon, g.target or target, g.conditions or scenario.conditions,
                      g.modifiers or scenario.modifiers)
        for g in scenario.groups
    ]
    chains = [Chain(models, wounds, p.wounding_damage) for p in profiles]

    # state: pending devastating packets per deferred group -> vector over R.
    state: dict[tuple[int, ...], D.Dist] = {(): start(models, wounds)}
    deferred: list[int] = []
    damage: D.Dist = [1.0]
    summaries: list[GroupSummary] = []
    last = len(profiles) - 1
    for i, (profile, chain) in enumerate(zip(profiles, chains)):
        # Every event counted takes a wound, so lumping counts at `cap` (>= the
        # target's wounds) is exact: by then the unit is gone and the damage capped.
        events = wounding_events(profile, cap)
        defer = scenario.ruleset == "10e" and profile.devastating and not (i == last and not deferred)
        if defer:
            joint = wounding_events_joint(profile, models * wounds)
            by_m: dict[int, D.Dist] = {}
            for (k, m), p in joint.items():
                row = by_m.setdefault(m, [])
                if len(row) <= k:
                    row.extend([0.0] * (k + 1 - len(row)))
                row[k] += p
            ms = sorted(by_m)
            new_state: dict[tuple[int, ...], D.Dist] = {}
            for label, v in state.items():
                for m, vec in zip(ms, chain.absorb_each(v, [by_m[m] for m in ms])):
                    new_state[label + (m,)] = vec
            state = new_state
            deferred.append(i)
        else:
            state = {label: chain.absorb(v, events) for label, v in state.items()}
        group_damage = D.random_sum(events, profile.wounding_damage, cap)
        damage = D.convolve(damage, group_damage, cap)
        summaries.append(_summary(profile, events))

    for i in deferred:
        # The first label component belongs to the earliest deferred group.
        grouped: dict[tuple[int, ...], list[D.Dist]] = {}
        for label, v in state.items():
            vectors = grouped.setdefault(label[1:], [])
            m = label[0]
            if len(vectors) <= m:
                vectors.extend([[0.0] * len(v) for _ in range(m + 1 - len(vectors))])
            vectors[m] = v
        state = {rest: chains[i].power_series(vectors) for rest, vectors in grouped.items()}

    final = state[()]
    wounds_removed = final[::-1]  # final is by wounds remaining: 0 .. models x wounds
    # The states of j models slain are a run of `wounds` (the last model's wounds left), added in order
    # from 0.0 as a loop over the states would (reduce, not sum: sum compensates on Python 3.12+).
    models_slain = [0.0] * (models + 1)
    models_slain[models] = 0.0 + final[0]
    for j in range(1, models + 1):
        models_slain[models - j] = reduce(add, final[(j - 1) * wounds + 1:j * wounds + 1], 0.0)
    by_model = [ModelSummary(name=target.name or "models", count=models, models_slain=models_slain,
                             expected_models_slain=D.mean(models_slain), p_all_slain=final[0])]
    return result(scenario, profiles, summaries, wounds_removed, models_slain, final[0], by_model,
                  damage=D.trim(damage), damage_cap=cap)


def _summary(profile: GroupProfile, events: D.Dist) -> GroupSummary:
    """Expected counts by linearity (exact even where a distribution was clipped)."""
    attacks = profile.expected_attacks
    per_attack_events = sum((k + m) * p for (k, m), p in profile.per_attack.items())
    unsaved = attacks * per_attack_events
    return GroupSummary(
        name=profile.name,
        models=profile.models,
        expected_attacks=attacks,
        expected_hits=attacks * profile.expected_hits_per_attack,
        expected_wounds=attacks * profile.expected_wounds_per_attack,
        expected_unsaved=unsaved,
        expected_damage=unsaved * D.mean(profile.event_damage),
        notes=list(profile.notes),
    )
