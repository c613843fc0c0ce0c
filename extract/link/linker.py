"""The linking stage's order: pages (rules first, then datasheets, stratagems, enhancements,
detachments), then rules extracts, then keywords across every page."""

from __future__ import annotations

from warscribe.extract.blocks import Block
from warscribe.extract.extracts import Passage
from warscribe.extract.lines import Document
from warscribe.extract.collisions import weapon_ids
from warscribe.extract.link.datasheets import link_datasheet, link_weapon
from warscribe.extract.link.detachments import link_detachments, link_enhancements
from warscribe.extract.link.keywords import link_keywords
from warscribe.extract.link.rules import NamedAbilities, link_passages, link_rule_block
from warscribe.extract.link.stratagems import ORIGINS, link_stratagems
from warscribe.extract.page import PageParse
from warscribe.extract.store import Store
from warscribe.schema import ids
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm


class Linker:
    def __init__(self, report: Report, store: Store):
        self.report = report
        self.store = store
        self.pages: list[PageParse] = []
        # Names of CORE:/FACTION: abilities per ruleset, to tell abilities from rules.
        self.named_abilities: NamedAbilities = {}
        self.keyword_usage: list[tuple[Document, Block]] = []

    def add_page(self, page: PageParse) -> None:
        self.pages.append(page)
        for kind, name, _text, _lines in page.abilities:
            if kind in ("core", "faction"):
                self.named_abilities[(page.doc.ruleset, norm(name))] = (kind, page.faction)

    def link_pages(self) -> None:
        for page in self.pages:
            self._page(page)

    def _page(self, page: PageParse) -> None:
        doc = page.doc
        ds_id = ids.datasheet(page.faction, page.name)

        full_detachments = sorted({b.data["detachment"] for b in page.blocks
                                   if b.kind in ("detachment-rule", "enhancement-text")})

        def detachment_name(short: str) -> str:
            matches = [f for f in full_detachments if f == short or f.endswith(" " + short)]
            return matches[0] if len(matches) == 1 else short

        # Rules and abilities first: datasheet abilities link to them.
        for block in page.blocks:
            if block.kind == "rule":
                link_rule_block(self.report, self.store, self.named_abilities, doc, block)
        # Headingless tooltips after the page's headed rules, as a rules extract's passages are:
        # a repeat of a rule already read is one more place of it, else a rule of its own, untitled.
        untitled = [Passage(b.lines) for b in page.blocks if b.kind == "untitled"]
        if untitled:
            link_passages(self.report, self.store, doc, page.name, untitled)
        named = weapon_ids(self.report, doc.path, ds_id, [(w.name, w.lines[0].no) for w in page.weapons],
                           [w.type for w in page.weapons])
        weapon_ids_ = [link_weapon(self.report, self.store, doc, ds_id, w, wid) for w, wid in zip(page.weapons, named)]
        link_datasheet(self.report, self.store, page, ds_id, list(dict.fromkeys(w for w in weapon_ids_ if w)))

        stratagem_ids = link_stratagems(self.report, self.store, page, detachment_name)
        enhancement_ids = link_enhancements(self.report, self.store, page, detachment_name)

        # Where each detachment is named: a detachment known only from stratagem lists
        # cites the lines that name it ('Sanctic Spearhead – Epic Deed'), not the page title.
        named_at: dict[str, list] = {name: [] for name in full_detachments}
        for s in page.stratagems:
            if s.origin not in ORIGINS:
                named_at.setdefault(detachment_name(s.origin), []).append(s.lines[2])
        for b in page.blocks:
            if b.kind == "stratagem" and b.data["origin"] not in ORIGINS:
                named_at.setdefault(detachment_name(b.data["origin"]), []).append(b.lines[2])
        link_detachments(self.report, self.store, page, named_at, stratagem_ids, enhancement_ids)

        for block in page.blocks:
            if block.kind == "keyword-usage":
                self.keyword_usage.append((doc, block))

    def link_passages(self, doc: Document, title: str, passages: list[Passage]) -> None:
        link_passages(self.report, self.store, doc, title, passages)

    def link_keywords(self) -> None:
        link_keywords(self.store, self.pages, self.keyword_usage)
