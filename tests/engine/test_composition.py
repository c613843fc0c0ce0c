"""Composition lines matched to model profiles (engine/composition.py), on names from the whole game.

Each case is a datasheet of the Wahapedia export (upper-case profiles) or of the BattleScribe
data as it reads: its composition lines, its profiles, and which profile each line counts
(None: refused, for the caller to report).
"""

from __future__ import annotations

import pytest

from warscribe.engine.composition import match_lines, singular
from warscribe.engine.errors import ScenarioError
from warscribe.engine.kb import model_kinds

CASES = [
    # 1. The same name, a plural ending aside.
    ("Paladin Squad", ["Paragon", "Paladins"], ["PARAGON", "PALADIN"], [0, 1]),
    # 2. Word by word in the singular.
    ("Sisters Novitiate Squad", ["Novitiate Superior", "Sisters Novitiate"], ["NOVITIATE SUPERIOR", "SISTER NOVITIATE"],
     [0, 1]),
    ("Cadian Command Squad", ["Cadian Commander", "Cadian Veteran Guardsmen"],
     ["CADIAN COMMANDER", "CADIAN VETERAN GUARDSMAN"], [0, 1]),
    ("Boyz", ["Boss Nob", "Boyz"], ["BOY", "BOSS NOB"], [1, 0]),
    # 3. A part of a profile named for several; a profile whose words are all in the line.
    ("Servitor Battleclade", ["Servitor Underseer", "Combat Servitors", "Gun Servitors"],
     ["Servitor Underseer", "Combat Servitors and Gun Servitors"], [0, 1, 1]),
    ("Kroot Farstalkers", ["Kroot Kill-broker", "Kroot Farstalkers", "Kroot Hounds"],
     ["FARSTALKERS & KILL-BROKER", "KROOT HOUNDS"], [0, 0, 1]),
    ("Death Korps Grenadier Squad", ["Grenadier Sergeant", "Grenadiers", "Heavy Weapons Team"],
     ["GRENADIER", "HEAVY WEAPONS TEAM"], [0, 0, 1]),
    ("Kill Team Cassius", ["Kill Team Terminator (Garran Branatar)", "Chaplain Cassius"],
     ["CHAPLAIN CASSIUS", "KILL TEAM TERMINATOR"], [1, 0]),
    # 4. The one profile no line took: sharing a word, or named after the unit.
    ("Intercessor Squad", ["Intercessor Sergeant", "Intercessors"], ["Intercessor Sergeant", "Intercessor Squad"], [0, 1]),
    ("Tactical Squad", ["Tactical Marine Sergeant", "Tactical Marines"], ["Tactical Squad", "Tactical Marine Sergeant"],
     [1, 0]),
    ("Strike Team", ["Fire Warriors", "Fire Warrior Shas'ui"], ["Strike Team", "Fire Warrior Shas'ui"], [0, 1]),
    ("Hybrid Metamorphs", ["Hybrid Metamorphs", "Metamorph Leader"], ["Hybrid Metamorph", "Hybrid Leader"], [0, 1]),
    # ... but not a generic line to a profile it shares nothing with.
    ("Death Korps Grenadier Squad", ["Unit Composition", "Grenadier Sergeant"], ["Grenadier", "Heavy Weapons Team"],
     [None, 0]),
    # 5. A profile with all the line's words and more.
    ("Brokhyr Iron-master", ["Brokhyr Iron-master", "E-COG", "Assistants", "Ironkyn Assistant"],
     ["Brokhyr Iron-master", "E-COG", "Ironkyn Assistant"], [0, 1, 2, 2]),
    # ... unless two have.
    ("Terminator Assault Squad", ["Assault Terminator Sergeant", "Assault Terminators"],
     ["Assault Terminator w/ Storm Shield", "Assault Terminator w/ Lightning Claws", "Assault Terminator Sergeant"],
     [2, None]),
    # 6. Wahapedia's 'OTHER MODELS'.
    ("Rogue Trader Entourage", ["Rogue Trader", "Death Cult Assassin", "Lectro-Maester"], ["ROGUE TRADER", "OTHER MODELS"],
     [0, 1, 1]),
]


@pytest.mark.parametrize("unit, lines, profiles, expected", CASES, ids=[c[0] + f" {i}" for i, c in enumerate(CASES)])
def test_composition_lines_find_their_profiles(unit, lines, profiles, expected):
    assert match_lines(lines, profiles, unit) == expected


def test_plural_endings_of_the_game():
    assert [singular(w) for w in ["Guardsmen", "Boyz", "Stormboyz", "Sisters", "Harpies", "Marines", "Nobz",
                                  "Kroot", "Assault", "Genus", "Ss", "Jackals"]] == [
        "guardsman", "boy", "stormboy", "sister", "harpy", "marine", "nob", "kroot", "assault", "genus", "ss", "jackal"]


def _sheet(composition, models, name="Intercessor Squad"):
    return {"id": "space-marines/x", "name": name, "keywords": ["INFANTRY"], "faction_keywords": [],
            "composition": [{"name": n, "min": lo, "max": hi} for n, lo, hi in composition],
            "models": [{"name": n, "T": 4, "Sv": 3, "W": w} for n, w in models], "abilities": []}


def test_model_kinds_counts_each_line_against_its_profile():
    sheet = _sheet([("Intercessor Sergeant", 1, 1), ("Intercessors", 4, 9)],
                   [("Intercessor Sergeant", 3), ("Intercessor Squad", 2)])
    kinds = model_kinds(sheet, 10, "target")
    assert [(k.name, k.count, k.wounds) for k in kinds] == [("Intercessor Sergeant", 1, 3), ("Intercessor Squad", 9, 2)]


def test_a_line_no_profile_answers_is_refused_by_name():
    sheet = _sheet([("Unit Composition", 9, 9), ("Grenadier Sergeant", 1, 1)],
                   [("Grenadier", 1), ("Heavy Weapons Team", 2)], name="Death Korps Grenadier Squad")
    with pytest.raises(ScenarioError, match="composition line 'Unit Composition' matches no model profile"):
        model_kinds(sheet, 10, "target")
