"""A bounded cache of what each target unit needs, counted by the numbers it holds.

Every weapon against every target meets a few values per target unit, whatever shoots at
it: the unit's ``Plan`` (``engine.unit_states``) and its ``Chain``s (``engine.chains``).
Both keep them here, the most recent first, within a count and a budget of numbers; a
chain's kept powers add to its numbers as they grow. It is its own module because both
of those modules keep their values in it, and neither should import the other for it.
"""

from __future__ import annotations

from collections import OrderedDict


class Kept:
    """What was made most recently, up to ``entries`` of them and ``cells`` numbers in all.

    For the values each unit needs whatever shoots at it (its ``Plan``, its ``Chain``s):
    every weapon against every target meets a few per target, and a bound on their count
    alone (128 chains before) let a cycle of a few hundred scenarios rebuild them on every
    call, about half its time. A value is counted by the numbers it holds (``.cells``);
    a chain's powers add to them as they grow (``Chain._grow``, through ``.kept``).
    """

    def __init__(self, make, entries: int, cells: int):
        self.make, self.entries, self.budget = make, entries, cells
        self.values: OrderedDict = OrderedDict()
        self.cells = 0

    def get(self, key: tuple):
        found = self.values.get(key)
        if found is not None:
            self.values.move_to_end(key)
            return found
        value = self.values[key] = self.make(*key)
        value.kept = self
        self.cells += value.cells
        while len(self.values) > 1 and (len(self.values) > self.entries or self.cells > self.budget):
            _, old = self.values.popitem(last=False)
            old.kept = None
            self.cells -= old.cells
        return value

    def clear(self) -> None:
        for value in self.values.values():
            value.kept = None
        self.values.clear()
        self.cells = 0

