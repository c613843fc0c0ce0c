"""The page of every other record kind (ability, rule, stratagem, detachment,
enhancement, keyword), and the pages that gather records (a faction, a source file)."""

from __future__ import annotations

from warscribe.sitegen import stratagem_cards, urls
from warscribe.sitegen.linker import Unresolved
from warscribe.sitegen.markup import a, el, esc, heading, table
from warscribe.sitegen.pages import Page, Site


def ability(site: Site, rec: dict) -> Page:
    page = Page(urls.record_url(rec), rec["name"] if rec["type"] != "weapon" else f"[{rec['name'].upper()}]",
                search={"boost": 2})
    extra = [esc(rec["type"].title() + " ability")]
    if rec.get("number"):
        extra.append(esc(rec["number"]))
    if rec.get("heading") == "inferred":
        extra.append(el("span", "name inferred from the text (heading lost)", class_="ws-tag"))
    site.header(page, rec, extra)
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    page.add(site.text(page, rec["text"], rec))
    if rec["type"] == "weapon" and rec.get("ability_id"):
        users = [w for w in site.bundle.kind("weapon") if w["ruleset"] == rec["ruleset"]
                 and any(a_["id"] == rec["ability_id"] for a_ in w.get("abilities", []))]
        rows = [[a(site.href(page.url, urls.record_url(w)), esc(w["name"])),
                 site.ref(page.url, site.bundle.datasheet_of(w)) if site.bundle.datasheet_of(w) else "—"]
                for w in users]
        page.section("Weapons with this ability", el("div", table(["Weapon", "Datasheet"], rows),
                                                      data_search_exclude=True) if rows else "")
    else:
        holders = [d for d in site.bundle.kind("datasheet")
                   if any(x.get("ref") == rec["id"] for x in d.get("abilities", []))]
        page.section("Datasheets with this ability", site.record_list(page, holders))
    site.provenance(page, [rec])
    return page


def rule(site: Site, rec: dict) -> Page:
    title = f"{rec['number']} {rec['name']}" if rec.get("number") else rec["name"]
    page = Page(urls.record_url(rec), title, search={"boost": 1.5})
    site.header(page, rec, [esc("Core rule")])
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    page.add(site.text(page, rec["text"], rec))
    see = []
    for s in rec.get("see_also", []):
        target = site.bundle.get(s.get("ref") or "") or (
            site.linker.numbers.get((rec["ruleset"], s["number"])) if s.get("number") else None)
        label = (s.get("number", "") + " " + s["title"]).strip()
        if target is None:
            site.linker.unresolved.append(Unresolved(page.url, "rule", label))
        see.append(el("li", site.ref(page.url, target, label, tip=True) if target else esc(label)))
    page.section("See also", el("ul", "".join(see)) if see else "")
    site.provenance(page, [rec])
    return page


def stratagem(site: Site, rec: dict) -> Page:
    page = Page(urls.record_url(rec), rec["name"], search={"boost": 2})
    det = site.bundle.detachment_of(rec)
    extra = [el("span", f"{rec['cp']}CP", class_="ws-cp")]
    if rec.get("category"):
        extra.append(esc(rec["category"]))
    if det:
        extra.append(site.ref(page.url, det) + " detachment")
    else:
        extra.append(esc({"core": "Core stratagem", "boarding-actions": "Boarding Actions",
                          "challenger": "Challenger stratagem"}.get(rec["origin"], "")))
    if rec.get("number"):
        extra.append(esc(rec["number"]))
    site.header(page, rec, extra)
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    rows = []
    for key in ("when", "target", "effect", "restrictions"):
        if rec.get(key):
            rows.append(el("dt", key.upper()) + el("dd", site.text(page, rec[key], rec)))
    page.add(el("dl", "".join(rows), class_="ws-stratagem"))
    if rec.get("designer_note"):
        page.add(el("aside", el("strong", "Designer’s note: ") + site.text(page, rec["designer_note"], rec),
                    class_="ws-note"))
    if "targets" in rec:
        units = sorted(site.bundle.targets_of(rec), key=lambda d: (d["faction"], d["name"]))
        page.section("Units it can target", el("div", site.record_list(page, units), data_search_exclude=True)
                     if units else el("p", "No datasheet of this build.", class_="ws-note"), anchor="targets")
    site.provenance(page, [rec])
    return page


def detachment(site: Site, rec: dict) -> Page:
    page = Page(urls.record_url(rec), rec["name"], search={"boost": 1.5})
    site.header(page, rec, [site.faction_link(page.url, rec["faction"])])
    rule = rec.get("rule")
    if rule:
        body = el("h3", esc(rule.get("name") or "Detachment rule"))
        if rule.get("flavour"):
            body += el("blockquote", esc(rule["flavour"]), class_="ws-flavour")
        body += site.text(page, rule.get("text"), rec)
        for more in rec.get("additional_rules", []):  # a detachment may print several rules
            body += el("h3", esc(more["name"])) + site.text(page, more.get("text"), rec)
        page.section("Detachment rule", body, anchor="rule")
    else:
        page.section("Detachment rule", el("p", "The sources name this detachment but do not give its rule.",
                                           class_="ws-note"), anchor="rule")
    owned = site.bundle.stratagems_of(rec)
    page.section("Stratagems", site.stratagem_list(page, owned) + (el("p", a(site.href(
        page.url, stratagem_cards.card_url(rec["id"])), "At the table: these and the core stratagems as cards")) if owned else ""),
        anchor="stratagems")
    page.section("Enhancements", site.enhancement_list(page, site.bundle.enhancements_of(rec)), anchor="enhancements")
    site.provenance(page, [rec])
    return page


def enhancement(site: Site, rec: dict) -> Page:
    page = Page(urls.record_url(rec), rec["name"], search={"boost": 1.5})
    det = site.bundle.detachment_of(rec)
    extra = [esc("Enhancement")]
    if rec.get("points") is not None:
        extra.append(esc(f"{rec['points']} pts"))
    if det:
        extra.append(site.ref(page.url, det) + " detachment")
    site.header(page, rec, extra)
    if rec.get("flavour"):
        page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
    page.add(site.text(page, rec.get("text"), rec) or el("p", "The sources give no text for this enhancement.",
                                                          class_="ws-note"))
    if rec.get("restriction"):
        page.add(el("p", el("strong", "Restriction: ") + esc(rec["restriction"])))
    site.provenance(page, [rec])
    return page


def keyword(site: Site, rec: dict) -> Page:
    page = Page(urls.record_url(rec), rec["name"], search={"exclude": True})
    site.header(page, rec, [esc("Faction keyword" if rec.get("faction_keyword") else "Keyword")])
    page.section("Datasheets", site.record_list(page, site.bundle.datasheets_with_keyword(rec)))
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
    page = Page(urls.faction_url(name), name, search={"exclude": True})
    sheets = sorted((d for d in site.bundle.kind("datasheet") if d["faction"] == name), key=lambda d: d["name"])
    dets = sorted((d for d in site.bundle.kind("detachment") if d["faction"] == name), key=lambda d: d["name"])
    abilities = [r for r in site.bundle.kind("ability") if r["id"].startswith(slug + "/")]
    loose = [e for e in site.bundle.kind("enhancement") if not e.get("detachment") and e["id"].startswith(slug + "/")]
    page.section("Datasheets", site.record_list(page, sheets))
    page.section("Detachments", site.record_list(page, dets, tip=True))
    page.section("Faction abilities", site.record_list(page, abilities, tip=True))
    page.section("Enhancements without a known detachment", site.enhancement_list(page, loose))
    site.provenance(page, [])
    return page


def source(site: Site, file: str) -> Page:
    page = Page(urls.source_url(file), file, search={"exclude": True})
    rows = []
    seen = set()
    for first, last, rec in sorted(site.sources[file], key=lambda t: (t[0], t[1], t[2]["kind"], t[2]["id"])):
        anchor = f"L{first}-{last}"
        lines = str(first) if first == last else f"{first}–{last}"
        cell_id = el("span", esc(lines), id=anchor) if anchor not in seen else esc(lines)
        seen.add(anchor)
        rows.append([cell_id, esc(rec["kind"]), site.ref(page.url, rec)])
    diags = [d for d in site.diagnostics if d.get("file") == file]
    page.section("Records", table(["Lines", "Kind", "Record"], rows))
    if diags:
        page.section("Diagnostics", a(site.href(page.url, "diagnostics/") + "#" + urls.source_slug(file),
                                      esc(f"{len(diags)} diagnostics for this source")))
    page.body.append(heading(2, "Provenance", "provenance"))
    page.add(el("p", esc(f"The file {file} itself, as listed in the sources' manifest.")))
    return page
