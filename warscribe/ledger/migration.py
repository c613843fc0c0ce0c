"""From 10th edition to 11th: what changed for each unit when the edition did.

A comparison of two builds of one edition goes record by record (:mod:`warscribe.ledger.diff`);
across editions every id, rule and most texts differ, so that comparison says nothing a player
can use. `migrate(old, new)` instead matches each 10th-edition unit with its 11th-edition
datasheet, as the two-source merge matches one unit of two sources: by faction and folded name
(:func:`warscribe.extract.sources_merge.folded_name`), then loosely (singular, one spelling:
``loose_words``), then by a name spelt alike within the faction (``paired``); and reports per
unit what a player re-checks:

- characteristics per model line (M, T, Sv, W, Ld, OC) and the invulnerable save, and whether
  the invulnerable save moved from an ability into the statline;
- weapons (matched by name and type): profile changes, weapon abilities renamed or replaced
  (a rename is what the data itself shows: an ability lost on one weapon exactly where another
  is gained, on at least ``RENAME_MIN`` weapons, and that for most weapons losing it:
  :func:`ability_renames`), gained and lost; weapons only in one edition;
- abilities gained and lost (by name), points per unit size, Leader / Support;
- units only in one edition, and a summary per faction.

The edition of a build is its datasheets' ``ruleset`` (:func:`edition`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from warscribe.extract.sources_merge import folded_name, loose_words, paired
from warscribe.ledger.model import Side
from warscribe.schema.bundle import Bundle

CHARACTERISTICS = ("M", "T", "Sv", "W", "Ld", "OC")
PROFILE = ("range", "attacks", "skill", "strength", "ap", "damage")
RENAME_MIN = 3  # weapons on which an ability must be replaced by another for the data to show a rename
_INVULNERABLE = re.compile(r"invulnerable save", re.I)
_SUFFIX = re.compile(r"\s+(ranged|melee)$")
# Abilities every attached unit names, shown as Leader / Support instead.
_ATTACH = {"leader", "support"}


def edition(bundle: Bundle) -> str | None:
    """The edition of a build: the ruleset most of its matched-play datasheets are of."""
    rulesets = Counter(r.get("ruleset") for r in bundle.kind("datasheet") if not r.get("game_mode"))
    return rulesets.most_common(1)[0][0] if rulesets else None


@dataclass
class Change:
    """One thing a player re-checks about a unit: kind is characteristic | invulnerable | weapon | weapon-ability |
    ability | points | attach | keywords."""

    kind: str
    what: str
    old: object = None
    new: object = None
    note: str = ""

    def as_dict(self) -> dict:
        return {"kind": self.kind, "what": self.what, "old": self.old, "new": self.new, "note": self.note}


@dataclass
class Unit:
    faction: str
    name: str
    old_id: str
    new_id: str
    matched: str  # name | loose | spelling | name, another army: how the two editions' datasheets were matched
    old_name: str = ""
    changes: list[Change] = field(default_factory=list)

    def count(self, kind: str) -> int:
        return sum(1 for c in self.changes if c.kind == kind)

    def as_dict(self) -> dict:
        return {"faction": self.faction, "name": self.name, "old_name": self.old_name, "old_record": self.old_id,
                "record": self.new_id, "matched": self.matched, "changes": [c.as_dict() for c in self.changes]}


@dataclass
class Migration:
    old: Side
    new: Side
    units: list[Unit] = field(default_factory=list)
    only_old: list[dict] = field(default_factory=list)  # {faction, name, record}
    only_new: list[dict] = field(default_factory=list)
    renames: list[dict] = field(default_factory=list)  # {old, new, weapons, of}: ability renames the data shows
    editions: tuple = ("10e", "11e")

    def factions(self) -> list[str]:
        names = {u.faction for u in self.units} | {r["faction"] for r in self.only_old + self.only_new}
        return sorted(names, key=str.casefold)

    def summary(self, faction: str | None = None) -> dict:
        units = [u for u in self.units if faction is None or u.faction == faction]
        mine = lambda rows: [r for r in rows if faction is None or r["faction"] == faction]  # noqa: E731
        out = {"matched": len(units), "only_old": len(mine(self.only_old)), "only_new": len(mine(self.only_new)),
               "changed": sum(1 for u in units if u.changes)}
        for kind in ("characteristic", "invulnerable", "weapon", "weapon-ability", "ability", "points", "attach",
                     "keywords"):
            out[kind] = sum(u.count(kind) for u in units)
        out["invulnerable_into_statline"] = sum(1 for u in units for c in u.changes
                                                if c.kind == "invulnerable" and "statline" in c.note)
        return out

    def for_record(self, record_id: str) -> Unit | None:
        """The migration of the 11th-edition datasheet `record_id`, if it was matched."""
        if not hasattr(self, "_by_new"):
            self._by_new = {u.new_id: u for u in self.units}
        return self._by_new.get(record_id)

    def as_dict(self) -> dict:
        return {"sides": {"old": self.old.as_dict(), "new": self.new.as_dict()}, "editions": list(self.editions),
                "summary": dict(self.summary(), factions=[dict(self.summary(f), faction=f) for f in self.factions()]),
                "renames": self.renames, "units": [u.as_dict() for u in self.units],
                "only_old": self.only_old, "only_new": self.only_new}


# -- matching ----------------------------------------------------------------------------------


def _live(bundle: Bundle) -> list[dict]:
    return [r for r in bundle.kind("datasheet") if not r.get("game_mode") and r.get("name")]


def _faction_key(name: str | None) -> str:
    return "".join(loose_words(name or ""))


def match_units(old: Bundle, new: Bundle) -> tuple[list[tuple[dict, dict, str]], list[dict], list[dict]]:
    """(old, new, how) pairs of datasheets, and those of each edition left over."""
    olds: dict[str, list[dict]] = {}
    news: dict[str, list[dict]] = {}
    for rec in sorted(_live(old), key=lambda r: r["id"]):
        olds.setdefault(_faction_key(rec.get("faction")), []).append(rec)
    for rec in sorted(_live(new), key=lambda r: r["id"]):
        news.setdefault(_faction_key(rec.get("faction")), []).append(rec)
    pairs: list[tuple[dict, dict, str]] = []
    left_old: list[dict] = []
    left_new: list[dict] = []
    for fkey in sorted(set(olds) | set(news)):
        a, b = list(olds.get(fkey, [])), list(news.get(fkey, []))
        for how, key in (("name", folded_name), ("loose", lambda n: "".join(loose_words(n)))):
            index: dict[str, list[dict]] = {}
            for rec in b:
                index.setdefault(key(rec["name"]), []).append(rec)
            rest = []
            for rec in a:
                hits = index.get(key(rec["name"])) or []
                if hits:
                    other = hits.pop(0)
                    b.remove(other)
                    pairs.append((rec, other, how))
                else:
                    rest.append(rec)
            a = rest
        by_old = {folded_name(r["name"]): r for r in a}
        by_new = {folded_name(r["name"]): r for r in b}
        for x, y in sorted(paired(sorted(by_old), sorted(by_new), affixes=False).items()):
            pairs.append((by_old[x], by_new[y], "spelling"))
            a.remove(by_old[x])
            b.remove(by_new[y])
        left_old += a
        left_new += b
    # A unit filed under another army in the other edition (Adeptus Titanicus, Titan Legions; a
    # chapter's own unit): by its folded name where one unit of each edition alone has it.
    by_old: dict[str, list[dict]] = {}
    by_new: dict[str, list[dict]] = {}
    for rec in left_old:
        by_old.setdefault(folded_name(rec["name"]), []).append(rec)
    for rec in left_new:
        by_new.setdefault(folded_name(rec["name"]), []).append(rec)
    for key in sorted(set(by_old) & set(by_new)):
        if len(by_new[key]) != 1:
            continue
        rec = by_new[key][0]
        # Of several (a Warlord Titan of both Titanicus armies in 10th), the one sharing the most keywords.
        scored = sorted(((-len(set(o.get("keywords") or []) & set(rec.get("keywords") or [])), o["id"], o)
                         for o in by_old[key]), key=lambda t: t[:2])
        if len(scored) > 1 and scored[0][0] == scored[1][0]:
            continue
        pairs.append((scored[0][2], rec, "name, another army"))
        left_old.remove(scored[0][2])
        left_new.remove(rec)
    return pairs, left_old, left_new


# -- weapons ------------------------------------------------------------------------------------


def _weapon_key(w: dict) -> tuple[str, str]:
    """A weapon as both editions name it: 'Guardian spear – Ranged' is the 10th's ranged 'Guardian Spear'."""
    name = _SUFFIX.sub("", folded_name(str(w.get("name", ""))))
    return (name, "melee" if w.get("type") == "melee" else "ranged")


def _weapons(bundle: Bundle, ds: dict) -> dict[tuple[str, str], dict]:
    out: dict[tuple[str, str], dict] = {}
    for w in bundle.weapons_of(ds):
        out.setdefault(_weapon_key(w), w)
    return out


def weapon_pairs(wa: dict, wb: dict) -> tuple[list[tuple], list, list]:
    """Weapons of one unit in both editions: by name and type, then loosely (Twin power fist, fists), then
    spelt alike (Absolvor, Absolver); and the keys left on each side."""
    pairs = [(k, k) for k in wb if k in wa]
    left_a = [k for k in wa if k not in wb]
    left_b = [k for k in wb if k not in wa]
    loose = {(("".join(loose_words(k[0]))), k[1]): k for k in left_b}
    for k in list(left_a):
        other = loose.pop(("".join(loose_words(k[0])), k[1]), None)
        if other is not None and other in left_b:
            pairs.append((k, other))
            left_a.remove(k)
            left_b.remove(other)
    for kind in ("ranged", "melee"):
        xs = {k[0]: k for k in left_a if k[1] == kind}
        ys = {k[0]: k for k in left_b if k[1] == kind}
        for x, y in sorted(paired(sorted(xs), sorted(ys), affixes=False).items()):
            pairs.append((xs[x], ys[y]))
            left_a.remove(xs[x])
            left_b.remove(ys[y])
    return pairs, left_a, left_b


def _ability_ids(w: dict) -> set[str]:
    return {str(a.get("id")) for a in w.get("abilities") or [] if isinstance(a, dict) and a.get("id")}


def _ability_label(w: dict, ability_id: str) -> str:
    for a in w.get("abilities") or []:
        if isinstance(a, dict) and a.get("id") == ability_id:
            return f"[{str(a.get('text') or ability_id).upper()}]"
    return f"[{ability_id.upper()}]"


def ability_renames(weapon_pairs: list[tuple[dict, dict]]) -> list[dict]:
    """Weapon abilities the data shows renamed or replaced across the editions.

    On a weapon of both editions that lost exactly one ability and gained exactly one, the two are
    a candidate; (lost, gained) is a rename when it is so on at least RENAME_MIN weapons and on
    more than half of the weapons that lost that ability."""
    swaps: Counter = Counter()
    lost: Counter = Counter()
    for a, b in weapon_pairs:
        x, y = _ability_ids(a), _ability_ids(b)
        gone, came = x - y, y - x
        for g in gone:
            lost[g] += 1
        if len(gone) == 1 and len(came) == 1:
            swaps[(next(iter(gone)), next(iter(came)))] += 1
    out = []
    for (g, c), n in sorted(swaps.items()):
        if n >= RENAME_MIN and n * 2 > lost[g]:
            out.append({"old": g, "new": c, "weapons": n, "of": lost[g]})
    return out


def _weapon_changes(wa: dict, wb: dict, renames: dict[str, str]) -> list[Change]:
    name = str(wb.get("name"))
    out = []
    for k in PROFILE:
        if wa.get(k) != wb.get(k):
            out.append(Change("weapon", f"{name}: {k}", wa.get(k), wb.get(k)))
    x, y = _ability_ids(wa), _ability_ids(wb)
    gone, came = sorted(x - y), sorted(y - x)
    for g in list(gone):
        r = renames.get(g)
        if r in came:
            out.append(Change("weapon-ability", f"{name}: {_ability_label(wa, g)} -> {_ability_label(wb, r)}",
                              _ability_label(wa, g), _ability_label(wb, r), "renamed"))
            gone.remove(g)
            came.remove(r)
    for g in gone:
        out.append(Change("weapon-ability", f"{name}: {_ability_label(wa, g)}", _ability_label(wa, g), None, "lost"))
    for c in came:
        out.append(Change("weapon-ability", f"{name}: {_ability_label(wb, c)}", None, _ability_label(wb, c), "gained"))
    return out


# -- a unit ---------------------------------------------------------------------------------------


def _models(ds: dict) -> dict[str, dict]:
    return {folded_name(str(m.get("name", ""))): m for m in ds.get("models") or [] if isinstance(m, dict)}


def _abilities(ds: dict) -> dict[str, dict]:
    return {folded_name(str(a.get("name", ""))): a for a in ds.get("abilities") or []
            if isinstance(a, dict) and a.get("name")}


def _invulnerable_ability(ds: dict) -> bool:
    return any(_INVULNERABLE.search(str(a.get("name", ""))) for a in ds.get("abilities") or [] if isinstance(a, dict))


def _first_prices(ds: dict) -> dict[int, int]:
    """Matched-play points per unit size, from the first selection (no condition, no requisition tier)."""
    return {p["models"]: p["points"] for p in ds.get("points") or []
            if isinstance(p, dict) and not p.get("condition") and not p.get("from_copy")
            and isinstance(p.get("models"), int)}


def _role(ds: dict) -> str | None:
    return "Leader" if ds.get("leader") else "Support" if ds.get("support") else None


def unit_changes(old: Bundle, new: Bundle, a: dict, b: dict, renames: dict[str, str]) -> list[Change]:
    out: list[Change] = []
    ma, mb = _models(a), _models(b)
    shared = [k for k in mb if k in ma] or ([next(iter(mb))] if mb and ma else [])
    for key in shared:
        x = ma.get(key) or next(iter(ma.values()))
        y = mb[key]
        label = str(y.get("name", ""))
        for c in CHARACTERISTICS:
            if x.get(c) != y.get(c):
                out.append(Change("characteristic", f"{label}: {c}", x.get(c), y.get(c)))
        inv_a, inv_b = x.get("invulnerable"), y.get("invulnerable")
        if inv_a != inv_b:
            out.append(Change("invulnerable", f"{label}: invulnerable save", inv_a, inv_b))
        elif inv_b and _invulnerable_ability(a) and not _invulnerable_ability(b):
            out.append(Change("invulnerable", f"{label}: invulnerable save", inv_a, inv_b,
                              "was an ability, now in the statline"))
    if any(c.kind == "invulnerable" for c in out) and _invulnerable_ability(a) and not _invulnerable_ability(b):
        for c in out:
            if c.kind == "invulnerable" and not c.note:
                c.note = "was an ability, now in the statline"
    wa, wb = _weapons(old, a), _weapons(new, b)
    both, only_a, only_b = weapon_pairs(wa, wb)
    for ka, kb in both:
        if folded_name(str(wa[ka].get("name"))) != folded_name(str(wb[kb].get("name"))) and ka[0] != kb[0]:
            out.append(Change("weapon", f"{wb[kb].get('name')}: name", wa[ka].get("name"), wb[kb].get("name"), "renamed"))
        out += _weapon_changes(wa[ka], wb[kb], renames)
    for key in sorted(only_a):
        out.append(Change("weapon", str(wa[key].get("name")), str(wa[key].get("name")), None, "weapon only in the old edition"))
    for key in sorted(only_b):
        out.append(Change("weapon", str(wb[key].get("name")), None, str(wb[key].get("name")), "weapon only in the new edition"))
    aa, ab = _abilities(a), _abilities(b)
    for k in sorted(set(aa) - set(ab)):
        if k not in _ATTACH and not _INVULNERABLE.search(k):
            out.append(Change("ability", str(aa[k]["name"]), str(aa[k]["name"]), None, "lost"))
    for k in sorted(set(ab) - set(aa)):
        if k not in _ATTACH and not _INVULNERABLE.search(k):
            out.append(Change("ability", str(ab[k]["name"]), None, str(ab[k]["name"]), "gained"))
    pa, pb = _first_prices(a), _first_prices(b)
    for size in sorted(set(pa) | set(pb)):
        if pa.get(size) != pb.get(size):
            out.append(Change("points", f"{size} model{'s' if size != 1 else ''}", pa.get(size), pb.get(size)))
    ra, rb = _role(a), _role(b)
    if ra != rb:
        out.append(Change("attach", "Leader / Support", ra, rb, f"{ra or 'neither'} became {rb or 'neither'}"))
    ka, kb = set(a.get("keywords") or []), set(b.get("keywords") or [])
    if ka != kb:
        out.append(Change("keywords", "keywords", sorted(ka - kb), sorted(kb - ka), "lost / gained"))
    return out


def migrate(old: Bundle, new: Bundle, sides: tuple[Side, Side]) -> Migration:
    """Every unit of `old` (10th edition) matched with its datasheet of `new` (11th), and what changed."""
    pairs, left_old, left_new = match_units(old, new)
    both = []
    for a, b, _how in pairs:
        wa, wb = _weapons(old, a), _weapons(new, b)
        both += [(wa[x], wb[y]) for x, y in weapon_pairs(wa, wb)[0]]
    found = ability_renames(both)
    renames = {r["old"]: r["new"] for r in found}
    out = Migration(sides[0], sides[1], renames=found, editions=(edition(old), edition(new)))
    for a, b, how in pairs:
        unit = Unit(b.get("faction") or "", b["name"], a["id"], b["id"], how, a["name"] if a["name"] != b["name"] else "")
        unit.changes = unit_changes(old, new, a, b, renames)
        out.units.append(unit)
    out.units.sort(key=lambda u: (u.faction.casefold(), u.name.casefold(), u.new_id))
    row = lambda r: {"faction": r.get("faction") or "", "name": r["name"], "record": r["id"]}  # noqa: E731
    out.only_old = sorted((row(r) for r in left_old), key=lambda r: (r["faction"].casefold(), r["name"].casefold()))
    out.only_new = sorted((row(r) for r in left_new), key=lambda r: (r["faction"].casefold(), r["name"].casefold()))
    return out


# -- output -------------------------------------------------------------------------------------


def shown(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) if value else "(none)"
    return str(value)


def change_line(c: Change) -> str:
    if c.kind in ("ability", "weapon-ability") and c.note in ("lost", "gained"):
        return f"{c.note} {c.what.split(': ', 1)[-1] if c.kind == 'ability' else c.what}"
    if c.note.startswith("weapon only"):
        return f"{c.what} ({c.note})"
    if c.kind == "keywords":
        return f"keywords: -[{shown(c.old)}] +[{shown(c.new)}]"
    note = f" ({c.note})" if c.note and c.kind != "weapon-ability" else ""
    if c.kind == "weapon-ability":
        return f"{c.what} (renamed)"
    return f"{c.what}: {shown(c.old)} -> {shown(c.new)}{note}"


SUMMARY_COLUMNS = (("matched", "units"), ("changed", "changed"), ("only_old", "only 10e"), ("only_new", "only 11e"),
                   ("characteristic", "stats"), ("invulnerable", "invuln"), ("weapon", "weapons"),
                   ("weapon-ability", "w.abil"), ("ability", "abilities"), ("points", "points"),
                   ("attach", "lead/sup"))


def render_text(m: Migration) -> str:
    from warscribe.ledger.render import side_line
    from warscribe.schema.text import printable

    s = m.summary()
    lines = [f"Edition migration: {m.old.label} ({m.editions[0]}) -> {m.new.label} ({m.editions[1]})",
             "  " + side_line("old", m.old), "  " + side_line("new", m.new),
             f"{s['matched']} units in both editions ({s['changed']} changed), {s['only_old']} only in "
             f"{m.editions[0]}, {s['only_new']} only in {m.editions[1]}; {s['invulnerable_into_statline']} "
             "invulnerable saves moved into the statline."]
    if m.renames:
        lines += ["", "Weapon abilities renamed or replaced (as the data shows it: weapons with the one where they "
                      "had the other):"]
        lines += [f"  [{r['old'].upper()}] -> [{r['new'].upper()}]: {r['weapons']} of {r['of']} weapons" for r in m.renames]
    width = max([len(f) for f in m.factions()] + [7])
    lines += ["", "Summary per faction:", "  " + "faction".ljust(width) + "".join(f" {label:>9}" for _k, label in SUMMARY_COLUMNS)]
    for f in m.factions() + [None]:
        c = m.summary(f)
        lines.append("  " + (f or "total").ljust(width) + "".join(f" {c[k]:>9}" for k, _l in SUMMARY_COLUMNS))
    for f in m.factions():
        lines += ["", f"== {f} =="]
        for u in m.units:
            if u.faction != f or not u.changes:
                continue
            lines.append(f"  {u.name}" + (f" (10th: {u.old_name})" if u.old_name else ""))
            lines += [f"    {change_line(c)}" for c in u.changes]
        olds = [r["name"] for r in m.only_old if r["faction"] == f]
        news = [r["name"] for r in m.only_new if r["faction"] == f]
        if olds:
            lines.append(f"  Only in {m.editions[0]}: " + ", ".join(olds))
        if news:
            lines.append(f"  Only in {m.editions[1]}: " + ", ".join(news))
    return "\n".join(printable(x) for x in lines) + "\n"


def render_markdown(m: Migration) -> str:
    from warscribe.ledger.diff import md_cell as md
    from warscribe.schema.text import printable

    s = m.summary()
    out = [f"# From {md(m.editions[0])} to {md(m.editions[1])}: {md(m.old.label)} → {md(m.new.label)}", "",
           f"**{s['matched']}** units in both editions (**{s['changed']}** changed), **{s['only_old']}** only in "
           f"{md(m.editions[0])}, **{s['only_new']}** only in {md(m.editions[1])}.", ""]
    if m.renames:
        out += ["| weapon ability | becomes | weapons |", "|---|---|---:|"]
        out += [f"| [{md(r['old'].upper())}] | [{md(r['new'].upper())}] | {r['weapons']} of {r['of']} |" for r in m.renames]
        out.append("")
    out += ["| faction | " + " | ".join(label for _k, label in SUMMARY_COLUMNS) + " |",
            "|---|" + "---:|" * len(SUMMARY_COLUMNS)]
    for f in m.factions() + [None]:
        c = m.summary(f)
        out.append(f"| {md(f or '**total**')} | " + " | ".join(str(c[k]) for k, _l in SUMMARY_COLUMNS) + " |")
    out.append("")
    for f in m.factions():
        out += [f"<details><summary><strong>{md(f)}</strong></summary>", "", "| unit | change |", "|---|---|"]
        for u in m.units:
            if u.faction == f:
                out += [f"| {md(u.name)} | {md(change_line(c))} |" for c in u.changes]
        out += ["", "</details>", ""]
    return "\n".join(printable(x) for x in out)
