"""Scraped text is untrusted: markup injected into a source must reach the site as text, never as code."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import pytest
import yaml

from searchui import ask
from sitetest import CHROMIUM_ARGS, require_browser, serve
from conftest import ROOT

pytestmark = pytest.mark.slow  # the seeds' site built, and driven in a browser

PAGE = "datasheet-grey-knights-paladin-squad.10e.txt"
SCRIPT = "<script>window.__pwned = 'script'</script>"
ONERROR = "<img src=x onerror=\"window.__pwned = 'onerror'\">"
MD_LINK = "[click me](javascript:window.__pwned='markdown')"
A_LINK = "<a href=\"javascript:window.__pwned='anchor'\">click here</a>"
TITLE = "<img src=x onerror=\"window.__pwned = 'title'\">"  # in a weapon's name: page titles, sidebars, search


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    """The seeds with the payloads in an ability's text, a wargear option, a wargear ability and a weapon's name."""
    tmp = tmp_path_factory.mktemp("hostile")
    sources = tmp / "sources"
    shutil.copytree(ROOT / "sources", sources)
    path = sources / PAGE
    text = path.read_text(encoding="utf-8")
    for old, new in (
        ("add 1 to the Damage characteristic of melee weapons", f"add 1 {SCRIPT} to the Damage characteristic {ONERROR} of melee weapons"),
        ("- 1 Paladin can have its storm bolter replaced", f"- 1 Paladin {MD_LINK} can have its storm bolter replaced"),
        ("Add 1 to the Objective Control characteristic", f"Add 1 {A_LINK} to the Objective Control characteristic"),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    assert text.count("| Storm bolter [rapid fire 2] |") == 2
    text = text.replace("| Storm bolter [rapid fire 2] |", f"| Storm bolter {TITLE} [rapid fire 2] |")
    path.write_text(text, encoding="utf-8")
    manifest = yaml.safe_load((sources / "manifest.yaml").read_text(encoding="utf-8"))
    for entry in manifest["sources"]:
        if entry["file"] == PAGE:
            entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (sources / "manifest.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8")
    out = tmp / "out"
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--sources", str(sources), "--out", str(out), "-q"],
                          capture_output=True, text=True)
    assert "Site: " in proc.stdout, proc.stdout + proc.stderr
    # The payloads made it into the records: the test below is not vacuous.
    records = json.dumps(json.loads((out / "json" / "warscribe.json").read_text(encoding="utf-8")))
    for payload in (SCRIPT, ONERROR, MD_LINK, A_LINK, TITLE):
        assert json.dumps(payload)[1:-1] in records, payload
    return out


class _Audit(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action", "formaction") and value and value.strip().lower().startswith(
                    ("javascript:", "data:", "vbscript:")):
                self.problems.append(f"<{tag} {name}={value!r}>")
            if tag == "script" and name == "src" and value and "//" in value:
                self.problems.append(f"<script src={value!r}>")

    def handle_data(self, data) -> None:
        if "__pwned" in data and self.lasttag == "script":
            self.problems.append("inline script with the payload")


def test_no_payload_is_markup_in_any_page(hostile_build):
    pages = list((hostile_build / "site").rglob("*.html"))
    assert len(pages) > 200
    shown = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        audit = _Audit()
        audit.feed(html)
        assert not audit.problems, (page, audit.problems)
        shown += "&lt;script&gt;window.__pwned" in html
    assert shown >= 1  # the text is on the page, as text
    # The search index is data (JSON that the search script shows with textContent): the weapon's name is
    # there as text, exactly; the words of the pages are letters and digits only.
    search = hostile_build / "site" / "search"
    titles = json.loads((search / "titles.json").read_text(encoding="utf-8"))
    assert f"Storm bolter {TITLE}" in [row[0] for row in titles["pages"]]
    for shard in (search / "words").glob("*.json"):
        assert all(re.fullmatch(r"[^\W_]+", term) for term in json.loads(shard.read_text(encoding="utf-8"))), shard


def test_no_payload_runs_in_the_browser(hostile_build):
    sync_playwright, chromium = require_browser()
    with serve(hostile_build / "site") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(base + "datasheet/grey-knights/paladin-squad/")
            page.wait_for_load_state("networkidle")
            body = page.locator("article").inner_text()
            assert SCRIPT in body and MD_LINK in body and "click here" in body
            for link in page.locator("article a").all():
                if "click" in link.inner_text():
                    link.click()
            assert page.evaluate("window.__pwned") is None
            # Search results are drawn from the index: the payload must stay text there too.
            page.goto(base)
            results = ask(page, base, "storm bolter")
            assert results and page.evaluate("window.__pwned") is None
            assert page.locator(".ws-search__results img, .ws-search__results script").count() == 0
            assert f"Storm bolter {TITLE}" in page.locator(".ws-search--header .ws-search__results").inner_text()
            # The weapon's page: its title, sidebar and breadcrumbs hold the name as text.
            page.goto(base + results[0])
            page.wait_for_load_state("networkidle")
            assert page.locator("h1").inner_text() == f"Storm bolter {TITLE}"
            assert page.evaluate("window.__pwned") is None and page.locator("article img").count() == 0
        finally:
            browser.close()
