"""Combat Patrol, a game mode of its own: its records (game_mode "combat-patrol") are listed here
and never in matched play's lists (factions, datasheets, stratagems, detachments, core rules).

``combat-patrol/``: the mode's own rules and every faction's force; ``combat-patrol/<faction>/``:
a faction's force: its detachment(s) with their rules' names, Detachment Points and Force
Disposition, its datasheets, stratagems and enhancements. The records keep their own pages
(labelled Combat Patrol, with breadcrumbs and a sidebar of their force).
"""

from __future__ import annotations

from warscribe.schema.text import slugify
from warscribe.site import urls
from warscribe.site.markup import a, el, esc
from warscribe.site.pages import EDITIONS, ROLES, Page, Site, count, is_patrol, patrol_url, role_of
from warscribe.site.record_pages import glance

URL = "combat-patrol/"
TITLE = "Combat Patrol"


def _number_key(rec: dict) -> tuple:
    return (rec.get("number") is None, rec.get("number") or "", rec["name"].casefold())


def pages(site: Site) -> list[Page]:
    rules = [r for r in site.bundle.kind("rule") if is_patrol(r)]
    factions = sorted(set(site.patrol_sheets) | set(site.patrol_detachments), key=str.casefold)
    if not rules and not factions:
        return []
    return [index(site, rules, factions)] + [force(site, f) for f in factions]


def index(site: Site, rules: list[dict], factions: list[str]) -> Page:
    # Searchable, unlike other indexes: Combat Patrol has no tab, and players look it up by name.
    page = Page(URL, TITLE, kind="index", crumbs=[("Home", "")])
    page.add(el("p", "Combat Patrol is a game mode of its own, played with small fixed forces. Its datasheets, "
                     "detachments, stratagems and enhancements are listed here, apart from matched play's.",
                class_="ws-meta"))
    if rules:
        items = [el("li", (esc(r["number"]) + " " if r.get("number") else "") + site.ref(page.url, r, tip=True)
                      + el("small", esc(f" ({EDITIONS.get(r['ruleset'], r['ruleset'])})")))
                 for r in sorted(rules, key=lambda r: (r["ruleset"],) + _number_key(r))]
        page.section("Combat Patrol rules", el("ul", "".join(items)), anchor="rules")
    cards = []
    for f in factions:
        sheets = len(site.patrol_sheets.get(f, []))
        names = ", ".join(d["name"] for d in site.patrol_detachments.get(f, []))
        cards.append(el("li", a(site.href(page.url, patrol_url(f)), esc(f))
                        + el("span", esc(", ".join(x for x in (names, count(sheets, "datasheet")) if x)))))
    page.section("Forces", el("ul", "".join(cards), class_="ws-cards ws-factions"), anchor="forces")
    return page


def force(site: Site, faction: str) -> Page:
    sheets = site.patrol_sheets.get(faction, [])
    dets = site.patrol_detachments.get(faction, [])
    page = Page(patrol_url(faction), f"Combat Patrol: {faction}", kind="faction",
                context=f"Combat Patrol, {count(len(sheets), 'unit')}", aliases=(f"{faction} Combat Patrol",),
                crumbs=[("Home", ""), (TITLE, URL)])
    page.add(el("p", el("span", "Combat Patrol", class_="ws-badge ws-patrol") + " "
                + a(site.href(page.url, urls.faction_url(faction)), esc(faction) + " in matched play"), class_="ws-meta"))
    for det in dets:
        body = el("p", " · ".join(glance(det)), class_="ws-meta") if glance(det) else ""
        rules = ([det["rule"]] if det.get("rule") else []) + det.get("additional_rules", [])
        if rules:
            body += el("p", el("strong", "Rules: ") + esc(", ".join(r.get("name") or "Detachment rule" for r in rules)))
        body += el("h3", "Stratagems") + site.stratagem_list(page, site.bundle.stratagems_of(det)) \
            if det.get("stratagems") else ""
        enh = site.enhancement_list(page, site.bundle.enhancements_of(det))
        body += el("h3", "Enhancements") + enh if enh else ""
        page.heading(det["name"], "detachment-" + slugify(det["id"]), html_title=site.ref(page.url, det))
        page.add(body)
    if sheets:
        page.heading("Datasheets", "datasheets")
        for role in ROLES:
            group = [d for d in sheets if role_of(d) == role]
            if group:
                page.add(el("p", esc(f"{role} ({len(group)})"), class_="ws-role")
                         + site.record_list(page, group, class_="ws-columns"))
    site.provenance(page, [])
    site.patrol_nav(page, faction)
    return page
