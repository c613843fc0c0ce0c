"""Every page of the seeds' site at phone size (390 px) in headless Chromium: nothing cut off, a
table wider than the screen says it scrolls, weapon and damage tables lay out as cards; and the
models table's every column (OC included) on a desktop. The whole game's datasheets: test_site_realdata.py."""

from __future__ import annotations

import pytest

from phonecheck import PHONE, hidden_columns, phone_problems
from sitetest import browser_site, page, seed_build  # noqa: F401 (fixtures)

# The seeds' site built and driven in Chromium: out of the quick subset (`-m "not slow"`).
pytestmark = pytest.mark.slow


def _urls(build, folder: str = "") -> list[str]:
    site = build / "site"
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in (site / folder).rglob("index.html")
                  if p.parent != site) + ([""] if not folder else [])


def _sample(build) -> list[str]:
    """Every index page, every datasheet, and the two longest pages of each other kind."""
    urls = _urls(build)
    picked = [u for u in urls if u.count("/") <= 1 or u.startswith(("datasheet/", "faction/"))]
    site = build / "site"
    for kind in ("weapon", "stratagem", "detachment", "enhancement", "ability", "rule", "keyword", "source"):
        mine = sorted((u for u in urls if u.startswith(kind + "/")), key=lambda u: -(site / u / "index.html").stat().st_size)
        picked += mine[:2]
    return picked


def test_every_page_fits_a_phone(browser_site, seed_build):
    browser, base = browser_site
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        problems = {}
        for url in _sample(seed_build):
            page.goto(base + url, wait_until="load")
            found = phone_problems(page)
            if found:
                problems[url] = found
        assert not problems, problems
        # The check can fail: a page made wider than the screen is caught.
        page.goto(base + "datasheet/grey-knights/paladin-squad/")
        page.evaluate("document.querySelector('article').insertAdjacentHTML('beforeend', "
                      "'<p style=\"white-space:nowrap\">' + 'x'.repeat(300) + '</p>')")
        assert phone_problems(page)
    finally:
        context.close()


def test_a_weapon_is_a_card_on_a_phone(browser_site):
    browser, base = browser_site
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(base + "datasheet/grey-knights/paladin-squad/")
        row = page.locator("table.ws-ranged tbody tr").first
        assert row.locator("td").first.inner_text() == "Incinerator"
        # Each characteristic under its name; the header row is not shown.
        cell = row.locator("td").nth(1)
        assert cell.inner_text() == '12"'
        assert cell.evaluate("td => getComputedStyle(td, '::before').content") == '"Range"'
        assert cell.evaluate("td => getComputedStyle(td, '::before').display") == "block"
        assert not page.locator("table.ws-ranged thead").is_visible()
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    finally:
        context.close()


def test_the_models_table_shows_every_column_on_a_desktop(browser_site):
    browser, base = browser_site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(base + "faction/grey-knights/")
        page.goto(base + "datasheet/grey-knights/paladin-squad/")
        assert hidden_columns(page, "table.ws-models, table.ws-weapons") == []
    finally:
        context.close()
