"""Page generation without a browser: escaping, link resolution, one page per record, the page
format the mkdocs hook reads, the search index, the page families' registry."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from warscribe.schema import bundle as bundle_module
from warscribe.schema import records
from warscribe.site import generate, hooks, registry, search, urls
from warscribe.site.datasheet_page import characteristic, feel_no_pain, weapon_row
from warscribe.site.linker import Linker
from warscribe.site.markup import a, attrs, esc
from warscribe.site.pages import PAGE_MARKER, Page, Site

SRC = [{"file": "sources/x.txt", "first_line": 1, "last_line": 2, "ruleset": "11e"}]


def _bundle(extra=(), sources=None):
    recs = [
        records.rule(id="11e/rules/06-03-hazard-rolls", name="Hazard Rolls", ruleset="11e", number="06.03",
                     title="Hazard Rolls", text="Roll one D6 for each <b>unit</b>.", bullets=[], see_also=[], source=SRC),
        records.ability(id="11e/abilities/sustained-hits", name="Sustained Hits", ruleset="11e", type="weapon",
                        ability_id="sustained-hits", text="Extra hits.", bullets=["Each Critical Hit scores 'x' additional hits."],
                        source=SRC),
        records.keyword(id="11e/keywords/infantry", name="INFANTRY", ruleset="11e", faction_keyword=False,
                        datasheets=[], usage=[], source=SRC),
        records.stratagem(id="core-11e/fire-overwatch", name="Fire Overwatch", ruleset="11e", cp=1, category=None,
                          origin="core", detachment=None, effect="Shoot.", source=SRC),
        *extra,
    ]
    meta = {"sources": sources or [{"file": "sources/x.txt", "ruleset": "11e", "sha256": "0" * 64}]}
    return bundle_module.from_records(recs, meta)


def _army(source=SRC):
    """A faction with a detachment (a stratagem, an enhancement), a datasheet with two weapons of one name."""
    gk = "grey-knights"
    return [
        records.detachment(id=f"{gk}/warpbane", name="Warpbane Task Force", ruleset="11e", faction="Grey Knights",
                           rule={"name": "Hallowed", "text": "Re-roll hits."}, stratagems=[f"{gk}/warpbane/aegis"],
                           enhancements=[f"{gk}/warpbane/enhancements/shroud"], source=source),
        records.stratagem(id=f"{gk}/warpbane/aegis", name="Aegis Eternal", ruleset="11e", cp=1, category="Wargear",
                          origin="detachment", detachment=f"{gk}/warpbane", effect="Worsen AP.",
                          targets=[f"{gk}/paladins", "ia/inquisitor"], source=source),
        records.stratagem(id="boarding-actions/counter", name="Counter-offensive", ruleset="11e", cp=2, category=None,
                          origin="boarding-actions", detachment=None, effect="Fight.", source=source),
        records.enhancement(id=f"{gk}/warpbane/enhancements/shroud", name="Inquisitor's Shroud", ruleset="11e",
                            detachment=f"{gk}/warpbane", points=15, text="Stealth.", restriction=None, source=source),
        records.datasheet(id=f"{gk}/paladins", name="Paladin Squad", ruleset="11e", faction="Grey Knights",
                          keywords=["INFANTRY", "PALADIN SQUAD"], faction_keywords=["GREY KNIGHTS"],
                          composition=[{"name": "Paladin", "min": 5, "max": 10}], points=[{"models": 5, "points": 250}],
                          wargear_options=[], models=[{"name": "Paladin", "M": 5, "T": 5, "Sv": 2, "invulnerable": 4, "W": 3, "Ld": 6, "OC": 1}],
                          abilities=[{"name": "Feel No Pain 5+", "type": "core", "text": None, "ref": None}],
                          weapons=[f"{gk}/paladins/storm-bolter", f"{gk}/paladins/storm-bolter-melee"],
                          stratagems=["boarding-actions/counter", f"{gk}/warpbane/aegis", "core-11e/fire-overwatch"],
                          source=source),
        records.datasheet(id="ia/inquisitor", name="Inquisitor", ruleset="11e", faction="Imperial Agents",
                          keywords=["CHARACTER", "INFANTRY"], faction_keywords=[], composition=[], points=[],
                          abilities=[], weapons=[], wargear_options=[], source=source),
        records.weapon(id=f"{gk}/paladins/storm-bolter", name="Storm bolter", ruleset="11e", datasheet=f"{gk}/paladins",
                       type="ranged", range=24, attacks=2, skill=2, strength=4, ap=0, damage=1, abilities=[], source=source),
        records.weapon(id=f"{gk}/paladins/storm-bolter-melee", name="Storm bolter", ruleset="11e",
                       datasheet=f"{gk}/paladins", type="melee", range=None, attacks=1, skill=3, strength=4, ap=0,
                       damage=1, abilities=[], source=source),
    ]


def test_escaping_and_attributes():
    assert esc('<script>&"x"\n\ny') == "&lt;script&gt;&amp;&quot;x&quot; y"
    assert esc("plain text") == "plain text"
    with pytest.raises(ValueError):
        attrs(onerror="x")
    with pytest.raises(ValueError):
        a("javascript:alert(1)", "x")
    with pytest.raises(ValueError):
        a('../x/" onclick="y', "x")
    assert a("../rule/x/#a", "t") == '<a href="../rule/x/#a">t</a>'
    assert attrs(title='say "hi" & <go>') == ' title="say &quot;hi&quot; &amp; &lt;go&gt;"'


def test_relative_urls():
    assert urls.relative("datasheet/a/b/", "ability/11e/abilities/x/") == "../../../ability/11e/abilities/x/"
    assert urls.relative("datasheet/a/b/", "datasheet/a/c/") == "../c/"
    assert urls.relative("datasheet/a/b/", "datasheet/a/b/#weapon-x") == "#weapon-x"
    assert urls.relative("", "rules/") == "./rules/" and urls.relative("rules/", "") == "../"
    assert urls.file_of("") == "index.md" and urls.file_of("rule/a/b/#c") == "rule/a/b.md"


def test_linker_resolves_and_reports():
    linker = Linker(_bundle())
    out = linker.text("Use [SUSTAINED HITS 2] and (06.03) on INFANTRY units, or the Fire Overwatch Stratagem.\n"
                      "See (99.01), [FLUFFY], and the Made Up Stratagem. <img onerror=x>",
                      "stratagem/core-11e/x/", "11e")
    assert 'href="../../../ability/11e/abilities/sustained-hits/"' in out
    assert '(<span class="ws-tipped"><a href="../../../rule/11e/rules/06-03-hazard-rolls/" class="ws-ref">06.03</a>' in out
    assert 'href="../../../keyword/11e/keywords/infantry/" class="ws-ref">INFANTRY</a>' in out
    assert 'href="../fire-overwatch/" class="ws-ref">Fire Overwatch</a>' in out
    assert "additional hits" in out  # the tooltip
    assert "&lt;img onerror=x&gt;" in out and "<img" not in out
    assert {(u.what, u.text) for u in linker.unresolved} == {
        ("rule number", "(99.01)"), ("ability", "[FLUFFY]"), ("stratagem", "Made Up Stratagem")}
    assert all(u.page == "stratagem/core-11e/x/" for u in linker.unresolved)


def _page(docs, url: str) -> tuple[dict, str]:
    """A generated page file's table of contents and sidebar, and its HTML."""
    text = (docs / urls.file_of(url)).read_text(encoding="utf-8")
    _front, body = text.split("---\n", 2)[1:]
    marker, head, html = body.split("\n", 2)
    assert marker == PAGE_MARKER
    return json.loads(head), html


def test_a_page_for_every_record_and_the_unresolved_on_diagnostics(tmp_path):
    fluffy = [records.stratagem(id=f"core-11e/fluff-{n}", name=f"Fluff {n}", ruleset="11e", cp=1, category=None,
                                origin="core", detachment=None, effect=effect, source=SRC)
              for n, effect in enumerate(("Gain [FLUFFY].", "Gain [fluffy] and the Made Up Stratagem."))]
    b = _bundle(_army() + fluffy)
    gen = generate(b, [{"file": "sources/x.txt", "line": 3, "level": "warning", "code": "lost-table",
                        "message": "a <table> was lost"}], tmp_path)
    docs = tmp_path / "site-src" / "docs"
    for rec in b:
        if rec["kind"] != "weapon":
            assert (docs / urls.record_file(rec)).is_file(), rec["id"]
    # Weapons: one page per name and ruleset, both profiles of the storm bolter on it.
    _head, weapon = _page(docs, "weapon/11e/storm-bolter/")
    assert "<h1>Storm bolter</h1>" in weapon and weapon.count('data-label="Range">24&quot;') == 1 and "Melee" in weapon
    assert (docs / "source" / "x-txt.md").is_file() and (docs / "assets" / "warscribe.css").is_file()
    _head, diagnostics = _page(docs, "diagnostics/")
    assert "a &lt;table&gt; was lost" in diagnostics
    # The unresolved references one row each, with the pages they are on.
    unresolved = diagnostics[diagnostics.index('id="unresolved"'):]
    assert "2 references the site could not link, 3 times in all" in unresolved
    rows = re.findall(r"<tr>(.*?)</tr>", unresolved, re.S)[1:]
    assert len(rows) == 2 and "<code>[FLUFFY]</code> <code>[fluffy]</code>" in rows[0] and ">2<" in rows[0]
    assert "../stratagem/core-11e/fluff-0/" in rows[0] and "../stratagem/core-11e/fluff-1/" in rows[0]
    assert "Made Up Stratagem" in rows[1]
    _head, rule_page = _page(docs, "rule/11e/rules/06-03-hazard-rolls/")
    assert "&lt;b&gt;unit&lt;/b&gt;" in rule_page and "sources/x.txt" in rule_page
    assert gen.pages == len(list(docs.rglob("*.md")))
    assert not (docs / "overrides").exists()  # the theme's templates are read where they are


def test_a_datasheet_page_reads_as_players_read_it(tmp_path):
    generate(_bundle(_army()), [], tmp_path)
    docs = tmp_path / "site-src" / "docs"
    head, html = _page(docs, "datasheet/grey-knights/paladins/")
    # Characteristics with their units and signs; the invulnerable save and Feel No Pain as players write them.
    models = re.search(r'<table class="ws-table ws-models">.*?</table>', html).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", models)
    assert cells == ["Paladin", "5&quot;", "5", "2+", "3", "6+", "1", "4++", "5+++"]
    assert [th for th in re.findall(r"<th>(.*?)</th>", models)] == ["Model", "M", "T", "Sv", "W", "Ld", "OC", "Inv", "FNP"]
    # Breadcrumbs from home to the faction; the sidebar lists the faction's datasheets, this one marked.
    assert re.search(r'<nav class="ws-crumbs".*?>Home<.*?>Factions<.*?>Grey Knights</a>', html)
    assert '<a href="../paladins/" class="ws-current" aria-current="page">Paladin Squad<' in head["nav"]
    assert [t[2] for t in head["toc"]][:2] == ["Models", "Ranged weapons"]
    # Stratagems: core first, then the detachments, Boarding Actions last.
    strats = html[html.index('id="stratagems"'):]
    order = [strats.index(x) for x in ("Core stratagems", "Warpbane Task Force", "Boarding Actions")]
    assert order == sorted(order), order
    # Two profiles of one name on one datasheet have distinct anchors, both linked to the weapon's page.
    assert 'id="weapon-storm-bolter"' in html and 'id="weapon-storm-bolter-melee"' in html
    assert html.count('href="../../../weapon/11e/storm-bolter/"') == 2


def test_a_unit_of_many_detachments_lists_their_stratagems_closed(tmp_path):
    """A hundred stratagems in a score of detachments: core ones open, each detachment one closed line with its count."""
    gk, extra, ids = "grey-knights", [], ["core-11e/fire-overwatch"]
    for n in range(5):
        det = f"{gk}/det{n}"
        strats = [f"{det}/s{k}" for k in range(n + 1)]
        extra.append(records.detachment(id=det, name=f"Host {n}", ruleset="11e", faction="Grey Knights",
                                        rule={"name": "R", "text": "T."}, stratagems=strats, enhancements=[], source=SRC))
        extra += [records.stratagem(id=sid, name=f"Ploy {n}.{k}", ruleset="11e", cp=1, category=None, origin="detachment",
                                    detachment=det, effect="E.", source=SRC) for k, sid in enumerate(strats)]
        ids += strats
    army = [r for r in _army() if r["kind"] != "datasheet"] + [dict(r, stratagems=ids) for r in _army() if r["id"] == f"{gk}/paladins"]
    generate(_bundle(army + extra), [], tmp_path)
    _head, html = _page(tmp_path / "site-src" / "docs", "datasheet/grey-knights/paladins/")
    strats = html[html.index('id="stratagems"'):]
    assert "16 stratagems in 6 groups" in strats
    assert strats.index("Core stratagems") < strats.index("<details")
    closed = re.findall(r'<details class="ws-group"><summary>(Host \d)\s*<span class="ws-count">(\d+) stratagems?</span>', strats)
    assert closed == [(f"Host {n}", str(n + 1)) for n in range(5)]
    assert "<details open" not in strats


def test_weapon_abilities_as_players_read_them_linked_or_not():
    site = Site(_bundle(_army()), [])
    page = Page("datasheet/grey-knights/paladins/", "Paladin Squad")
    weapon = dict(next(r for r in _army() if r["kind"] == "weapon"), abilities=[
        {"id": "sustained-hits", "text": "sustained hits 1", "x": 1}, {"id": "blast", "text": "blast"},
        {"id": "custom", "text": "Shreds armour", "name": "Shreds armour"}])
    cell = weapon_row(site, page, weapon)[-1]
    assert ">SUSTAINED HITS 1</a>" in cell  # linked to its rule, with its summary
    assert cell.endswith(", BLAST, Shreds armour")  # no record of Blast here: printed alike, unlinked
    assert [(u.what, u.text) for u in site.linker.unresolved] == [("ability", "blast")]


def test_a_large_a_to_z_index_is_a_page_per_initial(tmp_path, monkeypatch):
    from warscribe.site import indexes

    generate(_bundle(_army()), [], tmp_path / "one")
    _head, whole = _page(tmp_path / "one" / "site-src" / "docs", "a-z/")
    assert 'href="../datasheet/grey-knights/paladins/">Paladin Squad<' in whole
    monkeypatch.setattr(indexes, "A_TO_Z_PAGE_LIMIT", 3)
    generate(_bundle(_army()), [], tmp_path / "split")
    docs = tmp_path / "split" / "site-src" / "docs"
    _head, top = _page(docs, "a-z/")
    assert "Paladin Squad" not in top and re.search(r'href="\./p/">P</a><small> \d+ pages?</small>', top)
    _head, p = _page(docs, "a-z/p/")
    assert 'href="../../datasheet/grey-knights/paladins/">Paladin Squad</a><small> Datasheet, Grey Knights</small>' in p
    assert "<strong>P</strong>" in p and 'href="../s/">S</a>' in p  # the bar: this initial, the others linked
    assert re.search(r'<nav class="ws-crumbs".*?>Home<.*?href="../">A–Z index<', p)


def test_characteristics_and_feel_no_pain():
    assert [characteristic(k, v) for k, v in (("M", 6), ("Sv", 3), ("Ld", 6), ("invulnerable", 4), ("fnp", 6),
                                                ("T", 4), ("M", None), ("OC", 0))] == ['6"', "3+", "6+", "4++", "6+++", "4", "-", "0"]
    assert feel_no_pain({"abilities": [{"name": "Feel No Pain 5+", "type": "core"}, {"name": "Feel No Pain 4+", "type": "core"}]}) == 4
    assert feel_no_pain({"abilities": [{"name": "Feel No Pain", "type": "core"}]}) is None  # no value: nothing to print


def test_a_stratagem_groups_the_units_it_can_target(tmp_path):
    generate(_bundle(_army()), [], tmp_path)
    _head, html = _page(tmp_path / "site-src" / "docs", "stratagem/grey-knights/warpbane/aegis/")
    targets = html[html.index('id="targets"'):]
    groups = re.findall(r'<details class="ws-group"[^>]*><summary>(.*?) <span', targets)
    assert groups == ["Grey Knights", "Imperial Agents"]
    assert "Characters (1)" in targets and "Infantry (1)" in targets


def test_the_hook_hands_a_generated_page_to_the_theme_as_it_is():
    page = Page("rule/x/", "A <rule>", kind="rule")
    page.section("First", "<p>one</p>")
    page.heading("Inner", level=3)
    page.section("Second", "<p>two</p>")

    class FakePage:
        pass

    fake = FakePage()
    markdown = page.markdown().split("---\n", 2)[2]
    assert hooks.on_page_markdown(markdown, page=fake, config={}, files=None) == markdown
    fake.markdown = markdown
    fake.render(config={}, files=None)
    assert fake.content.startswith("<h1>A &lt;rule&gt;</h1>") and "<p>two</p>" in fake.content
    assert [(t.title, [c.title for c in t.children]) for t in fake.toc] == [("First", ["Inner"]), ("Second", [])]
    assert fake.present_anchor_ids == {"first", "inner", "second"}
    # A hand-written Markdown page keeps mkdocs' own rendering.
    other = FakePage()
    hooks.on_page_markdown("# Hello\n", page=other, config={}, files=None)
    assert "render" not in vars(other)


def test_the_search_index_knows_every_page_by_its_title(tmp_path):
    gen = generate(_bundle(_army()), [], tmp_path)
    folder = tmp_path / "site-src" / "docs" / "search"
    titles = json.loads((folder / "titles.json").read_text(encoding="utf-8"))
    rows = {(r[0], titles["kinds"][r[1]]): r for r in titles["pages"]}
    for key in [("Paladin Squad", "datasheet"), ("INFANTRY", "keyword"),
                ("Storm bolter", "weapon"), ("[SUSTAINED HITS]", "ability"), ("06.03 Hazard Rolls", "rule"),
                ("Inquisitor's Shroud", "enhancement"), ("Grey Knights", "faction")]:
        assert key in rows, key
    assert rows[("06.03 Hazard Rolls", "rule")][4] == ["Hazard Rolls"]  # the name without its number, too
    assert rows[("Storm bolter", "weapon")][3] == "weapon/11e/storm-bolter/"
    assert titles["kinds"][:3] == ["faction", "datasheet", "stratagem"]  # the order ties go by
    # A word of a page's text: in its shard, as base-36 differences between page numbers.
    shard = json.loads((folder / "words" / (search.shard_of("hallowed") + ".json")).read_text(encoding="utf-8"))
    pages = []
    for d in shard["hallowed"].split(","):
        pages.append((pages[-1] if pages else 0) + int(d, 36))
    assert {titles["pages"][p][0] for p in pages} == {"Warpbane Task Force"}
    assert gen.search["titles"] == len((folder / "titles.json").read_bytes())
    assert search.tokens("[Aun’Va]  the Ça-Ira!") == ["aunva", "the", "ca", "ira"]
    assert search.shard_of("é1x") == "_e91" and search.shard_of("ab") == "ab"


def test_a_new_kind_of_page_is_one_function_and_one_registration(tmp_path, monkeypatch):
    def changes(site):
        page = Page("changes/", "What changed", kind="changes", crumbs=[("Home", "")])
        page.section("Since the last build", "<p>nothing</p>")
        page.index("Nothing changed since the last build")
        yield page

    families = list(registry.FAMILIES)
    families.insert(families.index(next(f for f in families if f.name == "a-z")),
                    registry.Family("changes", changes, nav=("What changed", "changes/")))
    monkeypatch.setattr(registry, "FAMILIES", families)
    generate(_bundle(), [], tmp_path)
    src = tmp_path / "site-src"
    assert "<h1>What changed</h1>" in (src / "docs" / "changes.md").read_text(encoding="utf-8")
    import yaml

    assert {"What changed": "changes.md"} in yaml.safe_load((src / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    titles = json.loads((src / "docs" / "search" / "titles.json").read_text(encoding="utf-8"))
    assert any(r[0] == "What changed" and r[3] == "changes/" for r in titles["pages"])
    _head, home = _page(src / "docs", "")
    assert 'href="./changes/">What changed<' in home  # the home page's list of indexes


def test_the_build_page_names_sources_without_paths_and_counts_what_is_inside(tmp_path):
    inside = [{"file": "wh40k.tar.xz/Imperium - Grey Knights.cat", "first_line": 4, "last_line": 9, "ruleset": "11e"}]
    b = _bundle(_army(inside), sources=[
        {"file": "sources/x.txt", "ruleset": "11e", "sha256": "0" * 64},
        {"file": "../../../shared/bsdata/wh40k.tar.xz", "ruleset": "11e", "sha256": "1" * 64}])
    generate(b, [], tmp_path)
    _head, html = _page(tmp_path / "site-src" / "docs", "build/")
    assert "../" not in re.sub(r'href="[^"]*"', "", html)
    rows = re.findall(r"<tr>(.*?)</tr>", html[html.index("<tbody>"):])
    assert len(rows) == 2
    assert "wh40k.tar.xz" in rows[1] and ">8<" in rows[1] and "Imperium - Grey Knights.cat" in rows[1]
    assert ">4<" in rows[0] and "1" * 64 in rows[1]


def test_refuses_to_replace_a_folder_it_did_not_write(tmp_path):
    mine = tmp_path / "site-src"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(SystemExit, match="refusing"):
        generate(_bundle(), [], tmp_path)
    assert (mine / "notes.txt").read_text() == "keep me"


def test_damage_table_matches_a_hand_calculation():
    from warscribe.site.damage import REFERENCES, DamageTable, chart, frame, plotted

    psycannon = records.weapon(id="gk/p/psycannon", name="Psycannon", ruleset="10e", datasheet="gk/p", type="ranged",
                               range=24, attacks=3, skill=2, strength=8, ap=-1, damage=2,
                               abilities=[{"id": "psychic", "text": "psychic"}], source=SRC)
    table = DamageTable()
    outcomes = table.outcomes(psycannon)
    assert [r.label for r in REFERENCES][1] == "T4 Sv3+ W2 ×10" and REFERENCES[3].name == "Battle tank"
    # 3 attacks x hit 5/6 x wound (S8 v T4) 5/6 x failed save (3+ at AP-1) 1/2 x damage 2.
    assert outcomes[1].wounds == pytest.approx(3 * 5 / 6 * 5 / 6 * 1 / 2 * 2)
    assert outcomes[1].slain == pytest.approx(3 * 5 / 6 * 5 / 6 * 1 / 2)
    assert sum(outcomes[1].slain_dist) == pytest.approx(1.0)
    # The same profile on another datasheet is not computed again.
    table.outcomes({**psycannon, "id": "gk/q/psycannon", "datasheet": "gk/q"})
    assert table.evaluations == len(REFERENCES)
    # A single model: the chart shows wounds removed (0..12), not a yes/no bar of models slain.
    dist, what = plotted(outcomes[3], REFERENCES[3])
    assert what == "wounds removed" and len(dist) == 13 and sum(dist) == pytest.approx(1.0)
    svg = chart(outcomes[1].slain_dist, "models slain", "a <label>")
    assert svg.startswith("<svg") and 2 <= svg.count("<rect") <= len(outcomes[1].slain_dist)
    assert "<title>a &lt;label&gt;</title>" in svg and '<use xlink:href="#ws-axes-11-models-slain"/>' in svg
    axes = frame(11, "models slain")
    assert axes.startswith('<g id="ws-axes-11-models-slain">')
    assert [">100%<" in axes, ">50%<" in axes, ">0%<" in axes, ">models slain<" in axes, ">10<" in axes] == [True] * 5
    table.cells(psycannon)
    assert table.frames([psycannon]).count("<g id=") == 3  # 11 and 6 models slain, 13 wounds removed
    # A fixed scale: a bar's height is its chance, not its share of the tallest bar.
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', chart((0.5, 0.5), "x", "y"))]
    full = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', chart((1.0, 0.0), "x", "y"))]
    assert heights[0] == pytest.approx(full[0] / 2, abs=0.1)


def test_the_theme_navigation_reused_across_pages_is_byte_for_byte_what_the_theme_renders(tmp_path):
    # hooks.ws_partial renders the theme's navigation and tabs once per set of page-relative links;
    # the same site built with every partial rendered in full must be the same bytes.
    from warscribe.site.generate import mkdocs_env
    from warscribe.site.mkdocs_run import build_site

    gen = generate(_bundle(_army()), [], tmp_path)
    env = mkdocs_env()
    assert build_site(gen.config, env) == (0, "")
    reused = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*.html")}
    assert build_site(gen.config, dict(env, **{hooks._NO_CACHE: "1"})) == (0, "")
    full = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in (tmp_path / "site").rglob("*.html")}
    assert len(full) > 20 and reused == full
    deep = full[next(p for p in full if len(p.parts) == 4)].decode()
    assert 'class="md-tabs__link"' in deep and 'href="../../../factions/"' in deep  # links relative to the page


def test_a_partial_is_rendered_once_per_set_of_links_and_in_full_on_a_page_of_the_navigation():
    import jinja2

    class Item:
        def __init__(self, url, children=None):
            self.url, self.children = url, children

    home, factions = Item(""), Item("factions/")
    nav = type("Nav", (), {"items": [home, factions], "pages": [home, factions]})()
    env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ page.url }}|{% for i in nav.items %}{{ i.url | url }},{% endfor %}"}))
    renders = []
    env.filters["url"] = jinja2.pass_context(lambda context, u: renders.append(u) or f"{context['base']}{u}")
    partials = hooks._Partials(env)
    partials.enabled = True

    class Page:
        def __init__(self, url, base):
            self.url, self.base = url, base

    def render(page):
        context = env.from_string("").new_context({"page": page, "nav": nav, "base": page.base, "base_url": page.base})
        with pytest.MonkeyPatch.context() as mp:
            import mkdocs.utils.templates as templates

            mp.setattr(templates, "url_filter", lambda context, u: f"{context['base']}{u}")
            return str(partials.render(context, "t"))

    a, b, c = Page("x/a/", "../../"), Page("y/b/", "../../"), Page("z/", "../")
    assert render(a) == "x/a/|../../,../../factions/,"
    assert render(b) == render(a)  # the same links: the first page's rendering, reused (page.url shows it)
    assert render(c) == "z/|../,../factions/,"
    factions.base = "../"
    assert render(factions) == "factions/|../,../factions/,"  # in the navigation: always its own rendering
    assert len(partials.cache) == 2


# -- the link checker's resolution (tests/site/sitetest.py:link_target) --------------------

_SEGMENT = st.sampled_from(["", ".", "..", "a", "b", "index.html", "x%20y", "c.css"])


@given(page=st.lists(st.sampled_from(["a", "b", "c"]), min_size=0, max_size=4),
       href=st.lists(_SEGMENT, min_size=0, max_size=6), absolute=st.booleans(),
       query=st.sampled_from(["", "?q=1", "?"]), fragment=st.sampled_from(["", "#top", "#", "#a%20b"]))
def test_link_target_is_what_urljoin_gives(page, href, absolute, query, fragment):
    from urllib.parse import urljoin, urlsplit

    from sitetest import link_target

    url = "/" + "/".join([*page, "index.html"])
    link = ("/" if absolute else "") + "/".join(href) + query + fragment
    assume(not link.startswith("//"))  # a host of its own: the link checker reports it before resolving
    expected = urlsplit(urljoin("http://x" + url, link))
    assert link_target(url, link) == (expected.path, expected.fragment)


def test_link_target_on_the_links_a_site_has():
    from urllib.parse import urljoin, urlsplit

    from sitetest import link_target

    cases = [("/datasheet/gk/paladin-squad/index.html", h) for h in (
        "../../../assets/stylesheets/main.css", "../../../weapon/gk/psycannon/#profile", "./", ".", "..", "",
        "#abilities", "?x#y", "/search/titles.json", "../paladin-squad/index.html#a", "../../../../../../too-far/")]
    for url, href in cases:
        expected = urlsplit(urljoin("http://x" + url, href))
        assert link_target(url, href) == (expected.path, expected.fragment), href
