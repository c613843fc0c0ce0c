"""The Munitorum Field Manual applied to a store of 11th-edition records.

It runs after every datasheet source (pages, the app, BattleScribe) is in the store, and
adds no record: each manual unit meets the store's datasheet of its faction and name, each
detachment the store's detachment, each enhancement its detachment's enhancement.

- Faction: the manual's faction file, then the army its ``groupTitle`` names (Black Templars
  list the Space Marines units they may take), then its ``parent``; a record is of a faction
  when its ``faction`` or one of its faction keywords is that name (names folded alike:
  "T’au Empire", "T'au Empire"). A unit found in none of them is taken from any faction when
  one datasheet alone has its name (Death Guard's Plague Legions are Chaos Daemons units).
- Name: folded (:func:`~warscribe.extract.sources_merge.folded_name`: case, apostrophes,
  marks), then loosely (singular, one spelling: :func:`~warscribe.extract.sources_merge.loose_words`).
- Values: points (with the requisition tiers as `from_copy`), add-on models and wargear as
  `extra_points`, the Leader or Support list, a detachment's DP, Force Disposition and unique
  tag, an enhancement's points and Upgrade mark. A value the record lacks is added (a
  provenance entry with ``fields``); one it has is compared, notation aside, and a real
  difference is a ``source-disagreement`` finding, the value of the better-ranked source
  (`rank_of`, lower first) kept and the other's provenance entry saying ``differs``
  (:func:`~warscribe.extract.sources_merge.note_agreement`).
- Nothing is dropped unsaid: an entry matching no record is ``unmatched-unit`` /
  ``unmatched-detachment`` / ``unmatched-enhancement``; a value no field holds is
  ``field-manual-unused``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from warscribe.extract.fieldmanual.model import Detachment, Manual, Unit
from warscribe.extract.sources_compare import report_disagreement
from warscribe.extract.sources_merge import folded_name, loose_words, note_agreement, paired
from warscribe.schema import records
from warscribe.schema.diagnostics import Report

RULESET = "11e"
ATTACHED = "This unit can be attached to the following units:"


@dataclass
class Applied:
    """What :func:`apply` did, counted (for the build's notes and the tests)."""

    units: int = 0
    units_matched: int = 0
    units_unmatched: int = 0
    legends_unmatched: int = 0
    detachments: int = 0
    detachments_matched: int = 0
    enhancements: int = 0
    enhancements_matched: int = 0
    disagreements: Counter = field(default_factory=Counter)  # "kind.field" -> findings
    filled: Counter = field(default_factory=Counter)  # "kind.field" -> records given the value
    agreed: Counter = field(default_factory=Counter)
    matched: dict = field(default_factory=dict)  # (file, line) of a manual entry -> the record id it met


def _loose(name: str) -> str:
    return "".join(loose_words(name))


def _live(rec: dict, kind: str) -> bool:
    """A matched-play record of 11th edition: what the manual prices."""
    return (rec.get("kind") == kind and rec.get("game_mode") is None
            and (rec.get("ruleset") == RULESET or RULESET in (rec.get("rulesets") or ())))


def _factions_of(rec: dict) -> set[str]:
    return {folded_name(rec.get("faction") or "")} | {folded_name(k) for k in rec.get("faction_keywords") or ()}


class _Index:
    """The store's records of one kind, by folded and by loose name."""

    def __init__(self, store, kind: str):
        self.by_key: dict[tuple[int, str], list[dict]] = {}
        for rid in sorted(store.records):
            rec = store.records[rid]
            if _live(rec, kind) and rec.get("name"):
                for level, key in ((0, folded_name), (1, _loose)):
                    self.by_key.setdefault((level, key(rec["name"])), []).append(rec)

    def find(self, name: str, factions: list[str], anywhere: bool, legends: bool | None = None) -> tuple[dict | None, str]:
        """The record named `name` of the first of `factions` that has one (then of any faction, if
        `anywhere` and only one has it); with why not, where none or several are."""
        ambiguous = ""
        for level, key in ((0, folded_name), (1, _loose)):
            named = self.by_key.get((level, key(name)), [])
            for faction in factions:
                hits = [r for r in named if faction in _factions_of(r)]
                best = _prefer(hits, faction, legends)
                if best is not None:
                    return best, ""
                if hits:
                    ambiguous = ", ".join(r["id"] for r in hits)
            if anywhere and len(named) == 1:
                return named[0], ""
            if anywhere and len(named) > 1:
                ambiguous = ambiguous or ", ".join(r["id"] for r in named)
        return None, (f"several records have its name ({ambiguous}), none of its faction alone" if ambiguous else "")


def _is_legends(rec: dict) -> bool:
    """A Legends datasheet: its field, or a name that still says so (a source that marks it only there)."""
    return bool(rec.get("legends")) or "legends" in rec["name"].casefold()


def _prefer(hits: list[dict], faction: str, legends: bool | None) -> dict | None:
    """Of records with the name, the one filed under the faction itself, then the one of the same
    Legends standing; None when two remain equally good."""
    if len(hits) <= 1:
        return hits[0] if hits else None
    scored = sorted(((folded_name(r.get("faction") or "") == faction,
                      legends is None or _is_legends(r) == legends), r["id"], r) for r in hits)
    scored.sort(key=lambda s: s[0], reverse=True)
    return scored[0][2] if scored[0][0] != scored[1][0] else None


def apply(store, manual: Manual, rank_of: Callable[[str], int], report: Report) -> Applied:
    """Meet every unit, detachment and enhancement of `manual` with the store's records (see the module)."""
    out = Applied()
    units, detachments = _Index(store, "datasheet"), _Index(store, "detachment")
    parents = {folded_name(f.name): folded_name(f.parent) for f in manual.factions if f.parent}
    found: list[tuple[int, Unit, dict]] = []
    for unit in manual.units():
        out.units += 1
        levels = _levels(unit.faction, unit.group, parents)
        rec, why = units.find(unit.name, levels, anywhere=True, legends=unit.legends)
        if rec is None:
            out.units_unmatched += 1
            out.legends_unmatched += unit.legends
            legends = ("a Legends unit (the app gives no Legends datasheets)" if unit.legends
                       else "not a Legends unit")
            report.warning(unit.file, unit.line, "unmatched-unit",
                           f"{unit.name} ({unit.faction}; {legends}) of the Munitorum Field Manual matches no "
                           f"11th-edition datasheet of {' or '.join(_shown_levels(unit, parents))}"
                           + (f": {why}" if why else "") + "; its points are not applied",
                           expected="a datasheet of that faction and name", found=why or "none")
            continue
        # The faction's own entry before one its sub-faction repeats (Space Marines' Aggressors
        # before Black Templars'), so the record's provenance names the faction's own file.
        level = 0 if folded_name(unit.faction) in _factions_of(rec) else 1
        found.append((level, unit, rec))
    done: dict[str, Unit] = {}
    for _level, unit, rec in sorted(found, key=lambda f: (f[0], f[1].file, f[1].line)):
        out.units_matched += 1
        out.matched[(unit.file, unit.line)] = rec["id"]
        if rec["id"] in done:
            _same_as_before(unit, done[rec["id"]], rec, report)
            continue
        done[rec["id"]] = unit
        if unit.legends and not rec.get("legends"):  # the manual says so of a unit no other source marks
            rec["legends"] = True
            records.in_constructor_order(rec)
        _apply_unit(store, unit, rec, rank_of, report, out)
    found_d: list[tuple[int, Detachment, dict]] = []
    for det in manual.detachments():
        out.detachments += 1
        out.enhancements += len(det.enhancements)
        levels = _levels(det.faction, None, parents)
        rec, why = detachments.find(det.name, levels, anywhere=False)
        if rec is None:
            report.warning(det.file, det.line, "unmatched-detachment",
                           f"detachment {det.name} ({det.faction}) of the Munitorum Field Manual matches no "
                           f"11th-edition detachment of {' or '.join(_shown_levels(det, parents))}"
                           + (f": {why}" if why else "") + "; its DP, Force Disposition and enhancement points "
                           "are not applied", expected="a detachment of that faction and name", found=why or "none")
            continue
        found_d.append((0 if folded_name(det.faction) in _factions_of(rec) else 1, det, rec))
    done_d: dict[str, Detachment] = {}
    for _level, det, rec in sorted(found_d, key=lambda f: (f[0], f[1].file, f[1].line)):
        out.detachments_matched += 1
        out.matched[(det.file, det.line)] = rec["id"]
        if rec["id"] in done_d:
            out.enhancements_matched += _same_detachment(det, done_d[rec["id"]], rec, report)
            continue
        done_d[rec["id"]] = det
        _apply_detachment(store, det, rec, rank_of, report, out)
    return out


def _levels(faction: str, group: str | None, parents: dict[str, str]) -> list[str]:
    """The factions a manual entry's record may be filed under, in order of preference."""
    out = [folded_name(faction)]
    for other in (group, parents.get(folded_name(faction))):
        if other and folded_name(other) not in out:
            out.append(folded_name(other))
    return out


def _shown_levels(entry, parents: dict[str, str]) -> list[str]:
    names = [entry.faction] + [x for x in (getattr(entry, "group", None),) if x]
    parent = parents.get(folded_name(entry.faction))
    if parent and all(folded_name(n) != parent for n in names):
        names.append(parent)
    return names


def _place(entry) -> dict:
    return {"file": entry.file, "first_line": entry.line, "last_line": max(entry.line, getattr(entry, "last_line", 0)),
            "ruleset": RULESET}


class _Meeting:
    """One manual entry met with one record: the fields compared, differing, filled; provenance written at the end."""

    def __init__(self, store, rec: dict, prov: dict, rank_of, report: Report, out: Applied):
        self.store, self.rec, self.prov, self.rank_of, self.report, self.out = store, rec, prov, rank_of, report, out
        self.agree: list[str] = []
        self.differ: dict[str, object] = {}
        self.filled: list[str] = []

    def field(self, name: str, value, key: Callable, merge: Callable | None = None) -> None:
        """Field `name` given `value` by the manual: compared by `key`, the kept value written.

        `merge(current, value)`, where given, may make one value of two that do not disagree
        (later tiers the record lacks); it returns None when they do disagree.
        """
        rec, kind = self.rec, self.rec["kind"]
        if value in (None, [], ""):
            return
        current = rec.get(name)
        tag = f"{kind}.{name}"
        if current in (None, [], ""):
            rec[name] = value
            self.filled.append(name)
            self.out.filled[tag] += 1
            return
        holder = self._holder(name)
        ours_first = self.rank_of(self.prov["file"]) < self.rank_of(holder["file"])
        if key(current) == key(value):
            self.agree.append(name)
            self.out.agreed[tag] += 1
            if ours_first and current != value and name in ("force_disposition", "unique"):
                rec[name] = value  # the same words: the better-ranked source's writing of them
            return
        merged = merge(current, value) if merge else None
        if merged is not None:
            rec[name] = merged
            self.filled.append(name)
            self.out.filled[tag] += 1
            return
        kept, kept_prov, other, other_prov = ((value, self.prov, current, holder) if ours_first
                                              else (current, holder, value, self.prov))
        report_disagreement(self.report, rec["id"], kind, name, kept, kept_prov, other, other_prov)
        self.out.disagreements[tag] += 1
        if ours_first:
            rec[name] = value
            i = next(i for i, p in enumerate(rec["source"]) if p is holder)
            rec["source"][i] = note_agreement(holder, [], {name: current})
        else:
            self.differ[name] = value

    def _holder(self, name: str) -> dict:
        """The provenance entry of the source the record's value of `name` is from: the best-ranked
        of those giving the whole record or that field."""
        giving = [p for p in self.rec["source"] if not p.get("fields") or name in p["fields"]] or self.rec["source"]
        return min(giving, key=lambda p: self.rank_of(p["file"]))

    def finish(self) -> None:
        entries = [note_agreement(self.prov, self.agree, self.differ)]
        if self.filled:
            entries.append(dict(self.prov, fields=sorted(set(self.filled))))
        records.in_constructor_order(self.rec)
        self.store.add_provenance(self.rec, entries)


def _points_key(entries: list[dict]):
    # A condition's wording is notation: the app writes "IMPERIUM" where the manual heads the
    # costs "Every Model Has The Imperium Keyword".
    return sorted({(p["models"], p["points"], p.get("from_copy") or 0) for p in entries})


def _later_tiers(current: list[dict], manual: list[dict]) -> list[dict] | None:
    """A record priced for the first selections only, as the manual prices them: the manual's
    later tiers and costs under a condition added to it (no disagreement: one source leaves them out)."""
    if any(p.get("from_copy") for p in current):
        return None
    ours = set(_points_key(current))
    if not ours <= set(_points_key(manual)):
        return None
    extra = [p for p in manual if _points_key([p])[0] not in ours]
    if not all(p.get("from_copy") or p.get("condition") for p in extra):
        return None
    return current + extra


def _attachment_key(value) -> list[str]:
    return sorted({_loose(u) for u in (value or {}).get("units") or ()})


def _apply_unit(store, unit: Unit, rec: dict, rank_of, report: Report, out: Applied) -> None:
    meet = _Meeting(store, rec, _place(unit), rank_of, report, out)
    entries = unit.points_entries()
    # A cost the record gives under a condition the manual does not price (a detachment's own
    # price of an Assassin) stays whichever source is kept.
    priced = set(_points_key(entries))
    entries += [p for p in rec.get("points") or () if p.get("condition") and _points_key([p])[0] not in priced]
    meet.field("points", entries, _points_key, _later_tiers)
    meet.field("extra_points", unit.extra_points(),
               lambda v: sorted({(_loose(e["name"]), e["points"]) for e in v}))
    if unit.role:
        existing = rec.get(unit.role)
        text = existing["text"] if isinstance(existing, dict) and existing.get("text") else ATTACHED
        meet.field(unit.role, {"text": text, "units": list(unit.attach_to)}, _attachment_key)
    kept = {p["condition"] for p in rec.get("points") or () if p.get("condition")}
    notes = sorted({c.desc for t in unit.tiers for c in t.costs if c.desc and not c.addon
                    and not any(c.desc in k for k in kept)})
    if notes:
        report.warning(unit.file, unit.line, "field-manual-unused",
                       f"{rec['id']}: the manual's composition notes of {unit.name}'s costs have no field of a "
                       "points entry; kept in the manual only", expected="a field for a cost's note",
                       found="; ".join(notes))
    meet.finish()


def _same_as_before(unit: Unit, before: Unit, rec: dict, report: Report) -> None:
    """A unit two faction files of the manual price (a sub-faction's copy): said where the costs
    differ. Its attachment lists may: each army lists the units of its own it can join."""
    if (_points_key(unit.points_entries()), unit.extra_points()) != \
            (_points_key(before.points_entries()), before.extra_points()):
        report.warning(unit.file, unit.line, "field-manual-inconsistent",
                       f"{unit.name} ({unit.faction}) is {rec['id']}, which {before.faction} prices at "
                       f"{before.file}:{before.line} otherwise; the values of {before.faction}'s file are used",
                       expected=_shown_unit(before), found=_shown_unit(unit))


def _shown_unit(unit: Unit) -> str:
    points = ", ".join(f"{p['models']}: {p['points']}" + (f" (from {p['from_copy']})" if p["from_copy"] else "")
                       for p in unit.points_entries())
    return points + (f"; {unit.role} of {', '.join(unit.attach_to)}" if unit.role else "")


def _detachment_key(det: Detachment):
    return (det.dp, (det.objective or "").casefold(), (det.unique or "").casefold(),
            sorted((folded_name(e.name), e.points, e.upgrade) for e in det.enhancements))


def _same_detachment(det: Detachment, before: Detachment, rec: dict, report: Report) -> int:
    """A detachment two faction files give (a sub-faction's copy): said where the copies differ;
    its enhancements count as matched where the first copy's did."""
    if _detachment_key(det) != _detachment_key(before):
        report.warning(det.file, det.line, "field-manual-inconsistent",
                       f"detachment {det.name} ({det.faction}) is {rec['id']}, which {before.faction} gives at "
                       f"{before.file}:{before.line} otherwise; the values of {before.faction}'s file are used",
                       expected=str(_detachment_key(before)), found=str(_detachment_key(det)))
    return len({folded_name(e.name) for e in det.enhancements} & {folded_name(e.name) for e in before.enhancements})


def _apply_detachment(store, det: Detachment, rec: dict, rank_of, report: Report, out: Applied) -> None:
    meet = _Meeting(store, rec, _place(det), rank_of, report, out)
    folded = lambda v: v.casefold() if isinstance(v, str) else v  # noqa: E731 ("TAKE AND HOLD", "Take and Hold")
    meet.field("detachment_points", det.dp, lambda v: v)
    meet.field("force_disposition", det.objective, folded)
    meet.field("unique", det.unique, folded)
    meet.finish()
    ours = [store.records[e] for e in rec.get("enhancements") or () if e in store.records]
    ours += [r for rid, r in sorted(store.records.items())
             if r.get("kind") == "enhancement" and r.get("detachment") == rec["id"] and r not in ours]
    taken: set[str] = set()
    hits: dict[int, dict] = {}
    for key in (folded_name, _loose):
        for i, enh in enumerate(det.enhancements):
            if i not in hits:
                hit = next((r for r in ours if key(r["name"]) == key(enh.name) and r["id"] not in taken), None)
                if hit is not None:
                    hits[i] = hit
                    taken.add(hit["id"])
    # Last, a name spelt two ways ("Autoclavic Denunciation", "Denounciation") or with a mark the
    # other leaves off ("Honoured Fallen (Aura)"): what is left on both sides, paired by spelling.
    left = {folded_name(e.name): i for i, e in enumerate(det.enhancements) if i not in hits}
    free = {folded_name(r["name"]): r for r in ours if r["id"] not in taken}
    for mine, other in paired(sorted(left), sorted(free)).items():
        hits[left[mine]] = free[other]
        taken.add(free[other]["id"])
    for i, enh in enumerate(det.enhancements):
        hit = hits.get(i)
        if hit is None:
            report.warning(enh.file, enh.line, "unmatched-enhancement",
                           f"enhancement {enh.name} of {det.name} ({det.faction}) in the Munitorum Field Manual matches "
                           f"no enhancement of {rec['id']}; its points are not applied",
                           expected=f"one of {', '.join(r['name'] for r in ours) or 'its enhancements'}", found=enh.name)
            continue
        out.enhancements_matched += 1
        out.matched[(enh.file, enh.line)] = hit["id"]
        meet = _Meeting(store, hit, _place(enh), rank_of, report, out)
        meet.field("points", enh.points, lambda v: v)
        if enh.upgrade or "upgrade" in hit:
            meet.field("upgrade", enh.upgrade, lambda v: v)
        if enh.lead:
            report.warning(enh.file, enh.line, "field-manual-unused",
                           f"{hit['id']}: the units whose models may take {enh.name} as they join them have no field "
                           "of an enhancement; kept in the manual only", expected="a field for them",
                           found=", ".join(enh.lead))
        meet.finish()
