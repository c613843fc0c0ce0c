"""Keyword expressions: one test per bullet of the core rules' keyword list, and the seeds' TARGETs.

The rules are the bullets at the top of sources/rules-extract-inquisitors-hand.11e.txt.
"""

from __future__ import annotations

import pytest

from warscribe.extract.keyexpr import Known, parse_list, parse_phrase, parse_restriction, split_keywords
from warscribe.extract.pipeline import extract
from warscribe.schema.keywords import describe, matches, same_keyword, unit_keywords

from conftest import ROOT

KNOWN = Known(["INFANTRY", "PSYKER", "CHARACTER", "VEHICLE", "MONSTER", "GRENADES", "TERMINATOR", "GREY KNIGHTS",
               "AGENTS OF THE IMPERIUM", "PALADIN SQUAD", "INQUISITOR", "DEATHWATCH", "TRANSPORT", "IMPERIUM"])


def kw(name: str) -> dict:
    return {"keyword": name}


@pytest.fixture(scope="module")
def seeds():
    return {r["id"]: r for r in extract(ROOT / "sources" / "manifest.yaml").records}


# -- 'A unit has all the keywords of all models in that unit' / mixed units ---------------------

def test_a_mixed_unit_has_every_models_keywords():
    unit = unit_keywords({"keywords": ["INFANTRY"], "faction_keywords": ["GREY KNIGHTS"],
                          "models": [{"name": "Rider", "keywords": ["MOUNTED"]}, {"name": "Walker", "keywords": ["VEHICLE"]}]})
    assert set(unit) == {"INFANTRY", "GREY KNIGHTS", "MOUNTED", "VEHICLE"}
    # ... so it is affected by rules for any of its models' keywords, and escapes no 'non-' rule for them.
    assert matches(kw("VEHICLE"), unit) and matches(kw("INFANTRY"), unit)
    assert not matches(parse_phrase("non-VEHICLE units", KNOWN), unit)
    assert matches(parse_phrase("One MONSTER/VEHICLE unit", KNOWN), unit)


# -- 'non-KEYWORD' ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["non-VEHICLE units", "a non-VEHICLE unit", "non-VEHICLE"])
def test_non_keyword_excludes(text):
    expr = parse_phrase(text, KNOWN)
    assert expr == {"not": kw("VEHICLE")}
    assert matches(expr, ["INFANTRY"]) and not matches(expr, ["VEHICLE", "WALKER"])
    assert describe(expr) == "non-VEHICLE"


def test_non_inside_a_list_and_excluding_clauses():
    expr = parse_list("non-CHARACTER INFANTRY", KNOWN)  # an INFANTRY unit that is not a CHARACTER
    assert expr == {"all": [{"not": kw("CHARACTER")}, kw("INFANTRY")]}
    assert matches(expr, ["INFANTRY"]) and not matches(expr, ["INFANTRY", "CHARACTER"])
    assert describe(expr) == "non-CHARACTER INFANTRY"
    expr = parse_phrase("One friendly unengaged unit (excluding TITANIC units).", KNOWN)
    assert expr == {"not": kw("TITANIC")}
    expr = parse_phrase("One AGENTS OF THE IMPERIUM CHARACTER unit from your army (excluding OFFICIO ASSASSINORUM units)", KNOWN)
    assert expr == {"all": [kw("AGENTS OF THE IMPERIUM"), kw("CHARACTER"), {"not": kw("OFFICIO ASSASSINORUM")}]}
    assert matches(expr, ["AGENTS OF THE IMPERIUM", "CHARACTER", "INQUISITOR"])
    assert not matches(expr, ["AGENTS OF THE IMPERIUM", "CHARACTER", "OFFICIO ASSASSINORUM"])


def test_restrictions_exclude_units():
    assert parse_restriction("You cannot target a TITANIC unit with this Stratagem. You can only use it once.", KNOWN) == {"not": kw("TITANIC")}
    only_walkers = parse_restriction("You can only select a VEHICLE unit from your army if it is a WALKER.", KNOWN)
    assert matches(only_walkers, ["INFANTRY"]) and matches(only_walkers, ["VEHICLE", "WALKER"])
    assert not matches(only_walkers, ["VEHICLE"])
    assert parse_restriction("You can only use this Stratagem once per turn.", KNOWN) is None


# -- comma, slash and 'or' lists: any one of them -----------------------------------------------

def test_comma_and_or_list_means_any():
    expr = parse_phrase("an IMMORTALS, DEATHMARKS or LYCHGUARD unit", KNOWN)
    assert expr == {"any": [kw("IMMORTALS"), kw("DEATHMARKS"), kw("LYCHGUARD")]}
    assert matches(expr, ["DEATHMARKS", "INFANTRY"]) and not matches(expr, ["WARRIORS"])


def test_slash_list_means_any():
    expr = parse_phrase("MONSTER/VEHICLE", KNOWN)
    assert expr == {"any": [kw("MONSTER"), kw("VEHICLE")]}
    assert matches(expr, ["MONSTER"]) and matches(expr, ["VEHICLE"]) and not matches(expr, ["INFANTRY"])
    assert describe(expr) == "MONSTER or VEHICLE"


def test_or_between_groups_of_adjacent_keywords():
    expr = parse_phrase("One INQUISITOR or DEATHWATCH INFANTRY unit from your army.", KNOWN)
    assert expr == {"any": [kw("INQUISITOR"), {"all": [kw("DEATHWATCH"), kw("INFANTRY")]}]}
    assert matches(expr, ["INQUISITOR", "CHARACTER"])
    assert not matches(expr, ["DEATHWATCH", "VEHICLE"])


# -- adjacent keywords: all of them ----------------------------------------------------------

def test_adjacent_keywords_mean_all():
    expr = parse_phrase("One PSYKER INFANTRY unit from your army.", KNOWN)
    assert expr == {"all": [kw("PSYKER"), kw("INFANTRY")]}
    assert matches(expr, ["PSYKER", "INFANTRY", "TERMINATOR"])
    assert not matches(expr, ["PSYKER", "VEHICLE"])


def test_adjacent_multi_word_keywords_split_by_the_known_ones():
    expr = parse_phrase("One AGENTS OF THE IMPERIUM CHARACTER unit", KNOWN)
    assert expr == {"all": [kw("AGENTS OF THE IMPERIUM"), kw("CHARACTER")]}
    assert parse_phrase("an AELDARI GUARDIANS unit", Known(["AELDARI", "GUARDIANS"])) == {"all": [kw("AELDARI"), kw("GUARDIANS")]}


@pytest.mark.parametrize("words, expected", [
    ("PALADIN SQUAD", ["PALADIN SQUAD"]),  # known as one keyword, though PALADIN SQUAD could be two words
    ("GREY KNIGHTS TERMINATOR SQUAD", ["GREY KNIGHTS TERMINATOR SQUAD"]),  # ends in a word no keyword explains
    ("AGENTS OF THE IMPERIUM GRENADES", ["AGENTS OF THE IMPERIUM", "GRENADES"]),
    ("ADEPTUS CUSTODES INFANTRY", ["ADEPTUS CUSTODES", "INFANTRY"]),  # unknown faction, known keyword at the end
    ("VINDICARE ASSASSIN", ["VINDICARE ASSASSIN"]),
])
def test_multi_word_keywords(words, expected):
    assert split_keywords(words.split(), KNOWN) == expected


# -- 'older rules use keywords without model or unit' ----------------------------------------

def test_keywords_without_model_or_unit():
    assert parse_phrase("TRANSPORT", KNOWN) == kw("TRANSPORT")
    assert parse_phrase("INQUISITOR or MINISTORUM PRIEST model only.", KNOWN) == {"any": [kw("INQUISITOR"), kw("MINISTORUM PRIEST")]}


# -- singular and plural ----------------------------------------------------------------------

def test_a_curly_apostrophe_is_the_same_keyword():
    assert same_keyword("T’AU EMPIRE", "T'AU EMPIRE") and matches({"keyword": "T’AU EMPIRE"}, ["T'AU EMPIRE"])


def test_singular_and_plural_are_the_same_keyword():
    assert same_keyword("CHARACTER", "CHARACTERS") and same_keyword("TERMINATORS", "terminator")
    assert not same_keyword("PSYKER", "PSYKERISH")
    assert parse_phrase("(excluding CHARACTERS)", KNOWN) == {"not": kw("CHARACTER")}  # the known spelling
    assert matches(kw("TERMINATORS"), ["TERMINATOR"]) and matches(kw("TERMINATOR"), ["TERMINATORS"])
    assert matches(kw("GRENADES"), ["GRENADES"]) and not matches(kw("GRENADES"), ["GRENADE LAUNCHER"])


def test_no_keyword_is_any_unit():
    assert parse_phrase("One unit from your army that has not been selected to shoot this phase.", KNOWN) is None
    assert matches(None, []) and describe(None) == "any unit"


# -- the seeds ---------------------------------------------------------------------------------

def test_seed_targets_are_parsed_and_valid(seeds):
    strat = seeds["grey-knights/sanctic-spearhead/truesilver-will"]
    assert strat["target_keywords"] == {"all": [kw("PSYKER"), kw("VEHICLE")]}
    assert strat["targets"] == []  # the Paladin Squad is no VEHICLE
    assert seeds["imperial-agents/imperialis-fleet/displacer-field"]["target_keywords"] == {
        "all": [kw("AGENTS OF THE IMPERIUM"), kw("CHARACTER"), {"not": kw("OFFICIO ASSASSINORUM")}]}
    assert seeds["core-10e/fire-overwatch"]["target_keywords"] == {"not": kw("TITANIC")}  # from RESTRICTIONS
    assert seeds["grey-knights/baneslayer-strike/sanctic-circle"]["target_keywords"] == {
        "any": [kw("CHARACTER"), kw("PALADIN SQUAD")]}
    assert seeds["imperial-agents/ordo-hereticus-purgation-force/enhancements/ignis-judicium"]["restriction_keywords"] == {
        "any": [kw("INQUISITOR"), kw("MINISTORUM PRIEST")]}


def test_datasheets_list_the_stratagems_that_can_target_them(seeds):
    paladins = seeds["grey-knights/paladin-squad"]
    inquisitor = seeds["imperial-agents/inquisitor"]
    # TERMINATOR-only, PSYKER INFANTRY and CHARACTER or PALADIN SQUAD stratagems reach the Paladins...
    for sid in ("grey-knights/hallowed-conclave/giants-of-the-battlefield", "grey-knights/banishers/celerity",
                "grey-knights/baneslayer-strike/sanctic-circle", "core-10e/go-to-ground"):
        assert sid in paladins["stratagems"] and "grey-knights/paladin-squad" in seeds[sid]["targets"]
    # ... a PSYKER VEHICLE one does not, nor another faction's or ruleset's.
    assert "grey-knights/sanctic-spearhead/truesilver-will" not in paladins["stratagems"]
    assert not any(s.startswith("imperial-agents/") or s.startswith("core-11e/") for s in paladins["stratagems"])
    # The Inquisitor is an AGENTS OF THE IMPERIUM CHARACTER but no ORDO HERETICUS / ADEPTUS ARBITES unit.
    assert "imperial-agents/veiled-blade-elimination-force/hyperstimms" in inquisitor["stratagems"]
    assert "imperial-agents/ordo-hereticus-purgation-force/exact-punishment" not in inquisitor["stratagems"]
    assert "imperial-agents/ordo-malleus-daemon-hunters/rites-of-exorcism" in inquisitor["stratagems"]
    for ds in (paladins, inquisitor):
        for sid in ds["stratagems"]:
            assert ds["id"] in seeds[sid]["targets"]
