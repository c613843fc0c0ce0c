"""Where the sources disagree: one page, per faction a table of both values; marks on datasheets.

A build from two whole-game sources (the Wahapedia export and BattleScribe data) keeps, for
each field, the value of the better-ranked source, and records the other's (``differs`` on
its provenance, docs/formats.md). A player settling a dispute wants both values side by
side: the page ``disagreements/`` lists them per faction with links to the datasheets, and
each datasheet page says, above its profile, which of its fields (and of its weapons') the
sources give differently and what the other source says.
"""

from __future__ import annotations

from collections import defaultdict

from warscribe.checks.sources import disagreements
from warscribe.extract.sources_compare import shown
from warscribe.schema.text import slugify
from warscribe.site.markup import a, el, esc, table
from warscribe.site.pages import Page, Site

URL = "disagreements/"
TITLE = "Where the sources disagree"
# Shown values are cut here: a list of forty weapon ids says little more than its first ones.
_SHOWN = 300


def _all(site: Site) -> list[dict]:
    cached = getattr(site, "_disputes", None)
    if cached is None:
        cached = disagreements(site.bundle)
        site._disputes = cached
    return cached


def _per_unit(site: Site) -> dict[str, list[dict]]:
    cached = getattr(site, "_disputes_per_unit", None)
    if cached is None:
        cached = defaultdict(list)
        for d in _all(site):
            rec = site.bundle.get(d["record"])
            unit = site.bundle.datasheet_of(rec) if rec and rec["kind"] == "weapon" else rec
            if unit is not None and unit["kind"] == "datasheet":
                cached[unit["id"]].append(d)
        site._disputes_per_unit = cached
    return cached


def _value(d: dict, which: str) -> str:
    value, other = d[which]["value"], d["other" if which == "kept" else "kept"]["value"]
    if _names(value) and _names(other):  # a list of names or ids: what this source has that the other lacks
        mine, theirs = _names(value), _names(other)
        only = [n for n in mine if n.casefold() not in {t.casefold() for t in theirs}]
        text = ("only here: " + ", ".join(only)) if only else "nothing the other lacks"
    else:
        text = shown(d["kind"], d["field"], value)
    return esc(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def _names(value) -> list[str]:
    """The items of a list of keywords or record ids, by their last part ('.../singing-spear')."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return [v.rpartition("/")[2] for v in value]
    return []


def _what(site: Site, page: Page, d: dict) -> str:
    """The field, with the weapon it belongs to when it is a weapon's."""
    rec = site.bundle.get(d["record"])
    if rec is not None and rec["kind"] == "weapon":
        return site.ref(page.url, rec) + " " + esc(d["field"])
    return esc(d["field"])


def pages(site: Site) -> list[Page]:
    """The page, when the build has records two sources give differently."""
    items = _all(site)
    if not items:
        return []
    page = Page(URL, TITLE, kind="index", searchable=False, crumbs=[("Home", "")])
    per_faction: dict[str, list[dict]] = defaultdict(list)
    for d in items:
        per_faction[d["faction"] or "(no faction)"].append(d)
    sources = sorted({d["kept"]["source"] for d in items} | {d["other"]["source"] for d in items})
    page.add(el("p", esc(f"{len(items)} fields of {len({d['record'] for d in items})} records are given differently "
                         f"by {', '.join(sources)}. The knowledge base keeps the value of the better-ranked source "
                         "(the manifest's rank); notation (3+ and 3, 24\" and 24, keyword case, spelling of "
                         "names) is not counted. Each difference is a source's error or a reader's.")))
    page.add(el("p", " · ".join(a(f"#{slugify(f)}", esc(f)) + esc(f" ({len(per_faction[f])})")
                                for f in sorted(per_faction)), class_="ws-meta"))
    for faction in sorted(per_faction):
        rows = []
        for d in sorted(per_faction[faction], key=lambda d: (d["record"], d["field"])):
            rec = site.bundle.get(d["record"])
            unit = site.bundle.datasheet_of(rec) if rec and rec["kind"] == "weapon" else rec
            who = site.ref(page.url, unit) if unit is not None else esc(d["record"])
            rows.append([who, _what(site, page, d),
                         _value(d, "kept") + "<br>" + el("small", esc(d["kept"]["source"])),
                         _value(d, "other") + "<br>" + el("small", esc(d["other"]["source"]))])
        page.section(faction, table(["Record", "Field", "Kept", "Other source"], rows), anchor=slugify(faction))
    return [page]


def mark(site: Site, page: Page, ds: dict) -> None:
    """On a datasheet page: the fields its sources give differently, with the other source's value."""
    items = _per_unit(site).get(ds["id"])
    if not items:
        return
    lines = [el("li", _what(site, page, d) + ": " + _value(d, "kept") + " " + el("small", esc(f"({d['kept']['source']})"))
                + "; " + el("strong", _value(d, "other")) + " " + el("small", esc(f"({d['other']['source']})")))
             for d in sorted(items, key=lambda d: (d["record"] != ds["id"], d["record"], d["field"]))]
    page.add(el("div", el("p", el("strong", "Sources disagree") + " on this unit (the first value is the one shown "
                                  "below; " + a(site.href(page.url, URL) + "#" + slugify(ds["faction"]),
                                                "all disagreements") + "):", class_="admonition-title")
                + el("ul", "".join(lines)), class_="admonition warning ws-disputed"))
