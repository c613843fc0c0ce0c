"""New Recruit's text exports: the '+++' family (one header, its body forms) and the simple text.

The '+++' family shares a header between banner lines of '+'::

    + FACTION KEYWORD: Chaos - World Eaters
    + DETACHMENT: Berzerker Warband (Relentless Rage)     the detachment rule's name in brackets
    + FORCE DISPOSITION: Purge the Foe                    11e
    + TOTAL ARMY POINTS: 2000pts
    + WARLORD: Char1: Khârn the Betrayer
    + ENHANCEMENT: Berzerker Glaive (on Char3: Master of Executions)
    & Battle-lust (on Char4: Slaughterbound)              '&' continues the key above

and three bodies: WTC (section headings; 'Char2: 1x Name (N pts)' then '1 with ...'
loadouts), Tournament (one line a unit, 'Name (N pts): wargear', 'Enhancement: X (+N
pts)', 'Leading Khorne Berzerkers[2]' / 'Attached to Khârn the Betrayer'), and GW-like
(the app's layout with 'pts' and '• X (+N pts)' enhancements). The header's CharN labels
need not agree with the body's, so enhancements are taken from the body, by name.

The simple text is markdown-like: '# ++ Army Roster ++ [2000 pts]', a '## Configuration'
block ('Battle Size: ...', 'Detachment: ...'), '## Category [N pts]' headings and
'Name [N pts]: wargear' units with '• Nx Model: wargear' lines. It does not mark
enhancements: they are among the wargear, and the resolver recognises them by name.
"""

from __future__ import annotations

import re

from warscribe.roster import lines as L
from warscribe.roster.model import Detachment, Enhancement, ModelLine, Named, Roster, Unit

_UNIT = re.compile(r"^(?:(?P<label>Char\d+)\s*:\s*)?(?:(?P<count>\d+)\s*x\s+)?(?P<name>.+?)\s*"
                   r"\(\s*(?P<pts>" + L.NUMBER + r")\s*pts?\s*\)\s*(?::\s*(?P<gear>.*))?$", re.I)
_ENHANCEMENT = re.compile(r"^(?:Enhancement\s*:\s*)?(?P<name>.+?)\s*\(\s*\+\s*(?P<pts>\d+)\s*pts?\s*\)\s*$", re.I)
_LOADOUT = re.compile(r"^(?P<count>\d+)\s+with\s+(?P<gear>.+)$", re.I)
_LEADING = re.compile(r"^Leading\s+(?P<name>.+?)\s*(?:\[(?P<n>\d+)\])?\s*$", re.I)
_ATTACHED = re.compile(r"^Attached to\s+(?P<name>.+?)\s*$", re.I)
_SIGNATURE = re.compile(r"^Created with newrecruit\.eu\s*(?P<version>v[\d.]+)?", re.I)
_HEADER = re.compile(r"^\+\s*(?P<key>[A-Z][A-Z ]*?)\s*:\s*(?P<value>.*)$")
_ON = re.compile(r"^(?P<name>.+?)\s*\(\s*on\s+(?:(?P<label>Char\d+)\s*:\s*)?(?P<unit>.+?)\s*\)\s*$", re.I)
_WARLORD_VALUE = re.compile(r"^(?:(?P<label>Char\d+)\s*:\s*)?(?P<name>.+)$")
_RULE_SUFFIX = re.compile(r"\s*\([^()]*\)\s*$")

_SIMPLE_UNIT = re.compile(r"^(?P<name>[^\[\]]+?)\s*\[\s*(?P<pts>" + L.NUMBER + r")\s*pts?\s*\]\s*(?::\s*(?P<gear>.*))?$",
                          re.I)
_SIMPLE_HEADING = re.compile(r"^(?P<level>#{1,3})\s*(?P<text>.*?)\s*(?:\[\s*(?P<pts>" + L.NUMBER + r")\s*pts?\s*\])?\s*$",
                             re.I)
_SIMPLE_MODEL = re.compile(r"^(?P<count>\d+)\s*x\s+(?P<name>[^:]+?)\s*(?::\s*(?P<gear>.*))?$", re.I)
_BATTLE_SIZE = re.compile(r"^(?P<name>.+?)\s*\(\s*(?P<n>" + L.NUMBER + r")\s*Points?\s*limit\s*\)\s*$", re.I)


def _section(line: L.Line) -> str | None:
    if line.indent or line.bullet:
        return None
    if L.shouted(line.text) and "(" not in line.text and ":" not in line.text:
        return L.spaced(line.text)
    return None


# -- the +++ family ----------------------------------------------------------------------


def read(text: str, roster: Roster) -> Roster:
    lines = L.split(text)
    roster.lines = len(lines)
    i = _header(lines, roster)
    _body(lines, i, roster)
    if roster.edition is None and any(d.name for d in roster.dispositions):
        roster.edition, roster.edition_evidence = "11e", "the header gives a FORCE DISPOSITION (11th edition)"
    return roster


def _header(lines: list[L.Line], roster: Roster) -> int:
    i, banners, key = 0, 0, ""
    while i < len(lines):
        line = lines[i]
        if line.blank and banners != 1:
            roster.classify("blank")
            i += 1
            continue
        if re.fullmatch(r"\+{5,}", line.raw.strip()):
            banners += 1
            roster.classify("banner")
            i += 1
            if banners == 2:
                return i
            continue
        if banners != 1:
            return i  # no (complete) header: the body starts here
        roster.classify("header")
        raw = L.spaced(line.raw)
        m = _HEADER.match(raw)
        if m:
            key, value = m.group("key").upper(), m.group("value")
        elif raw.startswith("&"):
            value = raw[1:].strip()
        elif raw.strip() == "+":
            i += 1
            continue
        else:
            roster.notes.append(Named(raw, line.no))
            i += 1
            continue
        _header_value(key, value, line.no, roster)
        i += 1
    return i


def _header_value(key: str, value: str, no: int, roster: Roster) -> None:
    value = value.strip()
    if key == "FACTION KEYWORD":
        roster.factions.append(Named(value, no))
    elif key == "DETACHMENT":
        # 'Berzerker Warband (Relentless Rage)': the bracket names the detachment's rule.
        roster.detachments.append(Detachment(_RULE_SUFFIX.sub("", value) or value, no))
    elif key == "FORCE DISPOSITION":
        roster.dispositions += [Named(v, no) for v in L.items(value)]
    elif key == "TOTAL ARMY POINTS":
        m = re.search(L.NUMBER, value)
        if m:
            roster.declared_total, roster.total_line = L.number(m.group()), no
    elif key == "WARLORD":
        m = _WARLORD_VALUE.match(value)
        roster.header_warlord = Named(m.group("name").strip(), no) if m else None
    elif key == "ENHANCEMENT":
        m = _ON.match(value)
        roster.header_enhancements.append(Named(m.group("name") if m else value, no))
    elif value:
        roster.notes.append(Named(f"{key.title()}: {value}", no))


def _body(lines: list[L.Line], i: int, roster: Roster) -> None:
    section = ""
    unit: Unit | None = None
    model: tuple[int, ModelLine] | None = None
    variant = set()
    for n in range(i, len(lines)):
        line = lines[n]
        if line.blank:
            roster.classify("blank")
            continue
        text = L.spaced(line.text)
        sig = _SIGNATURE.match(text)
        if sig:
            roster.app_version = sig.group("version")
            roster.classify("signature")
            unit = None
            continue
        sec = _section(line)
        if sec:
            section = sec
            variant.add("sections")
            roster.classify("heading")
            unit = None
            continue
        m = _UNIT.match(text) if not line.bullet and not line.indent else None
        if m and not _ENHANCEMENT.match(text):
            unit = Unit(L.spaced(m.group("name")), line.no, last_line=line.no, raw=[line.raw],
                        points=L.number(m.group("pts")), section=section, label=m.group("label"))
            if m.group("count"):
                unit.models = int(m.group("count"))
            if m.group("gear"):
                _gear(unit, m.group("gear"), line.no)
            roster.units.append(unit)
            roster.classify("unit")
            variant.add("char" if m.group("label") else "")
            model = None
            continue
        if unit is None:
            roster.free_text(text, line.no)
            continue
        roster.unit_line(unit, line.raw, line.no)
        if model is not None and line.indent <= model[0] and (line.bullet or line.indent == 0):
            model = None
        got = _unit_line(lines, n, text, unit)
        if isinstance(got, ModelLine):
            model = (line.indent, got)
        elif got and model is not None:
            model[1].wargear += got
        elif got:
            unit.wargear += [Named(g, line.no) for g in got]
    for u in roster.units:
        if u.models is None and u.model_lines:
            u.models = sum(m.count for m in u.model_lines)
    roster.variant = ("wtc" if "char" in variant else "gw") if "sections" in variant else "tournament"


def _unit_line(lines: list[L.Line], n: int, text: str, unit: Unit) -> ModelLine | list[str] | None:
    line = lines[n]
    lead = _LEADING.match(text)
    if lead and not line.bullet:
        unit.leading = Named(lead.group("name").strip(), line.no)
        unit.leading_index = int(lead.group("n")) if lead.group("n") else None
        return None
    att = _ATTACHED.match(text)
    if att and not line.bullet:
        unit.attached_to = Named(att.group("name").strip(), line.no)
        return None
    enh = _ENHANCEMENT.match(text)
    if enh:
        unit.enhancements.append(Enhancement(enh.group("name").strip(), line.no, points=int(enh.group("pts"))))
        return None
    if text.casefold() == "warlord":
        unit.warlord = True
        return None
    loadout = _LOADOUT.match(text)
    if loadout:
        return _gear_names(unit, loadout.group("gear"))
    count, rest = L.counted(text)
    if count is not None and line.bullet:
        name, _, gear = rest.partition(":")
        if gear or _children(lines, n):
            model = ModelLine(L.spaced(name), line.no, count=count)
            unit.model_lines.append(model)
            if gear:
                model.wargear += _gear_names(unit, gear)
            return model
    return _gear_names(unit, text)


def _children(lines: list[L.Line], n: int) -> bool:
    j = n + 1
    while j < len(lines) and lines[j].blank:
        j += 1
    return j < len(lines) and lines[j].indent > lines[n].indent


def _gear_names(unit: Unit, text: str) -> list[str]:
    """Wargear names of a list ('Warlord' and loadout counts taken out; 'Warlord' marks the unit)."""
    out = []
    for item in L.items(text):
        loadout = _LOADOUT.match(item)
        if loadout:
            item = loadout.group("gear")
        if item.casefold() == "warlord":
            unit.warlord = True
            continue
        out.append(L.spaced(L.counted(item)[1]))
    return out


def _gear(unit: Unit, text: str, no: int) -> None:
    unit.wargear += [Named(g, no) for g in _gear_names(unit, text)]


# -- the simple text ---------------------------------------------------------------------


def read_simple(text: str, roster: Roster) -> Roster:
    lines = L.split(text)
    roster.lines = len(lines)
    section = ""
    unit: Unit | None = None
    model: tuple[int, ModelLine] | None = None
    first = True
    for line in lines:
        if line.blank:
            roster.classify("blank")
            continue
        text = L.spaced(line.text)
        heading = _SIMPLE_HEADING.match(text) if text.startswith("#") else None
        if first and not heading:
            first = False
            m = re.match(r"^(?P<title>.*?)\s*-?\s*\[\s*(?P<pts>" + L.NUMBER + r")\s*pts?\s*\]\s*$", text, re.I)
            if m:
                # 'Chaos - World Eaters - Fiendish! (no hb) - [2000 pts]': the catalogue, then the list's name.
                title = m.group("title").rstrip(" -")
                parts = title.split(" - ")
                roster.name, roster.title_line = title, line.no
                roster.faction_candidates = [Named(" - ".join(parts[:k]), line.no) for k in range(len(parts), 0, -1)]
                roster.declared_total, roster.total_line = L.number(m.group("pts")), line.no
                roster.classify("header")
                continue
        first = False
        if heading:
            section = heading.group("text")
            if "army roster" in section.casefold():
                if heading.group("pts"):
                    roster.declared_total, roster.total_line = L.number(heading.group("pts")), line.no
                roster.classify("signature")
            else:
                roster.classify("heading")
            unit = None
            continue
        if section.casefold() == "configuration":
            roster.classify("configuration")
            label, _, value = text.partition(":")
            value = value.strip()
            if label.strip().casefold() == "battle size" and value:
                size = _BATTLE_SIZE.match(value)
                roster.battle_size = Named(size.group("name").lstrip("0123456789. ") if size else value, line.no)
                roster.points_limit = L.number(size.group("n")) if size else None
            elif label.strip().casefold() == "detachment" and value:
                roster.detachments.append(Detachment(value, line.no))
            else:
                roster.notes.append(Named(text, line.no))
            continue
        m = _SIMPLE_UNIT.match(text) if not line.bullet and not line.indent else None
        if m:
            unit = Unit(L.spaced(m.group("name")), line.no, last_line=line.no, raw=[line.raw],
                        points=L.number(m.group("pts")), section=section)
            if m.group("gear"):
                _gear(unit, m.group("gear"), line.no)
            roster.units.append(unit)
            roster.classify("unit")
            model = None
            continue
        if unit is None:
            roster.free_text(text, line.no)
            continue
        roster.unit_line(unit, line.raw, line.no)
        mm = _SIMPLE_MODEL.match(text) if line.bullet else None
        if mm:
            ml = ModelLine(L.spaced(mm.group("name")), line.no, count=int(mm.group("count")))
            if mm.group("gear"):
                ml.wargear += _gear_names(unit, mm.group("gear"))
            unit.model_lines.append(ml)
            model = (line.indent, ml)
        elif model is not None and line.indent > model[0]:
            # '  1 mauler chainblade, 7 chainblades': the model line's wargear counted out.
            model[1].wargear += [re.sub(r"^\d+\s+", "", g) for g in _gear_names(unit, text)]
        else:
            _gear(unit, text, line.no)
    for u in roster.units:
        if u.model_lines:
            u.models = sum(m.count for m in u.model_lines)
    roster.variant = "simple"
    return roster
