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
from warscribe.extract.battlescribe.conditions import Army, Counts, Scope
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.walk import Choice, Model, Walk
from warscribe.schema.text import clean_name

_COUNT_PREFIX = re.compile(r"^\s*\d+(?:\s*-\s*\d+)?\s+")
_AND = re.compile(r"\s+and\s+|\s*,\s*")
# Group names that head a unit's models rather than name them.
_HEADINGS = {"unit composition", "squad members", "models", "squad", "unit"}
_W_SUFFIX = re.compile(r"\s+w/\s.*$")  # 'Jakhal w/ mauler chainblade': a Jakhal with other wargear
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


def _model_bounds(model: Model, counts: Counts | None = None) -> tuple[int, int | None]:
    objs = (model.obj,) if model.link is None else (model.obj, model.link)
    if model.link is not None and any(isinstance(c, dict) and c.get("field") == "selections"
                                      for c in model.link.get("constraints") or []):
        return bounds_in(objs, model.link, model.scope, counts)
    return bounds_in(objs, model.obj, model.scope, counts)


def bounds_in(objs: tuple[dict, ...], holder: dict, scope: Scope, counts: Counts | None = None) -> tuple[int, int | None]:
    """The bounds of `holder`'s constraints as the modifiers of `objs` that hold in `scope` set them
    (Jakhals field two Dishonoured when a twenty-model choice is taken)."""
    lo, hi = bounds(holder)
    which = {str(c.get("id")): c.get("type") for c in holder.get("constraints") or []
             if isinstance(c, dict) and c.get("field") == "selections" and c.get("scope") not in ("roster", "force")
             and c.get("type") in ("min", "max") and c.get("id")}
    if not which or not any(conditions.has_modifiers(o) for o in objs):
        return lo, hi
    where = scope.with_counts(counts)
    for o in objs:
        for mod in conditions.modifiers(o) if conditions.has_modifiers(o) else ():
            kind = which.get(mod.field)
            if kind is None or mod.type not in ("set", "increment", "decrement") or not mod.applies(where):
                continue
            times = mod.times(where)
            if times is None:
                continue
            value = int(number(mod.mod.get("value")))
            current = lo if kind == "min" else hi
            if mod.type == "set":
                current = value
            elif current is not None:
                current += value * times if mod.type == "increment" else -value * times
            if kind == "min":
                lo = max(current or 0, 0)
            else:
                hi = None if current is None else max(current, 0)
    return lo, hi


@dataclass
class Fielding:
    """One way to field the unit: the choices of the groups where the data has the player pick the
    unit's size ('5 models' or '10 models'; none for most units), and its model lines then."""

    choices: tuple[Choice, ...]
    lines: list[Line]
    taken: frozenset[str] = frozenset()  # ids of the choices taken
    others: frozenset[str] = frozenset()  # ids of those groups' other choices

    @property
    def name(self) -> str:
        return " and ".join(c.name for c in self.choices)

    def counts(self, child: str, _scope: str = "") -> float | None:
        """How many of a group's choices the unit takes: 1 of those taken, 0 of the others."""
        if child in self.taken:
            return 1.0
        if child in self.others:
            return 0.0
        return None


def fieldings(walk: Walk) -> list[Fielding]:
    """Every way the data lets a player field the unit, each with its lines (most units: one)."""
    unit = walk.unit
    if unit.obj.get("type") == "model":
        return [Fielding((), [Line(unit.name, 1, 1, [unit])])]
    models = [m for m in walk.models if m is not unit]
    if not models:
        return [Fielding((), [Line(unit.name, 1, 1, [])])]
    by_group: dict[int, list[Choice]] = {}
    for m in models:
        if m.choice is not None and not any(c is m.choice for c in by_group.setdefault(id(m.choice.group), [])):
            by_group[id(m.choice.group)].append(m.choice)
    if not by_group:
        return [Fielding((), _lines(walk, models, None))]
    # A group whose choices need not be taken (a Recon Squad's optional Weapons Team): taking
    # none of them is a way too.
    options = [alts + ([None] if bounds(alts[0].group.obj)[0] < 1 or any(
                   m.get("type") == "model" for m, _f, _lk in alts[0].group.members) else [])
               for alts in by_group.values()]
    out = []
    for picked in itertools.islice(itertools.product(*options), MAX_GRID):
        combo = tuple(c for c in picked if c is not None)
        taken = frozenset().union(*(c.ids() for c in combo))
        others = frozenset(str(x.get(k, "")) for alts in by_group.values() for m, _f, lk in alts[0].group.members
                           for x, k in ((m, "id"), (lk or {}, "id"), (lk or {}, "targetId"))) - taken - {""}
        fielding = Fielding(combo, [], taken, others)
        chosen = [m for m in models if m.choice is None or any(m.choice is c for c in combo)]
        fielding.lines = _merge_kinds(_lines(walk, chosen, fielding))
        out.append(fielding)
    return out


def lines(walk: Walk, ways: list[Fielding] | None = None) -> list[Line]:
    """The unit's model lines, in the order the data lists them; where the unit's size is a choice,
    each line's bounds span every choice (a line one choice lacks may have none)."""
    ways = fieldings(walk) if ways is None else ways
    if len(ways) == 1:
        return ways[0].lines
    merged: dict[str, Line] = {}
    for way in ways:
        for ln in way.lines:
            have = merged.get(ln.name)
            if have is None:
                merged[ln.name] = Line(ln.name, ln.lo, ln.hi, list(ln.variants))
            else:
                have.lo, have.hi = min(have.lo, ln.lo), max(have.hi, ln.hi)
                have.variants += [v for v in ln.variants if v.name not in {x.name for x in have.variants}]
    for ln in merged.values():
        if any(ln.name not in {x.name for x in way.lines} for way in ways):
            ln.lo = 0
    return list(merged.values())


def _merge_kinds(lines_: list[Line]) -> list[Line]:
    """Where the unit's size is a choice, its lines of one kind of model as one line (8 Jakhals,
    or 7 Jakhals and 1 Jakhal w/ mauler chainblade: 8 Jakhals, one variant with a mauler
    chainblade); the kind is the main model's name without its wargear ('w/ ...'). The kind's
    optional variants take the place of models the choice fixes ('Wolf Scout w/ plasma gun',
    up to 1, in a choice of 9 Wolf Scouts), as the datasheet's wargear options say."""
    out: list[Line] = []
    by_kind: dict[str, Line] = {}
    merged: set[str] = set()
    for ln in lines_:
        if not ln.variants:
            out.append(ln)
            continue
        kind = _W_SUFFIX.sub("", ln.variants[0].name)
        have = by_kind.get(kind)
        if have is None:
            by_kind[kind] = Line(_W_SUFFIX.sub("", ln.name), ln.lo, ln.hi, list(ln.variants))
            out.append(by_kind[kind])
            continue
        # The variant with most models first: the line's main one.
        have.variants = have.variants + ln.variants if have.hi >= ln.hi else ln.variants + have.variants
        have.lo, have.hi = have.lo + ln.lo, have.hi + ln.hi
        merged.add(kind)
    for kind in merged:
        if by_kind[kind].lo >= 1:
            by_kind[kind].hi = by_kind[kind].lo
    return out


def _lines(walk: Walk, models: list[Model], fielding: Fielding | None) -> list[Line]:
    counts = fielding.counts if fielding is not None else None
    out: list[Line] = []
    seen_groups: set[int] = set()
    hosts = _takes_place_of(models)
    for model in models:
        grp = _top(model.group)
        if grp is None:
            lo, hi = _model_bounds(model, counts) if id(model) not in hosts else (0, 0)
            out.append(Line(model.name, lo, hi if hi is not None else max(lo, 1), [model]))
            continue
        if id(grp) in seen_groups:
            continue
        seen_groups.add(id(grp))
        # Each choice of the group taken is a selection its bounds count ('9 Recon Troopers': 8
        # and a Weapons Team of two).
        taken = sum(1 for c in (fielding.choices if fielding is not None else ()) if _top(c.group) is grp)
        out += _group_lines(walk, grp, [m for m in models if _top(m.group) is grp], counts, taken, hosts)
    # a model taking another's place outside a group: a variant of that model's line, which stands
    # where the first of them does ('Sanctifier w/ hand flamer' and its variants: Sanctifiers)
    host_lines = {id(ln.variants[0]): ln for ln in out if len(ln.variants) == 1 and id(ln.variants[0]) not in hosts
                  and ln.variants[0].group is None}
    result: list[Line] = []
    placed: set[int] = set()
    for ln in out:
        single = ln.variants[0] if len(ln.variants) == 1 else None
        target = ln
        if single is not None and id(single) in hosts and ln.variants[0].group is None \
                and id(hosts[id(single)]) in host_lines:
            target = host_lines[id(hosts[id(single)])]
            if target.name == target.variants[0].name:
                target.name = _W_SUFFIX.sub("", target.name)
            target.variants.append(single)
        if id(target) not in placed:
            placed.add(id(target))
            result.append(target)
    return result


def _takes_place_of(models: list[Model]) -> dict[int, Model]:
    """The models that take the place of another's: where a model's bounds drop by one for each of
    them taken (Sanctifiers: '4 Sanctifiers w/ hand flamer, one fewer for each with two hand flamers
    or with the simulacrum'), they are variants of its line and add nothing to the unit's size.
    id(model) -> the model whose place it takes."""
    by_id: dict[str, Model] = {}
    for m in models:
        for key in (m.obj.get("id"), *((m.link.get("id"), m.link.get("targetId")) if m.link is not None else ())):
            if key:
                by_id.setdefault(str(key), m)
    out: dict[int, Model] = {}
    for host in models:
        holder = host.link if host.link is not None and any(
            isinstance(c, dict) and c.get("field") == "selections" for c in host.link.get("constraints") or []) else host.obj
        own = {str(c.get("id")) for c in holder.get("constraints") or []
               if isinstance(c, dict) and c.get("field") == "selections" and c.get("type") == "max" and c.get("id")}
        for o in (host.obj,) if host.link is None else (host.obj, host.link):
            for mod in conditions.modifiers(o) if conditions.has_modifiers(o) else ():
                reps = [r for g in mod.guards for r in g.get("repeats") or [] if isinstance(r, dict)]
                if mod.type != "decrement" or mod.field not in own or number(mod.mod.get("value")) != 1 or not reps \
                        or any(str(r.get("field")) != "selections" or number(r.get("value"), 1) != 1 for r in reps):
                    continue
                for r in reps:
                    other = by_id.get(str(r.get("childId", "")))
                    if other is not None and other is not host and id(host) not in out:
                        out.setdefault(id(other), host)
    return out


def _top(grp):
    """The outermost group a group sits in: a nested group's models count against its bounds."""
    while grp is not None and grp.parent is not None:
        grp = grp.parent
    return grp


def _group_lines(walk: Walk, grp, members: list[Model], counts: Counts | None = None, taken: int = 0,
                 hosts: dict[int, Model] | None = None) -> list[Line]:
    """A group's lines: each kind the group always holds a fixed number of (a sergeant) on its own
    line, the rest one line named after the group, its bounds those the group leaves it (less the
    choices of it taken, `taken`). A model taking another's place (`hosts`) adds nothing to them."""
    hosts = hosts or {}

    def bounds_of(m: Model) -> tuple[int, int | None]:
        return (0, 0) if id(m) in hosts else _model_bounds(m, counts)

    glo, ghi = bounds_in((grp.obj,) if grp.link is None else (grp.obj, grp.link), grp.obj, grp.scope, counts)
    glo, ghi = max(glo - taken, 0), None if ghi is None else max(ghi - taken, 0)
    kinds: dict[tuple, list[Model]] = {}
    for m in members:
        kinds.setdefault(_kind(walk, m), []).append(m)
    fixed: list[Line] = []
    rest: list[Model] = []
    rest_lo, rest_hi = 0, 0
    for variants in kinds.values():
        lo = sum(bounds_of(m)[0] for m in variants)
        his = [bounds_of(m)[1] for m in variants]
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
        inner_lo, inner_hi = _nested_bounds(grp, members, counts)
        inner_lo, inner_hi = max(inner_lo - taken, 0), None if inner_hi is None else max(inner_hi - taken, 0)
        taken = sum(ln.lo for ln in fixed)
        lo = max(rest_lo, glo - taken, inner_lo - taken)
        his = [h - taken for h in (ghi, inner_hi) if h is not None]
        hi = rest_hi if not his else (min(his) if rest_hi is None else min([rest_hi] + his))
        if hi is None:
            hi = max(lo, 1)
        single = len({_kind(walk, m) for m in rest}) == 1 and len(rest) == 1
        name = rest[0].name if single and ghi is None else _group_name(grp, rest, fixed)
        out.append(Line(name, max(lo, 0), max(hi, lo), _main_first(grp, rest)))
    return out


def _nested_bounds(grp, members: list[Model], counts: Counts | None) -> tuple[int, int | None]:
    """The fewest and most models `grp` holds as the groups inside it bound them (its own bounds
    aside): each inner group holds at least its minimum and at most its maximum of its members
    (Corsair Voidscarred: '4 -9 Voidscarred', at most 9, holds a group 'Voidscarred' of at least
    4 and three specialists of at most 1: 4 to 7 of them, not 0)."""
    inner: dict[int, list] = {}  # group -> its direct models, its direct inner groups
    for m in members:
        g = m.group
        inner.setdefault(id(g), [g, [], []])[1].append(m)
        while g is not None and g is not grp and g.parent is not None:
            entry = inner.setdefault(id(g.parent), [g.parent, [], []])
            if not any(c is g for c in entry[2]):
                entry[2].append(g)
            g = g.parent

    def of(g, own: bool) -> tuple[int, int | None]:
        _g, models, groups = inner.get(id(g), [g, [], []])
        lo, hi = 0, 0
        for m in models:
            a, b = _model_bounds(m, counts)
            lo, hi = lo + a, None if hi is None or b is None else hi + b
        for sub in groups:
            a, b = of(sub, True)
            lo, hi = lo + a, None if hi is None or b is None else hi + b
        if own:
            glo, ghi = bounds_in((g.obj,) if g.link is None else (g.obj, g.link), g.obj, g.scope, counts)
            lo, hi = max(lo, glo), ghi if hi is None else (hi if ghi is None else min(hi, ghi))
        return lo, hi

    return of(grp, False)


def _group_name(grp, variants: list[Model], fixed: list[Line] = ()) -> str:
    """The name of a group's line of variants: the group's, without its count ('4-9 Intercessors').
    A name that is a heading, not models ('Unit Composition', 'Squad Members'), gives way to the
    variants' name where they share one (Deathwing Terminator w/ ...); one naming the lines beside it too ('Dark Reapers and 1 Exarch', 'Klaivex and
    4-9 Incubi') keeps the part that is not a fixed line's (one model, or a fixed line's name)."""
    name = _COUNT_PREFIX.sub("", clean_name(str(grp.obj.get("name", ""))))
    if not name or name.casefold() in _HEADINGS:
        main = _W_SUFFIX.sub("", _main_first(grp, variants)[0].name)
        if not name or all(_W_SUFFIX.sub("", v.name) == main for v in variants):
            return main  # else the models are of several names (Company Heroes): the heading stays
    if fixed:
        fixed_names = {ln.name.casefold() for ln in fixed}
        parts = [p for p in _AND.split(name) if p.strip()]
        rest = [p for p in parts if not re.match(r"^\s*1\s", p) and _COUNT_PREFIX.sub("", p).casefold() not in fixed_names]
        if len(parts) > 1 and len(rest) == 1:
            return _COUNT_PREFIX.sub("", rest[0]).strip()
    return name


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

    def __init__(self, walk: Walk, lines_: list[Line], sizes: list[int], fielding: Fielding | None = None):
        self.walk = walk
        self.fielding = fielding
        counts = fielding.counts if fielding is not None else None
        self.entries: dict[int, int] = {}  # id(model) -> count
        for line, n in zip(lines_, sizes):
            rest = n
            for v in line.variants[1:]:
                lo = min(_model_bounds(v, counts)[0], rest)
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
        if self.fielding is not None:
            return self.fielding.counts(child)  # the size the player chose ('10 models'), or None
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


def points(out: Output, walk: Walk, ways: list[Fielding], scope: Scope) -> list[dict]:
    """The unit's price at each band of unit sizes, and under each army condition its modifiers name.

    Where the player picks the unit's size from a group ('5 models' or '10 models'), each
    choice is priced with its own lines; a price that differs between two choices of one
    size names its choice as its condition."""
    mods = _pts_modifiers(out, walk)
    unit = walk.unit
    has_cost = out.pts_of(unit.obj) is not None or (unit.link is not None and out.pts_of(unit.link) is not None) \
        or any(out.pts_of(m.obj) for m in walk.models if m is not unit)
    if not has_cost and not mods:
        return []
    problems: list = []
    if len(ways) == 1:
        found = _points_of(out, walk, ways[0].lines, scope, mods, problems)
    else:
        each = [(way, _points_of(out, walk, way.lines, scope, mods, problems, way)) for way in ways]
        found = []
        for way, entries in each:
            for entry in entries:
                same_size = [e for _w, es in each for e in es if e["models"] == entry["models"]
                             and e["condition"] == entry["condition"]]
                if any(e["points"] != entry["points"] for e in same_size):
                    entry = dict(entry, condition=" and ".join(x for x in (way.name, entry["condition"]) if x))
                if entry not in found:
                    found.append(entry)
        found.sort(key=lambda e: (e["condition"] is not None, e["models"]))
    _report(out, walk, problems)
    _beyond(out, walk, mods, max((sum(ln.hi for ln in way.lines) for way in ways), default=0))
    return found


# A lower bound on the unit's own model count: the least models a condition of this type and value needs.
_AT_LEAST = {"atLeast": lambda v: v, "equalTo": lambda v: v, "greaterThan": lambda v: v + 1}


def _beyond(out: Output, walk: Walk, mods, largest: int) -> None:
    """A points modifier that holds only at a unit size the composition does not allow (Emperor's
    Children Chaos Terminators: 360 points 'when 6 or more models', 5 models at most) prices no size
    the unit has, so it is not read into points; said, since another source or a reader of the raw
    data may take it for a price at 10 models."""
    unit = walk.unit
    own = {str(o.get("id")) for o in (unit.obj, unit.link) if o is not None} | {"self", "unit", "root-entry", "parent"}
    for mod in mods:
        # The guards' top-level conditions all hold for the modifier to apply (a condition group may be an 'or').
        tops = [c for g in mod.guards for c in g.get("conditions") or [] if isinstance(c, dict)]
        needs = [_AT_LEAST[c.get("type")](number(c.get("value"))) for c in tops
                 if c.get("field") == "selections" and c.get("childId") == "model" and str(c.get("scope")) in own
                 and c.get("type") in _AT_LEAST]
        if needs and largest and max(needs) > largest:
            size = int(max(needs))
            out.group("unsupported-modifier", "at a unit size the composition does not allow", unit.file, unit.obj,
                      f"cost modifier ({mod.type} {mod.mod.get('value')}) from {size} models, where the unit's "
                      f"composition allows {largest} at most; that size is not priced",
                      f"{unit.name} ({mod.type} {mod.mod.get('value')} from {size} models; at most {largest})",
                      expected="prices at unit sizes the composition allows", found="a price at a larger size")


def _points_of(out: Output, walk: Walk, lines_: list[Line], scope: Scope, mods, problems: list,
               fielding: Fielding | None = None) -> list[dict]:
    variable = [i for i, ln in enumerate(lines_) if ln.hi > ln.lo]

    def price(sizes: list[int], army: Army | None = None) -> int:
        config = _Config(walk, lines_, sizes, fielding)
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

