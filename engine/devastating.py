"""[DEVASTATING WOUNDS] groups against a target of several kinds: the packets waiting.

Such a group's mortal-wound packets are allocated after its normal wounds (10e: after
every group's; 11e 24.10), so its normal wounds are applied to the states while a count
of the packets still to come is kept beside them (``packets_waiting``: slabs, one per count).
They are found one of three ways, with the same results but for the order of some sums:

* the joint law of the group's wounds and packets (``group_counts._joint_counts``), then
  one absorb per packet count: the same bits as ever, cached per profile;
* hit by hit (``_by_hits``), where every hit rolls to wound alike: one power of a thinned
  chain per hit and one weighted sum (a matrix product, within about 1e-15 of the loop it
  replaced) per packet count;
* attack by attack (``_with_packets``), on a state vector that also counts the packets
  waiting, with a small product per attack (within about 1e-13).

The joint law is taken up to a budget of work, and beyond it whichever of the three a cost
model says is cheapest (``_joint_cheaper``). ``devastating_work`` bounds that work for the
scenario's size limit (``engine.scenario``).
"""

from __future__ import annotations

from math import log1p

import numpy as np

from warscribe.engine import dist as D
from warscribe.engine.attack import attacks_per_model
from warscribe.engine.chains import MEMO_CELLS, NORMAL, Builder, Chain, Counts, Reward, _tails
from warscribe.engine.group_counts import _dense_degree, _joint_counts, _Profile
from warscribe.engine.model import Conditions, Target
from warscribe.engine.unit_states import state_count

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


def packets_waiting(prof: _Profile, builder: Builder, floor: int | None, v: np.ndarray, reward: Reward,
                    cap: int | None, fresh: bool, parts: int = 1) -> np.ndarray:
    """The states after the group's normal wounds by its packets waiting: (packets, rows, states).

    Either the joint law of wounds and packets over the group, then one absorb per packet
    count (sharing the powers), or hit by hit (``_by_hits``, when every hit rolls to wound
    alike), or attack by attack (``_with_packets``): the joint law
    grows as the cube of the attacks, the steps as the states times the packets waiting.
    ``fresh``: v is the untouched unit. ``parts``: how many parts of the state vector meet
    this profile (11e), which share one joint law (cached) but are stepped each on its own.
    """
    normal = builder.chain(NORMAL, floor)
    if _joint_cheaper(prof, v.size, cap, parts):
        return normal.absorb(v, _joint_counts(prof), reward, fresh)
    if _by_hits_applies(prof, v.size):
        return _by_hits(v, prof, normal, builder.thinned(floor, prof.profile.per_hit), cap, reward, fresh)
    normal.absorb(v, Counts.of([prof.normal_counts]), reward, fresh)  # the normal wounds' rewards
    return _with_packets(v, prof, normal, cap)


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

