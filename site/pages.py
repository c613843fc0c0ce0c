"""A generated page, and what every page kind shares (:class:`Site`).

The page kinds are functions of the site, one module a family (see :mod:`registry`).
A page is HTML built by :mod:`markup` (all scraped text escaped there): its breadcrumbs,
its title, its sections, the sidebar that lists its neighbours, and what search should
know of it (its kind, context, other names and text). Every record page ends with where
its content came from.

Pages are written as Markdown files whose body is already HTML (``PAGE_MARKER``):
the site's mkdocs hook (:mod:`hooks`) hands that HTML to the theme as it is, so no
Markdown parser reads scraped text and the build does not spend its time re-parsing HTML.
"""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from warscribe.schema.bundle import Bundle
from warscribe.schema.filenames import part_name
from warscribe.schema.text import slugify
from warscribe.site import urls
from warscribe.site.damage import DamageTable
from warscribe.site.linker import Linker, summary
from warscribe.site.markup import a, el, esc, tip_link

EDITIONS = {"10e": "10th edition", "11e": "11th edition"}
PATROL = "combat-patrol"  # the game mode whose records have pages of their own, apart from matched play
PHASE_LABELS = {"command": "Command", "movement": "Movement", "shooting": "Shooting", "charge": "Charge",
                "fight": "Fight", "any": "Any phase"}
LANGUAGES = {"de": "German", "es": "Spanish", "fr": "French", "it": "Italian", "ja": "Japanese", "ko": "Korean",
             "zh": "Chinese", "pl": "Polish", "pt": "Portuguese", "ru": "Russian"}
PAGE_MARKER = "<!--warscribe-html-->"  # first body line of a page whose body is HTML (hooks.py)


@dataclass
class Page:
    url: str
    title: str
    kind: str = "page"  # what search and the A–Z index call it: datasheet, weapon, ... or index
    context: str = ""  # shown beside the title in search and the A–Z index: a faction, an edition
    body: list[str] = field(default_factory=list)
    crumbs: list[tuple[str, str]] = field(default_factory=list)  # (text, url) from home down to the parent
    nav: str = ""  # the sidebar's HTML: the page's neighbours
    toc: list[tuple[int, str, str]] = field(default_factory=list)  # (level, id, heading HTML)
    searchable: bool = True
    aliases: tuple[str, ...] = ()  # other titles search treats as the page's own
    legends: bool = False  # a Legends datasheet: search marks it in its index, and a player may hide it
    words: list[str] = field(default_factory=list)  # text that full-text search should find the page by
    ids: set[str] = field(default_factory=set)

    def add(self, html_text: str) -> None:
        if html_text:
            self.body.append(html_text)

    def heading(self, title: str, anchor: str | None = None, level: int = 2, html_title: str | None = None) -> None:
        """A heading with an id (its anchor, or one made from its text) in the table of contents."""
        anchor = anchor or slugify(title)
        base, n = anchor, 1
        while anchor in self.ids:
            n += 1
            anchor = f"{base}-{n}"
        self.ids.add(anchor)
        inner = html_title or esc(title)
        self.toc.append((level, anchor, inner))
        link = el("a", "¶", href="#" + anchor, class_="headerlink", title="Permanent link")
        self.body.append(el(f"h{level}", inner + link, id=anchor))

    def section(self, title: str, html_text: str, anchor: str | None = None) -> None:
        if html_text:
            self.heading(title, anchor)
            self.add(html_text)

    def index(self, *texts: str | None) -> None:
        """Text search should find this page by (besides its title)."""
        self.words.extend(t for t in texts if t)

    def html(self) -> str:
        """The page's content: breadcrumbs, title, body."""
        crumbs = ""
        if self.crumbs:
            items = "".join(el("li", a(urls.relative(self.url, url), esc(text))) for text, url in self.crumbs)
            crumbs = el("nav", el("ol", items), class_="ws-crumbs", aria_label="Breadcrumbs")
        return crumbs + el("h1", esc(self.title)) + "\n".join(self.body)

    def markdown(self) -> str:
        # Front matter in JSON form (valid YAML, and far quicker to read than YAML).
        front = f"title: {json.dumps(esc(self.title), ensure_ascii=False)}\n"
        head = json.dumps({"toc": self.toc, "nav": self.nav}, ensure_ascii=False)
        return "---\n" + front + "---\n" + PAGE_MARKER + "\n" + head + "\n" + self.html() + "\n"


class Site:
    """What every page needs: the bundle, the linker, the damage table, faction names, the pages made so far."""

    def __init__(self, bundle: Bundle, diagnostics: list[dict]):
        self.bundle = bundle
        self.linker = Linker(bundle)
        self.damage = DamageTable()
        self.diagnostics = diagnostics
        self.made: list[Page] = []  # every page of the families run so far, in order (for A–Z and search)
        self.intro = ""  # the home page's introduction (site/handwritten/index.md)
        self.indexes: list[tuple[str, str]] = []  # (url, title) of the top navigation (registry.make)
        self.ledger = None  # the change ledger since a previous build (warscribe.ledger), if given one
        self.factions: dict[str, str] = {}  # slug -> name
        # Matched play's datasheets and detachments by faction; Combat Patrol's apart (never in the same lists).
        self.faction_sheets: dict[str, list[dict]] = defaultdict(list)  # faction name -> datasheets by name
        self.faction_detachments: dict[str, list[dict]] = defaultdict(list)
        self.patrol_sheets: dict[str, list[dict]] = defaultdict(list)
        self.patrol_detachments: dict[str, list[dict]] = defaultdict(list)
        for kind in ("datasheet", "detachment"):
            for rec in bundle.kind(kind):
                self.factions.setdefault(slugify(rec["faction"]), rec["faction"])
        for rec in sorted(bundle.kind("datasheet"), key=lambda r: (r["name"].casefold(), r["id"])):
            (self.patrol_sheets if is_patrol(rec) else self.faction_sheets)[rec["faction"]].append(rec)
        for rec in sorted(bundle.kind("detachment"), key=lambda r: (r["name"].casefold(), r["id"])):
            (self.patrol_detachments if is_patrol(rec) else self.faction_detachments)[rec["faction"]].append(rec)
        # FAQ entries by the id of each record they amend (made once: a page asks for its own).
        self.faqs_of: dict[str, list[dict]] = defaultdict(list)
        for rec in sorted(bundle.kind("faq"), key=faq_key):
            for ref in dict.fromkeys(x.get("ref") for x in rec.get("amends", []) if x.get("ref")):
                self.faqs_of[ref].append(rec)
        self.faq_pages = FaqPublications(bundle)
        self.sources: dict[str, list[tuple[int, int, dict]]] = defaultdict(list)
        for rec in bundle:
            for src in rec.get("source", []):
                self.sources[src["file"]].append((src["first_line"], src["last_line"], rec))
        self._source_slugs = urls.source_slugs(list(self.sources) + [d.get("file") or "" for d in diagnostics])
        self.weapons = WeaponNames(bundle)
        self._holders: dict[str, list[dict]] | None = None
        self._users: dict[tuple[str, str], list[dict]] | None = None
        self._letters: dict[str, dict[str, list[tuple[str, str]]]] = {}
        self._navs: dict[tuple[str, str], str] = {}
        self._cached: dict[str, object] = {}
        # Made for every link of every page (a datasheet lists a hundred stratagems or more, each
        # with its tooltip): a record's URL and tooltip once per record, a stratagem's list item
        # once per record and href (the datasheets of a faction share their hrefs to stratagems).
        self._urls: dict[str, str] = {}
        self._tips: dict[str, str] = {}
        self._stratagem_items: dict[tuple[str, str], str] = {}

    def cache(self, key: str, make):
        """`make()`, once per site: for look-ups that page functions share."""
        if key not in self._cached:
            self._cached[key] = make()
        return self._cached[key]

    def holders_of(self, ability: dict) -> list[dict]:
        """The datasheets whose abilities refer to an ability record."""
        if self._holders is None:
            self._holders = defaultdict(list)
            for d in self.bundle.kind("datasheet"):
                for ref in dict.fromkeys(x.get("ref") for x in d.get("abilities", []) if x.get("ref")):
                    self._holders[ref].append(d)
        return self._holders.get(ability["id"], [])

    def weapons_with_ability(self, ability: dict) -> list[dict]:
        """The weapons of the ability's ruleset that carry a weapon ability (by its parsed id)."""
        if self._users is None:
            self._users = defaultdict(list)
            for w in self.bundle.kind("weapon"):
                for ab_id in dict.fromkeys(x["id"] for x in w.get("abilities", [])):
                    self._users[(w["ruleset"], ab_id)].append(w)
        return self._users.get((ability["ruleset"], ability.get("ability_id")), [])

    def letter_nav(self, page: Page, title: str, title_url: str, entries) -> None:
        """The sidebar of a page in a long alphabetical list: the entries of its initial.

        `entries` makes the list's (text, url) pairs; it is called once per list."""
        if title_url not in self._letters:
            by_letter: dict[str, list[tuple[str, str]]] = defaultdict(list)
            for text, url in entries():
                by_letter[initial(text)].append((text, url))
            self._letters[title_url] = by_letter
        key = initial(page.title)
        self.sidenav(page, f"letters:{title_url}:{key}", lambda: (
            f"{title}: {key}", title_url + "#" + letter_anchor(key), [("", self._letters[title_url].get(key, []))]))

    # -- shared pieces ----------------------------------------------------------------

    def href(self, page: str, target: str) -> str:
        return urls.relative(page, target)

    def source_slug(self, file: str) -> str:
        """A source file's slug: its page's name and its anchor on the diagnostics page."""
        return self._source_slugs.get(file) or urls.source_slug(file)

    def source_url(self, file: str) -> str:
        return f"source/{self.source_slug(file)}/"

    def url_of(self, rec: dict) -> str:
        """A record's page: weapons have one page per name (and ruleset), the others one per record."""
        url = self._urls.get(rec["id"])
        if url is None:
            url = self._urls[rec["id"]] = (self.weapons.url(rec) if rec["kind"] == "weapon" else
                                           self.faq_pages.url(rec) if rec["kind"] == "faq" else urls.record_url(rec))
        return url

    def row_url(self, weapon: dict) -> str:
        """A weapon's row on its datasheet; where the datasheet does not list the weapon (a record the
        sources gave apart from its unit's list), the datasheet's page, which has no such row."""
        listed = self.cache("weapons listed", lambda: {w for d in self.bundle.kind("datasheet") for w in d.get("weapons", [])})
        if weapon["id"] in listed:
            return urls.record_url(weapon)
        holder = self.bundle.datasheet_of(weapon)
        return self.url_of(holder) if holder else self.url_of(weapon)

    def tip(self, rec: dict) -> str:
        tip = self._tips.get(rec["id"])
        if tip is None:
            tip = self._tips[rec["id"]] = summary(rec)
        return tip

    def ref(self, page: str, rec: dict, text: str | None = None, tip: bool = False) -> str:
        return tip_link(self.href(page, self.url_of(rec)), text or rec["name"], self.tip(rec) if tip else None)

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
                href = self.href(page.url, self.source_url(src["file"]) + f"#L{first}-{last}")
                fields = f" ({esc(', '.join(src['fields']))})" if src.get("fields") else ""
                by_file.setdefault(src["file"], []).append(a(href, label) + fields)
            for file, ranges in by_file.items():
                lines = ("line " if len(ranges) == 1 and "–" not in ranges[0] else "lines ") + ", ".join(ranges)
                owner = f" — {esc(rec['name'])}" if len(records) > 1 else ""
                items.append(el("li", el("code", esc(file)) + " " + lines + owner))
        if not items:
            items.append(el("li", "Generated from the whole build; see " + a(self.href(page.url, "build/"),
                                                                               "the build's sources")))
        page.heading("Provenance", "provenance")
        page.add(el("ul", "".join(dict.fromkeys(items)), class_="ws-prov"))

    def header(self, page: Page, rec: dict, extra: list[str] = ()) -> None:
        bits = [el("span", esc(EDITIONS.get(rec["ruleset"], rec["ruleset"])), class_="ws-badge ws-" + rec["ruleset"])]
        if is_patrol(rec):
            bits.append(a(self.href(page.url, "combat-patrol/"), "Combat Patrol", class_="ws-badge ws-patrol"))
        bits += [x for x in extra if x]
        note = self.faq_note(page, rec)
        if note:
            bits.append(note)
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

    def record_list(self, page: Page, records: list[dict], tip: bool = False, class_: str | None = None) -> str:
        return el("ul", "".join(el("li", self.ref(page.url, r, tip=tip)) for r in records),
                  class_=class_) if records else ""

    def stratagem_list(self, page: Page, strats: list[dict], after: dict[str, str] | None = None) -> str:
        """Stratagems with their CP, phases and category; `after`: HTML to add to a stratagem's line, by id."""
        items = []
        for s in sorted(strats, key=lambda s: s["name"]):
            href = self.href(page.url, self.url_of(s))
            item = self._stratagem_items.get((s["id"], href))
            if item is None:
                cp = el("span", f"{s['cp']}CP", class_="ws-cp")
                item = self._stratagem_items[(s["id"], href)] = (cp + " " + tip_link(href, s["name"], self.tip(s))
                                                                 + phase_tags(s)
                                                                 + (" — " + esc(s["category"]) if s.get("category") else ""))
            items.append(el("li", item + ((after or {}).get(s["id"]) or "")))
        return el("ul", "".join(items), class_="ws-stratagems")

    def enhancement_list(self, page: Page, enh: list[dict]) -> str:
        """Enhancements with their points, an Upgrade badge, and those they cannot be taken with."""
        items = []
        for e in sorted(enh, key=lambda e: (e["name"].casefold(), e["id"])):
            item = self.ref(page.url, e, tip=True) + (esc(f" ({e['points']} pts)") if e.get("points") is not None else "")
            if e.get("upgrade"):
                item += " " + upgrade_badge()
            excluded = self.excluded(page, e)
            if excluded:
                item += el("small", " Not with " + excluded, class_="ws-excludes")
            items.append(el("li", item))
        return el("ul", "".join(items), class_="ws-enhancements") if items else ""

    def excluded(self, page: Page, enh: dict) -> str:
        """The enhancements that cannot be taken with `enh`, linked (an id the build lacks, as text)."""
        out = []
        for ref in sorted(enh.get("excludes", [])):
            other = self.bundle.get(ref)
            out.append(self.ref(page.url, other) if other else esc(ref))
        return ", ".join(out)

    # -- 11th edition: other languages, errata, game modes -------------------------------

    def other_names(self, page: Page, rec: dict) -> None:
        """The record's names in the source's other languages: a discreet line, and words search finds it by."""
        names = rec.get("names") or {}
        if not names:
            return
        parts = [el("span", el("abbr", esc(lang), title=LANGUAGES.get(lang, lang)) + " " + el("span", esc(names[lang]), lang=lang))
                 for lang in sorted(names)]
        page.add(el("p", "Also: " + " · ".join(parts), class_="ws-names"))
        page.index(*(names[lang] for lang in sorted(names)))

    def faq_section(self, page: Page, rec: dict) -> None:
        """The errata and FAQ entries that amend the record, each with its publication."""
        entries = self.faqs_of.get(rec["id"], [])
        if not entries:
            return
        items = []
        for f in entries:
            where = a(self.href(page.url, self.url_of(f)), esc(f.get("publication") or "Errata and FAQ"))
            items.append(el("li", el("p", el("strong", esc(f["name"])), class_="ws-faq-head") + self.text(page, f["text"], f)
                                + el("p", where, class_="ws-note")))
            page.index(f["text"])
        page.section("Errata & FAQ", el("ul", "".join(items), class_="ws-faq"), anchor="errata-faq")

    def faction_faqs(self, faction: str) -> list[tuple[str, int]]:
        """(publication, entries) of the FAQ entries that amend some record of a faction."""
        def index():
            by: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
            for ref, entries in self.faqs_of.items():
                rec = self.bundle.get(ref)
                if rec is None:
                    continue
                owner = rec.get("faction") or (self.bundle.detachment_of(rec) or {}).get("faction")
                if owner:
                    for f in entries:
                        by[owner][FaqPublications.publication(f)].add(f["id"])
            return {k: sorted(((p, len(ids)) for p, ids in v.items()), key=lambda t: (t[0].casefold(), t[0]))
                    for k, v in by.items()}
        return self.cache("faqs by faction", index).get(faction, [])

    def faq_note(self, page: Page, rec: dict) -> str:
        """For the header: a link to the record's errata and FAQ section, when it has one."""
        n = len(self.faqs_of.get(rec["id"], []))
        return a("#errata-faq", esc(f"Errata & FAQ ({n})"), class_="ws-tag ws-faq-tag") if n else ""

    # -- navigation ---------------------------------------------------------------------

    def sidenav(self, page: Page, key: str, make) -> None:
        """The sidebar: `make()` gives (title, title URL or None, groups of (label, [(text, url)])).

        A sidebar is shared by many pages (a faction's datasheets), so it is made once per key
        and folder (its links read the same from every page of one folder) and only the link
        to the page itself is marked on each."""
        folder = page.url.rsplit("/", 2)[0] + "/" if page.url.count("/") > 1 else ""
        html = self._navs.get((key, folder))
        if html is None:
            title, title_url, groups = make()
            base = folder + "-/"  # a page of the folder, for relative links to the others
            parts = [el("p", a(self.href(base, title_url), esc(title)) if title_url is not None else esc(title),
                        class_="ws-sidenav__title")]
            for label, links in groups:
                if not links:
                    continue
                if label:
                    parts.append(el("p", esc(label), class_="ws-sidenav__group"))
                items = "".join(el("li", a(self.href(base, url), esc(text))) for text, url in links)
                parts.append(el("ul", items))
            html = el("nav", "".join(parts), class_="md-nav ws-sidenav", aria_label=title)
            self._navs[(key, folder)] = html
        mine = f'<a href="{self.href(folder + "-/", page.url)}">'
        page.nav = html.replace(mine, mine[:-1] + ' class="ws-current" aria-current="page">', 1)

    def faction_nav(self, page: Page, faction: str) -> None:
        """A faction's datasheets and detachments beside one of its pages."""
        self.sidenav(page, "faction:" + faction, lambda: (faction, urls.faction_url(faction), [
            ("Datasheets", [(d["name"], self.url_of(d)) for d in self.faction_sheets.get(faction, [])]),
            ("Detachments", [(d["name"], self.url_of(d)) for d in self.faction_detachments.get(faction, [])])]))

    def crumbs_to_faction(self, faction: str) -> list[tuple[str, str]]:
        return [("Home", ""), ("Factions", "factions/"), (faction, urls.faction_url(faction))]

    def crumbs_to_patrol(self, faction: str) -> list[tuple[str, str]]:
        return [("Home", ""), ("Combat Patrol", "combat-patrol/"), (faction, patrol_url(faction))]

    def patrol_nav(self, page: Page, faction: str) -> None:
        """A faction's Combat Patrol datasheets and detachments beside one of its Combat Patrol pages."""
        self.sidenav(page, "patrol:" + faction, lambda: (f"Combat Patrol: {faction}", patrol_url(faction), [
            ("Datasheets", [(d["name"], self.url_of(d)) for d in self.patrol_sheets.get(faction, [])]),
            ("Detachments", [(d["name"], self.url_of(d)) for d in self.patrol_detachments.get(faction, [])])]))

    def fallback_stratagems(self, ds: dict) -> list[dict]:
        """Without the effects compiler's target lists: the core stratagems of the datasheet's ruleset and
        those of its faction's detachments of its game mode (indexed once, not scanned per datasheet)."""
        def index():
            by: dict[tuple, list[dict]] = defaultdict(list)
            for s in self.bundle.kind("stratagem"):
                det = self.bundle.detachment_of(s)
                if s["origin"] == "core":
                    by[(s["ruleset"], None, None)].append(s)
                elif det is not None:
                    by[(s["ruleset"], det["faction"], is_patrol(s) or is_patrol(det))].append(s)
            return by
        by = self.cache("stratagems by faction", index)
        return by.get((ds["ruleset"], None, None), []) + by.get((ds["ruleset"], ds["faction"], is_patrol(ds)), [])

    def grouped_datasheets(self, page: Page, sheets: list[dict], by_faction: bool = True) -> str:
        """Datasheets by faction (each a collapsible group with its count) and, within one, by role."""
        factions: dict[str, list[dict]] = defaultdict(list)
        for d in sheets:
            factions[group_name(d["faction"] if by_faction else "", d)].append(d)
        out = []
        for faction in sorted(factions):
            roles: dict[str, list[dict]] = defaultdict(list)
            for d in factions[faction]:
                roles[role_of(d)].append(d)
            body = "".join(el("p", esc(role) + f" ({len(roles[role])})", class_="ws-role")
                           + self.record_list(page, sorted(roles[role], key=lambda d: (d["name"].casefold(), d["id"])),
                                              class_="ws-columns")
                           for role in ROLES if role in roles)
            if not faction:
                out.append(body)
                continue
            summary_ = el("summary", esc(faction) + " " + el("span", count(len(factions[faction]), "unit"), class_="ws-count"))
            out.append(el("details", summary_ + body, class_="ws-group", open=len(factions) == 1))
        return "".join(out)


def is_patrol(rec: dict) -> bool:
    return rec.get("game_mode") == PATROL


def patrol_url(faction: str) -> str:
    """A faction's Combat Patrol page."""
    return f"combat-patrol/{part_name(slugify(faction))}/"


def mode_context(rec: dict, context: str) -> str:
    """A page's context for search and the A–Z index, labelled when the record is Combat Patrol's."""
    return f"Combat Patrol, {context}" if is_patrol(rec) and context else "Combat Patrol" if is_patrol(rec) else context


def group_name(faction: str, ds: dict) -> str:
    """The group a datasheet is listed under: its faction, Combat Patrol's units in a group of their own."""
    if not is_patrol(ds):
        return faction
    return f"{faction} (Combat Patrol)" if faction else "Combat Patrol"


def legends_badge() -> str:
    return el("span", "Legends", class_="ws-tag ws-legends",
              title="A Legends datasheet: kept for those who own the models, not in matched play's tournament lists")


def legends_context(rec: dict, context: str) -> str:
    """A Legends datasheet's context for search: the results say so, and typing 'legends' finds them."""
    return f"{context}, Legends" if rec.get("legends") else context


def upgrade_badge() -> str:
    return el("span", "Upgrade", class_="ws-tag ws-upgrade", title="Taken by a unit, not a CHARACTER model")


def phase_tags(s: dict) -> str:
    """A stratagem's phases as small tags (its CP is shown beside them)."""
    return "".join(" " + el("span", esc(PHASE_LABELS.get(p, p)), class_="ws-phase") for p in s.get("phases") or [])


def faq_key(rec: dict) -> tuple:
    return ((rec.get("publication") or "").casefold(), rec.get("order", 0), rec["id"])


class FaqPublications:
    """FAQ entries have one page per publication (``faq/<publication>/``, an entry an anchor on it):
    publications that slug alike get distinct, stable URLs (sorted by name); entries without one
    are under 'General'."""

    GENERAL = "General"

    def __init__(self, bundle: Bundle):
        self.groups: dict[str, list[dict]] = defaultdict(list)
        for rec in bundle.kind("faq"):
            self.groups[self.publication(rec)].append(rec)
        self._url: dict[str, str] = {}
        taken: set[str] = set()
        for name in sorted(self.groups, key=lambda n: (n.casefold(), n)):
            slug = slugify(name) or "publication"
            candidate, n = slug, 1
            while candidate in taken:
                n += 1
                candidate = f"{slug}-{n}"
            taken.add(candidate)
            self._url[name] = f"faq/{part_name(candidate)}/"
        # An entry's anchor on its page: from its id (unique within the page, as ids are unique).
        self._anchor: dict[str, str] = {}
        for recs in self.groups.values():
            recs.sort(key=faq_key)
            used: set[str] = set()
            for rec in sorted(recs, key=lambda r: r["id"]):
                base = "faq-" + (slugify(rec["id"].rsplit("/", 1)[-1])[:60].strip("-") or "entry")
                anchor, n = base, 1
                while anchor in used:
                    n += 1
                    anchor = f"{base}-{n}"
                used.add(anchor)
                self._anchor[rec["id"]] = anchor

    @staticmethod
    def publication(rec: dict) -> str:
        return rec.get("publication") or FaqPublications.GENERAL

    def anchor(self, rec: dict) -> str:
        return self._anchor[rec["id"]]

    def page_url(self, publication: str) -> str:
        return self._url[publication]

    def url(self, rec: dict) -> str:
        return self._url[self.publication(rec)] + "#" + self.anchor(rec)

    def __iter__(self):
        for name in sorted(self.groups, key=lambda n: (n.casefold(), n)):
            yield name, self.groups[name], self._url[name]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 datasheet', '2 datasheets'."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def initial(title: str) -> str:
    """The letter a title files under in an alphabetical list ('#' for a digit or sign)."""
    for ch in title:
        if ch.isalnum():
            base = unicodedata.normalize("NFKD", ch)[0].upper()
            return base if "A" <= base <= "Z" else "#"
    return "#"


def letter_anchor(letter: str) -> str:
    return "letter-" + ("0" if letter == "#" else letter.lower())


# A unit's role for grouping lists, from its keywords: the first that it has, in this order.
ROLES = ("Epic heroes", "Characters", "Battleline", "Dedicated transports", "Infantry", "Mounted", "Beasts",
         "Swarms", "Vehicles", "Monsters", "Fortifications", "Other units")
_ROLE_KEYWORDS = (("EPIC HERO", "Epic heroes"), ("CHARACTER", "Characters"), ("BATTLELINE", "Battleline"),
                  ("DEDICATED TRANSPORT", "Dedicated transports"), ("INFANTRY", "Infantry"), ("MOUNTED", "Mounted"),
                  ("BEAST", "Beasts"), ("SWARM", "Swarms"), ("VEHICLE", "Vehicles"), ("MONSTER", "Monsters"),
                  ("FORTIFICATION", "Fortifications"))


def role_of(ds: dict) -> str:
    have = {k.upper() for k in ds.get("keywords", [])}
    for keyword, role in _ROLE_KEYWORDS:
        if keyword in have:
            return role
    return "Other units"


class WeaponNames:
    """Weapons have one page per name and ruleset (``weapon/10e/bolt-pistol/``): every profile of that
    name, on every datasheet. Names that slug alike get distinct, stable URLs (sorted by name)."""

    def __init__(self, bundle: Bundle):
        self.groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for w in bundle.kind("weapon"):
            self.groups[(w["ruleset"], self.name(w).casefold())].append(w)
        self._url: dict[tuple[str, str], str] = {}
        taken: set[str] = set()
        for ruleset, key in sorted(self.groups):
            slug = slugify(key)
            candidate, n = slug, 1
            while (ruleset, candidate) in taken:
                n += 1
                candidate = f"{slug}-{n}"
            taken.add((ruleset, candidate))
            self._url[(ruleset, key)] = f"weapon/{part_name(ruleset)}/{part_name(candidate)}/"

    @staticmethod
    def name(weapon: dict) -> str:
        """The name a weapon is looked up by: a weapon of several profiles, its own name ('Plasma pistol')."""
        return weapon.get("profile_of") or weapon["name"]

    def url(self, weapon: dict) -> str:
        return self._url[(weapon["ruleset"], self.name(weapon).casefold())]

    def __iter__(self):
        for key in sorted(self.groups):
            yield key, self.groups[key], self._url[key]
