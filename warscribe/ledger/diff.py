"""`warscribe diff OLD NEW`: what changed between two builds, and what it changes.

OLD and NEW are build folders (or bundle files) or git revisions of a repository; a
revision is built from its own ``sources/`` into a temporary folder with this
Warscribe. Both sides are read through the bundle loader.

Records are matched by id. Unmatched ones are then paired as renames: first those
whose content (all but id, name and provenance) is identical, then, within one kind,
ruleset and parent (the id's folder, after earlier renames), those whose names are
alike (``COUNTER-OFFENSIVE`` / ``COUNTEROFFENSIVE``). Changed records list each changed
field with its old and new value; provenance (source line numbers) is left out unless
asked for, since every edit to a source moves the lines below it.

``--ruleset-compare A B`` pairs, inside one build, the records of ruleset A with those
of ruleset B that are the same rule (same kind, and same weapon ability or same name);
its impact lists the weapons of the build whose profile gives a different result under
A's rules than under B's.

Impact: every weapon whose characteristics or abilities changed, or one of whose
abilities' rules changed, is evaluated with the engine against the reference targets
on both sides (expected wounds removed by one model's attacks), sorted by the largest
change.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from warscribe.ledger import noise
from warscribe.ledger.noise import FROM_TEXT, Context, Noise
from warscribe.schema import KINDS, ids
from warscribe.schema.bundle import Bundle
from warscribe.schema.text import json_text, norm, printable, slugify
from warscribe.ledger.sides import DiffError, load_side

# Reference targets of the impact table: the classic profiles a rules change is judged on.
REFERENCE_TARGETS: tuple[dict, ...] = (
    {"name": "10 infantry T3 Sv5+ W1", "toughness": 3, "save": 5, "wounds": 1, "models": 10, "keywords": ["INFANTRY"]},
    {"name": "5 infantry T4 Sv3+ W2", "toughness": 4, "save": 3, "wounds": 2, "models": 5, "keywords": ["INFANTRY"]},
    {"name": "5 terminators T5 Sv2+ 4++ W3", "toughness": 5, "save": 2, "invulnerable": 4, "wounds": 3, "models": 5,
     "keywords": ["INFANTRY"]},
    {"name": "vehicle T10 Sv3+ W12", "toughness": 10, "save": 3, "wounds": 12, "models": 1, "keywords": ["VEHICLE"]},
    {"name": "monster T12 Sv2+ W16", "toughness": 12, "save": 2, "wounds": 16, "models": 1, "keywords": ["MONSTER"]},
)
WEAPON_PROFILE = ("type", "range", "attacks", "skill", "strength", "ap", "damage", "abilities")
IGNORED = {"id", "source"}  # id is the match key; source moves with every edit above it
RENAME_SIMILARITY = 0.6
_GAME_MODES = ("combat-patrol",)
PAIRING_ORDER = ("datasheet", "detachment", "weapon", "stratagem", "enhancement", "ability", "rule", "keyword", "faq")


@dataclass(frozen=True)
class FieldChange:
    path: str
    old: object
    new: object
    # The path as parts: field names, and list parts by what names them ('abilities', 'Oath of Moment', 'text').
    at: tuple = ()


@dataclass
class Change:
    kind: str
    id: str
    name: str
    old_id: str
    old_name: str
    fields: list[FieldChange]

    @property
    def renamed(self) -> bool:
        return self.old_id != self.id


@dataclass
class Impact:
    weapon: str
    name: str
    reason: str
    rows: list[dict]  # {target, old, new, delta}; old/new None where the engine could not say
    error: str = ""

    @property
    def size(self) -> float:
        return max((abs(r["delta"]) for r in self.rows if r["delta"] is not None), default=0.0)


@dataclass
class Diff:
    old: str
    new: str
    added: list[dict] = field(default_factory=list)
    removed: list[dict] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    impact: list[Impact] = field(default_factory=list)
    labels: tuple[str, str] = ("old", "new")
    pairing: str = "renamed from"  # how a changed record names its old side
    caveats: list[str] = field(default_factory=list)  # what limits the comparison (schema versions differ)
    schema_versions: tuple = (None, None)  # of the old and the new build's bundles
    noise: Noise = field(default_factory=Noise)  # what the noise rules left out (warscribe/ledger/noise.py)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


# -- comparing records -------------------------------------------------------------------


def field_changes(old: dict, new: dict, ignore: set[str] = IGNORED, path: str = "",
                  context: Context | None = None) -> list[FieldChange]:
    """Every leaf where two records differ, the noise rules (warscribe/ledger/noise.py) applied.

    Dicts are compared by key; lists of parts (abilities, models, price tiers) by what
    identifies each part (its name, its size), so an ability moved up the list is no
    change; lists of names or ids as sets; texts in their normal forms. What a rule left
    out is counted in `context.noise`.
    """
    ctx = context if context is not None else Context()
    return _dict_changes(old, new, ignore if not path else set(), path, "", ctx, ())


def _dict_changes(old: dict, new: dict, ignore, here: str, fpath: str, ctx: Context, at: tuple) -> list[FieldChange]:
    out: list[FieldChange] = []
    for key in dict.fromkeys([*old, *new]):
        if key in ignore:
            continue
        a, b = old.get(key), new.get(key)
        if key in FROM_TEXT:
            if a != b:
                ctx.noise.add("compiled", f"{ctx.record} {here + '.' if here else ''}{key}")
            continue
        if key in noise.OTHER_LANGUAGES:
            if a != b:
                ctx.noise.add("language", f"{ctx.record} {here + '.' if here else ''}{key}")
            continue
        if key == "ref" and (a is None or b is None) and ctx.explains(a if b is None else b):
            ctx.noise.add("reference", f"{ctx.record} {here + '.' if here else ''}{key}")
            continue
        out += _value_changes(a, b, f"{here}.{key}" if here else key, f"{fpath}.{key}" if fpath else key, ctx,
                              at + (key,))
    return out


def _value_changes(a, b, here: str, fpath: str, ctx: Context, at: tuple) -> list[FieldChange]:
    if a == b:
        return []
    if isinstance(a, str) and isinstance(b, str):
        rule = noise.text_rule(a, b)
        if rule:
            ctx.noise.add(rule, f"{ctx.record} {here}")
            return []
    elif isinstance(a, dict) and isinstance(b, dict):
        return _dict_changes(a, b, (), here, fpath, ctx, at)
    elif isinstance(a, list) and isinstance(b, list):
        return _list_changes(a, b, here, fpath, ctx, at)
    return [FieldChange(here, a, b, at)]


def _list_changes(a: list, b: list, here: str, fpath: str, ctx: Context, at: tuple) -> list[FieldChange]:
    if all(isinstance(x, str) for x in a + b):
        if noise.derived(ctx.kind, fpath):
            gone, came = set(a) - set(b), set(b) - set(a)
            if all(ctx.explains(m) for m in gone | came):
                ctx.noise.add("derived-list" if gone or came else "reorder", f"{ctx.record} {here}")
                return []
            return [FieldChange(here, a, b, at)]
        if sorted(a) == sorted(b):
            ctx.noise.add("reorder", f"{ctx.record} {here}")
            return []
        folded_a, folded_b = [noise.name_key(x) for x in a], [noise.name_key(x) for x in b]
        if sorted(folded_a) == sorted(folded_b):  # the same names, but for case or quotes (Bolt Pistol, Bolt pistol)
            if folded_a != folded_b:
                ctx.noise.add("reorder", f"{ctx.record} {here}")
            pairs = dict(zip(folded_b, b))
            for x, k in zip(a, folded_a):
                if x != pairs[k]:
                    ctx.noise.add(noise.text_rule(x, pairs[k]) or "case", f"{ctx.record} {here}")
            return []
        return [FieldChange(here, a, b, at)]
    keys_a, keys_b = [noise.item_key(x) for x in a], [noise.item_key(x) for x in b]
    if None in keys_a or None in keys_b:  # parts without a name: by position
        if len(a) == len(b):
            return [c for i, (x, y) in enumerate(zip(a, b))
                    for c in _value_changes(x, y, f"{here}[{i}]", fpath, ctx, at + (i,))]
        return [FieldChange(here, a, b, at)]
    # The n-th part of a name on one side is the n-th part of that name on the other.
    def numbered(keys):
        seen: Counter = Counter()
        out = []
        for k in keys:
            out.append(k if not seen[k] else f"{k} #{seen[k] + 1}")
            seen[k] += 1
        return out
    names_a, names_b = numbered(keys_a), numbered(keys_b)
    left, right = dict(zip(names_a, a)), dict(zip(names_b, b))
    common_a = [k for k in names_a if k in right]
    common_b = [k for k in names_b if k in left]
    if common_a != common_b:
        ctx.noise.add("reorder", f"{ctx.record} {here}")
    # A part under a new name whose content is the same is that part renamed (Clarion of Hate, Clarion of Haste).
    gone = {_part_body(left[k]): k for k in names_a if k not in right}
    renamed = {}
    for k in names_b:
        if k not in left and gone.get(_part_body(right[k])) is not None:
            renamed[gone.pop(_part_body(right[k]))] = k
    out: list[FieldChange] = []
    for k in names_a:
        shown = _key_label(left[k], k)
        if k in right or k in renamed:
            other = right[k] if k in right else right[renamed[k]]
            if k in renamed:
                shown = _key_label(other, renamed[k])
            out += _value_changes(left[k], other, f"{here}[{shown}]", fpath, ctx, at + (shown,))
        else:
            out.append(FieldChange(f"{here}[{shown}]", left[k], None, at + (shown,)))
    for k in names_b:
        if k not in left and k not in renamed.values():
            shown = _key_label(right[k], k)
            out.append(FieldChange(f"{here}[{shown}]", None, right[k], at + (shown,)))
    return out


def _part_body(item: dict) -> str:
    """A list part without its name, in normal form: what makes two differently named parts one part renamed."""
    def fold(value):
        if isinstance(value, str):
            return noise.text_forms(value)[3]
        if isinstance(value, dict):
            return {k: fold(v) for k, v in value.items() if k not in FROM_TEXT and k != "name"}
        if isinstance(value, list):
            return [fold(v) for v in value]
        return value
    return json.dumps(fold(item), sort_keys=True, ensure_ascii=False)


def _key_label(item: dict, key: str) -> str:
    """A list part as a path shows it: its name as printed (the key is a folded form)."""
    if "models" in item and "points" in item:
        return key
    for field_name in ("name", "id", "text", "marker"):
        if isinstance(item.get(field_name), str):
            label = item[field_name]
            extra = item.get("keyword")
            suffix = key.rsplit(" #", 1)[1] if " #" in key else ""
            return label + (f" {extra}" if isinstance(extra, str) else "") + (f" #{suffix}" if suffix else "")
    return key


def _content_key(record: dict) -> str:
    body = {k: v for k, v in record.items() if k not in ("id", "name", "source")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _parent(record_id: str) -> str:
    return record_id.rsplit("/", 1)[0] if "/" in record_id else ""


def _order(record: dict) -> tuple:
    return (KINDS.index(record["kind"]) if record.get("kind") in KINDS else len(KINDS), record["id"])


def entry_of(record: dict) -> str | None:
    """The id of the catalogue entry a record was read from (BattleScribe provenance), if any."""
    for src in record.get("source") or []:
        entry = src.get("entry") if isinstance(src, dict) else None
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            return entry["id"]
    return None


def pair_renames(removed: list[dict], added: list[dict]) -> list[tuple[dict, dict]]:
    """(old, new) pairs among unmatched records that are one record renamed.

    First by catalogue entry (the same BattleScribe entry under a new name, within the
    same parent after earlier renames: a unit's weapons move with it), then by identical
    content, then, for records no catalogue entry identifies, by alike names within one
    kind, ruleset and parent. Two records of different entries are never paired by name:
    the data says they are different entries (Land Raider Banisher removed, Land Raider added).
    """
    pairs: list[tuple[dict, dict]] = []
    left = {r["id"]: r for r in removed}
    right = {r["id"]: r for r in added}
    renamed: dict[str, str] = {}

    def take(old: dict, new: dict) -> None:
        pairs.append((left.pop(old["id"]), right.pop(new["id"])))
        renamed[old["id"]] = new["id"]

    # A record moved into a game mode of its own (the app's Combat Patrol detachments, filed with the
    # faction's in one release and under combat-patrol/ in the next) is that record moved.
    for kind in PAIRING_ORDER:
        for rec in sorted((r for r in left.values() if r["kind"] == kind), key=_order):
            for mode in _GAME_MODES:
                there = right.get(ids.in_game_mode(mode, rec["id"]))
                if there is None and rec["id"].startswith(mode + "/"):
                    there = right.get(rec["id"][len(mode) + 1:])
                if there is not None and there["kind"] == kind:
                    take(rec, there)
                    break
    for kind in PAIRING_ORDER:
        by_entry: dict[tuple, list[dict]] = {}
        for rec in right.values():
            if rec["kind"] == kind and entry_of(rec):
                by_entry.setdefault((entry_of(rec), rec.get("ruleset"), _parent(rec["id"])), []).append(rec)
        olds: dict[tuple, list[dict]] = {}
        for rec in left.values():
            if rec["kind"] == kind and entry_of(rec):
                parent = _parent(rec["id"])
                olds.setdefault((entry_of(rec), rec.get("ruleset"), renamed.get(parent, parent)), []).append(rec)
        for key, recs in sorted(olds.items(), key=lambda kv: kv[1][0]["id"]):
            cands = by_entry.get(key, [])
            if len(recs) == 1 and len(cands) == 1:
                take(recs[0], cands[0])
    by_content: dict[tuple[str, str], list[dict]] = {}
    for rec in sorted(right.values(), key=_order):
        by_content.setdefault((rec["kind"], _content_key(rec)), []).append(rec)
    for rec in sorted(left.values(), key=_order):
        candidates = [c for c in by_content.get((rec["kind"], _content_key(rec)), []) if c["id"] in right]
        if candidates:
            take(rec, candidates[0])
    old_entries = {entry_of(r) for r in removed} - {None}
    new_entries = {entry_of(r) for r in added} - {None}
    for kind in PAIRING_ORDER:
        groups: dict[tuple[str, str], list[dict]] = {}
        for rec in right.values():
            if rec["kind"] == kind and entry_of(rec) not in old_entries:
                groups.setdefault((rec.get("ruleset"), _parent(rec["id"])), []).append(rec)
        scored = []
        for rec in left.values():
            if rec["kind"] != kind or entry_of(rec):
                continue
            parent = _parent(rec["id"])
            parent = renamed.get(parent, parent)
            for cand in groups.get((rec.get("ruleset"), parent), []):
                if entry_of(cand) in new_entries:
                    continue
                score = difflib.SequenceMatcher(None, slugify(rec["name"]), slugify(cand["name"])).ratio()
                if score >= RENAME_SIMILARITY:
                    scored.append((-score, rec["id"], cand["id"]))
        for _score, old_id, new_id in sorted(scored):
            if old_id in left and new_id in right:
                take(left[old_id], right[new_id])
    return sorted(pairs, key=lambda p: _order(p[1]))


def _follow_renames(value, moved: dict[str, str]):
    """`value` with every id of a renamed record replaced by its new id (sorted id lists stay sorted)."""
    if isinstance(value, str):
        return moved.get(value, value)
    if isinstance(value, dict):
        return {k: (v if k == "id" else _follow_renames(v, moved)) for k, v in value.items()}
    if isinstance(value, list):
        out = [_follow_renames(v, moved) for v in value]
        if out != value and all(isinstance(v, str) for v in value) and value == sorted(value):
            out.sort()
        return out
    return value


def _body(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "source"}


def _explained(pairs: list[tuple[dict, dict]], removed: list[dict], added: list[dict]) -> set[str]:
    """Ids and names of records whose arrival, departure or own change accounts for a derived list changing."""
    out: set[str] = set()
    for rec in removed + added:
        out |= {rec["id"], noise.named(str(rec.get("name", "")))}
    for a, b in pairs:
        if a is b or _body(a) == _body(b):
            continue
        scratch = Context(record=b["id"], kind=b["kind"])
        fields = {k for k in noise.DRIVERS if a.get(k) != b.get(k)}
        if fields and field_changes({k: a.get(k) for k in fields}, {k: b.get(k) for k in fields}, set(), "", scratch):
            out |= {a["id"], b["id"], noise.named(str(a.get("name", ""))), noise.named(str(b.get("name", "")))}
    return out


def compare(old: Bundle, new: Bundle, provenance: bool = False) -> Diff:
    """Added, removed and changed records (renames paired, noise left out and counted), ordered by kind and id."""
    ignore = {"id"} if provenance else IGNORED
    diff = Diff(old=old.origin, new=new.origin)
    removed = [r for r in old if r["id"] not in new]
    added = [r for r in new if r["id"] not in old]
    pairs = [(r, new.get(r["id"])) for r in old if r["id"] in new]
    renames = pair_renames(removed, added)
    paired_old = {o["id"] for o, _ in renames}
    paired_new = {n["id"] for _, n in renames}
    moved = {o["id"]: n["id"] for o, n in renames}
    diff.removed = sorted((r for r in removed if r["id"] not in paired_old), key=_order)
    diff.added = sorted((r for r in added if r["id"] not in paired_new), key=_order)
    ctx = Context(noise=diff.noise)
    ctx.explained = _explained(pairs + renames, diff.removed, diff.added)
    for a, b in pairs + renames:
        if a is b:
            continue
        if a["id"] == b["id"] and _body(a) == _body(b):
            if not provenance:
                if entry_of(a) != entry_of(b):
                    diff.noise.add("entry-id", b["id"])
                continue
        ctx.record, ctx.kind = b["id"], b["kind"]
        # A reference to a renamed record is not a change of the record that holds it.
        changes = field_changes(_follow_renames(a, moved) if moved else a, b, ignore, context=ctx)
        if changes or a["id"] != b["id"]:
            diff.changed.append(Change(b["kind"], b["id"], b.get("name", ""), a["id"], a.get("name", ""), changes))
    diff.changed.sort(key=lambda c: (KINDS.index(c.kind) if c.kind in KINDS else len(KINDS), c.id))
    diff.impact = impact(old, new, [(old.get(c.old_id), new.get(c.id)) for c in diff.changed])
    diff.caveats = schema_caveats(old, new)
    diff.schema_versions = (old.meta.get("schema_version"), new.meta.get("schema_version"))
    return diff


def schema_caveats(old: Bundle, new: Bundle) -> list[str]:
    """What a comparison of builds of two schema versions can and cannot say (nothing when they agree)."""
    versions = [b.meta.get("schema_version") for b in (old, new)]
    unknown = {k: n for b in (old, new) for k, n in b.unknown_kinds.items()}
    if versions[0] == versions[1] and not unknown:
        return []
    shown = [str(v) if v is not None else "not recorded" for v in versions]
    out = [f"the builds are of different schema versions (old {shown[0]}, new {shown[1]}): records are compared "
           "field by field as each build wrote them, so a field the schema renamed, added or removed shows as a "
           "change of every record holding it, and a field whose meaning changed under the same name shows no "
           "change; to compare the rules alone, build both sides with one Warscribe (a git revision is built so)"]
    if unknown:
        out.append("records of kinds this Warscribe does not know were not compared: "
                   + ", ".join(f"{n} {k}" for k, n in unknown.items()))
    return out


# -- ruleset comparison -------------------------------------------------------------------


def _rule_key(record: dict) -> tuple[str, str]:
    """What makes two editions' records the same rule: the weapon ability, or the name
    without its number and punctuation (COUNTER-OFFENSIVE / COUNTEROFFENSIVE)."""
    if record.get("ability_id"):
        return (record["kind"], "ability:" + record["ability_id"])
    name = re.sub(r"^\d+\.\s+", "", str(record.get("name", "")))
    return (record["kind"], slugify(name).replace("-", ""))


def _core_rule(record: dict) -> bool:
    """Rules of the game itself, which editions share, not a faction's."""
    kind = record.get("kind")
    if kind == "stratagem":
        return record.get("origin") in ("core", "boarding-actions")
    if kind == "ability":
        return record.get("type") in ("weapon", "core")
    return kind == "rule"


def compare_rulesets(b: Bundle, old_ruleset: str, new_ruleset: str) -> Diff:
    """The records of `old_ruleset` against their counterparts in `new_ruleset`, in one build."""
    side: dict[str, dict[tuple[str, str], dict]] = {old_ruleset: {}, new_ruleset: {}}
    # A core stratagem is preferred to its Boarding Actions variant of the same name.
    for rec in sorted(b, key=lambda r: (r.get("origin") == "boarding-actions", _order(r))):
        if rec.get("ruleset") in side and _core_rule(rec):
            side[rec["ruleset"]].setdefault(_rule_key(rec), rec)
    a, c = side[old_ruleset], side[new_ruleset]
    diff = Diff(old=f"{b.origin} ({old_ruleset})", new=f"{b.origin} ({new_ruleset})",
                labels=(old_ruleset, new_ruleset), pairing=f"{old_ruleset} version")
    ignore = IGNORED | {"ruleset", "number", "mentions", "see_also"}
    for key in sorted(set(a) & set(c)):
        changes = field_changes(a[key], c[key], ignore)
        changes = [ch for ch in changes if not (isinstance(ch.old, str) and isinstance(ch.new, str)
                                                and norm(ch.old) == norm(ch.new))]
        if changes:
            x, y = a[key], c[key]
            diff.changed.append(Change(y["kind"], y["id"], y.get("name", ""), x["id"], x.get("name", ""), changes))
    diff.changed.sort(key=lambda ch: (KINDS.index(ch.kind), ch.id))
    diff.removed = sorted((a[k] for k in set(a) - set(c)), key=_order)
    diff.added = sorted((c[k] for k in set(c) - set(a)), key=_order)
    diff.impact = edition_impact(b, old_ruleset, new_ruleset)
    return diff


def edition_impact(b: Bundle, old_ruleset: str, new_ruleset: str) -> list[Impact]:
    """Weapons of the build whose profile gives a different result under each edition's rules."""
    cache: dict[str, float | str] = {}
    out = []
    for weapon in b.kind("weapon"):
        before, after = dict(weapon, ruleset=old_ruleset), dict(weapon, ruleset=new_ruleset)
        result = _evaluate(before, after, f"same profile under {old_ruleset} and {new_ruleset} rules", cache)
        if result.size or result.error:
            out.append(result)
    return sorted(out, key=lambda i: (-i.size, i.weapon))


# -- impact ------------------------------------------------------------------------------


def _profile(weapon: dict) -> dict:
    profile = {"name": weapon["name"]}
    profile.update({k: weapon[k] for k in WEAPON_PROFILE if k in weapon})
    return profile


def impact(old: Bundle, new: Bundle, pairs: list[tuple[dict | None, dict | None]]) -> list[Impact]:
    """Engine results before and after, for weapons whose profile or abilities' rules changed."""
    changed_rules = set()
    for a, b in pairs:
        for rec in (a, b):
            if rec and rec.get("kind") == "ability" and rec.get("ability_id"):
                changed_rules.add((rec["ruleset"], rec["ability_id"]))
    out: list[Impact] = []
    cache: dict[str, float | str] = {}
    seen = set()
    for a, b in pairs:
        if not a or not b or b.get("kind") != "weapon":
            continue
        if _profile(a) != _profile(b) or a.get("ruleset") != b.get("ruleset"):
            seen.add(b["id"])
            out.append(_evaluate(a, b, "profile changed", cache))
    if changed_rules:
        for b in new.kind("weapon"):
            a = old.get(b["id"])
            if b["id"] in seen or a is None:
                continue
            ids = {(b["ruleset"], ab.get("id")) for ab in b.get("abilities", [])}
            hit = sorted(i for r, i in ids & changed_rules)
            if hit:
                out.append(_evaluate(a, b, "rules changed: " + ", ".join(hit), cache))
    return sorted(out, key=lambda i: (-i.size, i.weapon))


def _evaluate(a: dict, b: dict, reason: str, cache: dict) -> Impact:
    rows, errors = [], []
    for target in REFERENCE_TARGETS:
        before, after = _expected(a, target, cache), _expected(b, target, cache)
        for value in (before, after):
            if isinstance(value, str) and value not in errors:
                errors.append(value)
        before = before if isinstance(before, float) else None
        after = after if isinstance(after, float) else None
        delta = round(after - before, 6) if before is not None and after is not None else None
        rows.append({"target": target["name"], "old": before, "new": after, "delta": delta})
    unknown = sorted({x for w in (a, b) for x in cache.get("not modelled", {}).get(w["id"], [])})
    if unknown:
        errors.append("not modelled (left out of both sides): " + ", ".join(f"[{x.upper()}]" for x in unknown))
    return Impact(b["id"], b.get("name", ""), reason, rows, "; ".join(errors))


def _expected(weapon: dict, target: dict, cache: dict) -> float | str:
    """One model's expected wounds removed; where the engine does not know one of the weapon's abilities
    (a custom one, or one of an edition it does not model), the profile without it, and that ability
    named as not modelled (`cache['not modelled']`), rather than no number at all."""
    from warscribe.engine import ScenarioError, evaluate

    profile = _profile(weapon)
    key = json.dumps([weapon.get("ruleset"), profile, target["name"]], sort_keys=True)
    if key not in cache:
        def run(p: dict) -> float:
            scenario = {"ruleset": weapon.get("ruleset", "11e"), "attacker": {"weapons": [{"models": 1, "weapon": p}]},
                        "target": {k: v for k, v in target.items() if k != "name"}}
            return round(evaluate(scenario).expected_wounds_removed, 6)
        try:
            cache[key] = run(profile)
        except ScenarioError as exc:
            cache[key] = f"{weapon['id']}: {exc}"
            kept, dropped = [], []
            for ab in profile.get("abilities") or []:
                try:
                    run(dict(profile, abilities=[ab]))
                    kept.append(ab)
                except ScenarioError:
                    dropped.append(str(ab.get("text") or ab.get("id")) if isinstance(ab, dict) else str(ab))
            if dropped:
                try:
                    cache[key] = run(dict(profile, abilities=kept))
                    cache.setdefault("not modelled", {})[weapon["id"]] = sorted(
                        set(cache.get("not modelled", {}).get(weapon["id"], [])) | set(dropped))
                except ScenarioError:
                    pass
    return cache[key]


# -- output ------------------------------------------------------------------------------


def _show(value) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def word_diff(old: str, new: str, context: int = 6) -> str:
    """Changed words of two texts marked [-old-]{+new+}, with a few words of context."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for i, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            words = a[i1:i2]
            if len(words) > 2 * context:
                head = words[:context] if i > 0 else []
                tail = words[-context:] if i < len(ops) - 1 else []
                words = head + ["…"] + tail
            parts += words
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


def _field_line(ch: FieldChange) -> str:
    old, new = _show(ch.old), _show(ch.new)
    if isinstance(ch.old, str) and isinstance(ch.new, str) and len(old) + len(new) > 120:
        return f"{ch.path}: {word_diff(old, new)}"
    return f"{ch.path}: {old} -> {new}"


def impact_lines(head: str, rows: list[dict], error: str = "", against: str = "target") -> list[str]:
    """An impact as text: a head line (with the engine's error, if any), then each reference row old -> new (change)."""
    lines = [f"  {head}" + (f"; engine: {error}" if error else "")]
    return lines + [f"      {r[against]}: {fmt_number(r['old'])} -> {fmt_number(r['new'])} ({fmt_delta(r['delta'])})" for r in rows]


def fmt_number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _renamed(diff: Diff) -> int:
    """Renames; records paired across rulesets are not renamed."""
    return sum(1 for c in diff.changed if c.renamed) if diff.pairing == "renamed from" else 0


def fmt_delta(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.3f}"


def render_text(diff: Diff) -> str:
    a, b = diff.labels
    renamed = _renamed(diff)
    lines = [f"warscribe diff {diff.old} -> {diff.new}",
             f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed ({renamed} renamed)"]
    lines += [f"Note: {c}." for c in diff.caveats]
    if diff.added:
        lines += ["", f"Added (only in {b}):"] + [f"  + {r['kind']} {r['id']} ({r.get('name', '')})" for r in diff.added]
    if diff.removed:
        lines += ["", f"Removed (only in {a}):"] + [f"  - {r['kind']} {r['id']} ({r.get('name', '')})"
                                                  for r in diff.removed]
    if diff.changed:
        lines += ["", "Changed:"]
        for c in diff.changed:
            head = f"  ~ {c.kind} {c.id} ({c.name})"
            if c.renamed:
                head += f" {diff.pairing} {c.old_id} ({c.old_name})"
            lines.append(head)
            lines += [f"      {_field_line(ch)}" for ch in c.fields]
    if diff.impact:
        lines += ["", "Impact: expected wounds removed by one model's attacks, old -> new (change):"]
        for imp in diff.impact:
            lines += impact_lines(f"{imp.weapon} ({imp.name}): {imp.reason}", imp.rows, imp.error)
    if diff.empty:
        lines += ["", "No differences."]
    return "\n".join(printable(line) for line in lines) + "\n"


def md_cell(text: object) -> str:
    """A value in a Markdown table cell: pipes escaped, HTML neutralised, one line."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
            .replace("\n", " ").replace("`", "'"))


def render_markdown(diff: Diff) -> str:
    a, b = diff.labels
    renamed = _renamed(diff)
    out = [f"## Rules diff: {md_cell(diff.old)} → {md_cell(diff.new)}", "",
           f"**{len(diff.added)}** added, **{len(diff.removed)}** removed, **{len(diff.changed)}** changed "
           f"({renamed} renamed).", ""]
    out += [f"> **Note:** {md_cell(c)}." for c in diff.caveats] + ([""] if diff.caveats else [])
    if diff.added or diff.removed:
        out += ["| | kind | id | name |", "|---|---|---|---|"]
        out += [f"| added ({md_cell(b)}) | {r['kind']} | `{md_cell(r['id'])}` | {md_cell(r.get('name', ''))} |" for r in diff.added]
        out += [f"| removed ({md_cell(a)}) | {r['kind']} | `{md_cell(r['id'])}` | {md_cell(r.get('name', ''))} |"
                for r in diff.removed]
        out.append("")
    if diff.changed:
        out += ["### Changed", "", f"| record | field | {md_cell(a)} | {md_cell(b)} |", "|---|---|---|---|"]
        for c in diff.changed:
            who = f"{c.kind} `{md_cell(c.id)}`" + (f" ({diff.pairing} `{md_cell(c.old_id)}`)" if c.renamed else "")
            if not c.fields:
                out.append(f"| {who} | name | {md_cell(c.old_name)} | {md_cell(c.name)} |")
            for ch in c.fields:
                out.append(f"| {who} | {md_cell(ch.path)} | {md_cell(_show(ch.old))} | {md_cell(_show(ch.new))} |")
        out.append("")
    if diff.impact:
        out += ["### Impact", "", "Expected wounds removed by one model's attacks against reference targets.", "",
                "| weapon | reason | target | old | new | change |", "|---|---|---|---:|---:|---:|"]
        for imp in diff.impact:
            for r in imp.rows:
                out.append(f"| `{md_cell(imp.weapon)}` | {md_cell(imp.reason)} | {md_cell(r['target'])} | {fmt_number(r['old'])} | "
                           f"{fmt_number(r['new'])} | {fmt_delta(r['delta'])} |")
        out.append("")
    if diff.empty:
        out += ["No differences.", ""]
    return "\n".join(printable(line) for line in out)


def as_dict(diff: Diff) -> dict:
    """The JSON form; a record is named by `record` (its id), as in `warscribe check --json`."""
    def brief(r: dict) -> dict:
        return {"record": r["id"], "kind": r["kind"], "name": r.get("name", "")}

    return {
        "old": diff.old, "new": diff.new, "labels": list(diff.labels),
        "summary": {"added": len(diff.added), "removed": len(diff.removed), "changed": len(diff.changed),
                    "renamed": _renamed(diff)},
        "schema_versions": {"old": diff.schema_versions[0], "new": diff.schema_versions[1]},
        "caveats": diff.caveats,
        "added": [brief(r) for r in diff.added],
        "removed": [brief(r) for r in diff.removed],
        "changed": [{"record": c.id, "kind": c.kind, "name": c.name, "old_record": c.old_id, "old_name": c.old_name,
                     "fields": [{"path": f.path, "old": f.old, "new": f.new} for f in c.fields]}
                    for c in diff.changed],
        "impact": [{"weapon": i.weapon, "name": i.name, "reason": i.reason, "error": i.error, "rows": i.rows}
                   for i in diff.impact],
    }
