"""Stratagems: a page's STRATAGEMS list joined with the texts printed further down."""

from __future__ import annotations

from typing import Callable

from warscribe.extract.blocks import Block
from warscribe.extract.lines import Document, Line
from warscribe.extract.link.common import mentions
from warscribe.extract.page import PageParse
from warscribe.extract.stratagem_text import timing
from warscribe.extract.store import Store
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm

# Origins printed on a page that are not detachments.
ORIGINS = {"Core": "core", "Boarding Actions": "boarding-actions"}


def link_stratagems(report: Report, store: Store, page: PageParse, detachment_name: Callable[[str], str]) -> list[str]:
    """Every stratagem the page lists or prints; its ids in page order."""
    doc = page.doc
    texts = {}
    for b in page.blocks:
        if b.kind == "stratagem":
            key = (b.title.upper(), detachment_name(b.data["origin"]))
            if key in texts:
                report.warning(doc.path, b.first, "duplicate-stratagem", f"stratagem {b.title} printed twice",
                               expected="one text", found=f"also at line {texts[key].first}")
                continue
            texts[key] = b
    out = []
    for listed in page.stratagems:
        key = (listed.name.upper(), detachment_name(listed.origin))
        block = texts.pop(key, None)
        out.append(_stratagem(report, store, page, detachment_name, listed.name, listed, block))
    for key, block in sorted(texts.items(), key=lambda kv: kv[1].first):
        report.warning(doc.path, block.first, "unlisted-stratagem",
                       f"stratagem {block.title} has a text but is not in the page's STRATAGEMS list",
                       expected="a listed stratagem", found=block.title)
        out.append(_stratagem(report, store, page, detachment_name, block.title, None, block))
    return out


def _stratagem(report: Report, store: Store, page: PageParse, detachment_name, name: str, listed,
               block: Block | None) -> str:
    doc = page.doc
    origin_raw = (block.data["origin"] if block else listed.origin)
    origin = ORIGINS.get(origin_raw, "detachment")
    det_id = ids.detachment(page.faction, detachment_name(origin_raw)) if origin == "detachment" else None
    category = (block.data["category"] if block else None) or (listed.category if listed else None)
    if block and listed and listed.category and block.data["category"] and listed.category != block.data["category"]:
        report.warning(doc.path, block.first, "stratagem-mismatch",
                       f"{name}: category differs between the list and the text",
                       expected=listed.category, found=block.data["category"])
    if block and listed and listed.cp != block.data["cp"]:
        report.warning(doc.path, block.first, "stratagem-mismatch", f"{name}: CP differs between the list and the text",
                       expected=f"{listed.cp}CP", found=f"{block.data['cp']}CP")
    text_fields: dict = dict.fromkeys(("when", "target", "effect", "restrictions", "flavour"))
    number = designer_note = found = records.OMIT
    lines: list[Line] = list(listed.lines) if listed else []
    if block:
        number = block.number or records.OMIT
        for key in text_fields:
            text_fields[key] = block.data.get(key)
        designer_note = block.data.get("designer_note") or records.OMIT
        text = " ".join(v for v in (text_fields["when"], text_fields["target"], text_fields["effect"],
                                    text_fields["restrictions"]) if v)
        found = mentions(report, doc, block.lines, text)
        lines += block.lines
    else:
        report.warning(doc.path, listed.lines[0].no, "stratagem-without-text",
                       f"stratagem {name} is listed but its text is not on the page",
                       expected="WHEN / TARGET / EFFECT text", found="nothing")
    phases, turn = timing(text_fields["when"])  # a page prints no phase or turn but WHEN's
    record = records.stratagem(
        id=ids.stratagem(origin, doc.ruleset, name, det_id), name=name, ruleset=doc.ruleset,
        cp=block.data["cp"] if block else listed.cp, category=category, origin=origin, detachment=det_id,
        turn=turn or records.OMIT, phases=phases or records.OMIT,
        **text_fields, number=number, designer_note=designer_note, mentions=found)
    store.add(record, doc, lines, merge=_merge_stratagem(report, doc, lines))
    return record["id"]


def _merge_stratagem(report: Report, doc: Document, lines: list[Line]):
    def merge(old: dict, new: dict) -> None:
        if old.get("when") is None and new.get("when") is not None:
            for key in ("turn", "phases"):  # derived from WHEN, which only the new sighting gives
                if key in new:
                    old[key] = new[key]
        for key in ("when", "target", "effect", "restrictions"):
            if old.get(key) is None and new.get(key) is not None:
                old[key] = new[key]
            elif new.get(key) is not None and norm(old[key]) != norm(new[key]):
                first = old["source"][0]
                report.warning(doc.path, lines[0].no if lines else 1, "conflicting-duplicate",
                               f"{old['id']}: {key.upper()} differs from {first['file']}:{first['first_line']}; the first is kept",
                               expected=old[key][:80], found=new[key][:80])
    return merge
