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
state 0 is the destroyed unit. What depends on the unit alone (which model is current
in each state, the unit's Toughness there, where each state counts in the results) is
computed once per unit (``Plan``, cached); a weapon group adds its loss tables, and an
event moves a state vector with one numpy operation per number of wounds it can remove
(``Chain``).

Results are the same floats, bit for bit, as a plain Python loop over the states in
ascending order (the form this replaced): every sum takes its terms in that order
(elementwise numpy operations, ``cumsum`` and ``bincount``, never a BLAS product or a
pairwise sum), but for the packets' slabs hit by hit (``_by_hits``: one matrix product,
within about 1e-15 of the loop it replaced) and the small product per attack of
``_with_packets``. Groups with [DEVASTATING WOUNDS] go by the joint law of their wounds and
packets (the same bits as ever) up to a budget of work, and beyond it by whichever of that law,
hit by hit (``_by_hits``) or attack by attack (``_with_packets``, on a state vector that also
counts the mortal-wound packets waiting) a cost model says is cheapest (``_joint_cheaper``).
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import log, log1p

import numpy as np

from warscribe.engine import dist as D
from warscribe.engine.attack import GroupProfile, active_abilities, attacks_per_model, group_profile
from warscribe.engine.model import Conditions, GroupSummary, ModelKind, ModelSummary, Result, Scenario, Target
from warscribe.engine.outcome import result
from warscribe.engine.rules import feel_no_pain_loses, save_fail_of

try:  # The chain's loops in C, the same bits (engine/_chains.c); without a compiler, numpy alone.
    from warscribe.engine import _chains as _native
except ImportError:  # pragma: no cover (a machine without a C compiler)
    _native = None

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
    return plan(ruleset, target).lay


def _layout(kinds: tuple[ModelKind, ...], precision: bool) -> Layout:
    indexed = list(enumerate(kinds))
    if precision:
        body = [(i, k) for i, k in indexed if not k.character]
        chars = [(i, k) for i, k in indexed if k.character]
    else:
        body, chars = indexed, []
    return Layout(kinds=kinds, body=Sequence(body), chars=Sequence(chars), precision=precision)


def state_count(ruleset: str, target: Target) -> int:
    """Size of the allocation state space (for the scenario's size limit)."""
    kinds = target.model_kinds()
    if precision_applies(ruleset, target) and any(k.character for k in kinds):
        body = sum(k.count * k.wounds for k in kinds if not k.character)
        return (body + 1) * (sum(k.count * k.wounds for k in kinds if k.character) + 1)
    return sum(k.count * k.wounds for k in kinds) + 1


# Beyond this bound (``devastating_work``) a scenario is refused: about 0.7 s hit by hit, and
# up to 7 s stepping attack by attack (where the hits are too many to go hit by hit).
MAX_KINDS_WORK = 500_000_000


def devastating_work(ruleset: str, target: Target, group, conditions: Conditions) -> tuple[int, int]:
    """(an upper bound on the cells a [DEVASTATING WOUNDS] group touches, the packets it can make)
    against a target with several kinds: each hit can be a packet, and the packets waiting are
    counted beside the states (up to the unit's wounds when no Feel No Pain can stop one)."""
    weapon = group.weapon
    if not weapon.has("devastating-wounds"):
        return 0, 0
    attacks = group.models * (len(attacks_per_model(weapon, target, conditions)) - 1)
    sustained = next((a for a in weapon.abilities if a["id"] == "sustained-hits"), None)
    hits = attacks * (len(D.dice(sustained["value"])) if sustained is not None else 1)
    kinds = target.model_kinds()
    packets = hits if any(k.feel_no_pain for k in kinds) else min(hits, sum(k.count * k.wounds for k in kinds))
    return state_count(ruleset, target) * hits * (packets + 8), packets


def unit_keywords(target: Target) -> frozenset[str]:
    """'A unit has all the keywords of all models in that unit' (Inquisitor's Hand)."""
    out = set(target.keywords)
    for kind in target.model_kinds():
        out |= kind.keywords
    return frozenset(out)


def plan(ruleset: str, target: Target) -> Plan:
    return _plan(ruleset, target.model_kinds(), target.attached)


def _plan(ruleset: str, kinds: tuple[ModelKind, ...], attached: bool) -> Plan:
    return _PLANS.get((ruleset, kinds, attached))


class Plan:
    """What the unit's states mean, whatever shoots at it: computed once per unit.

    Per state: the model an event goes to (``current``, for each [PRECISION] floor),
    the unit's Toughness (10e: ``fixed_toughness``), the 11e [PRECISION] pick, and
    where the state counts in the results (wounds removed, models slain, per kind).
    """

    def __init__(self, ruleset: str, kinds: tuple[ModelKind, ...], attached: bool):
        precision = (ruleset == "11e" or attached) and any(k.character for k in kinds)
        lay = self.lay = _layout(kinds, precision)
        body, chars = lay.body, lay.chars
        self.nb, self.size = nb, size = lay.nb, lay.size
        self.wmax = max(k.wounds for k in kinds)
        states = np.arange(size)
        self.rb, self.rc = states % nb, states // nb
        # The unit's Toughness (Toughness of engine/groups.py before: 10e fixed, 11e per state).
        guards = [k.toughness for k in kinds if not k.character]
        self.fixed_toughness: int | None = None
        if ruleset == "10e":
            # 10e Leader: the bodyguard's Toughness while the attacking unit resolves its
            # attacks; a unit that is not attached: the highest (as 11e 05.02.01).
            self.fixed_toughness = max(guards) if attached and guards else max(k.toughness for k in kinds)
            self.toughness = None
        else:
            body_guard = body.max_over_alive([0 if kinds[i].character else kinds[i].toughness for i in body.kind_of])
            body_all = body.max_over_alive([kinds[i].toughness for i in body.kind_of])
            chars_all = chars.max_over_alive([kinds[i].toughness for i in chars.kind_of])
            highest = max(k.toughness for k in kinds)
            tough = []
            for rc in range(chars.total + 1):
                for rb in range(nb):
                    if attached and body_guard[rb]:
                        tough.append(body_guard[rb])
                    else:
                        tough.append(max(body_all[rb], chars_all[rc]) or highest)  # destroyed: any T will do
            self.toughness = np.array(tough)
        # 11e 24.28: the CHARACTER first in line is current until it is destroyed.
        self.floor_11e = np.array([chars.tail[chars.head[rc][0] + 1] if rc else -1 for rc in range(chars.total + 1)])[
            self.rc]
        # Where each state counts in the results.
        total = body.total + chars.total
        b_first = np.array([body.first_alive(r) for r in range(nb)])
        c_first = np.array([chars.first_alive(r) for r in range(chars.total + 1)])
        self.removed_at = total - self.rb - self.rc
        self.slain_at = b_first[self.rb] + c_first[self.rc]
        self.models = sum(k.count for k in kinds)
        self.total = total
        self.slain_of_kind = []
        for k in range(len(kinds)):
            before_b = np.cumsum([0] + [1 if x == k else 0 for x in body.kind_of])
            before_c = np.cumsum([0] + [1 if x == k else 0 for x in chars.kind_of])
            self.slain_of_kind.append(before_b[b_first][self.rb] + before_c[c_first][self.rc])
        self._current: dict[int | None, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        # At most: the arrays above, and four per floor ``current`` is asked for.
        self.cells = size * (10 + len(kinds) + 4 * (chars.total + 2))
        self.kept: _Kept | None = None

    def current(self, floor: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The model an event goes to, per state: (row, kind, in B, in C).

        ``row`` is 1 + kind x (wmax + 1) + its wounds left (0 at state 0, where nothing
        is left); ``kind`` is len(kinds) at state 0; ``in B``/``in C`` are 1.0 or 0.0.
        Events go to C while its wounds left exceed ``floor`` (None: C only once B is gone).
        """
        if floor not in self._current:
            lay = self.lay
            rb, rc = self.rb, self.rc
            b_kind = np.array([lay.body.kind_of[m] if m < len(lay.body.kind_of) else 0 for m, _ in lay.body.head])
            b_w = np.array([w for _, w in lay.body.head])
            c_kind = np.array([lay.chars.kind_of[m] if m < len(lay.chars.kind_of) else 0 for m, _ in lay.chars.head])
            c_w = np.array([w for _, w in lay.chars.head])
            in_c = (rb == 0) & (rc > 0)
            if floor is not None:
                in_c |= rc > floor
            in_b = ~in_c & (rb > 0)
            none = len(lay.kinds)
            kind = np.where(in_c, c_kind[rc], np.where(in_b, b_kind[rb], none))
            wounds = np.where(in_c, c_w[rc], np.where(in_b, b_w[rb], 0))
            row = np.where(kind == none, 0, 1 + kind * (self.wmax + 1) + wounds)
            self._current[floor] = (row, kind, in_b.astype(float), in_c.astype(float))
        return self._current[floor]


class Chain:
    """One event (a wound, or a mortal wound packet) on the unit's states.

    ``steps`` are (offset, coefficients): an event at state s removes j wounds from the
    current model with probability q, moving its mass to s - j (B) or s - j x |B+1| (C);
    the coefficients of offset o hold q at the states it leaves, ``stay`` the chance
    that nothing is removed. ``unsaved[s]`` and ``damage[s]`` are what one event at
    state s gets through the save and inflicts through Feel No Pain (overkill
    included); the methods add their expected totals over the events applied to a
    ``Reward``.

    A state vector is an array whose last axis is the states; the rows before it are
    independent (the 10e counts of packets waiting, one row per count).
    """

    def __init__(self, stay: np.ndarray, steps: list[tuple[int, np.ndarray]], unsaved: np.ndarray,
                 damage: np.ndarray):
        self.stay = stay
        # By offset, ascending: out[t] then adds its terms from s = t, t + 1, ... in order.
        steps = sorted(steps, key=lambda x: x[0])
        self.steps = [(o, c[o:]) for o, c in steps]
        # The same as one gather: terms[i][t] = coefficient i of target t (stay first), from state source[i][t].
        size = len(stay)
        self.offsets = np.array([0] + [o for o, _ in steps], dtype=np.int64)
        self.terms = np.zeros((len(steps) + 1, size))
        self.terms[0] = stay
        for row, (o, c) in zip(self.terms[1:], steps):
            row[:max(size - o, 0)] = c[o:]
        self.unsaved = unsaved
        self.damage = damage
        # The unit untouched, then after 1, 2, ... events (``from_start``), grown on demand.
        start = np.zeros((1, len(stay)))
        start[0, -1] = 1.0
        self.powers = start[None]
        self.rewards: list[tuple[float, float]] = []  # the expected reward of an event at each power
        self.destroyed: int | None = None  # the first power with every model slain
        # The numbers it holds (``_CHAINS`` keeps chains within a budget of them); the powers grow.
        self.cells = self.stay.size + 2 * self.terms.size + unsaved.size + damage.size + size  # terms, source
        self.kept: _Kept | None = None

    @cached_property
    def source(self) -> np.ndarray:
        """source[i][t]: the state coefficient i of target t comes from (numpy's gather, ``step``)."""
        size = len(self.stay)
        return np.minimum(np.arange(size)[None, :] + self.offsets[:, None], size - 1)

    def step(self, v: np.ndarray) -> np.ndarray:
        """v T: one event applied (to every row).

        out[t] sums v[s] q(s -> t) over s = t, t + 1, ... in that order: as diagonals
        (one operation per offset) or, with several offsets, as one gather and the terms
        added in that order (contiguous rows: a cumsum along a short last axis cost more
        than the gather, and this step is most of a dice-heavy call).
        """
        if _native is not None:
            v = np.ascontiguousarray(v, dtype=float)
            out = np.empty(v.shape)
            _native.step(self.terms, self.offsets, v, v.size // len(self.stay), out)
            return out
        if len(self.steps) < 2 or v.size > GATHER_CELLS:
            out = v * self.stay
            for o, c in self.steps:
                out[..., :-o] += v[..., o:] * c
            return out
        if v.ndim == 2 and len(v) == 1:
            # One row (the untouched unit's powers, a Horner scheme over packets): plain
            # vectors index and slice in half the time, and this runs once per packet.
            terms = v[0][self.source] * self.terms
            out = terms[0] + terms[1]
            for i in range(2, len(terms)):
                out += terms[i]
            return out[None]
        terms = v[..., self.source] * self.terms
        out = terms[..., 0, :] + terms[..., 1, :]
        for i in range(2, len(self.terms)):
            out += terms[..., i, :]
        return out

    def expected(self, vectors: list[np.ndarray], weights: list[float], reward: Reward) -> None:
        """Adds weights[i] x (the expected reward of an event at vectors[i]), row by row, in order.

        Each sum over the states is taken in ascending order (cumsum), as a loop would.
        """
        if not vectors:
            return
        stack = np.array(vectors)
        unsaved = (stack * self.unsaved).cumsum(axis=-1)[..., -1].T.tolist()
        damage = (stack * self.damage).cumsum(axis=-1)[..., -1].T.tolist()
        for row_u, row_d in zip(unsaved, damage):
            for w, u, d in zip(weights, row_u, row_d):
                reward.unsaved += w * u
                reward.damage += w * d

    def absorb(self, v: np.ndarray, count: D.Dist, reward: Reward) -> np.ndarray:
        """sum_e P(N = e) v T^e: the states after N ~ count events."""
        acc = np.zeros(v.shape)
        tails = _tails(count)
        last = len(count) - 1
        check = self._may_empty(v, last)
        if _native is not None:  # absorb_each of one count: the same operations
            tails_row = np.array(tails)
            reward.unsaved, reward.damage = _native.absorb_each(
                self.terms, self.offsets, self.unsaved, self.damage, np.ascontiguousarray(v, dtype=float), len(v),
                np.array(count, dtype=float), 1, tails_row, tails_row, check, acc, (reward.unsaved, reward.damage))
            return acc
        cur = v
        seen: list[np.ndarray] = []
        weights: list[float] = []
        for e in range(last + 1):
            pe = count[e]
            if pe:
                acc += pe * cur
            more = tails[e]  # P(N > e): the (e+1)-th event happens
            if e == last or not more:
                break
            if check:
                alive = cur[:, 1:].any(axis=1)
                if not alive.all():
                    # A destroyed unit: the remaining events change nothing.
                    acc[:, 0] += more * cur[:, 0] * ~alive
                    if not alive.any():
                        break
                    cur = cur * alive[:, None]
            seen.append(cur)
            weights.append(more)
            cur = self.step(cur)
        self.expected(seen, weights, reward)
        return acc

    def _may_empty(self, v: np.ndarray, events: int) -> bool:
        """False when no row of v can have every model slain within ``events`` events: the mass on
        a row's highest state only leaves it by the chance that an event removes nothing there,
        and cannot underflow to zero within that many events. (Then the checks for destroyed
        rows, a few numpy calls per event, would find none: skipping them changes no bit.)"""
        if len(v) == 1:
            held = np.flatnonzero(v[0])
            if not len(held) or not held[-1]:
                return True
            top = int(held[-1])
            stay = float(self.stay[top])
            return stay <= 0.0 or log(float(v[0, top])) + events * log(stay) < -700.0
        held = v > 0.0
        if not held[:, 1:].any(axis=1).all():
            return True
        top = v.shape[1] - 1 - held[:, ::-1].argmax(axis=1)  # each row's highest state with mass
        stay = self.stay[top]
        if not (stay > 0.0).all():
            return True
        mass = v[np.arange(len(v)), top]
        return bool((np.log(mass) + events * np.log(stay) < -700.0).any())

    def absorb_each(self, v: np.ndarray, counts: Counts, reward: Reward) -> np.ndarray:
        """``absorb`` for several (sub-)distributions of the count, sharing the powers v T^e: (counts, rows, states)."""
        table, tails, every = counts.table, counts.tails, counts.every
        last = table.shape[1] - 1
        check = self._may_empty(v, last)
        acc = np.zeros((len(table),) + v.shape)
        if _native is not None:
            reward.unsaved, reward.damage = _native.absorb_each(
                self.terms, self.offsets, self.unsaved, self.damage, np.ascontiguousarray(v, dtype=float), len(v),
                np.ascontiguousarray(table, dtype=float), len(table), np.ascontiguousarray(tails, dtype=float),
                np.array(every, dtype=float), check, acc, (reward.unsaved, reward.damage))
            return acc
        cur = v
        seen: list[np.ndarray] = []
        weights: list[float] = []
        for e in range(last + 1):
            pe = table[:, e]
            if pe.any():
                acc += pe[:, None, None] * cur
            more = every[e]  # P(N > e): the (e+1)-th event happens
            if e == last or not more:
                break
            alive = cur[:, 1:].any(axis=1) if check else None
            if check and not alive.all():
                # A destroyed unit: the remaining events change nothing.
                acc[:, :, 0] += tails[:, e, None] * (cur[:, 0] * ~alive)
                if not alive.any():
                    break
                cur = cur * alive[:, None]
            seen.append(cur)
            weights.append(more)
            cur = self.step(cur)
        self.expected(seen, weights, reward)
        return acc

    def absorb_rows(self, v: np.ndarray, counts: list[D.Dist], reward: Reward) -> np.ndarray:
        """``absorb`` of each row of v by its own count: the rows at once, each summed as on its own."""
        if len(counts) == 1:
            return self.absorb(v, counts[0], reward)
        last = max(len(c) for c in counts) - 1
        table, tails = _padded(counts, last), _padded([_tails(c) for c in counts], last)
        acc = np.zeros(v.shape)
        check = self._may_empty(v, last)
        if _native is not None:
            reward.unsaved, reward.damage = _native.absorb_rows(
                self.terms, self.offsets, self.unsaved, self.damage, np.ascontiguousarray(v, dtype=float), len(v),
                table, tails, check, acc, (reward.unsaved, reward.damage))
            return acc
        cur = v
        seen: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        for e in range(last + 1):
            acc += table[:, e, None] * cur
            more = tails[:, e]  # a row whose count is done has none: it adds nothing more
            if e == last or not more.any():
                break
            dead = ~cur[:, 1:].any(axis=1) if check else None
            if check and dead.any():
                acc[:, 0] += more * cur[:, 0] * dead
                if dead.all():
                    break
                cur = cur * ~dead[:, None]
            seen.append(cur)
            weights.append(more)
            cur = self.step(cur)
        if seen:
            stack = np.array(seen)
            weight = np.array(weights)
            unsaved = (stack * self.unsaved).cumsum(axis=-1)[..., -1]
            damage = (stack * self.damage).cumsum(axis=-1)[..., -1]
            for row_w, row_u, row_d in zip(weight.T.tolist(), unsaved.T.tolist(), damage.T.tolist()):
                for w, u, d in zip(row_w, row_u, row_d):
                    reward.unsaved += w * u
                    reward.damage += w * d
        return acc

    def from_start(self, counts: Counts, reward: Reward) -> np.ndarray:
        """``absorb_each`` from the untouched unit: the same sums, over powers kept from earlier calls."""
        every = counts.every
        last = len(every) - 1
        stop = next((e for e in range(last + 1) if e == last or not every[e]), last)
        dead = self._grow(stop)
        mores = every[:stop if dead is None else dead]
        used = len(mores) + 1
        powers = self.powers[:used]
        table = counts.table[:, :used]
        if _native is not None:
            acc = np.empty((len(table),) + powers.shape[1:])
            _native.weighted_sum(np.ascontiguousarray(counts.table, dtype=float), len(table), self.powers, used,
                                 powers[0].size, acc)
        elif len(table) == 1 and used > 4:
            acc = (table[0, :, None, None] * powers).cumsum(axis=0)[-1][None]
        elif used > 1 and table.size * powers.shape[-1] <= MEMO_CELLS:
            # Rows of packets at once: the sum over e in its order (a cumsum), one numpy call
            # in place of one per e.
            acc = (table[:, :, None, None] * powers[None]).cumsum(axis=1)[:, -1]
        else:
            acc = np.zeros((len(table),) + powers.shape[1:])
            for e in range(used):
                acc += table[:, e, None, None] * powers[e]
        if dead is not None:
            acc[:, :, 0] += counts.tails[:, dead, None] * powers[dead][:, 0]
        for more, (u, d) in zip(mores, self.rewards):
            reward.unsaved += more * u
            reward.damage += more * d
        return acc

    def _grow(self, upto: int) -> int | None:
        """Powers up to ``upto`` events, unless one before it has every model slain: then its index.

        A power is checked (every model slain?) and its reward kept only when a later one is
        made from it: in C in one pass; in numpy the steps first, then every check and reward
        at once (each reward the same sum, in the same order, as on its own). The powers are
        joined once.
        """
        if self.destroyed is not None:
            return self.destroyed if self.destroyed < upto else None
        have = len(self.powers)
        if have > upto:
            return None
        if _native is not None:
            count = upto + 1 - have
            stack = np.empty((count + 1, len(self.stay)))  # powers have - 1, have, ..., upto
            pairs = np.empty(2 * count)
            made, dead = _native.powers(self.terms, self.offsets, self.unsaved, self.damage,
                                        np.ascontiguousarray(self.powers[-1], dtype=float), count, stack, pairs)
            rewards = pairs[:2 * made].reshape(-1, 2).tolist()
        else:
            grown = [self.powers[-1]]  # each (1, states): powers have - 1, have, ..., upto
            for _ in range(upto + 1 - have):
                grown.append(self.step(grown[-1]))
            stack = np.concatenate(grown)
            held = np.flatnonzero(~stack[:-1, 1:].any(axis=1))
            made = int(held[0]) if len(held) else len(stack) - 1  # powers stepped from (each with its reward)
            dead = bool(len(held))
            u = (stack[:made] * self.unsaved).cumsum(axis=-1)[:, -1].tolist()
            d = (stack[:made] * self.damage).cumsum(axis=-1)[:, -1].tolist()
            rewards = list(zip(u, d))
        if made:
            self.rewards += map(tuple, rewards)
            self.powers = np.concatenate([self.powers, stack[1:made + 1, None]])
            self.cells += made * stack.shape[1]
            if self.kept is not None:
                self.kept.cells += made * stack.shape[1]
        if dead:
            self.destroyed = have - 1 + made
            return self.destroyed
        return None

    def power_series(self, vectors: list[np.ndarray], reward: Reward) -> np.ndarray:
        """sum_m vectors[m] T^m by Horner's scheme: pending events applied last."""
        if _native is not None:
            out = np.empty(vectors[-1].shape)
            reward.unsaved, reward.damage = _native.power_series(
                self.terms, self.offsets, self.unsaved, self.damage, np.array(vectors, dtype=float), len(vectors),
                out.size // len(self.stay), out, (reward.unsaved, reward.damage))
            return out
        out = vectors[-1].copy()
        seen = []
        for m in range(len(vectors) - 2, -1, -1):
            seen.append(out)
            out = self.step(out)
            out += vectors[m]
        self.expected(seen, [1.0] * len(seen), reward)
        return out


@dataclass
class Reward:
    """Expected unsaved wounds (and mortal wound packets) and damage, summed over events."""

    unsaved: float = 0.0
    damage: float = 0.0


def _padded(dists: list[D.Dist], last: int) -> np.ndarray:
    """The distributions as rows of one array, zeros after their ends."""
    out = np.zeros((len(dists), last + 1))
    for row, dist in zip(out, dists):
        row[:len(dist)] = dist
    return out


class Counts:
    """Distributions of a count (or sub-distributions, one per number of packets waiting) as rows.

    ``tails[c][e]`` = P(N_c > e) and ``every[e]`` their sum over the rows, each summed in
    the order a loop over the lists would take (cumsum), so as ``_tails`` does.
    """

    def __init__(self, table: np.ndarray):
        self.table = table
        self.tails = np.zeros(table.shape)
        if table.shape[1] > 1:  # the running sums from the end, written straight into their places
            np.cumsum(table[:, :0:-1], axis=1, out=self.tails[:, -2::-1])
        # The sum over the rows: a reduction along the first axis adds row after row (no pairwise sum).
        self.every = (np.add.reduce(self.tails, axis=0) if len(table) > 1 else self.tails[0]).tolist()

    @classmethod
    def of(cls, dists: list[D.Dist]) -> Counts:
        return cls(_padded(dists, max(len(d) for d in dists) - 1))


def _tails(count: D.Dist) -> list[float]:
    """tails[e] = P(N > e)."""
    out = [0.0] * len(count)
    acc = 0.0
    for e in range(len(count) - 1, -1, -1):
        out[e] = acc
        acc += count[e]
    return out


class Builder:
    """The chains of one weapon group's events on the unit's states."""

    def __init__(self, plan_: Plan, fail: list[float], through: list[D.Dist]):
        self.plan = plan_
        self.fail = tuple(fail)  # per kind: the save against this weapon fails
        self.through = tuple(map(tuple, through))  # per kind: the damage of an event through its Feel No Pain
        # Every packet takes a wound when no kind can ignore all of its damage.
        self.never_nothing = all(t[0] == 0.0 for t in through)

    def chain(self, event: str, floor: int | None) -> Chain:
        """Events that go to C while its wounds left exceed ``floor`` (None: never first)."""
        return _chain(self.plan, floor, self.fail if event == NORMAL else (1.0,) * len(self.fail), self.through)

    def thinned(self, floor: int | None, per_hit: tuple[float, float]) -> Chain:
        """A hit that is not a packet, as an event: a normal wound with probability a / (1 - b)."""
        a, b = per_hit
        keep = a / (1.0 - b)
        return _chain(self.plan, floor, tuple(keep * f for f in self.fail), self.through)


# Up to this many numbers a step is one gather (fewer numpy calls; measured faster up to a few
# thousand cells with two to four offsets); beyond, one operation per offset.
GATHER_CELLS = 2048
# Powers of the untouched unit a chain keeps (states x events): about 400 kB at most.
MEMO_CELLS = 50_000


class _Kept:
    """What was made most recently, up to ``entries`` of them and ``cells`` numbers in all.

    For the values each unit needs whatever shoots at it (its ``Plan``, its ``Chain``s):
    every weapon against every target meets a few per target, and a bound on their count
    alone (128 chains before) let a cycle of a few hundred scenarios rebuild them on every
    call, about half its time. A value is counted by the numbers it holds (``.cells``);
    a chain's powers add to them as they grow (``Chain._grow``, through ``.kept``).
    """

    def __init__(self, make, entries: int, cells: int):
        self.make, self.entries, self.budget = make, entries, cells
        self.values: OrderedDict = OrderedDict()
        self.cells = 0

    def get(self, key: tuple):
        found = self.values.get(key)
        if found is not None:
            self.values.move_to_end(key)
            return found
        value = self.values[key] = self.make(*key)
        value.kept = self
        self.cells += value.cells
        while len(self.values) > 1 and (len(self.values) > self.entries or self.cells > self.budget):
            _, old = self.values.popitem(last=False)
            old.kept = None
            self.cells -= old.cells
        return value

    def clear(self) -> None:
        for value in self.values.values():
            value.kept = None
        self.values.clear()
        self.cells = 0


def _chain(p: Plan, floor: int | None, fails: tuple[float, ...], throughs: tuple[tuple[float, ...], ...]) -> Chain:
    return _CHAINS.get((p, floor, fails, throughs))


def _make_chain(p: Plan, floor: int | None, fails: tuple[float, ...], throughs: tuple[tuple[float, ...], ...]) -> Chain:
    kinds = p.lay.kinds
    reach = min(p.wmax, max(len(t) for t in throughs) - 1)
    # rows[1 + kind x (wmax + 1) + w][j] = P(an event removes j wounds from a model with w left).
    rows = [[1.0] + [0.0] * reach]  # state 0: nothing left to remove
    for kind, fail, through in zip(kinds, fails, throughs):
        rows += loss_rows(fail, through, kind.wounds, p.wmax, reach)
    row, kind, in_b, in_c = p.current(floor)
    table = np.array(rows)
    removes = table[:, 1:].T[:, row]  # removes[j - 1][s]: j wounds at state s
    to_b = removes * in_b
    to_c = removes * in_c
    steps = [(j + 1, to_b[j]) for j in np.flatnonzero(to_b.any(axis=1)).tolist()]
    steps += [((j + 1) * p.nb, to_c[j]) for j in np.flatnonzero(to_c.any(axis=1)).tolist()]
    means = [f * D.mean(t) for f, t in zip(fails, throughs)]
    unsaved = np.array(list(fails) + [0.0])[kind]
    damage = np.array(means + [0.0])[kind]
    return Chain(table[row, 0], steps, unsaved, damage)


# About 64 MB of chains and as much of plans at most: a unit of a few hundred states holds
# well under 100 kB of either; the largest allowed (20,000 states) some megabytes.
_CHAINS = _Kept(_make_chain, entries=4096, cells=8_000_000)
_PLANS = _Kept(Plan, entries=1024, cells=8_000_000)


@lru_cache(maxsize=1024)
def loss_rows(fail: float, damage: tuple[float, ...], wounds: int, wmax: int, reach: int) -> list[list[float]]:
    """``loss_table`` as dense rows j = 0..reach for w = 0..wmax (zero rows where w is 0 or above ``wounds``)."""
    out = [[0.0] * (reach + 1) for _ in range(wmax + 1)]
    for w, row in enumerate(loss_table(fail, damage, wounds)):
        for j, q in row:
            out[w][j] = q
    return out


@lru_cache(maxsize=1024)
def loss_table(fail: float, damage: tuple[float, ...], wounds: int) -> list[list[tuple[int, float]]]:
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


def by_model(plan_: Plan, final: np.ndarray) -> list[ModelSummary]:
    """Models slain of each kind, from the distribution over states."""
    out = []
    for kind, at in zip(plan_.lay.kinds, plan_.slain_of_kind):
        dist = np.bincount(at, weights=final, minlength=kind.count + 1).tolist()
        out.append(ModelSummary(name=kind.name, count=kind.count, models_slain=dist, expected_models_slain=D.mean(dist),
                                p_all_slain=dist[-1]))
    return out


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
                            kinds=())
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
            self.state = self._fresh("10e alone", prof, builder, floor, cap, self.rewards[i], lambda r: mortal
                                     .power_series(list(self._waiting(prof, builder, floor, v, r, cap)), r))
        elif prof.devastating:
            cap = self.plan.total if builder.never_nothing else None
            v, reward = self.state, self.rewards[i]
            slabs = self._fresh("10e", prof, builder, floor, cap, reward,
                                lambda r: self._waiting(prof, builder, floor, v, r, cap))
            # (earlier counts..., this count, states): this count varies fastest.
            self.state = np.ascontiguousarray(slabs.transpose(1, 0, 2)).reshape(-1, self.plan.size)
            self.waiting.append(slabs.shape[0])
            # 10e Mortal Wounds: a [PRECISION] attack's mortal wounds can go to a CHARACTER too.
            self.deferred.append((i, builder.chain(MORTAL, floor)))
        else:
            self.state = self._absorb(normal, self.state, prof.table, self.rewards[i])[0]
        self.fresh = False

    def _absorb(self, chain: Chain, v: np.ndarray, counts: Counts, reward: Reward) -> np.ndarray:
        """(counts, rows, states): ``Chain.absorb_each``, from the powers kept when the unit is untouched."""
        if self.fresh and v.shape[1] * counts.table.shape[1] <= MEMO_CELLS:
            return chain.from_start(counts, reward)
        if len(counts.table) == 1:
            return chain.absorb(v, counts.table[0].tolist(), reward)[None]
        return chain.absorb_each(v, counts, reward)

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

    def _waiting(self, prof: _Profile, builder: Builder, floor: int | None, v: np.ndarray, reward: Reward,
                 cap: int | None, parts: int = 1) -> np.ndarray:
        """The states after the group's normal wounds by its packets waiting: (packets, rows, states).

        Either the joint law of wounds and packets over the group, then one absorb per packet
        count (sharing the powers), or hit by hit (``_by_hits``, when every hit rolls to wound
        alike), or attack by attack (``_with_packets``): the joint law
        grows as the cube of the attacks, the steps as the states times the packets waiting.
        ``parts``: how many parts of the state vector meet this profile (11e), which share
        one joint law (cached) but are stepped each on its own.
        """
        normal = builder.chain(NORMAL, floor)
        if _joint_cheaper(prof, v.size, cap, parts):
            return self._absorb(normal, v, _joint_counts(prof), reward)
        if _by_hits_applies(prof, v.size):
            return _by_hits(v, prof, normal, builder.thinned(floor, prof.profile.per_hit), cap, reward,
                            self.fresh)
        self._absorb(normal, v, Counts.of([prof.normal_counts]), reward)  # the normal wounds' rewards
        return _with_packets(v, prof, normal, cap)

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
            afters = [self._fresh("11e", prof, builder, floor, cap, reward, lambda r: builder.chain(MORTAL, None)
                                  .power_series(list(self._waiting(prof, builder, floor, part, r, cap)), r))]
        elif parts[0][1].devastating:
            afters = []
            sharing = Counter(id(prof) for _, prof, _ in parts)
            for part, prof, floor in parts:
                cap = plan_.total if builder.never_nothing else None
                slabs = self._waiting(prof, builder, floor, part, reward, cap, sharing[id(prof)])
                # 24.10: the packets follow the group's normal damage; 06.02: non-CHARACTER models first.
                afters.append(builder.chain(MORTAL, None).power_series(list(slabs), reward))
        elif self.fresh:
            afters = [self._absorb(builder.chain(NORMAL, parts[0][2]), v, parts[0][1].table, reward)[0]]
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
            after = builder.chain(NORMAL, floor).absorb_rows(rows, [prof.counts for _, prof, _ in batch], reward)
            out += [row[None] for row in after]
            start = end
        return out

    def resolve_deferred(self) -> None:
        """10e: the waiting packets, after every group's normal damage, in group order."""
        for (i, chain), width in zip(self.deferred, self.waiting):
            # The earliest group's count varies slowest: its slabs are contiguous blocks of rows.
            slabs = self.state.reshape(width, -1, self.plan.size)
            self.state = chain.power_series(list(slabs), self.rewards[i])


# A group's profile is a pure function of small frozen values that repeat across calls and
# targets (every weapon against every unit of one Toughness): kept, with what it derives
# (counts, hits, the tables), for the most recent PROFILES_KEPT of them.
PROFILES_KEPT = 512
_PROFILES: OrderedDict = OrderedDict()
# What a [DEVASTATING WOUNDS] group leaves of the untouched unit (``_Allocation._fresh``): its
# states after, kept for this many when of at most FRESH_CELLS numbers (at most about 50 MB).
FRESH_KEPT = 128
FRESH_CELLS = 50_000
_FRESH: OrderedDict = OrderedDict()


def _profile_of(ruleset: str, models: int, weapon, target: Target, conditions: Conditions, modifiers) -> _Profile:
    """``_Profile(group_profile(..., saves=False))``, the same object for the same inputs."""
    try:
        key = (ruleset, models, weapon.key, target, conditions, modifiers)
        hash(key)
    except TypeError:  # an ability with a value that is not hashable: no sharing
        return _Profile(group_profile(ruleset, models, weapon, target, conditions, modifiers, saves=False))
    found = _PROFILES.get(key)
    if found is None:
        found = _PROFILES[key] = _Profile(group_profile(ruleset, models, weapon, target, conditions, modifiers,
                                                        saves=False))
        if len(_PROFILES) > PROFILES_KEPT:
            _PROFILES.popitem(last=False)
    else:
        _PROFILES.move_to_end(key)
    return found


@lru_cache(maxsize=512)
def _counts_of(counts: tuple[float, ...]) -> Counts:
    return Counts.of([list(counts)])


class _Profile:
    """A weapon group's profile with what the allocation reads of it, computed once."""

    def __init__(self, profile: GroupProfile):
        self.profile = profile
        self.per_attack = profile.per_attack
        self.devastating = profile.devastating
        self.expected_wounds_per_attack = profile.expected_wounds_per_attack
        self.event_damage = profile.event_damage
        self.attacks = _attacks(tuple(profile.attacks_per_model), profile.models)

    @cached_property
    def counts(self) -> D.Dist:
        """Wounds (before saves) and mortal-wound packets the group makes."""
        return _random_sum(tuple(self.attacks), tuple(D.joint_total(self.per_attack)))

    @cached_property
    def table(self) -> Counts:
        return _counts_of(tuple(self.counts))

    @cached_property
    def hits(self) -> D.Dist:
        """Hits the group makes (``GroupProfile.hits_per_attack``), for ``_by_hits``."""
        return _random_sum(tuple(self.attacks), tuple(self.profile.hits_per_attack))

    @cached_property
    def normal_counts(self) -> D.Dist:
        """Wounds (before saves) the group makes, packets aside."""
        per_attack: D.Dist = []
        for (k, _), p in self.per_attack.items():
            D.add_scaled(per_attack, D.point(k), p)
        # Through the cache the other counts use: a profile is rebuilt on every first call.
        return _random_sum(tuple(self.attacks), tuple(per_attack))


# How a [DEVASTATING WOUNDS] group is resolved: the joint law of its wounds and packets
# (bit for bit the law before issue 24, and cached per weapon profile) whenever that costs
# at most JOINT_BUDGET, or less than going hit by hit (``_by_hits``) or attack by attack on
# the states (``_with_packets``), whose sums take another order (within about 1e-13). The
# route never depends on whether the C loops are built, so neither do the bits. Costs are in
# array cells touched (about half a nanosecond each in C); a numpy call costs about
# NUMPY_CALL_CELLS on top (measured on the bench's dice-heavy family: 2 cores, numpy 2).
NUMPY_CALL_CELLS = 2000
JOINT_SPARSE_CELL = 4  # a term of the sparse law (a product, a place looked up, an add) against a dense cell
JOINT_BUDGET = 16_000_000  # about 8 ms; the bench's 10 x D6 [SUS D3] [DEV] (60 attacks) against 110 states is 15.5M
HIT_STEP_CELLS = 8  # cells touched per state cell by a step of ``_by_hits`` (a gather and a cumsum)
JOINT_SPARSE_ATTACKS = 12  # up to this many attacks the sparse law, beyond it the dense one (the same bits)


def _joint_cheaper(prof: _Profile, cells: int, cap: int | None, parts: int = 1) -> bool:
    """Whether to take the joint law of the group's wounds and packets: it costs at most
    JOINT_BUDGET, or less than going hit by hit (``_by_hits``, where it applies) or stepping
    attack by attack over ``cells`` state cells (the packets capped at ``cap``), ``parts``
    times (the joint law is built once for them all)."""
    a = len(prof.attacks) - 1
    keys = len(prof.per_attack)
    top_k = max(k for k, _ in prof.per_attack)
    top_m = max(m for _, m in prof.per_attack)
    s1, s2 = (a - 1) * a // 2, (a - 1) * a * (2 * a - 1) // 6  # the sums of n and n^2 over n < a
    degree = _dense_degree(len(prof.attacks), prof.per_attack)
    if degree is not None:
        # The dense law: attack n adds each key's shifted copy of the triangle k + m <= degree x n,
        # (degree n + 1)(degree n + 2) / 2 cells.
        build = keys * (degree * degree * s2 + 3 * degree * s1 + 2 * a) // 2
    else:
        # The sparse law: each key of power n (at most (n top_k + 1)(n top_m + 1)) meets each key of the unit.
        build = JOINT_SPARSE_CELL * keys * (top_k * top_m * s2 + (top_k + top_m) * s1 + a)
    # Its rows applied: a row of packets per event, over the states.
    apply = parts * (cells * (a * top_m + 1) * (a * top_k + 1) + NUMPY_CALL_CELLS * a * top_k)
    joint = build + apply
    if joint <= JOINT_BUDGET:
        return True
    if _by_hits_applies(prof, cells):
        # Hit by hit: a step per hit, a slab of packets per hit, the weights.
        hits = len(prof.hits) - 1
        top = hits if cap is None else min(cap, hits)
        by_hits = parts * (cells * hits * (HIT_STEP_CELLS + top + 1) + 4 * (hits + 1) ** 2
                           + NUMPY_CALL_CELLS * (5 * hits + 30))
        return joint <= by_hits
    # Attack by attack: before attack n, up to min(n x top_m, reach) + 1 counts of packets
    # wait; each attack copies them moved by m (top_m + 1 slabs), weighs the slabs by the
    # law of (k, m) (one tensordot) and steps the states top_k times (about two cells each).
    reach = a * top_m if cap is None else min(cap, a * top_m)
    growing = min(a, reach // top_m + 1) if top_m else a  # attacks before the count reaches ``reach``
    widths = top_m * (growing - 1) * growing // 2 + growing + (a - growing) * (reach + 1)
    per_cell = (top_k + 2) * (top_m + 1) + 2 * top_k
    step = parts * (per_cell * cells * widths + NUMPY_CALL_CELLS * (top_k + top_m + 6) * a)
    return joint <= step


def _joint_counts(prof: _Profile) -> Counts:
    """Rows m = 0, 1, ...: P(k normal wounds and m mortal wound packets) over k, over the group's attacks."""
    return _joint_table(tuple(prof.attacks), tuple(prof.per_attack.items()))


def _dense_degree(counts: int, law: D.Joint) -> int | None:
    """The degree of the dense joint law where it is the one built (past JOINT_SPARSE_ATTACKS
    attacks, a law in graded order), else None: the sparse law."""
    return D.graded_degree(law) if counts > JOINT_SPARSE_ATTACKS else None


@lru_cache(maxsize=256)
def _joint_table(attacks: tuple[float, ...], per_attack: tuple[tuple[tuple[int, int], float], ...]) -> Counts:
    law = dict(per_attack)
    degree = _dense_degree(len(attacks), law)
    if degree is not None:
        return Counts(D.joint_rows_graded(list(attacks), law, degree))
    return Counts(D.joint_rows(list(attacks), law))


# The group's count distributions, for the profiles that repeat (each weapon against each unit).
@lru_cache(maxsize=512)
def _attacks(per_model: tuple[float, ...], models: int) -> D.Dist:
    return D.sum_iid(list(per_model), models)


@lru_cache(maxsize=512)
def _random_sum(count: tuple[float, ...], unit: tuple[float, ...]) -> D.Dist:
    return D.random_sum(list(count), list(unit))


def _with_packets(x: np.ndarray, prof: _Profile, normal: Chain, cap: int | None) -> np.ndarray:
    """The states after the group's normal wounds, by the mortal-wound packets waiting.

    Returns slabs (packets waiting, rows, states): slab m holds the states reached with
    m packets still to come (the last: ``cap`` or more, when ``cap`` is given). Attacks
    are applied one at a time: an attack making k wounds and m packets moves the states
    by k events and the count by m, so the joint law of the group's wounds and packets
    is never built. With ``cap`` the unit's wounds the count can stop there: every
    packet takes a wound (no Feel No Pain can stop it all), so that many destroy the
    unit whatever comes before them.
    """
    count = prof.attacks
    top_k = max(k for k, _ in prof.per_attack)
    top_m = max(m for _, m in prof.per_attack)
    law = np.zeros((top_k + 1, top_m + 1))
    for (k, m), p in prof.per_attack.items():
        law[k, m] = p
    last = len(count) - 1
    full = (last * top_m if cap is None else min(cap, last * top_m)) + 1
    tails = _tails(count)
    cur = x[None].copy()
    acc = np.zeros((full,) + x.shape)
    for n in range(last + 1):
        width = cur.shape[0]
        if count[n]:
            acc[:width] += count[n] * cur
        more = tails[n]  # P(N > n): the (n+1)-th attack is made
        if n == last or not more:
            break
        if not cur[..., 1:].any():
            acc[0, :, 0] += more * cur[..., 0].sum(axis=0)  # destroyed: the packets change nothing now
            break
        # W_k = sum_m p(k, m) (cur moved m packets on); then Horner's scheme over k: R = W_K; R = T R + W_k.
        span = width + top_m
        moved = np.zeros((top_m + 1, span) + x.shape)
        for m in range(top_m + 1):
            moved[m, m:m + width] = cur
        # tensordot's own product (a contiguous 2-D dot), without its reshaping in Python per attack.
        w = np.dot(law, moved.reshape(top_m + 1, -1)).reshape((top_k + 1,) + moved.shape[1:])
        if span > full:
            w[:, full - 1] += w[:, full:].sum(axis=1)
            w = w[:, :full]
        r = w[top_k]
        for k in range(top_k - 1, -1, -1):
            r = normal.step(r)
            r += w[k]
        cur = r
    return acc[:_used(acc)]


# Hit by hit: up to this many cells of the (packets x hits) weights and of the powers (hits x
# states): 32 MB each, about 100 MB at most in all.
HITS_CELLS = 4_000_000


def _by_hits_applies(prof: _Profile, cells: int) -> bool:
    """Whether ``_by_hits`` can resolve the group over ``cells`` state cells: every hit rolls to
    wound alike, a hit is not certain to be a packet, and its binomial weights neither underflow
    nor grow too big."""
    per_hit = prof.profile.per_hit
    if per_hit is None or not 0.0 <= per_hit[1] < 1.0:
        return False
    last = len(prof.hits) - 1
    return (last + 1) * max(last + 1, cells) <= HITS_CELLS and last * log1p(-per_hit[1]) > -700.0


def _by_hits(x: np.ndarray, prof: _Profile, normal: Chain, hat: Chain, cap: int | None, reward: Reward,
             fresh: bool) -> np.ndarray:
    """The states after the group's normal wounds, by the mortal-wound packets waiting (as ``_with_packets``).

    The group makes H hits (a random sum over its attacks); each hit is, independently, a
    normal wound with probability a, a packet with probability b, or nothing. Normal
    wounds commute with waiting packets, so after h hits with m of them packets the
    states are v Â^(h-m) with probability Bin(m; h, b), where Â is one hit that is not
    a packet (a normal wound with probability a / (1 - b): ``Builder.thinned``). Hence

        W_m = sum_j P(H = j + m) Bin(m; j + m, b) v Â^j,

    one power of Â per hit and one weighted sum per packet count: the joint law of
    wounds and packets is never built, and the attacks' dice are never stepped.
    """
    a, b = prof.profile.per_hit
    hits = prof.hits
    last = len(hits) - 1
    # Powers U_j = v Â^j, j = 0..last (from the chain's memo when the unit is untouched).
    u = np.empty((last + 1,) + x.shape)
    if fresh and x.shape[0] == 1 and x.size * (last + 1) <= MEMO_CELLS:
        dead = hat._grow(last)
        have = len(hat.powers) if dead is None else dead + 1
        u[:have] = hat.powers[:last + 1]
        u[have:] = hat.powers[have - 1]
    else:
        u[0] = x
        for j in range(1, last + 1):
            u[j] = hat.step(u[j - 1])
    # Bin(m; j + m, b) = (1 - b)^j C(j + m, m) b^m, as a product down each column (each term <= 1).
    ms = np.arange(last + 1)
    weight = np.empty((last + 1, last + 1))
    weight[0] = (1.0 - b) ** ms
    weight[1:] = (ms[None, :] + ms[1:, None]) / ms[1:, None] * b
    np.cumprod(weight, axis=0, out=weight)
    padded = np.zeros(2 * last + 2)
    padded[:last + 1] = hits
    weight *= np.lib.stride_tricks.sliding_window_view(padded, last + 1)[:last + 1]  # P(H = j + m)
    # weight[m, j]: m packets and j other hits.
    # The normal wounds' rewards: the hits that are not packets (H - M of them, a thinned H) are
    # events of Â, each a normal wound with chance a / (1 - b): sum_j P(H - M > j) a / (1 - b) U_j.
    others = _tails(np.cumsum(weight, axis=0)[-1].tolist())
    flat = u.reshape(last + 1, -1)
    rows = x.shape[0]
    unsaved = (flat * np.tile(normal.unsaved, rows)).cumsum(axis=-1)[:, -1].tolist()
    damage = (flat * np.tile(normal.damage, rows)).cumsum(axis=-1)[:, -1].tolist()
    keep = a / (1.0 - b)
    for w, us, d in zip(others, unsaved, damage):
        reward.unsaved += keep * w * us
        reward.damage += keep * w * d
    # Packets at ``cap`` or more (every packet takes a wound): one slab.
    top = last if cap is None else min(cap, last)
    if top < last:
        weight[top] = np.cumsum(weight[top:], axis=0)[-1]
    # W = weight U: one matrix product, the one BLAS sum of the engine. A loop adding j by j in
    # order (bit for bit a Python loop) was most of a dice-heavy call: (hits + 1)^2 / 2 x states
    # products, two numpy passes each; the product's other order of the same nonnegative terms
    # moves a result by a few units in the last place (about 1e-16, tests: 1e-12).
    # In blocks of rows small enough that OpenBLAS stays on one thread (M x N x K up to 4 x 65536):
    # its threads spin on after a product, taking a core from the rest of the call and the machine.
    rows_at_once = max(1, BLAS_ONE_THREAD // flat.size)
    out = np.empty((top + 1, flat.shape[1]))
    for start in range(0, top + 1, rows_at_once):
        np.matmul(weight[start:min(start + rows_at_once, top + 1)], flat, out=out[start:start + rows_at_once])
    out = out.reshape((top + 1,) + x.shape)
    return out[:_used(out)]


# OpenBLAS multiplies on one thread up to this many M x N x K (its GEMM_MULTITHREAD_THRESHOLD x 65536).
BLAS_ONE_THREAD = 4 * 65536


def _used(slabs: np.ndarray) -> int:
    """Slabs up to the last that holds any mass."""
    held = np.flatnonzero(slabs.reshape(slabs.shape[0], -1).any(axis=1))
    return int(held[-1]) + 1 if len(held) else 1


def _builder(ruleset: str, plan_: Plan, kinds: tuple[ModelKind, ...], conditions: Conditions, weapon,
             raw_damage: D.Dist) -> Builder:
    """Per kind (``kinds``: the layout's, as this group meets them): the save against this
    weapon, and its damage through Feel No Pain."""
    fail = []
    through = []
    for kind in kinds:
        fail.append(save_fail_of(ruleset, weapon, kind.save, kind.invulnerable, conditions.cover))
        through.append(D.thin(raw_damage, feel_no_pain_loses(kind.feel_no_pain)))
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
