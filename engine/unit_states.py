"""The target unit's allocation states: what each state means, whatever shoots at the unit.

A target of several kinds is allocated as two sequences of models (``engine.groups``
gives the rules): B, allocated first, and C, the CHARACTER models that [PRECISION] can
pick out. Only the first living model of a sequence can be wounded, so a sequence's state
is one number, the wounds it has left. The unit's state is (rb, rc), flattened to
``rc * (|B| + 1) + rb``; state 0 is the destroyed unit.

What depends on the unit alone (which model is current in each state, the unit's
Toughness there, where each state counts in the results) is computed once per unit
(``Plan``, kept in ``_PLANS``); the weapon groups' chains over these states are
``engine.chains``. ``state_count`` is the size of that state space without building it,
for the scenario's size limit (``engine.scenario``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warscribe.engine.kept import Kept
from warscribe.engine.model import ModelKind, Target


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
        self.kept: Kept | None = None

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


# About 64 MB of plans at most: a unit of a few hundred states holds well under 100 kB; the
# largest allowed (20,000 states) some megabytes.
_PLANS = Kept(Plan, entries=1024, cells=8_000_000)
