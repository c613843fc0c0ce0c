"""Discrete probability distributions over small non-negative integers.

A distribution is a list of floats: ``dist[i]`` is the probability of the value ``i``.
Everything the engine computes is built from these few exact operations (sums of
independent variables, random sums, binomial thinning); there is no sampling.

Floats rather than fractions: the benchmark target (well under a millisecond per
scenario) rules fractions out, and every distribution the engine returns is checked
to sum to 1 within 1e-9 by the tests.
"""

from __future__ import annotations

import re
from functools import lru_cache
from math import comb

Dist = list[float]

DICE_RE = re.compile(r"^(?P<n>[1-9]?)D(?P<sides>3|6)(?:\+(?P<plus>[1-9][0-9]?))?$")


def point(value: int) -> Dist:
    """The distribution of a constant."""
    out = [0.0] * (value + 1)
    out[value] = 1.0
    return out


@lru_cache(maxsize=256)
def _dice(expr: str) -> tuple[float, ...]:
    m = DICE_RE.match(expr)
    if not m:
        raise ValueError(f"not a dice expression: {expr!r}")
    count = int(m.group("n") or 1)
    sides = int(m.group("sides"))
    plus = int(m.group("plus") or 0)
    one = [0.0] + [1.0 / sides] * sides
    total = [1.0]
    for _ in range(count):
        total = convolve(total, one)
    return tuple([0.0] * plus + total)


def dice(value: int | str) -> Dist:
    """Distribution of a characteristic written as a whole number or dice ('2D6', 'D3+1')."""
    if isinstance(value, int):
        return point(value)
    text = value.strip().upper()
    if text.isdigit():
        return point(int(text))
    return list(_dice(text))


def mean(dist: Dist) -> float:
    return sum(i * p for i, p in enumerate(dist))


def trim(dist: Dist) -> Dist:
    """Drop trailing exact zeros (keeps at least one entry)."""
    end = len(dist)
    while end > 1 and dist[end - 1] == 0.0:
        end -= 1
    return dist[:end] if end != len(dist) else dist


def convolve(a: Dist, b: Dist, cap: int | None = None) -> Dist:
    """Distribution of X + Y for independent X ~ a, Y ~ b.

    With ``cap``, values at or above ``cap`` are lumped into ``cap`` (the result has
    ``cap + 1`` entries at most).
    """
    size = len(a) + len(b) - 1
    if cap is not None and size > cap + 1:
        size = cap + 1
    out = [0.0] * size
    last = size - 1
    for i, pa in enumerate(a):
        if pa == 0.0:
            continue
        for j, pb in enumerate(b):
            if pb == 0.0:
                continue
            k = i + j
            if k > last:
                k = last
            out[k] += pa * pb
    return out


def add_scaled(acc: Dist, dist: Dist, weight: float) -> Dist:
    """acc += weight * dist (growing acc as needed); returns acc."""
    if len(acc) < len(dist):
        acc.extend([0.0] * (len(dist) - len(acc)))
    for i, p in enumerate(dist):
        if p:
            acc[i] += weight * p
    return acc


def shift(dist: Dist, by: int) -> Dist:
    return [0.0] * by + list(dist) if by > 0 else list(dist)


def binomial(n: int, p: float) -> Dist:
    if p <= 0.0:
        return point(0)
    if p >= 1.0:
        return point(n)
    q = 1.0 - p
    return [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


def thin(dist: Dist, keep: float) -> Dist:
    """Each of the X units survives independently with probability ``keep``.

    Used for Feel No Pain: every point of damage is rolled for separately.
    """
    if keep >= 1.0:
        return list(dist)
    out = [0.0] * len(dist)
    for n, pn in enumerate(dist):
        if pn:
            for k, pk in enumerate(binomial(n, keep)):
                out[k] += pn * pk
    return trim(out)


def random_sum(count: Dist, unit: Dist, cap: int | None = None) -> Dist:
    """Distribution of U_1 + ... + U_N, N ~ count, U_i ~ unit independent.

    Bernoulli units (the common case: one attack is one wound or nothing) use the
    binomial formula instead of repeated convolution.
    """
    unit = trim(unit)
    if len(unit) == 1:
        return point(0)
    if len(unit) == 2:
        acc: Dist = []
        for n, pn in enumerate(count):
            if pn:
                add_scaled(acc, binomial(n, unit[1]), pn)
        if cap is not None and len(acc) > cap + 1:
            acc = acc[:cap] + [sum(acc[cap:])]
        return acc
    acc = [0.0]
    power: Dist = [1.0]
    last = len(count) - 1
    for n, pn in enumerate(count):
        if pn:
            add_scaled(acc, power, pn)
        if n < last:
            power = convolve(power, unit, cap)
    return acc


def sum_iid(unit: Dist, n: int, cap: int | None = None) -> Dist:
    """Distribution of the sum of ``n`` independent copies of ``unit``."""
    return random_sum(point(n), unit, cap)


def mixture(parts: list[tuple[float, Dist]]) -> Dist:
    acc: Dist = []
    for weight, dist in parts:
        if weight:
            add_scaled(acc, dist, weight)
    return acc or [1.0]


# Joint distributions of two counts (normal wounds, devastating-wounds packets) are
# sparse dicts {(k, m): p}; they are only needed when the two must be kept apart.
Joint = dict[tuple[int, int], float]


def joint_convolve(a: Joint, b: Joint, cap_k: int | None = None, cap_m: int | None = None) -> Joint:
    out: Joint = {}
    for (ka, ma), pa in a.items():
        for (kb, mb), pb in b.items():
            k, m = ka + kb, ma + mb
            if cap_k is not None and k > cap_k:
                k = cap_k
            if cap_m is not None and m > cap_m:
                m = cap_m
            out[(k, m)] = out.get((k, m), 0.0) + pa * pb
    return out


def joint_random_sum(count: Dist, unit: Joint, cap_k: int | None = None, cap_m: int | None = None) -> Joint:
    """Joint distribution of the sums of N independent (k, m) pairs, N ~ count."""
    acc: Joint = {}
    power: Joint = {(0, 0): 1.0}
    last = len(count) - 1
    for n, pn in enumerate(count):
        if pn:
            for key, p in power.items():
                acc[key] = acc.get(key, 0.0) + pn * p
        if n < last:
            power = joint_convolve(power, unit, cap_k, cap_m)
    return acc


def joint_total(joint: Joint) -> Dist:
    """Distribution of k + m."""
    out: Dist = [0.0]
    for (k, m), p in joint.items():
        if k + m >= len(out):
            out.extend([0.0] * (k + m + 1 - len(out)))
        out[k + m] += p
    return out
