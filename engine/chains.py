"""A weapon group's events on a target unit's allocation states: the chain, and its loops.

An event (a wound before its save, or a mortal wound packet) goes to the unit's current
model (``engine.unit_states``) and removes j wounds from it with the chance its save,
damage and Feel No Pain give; a ``Chain`` is that move on every state at once, and the
sums over many events (a random count of them, or a power series of packets waiting) that
the allocation (``engine.groups``) is made of, with the expected unsaved wounds and damage
of those events (``Reward``). ``Counts`` holds the count distributions as rows, ``Builder``
makes a weapon group's chains (kept per unit in ``_CHAINS``), and ``loss_table`` says what
one event removes from one model.

Results are the same floats, bit for bit, as a plain Python loop over the states in
ascending order (the form this replaced): every sum takes its terms in that order
(elementwise numpy operations, ``cumsum`` and ``bincount``, never a BLAS product or a
pairwise sum). The loops run in C where the extension is built (engine/_chains.c, the
same operations in the same order; tests/engine/test_native.py holds the two together).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import log

import numpy as np

from warscribe.engine import dist as D
from warscribe.engine.kept import Kept
from warscribe.engine.unit_states import Plan

try:  # The chain's loops in C, the same bits (engine/_chains.c); without a compiler, numpy alone.
    from warscribe.engine import _chains as _native
except ImportError:  # pragma: no cover (a machine without a C compiler)
    _native = None

NORMAL, MORTAL = "normal", "mortal"


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
        self.kept: Kept | None = None

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

    def expected(self, vectors: list[np.ndarray], weights: list, reward: Reward) -> None:
        """Adds weights[i] x (the expected reward of an event at vectors[i]), row by row, in order;
        weights[i] is one number, or one per row of vectors[i].

        Each sum over the states is taken in ascending order (cumsum), as a loop would.
        """
        if not vectors:
            return
        stack = np.array(vectors)
        unsaved = (stack * self.unsaved).cumsum(axis=-1)[..., -1]
        damage = (stack * self.damage).cumsum(axis=-1)[..., -1]
        weight = np.broadcast_to(np.array(weights, dtype=float).reshape(len(vectors), -1), unsaved.shape)
        for row_w, row_u, row_d in zip(weight.T.tolist(), unsaved.T.tolist(), damage.T.tolist()):
            for w, u, d in zip(row_w, row_u, row_d):
                reward.unsaved += w * u
                reward.damage += w * d

    def absorb(self, v: np.ndarray, counts: Counts, reward: Reward, fresh: bool = False,
               by_row: bool = False) -> np.ndarray:
        """sum_e P(N = e) v T^e: the states after N ~ count events, for each count (row) of ``counts``,
        sharing the powers v T^e: (counts, rows, states). With ``by_row``, row r of v by count r
        alone, the rows at once and each summed as on its own: (rows, states). With ``fresh`` (v is
        the untouched unit), from the powers the chain keeps (``from_start``: the same sums).

        Until issue 38 these were three near-copies (``absorb`` of one count, ``absorb_each`` and
        ``absorb_rows``); tests/engine/test_chain_absorb.py holds this one loop to their frozen
        bits. It differs from them only where no bit can: it skips adding a column of zero chances
        (by row, the copy added the zeros), and multiplies a destroyed row's mass by its 0/1 flag
        before its weight (the copies of one count and by row: after). Probabilities are finite
        and never negative, so neither a skipped +0.0 nor that order changes a result. The C loops
        stay two (engine/_chains.c ``absorb_each`` and ``absorb_rows``), each the operations of
        this loop in its form.
        """
        table, tails = counts.table, counts.tails
        if fresh and not by_row and v.shape[1] * table.shape[1] <= MEMO_CELLS:
            return self.from_start(counts, reward)
        if by_row and len(table) == 1:  # one row by its count: the form of one count
            return self.absorb(v, counts, reward)[0]
        last = table.shape[1] - 1
        check = self._may_empty(v, last)
        acc = np.zeros((1 if by_row else len(table),) + v.shape)
        if _native is not None:
            arrays = (self.terms, self.offsets, self.unsaved, self.damage, np.ascontiguousarray(v, dtype=float), len(v))
            table, tails = np.ascontiguousarray(table, dtype=float), np.ascontiguousarray(tails, dtype=float)
            if by_row:
                reward.unsaved, reward.damage = _native.absorb_rows(
                    *arrays, table, tails, check, acc, (reward.unsaved, reward.damage))
                return acc[0]
            reward.unsaved, reward.damage = _native.absorb_each(
                *arrays, table, len(table), tails, np.array(counts.every, dtype=float), check, acc,
                (reward.unsaved, reward.damage))
            return acc
        # At event e: chance[e] weighs the states and going[e] = P(N > e) a destroyed row's mass (per
        # count, or per row); more_of[e] weighs the reward of the next event, per row.
        chance = table.T[:, None, :, None] if by_row else table.T[:, :, None, None]
        going = tails.T[:, None, :] if by_row else tails.T[:, :, None]
        more_of = tails.T if by_row else np.repeat(np.array(counts.every)[:, None], len(v), axis=1)
        cur = v
        seen: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        for e in range(last + 1):
            if table[:, e].any():
                acc += chance[e] * cur
            more = more_of[e]  # P(N > e): the (e+1)-th event happens (a row whose count is done: none)
            if e == last or not more.any():
                break
            alive = cur[:, 1:].any(axis=1) if check else None
            if check and not alive.all():
                # A destroyed unit: the remaining events change nothing.
                acc[:, :, 0] += going[e] * (cur[:, 0] * ~alive)
                if not alive.any():
                    break
                cur = cur * alive[:, None]
            seen.append(cur)
            weights.append(more)
            cur = self.step(cur)
        self.expected(seen, weights, reward)
        return acc[0] if by_row else acc

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

    def from_start(self, counts: Counts, reward: Reward) -> np.ndarray:
        """``absorb`` from the untouched unit: the same sums, over powers kept from earlier calls."""
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


# About 64 MB of chains at most: a unit of a few hundred states holds well under 100 kB of
# them; the largest allowed (20,000 states) some megabytes.
_CHAINS = Kept(_make_chain, entries=4096, cells=8_000_000)


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

