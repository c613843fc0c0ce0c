"""The site's page families, in the order they are made, and the top navigation.

A family is a function of the :class:`~warscribe.site.pages.Site` that yields pages.
Adding a kind of page is one module with such a function and one line here: its pages
are then written, searchable (unless ``searchable=False``), in the A–Z index when their
kind is one of ``indexes.KIND_LABELS``, and crawled by the link tests; with ``nav``, the
page (or its first one) gets a tab in the top navigation, at the family's place in this
list, or an entry under ``section``.

Families marked ``late`` are made after all the others (in their order here), because
they read what the others made: the A–Z index reads ``site.made``, the diagnostics page
the references the others could not resolve.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from warscribe.site import (changes_page, combat_patrol, datasheet_page, disputes, faq_pages, indexes, migration_pages,
                            record_pages, stratagem_cards, weapon_page)
from warscribe.site.pages import Page, Site, is_patrol


@dataclass(frozen=True)
class Family:
    name: str
    pages: Callable[[Site], Iterable[Page]]
    nav: tuple[str, str] | None = None  # (title, url) in the top navigation
    section: str | None = None  # the navigation tab the entry goes under, if not a tab of its own
    late: bool = False


def records(kind: str, page: Callable[[Site, dict], Page]) -> Callable[[Site], Iterable[Page]]:
    """A family of one page per record of `kind`: the core game's first, so that where a record of
    another game has the same title (Combat Patrol's Intercessor Squad, Boarding Actions' COMMAND
    RE-ROLL), search lists the core game's first (pages of one title tie-break by their order)."""
    return lambda site: (page(site, rec) for rec in sorted(site.bundle.kind(kind), key=_other_game))


# Stratagems of a game played apart from the core rules (the mission pack's Challenger cards too).
_OTHER_GAMES = ("boarding-actions", "challenger")


def _other_game(rec: dict) -> tuple[bool, bool]:
    return is_patrol(rec), rec.get("origin") in _OTHER_GAMES


def one(page: Callable[[Site], Page]) -> Callable[[Site], Iterable[Page]]:
    """A family of a single page."""
    return lambda site: [page(site)]


FAMILIES: list[Family] = [
    Family("home", lambda site: [indexes.home(site, site.intro)], nav=("Home", "")),
    Family("factions", one(indexes.factions), nav=("Factions", "factions/")),
    Family("datasheets", one(indexes.datasheets), nav=("Datasheets", "datasheets/")),
    Family("weapons", one(indexes.weapons), nav=("Weapons", "weapons/")),
    Family("stratagems", one(indexes.stratagems), nav=("Stratagems", "stratagems/")),
    Family("detachments", one(indexes.detachments), nav=("Detachments", "detachments/")),
    Family("rules", one(indexes.rules), nav=("Core rules", "rules/")),
    Family("abilities", one(indexes.abilities), nav=("Abilities", "abilities/")),
    Family("keywords", one(indexes.keywords), nav=("Keywords", "keywords/")),
    # Pages only in builds with such records: in the navigation when written (generate._OPTIONAL_NAV).
    Family("faq", faq_pages.pages),  # errata and FAQ, a page per publication
    Family("combat-patrol", combat_patrol.pages),  # Combat Patrol's rules and forces, apart from matched play
    Family("datasheet", records("datasheet", datasheet_page.datasheet)),
    Family("weapon", weapon_page.pages),
    Family("ability", records("ability", record_pages.ability)),
    Family("rule", records("rule", record_pages.rule)),
    Family("stratagem", records("stratagem", record_pages.stratagem)),
    Family("detachment", records("detachment", record_pages.detachment)),
    Family("enhancement", records("enhancement", record_pages.enhancement)),
    Family("keyword", records("keyword", record_pages.keyword)),
    Family("faction", lambda site: (record_pages.faction(site, slug) for slug in sorted(site.factions))),
    Family("cards", stratagem_cards.pages),  # stratagems at the table, per faction and detachment
    Family("disagreements", disputes.pages),  # where two sources give a field differently (nav: generate)
    Family("changes", changes_page.pages),  # the change ledger, when built --since a previous build (nav: generate)
    Family("migration", migration_pages.pages),  # from 10th edition, when built --since a 10th-edition build (nav: generate)
    Family("source", lambda site: (record_pages.source(site, file) for file in sorted(site.sources))),
    Family("a-z", indexes.a_to_z, nav=("A–Z", "a-z/"), late=True),
    Family("build", one(indexes.build), nav=("Build and sources", "build/"), section="Build"),
    Family("sources", one(indexes.sources), nav=("Sources", "sources/"), section="Build"),
    # Last: it lists what the other pages could not resolve.
    Family("diagnostics", one(indexes.diagnostics), nav=("Diagnostics", "diagnostics/"), section="Build", late=True),
]


def make(site: Site, families: list[Family] | None = None) -> Iterator[Page]:
    """Every page of every family (the late ones last), recorded in ``site.made`` as they come."""
    families = FAMILIES if families is None else families
    site.indexes = [f.nav[::-1] for f in families if f.nav]
    for family in [f for f in families if not f.late] + [f for f in families if f.late]:
        for page in family.pages(site):
            site.made.append(page)
            yield page


def navigation(families: list[Family] | None = None) -> list[dict]:
    """The top navigation for mkdocs: tabs in family order, section entries under their section."""
    families = FAMILIES if families is None else families
    nav: list[dict] = []
    sections: dict[str, list] = {}
    for f in families:
        if not f.nav:
            continue
        title, url = f.nav
        entry = {title: _file(url)}
        if f.section is None:
            nav.append(entry)
        elif f.section in sections:
            sections[f.section].append(entry)
        else:
            sections[f.section] = [entry]
            nav.append({f.section: sections[f.section]})
    return nav


def _file(url: str) -> str:
    from warscribe.site.urls import file_of

    return file_of(url)
