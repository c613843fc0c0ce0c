"""A datasheet page the extractor has never seen, in the seeds' format, extracts without code changes.

The page (tests/fixtures/pages/) was written from the Hellblaster Squad profiles of the
BattleScribe corpus, mixing both weapon notations and a multi-profile weapon.
"""

from __future__ import annotations

import shutil

from warscribe.extract.pipeline import extract, line_accounting

from conftest import ROOT, write_manifest

PAGE = ROOT / "tests" / "fixtures" / "pages" / "datasheet-space-marines-hellblaster-squad.10e.txt"


def test_new_page_extracts(tmp_path):
    shutil.copy(PAGE, tmp_path / PAGE.name)
    manifest = write_manifest(tmp_path, [{"file": PAGE.name, "ruleset": "10e", "kind": "datasheet-page"}])
    result = extract(manifest)
    by_id = {r["id"]: r for r in result.records}

    ds = by_id["space-marines/hellblaster-squad"]
    assert ds["keywords"] == ["INFANTRY", "IMPERIUM", "GRENADES", "TACTICUS", "HELLBLASTER SQUAD"]
    assert ds["faction_keywords"] == ["ADEPTUS ASTARTES"]
    assert ds["composition"] == [{"name": "Hellblaster Sergeant", "min": 1, "max": 1},
                                 {"name": "Hellblasters", "min": 4, "max": 9}]
    assert [(p["models"], p["points"]) for p in ds["points"]] == [(5, 115), (10, 230)]
    assert ds["weapons"] == [
        "space-marines/hellblaster-squad/bolt-pistol",
        "space-marines/hellblaster-squad/plasma-incinerator-standard",
        "space-marines/hellblaster-squad/plasma-incinerator-supercharge",
        "space-marines/hellblaster-squad/close-combat-weapon",
    ]
    supercharge = by_id["space-marines/hellblaster-squad/plasma-incinerator-supercharge"]
    assert supercharge["name"] == "Plasma incinerator – Supercharge"
    assert [a["id"] for a in supercharge["abilities"]] == ["assault", "hazardous", "heavy"]
    assert (supercharge["strength"], supercharge["ap"], supercharge["damage"]) == (8, -3, 2)
    melee = by_id["space-marines/hellblaster-squad/close-combat-weapon"]
    assert (melee["type"], melee["range"], melee["skill"]) == ("melee", None, 3)

    strat = by_id["space-marines/gladius-task-force/armour-of-contempt"]
    assert strat["category"] == "Battle Tactic" and strat["detachment"] == "space-marines/gladius-task-force"
    assert strat["effect"].startswith("Until the attacking unit has finished")

    assert result.report.errors == []
    assert line_accounting(result.documents[0])["unaccounted"] == 0
