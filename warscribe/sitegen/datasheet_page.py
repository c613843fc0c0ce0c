"""A datasheet's page: characteristics, weapons, damage against reference targets,
abilities, options, composition, points, attachment, keywords and the stratagems that
can target the unit."""

from __future__ import annotations

from warscribe.sitegen import disputes, urls
from warscribe.sitegen.damage import REFERENCES, cell
from warscribe.sitegen.linker import Unresolved
from warscribe.sitegen.markup import el, esc, table
from warscribe.sitegen.pages import Page, Site


def datasheet(site: Site, ds: dict) -> Page:
    page = Page(urls.record_url(ds), ds["name"], search={"boost": 2})
    site.header(page, ds, [site.faction_link(page.url, ds["faction"])])
    disputes.mark(site, page, ds)  # the fields its sources give differently
    if ds.get("models"):
        cols = ["M", "T", "Sv", "invulnerable", "W", "Ld", "OC"]
        rows = [[esc(m["name"])] + [esc("-" if m.get(c) is None else m[c]) for c in cols] for m in ds["models"]]
        page.section("Models", table(["Model", "M", "T", "Sv", "Inv", "W", "Ld", "OC"], rows))
    weapons = site.bundle.weapons_of(ds)
    for kind, title, skill in (("ranged", "Ranged weapons", "BS"), ("melee", "Melee weapons", "WS")):
        group = [w for w in weapons if w["type"] == kind]
        if group:
            page.section(title, table(["Weapon", "Range", "A", skill, "S", "AP", "D", "Abilities"],
                                      [weapon_row(site, page, w) for w in group], class_="ws-weapons ws-" + kind),
                         anchor=kind + "-weapons")
    if weapons:
        page.section("Damage against reference targets", damage_table(site, page, weapons), anchor="damage")
    page.section("Abilities", abilities(site, page, ds))
    options = []
    for opt in ds.get("wargear_options", []):
        choices = "".join(el("li", site.text(page, c, ds)) for c in opt.get("choices", []))
        options.append(el("li", site.text(page, opt["text"], ds) + (el("ul", choices) if choices else "")))
    page.section("Wargear options", el("ul", "".join(options)) if options else "")
    comp = [el("li", esc(f"{c['min']}" if c["min"] == c["max"] else f"{c['min']}–{c['max']}") + " " + esc(c["name"]))
            for c in ds.get("composition", [])]
    page.section("Unit composition", el("ul", "".join(comp)) if comp else "")
    points = [[esc(p["models"]), esc(p["points"]),
               (site.text(page, p.get("condition"), ds) + site.text(page, p.get("condition_text"), ds)) or "—"]
              for p in ds.get("points", [])]
    page.section("Points", table(["Models", "Points", "Condition"], points) if points else "")
    for key, title in (("leader", "Leader"), ("led_by", "Led by")):
        page.section(title, attachment(site, page, ds, ds.get(key)))
    page.section("Keywords", keywords(site, page, ds))
    page.section("Stratagems", datasheet_stratagems(site, page, ds), anchor="stratagems")
    site.provenance(page, [ds] + weapons)
    return page


def weapon_row(site: Site, page: Page, w: dict) -> list[str]:
    abilities = []
    for ab in w.get("abilities", []):
        rec = site.linker.weapon_ability(ab, w["ruleset"])
        if rec is None:
            if ab["id"] != "custom":
                site.linker.unresolved.append(Unresolved(page.url, "ability", ab["text"]))
            abilities.append(esc(ab["text"]))
        else:
            abilities.append(site.ref(page.url, rec, ab["text"].strip("[]").upper(), tip=True))
    rng = "Melee" if w.get("range") is None else f'{w["range"]:g}"'
    skill = "N/A" if w.get("skill") is None else f"{w['skill']}+"
    name = el("span", esc(w["name"]), id=urls.weapon_anchor(w), class_="ws-weapon-name")
    return [name, esc(rng), esc(w["attacks"]), esc(skill), esc(w["strength"]), esc(w["ap"]), esc(w["damage"]),
            ", ".join(abilities) or "—"]


def damage_table(site: Site, page: Page, weapons: list[dict]) -> str:
    rows = []
    for w in weapons:
        outcomes = site.damage.outcomes(w)
        if isinstance(outcomes, str):
            rows.append([esc(w["name"])] + [el("span", "—", title=esc(outcomes))] * len(REFERENCES))
        else:
            rows.append([esc(w["name"])] + [cell(o, r) for o, r in zip(outcomes, REFERENCES)])
    note = el("p", "Per model equipped, no modifiers: expected wounds removed / expected models slain; "
                   "the bars show the chance of each number of models slain (0 on the left). Computed by "
                   "the Warscribe engine.", class_="ws-note")
    return el("div", note + table(["Weapon"] + [esc(r.label) for r in REFERENCES], rows, class_="ws-damage"),
              data_search_exclude=True)


def abilities(site: Site, page: Page, ds: dict) -> str:
    items = []
    for ab in ds.get("abilities", []):
        label = el("span", esc(ab["type"]), class_="ws-tag")
        target = site.bundle.get(ab["ref"]) if ab.get("ref") else None
        if ab.get("ref") and target is None:
            site.linker.unresolved.append(Unresolved(page.url, "ability", ab["name"]))
        name = site.ref(page.url, target, ab["name"], tip=True) if target else el("strong", esc(ab["name"]))
        psychic = " " + el("span", "Psychic", class_="ws-tag") if ab.get("psychic") else ""
        items.append(el("li", label + " " + name + psychic + site.text(page, ab.get("text"), ds)))
    return el("ul", "".join(items), class_="ws-abilities") if items else ""


def attachment(site: Site, page: Page, ds: dict, att: dict | None) -> str:
    if not att:
        return ""
    units = []
    for name in att.get("units", []):
        found = [r for r in site.bundle.named(name, "datasheet", ds["ruleset"])]
        units.append(el("li", site.ref(page.url, found[0]) if found else esc(name)))
    body = site.text(page, att.get("text"), ds)
    return body + (el("ul", "".join(units)) if units else el("p", "(the source lists no units)", class_="ws-note"))


def keywords(site: Site, page: Page, ds: dict) -> str:
    parts = []
    for field_name, title in (("keywords", "Keywords"), ("faction_keywords", "Faction keywords")):
        links = []
        for name in ds.get(field_name, []):
            rec = site.linker.keyword(name, ds["ruleset"])
            links.append(site.ref(page.url, rec, name) if rec else esc(name))
        if links:
            parts.append(el("p", el("strong", title + ": ") + ", ".join(links)))
    return "".join(parts)


def datasheet_stratagems(site: Site, page: Page, ds: dict) -> str:
    """The stratagems that can target this unit: the effects compiler's target lists where the
    build has them (``datasheet.stratagems``), else its faction's and the core ones."""
    compiled = "stratagems" in ds
    strats = site.bundle.stratagems_for(ds) if compiled else [
        s for s in site.bundle.kind("stratagem") if s["ruleset"] == ds["ruleset"] and (
            s["origin"] == "core" or (site.bundle.detachment_of(s) or {}).get("faction") == ds["faction"])]
    groups: dict[str, list[dict]] = {}
    for s in strats:
        det = site.bundle.detachment_of(s)
        key = det["id"] if det else s["origin"]
        groups.setdefault(key, []).append(s)
    titles = {"core": "Core stratagems", "boarding-actions": "Boarding Actions", "detachment": "Other stratagems"}
    body = []
    for key in sorted(groups, key=lambda k: (k in titles, k)):
        det = site.bundle.get(key)
        title = site.ref(page.url, det) if det else esc(titles.get(key, key))
        body.append(el("h3", title) + site.stratagem_list(page, groups[key]))
    if not body:
        return ""
    note = ("Stratagems whose target this unit's keywords satisfy." if compiled else
            "Stratagems of this unit's faction and the core stratagems of its ruleset; check each one's target.")
    # Kept out of the search index: the stratagems have their own pages, found by name.
    return el("div", el("p", note, class_="ws-note") + "".join(body), data_search_exclude=True)
