"""The generated pages: one function per page kind, each returning a :class:`Page`.

Bodies are raw-HTML blocks built by :mod:`markup` (all scraped text escaped there) and
Markdown headings for the table of contents. Every page ends with where its content
came from.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import json

from warscribe.schema.bundle import Bundle
from warscribe.schema.text import slugify
from warscribe.sitegen import urls
from warscribe.sitegen.damage import REFERENCES, DamageTable, cell
from warscribe.sitegen.linker import Linker, Unresolved, summary
from warscribe.sitegen.markup import a, block, el, esc, heading, table, tip_link

EDITIONS = {"10e": "10th edition", "11e": "11th edition"}


@dataclass
class Page:
    url: str
    title: str
    body: list[str] = field(default_factory=list)
    search: dict | None = None  # front matter 'search' (boost / exclude)

    def add(self, html_text: str) -> None:
        if html_text:
            self.body.append(block(html_text))

    def section(self, title: str, html_text: str, anchor: str | None = None) -> None:
        if html_text:
            self.body.append(heading(2, title, anchor))
            self.add(html_text)

    def markdown(self) -> str:
        # Front matter in JSON form (valid YAML, and far quicker to write than through a YAML dumper).
        front = f"title: {json.dumps(esc(self.title), ensure_ascii=False)}\n"
        if self.search:
            front += f"search: {json.dumps(self.search, sort_keys=True)}\n"
        return "---\n" + front + "---\n" + "".join(self.body)


class Site:
    """What every page needs: the bundle, the linker, the damage table, faction names."""

    def __init__(self, bundle: Bundle, diagnostics: list[dict]):
        self.bundle = bundle
        self.linker = Linker(bundle)
        self.damage = DamageTable()
        self.diagnostics = diagnostics
        self.factions: dict[str, str] = {}  # slug -> name
        for kind in ("datasheet", "detachment"):
            for rec in bundle.kind(kind):
                self.factions.setdefault(slugify(rec["faction"]), rec["faction"])
        self.sources: dict[str, list[tuple[int, int, dict]]] = defaultdict(list)
        for rec in bundle:
            for src in rec.get("source", []):
                self.sources[src["file"]].append((src["first_line"], src["last_line"], rec))

    # -- shared pieces ----------------------------------------------------------------

    def href(self, page: str, target: str) -> str:
        return urls.relative(page, target)

    def ref(self, page: str, rec: dict, text: str | None = None, tip: bool = False) -> str:
        return tip_link(self.href(page, urls.record_url(rec)), text or rec["name"], summary(rec) if tip else None)

    def faction_link(self, page: str, name: str) -> str:
        return a(self.href(page, urls.faction_url(name)), esc(name))

    def text(self, page: Page, text: str | None, rec: dict) -> str:
        return self.linker.text(text, page.url, rec["ruleset"], rec["id"])

    def provenance(self, page: Page, records: list[dict]) -> None:
        """Every source file and line range the page's records came from, linked to the source's page."""
        items = []
        for rec in records:
            by_file: dict[str, list[str]] = {}
            for src in rec.get("source", []):
                first, last = src["first_line"], src["last_line"]
                label = str(first) if first == last else f"{first}–{last}"
                href = self.href(page.url, urls.source_url(src["file"]) + f"#L{first}-{last}")
                fields = f" ({esc(', '.join(src['fields']))})" if src.get("fields") else ""
                by_file.setdefault(src["file"], []).append(a(href, label) + fields)
            for file, ranges in by_file.items():
                lines = ("line " if len(ranges) == 1 and "–" not in ranges[0] else "lines ") + ", ".join(ranges)
                owner = f" — {esc(rec['name'])}" if len(records) > 1 else ""
                items.append(el("li", el("code", esc(file)) + " " + lines + owner))
        if not items:
            items.append(el("li", "Generated from the whole build; see " + a(self.href(page.url, "sources/"), "Sources")))
        page.body.append(heading(2, "Provenance", "provenance"))
        # Out of the search index: it grows with every source a record was seen in.
        page.add(el("ul", "".join(dict.fromkeys(items)), class_="ws-prov", data_search_exclude=True))

    def header(self, page: Page, rec: dict, extra: list[str] = ()) -> None:
        bits = [el("span", esc(EDITIONS.get(rec["ruleset"], rec["ruleset"])), class_="ws-badge ws-" + rec["ruleset"])]
        bits += list(extra)
        for other in self.other_versions(rec):
            bits.append("In " + esc(EDITIONS.get(other["ruleset"], other["ruleset"])) + ": "
                        + a(self.href(page.url, urls.record_url(other)), esc(other["name"]), class_="ws-other-edition"))
        page.add(el("p", " · ".join(bits), class_="ws-meta"))

    def other_versions(self, rec: dict) -> list[dict]:
        """The same rule in the other ruleset: same kind and name (and origin, for stratagems)."""
        out = []
        for other in self.bundle.named(rec["name"], rec["kind"]):
            if other["ruleset"] == rec["ruleset"] or other["id"] == rec["id"]:
                continue
            if rec["kind"] == "stratagem" and other.get("origin") != rec.get("origin"):
                continue
            if rec["kind"] == "ability" and other.get("type") != rec.get("type"):
                continue
            if rec["kind"] == "datasheet" and other.get("faction") != rec.get("faction"):
                continue
            out.append(other)
        return out

    def record_list(self, page: Page, records: list[dict], tip: bool = False) -> str:
        return el("ul", "".join(el("li", self.ref(page.url, r, tip=tip)) for r in records)) if records else ""

    # -- record pages ---------------------------------------------------------------------

    def datasheet(self, ds: dict) -> Page:
        page = Page(urls.record_url(ds), ds["name"], search={"boost": 2})
        self.header(page, ds, [self.faction_link(page.url, ds["faction"])])
        if ds.get("models"):
            cols = ["M", "T", "Sv", "invulnerable", "W", "Ld", "OC"]
            rows = [[esc(m["name"])] + [esc("-" if m.get(c) is None else m[c]) for c in cols] for m in ds["models"]]
            page.section("Models", table(["Model", "M", "T", "Sv", "Inv", "W", "Ld", "OC"], rows))
        weapons = self.bundle.weapons_of(ds)
        for kind, title, skill in (("ranged", "Ranged weapons", "BS"), ("melee", "Melee weapons", "WS")):
            group = [w for w in weapons if w["type"] == kind]
            if group:
                page.section(title, table(["Weapon", "Range", "A", skill, "S", "AP", "D", "Abilities"],
                                          [self.weapon_row(page, w) for w in group], class_="ws-weapons ws-" + kind),
                             anchor=kind + "-weapons")
        if weapons:
            page.section("Damage against reference targets", self.damage_table(page, weapons), anchor="damage")
        page.section("Abilities", self.abilities(page, ds))
        options = []
        for opt in ds.get("wargear_options", []):
            choices = "".join(el("li", self.text(page, c, ds)) for c in opt.get("choices", []))
            options.append(el("li", self.text(page, opt["text"], ds) + (el("ul", choices) if choices else "")))
        page.section("Wargear options", el("ul", "".join(options)) if options else "")
        comp = [el("li", esc(f"{c['min']}" if c["min"] == c["max"] else f"{c['min']}–{c['max']}") + " " + esc(c["name"]))
                for c in ds.get("composition", [])]
        page.section("Unit composition", el("ul", "".join(comp)) if comp else "")
        points = [[esc(p["models"]), esc(p["points"]),
                   (self.text(page, p.get("condition"), ds) + self.text(page, p.get("condition_text"), ds)) or "—"]
                  for p in ds.get("points", [])]
        page.section("Points", table(["Models", "Points", "Condition"], points) if points else "")
        for key, title in (("leader", "Leader"), ("led_by", "Led by")):
            page.section(title, self.attachment(page, ds, ds.get(key)))
        page.section("Keywords", self.keywords(page, ds))
        page.section("Stratagems", self.datasheet_stratagems(page, ds), anchor="stratagems")
        self.provenance(page, [ds] + weapons)
        return page

    def weapon_row(self, page: Page, w: dict) -> list[str]:
        abilities = []
        for ab in w.get("abilities", []):
            rec = self.linker.weapon_ability(ab, w["ruleset"])
            if rec is None:
                if ab["id"] != "custom":
                    self.linker.unresolved.append(Unresolved(page.url, "ability", ab["text"]))
                abilities.append(esc(ab["text"]))
            else:
                abilities.append(self.ref(page.url, rec, ab["text"].strip("[]").upper(), tip=True))
        rng = "Melee" if w.get("range") is None else f'{w["range"]:g}"'
        skill = "N/A" if w.get("skill") is None else f"{w['skill']}+"
        name = el("span", esc(w["name"]), id=urls.weapon_anchor(w), class_="ws-weapon-name")
        return [name, esc(rng), esc(w["attacks"]), esc(skill), esc(w["strength"]), esc(w["ap"]), esc(w["damage"]),
                ", ".join(abilities) or "—"]

    def damage_table(self, page: Page, weapons: list[dict]) -> str:
        rows = []
        for w in weapons:
            outcomes = self.damage.outcomes(w)
            if isinstance(outcomes, str):
                rows.append([esc(w["name"])] + [el("span", "—", title=esc(outcomes))] * len(REFERENCES))
            else:
                rows.append([esc(w["name"])] + [cell(o, r) for o, r in zip(outcomes, REFERENCES)])
        note = el("p", "Per model equipped, no modifiers: expected wounds removed / expected models slain; "
                       "the bars show the chance of each number of models slain (0 on the left). Computed by "
                       "the Warscribe engine.", class_="ws-note")
        return el("div", note + table(["Weapon"] + [esc(r.label) for r in REFERENCES], rows, class_="ws-damage"),
                  data_search_exclude=True)

    def abilities(self, page: Page, ds: dict) -> str:
        items = []
        for ab in ds.get("abilities", []):
            label = el("span", esc(ab["type"]), class_="ws-tag")
            target = self.bundle.get(ab["ref"]) if ab.get("ref") else None
            if ab.get("ref") and target is None:
                self.linker.unresolved.append(Unresolved(page.url, "ability", ab["name"]))
            name = self.ref(page.url, target, ab["name"], tip=True) if target else el("strong", esc(ab["name"]))
            psychic = " " + el("span", "Psychic", class_="ws-tag") if ab.get("psychic") else ""
            items.append(el("li", label + " " + name + psychic + self.text(page, ab.get("text"), ds)))
        return el("ul", "".join(items), class_="ws-abilities") if items else ""

    def attachment(self, page: Page, ds: dict, att: dict | None) -> str:
        if not att:
            return ""
        units = []
        for name in att.get("units", []):
            found = [r for r in self.bundle.named(name, "datasheet", ds["ruleset"])]
            units.append(el("li", self.ref(page.url, found[0]) if found else esc(name)))
        body = self.text(page, att.get("text"), ds)
        return body + (el("ul", "".join(units)) if units else el("p", "(the source lists no units)", class_="ws-note"))

    def keywords(self, page: Page, ds: dict) -> str:
        parts = []
        for field_name, title in (("keywords", "Keywords"), ("faction_keywords", "Faction keywords")):
            links = []
            for name in ds.get(field_name, []):
                rec = self.linker.keyword(name, ds["ruleset"])
                links.append(self.ref(page.url, rec, name) if rec else esc(name))
            if links:
                parts.append(el("p", el("strong", title + ": ") + ", ".join(links)))
        return "".join(parts)

    def datasheet_stratagems(self, page: Page, ds: dict) -> str:
        """The stratagems that can target this unit: the effects compiler's target lists where the
        build has them (``datasheet.stratagems``), else its faction's and the core ones."""
        compiled = "stratagems" in ds
        strats = self.bundle.stratagems_for(ds) if compiled else [
            s for s in self.bundle.kind("stratagem") if s["ruleset"] == ds["ruleset"] and (
                s["origin"] == "core" or (self.bundle.detachment_of(s) or {}).get("faction") == ds["faction"])]
        groups: dict[str, list[dict]] = {}
        for s in strats:
            det = self.bundle.detachment_of(s)
            key = det["id"] if det else s["origin"]
            groups.setdefault(key, []).append(s)
        titles = {"core": "Core stratagems", "boarding-actions": "Boarding Actions", "detachment": "Other stratagems"}
        body = []
        for key in sorted(groups, key=lambda k: (k in titles, k)):
            det = self.bundle.get(key)
            title = self.ref(page.url, det) if det else esc(titles.get(key, key))
            body.append(el("h3", title) + self.stratagem_list(page, groups[key]))
        if not body:
            return ""
        note = ("Stratagems whose target this unit's keywords satisfy." if compiled else
                "Stratagems of this unit's faction and the core stratagems of its ruleset; check each one's target.")
        # Kept out of the search index: the stratagems have their own pages, found by name.
        return el("div", el("p", note, class_="ws-note") + "".join(body), data_search_exclude=True)

    def stratagem_list(self, page: Page, strats: list[dict]) -> str:
        items = []
        for s in sorted(strats, key=lambda s: s["name"]):
            cp = el("span", f"{s['cp']}CP", class_="ws-cp")
            items.append(el("li", cp + " " + self.ref(page.url, s, tip=True)
                            + (" — " + esc(s["category"]) if s.get("category") else "")))
        return el("ul", "".join(items), class_="ws-stratagems")

    def ability(self, rec: dict) -> Page:
        page = Page(urls.record_url(rec), rec["name"] if rec["type"] != "weapon" else f"[{rec['name'].upper()}]",
                    search={"boost": 2})
        extra = [esc(rec["type"].title() + " ability")]
        if rec.get("number"):
            extra.append(esc(rec["number"]))
        if rec.get("heading") == "inferred":
            extra.append(el("span", "name inferred from the text (heading lost)", class_="ws-tag"))
        self.header(page, rec, extra)
        if rec.get("flavour"):
            page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
        page.add(self.text(page, rec["text"], rec))
        if rec["type"] == "weapon" and rec.get("ability_id"):
            users = [w for w in self.bundle.kind("weapon") if w["ruleset"] == rec["ruleset"]
                     and any(a_["id"] == rec["ability_id"] for a_ in w.get("abilities", []))]
            rows = [[a(self.href(page.url, urls.record_url(w)), esc(w["name"])),
                     self.ref(page.url, self.bundle.datasheet_of(w)) if self.bundle.datasheet_of(w) else "—"]
                    for w in users]
            page.section("Weapons with this ability", el("div", table(["Weapon", "Datasheet"], rows),
                                                          data_search_exclude=True) if rows else "")
        else:
            holders = [d for d in self.bundle.kind("datasheet")
                       if any(x.get("ref") == rec["id"] for x in d.get("abilities", []))]
            page.section("Datasheets with this ability", self.record_list(page, holders))
        self.provenance(page, [rec])
        return page

    def rule(self, rec: dict) -> Page:
        title = f"{rec['number']} {rec['name']}" if rec.get("number") else rec["name"]
        page = Page(urls.record_url(rec), title, search={"boost": 1.5})
        self.header(page, rec, [esc("Core rule")])
        if rec.get("flavour"):
            page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
        page.add(self.text(page, rec["text"], rec))
        see = []
        for s in rec.get("see_also", []):
            target = self.bundle.get(s.get("ref") or "") or (
                self.linker.numbers.get((rec["ruleset"], s["number"])) if s.get("number") else None)
            label = (s.get("number", "") + " " + s["title"]).strip()
            if target is None:
                self.linker.unresolved.append(Unresolved(page.url, "rule", label))
            see.append(el("li", self.ref(page.url, target, label, tip=True) if target else esc(label)))
        page.section("See also", el("ul", "".join(see)) if see else "")
        self.provenance(page, [rec])
        return page

    def stratagem(self, rec: dict) -> Page:
        page = Page(urls.record_url(rec), rec["name"], search={"boost": 2})
        det = self.bundle.detachment_of(rec)
        extra = [el("span", f"{rec['cp']}CP", class_="ws-cp")]
        if rec.get("category"):
            extra.append(esc(rec["category"]))
        if det:
            extra.append(self.ref(page.url, det) + " detachment")
        else:
            extra.append(esc({"core": "Core stratagem", "boarding-actions": "Boarding Actions"}.get(rec["origin"], "")))
        if rec.get("number"):
            extra.append(esc(rec["number"]))
        self.header(page, rec, extra)
        if rec.get("flavour"):
            page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
        rows = []
        for key in ("when", "target", "effect", "restrictions"):
            if rec.get(key):
                rows.append(el("dt", key.upper()) + el("dd", self.text(page, rec[key], rec)))
        page.add(el("dl", "".join(rows), class_="ws-stratagem"))
        if rec.get("designer_note"):
            page.add(el("aside", el("strong", "Designer’s note: ") + self.text(page, rec["designer_note"], rec),
                        class_="ws-note"))
        if "targets" in rec:
            units = sorted(self.bundle.targets_of(rec), key=lambda d: (d["faction"], d["name"]))
            page.section("Units it can target", el("div", self.record_list(page, units), data_search_exclude=True)
                         if units else el("p", "No datasheet of this build.", class_="ws-note"), anchor="targets")
        self.provenance(page, [rec])
        return page

    def detachment(self, rec: dict) -> Page:
        page = Page(urls.record_url(rec), rec["name"], search={"boost": 1.5})
        self.header(page, rec, [self.faction_link(page.url, rec["faction"])])
        rule = rec.get("rule")
        if rule:
            body = el("h3", esc(rule.get("name") or "Detachment rule"))
            if rule.get("flavour"):
                body += el("blockquote", esc(rule["flavour"]), class_="ws-flavour")
            body += self.text(page, rule.get("text"), rec)
            page.section("Detachment rule", body, anchor="rule")
        else:
            page.section("Detachment rule", el("p", "The sources name this detachment but do not give its rule.",
                                               class_="ws-note"), anchor="rule")
        page.section("Stratagems", self.stratagem_list(page, self.bundle.stratagems_of(rec)), anchor="stratagems")
        page.section("Enhancements", self.enhancement_list(page, self.bundle.enhancements_of(rec)), anchor="enhancements")
        self.provenance(page, [rec])
        return page

    def enhancement_list(self, page: Page, enh: list[dict]) -> str:
        items = [el("li", self.ref(page.url, e, tip=True) + (f" ({e['points']} pts)" if e.get("points") is not None else ""))
                 for e in sorted(enh, key=lambda e: e["name"])]
        return el("ul", "".join(items)) if items else ""

    def enhancement(self, rec: dict) -> Page:
        page = Page(urls.record_url(rec), rec["name"], search={"boost": 1.5})
        det = self.bundle.detachment_of(rec)
        extra = [esc("Enhancement")]
        if rec.get("points") is not None:
            extra.append(esc(f"{rec['points']} pts"))
        if det:
            extra.append(self.ref(page.url, det) + " detachment")
        self.header(page, rec, extra)
        if rec.get("flavour"):
            page.add(el("blockquote", esc(rec["flavour"]), class_="ws-flavour"))
        page.add(self.text(page, rec.get("text"), rec) or el("p", "The sources give no text for this enhancement.",
                                                              class_="ws-note"))
        if rec.get("restriction"):
            page.add(el("p", el("strong", "Restriction: ") + esc(rec["restriction"])))
        self.provenance(page, [rec])
        return page

    def keyword(self, rec: dict) -> Page:
        page = Page(urls.record_url(rec), rec["name"], search={"exclude": True})
        self.header(page, rec, [esc("Faction keyword" if rec.get("faction_keyword") else "Keyword")])
        page.section("Datasheets", self.record_list(page, self.bundle.datasheets_with_keyword(rec)))
        usage = []
        for u in rec.get("usage", []):
            text = esc(u["faction"]) + ": " + esc(", ".join(u.get("categories", [])))
            if u.get("together_with"):
                text += " (together with " + esc(", ".join(u["together_with"])) + ")"
            usage.append(el("li", text))
        page.section("Used in", el("ul", "".join(usage)) if usage else "")
        self.provenance(page, [rec])
        return page

    # -- pages that gather records -------------------------------------------------------

    def faction(self, slug: str) -> Page:
        name = self.factions[slug]
        page = Page(urls.faction_url(name), name, search={"exclude": True})
        sheets = sorted((d for d in self.bundle.kind("datasheet") if d["faction"] == name), key=lambda d: d["name"])
        dets = sorted((d for d in self.bundle.kind("detachment") if d["faction"] == name), key=lambda d: d["name"])
        abilities = [r for r in self.bundle.kind("ability") if r["id"].startswith(slug + "/")]
        loose = [e for e in self.bundle.kind("enhancement") if not e.get("detachment") and e["id"].startswith(slug + "/")]
        page.section("Datasheets", self.record_list(page, sheets))
        page.section("Detachments", self.record_list(page, dets, tip=True))
        page.section("Faction abilities", self.record_list(page, abilities, tip=True))
        page.section("Enhancements without a known detachment", self.enhancement_list(page, loose))
        self.provenance(page, [])
        return page

    def source(self, file: str) -> Page:
        page = Page(urls.source_url(file), file, search={"exclude": True})
        rows = []
        seen = set()
        for first, last, rec in sorted(self.sources[file], key=lambda t: (t[0], t[1], t[2]["kind"], t[2]["id"])):
            anchor = f"L{first}-{last}"
            lines = str(first) if first == last else f"{first}–{last}"
            cell_id = el("span", esc(lines), id=anchor) if anchor not in seen else esc(lines)
            seen.add(anchor)
            rows.append([cell_id, esc(rec["kind"]), self.ref(page.url, rec)])
        diags = [d for d in self.diagnostics if d.get("file") == file]
        page.section("Records", table(["Lines", "Kind", "Record"], rows))
        if diags:
            page.section("Diagnostics", a(self.href(page.url, "diagnostics/") + "#" + urls.source_slug(file),
                                          esc(f"{len(diags)} diagnostics for this source")))
        page.body.append(heading(2, "Provenance", "provenance"))
        page.add(el("p", esc(f"The file {file} itself, as listed in the sources' manifest.")))
        return page
