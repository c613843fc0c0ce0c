"""From the record-level comparison (`warscribe.ledger.diff.compare`) to the ledger: each change placed.

A change of a record field becomes one ledger item in one section, under the faction and
the group (unit, detachment) a player looks it up by: a datasheet's price tiers are points
changes per unit size, its models' characteristics and its weapons' profiles are profile
changes, its abilities' texts are text changes, and so on (`_FIELD_SECTIONS`). The noise
rules have run already (the comparison left that out); what no rule places is an "other"
change, never dropped.
"""

from __future__ import annotations

import json

from warscribe.ledger.diff import WEAPON_PROFILE, Change, Diff, FieldChange, word_diff
from warscribe.ledger import defence
from warscribe.ledger.model import CORE, SECTIONS, Cite, Item, Ledger, Side
from warscribe.schema.bundle import Bundle
from warscribe.schema.text import slugify

# (kind, top-level field) -> section; a kind's "*" is every other field of it.
_FIELD_SECTIONS: dict[tuple[str, str], str] = {
    ("datasheet", "points"): "points", ("datasheet", "extra_points"): "points",
    ("datasheet", "models"): "profiles", ("datasheet", "abilities"): "texts",
    ("enhancement", "points"): "points", ("enhancement", "*"): "detachments",
    ("enhancement", "bearers"): "other",
    ("detachment", "*"): "detachments",
    ("ability", "*"): "texts", ("rule", "*"): "texts",
    **{("weapon", f): "profiles" for f in WEAPON_PROFILE},
}
# Parts of an ability entry on a datasheet that are not its text: where it points, what kind it is.
_ABILITY_META = {"type", "ref", "psychic"}
CHARACTERISTICS = {"M": "M", "T": "T", "Sv": "Sv", "invulnerable": "invulnerable save", "W": "W", "Ld": "Ld",
                   "OC": "OC"}
WEAPON_LABELS = {"type": "type", "range": "range", "attacks": "A", "skill": "BS/WS", "strength": "S", "ap": "AP",
                 "damage": "D", "abilities": "abilities"}


class Places:
    """A record's faction and group as players name them, looked up in either build."""

    def __init__(self, old: Bundle, new: Bundle, sides: tuple[Side, Side] | None = None):
        self.old, self.new = old, new
        self.sides = sides or (None, None)
        self.slugs: dict[str, str] = {}
        for b in (new, old):
            for kind in ("datasheet", "detachment"):
                for rec in b.kind(kind):
                    if rec.get("faction"):
                        self.slugs.setdefault(slugify(rec["faction"]), rec["faction"])

    def find(self, record_id) -> dict | None:
        if not isinstance(record_id, str):
            return None
        return self.new.get(record_id) or self.old.get(record_id)

    def _prefix(self, rec: dict) -> str:
        return self.slugs.get(rec["id"].split("/", 1)[0], CORE)

    def faction(self, rec: dict) -> str:
        kind = rec.get("kind")
        if kind in ("datasheet", "detachment"):
            return rec.get("faction") or CORE
        if kind == "weapon":
            ds = self.find(rec.get("datasheet"))
            return ds.get("faction") or CORE if ds else self._prefix(rec)
        if kind in ("enhancement", "stratagem"):
            det = self.find(rec.get("detachment"))
            if det:
                return det.get("faction") or CORE
            return CORE if kind == "stratagem" and rec.get("origin") != "faction" else self._prefix(rec)
        if kind == "ability":
            return self._prefix(rec) if rec.get("type") == "faction" else CORE
        return CORE

    def group(self, rec: dict) -> str:
        kind = rec.get("kind")
        if kind == "weapon":
            ds = self.find(rec.get("datasheet"))
            return ds["name"] if ds else rec["id"].rsplit("/", 2)[-2]
        if kind in ("enhancement", "stratagem"):
            det = self.find(rec.get("detachment"))
            label = "Enhancements" if kind == "enhancement" else "Stratagems"
            return f"{det['name']}" if det else label
        if kind == "ability":
            return "Faction rules" if rec.get("type") == "faction" else "Core abilities"
        if kind == "rule":
            return "Core rules"
        if kind == "keyword":
            return "Keywords"
        return str(rec.get("name", rec["id"]))


def compose(old: Bundle, new: Bundle, diff: Diff, sides: tuple[Side, Side], engine: bool = True) -> Ledger:
    """The ledger of `diff` (compare(old, new)): every change placed, with its citations and impact."""
    places = Places(old, new, sides)
    items: list[Item] = []
    gone_units = {r["id"] for r in diff.removed if r["kind"] == "datasheet"}
    new_units = {r["id"] for r in diff.added if r["kind"] == "datasheet"}
    for rec in diff.added:
        if rec["kind"] != "weapon" or rec.get("datasheet") not in new_units:  # part of an added unit
            items += _whole(rec, "added", places, new)
    for rec in diff.removed:
        if rec["kind"] != "weapon" or rec.get("datasheet") not in gone_units:
            items += _whole(rec, "removed", places, old)
    for change in diff.changed:
        a, b = old.get(change.old_id), new.get(change.id)
        if a is not None and b is not None:
            items += _changed(change, a, b, places)
    items.sort(key=_order)
    records = {"added": len(diff.added), "removed": len(diff.removed), "changed": len(diff.changed),
               "renamed": sum(1 for c in diff.changed if c.renamed)}
    ledger = Ledger(sides[0], sides[1], items, weapons=diff.impact, noise=diff.noise.as_dict(), caveats=diff.caveats,
                    records=records)
    if engine:
        pairs = [(old.get(c.old_id), new.get(c.id)) for c in diff.changed if c.kind == "datasheet"]
        ledger.defence = defence.impact([(a, b) for a, b in pairs if a and b], places.faction)
    return ledger


def _order(item: Item) -> tuple:
    faction = item.faction if item.faction != CORE else "\uffff"  # core rules last
    return (list(SECTIONS).index(item.section), faction.casefold(), item.group.casefold(), item.kind != "datasheet",
            _tier_order(item), item.what.casefold())


def _tier_order(item: Item) -> tuple:
    if item.section == "points" and item.kind == "datasheet":
        size = item.what.split(" ", 1)[0]
        return (item.condition or "", int(size) if size.isdigit() else 10 ** 6)
    return ("", 0)


def _item(section: str, rec_old: dict | None, rec_new: dict | None, places: Places, what: str, **values) -> Item:
    rec = rec_new or rec_old
    group = places.group(rec)
    if rec["kind"] == "enhancement" and section != "detachments":  # under its detachment's name elsewhere
        group = f"Enhancements ({group})" if group != "Enhancements" else group
    top = (values.get("path") or "").split(".")[0].split("[")[0] or None
    return Item(section, places.faction(rec), group, rec["id"], rec["kind"], what,
                old_source=Cite.of(rec_old, places.sides[0], top), new_source=Cite.of(rec_new, places.sides[1], top),
                **values)


# -- whole records added or removed -------------------------------------------------------


def _whole(rec: dict, how: str, places: Places, bundle: Bundle) -> list[Item]:
    side = {"old": None, "new": rec} if how == "added" else {"old": rec, "new": None}
    a, b = side["old"], side["new"]
    kind = rec["kind"]
    value = summary(rec, bundle)
    values = {"new": value} if how == "added" else {"old": value}
    if kind in ("datasheet", "enhancement"):
        return [_item(how, a, b, places, rec.get("name", rec["id"]), note=how, **values)]
    if kind == "weapon":
        return [_item("profiles", a, b, places, f"{rec.get('name')}", note=f"weapon {how}", path="weapons", **values)]
    if kind == "detachment" or (kind == "stratagem" and rec.get("detachment")):
        return [_item("detachments", a, b, places, rec.get("name", rec["id"]), note=f"{kind} {how}", **values)]
    if kind in ("ability", "rule", "stratagem"):
        return [_item("texts", a, b, places, rec.get("name", rec["id"]), note=f"{kind} {how}", **values)]
    return [_item("other", a, b, places, rec.get("name", rec["id"]), note=f"{kind} {how}", **values)]


def summary(rec: dict, bundle: Bundle | None = None) -> str:
    """A record in one line, as a ledger shows an added or removed one."""
    kind = rec["kind"]
    if kind == "datasheet":
        prices = "; ".join(f"{t['models']} model{'s' if t['models'] != 1 else ''}: {t['points']} pts"
                           + (f" ({t['condition']})" if t.get("condition") else "") for t in rec.get("points") or [])
        weapons = len(rec.get("weapons") or [])
        return (prices or "no points") + (f"; {weapons} weapon{'s' if weapons != 1 else ''}" if weapons else "")
    if kind == "enhancement":
        bits = [f"{rec['points']} pts" if isinstance(rec.get("points"), int) else "no points"]
        if bundle is not None and bundle.get(rec.get("detachment") or ""):
            bits.append(bundle.get(rec["detachment"])["name"])
        if rec.get("restriction"):
            bits.append(rec["restriction"])
        return "; ".join(bits)
    if kind == "weapon":
        return weapon_profile(rec)
    if kind == "detachment":
        rule = rec.get("rule") or {}
        return f"rule: {rule.get('name')}" if rule.get("name") else ""
    if kind == "stratagem":
        return f"{rec.get('cp')}CP: {rec.get('effect') or ''}".strip()
    return str(rec.get("text") or "")


def weapon_profile(w: dict) -> str:
    rng = w.get("range")
    rng = "Melee" if rng in (None, "melee", "Melee") or w.get("type") == "melee" else f'{rng}"'
    skill = w.get("skill")
    skill = f"{skill}+" if isinstance(skill, int) else ("N/A" if skill is None else str(skill))
    abilities = [a.get("text") or a.get("id") for a in w.get("abilities") or [] if isinstance(a, dict)]
    out = f"{rng} A{w.get('attacks')} {skill} S{w.get('strength')} AP{w.get('ap')} D{w.get('damage')}"
    return out + (f" [{', '.join(abilities)}]" if abilities else "")


# -- changed records ------------------------------------------------------------------------


def _section(kind: str, top: str) -> str:
    return _FIELD_SECTIONS.get((kind, top)) or _FIELD_SECTIONS.get((kind, "*")) or "other"


def _changed(change: Change, a: dict, b: dict, places: Places) -> list[Item]:
    items: list[Item] = []
    if change.renamed and a.get("game_mode") != b.get("game_mode"):
        modes = {None: "matched play", "combat-patrol": "Combat Patrol"}
        items.append(_item("other", a, b, places, str(b.get("name")), old=modes.get(a.get("game_mode"), a.get("game_mode")),
                           new=modes.get(b.get("game_mode"), b.get("game_mode")), note=f"{b['kind']} moved: {a['id']} → {b['id']}",
                           path="game_mode"))
    elif change.renamed:
        items.append(_item("other", a, b, places, f"{a.get('name')} → {b.get('name')}", old=a.get("name"),
                           new=b.get("name"), note=f"{b['kind']} renamed", path="name"))
    done: set[str] = set()
    by_top: dict[str, list[FieldChange]] = {}
    for fc in change.fields:
        top = fc.at[0] if fc.at else fc.path.split(".")[0].split("[")[0]
        by_top.setdefault(top, []).append(fc)
    for top, fcs in by_top.items():
        if (top == "name" and change.renamed) or (top == "game_mode" and change.renamed):
            continue
        section = _section(b["kind"], top)
        if b["kind"] == "stratagem":
            section = "detachments" if b.get("detachment") else "texts"
        if b["kind"] == "datasheet" and top in ("points", "extra_points"):
            items += _points(a, b, places, top)
        elif b["kind"] == "enhancement" and top == "points":
            items.append(_item("points", a, b, places, b.get("name", b["id"]), old=a.get("points"), new=b.get("points"),
                               delta=_delta(a.get("points"), b.get("points")), path="points"))
        elif b["kind"] == "weapon" and top == "abilities":
            items.append(_item("profiles", a, b, places, f"{b.get('name')}: abilities", old=_abilities(a),
                               new=_abilities(b), path="abilities"))
        elif b["kind"] == "weapon" and top in WEAPON_LABELS:
            for fc in fcs:
                items.append(_item("profiles", a, b, places, f"{b.get('name')}: {WEAPON_LABELS[top]}", old=fc.old,
                                   new=fc.new, path=fc.path))
        elif b["kind"] == "datasheet" and top == "models":
            items += [_model_item(fc, a, b, places) for fc in fcs]
        elif b["kind"] == "datasheet" and top == "abilities":
            items += [_ability_item(fc, a, b, places) for fc in fcs]
        elif b["kind"] == "datasheet" and top in ("leader", "support"):
            if top not in done:
                items += _attachment(a, b, places, done)
        elif b["kind"] == "datasheet" and top in ("keywords", "faction_keywords"):
            items += _keywords(top, a, b, places)
        elif b["kind"] == "stratagem" and top == "cp":
            items += [_item(section, a, b, places, f"{b.get('name')}: CP", old=fc.old, new=fc.new,
                            delta=_delta(fc.old, fc.new), path=fc.path) for fc in fcs]
        elif b["kind"] == "stratagem" and top in ("when", "target", "effect", "restrictions"):
            items += [_field_item(section, fc, a, b, places, f"{b.get('name')}: {top.upper()}") for fc in fcs]
        else:
            items += [_field_item(section, fc, a, b, places) for fc in fcs]
    return items


def _delta(old, new) -> int | None:
    return new - old if isinstance(old, int) and isinstance(new, int) else None


def _tier_key(t: dict) -> tuple:
    return (t.get("condition") or None, t.get("from_copy") or None, t.get("models"))


def tier_label(models, copy) -> str:
    """'5 models', '5 models, 3rd+' (the price from the 3rd selection of the unit on: a requisition threshold)."""
    out = f"{models} model{'s' if models != 1 else ''}"
    return out + (f", {ordinal(copy)}+" if copy else "")


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _points(a: dict, b: dict, places: Places, top: str) -> list[Item]:
    """A datasheet's price per unit size (or its '+N' add-ons), old -> new, tier by tier."""
    out = []
    if top == "extra_points":
        old = {e.get("name"): e.get("points") for e in a.get("extra_points") or []}
        new = {e.get("name"): e.get("points") for e in b.get("extra_points") or []}
        for name in dict.fromkeys([*old, *new]):
            if old.get(name) != new.get(name):
                out.append(_item("points", a, b, places, f"+ {name}", old=old.get(name), new=new.get(name),
                                 delta=_delta(old.get(name), new.get(name)), path="extra_points"))
        return out
    old = {_tier_key(t): t.get("points") for t in a.get("points") or []}
    new = {_tier_key(t): t.get("points") for t in b.get("points") or []}
    for key in sorted(set(old) | set(new), key=lambda k: (k[0] or "", k[1] or 0, k[2] or 0)):
        x, y = old.get(key), new.get(key)
        if x == y:
            continue
        cond, copy, models = key
        what = "tier" if copy else "size"
        note = "" if x is not None and y is not None else (f"{what} no longer priced" if y is None else f"newly priced {what}")
        out.append(_item("points", a, b, places, tier_label(models, copy), old=x, new=y,
                         delta=_delta(x, y), condition=cond, note=note, path="points"))
    return out


def _attachment(a: dict, b: dict, places: Places, done: set[str]) -> list[Item]:
    """Leader and Support lists: a unit that became Support (or Leader) is one change with the units it
    can now join; else the units each list gained and lost, and its text."""
    done |= {"leader", "support"}
    def role(r: dict) -> str | None:
        return "leader" if r.get("leader") else "support" if r.get("support") else None

    def units(r: dict, key: str | None) -> list[str]:
        return sorted((r.get(key) or {}).get("units") or []) if key else []

    names = {"leader": "Leader", "support": "Support", None: "neither"}
    was, now = role(a), role(b)
    out = []
    if was != now:
        out.append(_item("other", a, b, places, "Leader / Support", old=names[was], new=names[now],
                         note=f"{names[was]} became {names[now]}", path=now or was or "leader"))
        out.append(_item("other", a, b, places, f"{names[now] if now else names[was]}: can be attached to",
                         old=units(a, was), new=units(b, now), note="", path=f"{now or was}.units"))
        return out
    for key in ("leader", "support"):
        x, y = units(a, key), units(b, key)
        if x != y:
            out.append(_item("other", a, b, places, f"{names[key]}: can be attached to", old=sorted(set(x) - set(y)),
                             new=sorted(set(y) - set(x)), note="removed / added", path=f"{key}.units"))
        tx, ty = (a.get(key) or {}).get("text"), (b.get(key) or {}).get("text")
        if isinstance(tx, str) and isinstance(ty, str) and tx != ty and not noise_same(tx, ty):
            out.append(_item("texts", a, b, places, names[key], old=tx, new=ty, words=word_diff(tx, ty),
                             path=f"{key}.text"))
    return out


def noise_same(x: str, y: str) -> bool:
    from warscribe.ledger.noise import text_rule

    return text_rule(x, y) is not None


def _keywords(top: str, a: dict, b: dict, places: Places) -> list[Item]:
    x, y = set(a.get(top) or []), set(b.get(top) or [])
    label = "keywords" if top == "keywords" else "faction keywords"
    return [_item("other", a, b, places, label, old=sorted(x - y), new=sorted(y - x), note="removed / added", path=top)]


def _model_item(fc: FieldChange, a: dict, b: dict, places: Places) -> Item:
    model = fc.at[1] if len(fc.at) > 1 else ""
    if len(fc.at) > 2:
        char = fc.at[2]
        return _item("profiles", a, b, places, f"{model}: {CHARACTERISTICS.get(char, char)}", old=fc.old, new=fc.new,
                     path=fc.path)
    how = "model profile added" if fc.old is None else "model profile removed" if fc.new is None else "model profile"
    return _item("profiles", a, b, places, str(model or "models"), old=_model_text(fc.old), new=_model_text(fc.new),
                 note=how, path=fc.path)


def _model_text(m) -> str | None:
    if not isinstance(m, dict):
        return None if m is None else json.dumps(m, ensure_ascii=False)
    bits = [f"{CHARACTERISTICS[k]} {m[k]}" for k in CHARACTERISTICS if m.get(k) is not None]
    return ", ".join(bits)


def _ability_item(fc: FieldChange, a: dict, b: dict, places: Places) -> Item:
    name = fc.at[1] if len(fc.at) > 1 else "abilities"
    if len(fc.at) == 2:  # an ability added or removed
        how = "ability added" if fc.old is None else "ability removed" if fc.new is None else "ability"
        return _item("texts", a, b, places, str(name), old=_ability_text(fc.old), new=_ability_text(fc.new),
                     note=how, path=fc.path)
    part = fc.at[2]
    if part == "text" and isinstance(fc.old, str) and isinstance(fc.new, str):
        return _item("texts", a, b, places, str(name), old=fc.old, new=fc.new, words=word_diff(fc.old, fc.new),
                     path=fc.path)
    if part == "name":
        return _item("texts", a, b, places, str(name), old=fc.old, new=fc.new, note="ability renamed", path=fc.path)
    section = "other" if part in _ABILITY_META else "texts"
    return _item(section, a, b, places, f"{name}: {part}", old=fc.old, new=fc.new, path=fc.path)


def _ability_text(entry) -> str | None:
    if not isinstance(entry, dict):
        return None
    text = entry.get("text")
    return text if isinstance(text, str) and text else f"({entry.get('type', 'ability')} ability)"


def _abilities(w: dict) -> list[str]:
    return [str(x.get("text") or x.get("id")) for x in w.get("abilities") or [] if isinstance(x, dict)]


_DETACHMENT_FIELDS = {"detachment_points": "Detachment Points", "force_disposition": "Force Disposition",
                      "unique": "unique tag", "upgrade": "Upgrade"}


def _field_item(section: str, fc: FieldChange, a: dict, b: dict, places: Places, label: str | None = None) -> Item:
    what = label or _DETACHMENT_FIELDS.get(fc.path) or fc.path
    if b["kind"] == "detachment" and fc.at and fc.at[0] in ("rule", "additional_rules"):
        rule = (b.get("rule") or {}).get("name") if fc.at[0] == "rule" else fc.at[1] if len(fc.at) > 1 else ""
        what = f"{rule or 'rule'}" + ("" if fc.at[-1] in ("text", fc.at[0]) else f": {fc.at[-1]}")
    elif label or fc.path in _DETACHMENT_FIELDS:
        pass
    elif b["kind"] in ("enhancement", "ability", "rule", "stratagem") and fc.at:
        what = f"{b.get('name')}" + ("" if fc.at[0] == "text" else f": {fc.path}")
    words = word_diff(fc.old, fc.new) if isinstance(fc.old, str) and isinstance(fc.new, str) else None
    old, new = fc.old, fc.new
    if isinstance(old, list) and isinstance(new, list) and all(isinstance(x, str) for x in old + new):
        old, new = sorted(set(old) - set(new)), sorted(set(new) - set(old))
        return _item(section, a, b, places, what, old=old, new=new, note="removed / added", path=fc.path)
    return _item(section, a, b, places, what, old=old, new=new, words=words, path=fc.path)
