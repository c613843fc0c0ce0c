"""Pages that list records: home, the index of each kind, sources and diagnostics.

List pages are kept out of the search index (their words are the names of the pages
they list, which search finds anyway), so the index stays small.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict

from warscribe.schema.text import slugify
from warscribe.sitegen import stratagem_cards, urls
from warscribe.sitegen.markup import a, el, esc, table
from warscribe.sitegen.pages import EDITIONS, Page, Site

_EXCLUDE = {"exclude": True}


def _number_key(rec: dict) -> tuple:
    return (rec.get("number") is None, rec.get("number") or "", rec["name"].casefold())


def home(site: Site, intro: str) -> Page:
    page = Page("", "Warscribe")
    page.body.append("\n" + intro.strip() + "\n")
    meta = site.bundle.meta
    counts = defaultdict(int)
    for rec in site.bundle:
        counts[rec["kind"]] += 1
    rows = []
    for src in meta.get("sources", []):
        n = len({id(r) for _f, _l, r in site.sources.get(src["file"], [])})
        rows.append([a(site.href(page.url, urls.source_url(src["file"])), esc(src["file"])),
                     esc(EDITIONS.get(src.get("ruleset"), src.get("ruleset", ""))), esc(n),
                     el("code", esc(str(src.get("sha256", ""))[:12]))])
    page.section("Sources", table(["Source", "Ruleset", "Records", "sha256"], rows), anchor="sources")
    rulesets = sorted({r["ruleset"] for r in site.bundle})
    by_ruleset = []
    for rs in rulesets:
        n = defaultdict(int)
        for rec in site.bundle:
            if rec["ruleset"] == rs:
                n[rec["kind"]] += 1
        by_ruleset.append(el("li", el("strong", esc(EDITIONS.get(rs, rs))) + ": "
                             + esc(", ".join(f"{v} {k}" for k, v in sorted(n.items())))))
    page.section("Rulesets", el("ul", "".join(by_ruleset)), anchor="rulesets")
    built = meta.get("generator", "warscribe")
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (" on " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(int(epoch)))) if epoch and epoch.isdigit() else ""
    page.section("Build", el("p", esc(f"Built by {built}{when} from {len(rows)} sources into {len(site.bundle)} records. ")
                             + a(site.href(page.url, "diagnostics/"), "Diagnostics") + " lists what the extractor "
                             "could not read."), anchor="build")
    site.provenance(page, [])
    return page


def datasheets(site: Site) -> Page:
    page = Page("datasheets/", "Datasheets", search=_EXCLUDE)
    rows = []
    for ds in sorted(site.bundle.kind("datasheet"), key=lambda d: (d["faction"], d["name"], d["ruleset"])):
        pts = [p["points"] for p in ds.get("points", [])]
        rows.append([site.ref(page.url, ds), site.faction_link(page.url, ds["faction"]), esc(ds["ruleset"]),
                     esc(f"{min(pts)}–{max(pts)}" if pts and min(pts) != max(pts) else (pts[0] if pts else "—"))])
    page.add(table(["Datasheet", "Faction", "Ruleset", "Points"], rows))
    site.provenance(page, [])
    return page


def stratagems(site: Site) -> Page:
    page = Page("stratagems/", "Stratagems", search=_EXCLUDE)
    strats = site.bundle.kind("stratagem")
    for rs in sorted({s["ruleset"] for s in strats}):
        core = [s for s in strats if s["origin"] == "core" and s["ruleset"] == rs]
        page.section(f"Core stratagems ({rs})", site.stratagem_list(page, core), anchor=f"core-{rs}")
    page.section("Boarding Actions", site.stratagem_list(page, [s for s in strats if s["origin"] == "boarding-actions"]),
                 anchor="boarding-actions")
    page.section("Challenger", site.stratagem_list(page, [s for s in strats if s["origin"] == "challenger"]),
                 anchor="challenger")
    by_faction = defaultdict(list)
    for det in site.bundle.kind("detachment"):
        by_faction[det["faction"]].append(det)
    for faction in sorted(by_faction):
        body = ""
        for det in sorted(by_faction[faction], key=lambda d: d["name"]):
            owned = site.bundle.stratagems_of(det)
            if owned:
                body += el("h3", site.ref(page.url, det), id="det-" + det["id"].replace("/", "-")) + site.stratagem_list(page, owned)
        if body:  # at the table: the faction's stratagems as cards, filterable by phase
            body = el("p", a(site.href(page.url, stratagem_cards.card_url(slugify(faction))), "As cards, by phase")) + body
        page.section(faction, body)
    orphans = [s for s in strats if s["origin"] == "detachment" and site.bundle.detachment_of(s) is None]
    page.section("Stratagems of an unknown detachment", site.stratagem_list(page, orphans))
    site.provenance(page, [])
    return page


def detachments(site: Site) -> Page:
    page = Page("detachments/", "Detachments", search=_EXCLUDE)
    rows = [[site.ref(page.url, d, tip=True), site.faction_link(page.url, d["faction"]), esc(d["ruleset"]),
             esc(len(d.get("stratagems", []))), esc(len(d.get("enhancements", [])))]
            for d in sorted(site.bundle.kind("detachment"), key=lambda d: (d["faction"], d["name"]))]
    page.add(table(["Detachment", "Faction", "Ruleset", "Stratagems", "Enhancements"], rows))
    site.provenance(page, [])
    return page


def rules(site: Site) -> Page:
    page = Page("rules/", "Core rules", search=_EXCLUDE)
    for rs in sorted({r["ruleset"] for r in site.bundle.kind("rule")}):
        items = [el("li", (esc(r["number"]) + " " if r.get("number") else "") + site.ref(page.url, r, tip=True))
                 for r in sorted((r for r in site.bundle.kind("rule") if r["ruleset"] == rs), key=_number_key)]
        page.section(EDITIONS.get(rs, rs), el("ul", "".join(items)), anchor=f"rules-{rs}")
    site.provenance(page, [])
    return page


def abilities(site: Site) -> Page:
    page = Page("abilities/", "Abilities", search=_EXCLUDE)
    groups = defaultdict(list)
    for rec in site.bundle.kind("ability"):
        groups[(rec["type"], rec["ruleset"])].append(rec)
    for (kind, rs), recs in sorted(groups.items()):
        page.section(f"{kind.title()} abilities ({rs})",
                     site.record_list(page, sorted(recs, key=lambda r: r["name"]), tip=True), anchor=f"{kind}-{rs}")
    site.provenance(page, [])
    return page


def keywords(site: Site) -> Page:
    page = Page("keywords/", "Keywords", search=_EXCLUDE)
    for rs in sorted({r["ruleset"] for r in site.bundle.kind("keyword")}):
        recs = sorted((r for r in site.bundle.kind("keyword") if r["ruleset"] == rs), key=lambda r: r["name"])
        page.section(EDITIONS.get(rs, rs), el("p", ", ".join(site.ref(page.url, r) for r in recs)), anchor=f"keywords-{rs}")
    site.provenance(page, [])
    return page


def factions(site: Site) -> Page:
    page = Page("factions/", "Factions", search=_EXCLUDE)
    page.add(el("ul", "".join(el("li", site.faction_link(page.url, name))
                              for name in sorted(site.factions.values()))))
    site.provenance(page, [])
    return page


def sources(site: Site) -> Page:
    page = Page("sources/", "Sources", search=_EXCLUDE)
    listed = {s["file"]: s for s in site.bundle.meta.get("sources", [])}
    rows = []
    for file in sorted(set(site.sources) | set(listed)):
        n = sum(1 for d in site.diagnostics if d.get("file") == file)
        rows.append([a(site.href(page.url, urls.source_url(file)), esc(file)),
                     esc(listed.get(file, {}).get("ruleset", "")), esc(len(site.sources.get(file, []))), esc(n)])
    page.add(table(["Source", "Ruleset", "Records", "Diagnostics"], rows))
    site.provenance(page, [])
    return page


def diagnostics(site: Site) -> Page:
    """The build's diagnostics with their source lines, then the site's unresolved references."""
    page = Page("diagnostics/", "Diagnostics", search=_EXCLUDE)
    by_file = defaultdict(list)
    for d in site.diagnostics:
        by_file[d.get("file", "")].append(d)
    errors = sum(1 for d in site.diagnostics if d.get("level") == "error")
    page.add(el("p", esc(f"{errors} errors and {len(site.diagnostics) - errors} warnings from extraction; "
                         f"{len(site.linker.unresolved)} unresolved references in the site's text.")))
    for file in sorted(by_file):
        rows = []
        for d in by_file[file]:
            where = str(d.get("line", "")) + (f":{d['column']}" if d.get("column") else "")
            rows.append([esc(where), el("span", esc(d.get("level", "")), class_="ws-" + esc(d.get("level", ""))),
                         el("code", esc(d.get("code", ""))), esc(d.get("message", "")),
                         esc(d.get("expected", "")), el("code", esc(d.get("found", ""))) if d.get("found") else ""])
        title = a(site.href(page.url, urls.source_url(file)), esc(file)) if file in site.sources else esc(file)
        page.add(el("h2", title, id=urls.source_slug(file)))
        page.add(table(["Line", "Level", "Code", "Message", "Expected", "Found"], rows))
    if site.linker.unresolved:
        rows = [[a(site.href(page.url, u.page), esc(u.page or "home")), esc(u.what), el("code", esc(u.text))]
                for u in sorted(set(site.linker.unresolved), key=lambda u: (u.page, u.what, u.text))]
        page.section("Unresolved references", table(["Page", "Reference", "Text"], rows), anchor="unresolved")
    site.provenance(page, [])
    return page
