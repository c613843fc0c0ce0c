"""The whole game's site, from each source of it (examples/bsdata-10e: the 10th-edition BattleScribe
snapshot with the four seeds, as the issue measures it; and the Wahapedia export), built once each, in headless Chromium: search over a seeded sample of every kind of title, the bytes search fetches
before its first result, datasheets at phone size, every link and anchor, no outside request.

Slow: each build takes about a minute (its time is measured by `warscribe bench site`, not here).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import realdata
import searchcheck
from phonecheck import PHONE, hidden_columns, phone_problems
from searchui import ask
from sitetest import browsing, link_target
from warscribe.schema import bundle
from warscribe.site import urls
from warscribe.site.pages import WeaponNames

pytestmark = pytest.mark.slow


def _datasheet_urls(whole: Path) -> list[str]:
    site = whole / "site"
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in (site / "datasheet").rglob("index.html"))


_HREF = re.compile(r'<(?:a|link|script|img)\b[^>]*?\s(?:href|src)="([^"]*)"')
_ID = re.compile(r'\sid="([^"]+)"')


class _WholeSite:
    """The checks of one whole game's site; each source a class of its own (below), so pytest-xdist
    (--dist loadscope) gives each its own worker and builds each once."""

    source = ""

    @pytest.fixture(scope="class")
    @classmethod
    def whole(cls, tmp_path_factory) -> Path:
        if cls.source == "wahapedia-10e":
            out = realdata.build(tmp_path_factory, "wahapedia-10e", site=True)
            assert (out / "site" / "index.html").is_file(), realdata.log("wahapedia-10e", site=True)[-3000:]
            return out
        out = realdata.example(tmp_path_factory, "bsdata-10e", site=True)
        assert (out / "site" / "index.html").is_file(), realdata.log("bsdata-10e", site=True, example=True)[-3000:]
        return out

    @pytest.fixture(scope="class")
    @classmethod
    def browser(cls, whole):
        with browsing(whole / "site") as both:
            yield both

    def test_exact_titles_of_every_kind_rank_first_and_misspellings_are_found(self, whole, browser):
        b = bundle.load(whole)
        names = WeaponNames(b)
        url_of = lambda rec: names.url(rec) if rec["kind"] == "weapon" else urls.record_url(rec)  # noqa: E731
        queries = searchcheck.sample(b, url_of, per_kind=40, seed=20) + searchcheck.misspellings(b, url_of, n=80, seed=20)
        browser_, base = browser
        context = browser_.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(base)
            table = searchcheck.rates([(q, ask(page, base, q.text)) for q in queries])
        finally:
            context.close()
        print(searchcheck.report(table))
        present = {k for k in searchcheck.KINDS if b.kind(k)}  # the Wahapedia export has no core-rule records
        assert len(present) >= 7 and set(table) == present | {"misspelt"}
        for kind, row in table.items():
            rate = (row["top5"] if kind == "misspelt" else row["first"]) / row["queries"]
            assert rate >= 0.98, (kind, rate, row["misses"][:10])


    def test_search_fetches_little_before_its_first_result(self, browser):
        browser_, base = browser
        context = browser_.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(base + "datasheet/space-marines/intercessor-squad/")
            page.wait_for_load_state("networkidle")
            fetched: dict[str, int] = {}
            page.on("response", lambda r: fetched.__setitem__(r.url, len(r.body()) if r.ok else 0))
            field = page.locator(".ws-search--header .ws-search__input")
            field.click()
            field.type("intercessor", delay=0)
            page.locator(".ws-search--header .ws-search__item").first.wait_for(state="visible", timeout=60000)
            before = sum(fetched.values())
            assert before < 1.5 * 2**20, fetched
            assert "datasheet/space-marines/intercessor-squad/" in page.locator(
                ".ws-search--header .ws-search__item a").first.get_attribute("href")
            outside = [u for u in fetched if not u.startswith(base)]
            assert not outside, outside
        finally:
            context.close()


    def test_datasheets_on_a_phone_and_every_column_on_a_desktop(self, whole, browser):
        """A seeded sample of datasheets, and the largest ones (most weapons, longest names), at 390 px."""
        every = _datasheet_urls(whole)
        site = whole / "site"
        largest = sorted(every, key=lambda u: -(site / u / "index.html").stat().st_size)[:15]
        longest = sorted(every, key=lambda u: -len(u))[:10]
        sample = sorted(set(random.Random(20).sample(every, 60) + largest + longest))
        browser_, base = browser
        phone = browser_.new_context(**PHONE)
        desk = browser_.new_context(viewport={"width": 1280, "height": 900})
        try:
            page, wide = phone.new_page(), desk.new_page()
            problems, hidden = {}, {}
            for url in sample:
                page.goto(base + url, wait_until="load")
                found = phone_problems(page)
                if found:
                    problems[url] = found
                wide.goto(base + url, wait_until="load")
                cut = hidden_columns(wide, "table.ws-models, table.ws-weapons")
                if cut:
                    hidden[url] = cut
            assert not problems, problems
            assert not hidden, hidden
        finally:
            phone.close()
            desk.close()


    def test_every_link_and_anchor_of_every_page_resolves(self, whole):
        """Every page's links, read from the built files: each target page exists and holds its #anchor."""
        site = whole / "site"
        ids: dict[str, set[str]] = {}
        links: dict[str, list[str]] = defaultdict(list)
        for path in site.rglob("*.html"):
            url = "/" + path.relative_to(site).as_posix()
            text = path.read_text(encoding="utf-8")
            ids[url] = set(_ID.findall(text))
            links[url] = _HREF.findall(text)
        broken = []
        for url, hrefs in links.items():
            for href in hrefs:
                parts = urlsplit(href)
                if parts.scheme or parts.netloc:
                    broken.append((url, href, "outside the site"))
                    continue
                target, fragment = link_target(url, href)
                path = unquote(target)
                if path.endswith("/"):
                    path += "index.html"
                if path not in ids and not (site / path.lstrip("/")).is_file():
                    broken.append((url, href, "no such page"))
                elif fragment and path in ids and unquote(fragment) not in ids[path]:
                    broken.append((url, href, "no such anchor"))
        assert len(links) > 6000
        assert not broken, broken[:20]


    def test_a_core_stratagem_lists_its_targets_by_faction(self, whole, browser):
        browser_, base = browser
        context = browser_.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(base + "stratagem/core-10e/fire-overwatch/")
            groups = page.locator("#targets ~ details.ws-group")
            assert groups.count() > 20  # one per faction, not one flat list of hundreds
            assert all(not g.get_attribute("open") for g in groups.all())
            first = groups.first
            first.locator("summary").click()
            assert first.locator("a").count() >= 1 and first.locator(".ws-role").count() >= 1
        finally:
            context.close()


    def test_a_land_raider_shows_its_wargear_transport_and_damaged_boxes(self, whole, browser):
        """The Space Marines Land Raider as a player reads its page: the loadout, the transport capacity
        and the damaged box, each where the build's record has it (BattleScribe prints no loadout)."""
        import json

        data = json.loads((whole / "json" / "warscribe.json").read_text(encoding="utf-8"))["data"]
        rec = next(r for r in data["datasheet"] if r["id"] == "space-marines/land-raider")
        damaged = [a["name"] for a in rec["abilities"] if a["name"].lower().startswith("damaged: 1-5")]
        assert rec["transport"].startswith("This model has a transport capacity of 12") and damaged
        browser_, base = browser
        context = browser_.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.goto(base + urls.record_url(rec))
            text = page.inner_text("article")
            headings = [h.strip().rstrip("¶").strip() for h in page.locator("article h2").all_inner_texts()]  # (¶: the permalink)
            assert "Transport" in headings and "This model has a transport capacity of 12" in text
            assert damaged[0] in text
            if "loadout" in rec:
                assert "Wargear" in headings and rec["loadout"] in text
                assert rec["loadout"].startswith("This model is equipped with:")
            else:
                assert "Wargear" not in headings
        finally:
            context.close()


class TestBattleScribe(_WholeSite):
    """The BattleScribe example (examples/bsdata-10e: the snapshot with the seeds)."""

    source = "bsdata-10e"


class TestWahapedia(_WholeSite):
    """The Wahapedia export."""

    source = "wahapedia-10e"
