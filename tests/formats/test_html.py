"""The HTML reader: same records as the text seeds, and the site's markup conventions."""

from __future__ import annotations

from pathlib import Path

import pytest

from warscribe.schema.diagnostics import Report
from warscribe.extract.html import read_html
from warscribe.extract.pipeline import extract

from conftest import without_annotated

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "html"


def _without_source(records: list[dict]) -> dict[str, dict]:
    return {r["id"]: {k: v for k, v in without_annotated(r).items() if k != "source"} for r in records}


@pytest.fixture(scope="module")
def text_build():
    return extract(ROOT / "sources" / "manifest.yaml")


@pytest.fixture(scope="module")
def html_build():
    return extract(FIXTURES / "manifest.yaml")


def read(snippet: str, report: Report | None = None):
    report = report if report is not None else Report()
    doc = read_html("t.html", snippet.encode("utf-8"), "10e", "datasheet-page", {}, report)
    return doc, report


def texts(doc) -> list[str]:
    return [ln.text for ln in doc.lines if ln.use is None]


# -- the seed pages as HTML --------------------------------------------------------------

def test_html_pages_give_the_text_records_field_for_field(text_build, html_build):
    text = _without_source(text_build.records)
    html = _without_source(html_build.records)
    assert sorted(html) == sorted(text)
    differing = {rid: sorted(k for k in text[rid] if text[rid][k] != html[rid].get(k))
                 for rid in text if text[rid] != html[rid]}
    assert differing == {}


def test_html_records_cite_the_html_files_and_their_lines(html_build):
    ds = next(r for r in html_build.records if r["id"] == "grey-knights/paladin-squad")
    files = {s["file"] for s in ds["source"]}
    assert files == {"tests/fixtures/html/datasheet-grey-knights-paladin-squad.10e.html"}
    lines = (FIXTURES / "datasheet-grey-knights-paladin-squad.10e.html").read_text(encoding="utf-8").splitlines()
    first = ds["source"][0]["first_line"]
    assert "Paladin Squad</h1>" in lines[first - 1]
    bolter = next(r for r in html_build.records if r["id"] == "grey-knights/paladin-squad/storm-bolter")
    assert "Storm bolter" in lines[bolter["source"][0]["first_line"] - 1]


def test_html_pages_leave_no_line_unaccounted(html_build):
    unaccounted = [d for d in html_build.report.diagnostics if d.code == "unaccounted-line" and d.file.endswith(".html")]
    assert unaccounted == []
    assert not [d for d in html_build.report.errors if d.file.endswith(".html")]


def test_site_chrome_is_classified_not_read(html_build):
    doc = next(d for d in html_build.documents if d.path.endswith("inquisitor.11e.html"))
    uses = {ln.text: ln.use for ln in doc.lines}
    assert uses["Buy dice now & save 10%"] == "class:advert"
    assert uses["Rules site Factions"] == "class:navigation"
    assert not any("INJECTED" in ln.text or "tracked" in ln.text or "Commented-out" in ln.text for ln in doc.lines)


# -- the reader on snippets --------------------------------------------------------------

def test_kwb_spans_in_the_weapon_cell_become_bracket_notation():
    doc, _ = read("""<h1>F – U</h1><table>
<tr><th>RANGED WEAPONS</th><th>RANGE</th><th></th></tr>
<tr><td>Bolt pistol <span class="kwb2"><span class="kwb">PISTOL</span></span></td><td>12"</td><td></td></tr>
<tr><td><span>Combi-weapon</span> <span class="kwb">anti-infantry 4+</span>, <span class="kwbw">[DEVASTATING WOUNDS]</span></td>
<td>24"</td></tr>
<tr><td>Bolter</td><td>24"</td></tr></table>""")
    rows = [ln for ln in doc.lines if ln.cells is not None and ln.text.startswith("|")]
    assert [r.cells[0] for r in rows] == ["Bolt pistol [PISTOL]", "Combi-weapon [anti-infantry 4+, DEVASTATING WOUNDS]",
                                           "Bolter"]
    assert rows[0].cells == ["Bolt pistol [PISTOL]", '12"', ""]
    assert rows[0].text == '| Bolt pistol [PISTOL] | 12" | |'
    header = doc.lines[1]
    assert (header.text, header.cells) == ("RANGED WEAPONS | RANGE | |", ["RANGED WEAPONS", "RANGE", ""])


def test_kwb_spans_outside_the_first_cell_are_plain_keywords():
    doc, _ = read('<p><b>KEYWORDS:</b> <span class="kwb">INFANTRY</span>, <span class="kwb">PSYKER</span></p>'
                  '<table><tr><td>x</td><td><span class="kwb">PISTOL</span></td></tr></table>')
    assert texts(doc)[0] == "KEYWORDS: INFANTRY, PSYKER"
    assert doc.lines[1].cells == ["x", "PISTOL"]


def test_tooltip_content_is_read_after_the_body_wherever_it_stands():
    doc, report = read("""<div class="tooltip_templates" style="display:none">
<div id="tooltip_content00012"><p>DEEP STRIKE</p><p>Set it up in Reserves.</p></div>
</div>
<h1>Grey Knights – Paladin Squad</h1>
<p><b>CORE:</b> <span class="tooltip00012" data-tooltip-content="#tooltip_content00012">Deep Strike</span></p>
<p>Last body line</p>""")
    assert texts(doc) == ["Grey Knights – Paladin Squad", "CORE: Deep Strike", "Last body line",
                          "DEEP STRIKE", "Set it up in Reserves."]
    assert [ln.no for ln in doc.lines] == [4, 5, 6, 2, 2]
    assert report.diagnostics == []


def test_a_tooltip_pointing_nowhere_is_reported_with_its_line():
    _, report = read('<h1>F – U</h1>\n<p>See <span class="tooltip7" data-tooltip-content="#tooltip_content7">Lone Op</span></p>')
    [d] = report.diagnostics
    assert (d.code, d.line, d.level) == ("missing-tooltip", 2, "warning")
    assert "tooltip_content7" in d.expected


def test_stratagem_labels_start_lines():
    doc, _ = read('<div class="stratLegend"><b>WHEN:</b> Your Shooting phase. <b>TARGET:</b> One unit.'
                  '<br><b>EFFECT:</b> Re-roll <b>hits</b>. <b>RESTRICTIONS:</b> Once per battle.</div>')
    assert texts(doc) == ["WHEN: Your Shooting phase.", "TARGET: One unit.", "EFFECT: Re-roll hits.",
                          "RESTRICTIONS: Once per battle."]


def test_navigation_adverts_scripts_and_comments_are_ignored():
    doc, _ = read("""<header><a>Home</a></header><nav><a>Army List</a></nav>
<div class="ad_slot">Buy dice</div><div id="sidebar-menu"><p>Menu</p></div>
<script>document.write('<p>evil</p>')</script><style>p{}</style><!-- <p>hidden</p> -->
<h1>F – U</h1><footer>(c)</footer><div class="loadout">Kept: loadout is not 'ad'</div>""")
    assert texts(doc) == ["F – U", "Kept: loadout is not 'ad'"]
    classified = {ln.text: ln.use for ln in doc.lines if ln.use}
    assert classified == {"Home": "class:navigation", "Army List": "class:navigation", "Buy dice": "class:advert",
                          "Menu": "class:navigation", "(c)": "class:navigation"}


def test_entities_are_decoded_once_and_markup_in_text_stays_text():
    doc, _ = read("<p>Within 12&quot; &ndash; it&rsquo;s &amp;lt;b&amp;gt; &lt;script&gt;x&lt;/script&gt;</p>")
    assert texts(doc) == ["Within 12\" – it’s &lt;b&gt; <script>x</script>"]


def test_list_items_and_whitespace():
    doc, report = read("<ul>\n  <li>1   Paragon</li>\n  <li>3-9\n Paladins</li>\n</ul><p>a\u00a0b</p>")
    # A no-break space is a space (issue 9): repaired, reported, and the original kept for provenance.
    assert texts(doc) == ["- 1 Paragon", "- 3-9 Paladins", "a b"]
    assert doc.lines[2].repairs == [(2, "\u00a0", " ")]
    assert [d.code for d in report.diagnostics] == ["repaired-character"]
    assert [ln.no for ln in doc.lines] == [2, 3, 5]


def test_bad_bytes_are_reported_and_the_rest_is_read():
    report = Report()
    doc = read_html("t.html", b"<p>ok</p>\n<p>caf\xe9</p>", "10e", "datasheet-page", {}, report)
    [d] = report.errors
    assert (d.code, d.line, d.column) == ("bad-encoding", 2, 7)
    assert texts(doc) == ["ok", "caf\ufffd"]


def test_empty_or_markup_only_page_is_an_error():
    for data in (b"", b"<html><body><nav>x</nav></body></html>"):
        report = Report()
        assert read_html("t.html", data, "10e", "datasheet-page", {}, report) is None
        assert [d.code for d in report.errors] == ["empty-source"]
