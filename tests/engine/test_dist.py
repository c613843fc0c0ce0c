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
