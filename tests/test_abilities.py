"""The weapon-ability parser on every notation the sources use."""

from __future__ import annotations

import json

import pytest

from warscribe.schema.abilities import (ABILITIES, canonical_text, find_mentions, parse_ability, parse_ability_list,
                               split_weapon_name)
from warscribe.schema.registry import schema


def ids(abilities):
    return [a["id"] for a in abilities]


@pytest.mark.parametrize("cell, name, expected", [
    ("Psilencer [precision, psychic, sustained hits 1]", "Psilencer", ["precision", "psychic", "sustained-hits"]),
    ("Incinerator [ignores cover, torrent]", "Incinerator", ["ignores-cover", "torrent"]),
    ("Combi-weapon anti-infantry 4+ devastating wounds rapid fire 1", "Combi-weapon",
     ["anti", "devastating-wounds", "rapid-fire"]),
    ("Bolt pistol pistol", "Bolt pistol", ["pistol"]),
    ("Psychic Shock Wave devastating wounds psychic torrent", "Psychic Shock Wave",
     ["devastating-wounds", "psychic", "torrent"]),
    ("Force weapon psychic", "Force weapon", ["psychic"]),
    ("Inquisitorial melee weapon", "Inquisitorial melee weapon", []),
    ("Heavy bolter heavy sustained hits 1", "Heavy bolter", ["heavy", "sustained-hits"]),
    ("Storm bolter [rapid fire 2]", "Storm bolter", ["rapid-fire"]),
    ("➤ Plasma incinerator – Supercharge assault hazardous heavy", "Plasma incinerator – Supercharge",
     ["assault", "hazardous", "heavy"]),
])
def test_split_weapon_name_both_notations(cell, name, expected):
    got_name, abilities, problems = split_weapon_name(cell)
    assert (got_name, ids(abilities)) == (name, expected)
    assert problems == []


def test_run_on_parameters_are_parsed():
    _, abilities, _ = split_weapon_name("Combi-weapon anti-infantry 4+ devastating wounds rapid fire 1")
    assert abilities[0] == {"id": "anti", "text": "anti-infantry 4+", "keyword": "INFANTRY", "threshold": 4}
    assert abilities[2] == {"id": "rapid-fire", "text": "rapid fire 1", "value": 1}


@pytest.mark.parametrize("text, expected", [
    ("Twin-linked", {"id": "twin-linked"}),
    ("Twin-Linked", {"id": "twin-linked"}),
    ("Twin Linked", {"id": "twin-linked"}),
    ("Anti-INFANTRY 4+", {"id": "anti", "keyword": "INFANTRY", "threshold": 4}),
    ("Anti-infantry 4+", {"id": "anti", "keyword": "INFANTRY", "threshold": 4}),
    ("Anti Vehicle 3+", {"id": "anti", "keyword": "VEHICLE", "threshold": 3}),
    ("Anti-Epic Hero 2+", {"id": "anti", "keyword": "EPIC HERO", "threshold": 2}),
    ("Rapid Fire D6", {"id": "rapid-fire", "value": "D6"}),
    ("Rapid Fire D6+3", {"id": "rapid-fire", "value": "D6+3"}),
    ("Sustained Hits D3", {"id": "sustained-hits", "value": "D3"}),
    ("Melta 2", {"id": "melta", "value": 2}),
    ("[BLAST]", {"id": "blast"}),
    ("[BLAST 2]", {"id": "blast", "value": 2}),
    ("[CLOSE-QUARTERS]", {"id": "close-quarters"}),
    ("Devastating Wounds: INFANTRY", {"id": "devastating-wounds", "condition": "INFANTRY"}),
    ("[LETHAL HITS]", {"id": "lethal-hits"}),
    ("Ignores cover", {"id": "ignores-cover"}),
])
def test_parse_ability_variants(text, expected):
    ability, problems = parse_ability(text)
    assert problems == []
    assert {k: v for k, v in ability.items() if k != "text"} == expected
    assert ability["text"] == text  # kept as written


@pytest.mark.parametrize("text, value, message", [
    ("[SUSTAINED HITS liability", 1, "read as '1'"),
    ("Anti-fly 2", None, "without '+'"),
    ("[IGNORES COvER]", None, "capitalisation"),
    ("[ANTI-INFANTRy 2+]", None, "capitalisation"),
])
def test_scraping_damage_is_normalised_and_reported(text, value, message):
    ability, problems = parse_ability(text)
    assert ability is not None and ability["text"] == text
    if value is not None:
        assert ability["value"] == value
    assert any(message in p.message for p in problems), problems


def test_unknown_entries_become_custom_and_are_reported():
    abilities, problems = parse_ability_list("Assault, Bubblechukka, -")
    assert abilities[1] == {"id": "custom", "text": "Bubblechukka", "name": "Bubblechukka"}
    assert [p.text for p in problems] == ["Bubblechukka"]
    assert parse_ability_list("-") == ([], [])


def test_mentions_in_running_text():
    text = ("have the [SUSTAINED HITS liability. Also [IGNORES COvER], [ANTI-INFANTRy 2+] and "
            "[ANTI-MONSTER 4+]; not [ANTI-X Y+], [BLAST X] or the heading [ANTI].")
    mentions, problems = find_mentions(text)
    assert [canonical_text(m) for m in mentions] == [
        "SUSTAINED HITS 1", "IGNORES COVER", "ANTI-INFANTRY 2+", "ANTI-MONSTER 4+"]
    assert len(problems) == 4  # unclosed bracket, OCR digit, two capitalisation warnings


def test_parser_vocabulary_matches_the_schema():
    """schema/weapon-ability.schema.json is the contract; the parser must know exactly its ids."""
    enum = set(schema("weapon-ability")["properties"]["id"]["enum"])
    assert enum == set(ABILITIES) | {"custom"}


def test_parsed_abilities_validate_against_the_schema():
    from warscribe.schema.registry import validator
    v = validator("weapon-ability")
    abilities, _ = parse_ability_list("Anti-INFANTRY 4+, Rapid Fire D6+3, Blast, Melta 2, Devastating Wounds: INFANTRY, Foo")
    for a in abilities:
        assert list(v.iter_errors(a)) == [], json.dumps(a)
