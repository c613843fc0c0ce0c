"""A generated page, and what every page kind shares (:class:`Site`).

The page kinds are functions of the site, one module a family: ``datasheet_page``,
``record_pages`` (the other record kinds, factions, sources) and ``indexes``. Bodies are
raw-HTML blocks built by :mod:`markup` (all scraped text escaped there) and Markdown
headings for the table of contents. Every page ends with where its content came from.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from warscribe.schema.bundle import Bundle
from warscribe.schema.text import slugify
from warscribe.sitegen import urls
from warscribe.sitegen.damage import DamageTable
from warscribe.sitegen.linker import Linker, summary
from warscribe.sitegen.markup import a, block, el, esc, heading, tip_link

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

    def stratagem_list(self, page: Page, strats: list[dict]) -> str:
        items = []
        for s in sorted(strats, key=lambda s: s["name"]):
            cp = el("span", f"{s['cp']}CP", class_="ws-cp")
            items.append(el("li", cp + " " + self.ref(page.url, s, tip=True)
                            + (" — " + esc(s["category"]) if s.get("category") else "")))
        return el("ul", "".join(items), class_="ws-stratagems")

    def enhancement_list(self, page: Page, enh: list[dict]) -> str:
        items = [el("li", self.ref(page.url, e, tip=True) + (f" ({e['points']} pts)" if e.get("points") is not None else ""))
                 for e in sorted(enh, key=lambda e: e["name"])]
        return el("ul", "".join(items)) if items else ""
