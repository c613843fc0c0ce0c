"""Datasheet pages: the unit's own sections at the top, then the page's tooltips.

A scraped datasheet page has two parts. The top is the datasheet itself, in
labelled sections (RANGED WEAPONS, ABILITIES, UNIT COMPOSITION, KEYWORDS ...) and
the page's lists (STRATAGEMS, DETACHMENT ABILITY, ENHANCEMENTS) that give names
whose texts come later. The rest is every tooltip the page carried, in no useful
order: core rules, abilities, full stratagem texts, detachment rules, enhancement
texts, keyword-usage lists. :func:`parse_page` splits the top into sections and
hands the rest to :mod:`extract.blocks`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.schema.abilities import Problem, split_weapon_name
from warscribe.extract.blocks import Block, parse_blocks
from warscribe.schema.diagnostics import Report
from warscribe.extract.lines import Document, Line
from warscribe.extract.text import check_text
from warscribe.schema.text import clean_name

SECTION_MARKERS = {
    "WARGEAR OPTIONS": "wargear-options",
    "ABILITIES": "abilities",
    "WARGEAR ABILITIES": "wargear-abilities",
    "UNIT COMPOSITION": "composition",
    "STRATAGEMS": "stratagems",
    "DETACHMENT ABILITY": "detachment-rules",
    "ENHANCEMENTS": "enhancements",
    "LED BY": "led-by",
    "LEADER": "leader",
    "FACTION KEYWORDS:": "faction-keywords",
}
_WEAPON_HEADER = re.compile(r"^(RANGED|MELEE) WEAPONS\s*\|")
_KEYWORDS = re.compile(r"^KEYWORDS:\s*(.*)$")
_CP = re.compile(r"^(\d+)\s*CP$")
_STRAT_ORIGIN = re.compile(r"^(?P<det>.*?\S)(?:\s+[–-]\s+(?P<cat>Battle Tactic|Strategic Ploy|Epic Deed|Wargear))?$")
_STRAT_NAME = re.compile(r"^[A-Z0-9‘’'\-\u2011 !,]+$")
_INT = re.compile(r"^\d+$")


@dataclass
class Weapon:
    name: str
    type: str
    cells: list[str]
    abilities: list[dict]
    lines: list[Line]
    problems: list[Problem]


@dataclass
class ListedStratagem:
    name: str
    cp: int
    origin: str  # as printed: 'Augurium Task Force', 'Core', 'Boarding Actions'
    category: str | None
    marker: str | None  # 'BA' / 'C'
    lines: list[Line]


@dataclass
class PointsRow:
    models: int
    points: int
    condition: str | None
    lines: list[Line]


@dataclass
class PageParse:
    doc: Document
    faction: str
    name: str
    title_line: Line
    weapons: list[Weapon] = field(default_factory=list)
    wargear_options: list[Line] = field(default_factory=list)
    abilities: list[tuple[str, str, str | None, list[Line]]] = field(default_factory=list)  # (type, name, text, lines)
    composition: list[tuple[str, int, int, Line]] = field(default_factory=list)
    points: list[PointsRow] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    keyword_lines: list[Line] = field(default_factory=list)
    faction_keywords: list[str] = field(default_factory=list)
    faction_keyword_lines: list[Line] = field(default_factory=list)
    leader: tuple[str, list[str], list[Line]] | None = None
    led_by: tuple[str, list[str], list[Line]] | None = None
    stratagems: list[ListedStratagem] = field(default_factory=list)
    detachment_rules: list[Line] = field(default_factory=list)
    enhancements: list[tuple[str, int, list[Line]]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    # Parsing state: continuation paragraphs by ability index, the cost table's condition row.
    continued: dict[int, list[str]] = field(default_factory=dict, repr=False)
    cost_condition: str | None = field(default=None, repr=False)


def _section_of(line: Line) -> str | None:
    text = line.text.strip()
    if _WEAPON_HEADER.match(text):
        return "weapons"
    if _KEYWORDS.match(text):
        return "keywords"
    return SECTION_MARKERS.get(text)


def parse_page(doc: Document, report: Report) -> PageParse | None:
    lines = [ln for ln in doc.lines if ln.use is None]
    if not lines:
        report.error(doc.path, 1, "empty-source", "page has no content")
        return None
    title = lines[0]
    m = re.match(r"^(?P<faction>.+?)\s+[–-]\s+(?P<name>.+)$", title.text)
    if not m:
        report.error(doc.path, title.no, "bad-title", "a datasheet page starts with 'Faction – Unit name'",
                     expected="Faction – Unit name", found=title.text)
        return None
    page = PageParse(doc, clean_name(m.group("faction")), clean_name(m.group("name")), title)
    title.mark("datasheet-title")

    i = 1
    section: str | None = None
    weapon_type = "ranged"
    junk_start: int | None = None  # first of a run of lines the current section did not take
    while i < len(lines):
        line = lines[i]
        text = line.text.strip()
        new = _section_of(line)
        if new:
            junk_start = None
            section = new
            if new == "weapons":
                weapon_type = "ranged" if text.startswith("RANGED") else "melee"
                line.classify("heading")
            elif new == "keywords":
                kws = _KEYWORDS.match(text).group(1)
                page.keywords = [k.strip().upper() for k in re.split(r"[;,]", kws) if k.strip()]
                page.keyword_lines.append(line)
            elif new in ("leader", "led-by"):
                i += _parse_attachment(page, lines, i, new, report)
                continue
            else:
                line.classify("heading")
            i += 1
            continue
        if section is None:
            report.warning(doc.path, line.no, "unknown-section", "line before the first datasheet section",
                           expected="RANGED WEAPONS, MELEE WEAPONS or another section label", found=text)
            i += 1
            continue
        consumed = _HANDLERS[section](page, lines, i, weapon_type, report)
        if consumed == 0:
            if section in _UNIT_SECTIONS and junk_start is None:
                # Not this section's: stray lines (left unaccounted, so reported) if the
                # section or another datasheet section goes on right after them.
                junk_start = i
            if junk_start is None or i - junk_start >= _MAX_STRAY:
                i = junk_start if junk_start is not None else i
                break
            i += 1
            continue
        junk_start = None
        i += consumed
    else:
        if junk_start is not None:
            i = junk_start
    _join_continuations(page)
    page.blocks = parse_blocks(doc, lines[i:], report)
    return page


# Each handler returns how many lines it consumed; 0 means the line does not belong
# to the section. In the unit's own sections (weapons ... composition, always followed
# by another datasheet section) up to _MAX_STRAY such lines are strays when the section,
# or the next one, goes on after them: they stay unaccounted (and so are reported), and
# never end the datasheet. Elsewhere, and after more strays, the datasheet part ends and
# the page's tooltips begin.
_UNIT_SECTIONS = {"weapons", "wargear-options", "abilities", "wargear-abilities", "composition"}
_MAX_STRAY = 3

def _weapons(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    line = lines[i]
    if line.cells is None:
        return 0
    cells = line.cells
    name_cell = cells[0] if cells else ""
    if len(cells) < 2 or not name_cell:
        report.warning(page.doc.path, line.no, "bad-weapon-row", "weapon row without a name cell",
                       expected="| name | range | A | BS/WS | S | AP | D |", found=line.text)
        line.classify("lost-table")
        return 1
    stats = [c for c in cells[1:]]
    filled = [c for c in stats if c]
    previous = page.weapons[-1] if page.weapons else None
    if not filled:
        # The name-only header row that precedes each profile row.
        name, abilities, problems = split_weapon_name(name_cell)
        page.weapons.append(Weapon(name, wtype, [], abilities, [line], problems))
        return 1
    if previous is not None and not previous.cells and split_weapon_name(name_cell)[0] == previous.name:
        previous.cells = filled
        previous.lines.append(line)
    else:
        name, abilities, problems = split_weapon_name(name_cell)
        page.weapons.append(Weapon(name, wtype, filled, abilities, [line], problems))
    if len(filled) != 6:
        report.error(page.doc.path, line.no, "bad-weapon-row", f"weapon profile has {len(filled)} characteristics",
                     expected="6 cells: range, A, BS/WS, S, AP, D", found=line.text)
    return 1


def _wargear_options(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    line = lines[i]
    if line.cells is not None:
        return 0
    page.wargear_options.append(line)
    return 1


_ABILITY_LINE = re.compile(r"^(?P<name>[A-Z][^:]{1,60}?)(?P<psychic>\s*\(Psychic\))?:\s*(?P<text>.+)$")


def _abilities(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report,
               kind: str = "datasheet") -> int:
    line = lines[i]
    text = line.text.strip()
    m = re.match(r"^(CORE|FACTION):\s*(.+)$", text)
    if m:
        for name in re.split(r",\s*", m.group(2)):
            page.abilities.append((m.group(1).lower(), name.strip(), None, [line]))
        return 1
    m = _ABILITY_LINE.match(text)
    if m:
        name = m.group("name").strip() + (" (Psychic)" if m.group("psychic") else "")
        page.abilities.append((kind, name, m.group("text").strip(), [line]))
        check_text(report, page.doc.path, line.no, m.group("text"), line.col)
        return 1
    if page.abilities and line.cells is None and not _section_of(line):
        # A continuation paragraph of the previous ability: its paragraphs are joined once,
        # at the end of the page (joining here would copy the growing text for every line).
        index = len(page.abilities) - 1
        page.abilities[index][3].append(line)
        page.continued.setdefault(index, []).append(text)
        return 1
    report.warning(page.doc.path, line.no, "bad-ability", "ability line without 'Name: text'",
                   expected="Name: text, or CORE:/FACTION: list", found=text)
    return 0


def _wargear_abilities(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    return _abilities(page, lines, i, wtype, report, kind="wargear")


def _join_continuations(page: PageParse) -> None:
    for index, paragraphs in page.continued.items():
        kind, name, first, plines = page.abilities[index]
        page.abilities[index] = (kind, name, "\n\n".join(([first or ""]) + paragraphs), plines)
    page.continued.clear()


_COMPOSITION = re.compile(r"^[-•]\s*(?P<min>\d+)(?:\s*-\s*(?P<max>\d+))?\s+(?P<name>.+)$")
_POINTS = re.compile(r"^(?P<models>\d+)\s+models?$")


def _composition(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    line = lines[i]
    text = line.text.strip()
    cells = line.cells
    if cells is None or (not _POINTS.match(cells[0]) and cells[0] != "YOUR UNIT COSTS"):
        # A cost row's condition is the label row above its table ('Assigned Agent | |').
        page.cost_condition = cells[0] if cells and cells[0] and not any(cells[1:]) else None
    m = _COMPOSITION.match(text)
    if m and cells is None:
        lo = int(m.group("min"))
        hi = int(m.group("max") or lo)
        page.composition.append((m.group("name").strip(), lo, hi, line))
        return 1
    if cells is not None:
        label = cells[0]
        pm = _POINTS.match(label)
        if pm and len(cells) > 1 and _INT.match(cells[1]):
            page.points.append(PointsRow(int(pm.group("models")), int(cells[1]), page.cost_condition, [line]))
            return 1
        if label == "YOUR UNIT COSTS" or not any(cells[1:]):
            line.classify("heading")
            return 1
    report.warning(page.doc.path, line.no, "bad-composition", "line in UNIT COMPOSITION is neither a model count nor a cost",
                   expected="'- 3-9 Paladins' or '| 5 models | 225 |'", found=text)
    return 0


def _parse_attachment(page: PageParse, lines: list[Line], i: int, which: str, report: Report) -> int:
    heading = lines[i]
    heading.classify("heading")
    j = i + 1
    text = ""
    used = [heading]
    if j < len(lines) and lines[j].text.rstrip().endswith(":"):
        text = lines[j].text.strip()
        used.append(lines[j])
        j += 1
    units: list[str] = []
    while j < len(lines) and lines[j].text.startswith("- ") and not _section_of(lines[j]):
        units.append(lines[j].text[2:].strip())
        used.append(lines[j])
        j += 1
    if not units:
        report.warning(page.doc.path, heading.no, "empty-list",
                       f"{heading.text} lists no units: the list was lost in scraping",
                       expected="one or more unit names", found=text or heading.text)
    value = (text, units, used)
    if which == "leader":
        page.leader = value
    else:
        page.led_by = value
    return j - i


def _faction_keywords(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    line = lines[i]
    text = line.text.strip()
    if page.faction_keywords and text.upper() in page.faction_keywords:
        line.classify("duplicate")
        return 1
    if not re.match(r"^[A-Z0-9 ,;’'\-]+$", text):
        return 0
    page.faction_keywords.extend(k.strip() for k in re.split(r"[;,]", text) if k.strip())
    page.faction_keyword_lines.append(line)
    return 1


def _end_of_datasheet(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    """KEYWORDS, LEADER and LED BY are one line or list each; what follows them is not theirs."""
    return 0


def _stratagems(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    if i + 2 >= len(lines):
        return 0
    name, cp, origin = lines[i], lines[i + 1], lines[i + 2]
    cpm = _CP.match(cp.text.strip())
    # A full text ('... – Battle Tactic Stratagem') right after the list ends the list.
    if not (_STRAT_NAME.match(name.text.strip()) and cpm) or origin.text.strip().endswith(" Stratagem"):
        return 0
    om = _STRAT_ORIGIN.match(origin.text.strip())
    used = [name, cp, origin]
    marker = None
    if i + 3 < len(lines) and lines[i + 3].text.strip() in ("BA", "C"):
        marker = lines[i + 3].text.strip()
        used.append(lines[i + 3])
    page.stratagems.append(ListedStratagem(clean_name(name.text), int(cpm.group(1)), om.group("det").strip(),
                                           om.group("cat"), marker, used))
    return len(used)


def _detachment_rules(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    line = lines[i]
    text = line.text.strip()
    # Names are short Title-case lines; an all-caps line is the first tooltip.
    if line.cells is not None or text.isupper() or len(text) > 50 or text.endswith((".", ":")):
        return 0
    page.detachment_rules.append(line)
    return 1


def _enhancements(page: PageParse, lines: list[Line], i: int, wtype: str, report: Report) -> int:
    if i + 1 >= len(lines):
        return 0
    name, cost = lines[i], lines[i + 1]
    if not _INT.match(cost.text.strip()) or name.cells is not None:
        return 0
    page.enhancements.append((clean_name(name.text), int(cost.text.strip()), [name, cost]))
    return 2


_HANDLERS = {
    "weapons": _weapons,
    "wargear-options": _wargear_options,
    "abilities": _abilities,
    "wargear-abilities": _wargear_abilities,
    "composition": _composition,
    "keywords": _end_of_datasheet,
    "leader": _end_of_datasheet,
    "led-by": _end_of_datasheet,
    "faction-keywords": _faction_keywords,
    "stratagems": _stratagems,
    "detachment-rules": _detachment_rules,
    "enhancements": _enhancements,
}
