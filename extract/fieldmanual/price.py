"""What one unit costs under 11th edition's points rules, from a datasheet's `points` entries.

The Munitorum Field Manual states them (its meta.yaml): a cost is listed per starting
strength, and "a unit that contains more than its minimum number of models" between two
listed sizes pays the cost of the next size up; a requisition threshold ("Your 3rd+ Units
Cost", `from_copy` 3) prices the same datasheet's selections from that number on.
"""

from __future__ import annotations


def price(points: list[dict], models: int, copy_number: int = 1, condition: str | None = None) -> int | None:
    """The points of the `copy_number`-th selection (1 = the first) of a unit of `models` models.

    The tier is the one with the highest threshold reached (no `from_copy`: from the first);
    in it, the smallest listed size of at least `models` gives the cost. None when no tier
    applies, or the unit is smaller than the smallest size or larger than the largest listed.
    Entries under a condition count only when `condition` names it (a composition the manual
    prices apart: 6 Wolf Guard Headtakers, or 3 with 3 Hunting Wolves).
    """
    if models < 1 or copy_number < 1:
        raise ValueError(f"a unit of {models} models, selection {copy_number}: both must be at least 1")
    plain = [p for p in points if not p.get("condition") or p["condition"] == condition]
    reached = [p.get("from_copy") or 1 for p in plain if (p.get("from_copy") or 1) <= copy_number]
    if not reached:
        return None
    tier = max(reached)
    sizes: dict[int, int] = {}
    for p in plain:
        if (p.get("from_copy") or 1) == tier:
            # One size listed twice: the dearer, as for a size between two.
            sizes[p["models"]] = max(p["points"], sizes.get(p["models"], p["points"]))
    listed = sorted(sizes)
    if not listed or models < listed[0]:
        return None
    return next((sizes[size] for size in listed if size >= models), None)
