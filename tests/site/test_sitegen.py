"""Page generation without a browser: escaping, link resolution, one page per record."""

from __future__ import annotations


import pytest

from warscribe.schema import bundle as bundle_module
from warscribe.schema import records
from warscribe.sitegen import generate
from warscribe.sitegen.linker import Linker
from warscribe.sitegen.markup import a, attrs, esc
from warscribe.sitegen import urls

SRC = [{"file": "sources/x.txt", "first_line": 1, "last_line": 2, "ruleset": "11e"}]


def _bundle():
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
    ]
    return bundle_module.from_records(recs, {"sources": [{"file": "sources/x.txt", "ruleset": "11e", "sha256": "0" * 64}]})


def test_escaping_and_attributes():
    assert esc('<script>&"x"\n\ny') == "&lt;script&gt;&amp;&quot;x&quot; y"
    with pytest.raises(ValueError):
        attrs(onerror="x")
    with pytest.raises(ValueError):
        a("javascript:alert(1)", "x")
    with pytest.raises(ValueError):
        a('../x/" onclick="y', "x")
    assert a("../rule/x/#a", "t") == '<a href="../rule/x/#a">t</a>'


def test_relative_urls():
    assert urls.relative("datasheet/a/b/", "ability/11e/abilities/x/") == "../../../ability/11e/abilities/x/"
    assert urls.relative("datasheet/a/b/", "datasheet/a/b/#weapon-x") == "#weapon-x"
    assert urls.relative("", "rules/") == "./rules/"
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


def test_a_page_for_every_record_and_the_unresolved_on_diagnostics(tmp_path):
    b = _bundle()
    gen = generate(b, [{"file": "sources/x.txt", "line": 3, "level": "warning", "code": "lost-table",
                        "message": "a <table> was lost"}], tmp_path)
    docs = tmp_path / "site-src" / "docs"
    for rec in b:
        assert (docs / urls.record_file(rec)).is_file(), rec["id"]
    assert (docs / "source" / "x-txt.md").is_file() and (docs / "assets" / "warscribe.css").is_file()
    diagnostics = (docs / "diagnostics.md").read_text(encoding="utf-8")
    assert "a &lt;table&gt; was lost" in diagnostics
    rule_page = (docs / "rule" / "11e" / "rules" / "06-03-hazard-rolls.md").read_text(encoding="utf-8")
    assert "&lt;b&gt;unit&lt;/b&gt;" in rule_page and "sources/x.txt" in rule_page
    assert gen.pages == len(list(docs.rglob("*.md")))


def test_refuses_to_replace_a_folder_it_did_not_write(tmp_path):
    mine = tmp_path / "site-src"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(SystemExit, match="refusing"):
        generate(_bundle(), [], tmp_path)
    assert (mine / "notes.txt").read_text() == "keep me"


def test_damage_table_matches_a_hand_calculation():
    from warscribe.sitegen.damage import REFERENCES, DamageTable, sparkline

    psycannon = records.weapon(id="gk/p/psycannon", name="Psycannon", ruleset="10e", datasheet="gk/p", type="ranged",
                               range=24, attacks=3, skill=2, strength=8, ap=-1, damage=2,
                               abilities=[{"id": "psychic", "text": "psychic"}], source=SRC)
    table = DamageTable()
    outcomes = table.outcomes(psycannon)
    assert [r.label for r in REFERENCES][1] == "T4 Sv3+ W2 ×10"
    # 3 attacks x hit 5/6 x wound (S8 v T4) 5/6 x failed save (3+ at AP-1) 1/2 x damage 2.
    assert outcomes[1].wounds == pytest.approx(3 * 5 / 6 * 5 / 6 * 1 / 2 * 2)
    assert outcomes[1].slain == pytest.approx(3 * 5 / 6 * 5 / 6 * 1 / 2)
    assert sum(outcomes[1].slain_dist) == pytest.approx(1.0)
    # The same profile on another datasheet is not computed again.
    table.outcomes({**psycannon, "id": "gk/q/psycannon", "datasheet": "gk/q"})
    assert table.evaluations == len(REFERENCES)
    svg = sparkline(outcomes[1].slain_dist, "a <label>")
    assert svg.startswith("<svg") and 2 <= svg.count("<rect") <= len(outcomes[1].slain_dist)
    assert "a &lt;label&gt;" in svg
