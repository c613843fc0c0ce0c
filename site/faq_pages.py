"""Errata and FAQ: a page per publication (``faq/<publication>/``) with its entries in their
printed order, each an anchor, and an index of the publications (``faq/``).

An entry's amended records are linked where the build holds them (``amends[].ref``); each such
record's own page lists the entries that amend it (``Site.faq_section``, indexed once).
"""

from __future__ import annotations

from warscribe.site.linker import Unresolved
from warscribe.site.markup import a, el, esc
from warscribe.site.pages import EDITIONS, Page, Site, count, is_patrol

URL = "faq/"
TITLE = "Errata & FAQ"
_AMENDS = {"datasheet": "Datasheet", "stratagem": "Stratagem", "enhancement": "Enhancement",
           "detachment": "Detachment", "rule": "Rule", "army-rule": "Army rule", "publication": "Publication"}


def pages(site: Site) -> list[Page]:
    if not site.bundle.kind("faq"):
        return []
    out = [index(site)]
    out += [publication(site, name, entries, url) for name, entries, url in site.faq_pages]
    return out


def index(site: Site) -> Page:
    page = Page(URL, TITLE, kind="index", searchable=False, crumbs=[("Home", "")])
    total = len(site.bundle.kind("faq"))
    page.add(el("p", esc(f"{count(total, 'entry', 'entries')} of the official errata and FAQ, by the publication "
                         "they amend. Each amended datasheet, stratagem, enhancement, detachment and rule lists "
                         "its entries on its own page."), class_="ws-meta"))
    rows = []
    for name, entries, url in site.faq_pages:
        patrol = sum(1 for f in entries if is_patrol(f))
        note = el("small", esc(f" ({patrol} Combat Patrol)")) if patrol else ""
        rows.append(el("li", a(site.href(page.url, url), esc(name)) + " " + el("span", count(len(entries), "entry", "entries"),
                                                                                 class_="ws-count") + note))
    page.add(el("ul", "".join(rows), class_="ws-columns ws-faq-publications"))
    return page


def publication(site: Site, name: str, entries: list[dict], url: str) -> Page:
    rulesets = sorted({f["ruleset"] for f in entries})
    page = Page(url, f"Errata & FAQ: {name}", kind="faq", context=", ".join(EDITIONS.get(r, r) for r in rulesets),
                aliases=(name, f"{name} FAQ"), crumbs=[("Home", ""), (TITLE, URL)])
    page.add(el("p", " · ".join(el("span", esc(EDITIONS.get(r, r)), class_="ws-badge ws-" + r) for r in rulesets)
                + " " + esc(count(len(entries), "entry", "entries")), class_="ws-meta"))
    # Matched play's entries first, Combat Patrol's after them under their own heading.
    for patrol in (False, True):
        group = [f for f in entries if is_patrol(f) == patrol]
        if not group:
            continue
        if patrol:
            page.heading("Combat Patrol", "combat-patrol")
        page.add(el("ol", "".join(_entry(site, page, f) for f in group), class_="ws-faq ws-faq-list"))
    site.provenance(page, entries)
    site.sidenav(page, "faq", lambda: (TITLE, URL, [("", [(n, u) for n, _e, u in site.faq_pages])]))
    return page


def _entry(site: Site, page: Page, f: dict) -> str:
    amends = []
    for x in f.get("amends", []):
        target = site.bundle.get(x["ref"]) if x.get("ref") else None
        if x.get("ref") and target is None:
            site.linker.unresolved.append(Unresolved(page.url, "faq", x["name"]))
        label = el("span", esc(_AMENDS.get(x["type"], x["type"])), class_="ws-tag")
        amends.append(label + " " + (site.ref(page.url, target, x["name"]) if target else esc(x["name"])))
    page.index(f["name"], f["text"])
    body = (el("p", el("strong", esc(f["name"])), class_="ws-faq-head") + site.text(page, f["text"], f)
            + (el("p", "Amends: " + " · ".join(amends), class_="ws-note") if amends else ""))
    return el("li", body, id=site.faq_pages.anchor(f))
