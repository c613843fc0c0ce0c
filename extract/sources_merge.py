"""Units matched across sources whose ids do not meet, and the fields' agreement recorded.

Ids are where sources meet (``schema/ids.py``), but two whole-game sources name the same
unit differently often enough: Wahapedia files Azrael under Space Marines, BattleScribe
under its Dark Angels catalogue; one writes "[Legends]" where the other does not, or a
curly apostrophe; a weapon is "The Sword of Asur" in one and "Sword of Asur" in the
other. :func:`match_units` finds, for each datasheet of a later source with no record of
its id in the store, the store's unit it is (same folded name, a shared faction keyword),
and gives the later source's records the store's ids, so the merge compares them field
by field. What neither side matches is listed (``unmatched-unit``).

:func:`note_agreement` writes on a source's provenance entry which compared fields agree
with the kept value (``agrees``) and which give another (``differs``, with that value).
"""

from __future__ import annotations

import re

from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm

# Marks that say something about a unit, not which unit it is.
_MARKS = re.compile(r"\[[^\]]*\]|\((?:legends|forge world|imperial armour)\)", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^0-9a-z]+")


_ARCHIVES = (".tar.xz", ".tar.gz", ".zip")
_DATA_FILES = (".csv", ".cat", ".gst", ".json")


def source_of(file: str) -> str:
    """The manifest source a provenance file belongs to: its archive, its data folder, or the page itself.

    'sources/wh40k-10e.tar.xz/Imperium - Dark Angels.cat' -> 'sources/wh40k-10e.tar.xz';
    'data/wahapedia/Datasheets.csv' -> 'data/wahapedia'; 'sources/page.10e.txt' -> itself.
    """
    parts = file.split("/")
    for i, part in enumerate(parts[:-1]):
        if part.endswith(_ARCHIVES):
            return "/".join(parts[:i + 1])
    if len(parts) > 1 and file.endswith(_DATA_FILES):
        return "/".join(parts[:-1])
    return file


def folded_name(name: str) -> str:
    """A unit's or weapon's name as sources spell it alike: marks, case, punctuation, 'the ' and '➤' gone."""
    text = _MARKS.sub(" ", norm(name).replace("➤", " ")).casefold()
    text = text.replace("'", "").replace("\u2019", "")
    words = _NOT_WORD.sub(" ", text).split()
    if words[:1] == ["the"] and len(words) > 1:
        words = words[1:]
    return " ".join(words)


def _legends(name: str) -> bool:
    return "legends" in name.casefold()


def _datasheet_of(record_id: str) -> str:
    return "/".join(record_id.split("/")[:2])


def match_units(store, items: list[tuple[dict, dict]], source_name, report: Report) -> list[tuple[dict, dict]]:
    """`items` (records of one source, with provenance) with ids renamed to the store's unit they match.

    `source_name(file)` names the manifest source a provenance file belongs to, so that a
    unit is matched only with a record of another source, and unmatched ones are listed.
    """
    theirs = [(r, p) for r, p in items if r["kind"] == "datasheet"]
    ours = {rid: r for rid, r in store.records.items() if r["kind"] == "datasheet"}
    taken = {r["id"] for r, _p in theirs if r["id"] in ours}
    by_name: dict[str, list[dict]] = {}
    for rid in sorted(ours):
        if rid not in taken:
            by_name.setdefault(folded_name(ours[rid]["name"]), []).append(ours[rid])
    renamed: dict[str, str] = {}
    for rec, _prov in sorted(theirs, key=lambda rp: rp[0]["id"]):
        if rec["id"] in ours:
            continue
        best = _best_candidate(rec, [c for c in by_name.get(folded_name(rec["name"]), ()) if c["id"] not in taken])
        if best is not None:
            taken.add(best["id"])
            renamed[rec["id"]] = best["id"]
    both = {rid: rid for rid in taken} | renamed
    weapon_ids = _weapon_renames(store, items, both)
    out = [(_renamed(rec, renamed, weapon_ids), prov) for rec, prov in items]
    _list_unmatched(ours, taken, theirs, renamed, source_name, report)
    return out


def _best_candidate(rec: dict, candidates: list[dict]) -> dict | None:
    """The candidate sharing a faction keyword, preferring the same faction, then the same [Legends] mark."""
    keys = {k.casefold() for k in rec.get("faction_keywords") or ()}
    scored = []
    for cand in candidates:
        shared = keys & {k.casefold() for k in cand.get("faction_keywords") or ()}
        same_faction = cand["faction"] == rec["faction"]
        if not shared and not same_faction:
            continue
        scored.append(((same_faction, _legends(cand["name"]) == _legends(rec["name"]), len(shared)), cand["id"], cand))
    if not scored:
        return None
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None  # two equally good units: guessing would merge the wrong one
    return scored[0][2]


def _weapon_renames(store, items, units: dict[str, str]) -> dict[str, str]:
    """Weapons of a unit both sources give onto the store's weapon of the same folded name and type.

    A spelling variant ('The Sword of Asur', 'Sword of Asur') or a profile the other source
    orders differently (a ranged and a melee Triskele) must meet its own counterpart, not
    whatever weapon happens to get the same id. A rename that would land on a weapon the
    later source also has under that id, or two weapons on one, is not made.
    """
    ours: dict[tuple[str, str, str], str] = {}
    for rid, r in store.records.items():
        if r["kind"] == "weapon" and _datasheet_of(rid) in units.values():
            ours.setdefault((_datasheet_of(rid), folded_name(r["name"]), r.get("type", "")), rid)
    theirs = [r for r, _p in items if r["kind"] == "weapon"]
    out: dict[str, str] = {}
    for rec in theirs:
        unit = units.get(_datasheet_of(rec["id"]))
        if unit is not None:
            hit = ours.get((unit, folded_name(rec["name"]), rec.get("type", "")))
            if hit is not None and hit != rec["id"]:
                out[rec["id"]] = hit
    kept = {r["id"] for r in theirs if r["id"] not in out}
    targets: dict[str, int] = {}
    for hit in out.values():
        targets[hit] = targets.get(hit, 0) + 1
    return {k: v for k, v in out.items() if v not in kept and targets[v] == 1}


def _renamed(value, units: dict[str, str], exact: dict[str, str]):
    """`value` with every id of a matched unit (and its weapons', abilities') replaced by the store's."""
    if not units and not exact:
        return value
    if isinstance(value, dict):
        return {k: (_renamed(v, units, exact) if k != "source" else v) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, units, exact) for v in value]
    if isinstance(value, str) and "/" in value and " " not in value:
        if value in exact:
            return exact[value]
        unit = _datasheet_of(value)
        if unit in units:
            return units[unit] + value[len(unit):]
    return value


def _list_unmatched(ours: dict, taken: set, theirs, renamed, source_name, report: Report) -> None:
    """Each unit one whole-game source gives and the other does not: a warning at the unit."""
    their_sources = {source_name(p["file"]) for _r, p in theirs}
    for rid in sorted(ours):
        rec = ours[rid]
        src = rec["source"][0]
        if rid in taken or source_name(src["file"]) in their_sources or not _whole_game(src):
            continue
        report.warning(src["file"], src["first_line"], "unmatched-unit",
                       f"{rid} ({rec['name']}, {rec['faction']}) is in {source_name(src['file'])} only: "
                       f"no unit of {', '.join(sorted(their_sources))} has its name and a faction keyword of it",
                       expected="the same unit in every whole-game source", found="one source only")
    others = {source_name(r["source"][0]["file"]) for r in ours.values() if r.get("source") and _whole_game(r["source"][0])}
    if not others:
        return
    for rec, prov in theirs:
        if rec["id"] in ours or rec["id"] in renamed:
            continue
        report.warning(prov["file"], prov["first_line"], "unmatched-unit",
                       f"{rec['id']} ({rec['name']}, {rec['faction']}) is in {source_name(prov['file'])} only: "
                       f"no unit of {', '.join(sorted(others))} has its name and a faction keyword of it",
                       expected="the same unit in every whole-game source", found="one source only")


def _whole_game(prov: dict) -> bool:
    """A record of a whole-game source (a table row or a catalogue entry), not of one page."""
    return source_of(prov["file"]) != prov["file"]


def note_agreement(entry: dict, agrees: list[str], differs: dict) -> dict:
    """`entry` (one source's provenance) saying which compared fields agree and which differ (with its value)."""
    out = dict(entry)
    if agrees:
        out["agrees"] = sorted(set(out.get("agrees", ())) | set(agrees))
    if differs:
        out["differs"] = dict(sorted({**out.get("differs", {}), **differs}.items()))
    return out
