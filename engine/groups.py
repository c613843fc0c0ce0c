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

The state is (rb, rc): wounds left in B and in C, flattened to ``rc * (|B| + 1) + rb``;
state 0 is the destroyed unit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from warscribe.engine import dist as D
from warscribe.engine.attack import GroupProfile, active_abilities, group_profile
from warscribe.engine.model import Conditions, GroupSummary, ModelKind, ModelSummary, Result, Scenario, Target
from warscribe.engine.outcome import result
from warscribe.engine.rules import feel_no_pain_loses, save_fail

NORMAL, MORTAL = "normal", "mortal"


class Sequence:
    """Models allocated to one after another; a state is the wounds the sequence has left.

    ``kinds`` is [(kind index, ModelKind)] in allocation order. At state R the current
    model is ``head[R] = (model index, wounds left)``; the models before it are slain.
    """

    def __init__(self, kinds: list[tuple[int, ModelKind]]):
        self.kind_of: list[int] = []
        self.wounds: list[int] = []
        for index, kind in kinds:
            self.kind_of += [index] * kind.count
            self.wounds += [kind.wounds] * kind.count
        n = len(self.wounds)
        self.tail = [0] * (n + 1)  # tail[i]: wounds of models i.. at full wounds
        for i in range(n - 1, -1, -1):
            self.tail[i] = self.tail[i + 1] + self.wounds[i]
        self.total = self.tail[0]
        self.head: list[tuple[int, int]] = [(n, 0)]
        i = n - 1
        for r in range(1, self.total + 1):
            while self.tail[i] < r:
                i -= 1
            self.head.append((i, r - self.tail[i + 1]))

    def first_alive(self, r: int) -> int:
        """Index of the first living model (len when all are slain)."""
        return self.head[r][0]

    def max_over_alive(self, values: list[int]) -> list[int]:
        """For each state, the largest of ``values`` (one per model) among living models (0 if none)."""
        suffix = [0] * (len(values) + 1)
        for i in range(len(values) - 1, -1, -1):
            suffix[i] = max(values[i], suffix[i + 1])
        return [suffix[self.first_alive(r)] for r in range(self.total + 1)]


@dataclass
class Layout:
    """The unit as two sequences: B (allocated first) and C (CHARACTERs open to [PRECISION])."""

    kinds: tuple[ModelKind, ...]  # allocation order
    body: Sequence
    chars: Sequence
    precision: bool  # [PRECISION] can pick C out

    @property
    def nb(self) -> int:
        return self.body.total + 1

    @property
    def size(self) -> int:
        return self.nb * (self.chars.total + 1)

    def split(self, s: int) -> tuple[int, int]:
        return s % self.nb, s // self.nb


def precision_applies(ruleset: str, target: Target) -> bool:
    """11e 24.28: a target unit with CHARACTER models; 10e Precision: an attached unit."""
    return ruleset == "11e" or target.attached


def layout(ruleset: str, target: Target) -> Layout:
    kinds = target.model_kinds()
    precision = precision_applies(ruleset, target) and any(k.character for k in kinds)
    indexed = list(enumerate(kinds))
    if precision:
        body = [(i, k) for i, k in indexed if not k.character]
        chars = [(i, k) for i, k in indexed if k.character]
    else:
        body, chars = indexed, []
    return Layout(kinds=kinds, body=Sequence(body), chars=Sequence(chars), precision=precision)


def state_count(ruleset: str, target: Target) -> int:
    """Size of the allocation state space (for the scenario's size limit)."""
    return layout(ruleset, target).size


def unit_keywords(target: Target) -> frozenset[str]:
    """'A unit has all the keywords of all models in that unit' (Inquisitor's Hand)."""
    out = set(target.keywords)
    for kind in target.model_kinds():
        out |= kind.keywords
    return frozenset(out)


class Toughness:
    """The unit's Toughness for wound rolls, per state (10e: fixed; 11e: models alive)."""

    def __init__(self, ruleset: str, target: Target, lay: Layout):
        kinds = lay.kinds
        guards = [k.toughness for k in kinds if not k.character]
        self.fixed: int | None = None
        if ruleset == "10e":
            # 10e Leader: the bodyguard's Toughness while the attacking unit resolves its
            # attacks; a unit that is not attached: the highest (as 11e 05.02.01).
            self.fixed = max(guards) if target.attached and guards else max(k.toughness for k in kinds)
            return
        self.attached = target.attached
        self.body_guard = lay.body.max_over_alive(
            [0 if kinds[i].character else kinds[i].toughness for i in lay.body.kind_of]
        )
        self.body_all = lay.body.max_over_alive([kinds[i].toughness for i in lay.body.kind_of])
        self.chars_all = lay.chars.max_over_alive([kinds[i].toughness for i in lay.chars.kind_of])
        self.highest = max(k.toughness for k in kinds)
        self.nb = lay.nb

    def at(self, s: int) -> int:
        if self.fixed is not None:
            return self.fixed
        rb, rc = s % self.nb, s // self.nb
        if self.attached and self.body_guard[rb]:
            return self.body_guard[rb]
        return max(self.body_all[rb], self.chars_all[rc]) or self.highest  # destroyed: any T will do


class StateChain:
    """One event (a wound, or a mortal wound packet) on the unit's state.

    ``unsaved[s]`` and ``damage[s]`` are what one event at state s gets through the
    save and inflicts through Feel No Pain (overkill included); the methods return
    their expected totals over the events applied (a ``Reward``) with the states.
    """

    def __init__(self, by_state: list[list[tuple[int, float]]], unsaved: list[float], damage: list[float]):
        self.size = len(by_state)
        self.by_state = by_state
        self.unsaved = unsaved
        self.damage = damage

    def step(self, v: D.Dist, weight: float, reward: Reward, support: list[int] | None = None) -> D.Dist:
        """v T, adding ``weight`` x the expected reward of this event to ``reward``.

        ``support``: the states where v has mass, when the caller knows them.
        """
        out = [0.0] * self.size
        by_state, unsaved, damage = self.by_state, self.unsaved, self.damage
        u = d = 0.0
        for s in support if support is not None else _support(v):
            p = v[s]
            u += p * unsaved[s]
            d += p * damage[s]
            for t, q in by_state[s]:
                out[t] += p * q
        reward.unsaved += weight * u
        reward.damage += weight * d
        return out

    def absorb(self, v: D.Dist, count: D.Dist, reward: Reward) -> D.Dist:
        """sum_e P(N = e) v T^e: the states after N ~ count events."""
        return self.absorb_each(v, [count], reward)[0]

    def absorb_each(self, v: D.Dist, counts: list[D.Dist], reward: Reward) -> list[D.Dist]:
        """absorb for several (sub-)distributions of the count, sharing the powers v T^e."""
        size = self.size
        accs = [[0.0] * size for _ in counts]
        beyond = [_tails(c) for c in counts]
        last = max(len(c) for c in counts) - 1
        cur = v
        for e in range(last + 1):
            support = _support(cur)
            for acc, count in zip(accs, counts):
                pe = count[e] if e < len(count) else 0.0
                if pe:
                    for s in support:
                        acc[s] += pe * cur[s]
            more = sum(t[e] for t in beyond if e < len(t))  # P(N > e): the (e+1)-th event happens
            if e == last or not more:
                break
            if not support or support == [0]:
                # The unit is destroyed: the remaining events change nothing.
                for acc, t in zip(accs, beyond):
                    if e < len(t):
                        acc[0] += t[e] * cur[0]
                break
            cur = self.step(cur, more, reward, support)
        return accs

    def power_series(self, vectors: list[D.Dist], reward: Reward) -> D.Dist:
        """sum_m vectors[m] T^m by Horner's scheme: pending events applied last."""
        out = list(vectors[-1])
        for m in range(len(vectors) - 2, -1, -1):
            out = self.step(out, 1.0, reward)
            _add(out, vectors[m], 1.0)
        return out


@dataclass
class Reward:
    """Expected unsaved wounds (and mortal wound packets) and damage, summed over events."""

    unsaved: float = 0.0
    damage: float = 0.0


def _tails(count: D.Dist) -> list[float]:
    """tails[e] = P(N > e)."""
    out = [0.0] * len(count)
    acc = 0.0
    for e in range(len(count) - 1, -1, -1):
        out[e] = acc
        acc += count[e]
    return out


def _support(v: D.Dist) -> list[int]:
    return [s for s, p in enumerate(v) if p]


def _add(acc: D.Dist, v: D.Dist, weight: float) -> None:
    for s, p in enumerate(v):
        if p:
            acc[s] += weight * p


def kind_view(kind: ModelKind, base: Target) -> Target:
    """A single-profile Target with one kind's save and Feel No Pain (for the rules helpers)."""
    return replace(base, save=kind.save, invulnerable=kind.invulnerable, feel_no_pain=kind.feel_no_pain,
                   wounds=kind.wounds)


class Builder:
    """Transition tables of one weapon group's events on the unit's states."""

    def __init__(self, lay: Layout, loss: dict[str, list[list[list[tuple[int, float]]]]],
                 unsaved: dict[str, list[float]], damage: dict[str, list[float]]):
        self.lay = lay
        self.loss = loss  # loss[event][kind][w] = [(wounds removed, p)]
        self.unsaved = unsaved  # unsaved[event][kind]
        self.damage = damage  # damage[event][kind]: mean damage through the save and FNP
        self.cache: dict[tuple[str, int | None], StateChain] = {}

    def chain(self, event: str, floor: int | None) -> StateChain:
        """Events that go to C while its wounds left exceed ``floor`` (None: never first)."""
        key = (event, floor)
        if key not in self.cache:
            self.cache[key] = self._build(event, floor)
        return self.cache[key]

    def _build(self, event: str, floor: int | None) -> StateChain:
        lay = self.lay
        nb = lay.nb
        body, chars = lay.body, lay.chars
        loss, unsaved, damage = self.loss[event], self.unsaved[event], self.damage[event]
        by_state: list[list[tuple[int, float]]] = []
        u = [0.0] * lay.size
        dmg = [0.0] * lay.size
        for s in range(lay.size):
            rb, rc = s % nb, s // nb
            if (floor is not None and rc > floor) or (rb == 0 and rc > 0):
                model, w = chars.head[rc]
                kind, unit = chars.kind_of[model], nb
            elif rb > 0:
                model, w = body.head[rb]
                kind, unit = body.kind_of[model], 1
            else:
                by_state.append([(s, 1.0)])
                continue
            by_state.append([(s - j * unit, p) for j, p in loss[kind][w]])
            u[s] = unsaved[kind]
            dmg[s] = damage[kind]
        return StateChain(by_state, u, dmg)


def loss_table(fail: float, damage: D.Dist, wounds: int) -> list[list[tuple[int, float]]]:
    """table[w] = [(j, P(an event removes j wounds from a model with w left))]."""
    out: list[list[tuple[int, float]]] = [[]]
    for w in range(1, wounds + 1):
        row = [0.0] * (w + 1)
        row[0] += 1.0 - fail
        for b, p in enumerate(damage):
            if p:
                row[min(b, w)] += fail * p
        out.append([(j, p) for j, p in enumerate(row) if p])
    return out


def by_model(lay: Layout, final: D.Dist) -> list[ModelSummary]:
    """Models slain of each kind, from the distribution over states."""
    kinds = lay.kinds

    def slain_before(seq: Sequence) -> list[list[int]]:
        # slain_before(seq)[i]: models of each kind among the first i of the sequence.
        rows = [[0] * len(kinds)]
        for k in seq.kind_of:
            rows.append(list(rows[-1]))
            rows[-1][k] += 1
        return rows

    body, chars = slain_before(lay.body), slain_before(lay.chars)
    slain = [[0.0] * (k.count + 1) for k in kinds]
    for s, p in enumerate(final):
        if p:
            rb, rc = lay.split(s)
            b, c = body[lay.body.first_alive(rb)], chars[lay.chars.first_alive(rc)]
            for k in range(len(kinds)):
                slain[k][b[k] + c[k]] += p
    return [
        ModelSummary(name=k.name, count=k.count, models_slain=dist, expected_models_slain=D.mean(dist),
                     p_all_slain=dist[-1])
        for k, dist in zip(kinds, slain)
    ]


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
        toughness = run.toughness if group.target is None else Toughness(
            scenario.ruleset, target, layout(scenario.ruleset, target))
        # The group's profile against the unit as it stands when the attacks begin.
        run.first.append(run.profile(i, toughness.at(run.lay.size - 1)))
        builder = _builder(scenario.ruleset, run.lay, target.model_kinds(), group.conditions or scenario.conditions,
                           weapon, run.base, run.first[-1].event_damage)
        precise = run.lay.precision and weapon.has("precision")
        if scenario.ruleset == "10e":
            run.group_10e(i, builder, precise, toughness)
        else:
            run.group_11e(i, builder, precise, toughness)
    run.resolve_deferred()
    return _result(scenario, run)


class _Allocation:
    """The distribution over allocation states while the weapon groups resolve.

    ``state`` maps a label to a vector over states: the label holds the counts of 10e
    [DEVASTATING WOUNDS] packets still waiting, one per deferred group (11e: none).
    """

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        target = scenario.target
        self.lay = layout(scenario.ruleset, target)
        self.toughness = Toughness(scenario.ruleset, target, self.lay)
        models = sum(k.count for k in self.lay.kinds)
        # Hit and wound rolls see the whole unit; saves and Feel No Pain are per kind (_builder).
        self.base = replace(target, models=models, keywords=unit_keywords(target), feel_no_pain=None, kinds=())
        self.profiles: dict[tuple[int, int], GroupProfile] = {}
        start = [0.0] * self.lay.size
        start[-1] = 1.0
        self.state: dict[tuple[int, ...], D.Dist] = {(): start}
        self.deferred: list[tuple[int, StateChain]] = []
        self.rewards = [Reward() for _ in scenario.groups]
        self.wounds_mean = [0.0] * len(scenario.groups)
        self.first: list[GroupProfile] = []

    def profile(self, i: int, toughness: int) -> GroupProfile:
        """Group i's wounds (before saves) against the unit's Toughness ``toughness``."""
        key = (i, toughness)
        if key not in self.profiles:
            s, g = self.scenario, self.scenario.groups[i]
            self.profiles[key] = group_profile(s.ruleset, g.models, g.weapon, replace(self.base, toughness=toughness),
                                               g.conditions or s.conditions, g.modifiers or s.modifiers, saves=False)
        return self.profiles[key]

    def group_10e(self, i: int, builder: Builder, precise: bool, toughness: Toughness) -> None:
        """One Toughness throughout; [DEVASTATING WOUNDS] packets wait for every group."""
        floor = 0 if precise else None
        prof = self.profile(i, toughness.fixed)
        self.wounds_mean[i] = D.mean(prof.attacks) * prof.expected_wounds_per_attack
        normal = builder.chain(NORMAL, floor)
        new_state: dict[tuple[int, ...], D.Dist] = {}
        if prof.devastating:
            rows = _rows_by_mortal(prof)
            ms = sorted(rows)
            for label, v in self.state.items():
                accs = normal.absorb_each(v, [rows[m] for m in ms], self.rewards[i])
                for m, acc in zip(ms, accs):
                    new_state[label + (m,)] = acc
            # 10e Mortal Wounds: a [PRECISION] attack's mortal wounds can go to a CHARACTER too.
            self.deferred.append((i, builder.chain(MORTAL, floor)))
        else:
            counts = D.random_sum(prof.attacks, D.joint_total(prof.per_attack))
            for label, v in self.state.items():
                new_state[label] = normal.absorb(v, counts, self.rewards[i])
        self.state = new_state

    def group_11e(self, i: int, builder: Builder, precise: bool, toughness: Toughness) -> None:
        """Toughness and the [PRECISION] pick read from the state when the group begins."""
        lay = self.lay
        parts: dict[tuple[int, int | None], D.Dist] = {}
        for s, p in enumerate(self.state[()]):
            if p:
                rc = s // lay.nb
                # 24.28: the CHARACTER first in line is current until it is destroyed.
                floor = lay.chars.tail[lay.chars.head[rc][0] + 1] if precise and rc else None
                part = parts.setdefault((toughness.at(s), floor), [0.0] * lay.size)
                part[s] = p
        out = [0.0] * lay.size
        reward = self.rewards[i]
        for (toughness, floor), part in parts.items():
            prof = self.profile(i, toughness)
            self.wounds_mean[i] += sum(part) * D.mean(prof.attacks) * prof.expected_wounds_per_attack
            normal = builder.chain(NORMAL, floor)
            if prof.devastating:
                rows = _rows_by_mortal(prof)
                accs = normal.absorb_each(part, [rows.get(m, [0.0]) for m in range(max(rows) + 1)], reward)
                # 24.10: the packets follow the group's normal damage; 06.02: non-CHARACTER models first.
                after = builder.chain(MORTAL, None).power_series(accs, reward)
            else:
                counts = D.random_sum(prof.attacks, D.joint_total(prof.per_attack))
                after = normal.absorb(part, counts, reward)
            _add(out, after, 1.0)
        self.state = {(): out}

    def resolve_deferred(self) -> None:
        """10e: the waiting packets, after every group's normal damage, in group order."""
        for i, chain in self.deferred:
            # The first label component belongs to the earliest deferred group.
            grouped: dict[tuple[int, ...], list[D.Dist]] = {}
            for label, v in self.state.items():
                vectors = grouped.setdefault(label[1:], [])
                while len(vectors) <= label[0]:
                    vectors.append([0.0] * self.lay.size)
                vectors[label[0]] = v
            self.state = {rest: chain.power_series(vectors, self.rewards[i]) for rest, vectors in grouped.items()}


def _rows_by_mortal(prof) -> dict[int, D.Dist]:
    """{m: [P(k normal wounds and m mortal wound packets)]} over the group's attacks."""
    joint = D.joint_random_sum(prof.attacks, prof.per_attack)
    rows: dict[int, D.Dist] = {}
    for (k, m), p in joint.items():
        row = rows.setdefault(m, [])
        if len(row) <= k:
            row.extend([0.0] * (k + 1 - len(row)))
        row[k] += p
    return rows


def _builder(ruleset: str, lay: Layout, kinds: tuple[ModelKind, ...], conditions: Conditions, weapon, base: Target,
             raw_damage: D.Dist) -> Builder:
    """Per kind (``kinds``: the layout's, as this group meets them): the save against this
    weapon, and its damage through Feel No Pain."""
    loss: dict[str, list] = {NORMAL: [], MORTAL: []}
    unsaved: dict[str, list[float]] = {NORMAL: [], MORTAL: []}
    damage: dict[str, list[float]] = {NORMAL: [], MORTAL: []}
    for kind in kinds:
        fail = save_fail(ruleset, weapon, kind_view(kind, base), conditions.cover)
        through = D.thin(raw_damage, feel_no_pain_loses(kind.feel_no_pain))
        for event, f in ((NORMAL, fail), (MORTAL, 1.0)):
            loss[event].append(loss_table(f, through, kind.wounds))
            unsaved[event].append(f)
            damage[event].append(f * D.mean(through))
    return Builder(lay, loss, unsaved, damage)


def _result(scenario: Scenario, run: _Allocation) -> Result:
    lay, final, first = run.lay, run.state[()], run.first
    kinds = lay.kinds
    models = sum(k.count for k in kinds)
    total = lay.body.total + lay.chars.total
    wounds_removed = [0.0] * (total + 1)
    models_slain = [0.0] * (models + 1)
    for s, p in enumerate(final):
        if p:
            rb, rc = lay.split(s)
            wounds_removed[total - rb - rc] += p
            slain = lay.body.first_alive(rb) + lay.chars.first_alive(rc)
            models_slain[slain] += p
    summaries = []
    for i, (g, prof) in enumerate(zip(scenario.groups, first)):
        attacks = D.mean(prof.attacks)
        unsaved, damage = run.rewards[i].unsaved, run.rewards[i].damage
        summaries.append(GroupSummary(
            name=prof.name, models=g.models, expected_attacks=attacks,
            expected_hits=attacks * prof.expected_hits_per_attack, expected_wounds=run.wounds_mean[i],
            expected_unsaved=unsaved, expected_damage=damage, notes=list(prof.notes),
        ))
    return result(scenario, first, summaries, wounds_removed, models_slain, final[0], by_model(lay, final))
