"""The regression corpus of named unit pairs (tests/fixtures/unit-pairs.yaml): what each unit fires
and its four headline numbers, computed once and reviewed, must stay the same (within 1e-9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warscribe.engine import evaluate
from warscribe.schema import safeyaml

PAIRS = safeyaml.load_file(Path(__file__).resolve().parent.parent / "fixtures" / "unit-pairs.yaml")


def _kb(tmp_path_factory, ruleset: str) -> Path:
    import realdata

    folder = realdata.build(tmp_path_factory, "bsdata-10e") if ruleset == "10e" else realdata.example(tmp_path_factory, "11e")
    return folder / "json" / "warscribe.json"


def test_corpus_is_well_formed():
    names = [(p["name"], p["ruleset"]) for p in PAIRS]
    assert len(names) == len(set(names)) and {p["ruleset"] for p in PAIRS} == {"10e", "11e"}
    for pair in PAIRS:
        assert set(pair["expected"]) == {"expected_damage", "expected_wounds_removed", "expected_models_slain", "p_wipe"}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["10e", "11e"])
def test_named_pairs(tmp_path_factory, ruleset):
    kb = _kb(tmp_path_factory, ruleset)
    for pair in (p for p in PAIRS if p["ruleset"] == ruleset):
        result = evaluate({"attacker": pair["attacker"], "target": pair["target"]}, kb)
        assert [f"{g.models} x {g.name}" for g in result.groups] == pair["fires"], pair["name"]
        for key, expected in pair["expected"].items():
            assert getattr(result, key) == pytest.approx(expected, abs=1e-9), (pair["name"], key)
