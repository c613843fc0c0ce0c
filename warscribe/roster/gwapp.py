"""The Warhammer 40,000 app's text export (10th and 11th edition layouts, English and French labels).

    Khaaaarn! (1975 points)                  title and declared total
                                             header paragraph, in either order:
    World Eaters                               faction (after its parent: 'Space Marines' / 'Dark Angels')
    Strike Force (2000 points)                 battle size
    Berzerker Warband (3 Detachment Points)    detachment(s); 'A and B (3 ...)' joins two
    Force Dispositions: Purge the Foe          11e force dispositions (French: sometimes unlabelled)

    Attached Units / Attached Unit 1         groups of a leader (or support) and its bodyguard
    Slaughterbound (120 points)              a unit and its declared points
    • Attached as: Leader (Character)        its role in the group
      • Warlord
      • 1x Lacerator and daemonic claw       wargear (no bullet below it) or a model line (bullets below)
      • Enhancement: Battle-lust
    CHARACTERS / BATTLELINE / ...            section headings (ALLIED UNITS: allied units)
    Exported with App Version: v2.0.5 (128), Data Version: v886

Numbers may carry thousands separators ('1,990', '2 000'); sub-bullets may be '◦'.
Lines that are none of these are the player's free text, kept as notes.
"""

from __future__ import annotations

import re
import unicodedata

from warscribe.roster import lines as L
from warscribe.roster.model import Detachment, Enhancement, Gear, ModelLine, Named, Roster, Unit
from warscribe.schema.diagnostics import Diagnostic

_POINTS = re.compile(r"^(?P<name>.*?)\s*\(\s*(?P<n>" + L.NUMBER + r")\s*(?P<unit>points?|pts?)\s*\)\s*$", re.I)
_DETACHMENT_POINTS = re.compile(r"^(?P<name>.*?)\s*\(\s*(?P<n>\d+)\s*(?:Detachment Points?|Points? de D[ée]tachement)\s*\)\s*$",
                                re.I)
_LABEL = re.compile(r"^(?P<label>[^:]{2,40}?)\s*:\s*(?P<value>.*)$")
_SIGNATURE = re.compile(r"^(?:Exported with App Version|Export[ée] avec la Version de l.Appli)\s*:?\s*(?P<app>v?[\d.]+)?"
                        r"(?:.*?(?:Data Version|Version de Donn[ée]es)\s*:\s*(?P<data>v?[\w.]+))?", re.I)
_GROUP = re.compile(r"^(?:Attached unit\s+(?P<en>\d+)|Unit[ée]\s+(?P<fr>\d+)\s+Attach[ée]e)$", re.I)

# label (case-folded, accents kept) -> meaning; French where the app's French export uses it.
LABELS = {
    "attached as": "attached", "attachée en tant que": "attached", "attaché en tant que": "attached",
    "enhancement": "enhancement", "enhancements": "enhancement", "optimisation": "enhancement",
    "optimisations": "enhancement",
    "force dispositions": "dispositions", "force disposition": "dispositions", "dispositions des forces": "dispositions",
}
WARLORD = {"warlord", "seigneur de guerre"}
ROLES = {"leader": "leader", "meneur": "leader", "bodyguard": "bodyguard", "gardes du corps": "bodyguard",
         "garde du corps": "bodyguard", "support": "support", "soutien": "support"}
SECTIONS = {
    "characters": "CHARACTERS", "personnages": "CHARACTERS", "battleline": "BATTLELINE", "ligne": "BATTLELINE",
    "dedicated transports": "DEDICATED TRANSPORTS", "transport assigné": "DEDICATED TRANSPORTS",
    "transports assignés": "DEDICATED TRANSPORTS", "other datasheets": "OTHER DATASHEETS",
    "autres fiches techniques": "OTHER DATASHEETS", "allied units": "ALLIED UNITS", "unités alliées": "ALLIED UNITS",
    "attached units": "ATTACHED UNITS", "unités attachées": "ATTACHED UNITS",
    "fortifications": "FORTIFICATIONS",
}
FRENCH = {"attachée en tant que", "attaché en tant que", "optimisation", "optimisations", "dispositions des forces",
          "seigneur de guerre", "meneur", "gardes du corps", "personnages", "autres fiches techniques",
          "transport assigné", "unités attachées"}
_UPGRADE = re.compile(r"\s*\((?:Upgrade|Amélioration)\)\s*$", re.I)
_JOIN = re.compile(r"\s+(?:and|et)\s+")


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", L.spaced(text)).casefold()


def _section(line: L.Line) -> str | None:
    if line.indent or line.bullet or not line.text:
        return None
    known = SECTIONS.get(_key(line.text))
    if known:
        return known
    if L.shouted(line.text) and not _POINTS.match(line.text):
        return L.spaced(line.text)
    return None


def read(text: str, roster: Roster) -> Roster:
    lines = L.split(text)
    roster.lines = len(lines)
    i = _header(lines, roster)
    _body(lines, i, roster)
    _edition(roster)
    return roster


def _header(lines: list[L.Line], roster: Roster) -> int:
    """Reads the title and the header paragraph; returns the index of the first body line."""
    i = 0
    while i < len(lines) and lines[i].blank:
        roster.classify("blank")
        i += 1
    if i == len(lines):
        return i
    title = lines[i]
    m = _POINTS.match(title.text)
    if m and not title.indent and not _section(title) and not _GROUP.match(title.text):
        roster.name, roster.title_line = L.spaced(m.group("name")), title.no
        roster.declared_total, roster.total_line = L.number(m.group("n")), title.no
        roster.classify("header")
        i += 1
    else:
        return i
    while i < len(lines) and lines[i].blank:
        roster.classify("blank")
        i += 1
    block: list[L.Line] = []
    while i < len(lines) and not lines[i].blank and not _section(lines[i]) and not _GROUP.match(lines[i].text):
        block.append(lines[i])
        i += 1
    unlabelled: list[L.Line] = []
    size_at = dp_at = None
    for pos, line in enumerate(block):
        roster.classify("header")
        dp = _DETACHMENT_POINTS.match(line.text)
        label = _LABEL.match(line.text)
        points = _POINTS.match(line.text)
        if dp:
            name = L.spaced(dp.group("name"))
            parts = [p for p in _JOIN.split(name) if p] if _JOIN.search(name) else []
            roster.detachments.append(Detachment(name, line.no, int(dp.group("n")), parts))
            dp_at = pos if dp_at is None else dp_at
            if "tachement" in line.text:
                roster.language = "fr"
        elif label and LABELS.get(_key(label.group("label"))) == "dispositions":
            roster.dispositions += [Named(L.spaced(v), line.no) for v in L.items(label.group("value"))]
            if _key(label.group("label")) in FRENCH:
                roster.language = "fr"
        elif points and roster.battle_size is None:
            roster.battle_size = Named(L.spaced(points.group("name")), line.no)
            roster.points_limit = L.number(points.group("n"))
            size_at = pos
        else:
            unlabelled.append(line)
    _assign_unlabelled(unlabelled, block, size_at, dp_at, roster)
    return i


def _assign_unlabelled(unlabelled: list[L.Line], block: list[L.Line], size_at: int | None, dp_at: int | None,
                       roster: Roster) -> None:
    """Faction, detachment or disposition lines by where they stand in the header (both orders the app prints)."""
    pos = {line.no: n for n, line in enumerate(block)}
    if dp_at is not None:
        # 11e: factions come before the detachment line, unlabelled dispositions (French exports) after it.
        for line in unlabelled:
            if pos[line.no] < dp_at:
                roster.factions.append(Named(L.spaced(line.text), line.no))
            else:
                roster.dispositions.append(Named(L.spaced(line.text), line.no))
        return
    if not unlabelled:
        return
    if size_at is not None and any(pos[line.no] > size_at for line in unlabelled):
        before = [line for line in unlabelled if pos[line.no] < size_at]
        after = [line for line in unlabelled if pos[line.no] > size_at]
    else:  # the battle size last (or absent): the line just above it is the detachment
        before, after = unlabelled[:-1], unlabelled[-1:]
        if not before:  # one line only: a faction (a list without a detachment line)
            before, after = unlabelled, []
    roster.factions += [Named(L.spaced(line.text), line.no) for line in before]
    for line in after:
        name = L.spaced(line.text)
        parts = [p for p in _JOIN.split(name) if p] if _JOIN.search(name) else []
        roster.detachments.append(Detachment(name, line.no, None, parts))


def _children_bulleted(lines: list[L.Line], i: int) -> bool:
    """Whether the line after `i` (blank lines skipped) is a bullet indented deeper than line `i`."""
    j = i + 1
    while j < len(lines) and lines[j].blank:
        j += 1
    return j < len(lines) and lines[j].indent > lines[i].indent and bool(lines[j].bullet)


def _body(lines: list[L.Line], i: int, roster: Roster) -> None:
    section, group = "", None
    unit: Unit | None = None
    model: tuple[int, ModelLine] | None = None  # (indent, model line) wargear lines deeper than it belong to
    for n in range(i, len(lines)):
        line = lines[n]
        if line.blank:
            roster.classify("blank")
            continue
        sig = _SIGNATURE.match(line.text) if not line.indent else None
        if sig and ("App" in line.text or "Appli" in line.text):
            roster.classify("signature")
            roster.data_version = sig.group("data")
            if sig.group("app"):
                roster.edition_evidence = roster.edition_evidence or f"app version {sig.group('app')}"
                roster.app_version = sig.group("app")
            if "Appli" in line.text:
                roster.language = "fr"
            unit = None
            continue
        if not line.indent and not line.bullet:
            g = _GROUP.match(line.text)
            if g:
                group = int(g.group("en") or g.group("fr"))
                section = line.text
                roster.classify("heading")
                unit = None
                continue
            sec = _section(line)
            if sec:
                section = sec
                group = None if sec != "ATTACHED UNITS" else group
                roster.classify("heading")
                if _key(line.text) in FRENCH:
                    roster.language = "fr"
                unit = None
                continue
            m = _POINTS.match(line.text)
            if m:
                unit = Unit(L.spaced(m.group("name")), line.no, last_line=line.no, raw=[line.raw],
                            points=L.number(m.group("n")), section=section,
                            allied=section == "ALLIED UNITS", group=group if section != "ALLIED UNITS" else None)
                if group is None or not section.lower().startswith(("attached unit", "unité")):
                    unit.group = None
                roster.units.append(unit)
                roster.classify("unit")
                model = None
                continue
            roster.free_text(line.text, line.no)
            unit = None
            continue
        if unit is None:
            roster.free_text(line.text, line.no)
            continue
        roster.unit_line(unit, line.raw, line.no)
        if model is not None and line.indent <= model[0]:
            model = None
        got = _unit_line(lines, n, unit, roster)
        if isinstance(got, ModelLine):
            model = (line.indent, got)
        elif got and model is not None:
            model[1].wargear += [w.name for w in got]
            model[1].gear_counts.update((w.name, w.count) for w in got if w.count is not None)
        elif got:
            unit.wargear += got
    for u in roster.units:
        if u.model_lines:
            u.models = sum(m.count for m in u.model_lines)


def _unit_line(lines: list[L.Line], n: int, unit: Unit, roster: Roster) -> ModelLine | list[Named] | None:
    """Reads one line inside a unit: a model line (returned), wargear (returned, for its owner) or a label."""
    line = lines[n]
    text = line.text
    if _key(text) in WARLORD:
        unit.warlord = True
        if _key(text) in FRENCH:
            roster.language = "fr"
        return None
    label = _LABEL.match(text)
    meaning = LABELS.get(_key(label.group("label"))) if label else None
    if meaning and _key(label.group("label")) in FRENCH:
        roster.language = "fr"
    if meaning == "attached":
        value = label.group("value")
        role = re.sub(r"\s*\(.*\)\s*$", "", value).strip()
        unit.role = ROLES.get(_key(role))
        if unit.role is None:
            roster.warnings.append(Diagnostic(roster.file, line.no, "warning", "roster-unread-line",
                                              f"an attached unit's role the reader does not know: {role!r}",
                                              expected="Leader, Bodyguard or Support (Meneur, Gardes du Corps)",
                                              found=value[:100]))
        if _key(role) in FRENCH:
            roster.language = "fr"
        return None
    if meaning == "enhancement":
        value = L.spaced(label.group("value"))
        upgrade = bool(_UPGRADE.search(value))
        unit.enhancements.append(Enhancement(_UPGRADE.sub("", value), line.no, upgrade=upgrade))
        return None
    count, name = L.counted(text)
    if count is not None and line.bullet and _children_bulleted(lines, n):
        model = ModelLine(L.spaced(name), line.no, count=count)
        unit.model_lines.append(model)
        return model
    return [Gear(L.spaced(name), line.no, count=n) for n, name in map(L.counted, L.items(text))]


def _edition(roster: Roster) -> None:
    markers = []
    if any(d.points is not None for d in roster.detachments):
        markers.append("detachment points")
    if roster.dispositions:
        markers.append("force dispositions")
    if any(u.role for u in roster.units):
        markers.append("'Attached as' roles")
    if markers:
        roster.edition, roster.edition_evidence = "11e", "the list gives " + ", ".join(markers) + " (11th edition)"
        return
    version = roster.app_version
    if version:
        major = re.match(r"v?(\d+)", version)
        if major:
            roster.edition = "10e" if int(major.group(1)) < 2 else "11e"
            roster.edition_evidence = (f"app version {version} (the app's 10th-edition releases are v1.x, "
                                       "its 11th-edition ones v2.x)")
