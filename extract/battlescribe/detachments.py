"""Detachments and their enhancements: the entries of a catalogue's detachment choice
group, and of its Enhancements group (per detachment where it has subgroups)."""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.common import flag, plain
from warscribe.extract.battlescribe.index import DataFile
from warscribe.extract.battlescribe.output import Output
from warscribe.schema import ids, records
from warscribe.schema.text import clean_name


def detachments(out: Output, data: DataFile, faction: str) -> None:
    """Emit the detachments of a catalogue, each after its enhancements."""
    found: dict[str, dict] = {}
    enhancement_groups: list[dict] = []
    for what, obj in data.defs.values():
        if what != "selectionEntryGroup":
            continue
        gname = clean_name(str(obj.get("name", "")))
        if gname in ("Detachment", "Detachments", "Detachment Choice"):
            for entry in obj.get("selectionEntries") or []:
                if isinstance(entry, dict) and not flag(entry.get("hidden")):
                    found.setdefault(clean_name(str(entry.get("name", ""))), entry)
        elif gname == "Enhancements":
            enhancement_groups.append(obj)
    enhancements: dict[str, list[str]] = {}
    for group in enhancement_groups:
        subgroups = [g for g in group.get("selectionEntryGroups") or [] if isinstance(g, dict)]
        for sub in subgroups or [group]:
            det_name = re.sub(r"\s*Enhancements?$", "", clean_name(str(sub.get("name", ""))))
            det_id = ids.detachment(faction, det_name) if det_name in found else None
            for entry in sub.get("selectionEntries") or []:
                if not isinstance(entry, dict) or flag(entry.get("hidden")):
                    continue
                record = enhancement(out, data, entry, det_id, faction)
                if record:
                    enhancements.setdefault(det_name, []).append(record["id"])
    for det_name, entry in sorted(found.items()):
        rules = [r for r in entry.get("rules") or [] if isinstance(r, dict)]
        rule = None
        if rules:
            rule = {"name": clean_name(str(rules[0].get("name", ""))),
                    "text": plain(str(rules[0].get("description") or ""))}
        record = records.detachment(id=ids.detachment(faction, det_name), name=det_name, ruleset=data.ruleset,
                                    faction=faction, rule=rule, stratagems=[],
                                    enhancements=enhancements.get(det_name, []))
        out.emit(record, data, entry)


def enhancement(out: Output, data: DataFile, entry: dict, det_id: str | None, faction: str) -> dict | None:
    """Emit the enhancement of `entry` (its restriction split from its text); the record."""
    name = clean_name(str(entry.get("name", "")))
    texts = [plain(str(c.get("$text", ""))) for p in entry.get("profiles") or [] if isinstance(p, dict)
             for c in p.get("characteristics") or [] if isinstance(c, dict)]
    text = "\n\n".join(t for t in texts if t) or None
    restriction = None
    if text:
        m = re.match(r"^(?P<r>[^.]*?\bmodels? only\.)\s*(?P<t>.*)$", text, re.S)
        if m:
            restriction, text = m.group("r"), m.group("t") or text
    # In BattleScribe an entry without a points cost costs nothing (Boarding Actions' enhancements).
    pts = out.pts_of(entry) or 0
    key = re.sub(r"\s*\(Psychic\)$", "", name)  # the rules print the tag apart from the name
    record = records.enhancement(id=ids.enhancement(key, det_id, faction), name=name, ruleset=data.ruleset,
                                 detachment=det_id, points=int(pts), text=text,
                                 restriction=restriction)
    out.emit(record, data, entry)
    return record
