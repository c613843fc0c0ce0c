"""What the engine keeps across calls: checked scenarios (a hit only for exactly the same input, never for an
invalid one) and the states a [DEVASTATING WOUNDS] group leaves of an untouched unit (the same bits)."""

from __future__ import annotations

import copy

import pytest

from warscribe.engine import ScenarioError, evaluate, parse_scenario
from warscribe.engine import scenario as S


def _data() -> dict:
    return {"ruleset": "11e",
            "attacker": {"weapons": [{"models": 5, "weapon": {
                "name": "Bolt rifle", "range": 24, "attacks": 2, "skill": 3, "strength": 4, "ap": -1, "damage": 1,
                "abilities": ["SUSTAINED HITS 1"]}}]},
            "target": {"models": [{"name": "Boyz", "count": 9, "toughness": 5, "save": 5, "wounds": 1},
                                  {"name": "Warboss", "toughness": 6, "save": 4, "wounds": 6,
                                   "keywords": ["CHARACTER"]}], "attached": True}}


@pytest.fixture(autouse=True)
def _empty_cache():
    S._PARSED.clear()
    yield
    S._PARSED.clear()


def test_the_same_input_gives_the_scenario_built_first():
    first = parse_scenario(_data())
    assert parse_scenario(_data()) is first
    assert evaluate(_data()).to_json() == evaluate(first).to_json()


def test_a_changed_input_is_checked_and_built_again():
    first = parse_scenario(_data())
    other = _data()
    other["attacker"]["weapons"][0]["models"] = 6
    assert parse_scenario(other) is not first
    assert parse_scenario(other).groups[0].models == 6


@pytest.mark.parametrize("path, value, why", [
    (("attacker", "weapons", 0, "models"), True, "a boolean is not an integer"),
    (("attacker", "weapons", 0, "models"), 5.0, "a float is not an integer"),
    (("target", "models", 0, "count"), "9", "a string is not a number"),
    (("attacker", "weapons", 0, "weapon", "abilities"), ("SUSTAINED HITS 1",), "a tuple is not an array"),
])
def test_values_equal_in_python_but_not_the_same_input_are_checked(path, value, why):
    """True == 1 == 1.0 and hash alike: the cache must still check each as given."""
    parse_scenario(_data())
    data = _data()
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    assert S._exact_key(data) != S._exact_key(_data()), why
    assert S._exact_key({"a": 0.0}) != S._exact_key({"a": -0.0})
    assert S._exact_key({1: 0}) != S._exact_key({"1": 0})
    try:
        reference = S._parse(copy.deepcopy(data), None)
    except ScenarioError as exc:
        with pytest.raises(ScenarioError, match=None) as got:
            parse_scenario(data)
        assert str(got.value) == str(exc)
    else:
        assert parse_scenario(data) == reference


def test_an_invalid_input_is_never_kept():
    data = _data()
    data["target"]["models"][0]["toughness"] = 0
    for _ in range(2):
        with pytest.raises(ScenarioError, match="toughness"):
            parse_scenario(data)
    assert not S._PARSED


def test_values_of_other_types_give_no_key():
    class Text(str):
        pass

    data = _data()
    data["attacker"]["weapons"][0]["weapon"]["name"] = Text("Bolt rifle")
    assert S._exact_key(data) is None
    parse_scenario(data)
    assert not S._PARSED


def test_scenarios_reading_the_knowledge_base_are_not_kept():
    data = _data()
    data["attacker"]["weapons"] = [{"models": 5, "ref": "bolt-rifle"}]
    assert S._reads_kb(data)
    data = _data()
    data["attacker"]["effects"] = ["some stratagem"]
    assert S._reads_kb(data)
    assert not S._reads_kb(_data())


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(S, "PARSED_ENTRIES", 3)
    for models in range(1, 6):
        data = _data()
        data["attacker"]["weapons"][0]["models"] = models
        parse_scenario(data)
    assert len(S._PARSED) == 3
    assert [s.groups[0].models for s in S._PARSED.values()] == [3, 4, 5]


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_a_devastating_group_on_the_untouched_unit_gives_the_same_bits_again(ruleset):
    from warscribe.engine import groups as G

    data = _data()
    data["ruleset"] = ruleset
    data["attacker"]["weapons"] = [
        {"models": 3, "weapon": {"name": "Hammer", "range": None, "attacks": "D6", "skill": 3, "strength": 8,
                                 "ap": -2, "damage": 2, "abilities": ["DEVASTATING WOUNDS", "SUSTAINED HITS 1"]}},
        {"models": 5, "weapon": {"name": "Sniper", "range": 36, "attacks": 1, "skill": 3, "strength": 5, "ap": -2,
                                 "damage": 3, "abilities": ["PRECISION", "DEVASTATING WOUNDS"]}},
    ]
    G._FRESH.clear()
    first = evaluate(data).to_json()
    assert len(G._FRESH) == 1  # the first group met the untouched unit; the second did not
    kept = [v[0].copy() for v in G._FRESH.values()]
    S._PARSED.clear()
    again = evaluate(copy.deepcopy(data)).to_json()
    assert repr(again) == repr(first)
    # What the caller got was a copy: the kept states are as they were.
    assert all((v[0] == k).all() for v, k in zip(G._FRESH.values(), kept))
    G._FRESH.clear()
    assert repr(evaluate(data).to_json()) == repr(first)


@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_a_lone_devastating_group_gives_the_same_bits_again(ruleset):
    from warscribe.engine import groups as G

    data = _data()
    data["ruleset"] = ruleset
    data["attacker"]["weapons"] = [
        {"models": 5, "weapon": {"name": "Sniper", "range": 36, "attacks": 2, "skill": 3, "strength": 5, "ap": -2,
                                 "damage": "D3", "abilities": ["PRECISION", "DEVASTATING WOUNDS"]}}]
    G._FRESH.clear()
    first = evaluate(data)
    assert len(G._FRESH) == 1
    again = evaluate(copy.deepcopy(data))
    assert repr(again.to_json()) == repr(first.to_json())
    assert 0 < again.expected_models_slain <= 10


def test_chains_and_plans_are_kept_within_their_count_and_their_numbers():
    """Each unit's plan and chains are kept by the numbers they hold, a chain's powers included as they grow;
    the oldest go first, and a result never depends on what was kept."""
    from warscribe.engine import chains as C
    from warscribe.engine import group_counts, groups, unit_states
    from warscribe.engine.kept import Kept

    data = _data()
    reference = repr(evaluate(data).to_json())
    kept = Kept(C._make_chain, entries=3, cells=10**9)
    plan = unit_states.plan("11e", parse_scenario(data).target)
    keys = [(plan, None, (f, 1.0), ((0.0, 1.0), (0.0, 1.0))) for f in (0.5, 0.25, 0.125, 0.0625)]
    chains = [kept.get(key) for key in keys]
    assert list(kept.values) == keys[1:] and chains[0].kept is None
    assert kept.get(keys[3]) is chains[3]
    assert kept.cells == sum(c.cells for c in chains[1:])
    before = chains[3].cells
    chains[3]._grow(5)
    assert chains[3].cells > before and kept.cells == sum(c.cells for c in chains[1:])
    # A budget of numbers: only the chain made last is left once the others exceed it.
    small = Kept(C._make_chain, entries=100, cells=chains[1].cells + 1)
    for key in keys:
        small.get(key)
    assert list(small.values) == keys[3:] and small.cells == small.values[keys[3]].cells
    small.clear()
    assert small.cells == 0 and not small.values

    C._CHAINS.clear()
    unit_states._PLANS.clear()
    S._PARSED.clear()
    group_counts._PROFILES.clear()
    groups._FRESH.clear()
    assert repr(evaluate(data).to_json()) == reference


def test_weapons_and_targets_are_built_once_per_exact_input_and_ruleset():
    """A new scenario of known parts (every weapon against every target) builds only what is new: the same
    weapon profile gives the same Weapon; a target is ordered for its ruleset; nothing of a caller's is kept."""
    S._WEAPONS.clear()
    S._TARGETS.clear()
    data = _data()
    data["target"]["models"][1:1] = [{"name": "Nob", "toughness": 5, "save": 4, "wounds": 2},
                                     {"name": "Grot", "count": 2, "toughness": 5, "save": 5, "wounds": 1}]
    first = parse_scenario(data)
    other = _data()
    other["target"] = copy.deepcopy(data["target"])
    other["attacker"]["weapons"][0]["models"] = 7
    second = parse_scenario(other)
    assert second is not first and second.groups[0].weapon is first.groups[0].weapon
    assert second.target is first.target
    # 11e puts one allocation group's kinds together (Boyz and Grots: W1 Sv5); 10e keeps them as listed.
    assert [k.name for k in first.target.kinds] == ["Boyz", "Grot", "Nob", "Warboss"]
    tenth = copy.deepcopy(other)
    tenth["ruleset"] = "10e"
    assert [k.name for k in parse_scenario(tenth).target.kinds] == ["Boyz", "Nob", "Grot", "Warboss"]
    assert parse_scenario(tenth).target is not first.target
    # An ability given as a record: the weapon keeps its own copy.
    record = {"id": "sustained-hits", "text": "SUSTAINED HITS 1", "value": 1}
    rec = _data()
    rec["attacker"]["weapons"][0]["weapon"]["abilities"] = [record]
    kept = parse_scenario(rec).groups[0].weapon.abilities[0]
    assert kept == record and kept is not record
    # A part that failed is not kept: the same target fails again, with the same message.
    bad = _data()
    bad["target"]["models"][1]["name"] = "Boyz"
    for _ in range(2):
        with pytest.raises(ScenarioError, match="names another kind too"):
            parse_scenario(bad)
    assert all(key[0] != S._exact_key(bad["target"]) for key in S._TARGETS)


def _grown_one_by_one(chain, upto: int):
    """The powers of the untouched unit as a loop makes them, one check, reward and step at a time."""
    import numpy as np

    powers, rewards = [chain.powers[0]], []
    while len(powers) <= upto:
        cur = powers[-1]
        if not cur[0, 1:].any():
            return powers, rewards, len(powers) - 1
        rewards.append((float((cur * chain.unsaved).cumsum(axis=-1)[0, -1]),
                        float((cur * chain.damage).cumsum(axis=-1)[0, -1])))
        powers.append(chain.step(cur))
    return np.array(powers), rewards, None


@pytest.mark.parametrize("fail, through, steps", [
    (0.5, (0.0, 0.5, 0.5), [3, 7, 30]),  # saves can stop an event: the unit is never certainly slain
    (1.0, (0.0, 0.0, 1.0), [2, 4, 40]),  # every event removes 2 wounds: slain for certain after a few
    (1.0, (0.0, 1.0), [1, 60]),
])
def test_the_powers_grown_at_once_are_those_grown_one_by_one(fail, through, steps):
    """``Chain._grow`` steps first and checks after: the same powers, rewards and destroyed index, bit for bit,
    grown in one call or in several."""
    from warscribe.engine import chains, unit_states

    plan = unit_states.plan("11e", parse_scenario(_data()).target)
    kinds = len(plan.lay.kinds)
    for upto in steps:
        chain = chains._make_chain(plan, None, (fail,) * kinds, (through,) * kinds)
        for part in sorted({1, upto // 2, upto}):
            got = chain._grow(part)
        powers, rewards, destroyed = _grown_one_by_one(
            chains._make_chain(plan, None, (fail,) * kinds, (through,) * kinds), upto)
        assert chain.destroyed == destroyed and got == (destroyed if destroyed is not None and destroyed < upto
                                                        else None)
        assert chain.rewards == rewards
        assert len(chain.powers) == len(powers)
        assert all(a.tobytes() == b.tobytes() for a, b in zip(chain.powers, powers))
    assert fail < 1.0 or chain.destroyed is not None  # the certain case was met


def test_forgetting_everything_leaves_nothing_kept_and_the_same_bits():
    from warscribe.engine import chains, forget_calls, group_counts, groups, unit_states

    data = _data()
    data["attacker"]["weapons"][0]["weapon"]["abilities"] = ["DEVASTATING WOUNDS"]
    first = repr(evaluate(data).to_json())
    forget_calls()
    assert not S._PARSED and not group_counts._PROFILES and not groups._FRESH
    # A weapon's and a unit's stay.
    assert S._WEAPONS and S._TARGETS and chains._CHAINS.values and unit_states._PLANS.values
    assert repr(evaluate(data).to_json()) == first
    forget_calls(everything=True)
    assert not (S._WEAPONS or S._TARGETS or chains._CHAINS.values or unit_states._PLANS.values)
    assert chains._CHAINS.cells == 0 and group_counts._joint_table.cache_info().currsize == 0
    assert chains.loss_rows.cache_info().currsize == 0
    assert repr(evaluate(data).to_json()) == first


def test_the_bench_sections_of_new_scenarios_run(monkeypatch, capsys):
    """The matrix and never-seen sections of ``warscribe bench engine --peer`` with a stand-in for the peer."""
    from warscribe.bench import peer as bench_peer

    class Stub:
        def run_groups(self, groups, ref, ctx):
            return 0.0, 0.0, 0.0

    family = bench_peer.families()[0]
    monkeypatch.setattr(bench_peer, "families", lambda: [(family[0], family[1][:2])])
    bench_peer.matrix_side_by_side(Stub(), 2)
    bench_peer.never_seen_side_by_side(Stub(), 2)
    out = capsys.readouterr().out
    assert "the 2 family scenarios in turn" in out and "A scenario never seen" in out
    assert out.count(family[0]) == 2


def test_the_reused_pickler_gives_the_bytes_of_a_new_one():
    """``_exact_key`` reuses one pickler per thread: its keys are a fresh pickler's, also after a refused input."""
    import io
    import threading

    def fresh(data) -> bytes:
        buffer = io.BytesIO()
        S._ExactPickler(buffer, 5).dump(data)
        return buffer.getvalue()

    class Text(str):
        pass

    shared = ["SUSTAINED HITS 1"]
    inputs = [_data(), {"a": [shared, shared]}, {"a": 0.0, "b": -0.0, "c": True, "d": None}, _data()]
    for data in inputs:
        assert S._exact_key(data) == fresh(data)
        assert S._exact_key({"x": Text("y"), "z": [1, 2]}) is None  # refused half way
    keys = []
    worker = threading.Thread(target=lambda: keys.append(S._exact_key(_data())))
    worker.start()
    worker.join()
    assert keys == [fresh(_data())]
