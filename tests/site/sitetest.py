"""Site tests' helpers: the seeds' site, serving it, and driving it in headless Chromium (Debian's package, via playwright).

Under CI (CI=true) a missing browser or playwright fails the tests; elsewhere it skips them.
playwright's own browser download is never used: the tests launch the system Chromium.
"""

from __future__ import annotations

import contextlib
import html.parser
import os
from pathlib import Path

import pytest

from warscribe.bench.site import CHROMIUM_ARGS, chromium_path, serve  # noqa: F401 (shared with the bench)
from conftest import made_once


def require_browser():
    """playwright's sync API and the Chromium path; skip (or fail under CI) when either is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    path = chromium_path(headless_shell=True)
    if sync_playwright is None or not path:
        why = "playwright is not installed" if sync_playwright is None else "chromium is not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{why}: the browser tests must run under CI (.ci/run installs both)")
        pytest.skip(why)
    return sync_playwright, path


def link_target(page: str, href: str) -> tuple[str, str]:
    """(path, fragment) that a relative or absolute-path `href` on the page at path `page` leads to,
    exactly as ``urlsplit(urljoin("http://x" + page, href))`` gives them (its dot segments and empty
    segments removed the way urllib does): the whole game's sites have a million links, and this is
    several times faster than urljoin. tests/site/test_sitegen.py holds the two to each other."""
    rest, _, fragment = href.partition("#")
    path = rest.partition("?")[0]
    if not path:
        return page, fragment
    if path.startswith("/"):
        segments = path.split("/")
    else:
        base = page.split("/")
        if base[-1] != "":
            del base[-1]
        segments = base + path.split("/")
        segments[1:-1] = [segment for segment in segments[1:-1] if segment]
    resolved: list[str] = []
    for segment in segments:
        if segment == "..":
            if resolved:
                resolved.pop()
        elif segment != ".":
            resolved.append(segment)
    if segments[-1] in (".", ".."):
        resolved.append("")
    joined = "/".join(resolved) or "/"
    return joined if joined.startswith("/") else "/" + joined, fragment


class Links(html.parser.HTMLParser):
    """The hrefs, srcs and element ids of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        for key in ("href", "src"):
            if a.get(key) is not None and tag in ("a", "link", "script", "img"):
                self.links.append(a[key])


@pytest.fixture(scope="module")
def seed_build(tmp_path_factory) -> Path:
    """The seeds built with their site (`warscribe build` into a temporary folder), once per test run."""
    import subprocess
    import sys

    def make(folder: Path) -> dict:
        proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--out", str(folder / "out"), "-q"],
                              capture_output=True, text=True)
        return {"status": proc.returncode, "output": proc.stdout + proc.stderr}

    folder, made = made_once(tmp_path_factory, "seed-site", make)
    assert made["status"] == 0, made["output"]
    return folder / "out"


@contextlib.contextmanager
def browsing(folder: Path):
    """Headless Chromium and an HTTP server for `folder`: yields (browser, base URL)."""
    sync_playwright, chromium = require_browser()
    with serve(folder) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser, base
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser_site(seed_build):
    """The seeds' site in headless Chromium: (browser, base URL)."""
    with browsing(seed_build / "site") as both:
        yield both


@pytest.fixture
def page(browser_site):
    """A desktop-sized page of the seeds' site that records its requests and fails the test on a script error."""
    browser, base = browser_site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.requested = []
    pg.on("request", lambda r: pg.requested.append(r.url))
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.base = base
    yield pg
    assert not pg.errors, pg.errors  # no script of the page (ours or the theme's) failed
    context.close()
