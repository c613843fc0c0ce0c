"""`warscribe calc` on example files, and bad input: a message naming the field, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from warscribe.engine import ScenarioError, evaluate
from engine_helpers import ROOT, bundle_path, inline, scenario  # noqa: F401 (fixture)
from warscribe.cli import main

EXAMPLES = sorted((ROOT / "examples" / "scenarios").glob("*.yaml")) + sorted(
    (Path(__file__).parent / "scenarios").glob("*.yaml")
)


def calc(capsys, *argv) -> tuple[int, str, str]:
    status = main(["calc", *map(str, argv)])
    out = capsys.readouterr()
    return status, out.out, out.err


def write(tmp_path: Path, data, name="s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_human_and_json(capsys, path):
    status, out, err = calc(capsys, path)
    assert status == 0, err
    assert "Models slain" in out and "Expected wounds removed" in out and "#" in out
    status, out, err = calc(capsys, path, "--json")
    assert status == 0, err
    data = json.loads(out)
    for key in ("ruleset", "expected_damage", "expected_wounds_removed", "expected_models_slain", "p_wipe",
                "models_slain", "wounds_removed"):
        assert key in data
    assert abs(sum(data["models_slain"]) - 1) < 1e-9
    assert abs(sum(data["wounds_removed"]) - 1) < 1e-9


def test_full_unit_has_three_groups(capsys):
    status, out, _ = calc(capsys, ROOT / "examples" / "scenarios" / "full-unit.yaml", "--json")
    assert status == 0
    assert len(json.loads(out)["groups"]) == 3


def test_hazardous_example_reports_attacker_mortal_wounds(capsys):
    status, out, _ = calc(capsys, Path(__file__).parent / "scenarios" / "hazardous.yaml", "--json")
    assert status == 0
    assert json.loads(out)["attacker_mortal_wounds"] > 0


def test_subprocess_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "warscribe.cli", "calc", str(ROOT / "examples/scenarios/single-weapon.yaml"), "--json"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ruleset"] == "11e"


GOOD = scenario([(2, inline())])


def _mutate(path: list, value) -> dict:
    data = json.loads(json.dumps(GOOD))
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


BAD = [
    (_mutate(["target", "save"], 9), "target.save: 9 is greater than the maximum of 7"),
    (_mutate(["target", "toughness"], KeyError), "target.toughness: required field is missing"),
    (_mutate(["attacker", "weapons", 0, "weapon", "abilities"], ["SUSTAINED HITS 1", "EXPLODING SIXES"]),
     "attacker.weapons[0].weapon.abilities[1]: unknown weapon ability 'EXPLODING SIXES'"),
    (_mutate(["attacker", "weapons", 0, "weapon", "attacks"], "D7"), "attacker.weapons[0].weapon.attacks"),
    (_mutate(["attacker", "weapons", 0, "weapon", "damage"], KeyError), "attacker.weapons[0].weapon.damage: required"),
    (_mutate(["attacker", "weapons", 0, "models"], 0), "attacker.weapons[0].models: 0 is less than the minimum of 1"),
    (_mutate(["target", "colour"], "red"), "target.colour: unknown field"),
    (_mutate(["modifiers"], {"reroll_hits": "sixes"}), "modifiers.reroll_hits"),
    (_mutate(["ruleset"], "9e"), "ruleset"),
    (_mutate(["attacker", "weapons"], []), "attacker.weapons"),
    (_mutate(["attacker", "weapons", 0], {"models": 1}), "attacker.weapons[0]: "),
    (_mutate(["target", "models"], 100) | {"target": {"toughness": 4, "save": 3, "wounds": 100, "models": 100}},
     "target: 100 models x 100 wounds"),
    ("attacker: [unclosed\n", "not valid YAML"),
    ("- just\n- a list\n", "a scenario is a mapping"),
]


@pytest.mark.parametrize("data,message", BAD, ids=[m for _, m in BAD])
def test_bad_input_names_the_field(capsys, tmp_path, data, message):
    status, out, err = calc(capsys, write(tmp_path, data))
    assert status == 2
    assert message in err
    assert "Traceback" not in err and out == ""
    assert len(err.strip().splitlines()) <= 6


def test_missing_file(capsys, tmp_path):
    status, _, err = calc(capsys, tmp_path / "nope.yaml")
    assert status == 2 and "no such scenario file" in err


def test_missing_bundle_says_to_build(capsys, tmp_path):
    path = write(tmp_path, scenario([(1, "Psilencer")]))
    status, _, err = calc(capsys, path, "--kb", tmp_path / "missing.json")
    assert status == 2
    assert "warscribe build" in err


def test_ref_by_name_and_id(capsys, tmp_path, bundle_path):
    by_name = write(tmp_path, scenario([(2, "psilencer")], ruleset=None), "a.yaml")
    by_id = write(tmp_path, scenario([(2, "grey-knights/paladin-squad/psilencer")], ruleset=None), "b.yaml")
    outs = []
    for path in (by_name, by_id):
        status, out, err = calc(capsys, path, "--json", "--kb", bundle_path)
        assert status == 0, err
        outs.append(json.loads(out))
    assert outs[0] == outs[1]
    assert outs[0]["ruleset"] == "10e"


def test_ambiguous_ref_lists_candidates(capsys, tmp_path, bundle_path):
    path = write(tmp_path, scenario([(1, "Bolt pistol")]))
    status, _, err = calc(capsys, path, "--kb", bundle_path)
    assert status == 2
    assert "attacker.weapons[0].ref" in err
    assert "grey-knights/brother-captain/bolt-pistol" in err and "imperial-agents/inquisitor/bolt-pistol" in err


def test_unknown_ref_suggests(capsys, tmp_path, bundle_path):
    path = write(tmp_path, scenario([(1, "Psilencor")]))
    status, _, err = calc(capsys, path, "--kb", bundle_path)
    assert status == 2
    assert "attacker.weapons[0].ref: unknown weapon 'Psilencor'" in err and "Psilencer" in err


def test_mixed_ruleset_refs_need_a_ruleset(bundle_path):
    s = scenario([(1, "Psilencer"), (1, "imperial-agents/inquisitor/bolt-pistol")], ruleset=None)
    with pytest.raises(ScenarioError, match="say which ruleset"):
        evaluate(s, kb=bundle_path)


def test_invalid_bundle_record_is_reported(tmp_path):
    from engine_helpers import BUNDLE

    bundle = json.loads(json.dumps(BUNDLE))
    bundle["data"]["weapon"][0]["skill"] = 9
    with pytest.raises(ScenarioError, match=r"attacker.weapons\[0\].ref: knowledge-base record"):
        evaluate(scenario([(1, "Psilencer")]), kb=bundle)


def test_ability_records_accepted_inline():
    rec = {"id": "sustained-hits", "text": "sustained hits 1", "value": 1}
    a = evaluate(scenario([(1, inline(abilities=[rec]))]))
    b = evaluate(scenario([(1, inline(abilities=["SUSTAINED HITS 1"]))]))
    assert a.to_json() == b.to_json()
