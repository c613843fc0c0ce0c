"""A datasheet's page: characteristics, weapons, damage against reference targets,
abilities, options, composition, points, attachment, keywords and the stratagems that
can target the unit."""

from __future__ import annotations

import re

from warscribe.site import disputes, urls
from warscribe.site.damage import REFERENCES
from warscribe.site.linker import Unresolved
from warscribe.site.markup import el, esc, table
from warscribe.site.pages import Page, Site, count

_FNP = re.compile(r"feel no pain\s*(\d)\+?", re.IGNORECASE)


def characteristic(name: str, value) -> str:
    """A characteristic as players read it: M 6", Sv 3+, Ld 6+, an invulnerable save 4++, Feel No Pain 5+++."""
    if value is None or value == "":
        return "-"
    if isinstance(value, str):
        return value
    if name == "M":
        return f'{value}"'
    if name in ("Sv", "Ld"):
        return f"{value}+"
    if name == "invulnerable":
        return f"{value}++"
    if name == "fnp":
        return f"{value}+++"
    return str(value)


def feel_no_pain(ds: dict) -> int | None:
    """The unit's Feel No Pain, where one of its abilities gives it unconditionally (`Feel No Pain 5+`)."""
    best = None
    for ab in ds.get("abilities", []):
        m = _FNP.fullmatch(ab["name"].strip())
        if m and (ab.get("type") == "core" or (ab.get("ref") or "").endswith("/feel-no-pain")):
            best = min(best or 7, int(m.group(1)))
    return best


def datasheet(site: Site, ds: dict) -> Page:
    page = Page(site.url_of(ds), ds["name"], kind="datasheet", context=ds["faction"],
                crumbs=site.crumbs_to_faction(ds["faction"]))
    pts = sorted({p["points"] for p in ds.get("points", [])})
    extra = [site.faction_link(page.url, ds["faction"])]
    if pts:
        extra.append(esc(f"{pts[0]} pts" if len(pts) == 1 else f"{pts[0]}–{pts[-1]} pts"))
    site.header(page, ds, extra)
    disputes.mark(site, page, ds)  # the fields its sources give differently
    models(site, page, ds)
    weapons = site.bundle.weapons_of(ds)
    for kind, title, skill in (("ranged", "Ranged weapons", "BS"), ("melee", "Melee weapons", "WS")):
        group = [w for w in weapons if w["type"] == kind]
        if group:
            page.section(title, table(["Weapon", "Range", "A", skill, "S", "AP", "D", "Abilities"],
                                      [weapon_row(site, page, w) for w in group], label=title,
                                      class_="ws-table ws-weapons ws-" + kind), anchor=kind + "-weapons")
    if weapons:
        page.section("Damage against reference targets", damage_table(site, page, weapons), anchor="damage")
    page.section("Abilities", abilities(site, page, ds))
    # (Linker.text gives a paragraph per line: no <p> around it.)
    page.section("Transport", site.text(page, ds.get("transport"), ds))
    page.section("Wargear", site.text(page, ds.get("loadout"), ds))
    options = []
    for opt in ds.get("wargear_options", []):
        choices = "".join(el("li", site.text(page, c, ds)) for c in opt.get("choices", []))
        options.append(el("li", site.text(page, opt["text"], ds) + (el("ul", choices) if choices else "")))
        page.index(opt["text"])
    page.section("Wargear options", el("ul", "".join(options)) if options else "")
    comp = [el("li", esc(f"{c['min']}" if c["min"] == c["max"] else f"{c['min']}–{c['max']}") + " " + esc(c["name"]))
            for c in ds.get("composition", [])]
    page.section("Unit composition", el("ul", "".join(comp)) if comp else "")
    points = [[esc(p["models"]), esc(p["points"]),
               (site.text(page, p.get("condition"), ds) + site.text(page, p.get("condition_text"), ds)) or "—"]
              for p in ds.get("points", [])]
    page.section("Points", table(["Models", "Points", "Condition"], points, label="Points",
                                 class_="ws-table ws-points") if points else "")
    for key, title in (("leader", "Leader"), ("led_by", "Led by")):
        page.section(title, attachment(site, page, ds, ds.get(key)))
    page.section("Keywords", keywords(site, page, ds))
    page.section("Stratagems", datasheet_stratagems(site, page, ds), anchor="stratagems")
    site.provenance(page, [ds] + weapons)
    site.faction_nav(page, ds["faction"])
    page.index(*(w["name"] for w in weapons), *ds.get("keywords", []), *ds.get("faction_keywords", []))
    return page


def models(site: Site, page: Page, ds: dict) -> None:
    if not ds.get("models"):
        return
    cols = [("M", "M"), ("T", "T"), ("Sv", "Sv"), ("W", "W"), ("Ld", "Ld"), ("OC", "OC")]
    if any(m.get("invulnerable") is not None for m in ds["models"]):
        cols.append(("invulnerable", "Inv"))
    fnp = feel_no_pain(ds)
    head = ["Model"] + [label for _key, label in cols] + (["FNP"] if fnp else [])
    rows = []
    notes = []
    for m in ds["models"]:
        row = [esc(m["name"])] + [esc(characteristic(key, m.get(key))) for key, _label in cols]
        if fnp:
            row.append(esc(characteristic("fnp", fnp)))
        rows.append(row)
        if m.get("invulnerable_text"):
            notes.append(el("li", el("strong", esc(m["name"]) + ": ") + esc(m["invulnerable_text"])))
    body = table(head, rows, label="Models", class_="ws-table ws-models")
    if notes:
        body += el("ul", "".join(notes), class_="ws-note")
    page.section("Models", body)


def weapon_row(site: Site, page: Page, w: dict) -> list[str]:
    abilities = []
    for ab in w.get("abilities", []):
        rec = site.linker.weapon_ability(ab, w["ruleset"])
        if rec is None and ab["id"] == "custom":
            abilities.append(esc(ab["text"]))
        elif rec is None:  # a weapon ability the engine knows, with no rules record in the build (Wahapedia's)
            site.linker.unresolved.append(Unresolved(page.url, "ability", ab["text"]))
            abilities.append(esc(ab["text"].strip("[]").upper()))
        else:
            abilities.append(site.ref(page.url, rec, ab["text"].strip("[]").upper(), tip=True))
    rng = "Melee" if w.get("range") is None else f'{w["range"]:g}"'
    skill = "N/A" if w.get("skill") is None else f"{w['skill']}+"
    name = el("a", esc(w["name"]), href=site.href(page.url, site.url_of(w)), id=urls.weapon_anchor(w),
              class_="ws-weapon-name")
    return [name, esc(rng), esc(w["attacks"]), esc(skill), esc(w["strength"]), esc(w["ap"]), esc(w["damage"]),
            ", ".join(abilities) or "—"]


def reference_head() -> list[str]:
    return [el("span", esc(r.name), class_="ws-ref-name") + "<br>" + el("small", esc(r.label)) for r in REFERENCES]


def damage_table(site: Site, page: Page, weapons: list[dict]) -> str:
    rows = [[esc(w["name"])] + site.damage.cells(w) for w in weapons]
    note = el("p", "Per model equipped, no modifiers, against four reference units: expected wounds removed / "
                   "expected models slain. Each chart shows the chance of each number of models slain "
                   "(wounds removed, against the single battle tank), from 0 on the left, on a scale of 0 to "
                   "100%. Computed by the Warscribe engine.", class_="ws-note")
    return note + site.damage.frames(weapons) + table(["Weapon"] + reference_head(), rows,
                                                      label="Damage against reference targets", class_="ws-table ws-damage")


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
        page.index(ab["name"], ab.get("text"))
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


# Where a group of stratagems comes in a datasheet's list: core first, the detachments, Boarding Actions last.
_GROUP_ORDER = {"core": 0, "detachment": 2, "boarding-actions": 3}
_GROUP_TITLES = {"core": "Core stratagems", "boarding-actions": "Boarding Actions", "detachment": "Other stratagems"}


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

    def order(key: str) -> tuple:
        det = site.bundle.get(key) if key not in _GROUP_TITLES else None
        return (1, det["name"].casefold(), key) if det else (_GROUP_ORDER.get(key, 2), key, key)

    body = []
    keys = sorted(groups, key=order)
    for key in keys:
        det = site.bundle.get(key) if key not in _GROUP_TITLES else None
        listed = site.stratagem_list(page, groups[key])
        if det is None or len(keys) <= 3:  # a few groups are read at a glance; core ones always open
            title = site.ref(page.url, det) + " detachment" if det else esc(_GROUP_TITLES.get(key, key))
            body.append(el("h3", title) + listed)
            continue
        # A unit of a large faction is the target of a hundred stratagems or more, in a score of
        # detachments: one closed line each, a player opens the one they play.
        summary = el("summary", esc(det["name"]) + " " + el("span", count(len(groups[key]), "stratagem"), class_="ws-count"))
        body.append(el("details", summary + el("p", site.ref(page.url, det) + " detachment", class_="ws-role") + listed,
                       class_="ws-group"))
    if not body:
        return ""
    note = ("Stratagems whose target this unit's keywords satisfy." if compiled else
            "Stratagems of this unit's faction and the core stratagems of its ruleset; check each one's target.")
    total = sum(len(v) for v in groups.values())
    return el("p", note + f" {count(total, 'stratagem')} in {count(len(groups), 'group')}.", class_="ws-note") + "".join(body)
