"""The "What changed" page: the change ledger since a previous build (``warscribe build --since OLD``).

Players open it on the day an update lands: points first, then profiles, texts, what was
added or removed, detachments. A real update's ledger runs to hundreds or thousands of
changes, so the page opens as a summary table per faction, and every faction's part of a
section folds (``<details>``, no script). Units and rules link to their pages in this
build; word changes are marked as deleted and inserted words. Everything from a source
goes through :func:`esc`.

URL: ``changes/``. The page is made only when the build was given a previous build.
"""

from __future__ import annotations

from warscribe.ledger.model import SECTIONS, Item, Ledger
from warscribe.ledger.render import COLUMNS, cite, counts_line, noise_line, records_line, show, signed, word_marks
from warscribe.site.markup import el, esc, table
from warscribe.site.pages import Page, Site

URL = "changes/"
TITLE = "What changed"


def pages(site: Site) -> list[Page]:
    # Across editions the ledger is the migration: its own pages (migration_pages.py)
    return [] if site.ledger is None or site.ledger.migration is not None else [page(site, site.ledger)]


def page(site: Site, ledger: Ledger) -> Page:
    p = Page(URL, TITLE, kind="index")
    sides = []
    for name, side in (("Before", ledger.old), ("After", ledger.new)):
        sides.append([esc(name), el("code", esc(side.label)), esc(side.date or "unknown")])
    p.add(table(["", "release", "date"], sides))
    p.add(el("p", el("strong", esc(counts_line(ledger)))))
    p.add(el("p", esc(noise_line(ledger)) + (" " + esc(records_line(ledger)) if ledger.records else "")))
    for caveat in ledger.caveats:
        p.add(el("p", esc(f"Note: {caveat}."), class_="ws-meta"))
    if ledger.empty:
        p.add(el("p", "No differences."))
        return p
    rows = []
    for faction in ledger.factions():
        c = ledger.counts([i for i in ledger.items if i.faction == faction])
        rows.append([esc(faction)] + [str(c[k]) for k, _label in COLUMNS])
    c = ledger.counts()
    rows.append([el("strong", "total")] + [el("strong", str(c[k])) for k, _label in COLUMNS])
    p.section("Summary", table(["faction"] + [esc(label) for _k, label in COLUMNS], rows), "summary")
    for section, title in SECTIONS.items():
        items = ledger.section(section)
        if not items:
            continue
        folds = []
        for faction in ledger.factions():
            mine = [i for i in items if i.faction == faction]
            if mine:
                summary = el("summary", el("strong", esc(faction)) + esc(f": {len(mine)} change"
                                                                         f"{'s' if len(mine) != 1 else ''}"))
                folds.append(el("details", summary + _table(site, section, mine)))
        p.section(f"{title} ({len(items)})", "".join(folds), section)
    return p


def _unit(site: Site, item: Item) -> str:
    rec = site.bundle.get(item.record)
    if rec is None or item.section == "removed":
        return esc(item.group)
    if rec["kind"] not in ("datasheet", "detachment"):
        owner = site.bundle.get(rec.get("datasheet") or rec.get("detachment") or "")
        return site.ref(URL, owner, item.group) if owner else esc(item.group)
    return site.ref(URL, rec, item.group)


def _what(site: Site, item: Item) -> str:
    rec = site.bundle.get(item.record)
    text = esc(item.what)
    if rec is not None and item.section != "removed" and rec["kind"] not in ("datasheet", "detachment", "weapon"):
        text = site.ref(URL, rec, item.what)
    if item.condition:
        text += esc(f" (when {item.condition})")
    if item.note:
        text += " " + el("em", esc(f"({item.note})"))
    return text


def _cells(item: Item) -> tuple[str, str]:
    if item.words is not None and isinstance(item.old, str) and isinstance(item.new, str):
        return "", word_marks(item.old, item.new, escape=esc)
    return esc(show(item, item.old)), esc(show(item, item.new))


def _table(site: Site, section: str, items: list[Item]) -> str:
    source = [el("small", esc(cite(i.old_source, i.new_source))) for i in items]
    if section == "points":
        return table(["unit", "size", "old", "new", "change", "source"],
                     [[_unit(site, i), _what(site, i), esc(show(i, i.old)), esc(show(i, i.new)), esc(signed(i.delta)), s]
                      for i, s in zip(items, source)])
    if section in ("added", "removed"):
        return table(["group", "name", "what", "source"],
                     [[_unit(site, i), _what(site, i), esc(i.new if section == "added" else i.old), s]
                      for i, s in zip(items, source)])
    return table(["unit / group", "what", "old", "new", "source"],
                 [[_unit(site, i), _what(site, i), *_cells(i), s] for i, s in zip(items, source)])
