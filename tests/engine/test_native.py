"""The engine's loops in C against the numpy and Python code they replace: the same bits.

Every Chain method that has a C path (engine/_chains.c) is run both ways on random units, saves,
damage and state vectors (destroyed rows included), and so is the joint law of wounds and packets
(engine/_joint.c) on random laws; the arrays and rewards must be equal byte for byte. Without the
extensions (no C compiler where the package was installed) the engine runs the numpy and Python code
and these tests are skipped, except under CI, where the extensions must have been built.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from warscribe.engine import dist as D
from warscribe.engine import chains as C
from warscribe.engine.unit_states import Plan
from warscribe.engine.model import ModelKind

NATIVE = C._native
JOINT = D._native
if (NATIVE is None or JOINT is None) and os.environ.get("CI"):
    pytest.fail("the C extensions warscribe.engine._chains and _joint are not built (pip install -e . needs a C "
                "compiler)", pytrace=False)
pytestmark = pytest.mark.skipif(NATIVE is None or JOINT is None, reason="the C extensions are not built")


def _unit(rng: random.Random) -> Plan:
    kinds = []
    for i in range(rng.randint(1, 3)):
        kinds.append(ModelKind(name=f"K{i}", count=rng.randint(1, 4), toughness=4, save=4, wounds=rng.randint(1, 3)))
    if rng.random() < 0.6:
        kinds.append(ModelKind(name="Leader", count=1, toughness=4, save=3, wounds=rng.randint(2, 5),
                               keywords=frozenset({"CHARACTER"})))
    return Plan(rng.choice(["10e", "11e"]), tuple(kinds), rng.random() < 0.5)


def _chain(rng: random.Random, plan: Plan) -> C.Chain:
    kinds = len(plan.lay.kinds)
    certain = rng.random() < 0.3  # every event removes a wound: units are destroyed for certain
    fails = tuple(1.0 if certain else rng.choice([0.25, 0.5, 2 / 3, 0.9]) for _ in range(kinds))
    if certain:
        throughs = tuple((0.0,) + tuple(rng.choice([(1.0,), (0.5, 0.5), (0.0, 1.0)])) for _ in range(kinds))
    else:
        throughs = tuple(rng.choice([(0.0, 1.0), (1 / 6, 5 / 6), (0.0, 0.5, 0.5), (0.0, 1 / 3, 1 / 3, 1 / 3)])
                         for _ in range(kinds))
    floor = rng.choice([None, None, 0, 1])
    return C._make_chain(plan, floor, fails, throughs)


def _vectors(rng: random.Random, size: int, rows: int) -> np.ndarray:
    v = np.zeros((rows, size))
    for row in v:
        if rng.random() < 0.2:
            row[0] = rng.random()  # a destroyed row: mass on state 0 alone
        else:
            held = rng.sample(range(size), min(size, rng.randint(1, 5)))
            row[held] = [rng.random() for _ in held]
    return v


def _count(rng: random.Random, n: int) -> list[float]:
    weights = [rng.random() ** 2 for _ in range(n)]
    total = sum(weights)
    return [w / total for w in weights]


def _both(monkeypatch, fn):
    """fn() with the C loops, then with the numpy code; (result, reward) each."""
    outs = []
    for native in (NATIVE, None):
        monkeypatch.setattr(C, "_native", native)
        reward = C.Reward(0.125, 0.25)
        outs.append((fn(reward), reward))
    return outs


def _same(a, b) -> None:
    (x, rx), (y, ry) = a, b
    assert np.asarray(x).shape == np.asarray(y).shape
    assert np.asarray(x).tobytes() == np.asarray(y).tobytes()
    assert (rx.unsaved, rx.damage) == (ry.unsaved, ry.damage)


@pytest.mark.parametrize("seed", range(40))
def test_the_c_loops_give_the_numpy_bits(seed, monkeypatch):
    rng = random.Random(seed)
    plan = _unit(rng)
    size = plan.size
    rows = rng.choice([1, 1, 2, 3])
    v = _vectors(rng, size, rows)
    events = rng.randint(1, 3 * plan.total + 2)

    def fresh() -> C.Chain:  # each way gets its own chain: powers grow on their own
        return _chain(random.Random(seed * 7 + 1), plan)

    _same(*_both(monkeypatch, lambda r: fresh().step(v)))
    _same(*_both(monkeypatch, lambda r: fresh().step(v[0])))
    count = _count(rng, events + 1)
    _same(*_both(monkeypatch, lambda r: fresh().absorb(v, C.Counts.of([count]), r)))
    table = np.array([_count(rng, events + 1) for _ in range(rng.randint(1, 4))])
    _same(*_both(monkeypatch, lambda r: fresh().absorb(v, C.Counts(table), r)))
    per_row = [_count(rng, rng.randint(1, events + 1)) for _ in range(rows)]
    _same(*_both(monkeypatch, lambda r: fresh().absorb(v, C.Counts.of(per_row), r, by_row=True)))
    slabs = [_vectors(rng, size, rows) for _ in range(rng.randint(1, 6))]
    _same(*_both(monkeypatch, lambda r: fresh().power_series(slabs, r)))
    start = C.Counts.of([_count(rng, rng.randint(1, events + 1)) for _ in range(rng.randint(1, 3))]
                        + [[0.0] * rng.randint(0, events) + [1.0]])  # zeros first: the C skips them
    _same(*_both(monkeypatch, lambda r: fresh().from_start(start, r)))

    def grown(r):
        chain = fresh()
        chain._grow(events)
        return np.concatenate([chain.powers.ravel(), np.array([x for pair in chain.rewards for x in pair]),
                               np.array([-1.0 if chain.destroyed is None else chain.destroyed])])

    _same(*_both(monkeypatch, grown))


def test_the_c_loops_refuse_arrays_of_the_wrong_size():
    plan = _unit(random.Random(1))
    kinds = len(plan.lay.kinds)
    chain = C._make_chain(plan, None, (0.5,) * kinds, ((0.0, 1.0),) * kinds)
    size = len(chain.stay)
    v = np.ones((2, size))
    with pytest.raises(ValueError):
        NATIVE.step(chain.terms, chain.offsets, v, 3, np.empty((2, size)))  # rows beyond v
    with pytest.raises(ValueError):
        NATIVE.step(chain.terms, chain.offsets[:-1] if len(chain.offsets) > 1 else chain.offsets[:0], v, 2,
                       np.empty((2, size)))
    with pytest.raises(ValueError):
        NATIVE.absorb_each(chain.terms, chain.offsets, chain.unsaved, chain.damage, v, 2, np.ones(3), 1, np.ones(2),
                           np.ones(3), False, np.zeros((2, size)), (0.0, 0.0))  # tails shorter than the count
    with pytest.raises(ValueError):
        NATIVE.weighted_sum(np.ones((1, 3)), 1, np.ones((2, size)), 3, size, np.zeros((1, size)))  # 3 powers of 2


def _law(rng: random.Random, graded: bool) -> dict:
    """A law of (k normal wounds, m packets) per attack, its keys in a random order (or graded
    order), some of them of chance zero."""
    if graded:
        degree = rng.randint(1, 4)
        keys = [(k, t - k) for t in range(degree + 1) for k in range(t, -1, -1)]
    else:
        keys = rng.sample([(k, m) for k in range(4) for m in range(3)], rng.randint(1, 7))
    weights = [0.0 if rng.random() < 0.15 else rng.random() for _ in keys]
    total = sum(weights) or 1.0
    return {key: w / total for key, w in zip(keys, weights)}


def _joint_both(monkeypatch, fn):
    outs = []
    for native in (JOINT, None):
        monkeypatch.setattr(D, "_native", native)
        outs.append(np.asarray(fn()))
    return outs


@pytest.mark.parametrize("seed", range(40))
def test_the_c_joint_law_gives_the_python_bits(seed, monkeypatch):
    rng = random.Random(seed)
    count = _count(rng, rng.randint(1, 25))
    for n in rng.sample(range(len(count)), len(count) // 4):
        count[n] = 0.0  # counts that cannot happen: skipped alike
    count[-1] = count[-1] or 0.5
    law = _law(rng, graded=False)
    c, py = _joint_both(monkeypatch, lambda: D.joint_rows(count, law))
    assert c.shape == py.shape and c.tobytes() == py.tobytes()
    graded = _law(rng, graded=True)
    degree = D.graded_degree(graded)
    for wide in (True, False):  # the four-lane kernel (where the machine has AVX2) and the two-lane one
        JOINT.wide(wide)
        try:
            c, py = _joint_both(monkeypatch, lambda: D.joint_rows_graded(count, graded, degree))
        finally:
            JOINT.wide(True)
        assert c.shape == py.shape and c.tobytes() == py.tobytes()
    # The dense law is the sparse one, bit for bit, wherever the sparse one reaches.
    sparse = _joint_both(monkeypatch, lambda: D.joint_rows(count, graded))[0]
    assert c[:sparse.shape[0], :sparse.shape[1]].tobytes() == sparse.tobytes()
    assert not c[sparse.shape[0]:].any() and not c[:, sparse.shape[1]:].any()


def test_the_c_joint_law_refuses_arrays_of_the_wrong_size():
    count = np.array([0.5, 0.5])
    dk, dm, p = np.array([0, 1], dtype=np.int64), np.array([0, 1], dtype=np.int64), np.array([0.5, 0.5])
    JOINT.sparse(count, dk, dm, p, np.zeros((2, 2)))
    with pytest.raises(ValueError):
        JOINT.sparse(count, dk, dm, p, np.zeros((2, 3)))  # not (M + 1) x (K + 1)
    with pytest.raises(ValueError):
        JOINT.sparse(count, dk, dm[:1], p, np.zeros((2, 2)))  # keys of two lengths
    with pytest.raises(ValueError):
        JOINT.sparse(count, np.array([0, -1], dtype=np.int64), dm, p, np.zeros((2, 2)))  # a negative key
    with pytest.raises(ValueError):
        JOINT.graded(count, dk, np.array([0, 2], dtype=np.int64), p, 2, np.zeros((3, 3)))  # a key past the degree
    with pytest.raises(ValueError):
        JOINT.graded(count, dk, dm, p, 2, np.zeros((2, 2)))  # out is not (R + 1) x (R + 1)


def _damage(rng: random.Random) -> list[float]:
    """A damage law after Feel No Pain: zeros inside (a D6+2), a chance of nothing, or certain."""
    law = rng.choice([[0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 1 / 3, 1 / 3, 1 / 3], [0.0, 0.0, 0.0, 1 / 6, 1 / 6, 1 / 6,
                      1 / 6, 1 / 6, 1 / 6], [0.25, 0.5, 0.25], [1 / 3, 0.0, 2 / 3], [0.0] * 7 + [1.0]])
    return list(law)


@pytest.mark.parametrize("seed", range(60))
def test_the_c_single_profile_chain_gives_the_python_bits(seed):
    """allocation.Chain.absorb in C against its list loop: every bit, destroyed units and empty counts included."""
    from warscribe.engine import allocation as A

    rng = random.Random(seed)
    models, wounds = rng.randint(1, 12), rng.randint(1, 9)
    chain = A.Chain(models, wounds, _damage(rng))
    v = A.start(models, wounds) if rng.random() < 0.5 else [rng.random() * (rng.random() < 0.7)
                                                            for _ in range(chain.size)]
    count = _count(rng, rng.randint(1, 40)) if rng.random() < 0.9 else []
    for n in rng.sample(range(len(count)), len(count) // 3):
        count[n] = 0.0
    c = A._native.profile_absorb(chain.event_damage, wounds, v, count)
    py = chain.absorb_lists(v, count)
    assert np.asarray(c).tobytes() == np.asarray(py).tobytes()
    assert chain.absorb(v, count) == c  # the C loop is the one taken


@pytest.mark.parametrize("seed", range(60))
def test_the_c_random_sum_gives_the_python_bits(seed, monkeypatch):
    """dist.random_sum's loop in C against Python's, capped and not, where no convolution goes to numpy."""
    rng = random.Random(seed)
    unit = D.trim(_damage(rng))
    count = _count(rng, rng.randint(2, 30))
    for n in rng.sample(range(len(count) - 1), (len(count) - 1) // 3):
        count[n] = 0.0
    cap = rng.choice([None, 3, 10, 200])
    c, py = _joint_both(monkeypatch, lambda: D.random_sum(count, unit, cap))
    assert c.tobytes() == py.tobytes()


def test_the_c_random_sum_is_taken_and_refuses_bad_input(monkeypatch):
    called = []
    monkeypatch.setattr(D, "_native", type("N", (), {"random_sum": staticmethod(
        lambda *a: called.append(a) or JOINT.random_sum(*a))})())
    D.random_sum([0.0, 0.5, 0.25, 0.25], [0.0, 0.5, 0.5], 10)
    assert called
    with pytest.raises(ValueError):
        JOINT.random_sum([0.5, 0.5], [0.0, 1.0], -1, 2)  # last past the count
    with pytest.raises(TypeError):
        JOINT.random_sum([0.5, "x"], [0.0, 1.0], -1, 1)


@pytest.mark.parametrize("seed", range(30))
def test_the_c_batch_chain_agrees_with_numpy(seed):
    """engine/batch.py's chain, case by case in C, against its numpy form on whole batches: the same
    sums in another order (numpy's einsum), so equal within rounding, not bit for bit."""
    from warscribe.engine import batch

    rng = random.Random(seed)
    models, wounds = rng.randint(1, 12), rng.randint(1, 8)
    n = rng.randint(1, 6)
    counts = [_count(rng, rng.randint(1, 30)) for _ in range(n)]
    damages = []
    for _ in range(n):
        law = [0.0] + [rng.random() * (rng.random() < 0.7) for _ in range(rng.randint(1, wounds + 3))]
        law[rng.randrange(1, len(law))] += 0.1
        total = sum(law)
        damages.append([p / total for p in law])
    count, damage = batch._pad(counts), batch._pad(damages)
    if damage.shape[1] < wounds + 1:
        damage = np.pad(damage, ((0, 0), (0, wounds + 1 - damage.shape[1])))
    c = batch._chain(models, wounds, counts, damages)
    py = batch._chain_numpy(models, wounds, count, damage)
    assert c.shape == py.shape == (3, n)
    assert np.allclose(c, py, rtol=1e-12, atol=1e-12), (c, py)


def test_the_c_batch_chain_refuses_bad_shapes():
    out = np.empty((3, 2))
    NATIVE.batch_chain(np.full((2, 3), 1 / 3), np.tile([0.0, 1.0, 0.0], (2, 1)), 2, 2, out)
    with pytest.raises(ValueError):
        NATIVE.batch_chain(np.full((2, 3), 1 / 3), np.tile([0.0, 1.0], (2, 1)), 2, 2, out)  # damage narrower than W + 1
    with pytest.raises(ValueError):
        NATIVE.batch_chain(np.full((2, 3), 1 / 3), np.tile([0.0, 1.0, 0.0], (2, 1)), 0, 2, out)  # no models
