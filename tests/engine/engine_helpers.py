"""Helpers for the engine tests: a small knowledge-base bundle and scenario builders.

The engine tests keep no conftest.py: a second module named `conftest` would shadow
the top-level tests/conftest.py that other test modules import from.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def weapon_record(wid: str, name: str, ruleset: str, **profile) -> dict:
    """A weapon record valid against schema/weapon.schema.json."""
    datasheet = wid.rsplit("/", 1)[0]
    record = {
        "id": wid,
        "kind": "weapon",
        "name": name,
        "ruleset": ruleset,
        "source": [{"file": "sources/x.txt", "first_line": 1, "last_line": 2, "ruleset": ruleset}],
        "datasheet": datasheet,
        "type": "ranged",
        "range": 24,
        "attacks": 1,
        "skill": 3,
        "strength": 4,
        "ap": 0,
        "damage": 1,
        "abilities": [],
    }
    record.update(profile)
    return record


BUNDLE = {
    "meta": {"generator": "tests"},
    "data": {
        "weapon": [
            weapon_record(
                "grey-knights/paladin-squad/psilencer",
                "Psilencer",
                "10e",
                attacks=6,
                skill=2,
                strength=5,
                abilities=[
                    {"id": "precision", "text": "precision"},
                    {"id": "psychic", "text": "psychic"},
                    {"id": "sustained-hits", "text": "sustained hits 1", "value": 1},
                ],
            ),
            weapon_record(
                "grey-knights/paladin-squad/storm-bolter",
                "Storm bolter",
                "10e",
                attacks=2,
                skill=2,
                abilities=[{"id": "rapid-fire", "text": "rapid fire 2", "value": 2}],
            ),
            weapon_record(
                "imperial-agents/inquisitor/bolt-pistol",
                "Bolt pistol",
                "11e",
                range=12,
                abilities=[{"id": "pistol", "text": "pistol"}],
            ),
            weapon_record(
                "grey-knights/brother-captain/bolt-pistol",
                "Bolt pistol",
                "10e",
                range=12,
                skill=2,
                abilities=[{"id": "pistol", "text": "pistol"}],
            ),
        ]
    },
}


def inline(name="Gun", attacks=1, skill=3, strength=4, ap=0, damage=1, abilities=(), range=24, **extra) -> dict:
    out = {
        "name": name,
        "range": range,
        "attacks": attacks,
        "skill": skill,
        "strength": strength,
        "ap": ap,
        "damage": damage,
        "abilities": list(abilities),
    }
    out.update(extra)
    return out


def scenario(groups, target=None, ruleset="11e", conditions=None, modifiers=None, keywords=None) -> dict:
    """A scenario dict; ``groups`` is a list of (models, weapon dict) or (models, 'ref')."""
    weapons = []
    for models, weapon in groups:
        weapons.append({"models": models, "ref": weapon} if isinstance(weapon, str) else {"models": models, "weapon": weapon})
    out = {
        "attacker": {"weapons": weapons},
        "target": target or {"toughness": 4, "save": 3, "wounds": 1, "models": 1},
    }
    if ruleset:
        out["ruleset"] = ruleset
    if conditions:
        out["conditions"] = conditions
    if modifiers:
        out["modifiers"] = modifiers
    if keywords:
        out["attacker"]["keywords"] = keywords
    return out


@pytest.fixture
def bundle_path(tmp_path: Path) -> Path:
    """The bundle above, written where `--kb` can read it (import into a test module to use)."""
    path = tmp_path / "warscribe.json"
    path.write_text(json.dumps(BUNDLE), encoding="utf-8")
    return path


def dist_sd(dist: list[float]) -> float:
    """The standard deviation of a distribution given as probabilities by value."""
    mean = sum(i * p for i, p in enumerate(dist))
    return math.sqrt(max(0.0, sum((i - mean) ** 2 * p for i, p in enumerate(dist))))


def assert_agrees_with_dice(result, simulated, trials: int, models: int) -> None:
    """Exact means and P(wipe) within four standard errors (the exact laws' deviations) of `trials`
    simulated outcomes of the same scenario (a target of `models` models)."""
    wipe = result.p_wipe
    for exact, sd, values in (
            (result.expected_models_slain, dist_sd(result.models_slain), [o.models_slain for o in simulated]),
            (result.expected_wounds_removed, dist_sd(result.wounds_removed), [o.wounds_removed for o in simulated]),
            (wipe, math.sqrt(wipe * (1 - wipe)), [1.0 if o.models_slain == models else 0.0 for o in simulated])):
        mean = sum(values) / trials
        assert abs(mean - exact) <= 4 * sd / math.sqrt(trials) + 1e-9, (exact, mean, sd)
