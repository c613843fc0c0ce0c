"""The 10th -> 11th edition migration: every faction's units matched across the editions, with counts.

The 10th edition is the BattleScribe snapshot (``bsdata-10e``), the 11th the whole live edition
(``examples/11e``: the app's data, the Field Manual and BattleScribe's 11th), both built once per run (``realdata.build``). Held here: the editions are told
from the builds' records; every 11th-edition faction has its units matched (by faction and
name, then the merge's loose rules) and counted; the weapon-ability renames are the ones the
data shows (checked here by counting, weapon by weapon, where [PISTOL] became [CLOSE-QUARTERS]);
Leader / Support changes and points are reported; the site's pages follow from the ledger.
"""

from __future__ import annotations

from collections import Counter

import pytest

import realdata
from warscribe.ledger import across_editions
from warscribe.ledger.migration import edition, match_units, render_markdown, render_text
from warscribe.ledger.model import Side
from warscribe.schema import bundle

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    old = bundle.load(realdata.build(tmp_path_factory, "bsdata-10e"))
    new = bundle.load(realdata.example(tmp_path_factory, "11e"))
    book = across_editions(old, new, (Side("10e", "10e"), Side("11e", "11e")))
    return old, new, book


def test_editions_are_told_from_the_records(both):
    old, new, book = both
    assert (edition(old), edition(new)) == ("10e", "11e")
    assert book is not None and book.migration is not None and not book.items
    assert across_editions(new, new, (Side("a", "a"), Side("b", "b"))) is None


def test_a_report_for_every_faction_with_counts(both):
    _old, new, book = both
    m = book.migration
    factions = {r["faction"] for r in new.kind("datasheet") if not r.get("game_mode")}
    matched = Counter(u.faction for u in m.units)
    for faction in sorted(factions):
        s = m.summary(faction)
        print(f"{faction:<24} units {s['matched']:>3}  changed {s['changed']:>3}  only 10e {s['only_old']:>3}  "
              f"only 11e {s['only_new']:>3}  points {s['points']:>3}  lead/sup {s['attach']:>2}  "
              f"w.abilities {s['weapon-ability']:>3}")
        assert matched[faction] > 0, faction
        # most of a faction's 11th-edition units have a 10th-edition datasheet
        assert s["matched"] >= 2 * s["only_new"], (faction, s)
    total = m.summary()
    assert total["matched"] > 900 and total["changed"] > 500
    text = render_text(m)
    assert all(f"== {f} ==" in text for f in factions)
    assert "| faction |" in render_markdown(m)


def test_renames_are_what_the_data_shows(both):
    old, new, book = both
    m = book.migration
    renames = {(r["old"], r["new"]) for r in m.renames}
    # counted here, weapon by weapon, apart from ability_renames: matched units' weapons of one name
    # that had [PISTOL] in 10th and have [CLOSE-QUARTERS] (and not [PISTOL]) in 11th
    pairs, _a, _b = match_units(old, new)
    swapped = 0
    for a, b, _how in pairs:
        olds = {w["name"].casefold(): w for w in old.weapons_of(a)}
        for w in new.weapons_of(b):
            ids = {x.get("id") for x in w.get("abilities") or []}
            was = olds.get(w["name"].casefold())
            if was and "close-quarters" in ids and "pistol" not in ids \
                    and "pistol" in {x.get("id") for x in was.get("abilities") or []}:
                swapped += 1
    print(f"[PISTOL] -> [CLOSE-QUARTERS] on {swapped} weapons of units of both editions; renames: {sorted(renames)}")
    # The app's own matched-play weapons keep [PISTOL] ([CLOSE-QUARTERS] is on Combat Patrol's); BattleScribe's
    # 11th edition gives it on pistols of units of both editions.
    assert swapped >= 3 and ("pistol", "close-quarters") in renames
    rename = next(r for r in m.renames if r["old"] == "pistol")
    assert rename["weapons"] >= swapped
    lines = [c for u in m.units for c in u.changes if c.kind == "weapon-ability" and c.note == "renamed"]
    assert any("[PISTOL] -> [CLOSE-QUARTERS]" in c.what for c in lines)


def test_leader_support_points_and_units_of_one_edition(both):
    _old, _new, book = both
    m = book.migration
    moved = [u for u in m.units for c in u.changes if c.kind == "attach"]
    assert any(c.new == "Support" for u in moved for c in u.changes if c.kind == "attach")
    assert m.summary()["points"] > 100
    assert m.only_old and all(r["record"] for r in m.only_old)
    assert m.for_record(m.units[0].new_id) is m.units[0]
    data = m.as_dict()
    assert {"summary", "units", "renames", "only_old", "only_new"} <= set(data)


def test_site_pages_from_the_migration(both):
    from warscribe.site import migration_pages

    _old, new, book = both

    class FakeSite:  # what the pages read of a Site: the ledger, the bundle, links
        ledger = book
        bundle = new

        def href(self, page, target):
            return target

        def ref(self, page, rec, text=None, tip=False):
            return f"<a>{text or rec['name']}</a>"

    pages = migration_pages.pages(FakeSite())
    assert pages[0].url == "migration/" and len(pages) == 1 + len(book.migration.factions())
    assert any("From 10th edition" in p.title or p.url.startswith("migration/") for p in pages)
    unit = next(u for u in book.migration.units if u.changes)

    class P:
        url = "datasheet/x/"
        body: list = []

        def section(self, title, html, anchor=None):
            self.body.append((title, html))

    page = P()
    migration_pages.section(FakeSite(), page, new.get(unit.new_id))
    assert page.body and page.body[0][0] == "From 10th edition"
