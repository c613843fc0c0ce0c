"""Pages that list records: home, the index of each kind, the A–Z index, the build with its
sources, and diagnostics.

List pages are left out of search (their words are the names of the pages they list,
which search finds anyway), so the index stays small.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections import defaultdict

import markdown as python_markdown

from warscribe.schema.text import slugify
from warscribe.site import stratagem_cards, urls
from warscribe.site.markup import a, el, esc, table
from warscribe.site.pages import (EDITIONS, ROLES, Page, Site, count, initial, is_patrol, legends_badge, letter_anchor,
                                  role_of)
from warscribe.site.record_pages import detachment_table

# What the A–Z index and search call each kind of page.
KIND_LABELS = {"datasheet": "Datasheet", "weapon": "Weapon", "stratagem": "Stratagem", "detachment": "Detachment",
               "enhancement": "Enhancement", "ability": "Ability", "rule": "Core rule", "keyword": "Keyword",
               "faction": "Faction", "faq": "Errata & FAQ"}
LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["#"]


def _number_key(rec: dict) -> tuple:
    return (rec.get("number") is None, rec.get("number") or "", rec["name"].casefold())


def _index(url: str, title: str, crumbs: bool = True) -> Page:
    return Page(url, title, kind="index", searchable=False, crumbs=[("Home", "")] if crumbs else [])


def search_box(placeholder: str = "Search datasheets, weapons, rules, stratagems, keywords…") -> str:
    """The search prompt (site/handwritten/assets/warscribe-search.js brings it to life; without it, the A–Z index)."""
    return el("form", el("input", type="search", class_="ws-search__input", name="q", placeholder=placeholder,
                         aria_label="Search the rules", autocomplete="off", spellcheck="false")
              + el("ol", "", class_="ws-search__results", role="listbox", aria_label="Search results"),
              class_="ws-search ws-search--inline", role="search", action="a-z/", data_ws_search=True)


def home(site: Site, intro: str) -> Page:
    page = _index("", "Warscribe", crumbs=False)
    page.add(el("div", python_markdown.markdown(intro.strip()) + search_box(), class_="ws-hero"))
    rulesets = sorted({r["ruleset"] for r in site.bundle})
    cards = []
    for rs in rulesets:
        n = defaultdict(int)
        for rec in site.bundle:
            if rec["ruleset"] == rs and not is_patrol(rec):
                n[rec["kind"]] += 1
        links = [a(site.href(page.url, "rules/") + f"#rules-{rs}", esc(count(n["rule"], "core rule")))] if n["rule"] else []
        if n["stratagem"]:
            links.append(a(site.href(page.url, "stratagems/"), esc(count(n["stratagem"], "stratagem"))))
        if n["datasheet"]:
            links.append(a(site.href(page.url, "datasheets/"), esc(count(n["datasheet"], "datasheet"))))
        if n["ability"]:
            links.append(a(site.href(page.url, "abilities/"), esc(count(n["ability"], "ability", "abilities"))))
        if n["faq"]:
            links.append(a(site.href(page.url, "faq/"), esc(count(n["faq"], "FAQ entry", "FAQ entries"))))
        cards.append(el("li", el("strong", esc(EDITIONS.get(rs, rs))) + el("span", " · ".join(links))))
    page.section("Editions", el("ul", "".join(cards), class_="ws-cards ws-editions"), anchor="editions")
    factions = []
    for name in sorted(site.factions.values(), key=str.casefold):
        sheets, dets = len(site.faction_sheets.get(name, [])), len(site.faction_detachments.get(name, []))
        counts = ", ".join(x for x in (count(sheets, "datasheet") if sheets else "", count(dets, "detachment") if dets else "") if x)
        factions.append(el("li", a(site.href(page.url, urls.faction_url(name)), esc(name)) + el("span", esc(counts))))
    page.section("Factions", el("ul", "".join(factions), class_="ws-cards ws-factions"), anchor="factions")
    browse = [(title, url) for url, title in site.indexes if url not in ("", "build/")]
    if site.bundle.kind("faq"):
        browse.append(("Errata & FAQ", "faq/"))
    if site.patrol_sheets or site.patrol_detachments or any(is_patrol(r) for r in site.bundle.kind("rule")):
        browse.append(("Combat Patrol", "combat-patrol/"))
    page.section("Browse", el("ul", "".join(el("li", a(site.href(page.url, url), esc(title))) for title, url in browse),
                              class_="ws-browse"), anchor="browse")
    page.add(el("p", esc(f"{len(site.bundle)} records from {len(site.bundle.meta.get('sources', []))} sources. ")
                + a(site.href(page.url, "build/"), "Build and sources") + " says which files, with their checksums; "
                + a(site.href(page.url, "diagnostics/"), "Diagnostics") + " what could not be read.", class_="ws-note"))
    return page


def source_files(site: Site, listed: str) -> list[str]:
    """The files records name (`archive.tar.xz/Catalogue.cat`, `sources/page.txt`) that a manifest source holds."""
    base = posixpath.basename(listed)
    return sorted(f for f in site.sources if f in (listed, base) or f.startswith((listed + "/", base + "/")))


def build(site: Site) -> Page:
    """The build's provenance: the sources with their checksums and the records each gave."""
    page = _index("build/", "Build and sources")
    meta = site.bundle.meta
    rows = []
    for src in meta.get("sources", []):
        files = source_files(site, src["file"])
        records = len({id(r) for f in files for _first, _last, r in site.sources[f]})
        name = posixpath.basename(src["file"])
        if len(files) == 1 and posixpath.basename(files[0]) == name:
            label = a(site.href(page.url, site.source_url(files[0])), esc(name))
        elif files:
            links = "".join(el("li", a(site.href(page.url, site.source_url(f)), esc(f.split("/", 1)[-1]))
                                     + esc(f" ({len({id(r) for _a, _b, r in site.sources[f]})})")) for f in files)
            label = el("details", el("summary", esc(name) + " " + el("span", count(len(files), "file"), class_="ws-count"))
                       + el("ul", links), class_="ws-group")
        else:
            label = esc(name)
        rows.append([label, esc(EDITIONS.get(src.get("ruleset"), src.get("ruleset", ""))),
                     esc(records) if files else el("span", "none", title="no record names this file"),
                     el("code", esc(str(src.get("sha256", ""))), class_="ws-sha")])
    page.section("Sources", table(["Source", "Edition", "Records", "sha256"], rows, label="Sources",
                                  class_="ws-table ws-sources"), anchor="sources")
    by_ruleset = []
    for rs in sorted({r["ruleset"] for r in site.bundle}):
        n = defaultdict(int)
        for rec in site.bundle:
            if rec["ruleset"] == rs:
                n[rec["kind"]] += 1
        by_ruleset.append(el("li", el("strong", esc(EDITIONS.get(rs, rs))) + ": "
                             + esc(", ".join(count(v, k, "abilities" if k == "ability" else None)
                                             for k, v in sorted(n.items())))))
    page.section("Records by edition", el("ul", "".join(by_ruleset)), anchor="rulesets")
    built = meta.get("generator", "warscribe")
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (" on " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(int(epoch)))) if epoch and epoch.isdigit() else ""
    page.section("Build", el("p", esc(f"Built by {built}{when} from {len(rows)} sources into {len(site.bundle)} records. ")
                             + a(site.href(page.url, "sources/"), "Sources") + " lists every file with its records; "
                             + a(site.href(page.url, "diagnostics/"), "Diagnostics") + " what the extractor could not read."),
                 anchor="build")
    return page


def datasheets(site: Site) -> Page:
    page = _index("datasheets/", "Datasheets")
    for faction in sorted(site.faction_sheets, key=str.casefold):
        rows = []
        # Legends datasheets last, each marked: a player building a matched-play list reads past them.
        for ds in sorted(site.faction_sheets[faction], key=lambda d: (bool(d.get("legends")), ROLES.index(role_of(d)),
                                                                       d["name"].casefold())):
            pts = sorted({p["points"] for p in ds.get("points", [])})
            name = site.ref(page.url, ds) + (" " + legends_badge() if ds.get("legends") else "")
            rows.append([name, esc(role_of(ds)), esc(ds["ruleset"]),
                         esc(f"{pts[0]}–{pts[-1]}" if len(pts) > 1 else (pts[0] if pts else "—"))])
        page.section(faction, table(["Datasheet", "Role", "Edition", "Points"], rows, label=faction,
                                    class_="ws-table"), anchor="faction-" + urls.faction_url(faction).split("/")[1])
    return page


def _letters(page: Page, entries: list[tuple[str, str]]) -> None:
    """An alphabetical list with a bar of initials: entries are (title, HTML of the item)."""
    by_letter: dict[str, list[str]] = defaultdict(list)
    for title, item in sorted(entries, key=lambda e: (e[0].casefold(), e[1])):
        by_letter[initial(title)].append(item)
    bar = [a("#" + letter_anchor(k), esc(k)) if k in by_letter else el("span", esc(k)) for k in LETTERS]
    page.add(el("nav", " ".join(bar), class_="ws-letters", aria_label="Initials"))
    for k in LETTERS:
        if k in by_letter:
            page.section(k, el("ul", "".join(by_letter[k]), class_="ws-columns"), anchor=letter_anchor(k))


def weapons(site: Site) -> Page:
    page = _index("weapons/", "Weapons")
    entries = []
    several = len({r for (r, _k), _w, _u in site.weapons}) > 1
    for (ruleset, _key), records, url in site.weapons:
        name = site.weapons.name(sorted(records, key=lambda w: w["id"])[0])
        tag = el("small", f" ({ruleset})") if several else ""
        entries.append((name, el("li", a(site.href(page.url, url), esc(name)) + tag)))
    _letters(page, entries)
    return page


def stratagems(site: Site) -> Page:
    page = _index("stratagems/", "Stratagems")
    strats = [s for s in site.bundle.kind("stratagem") if not is_patrol(s)]  # Combat Patrol's: combat-patrol/
    for rs in sorted({s["ruleset"] for s in strats}):
        core = [s for s in strats if s["origin"] == "core" and s["ruleset"] == rs]
        page.section(f"Core stratagems ({EDITIONS.get(rs, rs)})", site.stratagem_list(page, core), anchor=f"core-{rs}")
    for faction in sorted(site.faction_detachments, key=str.casefold):
        body = ""
        for det in site.faction_detachments[faction]:
            owned = site.bundle.stratagems_of(det)
            if owned:
                body += el("h3", site.ref(page.url, det), id="det-" + det["id"].replace("/", "-")) + site.stratagem_list(page, owned)
        if body:  # at the table: the faction's stratagems as cards, filterable by phase
            body = el("p", a(site.href(page.url, stratagem_cards.card_url(slugify(faction))), "As cards, by phase")) + body
        page.section(faction, body)
    orphans = [s for s in strats if s["origin"] == "detachment" and site.bundle.detachment_of(s) is None]
    page.section("Stratagems of an unknown detachment", site.stratagem_list(page, orphans))
    page.section("Boarding Actions", site.stratagem_list(page, [s for s in strats if s["origin"] == "boarding-actions"]),
                 anchor="boarding-actions")
    page.section("Challenger", site.stratagem_list(page, [s for s in strats if s["origin"] == "challenger"]),
                 anchor="challenger")
    if any(is_patrol(s) for s in site.bundle.kind("stratagem")):
        page.add(el("p", "Combat Patrol’s stratagems are listed with its forces: " + a(site.href(page.url, "combat-patrol/"),
                                                                                       "Combat Patrol") + ".", class_="ws-note"))
    return page


def detachments(site: Site) -> Page:
    page = _index("detachments/", "Detachments")
    dets = sorted((d for d in site.bundle.kind("detachment") if not is_patrol(d)),
                  key=lambda d: (d["faction"], d["name"], d["id"]))
    muster = any(d.get("detachment_points") is not None or d.get("force_disposition") for d in dets)
    if muster:  # 11th edition: a table per faction, with each detachment's cost and disposition at a glance
        for faction in sorted({d["faction"] for d in dets}, key=str.casefold):
            page.heading(faction, "faction-" + urls.faction_url(faction).split("/")[1],
                         html_title=site.faction_link(page.url, faction))
            page.add(detachment_table(site, page, [d for d in dets if d["faction"] == faction]))
    else:
        rows = [[site.ref(page.url, d, tip=True), site.faction_link(page.url, d["faction"]), esc(d["ruleset"]),
                 esc(len(d.get("stratagems", []))), esc(len(d.get("enhancements", [])))] for d in dets]
        page.add(table(["Detachment", "Faction", "Edition", "Stratagems", "Enhancements"], rows, label="Detachments",
                       class_="ws-table"))
    if len(dets) < len(site.bundle.kind("detachment")):
        page.add(el("p", "Combat Patrol’s detachments are listed with its forces: "
                    + a(site.href(page.url, "combat-patrol/"), "Combat Patrol") + ".", class_="ws-note"))
    return page


def rules(site: Site) -> Page:
    page = _index("rules/", "Core rules")
    rules = [r for r in site.bundle.kind("rule") if not is_patrol(r)]  # Combat Patrol's: combat-patrol/
    for rs in sorted({r["ruleset"] for r in rules}):
        items = [el("li", (esc(r["number"]) + " " if r.get("number") else "") + site.ref(page.url, r, tip=True))
                 for r in sorted((r for r in rules if r["ruleset"] == rs), key=_number_key)]
        page.section(EDITIONS.get(rs, rs), el("ul", "".join(items)), anchor=f"rules-{rs}")
    return page


def abilities(site: Site) -> Page:
    page = _index("abilities/", "Abilities")
    groups = defaultdict(list)
    for rec in site.bundle.kind("ability"):
        groups[(rec["type"], rec["ruleset"])].append(rec)
    for (kind, rs), recs in sorted(groups.items()):
        page.section(f"{kind.title()} abilities ({EDITIONS.get(rs, rs)})",
                     site.record_list(page, sorted(recs, key=lambda r: r["name"]), tip=True, class_="ws-columns"),
                     anchor=f"{kind}-{rs}")
    return page


def keywords(site: Site) -> Page:
    page = _index("keywords/", "Keywords")
    recs = site.bundle.kind("keyword")
    several = len({r["ruleset"] for r in recs}) > 1
    _letters(page, [(r["name"], el("li", site.ref(page.url, r) + (el("small", f" ({r['ruleset']})") if several else "")))
                    for r in recs])
    return page


def factions(site: Site) -> Page:
    page = _index("factions/", "Factions")
    page.add(el("ul", "".join(el("li", site.faction_link(page.url, name) + el("span", esc(
        count(len(site.faction_sheets.get(name, [])), "datasheet"))))
        for name in sorted(site.factions.values(), key=str.casefold)), class_="ws-cards ws-factions"))
    if site.patrol_sheets or site.patrol_detachments:
        page.add(el("p", "Combat Patrol’s forces, a game mode of their own: " + a(site.href(page.url, "combat-patrol/"),
                                                                                 "Combat Patrol") + ".", class_="ws-note"))
    return page


def sources(site: Site) -> Page:
    page = _index("sources/", "Sources")
    page.crumbs = [("Home", ""), ("Build", "build/")]
    listed = {s["file"]: s for s in site.bundle.meta.get("sources", [])}
    rows = []
    owner = {f: posixpath.basename(src) for src in listed for f in source_files(site, src)}
    for file in sorted(site.sources):
        n = sum(1 for d in site.diagnostics if d.get("file") == file)
        rows.append([a(site.href(page.url, site.source_url(file)), esc(file)), esc(owner.get(file, "")),
                     esc(len({id(r) for _a, _b, r in site.sources[file]})), esc(n)])
    page.add(table(["File", "Source", "Records", "Diagnostics"], rows, label="Sources", class_="ws-table"))
    return page


# Above this many entries the A–Z index is a page per initial (the whole game's would be one page of
# a megabyte, heavy on a phone); below it, one page.
A_TO_Z_PAGE_LIMIT = 1500


def a_to_z(site: Site) -> list[Page]:
    """Every record page and faction, by title, with its kind and context: one page, or one per initial
    under a page of the initials with their counts."""
    page = _index("a-z/", "A–Z index")
    entries = []
    for p in site.made:
        if p.kind in KIND_LABELS and p.searchable:
            context = f", {p.context}" if p.context and p.kind != "faction" else ""
            entries.append((p.title, p.url, KIND_LABELS[p.kind] + context))
    if len(entries) <= A_TO_Z_PAGE_LIMIT:
        _letters(page, [(t, _entry(site, page, t, u, c)) for t, u, c in entries])
        return [page]
    by_letter: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for entry in sorted(entries, key=lambda e: (e[0].casefold(), e[1])):
        by_letter[initial(entry[0])].append(entry)
    letter_url = {k: f"a-z/{letter_anchor(k)[len('letter-'):]}/" for k in by_letter}
    page.add(el("p", esc(f"{count(len(entries), 'page')} by title, a page for each initial.")))
    page.add(el("ul", "".join(el("li", a(site.href(page.url, letter_url[k]), esc(k))
                                     + el("small", esc(f" {count(len(by_letter[k]), 'page')}")))
                              for k in LETTERS if k in by_letter), class_="ws-columns ws-initials"))
    pages = [page]
    for k in LETTERS:
        if k not in by_letter:
            continue
        sub = Page(letter_url[k], f"A–Z index: {k}", kind="index", searchable=False,
                   crumbs=[("Home", ""), ("A–Z index", page.url)])
        bar = [el("strong", esc(x)) if x == k else a(site.href(sub.url, letter_url[x]), esc(x)) if x in by_letter
               else el("span", esc(x)) for x in LETTERS]
        sub.add(el("nav", " ".join(bar), class_="ws-letters", aria_label="Initials"))
        sub.add(el("ul", "".join(_entry(site, sub, t, u, c) for t, u, c in by_letter[k]), class_="ws-columns"))
        pages.append(sub)
    return pages


def _entry(site: Site, page: Page, title: str, url: str, context: str) -> str:
    return el("li", a(site.href(page.url, url), esc(title)) + el("small", esc(" " + context)))


def diagnostics(site: Site) -> Page:
    """The build's diagnostics with their source lines, then the site's unresolved references."""
    page = _index("diagnostics/", "Diagnostics")
    page.crumbs = [("Home", ""), ("Build", "build/")]
    by_file = defaultdict(list)
    for d in site.diagnostics:
        by_file[d.get("file", "")].append(d)
    errors = sum(1 for d in site.diagnostics if d.get("level") == "error")
    page.add(el("p", esc(f"{errors} errors and {len(site.diagnostics) - errors} warnings from extraction; "
                         f"{len(set(site.linker.unresolved))} unresolved references in the site's text.")))
    for file in sorted(by_file):
        rows = []
        for d in by_file[file]:
            where = str(d.get("line", "")) + (f":{d['column']}" if d.get("column") else "")
            rows.append([esc(where), el("span", esc(d.get("level", "")), class_="ws-" + esc(d.get("level", ""))),
                         el("code", esc(d.get("code", ""))), esc(d.get("message", "")),
                         esc(d.get("expected", "")), el("code", esc(d.get("found", ""))) if d.get("found") else ""])
        title = a(site.href(page.url, site.source_url(file)), esc(file)) if file in site.sources else esc(file or "(no file)")
        page.heading(file or "(no file)", site.source_slug(file), html_title=title)
        page.add(table(["Line", "Level", "Code", "Message", "Expected", "Found"], rows, label=file or "diagnostics",
                       class_="ws-table"))
    if site.linker.unresolved:
        page.section("Unresolved references", _unresolved(site, page), anchor="unresolved")
    return page


_SHOWN_PAGES = 5


def _unresolved(site: Site, page: Page) -> str:
    """One row per reference (kind and text, brackets and case aside): how many pages print it, and the
    first few. A source without some records (the Wahapedia export has no weapon abilities' rules)
    leaves the same few references on thousands of pages; a row each would be a page of megabytes."""
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for u in set(site.linker.unresolved):
        groups[(u.what, u.text.strip("[]() ").casefold())].append(u)
    rows = []
    for (what, _key), refs in sorted(groups.items(), key=lambda g: (-len({u.page for u in g[1]}), g[0])):
        pages = sorted({u.page for u in refs})
        texts = sorted({u.text for u in refs})
        links = ", ".join(a(site.href(page.url, p), esc(p or "home")) for p in pages[:_SHOWN_PAGES])
        if len(pages) > _SHOWN_PAGES:
            links += esc(f" and {len(pages) - _SHOWN_PAGES} more")
        rows.append([esc(what), " ".join(el("code", esc(t)) for t in texts[:3]), str(len(pages)), links])
    total = len({(u.page, u.what, u.text) for u in site.linker.unresolved})
    return (el("p", esc(f"{count(len(groups), 'reference')} the site could not link, "
                        f"{total} times in all; the most frequent first.")) +
            table(["Reference", "Text", "Pages", "On"], rows, label="Unresolved references", class_="ws-table"))
