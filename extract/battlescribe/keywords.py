"""Keyword records: one per category the datasheets carry, sourced at the category's
definition, listing the datasheets that carry it."""

from __future__ import annotations

from warscribe.extract.battlescribe.output import Output
from warscribe.schema import ids, records


def keywords(out: Output) -> None:
    """A keyword record per category the datasheets carry, sourced at its category entry."""
    carriers: dict[tuple[str, str], set[str]] = {}
    for record, _p in out.records:
        if record["kind"] == "datasheet":
            for word in record["keywords"] + record["faction_keywords"]:
                carriers.setdefault((record["ruleset"], word), set()).add(record["id"])
    for (ruleset, word), links in sorted(out.categories.items()):
        data, link, faction = links[0]
        target = out.index.resolve(data, link, ("categoryEntry",))
        where, obj = (target.file, target.obj) if target else (data, link)
        record = records.keyword(id=ids.keyword(ruleset, word), name=word, ruleset=ruleset,
                                 faction_keyword=any(f for _d, _l, f in links),
                                 datasheets=sorted(carriers.get((ruleset, word), ())), usage=[])
        out.emit(record, where, obj)
