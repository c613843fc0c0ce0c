"""A datasheet page's lists as a player reads them (issue 44): "Led by" in alphabetical order, each unit
once; a stratagem several detachments print alike shown once, naming its detachments; the damage
table in the weapon tables' order."""

from __future__ import annotations

import re

import pytest

from warscribe.schema import bundle as bundle_module
from warscribe.schema import records
from warscribe.site import generate, urls

SRC = [{"file": "data.json", "first_line": 1, "last_line": 2, "ruleset": "10e"}]
F = "space-marines"


def _strat(det: str, name: str, effect: str) -> dict:
    return records.stratagem(id=f"{det}/{name.lower().replace(' ', '-')}", name=name, ruleset="10e", cp=1,
                             category="Battle Tactic", origin="detachment", detachment=det, effect=effect,
                             target="One ADEPTUS ASTARTES unit.", when="Your opponent's Shooting phase.", source=SRC)


def _records() -> list[dict]:
    out = []
    for det, own in ((f"{F}/gladius", "Storm of Fire"), (f"{F}/firestorm", "Burning Vengeance"),
                     (f"{F}/anvil", "Not One Step Back")):
        out.append(records.detachment(id=det, name=det.split("/")[1].title(), ruleset="10e", faction="Space Marines",
                                      rule=None, stratagems=[], enhancements=[], source=SRC))
        out.append(_strat(det, "Armour of Contempt", "Worsen the Armour Penetration of that attack by 1."))
        out.append(_strat(det, own, "A stratagem of its own detachment."))
    weapons = [("bolt-rifle", "Bolt rifle", "ranged"), ("close-combat-weapon", "Close combat weapon", "melee"),
               ("bolt-pistol", "Bolt pistol", "ranged")]
    out.append(records.datasheet(
        id=f"{F}/intercessor-squad", name="Intercessor Squad", ruleset="10e", faction="Space Marines",
        keywords=["INFANTRY"], faction_keywords=["ADEPTUS ASTARTES"], composition=[], points=[], abilities=[],
        weapons=[f"{F}/intercessor-squad/{w}" for w, _n, _t in weapons], wargear_options=[],
        led_by={"text": "This unit can be led by the following units:",
                "units": ["Lieutenant", "Captain", "Chaplain", "Captain", "ancient"]}, source=SRC))
    for wid, name, kind in weapons:
        out.append(records.weapon(id=f"{F}/intercessor-squad/{wid}", name=name, ruleset="10e",
                                  datasheet=f"{F}/intercessor-squad", type=kind, range=None if kind == "melee" else 24,
                                  attacks=2, skill=3, strength=4, ap=-1, damage=1, abilities=[], source=SRC))
    return out


@pytest.fixture(scope="module")
def page_html(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("lists")
    b = bundle_module.from_records(_records(), {"sources": [{"file": "data.json", "ruleset": "10e", "sha256": "0" * 64}]})
    generate(b, [], out)
    return (out / "site-src" / "docs" / urls.file_of(urls.record_url({"id": f"{F}/intercessor-squad",
                                                                       "kind": "datasheet"}))).read_text(encoding="utf-8")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_led_by_in_alphabetical_order_each_unit_once(page_html):
    section = page_html[page_html.index(">Led by<"):]
    section = section[:section.index("<h2")]
    assert re.findall(r"<li>([^<]*)</li>", section) == ["ancient", "Captain", "Chaplain", "Lieutenant"]


def test_a_stratagem_printed_alike_in_several_detachments_is_shown_once(page_html):
    section = page_html[page_html.index('id="stratagems"'):]
    text = _text(section)
    assert text.count("Armour of Contempt") == 1, text
    shared = section[section.index("In several detachments"):]
    shared = shared[:shared.index("</details>")]
    assert all(name in _text(shared) for name in ("Anvil", "Firestorm", "Gladius"))
    for own in ("Storm of Fire", "Burning Vengeance", "Not One Step Back"):
        assert text.count(own) == 1
    assert "4 stratagems in 4 groups" in text  # three detachments' own, and the one they share


def test_the_damage_table_lists_weapons_as_the_weapon_tables_do(page_html):
    tables = [page_html.index(f'id="{a}"') for a in ("ranged-weapons", "melee-weapons", "damage")]
    order = lambda html: [m for m in re.findall(r"(Bolt rifle|Bolt pistol|Close combat weapon)", html)]
    weapons_order = order(page_html[tables[0]:tables[2]])
    damage = page_html[tables[2]:]
    damage = damage[damage.index("<table"):damage.index("</table>")]
    assert order(damage) == list(dict.fromkeys(weapons_order)) == ["Bolt rifle", "Bolt pistol", "Close combat weapon"]


def test_a_legends_datasheet_is_badged_listed_apart_and_labelled_in_search(tmp_path):
    recs = _records() + [records.datasheet(
        id=f"{F}/hornet-legends", name="Hornet", ruleset="10e", faction="Space Marines", keywords=["VEHICLE"],
        faction_keywords=["ADEPTUS ASTARTES"], composition=[], points=[], abilities=[], weapons=[],
        wargear_options=[], legends=True, source=SRC)]
    b = bundle_module.from_records(recs, {"sources": [{"file": "data.json", "ruleset": "10e", "sha256": "0" * 64}]})
    generate(b, [], tmp_path)
    docs = tmp_path / "site-src" / "docs"
    page = (docs / urls.file_of(urls.record_url({"id": f"{F}/hornet-legends", "kind": "datasheet"}))).read_text(
        encoding="utf-8")
    assert "ws-legends" in page.split("</h1>", 1)[0] + page[:4000]  # the badge beside its name
    faction = (docs / urls.file_of(urls.faction_url("Space Marines"))).read_text(encoding="utf-8")
    legends = faction[faction.index('id="legends"'):]
    assert "Hornet" in legends and "Intercessor Squad" not in legends  # apart, and only the Legends ones
    assert "Hornet" not in faction[:faction.index('id="legends"')].split('id="datasheets"', 1)[-1]
    import json
    titles = json.loads((docs / "search" / "titles.json").read_text(encoding="utf-8"))
    row = next(r for r in titles["pages"] if r[0] == "Hornet")
    assert titles["contexts"][row[2]].endswith("Legends")
