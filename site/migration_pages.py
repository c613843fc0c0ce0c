"""From 10th edition: what changed for each unit when the edition did (``warscribe build --since OLD_10E_BUILD``).

A build given a previous build of the other edition carries the edition migration
(:mod:`warscribe.ledger.migration`) on its ledger. Then the site has a page per faction
(``migration/<faction>/``: per unit the characteristics, invulnerable save, weapons and their
abilities renamed or replaced, abilities gained and lost, points and Leader / Support; the
units of one edition only), an index with the counts per faction and the weapon-ability
renames the data shows (``migration/``), and each 11th-edition datasheet page a "From 10th
edition" section (:func:`section`). Without a migration, none of this is made. Everything from
a source goes through :func:`esc`.
"""

from __future__ import annotations

from warscribe.ledger.migration import SUMMARY_COLUMNS, Migration, Unit, change_line
from warscribe.site.markup import el, esc, table
from warscribe.site.pages import Page, Site
from warscribe.schema.filenames import part_name
from warscribe.schema.text import slugify

URL = "migration/"
TITLE = "From 10th edition"


def migration_of(site: Site) -> Migration | None:
    ledger = getattr(site, "ledger", None)
    return getattr(ledger, "migration", None) if ledger is not None else None


def faction_page_url(faction: str) -> str:
    return f"{URL}{part_name(slugify(faction) or 'none')}/"


def pages(site: Site) -> list[Page]:
    m = migration_of(site)
    if m is None:
        return []
    return [index(site, m)] + [faction_page(site, m, f) for f in m.factions()]


def _counts(m: Migration, faction: str | None) -> list[str]:
    c = m.summary(faction)
    return [str(c[k]) for k, _label in SUMMARY_COLUMNS]


def index(site: Site, m: Migration) -> Page:
    p = Page(URL, TITLE, kind="index")
    s = m.summary()
    p.add(el("p", esc(f"{m.old.label} ({m.editions[0]}) → {m.new.label} ({m.editions[1]}): {s['matched']} units in "
                      f"both editions ({s['changed']} changed), {s['only_old']} only in {m.editions[0]}, "
                      f"{s['only_new']} only in {m.editions[1]}.")))
    if m.renames:
        p.section("Weapon abilities renamed or replaced",
                  table(["10th edition", "11th edition", "weapons"],
                        [[esc(f"[{r['old'].upper()}]"), esc(f"[{r['new'].upper()}]"), esc(f"{r['weapons']} of {r['of']}")]
                         for r in m.renames]), "renames")
    rows = [[el("a", esc(f), href=site.href(URL, faction_page_url(f)))] + _counts(m, f) for f in m.factions()]
    rows.append([el("strong", "total")] + [el("strong", x) for x in _counts(m, None)])
    p.section("Per faction", table(["faction"] + [esc(label) for _k, label in SUMMARY_COLUMNS], rows), "factions")
    return p


def _unit_link(site: Site, page: str, unit: Unit) -> str:
    rec = site.bundle.get(unit.new_id)
    return site.ref(page, rec, unit.name) if rec is not None else esc(unit.name)


def faction_page(site: Site, m: Migration, faction: str) -> Page:
    url = faction_page_url(faction)
    p = Page(url, f"{faction}: from 10th edition", kind="index", context=faction)
    p.crumbs = [(TITLE, URL)]
    p.add(table([esc(label) for _k, label in SUMMARY_COLUMNS], [_counts(m, faction)]))
    rows = []
    for u in m.units:
        if u.faction == faction and u.changes:
            name = _unit_link(site, url, u) + (esc(f" (10th: {u.old_name})") if u.old_name else "")
            rows.append([name, el("ul", "".join(el("li", esc(change_line(c))) for c in u.changes))])
    p.section("Units", table(["unit", "what changed"], rows), "units")
    same = [u for u in m.units if u.faction == faction and not u.changes]
    if same:
        p.section("Unchanged", el("p", ", ".join(_unit_link(site, url, u) for u in same)), "unchanged")
    for rows_, title, anchor in ((m.only_old, f"Only in {m.editions[0]}", "only-old"),
                                 (m.only_new, f"Only in {m.editions[1]}", "only-new")):
        names = [r for r in rows_ if r["faction"] == faction]
        if names:
            links = [site.ref(url, site.bundle.get(r["record"]), r["name"]) if site.bundle.get(r["record"])
                     else esc(r["name"]) for r in names]
            p.section(title, el("p", ", ".join(links)), anchor)
    return p


def section(site: Site, page: Page, ds: dict) -> None:
    """The datasheet page's "From 10th edition" section, when the site has a migration and the unit was matched."""
    m = migration_of(site)
    unit = m.for_record(ds["id"]) if m is not None else None
    if unit is None:
        return
    body = el("p", esc(f"10th edition: {unit.old_name or unit.name}") + " · "
              + el("a", esc("every unit of the faction"), href=site.href(page.url, faction_page_url(unit.faction))))
    body += (el("ul", "".join(el("li", esc(change_line(c))) for c in unit.changes)) if unit.changes
             else el("p", esc("No change a player re-checks (characteristics, weapons, abilities, points, "
                              "Leader / Support).")))
    page.section(TITLE, body, "from-10th-edition")
