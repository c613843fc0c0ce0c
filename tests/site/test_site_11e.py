"""The site for the 11th edition's new fields, on a small synthetic build: requisition tiers, wargear
and add-on costs, Support, conditional invulnerable saves, weapons of several profiles, other
languages, detachments at a glance (DP, Force Disposition, unique tag), stratagems with CP and
phases, Upgrade enhancements and their exclusions, errata and FAQ (a page per publication and a
section on each amended record's page), and Combat Patrol kept apart from matched play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from warscribe.schema import bundle as bundle_module
from warscribe.schema import records
from warscribe.site import generate, urls
from warscribe.site.pages import PAGE_MARKER

SM = "space-marines"
SRC = [{"file": "gdc.tar.xz/space_marines.json", "first_line": 3, "last_line": 40, "ruleset": "11e"}]
CP_SRC = [{"file": "gdc.tar.xz/combatpatrol/space_marines.json", "first_line": 5, "last_line": 9, "ruleset": "11e"}]
FAQ_SRC = [{"file": "gdc.tar.xz/faqs.json", "first_line": 7, "last_line": 12, "ruleset": "11e"}]
CP = {"game_mode": "combat-patrol"}


def _records() -> list[dict]:
    det, cp_det = f"{SM}/gladius", f"{SM}/cp/assault-force"
    return [
        records.rule(id="11e/rules/05-01-fight", name="Fight", ruleset="11e", number="05.01", title="Fight",
                     text="Units fight.", bullets=[], see_also=[], source=SRC),
        records.rule(id="11e/cp/rules/patrol-missions", name="Patrol Missions", ruleset="11e", number=None,
                     title=None, text="Play a patrol mission.", bullets=[], see_also=[], source=CP_SRC, **CP),
        records.keyword(id="11e/keywords/infantry", name="INFANTRY", ruleset="11e", faction_keyword=False,
                        datasheets=[f"{SM}/intercessors", f"{SM}/cp/intercessors"], usage=[], source=SRC),
        records.ability(id="11e/abilities/pistol", name="Pistol", ruleset="11e", type="weapon", ability_id="pistol",
                        text="Shoot in engagement.", source=SRC),
        records.ability(id=f"{SM}/abilities/oath-of-moment", name="Oath of Moment", ruleset="11e", type="faction",
                        text="Re-roll hits against one target.", names={"fr": "Serment de l’Instant"}, source=SRC),
        records.stratagem(id="core-11e/fire-overwatch", name="Fire Overwatch", ruleset="11e", cp=1, category=None,
                          origin="core", detachment=None, turn="opponent", phases=["movement", "charge"],
                          effect="Shoot.", source=SRC),
        # A matched-play detachment: 2 DP, a Force Disposition, a unique tag; two stratagems, two enhancements.
        records.detachment(id=det, name="Gladius Task Force", ruleset="11e", faction="Space Marines",
                           rule={"name": "Combat Doctrines", "text": "Pick a doctrine."},
                           stratagems=[f"{det}/armour-of-contempt", f"{det}/honour-the-chapter"],
                           enhancements=[f"{det}/artificer-armour", f"{det}/bolter-drill"], detachment_points=2,
                           force_disposition="Take and Hold", unique="Codex Chapter",
                           names={"fr": "Force d’Intervention Gladius", "de": "Gladius-Einsatzgruppe"}, source=SRC),
        records.stratagem(id=f"{det}/armour-of-contempt", name="Armour of Contempt", ruleset="11e", cp=1,
                          category="Battle Tactic", origin="detachment", detachment=det, turn="opponent",
                          phases=["shooting", "fight"], effect="Worsen AP by 1.", source=SRC),
        records.stratagem(id=f"{det}/honour-the-chapter", name="Honour the Chapter", ruleset="11e", cp=2,
                          category="Battle Tactic", origin="detachment", detachment=det, turn="your",
                          phases=["fight"], effect="Lance.", source=SRC),
        records.enhancement(id=f"{det}/artificer-armour", name="Artificer Armour", ruleset="11e", detachment=det,
                            points=10, text="2+ save.", restriction=None, excludes=[f"{det}/bolter-drill"], source=SRC),
        records.enhancement(id=f"{det}/bolter-drill", name="Bolter Drill", ruleset="11e", detachment=det, points=15,
                            upgrade=True, excludes=[f"{det}/artificer-armour"], text="Sustained hits.",
                            restriction="INFANTRY unit only.", source=SRC),
        # A unit with requisition tiers, add-on costs, a priced wargear option, Support, a conditional
        # invulnerable save and a weapon of two profiles.
        records.datasheet(id=f"{SM}/intercessors", name="Intercessor Squad", ruleset="11e", faction="Space Marines",
                          keywords=["INFANTRY", "BATTLELINE"], faction_keywords=["ADEPTUS ASTARTES"],
                          composition=[{"name": "Intercessor", "min": 5, "max": 10}],
                          points=[{"models": 5, "points": 80}, {"models": 5, "points": 90, "from_copy": 3},
                                  {"models": 10, "points": 160}, {"models": 10, "points": 180, "from_copy": 3}],
                          extra_points=[{"name": "Astartes grenade launcher", "points": 5}],
                          wargear_options=[{"text": "The Sergeant’s bolt rifle can be replaced with one of the following:",
                                            "choices": ["1 plasma pistol", "1 hand flamer"],
                                            "costs": {"1 plasma pistol": 5}}],
                          models=[{"name": "Intercessor", "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 2,
                                   "invulnerable": 4, "invulnerable_text": "Only against ranged attacks."}],
                          abilities=[{"name": "Oath of Moment", "type": "faction", "text": None,
                                      "ref": f"{SM}/abilities/oath-of-moment"}],
                          weapons=[f"{SM}/intercessors/plasma-pistol-standard",
                                   f"{SM}/intercessors/plasma-pistol-supercharge", f"{SM}/intercessors/bolt-rifle"],
                          names={"fr": "Escouade d’Intercessors", "de": "Intercessor-Trupp"}, source=SRC),
        records.weapon(id=f"{SM}/intercessors/plasma-pistol-standard", name="Plasma pistol – Standard", ruleset="11e",
                       datasheet=f"{SM}/intercessors", type="ranged", range=12, attacks=1, skill=3, strength=7, ap=-2,
                       damage=1, abilities=[{"id": "pistol", "text": "pistol"}], profile_of="Plasma pistol",
                       profile="Standard", source=SRC),
        records.weapon(id=f"{SM}/intercessors/plasma-pistol-supercharge", name="Plasma pistol – Supercharge",
                       ruleset="11e", datasheet=f"{SM}/intercessors", type="ranged", range=12, attacks=1, skill=3,
                       strength=8, ap=-3, damage=2, abilities=[{"id": "pistol", "text": "pistol"}],
                       profile_of="Plasma pistol", profile="Supercharge", source=SRC),
        records.weapon(id=f"{SM}/intercessors/bolt-rifle", name="Bolt rifle", ruleset="11e",
                       datasheet=f"{SM}/intercessors", type="ranged", range=24, attacks=2, skill=3, strength=4, ap=-1,
                       damage=1, abilities=[], source=SRC),
        # A weapon the sources give apart from its unit's list: its links go to the datasheet's page (no row there).
        records.weapon(id=f"{SM}/intercessors/stray-pistol", name="Stray pistol", ruleset="11e",
                       datasheet=f"{SM}/intercessors", type="ranged", range=12, attacks=1, skill=3, strength=4, ap=0,
                       damage=1, abilities=[{"id": "pistol", "text": "pistol"}], source=SRC),
        records.datasheet(id=f"{SM}/apothecary", name="Apothecary", ruleset="11e", faction="Space Marines",
                          keywords=["INFANTRY", "CHARACTER"], faction_keywords=["ADEPTUS ASTARTES"], composition=[],
                          points=[{"models": 1, "points": 50}], abilities=[], weapons=[], wargear_options=[],
                          support={"text": "This model can be attached to the following units:",
                                   "units": ["Intercessor Squad", "Sternguard Squad"]}, source=SRC),
        # Combat Patrol: a force of its own, with a unit of a matched-play name.
        records.detachment(id=cp_det, name="Assault Force", ruleset="11e", faction="Space Marines",
                           rule={"name": "Indomitable Resolve", "text": "Hold."},
                           stratagems=[f"{cp_det}/relentless-aggression"], enhancements=[f"{cp_det}/blade-masters"],
                           detachment_points=1, force_disposition="Take and Hold", source=CP_SRC, **CP),
        records.stratagem(id=f"{cp_det}/relentless-aggression", name="Relentless Aggression", ruleset="11e", cp=1,
                          category=None, origin="detachment", detachment=cp_det, turn="either", phases=["fight"],
                          effect="Fight harder.", source=CP_SRC, **CP),
        records.enhancement(id=f"{cp_det}/blade-masters", name="Blade Masters", ruleset="11e", detachment=cp_det,
                            points=None, upgrade=True, text="Strike first.", restriction=None, source=CP_SRC, **CP),
        records.datasheet(id=f"{SM}/cp/assault-force-captain", name="Assault Force Captain", ruleset="11e",
                          faction="Space Marines", keywords=["INFANTRY", "CHARACTER"], faction_keywords=[],
                          composition=[], points=[], abilities=[], weapons=[], wargear_options=[],
                          leader={"text": "This model can lead:", "units": ["Intercessor Squad"]}, source=CP_SRC, **CP),
        records.datasheet(id=f"{SM}/cp/intercessors", name="Intercessor Squad", ruleset="11e", faction="Space Marines",
                          keywords=["INFANTRY"], faction_keywords=[], composition=[], points=[], abilities=[],
                          weapons=[], wargear_options=[], source=CP_SRC, **CP),
        # Errata and FAQ: two publications; entries amending a datasheet, a stratagem, an enhancement, a
        # detachment and a rule, one naming a record the build does not hold.
        records.faq(id="faq/11e/sm-1", name="Intercessor Squad – Points", ruleset="11e",
                    publication="Codex: Space Marines", order=2, text="Change to 85 points.",
                    amends=[{"type": "datasheet", "name": "Intercessor Squad", "ref": f"{SM}/intercessors"}],
                    source=FAQ_SRC),
        records.faq(id="faq/11e/sm-2", name="Can Armour of Contempt stack?", ruleset="11e",
                    publication="Codex: Space Marines", order=1, text="No.",
                    amends=[{"type": "stratagem", "name": "Armour of Contempt", "ref": f"{det}/armour-of-contempt"},
                            {"type": "enhancement", "name": "Bolter Drill", "ref": f"{det}/bolter-drill"},
                            {"type": "detachment", "name": "Gladius Task Force", "ref": det},
                            {"type": "datasheet", "name": "Sternguard Squad"}],
                    source=FAQ_SRC),
        records.faq(id="faq/11e/core-1", name="Fight – Fights First", ruleset="11e", publication="Core Rules",
                    order=1, text="Fights First units fight first.\n■ Then the others.",
                    amends=[{"type": "rule", "name": "Fight", "ref": "11e/rules/05-01-fight"}], source=FAQ_SRC),
    ]


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site11e")
    b = bundle_module.from_records(_records(), {"sources": [
        {"file": "gdc.tar.xz", "ruleset": "11e", "sha256": "0" * 64}]})
    generate(b, [], out)
    return out / "site-src" / "docs"


def _page(docs: Path, url: str) -> tuple[dict, str]:
    text = (docs / urls.file_of(url)).read_text(encoding="utf-8")
    _front, body = text.split("---\n", 2)[1:]
    marker, head, html = body.split("\n", 2)
    assert marker == PAGE_MARKER
    return json.loads(head), html


def _section(html: str, anchor: str) -> str:
    """A section's HTML: from its heading to the next heading of its level."""
    start = html.index(f'id="{anchor}"')
    end = html.find("<h2", start + 1)
    return html[start:end if end > 0 else None]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).replace("&#x27;", "'")


def test_points_with_requisition_tiers_add_ons_and_wargear_costs(docs):
    _head, html = _page(docs, f"datasheet/{SM}/intercessors/")
    points = _text(_section(html, "points"))
    assert "5 models 80 pts · 3rd+ selection: 90 pts" in points
    assert "10 models 160 pts · 3rd+ selection: 180 pts" in points
    assert "Astartes grenade launcher +5 pts" in points
    options = _text(_section(html, "wargear-options"))
    assert "1 plasma pistol +5 pts" in options and "1 hand flamer" in options and "hand flamer +" not in options


def test_the_invulnerable_save_is_marked_with_its_condition(docs):
    _head, html = _page(docs, f"datasheet/{SM}/intercessors/")
    models = _section(html, "models")
    assert re.search(r'data-label="Inv">4\+\+<sup title="[^"]*">\*</sup>', models)
    assert "Intercessor, Invulnerable save 4++: Only against ranged attacks." in _text(models)


def test_a_weapon_of_two_profiles_is_one_weapon_with_its_profiles(docs):
    _head, html = _page(docs, f"datasheet/{SM}/intercessors/")
    ranged = _section(html, "ranged-weapons")
    group = re.search(r'<tr class="ws-weapon-group"><th colspan="8" scope="rowgroup">(.*?)</th></tr>', ranged).group(1)
    assert ">Plasma pistol</a>" in group and "2 profiles" in group
    rows = re.findall(r"<tr>(.*?)</tr>", ranged[ranged.index("ws-weapon-group"):])
    assert "Standard" in rows[0] and 'data-label="S">7<' in rows[0] and "Supercharge" in rows[1]
    assert 'id="weapon-plasma-pistol-standard"' in ranged and 'id="weapon-plasma-pistol-supercharge"' in ranged
    assert "Bolt rifle" in rows[2]  # a weapon of one profile: a row of its own, after the group
    # One page for the weapon, both profiles on it by their names.
    _head, weapon = _page(docs, "weapon/11e/plasma-pistol/")
    assert "<h1>Plasma pistol</h1>" in weapon
    profiles = _text(_section(weapon, "profiles"))
    assert "Standard" in profiles and "Supercharge" in profiles
    assert not (docs / "weapon" / "11e" / "plasma-pistol-standard.md").exists()
    titles = json.loads((docs / "search" / "titles.json").read_text(encoding="utf-8"))
    row = next(r for r in titles["pages"] if r[3] == "weapon/11e/plasma-pistol/")
    assert row[4] == ["Plasma pistol – Standard", "Plasma pistol – Supercharge"]  # found by a profile's full name


def test_support_and_leader_link_the_units_of_the_same_game_mode(docs):
    _head, html = _page(docs, f"datasheet/{SM}/apothecary/")
    support = _section(html, "support")
    assert 'href="../intercessors/">Intercessor Squad</a>' in support
    assert "<li>Sternguard Squad</li>" in support  # not in the build: named, unlinked
    _head, captain = _page(docs, f"datasheet/{SM}/cp/assault-force-captain/")
    assert 'href="../intercessors/">Intercessor Squad</a>' in _section(captain, "leader")  # Combat Patrol's own


def test_other_languages_shown_discreetly_and_searchable(docs):
    _head, html = _page(docs, f"datasheet/{SM}/intercessors/")
    names = re.search(r'<p class="ws-names">(.*?)</p>', html).group(1)
    assert _text(names) == "Also: de Intercessor-Trupp · fr Escouade d’Intercessors"
    assert '<span lang="fr">' in names
    titles = json.loads((docs / "search" / "titles.json").read_text(encoding="utf-8"))
    number = next(n for n, row in enumerate(titles["pages"]) if row[3] == f"datasheet/{SM}/intercessors/")
    shard = json.loads((docs / "search" / "words" / "es.json").read_text(encoding="utf-8"))
    found, n = [], 0
    for d in shard["escouade"].split(","):
        n += int(d, 36)
        found.append(n)
    assert number in found


def test_a_detachment_at_a_glance(docs):
    _head, html = _page(docs, f"detachment/{SM}/gladius/")
    meta = _text(re.search(r'<p class="ws-meta">(.*?)</p>', html).group(1))
    assert "2 DP" in meta and "Force Disposition: Take and Hold" in meta and "Unique: Codex Chapter" in meta
    strats = _section(html, "stratagems")
    assert re.search(r'<span class="ws-cp">1CP</span> .*?>Armour of Contempt</a>.*?<span class="ws-phase">Shooting</span> '
                     r'<span class="ws-phase">Fight</span>', strats)
    assert re.search(r'<span class="ws-cp">2CP</span> .*?>Honour the Chapter</a>.*?<span class="ws-phase">Fight</span>', strats)
    enh = _section(html, "enhancements")
    items = re.findall(r"<li>(.*?)</li>", enh)
    drill = next(i for i in items if i.startswith('<span class="ws-tipped"><a href="../../../enhancement/space-marines/'
                                                 'gladius/bolter-drill/">'))
    assert "(15 pts)" in drill and 'class="ws-tag ws-upgrade"' in drill
    assert 'Not with <a href="../../../enhancement/space-marines/gladius/artificer-armour/">Artificer Armour</a>' in drill
    # The faction's list of detachments: the same facts, matched play's only.
    _head, faction = _page(docs, "faction/space-marines/")
    table = _section(faction, "detachments")
    assert re.search(r">Gladius Task Force</a>.*?<td data-label=\"DP\">2</td> <td data-label=\"Force Disposition\">Take "
                     r"and Hold</td> <td data-label=\"Unique\">Codex Chapter</td>", table)
    assert "Assault Force" not in table
    assert 'href="../../combat-patrol/space-marines/"' in faction
    faqs = _text(_section(faction, "errata-faq"))
    assert "Codex: Space Marines 2 entries on this faction" in faqs and "Core Rules" not in faqs


def test_an_upgrade_enhancement_and_what_it_excludes(docs):
    _head, html = _page(docs, f"enhancement/{SM}/gladius/bolter-drill/")
    meta = re.search(r'<p class="ws-meta">(.*?)</p>', html).group(1)
    assert "Upgrade" in meta and "15 pts" in meta
    assert 'Cannot be taken with: </strong><a href="../artificer-armour/">Artificer Armour</a>' in html


def test_faq_pages_per_publication_and_on_each_amended_record(docs):
    _head, index = _page(docs, "faq/")
    assert 'href="../faq/codex-space-marines/">Codex: Space Marines</a>' in index or \
        'href="./codex-space-marines/">Codex: Space Marines</a>' in index
    _head, sm = _page(docs, "faq/codex-space-marines/")
    assert "<h1>Errata &amp; FAQ: Codex: Space Marines</h1>" in sm
    entries = re.findall(r'<li id="(faq-[^"]+)">', sm)
    assert entries == ["faq-sm-2", "faq-sm-1"]  # in their printed order
    first = sm[sm.index('id="faq-sm-2"'):sm.index('id="faq-sm-1"')]
    assert 'href="../../stratagem/space-marines/gladius/armour-of-contempt/">Armour of Contempt</a>' in first
    assert "Sternguard Squad" in first  # named, though not in the build
    for url, anchor in ((f"datasheet/{SM}/intercessors/", "faq-sm-1"), (f"stratagem/{SM}/gladius/armour-of-contempt/", "faq-sm-2"),
                        (f"enhancement/{SM}/gladius/bolter-drill/", "faq-sm-2"), (f"detachment/{SM}/gladius/", "faq-sm-2"),
                        ("rule/11e/rules/05-01-fight/", "faq-core-1")):
        _head, html = _page(docs, url)
        section = _section(html, "errata-faq")
        assert f'#{anchor}"' in section, url
        assert 'href="#errata-faq"' in html  # the header says it is amended
    _head, rule = _page(docs, "rule/11e/rules/05-01-fight/")
    assert "<ul><li>Then the others.</li></ul>" in _section(rule, "errata-faq")  # the 11th edition's list items
    _head, strat = _page(docs, f"stratagem/{SM}/gladius/armour-of-contempt/")
    assert "Can Armour of Contempt stack?" in _section(strat, "errata-faq")
    titles = json.loads((docs / "search" / "titles.json").read_text(encoding="utf-8"))
    faq_kind = titles["kinds"].index("faq")
    assert sorted(r[0] for r in titles["pages"] if r[1] == faq_kind) == [
        "Errata & FAQ: Codex: Space Marines", "Errata & FAQ: Core Rules"]


def test_combat_patrol_is_apart_from_matched_play(docs):
    patrol_names = ("Assault Force", "Relentless Aggression", "Blade Masters", "Patrol Missions")
    for url in ("stratagems/", "detachments/", "rules/", "datasheets/", "factions/", "faction/space-marines/",
                "cards/space-marines/"):
        _head, html = _page(docs, url)
        assert not [n for n in patrol_names if n in html], url
    _head, datasheets = _page(docs, "datasheets/")
    assert datasheets.count("Intercessor Squad") == 1
    head, sheet = _page(docs, f"datasheet/{SM}/intercessors/")
    assert "Assault Force" not in head["nav"] and "Relentless Aggression" not in sheet
    # Where a list gathers units of every faction (a keyword's), Combat Patrol's are a group of their own.
    _head, keyword = _page(docs, "keyword/11e/keywords/infantry/")
    groups = re.findall(r'<details class="ws-group"[^>]*><summary>(.*?) <span', keyword)
    assert groups == ["Space Marines", "Space Marines (Combat Patrol)"]
    # Its own pages: the index, the faction's force, the records labelled.
    _head, index = _page(docs, "combat-patrol/")
    assert "Patrol Missions" in index and 'href="./space-marines/">Space Marines</a>' in index
    _head, force = _page(docs, "combat-patrol/space-marines/")
    for name in ("Assault Force", "Relentless Aggression", "Blade Masters", "Assault Force Captain", "Intercessor Squad"):
        assert name in force, name
    assert "1 DP" in force
    head, det = _page(docs, f"detachment/{SM}/cp/assault-force/")
    assert 'class="ws-badge ws-patrol"' in det and ">Combat Patrol</a>" in det and "Gladius" not in head["nav"]
    titles = json.loads((docs / "search" / "titles.json").read_text(encoding="utf-8"))
    contexts = {(r[0], r[3]): titles["contexts"][r[2]] for r in titles["pages"]}
    assert contexts[("Relentless Aggression", f"stratagem/{SM}/cp/assault-force/relentless-aggression/")].startswith(
        "Combat Patrol")
    assert contexts[("Intercessor Squad", f"datasheet/{SM}/cp/intercessors/")] == "Combat Patrol, Space Marines"
    assert contexts[("Intercessor Squad", f"datasheet/{SM}/intercessors/")] == "Space Marines"
    # Of two pages of one title, search (which keeps the index's order on a tie) lists matched play's first.
    same = [r[3] for r in titles["pages"] if r[0] == "Intercessor Squad"]
    assert same == [f"datasheet/{SM}/intercessors/", f"datasheet/{SM}/cp/intercessors/"]


def test_the_same_records_give_the_same_bytes(tmp_path):
    outs = []
    for n, recs in enumerate((_records(), list(reversed(_records())))):
        b = bundle_module.from_records(recs, {"sources": [{"file": "gdc.tar.xz", "ruleset": "11e", "sha256": "0" * 64}]})
        generate(b, [], tmp_path / str(n))
        docs = tmp_path / str(n) / "site-src" / "docs"
        outs.append({p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*.md"))})
    same = [k for k in outs[0] if outs[0][k] == outs[1].get(k)]
    assert set(outs[0]) == set(outs[1])
    # Record order decides only what the bundle's order decides elsewhere too; the new lists do not depend on it.
    for key in ("faq/codex-space-marines.md", "combat-patrol/space-marines.md", f"datasheet/{SM}/intercessors.md",
                f"detachment/{SM}/gladius.md", "detachments.md"):
        assert key in same, key


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The synthetic build's whole site, mkdocs included (`mkdocs build --strict`)."""
    import io

    out = tmp_path_factory.mktemp("site11e-built")
    b = bundle_module.from_records(_records(), {"sources": [{"file": "gdc.tar.xz", "ruleset": "11e", "sha256": "0" * 64}]})
    stream = io.StringIO()
    from warscribe.site.generate import build

    assert build(b, [], out, quiet=True, stream=stream) == 0, stream.getvalue()
    return out / "site"


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_every_link_of_the_built_site_resolves(built):
    from sitetest import Links, link_target

    pages: dict[str, Links] = {}
    for file in sorted(built.rglob("*.html")):
        parser = Links()
        parser.feed(file.read_text(encoding="utf-8"))
        pages["/" + file.relative_to(built).as_posix().removesuffix("index.html")] = parser
    broken = []
    for url, parser in pages.items():
        for href in parser.links:
            if href.startswith(("http:", "https:", "mailto:")) or (not href.startswith("#") and "." in href.rsplit("/", 1)[-1]):
                continue
            path, fragment = link_target(url, href)
            target = pages.get(path)
            if target is None or (fragment and fragment not in target.ids):
                broken.append((url, href))
    assert not broken, broken[:20]
    assert "/faq/codex-space-marines/" in pages and "/combat-patrol/space-marines/" in pages
    home = (built / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="faq/" class="md-tabs__link">\s*FAQ\s*</a>', home)  # a tab, once its pages are written
    assert 'href="./combat-patrol/"' in home  # the home page's list of indexes


@pytest.mark.slow  # the real data (or a browser): out of the quick subset
def test_the_new_pages_fit_a_phone(built):
    from phonecheck import PHONE, phone_problems
    from sitetest import browsing

    urls = [f"datasheet/{SM}/intercessors/", f"detachment/{SM}/gladius/", "faq/codex-space-marines/",
            "combat-patrol/space-marines/", "faction/space-marines/", "detachments/"]
    with browsing(built) as (browser, base):
        context = browser.new_context(**PHONE)
        page = context.new_page()
        problems = {}
        for url in urls:
            page.goto(base + url, wait_until="load")
            found = phone_problems(page)
            if found:
                problems[url] = found
        # A profile's card names its weapon on a phone; on a desktop the group's row does.
        page.goto(base + urls[0], wait_until="load")
        card = page.locator("a#weapon-plasma-pistol-supercharge").inner_text()
        context.close()
        assert not problems, problems
        assert card.replace("\u00a0", " ") == "Plasma pistol – Supercharge"
        desktop = browser.new_page(viewport={"width": 1280, "height": 900})
        desktop.goto(base + urls[0], wait_until="load")
        assert desktop.locator("a#weapon-plasma-pistol-supercharge").inner_text() == "Supercharge"
        desktop.close()


def test_the_new_fields_are_escaped(tmp_path):
    """Scraped text in every new field reaches the pages only escaped."""
    evil = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    recs = []
    for rec in _records():
        rec = json.loads(json.dumps(rec))
        if rec["kind"] in ("datasheet", "detachment", "stratagem", "enhancement"):
            rec["names"] = {"fr": evil, "x\"><b>": evil}
        if rec["kind"] == "detachment":
            rec.update(force_disposition=evil, unique=evil)
        if rec["kind"] == "weapon" and rec.get("profile_of"):
            rec.update(profile_of=evil, profile=evil)
        if rec["kind"] == "faq":
            rec.update(name=evil, text=evil, publication=evil)
            for x in rec["amends"]:
                x["name"] = evil
        if rec["kind"] == "datasheet" and rec.get("extra_points"):
            rec["extra_points"] = [{"name": evil, "points": 5}]
            rec["wargear_options"][0]["costs"] = {evil: 5}
            rec["points"][1]["condition"] = evil
            rec["models"][0]["invulnerable_text"] = evil
        recs.append(rec)
    b = bundle_module.from_records(recs, {"sources": [{"file": "gdc.tar.xz", "ruleset": "11e", "sha256": "0" * 64}]})
    generate(b, [], tmp_path)
    docs = tmp_path / "site-src" / "docs"
    seen = 0
    for file in sorted(docs.rglob("*.md")):
        text = file.read_text(encoding="utf-8")
        assert "<script" not in text and "<img" not in text and "<b>" not in text, file
        seen += text.count("&lt;script&gt;")
    assert seen > 10
    titles = (docs / "search" / "titles.json").read_text(encoding="utf-8")
    assert "faq/" in titles  # the publication named by the hostile string still has its page
