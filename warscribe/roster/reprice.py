"""What a list costs by the knowledge base, against what it declares; what changed for it between two builds.

A unit costs the points its datasheet gives for its size plus those of its
enhancements. 10th edition: a datasheet's points are tiers ``{models, points}``; a unit
of N models costs the tier of the largest size not above N (BattleScribe gives '11
models' for 'more than 10', so a 20-model unit costs that tier). 11th edition (the
Munitorum Field Manual's rules, ``warscribe.extract.fieldmanual.price``): a unit between
two listed sizes pays the next size up; the Nth selection of a datasheet pays the tier
of its requisition threshold (``from_copy``); priced wargear and add-on models
(``extra_points``) cost their points per item the list shows. A tier under a condition
is used only where the condition is one the list settles ('Army Faction is not Imperium
- Agents of the Imperium'); any other is named in the price's note, not applied.

Which selection a unit is: the copies of one datasheet are numbered so that those the
list prices dearest (over their first-selection price) are the later ones, the list's
order breaking ties; a list that prints its dearer copy first is not misread.

:func:`record_changes` is the piece the change ledger reuses: for a set of record ids
(those an army uses), what changed in each between two builds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.extract.fieldmanual.price import price as manual_price
from warscribe.roster import names
from warscribe.roster.resolve import Resolution, UnitResult, resolve
from warscribe.schema.bundle import Bundle

_NOT_FACTION = re.compile(r"^Army Faction is not\s+(?P<faction>.+)$", re.I)


@dataclass
class Price:
    unit: int
    line: int
    name: str
    declared: int | None
    datasheet: int | None = None  # the datasheet's points for the unit's size
    enhancements: int | None = 0  # its enhancements' points (None: one is not resolved)
    models: int | None = None
    tier: int | None = None  # the size whose points were used
    notes: list[str] = field(default_factory=list)
    copy: int | None = None  # 11e: which selection of its datasheet this unit is (1 = the first)
    threshold: int | None = None  # 11e: the requisition threshold whose tier was used (None: from the first)
    wargear: int = 0  # 11e: priced wargear and add-on models ('extra_points'), per item shown

    @property
    def kb(self) -> int | None:
        if self.datasheet is None or self.enhancements is None:
            return None
        return self.datasheet + self.enhancements + self.wargear

    @property
    def delta(self) -> int | None:
        return None if self.kb is None or self.declared is None else self.kb - self.declared

    def as_dict(self) -> dict:
        return {"unit": self.unit, "line": self.line, "name": self.name, "declared": self.declared, "kb": self.kb,
                "datasheet": self.datasheet, "enhancements": self.enhancements, "models": self.models,
                "tier": self.tier, "delta": self.delta, "notes": self.notes, "copy": self.copy,
                "threshold": self.threshold, "wargear": self.wargear}


@dataclass
class Repricing:
    units: list[Price]
    declared_total: int | None  # the list's own total
    declared_sum: int | None  # the sum of its units' declared points
    kb_total: int | None  # None when a unit could not be priced
    unpriced: int

    def as_dict(self) -> dict:
        return {"declared_total": self.declared_total, "declared_sum": self.declared_sum, "kb_total": self.kb_total,
                "unpriced": self.unpriced, "units": [p.as_dict() for p in self.units]}


def tiers(datasheet: dict, army: set[str]) -> tuple[list[dict], list[str]]:
    """The points tiers that apply to `datasheet` in an army of these factions, and notes on the others."""
    plain = [t for t in datasheet.get("points", []) if not t.get("condition")]
    notes = []
    army_keys = {names.key(f) for f in army}
    for t in datasheet.get("points", []):
        cond = t.get("condition")
        if not cond:
            continue
        m = _NOT_FACTION.match(cond)
        if m and army_keys:
            faction = names.key(names.ALLIANCE_PREFIX.sub("", m.group("faction")))
            if faction not in army_keys and not any(f.startswith(faction) or faction.startswith(f) for f in army_keys):
                plain = [x for x in plain if x["models"] != t["models"]] + [t]
                notes.append(f"priced as '{cond}' ({t['models']} models: {t['points']})")
            continue
        notes.append(f"a price under the condition {cond!r} ({t['models']} models: {t['points']}) is not applied")
    return sorted(plain, key=lambda t: t["models"]), notes


def datasheet_points(datasheet: dict, models: int | None, army: set[str]) -> tuple[int | None, int | None, list[str]]:
    """(points, the tier's size, notes) of a unit of `models` models."""
    found, notes = tiers(datasheet, army)
    if not found:
        return None, None, notes
    if models is None:
        return found[0]["points"], found[0]["models"], notes + ["unit size unknown: the smallest size's points"]
    fitting = [t for t in found if t["models"] <= models]
    if not fitting:
        return found[0]["points"], found[0]["models"], notes + [f"{models} models is fewer than the smallest priced "
                                                               f"size ({found[0]['models']})"]
    return fitting[-1]["points"], fitting[-1]["models"], notes


def is_11e(datasheet: dict) -> bool:
    return datasheet.get("ruleset") == "11e"


def manual_points(datasheet: dict, models: int | None, copy: int, army: set[str]) -> tuple[int | None, int | None,
                                                                                          int | None, list[str]]:
    """11e: (points, the listed size paid, the requisition threshold of the tier used, notes) of the `copy`-th selection."""
    entries, notes = tiers(datasheet, army)
    if not entries:
        return None, None, None, notes
    plain = [dict(e, condition=None) for e in entries]
    if models is None:
        models = min(e["models"] for e in plain)
        notes = notes + ["unit size unknown: the smallest size's points"]
    if models < 1:
        return None, None, None, notes + [f"{models} models"]
    cost = manual_price(plain, models, copy)
    reached = [e.get("from_copy") for e in plain if (e.get("from_copy") or 1) <= copy]
    threshold = max((t for t in reached if t), default=None)
    sizes = sorted({e["models"] for e in plain if (e.get("from_copy") or 1) == (threshold or 1)})
    paid = next((s for s in sizes if s >= models), None)
    if cost is None:
        below = models < (sizes[0] if sizes else 0)
        notes = notes + [f"{models} models is {'fewer than the smallest' if below else 'more than the largest'} "
                         f"priced size ({', '.join(map(str, sizes))})"]
    return cost, paid, threshold, notes


_COUNTED = re.compile(r"^(?:(?P<n>\d+)\s*x\s+)?(?P<name>.+?)$", re.I)
_WITH = re.compile(r"^(?P<n>\d+)\s+with\s+(?P<rest>.+)$", re.I)


def wargear_count(unit, item: str) -> int:
    """How many of `item` the unit's lines show ('3x Ion rifle', '2 with Ion rifle, ...', a model line 'Invader ATV')."""
    want = names.key(item)
    total = 0
    for n, raw in enumerate(unit.raw):
        text = raw.strip().lstrip("•◦▪‣∙·-* ").strip()
        if n == 0 and ":" not in text:
            continue  # the unit's own line, with no wargear on it
        if ":" in text:
            text = text.split(":", 1)[1]
        many = 1
        w = _WITH.match(text.strip())
        if w:
            many, text = int(w.group("n")), w.group("rest")
        for part in text.split(","):
            m = _COUNTED.match(part.strip())
            if m and names.key(m.group("name")) == want:
                total += many * int(m.group("n") or 1)
    return total


def price_unit(i: int, ur: UnitResult, army: set[str], copy: int = 1) -> Price:
    p = Price(i, ur.unit.line, ur.unit.name, ur.unit.points, models=ur.models)
    if ur.models_inferred:
        p.notes.append(f"the list prints no models: {ur.models} assumed (the datasheet's smallest unit)")
    rec = ur.datasheet.record
    if rec is not None and is_11e(rec):
        p.copy = copy
        p.datasheet, p.tier, p.threshold, notes = manual_points(rec, ur.models, copy, army)
        p.notes += notes
        for extra in rec.get("extra_points") or []:
            n = wargear_count(ur.unit, extra["name"])
            if n:
                p.wargear += n * extra["points"]
                p.notes.append(f"{n} x {extra['name']} at {extra['points']}")
    elif rec is not None:
        p.datasheet, p.tier, notes = datasheet_points(rec, ur.models, army)
        p.notes += notes
    total = 0
    for _enh, m in ur.enhancements:
        if m.record is None or not isinstance(m.record.get("points"), int):
            total = None
            break
        total += m.record["points"]
    p.enhancements = total
    return p


def copy_numbers(res: Resolution) -> dict[int, int]:
    """11e: each unit's selection number among the units of its datasheet (see the module's note)."""
    groups: dict[str, list[int]] = {}
    for i, ur in enumerate(res.units):
        if ur.datasheet.record is not None and is_11e(ur.datasheet.record):
            groups.setdefault(ur.datasheet.record["id"], []).append(i)
    out = {}
    for units in groups.values():
        def surplus(i: int) -> int:
            first = price_unit(i, res.units[i], res.army, 1)
            return (first.declared - first.kb) if first.declared is not None and first.kb is not None else 0
        for n, i in enumerate(sorted(units, key=lambda i: (surplus(i), i)), 1):
            out[i] = n
    return out


def reprice(res: Resolution) -> Repricing:
    copies = copy_numbers(res)
    prices = [price_unit(i, ur, res.army, copies.get(i, 1)) for i, ur in enumerate(res.units)]
    declared = [p.declared for p in prices]
    kb = [p.kb for p in prices]
    unpriced = sum(1 for v in kb if v is None)
    return Repricing(prices, res.roster.declared_total,
                     sum(declared) if declared and all(d is not None for d in declared) else None,
                     sum(kb) if not unpriced else None, unpriced)


# -- what changed between two builds --------------------------------------------------------


@dataclass
class RecordChange:
    id: str
    kind: str
    name: str
    old_id: str | None  # None: not in the old build
    new_id: str | None  # None: not in the new build
    fields: list  # warscribe.ledger.diff.FieldChange: path, old, new

    def as_dict(self) -> dict:
        return {"record": self.id, "kind": self.kind, "name": self.name, "old_id": self.old_id, "new_id": self.new_id,
                "fields": [{"path": f.path, "old": f.old, "new": f.new} for f in self.fields]}


def record_changes(old: Bundle, new: Bundle, pairs: list[tuple[str | None, str | None]]) -> list[RecordChange]:
    """For each (old id, new id) pair, the fields that differ between the two builds' records (provenance left out).

    The change ledger calls this with the ids an army uses; a pair whose sides are equal is left out.
    """
    from warscribe.ledger.diff import IGNORED, field_changes

    out = []
    for old_id, new_id in dict.fromkeys(pairs):
        a = old.get(old_id) if old_id else None
        b = new.get(new_id) if new_id else None
        if a is None and b is None:
            continue
        rec = b or a
        changes = field_changes(a or {}, b or {}, IGNORED)
        if a is not None and b is not None and not changes and old_id == new_id:
            continue
        out.append(RecordChange(rec["id"], rec["kind"], rec.get("name", ""), old_id if a else None,
                                new_id if b else None, changes))
    return out


def tier_changes(old: dict | None, new: dict | None) -> list[dict]:
    """Each price of a datasheet (size, requisition threshold, condition) that differs between two of its records."""
    def prices(rec):
        return {(e["models"], e.get("from_copy") or 1, e.get("condition") or ""): e["points"]
                for e in (rec or {}).get("points", [])}
    a, b = prices(old), prices(new)
    return [{"models": k[0], "from_copy": k[1], "condition": k[2] or None, "old": a.get(k), "new": b.get(k)}
            for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]


@dataclass
class ArmyChanges:
    old: str
    new: str
    units: list[dict]  # per unit: line, name, old and new datasheet ids, old and new price
    old_total: int | None
    new_total: int | None
    records: list[RecordChange]

    def as_dict(self) -> dict:
        return {"old": self.old, "new": self.new, "old_total": self.old_total, "new_total": self.new_total,
                "units": self.units, "records": [r.as_dict() for r in self.records]}


def army_changes(old_res: Resolution, new_res: Resolution) -> ArmyChanges:
    """What changed for this army between the build `old_res` was resolved against and `new_res`'s."""
    old_prices, new_prices = reprice(old_res), reprice(new_res)
    units, pairs = [], []
    for i, (a, b) in enumerate(zip(old_res.units, new_res.units)):
        oid = a.datasheet.record["id"] if a.datasheet.record else None
        nid = b.datasheet.record["id"] if b.datasheet.record else None
        pairs.append((oid, nid))
        for (_e, ma), (_f, mb) in zip(a.enhancements, b.enhancements):
            pairs.append((ma.record["id"] if ma.record else None, mb.record["id"] if mb.record else None))
        units.append({"unit": i, "line": a.unit.line, "name": a.unit.name, "old_id": oid, "new_id": nid,
                      "old": old_prices.units[i].kb, "new": new_prices.units[i].kb,
                      "tiers": tier_changes(a.datasheet.record, b.datasheet.record)})
    for a, b in zip(old_res.detachments, new_res.detachments):
        pairs.append((a.record["id"] if a.record else None, b.record["id"] if b.record else None))
    return ArmyChanges(old_res.kb.origin if old_res.kb else "", new_res.kb.origin if new_res.kb else "", units,
                       old_prices.kb_total, new_prices.kb_total, record_changes(old_res.kb, new_res.kb, pairs))


def since(res: Resolution, old_kb: Bundle) -> ArmyChanges:
    """The army of `res` resolved against an older build too, and what changed between the two."""
    return army_changes(resolve(res.roster, old_kb, res.ruleset), res)
