"""The "What changed" page (site/changes_page.py): `warscribe build --since OLD` on the seeds
and on a copy whose Inquisitor's bolt pistol gained AP -1, built for real and opened in Chromium."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest

from sitetest import browsing

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from checkdiff_helpers import INQUISITOR, build, copy_sources, replace_line  # noqa: E402

from warscribe.build import run_build  # noqa: E402

AP = {INQUISITOR: replace_line(4, "| 4 | 0 | 1 |", "| 4 | -1 | 1 |")}


@pytest.fixture(scope="module")
def since_build(tmp_path_factory):
    """(output folder, what the build printed): the seeds built, then the edited seeds built --since them."""
    root = tmp_path_factory.mktemp("since")
    old = build(copy_sources(root / "old"), root / "old" / "out")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = run_build(copy_sources(root / "new", AP), root / "new" / "out", quiet=True, since=str(old))
    assert status == 0, printed.getvalue()
    return root / "new" / "out", printed.getvalue()


@pytest.mark.slow
def test_a_build_since_a_previous_one_has_a_what_changed_page(since_build):
    out, printed = since_build
    assert "Changes since" in printed and "1 change: 0 points" in printed and "1 profiles" in printed
    page = (out / "site" / "changes" / "index.html").read_text(encoding="utf-8")
    assert "What changed" in page and "Bolt pistol: AP" in page and "Summary" in page
    home = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="changes/"' in home  # in the navigation


@pytest.mark.slow
def test_the_page_opens_folded_and_links_the_unit(since_build):
    out, _printed = since_build
    with browsing(out / "site") as (browser, base):
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "changes/")
        row = page.locator("details td", has_text="Bolt pistol: AP").first
        assert not row.is_visible()  # folded under its faction
        page.locator("details summary").first.click()
        assert row.is_visible()
        page.locator("details a", has_text="Inquisitor").first.click()
        page.wait_for_load_state()
        assert "/datasheet/" in page.url and "Inquisitor" in page.title()
        assert not errors


def test_an_unreadable_previous_build_is_reported_and_the_build_goes_on(tmp_path):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = run_build(copy_sources(tmp_path), tmp_path / "out", quiet=True, site=False,
                           since=str(tmp_path / "no-such-build"))
    assert status == 0
    assert "warning: --since" in printed.getvalue() and (tmp_path / "out" / "json").is_dir()
