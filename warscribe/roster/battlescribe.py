"""BattleScribe rosters: .ros (XML) and .rosz (that XML zipped).

A roster is ``<roster gameSystemName=...><costs/><costLimits/><forces><force
catalogueName=...><selections>``; each top-level selection of a force is a unit (type
``unit`` or ``model``) or a configuration entry (type ``upgrade`` in the Configuration
category: 'Battle Size', 'Detachment Choice', 'Show Legends'). A unit's points are the
costs of its whole selection tree; its models are the ``model`` selections in it (their
``number``); its upgrades are wargear, the Warlord marker or an enhancement (an
upgrade in the Enhancements category, or one the resolver finds by name). Lines are
those of the XML (inside a .rosz, of its member, cited as ``list.rosz/list.ros``).

The XML is parsed by the BattleScribe data reader's parser, which refuses a document
type declaration (entities) and bounds the nesting.
"""

from __future__ import annotations

import re

from warscribe.extract.battlescribe.tree import DataError, parse_xml
from warscribe.roster.model import Detachment, Enhancement, ModelLine, Named, Roster, Unit
from warscribe.roster.source import RosterError

_EDITION = re.compile(r"\b(10|11)th Edition\b", re.I)
_SIZE = re.compile(r"^(?:\d+\.\s*)?(?P<name>.+?)\s*\(\s*(?P<n>\d+)\s*Points?\s*limit\s*\)\s*$", re.I)
CONFIGURATION = {"configuration"}


def _list(node, key: str) -> list:
    value = node.get(key) if isinstance(node, dict) else None
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _points(selection: dict) -> float:
    total = 0.0
    for cost in _list(selection, "costs"):
        if (cost.get("name") or "").strip().lower() == "pts":
            try:
                total += float(cost.get("value") or 0)
            except ValueError:
                pass
    for child in _list(selection, "selections"):
        total += _points(child)
    return total


def _categories(selection: dict) -> set[str]:
    return {(c.get("name") or "").strip().casefold() for c in _list(selection, "categories")}


def _number(selection: dict) -> int:
    try:
        return max(int(selection.get("number") or 1), 1)
    except ValueError:
        return 1


def read(data: bytes, roster: Roster) -> Roster:
    try:
        doc = parse_xml(data)
    except DataError as exc:
        raise RosterError("roster-xml", str(exc), line=exc.line, column=exc.column, expected=exc.expected or "well-formed XML",
                          found=exc.found) from None
    root = doc.get("roster")
    if not isinstance(root, dict):
        tag = next(iter(doc), "nothing")
        raise RosterError("roster-format", f"an XML document whose root is <{tag}>, not a BattleScribe <roster>",
                          expected="<roster> (a .ros exported by BattleScribe or New Recruit)", found=f"<{tag}>")
    roster.lines = data.count(b"\n") + 1
    roster.name = root.get("name")
    roster.title_line = root.get("$line", 1)
    system = root.get("gameSystemName") or ""
    m = _EDITION.search(system)
    if m:
        roster.edition = f"{m.group(1)}e"
        roster.edition_evidence = f"gameSystemName {system!r}"
    for cost in _list(root, "costs"):
        if (cost.get("name") or "").lower() == "pts":
            roster.declared_total, roster.total_line = int(float(cost.get("value") or 0)), cost.get("$line", 1)
    for limit in _list(root, "costLimits"):
        if (limit.get("name") or "").lower() == "pts" and float(limit.get("value") or 0) > 0:
            roster.points_limit = int(float(limit["value"]))
    text_lines = data.decode("utf-8", "replace").split("\n")
    starts: list[tuple[int, Unit]] = []
    for force in _list(root, "forces"):
        catalogue = force.get("catalogueName") or ""
        if catalogue and all(f.name != catalogue for f in roster.factions):
            roster.factions.append(Named(catalogue, force.get("$line", 1)))
        roster.data_version = roster.data_version or (f"{catalogue} revision {force.get('catalogueRevision')}"
                                                      if force.get("catalogueRevision") else None)
        allied = bool(roster.factions) and catalogue != roster.factions[0].name
        for sel in _list(force, "selections"):
            kind = (sel.get("type") or "").lower()
            line = sel.get("$line", 1)
            name = (sel.get("name") or "").strip()
            if kind == "upgrade" and (_categories(sel) & CONFIGURATION or not _list(sel, "categories")):
                _configuration(sel, roster)
                continue
            unit = Unit(name, line, points=round(_points(sel)), section=force.get("name") or "", allied=allied)
            _contents(sel, unit, top=True)
            roster.units.append(unit)
            starts.append((line, unit))
    # A unit's raw lines: from its selection's start to the line before the next one's.
    starts.sort(key=lambda s: s[0])
    for k, (line, unit) in enumerate(starts):
        end = starts[k + 1][0] - 1 if k + 1 < len(starts) else _selection_end(text_lines, line)
        unit.last_line = max(end, line)
        unit.raw = text_lines[line - 1:unit.last_line]
    roster.classify("xml", roster.lines)
    return roster


def _selection_end(text_lines: list[str], start: int) -> int:
    """The line closing the selection opened on `start` (by indentation, as BattleScribe writes it)."""
    opening = text_lines[start - 1]
    indent = len(opening) - len(opening.lstrip())
    for no in range(start, min(len(text_lines), start + 20000)):
        line = text_lines[no]
        if line.strip().startswith("</selection>") and len(line) - len(line.lstrip()) == indent:
            return no + 1
    return start


def _configuration(sel: dict, roster: Roster) -> None:
    name = (sel.get("name") or "").strip()
    choices = _list(sel, "selections")
    low = name.casefold()
    if "battle size" in low and choices:
        choice = choices[0]
        m = _SIZE.match(choice.get("name") or "")
        roster.battle_size = Named(m.group("name") if m else choice.get("name", ""), choice.get("$line", 1))
        if m and roster.points_limit is None:
            roster.points_limit = int(m.group("n"))
    elif "detachment" in low and choices:
        for choice in choices:
            roster.detachments.append(Detachment((choice.get("name") or "").strip(), choice.get("$line", 1)))
    else:
        roster.notes.append(Named(name + (": " + ", ".join(c.get("name", "") for c in choices) if choices else ""),
                                  sel.get("$line", 1)))


def _contents(sel: dict, unit: Unit, top: bool = False) -> None:
    """Models, wargear, the Warlord and enhancements of a unit's selection tree."""
    kind = (sel.get("type") or "").lower()
    if top and kind == "model":
        unit.model_lines.append(ModelLine(unit.name, sel.get("$line", 1), count=_number(sel)))
    for child in _list(sel, "selections"):
        ckind = (child.get("type") or "").lower()
        cname = (child.get("name") or "").strip()
        cats = _categories(child)
        line = child.get("$line", 1)
        if ckind == "model":
            model = ModelLine(cname, line, count=_number(child))
            model.wargear = [(g.get("name") or "").strip() for g in _list(child, "selections")]
            unit.model_lines.append(model)
            continue
        if cname.casefold() == "warlord" or "warlord" in cats:
            unit.warlord = True
            continue
        if any("enhancement" in c for c in cats):
            unit.enhancements.append(Enhancement(cname, line, points=round(_points(child)) or None))
            continue
        unit.wargear.append(Named(cname, line))
        _contents(child, unit)
    if top:
        unit.models = sum(m.count for m in unit.model_lines) or None
