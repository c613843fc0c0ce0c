"""Units matched across sources whose ids do not meet, and the fields' agreement recorded.

Ids are where sources meet (``schema/ids.py``), but two whole-game sources name the same
unit differently often enough: Wahapedia files Azrael under Space Marines, BattleScribe
under its Dark Angels catalogue; one writes "[Legends]" where the other does not, or a
curly apostrophe; a weapon is "The Sword of Asur" in one and "Sword of Asur" in the
other. :func:`match_units` finds, for each datasheet of a later source with no record of
its id in the store, the store's unit it is (a shared faction keyword, and the same folded
name; else the same name singular and unspaced, "Hell Blade" / "Hellblade"; else, within
one faction, a name spelt two ways), and gives the later source's records the store's ids
(their weapons and enhancements matched the same way), so the merge compares them field
by field (``extract/sources_compare.py``). What neither side matches is listed (``unmatched-unit``).

:func:`note_agreement` writes on a source's provenance entry which compared fields agree
with the kept value (``agrees``) and which give another (``differs``, with that value).
"""

from __future__ import annotations

import difflib
import re

from warscribe.schema.diagnostics import Report
from warscribe.schema.text import norm

# Marks that say something about a unit, not which unit it is.
_MARKS = re.compile(r"\[[^\]]*\]|\((?:legends|forge world|imperial armour|ref\.? only)\)", re.IGNORECASE)
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


def ranker(ranks: dict[str, int]):
    """`rank_of(file)`: the rank (`ranks`: source as cited -> its rank, lower first) of the
    source a provenance file belongs to (a page by its path, a table or catalogue by
    '<source>/<member>'); after all of them for a file of none."""
    last = max(ranks.values(), default=0) + 1

    def rank_of(file: str) -> int:
        while file:
            if file in ranks:
                return ranks[file]
            file = file.rpartition("/")[0]
        return last
    return rank_of


def folded_name(name: str) -> str:
    """A unit's or weapon's name as sources spell it alike: marks, case, punctuation, 'the ' and '➤' gone."""
    text = _MARKS.sub(" ", norm(name).replace("➤", " ")).casefold()
    text = text.replace("'", "").replace("\u2019", "")
    words = _NOT_WORD.sub(" ", text).split()
    if words[:1] == ["the"] and len(words) > 1:
        words = words[1:]
    return " ".join(words)


# British and American spellings that both sources use ("Terminator Armour", "Air Defense").
_SPELLINGS = {"armour": "armor", "defence": "defense", "colour": "color", "armoured": "armored"}


def loose_words(name: str) -> list[str]:
    """`folded_name`'s words, each singular and in one spelling: the second chance of a name
    no unit of the other source has ("Hell Blade" / "Hellblade", "Piranhas" / "Piranha",
    "Armour" / "Armor"); joined without spaces, they are a key."""
    words = []
    for w in folded_name(name).split():
        w = _SPELLINGS.get(w, w)
        words.append(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return words


def _loose(name: str) -> str:
    return "".join(loose_words(name))


def _legends(rec: dict) -> bool:
    """A Legends datasheet: marked so (`legends`), or named so by a source that does not mark it."""
    return bool(rec.get("legends")) or "legends" in rec["name"].casefold()


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
    by_loose: dict[str, list[dict]] = {}
    for rid in sorted(ours):
        if rid not in taken:
            by_loose.setdefault(_loose(ours[rid]["name"]), []).append(ours[rid])
    # Exact folded names first, everywhere; only then the loose ones, so a loose match never
    # takes a unit another record names exactly.
    for index, key in ((by_name, folded_name), (by_loose, _loose)):
        for rec, _prov in sorted(theirs, key=lambda rp: rp[0]["id"]):
            if rec["id"] in ours or rec["id"] in renamed:
                continue
            best = _best_candidate(rec, [c for c in index.get(key(rec["name"]), ()) if c["id"] not in taken])
            if best is not None:
                taken.add(best["id"])
                renamed[rec["id"]] = best["id"]
    # Last, a name spelt two ways in one faction ("Vargard Obyron", "Varguard Obyron"): what is
    # left of each faction on both sides, paired by spelling alone (not by added words: one
    # "Soul Grinder" is not one of four god-specific ones).
    left_ours: dict[str, dict[str, dict]] = {}
    for rid in sorted(ours):
        if rid not in taken:
            left_ours.setdefault(folded_name(ours[rid]["faction"] or ""), {}).setdefault(folded_name(ours[rid]["name"]), ours[rid])
    left_theirs: dict[str, dict[str, dict]] = {}
    for rec, _prov in sorted(theirs, key=lambda rp: rp[0]["id"]):
        if rec["id"] not in ours and rec["id"] not in renamed:
            left_theirs.setdefault(folded_name(rec["faction"] or ""), {}).setdefault(folded_name(rec["name"]), rec)
    for faction in sorted(set(left_ours) & set(left_theirs)):
        mine, other = left_theirs[faction], left_ours[faction]
        for name, hit in paired(sorted(mine), sorted(other), affixes=False).items():
            taken.add(other[hit]["id"])
            renamed[mine[name]["id"]] = other[hit]["id"]
    both = {rid: rid for rid in taken} | renamed
    detachments = {r["id"]: r["id"] for r, _p in items if r["kind"] == "detachment" and r["id"] in store.records}
    weapon_ids = _part_renames(store, items, "weapon", both) | _part_renames(store, items, "enhancement", detachments)
    out = [(_renamed(rec, renamed, weapon_ids), prov) for rec, prov in items]
    _list_unmatched(ours, taken, theirs, renamed, source_name, report)
    return out


def _best_candidate(rec: dict, candidates: list[dict]) -> dict | None:
    """The candidate sharing a faction keyword, preferring the same faction, then the same [Legends] mark."""
    keys = {folded_name(k) for k in rec.get("faction_keywords") or ()}
    scored = []
    for cand in candidates:
        shared = keys & {folded_name(k) for k in cand.get("faction_keywords") or ()}
        same_faction = folded_name(cand["faction"] or "") == folded_name(rec["faction"] or "")
        if not shared and not same_faction:
            continue
        scored.append(((same_faction, _legends(cand) == _legends(rec), len(shared)), cand["id"], cand))
    if not scored:
        return None
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None  # two equally good units: guessing would merge the wrong one
    return scored[0][2]


def _part_renames(store, items, kind: str, units: dict[str, str]) -> dict[str, str]:
    """Weapons of a unit both sources give (or enhancements of a detachment) onto the store's
    record of the same folded name and type, under the parent `units` maps theirs to.

    A spelling variant ('The Sword of Asur', 'Sword of Asur') or a profile the other source
    orders differently (a ranged and a melee Triskele) must meet its own counterpart, not
    whatever weapon happens to get the same id. What is left of the unit's weapons on both
    sides after that is paired by spelling (:func:`paired`: 'Distensible jaw', 'Distendible
    jaw'; 'Spiked wheels', 'Spiked wheel'), within one type. A rename that would land on a
    weapon the later source also has under that id, or two weapons on one, is not made.
    """
    wanted = set(units.values())
    ours: dict[str, dict[tuple[str, str], str]] = {}
    for rid, r in store.records.items():
        if r["kind"] == kind and _datasheet_of(rid) in wanted:
            ours.setdefault(_datasheet_of(rid), {}).setdefault((folded_name(r["name"]), r.get("type", "")), rid)
    theirs = [r for r, _p in items if r["kind"] == kind]
    out: dict[str, str] = {}
    hit_ids: set[str] = set()
    left: dict[tuple[str, str], dict[str, str]] = {}  # (unit, type) -> folded name -> their id
    for rec in theirs:
        unit = units.get(_datasheet_of(rec["id"]))
        if unit is None:
            continue
        hit = ours.get(unit, {}).get((folded_name(rec["name"]), rec.get("type", "")))
        if hit is None:
            left.setdefault((unit, rec.get("type", "")), {}).setdefault(folded_name(rec["name"]), rec["id"])
            continue
        hit_ids.add(hit)
        if hit != rec["id"]:
            out[rec["id"]] = hit
    for (unit, wtype), names in sorted(left.items()):
        free = {name: rid for (name, t), rid in ours.get(unit, {}).items() if t == wtype and rid not in hit_ids}
        for mine, other in paired(sorted(names), sorted(free)).items():
            out[names[mine]] = free[other]
    kept = {r["id"] for r in theirs if r["id"] not in out}
    targets: dict[str, int] = {}
    for hit in out.values():
        targets[hit] = targets.get(hit, 0) + 1
    return {k: v for k, v in out.items() if v not in kept and targets[v] == 1}


# Two names this alike (difflib's ratio of their letters) are one name spelt two ways
# ("Polychromatic Camoflage", "Distendible jaw"); below it, different things ("Master-crafted
# boltgun", "Master-crafted bolt rifle": 0.81).
SPELLING = 0.85


def paired(ours: list[str], theirs: list[str], affixes: bool = True) -> dict[str, str]:
    """Folded names of one source left over after exact matching, paired with the other's spelt alike.

    Each pairs with the most alike name of the other side when that is at least `SPELLING`
    alike (letters only), or when one is the other with words before or after it (the unit's
    name: 'Novitiate autogun', 'autogun'; a profile's: 'Heavy plasma cannon - supercharge'
    where the other source has one profile; not with `affixes` False); one to one, best pairs
    first, ties broken by the names.
    """
    scored = []
    for x in ours:
        cx = x.replace(" ", "")
        wx = loose_words(x)
        matcher = difflib.SequenceMatcher(None, "", cx, autojunk=False)
        for y in theirs:
            cy = y.replace(" ", "")
            if not cx or not cy:
                continue
            matcher.set_seq1(cy)
            if matcher.real_quick_ratio() >= SPELLING and matcher.quick_ratio() >= SPELLING \
                    and (r := matcher.ratio()) >= SPELLING:
                scored.append((-r, x, y))
            elif affixes and _affixed(wx, loose_words(y)):
                scored.append((-SPELLING, x, y))
    out: dict[str, str] = {}
    used: set[str] = set()
    for _r, x, y in sorted(scored):
        if x not in out and y not in used:
            out[x] = y
            used.add(y)
    return out


def _affixed(a: list[str], b: list[str]) -> bool:
    """One word list is the other with words before or after it."""
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    n = len(short)
    return 0 < n < len(long_) and (long_[:n] == short or long_[-n:] == short)


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
