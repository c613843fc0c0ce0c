"""`warscribe matrix`: values equal to `evaluate` for sampled pairs, stable files, sources, errors."""

from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from itertools import islice
from pathlib import Path

import numpy as np
import pytest
import yaml

from conftest import corpus_path
from warscribe.engine import Conditions, Group, Scenario, evaluate
from warscribe.engine.batch import evaluate_matrix
from warscribe.engine.model import Target, Weapon
from warscribe.engine.tsv import read_units, read_weapons
from warscribe.matrix import reference_targets

REFERENCE_TARGETS = [
    {"name": "Guardsmen", "toughness": 3, "save": 5, "wounds": 1, "models": 10, "keywords": ["INFANTRY"]},
    {"name": "Marines", "toughness": 4, "save": 3, "wounds": 2, "models": 5, "keywords": ["INFANTRY"]},
    {"name": "Terminators", "toughness": 5, "save": 2, "invulnerable": 4, "wounds": 3, "models": 5,
     "keywords": ["INFANTRY", "TERMINATOR"]},
    {"name": "Plague Marines", "toughness": 5, "save": 3, "wounds": 2, "models": 7, "feel_no_pain": 5,
     "keywords": ["INFANTRY"]},
    {"name": "Tank", "toughness": 10, "save": 3, "wounds": 13, "models": 1, "keywords": ["VEHICLE"]},
    {"name": "Knight", "toughness": 12, "save": 3, "invulnerable": 5, "wounds": 22, "models": 1,
     "feel_no_pain": 6, "keywords": ["VEHICLE", "TITANIC"]},
    {"name": "Monster", "toughness": 9, "save": 2, "wounds": 16, "models": 2, "keywords": ["MONSTER"]},
]


@pytest.fixture(scope="module")
def corpus_weapons():
    rows = read_weapons(corpus_path("bsdata-10e-weapons.tsv"))
    return [r for r in rows if r.value is not None][::6]  # every sixth: a spread over factions


@pytest.fixture(scope="module")
def corpus_units():
    return [r for r in read_units(corpus_path("bsdata-10e-units.tsv"), 10) if r.value is not None][::9]


def _targets() -> list[Target]:
    # Some with a damage reduction too ('subtract 1 from the Damage characteristic'): a factor of its own.
    reduced = [{**e, "name": f"{e['name']} (-1 Damage)", "damage_reduction": 1} for e in REFERENCE_TARGETS[::3]]
    halved = [{**e, "name": f"{e['name']} (half Damage)", "damage_halved": True} for e in REFERENCE_TARGETS[1::3]]
    return [r.value for r in reference_targets_from(REFERENCE_TARGETS + reduced + halved)]


def reference_targets_from(entries) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "targets.yaml"
        path.write_text(yaml.safe_dump(entries), encoding="utf-8")
        return reference_targets(path, None)


def _check_sample(weapons: list[Weapon], rulesets: list[str], targets: list[Target], models: int,
                  conditions: Conditions, samples: int, seed: int) -> None:
    m = evaluate_matrix(weapons, rulesets, targets, models=models, conditions=conditions)
    assert m.cases <= len(weapons) * len(targets)
    rng = random.Random(seed)
    for _ in range(samples):
        i, j = rng.randrange(len(weapons)), rng.randrange(len(targets))
        r = evaluate(Scenario(ruleset=rulesets[i], groups=(Group(models, weapons[i]),), target=targets[j],
                              conditions=conditions))
        got = tuple(m.values[:, m.case_of[i, j]])
        want = (r.expected_wounds_removed, r.expected_models_slain, r.p_wipe)
        assert max(abs(a - b) for a, b in zip(got, want)) <= 1e-9, (weapons[i], targets[j], got, want)


def test_sampled_pairs_equal_evaluate_corpus_weapons_against_corpus_units(corpus_weapons, corpus_units):
    weapons = [r.value for r in corpus_weapons]
    _check_sample(weapons, ["10e"] * len(weapons), [r.value for r in corpus_units], 1, Conditions(), 150, seed=1)


@pytest.mark.parametrize("ruleset, models, conditions", [
    ("10e", 1, Conditions(cover=True)),
    ("11e", 3, Conditions(half_range=True, stationary=True, charged=True, cover=True)),
])
def test_sampled_pairs_equal_evaluate_with_keywords_fnp_and_conditions(corpus_weapons, ruleset, models, conditions):
    weapons = [r.value for r in corpus_weapons]
    _check_sample(weapons, [ruleset] * len(weapons), _targets(), models, conditions, 120, seed=2)


def test_every_anti_and_conditional_weapon_against_keyword_targets():
    rows = read_weapons(corpus_path("bsdata-10e-weapons.tsv"))
    keyed = [r.value for r in rows if r.value is not None
             and any(a["id"] == "anti" or "condition" in a for a in r.value.abilities)]
    assert keyed
    _check_sample(keyed, ["10e"] * len(keyed), _targets(), 1, Conditions(), 80, seed=3)


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "warscribe.cli", "matrix", *args], capture_output=True, text=True,
                          cwd=cwd)


@pytest.fixture(scope="module")
def small_inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("matrix")
    with corpus_path("bsdata-10e-weapons.tsv").open(encoding="utf-8") as fh:
        lines = list(islice(fh, 200))
    lines.append("Test - Library\tBroken gun\tranged\t24\"\t1\t3+\t8+\t-1\t1\t-\n")
    (folder / "weapons.tsv").write_text("".join(lines), encoding="utf-8")
    with corpus_path("bsdata-10e-units.tsv").open(encoding="utf-8") as fh:
        (folder / "units.tsv").write_text("".join(islice(fh, 60)), encoding="utf-8")
    (folder / "targets.yaml").write_text(yaml.safe_dump(REFERENCE_TARGETS), encoding="utf-8")
    return folder


def test_cli_csv_and_npz_are_byte_identical_across_runs_and_agree(small_inputs):
    f = small_inputs
    common = ["--weapons", "weapons.tsv", "--targets", "units.tsv", "--target-models", "10"]
    for name in ("a.csv", "b.csv", "a.npz", "b.npz"):
        proc = _run(*common, "--out", name, cwd=f)
        assert proc.returncode == 0, proc.stderr
    assert (f / "a.csv").read_bytes() == (f / "b.csv").read_bytes()
    assert (f / "a.npz").read_bytes() == (f / "b.npz").read_bytes()
    assert "skipped weapon Test - Library/Broken gun#200: strength '8+' is not a number or dice expression" in proc.stderr
    with (f / "a.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    data = np.load(f / "a.npz")
    weapons, targets = list(data["weapon"]), list(data["target"])
    assert len(rows) == len(weapons) * len(targets) == 199 * 59
    assert list(rows[0]) == ["weapon", "target", "expected_wounds_removed", "expected_models_slain", "p_wipe"]
    assert rows[0]["weapon"] == "Aeldari - Aeldari Library/Aeldari power sword#1"
    assert list(data["skipped_id"]) == ["Test - Library/Broken gun#200"]
    for k in (0, 777, len(rows) - 1):
        i, j = divmod(k, len(targets))
        assert (rows[k]["weapon"], rows[k]["target"]) == (weapons[i], targets[j])
        for col in ("expected_wounds_removed", "expected_models_slain", "p_wipe"):
            assert float(rows[k][col]) == data[col][i, j]


def test_cli_values_match_calc_json(small_inputs):
    f = small_inputs
    proc = _run("--weapons", "weapons.tsv", "--targets", "targets.yaml", "--half-range", "--out", "t.csv", cwd=f)
    assert proc.returncode == 0, proc.stderr
    with (f / "t.csv").open(encoding="utf-8", newline="") as fh:
        row = [r for r in csv.DictReader(fh) if r["target"] == "Plague Marines"][40]
    weapon = next(r.value for r in read_weapons(f / "weapons.tsv") if r.id == row["weapon"])
    target = next(t for t in REFERENCE_TARGETS if t["name"] == row["target"])
    scenario = {"ruleset": "10e", "attacker": {"weapons": [{"models": 1, "weapon": {
        "name": weapon.name, "type": weapon.type, "attacks": weapon.attacks, "skill": weapon.skill,
        "strength": weapon.strength, "ap": weapon.ap, "damage": weapon.damage,
        "abilities": [a for a in weapon.abilities if a["id"] != "custom"]}}]},
        "target": {k: v for k, v in target.items() if k != "name"}, "conditions": {"half_range": True}}
    (f / "s.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    calc = subprocess.run([sys.executable, "-m", "warscribe.cli", "calc", "s.yaml", "--json"], capture_output=True,
                          text=True, cwd=f)
    assert calc.returncode == 0, calc.stderr
    out = json.loads(calc.stdout)
    for col in ("expected_wounds_removed", "expected_models_slain", "p_wipe"):
        assert abs(float(row[col]) - out[col]) <= 1e-9


def test_knowledge_base_weapons_and_datasheet_targets(tmp_path):
    from engine_helpers import BUNDLE

    bundle = json.loads(json.dumps(BUNDLE))
    bundle["data"]["datasheet"] = [
        {"id": "grey-knights/paladin-squad", "kind": "datasheet", "name": "Paladin Squad", "keywords": ["INFANTRY"],
         "composition": [{"name": "Paragon", "min": 1, "max": 1}, {"name": "Paladins", "min": 3, "max": 9}],
         "models": [{"name": "Paladin", "T": 5, "Sv": 2, "invulnerable": 4, "W": 3}]},
        {"id": "imperial-agents/inquisitor", "kind": "datasheet", "name": "Inquisitor", "keywords": ["INFANTRY"]},
    ]
    (tmp_path / "warscribe.json").write_text(json.dumps(bundle), encoding="utf-8")
    proc = _run("--weapons", "warscribe.json", "--targets", "warscribe.json", "--out", "kb.csv", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "skipped target imperial-agents/inquisitor: no model characteristics" in proc.stderr
    with (tmp_path / "kb.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["weapon"] for r in rows] == [w["id"] for w in BUNDLE["data"]["weapon"]]
    assert {r["target"] for r in rows} == {"grey-knights/paladin-squad"}
    psilencer = rows[0]
    r = evaluate({"ruleset": "10e", "attacker": {"weapons": [{"models": 1, "ref": "grey-knights/paladin-squad/psilencer"}]},
                  "target": {"toughness": 5, "save": 2, "invulnerable": 4, "wounds": 3, "models": 4,
                             "keywords": ["INFANTRY"]}}, kb=bundle)
    assert abs(float(psilencer["expected_wounds_removed"]) - r.expected_wounds_removed) <= 1e-9


@pytest.mark.parametrize("args, message", [
    (["--targets", "units.tsv"], "a units TSV has no model counts: give --target-models N"),
    (["--targets", "missing.yaml"], "missing.yaml: cannot read"),
    (["--out", "x.txt"], "the name must end in .csv or .npz"),
    (["--weapons", "units.tsv"], "missing column(s) type, range, A, BS_WS, S, AP, D, keywords"),
    (["--models", "0"], "--models: 0 is not from 1 to 100"),
])
def test_cli_errors_are_one_line_without_traceback(small_inputs, args, message):
    base = {"--weapons": "weapons.tsv", "--targets": "targets.yaml", "--out": "e.csv"}
    flags = dict(zip(args[::2], args[1::2]))
    argv = [x for k, v in {**base, **flags}.items() for x in (k, v)]
    proc = _run(*argv, cwd=small_inputs)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_reference_target_with_a_bad_field_is_listed_not_dropped(tmp_path):
    rows = reference_targets_from([{"name": "ok", "toughness": 4, "save": 3, "wounds": 2, "models": 5},
                                   {"name": "bad", "toughness": 4, "save": 9, "wounds": 2, "models": 5}])
    assert rows[0].value is not None
    assert rows[1].value is None and rows[1].reason.startswith("save: 9 is greater than the maximum of 7")
