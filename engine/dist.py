"""Discrete probability distributions over small non-negative integers.

A distribution is a list of floats: ``dist[i]`` is the probability of the value ``i``.
Everything the engine computes is built from these few exact operations (sums of
independent variables, random sums, binomial thinning); there is no sampling.

Floats rather than fractions: the benchmark target (well under a millisecond per
scenario) rules fractions out, and every distribution the engine returns is checked
to sum to 1 within 1e-9 by the tests.

Nothing here can overflow: binomial terms come from their ratio recurrence (in log
space when the first term would underflow), never from ``comb(n, k)`` turned into a
float. Every count can be lumped at a ``cap`` (values at or above it in the last
entry), so sizes, and time, stay bounded by what the caller needs. Long convolutions
go to numpy (direct summation, not FFT, so the sums are those of the loop below);
small ones stay in plain Python, where a numpy call costs more than the arithmetic.
"""

from __future__ import annotations

import re
from functools import lru_cache
from math import exp, log, log1p
from operator import mul

try:  # The joint law's loops in C, the same bits (engine/_joint.c); without a compiler, Python alone.
    from warscribe.engine import _joint as _native
except ImportError:  # pragma: no cover (a machine without a C compiler)
    _native = None

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
    return sum(map(mul, range(len(dist)), dist))


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
    # Adding a constant 0 (where every sum starts) is a copy.
    if len(a) == 1 and a[0] == 1.0:
        return lump(list(b), cap)
    if len(b) == 1 and b[0] == 1.0:
        return lump(list(a), cap)
    size = len(a) + len(b) - 1
    if cap is not None and size > cap + 1:
        size = cap + 1
    if len(a) * len(b) >= NUMPY_AT:
        return _np_convolve(a, b, size)
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


# Above this many products, numpy's direct convolution beats the Python loop.
NUMPY_AT = 2048


def _np_convolve(a: Dist, b: Dist, size: int) -> Dist:
    import numpy as np  # lazily: a small scenario never needs it

    full = np.convolve(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    if len(full) > size:
        full[size - 1] = full[size - 1 :].sum()
        full = full[:size]
    return full.tolist()


def lump(dist: Dist, cap: int | None) -> Dist:
    """Values at or above ``cap`` lumped into ``cap``."""
    if cap is None or len(dist) <= cap + 1:
        return dist
    return dist[:cap] + [sum(dist[cap:])]


def add_scaled(acc: Dist, dist: Dist, weight: float) -> Dist:
    """acc += weight * dist (growing acc as needed); returns acc."""
    if len(acc) < len(dist):
        acc.extend([0.0] * (len(dist) - len(acc)))
    for i, p in enumerate(dist):
        if p:
            acc[i] += weight * p
    return acc


def halved(dist: Dist) -> Dist:
    """Each value of 1 or more halved, rounding up (a Damage characteristic halved); 0 stays 0."""
    if len(dist) <= 2:
        return dist
    out = [0.0] * ((len(dist) - 1 + 1) // 2 + 1)
    out[0] = dist[0]
    for d in range(1, len(dist)):
        if dist[d]:
            out[(d + 1) // 2] += dist[d]
    return out


def reduced(dist: Dist, by: int) -> Dist:
    """Each value of 1 or more less ``by``, to a minimum of 1 (a Damage characteristic reduced); 0 stays 0."""
    if by <= 0 or len(dist) <= 2:
        return dist
    out = [0.0] * max(2, len(dist) - by)
    out[0] = dist[0]
    for d in range(1, len(dist)):
        if dist[d]:
            out[max(1, d - by)] += dist[d]
    return out


def shift(dist: Dist, by: int) -> Dist:
    return [0.0] * by + list(dist) if by > 0 else list(dist)


def binomial(n: int, p: float, cap: int | None = None) -> Dist:
    """P(X = k), X ~ Binomial(n, p); with ``cap``, k >= cap lumped into the last entry.

    Terms come from P(k+1) = P(k) (n-k)/(k+1) p/q, so nothing grows beyond 1 for any n;
    when P(0) = q^n would underflow, the recurrence runs on logarithms instead. The
    cost is O(min(n, cap)).
    """
    if p <= 0.0:
        return point(0)
    if p >= 1.0:
        return point(n if cap is None else min(n, cap))
    lumped = cap is not None and n > cap
    last = cap if lumped else n
    out = [0.0] * (last + 1)
    q = 1.0 - p
    explicit = last if lumped else last + 1
    log_first = n * log1p(-p)
    if log_first > -700.0:
        term = exp(log_first)
        ratio = p / q
        for k in range(explicit):
            out[k] = term
            term *= (n - k) / (k + 1) * ratio
    else:
        log_term, log_ratio = log_first, log(p) - log(q)
        for k in range(explicit):
            out[k] = exp(log_term) if log_term > -745.0 else 0.0
            log_term += log((n - k) / (k + 1)) + log_ratio
    if lumped:
        out[cap] = max(0.0, 1.0 - sum(out[:cap]))
    return out


def thin(dist: Dist, keep: float, cap: int | None = None) -> Dist:
    """Each of the X units survives independently with probability ``keep``.

    Used for Feel No Pain (every point of damage is rolled for separately) and to
    drop the events that Feel No Pain turns into nothing.
    """
    if keep >= 1.0:
        return lump(list(dist), cap)
    out: Dist = [0.0]
    for n, pn in enumerate(dist):
        if pn:
            add_scaled(out, binomial(n, keep, cap), pn)
    return trim(out)


def random_sum(count: Dist, unit: Dist, cap: int | None = None) -> Dist:
    """Distribution of U_1 + ... + U_N, N ~ count, U_i ~ unit independent.

    Bernoulli units (the common case: one attack is one wound or nothing) use the
    binomial formula instead of repeated convolution, and a constant N repeated
    squaring. The cost is O(len(count) x cap), O(log N x cap^2) for a constant N.
    """
    unit = trim(unit)
    if len(unit) == 1:
        return point(0)
    support = [n for n, pn in enumerate(count) if pn]
    if len(support) == 1:
        return sum_iid(unit, support[0], cap)
    if unit[-1] == 1.0 and not any(unit[:-1]):
        # A constant unit u (a fixed Damage characteristic): the sum is N x u.
        u = len(unit) - 1
        out = [0.0] * (min(support[-1] * u, cap) + 1 if cap is not None else support[-1] * u + 1)
        last = len(out) - 1
        for n in support:
            out[min(n * u, last)] += count[n]
        return out
    if len(unit) == 2:
        acc: Dist = []
        for n in support:
            add_scaled(acc, binomial(n, unit[1], cap), count[n])
        return lump(acc, cap)
    last = support[-1]
    if _native is not None and type(count) is list and type(unit) is list:
        # The loop in C where every convolution stays below NUMPY_AT (then it adds as the loop does).
        longest = (last - 1) * (len(unit) - 1) + 1
        if cap is not None:
            longest = min(longest, cap + 1)
        if longest * len(unit) < NUMPY_AT:
            return _native.random_sum(count, unit, -1 if cap is None else cap, last)
    if last * last * len(unit) >= NUMPY_AT * 64:
        return _np_random_sum(count, unit, cap, last)
    if last * last * len(unit) >= LOOP_NUMPY_AT:
        return _random_sum_loop_np(count, unit, cap, last)
    acc = [0.0]
    power: Dist = [1.0]
    for n in range(last + 1):
        pn = count[n]
        if pn:
            add_scaled(acc, power, pn)
        if n < last:
            power = convolve(power, unit, cap)
    return acc


# From about this much work (last count squared x unit length) ``random_sum``'s loop runs on numpy arrays.
LOOP_NUMPY_AT = 2000


def _random_sum_loop_np(count: Dist, unit: Dist, cap: int | None, last: int) -> Dist:
    """``random_sum``'s loop with the powers as numpy arrays: the same products, summed in the same order."""
    import numpy as np

    u = np.asarray(unit, dtype=float)
    acc = np.zeros(1)
    power = np.ones(1)
    for n in range(last + 1):
        pn = count[n]
        if pn:
            if len(acc) < len(power):
                acc = np.concatenate([acc, np.zeros(len(power) - len(acc))])
            acc[:len(power)] += pn * power
        if n < last:
            power = _convolve_in_order(power, u, cap)
    return acc.tolist()


def _convolve_in_order(a, b, cap: int | None):
    """``convolve`` of numpy arrays, bit for bit: each sum taken in the loop's order (a's index ascending)."""
    import numpy as np

    if len(a) == 1 and a[0] == 1.0:
        return np.asarray(lump(b.tolist(), cap))
    if len(b) == 1 and b[0] == 1.0:
        return np.asarray(lump(a.tolist(), cap))
    full = len(a) + len(b) - 1
    size = full if cap is None or full <= cap + 1 else cap + 1
    if len(a) * len(b) >= NUMPY_AT:
        return np.asarray(_np_convolve(a.tolist(), b.tolist(), size))
    out = np.zeros(size)
    last = size - 1
    lumped = full > size
    # out[k] = sum over i ascending of a[i] b[k - i]: b's index descending. The lumped last
    # entry takes every pair with i + j >= last, in the loop's order (i, then j).
    end = last if lumped else size
    for j in range(len(b) - 1, -1, -1):
        n = min(len(a), end - j)
        if n > 0 and b[j]:
            out[j:j + n] += b[j] * a[:n]
    if lumped:
        products = np.outer(a, b)
        reach = np.add.outer(np.arange(len(a)), np.arange(len(b))) >= last
        out[last] = np.cumsum(np.where(reach, products, 0.0).ravel())[-1]
    return out


def _np_random_sum(count: Dist, unit: Dist, cap: int | None, last: int) -> Dist:
    """``random_sum`` for long counts: the same recurrence on numpy arrays."""
    import numpy as np

    size = last * (len(unit) - 1) + 1 if cap is None else min(cap, last * (len(unit) - 1)) + 1
    acc = np.zeros(size)
    power = np.zeros(size)
    power[0] = 1.0
    u = np.asarray(unit, dtype=float)
    for n in range(last + 1):
        if count[n]:
            acc += count[n] * power
        if n < last:
            full = np.convolve(power, u)
            full[size - 1] = full[size - 1 :].sum()
            power = full[:size]
    return acc.tolist()


def sum_iid(unit: Dist, n: int, cap: int | None = None) -> Dist:
    """Distribution of the sum of ``n`` independent copies of ``unit`` (repeated squaring)."""
    unit = trim(unit)
    nonzero = [i for i, p in enumerate(unit) if p]
    if len(nonzero) == 1:
        total = nonzero[0] * n
        return point(total if cap is None else min(total, cap))
    if len(unit) == 2:
        return binomial(n, unit[1], cap)
    if n == 1:
        return lump(list(unit), cap)
    result: Dist = [1.0]
    base = lump(unit, cap)
    while n:
        if n & 1:
            result = convolve(result, base, cap)
        n >>= 1
        if n:
            base = convolve(base, base, cap)
    return result


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


def joint_thin(joint: Joint, keep: float) -> Joint:
    """Each of the k and m units survives independently with probability ``keep``."""
    if keep >= 1.0:
        return dict(joint)
    out: Joint = {}
    for (k, m), p in joint.items():
        for k2, pk in enumerate(binomial(k, keep)):
            for m2, pm in enumerate(binomial(m, keep)):
                if pk and pm:
                    out[(k2, m2)] = out.get((k2, m2), 0.0) + p * pk * pm
    return out


def joint_random_sum(count: Dist, unit: Joint, cap_k: int | None = None, cap_m: int | None = None) -> Joint:
    """Joint distribution of the sums of N independent (k, m) pairs, N ~ count.

    With caps: dense (numpy) over k <= cap_k, m <= cap_m, each lumped at its cap, one
    step per possible attack, each O(len(unit) x cap_k x cap_m). Without: sparse.
    """
    if cap_k is None or cap_m is None:
        return _joint_random_sum_sparse(count, unit)
    import numpy as np

    power = np.zeros((cap_k + 1, cap_m + 1))
    power[0, 0] = 1.0
    acc = np.zeros_like(power)
    last = max(n for n, pn in enumerate(count) if pn)
    for n in range(last + 1):
        if count[n]:
            acc += count[n] * power
        if n < last:
            nxt = np.zeros_like(power)
            for (dk, dm), p in unit.items():
                nxt += p * _shift_lumped(_shift_lumped(power, dk).T, dm).T
            power = nxt
    return {(int(k), int(m)): float(acc[k, m]) for k, m in zip(*np.nonzero(acc))}


def graded_degree(unit: Joint) -> int | None:
    """D when ``unit``'s keys are every (k, m) with k + m <= D, listed by k + m, then k descending."""
    degree = max(k + m for k, m in unit)
    expected = [(k, t - k) for t in range(degree + 1) for k in range(t, -1, -1)]
    return degree if list(unit) == expected else None


def joint_random_sum_graded(count: Dist, unit: Joint, degree: int):
    """``joint_random_sum(count, unit)`` without caps, bit for bit, as a dense numpy array [k, m].

    For a ``unit`` listed in graded order (``graded_degree``) the sparse loop meets the
    keys of every power in that order too, so each (k, m) sums its terms over the unit's
    keys in reverse order: that is the order kept here, one shifted array operation per
    key. Cells with k + m above ``degree`` x (the largest count) are unreachable (zero).
    """
    import numpy as np

    last = len(count) - 1
    size = degree * last + 1
    acc = np.zeros((size, size))
    power = np.zeros((size, size))
    power[0, 0] = 1.0
    keys = list(unit.items())[::-1]
    reach = 0  # power's cells are within k + m <= reach
    for n, pn in enumerate(count):
        if pn:
            acc[:reach + 1, :reach + 1] += pn * power[:reach + 1, :reach + 1]
        if n < last:
            grown = min(reach + degree, size - 1)
            nxt = np.zeros((size, size))
            for (dk, dm), p in keys:
                nxt[dk:dk + reach + 1, dm:dm + reach + 1] += p * power[:reach + 1, :reach + 1]
            power, reach = nxt, grown
    return acc


def _joint_random_sum_sparse(count: Dist, unit: Joint) -> Joint:
    acc: Joint = {}
    power: Joint = {(0, 0): 1.0}
    last = len(count) - 1
    for n, pn in enumerate(count):
        if pn:
            for key, p in power.items():
                acc[key] = acc.get(key, 0.0) + pn * p
        if n < last:
            power = joint_convolve(power, unit)
    return acc


# The C loops hold a grid of (k, m) of at most this many cells (engine/_joint.c: MAX_CELLS); a
# bigger law (hundreds of attacks, far past the joint law's budget) goes to the numpy code.
NATIVE_CELLS = 1 << 21


def joint_rows(count: Dist, unit: Joint):
    """``joint_random_sum(count, unit)`` (no caps) as a dense array [m, k], as tall and as wide as
    its keys reach (one past the largest m and k), zero where it holds no key."""
    import numpy as np

    last = len(count) - 1
    top_k = last * max(k for k, _ in unit)
    top_m = last * max(m for _, m in unit)
    if _native is not None and (top_k + 1) * (top_m + 1) <= NATIVE_CELLS:
        out = np.zeros((top_m + 1, top_k + 1))
        height, width = _native.sparse(np.array(count, dtype=float), *_law_arrays(unit), out)
        return np.ascontiguousarray(out[:height, :width])
    return _joint_rows_numpy(count, unit, top_k, top_m)


def _law_arrays(unit: Joint):
    """A law's keys' k and m (int64) and their chances, in the dict's order."""
    import numpy as np

    return (np.array([k for k, _ in unit], dtype=np.int64), np.array([m for _, m in unit], dtype=np.int64),
            np.array(list(unit.values()), dtype=float))


def _joint_rows_numpy(count: Dist, unit: Joint, top_k: int, top_m: int):
    """``joint_rows`` without the C loops: the sparse law's dicts (``_joint_random_sum_sparse``)
    emulated with whole arrays, the same bits. A power's keys are kept in the dict's insertion
    order; its product with the unit lists the terms in the dict loop's order (the power's keys,
    then the unit's), ``np.add.at`` sums each key's terms in that order, and the new keys are
    ordered by their first term."""
    import numpy as np

    width = top_m + 1
    dk, dm, p = _law_arrays(unit)
    cells = np.zeros(1, dtype=np.int64)  # k * width + m, in insertion order
    vals = np.ones(1)
    acc = np.zeros((top_k + 1) * width)
    seen = np.zeros((top_k + 1) * width, dtype=bool)
    grid = np.zeros((top_k + 1) * width)
    last = len(count) - 1
    for n, pn in enumerate(count):
        if pn:
            acc[cells] += pn * vals
            seen[cells] = True
        if n < last:
            terms = (vals[:, None] * p[None, :]).ravel()
            made = (cells[:, None] + (dk * width + dm)[None, :]).ravel()
            grid[made] = 0.0
            np.add.at(grid, made, terms)
            keys, first = np.unique(made, return_index=True)
            cells = keys[np.argsort(first, kind="stable")]
            vals = grid[cells]
    held = np.flatnonzero(seen)
    height, across = int((held % width).max()) + 1, int((held // width).max()) + 1
    return np.ascontiguousarray(acc.reshape(top_k + 1, width)[:across, :height].T)


def joint_rows_graded(count: Dist, unit: Joint, degree: int):
    """``joint_random_sum_graded(count, unit, degree)`` as [m, k] up to the last reachable k + m (the
    degree times the largest count), bit for bit ``joint_rows``' cells there."""
    import numpy as np

    reach = degree * max(n for n, p in enumerate(count) if p)
    size = degree * (len(count) - 1) + 1
    if _native is not None and size * size <= NATIVE_CELLS:
        out = np.empty((reach + 1, reach + 1))
        _native.graded(np.array(count, dtype=float), *_law_arrays(unit), degree, out)
        return out
    joint = joint_random_sum_graded(count, unit, degree)
    return np.ascontiguousarray(joint[:reach + 1, :reach + 1].T)


def _shift_lumped(a, by: int):
    """Rows of ``a`` moved down by ``by``; rows pushed past the last are added into it."""
    if not by:
        return a
    import numpy as np

    rows = a.shape[0]
    moved = np.zeros_like(a)
    if by < rows:
        moved[by:] = a[: rows - by]
        moved[rows - 1] += a[rows - by :].sum(axis=0)
    else:
        moved[rows - 1] = a.sum(axis=0)
    return moved


def joint_total(joint: Joint) -> Dist:
    """Distribution of k + m."""
    out: Dist = [0.0]
    for (k, m), p in joint.items():
        if k + m >= len(out):
            out.extend([0.0] * (k + m + 1 - len(out)))
        out[k + m] += p
    return out
