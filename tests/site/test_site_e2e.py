"""The seeds' site end to end in headless Chromium: tables, tooltips, links, search, no other hosts."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit
from urllib.request import urlopen

import pytest

from searchui import ask
from sitetest import Links, browser_site, page, seed_build, serve  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow  # the seeds' site built, and driven in a browser

PALADINS = "datasheet/grey-knights/paladin-squad/"


def test_paladin_squad_weapon_table(page):
    page.goto(page.base + PALADINS)
    assert page.locator("h1").inner_text() == "Paladin Squad"
    rows = page.locator("table.ws-ranged tbody tr")
    cells = {r.locator("td").nth(0).inner_text(): [c.strip() for c in r.locator("td").all_inner_texts()]
             for r in rows.all()}
    assert cells["Psycannon"] == ["Psycannon", '24"', "3", "2+", "8", "-1", "2", "PSYCHIC"]
    assert cells["Psilencer"][-1] == "PRECISION, PSYCHIC, SUSTAINED HITS 1"
    assert set(cells) == {"Incinerator", "Psilencer", "Psycannon", "Storm bolter"}
    melee = page.locator("table.ws-melee tbody tr").first.locator("td").all_inner_texts()
    assert melee[:7] == ["Nemesis force weapon", "Melee", "4", "2+", "6", "-2", "2"]
    # The damage table: one row per weapon, four named reference targets, a chart per cell with its axes.
    damage = page.locator("table.ws-damage tbody tr")
    assert damage.count() == 5
    heads = page.locator("table.ws-damage thead th").all_inner_texts()
    assert [h.split("\n")[0] for h in heads] == ["Weapon", "Light infantry", "Power-armoured infantry",
                                                  "Terminator-armoured infantry", "Battle tank"]
    assert page.locator("table.ws-damage svg.ws-chart").count() == 20
    first = damage.first.locator("td").nth(1).inner_text()
    assert re.match(r"\d+\.\d\d / \d+\.\d\d", first), first
    chart = damage.first.locator("td").nth(4).locator("svg")
    assert chart.locator("title").text_content().startswith("Chance of each number of wounds removed against Battle tank")
    axes = page.locator(chart.locator("use").get_attribute("xlink:href"))  # drawn once per page, used by each chart
    texts = axes.locator("text").all_text_contents()
    assert texts[:3] == ["50%", "100%", "0%"] and texts[-1] == "wounds removed"  # the tank: damage, not a yes/no bar
    assert texts[3:-1] == ["0", "6", "12"]
    box = chart.bounding_box()
    assert box["width"] > 90 and box["height"] > 45  # the axes are drawn, not collapsed
    # The weapon's name leads to its page.
    href = page.locator("table.ws-ranged a.ws-weapon-name:has-text('Psycannon')").get_attribute("href")
    assert href.endswith("/weapon/10e/psycannon/"), href
    # Keywords and the faction are links.
    assert page.locator("a:has-text('TERMINATOR')").count() >= 1
    assert page.locator(".ws-meta a:has-text('Grey Knights')").count() == 1
    assert all(u.startswith(page.base) for u in page.requested), [u for u in page.requested if not u.startswith(page.base)]


def test_ability_tooltip_shows_the_rule_summary(page):
    page.goto(page.base + PALADINS)
    link = page.locator("table.ws-ranged a:has-text('SUSTAINED HITS 1')")
    tip = link.locator("xpath=following-sibling::span[contains(@class,'ws-tip')]")
    assert not tip.is_visible()
    link.hover()
    tip.wait_for(state="visible")
    assert "additional hits" in tip.inner_text()
    page.mouse.move(0, 0)
    tip.wait_for(state="hidden")


def test_follow_links_to_an_ability_and_a_stratagem(page):
    page.goto(page.base + PALADINS)
    page.locator("table.ws-ranged a:has-text('SUSTAINED HITS 1')").click()
    page.wait_for_url("**/ability/10e/abilities/sustained-hits/")
    assert page.locator("h1").inner_text() == "[SUSTAINED HITS]"
    assert "additional hits" in page.locator("article").inner_text()
    # The 11th edition's version is linked from the 10th's.
    assert page.locator("a.ws-other-edition").get_attribute("href").endswith("11e/abilities/sustained-hits/")
    page.goto(page.base + PALADINS)
    group = page.locator("details.ws-group", has=page.locator("summary", has_text="Hallowed Conclave"))
    assert not group.locator(".ws-stratagems a").first.is_visible()  # a detachment's stratagems: one closed line
    group.locator("summary").click()
    group.locator(".ws-stratagems a:has-text('POINT-BLANK PURGATION')").click()
    page.wait_for_url("**/stratagem/grey-knights/hallowed-conclave/point-blank-purgation/")
    text = page.locator("article").inner_text()
    assert "WHEN" in text and "storm bolter" in text
    # Ability mentions inside the stratagem's effect are links too.
    assert page.locator("dl.ws-stratagem a:has-text('[TWIN-LINKED]')").count() == 1


def test_search_finds_a_weapon_and_a_rule(page):
    page.goto(page.base)
    results = ask(page, page.base, "Psycannon")
    assert results[0] == "weapon/10e/psycannon/", results[:3]
    assert PALADINS in results[:3], results[:3]  # and the datasheet that carries it, by its text
    assert ask(page, page.base, "hazard")[0] == "rule/11e/rules/06-03-hazard-rolls/"
    page.locator(".ws-search--header .ws-search__input").press("Enter")
    page.wait_for_url("**/rule/11e/rules/06-03-hazard-rolls/")
    assert page.locator("h1").inner_text() == "06.03 Hazard Rolls"


def test_no_request_leaves_the_site(page):
    for path in ("", PALADINS, "stratagems/", "diagnostics/", "weapon/10e/psycannon/", "a-z/"):
        page.goto(page.base + path)
        page.wait_for_load_state("networkidle")
    ask(page, page.base, "storm bolter")
    outside = [u for u in page.requested if not u.startswith(page.base) and not u.startswith("data:")]
    assert page.requested and not outside, outside


def test_dark_theme_and_phone_width(browser_site):
    browser, base = browser_site
    context = browser.new_context(viewport={"width": 375, "height": 800}, color_scheme="dark")
    try:
        pg = context.new_page()
        pg.goto(base + PALADINS)
        assert pg.locator("body").get_attribute("data-md-color-scheme") == "slate"
        # Nothing but the tables' own scroll boxes is wider than the screen.
        assert pg.evaluate("document.documentElement.scrollWidth") <= 375
        pg.locator("label[for^='__palette']:visible").first.click()
        assert pg.locator("body").get_attribute("data-md-color-scheme") == "default"
    finally:
        context.close()


def test_every_internal_link_and_anchor_resolves(seed_build):
    """A crawl from the home page over HTTP: every page reachable, every #anchor present."""
    with serve(seed_build / "site") as base:
        pages: dict[str, Links] = {}
        queue = [base]
        wanted: list[tuple[str, str]] = []  # (from page, target URL with fragment)
        while queue:
            url = queue.pop()
            if url in pages:
                continue
            with urlopen(url) as response:
                body = response.read().decode("utf-8")
            parser = Links()
            parser.feed(body)
            pages[url] = parser
            for href in parser.links:
                target = urljoin(url, href)
                parts = urlsplit(target)
                if parts.scheme in ("http", "https") and not target.startswith(base):
                    pytest.fail(f"{url} links outside the site: {href}")
                if not target.startswith(base) or parts.scheme not in ("http", "https"):
                    continue
                wanted.append((url, target))
                plain = target.split("#", 1)[0]
                if plain.endswith("/") and plain not in pages:
                    queue.append(plain)
        broken = []
        for source, target in wanted:
            plain, _, anchor = target.partition("#")
            if plain.endswith("/"):
                if plain not in pages:
                    broken.append((source, target))
                elif anchor and anchor not in pages[plain].ids:
                    broken.append((source, target))
            else:
                try:
                    urlopen(plain).close()
                except OSError:
                    broken.append((source, target))
        generated = sum(1 for _ in (seed_build / "site-src" / "docs").rglob("*.md"))
        assert len(pages) >= generated, (len(pages), generated)  # every generated page is reachable
        assert not broken, broken[:20]


def test_the_root_mkdocs_config_rebuilds_the_generated_site(seed_build, tmp_path):
    """`mkdocs build` with the checkout's mkdocs.yml works on what `warscribe build` generated."""
    import os
    import shutil
    import subprocess
    import sys

    from conftest import ROOT

    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    os.symlink(seed_build, tmp_path / "out")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "again")],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "again" / "index.html").is_file()
    assert (tmp_path / "again" / "search" / "titles.json").is_file()
