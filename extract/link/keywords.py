"""Keywords: which datasheets carry each, and where the pages list their usage."""

from __future__ import annotations

from warscribe.extract.blocks import Block
from warscribe.extract.lines import Document, Line
from warscribe.extract.page import PageParse
from warscribe.extract import provenance
from warscribe.extract.store import Store
from warscribe.schema import ids, records


def link_keywords(store: Store, pages: list[PageParse], keyword_usage: list[tuple[Document, Block]]) -> None:
    usage: dict[tuple[str, str], list[dict]] = {}
    usage_lines: dict[tuple[str, str], list[tuple[Document, Block]]] = {}
    for doc, block in keyword_usage:
        kws = block.data["keywords"]
        for kw in kws:
            entry = {"faction": block.data["faction"], "categories": block.data["categories"]}
            others = [k for k in kws if k != kw]
            if others:
                entry["together_with"] = others
            entries = usage.setdefault((doc.ruleset, kw), [])
            if entry not in entries:  # identical lists on several pages say it once
                entries.append(entry)
            usage_lines.setdefault((doc.ruleset, kw), []).append((doc, block))
    carried: dict[tuple[str, str], tuple[set[str], bool]] = {}
    sightings: dict[tuple[str, str], list[tuple[Document, list[Line]]]] = {}
    for page in pages:
        ds_id = ids.datasheet(page.faction, page.name)
        for kw, lines, faction in [(k, page.keyword_lines, False) for k in page.keywords] + \
                                  [(k, page.faction_keyword_lines, True) for k in page.faction_keywords]:
            ds, fk = carried.get((page.doc.ruleset, kw), (set(), False))
            ds.add(ds_id)
            carried[(page.doc.ruleset, kw)] = (ds, fk or faction)
            sightings.setdefault((page.doc.ruleset, kw), []).append((page.doc, lines))
    for key in sorted(set(usage) | set(carried)):
        ruleset, kw = key
        ds, fk = carried.get(key, (set(), False))
        record = records.keyword(id=ids.keyword(ruleset, kw), name=kw, ruleset=ruleset, faction_keyword=fk,
                                 datasheets=sorted(ds), usage=usage.get(key, []))
        places = [(d, ls) for d, ls in sightings.get(key, [])] + [(d, b.lines) for d, b in usage_lines.get(key, [])]
        first_doc, first_lines = places[0]
        store.add(record, first_doc, first_lines)
        for d, ls in places[1:]:
            for ln in ls:
                ln.mark(record["id"])
            store.add_provenance(store.records[record["id"]], provenance.from_lines(d, ls))
