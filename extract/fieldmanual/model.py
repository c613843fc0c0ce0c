"""The Munitorum Field Manual's entries, read from its YAML and checked, each with its place.

A faction file gives the faction's ``detachments`` (``dp``, ``objective`` = Force
Disposition, ``unique`` tag, ``enhancements`` with points) and ``units`` (``pricing``: one
tier per requisition range, ``"[1,2]"`` then ``"[3,)"``, each with its costs per size;
``role`` leader or support with ``attachTo``; ``legends``; ``wargear`` costs). Every value
of another shape than these is reported where it is (file, line, what was expected, what was
found) and left out, the rest of the entry kept when it still makes sense; keys the reader
does not know are reported, not ignored. Where the manual contradicts itself (tiers of
different sizes, a later tier cheaper, a range left unpriced, an entry given twice) it is
said, and the values are kept as printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.extract.fieldmanual.source import META, File
from warscribe.extract.sources_merge import folded_name
from warscribe.schema.diagnostics import Report

# "[1,2]", "[3,)": the selections a tier prices; either bracket may be open or closed.
_RANGE = re.compile(r"\s*([\[(])\s*(\d{1,6})\s*,\s*(\d{0,6})\s*([\])])\s*")
_UPGRADE = re.compile(r"\s*\(\s*upgrade\s*\)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Cost:
    models: int
    points: int
    desc: str | None  # a composition note ("1 Sword Brother, 4 Neophytes, 5 Initiates"), or the add-on's name
    addon: bool  # a model bought on top of the unit (an Invader ATV), not a size of it
    line: int


@dataclass(frozen=True)
class Tier:
    first: int  # the first selection of the unit this tier prices
    last: int | None  # its last, None: every later one
    label: str | None
    costs: tuple[Cost, ...]
    line: int

    @property
    def from_copy(self) -> int | None:
        """The requisition threshold as records write it: None from the first selection."""
        return None if self.first <= 1 else self.first

    def sizes(self) -> tuple[int, ...]:
        return tuple(sorted(c.models for c in self.costs if not c.addon))


@dataclass(frozen=True)
class Wargear:
    item: str
    points: int
    line: int


@dataclass
class Unit:
    name: str
    faction: str  # the name of the faction file it is in
    group: str | None  # groupTitle: the army whose unit it is ("Space Marines" in Black Templars)
    tiers: list[Tier]
    role: str | None  # "leader" or "support"
    attach_to: list[str]
    legends: bool
    wargear: list[Wargear]
    file: str
    line: int
    last_line: int
    # Costs under a heading of their own, given as the unit again ("Every Model Has The Imperium
    # Keyword": what an Imperial Agents unit costs in an army of that kind): (heading, tiers).
    headed: list[tuple[str, list[Tier]]] = field(default_factory=list)

    def points_entries(self) -> list[dict]:
        """The unit's costs as a datasheet's `points` entries, first tier first.

        Where a tier prices one size twice, told apart by its composition note (6 Wolf Guard
        Headtakers, or 3 with 3 Hunting Wolves), the note is the entry's `condition`."""
        out = []
        for heading, tiers in [(None, self.tiers), *self.headed]:
            for t in tiers:
                sizes = t.sizes()
                for c in t.costs:
                    if not c.addon:
                        condition = c.desc if c.desc and sizes.count(c.models) > 1 else None
                        if heading:
                            condition = f"{heading}: {condition}" if condition else heading
                        out.append({"models": c.models, "points": c.points, "condition": condition,
                                    "from_copy": t.from_copy})
        return out

    def extra_points(self) -> list[dict]:
        """Add-on models (named by their note) and wargear, as a datasheet's `extra_points`, once each."""
        out: list[dict] = []
        for tier in self.tiers:
            for c in tier.costs:
                if c.addon:
                    entry = {"name": c.desc or "add-on model", "points": c.points}
                    if entry not in out:
                        out.append(entry)
        for w in self.wargear:
            entry = {"name": w.item, "points": w.points}
            if entry not in out:
                out.append(entry)
        return out


@dataclass
class Enhancement:
    name: str  # "(Upgrade)" left off, as records write it
    points: int | None
    upgrade: bool
    lead: list[str]  # leaderTo/supportTo: units the bearer may join (no record field holds it)
    file: str
    line: int


@dataclass
class Detachment:
    name: str
    faction: str
    dp: int | None
    objective: str | None
    unique: str | None
    enhancements: list[Enhancement]
    file: str
    line: int
    last_line: int


@dataclass
class Faction:
    name: str
    slug: str | None
    parent: str | None
    version: str | None
    detachments: list[Detachment]
    units: list[Unit]
    file: str
    line: int


@dataclass
class Manual:
    source: str  # the source as cited
    version: str | None
    last_updated: str | None
    notes: str | None
    factions: list[Faction] = field(default_factory=list)

    def units(self) -> list[Unit]:
        return [u for f in self.factions for u in f.units]

    def detachments(self) -> list[Detachment]:
        return [d for f in self.factions for d in f.detachments]


def parse_range(text: str) -> tuple[int, int | None] | None:
    """An interval of selections ("[1,2]", "[3,)", "(0,2]") as (first, last or None); None if it is not one."""
    m = _RANGE.fullmatch(text)
    if not m:
        return None
    low, high = int(m[2]), m[3]
    first = low if m[1] == "[" else low + 1
    if not high:
        return (first, None) if m[4] == ")" else None  # "[3,]" says nothing of its end
    last = int(high) if m[4] == "]" else int(high) - 1
    return (first, last) if first >= 1 and last >= first else None


class _Reader:
    """Checks values of one file, reporting each unexpected shape at its line."""

    def __init__(self, file: str, report: Report):
        self.file, self.report = file, report

    def bad(self, line: int, what: str, expected: str, found, error: bool = True) -> None:
        shown = found if isinstance(found, str) else repr(found)
        (self.report.error if error else self.report.warning)(
            self.file, line, "bad-field-manual", what, expected=expected, found=shown[:200])

    def mapping(self, value, line: int, what: str):
        if isinstance(value, dict) and hasattr(value, "lines"):
            return value
        self.bad(getattr(value, "line", line), f"{what} is not a mapping; left out", "a mapping (key: value)", value)
        return None

    def items(self, parent, key: str, what: str) -> list[tuple[object, int]]:
        """The items of list `parent[key]` with their lines (nothing, reported, if it is not a list)."""
        value = parent.get(key)
        if value is None:
            return []
        if not isinstance(value, list) or not hasattr(value, "lines"):
            self.bad(parent.lines.get(key, parent.line), f"{what}: '{key}' is not a list; left out", "a list", value)
            return []
        return list(zip(value, value.lines))

    def text(self, m, key: str, what: str, required: bool = False) -> str | None:
        value = m.get(key)
        if value is None:
            if required:
                self.bad(m.line, f"{what} has no '{key}'", f"'{key}': a text", "nothing")
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)  # version: 1.1 unquoted
        if not isinstance(value, str) or not value.strip():
            self.bad(m.lines.get(key, m.line), f"{what}: '{key}' is not a text; left out", "a text", value)
            return None
        return value.strip()

    def number(self, m, key: str, what: str, required: bool = False, least: int = 0) -> int | None:
        value = m.get(key)
        if value is None:
            if required:
                self.bad(m.line, f"{what} has no '{key}'", f"'{key}': a whole number", "nothing")
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            self.bad(m.lines.get(key, m.line), f"{what}: '{key}' is not a whole number of at least {least}; left out",
                     f"a whole number >= {least}", value)
            return None
        return value

    def flag(self, m, key: str, what: str) -> bool:
        value = m.get(key, False)
        if not isinstance(value, bool):
            self.bad(m.lines.get(key, m.line), f"{what}: '{key}' is not true or false; taken as false", "true or false",
                     value)
            return False
        return value

    def names(self, m, key: str, what: str) -> list[str]:
        out = []
        for value, line in self.items(m, key, what):
            if isinstance(value, str) and value.strip():
                out.append(value.strip())
            else:
                self.bad(line, f"{what}: an item of '{key}' is not a name; left out", "a unit's name", value)
        return out

    def unknown(self, m, known: tuple[str, ...], what: str) -> None:
        for key in m:
            if key not in known:
                self.bad(m.lines.get(key, m.line), f"{what}: unknown key {key!r}; not read",
                         f"one of {', '.join(known)}", str(key), error=False)


_FACTION_KEYS = ("name", "slug", "version", "firstSeen", "parent", "detachments", "units")
_META_KEYS = ("version", "lastUpdated", "notes", "factions")
_UNIT_KEYS = ("name", "groupTitle", "pricing", "role", "attachTo", "legends", "wargear")
_TIER_KEYS = ("range", "label", "costs")
_COST_KEYS = ("models", "points", "desc", "addon")
_DETACHMENT_KEYS = ("name", "dp", "objective", "unique", "enhancements")
_ENHANCEMENT_KEYS = ("name", "points", "leaderTo", "supportTo")
ROLES = ("leader", "support")


def read_manual(files: list[File], display: str, report: Report) -> Manual:
    """The manual in `files` (``source.open_manual``): meta.yaml and the faction files beside it."""
    metas = [f for f in files if f.path.rsplit("/", 1)[-1] == META]
    manual = Manual(display, None, None, None)
    folder = listed = None
    if len(metas) != 1:
        report.error(metas[1].cited if metas else display, 1, "bad-field-manual",
                     f"{len(metas)} {META} files in the source; the manual's version is unknown",
                     expected=f"one {META} beside the faction files", found=f"{len(metas)}")
    else:
        folder = metas[0].path.rpartition("/")[0]
        listed = _read_meta(metas[0], manual, report)
    for f in files:
        if f in metas:
            continue
        if folder is not None and f.path.rpartition("/")[0] != folder:
            report.warning(f.cited, 1, "bad-field-manual", f"{f.path} is not beside {META}; not read as a faction file",
                           expected=f"faction files in the folder of {META}", found=f.path)
            continue
        faction = _read_faction(f, report)
        if faction is not None:
            manual.factions.append(faction)
            if manual.version and faction.version and faction.version != manual.version:
                report.warning(f.cited, 1, "field-manual-inconsistent",
                               f"{faction.name} is of version {faction.version}, the manual of {manual.version}",
                               expected=manual.version, found=faction.version)
    if listed is not None:
        slugs = {f.path.rsplit("/", 1)[-1].rsplit(".", 1)[0] for f in files if f not in metas}
        for slug, line in listed:
            if slug not in slugs:
                report.warning(metas[0].cited, line, "bad-field-manual",
                               f"{META} lists faction {slug!r}, and no file {slug}.yaml is read",
                               expected=f"{slug}.yaml", found="nothing")
        for slug in sorted(slugs - {s for s, _ in listed}):
            report.warning(metas[0].cited, 1, "bad-field-manual", f"{slug}.yaml is read, and {META} does not list it",
                           expected="a faction the meta file lists", found=slug)
    _report_duplicates([(f.name, f.file, f.line) for f in manual.factions], "faction", report)
    return manual


def _read_meta(f: File, manual: Manual, report: Report) -> list[tuple[str, int]] | None:
    r = _Reader(f.cited, report)
    m = r.mapping(f.document, 1, META)
    if m is None:
        return None
    r.unknown(m, _META_KEYS, META)
    manual.version = r.text(m, "version", META, required=True)
    updated = m.get("lastUpdated")
    if hasattr(updated, "isoformat"):
        manual.last_updated = updated.isoformat()
    else:
        manual.last_updated = r.text(m, "lastUpdated", META, required=True)
    manual.notes = r.text(m, "notes", META)
    if m.get("factions") is None:
        r.bad(m.line, f"{META} lists no factions", "'factions': the faction files' names", "nothing", error=False)
        return None
    listed = []
    for value, line in r.items(m, "factions", META):
        if isinstance(value, str) and value.strip():
            listed.append((value.strip(), line))
        else:
            r.bad(line, "an item of 'factions' is not a file's name; left out", "a faction's slug", value)
    return listed


def _read_faction(f: File, report: Report) -> Faction | None:
    r = _Reader(f.cited, report)
    m = r.mapping(f.document, 1, f.path)
    if m is None:
        return None
    r.unknown(m, _FACTION_KEYS, "the faction")
    name = r.text(m, "name", "the faction", required=True)
    if name is None:
        r.bad(m.line, "a faction file without a name is not read", "'name': the faction's name", "nothing")
        return None
    faction = Faction(name, r.text(m, "slug", name), r.text(m, "parent", name), r.text(m, "version", name), [], [],
                      f.cited, m.line)
    for value, line in r.items(m, "detachments", name):
        d = _read_detachment(r, value, line, name)
        if d is not None:
            faction.detachments.append(d)
    for value, line in r.items(m, "units", name):
        u = _read_unit(r, value, line, name)
        if u is not None:
            faction.units.append(u)
    _report_duplicate_units(faction.units, report)
    _report_duplicates([(d.name, d.file, d.line) for d in faction.detachments], f"detachment of {name}", report)
    return faction


def _read_unit(r: _Reader, value, line: int, faction: str) -> Unit | None:
    m = r.mapping(value, line, f"a unit of {faction}")
    if m is None:
        return None
    name = r.text(m, "name", f"a unit of {faction}", required=True)
    if name is None:
        return None
    what = f"unit {name!r}"
    r.unknown(m, _UNIT_KEYS, what)
    tiers = [t for v, ln in r.items(m, "pricing", what) if (t := _read_tier(r, v, ln, what)) is not None]
    if not tiers:
        r.bad(m.lines.get("pricing", m.line), f"{what} has no price the reader can use", "'pricing': a list of tiers",
              m.get("pricing", "nothing"))
    role = m.get("role")
    if role is not None and role not in ROLES:
        r.bad(m.lines.get("role", m.line), f"{what}: unknown role; left out", " or ".join(ROLES), role)
        role = None
    attach = r.names(m, "attachTo", what)
    if role and not attach:
        r.bad(m.lines.get("role", m.line), f"{what} is a {role} and names no unit it is attached to",
              "'attachTo': a list of units", "nothing", error=False)
    if attach and not role:
        r.bad(m.lines.get("attachTo", m.line), f"{what} names units to attach to, and no role; the list is not used",
              "'role': leader or support", "nothing", error=False)
    wargear = []
    for v, ln in r.items(m, "wargear", what):
        w = r.mapping(v, ln, f"{what}: a wargear cost")
        if w is None:
            continue
        r.unknown(w, ("item", "points"), f"{what}: a wargear cost")
        item, points = r.text(w, "item", f"{what}: a wargear cost", True), r.number(w, "points", f"{what}: wargear", True)
        if item is not None and points is not None:
            wargear.append(Wargear(item, points, w.line))
    unit = Unit(name, faction, r.text(m, "groupTitle", what), tiers, role, attach if role else [],
                r.flag(m, "legends", what), wargear, r.file, m.line, m.last_line)
    _check_tiers(r, unit)
    return unit


def _read_tier(r: _Reader, value, line: int, what: str) -> Tier | None:
    t = r.mapping(value, line, f"{what}: a pricing tier")
    if t is None:
        return None
    r.unknown(t, _TIER_KEYS, f"{what}: a pricing tier")
    text = t.get("range")
    bounds = parse_range(text) if isinstance(text, str) else None
    if bounds is None:
        r.bad(t.lines.get("range", t.line), f"{what}: a tier's range is not an interval of selections; tier left out",
              "'[1,2]' or '[3,)' (first and last selection, ')' for no last)", text if text is not None else "nothing")
        return None
    costs = []
    for v, ln in r.items(t, "costs", what):
        c = r.mapping(v, ln, f"{what}: a cost")
        if c is None:
            continue
        r.unknown(c, _COST_KEYS, f"{what}: a cost")
        models, points = r.number(c, "models", f"{what}: a cost", True, 1), r.number(c, "points", f"{what}: a cost", True)
        if models is not None and points is not None:
            costs.append(Cost(models, points, r.text(c, "desc", f"{what}: a cost"), r.flag(c, "addon", what), c.line))
    if not costs:
        r.bad(t.lines.get("costs", t.line), f"{what}: a tier without a cost the reader can use; tier left out",
              "'costs': a list of {models, points}", t.get("costs", "nothing"))
        return None
    return Tier(bounds[0], bounds[1], r.text(t, "label", what), tuple(costs), t.line)


def _check_tiers(r: _Reader, unit: Unit) -> None:
    """The manual against itself: tiers that meet end to end from the first selection, of the same sizes, dearer later."""
    def say(line, message, expected, found):
        r.report.warning(r.file, line, "field-manual-inconsistent", f"unit {unit.name!r}: {message}",
                         expected=expected, found=found)

    tiers = sorted(unit.tiers, key=lambda t: t.first)
    for t in tiers:
        told = [(c.models, c.desc) for c in t.costs if not c.addon]
        if len(set(told)) != len(told):
            say(t.line, "a tier gives one size twice, not told apart by a note", "one cost per size (and note)",
                ", ".join(f"{m}" + (f" ({d})" if d else "") for m, d in told))
    if not tiers:
        return
    if tiers[0].first != 1:
        say(tiers[0].line, f"no tier prices selections 1 to {tiers[0].first - 1}", "a first tier from [1,",
            f"[{tiers[0].first},")
    for before, after in zip(tiers, tiers[1:]):
        if before.last is None or after.first <= before.last:
            say(after.line, "two tiers price the same selections", "tiers one after another",
                f"from {before.first} and from {after.first}")
        elif after.first > before.last + 1:
            say(after.line, f"selections {before.last + 1} to {after.first - 1} have no tier", f"a tier from {before.last + 1}",
                f"a tier from {after.first}")
        if after.sizes() != before.sizes():
            say(after.line, "its requisition tiers list different sizes", f"sizes {before.sizes()} as the tier before",
                f"sizes {after.sizes()}")
        cheaper = {(c.models, c.desc): c.points for c in before.costs if not c.addon}
        for c in after.costs:
            was = cheaper.get((c.models, c.desc))
            if not c.addon and was is not None and c.points < was:
                say(c.line, f"{c.models} models cost less from selection {after.first} than before",
                    f"at least {was} points", f"{c.points} points")
    if tiers[-1].last is not None:
        say(tiers[-1].line, f"no tier prices selection {tiers[-1].last + 1} or later", "a last tier open-ended (',)')",
            f"the last ends at {tiers[-1].last}")


def _read_detachment(r: _Reader, value, line: int, faction: str) -> Detachment | None:
    m = r.mapping(value, line, f"a detachment of {faction}")
    if m is None:
        return None
    name = r.text(m, "name", f"a detachment of {faction}", required=True)
    if name is None:
        return None
    what = f"detachment {name!r}"
    r.unknown(m, _DETACHMENT_KEYS, what)
    enhancements = []
    for v, ln in r.items(m, "enhancements", what):
        e = r.mapping(v, ln, f"{what}: an enhancement")
        if e is None:
            continue
        r.unknown(e, _ENHANCEMENT_KEYS, f"{what}: an enhancement")
        printed = r.text(e, "name", f"{what}: an enhancement", True)
        if printed is None:
            continue
        bare = _UPGRADE.sub("", printed)
        lead = r.names(e, "leaderTo", f"enhancement {printed!r}") + r.names(e, "supportTo", f"enhancement {printed!r}")
        enhancements.append(Enhancement(bare or printed, r.number(e, "points", f"enhancement {printed!r}", True),
                                        bare != printed, lead, r.file, e.line))
    _report_duplicates([(e.name, e.file, e.line) for e in enhancements], f"enhancement of {name}", r.report)
    return Detachment(name, faction, r.number(m, "dp", what, True), r.text(m, "objective", what, True),
                      r.text(m, "unique", what), enhancements, r.file, m.line, m.last_line)


def _report_duplicates(entries: list[tuple[str, str, int]], what: str, report: Report) -> None:
    first: dict[str, tuple[str, int]] = {}
    for name, file, line in entries:
        key = folded_name(name) or name
        if key in first:
            report.warning(file, line, "field-manual-inconsistent",
                           f"{what} {name!r} is given twice (first at line {first[key][1]}); both are kept",
                           expected="each entry once", found=name)
        else:
            first[key] = (file, line)


def _report_duplicate_units(units: list[Unit], report: Report) -> None:
    """A unit given twice under one heading is reported; given again under a heading of its own
    (Imperial Agents list their units again under 'Every Model Has The Imperium Keyword', at other
    costs), those costs become the first entry's under that heading (`Unit.headed`)."""
    first: dict[str, Unit] = {}
    merged: set[int] = set()
    for u in units:
        key = folded_name(u.name) or u.name
        before = first.setdefault(key, u)
        if before is u:
            continue
        if u.group == before.group or not u.group:
            report.warning(u.file, u.line, "field-manual-inconsistent",
                           f"unit of {u.faction} {u.name!r} is given twice (first at line {before.line}); both are kept",
                           expected="each entry once", found=u.name)
            continue
        # The unit again under a heading: its costs there are the unit's under that condition.
        if (u.role, u.attach_to, u.extra_points()) != (before.role, before.attach_to, before.extra_points()):
            report.warning(u.file, u.line, "field-manual-inconsistent",
                           f"unit of {u.faction} {u.name!r} under {u.group} differs from line {before.line} in more than "
                           "its costs; its costs are kept as the unit's under that heading, the rest of line "
                           f"{before.line} is used", expected="the same unit at other costs", found=u.name)
        before.headed.append((u.group, u.tiers))
        merged.add(id(u))
    units[:] = [u for u in units if id(u) not in merged]
