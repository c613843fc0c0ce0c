"""The distribution primitives against their definitions (naive convolution), caps included.

The engine's fast paths (a constant unit, adding a constant 0, one copy, Bernoulli
units, numpy for long inputs) must give what the definition gives.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from warscribe.engine import dist as D


def naive_convolve(a, b):
    out = [0.0] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        for j, pb in enumerate(b):
            out[i + j] += pa * pb
    return out


def naive_lump(dist, cap):
    return dist if cap is None or len(dist) <= cap + 1 else dist[:cap] + [sum(dist[cap:])]


def naive_random_sum(count, unit):
    acc, power = [0.0], [1.0]
    for pn in count:
        acc = [x + pn * (power[i] if i < len(power) else 0.0) for i, x in enumerate(acc + [0.0] * max(0, len(power) - len(acc)))]
        power = naive_convolve(power, unit)
    return acc


def close(a, b):
    a, b = D.trim(list(a)), D.trim(list(b))
    return len(a) == len(b) and all(abs(x - y) < 1e-12 for x, y in zip(a, b))


def normalised(weights):
    total = sum(weights)
    return [w / total for w in weights]


probabilities = st.lists(st.integers(0, 5), min_size=1, max_size=7).filter(any).map(normalised)
constant = st.integers(0, 6).map(D.point)
caps = st.one_of(st.none(), st.integers(1, 30))


@settings(max_examples=300, deadline=None)
@given(count=probabilities, unit=st.one_of(probabilities, constant), cap=caps)
def test_random_sum_is_its_definition(count, unit, cap):
    assert close(D.random_sum(count, unit, cap), naive_lump(naive_random_sum(count, unit), cap))


@settings(max_examples=200, deadline=None)
@given(a=st.one_of(probabilities, st.just([1.0])), b=st.one_of(probabilities, st.just([1.0])), cap=caps)
def test_convolve_is_its_definition(a, b, cap):
    assert close(D.convolve(a, b, cap), naive_lump(naive_convolve(a, b), cap))


@settings(max_examples=200, deadline=None)
@given(unit=st.one_of(probabilities, constant), n=st.integers(0, 6), cap=caps)
def test_sum_iid_is_its_definition(unit, n, cap):
    expected = [1.0]
    for _ in range(n):
        expected = naive_convolve(expected, unit)
    assert close(D.sum_iid(unit, n, cap), naive_lump(expected, cap))


def test_mean():
    assert D.mean([0.25, 0.5, 0.25]) == 1.0 and D.mean([1.0]) == 0.0


def _rows_of(joint):
    """A sparse joint law {(k, m): p} as the dense [m, k] array ``joint_rows`` gives."""
    import numpy as np

    out = np.zeros((max(m for _, m in joint) + 1, max(k for k, _ in joint) + 1))
    for (k, m), p in joint.items():
        out[m, k] = p
    return out


keys = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=7, unique=True)


@settings(max_examples=200, deadline=None)
@given(count=st.lists(st.integers(0, 5), min_size=1, max_size=16).filter(lambda c: c[-1]).map(normalised),
       unit_keys=keys, weights=st.lists(st.integers(0, 5), min_size=7, max_size=7).filter(any))
def test_the_joint_law_in_arrays_is_the_sparse_law_bit_for_bit(count, unit_keys, weights):
    """``joint_rows`` without the C loops (whole arrays, ``np.add.at``) sums every (k, m) in the
    order of the sparse law's dicts: the same floats, to the bit, and the same shape (zero
    chances included, as the dicts keep their keys)."""
    unit = dict(zip(unit_keys, normalised(weights[:len(unit_keys)] if any(weights[:len(unit_keys)]) else
                                          [1] * len(unit_keys))))
    last = len(count) - 1
    top_k, top_m = last * max(k for k, _ in unit), last * max(m for _, m in unit)
    got = D._joint_rows_numpy(count, unit, top_k, top_m)
    want = _rows_of(D._joint_random_sum_sparse(count, unit))
    assert got.shape == want.shape and got.tobytes() == want.tobytes()


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=12).map(lambda r: [x / 7 for x in r]),
                     min_size=1, max_size=5))
def test_count_tails_are_the_loops_sums_bit_for_bit(rows):
    """``chains.Counts``: tails[c][e] = P(N_c > e), summed from the last value down, and ``every``
    their sum over the rows in order: the floats of the plain loops (``_tails``, then row after row)."""
    from warscribe.engine import chains as C

    width = max(len(r) for r in rows)
    padded = [r + [0.0] * (width - len(r)) for r in rows]
    counts = C.Counts.of(padded)
    want = [C._tails(r) for r in padded]
    assert counts.tails.tolist() == want
    every = list(want[0])
    for r in want[1:]:
        every = [a + b for a, b in zip(every, r)]
    assert counts.every == every
