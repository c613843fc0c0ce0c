"""A weapon's page: one per name and ruleset, with every profile of that name and the datasheets
that carry each (a weapon record belongs to one datasheet; players look a weapon up by name)."""

from __future__ import annotations

from collections import defaultdict

from warscribe.site.datasheet_page import reference_head, weapon_row
from warscribe.site.markup import a, el, esc, table
from warscribe.site.pages import EDITIONS, Page, Site, count, group_name, initial, letter_anchor
from warscribe.site.search import tokens


def _profile(w: dict) -> tuple:
    return (w.get("profile") or "", w["type"], w.get("range"), str(w["attacks"]), w.get("skill"), str(w["strength"]), w["ap"], str(w["damage"]),
            tuple(ab["text"] for ab in w.get("abilities", [])))


def weapon(site: Site, name_key: tuple[str, str], records: list[dict], url: str) -> Page:
    ruleset = name_key[0]
    records = sorted(records, key=lambda w: w["id"])
    title = site.weapons.name(records[0])  # the name as its first record (by id) writes it
    carriers = [(w, site.bundle.datasheet_of(w)) for w in records]
    factions = sorted({d["faction"] for _w, d in carriers if d})
    context = factions[0] if len(factions) == 1 else f"Weapon, {len(factions)} factions"
    # A weapon of several profiles is found by each profile's full name too ('Plasma pistol – Supercharge').
    aliases = tuple(sorted({w["name"] for w in records if w["name"] != title}))
    page = Page(url, title, kind="weapon", context=context, aliases=aliases,
                crumbs=[("Home", ""), ("Weapons", "weapons/")])
    kinds = sorted({w["type"] for w in records})
    site.header(page, records[0], [esc(" and ".join(kinds).capitalize() + " weapon"),
                                   esc("on " + count(len({d["id"] for _w, d in carriers if d}), "datasheet"))])
    profiles: dict[tuple, list[tuple[dict, dict | None]]] = defaultdict(list)
    for w, d in carriers:
        profiles[_profile(w)].append((w, d))
    rows, damage = [], []
    for prof, holders in profiles.items():
        w = holders[0][0]
        row = weapon_row(site, page, w)
        row[0] = esc(w.get("profile") or w["name"])  # the page's own name (or the profile's): no link to itself
        rows.append(row + [esc(len(holders))])
        damage.append([esc(f"Profile {len(damage) + 1}" + (f": {w['profile']}" if w.get("profile") else ""))]
                      + site.damage.cells(w))
    skill = "BS" if kinds == ["ranged"] else "WS" if kinds == ["melee"] else "BS/WS"
    page.section("Profiles", table(["Weapon", "Range", "A", skill, "S", "AP", "D", "Abilities", "Datasheets"], rows,
                                   label="Profiles", class_="ws-table ws-weapons"), anchor="profiles")
    if len(rows) > 1:
        page.add(el("p", "Profiles are numbered in the order of the table above.", class_="ws-note"))
    page.section("Damage against reference targets", site.damage.frames([h[0][0] for h in profiles.values()]) +
                 table(["Profile" if len(rows) > 1 else "Weapon"] + reference_head(),
                       damage if len(rows) > 1 else [[esc(title)] + damage[0][1:]],
                       label="Damage against reference targets", class_="ws-table ws-damage"), anchor="damage")
    by_faction: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for n, (prof, holders) in enumerate(profiles.items(), 1):
        for w, d in holders:
            if d is None:
                continue
            label = esc(d["name"]) + (el("small", f" (profile {n})") if len(profiles) > 1 else "")
            by_faction[group_name(d["faction"], d)].append((d["name"].casefold(), d["id"],
                                             el("li", a(site.href(page.url, site.row_url(w)), label))))
    carried = "".join(el("details", el("summary", esc(f) + " " + el("span", count(len(items), "unit"), class_="ws-count"))
                                    + el("ul", "".join(i[2] for i in sorted(items)), class_="ws-columns"), class_="ws-group",
                                    open=len(by_faction) == 1)
                      for f, items in sorted(by_faction.items()))
    page.section("Carried by", carried, anchor="carried-by")
    page.index(*(ab["text"] for w in records[:1] for ab in w.get("abilities", [])), EDITIONS.get(ruleset, ruleset))
    site.provenance(page, records)
    weapon_nav(site, page)
    return page


def weapon_nav(site: Site, page: Page) -> None:
    """The weapons whose names start with the same word (Bolt pistol, Bolt rifle, Bolt sniper rifle...),
    or, for a word no other weapon starts with, those of the same initial."""
    groups = site.cache("weapons by first word", lambda: _by_first_word(site))
    word = (tokens(page.title) or ["#"])[0]
    if len(groups.get(word, [])) < 2:
        site.letter_nav(page, "Weapons", "weapons/", lambda: [t for g in groups.values() for t in g])
        return
    site.sidenav(page, "weapons:" + word, lambda: (f"Weapons: {page.title.split()[0]}…", "weapons/#"
                                                    + letter_anchor(initial(page.title)), [("", groups[word])]))


def _by_first_word(site: Site) -> dict[str, list[tuple[str, str]]]:
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for (_ruleset, _key), records, url in site.weapons:
        name = site.weapons.name(min(records, key=lambda w: w["id"]))
        groups[(tokens(name) or ["#"])[0]].append((name, url))
    return groups


def pages(site: Site):
    for key, records, url in site.weapons:
        yield weapon(site, key, records, url)
