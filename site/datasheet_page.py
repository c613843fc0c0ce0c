"""A datasheet's page: characteristics, weapons, damage against reference targets,
abilities, options, composition, points, attachment, keywords and the stratagems that
can target the unit."""

from __future__ import annotations

import re

from warscribe.site import disputes, migration_pages, urls
from warscribe.site import matchups  # the unit against common targets (issue 42)
from warscribe.site.damage import REFERENCES
from warscribe.site.linker import Unresolved
from warscribe.site.markup import GroupRow, el, esc, table
from warscribe.site.pages import Page, Site, count, is_patrol, legends_badge, legends_context, mode_context

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
    page = Page(site.url_of(ds), ds["name"], kind="datasheet", context=legends_context(ds, mode_context(ds, ds["faction"])),
                crumbs=site.crumbs_to_patrol(ds["faction"]) if is_patrol(ds) else site.crumbs_to_faction(ds["faction"]),
                legends=bool(ds.get("legends")))
    pts = sorted({p["points"] for p in ds.get("points", [])})
    extra = [site.faction_link(page.url, ds["faction"])]
    if ds.get("legends"):
        extra.append(legends_badge())
    if pts:
        extra.append(esc(f"{pts[0]} pts" if len(pts) == 1 else f"{pts[0]}–{pts[-1]} pts"))
    site.header(page, ds, extra)
    site.other_names(page, ds)
    disputes.mark(site, page, ds)  # the fields its sources give differently
    models(site, page, ds)
    weapons = site.bundle.weapons_of(ds)
    for kind, title, skill in (("ranged", "Ranged weapons", "BS"), ("melee", "Melee weapons", "WS")):
        group = [w for w in weapons if w["type"] == kind]
        if group:
            page.section(title, table(["Weapon", "Range", "A", skill, "S", "AP", "D", "Abilities"],
                                      weapon_rows(site, page, group), label=title,
                                      class_="ws-table ws-weapons ws-" + kind), anchor=kind + "-weapons")
    if weapons:
        page.section("Damage against reference targets", damage_table(site, page, shown_order(weapons)),
                     anchor="damage")
        page.section("Unit matchups", matchups.page_section(site, ds), anchor="matchups")
    page.section("Abilities", abilities(site, page, ds))
    # (Linker.text gives a paragraph per line: no <p> around it.)
    page.section("Transport", site.text(page, ds.get("transport"), ds))
    page.section("Wargear", site.text(page, ds.get("loadout"), ds))
    page.section("Wargear options", wargear_options(site, page, ds))
    comp = [el("li", esc(f"{c['min']}" if c["min"] == c["max"] else f"{c['min']}–{c['max']}") + " " + esc(c["name"]))
            for c in ds.get("composition", [])]
    page.section("Unit composition", el("ul", "".join(comp)) if comp else "")
    page.section("Points", points(site, page, ds), anchor="points")
    for key, title in (("leader", "Leader"), ("support", "Support"), ("led_by", "Led by")):
        page.section(title, attachment(site, page, ds, ds.get(key)))
    page.section("Keywords", keywords(site, page, ds))
    page.section("Stratagems", datasheet_stratagems(site, page, ds), anchor="stratagems")
    site.faq_section(page, ds)
    migration_pages.section(site, page, ds)
    site.provenance(page, [ds] + weapons)
    if is_patrol(ds):
        site.patrol_nav(page, ds["faction"])
    else:
        site.faction_nav(page, ds["faction"])
    page.index(*(w["name"] for w in weapons), *dict.fromkeys(w["profile_of"] for w in weapons if w.get("profile_of")),
               *ds.get("keywords", []), *ds.get("faction_keywords", []))
    return page


def ordinal(n: int) -> str:
    """'1st', '2nd', '3rd', '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def points(site: Site, page: Page, ds: dict) -> str:
    """A row per unit size (and condition): its cost, then the cost from each requisition threshold on
    ('5 models: 80 pts · 3rd+ selection: 90 pts'); then what optional models and wargear add."""
    rows: dict[tuple, list[dict]] = {}
    for p in ds.get("points", []):
        rows.setdefault((p["models"], p.get("condition") or "", p.get("condition_text") or ""), []).append(p)
    body = []
    for (models_, condition, condition_text), entries in rows.items():
        tiers = []
        for p in sorted(entries, key=lambda p: (p.get("from_copy") or 1, p["points"])):
            cost = esc(f"{p['points']} pts")
            tiers.append(el("strong", cost) if not p.get("from_copy") else
                         el("span", esc(f"{ordinal(p['from_copy'])}+ selection: ") + cost, class_="ws-tier"))
        body.append([esc(f"{models_} model" + ("" if models_ == 1 else "s")), " · ".join(tiers),
                     (site.text(page, condition, ds) + site.text(page, condition_text, ds)) or "—"])
    conditions = any(c or t for (_m, c, t) in rows)
    head = ["Models", "Points", "Condition"] if conditions else ["Models", "Points"]
    html = table(head, [row[:len(head)] for row in body], label="Points", class_="ws-table ws-points") if body else ""
    thresholds = sorted({p["from_copy"] for p in ds.get("points", []) if p.get("from_copy")})
    if thresholds:
        n = ordinal(thresholds[0])
        html += el("p", esc(f"“{n}+ selection”: the cost of this unit when it is the army’s {n} unit of this datasheet "
                            "or a later one (requisition); the first cost is that of the ones before."), class_="ws-note")
    extra = [el("li", esc(x["name"]) + " " + el("strong", esc(f"+{x['points']} pts"))) for x in ds.get("extra_points", [])]
    if extra:
        html += el("p", el("strong", "Optional models and wargear:")) + el("ul", "".join(extra), class_="ws-extra-points")
    return html


def _with_cost(html_text: str, points_: int | None) -> str:
    """A choice's text with what it costs at the end of its last paragraph (not on a line of its own)."""
    if not points_:
        return html_text
    cost = " " + el("span", esc(f"+{points_} pts"), class_="ws-cost")
    return html_text[:-4] + cost + "</p>" if html_text.endswith("</p>") else html_text + cost


def wargear_options(site: Site, page: Page, ds: dict) -> str:
    """Each option with its choices; a choice that costs points says how many."""
    options = []
    for opt in ds.get("wargear_options", []):
        costs = opt.get("costs") or {}
        listed = list(opt.get("choices", []))
        listed += sorted(c for c in costs if c not in listed)  # priced, though the option's text lists it only
        choices = "".join(el("li", _with_cost(site.text(page, c, ds), costs.get(c))) for c in listed)
        options.append(el("li", site.text(page, opt["text"], ds) + (el("ul", choices) if choices else "")))
        page.index(opt["text"])
    return el("ul", "".join(options)) if options else ""


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
        if m.get("invulnerable_text") and m.get("invulnerable") is not None:
            # The save holds only under its condition: marked, the condition under the table.
            at = [key for key, _label in cols].index("invulnerable") + 1
            row[at] += el("sup", "*", title="See the condition below")
        if fnp:
            row.append(esc(characteristic("fnp", fnp)))
        rows.append(row)
        if m.get("invulnerable_text"):
            label = "Invulnerable save" + (f" {characteristic('invulnerable', m['invulnerable'])}"
                                           if m.get("invulnerable") is not None else "")
            notes.append(el("li", el("strong", esc(f"{m['name']}, {label}: ")) + esc(m["invulnerable_text"])))
    body = table(head, rows, label="Models", class_="ws-table ws-models")
    if notes:
        body += el("ul", "".join(notes), class_="ws-note")
    page.section("Models", body)


def shown_order(weapons: list[dict]) -> list[dict]:
    """The weapons in the order the weapon tables show them: ranged, then melee, the profiles of
    one weapon together (so that every table of the page lists them alike)."""
    out = []
    for kind in ("ranged", "melee"):
        groups: dict[str, list[dict]] = {}
        for w in weapons:
            if w["type"] == kind:
                groups.setdefault(w.get("profile_of") or "\0" + w["id"], []).append(w)
        out += [w for group in groups.values() for w in group]
    return out


def weapon_rows(site: Site, page: Page, weapons: list[dict]) -> list:
    """A row per weapon; the profiles of one weapon (a plasma pistol's Standard and Supercharge) under
    a row of the weapon's name, each named by its profile."""
    groups: dict[str, list[dict]] = {}
    for w in weapons:
        groups.setdefault(w.get("profile_of") or "\0" + w["id"], []).append(w)
    rows: list = []
    for key, group in groups.items():
        if key.startswith("\0") or len(group) == 1:  # one profile here: a row as any weapon's
            rows.append(weapon_row(site, page, group[0]))
            continue
        head = el("a", esc(key), href=site.href(page.url, site.url_of(group[0])), class_="ws-weapon-name")
        rows.append(GroupRow(head + " " + el("span", count(len(group), "profile"), class_="ws-count"),
                             class_="ws-weapon-group"))
        for w in group:
            row = weapon_row(site, page, w, label=w.get("profile") or w["name"])
            rows.append(row)
    return rows


def weapon_row(site: Site, page: Page, w: dict, label: str | None = None) -> list[str]:
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
    if label is None:
        name = el("a", esc(w["name"]), href=site.href(page.url, site.url_of(w)), id=urls.weapon_anchor(w),
                  class_="ws-weapon-name")
    else:  # one profile of a weapon whose name heads its group
        name = el("a", el("span", esc(w["profile_of"]) + " – ", class_="ws-profile-of") + esc(label),
                  href=site.href(page.url, site.url_of(w)), id=urls.weapon_anchor(w), class_="ws-weapon-name ws-profile")
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
    # As a player reads a list: in alphabetical order, each unit once (sources list them in the
    # order their files happen to give, and a name twice where two entries lead the same unit).
    for name in sorted(dict.fromkeys(att.get("units", [])), key=lambda n: (n.casefold(), n)):
        found = site.bundle.named(name, "datasheet", ds["ruleset"])
        # The unit of the same game mode first (Combat Patrol's forces have units of matched play's names).
        found = sorted(found, key=lambda r: is_patrol(r) != is_patrol(ds))
        units.append(el("li", site.ref(page.url, found[0]) if found else esc(name)))
    body = site.text(page, att.get("text"), ds)
    return body + (el("ul", "".join(units), class_="ws-columns" if len(units) > 6 else None) if units
                   else el("p", "(the source lists no units)", class_="ws-note"))


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


def _same_stratagem(s: dict) -> tuple:
    """What makes two detachments' stratagems one stratagem to a player: name, cost and words."""
    words = " ".join(" ".join((s.get(k) or "").split()) for k in ("when", "target", "effect", "restrictions"))
    return s["name"].casefold(), s["cp"], words.casefold()


def _shared_stratagems(site: Site, strats: list[dict]) -> dict[tuple, list[dict]]:
    """Detachment stratagems printed alike in two detachments or more (ARMOUR OF CONTEMPT in a
    score of Space Marines detachments): each such stratagem, with its copies."""
    copies: dict[tuple, list[dict]] = {}
    for s in strats:
        if site.bundle.detachment_of(s) is not None:
            copies.setdefault(_same_stratagem(s), []).append(s)
    return {sig: sorted(c, key=lambda s: s["id"]) for sig, c in copies.items() if len(c) > 1}


def datasheet_stratagems(site: Site, page: Page, ds: dict) -> str:
    """The stratagems that can target this unit: the effects compiler's target lists where the
    build has them (``datasheet.stratagems``), else its faction's and the core ones."""
    compiled = "stratagems" in ds
    patrol = is_patrol(ds)
    # Matched play's units are never shown Combat Patrol's stratagems, nor its units another mode's detachments'.
    strats = [s for s in site.bundle.stratagems_for(ds) if is_patrol(s) == patrol or (patrol and not s.get("detachment"))
              ] if compiled else site.fallback_stratagems(ds)
    groups: dict[str, list[dict]] = {}
    shared = _shared_stratagems(site, strats)
    for s in strats:
        det = site.bundle.detachment_of(s)
        if det is not None and _same_stratagem(s) in shared:
            continue  # listed once, under "In several detachments"
        key = det["id"] if det else s["origin"]
        groups.setdefault(key, []).append(s)

    def order(key: str) -> tuple:
        det = site.bundle.get(key) if key not in _GROUP_TITLES else None
        return (1, det["name"].casefold(), key) if det else (_GROUP_ORDER.get(key, 2), key, key)

    body = []
    if shared:
        # One line a stratagem, naming the detachments that print it.
        firsts, where = [], {}
        for copies in shared.values():
            dets = sorted({d["id"]: d for d in map(site.bundle.detachment_of, copies)}.values(),
                          key=lambda d: (d["name"].casefold(), d["id"]))
            firsts.append(copies[0])
            where[copies[0]["id"]] = el("small", " in " + ", ".join(site.ref(page.url, d) for d in dets),
                                        class_="ws-role")
        summary = el("summary", esc("In several detachments") + " " + el("span", count(len(firsts), "stratagem"),
                                                                          class_="ws-count"))
        shared_html = el("details", summary + site.stratagem_list(page, firsts, after=where), class_="ws-group")
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
    if shared:  # after the core stratagems, before the detachments of their own
        body.insert(sum(1 for k in keys if order(k)[0] == 0), shared_html)
    if not body:
        return ""
    note = ("Stratagems whose target this unit's keywords satisfy." if compiled else
            "Stratagems of this unit's faction and the core stratagems of its ruleset; check each one's target.")
    total = sum(len(v) for v in groups.values()) + len(shared)
    if shared:
        groups = dict(groups, shared=[])  # counted as a group of its own
    return el("p", note + f" {count(total, 'stratagem')} in {count(len(groups), 'group')}.", class_="ws-note") + "".join(body)
