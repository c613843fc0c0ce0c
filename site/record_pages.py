"""The page of every other record kind (ability, rule, stratagem, detachment,
enhancement, keyword), and the pages that gather records (a faction, a source file)."""

from __future__ import annotations

from collections import defaultdict

from warscribe.site import stratagem_cards, urls
from warscribe.site.linker import Unresolved
from warscribe.site.markup import a, el, esc, table
from warscribe.site.pages import (EDITIONS, ROLES, Page, Site, count, is_patrol, legends_badge, mode_context,
                                  patrol_url, phase_tags, role_of, upgrade_badge)

_ORIGINS = {"core": "Core stratagem", "boarding-actions": "Boarding Actions", "challenger": "Challenger stratagem"}
_TURNS = {"your": "Your turn", "opponent": "Opponent’s turn", "either": "Either player’s turn"}


def _edition(rec: dict) -> str:
    return EDITIONS.get(rec["ruleset"], rec["ruleset"])


def _faction_of(site: Site, rec: dict) -> str | None:
    """The faction a record belongs to: its own field, its detachment's, or its id's first part."""
    if rec.get("faction"):
        return rec["faction"]
    det = site.bundle.detachment_of(rec)
    if det:
        return det["faction"]
    return site.factions.get(rec["id"].split("/", 1)[0])


def ability(site: Site, rec: dict) -> Page:
    faction = _faction_of(site, rec) if rec["type"] == "faction" else None
    title = rec["name"] if rec["type"] != "weapon" else f"[{rec['name'].upper()}]"
    page = Page(site.url_of(rec), title, kind="ability", context=faction or f"{rec['type'].title()} ability, "
                f"{_edition(rec)}", aliases=(rec["name"], *_forms_used(site, rec)),
                crumbs=site.crumbs_to_faction(faction) if faction else [("Home", ""), ("Abilities", "abilities/")])
    extra = [esc(rec["type"].title() + " ability")]
    if rec.get("number"):
        extra.append(esc(rec["number"]))
    if rec.get("heading") == "inferred":
        extra.append(el("span", "name inferred from the text (heading lost)", class_="ws-tag"))
    site.header(page, rec, extra)
    site.other_names(page, rec)
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    page.add(site.text(page, rec["text"], rec))
    page.index(rec.get("text"), *rec.get("bullets", []))
    site.faq_section(page, rec)
    if rec["type"] == "weapon" and rec.get("ability_id"):
        users = site.weapons_with_ability(rec)
        rows = [[a(site.href(page.url, site.row_url(w)), esc(w["name"])),
                 site.ref(page.url, site.bundle.datasheet_of(w)) if site.bundle.datasheet_of(w) else "—"]
                for w in users]
        page.section("Weapons with this ability", table(["Weapon", "Datasheet"], rows, label="Weapons with this ability",
                                                         class_="ws-table") if rows else "")
    else:
        page.section("Datasheets with this ability", site.grouped_datasheets(page, site.holders_of(rec)))
    site.provenance(page, [rec])
    if faction:
        site.faction_nav(page, faction)
    else:
        site.sidenav(page, f"abilities:{rec['type']}:{rec['ruleset']}", lambda: (
            f"{rec['type'].title()} abilities ({_edition(rec)})", "abilities/", [("", [
                (r["name"], site.url_of(r)) for r in sorted(
                    (r for r in site.bundle.kind("ability") if r["type"] == rec["type"] and r["ruleset"] == rec["ruleset"]),
                    key=lambda r: r["name"].casefold())])]))
    return page


# At most this many of a weapon ability's written forms are other titles of its page.
_MAX_FORMS = 40


def _forms_used(site: Site, rec: dict) -> list[str]:
    """A weapon ability's forms as weapons write them, its parameter given ('ANTI-INFANTRY 4+',
    'ANTI-INFANTRY', 'SUSTAINED HITS 2'), so that a player searching what a weapon says finds
    the rule of [ANTI-KEYWORD X+]; the most used first, at most _MAX_FORMS."""
    if rec["type"] != "weapon" or not rec.get("ability_id"):
        return []
    counts: dict[str, int] = {}
    for weapon in site.weapons_with_ability(rec):
        for ability in weapon.get("abilities", []):
            if ability.get("id") != rec["ability_id"] or not ability.get("text"):
                continue
            form = ability["text"].strip("[] ").upper()
            forms = [form]
            if ability.get("keyword"):  # the keyword alone, as players say it: "anti-infantry"
                forms.append(f"{rec['name'].upper()}-{ability['keyword']}")
            for f in forms:
                counts[f] = counts.get(f, 0) + 1
    ranked = sorted(counts, key=lambda f: (-counts[f], f))
    return [f for f in ranked if f.casefold() != rec["name"].casefold()][:_MAX_FORMS]


def rule(site: Site, rec: dict) -> Page:
    title = f"{rec['number']} {rec['name']}" if rec.get("number") else rec["name"]
    patrol = is_patrol(rec)
    page = Page(site.url_of(rec), title, kind="rule", context=mode_context(rec, f"Core rule, {_edition(rec)}"),
                aliases=(rec["name"],), crumbs=[("Home", ""), ("Combat Patrol", "combat-patrol/")] if patrol else
                [("Home", ""), ("Core rules", "rules/")])
    site.header(page, rec, [esc("Combat Patrol rule" if patrol else "Core rule")])
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    page.add(site.text(page, rec["text"], rec))
    page.index(rec.get("text"))
    see = []
    for s in rec.get("see_also", []):
        target = site.bundle.get(s.get("ref") or "") or (
            site.linker.numbers.get((rec["ruleset"], s["number"])) if s.get("number") else None)
        label = (s.get("number", "") + " " + s["title"]).strip()
        if target is None:
            site.linker.unresolved.append(Unresolved(page.url, "rule", label))
        see.append(el("li", site.ref(page.url, target, label, tip=True) if target else esc(label)))
    page.section("See also", el("ul", "".join(see)) if see else "")
    site.faq_section(page, rec)
    site.provenance(page, [rec])
    site.sidenav(page, f"rules:{rec['ruleset']}:{patrol}", lambda: (
        f"Combat Patrol rules ({_edition(rec)})" if patrol else f"Core rules ({_edition(rec)})",
        "combat-patrol/" if patrol else "rules/", [("", [
            ((r["number"] + " " if r.get("number") else "") + r["name"], site.url_of(r))
            for r in sorted((r for r in site.bundle.kind("rule") if r["ruleset"] == rec["ruleset"]
                             and is_patrol(r) == patrol), key=_number_key)])]))
    return page


def _number_key(rec: dict) -> tuple:
    return (rec.get("number") is None, rec.get("number") or "", rec["name"].casefold())


def stratagem(site: Site, rec: dict) -> Page:
    det = site.bundle.detachment_of(rec)
    faction = det["faction"] if det else None
    context = f"{det['name']} ({faction})" if det else f"{_ORIGINS.get(rec['origin'], 'Stratagem')}, {_edition(rec)}"
    context = mode_context(rec, context)
    to_faction = site.crumbs_to_patrol if is_patrol(rec) else site.crumbs_to_faction
    crumbs = (to_faction(faction) + [(det["name"], site.url_of(det))] if det
              else [("Home", ""), ("Stratagems", "stratagems/")])
    page = Page(site.url_of(rec), rec["name"], kind="stratagem", context=context, crumbs=crumbs)
    extra = [el("span", f"{rec['cp']}CP", class_="ws-cp") + phase_tags(rec)]
    if rec.get("turn"):
        extra.append(esc(_TURNS.get(rec["turn"], rec["turn"])))
    if rec.get("category"):
        extra.append(esc(rec["category"]))
    if det:
        extra.append(site.ref(page.url, det) + " detachment")
    else:
        extra.append(esc(_ORIGINS.get(rec["origin"], "")))
    if rec.get("number"):
        extra.append(esc(rec["number"]))
    site.header(page, rec, extra)
    site.other_names(page, rec)
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    rows = []
    for key in ("when", "target", "effect", "restrictions"):
        if rec.get(key):
            rows.append(el("dt", key.upper()) + el("dd", site.text(page, rec[key], rec)))
            page.index(rec[key])
    page.add(el("dl", "".join(rows), class_="ws-stratagem"))
    if rec.get("designer_note"):
        page.add(el("aside", el("strong", "Designer’s note: ") + site.text(page, rec["designer_note"], rec),
                    class_="ws-note"))
    if "targets" in rec:
        units = site.bundle.targets_of(rec)
        factions = len({d["faction"] for d in units})
        note = el("p", esc(f"{count(len(units), 'unit')} of {factions} factions, by faction and role." if factions > 1 else
                           count(len(units), "unit") + "."), class_="ws-note")
        page.section("Units it can target", note + site.grouped_datasheets(page, units) if units else
                     el("p", "No datasheet of this build.", class_="ws-note"), anchor="targets")
    site.faq_section(page, rec)
    site.provenance(page, [rec])
    if det:
        detachment_nav(site, page, det)
    else:
        site.sidenav(page, f"stratagems:{rec['origin']}:{rec['ruleset']}", lambda: (context, "stratagems/", [("", [
            (s["name"], site.url_of(s)) for s in sorted(
                (s for s in site.bundle.kind("stratagem") if s["origin"] == rec["origin"] and s["ruleset"] == rec["ruleset"]),
                key=lambda s: s["name"].casefold())])]))
    return page


def detachment_nav(site: Site, page: Page, det: dict) -> None:
    site.sidenav(page, "detachment:" + det["id"], lambda: (det["name"], site.url_of(det), [
        ("Stratagems", [(s["name"], site.url_of(s)) for s in sorted(site.bundle.stratagems_of(det), key=lambda s: s["name"])]),
        ("Enhancements", [(e["name"], site.url_of(e)) for e in sorted(site.bundle.enhancements_of(det), key=lambda e: e["name"])]),
        ((f"Combat Patrol: {det['faction']}" if is_patrol(det) else f"Detachments of {det['faction']}"),
         [(d["name"], site.url_of(d)) for d in (site.patrol_detachments if is_patrol(det) else site.faction_detachments)
          .get(det["faction"], [])]),
    ]))


def glance(rec: dict) -> list[str]:
    """A detachment's muster facts at a glance: Detachment Points, Force Disposition, unique tag."""
    out = []
    if rec.get("detachment_points") is not None:
        out.append(el("span", esc(f"{rec['detachment_points']} DP"), class_="ws-dp", title="Detachment Points"))
    if rec.get("force_disposition"):
        out.append(el("span", "Force Disposition: " + el("strong", esc(rec["force_disposition"])), class_="ws-disposition"))
    if rec.get("unique"):
        out.append(el("span", "Unique: " + el("strong", esc(rec["unique"])), class_="ws-unique",
                      title="An army cannot include two detachments with this tag"))
    return out


def detachment(site: Site, rec: dict) -> Page:
    patrol = is_patrol(rec)
    page = Page(site.url_of(rec), rec["name"], kind="detachment", context=mode_context(rec, rec["faction"]),
                crumbs=site.crumbs_to_patrol(rec["faction"]) if patrol else site.crumbs_to_faction(rec["faction"]))
    site.header(page, rec, [site.faction_link(page.url, rec["faction"])] + glance(rec))
    site.other_names(page, rec)
    rule = rec.get("rule")
    if rule:
        body = el("h3", esc(rule.get("name") or "Detachment rule"))
        if rule.get("flavour"):
            body += el("blockquote", esc(rule["flavour"]), class_="ws-flavour")
        body += site.text(page, rule.get("text"), rec)
        for more in rec.get("additional_rules", []):  # a detachment may print several rules
            body += el("h3", esc(more["name"])) + site.text(page, more.get("text"), rec)
            page.index(more["name"], more.get("text"))
        page.section("Detachment rule", body, anchor="rule")
        page.index(rule.get("name"), rule.get("text"))
    else:
        page.section("Detachment rule", el("p", "The sources name this detachment but do not give its rule.",
                                           class_="ws-note"), anchor="rule")
    owned = site.bundle.stratagems_of(rec)
    page.section("Stratagems", site.stratagem_list(page, owned) + (el("p", a(site.href(
        page.url, stratagem_cards.card_url(rec["id"])), "At the table: these and the core stratagems as cards")) if owned else ""),
        anchor="stratagems")
    page.section("Enhancements", site.enhancement_list(page, site.bundle.enhancements_of(rec)), anchor="enhancements")
    site.faq_section(page, rec)
    site.provenance(page, [rec])
    detachment_nav(site, page, rec)
    return page


def detachment_table(site: Site, page: Page, dets: list[dict]) -> str:
    """Detachments with their Detachment Points, Force Disposition and unique tag, and how many
    stratagems and enhancements each has."""
    rows = [[site.ref(page.url, d, tip=True), esc(d["detachment_points"]) if d.get("detachment_points") is not None else "—",
             esc(d.get("force_disposition") or "—"), esc(d.get("unique") or "—"),
             esc(len(d.get("stratagems", []))), esc(len(d.get("enhancements", [])))] for d in dets]
    return table(["Detachment", "DP", "Force Disposition", "Unique", "Stratagems", "Enhancements"], rows,
                 label="Detachments", class_="ws-table ws-detachments")


def enhancement(site: Site, rec: dict) -> Page:
    det = site.bundle.detachment_of(rec)
    faction = _faction_of(site, rec)
    patrol = is_patrol(rec)
    to_faction = site.crumbs_to_patrol if patrol else site.crumbs_to_faction
    crumbs = to_faction(faction) if faction else [("Home", "")]
    if det:
        crumbs = crumbs + [(det["name"], site.url_of(det))]
    page = Page(site.url_of(rec), rec["name"], kind="enhancement", crumbs=crumbs, context=mode_context(
        rec, f"{det['name']} ({det['faction']})" if det else (faction or "Enhancement")))
    extra = [esc("Enhancement")]
    if rec.get("upgrade"):
        extra.append(upgrade_badge())
    if rec.get("points") is not None:
        extra.append(esc(f"{rec['points']} pts"))
    if det:
        extra.append(site.ref(page.url, det) + " detachment")
    site.header(page, rec, extra)
    site.other_names(page, rec)
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    page.add(site.text(page, rec.get("text"), rec) or el("p", "The sources give no text for this enhancement.",
                                                          class_="ws-note"))
    page.index(rec.get("text"))
    if rec.get("restriction"):
        page.add(el("p", el("strong", "Restriction: ") + esc(rec["restriction"])))
    excluded = site.excluded(page, rec)
    if excluded:
        page.add(el("p", el("strong", "Cannot be taken with: ") + excluded, class_="ws-excludes"))
    site.faq_section(page, rec)
    site.provenance(page, [rec])
    if det:
        detachment_nav(site, page, det)
    elif faction:
        (site.patrol_nav if patrol else site.faction_nav)(page, faction)
    return page


def keyword(site: Site, rec: dict) -> Page:
    what = "Faction keyword" if rec.get("faction_keyword") else "Keyword"
    sheets = site.bundle.datasheets_with_keyword(rec)
    page = Page(site.url_of(rec), rec["name"], kind="keyword", context=f"{what}, {count(len(sheets), 'unit')}",
                crumbs=[("Home", ""), ("Keywords", "keywords/")])
    site.header(page, rec, [esc(what)])
    page.section("Datasheets", site.grouped_datasheets(page, sheets))
    usage = []
    for u in rec.get("usage", []):
        text = esc(u["faction"]) + ": " + esc(", ".join(u.get("categories", [])))
        if u.get("together_with"):
            text += " (together with " + esc(", ".join(u["together_with"])) + ")"
        usage.append(el("li", text))
    page.section("Used in", el("ul", "".join(usage)) if usage else "")
    site.provenance(page, [rec])
    return page


def faction(site: Site, slug: str) -> Page:
    name = site.factions[slug]
    sheets = site.faction_sheets.get(name, [])
    dets = site.faction_detachments.get(name, [])
    page = Page(urls.faction_url(name), name, kind="faction", context=f"Faction, {count(len(sheets), 'unit')}",
                crumbs=[("Home", ""), ("Factions", "factions/")])
    abilities = sorted((r for r in site.bundle.kind("ability") if r["id"].startswith(slug + "/")),
                       key=lambda r: r["name"].casefold())
    loose = [e for e in site.bundle.kind("enhancement") if not e.get("detachment") and e["id"].startswith(slug + "/")
             and not is_patrol(e)]
    rulesets = sorted({d["ruleset"] for d in sheets + dets})
    page.add(el("p", " · ".join(el("span", esc(EDITIONS.get(r, r)), class_="ws-badge ws-" + r) for r in rulesets)
                + esc(f" {count(len(sheets), 'datasheet')}, {count(len(dets), 'detachment')}"), class_="ws-meta"))
    roles: dict[str, list[dict]] = defaultdict(list)
    legends = [d for d in sheets if d.get("legends")]
    for d in sheets:
        if not d.get("legends"):  # Legends datasheets are listed apart, below, closed
            roles[role_of(d)].append(d)
    page.section("Detachments", detachment_table(site, page, dets) if any(
        d.get("detachment_points") is not None or d.get("force_disposition") for d in dets)
        else site.record_list(page, dets, tip=True, class_="ws-columns"))
    patrol = site.patrol_sheets.get(name) or site.patrol_detachments.get(name)
    if patrol:
        page.section("Combat Patrol", el("p", a(site.href(page.url, patrol_url(name)), esc(f"{name} in Combat Patrol"))
                                         + esc(": its own forces, detachment and stratagems (not for matched play).")))
    if sheets:
        page.heading("Datasheets", "datasheets")
        for role in ROLES:
            if role in roles:
                page.section(role, site.record_list(page, roles[role], class_="ws-columns"))
                page.toc[-1] = (3, *page.toc[-1][1:])
        if legends:
            summary = el("summary", legends_badge() + " " + el("span", count(len(legends), "datasheet"),
                                                                class_="ws-count"))
            page.section("Legends", el("details", summary + site.record_list(page, legends, class_="ws-columns"),
                                       class_="ws-group"), anchor="legends")
            page.toc[-1] = (3, *page.toc[-1][1:])
    page.section("Faction abilities", site.record_list(page, abilities, tip=True))
    faqs = site.faction_faqs(name)
    page.section("Errata & FAQ", el("ul", "".join(
        el("li", a(site.href(page.url, site.faq_pages.page_url(pub)), esc(pub)) + " "
           + el("span", esc(count(n, "entry", "entries") + " on this faction"), class_="ws-count")) for pub, n in faqs))
        if faqs else "", anchor="errata-faq")
    page.section("Enhancements without a known detachment", site.enhancement_list(page, loose))
    site.provenance(page, [])
    site.faction_nav(page, name)
    return page


def source(site: Site, file: str) -> Page:
    page = Page(site.source_url(file), file, kind="source", searchable=False,
                crumbs=[("Home", ""), ("Build", "build/"), ("Sources", "sources/")])
    rows = []
    seen = set()
    for first, last, rec in sorted(site.sources[file], key=lambda t: (t[0], t[1], t[2]["kind"], t[2]["id"])):
        anchor = f"L{first}-{last}"
        lines = str(first) if first == last else f"{first}–{last}"
        cell_id = el("span", esc(lines), id=anchor) if anchor not in seen else esc(lines)
        seen.add(anchor)
        rows.append([cell_id, esc(rec["kind"]), site.ref(page.url, rec)])
    diags = [d for d in site.diagnostics if d.get("file") == file]
    page.section("Records", table(["Lines", "Kind", "Record"], rows, label="Records", class_="ws-table"))
    if diags:
        page.section("Diagnostics", a(site.href(page.url, "diagnostics/") + "#" + site.source_slug(file),
                                      esc(count(len(diags), "diagnostic") + " for this source")))
    page.heading("Provenance", "provenance")
    page.add(el("p", esc(f"The file {file} itself, as listed in the sources' manifest.")))
    return page
