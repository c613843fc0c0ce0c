"""BattleScribe's conditions and modifiers, evaluated for one unit in one army.

Almost everything in the data is conditional: a rule is hidden unless the army's
catalogue is Black Templars, an enhancement unless its detachment is chosen, a
weapon's BS is 2+ when its bearer is a Captain, a unit costs 160 from 6 models up.
A datasheet is what the data shows for the unit in an army of its faction with nothing
else chosen (no detachment, no Crusade, the game system's first force: the standard
army roster). Whether a record exists at all (a unit, a detachment) is asked with the
rest of the roster *open*: a Legends unit shown once 'Show Legends' is ticked, a unit
one detachment unlocks, is a datasheet. Under that :class:`Army`, a condition is True or False, or unknown
(``None``) when it depends on what a player picks for the unit itself (its wargear, how
many models); a count the caller knows (models per unit size, for points) is passed in.

Logic is three-valued: an ``and`` with one False is False whatever else is unknown;
an ``or`` with one True is True.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterator

from warscribe.extract.battlescribe.common import flag, number

COMPARISONS = {
    "atLeast": lambda n, v: n >= v, "atMost": lambda n, v: n <= v, "greaterThan": lambda n, v: n > v,
    "lessThan": lambda n, v: n < v, "equalTo": lambda n, v: n == v, "notEqualTo": lambda n, v: n != v,
}
# Scopes inside the unit: what they count depends on the unit's own selections.
UNIT_SCOPES = {"self", "parent", "root-entry", "unit", "model", "model-or-unit", "upgrade", "ancestor"}


@dataclass(frozen=True)
class Army:
    """The army a unit is read in: its primary catalogue, what else the roster holds, its force."""

    catalogue: str  # the primary catalogue's id
    force: str = ""  # the force entry the unit is in (the game system's first: the army roster)
    chosen: frozenset[str] = frozenset()  # entries the roster holds besides the unit (a detachment)
    # Whether what else the roster holds is open: asking if a record exists at all (a Legends
    # unit shown once 'Show Legends' is ticked, a unit a detachment unlocks), not what it shows.
    open: bool = False

    def choosing(self, entry_id: str) -> Army:
        return Army(self.catalogue, self.force, self.chosen | {entry_id}, self.open)

    def opened(self) -> Army:
        return Army(self.catalogue, self.force, self.chosen, True)


@dataclass(frozen=True)
class Frame:
    """One entry on the way down from the unit: its ids (entry, link, link target) and categories."""

    ids: frozenset[str]
    categories: frozenset[str] = frozenset()

    def holds(self, key: str) -> bool:
        return key in self.ids or key in self.categories


# (childId, scope) -> how many selections of childId the scope holds; None where unknown.
Counts = Callable[[str, str], "float | None"]


@dataclass(frozen=True)
class Scope:
    """Where a condition is evaluated: the army, the entries from the unit down, the owning model."""

    army: Army
    chain: tuple[Frame, ...] = ()
    model: int = 0  # index in `chain` of the nearest model (0: the unit)
    counts: Counts | None = None
    # What is evaluated sits inside the last frame (a group, a profile, a rule: the entry is its
    # ancestor), rather than being it (an entry: its ancestors are the frames above).
    inside: bool = False
    # Whether an id names an entry a player may choose for the unit (wargear, an upgrade): whether
    # the unit is 'an instance of' it is then unknown, not false.
    choice: Callable[[str], bool] | None = None

    def down(self, frame: Frame, is_model: bool = False) -> Scope:
        chain = self.chain + (frame,)
        return Scope(self.army, chain, len(chain) - 1 if is_model else self.model, self.counts, False, self.choice)

    def within(self) -> Scope:
        return self if self.inside else Scope(self.army, self.chain, self.model, self.counts, True, self.choice)

    def with_counts(self, counts: Counts | None) -> Scope:
        return Scope(self.army, self.chain, self.model, counts, self.inside, self.choice)

    def with_army(self, army: Army) -> Scope:
        return Scope(army, self.chain, self.model, self.counts, self.inside, self.choice)

    def with_choice(self, choice: Callable[[str], bool]) -> Scope:
        return Scope(self.army, self.chain, self.model, self.counts, self.inside, choice)

    def with_category(self, category: str) -> Scope:
        """The scope with the unit (and its model) made `category`, as an upgrade that adds it makes them."""
        chain = list(self.chain)
        for i in {0, self.model} if chain else ():
            chain[i] = Frame(chain[i].ids, chain[i].categories | {category})
        return Scope(self.army, tuple(chain), self.model, self.counts, self.inside, self.choice)

    def _unknown_choice(self, child: str) -> bool | None:
        return None if self.choice is not None and self.choice(child) else False

    def _frame(self, scope: str) -> Frame | None | bool:
        """The frame a scope names; False where the scope is not one of the unit's frames."""
        if not self.chain:
            return None
        if scope == "self":
            return self.chain[-1]
        if scope == "parent":
            return self.chain[-2] if len(self.chain) > 1 else None
        if scope in ("root-entry", "unit"):
            return self.chain[0]
        if scope in ("model", "model-or-unit"):
            return self.chain[self.model]
        for frame in reversed(self.chain):
            if scope in frame.ids:
                return frame
        return False

    def instance(self, scope: str, child: str) -> bool | None:
        if scope == "primary-catalogue":
            return child == self.army.catalogue
        if scope == "force":
            return child == self.army.force
        if scope == "ancestor":
            if any(f.holds(child) for f in (self.chain if self.inside else self.chain[:-1])):
                return True
            return self._unknown_choice(child)
        frame = self._frame(scope)
        if frame is False or frame is None:
            return None
        return True if frame.holds(child) else self._unknown_choice(child)

    def count(self, field_: str, scope: str, child: str) -> float | None:
        if field_ == "forces":
            return 1.0 if child == self.army.force else 0.0
        if field_ != "selections":
            return None  # points or another cost in the roster
        if scope in ("roster", "force"):
            if child in self.army.chosen:
                return 1.0
            if child in ("model", "unit", "any"):
                return None
            if self.army.open or (self.chain and any(f.holds(child) for f in self.chain)):
                return None  # the unit itself and as many more like it as the army takes; or anything, when open
            return 0.0  # of what a player chooses besides the unit, nothing
        if self.counts is not None:
            n = self.counts(child, scope)
            if n is not None:
                return n
        return None


def condition(c: dict, scope: Scope) -> bool | None:
    kind = str(c.get("type", ""))
    child, where = str(c.get("childId", "")), str(c.get("scope", ""))
    if kind in ("instanceOf", "notInstanceOf"):
        hit = scope.instance(where, child)
        return None if hit is None else hit == (kind == "instanceOf")
    compare = COMPARISONS.get(kind)
    if compare is None:
        return None  # 'before' and other kinds of later editions
    n = scope.count(str(c.get("field", "")), where, child)
    return None if n is None else compare(n, number(c.get("value")))


def _all(values: Iterator[bool | None]) -> bool | None:
    unknown = False
    for v in values:
        if v is False:
            return False
        unknown |= v is None
    return None if unknown else True


def _any(values: Iterator[bool | None]) -> bool | None:
    unknown = False
    for v in values:
        if v is True:
            return True
        unknown |= v is None
    return None if unknown else False


def group(g: dict, scope: Scope) -> bool | None:
    parts = _parts(g, scope)
    kind = g.get("type")
    if kind == "and":
        return _all(parts)
    if kind == "or":
        return _any(parts)
    return None  # 'count' groups and other kinds: not read


def _parts(obj: dict, scope: Scope) -> Iterator[bool | None]:
    for c in obj.get("conditions") or []:
        if isinstance(c, dict):
            yield condition(c, scope)
    for g in obj.get("conditionGroups") or []:
        if isinstance(g, dict):
            yield group(g, scope)
    if obj.get("localConditionGroups"):
        yield None


def holds(obj: dict, scope: Scope) -> bool | None:
    """An object's conditions and condition groups, all of which must hold."""
    return _all(_parts(obj, scope))


@dataclass(frozen=True)
class Modifier:
    """A modifier with the objects whose conditions guard it (its modifier groups, then itself)."""

    mod: dict
    guards: tuple[dict, ...] = field(default=())

    @property
    def field(self) -> str:
        return str(self.mod.get("field", ""))

    @property
    def type(self) -> str:
        return str(self.mod.get("type", ""))

    def applies(self, scope: Scope) -> bool | None:
        return _all(holds(g, scope) for g in self.guards)

    def times(self, scope: Scope) -> int | None:
        """How many times it applies: once, or as its repeats count (None: unknown)."""
        total, any_repeat = 0, False
        for g in self.guards:
            for r in g.get("repeats") or []:
                if not isinstance(r, dict):
                    continue
                any_repeat = True
                n = scope.count(str(r.get("field", "")), str(r.get("scope", "")), str(r.get("childId", "")))
                if n is None:
                    return None
                per = number(r.get("value"), 1) or 1
                whole = math.ceil(n / per) if flag(r.get("roundUp")) else math.floor(n / per)
                total += whole * int(number(r.get("repeats"), 1))
        return total if any_repeat else 1

    def conditions(self) -> list[dict]:
        """Every condition guarding it, for reports."""
        out: list[dict] = []
        stack = list(self.guards)
        while stack:
            g = stack.pop()
            out += [c for c in g.get("conditions") or [] if isinstance(c, dict)]
            stack += [x for x in g.get("conditionGroups") or [] if isinstance(x, dict)]
            out += [r for r in g.get("repeats") or [] if isinstance(r, dict)]
        return out


def modifiers(obj: dict) -> list[Modifier]:
    """An object's modifiers, those of its modifier groups (nested) with the groups' conditions."""
    out = [Modifier(m, (m,)) for m in obj.get("modifiers") or [] if isinstance(m, dict)]
    stack = [(g, (g,)) for g in obj.get("modifierGroups") or [] if isinstance(g, dict)]
    while stack:
        g, guards = stack.pop(0)
        out += [Modifier(m, guards + (m,)) for m in g.get("modifiers") or [] if isinstance(m, dict)]
        stack += [(sub, guards + (sub,)) for sub in g.get("modifierGroups") or [] if isinstance(sub, dict)]
    return out


def has_modifiers(obj: dict) -> bool:
    return bool(obj.get("modifiers") or obj.get("modifierGroups"))


def hidden(objs: tuple[dict, ...], scope: Scope) -> bool | None:
    """Whether the data hides an entry (and its link) in this scope; None: it depends on the unit's selections."""
    value = any(flag(o.get("hidden")) for o in objs)
    unknown = False
    for o in objs:
        if not has_modifiers(o):
            continue
        for m in modifiers(o):
            if m.field != "hidden" or m.type != "set":
                continue
            new = flag(m.mod.get("value"))
            applies = m.applies(scope)
            if applies:
                value, unknown = new, False
            elif applies is None and new != value:
                unknown = True
    return None if unknown else value


def unlocked_by(objs: tuple[dict, ...], scope: Scope, is_choice: Callable[[str], bool]) -> list[str]:
    """The choices an entry (or category) is shown only with: hidden with nothing chosen besides what the
    unit always is, shown once one of them is selected, in the roster (a detachment: the C'tan Shard's
    Animus Damper with Pantheon of Woe) or in the unit itself (a Crucible character's chapter: the
    storm shield of Space Wolves). Empty where it is shown anyway, or where no one choice shows it."""
    wanted = sorted(referenced(objs))
    if not wanted:
        return []
    army = Army(scope.army.catalogue, scope.army.force, scope.army.chosen, False)

    def counts(taken: str) -> Counts:
        def count(child: str, where: str) -> float | None:
            if child == taken:
                return 1.0
            if is_choice(child) or child in wanted:
                return 0.0
            return scope.counts(child, where) if scope.counts is not None else None
        return count

    if hidden(objs, scope.with_army(army).with_counts(counts(""))) is not True:
        return []
    return [x for x in wanted
            if hidden(objs, scope.with_army(army.choosing(x)).with_counts(counts(x))) is False]


def needed_by(objs: tuple[dict, ...], scope: Scope, is_choice: Callable[[str], bool]) -> list[str]:
    """The choices an entry is shown only with all of (a Legends unit of Chaos Daemons: 'Show Legends'
    and the Shadow Legion detachment), where no one of them shows it alone (:func:`unlocked_by`)."""
    alone = unlocked_by(objs, scope, is_choice)
    wanted = sorted(referenced(objs))
    if alone or len(wanted) < 2:
        return alone
    army = Army(scope.army.catalogue, scope.army.force, scope.army.chosen, False)

    def shown_with(taken: set[str]) -> bool | None:
        def count(child: str, where: str) -> float | None:
            if child in taken:
                return 1.0
            if is_choice(child) or child in wanted:
                return 0.0
            return scope.counts(child, where) if scope.counts is not None else None
        chosen = Army(army.catalogue, army.force, army.chosen | frozenset(taken), False)
        value = hidden(objs, scope.with_army(chosen).with_counts(count))
        return None if value is None else not value

    if shown_with(set(wanted)) is not True:
        return []
    return [x for x in wanted if shown_with(set(wanted) - {x}) is False]


def referenced(objs: tuple[dict, ...], what: str = "hidden") -> set[str]:
    """The entries the conditions of the `what` modifiers of `objs` name (a detachment an enhancement waits for)."""
    out: set[str] = set()
    for o in objs:
        for m in modifiers(o):
            if m.field == what:
                out |= {str(c.get("childId")) for c in m.conditions() if c.get("childId")}
    return out


def describe(c: dict, names: Callable[[str], str]) -> str:
    """A condition as a reader says it: 'at least 3 selections of Weapons (in self)'."""
    kind = str(c.get("type", "?"))
    words = {"atLeast": "at least", "atMost": "at most", "greaterThan": "more than", "lessThan": "fewer than",
             "equalTo": "exactly", "notEqualTo": "not", "instanceOf": "is", "notInstanceOf": "is not"}
    child = names(str(c.get("childId", "?")))
    where = str(c.get("scope", "?"))
    where = names(where) if where not in UNIT_SCOPES | {"roster", "force", "primary-catalogue"} else where
    if kind in ("instanceOf", "notInstanceOf"):
        return f"{where} {words[kind]} {child}"
    if "repeats" in c:
        return f"for every {number(c.get('value'), 1):g} {c.get('field')} of {child} in {where}"
    value = number(c.get("value"))
    return f"{words.get(kind, kind)} {value:g} {c.get('field', '?')} of {child} in {where}"
