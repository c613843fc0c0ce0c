"""`warscribe bench site`, the whole game: the BattleScribe example and the Wahapedia export, each
built with its site, timed by stage, and its search measured in headless Chromium (bytes fetched
and time until the first result).

Stages: the build without the site (extraction and records), page generation (timed in this
process from the build's records), and mkdocs (the rest of the site's time). Each build runs
in a fresh interpreter; CPU time is printed beside wall time, since on a shared machine the
wall clock also measures the other jobs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from warscribe import ROOT
from warscribe.bench.measure import run_warscribe

# The whole game from each of its sources: (manifest, the shared folder its sources lie in, goal in s wall).
WHOLE_GAMES = ((ROOT / "examples" / "bsdata-10e" / "manifest.yaml", ROOT.parent / "shared" / "bsdata", 90),
               (ROOT / "examples" / "wahapedia-10e" / "manifest.yaml", ROOT.parent / "shared" / "wahapedia", 60))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
QUERIES = ("Intercessor Squad", "bolt rifle", "[SUSTAINED HITS]", "Aun'va", "intercesor", "fire overwatch")


def _build(manifest: Path, data: Path, out: Path, site: bool) -> tuple[float, float, str, int]:
    """Wall and CPU seconds of one whole-game build in a child process, what it printed, and its peak
    memory in bytes (the largest resident set of the build and of the mkdocs process it runs)."""
    flags = [] if site else ["--no-site"]
    run = run_warscribe(["build", "--manifest", str(manifest), "--data", str(ROOT / "sources"), "--data", str(data),
                         "--out", str(out), "-q", *flags], cwd=out.parent)
    if run.status not in (0, 1) or "Records:" not in run.output:
        raise SystemExit(f"the whole-game build failed:\n{run.output}")
    return run.wall, run.cpu, run.output, int(run.peak_mib * 1024 * 1024)


def _generation(build: Path, scratch: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds of generating the pages (no mkdocs) from a build's records, and the pages."""
    from warscribe.schema import bundle
    from warscribe.site.generate import generate

    records = bundle.load(build)
    report = json.loads((build / "report.json").read_text(encoding="utf-8"))
    wall, cpu = time.perf_counter(), time.process_time()
    gen = generate(records, report["diagnostics"], scratch)
    return time.perf_counter() - wall, time.process_time() - cpu, gen.pages


def chromium_path(headless_shell: bool = False) -> str:
    """Debian's Chromium (or $WARSCRIBE_CHROMIUM); the site's browser tests use it too.

    `headless_shell`: Debian's chromium-headless-shell first where it is installed (the same Blink,
    without the full browser around it: the tests' hundreds of page loads take about a quarter less
    time, most of it CPU the other test workers need). The bench measures the full browser, as a
    player's is."""
    shell = ["/usr/bin/chromium-headless-shell", shutil.which("chromium-headless-shell")] if headless_shell else []
    for candidate in (os.environ.get("WARSCRIBE_CHROMIUM"), *shell, "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return ""


class _Quiet(SimpleHTTPRequestHandler):
    def __init__(self, *args, served: list | None = None, **kwargs) -> None:
        self.served = served
        super().__init__(*args, **kwargs)

    def log_request(self, code="-", size="-") -> None:
        if self.served is not None:
            self.served.append((self.path.lstrip("/"), int(getattr(code, "value", code))))

    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path, served: list | None = None):
    """An HTTP server on a free local port for `folder`; yields its base URL. `served` (if given)
    gets the (path, status) of every response, in order."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder), served=served))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def search_in_browser(site: Path) -> list[str] | str:
    """Bytes fetched for search and time to the first result, per query, from a cold start (each query in
    a fresh browser context: focus the box, type, wait for the first result); or why it cannot run."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    chromium = chromium_path()
    if not chromium:
        return "no Chromium (set WARSCRIBE_CHROMIUM)"
    lines = []
    with serve(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for query in QUERIES:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.goto(base + "datasheet/space-marines/intercessor-squad/")
            page.wait_for_load_state("networkidle")
            fetched = []
            page.on("response", lambda r: fetched.append(len(r.body()) if r.ok and "/search/" in r.url else 0))
            field = page.locator(".ws-search--header .ws-search__input")
            start = time.perf_counter()
            field.click()
            field.type(query, delay=0)
            page.locator(".ws-search--header .ws-search__item").first.wait_for(state="visible", timeout=60000)
            elapsed = time.perf_counter() - start
            first = page.locator(".ws-search--header .ws-search__title").first.inner_text()
            lines.append(f"  {query!r:<22} first result {elapsed:5.2f} s after focus, {sum(fetched) / 1024:7.0f} KiB "
                         f"of index fetched: {first}")
            context.close()
        browser.close()
    return lines


def run_whole_game() -> int:
    for manifest, data, goal in WHOLE_GAMES:
        if not (manifest.is_file() and data.is_dir()):
            print(f"whole game ({manifest.relative_to(ROOT)}): skipped ({data} is missing)")
            continue
        _whole_game(manifest, data, goal)
    return 0


def _whole_game(manifest: Path, data: Path, goal: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        wall, cpu, output, peak = _build(manifest, data, base / "out", site=True)
        records_wall, records_cpu, _, records_peak = _build(manifest, data, base / "records", site=False)
        gen_wall, gen_cpu, pages = _generation(base / "out", base / "gen")
        site = base / "out" / "site"
        search = site / "search"
        titles = (search / "titles.json").stat().st_size
        words = sum(p.stat().st_size for p in (search / "words").glob("*.json"))
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        mkdocs_wall, mkdocs_cpu = wall - records_wall - gen_wall, cpu - records_cpu - gen_cpu
        print(f"whole game ({manifest.relative_to(ROOT)}): {pages} pages, built in {wall:.1f} s wall, {cpu:.1f} s CPU, "
              f"peak {peak / 2**20:.0f} MB (goal: under {goal} s wall; load average {load:.2f} before)")
        # Writing the records overlaps mkdocs (its own process): "the rest" is what the site adds to the wall clock.
        print(f"  records alone {records_wall:.1f} s wall / {records_cpu:.1f} s CPU, peak {records_peak / 2**20:.0f} MB; "
              f"pages {gen_wall:.1f} / {gen_cpu:.1f}; mkdocs and the rest {mkdocs_wall:.1f} / {mkdocs_cpu:.1f}")
        print(f"  search index: titles {titles / 1024:.0f} KiB (fetched on focus), words {words / 1024:.0f} KiB in "
              f"{len(list((search / 'words').glob('*.json')))} shards (fetched per query word); site {size / 2**20:.0f} MiB")
        measured = search_in_browser(site)
        if isinstance(measured, str):
            print(f"  search in Chromium: skipped, {measured}")
        else:
            print("  search in Chromium (cold: a fresh browser context per query, desktop viewport):")
            print("\n".join(measured))
        print(output.strip().splitlines()[-1])
