"""Site tests' helpers: the seeds' site, serving it, and driving it in headless Chromium (Debian's package, via playwright).

Under CI (CI=true) a missing browser or playwright fails the tests; elsewhere it skips them.
playwright's own browser download is never used: the tests launch the system Chromium.
"""

from __future__ import annotations

import contextlib
import functools
import html.parser
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    for candidate in (os.environ.get("WARSCRIBE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return ""


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


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path):
    """An HTTP server on a free local port for `folder`; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


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
