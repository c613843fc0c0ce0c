"""A small hand-made knowledge base whose records say what the rules say, and helpers to check lists against it.

The whole-game builds' records are still being corrected (points per unit size,
enhancements joined to detachments, leader lists); the checks are tested here against
records that are right, so each test breaks exactly one rule.
"""

from __future__ import annotations

from warscribe.roster import examine, read_data
from warscribe.schema import bundle, records

SOURCE = [{"file": "sources/test.txt", "first_line": 1, "last_line": 1, "ruleset": "10e"}]


def _ds(ruleset, faction, slug, name, keywords, comp, points, fkw=("WORLD EATERS",), **extra):
    return records.make("datasheet", id=f"{slug}", name=name, ruleset=ruleset, faction=faction, keywords=list(keywords),
                        faction_keywords=list(fkw), composition=[{"name": n, "min": a, "max": b} for n, a, b in comp],
                        points=[{"models": m, "points": p, "condition": None} for m, p in points], abilities=[],
                        weapons=[], wargear_options=[], source=[dict(SOURCE[0], ruleset=ruleset)], **extra)


def _attach(units):
    return {"text": "This model can be attached to the following units:", "units": list(units)}


def knowledge_base(ruleset: str = "10e") -> bundle.Bundle:
    we = "World Eaters"
    recs = [
        _ds(ruleset, we, "world-eaters/khorne-berzerkers", "Khorne Berzerkers",
            ["INFANTRY", "BATTLELINE", "CHAOS", "KHORNE", "BERZERKERS"],
            [("Khorne Berzerker Champion", 1, 1), ("Khorne Berzerker", 9, 19)], [(10, 180), (20, 360)],
            led_by=_attach(["Khârn the Betrayer", "Master of Executions"])),
        _ds(ruleset, we, "world-eaters/master-of-executions", "Master of Executions",
            ["INFANTRY", "CHARACTER", "CHAOS", "KHORNE"], [("Master of Executions", 1, 1)], [(1, 60)],
            leader=_attach(["Khorne Berzerkers"])),
        _ds(ruleset, we, "world-eaters/kharn-the-betrayer", "Khârn the Betrayer",
            ["INFANTRY", "CHARACTER", "EPIC HERO", "CHAOS", "KHORNE"], [("Khârn the Betrayer", 1, 1)], [(1, 100)],
            leader=_attach(["Khorne Berzerkers"])),
        _ds(ruleset, we, "world-eaters/slaughterbound", "Slaughterbound",
            ["INFANTRY", "CHARACTER", "DAEMON", "CHAOS", "KHORNE"], [("Slaughterbound", 1, 1)], [(1, 100)],
            leader=_attach(["Exalted Eightbound"])),
        _ds(ruleset, we, "world-eaters/exalted-eightbound", "Exalted Eightbound", ["INFANTRY", "DAEMON", "KHORNE"],
            [("Exalted Eightbound Champion", 1, 1), ("Exalted Eightbound", 2, 5)], [(3, 140), (6, 280)]),
        _ds(ruleset, we, "world-eaters/chaos-rhino", "Chaos Rhino", ["VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"],
            [("Chaos Rhino", 1, 1)], [(1, 85)]),
        _ds(ruleset, we, "world-eaters/maulerfiend", "Maulerfiend", ["VEHICLE", "DAEMON"], [("Maulerfiend", 1, 1)],
            [(1, 145)]),
        _ds(ruleset, "Chaos Space Marines", "chaos-space-marines/chaos-rhino", "Chaos Rhino",
            ["VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"], [("Chaos Rhino", 1, 1)], [(1, 75)],
            fkw=("HERETIC ASTARTES",)),
        _ds(ruleset, "Chaos Space Marines", "chaos-space-marines/chaos-lord", "Chaos Lord",
            ["INFANTRY", "CHARACTER"], [("Chaos Lord", 1, 1)], [(1, 90)], fkw=("HERETIC ASTARTES",)),
        _ds(ruleset, "Black Templars", "black-templars/emperors-champion", "Emperor's Champion",
            ["INFANTRY", "CHARACTER"], [("Emperor's Champion", 1, 1)], [(1, 95)],
            fkw=("ADEPTUS ASTARTES", "BLACK TEMPLARS")),
        records.make("detachment", id="world-eaters/berzerker-warband", name="Berzerker Warband", ruleset=ruleset,
                     faction=we, rule=None, stratagems=[],
                     enhancements=["world-eaters/berzerker-warband/enhancements/berzerker-glaive",
                                   "world-eaters/berzerker-warband/enhancements/favoured-of-khorne",
                                   "world-eaters/berzerker-warband/enhancements/battle-lust"], source=SOURCE),
        records.make("detachment", id="world-eaters/vessels-of-wrath", name="Vessels of Wrath", ruleset=ruleset,
                     faction=we, rule=None, stratagems=[],
                     enhancements=["world-eaters/vessels-of-wrath/enhancements/wrathful-mark"], source=SOURCE),
        records.make("detachment", id="world-eaters/cult-of-blood", name="Cult of Blood", ruleset=ruleset,
                     faction=we, rule=None, stratagems=[], enhancements=[], source=SOURCE),
        records.make("enhancement", id="world-eaters/berzerker-warband/enhancements/berzerker-glaive",
                     name="Berzerker Glaive", ruleset=ruleset, detachment="world-eaters/berzerker-warband", points=35,
                     text="Add 1 to the Attacks.", restriction="WORLD EATERS model only.",
                     restriction_keywords={"keyword": "WORLD EATERS"}, source=SOURCE),
        records.make("enhancement", id="world-eaters/berzerker-warband/enhancements/favoured-of-khorne",
                     name="Favoured of Khorne", ruleset=ruleset, detachment="world-eaters/berzerker-warband", points=15,
                     text="Roll one D6.", restriction="DAEMON model only.", restriction_keywords={"keyword": "DAEMON"},
                     bearers=["world-eaters/slaughterbound"], source=SOURCE),
        records.make("enhancement", id="world-eaters/berzerker-warband/enhancements/battle-lust",
                     name="Battle-lust", ruleset=ruleset, detachment="world-eaters/berzerker-warband", points=10,
                     text="Fights first.", restriction=None, source=SOURCE),
        records.make("enhancement", id="world-eaters/vessels-of-wrath/enhancements/wrathful-mark",
                     name="Wrathful Mark", ruleset=ruleset, detachment="world-eaters/vessels-of-wrath", points=20,
                     text="Re-roll.", restriction=None, source=SOURCE),
    ]
    if ruleset == "11e":
        recs += core_rules_11e()
        dp = {"world-eaters/berzerker-warband": 3, "world-eaters/vessels-of-wrath": 1, "world-eaters/cult-of-blood": 2}
        for r in recs:
            if r["kind"] == "detachment":
                r["detachment_points"] = dp[r["id"]]
    return bundle.from_records(records=recs, origin=f"test-kb-{ruleset}")


def core_rules_11e() -> list[dict]:
    """The app's muster rules as the 11e builds hold them (condensed): the checks read their limits from these."""
    src = [dict(SOURCE[0], ruleset="11e")]
    table = ("These are summarised below.\n<table>\n<tr><td>BATTLE SIZE</td><td>Points Total</td><td>Detachment Points "
             "(DP)</td><td>Enhancement Limit</td><td>Unit Limit*</td></tr>\n<tr><td>INCURSION</td><td>1000</td><td>2"
             "</td><td>2</td><td>2</td></tr>\n<tr><td>STRIKE FORCE</td><td>2000</td><td>3</td><td>4</td><td>3</td>"
             "</tr>\n</table>\n\n* The unit limit for BATTLELINE and DEDICATED TRANSPORT units is double the relevant "
             "amount shown above, and every EPIC HERO has a unit limit of 1, regardless of the battle size.")
    fill = ("No unit (including attached units) can have more than one enhancement.\nYou cannot select the same "
            "detachment more than once.\nSelect one CHARACTER unit to be your Warlord’s unit.\nEach support unit in "
            "your roster must be attached to a bodyguard unit.\nOnly CHARACTER units can be given enhancements.\n"
            "EPIC HEROES models cannot be given enhancements.\nYour army cannot include more than one of the same "
            "enhancement.\nYou can include up to three of the same Upgrade in your army.\n** If you are playing an "
            "Incursion battle, you can select a 3DP detachment as your only detachment.")
    ability = "Unless otherwise stated, each bodyguard unit can only have one leader unit and one support unit."
    return [
        records.make("rule", id="11e/rules/25-03-select-battle-size", name="Select Battle Size", ruleset="11e",
                     number="25.03", title="Select Battle Size", text=table, bullets=[], see_also=[], source=src),
        records.make("rule", id="11e/rules/25-04-fill-your-army-roster", name="Fill Your Army Roster", ruleset="11e",
                     number="25.04", title="Fill Your Army Roster", text=fill, bullets=[], see_also=[], source=src),
        records.make("ability", id="11e/abilities/leader", name="LEADER", ruleset="11e", type="core", number="24.22",
                     text=ability, source=src),
        records.make("ability", id="11e/abilities/support", name="SUPPORT", ruleset="11e", type="core",
                     number="24.23", text=ability, source=src),
    ]


KB10 = knowledge_base("10e")
KB11 = knowledge_base("11e")


def app_list(units: str, *, title: str = "Test (2000 points)", faction: str = "World Eaters",
             size: str = "Strike Force (2000 points)", detachment: str = "Berzerker Warband",
             version: str = "v1.40.1 (94)") -> str:
    """A Warhammer 40,000 app export (10e layout unless `detachment` carries detachment points)."""
    return (f"{title}\n\n{faction}\n{size}\n{detachment}\n\n\n{units.strip()}\n\n"
            f"Exported with App Version: {version}, Data Version: v675")


def check_list(text: str, kbs=None, edition=None, name: str = "list.txt") -> examine.Result:
    return examine(read_data(text.encode("utf-8"), name), kbs if kbs is not None else [KB10], edition)


def codes(result) -> list[tuple[str, int]]:
    return sorted((f.diagnostic.code, f.diagnostic.line) for f in result.findings)


def code_set(result) -> set[str]:
    return {f.diagnostic.code for f in result.findings}


def finding(result, code: str):
    got = [f for f in result.findings if f.diagnostic.code == code]
    assert got, f"no {code} finding; found {codes(result)}"
    return got[0]
