"""The target unit as a Markov chain: allocating damaging events to models.

The target has ``models`` identical models of ``wounds`` W. A wounded model takes the
next attack (10e Allocate Attack; 11e Save Rolls, allocation order: a group with a
wounded model comes first), so every model but the current one is at full wounds and
the whole state is one number: the unit's remaining wounds R (0 = destroyed). The
current model has ``w(R) = (R - 1) % W + 1`` wounds left.

A damaging event with damage B (after Feel No Pain) removes ``min(B, w(R))`` wounds:
damage beyond the current model's wounds is lost, for normal damage (10e Inflict
Damage) and for [DEVASTATING WOUNDS] mortal wounds alike (10e Mortal Wounds: 'the
remaining mortal wounds from that attack are lost'; 11e 24.10: 'a maximum of one model
for each critical wound').

Vectors here are indexed by R and need not sum to 1: the chain is linear, and the
engine keeps some probability mass apart (pending devastating wounds) before adding
it back.
"""

from __future__ import annotations

from functools import cached_property

from warscribe.engine import dist as D

try:  # The list loop of `absorb` in C, the same bits (engine/_chains.c); without a compiler, Python.
    from warscribe.engine import _chains as _native
except ImportError:  # pragma: no cover (a machine without a C compiler)
    _native = None

# Above this many states, `absorb` steps the chain with numpy.
NUMPY_STATES = 400


class Chain:
    """Transition of one damaging event on a unit of ``models`` x ``wounds``."""

    def __init__(self, models: int, wounds: int, event_damage: D.Dist):
        self.size = models * wounds + 1
        self.wounds = wounds
        self.event_damage = event_damage

    @cached_property
    def loss(self) -> list[list[tuple[int, float]]]:
        """loss[w] = the (j, P(min(B, w) = j)) with a chance, for a model with w wounds left."""
        loss: list[list[tuple[int, float]]] = [[]]
        for w in range(1, self.wounds + 1):
            table = [0.0] * (w + 1)
            for b, p in enumerate(self.event_damage):
                if p:
                    table[min(b, w)] += p
            loss.append([(j, p) for j, p in enumerate(table) if p])
        return loss

    @cached_property
    def by_state(self) -> list[list[tuple[int, float]]]:
        wounds, loss = self.wounds, self.loss
        return [loss[(r - 1) % wounds + 1] if r else [(0, 1.0)] for r in range(self.size)]

    def step(self, v: D.Dist) -> D.Dist:
        out = [0.0] * self.size
        out[0] = v[0]
        by_state = self.by_state
        for r in range(1, self.size):
            p = v[r]
            if p:
                for j, q in by_state[r]:
                    out[r - j] += p * q
        return out

    def absorb(self, v: D.Dist, count: D.Dist) -> D.Dist:
        """sum_e P(N = e) * v T^e: apply a random number N ~ count of events."""
        if self.size > NUMPY_STATES:
            return self._absorb_numpy(v, count)
        if (_native is not None and type(v) is list and type(count) is list and type(self.event_damage) is list
                and len(v) == self.size):
            return _native.profile_absorb(self.event_damage, self.wounds, v, count)
        return self.absorb_lists(v, count)

    def absorb_lists(self, v: D.Dist, count: D.Dist) -> D.Dist:
        """``absorb`` in Python lists (what the C loop does, in the same order)."""
        acc = [0.0] * self.size
        cur = v
        last = len(count) - 1
        for e, pe in enumerate(count):
            if pe:
                for r, p in enumerate(cur):
                    if p:
                        acc[r] += pe * p
            if e == last:
                break
            if not any(cur[1:]):
                # Everything left is destroyed: further events change nothing.
                tail = sum(count[e + 1 :])
                acc[0] += tail * cur[0]
                break
            cur = self.step(cur)
        return acc

    def _absorb_numpy(self, v: D.Dist, count: D.Dist) -> D.Dist:
        """``absorb`` with one array operation per loss size instead of a loop over states."""
        import numpy as np

        size = self.size
        by_loss: dict[int, np.ndarray] = {}
        for r, losses in enumerate(self.by_state):
            for j, q in losses:
                by_loss.setdefault(j, np.zeros(size))[r] = q
        steps = [(j, row[j:]) for j, row in sorted(by_loss.items())]
        cur = np.asarray(v, dtype=float)
        acc = np.zeros(size)
        last = len(count) - 1
        for e, pe in enumerate(count):
            if pe:
                acc += pe * cur
            if e == last:
                break
            if not cur[1:].any():
                acc[0] += sum(count[e + 1 :]) * cur[0]
                break
            nxt = np.zeros(size)
            for j, row in steps:
                nxt[: size - j] += cur[j:] * row
            cur = nxt
        return acc.tolist()

    def absorb_each(self, v: D.Dist, counts: list[D.Dist]) -> list[D.Dist]:
        """[absorb(v, c) for c in counts], sharing the powers v T^e between them."""
        accs = [[0.0] * self.size for _ in counts]
        cur = v
        last = max(len(c) for c in counts) - 1
        for e in range(last + 1):
            for acc, count in zip(accs, counts):
                pe = count[e] if e < len(count) else 0.0
                if pe:
                    for r, p in enumerate(cur):
                        if p:
                            acc[r] += pe * p
            if e < last:
                cur = self.step(cur)
        return accs

    def power_series(self, vectors: list[D.Dist]) -> D.Dist:
        """sum_m vectors[m] T^m (Horner's scheme): pending events applied last."""
        out = list(vectors[-1])
        for m in range(len(vectors) - 2, -1, -1):
            out = self.step(out)
            for r, p in enumerate(vectors[m]):
                if p:
                    out[r] += p
        return out


def start(models: int, wounds: int) -> D.Dist:
    v = [0.0] * (models * wounds + 1)
    v[-1] = 1.0
    return v
