"""A unit's composition and price: its model lines with their bounds, and its points at each
unit size a player can field, read from the composition's bounds and the cost modifiers.

Model entries are grouped into *lines*: in an entry group, each kind of model (the Unit
profile it carries) the group always holds a fixed number of is a line of its own
(``1 Intercessor Sergeant``); the other entries are variants of the group's models (an
Intercessor with or without a grenade launcher, a Necron Warrior with a gauss flayer or a
gauss reaper, Custodian Guard with spear or blade) and make one line named after the
group, its bounds those the group leaves it (``4-9 Intercessors``, ``10-20 Warriors``:
Warriors, ``4-5 Custodian Guard``).

The price is the unit's cost plus its models' costs, changed by the cost modifiers whose
conditions hold, evaluated for every unit size from the smallest to the largest: at each
size the models are the fewest the lines allow, the rest in the line with most room.
Sizes that cost the same make one band; the first is printed at the unit's smallest size,
each later one at its largest (a unit of 5 or 10 whose data says '160 from 6 models up'
costs 80 at 5 and 160 at 10; one whose data says '200 at 10' costs 100 at 5 and 200 at 10). Where the price
depends on more than the size (Headtakers with or without Hunting Wolves), each
combination of the lines' band sizes is a price with the combination as its condition.
A modifier whose condition is the army's catalogue gives a second price under that
condition (an Assigned Agent); one that counts what the player picks for the unit's
wargear is not read and is reported, grouped by kind.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from warscribe.extract.battlescribe import conditions
from warscribe.extract.battlescribe.common import bounds, characteristics, number
from warscribe.extract.battlescribe.conditions import Army, Scope
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.walk import Model, Walk
from warscribe.schema.text import clean_name

_COUNT_PREFIX = re.compile(r"^\s*\d+(?:\s*-\s*\d+)?\s+")
MAX_SIZES = 200  # unit sizes priced one by one
MAX_GRID = 64  # combinations of line sizes priced where the price depends on more than the size


@dataclass
class Line:
    name: str
    lo: int
    hi: int
    variants: list[Model] = field(default_factory=list)  # main variant first

    def as_record(self) -> dict:
        return {"name": self.name, "min": self.lo, "max": max(self.hi, 1)}


def _kind(walk: Walk, model: Model) -> tuple:
    """What makes models one kind: the Unit profile they carry (their own, or the unit's)."""
    for found in walk.profiles:
        if found.owner is model and found.profile.get("typeName") == "Unit":
            return (clean_name(str(found.profile.get("name", ""))), tuple(sorted(characteristics(found.profile).items())))
    return ("",)


def _model_bounds(model: Model) -> tuple[int, int | None]:
    if model.link is not None and any(isinstance(c, dict) and c.get("field") == "selections"
                                      for c in model.link.get("constraints") or []):
        return bounds(model.link)
    return bounds(model.obj)


def lines(walk: Walk) -> list[Line]:
    """The unit's model lines, in the order the data lists them."""
    unit = walk.unit
    if unit.obj.get("type") == "model":
        return [Line(unit.name, 1, 1, [unit])]
    models = [m for m in walk.models if m is not unit]
    if not models:
        return [Line(unit.name, 1, 1, [])]
    out: list[Line] = []
    seen_groups: set[int] = set()
    for model in models:
        grp = _top(model.group)
        if grp is None:
            lo, hi = _model_bounds(model)
            out.append(Line(model.name, lo, hi if hi is not None else max(lo, 1), [model]))
            continue
        if id(grp) in seen_groups:
            continue
        seen_groups.add(id(grp))
        out += _group_lines(walk, grp, [m for m in models if _top(m.group) is grp])
    return out


def _top(grp):
    """The outermost group a group sits in: a nested group's models count against its bounds."""
    while grp is not None and grp.parent is not None:
        grp = grp.parent
    return grp


def _group_lines(walk: Walk, grp, members: list[Model]) -> list[Line]:
    """A group's lines: each kind the group always holds a fixed number of (a sergeant) on its own
    line, the rest one line named after the group, its bounds those the group leaves it."""
    glo, ghi = bounds(grp.obj)
    kinds: dict[tuple, list[Model]] = {}
    for m in members:
        kinds.setdefault(_kind(walk, m), []).append(m)
    fixed: list[Line] = []
    rest: list[Model] = []
    rest_lo, rest_hi = 0, 0
    for variants in kinds.values():
        lo = sum(_model_bounds(m)[0] for m in variants)
        his = [_model_bounds(m)[1] for m in variants]
        hi = None if any(h is None for h in his) else sum(his)
        if lo >= 1 and hi == lo and len(kinds) > 1:
            fixed.append(Line(variants[0].name if len(variants) == 1 else _group_name(grp, variants), lo, lo,
                              _main_first(grp, variants)))
        else:
            rest += variants
            rest_lo += lo
            rest_hi = None if rest_hi is None or hi is None else rest_hi + hi
    out = list(fixed)
    if rest:
        taken = sum(ln.lo for ln in fixed)
        lo = max(rest_lo, glo - taken)
        hi = rest_hi if ghi is None else (ghi - taken if rest_hi is None else min(rest_hi, ghi - taken))
        if hi is None:
            hi = max(lo, 1)
        single = len({_kind(walk, m) for m in rest}) == 1 and len(rest) == 1
        name = rest[0].name if single and ghi is None else _group_name(grp, rest)
        out.append(Line(name, max(lo, 0), max(hi, lo), _main_first(grp, rest)))
    return out


def _group_name(grp, variants: list[Model]) -> str:
    return _COUNT_PREFIX.sub("", clean_name(str(grp.obj.get("name", "")))) or variants[0].name


def _main_first(grp, variants: list[Model]) -> list[Model]:
    """The variants, the main one first: the group's default, else the one with most room."""
    default = str(grp.obj.get("defaultSelectionEntryId", ""))

    def key(m: Model) -> tuple:
        is_default = str(m.obj.get("id")) == default or (m.link is not None and str(m.link.get("id")) == default)
        return (is_default, _model_bounds(m)[1] or 10 ** 6)

    main = max(variants, key=key)  # the first of equals
    return [main] + [v for v in variants if v is not main]


# -- points -------------------------------------------------------------------------------

class _Config:
    """How many of each model entry a unit holds, and what that makes the counts conditions ask for."""

    def __init__(self, walk: Walk, lines_: list[Line], sizes: list[int]):
        self.walk = walk
        self.entries: dict[int, int] = {}  # id(model) -> count
        for line, n in zip(lines_, sizes):
            rest = n
            for v in line.variants[1:]:
                lo = min(_model_bounds(v)[0], rest)
                self.entries[id(v)] = lo
                rest -= lo
            if line.variants:
                self.entries[id(line.variants[0])] = rest
        self.total = sum(sizes)

    def count(self, child: str, scope: str) -> float | None:
        unit = self.walk.unit
        if scope not in ("self", "root-entry", "unit", "model-or-unit") and scope not in unit.scope.chain[-1].ids:
            return None
        if child == "model":
            return float(self.total)
        if child == "unit":
            return 1.0
        n, hit = 0, False
        for m in self.walk.models:
            if m is unit:
                continue
            if m.scope.chain[-1].holds(child) or _in_group(m, child):
                n += self.entries.get(id(m), 0)
                hit = True
        if hit:
            return float(n)
        return None  # wargear, or what the reader does not count


def _in_group(model: Model, key: str) -> bool:
    """Whether `key` names a group the model sits in (however deep), or the link to one."""
    grp = model.group
    while grp is not None:
        if key == str(grp.obj.get("id")) or (grp.link is not None and key in (str(grp.link.get("id")),
                                                                             str(grp.link.get("targetId")))):
            return True
        grp = grp.parent
    return False


def _pts_modifiers(out: Output, walk: Walk) -> list[conditions.Modifier]:
    unit = walk.unit
    objs = [unit.obj] + ([unit.link] if unit.link is not None else [])
    return [m for o in objs for m in conditions.modifiers(o) if m.field in out.pts]


def _price(out: Output, walk: Walk, mods, scope: Scope, config: _Config, problems: list) -> int:
    unit = walk.unit
    base_obj = unit.link if unit.link is not None and out.pts_of(unit.link) is not None else unit.obj
    value = out.pts_of(base_obj) or 0.0
    for m in walk.models:
        if m is not unit:
            cost = out.pts_of(m.obj) if m.link is None or out.pts_of(m.link) is None else out.pts_of(m.link)
            if cost:
                value += cost * config.entries.get(id(m), 0)
    for mod in mods:
        applies = mod.applies(scope)
        times = mod.times(scope) if applies else 0
        if applies is None or times is None:
            problems.append(mod)
            continue
        if not applies:
            continue
        v = number(mod.mod.get("value"))
        if mod.type == "set":
            value = v
        elif mod.type == "increment":
            value += v * times
        elif mod.type == "decrement":
            value -= v * times
        elif mod.type == "multiply":
            value *= v
        else:
            problems.append(mod)
    return int(round(value))


def points(out: Output, walk: Walk, lines_: list[Line], scope: Scope) -> list[dict]:
    """The unit's price at each band of unit sizes, and under each army condition its modifiers name."""
    mods = _pts_modifiers(out, walk)
    unit = walk.unit
    has_cost = out.pts_of(unit.obj) is not None or (unit.link is not None and out.pts_of(unit.link) is not None) \
        or any(out.pts_of(m.obj) for m in walk.models if m is not unit)
    if not has_cost and not mods:
        return []
    problems: list = []
    variable = [i for i, ln in enumerate(lines_) if ln.hi > ln.lo]

    def price(sizes: list[int], army: Army | None = None) -> int:
        config = _Config(walk, lines_, sizes)
        s = scope.with_counts(config.count)
        if army is not None:
            s = s.with_army(army)
        return _price(out, walk, mods, s, config, problems)

    def fill(n: int) -> list[int]:
        sizes = [ln.lo for ln in lines_]
        rest = n - sum(sizes)
        order = sorted(variable, key=lambda i: -(lines_[i].hi - lines_[i].lo))
        for i in order:
            add = min(rest, lines_[i].hi - lines_[i].lo)
            sizes[i] += add
            rest -= add
        return sizes

    smallest = sum(ln.lo for ln in lines_) or 1
    largest = max(sum(ln.hi for ln in lines_), smallest)
    largest = min(largest, smallest + MAX_SIZES)
    army_mods = [m for m in mods if any(c.get("scope") == "primary-catalogue" for c in m.conditions())]
    elsewhere = Army("", scope.army.force, scope.army.chosen) if army_mods else None

    grid = _grid(lines_, variable, price) if len(variable) > 1 else None
    out_points: list[dict] = []
    if grid is None:
        by_size = {n: price(fill(n)) for n in range(smallest, largest + 1)}
        # The first band at the unit's smallest size; each later one at its largest.
        tops = [n for n in range(smallest, largest + 1) if n == largest or by_size[n] != by_size[n + 1]]
        tops[0] = smallest
        out_points = [{"models": n, "points": by_size[n], "condition": None} for n in tops]
        if elsewhere is not None:
            text = _army_text(out, army_mods)
            for n in tops:
                alt = price(fill(n), elsewhere)
                if alt != by_size[n]:
                    out_points.append({"models": n, "points": alt, "condition": text})
    else:
        for sizes in grid:
            text = " and ".join(f"{n} {ln.name}" for ln, n in zip(lines_, sizes) if n)
            out_points.append({"models": sum(sizes), "points": price(list(sizes)), "condition": text})
    _report(out, walk, problems)
    return out_points


def _grid(lines_: list[Line], variable: list[int], price) -> list[tuple[int, ...]] | None:
    """Where the price depends on more than the unit's size: each combination of the lines' band tops."""
    base = [ln.lo for ln in lines_]
    tops: dict[int, list[int]] = {}
    for i in variable:
        prices = {}
        for c in range(lines_[i].lo, lines_[i].hi + 1):
            sizes = list(base)
            sizes[i] = c
            prices[c] = price(sizes)
        tops[i] = [c for c in range(lines_[i].lo, lines_[i].hi + 1) if c == lines_[i].hi or prices[c] != prices[c + 1]]
        tops[i][0] = lines_[i].lo
    # The price depends on the size alone when moving a model from one line to another never changes it.
    same = True
    for i, j in itertools.combinations(variable, 2):
        sizes_a, sizes_b = list(base), list(base)
        sizes_a[i] += 1
        sizes_b[j] += 1
        if sizes_a[i] <= lines_[i].hi and sizes_b[j] <= lines_[j].hi and price(sizes_a) != price(sizes_b):
            same = False
            break
    if same:
        return None
    combos = list(itertools.product(*(tops[i] for i in variable)))
    if len(combos) > MAX_GRID:
        return None
    out = []
    for combo in combos:
        sizes = list(base)
        for i, c in zip(variable, combo):
            sizes[i] = c
        out.append(tuple(sizes))
    return out


def _army_text(out: Output, mods) -> str:
    for m in mods:
        for c in m.conditions():
            if c.get("scope") == "primary-catalogue":
                catalogue = out.index.by_id.get(str(c.get("childId")))
                name = catalogue.title if catalogue else str(c.get("childId"))
                return f"Army Faction is {'not ' if c.get('type') == 'notInstanceOf' else ''}{name}"
    return "another army"


def _report(out: Output, walk: Walk, problems: list) -> None:
    seen = set()
    unit = walk.unit
    for mod in problems:
        if id(mod.mod) in seen:
            continue
        seen.add(id(mod.mod))
        conds = mod.conditions()
        kind = _problem_kind(out, walk, conds)
        text = "; ".join(conditions.describe(c, out.index.name) for c in conds) or "no condition"
        out.group("unsupported-modifier", kind, unit.file, unit.obj,
                  f"cost modifier ({mod.type} {mod.mod.get('value')}) {kind}; not read into points",
                  f"{unit.name} ({mod.type} {mod.mod.get('value')} when {text})",
                  expected="a condition on the unit's size or the army's faction", found=text)


def _problem_kind(out: Output, walk: Walk, conds: list[dict]) -> str:
    """What a cost modifier's conditions count, in words: how its findings are grouped."""
    things = set()
    for c in conds:
        child = str(c.get("childId", ""))
        hit = out.index.anywhere.get(child)
        if c.get("field") not in ("selections", "forces", None):
            things.add("counting points or another cost")
        elif hit is None:
            things.add("under a condition the reader does not count")
        elif hit[0] == "selectionEntryGroup" or (hit[0] == "selectionEntry" and hit[1].get("type") == "upgrade"):
            things.add("counting the unit's wargear selections")
        elif hit[0] == "categoryEntry":
            things.add("counting models of a keyword")
        else:
            things.add("under a condition the reader does not count")
    crucible = "[Crucible]" in walk.unit.name
    return ", ".join(sorted(things)) + (" (the [Crucible] game mode's units)" if crucible else "")

