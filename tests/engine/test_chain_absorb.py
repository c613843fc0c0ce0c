"""``Chain.absorb``, one loop for every form, gives the bits of the three near-copies it replaced.

Before issue 38 a chain absorbed a random count of events in three methods: ``absorb`` (one
count), ``absorb_each`` (several counts sharing the powers v T^e) and ``absorb_rows`` (each row
of v by its own count), and the allocation chose between them and ``from_start`` (the untouched
unit). Their arithmetic is frozen below, as it was, C calls and numpy loops alike; the one
``Chain.absorb`` must give the very same bytes (states and rewards) on random units, saves,
damage, state vectors (destroyed rows included) and count laws, with the C loops and without.
"""

from __future__ import annotations

import random
from math import fsum

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warscribe.engine import chains as C
from warscribe.engine.model import ModelKind
from warscribe.engine.unit_states import Plan

NATIVES = [C._native, None] if C._native is not None else [None]
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


# The three methods and the allocation's choice between them, as they were (engine/groups.py before
# issue 38), with the C module passed in (``native``: None for the numpy loops). They use the chain's
# ``step``, ``_may_empty`` and ``from_start``, which the change left as they were.

def _old_tails(count):
    out = [0.0] * len(count)
    acc = 0.0
    for e in range(len(count) - 1, -1, -1):
        out[e] = acc
        acc += count[e]
    return out


def _old_padded(dists, last):
    out = np.zeros((len(dists), last + 1))
    for row, dist in zip(out, dists):
        row[:len(dist)] = dist
    return out


def _old_expected(chain, vectors, weights, reward):
    if not vectors:
        return
    stack = np.array(vectors)
    unsaved = (stack * chain.unsaved).cumsum(axis=-1)[..., -1].T.tolist()
    damage = (stack * chain.damage).cumsum(axis=-1)[..., -1].T.tolist()
    for row_u, row_d in zip(unsaved, damage):
        for w, u, d in zip(weights, row_u, row_d):
            reward.unsaved += w * u
            reward.damage += w * d


def _old_absorb(chain, v, count, reward, native):
    acc = np.zeros(v.shape)
    tails = _old_tails(count)
    last = len(count) - 1
    check = chain._may_empty(v, last)
    if native is not None:
        tails_row = np.array(tails)
        reward.unsaved, reward.damage = native.absorb_each(
            chain.terms, chain.offsets, chain.unsaved, chain.damage, np.ascontiguousarray(v, dtype=float), len(v),
            np.array(count, dtype=float), 1, tails_row, tails_row, check, acc, (reward.unsaved, reward.damage))
        return acc
    cur = v
    seen, weights = [], []
    for e in range(last + 1):
        pe = count[e]
        if pe:
            acc += pe * cur
        more = tails[e]
        if e == last or not more:
            break
        if check:
            alive = cur[:, 1:].any(axis=1)
            if not alive.all():
                acc[:, 0] += more * cur[:, 0] * ~alive
                if not alive.any():
                    break
                cur = cur * alive[:, None]
        seen.append(cur)
        weights.append(more)
        cur = chain.step(cur)
    _old_expected(chain, seen, weights, reward)
    return acc


def _old_absorb_each(chain, v, counts, reward, native):
    table, tails, every = counts.table, counts.tails, counts.every
    last = table.shape[1] - 1
    check = chain._may_empty(v, last)
    acc = np.zeros((len(table),) + v.shape)
    if native is not None:
        reward.unsaved, reward.damage = native.absorb_each(
            chain.terms, chain.offsets, chain.unsaved, chain.damage, np.ascontiguousarray(v, dtype=float), len(v),
            np.ascontiguousarray(table, dtype=float), len(table), np.ascontiguousarray(tails, dtype=float),
            np.array(every, dtype=float), check, acc, (reward.unsaved, reward.damage))
        return acc
    cur = v
    seen, weights = [], []
    for e in range(last + 1):
        pe = table[:, e]
        if pe.any():
            acc += pe[:, None, None] * cur
        more = every[e]
        if e == last or not more:
            break
        alive = cur[:, 1:].any(axis=1) if check else None
        if check and not alive.all():
            acc[:, :, 0] += tails[:, e, None] * (cur[:, 0] * ~alive)
            if not alive.any():
                break
            cur = cur * alive[:, None]
        seen.append(cur)
        weights.append(more)
        cur = chain.step(cur)
    _old_expected(chain, seen, weights, reward)
    return acc


def _old_absorb_rows(chain, v, counts, reward, native):
    if len(counts) == 1:
        return _old_absorb(chain, v, counts[0], reward, native)
    last = max(len(c) for c in counts) - 1
    table, tails = _old_padded(counts, last), _old_padded([_old_tails(c) for c in counts], last)
    acc = np.zeros(v.shape)
    check = chain._may_empty(v, last)
    if native is not None:
        reward.unsaved, reward.damage = native.absorb_rows(
            chain.terms, chain.offsets, chain.unsaved, chain.damage, np.ascontiguousarray(v, dtype=float), len(v),
            table, tails, check, acc, (reward.unsaved, reward.damage))
        return acc
    cur = v
    seen, weights = [], []
    for e in range(last + 1):
        acc += table[:, e, None] * cur
        more = tails[:, e]
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
        cur = chain.step(cur)
    if seen:
        stack = np.array(seen)
        weight = np.array(weights)
        unsaved = (stack * chain.unsaved).cumsum(axis=-1)[..., -1]
        damage = (stack * chain.damage).cumsum(axis=-1)[..., -1]
        for row_w, row_u, row_d in zip(weight.T.tolist(), unsaved.T.tolist(), damage.T.tolist()):
            for w, u, d in zip(row_w, row_u, row_d):
                reward.unsaved += w * u
                reward.damage += w * d
    return acc


def _old_choice(chain, v, counts, reward, fresh, native):
    """``_Allocation._absorb``: from the kept powers when the unit is untouched, else one count or several."""
    if fresh and v.shape[1] * counts.table.shape[1] <= C.MEMO_CELLS:
        return chain.from_start(counts, reward)
    if len(counts.table) == 1:
        return _old_absorb(chain, v, counts.table[0].tolist(), reward, native)[None]
    return _old_absorb_each(chain, v, counts, reward, native)


# Random units, chains, state vectors and counts.

@st.composite
def _units(draw) -> Plan:
    kinds = [ModelKind(name=f"K{i}", count=draw(st.integers(1, 4)), toughness=4, save=4, wounds=draw(st.integers(1, 3)))
             for i in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        kinds.append(ModelKind(name="Leader", count=1, toughness=4, save=3, wounds=draw(st.integers(2, 5)),
                               keywords=frozenset({"CHARACTER"})))
    return Plan(draw(st.sampled_from(["10e", "11e"])), tuple(kinds), draw(st.booleans()))


@st.composite
def _chain_keys(draw, kinds: int) -> tuple:
    """(floor, fails, throughs): the key of ``_make_chain`` beside the plan."""
    if draw(st.integers(0, 9)) < 3:  # every event removes a wound: units are destroyed for certain
        fails = (1.0,) * kinds
        throughs = tuple((0.0,) + draw(st.sampled_from([(1.0,), (0.5, 0.5), (0.0, 1.0)])) for _ in range(kinds))
    else:
        fails = tuple(draw(st.sampled_from([0.25, 0.5, 2 / 3, 0.9])) for _ in range(kinds))
        laws = [(0.0, 1.0), (1 / 6, 5 / 6), (0.0, 0.5, 0.5), (0.0, 1 / 3, 1 / 3, 1 / 3)]
        throughs = tuple(draw(st.sampled_from(laws)) for _ in range(kinds))
    return draw(st.sampled_from([None, None, 0, 1])), fails, throughs


_MASS = st.floats(min_value=1e-6, max_value=1.0)


@st.composite
def _vectors(draw, size: int, rows: int) -> np.ndarray:
    v = np.zeros((rows, size))
    for row in v:
        if draw(st.integers(0, 4)) == 0:
            row[0] = draw(_MASS)  # a destroyed row: mass on state 0 alone
        else:
            held = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=5, unique=True))
            row[held] = [draw(_MASS) for _ in held]
    return v


@st.composite
def _count(draw, longest: int) -> list[float]:
    """A law of a count of events (zeros inside it included, and now and then a certain count)."""
    n = draw(st.integers(1, longest))
    if draw(st.integers(0, 9)) == 0:
        return [0.0] * (n - 1) + [1.0]
    weights = [draw(st.sampled_from([0.0, 0.0, 1.0, 2.0, 0.5, 1 / 3, 7.0, 1e-3])) for _ in range(n)]
    weights[-1] = weights[-1] or 1.0
    total = fsum(weights)
    return [w / total for w in weights]


@st.composite
def _cases(draw):
    plan = draw(_units())
    key = draw(_chain_keys(len(plan.lay.kinds)))
    rows = draw(st.sampled_from([1, 1, 2, 3]))
    v = draw(_vectors(plan.size, rows))
    longest = draw(st.integers(1, 3 * plan.total + 3))
    one = draw(_count(longest))
    several = draw(st.lists(_count(longest), min_size=1, max_size=4))
    per_row = [draw(_count(longest)) for _ in range(rows)]
    return plan, key, v, one, several, per_row


def _chain(plan: Plan, key: tuple) -> C.Chain:
    return C._make_chain(plan, *key)  # a chain of its own for each call: the kept powers grow on their own


def _same(old, new, reward_old, reward_new) -> None:
    assert np.asarray(old).shape == np.asarray(new).shape
    assert np.asarray(old).tobytes() == np.asarray(new).tobytes()
    assert (reward_old.unsaved, reward_old.damage) == (reward_new.unsaved, reward_new.damage)


def _check(plan: Plan, key: tuple, v: np.ndarray, one: list, several: list, per_row: list) -> None:
    built = C._native
    try:
        for native in NATIVES:
            C._native = native
            _check_with(native, plan, key, v, one, several, per_row)
    finally:
        C._native = built


def _check_with(native, plan: Plan, key: tuple, v: np.ndarray, one: list, several: list, per_row: list) -> None:
    def both(old, new):
        ro, rn = C.Reward(0.125, 0.25), C.Reward(0.125, 0.25)
        _same(old(_chain(plan, key), ro), new(_chain(plan, key), rn), ro, rn)

    # One count (the old ``absorb``).
    both(lambda c, r: _old_absorb(c, v, one, r, native), lambda c, r: c.absorb(v, C.Counts.of([one]), r)[0])
    # Several counts sharing the powers (the old ``absorb_each``), and one count given as a table.
    table = _old_padded(several, max(len(c) for c in several) - 1)
    for rows in (table, table[:1]):
        both(lambda c, r: _old_absorb_each(c, v, C.Counts(rows), r, native),
             lambda c, r: c.absorb(v, C.Counts(rows), r))
    # Each row of v by its own count (the old ``absorb_rows``), several rows or one.
    both(lambda c, r: _old_absorb_rows(c, v, per_row, r, native),
         lambda c, r: c.absorb(v, C.Counts.of(per_row), r, by_row=True))
    both(lambda c, r: _old_absorb_rows(c, v[:1], per_row[:1], r, native),
         lambda c, r: c.absorb(v[:1], C.Counts.of(per_row[:1]), r, by_row=True))
    # The allocation's choice (``_Allocation._absorb``), from the untouched unit or not.
    untouched = np.zeros((1, plan.size))
    untouched[0, -1] = 1.0
    for counts in (C.Counts(table), C.Counts(table[:1]), C.Counts.of([one])):
        for start, fresh in ((untouched, True), (untouched, False), (v[:1], False), (v, False)):
            both(lambda c, r: _old_choice(c, start, counts, r, fresh, native),
                 lambda c, r: c.absorb(start, counts, r, fresh=fresh))


@settings(max_examples=200, **SETTINGS)
@given(_cases())
def test_one_absorb_gives_the_bits_of_the_three_it_replaced(case):
    _check(*case)


def _random_case(rng: random.Random):
    """The same kinds of case from a seeded generator: many more of them, cheaply."""
    kinds = [ModelKind(name=f"K{i}", count=rng.randint(1, 4), toughness=4, save=4, wounds=rng.randint(1, 3))
             for i in range(rng.randint(1, 3))]
    if rng.random() < 0.6:
        kinds.append(ModelKind(name="Leader", count=1, toughness=4, save=3, wounds=rng.randint(2, 5),
                               keywords=frozenset({"CHARACTER"})))
    plan = Plan(rng.choice(["10e", "11e"]), tuple(kinds), rng.random() < 0.5)
    n = len(kinds)
    if rng.random() < 0.3:
        key = (rng.choice([None, 0, 1]), (1.0,) * n,
               tuple((0.0,) + rng.choice([(1.0,), (0.5, 0.5), (0.0, 1.0)]) for _ in range(n)))
    else:
        key = (rng.choice([None, None, 0, 1]), tuple(rng.choice([0.25, 0.5, 2 / 3, 0.9]) for _ in range(n)),
               tuple(rng.choice([(0.0, 1.0), (1 / 6, 5 / 6), (0.0, 0.5, 0.5)]) for _ in range(n)))
    rows = rng.choice([1, 2, 3, 4])
    v = np.zeros((rows, plan.size))
    for row in v:
        if rng.random() < 0.2:
            row[0] = rng.random()
        else:
            held = rng.sample(range(plan.size), min(plan.size, rng.randint(1, 5)))
            row[held] = [rng.random() for _ in held]
    longest = rng.randint(1, 3 * plan.total + 3)

    def count():
        n = rng.randint(1, longest)
        weights = [0.0 if rng.random() < 0.2 else rng.random() ** 2 for _ in range(n)]
        weights[-1] = weights[-1] or 0.5
        total = fsum(weights)
        return [w / total for w in weights]

    return plan, key, v, count(), [count() for _ in range(rng.randint(1, 4))], [count() for _ in range(rows)]


@pytest.mark.parametrize("block", range(4))
def test_one_absorb_gives_the_bits_on_many_seeded_cases(block):
    for seed in range(100 * block, 100 * block + 100):
        _check(*_random_case(random.Random(seed)))
