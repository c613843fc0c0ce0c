"""Every name of a list to a knowledge-base record: the army's faction, its detachments, units and enhancements.

A name resolves when its key (``names.key``: case, quotes, accents, [Legends] folded)
equals a record's, or, failing that, through the alias table of known renames. Nothing
else: no prefix, suffix or substring guess. Several records of one name (a Chaos Rhino
in five factions) are told apart by the army: its detachments' enhancements first, then
its factions, then the factions whose datasheets fit it (their faction keywords all
carried by the army's own: Space Marines datasheets in a Dark Angels army), then the
rest (allies). Two records left at the same rank are reported as ambiguous; a name
that matches nothing is reported with the nearest names of the knowledge base, except
where the knowledge base has no datasheets of a faction the list names: that is said
once, at the faction's line, with the reason the build's report gives (a BattleScribe
catalogue missing from the data read), and the list's other unresolved names point
there rather than at near names of other factions ('Inceptor Squad' is not an
'Interceptor Squad').

Only the records of the list's edition are consulted.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from warscribe.roster import names
from warscribe.roster.model import Detachment, Enhancement, Finding, Named, Roster, Unit
from warscribe.schema.bundle import Bundle, BundleError, load_report
from warscribe.schema.diagnostics import Diagnostic, code_info
from warscribe.schema.text import slugify

KB_KINDS = ("datasheet", "enhancement", "detachment")
NEAREST = 3
NEAREST_LOOKUPS = 200  # distinct unresolved names given suggestions per build (each costs a scan of its names)
MAX_REPORT_DIAGNOSTICS = 100_000  # of the build's report.json read for missing catalogues
# Where the whole game of an edition is built from (a pointer for a knowledge base that lacks a faction).
WHOLE_GAME = {"11e": "examples/11e (the app's data)", "10e": "examples/both-10e (BattleScribe and Wahapedia)"}
# The BattleScribe reader's warning naming what a catalogue missing from the data costs (extract/battlescribe).
_MISSING_CATALOGUE = re.compile(r"catalogue (['\"])(?P<name>.+?)\1 is not in the data read: factions with no "
                                r"datasheets because of it: (?P<none>.*); factions that lost units it holds: (?P<some>.*)")


@dataclass
class Match:
    """What a name of the list resolved to."""

    kind: str
    name: str
    line: int
    record: dict | None = None
    via: str = "unresolved"  # name | alias | ambiguous | unresolved
    alias: names.Alias | None = None
    candidates: list[str] = field(default_factory=list)  # record ids, when ambiguous
    nearest: list[str] = field(default_factory=list)  # names, when unresolved

    @property
    def ok(self) -> bool:
        return self.record is not None

    def as_dict(self) -> dict:
        out = {"name": self.name, "line": self.line, "via": self.via,
               "id": self.record["id"] if self.record else None}
        if self.alias:
            out["alias"] = {"means": self.alias.means, "reason": self.alias.reason}
        if self.candidates:
            out["candidates"] = self.candidates
        if self.nearest:
            out["nearest"] = self.nearest
        return out


class Index:
    """The records of one edition of a build, keyed for resolving names (made once per build and edition)."""

    def __init__(self, kb: Bundle, ruleset: str):
        self.kb, self.ruleset = kb, ruleset
        self.by_key: dict[str, dict[str, list[dict]]] = {k: {} for k in KB_KINDS}
        self.by_other_language: dict[str, dict[str, list[dict]]] = {k: {} for k in KB_KINDS}
        self.factions: dict[str, str] = {}
        self.faction_slugs: dict[str, str] = {}
        per_faction: dict[str, list[dict]] = {}
        for kind in KB_KINDS:
            for rec in kb.kind(kind):
                if rec.get("ruleset") != ruleset and ruleset not in rec.get("rulesets", []):
                    continue
                self.by_key[kind].setdefault(names.key(rec["name"]), []).append(rec)
                # The app's names in other languages, so a list written in French resolves; a
                # name another record has in English is never shadowed (English keys first).
                for other in sorted(set((rec.get("names") or {}).values())):
                    self.by_other_language[kind].setdefault(names.key(other), []).append(rec)
                faction = rec.get("faction")
                if faction:
                    self.factions.setdefault(names.key(faction), faction)
                    self.faction_slugs.setdefault(slugify(faction), faction)
                    if kind == "datasheet":
                        per_faction.setdefault(faction, []).append(rec)
        # A faction's own keywords: those at least half its datasheets carry (a few Legends or
        # shared datasheets carry others).
        self.core: dict[str, set[str]] = {}
        for faction, recs in per_faction.items():
            counts = Counter(k for r in recs for k in set(r.get("faction_keywords", [])))
            self.core[faction] = {k for k, n in counts.items() if 2 * n >= len(recs)}
        self.datasheets = sum(len(v) for v in self.by_key["datasheet"].values())
        self.datasheet_factions = {names.key(f) for f in per_faction}
        self._nearest: dict[tuple, list[str]] = {}
        self._missing: dict[str, tuple[str, str]] | None = None

    def has_datasheets(self, faction: str) -> bool:
        return names.key(faction) in self.datasheet_factions

    def missing_catalogue(self, faction: str) -> tuple[str, str] | None:
        """(catalogue, 'none' or 'some'): the BattleScribe catalogue the build's report names as the reason
        `faction` has no datasheets (or lost some); None when the report says nothing of it."""
        if self._missing is None:
            self._missing = {}
            try:
                report = load_report(self.kb.origin) if Path(self.kb.origin).exists() else None
            except (BundleError, OSError, ValueError):
                report = None  # a report is an explanation only: without one the finding is still made
            diagnostics = report.get("diagnostics") if isinstance(report, dict) else None
            for d in (diagnostics if isinstance(diagnostics, list) else [])[:MAX_REPORT_DIAGNOSTICS]:
                if not isinstance(d, dict) or d.get("code") != "missing-catalogue":
                    continue
                m = _MISSING_CATALOGUE.fullmatch(str(d.get("message", ""))[:10_000])
                if not m:
                    continue
                for group, how in (("none", "none"), ("some", "some")):
                    for f in m.group(group).split(", "):
                        if f and f != "none":
                            self._missing.setdefault(names.key(f), (m.group("name"), how))
        return self._missing.get(names.key(faction))

    def faction_of(self, rec: dict) -> str | None:
        if rec.get("faction"):
            return rec["faction"]
        det = self.kb.get(rec.get("detachment") or "")
        if det and det.get("faction"):
            return det["faction"]
        return self.faction_slugs.get(rec["id"].split("/", 1)[0])

    def fits(self, rec: dict, army: set[str]) -> bool:
        """A datasheet of another faction whose faction keywords the army's own faction keywords all include."""
        own = set().union(*(self.core.get(f, set()) for f in army)) if army else set()
        kws = set(rec.get("faction_keywords", []))
        return bool(own) and bool(kws) and kws <= own

    def nearest(self, kind: str, name: str, army: set[str]) -> list[str]:
        """Up to three names of the build nearest to `name` (the army's factions' first); a suggestion, never a match."""
        wanted = names.key(name)
        cache_key = (kind, wanted, frozenset(army))
        if cache_key not in self._nearest:
            if len(self._nearest) >= NEAREST_LOOKUPS:
                return []  # a hostile list of thousands of unknown names: suggestions stop, reading does not
            self._nearest[cache_key] = self._closest(kind, wanted, army)
        return self._nearest[cache_key]

    def _closest(self, kind: str, wanted: str, army: set[str]) -> list[str]:
        keys = self.by_key[kind]
        mine = [k for k, recs in keys.items() if any(self.faction_of(r) in army for r in recs)] if army else []
        found = difflib.get_close_matches(wanted, mine, NEAREST, 0.6)
        if len(found) < NEAREST:
            found += [k for k in difflib.get_close_matches(wanted, list(keys), NEAREST, 0.6) if k not in found]
        return [keys[k][0]["name"] for k in found[:NEAREST]]

    def resolve(self, kind: str, name: str, line: int, army: set[str], prefer: set[str] = frozenset()) -> Match:
        recs = self.by_key[kind].get(names.key(name), [])
        match = Match(kind, name, line, via="name")
        if not recs:
            recs = self.by_other_language[kind].get(names.key(name), [])
        if not recs:
            for alias in names.aliases_for(kind, name, self.ruleset):
                recs = self.by_key[kind].get(names.key(alias.means), [])
                if recs:
                    match.via, match.alias = "alias", alias
                    break
        if not recs:
            match.via, match.nearest = "unresolved", self.nearest(kind, name, army)
            return match
        for tier in (lambda r: r["id"] in prefer, lambda r: self.faction_of(r) in army,
                     lambda r: kind == "datasheet" and self.fits(r, army), lambda r: True):
            chosen = [r for r in recs if tier(r)]
            if chosen:
                break
        if len(chosen) == 1:
            match.record = chosen[0]
        else:
            match.via, match.candidates = "ambiguous", [r["id"] for r in chosen]
        return match

    def resolve_faction(self, name: str, line: int) -> Match:
        match = Match("faction", name, line, via="name")
        for candidate in (name, names.ALLIANCE_PREFIX.sub("", name)):
            got = self.factions.get(names.key(candidate))
            if got:
                match.record = {"id": slugify(got), "name": got}
                return match
        for alias in names.aliases_for("faction", name, self.ruleset):
            got = self.factions.get(names.key(alias.means))
            if got:
                match.record, match.via, match.alias = {"id": slugify(got), "name": got}, "alias", alias
                return match
        match.via = "unresolved"
        match.nearest = [self.factions[k] for k in difflib.get_close_matches(
            names.key(names.ALLIANCE_PREFIX.sub("", name)), list(self.factions), NEAREST, 0.6)]
        return match


_INDEXES: dict[tuple[int, str], tuple[Bundle, Index]] = {}


def index(kb: Bundle, ruleset: str) -> Index:
    got = _INDEXES.get((id(kb), ruleset))
    if got is None or got[0] is not kb:
        got = (kb, Index(kb, ruleset))
        _INDEXES[(id(kb), ruleset)] = got
    return got[1]


@dataclass
class Attachment:
    leader: int  # index of the leading (or supporting) unit
    bodyguard: int
    role: str  # leader / support
    line: int  # where the list states it


@dataclass
class UnitResult:
    unit: Unit
    datasheet: Match
    enhancements: list[tuple[Enhancement, Match]] = field(default_factory=list)
    models: int | None = None  # declared, or inferred (below)
    models_inferred: bool = False  # the list prints no model lines: the datasheet's smallest size is assumed
    outside: bool = False  # of a faction other than the army's (and not fitting it)


@dataclass
class Resolution:
    roster: Roster
    ruleset: str | None = None
    kb: Bundle | None = None
    index: Index | None = None
    factions: list[Match] = field(default_factory=list)
    army: set[str] = field(default_factory=set)  # the army's factions (names as the build has them)
    faction_evidence: str = ""
    detachments: list[Match] = field(default_factory=list)
    units: list[UnitResult] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # The list's factions the knowledge base has no datasheets of, and the line naming the first.
    absent: list[str] = field(default_factory=list)
    absent_line: int = 0

    def find(self, code: str, line: int, message: str, expected: str = "", found: str = "", rule=None,
             unit: int | None = None, record: str = "", level: str | None = None) -> None:
        """`rule`: its citation, or a rules.Rule (its number, record and sources are kept too)."""
        lvl = level or code_info(code).level
        ref = rule.as_dict() if hasattr(rule, "as_dict") else None
        text = rule.text() if hasattr(rule, "text") else rule
        self.findings.append(Finding(Diagnostic(self.roster.file, line, lvl, code, message, expected, found,
                                                record=record), text, unit, ref))

    def unresolved(self, match: Match, what: str, unit: int | None = None) -> None:
        if match.via == "ambiguous":
            self.find("roster-ambiguous", match.line, f"{what} {match.name!r} matches {len(match.candidates)} records "
                      f"the army's faction does not choose between", expected="one record",
                      found=", ".join(match.candidates[:6]), unit=unit)
        elif self.absent:
            # Near names would come from other factions: the reason is the missing faction, said once.
            self.find("roster-unresolved", match.line, f"{what} {match.name!r} names no {self.ruleset} record of the "
                      f"knowledge base, which has no {' or '.join(self.absent)} datasheets (line {self.absent_line})",
                      expected=f"{_a(what)} of the knowledge base ({self.ruleset})", found=match.name, unit=unit)
        else:
            near = "; nearest: " + ", ".join(repr(n) for n in match.nearest) if match.nearest else "; no name is near"
            self.find("roster-unresolved", match.line, f"{what} {match.name!r} names no {self.ruleset} record of the "
                      f"knowledge base{near}{self._incomplete()}",
                      expected=f"{_a(what)} of the knowledge base ({self.ruleset})", found=match.name, unit=unit)

    def _incomplete(self) -> str:
        """The army's datasheets that the build's report says a missing catalogue took away, if any."""
        lost = sorted({(f, c[0]) for f in self.army if (c := self.index.missing_catalogue(f)) and c[1] == "some"})
        return "".join(f" (the knowledge base's {f} datasheets are incomplete: its BattleScribe data lacks the "
                       f"catalogue {c!r})" for f, c in lost[:2])

    def absent_faction(self, match: Match) -> None:
        """Said once per faction line: the knowledge base has no datasheets of it, why, and what to build instead."""
        faction = match.record["name"] if match.record else names.ALLIANCE_PREFIX.sub("", match.name)
        if not self.absent:
            self.absent_line = match.line
        self.absent.append(faction)
        kb = _build_folder(self.kb.origin) if self.kb else "(none)"
        missing = self.index.missing_catalogue(faction)
        if missing and missing[1] == "none":
            why = (f": the BattleScribe data it was built from lacks the catalogue {missing[0]!r} (its report.json, "
                   "missing-catalogue)")
            found = f"no {faction} datasheets; catalogue {missing[0]!r} missing"
        else:
            why = " (none of its sources gives them)"
            found = f"no {faction} datasheets"
        hint = f"; build with {WHOLE_GAME[self.ruleset]}" if self.ruleset in WHOLE_GAME else ""
        typo = ("; if the name is misspelt, nearest: " + ", ".join(repr(n) for n in match.nearest)
                if match.nearest and not missing else "")
        self.find("roster-unresolved", match.line, f"faction {match.name!r}: the knowledge base {kb} has no "
                  f"{self.ruleset} {faction} datasheets{why}{hint}; the list's units, detachments and enhancements "
                  f"of that faction do not resolve{typo}", expected=f"{self.ruleset} {faction} datasheets in the "
                  "knowledge base", found=found)

    def renamed(self, match: Match, what: str, unit: int | None = None) -> None:
        if match.alias:
            self.find("roster-renamed", match.line, f"{what} {match.name!r} read as {match.alias.means!r} "
                      f"(aliases.yaml): {match.alias.reason}", expected=match.alias.means, found=match.name, unit=unit,
                      record=match.record["id"] if match.record and "kind" in match.record else "")


# Formats that do not label enhancements: they are among a unit's wargear, found by name.
UNLABELLED_ENHANCEMENTS = ("newrecruit-simple", "battlescribe")


def resolve(roster: Roster, kb: Bundle, ruleset: str) -> Resolution:
    """Every name of `roster` against the `ruleset` records of `kb`."""
    idx = index(kb, ruleset)
    res = Resolution(roster, ruleset, kb, idx)
    _factions(res)
    _detachments(res)
    if not res.army:
        _infer_faction(res)
    prefer = set()
    for m in res.detachments:
        if m.record:
            prefer |= set(m.record.get("enhancements", []))
            prefer |= {e["id"] for e in kb.referring(m.record["id"], "enhancement")}
    for i, unit in enumerate(roster.units):
        ur = UnitResult(unit, idx.resolve("datasheet", unit.name, unit.line, res.army))
        if roster.format in UNLABELLED_ENHANCEMENTS and not unit.enhancements:
            _enhancements_in_wargear(unit, res, prefer)
        for enh in unit.enhancements:
            ur.enhancements.append((enh, idx.resolve("enhancement", enh.name, enh.line, res.army, prefer)))
        _models(ur)
        rec = ur.datasheet.record
        if rec is not None and res.army and idx.faction_of(rec) not in res.army and not idx.fits(rec, res.army):
            ur.outside = True
        res.units.append(ur)
    _attachments(res)
    for i, ur in enumerate(res.units):
        if not ur.datasheet.ok:
            res.unresolved(ur.datasheet, "unit", i)
        res.renamed(ur.datasheet, "unit", i)
        for _enh, m in ur.enhancements:
            if not m.ok:
                res.unresolved(m, "enhancement", i)
            res.renamed(m, "enhancement", i)
    return res


def _factions(res: Resolution) -> None:
    roster, idx = res.roster, res.index
    lines = roster.factions or []
    for named in lines:
        m = idx.resolve_faction(named.name, named.line)
        res.factions.append(m)
    if not lines and roster.faction_candidates:
        # New Recruit's simple text: its title starts with the catalogue name; the longest prefix that names a faction.
        for named in roster.faction_candidates:
            m = idx.resolve_faction(named.name, named.line)
            if m.ok:
                res.factions.append(m)
                break
    res.army = {m.record["name"] for m in res.factions if m.ok}
    if res.army:
        res.faction_evidence = "the list names it"
    for m in res.factions:
        # A faction named only by detachments or enhancements (no datasheets of its own) is a gap
        # only if some unit of the list finds no datasheet; its units may be another faction's.
        if not m.ok or (not idx.has_datasheets(m.record["name"]) and _some_unit_unknown(res)):
            res.absent_faction(m)
        res.renamed(m, "faction")


def _some_unit_unknown(res: Resolution) -> bool:
    idx = res.index
    return any(names.key(u.name) not in idx.by_key["datasheet"]
               and names.key(u.name) not in idx.by_other_language["datasheet"]
               and not any(names.key(a.means) in idx.by_key["datasheet"]
                           for a in names.aliases_for("datasheet", u.name, res.ruleset))
               for u in res.roster.units)


def _detachments(res: Resolution) -> None:
    idx = res.index
    for det in res.roster.detachments:
        m = idx.resolve("detachment", det.name, det.line, res.army)
        if not m.ok and det.parts:
            # 'Darkflight Pursuit and Inner Circle Task Force': two detachments on one line.
            res.detachments += [idx.resolve("detachment", p, det.line, res.army) for p in det.parts]
            continue
        if not m.ok and m.via == "unresolved":
            as_faction = idx.resolve_faction(det.name, det.line)
            if as_faction.ok and not res.army:
                # The header's other order put the faction where the detachment was expected.
                res.factions.append(as_faction)
                res.army.add(as_faction.record["name"])
                res.faction_evidence = f"line {det.line} (read as the faction: it names no detachment)"
                continue
        res.detachments.append(m)
    for m in res.detachments:
        if not m.ok:
            res.unresolved(m, "detachment")
        res.renamed(m, "detachment")


def _infer_faction(res: Resolution) -> None:
    """No faction line resolved: the faction most of the list's units belong to (only where one is clear)."""
    counts: Counter = Counter()
    for unit in res.roster.units:
        recs = res.index.by_key["datasheet"].get(names.key(unit.name), [])
        factions = {res.index.faction_of(r) for r in recs}
        if len(factions) == 1:
            counts[factions.pop()] += 1
    if counts:
        faction, n = counts.most_common(1)[0]
        res.army = {faction}
        res.faction_evidence = f"inferred: {n} of the list's units are {faction} datasheets and of no other faction"


def _enhancements_in_wargear(unit: Unit, res: Resolution, prefer: set[str]) -> None:
    """Wargear items that are, by exact name, an enhancement of the army (its detachments' first)."""
    keep = []
    for item in unit.wargear:
        recs = res.index.by_key["enhancement"].get(names.key(item.name), [])
        mine = [r for r in recs if r["id"] in prefer or res.index.faction_of(r) in res.army]
        if mine:
            unit.enhancements.append(Enhancement(item.name, item.line, explicit=False))
        else:
            keep.append(item)
    unit.wargear = keep


def _models(ur: UnitResult) -> None:
    if ur.unit.models is not None:
        ur.models = ur.unit.models
        return
    rec = ur.datasheet.record
    if rec is None:
        return
    comp = rec.get("composition") or []
    smallest = sum(c["min"] for c in comp) if comp else None
    tiers = sorted(t["models"] for t in rec.get("points", []) if not t.get("condition"))
    ur.models = smallest if smallest else (tiers[0] if tiers else None)
    ur.models_inferred = ur.models is not None


def _attachments(res: Resolution) -> None:
    units = res.roster.units
    groups: dict[int, list[int]] = {}
    for i, u in enumerate(units):
        if u.group is not None and u.role:
            groups.setdefault(u.group, []).append(i)
    for members in groups.values():
        guards = [i for i in members if units[i].role == "bodyguard"]
        for i in members:
            if units[i].role in ("leader", "support"):
                for g in guards:
                    res.attachments.append(Attachment(i, g, units[i].role, units[i].line))
    by_name: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        by_name.setdefault(names.key(u.name), []).append(i)
    taken: set[int] = set()
    first_free: dict[str, int] = {}  # per name, where the untaken characters of that name start
    for g, u in enumerate(units):
        if u.attached_to is None:
            continue
        want = names.key(u.attached_to.name)
        pool = by_name.get(want, [])
        k = first_free.get(want, 0)
        while k < len(pool) and pool[k] in taken:
            k += 1
        first_free[want] = k
        pick = next((i for i in pool[k:k + 2] if i != g and i not in taken), None)
        if pick is not None:
            res.attachments.append(Attachment(pick, g, "leader", u.attached_to.line))
            taken.add(pick)
    for i, u in enumerate(units):
        if u.leading is None or i in taken:
            continue
        # 'Leading Khorne Berzerkers[2]': the second unit of that name (the leader itself not counted).
        same = by_name.get(names.key(u.leading.name), [])
        k = (u.leading_index or 1) - 1
        at = bisect.bisect_left(same, i)  # the indices are in list order
        if k >= 0 and at < len(same) and same[at] == i and at <= k:
            k += 1
        if 0 <= k < len(same):
            res.attachments.append(Attachment(i, same[k], "leader", u.leading.line))
            taken.add(i)


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _build_folder(origin: str) -> str:
    """The folder `warscribe build --out` wrote, for a bundle read from its json/ folder; else the file."""
    path = Path(origin)
    if path.parent.name == "json" and (path.parent.parent / "manifest.json").is_file():
        return str(path.parent.parent)
    return origin


def datasheet_rulesets(kb: Bundle) -> Counter:
    """How many datasheets of each ruleset a build holds."""
    return Counter(r.get("ruleset") for r in kb.kind("datasheet"))


__all__ = ["Attachment", "Index", "Match", "Resolution", "UnitResult", "datasheet_rulesets", "index", "resolve",
           "Detachment", "Named"]
