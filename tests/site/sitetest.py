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


def require_browser():
    """playwright's sync API and the Chromium path; skip (or fail under CI) when either is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    path = chromium_path()
    if sync_playwright is None or not path:
        why = "playwright is not installed" if sync_playwright is None else "chromium is not installed"
        if os.environ.get("CI"):
            pytest.fail(f"{why}: the browser tests must run under CI (.ci/run installs both)")
        pytest.skip(why)
    return sync_playwright, path


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
    """The seeds built with their site (`warscribe build` into a temporary folder)."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("seed-site") / "out"
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--out", str(out), "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


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
