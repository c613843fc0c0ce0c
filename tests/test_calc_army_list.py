"""A unit of an army list as the attacker or target of `warscribe calc` (issue 42): its models and weapons
as listed, the characters the list attaches to it, against the live edition's knowledge base."""

from __future__ import annotations

import json

import pytest

import realdata
from conftest import rosters_path
from warscribe import cli
from warscribe.army_units import side_from_list
from warscribe.engine.errors import ScenarioError

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return str(realdata.example(tmp_path_factory, "11e"))


def test_a_listed_unit_keeps_its_models_weapons_and_attached_character(kb):
    side, notes = side_from_list(str(rosters_path("gwapp11e-darkangels-1.txt")), "Deathwing Terminator Squad", kb)
    assert side["datasheet"] == "dark-angels/deathwing-terminator-squad" and side["models"] == 5
    # '4x Deathwing Terminator: 1x Cyclone missile launcher, 4x Power fist, 4x Storm bolter' and the sergeant's line.
    assert side["loadout"] == [{"models": 1, "weapons": ["Power weapon", "Storm bolter"]},
                               {"models": 1, "weapons": ["Cyclone missile launcher", "Power fist", "Storm bolter"]},
                               {"models": 3, "weapons": ["Power fist", "Storm bolter"]}]
    assert side["attached"] == ["space-marines/ancient-in-terminator-armour"]
    assert any("Watcher in the Dark" in n for n in notes)  # wargear without a profile: said, not fired


def test_a_character_stands_for_the_unit_it_leads(kb):
    path = str(rosters_path("gwapp11e-darkangels-1.txt"))
    by_line, _ = side_from_list(path, "12", kb)  # the Ancient's line: Attached Unit 1's Support
    assert by_line["datasheet"] == "dark-angels/deathwing-knights" and by_line["attached"]


def test_a_name_the_list_does_not_have_is_an_error_naming_its_units(kb):
    with pytest.raises(ScenarioError, match="no unit named 'Land Raider'"):
        side_from_list(str(rosters_path("gwapp11e-darkangels-1.txt")), "Land Raider", kb)


def test_calc_with_a_listed_attacker(kb, capsys):
    status = cli.main(["calc", "--roster", str(rosters_path("gwapp11e-darkangels-1.txt")), "--attacker", "Azrael",
                       "--target", "Leman Russ Battle Tank", "--kb", kb, "--fight", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["expected_wounds_removed"] > 0
    assert {w["name"] for w in out["weapons"]} == {"The Sword of Secrets"}
