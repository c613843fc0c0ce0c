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
        self.faction_sheets: dict[str, list[dict]] = defaultdict(list)  # faction name -> datasheets by name
        self.faction_detachments: dict[str, list[dict]] = defaultdict(list)
        for kind in ("datasheet", "detachment"):
            for rec in bundle.kind(kind):
                self.factions.setdefault(slugify(rec["faction"]), rec["faction"])
        for rec in sorted(bundle.kind("datasheet"), key=lambda r: (r["name"].casefold(), r["id"])):
            self.faction_sheets[rec["faction"]].append(rec)
        for rec in sorted(bundle.kind("detachment"), key=lambda r: (r["name"].casefold(), r["id"])):
            self.faction_detachments[rec["faction"]].append(rec)
        self.sources: dict[str, list[tuple[int, int, dict]]] = defaultdict(list)
        for rec in bundle:
            for src in rec.get("source", []):
                self.sources[src["file"]].append((src["first_line"], src["last_line"], rec))
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

    def url_of(self, rec: dict) -> str:
        """A record's page: weapons have one page per name (and ruleset), the others one per record."""
        url = self._urls.get(rec["id"])
        if url is None:
            url = self._urls[rec["id"]] = self.weapons.url(rec) if rec["kind"] == "weapon" else urls.record_url(rec)
        return url

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
                href = self.href(page.url, urls.source_url(src["file"]) + f"#L{first}-{last}")
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

    def record_list(self, page: Page, records: list[dict], tip: bool = False, class_: str | None = None) -> str:
        return el("ul", "".join(el("li", self.ref(page.url, r, tip=tip)) for r in records),
                  class_=class_) if records else ""

    def stratagem_list(self, page: Page, strats: list[dict]) -> str:
        items = []
        for s in sorted(strats, key=lambda s: s["name"]):
            href = self.href(page.url, self.url_of(s))
            item = self._stratagem_items.get((s["id"], href))
            if item is None:
                cp = el("span", f"{s['cp']}CP", class_="ws-cp")
                item = self._stratagem_items[(s["id"], href)] = el("li", cp + " " + tip_link(href, s["name"], self.tip(s))
                                                                   + (" — " + esc(s["category"]) if s.get("category") else ""))
            items.append(item)
        return el("ul", "".join(items), class_="ws-stratagems")

    def enhancement_list(self, page: Page, enh: list[dict]) -> str:
        items = [el("li", self.ref(page.url, e, tip=True) + (f" ({e['points']} pts)" if e.get("points") is not None else ""))
                 for e in sorted(enh, key=lambda e: e["name"])]
        return el("ul", "".join(items)) if items else ""

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

    def grouped_datasheets(self, page: Page, sheets: list[dict], by_faction: bool = True) -> str:
        """Datasheets by faction (each a collapsible group with its count) and, within one, by role."""
        factions: dict[str, list[dict]] = defaultdict(list)
        for d in sheets:
            factions[d["faction"] if by_faction else ""].append(d)
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
            self.groups[(w["ruleset"], w["name"].casefold())].append(w)
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

    def url(self, weapon: dict) -> str:
        return self._url[(weapon["ruleset"], weapon["name"].casefold())]

    def __iter__(self):
        for key in sorted(self.groups):
            yield key, self.groups[key], self._url[key]
