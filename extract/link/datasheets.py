"""Datasheets and their weapons, from a parsed page."""

from __future__ import annotations

import re

from warscribe.extract.lines import Document, Line
from warscribe.extract.page import PageParse, Weapon
from warscribe.extract.store import Store
from warscribe.extract.text import check_text
from warscribe.extract.wargear import tie_footnotes, without_marker
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.values import parse_ap, parse_dice, parse_range, parse_skill


def link_datasheet(report: Report, store: Store, page: PageParse, ds_id: str, weapon_ids: list[str]) -> None:
    doc = page.doc
    lines: list[Line] = [page.title_line]
    abilities = []
    for kind, name, text, alines in page.abilities:
        entry: dict = {"name": name.replace(" (Psychic)", ""), "type": kind, "text": text}
        if name.endswith(" (Psychic)"):
            entry["psychic"] = True
        ref = ability_ref(doc.ruleset, kind, name, page.faction)
        if ref:
            entry["ref"] = ref
        abilities.append(entry)
        lines += alines
    notes = [b for b in page.blocks if b.kind == "points-note"]
    conditions = list(dict.fromkeys(p.condition for p in page.points if p.condition))
    condition_text = {}
    for cond, note in zip(conditions, notes):
        condition_text[cond] = note.data["text"]
        lines += note.lines
    if notes and len(notes) != len(conditions):
        report.warning(doc.path, notes[0].first, "points-notes", "points notes and cost conditions differ in number",
                       expected=f"{len(conditions)} notes", found=f"{len(notes)} notes")
    points = []
    for p in page.points:
        row = {"models": p.models, "points": p.points, "condition": p.condition}
        if p.condition in condition_text:
            row["condition_text"] = condition_text[p.condition]
        points.append(row)
        lines += p.lines
    lines += [ln for w in page.weapons for ln in w.lines]
    lines += [ln for *_x, ln in page.composition] + page.wargear_options + page.keyword_lines + page.faction_keyword_lines
    attached: dict[str, dict] = {}
    for key, value in (("leader", page.leader), ("led_by", page.led_by)):
        if value is not None:
            text, units, used = value
            attached[key] = {"text": text, "units": units}
            lines += used
    options, resolved = tie_footnotes(wargear_options(page.wargear_options))
    record = records.datasheet(
        id=ds_id, name=page.name, ruleset=doc.ruleset, faction=page.faction,
        keywords=page.keywords,
        faction_keywords=list(dict.fromkeys(page.faction_keywords)),
        composition=[{"name": n, "min": lo, "max": hi} for n, lo, hi, _l in page.composition],
        points=points,
        abilities=abilities,
        weapons=weapon_ids,
        wargear_options=options,
        leader=attached.get("leader", records.OMIT), led_by=attached.get("led_by", records.OMIT),
    )
    for ln in page.wargear_options:
        check_text(report, doc.path, ln.no, without_marker(ln.text, resolved), ln.col)
    store.add(record, doc, lines)


def ability_ref(ruleset: str, kind: str, name: str, faction: str) -> str | None:
    """The id of the rule text of a datasheet's CORE: or FACTION: ability."""
    if kind == "core":
        return ids.core_ability(ruleset, name)
    if kind == "faction":
        return ids.faction_ability(faction, name)
    return None


def link_weapon(report: Report, store: Store, doc: Document, ds_id: str, w: Weapon,
                weapon_id: str | None = None) -> str | None:
    line = w.lines[-1]
    for p in w.problems:
        report.warning(doc.path, line.no, "weapon-ability", p.message, expected="a known weapon ability", found=p.text)
    if len(w.cells) != 6:
        report.error(doc.path, line.no, "bad-weapon-row", f"weapon {w.name!r} has no complete profile row; skipped",
                     expected="| name | range | A | BS/WS | S | AP | D |", found=line.text)
        for ln in w.lines:
            ln.classify("lost-table")
        return None
    rng, a, skill, s, ap, d = w.cells
    try:
        record = records.weapon(
            id=weapon_id or ids.weapon(ds_id, w.name), name=w.name, ruleset=doc.ruleset, datasheet=ds_id, type=w.type,
            range=parse_range(rng), attacks=parse_dice(a, "A"), skill=parse_skill(skill),
            strength=parse_dice(s, "S"), ap=parse_ap(ap), damage=parse_dice(d, "D"), abilities=w.abilities)
    except ValueError as exc:
        report.error(doc.path, line.no, "bad-weapon-value", f"weapon {w.name!r}: {exc}; skipped",
                     expected="range, A, BS/WS, S, AP, D values", found=line.text)
        return None
    store.add(record, doc, w.lines)
    return record["id"]


def wargear_options(lines: list[Line]) -> list[dict]:
    """'- ... one of the following:' followed by '- 1 incinerator' lines is one option with choices."""
    options: list[dict] = []
    for ln in lines:
        text = ln.text.strip()
        item = text[2:].strip() if text.startswith("- ") else text
        parent = options[-1] if options else None
        if parent is not None and parent["text"].endswith(":") and re.match(r"^\d+ [^.:]*$", item):
            parent.setdefault("choices", []).append(item)
        else:
            options.append({"text": item})
    return options
