"""Stratagems at the table (site/stratagem_cards.py): a page per faction and per
detachment, CP and phase on every card, the phase and turn filters working in a browser."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from sitetest import CHROMIUM_ARGS, require_browser, seed_build, serve  # noqa: F401 (fixture)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import realdata  # noqa: E402

from warscribe.schema.bundle import load  # noqa: E402
from warscribe.schema.text import slugify  # noqa: E402
from warscribe.site import stratagem_cards  # noqa: E402
from warscribe.site.pages import Site  # noqa: E402

SANCTIC = "cards/grey-knights/sanctic-spearhead/"


def _cards(markdown: str) -> list[str]:
    return re.findall(r'<article class="(ws-card[^"]*)">(.*?)</article>', markdown)


@pytest.mark.slow
def test_every_faction_and_detachment_of_the_whole_game_has_its_page(tmp_path_factory):
    out = realdata.build(tmp_path_factory, "wahapedia-10e", site=True)  # the build test_site_realdata.py reads too
    bundle = load(out)
    pages = {p.url: p for p in stratagem_cards.pages(Site(bundle, []))}
    dets = [d for d in bundle.kind("detachment") if bundle.stratagems_of(d)]
    factions = {d["faction"] for d in dets}
    assert len(factions) == 23  # the 25 factions but Adeptus Titanicus and Unaligned Forces
    assert len(pages) == len(dets) + len(factions)
    core = [s for s in bundle.kind("stratagem") if s["origin"] == "core"]
    for det in dets:
        page = pages[stratagem_cards.card_url(det["id"])]
        md = page.markdown()
        assert not page.searchable
        cards = _cards(md)
        names = re.findall(r'class="ws-card-name"><a [^>]*>([^<]*)</a>', md)
        own = bundle.stratagems_of(det)
        assert len(cards) == len(own) + len(core) + sum(s["origin"] == "challenger" for s in bundle.kind("stratagem"))
        assert {s["name"] for s in own} <= {n.replace("&#x27;", "'").replace("&amp;", "&") for n in names}
        for classes, body in cards:
            assert re.search(r'ws-card-cp">\d+CP<', body)  # CP at a glance
            assert re.search(r"\bph-(command|movement|shooting|charge|fight|any)\b", classes), classes
            assert re.search(r"\btu-(your|opponent|either)\b", classes)
    sm = pages["cards/space-marines/"].markdown()
    assert all(f'id="det-{slugify(d["name"])}"' in sm for d in dets if d["faction"] == "Space Marines")


def test_the_seeds_card_pages(seed_build):
    page = (seed_build / "site" / SANCTIC / "index.html").read_text(encoding="utf-8")
    assert "TRUESILVER WILL" in page and "ABOMINUS-CLASS TARGETS" in page
    assert 'name="ws-ph"' in page and 'name="ws-tu"' in page
    assert "<script" not in page.split('class="ws-cards-wrap"', 1)[1].split("</article>", 1)[0]
    titles = json.loads((seed_build / "site" / "search" / "titles.json").read_text(encoding="utf-8"))
    assert titles["pages"] and not any(row[3].startswith("cards/") for row in titles["pages"])
    detachment = (seed_build / "site" / "detachment" / "grey-knights" / "sanctic-spearhead" / "index.html").read_text()
    assert "../../../cards/grey-knights/sanctic-spearhead/" in detachment


def test_the_filters_hide_what_a_phase_and_a_turn_exclude(seed_build):
    sync_playwright, chromium = require_browser()
    with serve(seed_build / "site") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 400, "height": 800})  # a phone at the table
            page.goto(base + SANCTIC)

            def shown() -> list[tuple[str, str]]:
                return [(c.get_attribute("class"), c.locator(".ws-card-name").inner_text())
                        for c in page.locator(".ws-card").all() if c.is_visible()]

            everything = shown()
            assert len(everything) == page.locator(".ws-card").count() >= 8
            page.click("label[for=ws-ph-shooting]")
            shooting = shown()
            assert 0 < len(shooting) < len(everything)
            assert all(re.search(r"\bph-(shooting|any)\b", c) for c, _n in shooting)
            assert ("ABOMINUS-CLASS TARGETS" in [n for _c, n in shooting])
            page.click("label[for=ws-tu-opponent]")
            both = shown()
            assert all(re.search(r"\btu-(opponent|either)\b", c) for c, _n in both) and len(both) <= len(shooting)
            page.click("label[for=ws-ph-all]")
            page.click("label[for=ws-tu-all]")
            assert shown() == everything
            page.keyboard.press("Tab")  # the filters are reachable from the keyboard
            browser.close()
        finally:
            if browser.is_connected():
                browser.close()
