"""Targets with several kinds of model: allocation order, the unit's Toughness, [PRECISION].

The rules (texts in ``sources/``; 10e = the Paladin Squad page, 11e = the Inquisitor
page and the "Inquisitor's Hand" extract):

* **Allocation order.** 11e 05.03 divides the unit into allocation groups (one per
  CHARACTER model, one per W/Sv/InSv among the others) and attacks go to the current
  group until it is destroyed (05.04.01), a wounded model first. 10e allocates to a
  wounded model first, and an attached unit's CHARACTER models last (Leader). The
  scenario's order (checked in ``engine.scenario``) lists the kinds; the models form
  one sequence and only its first living model can be wounded, so the state of a
  sequence is one number, the wounds it has left (as in ``engine.allocation``).
* **[PRECISION].** Where it applies (11e 24.28: any unit with a CHARACTER model; 10e:
  an attached unit) the CHARACTER models are a second sequence C after the others B.
  The attacker always uses it: 10e allocates every wounding [PRECISION] attack, and
  the mortal wounds of such an attack, to a CHARACTER while one lives; 11e makes the
  CHARACTER group first in line when the weapon group begins the current group until
  those attacks are resolved or it is destroyed, after which the normal order resumes
  (the bodyguard first). 11e [DEVASTATING WOUNDS] mortal wounds end the attack
  sequence before the Allocation Order step, so they follow 06.02 (non-CHARACTER
  models first) whatever the weapon.
* **Toughness.** 10e: an attached unit uses its bodyguard's Toughness until the
  attacking unit has resolved all its attacks; otherwise the highest in the unit.
  11e 05.02.01: the highest among the attached unit's bodyguard models on the
  battlefield, else the highest among its models; a weapon group rolls its wounds
  together, so T is read from the models alive when the group begins.
* Each save, Feel No Pain and damage is rolled against the model the attack (or
  mortal wound packet) is allocated to, so an event here is a *wound* before its save.

The allocation over the unit's states is split by idea: what the states mean
(``engine.unit_states``), an event on them (``engine.chains``), what a weapon group makes
(``engine.group_counts``) and how a [DEVASTATING WOUNDS] group's packets wait
(``engine.devastating``). This module resolves the scenario's groups in order over them
(``evaluate_kinds``, ``_Allocation``) and gathers the results.
"""

from __future__ import annotations

from collections import Counter, OrderedDict

import numpy as np

from warscribe.engine import dist as D
from warscribe.engine.attack import active_abilities, as_allocated
from warscribe.engine.chains import MORTAL, NORMAL, Builder, Chain, Counts, Reward
from warscribe.engine.devastating import packets_waiting
from warscribe.engine.group_counts import _profile_of, _Profile
from warscribe.engine.model import Conditions, GroupSummary, ModelKind, ModelSummary, Result, Scenario, Target
from warscribe.engine.outcome import result
from warscribe.engine.rules import feel_no_pain_loses, save_fail_of
from warscribe.engine.unit_states import Plan, plan

# What a [DEVASTATING WOUNDS] group leaves of the untouched unit (``_Allocation._fresh``): its
# states after, kept for this many when of at most FRESH_CELLS numbers (at most about 50 MB).
FRESH_KEPT = 128
FRESH_CELLS = 50_000
_FRESH: OrderedDict = OrderedDict()


def evaluate_kinds(scenario: Scenario) -> Result:
    """Exact distributions for a target given as model kinds (alike or not).

    ``expected_damage`` counts the damage inflicted on the unit's models (overkill
    included) until it is destroyed; there is no damage distribution (docs/engine.md).
    """
    run = _Allocation(scenario)
    for i, group in enumerate(scenario.groups):
        weapon = active_abilities(group.weapon, run.base)
        # Effects may change the models' characteristics for this group only (engine/effects.py).
        target = group.target or scenario.target
        toughness = run.plan if group.target is None else plan(scenario.ruleset, target)
        # The group's profile against the unit as it stands when the attacks begin.
        start = toughness.fixed_toughness if toughness.toughness is None else int(toughness.toughness[-1])
        run.first.append(run.profile(i, start))
        builder = _builder(scenario.ruleset, run.plan, target.model_kinds(), group.conditions or scenario.conditions,
                           weapon, run.first[-1].event_damage)
        precise = run.lay.precision and weapon.has("precision")
        if scenario.ruleset == "10e":
            run.group_10e(i, builder, precise, toughness)
        else:
            run.group_11e(i, builder, precise, toughness)
    run.resolve_deferred()
    return _result(scenario, run)


class _Allocation:
    """The distribution over allocation states while the weapon groups resolve.

    ``state`` is (rows, states). In 10e the rows count the [DEVASTATING WOUNDS] packets
    still waiting, one count per deferred group (``waiting``: how many values each
    takes, earliest group first, the latest varying fastest); in 11e there is one row.
    """

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        target = scenario.target
        self.plan = plan(scenario.ruleset, target)
        self.lay = self.plan.lay
        # Hit and wound rolls see the whole unit; saves and Feel No Pain are per kind (_builder).
        self.base = target.but(models=self.plan.models, keywords=unit_keywords(target), feel_no_pain=None,
                               damage_reduction=0, damage_halved=False, kinds=())
        self.profiles: dict[tuple[int, int], _Profile] = {}
        self.state = np.zeros((1, self.plan.size))
        self.state[0, -1] = 1.0
        self.fresh = True  # the unit is untouched (no weapon group resolved yet)
        self.waiting: list[int] = []
        self.deferred: list[tuple[int, Chain]] = []
        self.rewards = [Reward() for _ in scenario.groups]
        self.wounds_mean = [0.0] * len(scenario.groups)
        self.first: list[_Profile] = []

    def profile(self, i: int, toughness: int) -> _Profile:
        """Group i's wounds (before saves) against the unit's Toughness ``toughness``."""
        key = (i, toughness)
        if key not in self.profiles:
            s, g = self.scenario, self.scenario.groups[i]
            self.profiles[key] = _profile_of(s.ruleset, g.models, g.weapon, self.base.but(toughness=toughness),
                                             g.conditions or s.conditions, g.modifiers or s.modifiers)
        return self.profiles[key]

    def group_10e(self, i: int, builder: Builder, precise: bool, toughness: Plan) -> None:
        """One Toughness throughout; [DEVASTATING WOUNDS] packets wait for every group."""
        floor = 0 if precise else None
        prof = self.profile(i, toughness.fixed_toughness)
        self.wounds_mean[i] = D.mean(prof.attacks) * prof.expected_wounds_per_attack
        normal = builder.chain(NORMAL, floor)
        if prof.devastating and self.fresh and len(self.scenario.groups) == 1:
            # The only group: its packets wait for no other, and resolve as ``resolve_deferred`` would.
            cap = self.plan.total if builder.never_nothing else None
            v, mortal = self.state, builder.chain(MORTAL, floor)

            def alone(r: Reward) -> np.ndarray:
                return mortal.power_series(list(packets_waiting(prof, builder, floor, v, r, cap, self.fresh)), r)

            self.state = self._fresh("10e alone", prof, builder, floor, cap, self.rewards[i], alone)
        elif prof.devastating:
            cap = self.plan.total if builder.never_nothing else None
            v, reward = self.state, self.rewards[i]
            slabs = self._fresh("10e", prof, builder, floor, cap, reward,
                                lambda r: packets_waiting(prof, builder, floor, v, r, cap, self.fresh))
            # (earlier counts..., this count, states): this count varies fastest.
            self.state = np.ascontiguousarray(slabs.transpose(1, 0, 2)).reshape(-1, self.plan.size)
            self.waiting.append(slabs.shape[0])
            # 10e Mortal Wounds: a [PRECISION] attack's mortal wounds can go to a CHARACTER too.
            self.deferred.append((i, builder.chain(MORTAL, floor)))
        else:
            self.state = normal.absorb(self.state, prof.table, self.rewards[i], self.fresh)[0]
        self.fresh = False

    def _fresh(self, route: str, prof: _Profile, builder: Builder, floor: int | None, cap: int | None,
               reward: Reward, compute) -> np.ndarray:
        """``compute(reward)`` for a [DEVASTATING WOUNDS] group meeting the untouched unit, kept across calls.

        From the untouched unit, what the group leaves (the states, and its reward, which no
        other work has added to yet) depends only on the group's profile (one object per
        exact weapon, models, unit profile, conditions and modifiers: ``_profile_of``), the
        unit's plan, each kind's save and damage through Feel No Pain, the floor and the cap;
        those are the key. Its plan and profile are held in the key, so no id is reused.
        The work is about a third of a small call with such a group, and all of a dice-heavy one.
        """
        if not (self.fresh and reward.unsaved == 0.0 and reward.damage == 0.0):
            return compute(reward)
        key = (route, self.plan, prof, builder.fail, builder.through, floor, cap)
        found = _FRESH.get(key)
        if found is None:
            fresh = Reward()
            out = compute(fresh)
            found = (out.copy(), fresh.unsaved, fresh.damage)
            if out.size <= FRESH_CELLS:
                _FRESH[key] = found
                if len(_FRESH) > FRESH_KEPT:
                    _FRESH.popitem(last=False)
        else:
            _FRESH.move_to_end(key)
        out, reward.unsaved, reward.damage = found
        return out.copy()

    def group_11e(self, i: int, builder: Builder, precise: bool, toughness: Plan) -> None:
        """Toughness and the [PRECISION] pick read from the state when the group begins."""
        plan_ = self.plan
        v = self.state
        tough = toughness.toughness
        # One part per (Toughness, pick), in the order of their first state.
        floors = plan_.floor_11e if precise else None
        if self.fresh:  # the untouched unit: all its mass on the last state
            key = int(tough[-1]) if floors is None else int(tough[-1]) * (plan_.lay.chars.total + 2) + int(floors[-1]) + 1
            keys, order = None, [key]
        else:
            keys = tough if floors is None else tough * (plan_.lay.chars.total + 2) + (floors + 1)
            order = list(dict.fromkeys(keys[np.flatnonzero(v[0])].tolist()))
        reward = self.rewards[i]
        parts = []
        for key in order:
            part = v if len(order) == 1 else np.where(keys == key, v, 0.0)
            if floors is None:
                t, floor = key, None
            else:
                t, f = divmod(key, plan_.lay.chars.total + 2)
                floor = None if f == 0 else f - 1
            prof = self.profile(i, t)
            self.wounds_mean[i] += float(part.cumsum()[-1]) * D.mean(prof.attacks) * prof.expected_wounds_per_attack
            parts.append((part, prof, floor))
        if parts[0][1].devastating and self.fresh:
            # The untouched unit: one part, and the group's outcome a function of its profile and the unit.
            part, prof, floor = parts[0]
            cap = plan_.total if builder.never_nothing else None

            def compute(r: Reward) -> np.ndarray:
                mortal = builder.chain(MORTAL, None)
                return mortal.power_series(list(packets_waiting(prof, builder, floor, part, r, cap, self.fresh)), r)

            afters = [self._fresh("11e", prof, builder, floor, cap, reward, compute)]
        elif parts[0][1].devastating:
            afters = []
            sharing = Counter(id(prof) for _, prof, _ in parts)
            for part, prof, floor in parts:
                cap = plan_.total if builder.never_nothing else None
                slabs = packets_waiting(prof, builder, floor, part, reward, cap, self.fresh, sharing[id(prof)])
                # 24.10: the packets follow the group's normal damage; 06.02: non-CHARACTER models first.
                afters.append(builder.chain(MORTAL, None).power_series(list(slabs), reward))
        elif self.fresh:
            afters = [builder.chain(NORMAL, parts[0][2]).absorb(v, parts[0][1].table, reward, self.fresh)[0]]
        else:
            afters = self._absorb_parts(builder, parts, reward)
        out = afters[0]
        for after in afters[1:]:
            out = out + after
        self.state = out
        self.fresh = False

    def _absorb_parts(self, builder: Builder, parts: list, reward: Reward) -> list[np.ndarray]:
        """Each part through its own counts; consecutive parts of one chain as rows of one absorb
        (which adds the rewards part after part, as one absorb per part would)."""
        out: list[np.ndarray] = []
        start = 0
        while start < len(parts):
            floor = parts[start][2]
            end = start + 1
            while end < len(parts) and parts[end][2] == floor:  # consecutive parts of one chain
                end += 1
            batch = parts[start:end]
            rows = np.concatenate([part for part, _, _ in batch])
            counts = Counts.of([prof.counts for _, prof, _ in batch])
            after = builder.chain(NORMAL, floor).absorb(rows, counts, reward, by_row=True)
            out += [row[None] for row in after]
            start = end
        return out

    def resolve_deferred(self) -> None:
        """10e: the waiting packets, after every group's normal damage, in group order."""
        for (i, chain), width in zip(self.deferred, self.waiting):
            # The earliest group's count varies slowest: its slabs are contiguous blocks of rows.
            slabs = self.state.reshape(width, -1, self.plan.size)
            self.state = chain.power_series(list(slabs), self.rewards[i])


def _builder(ruleset: str, plan_: Plan, kinds: tuple[ModelKind, ...], conditions: Conditions, weapon,
             raw_damage: D.Dist) -> Builder:
    """Per kind (``kinds``: the layout's, as this group meets them): the save against this
    weapon, and its damage less its damage reduction, through Feel No Pain."""
    fail = []
    through = []
    for kind in kinds:
        fail.append(save_fail_of(ruleset, weapon, kind.save, kind.invulnerable, conditions.cover))
        through.append(D.thin(as_allocated(raw_damage, kind), feel_no_pain_loses(kind.feel_no_pain)))
    return Builder(plan_, fail, through)


def _result(scenario: Scenario, run: _Allocation) -> Result:
    p, final, first = run.plan, run.state[0], run.first
    wounds_removed = np.bincount(p.removed_at, weights=final, minlength=p.total + 1).tolist()
    models_slain = np.bincount(p.slain_at, weights=final, minlength=p.models + 1).tolist()
    summaries = []
    for i, (g, prof) in enumerate(zip(scenario.groups, first)):
        attacks = D.mean(prof.attacks)
        unsaved, damage = run.rewards[i].unsaved, run.rewards[i].damage
        summaries.append(GroupSummary(
            name=prof.profile.name, models=g.models, expected_attacks=attacks,
            expected_hits=attacks * prof.profile.expected_hits_per_attack, expected_wounds=run.wounds_mean[i],
            expected_unsaved=unsaved, expected_damage=damage, notes=list(prof.profile.notes),
        ))
    return result(scenario, [f.profile for f in first], summaries, wounds_removed, models_slain, float(final[0]),
                  by_model(p, final))


def unit_keywords(target: Target) -> frozenset[str]:
    """'A unit has all the keywords of all models in that unit' (Inquisitor's Hand)."""
    out = set(target.keywords)
    for kind in target.model_kinds():
        out |= kind.keywords
    return frozenset(out)


def by_model(plan_: Plan, final: np.ndarray) -> list[ModelSummary]:
    """Models slain of each kind, from the distribution over states."""
    out = []
    for kind, at in zip(plan_.lay.kinds, plan_.slain_of_kind):
        dist = np.bincount(at, weights=final, minlength=kind.count + 1).tolist()
        out.append(ModelSummary(name=kind.name, count=kind.count, models_slain=dist, expected_models_slain=D.mean(dist),
                                p_all_slain=dist[-1]))
    return out
