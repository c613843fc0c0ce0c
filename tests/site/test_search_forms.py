"""A weapon ability's page is found by the forms weapons write it in ('anti-infantry' finds [ANTI])."""

from __future__ import annotations

from warscribe.site import search
from warscribe.site.record_pages import _forms_used


class _Site:
    def __init__(self, weapons):
        self._weapons = weapons

    def weapons_with_ability(self, rec):
        return self._weapons


def _weapon(*abilities):
    return {"kind": "weapon", "ruleset": "10e", "abilities": list(abilities)}


ANTI = {"id": "10e/abilities/anti", "kind": "ability", "name": "Anti", "ruleset": "10e", "type": "weapon",
        "ability_id": "anti"}


def test_the_forms_weapons_use_are_other_titles_of_the_ability():
    site = _Site([_weapon({"id": "anti", "text": "[ANTI-INFANTRY 4+]", "keyword": "INFANTRY", "threshold": 4}),
                  _weapon({"id": "anti", "text": "[ANTI-INFANTRY 4+]", "keyword": "INFANTRY", "threshold": 4},
                          {"id": "lethal-hits", "text": "[LETHAL HITS]"}),
                  _weapon({"id": "anti", "text": "[ANTI-VEHICLE 2+]", "keyword": "VEHICLE", "threshold": 2})])
    forms = _forms_used(site, ANTI)
    # The most used first; the keyword alone as players say it; another ability's form never.
    assert forms == ["ANTI-INFANTRY", "ANTI-INFANTRY 4+", "ANTI-VEHICLE", "ANTI-VEHICLE 2+"]
    words = {w for f in forms for w in search.tokens(f)}
    assert set(search.tokens("anti-infantry")) <= words


def test_a_rule_that_is_not_a_weapon_ability_has_no_forms():
    assert _forms_used(_Site([]), dict(ANTI, type="core")) == []
    assert _forms_used(_Site([]), ANTI) == []
