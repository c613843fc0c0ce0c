"""Detachments and their enhancements.

A detachment is an entry of a ``Detachment(s)`` choice group that an army's root entries
reach (the Space Marines catalogue's group, imported by each chapter's). It is the
detachment of each army that offers it by a root entry of its own and shows it (the data
hides Unforgiven Task Force unless the army is Dark Angels), else of the first army that
imports it and shows it, preferring one of the faction of the file that defines it. Its
rule is its first rule or linked rule, or a rule the data hides on datasheets until the
detachment is chosen.

An enhancement is an entry of an ``Enhancements`` group; it belongs to the detachment
whose choice the data waits for before it shows the enhancement (the group's or its own
hidden-unless condition), else the one its sub-group names (``Warpbane Task Force
Enhancements``). Its bearers are the datasheets of that army that link the group and
for which the data shows the enhancement with its detachment chosen (a Captain-only
enhancement is hidden unless the bearer is a Captain; enhancements go on characters:
only they link the group).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.extract.battlescribe import conditions
from warscribe.extract.battlescribe.abilities import ability_text
from warscribe.extract.battlescribe.armies import Armies, default_force, roots
from warscribe.extract.battlescribe.common import flag, plain
from warscribe.extract.battlescribe.conditions import Army, Scope
from warscribe.extract.battlescribe.factions import catalogue_faction
from warscribe.extract.battlescribe.index import DataFile
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.walk import frame
from warscribe.schema import ids, records
from warscribe.schema.text import clean_name

DETACHMENT_GROUPS = ("detachment", "detachments", "detachment choice")


@dataclass
class Detachment:
    entry: dict
    file: DataFile  # where it is defined
    name: str
    owners: list[tuple[DataFile, Army, str]] = field(default_factory=list)  # (army, its context, faction)
    enhancements: dict[str, list[str]] = field(default_factory=dict)  # faction -> enhancement ids


def _groups_in(out: Output, obj: dict, data: DataFile, depth: int = 0, seen: dict[int, int] | None = None):
    """The choice groups an entry holds or links, with their files, each once (shallow: detachment
    choices sit near the root; a group linked many times over is not walked many times over)."""
    seen = {} if seen is None else seen  # id(group) -> the least depth it was reached at
    found = [(g, data) for g in obj.get("selectionEntryGroups") or [] if isinstance(g, dict)]
    for lk in obj.get("entryLinks") or []:
        if isinstance(lk, dict) and lk.get("type") == "selectionEntryGroup":
            t = out.index.resolve(data, lk, ("selectionEntryGroup",))
            if t is not None:
                found.append((t.obj, t.file))
    for g, gfile in found:
        if id(g) in seen:
            if seen[id(g)] <= depth:
                continue
        else:
            yield g, gfile
        seen[id(g)] = depth
        if depth < 2:
            yield from _groups_in(out, g, gfile, depth + 1, seen)


def _is_detachment_group(g: dict) -> bool:
    return clean_name(str(g.get("name", ""))).lower() in DETACHMENT_GROUPS


def army_choices(out: Output) -> frozenset[str]:
    """The ids of every entry of a detachment choice group (the entries and the links to them)."""
    found: set[str] = set()
    for data in out.index.files:
        for what, g in data.defs.values():
            if what != "selectionEntryGroup" or not _is_detachment_group(g):
                continue
            for d in (g.get("selectionEntries") or []) + (g.get("entryLinks") or []):
                if isinstance(d, dict):
                    found |= {str(d[k]) for k in ("id", "targetId") if d.get(k)}
    return frozenset(found)


def find_detachments(out: Output, armies: Armies) -> list[Detachment]:
    """Every detachment, with the armies it is the detachment of."""
    found: dict[int, Detachment] = {}
    candidates: dict[int, list[tuple[DataFile, Army, str, bool]]] = {}
    for army in [f for f in out.index.files if f.kind == "catalogue" and not f.library]:
        context = Army(army.id, default_force(out.index, army.ruleset))
        faction = catalogue_faction(army)
        items = [(item, army, True) for item in roots(army)] + [(i, f, False) for i, f in armies._imported(army)]
        for item, item_file, explicit in items:
            target = armies._target(item_file, item)
            if target is None or target[0].get("type") in ("unit", "model"):
                continue
            for g, gfile in _groups_in(out, target[0], target[1]):
                if not _is_detachment_group(g):
                    continue
                for d in g.get("selectionEntries") or []:
                    if not isinstance(d, dict) or flag(d.get("hidden")) and not conditions.has_modifiers(d):
                        continue
                    found.setdefault(id(d), Detachment(d, gfile, clean_name(str(d.get("name", "")))))
                    if not conditions.hidden((d,), Scope(context.opened()).down(frame(d))):
                        candidates.setdefault(id(d), []).append((army, context, faction, explicit))
    # Detachment groups of files no army reaches: read under their own file.
    for data in out.index.files:
        for what, g in data.defs.values():
            if what == "selectionEntryGroup" and _is_detachment_group(g):
                for d in g.get("selectionEntries") or []:
                    if isinstance(d, dict) and id(d) not in found and not flag(d.get("hidden")):
                        found[id(d)] = Detachment(d, data, clean_name(str(d.get("name", ""))))
                        context = Army(data.id, default_force(out.index, data.ruleset))
                        candidates.setdefault(id(d), []).append((data, context, catalogue_faction(data), True))
    for key, det in found.items():
        cands = candidates.get(key, [])
        explicit = [c for c in cands if c[3]]
        if explicit:
            chosen = explicit
        else:
            home = catalogue_faction(det.file)
            chosen = [c for c in cands if c[2] == home][:1] or cands[:1]
        seen_factions = set()
        for army, context, faction, _e in chosen:
            if faction not in seen_factions:
                seen_factions.add(faction)
                det.owners.append((army, context, faction))
        if not det.owners:
            out.group("hidden-entry", "a detachment no army shows", det.file, det.entry,
                      f"detachment {det.name!r} is shown in no army that offers it; not made a record", det.name)
    return [d for d in found.values() if d.owners]


def detachments(out: Output, armies: Armies) -> None:
    """Emit every detachment, each after its enhancements."""
    dets = find_detachments(out, armies)
    by_id = {str(d.entry.get("id")): d for d in dets}
    _enhancements(out, dets, by_id, armies.parents)
    tied = _tied_rules(out, by_id)
    for det in sorted(dets, key=lambda d: (d.file.name, d.name)):
        rules = _rules(out, det) or tied.get(str(det.entry.get("id")), [])
        if len(rules) > 1:
            out.group("extra-detachment-rule", "a detachment with several rules", det.file, det.entry,
                      f"detachment {det.name!r} has {len(rules)} rules; the first is its rule", det.name)
        for army, _context, faction in det.owners:
            record = records.detachment(id=ids.detachment(faction, det.name), name=det.name, ruleset=det.file.ruleset,
                                        faction=faction, rule=rules[0] if rules else None, stratagems=[],
                                        enhancements=det.enhancements.get(faction, []))
            out.emit(record, det.file, det.entry)


def _rules(out: Output, det: Detachment) -> list[dict]:
    found = []
    entry = det.entry
    for r in entry.get("rules") or []:
        if isinstance(r, dict) and not flag(r.get("hidden")):
            found.append(_rule(r))
    for lk in entry.get("infoLinks") or []:
        if isinstance(lk, dict) and lk.get("type") == "rule":
            t = out.index.resolve(det.file, lk, ("rule",))
            if t is not None:
                found.append(_rule(t.obj, str(lk.get("name") or "")))
    for p in entry.get("profiles") or []:
        if isinstance(p, dict) and p.get("typeName") == "Abilities" and ability_text(p):
            found.append({"name": clean_name(str(p.get("name", ""))), "text": ability_text(p)})
    return [r for r in found if r["text"]]


def _rule(rule: dict, name: str = "") -> dict:
    return {"name": clean_name(name or str(rule.get("name", ""))), "text": plain(str(rule.get("description") or ""))}


def _tied_rules(out: Output, by_id: dict[str, Detachment]) -> dict[str, list[dict]]:
    """Rules the data hides on datasheets until a detachment is chosen: that detachment's."""
    tied: dict[str, list[dict]] = {}
    seen: set[int] = set()
    for what, _name, _data, objs in out.hidden_rules:
        if what != "rule" or id(objs[0]) in seen:
            continue
        seen.add(id(objs[0]))
        for key in conditions.referenced(objs) & by_id.keys():
            rule = _rule(objs[0], str(objs[-1].get("name") or ""))
            if rule["text"] and rule not in tied.setdefault(key, []):
                tied[key].append(rule)
    return tied


def _walk_enhancements(group: dict, data: DataFile, out: Output, chain: tuple[dict, ...] = (), depth: int = 0):
    """(enhancement entry, its file, the groups from the top one down to it, the innermost group's name)."""
    chain = chain + (group,)
    for e in group.get("selectionEntries") or []:
        if isinstance(e, dict):
            yield e, data, chain
    for lk in group.get("entryLinks") or []:
        if isinstance(lk, dict) and lk.get("type") == "selectionEntry":
            t = out.index.resolve(data, lk, ("selectionEntry",))
            if t is not None:
                yield t.obj, t.file, chain + (lk,)
    if depth < 4:
        for sub in group.get("selectionEntryGroups") or []:
            if isinstance(sub, dict):
                yield from _walk_enhancements(sub, data, out, chain, depth + 1)


def _enhancement_groups(out: Output) -> list[tuple[dict, DataFile]]:
    """Enhancement groups: those datasheets link, and those named so in any file, each once."""
    groups: dict[int, tuple[dict, DataFile]] = {}
    for data in out.index.files:
        for what, g in data.defs.values():
            if what == "selectionEntryGroup" and re.search(r"\benhancements$", clean_name(str(g.get("name", ""))), re.I):
                groups.setdefault(id(g), (g, data))
    return list(groups.values())


def _enhancements(out: Output, dets: list[Detachment], by_id: dict[str, Detachment],
                  parents: dict[str, set[str]]) -> None:
    by_name: dict[str, list[Detachment]] = {}
    for d in dets:
        by_name.setdefault(d.name.casefold(), []).append(d)
    nested: set[int] = set()
    groups = _enhancement_groups(out)
    for g, _d in groups:
        for sub in g.get("selectionEntryGroups") or []:
            nested.add(id(sub))
    for group, data in groups:
        if id(group) in nested:
            continue  # read from the group that holds it
        linkers = [b for b in out.bearers if id(group) in b.groups]
        for entry, efile, chain in _walk_enhancements(group, data, out):
            if flag(entry.get("hidden")) and not conditions.has_modifiers(entry):
                continue
            objs = tuple(chain) + (entry,)
            ties = [by_id[k] for k in sorted(conditions.referenced(objs) & by_id.keys())]
            if not ties:
                sub = re.sub(r"\s*Enhancements?$", "", clean_name(str(chain[-1].get("name", ""))), flags=re.I)
                ties = by_name.get(sub.casefold(), [])
            if ties:
                for det in ties:
                    for _army, context, faction in det.owners:
                        _enhancement(out, entry, efile, det, faction, context, objs, linkers, parents)
            else:
                faction = linkers[0].faction if linkers else catalogue_faction(data)
                context = linkers[0].scope.army if linkers else Army(data.id, default_force(out.index, data.ruleset))
                _enhancement(out, entry, efile, None, faction, context, objs, linkers, parents)
                out.group("enhancement-without-detachment", "", efile, entry,
                          f"enhancement {clean_name(str(entry.get('name', '')))!r} is tied to no detachment (no "
                          "condition on a detachment's choice, no group naming one); its detachment is left empty",
                          clean_name(str(entry.get("name", ""))))


def _enhancement(out: Output, entry: dict, data: DataFile, det: Detachment | None, faction: str, context: Army,
                 objs: tuple[dict, ...], linkers, parents: dict[str, set[str]]) -> None:
    """Emit one enhancement of `faction`'s `det`; its bearers are the datasheets that army fields
    as its own (its faction's, its parent faction's) shown the enhancement there."""
    name = clean_name(str(entry.get("name", "")))
    texts = [ability_text(p) for p in entry.get("profiles") or [] if isinstance(p, dict)]
    text = "\n\n".join(t for t in texts if t) or None
    restriction = None
    if text:
        m = re.match(r"^(?P<r>[^.]*?\bmodels? only\.)\s*(?P<t>.*)$", text, re.S)
        if m:
            restriction, text = m.group("r"), m.group("t") or text
    det_id = ids.detachment(faction, det.name) if det is not None else None
    bearers = []
    fielded = {faction} | parents.get(faction, set())
    army = context.choosing(str(det.entry.get("id"))) if det is not None else context
    for b in linkers:
        if b.faction not in fielded or b.ruleset != data.ruleset:
            continue
        # Shown to the unit with the detachment chosen: the unit's link to the group, the group, the enhancement.
        for lk, where in b.groups.get(id(objs[0]), []):
            scope = where.with_army(army)
            if conditions.hidden((objs[0], lk), scope.within()) or \
                    any(conditions.hidden((o,), scope.within()) for o in objs[1:-1]) or \
                    conditions.hidden((entry,), scope.down(frame(entry))):
                continue
            bearers.append(b.id)
            break
    # In BattleScribe an entry without a points cost costs nothing (Boarding Actions' enhancements).
    pts = out.pts_of(entry) or 0
    key = re.sub(r"\s*\(Psychic\)$", "", name)  # the rules print the tag apart from the name
    record = records.enhancement(id=ids.enhancement(key, det_id, faction), name=name, ruleset=data.ruleset,
                                 detachment=det_id, points=int(pts), text=text, restriction=restriction,
                                 bearers=sorted(set(bearers)))
    if out.emit(record, data, entry) and det is not None:
        det.enhancements.setdefault(faction, []).append(record["id"])
