"""The site's search on the seeds, in headless Chromium: exact titles first, misspellings, the index
fetched only when wanted, the box in the header, on the home page and on a phone.

The same checks over the whole game are in test_site_realdata.py (slow).
"""

from __future__ import annotations

import pytest

import searchcheck
from searchui import ask
from sitetest import browser_site, page, seed_build, serve  # noqa: F401 (fixtures)
from warscribe.schema import bundle
from warscribe.site import search, urls
from warscribe.site.pages import WeaponNames

# The seeds' site built and driven in Chromium: out of the quick subset (`-m "not slow"`).
pytestmark = pytest.mark.slow


def url_of(b):
    names = WeaponNames(b)
    return lambda rec: names.url(rec) if rec["kind"] == "weapon" else urls.record_url(rec)


def test_every_title_of_the_seeds_ranks_its_page_first(page, seed_build):
    b = bundle.load(seed_build)
    queries = searchcheck.sample(b, url_of(b), per_kind=1000) + searchcheck.misspellings(b, url_of(b), n=1000)
    assert {q.kind for q in queries} == set(searchcheck.KINDS)
    page.goto(page.base)
    table = searchcheck.rates([(q, ask(page, page.base, q.text)) for q in queries])
    print(searchcheck.report(table))
    for kind, row in table.items():
        rate = (row["top5"] if kind == "misspelt" else row["first"]) / row["queries"]
        assert rate >= 0.98, (kind, rate, row["misses"][:10])


def test_the_script_reads_words_as_the_index_does(page):
    samples = ["[SUSTAINED HITS 2]", "Aun’Va", "Aun'va", "T'au Empire", "Ça-Ira  the   Séance", "PLASMA PISTOL – standard",
               "Kill-team 'Intercessors'", "Tyranid_Warrior", "06.03 Hazard Rolls", "Ætherblade ß", "‘quoted’ `ticks`"]
    page.goto(page.base)
    got = page.evaluate("s => s.map(x => [warscribeSearch.tokens(x), warscribeSearch.shardOf(warscribeSearch.tokens(x)[0])])",
                        samples)
    assert got == [[search.tokens(s), search.shard_of(search.tokens(s)[0])] for s in samples]


def test_the_index_comes_when_search_is_wanted(page):
    loaded = []
    page.on("request", lambda r: loaded.append(r.url.split(page.base, 1)[-1]))
    page.goto(page.base + "datasheet/grey-knights/paladin-squad/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in loaded if u.startswith("search/")], loaded  # nothing on a page's load
    page.locator(".ws-search--header .ws-search__input").focus()
    page.wait_for_load_state("networkidle")
    assert "search/titles.json" in loaded
    assert not [u for u in loaded if u.startswith("search/words/")]
    ask(page, page.base, "additional hits")  # words of the text: their shards only
    words = sorted(u for u in loaded if u.startswith("search/words/"))
    assert words == ["search/words/ad.json", "search/words/hi.json"]


def test_words_of_a_page_find_it_after_the_titles(page):
    page.goto(page.base)
    results = ask(page, page.base, "additional hits")
    assert results[:2] == ["ability/10e/abilities/sustained-hits/", "ability/11e/abilities/sustained-hits/"]
    assert page.locator(".ws-search--header .ws-search__item--text").count() >= 1  # found by their text
    assert ask(page, page.base, "zzqx nothing")[:1] == []
    assert "No page has these words." in page.locator(".ws-search--header .ws-search__results").inner_text()


def test_keyboard_slash_arrows_and_enter(page):
    page.goto(page.base + "rules/")
    page.keyboard.press("/")
    field = page.locator(".ws-search--header .ws-search__input")
    assert page.evaluate("document.activeElement.classList.contains('ws-search__input')")
    field.type("fire overwatch", delay=20)
    page.wait_for_function("() => document.querySelector('.ws-search--header').wsSearch.answered === 'fire overwatch'")
    items = page.locator(".ws-search--header .ws-search__item a")
    second = items.nth(1).get_attribute("href")
    field.press("ArrowDown")
    field.press("ArrowDown")
    field.press("Enter")
    page.wait_for_url(second)
    field.press("Escape")


def test_the_home_page_prompts_for_a_search(page):
    page.goto(page.base)
    box = ".ws-search--inline"
    assert page.locator(f"{box} .ws-search__input").is_visible()
    results = ask(page, page.base, "paladin", box=box)
    assert results[0] == "datasheet/grey-knights/paladin-squad/"
    assert page.locator(f"{box} .ws-search__item").first.is_visible()
    # The factions and the editions are on it too.
    assert page.locator(".ws-factions a").all_inner_texts() == ["Grey Knights", "Imperial Agents"]
    assert [t.split("\n")[0] for t in page.locator(".ws-editions li").all_inner_texts()] == ["10th edition", "11th edition"]


def test_search_on_a_phone(browser_site):
    browser, base = browser_site
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    try:
        pg = context.new_page()
        pg.goto(base + "rules/")
        field = pg.locator(".ws-search--header .ws-search__input")
        assert not field.is_visible()  # a button in the header, not a squeezed box
        pg.locator(".ws-search--header .ws-search__open").tap()
        assert field.is_visible()
        results = ask(pg, base, "psycanon")
        assert results[0] == "weapon/10e/psycannon/"
        first = pg.locator(".ws-search--header .ws-search__item").first
        box = first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        first.locator("a").tap()
        pg.wait_for_url("**/weapon/10e/psycannon/")
        assert not field.is_visible()
    finally:
        context.close()


def test_the_index_is_fetched_once_while_the_player_browses(browser_site, seed_build):
    """The titles index crosses the network once: on the next page a search reads it from the
    browser's cache, at most asking the server whether it changed (pages are whole loads: the
    theme's instant navigation needs the site's final address, which a portable build lacks)."""
    browser, _base = browser_site
    served: list[tuple[str, int]] = []
    with serve(seed_build / "site", served) as base:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(base + "datasheet/grey-knights/paladin-squad/")
            assert ask(page, base, "Paladin Squad")[0] == "datasheet/grey-knights/paladin-squad/"
            page.locator("nav.ws-crumbs a", has_text="Grey Knights").click()
            page.wait_for_url("**/faction/grey-knights/")
            found = ask(page, base, "Paladin Squad")
            assert found and found[0] == "datasheet/grey-knights/paladin-squad/"
        finally:
            context.close()
    titles = [status for path, status in served if path == "search/titles.json"]
    assert titles[0] == 200 and all(s == 304 for s in titles[1:]), served  # sent once, then at most "not modified"
    assert "faction/grey-knights/" in [p for p, _s in served]
    assert "sitemap.xml" not in [p for p, _s in served]  # no request for the theme's instant navigation


def test_the_core_stratagem_ranks_before_another_games_copy(page, seed_build):
    """COMMAND RE-ROLL is a core stratagem of both editions and a Boarding Actions one: the core ones first."""
    page.goto(page.base)
    results = ask(page, page.base, "command re-roll")
    core = [i for i, r in enumerate(results) if "/core-1" in r and "command-re-roll" in r]
    other = [i for i, r in enumerate(results) if "/boarding-actions/" in r and "command-re-roll" in r]
    assert len(core) == 2 and other and max(core) < min(other), results[:5]
