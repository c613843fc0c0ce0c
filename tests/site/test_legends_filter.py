"""Legends in search (issue 43): the index marks Legends datasheets by their record's `legends`
field, and a checkbox beside the results hides them, remembered in the browser.

The browser test builds a site of three datasheets (a unit, its Legends copy of the same name, and
a Legends unit of its own) and drives the header's search box in headless Chromium.
"""

from __future__ import annotations

import io
import json
import re

import pytest

from searchui import ask
from sitetest import browsing
from warscribe.schema import bundle as bundle_module
from warscribe.schema import records
from warscribe.site import search, urls
from warscribe.site.generate import build, generate
from warscribe.site.pages import Page

SRC = [{"file": "data.json", "first_line": 1, "last_line": 2, "ruleset": "10e"}]
F = "space-marines"
BOX = ".ws-search--header"


def _sheet(rid: str, name: str, legends: bool, text: str) -> dict:
    return records.datasheet(
        id=f"{F}/{rid}", name=name, ruleset="10e", faction="Space Marines", keywords=["VEHICLE", "FLY"],
        faction_keywords=["ADEPTUS ASTARTES"], composition=[], points=[], wargear_options=[], weapons=[],
        abilities=[{"name": "Skimming Strike", "type": "datasheet", "text": text}], legends=legends, source=SRC)


def _bundle():
    recs = [_sheet("land-speeder", "Land Speeder", False, "Each time this unit moves, it skims over the ground."),
            # The same name as the unit above: BattleScribe's "Land Speeder [Legends]".
            _sheet("land-speeder-legends", "Land Speeder", True, "An older pattern; it skims over the ground."),
            _sheet("land-speeder-tornado", "Land Speeder Tornado", True, "A heavier pattern."),
            # Legends in its context but not in its record: the filter must not read the words.
            _sheet("legends-honour-guard", "Legends Honour Guard", False, "Veterans of the chapter's legends.")]
    return bundle_module.from_records(recs, {"sources": [{"file": "data.json", "ruleset": "10e", "sha256": "0" * 64}]})


def _url(rid: str) -> str:
    return urls.record_url({"id": f"{F}/{rid}", "kind": "datasheet"})


def test_the_index_marks_legends_pages_by_their_flag_not_their_words():
    pages = [Page("a/", "Land Speeder", kind="datasheet", context="Space Marines"),
             Page("b/", "Land Speeder", kind="datasheet", context="Space Marines, Legends", legends=True),
             Page("c/", "Legends of the Chapter", kind="rule", context="Legends")]
    titles, _shards = search.build_index(pages, {})
    assert titles["legends"] == [1]
    assert [titles["pages"][n][3] for n in titles["legends"]] == ["b/"]
    assert search.build_index(pages[:1], {})[0]["legends"] == []  # always there: the script reads it as it is


def test_a_build_lists_its_legends_datasheets_in_the_search_index(tmp_path):
    generate(_bundle(), [], tmp_path)
    titles = json.loads((tmp_path / "site-src" / "docs" / "search" / "titles.json").read_text(encoding="utf-8"))
    marked = {titles["pages"][n][3] for n in titles["legends"]}
    assert marked == {_url("land-speeder-legends"), _url("land-speeder-tornado")}
    # Both datasheets named Land Speeder are in the index; only the Legends one is marked.
    speeders = [r[3] for r in titles["pages"] if r[0] == "Land Speeder"]
    assert sorted(speeders) == sorted([_url("land-speeder"), _url("land-speeder-legends")])


@pytest.fixture(scope="module")
def legends_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("legends-site")
    log = io.StringIO()
    assert build(_bundle(), [], out, quiet=True, stream=log) == 0, log.getvalue()
    with browsing(out / "site") as both:
        yield both


def _shown(page) -> list[str]:
    return [u.split("#")[0] for u in page.eval_on_selector_all(
        f"{BOX} .ws-search__item a", "els => els.map(e => new URL(e.href).pathname)")]


def _count(page) -> str:
    return page.locator(f"{BOX} .ws-search__count").inner_text()


def _results(n: int) -> str:
    return f"{n} result" if n == 1 else f"{n} results"


def _wait(page, text: str, legends: str) -> None:
    page.wait_for_function("([sel, text, legends]) => { const r = document.querySelector(sel); return r && r.wsSearch"
                           " && r.wsSearch.answered === text && r.getAttribute('data-ws-legends') === legends; }",
                           arg=[BOX, text, legends], timeout=20000)


@pytest.mark.slow
def test_hiding_legends_removes_them_from_the_results_and_is_remembered(legends_site):
    browser, base = legends_site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base)
        root = re.sub(r"^https?://[^/]+", "", base)  # the site's path on the server, before each page's URL
        unit, copy, tornado = (root + _url(r) for r in ("land-speeder", "land-speeder-legends", "land-speeder-tornado"))
        ask(page, base, "land speeder")
        shown = _shown(page)
        assert {unit, copy, tornado} <= set(shown), shown  # Legends shown by default, ranked as any page
        toggle = page.locator(f"{BOX} .ws-search__legends-toggle")
        assert toggle.is_visible() and toggle.is_checked()
        assert page.locator(BOX).get_by_label("Show Legends").count() == 1  # the checkbox by its label
        before = _count(page)
        assert before == _results(len(shown))

        toggle.click()  # with the mouse: the results stay open, the input keeps the focus
        _wait(page, "land speeder", "hidden")
        shown = _shown(page)
        assert unit in shown and copy not in shown and tornado not in shown, shown
        assert _count(page) == _results(len(shown)) + ", 2 Legends hidden" != before
        assert page.evaluate("document.activeElement.classList.contains('ws-search__input')")
        assert page.evaluate("localStorage.getItem('warscribe.search.legends')") == "hidden"
        assert not page.locator(".ws-search--inline .ws-search__legends-toggle").is_checked()  # every box at once
        # The Legends word in a title or context is not the flag: that unit stays.
        assert ask(page, base, "legends honour")[:1] == [_url("legends-honour-guard")]

        page.reload()
        assert page.locator(f"{BOX} .ws-search__legends-toggle").is_checked() is False
        ask(page, base, "land speeder")
        assert copy not in _shown(page) and _count(page).endswith("2 Legends hidden")
        # Only Legends match: the list says so rather than "No page has these words".
        ask(page, base, "tornado")
        assert _shown(page) == []
        assert "Show Legends" in page.locator(f"{BOX} .ws-search__results").inner_text()

        # By keyboard: Tab from the input reaches the checkbox, Space ticks it.
        ask(page, base, "land speeder")
        page.locator(f"{BOX} .ws-search__input").press("Tab")
        assert page.evaluate("document.activeElement.classList.contains('ws-search__legends-toggle')")
        page.keyboard.press("Space")
        _wait(page, "land speeder", "shown")
        assert {unit, copy, tornado} <= set(_shown(page))
        assert page.evaluate("localStorage.getItem('warscribe.search.legends')") == "shown"
    finally:
        context.close()
    assert not errors, errors
