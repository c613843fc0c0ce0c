"""BattleScribe's conditions, read three-valued (extract/battlescribe/conditions.py, issue 38).

A condition is True, False or unknown (None: it depends on what a player picks for the unit
itself). The combinations are Kleene's: an ``and`` with one False is False whatever else is
unknown, an ``or`` with one True is True, and a negation (``notInstanceOf``, ``notEqualTo``)
of unknown is unknown. Each combination is asserted from a table written out here, through the
module's public functions (``group``, ``holds``, ``condition``, ``Modifier.applies``,
``hidden``), and the scopes (the army, the entries from the unit down, the counts the caller
knows) on small hand-made condition trees.
"""

from __future__ import annotations

import itertools

import pytest

from warscribe.extract.battlescribe.conditions import (
    Army, Frame, Modifier, Scope, condition, describe, group, has_modifiers, hidden, holds, modifiers, referenced,
)

T, F, U = True, False, None
NAMES = {T: "T", F: "F", U: "U"}
CAT = "cat-black-templars"
ARMY = Army(CAT, force="force-army-roster")
SCOPE = Scope(ARMY)

# Leaves whose value is known by construction: the army's catalogue is CAT; nothing counts the
# unit's own selections (no `counts`), so a number of wargear selections in the unit is unknown.
LEAF = {
    T: {"type": "instanceOf", "scope": "primary-catalogue", "childId": CAT},
    F: {"type": "instanceOf", "scope": "primary-catalogue", "childId": "cat-space-wolves"},
    U: {"type": "atLeast", "field": "selections", "scope": "self", "childId": "wargear-plasma", "value": 1},
}

# The tables, written out (not computed): value of `a OP b`.
AND = {(T, T): T, (T, F): F, (T, U): U,
       (F, T): F, (F, F): F, (F, U): F,
       (U, T): U, (U, F): F, (U, U): U}
OR = {(T, T): T, (T, F): T, (T, U): T,
      (F, T): T, (F, F): F, (F, U): U,
      (U, T): T, (U, F): U, (U, U): U}
NOT = {T: F, F: T, U: U}


def leaf(value):
    return dict(LEAF[value])


def pair_id(pair) -> str:
    return "".join(NAMES[v] for v in pair)


def test_the_leaves_are_what_they_are_built_to_be():
    assert [condition(leaf(v), SCOPE) for v in (T, F, U)] == [T, F, U]


# -- and / or / not: every combination ---------------------------------------------------------


@pytest.mark.parametrize("pair", sorted(AND, key=pair_id), ids=pair_id)
def test_and_truth_table(pair):
    got = group({"type": "and", "conditions": [leaf(v) for v in pair]}, SCOPE)
    assert got is AND[pair]


@pytest.mark.parametrize("pair", sorted(OR, key=pair_id), ids=pair_id)
def test_or_truth_table(pair):
    got = group({"type": "or", "conditions": [leaf(v) for v in pair]}, SCOPE)
    assert got is OR[pair]


@pytest.mark.parametrize("pair", sorted(AND, key=pair_id), ids=pair_id)
def test_and_or_of_nested_groups(pair):
    """The same tables where the operands are condition groups (one condition each), and mixed."""
    a, b = ({"type": "and", "conditions": [leaf(v)]} for v in pair)
    assert group({"type": "and", "conditionGroups": [a, b]}, SCOPE) is AND[pair]
    assert group({"type": "or", "conditionGroups": [a, b]}, SCOPE) is OR[pair]
    assert group({"type": "and", "conditions": [leaf(pair[0])], "conditionGroups": [b]}, SCOPE) is AND[pair]
    assert group({"type": "or", "conditions": [leaf(pair[0])], "conditionGroups": [b]}, SCOPE) is OR[pair]


@pytest.mark.parametrize("pair", sorted(AND, key=pair_id), ids=pair_id)
def test_an_objects_own_conditions_are_an_and(pair):
    """`holds`: a modifier's conditions and condition groups must all hold."""
    assert holds({"conditions": [leaf(v) for v in pair]}, SCOPE) is AND[pair]
    assert holds({"conditions": [leaf(pair[0])], "conditionGroups": [{"type": "or", "conditions": [leaf(pair[1])]}]},
                 SCOPE) is AND[pair]


@pytest.mark.parametrize("value", [T, F, U], ids=lambda v: NAMES[v])
def test_not_truth_table(value):
    """Negations: notInstanceOf of the same scope and child, notEqualTo of the same count."""
    positive = leaf(value)
    if positive["type"] == "instanceOf":
        negative = dict(positive, type="notInstanceOf")
    else:  # the unknown leaf is a count: its negation is the opposite comparison
        negative = dict(positive, type="lessThan")
    assert condition(positive, SCOPE) is value
    assert condition(negative, SCOPE) is NOT[value]
    # the same through instanceOf on the unit's frames: known, unknown (a choice), absent scope
    unit = Scope(ARMY, choice=lambda child: child == "wargear").down(Frame(frozenset({"unit-captain"})))
    child = {T: "unit-captain", F: "unit-sergeant", U: "wargear"}[value]
    assert condition({"type": "instanceOf", "scope": "self", "childId": child}, unit) is value
    assert condition({"type": "notInstanceOf", "scope": "self", "childId": child}, unit) is NOT[value]


@pytest.mark.parametrize("values", list(itertools.product([T, F, U], repeat=3)), ids=pair_id)
def test_three_operands_in_every_order(values):
    """Kleene's tables folded over three operands: the answer does not depend on where the
    deciding value stands (a True after an unknown still makes an 'or' True)."""
    a, b, c = values
    assert group({"type": "and", "conditions": [leaf(v) for v in values]}, SCOPE) is AND[(AND[(a, b)], c)]
    assert group({"type": "or", "conditions": [leaf(v) for v in values]}, SCOPE) is OR[(OR[(a, b)], c)]


def test_one_operand_and_unread_groups():
    for v in (T, F, U):
        assert group({"type": "and", "conditions": [leaf(v)]}, SCOPE) is v
        assert group({"type": "or", "conditions": [leaf(v)]}, SCOPE) is v
    # 'count' groups and groups of a later edition are not read: unknown, whatever they hold
    assert group({"type": "count", "conditions": [leaf(T)]}, SCOPE) is None
    assert group({"type": "xor", "conditions": [leaf(F)]}, SCOPE) is None
    # local condition groups are not read either: an unknown operand of the object's 'and'
    assert holds({"conditions": [leaf(T)], "localConditionGroups": [{"type": "and"}]}, SCOPE) is None
    assert holds({"conditions": [leaf(F)], "localConditionGroups": [{"type": "and"}]}, SCOPE) is False
    # no condition at all: the modifier applies
    assert holds({}, SCOPE) is True
    # an unknown kind of condition ('before'): unknown, and an 'or' with a True is still True
    assert condition({"type": "before", "childId": "x"}, SCOPE) is None
    assert group({"type": "or", "conditions": [{"type": "before"}, leaf(T)]}, SCOPE) is True
    assert group({"type": "and", "conditions": [{"type": "before"}, leaf(F)]}, SCOPE) is False


# -- comparisons -------------------------------------------------------------------------------


COMPARE = [  # (type, value, count, expected)
    ("atLeast", 3, 3, True), ("atLeast", 3, 2, False),
    ("atMost", 3, 3, True), ("atMost", 3, 4, False),
    ("greaterThan", 3, 4, True), ("greaterThan", 3, 3, False),
    ("lessThan", 3, 2, True), ("lessThan", 3, 3, False),
    ("equalTo", 3, 3, True), ("equalTo", 3, 2, False),
    ("notEqualTo", 3, 2, True), ("notEqualTo", 3, 3, False),
]


@pytest.mark.parametrize("kind,value,n,expected", COMPARE)
def test_comparisons_on_a_count_the_caller_knows(kind, value, n, expected):
    scope = SCOPE.with_counts(lambda child, where: float(n) if (child, where) == ("model", "unit") else None)
    c = {"type": kind, "field": "selections", "scope": "unit", "childId": "model", "value": str(value)}
    assert condition(c, scope) is expected
    # what the caller does not count is unknown, whatever the comparison
    assert condition(dict(c, childId="wargear-plasma"), scope) is None
    assert condition(c, SCOPE) is None


# -- what a condition asks of the army and the unit --------------------------------------------


def test_the_army_catalogue_and_force():
    assert condition({"type": "instanceOf", "scope": "primary-catalogue", "childId": CAT}, SCOPE) is True
    assert condition({"type": "notInstanceOf", "scope": "primary-catalogue", "childId": CAT}, SCOPE) is False
    assert condition({"type": "instanceOf", "scope": "force", "childId": "force-army-roster"}, SCOPE) is True
    assert condition({"type": "instanceOf", "scope": "force", "childId": "force-crusade"}, SCOPE) is False
    # forces: the one the unit is in, counted; 'fewer than 1 Crusade force' holds
    assert condition({"type": "lessThan", "field": "forces", "scope": "roster", "childId": "force-crusade",
                      "value": 1}, SCOPE) is True
    assert condition({"type": "atLeast", "field": "forces", "scope": "roster", "childId": "force-army-roster",
                      "value": 1}, SCOPE) is True
    # a cost in the roster (points): not known
    assert condition({"type": "atMost", "field": "51b2-pts", "scope": "roster", "childId": "any",
                      "value": 2000}, SCOPE) is None


def test_selections_in_the_roster():
    detachment = "det-gladius"
    chosen = ARMY.choosing(detachment)
    at_least_one = {"type": "atLeast", "field": "selections", "scope": "roster", "value": 1}
    # nothing chosen besides the unit: a detachment is not there
    assert condition(dict(at_least_one, childId=detachment), SCOPE) is False
    assert condition(dict(at_least_one, childId=detachment, scope="force"), SCOPE) is False
    assert condition(dict(at_least_one, childId=detachment), Scope(chosen)) is True
    assert condition({"type": "equalTo", "field": "selections", "scope": "roster", "childId": detachment,
                      "value": 0}, Scope(chosen)) is False
    # models, units, anything: as many as the army takes
    for child in ("model", "unit", "any"):
        assert condition(dict(at_least_one, childId=child), SCOPE) is None
    # with the rest of the roster open (does the record exist at all?), anything may be there
    assert condition(dict(at_least_one, childId=detachment), Scope(ARMY.opened())) is None
    # the unit itself (or a category it has): it and as many more like it as the army takes
    unit = SCOPE.down(Frame(frozenset({"unit-captain"}), frozenset({"cat-character"})))
    assert condition(dict(at_least_one, childId="unit-captain"), unit) is None
    assert condition(dict(at_least_one, childId="cat-character"), unit) is None
    assert condition(dict(at_least_one, childId="unit-librarian"), unit) is False
    # choosing and opening keep the rest of the army
    assert (chosen.catalogue, chosen.force, chosen.open) == (CAT, ARMY.force, False)
    opened = chosen.opened()
    assert (opened.catalogue, opened.force, opened.chosen, opened.open) == \
        (CAT, ARMY.force, frozenset({detachment}), True)


def _unit_chain(choice=None) -> Scope:
    """A Captain (unit) > its model > a weapon on it, the model the nearest model."""
    unit = Frame(frozenset({"unit-captain", "link-captain"}), frozenset({"cat-character", "cat-infantry"}))
    model = Frame(frozenset({"model-captain"}))
    weapon = Frame(frozenset({"wargear-bolt-pistol"}))
    return Scope(ARMY, choice=choice).down(unit).down(model, is_model=True).down(weapon)


@pytest.mark.parametrize("scope,child,expected", [
    ("self", "wargear-bolt-pistol", True), ("self", "model-captain", False),
    ("parent", "model-captain", True), ("parent", "wargear-bolt-pistol", False),
    ("root-entry", "unit-captain", True), ("unit", "link-captain", True), ("unit", "cat-infantry", True),
    ("unit", "cat-vehicle", False),
    ("model", "model-captain", True), ("model-or-unit", "model-captain", True), ("model", "unit-captain", False),
    ("ancestor", "cat-character", True), ("ancestor", "model-captain", True),
    ("ancestor", "wargear-bolt-pistol", False),  # the entry itself is not its own ancestor
    ("ancestor", "cat-vehicle", False),
    ("model-captain", "model-captain", True),  # a scope naming an entry on the way down
    ("unit-captain", "cat-infantry", True), ("unit-captain", "wargear-bolt-pistol", False),
    ("unit-librarian", "cat-infantry", None),  # a scope that is none of the unit's frames
])
def test_instance_of_on_the_way_down(scope, child, expected):
    s = _unit_chain()
    assert condition({"type": "instanceOf", "scope": scope, "childId": child}, s) is expected
    assert condition({"type": "notInstanceOf", "scope": scope, "childId": child}, s) is NOT[expected]


def test_instance_of_what_a_player_chooses_is_unknown():
    s = _unit_chain(choice=lambda child: child.startswith("wargear-"))
    # the bearer of a weapon may take a plasma pistol: not known, rather than not
    assert condition({"type": "instanceOf", "scope": "ancestor", "childId": "wargear-plasma"}, s) is None
    assert condition({"type": "instanceOf", "scope": "model", "childId": "wargear-plasma"}, s) is None
    assert condition({"type": "notInstanceOf", "scope": "self", "childId": "wargear-plasma"}, s) is None
    # what no player chooses stays known
    assert condition({"type": "instanceOf", "scope": "ancestor", "childId": "cat-vehicle"}, s) is False
    assert condition({"type": "instanceOf", "scope": "self", "childId": "wargear-bolt-pistol"}, s) is True


def test_inside_the_last_frame_it_is_an_ancestor():
    """A profile or rule inside an entry: the entry is its ancestor; the entry itself is not its own."""
    s = _unit_chain()
    c = {"type": "instanceOf", "scope": "ancestor", "childId": "wargear-bolt-pistol"}
    assert condition(c, s) is False
    assert condition(c, s.within()) is True
    assert s.within().within() == s.within()
    # going down again is no longer inside
    assert condition(c, s.within().down(Frame(frozenset({"profile"})))) is True  # now a frame above
    assert condition(dict(c, childId="profile"), s.within().down(Frame(frozenset({"profile"})))) is False


def test_no_frames_at_all():
    for scope in ("self", "parent", "unit", "model", "root-entry"):
        assert condition({"type": "instanceOf", "scope": scope, "childId": "x"}, SCOPE) is None
    assert condition({"type": "instanceOf", "scope": "ancestor", "childId": "x"}, SCOPE) is False
    assert condition({"type": "instanceOf", "scope": "parent", "childId": "x"},
                     SCOPE.down(Frame(frozenset({"x"})))) is None  # the unit has no parent


def test_a_changed_army_or_counts_keep_the_rest_of_the_scope():
    s = _unit_chain().within().with_counts(lambda child, where: 5.0)
    other = s.with_army(Army("cat-space-wolves"))
    assert (other.chain, other.model, other.inside, other.counts) == (s.chain, s.model, s.inside, s.counts)
    assert condition(LEAF[T], other) is False
    assert condition({"type": "atLeast", "field": "selections", "scope": "model", "childId": "model", "value": 5},
                     other) is True


# -- modifiers and their guards ----------------------------------------------------------------


def test_modifier_groups_guard_their_modifiers():
    obj = {
        "modifiers": [{"type": "set", "field": "hidden", "value": "true", "conditions": [leaf(U)]}],
        "modifierGroups": [{
            "conditions": [leaf(T)],
            "modifiers": [{"type": "set", "field": "pts", "value": 160}],
            "modifierGroups": [{"conditionGroups": [{"type": "or", "conditions": [leaf(F), leaf(U)]}],
                                "modifiers": [{"type": "increment", "field": "pts", "value": 20,
                                               "conditions": [leaf(T)]}]}],
        }],
    }
    mods = modifiers(obj)
    assert [(m.type, m.field) for m in mods] == [("set", "hidden"), ("set", "pts"), ("increment", "pts")]
    assert [len(m.guards) for m in mods] == [1, 2, 3]
    assert [m.applies(SCOPE) for m in mods] == [None, True, None]  # the inner group: F or U
    # a guard that fails decides, whatever the others
    assert Modifier({"conditions": [leaf(T)]}, ({"conditions": [leaf(F)]}, {"conditions": [leaf(U)]})).applies(SCOPE) \
        is False
    assert Modifier({"conditions": [leaf(U)]}, ({"conditions": [leaf(U)]}, {"conditions": [leaf(T)]})).applies(SCOPE) \
        is None
    assert has_modifiers(obj) and has_modifiers({"modifierGroups": [{}]}) and not has_modifiers({"modifiers": []})
    assert len(mods[2].conditions()) == 4  # its own, its group's (F, U), the outer group's


def test_repeats_count_how_many_times():
    counts = {"model": 7.0}
    scope = SCOPE.with_counts(lambda child, where: counts.get(child))

    def times(**repeat):
        r = {"field": "selections", "scope": "unit", "childId": "model", "value": 2, "repeats": 1, **repeat}
        mod = {"type": "increment", "field": "pts", "value": 10, "repeats": [r]}
        return Modifier(mod, (mod,)).times(scope)

    assert times() == 3  # every 2 of 7 models, rounded down
    assert times(roundUp="true") == 4
    assert times(repeats=2) == 6
    assert times(childId="wargear-plasma") is None  # a count the caller does not know
    assert Modifier({"type": "set"}, ({"type": "set"},)).times(scope) == 1  # no repeat: once


def _hiding(value, when) -> dict:
    return {"type": "set", "field": "hidden", "value": value, "conditions": [leaf(when)]}


@pytest.mark.parametrize("start", [False, True], ids=["shown", "hidden"])
@pytest.mark.parametrize("new", [False, True], ids=["show", "hide"])
@pytest.mark.parametrize("when", [T, F, U], ids=lambda v: NAMES[v])
def test_hidden_by_one_modifier(start, new, when):
    obj = {"hidden": start, "modifiers": [_hiding(new, when)]}
    expected = new if when is True else start if when is False or new == start else None
    assert hidden((obj,), SCOPE) is expected


def test_hidden_by_several_modifiers_and_objects():
    # a later modifier that applies settles an earlier unknown one
    assert hidden(({"modifiers": [_hiding("true", U), _hiding("false", T)]},), SCOPE) is False
    assert hidden(({"modifiers": [_hiding("true", T), _hiding("false", U)]},), SCOPE) is None
    # an entry hidden outright through its link, or its target
    assert hidden(({"hidden": "true"}, {}), SCOPE) is True
    assert hidden(({}, {"hidden": True, "modifiers": [_hiding("false", F)]}), SCOPE) is True
    # a modifier of another field, or that is not a 'set', does not hide
    assert hidden(({"modifiers": [dict(_hiding("true", T), field="name")]},), SCOPE) is False
    assert hidden(({"modifiers": [dict(_hiding("true", T), type="append")]},), SCOPE) is False
    # an 'or' of conditions that may be true hides maybe; one that is true hides
    maybe = {"type": "set", "field": "hidden", "value": "true",
             "conditionGroups": [{"type": "or", "conditions": [leaf(F), leaf(U)]}]}
    assert hidden(({"modifiers": [maybe]},), SCOPE) is None
    surely = dict(maybe, conditionGroups=[{"type": "or", "conditions": [leaf(U), leaf(T)]}])
    assert hidden(({"modifiers": [surely]},), SCOPE) is True


def test_referenced_names_what_the_hiding_conditions_ask():
    obj = {"modifiers": [
        {"type": "set", "field": "hidden", "value": "true",
         "conditions": [{"type": "lessThan", "field": "selections", "scope": "roster", "childId": "det-a", "value": 1}],
         "conditionGroups": [{"type": "or", "conditions": [{"type": "instanceOf", "scope": "ancestor",
                                                              "childId": "det-b"}]}]},
        {"type": "set", "field": "name", "value": "x", "conditions": [{"type": "equalTo", "childId": "det-c"}]},
    ], "modifierGroups": [{"repeats": [{"childId": "det-d"}], "modifiers": [{"type": "set", "field": "hidden"}]}]}
    assert referenced((obj,)) == {"det-a", "det-b", "det-d"}
    assert referenced((obj,), "name") == {"det-c"}


def test_describe_says_a_condition_as_a_reader_would():
    names = {"wargear-plasma": "Plasma pistol", "unit-captain": "Captain", "cat-character": "Character"}.get

    def name(key):
        return names(key) or key

    assert describe({"type": "atLeast", "value": 3, "field": "selections", "childId": "wargear-plasma",
                     "scope": "self"}, name) == "at least 3 selections of Plasma pistol in self"
    assert describe({"type": "notInstanceOf", "childId": "cat-character", "scope": "unit-captain"}, name) == \
        "Captain is not Character"
    assert describe({"type": "instanceOf", "childId": "cat-character", "scope": "ancestor"}, name) == \
        "ancestor is Character"
    assert describe({"repeats": 1, "value": 2, "field": "selections", "childId": "model", "scope": "unit"}, name) == \
        "for every 2 selections of model in unit"
