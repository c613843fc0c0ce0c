"""The engine against W40kDiviner's recorded values, where both model the same rules (issue 42).

tests/fixtures/peer-w40kdiviner.json holds the peer's outputs for the bench's scenarios
(tests/fixtures/make_peer_values.py writes it from a checkout of the peer): the five
reference scenarios and every single-profile target, in both editions. Both calculators are
exact, so they must agree to rounding.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warscribe.engine import evaluate

CASES = json.loads((Path(__file__).parents[1] / "fixtures" / "peer-w40kdiviner.json").read_text(encoding="utf-8"))


def test_the_record_names_its_peer_and_covers_both_editions():
    assert CASES["peer"] == "github.com/aturchi/W40kDiviner" and len(CASES["commit"] or "") == 40
    assert {c["scenario"].get("ruleset") for c in CASES["cases"]} == {"10e", "11e"}
    assert len(CASES["cases"]) >= 70


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["name"])
def test_the_engine_gives_the_peers_values(case):
    ours = evaluate(case["scenario"])
    for key, theirs in case["peer"].items():
        assert getattr(ours, key) == pytest.approx(theirs, rel=1e-9, abs=1e-12), (case["name"], key)
