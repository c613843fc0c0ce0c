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
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from warscribe.schema import KINDS
from warscribe.schema import bundle as bundle_mod
from warscribe.schema.bundle import Bundle, BundleError
from warscribe.schema.text import json_text, norm, printable, slugify

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
PAIRING_ORDER = ("datasheet", "detachment", "weapon", "stratagem", "enhancement", "ability", "rule", "keyword")


class DiffError(Exception):
    """A side that cannot be read or built (not a build, not a revision)."""


@dataclass(frozen=True)
class FieldChange:
    path: str
    old: object
    new: object


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

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


# -- comparing records -------------------------------------------------------------------


def field_changes(old: dict, new: dict, ignore: set[str] = IGNORED, path: str = "") -> list[FieldChange]:
    """Every leaf where two records differ: dicts by key, lists of records by position."""
    out: list[FieldChange] = []
    for key in list(dict.fromkeys([*old, *new])):
        if not path and key in ignore:
            continue
        a, b = old.get(key, None), new.get(key, None)
        here = f"{path}.{key}" if path else key
        out += _value_changes(a, b, here)
    return out


def _value_changes(a, b, here: str) -> list[FieldChange]:
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return field_changes(a, b, set(), here)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            isinstance(x, dict) for x in a + b):
        return [c for i, (x, y) in enumerate(zip(a, b)) for c in _value_changes(x, y, f"{here}[{i}]")]
    return [FieldChange(here, a, b)]


def _content_key(record: dict) -> str:
    body = {k: v for k, v in record.items() if k not in ("id", "name", "source")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _parent(record_id: str) -> str:
    return record_id.rsplit("/", 1)[0] if "/" in record_id else ""


def _order(record: dict) -> tuple:
    return (KINDS.index(record["kind"]) if record.get("kind") in KINDS else len(KINDS), record["id"])


def pair_renames(removed: list[dict], added: list[dict]) -> list[tuple[dict, dict]]:
    """(old, new) pairs among unmatched records that are one record renamed."""
    pairs: list[tuple[dict, dict]] = []
    left = {r["id"]: r for r in removed}
    right = {r["id"]: r for r in added}
    by_content: dict[tuple[str, str], list[dict]] = {}
    for rec in sorted(right.values(), key=_order):
        by_content.setdefault((rec["kind"], _content_key(rec)), []).append(rec)
    for rec in sorted(left.values(), key=_order):
        candidates = by_content.get((rec["kind"], _content_key(rec)), [])
        if candidates:
            match = candidates.pop(0)
            pairs.append((rec, match))
    renamed = {old["id"]: new["id"] for old, new in pairs}
    for old, new in pairs:
        left.pop(old["id"]), right.pop(new["id"])
    for kind in PAIRING_ORDER:
        groups: dict[tuple[str, str], list[dict]] = {}
        for rec in right.values():
            if rec["kind"] == kind:
                groups.setdefault((rec.get("ruleset"), _parent(rec["id"])), []).append(rec)
        scored = []
        for rec in left.values():
            if rec["kind"] != kind:
                continue
            parent = _parent(rec["id"])
            parent = renamed.get(parent, parent)
            for cand in groups.get((rec.get("ruleset"), parent), []):
                score = difflib.SequenceMatcher(None, slugify(rec["name"]), slugify(cand["name"])).ratio()
                if score >= RENAME_SIMILARITY:
                    scored.append((-score, rec["id"], cand["id"]))
        for _score, old_id, new_id in sorted(scored):
            if old_id in left and new_id in right:
                pairs.append((left.pop(old_id), right.pop(new_id)))
                renamed[old_id] = new_id
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


def compare(old: Bundle, new: Bundle, provenance: bool = False) -> Diff:
    """Added, removed and changed records (renames paired), ordered by kind and id."""
    ignore = {"id"} if provenance else IGNORED
    diff = Diff(old=old.origin, new=new.origin)
    removed = [r for r in old if r["id"] not in new]
    added = [r for r in new if r["id"] not in old]
    pairs = [(r, new.get(r["id"])) for r in old if r["id"] in new]
    renames = pair_renames(removed, added)
    paired_old = {o["id"] for o, _ in renames}
    paired_new = {n["id"] for _, n in renames}
    moved = {o["id"]: n["id"] for o, n in renames}
    for a, b in pairs + renames:
        # A reference to a renamed record is not a change of the record that holds it.
        changes = field_changes(_follow_renames(a, moved), b, ignore) if moved else field_changes(a, b, ignore)
        if changes or a["id"] != b["id"]:
            diff.changed.append(Change(b["kind"], b["id"], b.get("name", ""), a["id"], a.get("name", ""), changes))
    diff.changed.sort(key=lambda c: (KINDS.index(c.kind) if c.kind in KINDS else len(KINDS), c.id))
    diff.removed = sorted((r for r in removed if r["id"] not in paired_old), key=_order)
    diff.added = sorted((r for r in added if r["id"] not in paired_new), key=_order)
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
    return Impact(b["id"], b.get("name", ""), reason, rows, "; ".join(errors))


def _expected(weapon: dict, target: dict, cache: dict) -> float | str:
    from warscribe.engine import ScenarioError, evaluate

    profile = _profile(weapon)
    key = json.dumps([weapon.get("ruleset"), profile, target["name"]], sort_keys=True)
    if key not in cache:
        scenario = {"ruleset": weapon.get("ruleset", "11e"), "attacker": {"weapons": [{"models": 1, "weapon": profile}]},
                    "target": {k: v for k, v in target.items() if k != "name"}}
        try:
            cache[key] = round(evaluate(scenario).expected_wounds_removed, 6)
        except ScenarioError as exc:
            cache[key] = f"{weapon['id']}: {exc}"
    return cache[key]


# -- sides: builds or git revisions ---------------------------------------------------------


def load_side(spec: str, repo: Path, workdir: Path) -> Bundle:
    """A build folder or bundle file as given; otherwise a git revision, built from its sources."""
    path = Path(spec)
    if path.exists():
        try:
            bundle = bundle_mod.load(path)
        except BundleError as exc:
            raise DiffError(str(exc)) from None
        bundle.origin = spec
        return bundle
    if spec.startswith("-"):  # never let a side be read as a git option
        raise DiffError(f"{spec!r} is neither a build folder nor a git revision")
    commit = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{spec}^{{commit}}")
    if commit is None:
        raise DiffError(f"{spec!r} is neither a build folder nor a git revision of {repo}")
    return build_revision(repo, commit.strip(), workdir / commit.strip()[:12], label=spec)


def _git(repo: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def build_revision(repo: Path, commit: str, folder: Path, label: str) -> Bundle:
    """Check out `commit`'s tree into `folder` (git archive) and build its sources there."""
    from warscribe.build import write_json
    from warscribe.extract.pipeline import extract

    folder.mkdir(parents=True, exist_ok=True)
    tar = folder / "tree.tar"
    with tar.open("wb") as fh:
        proc = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit], stdout=fh,
                              stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        raise DiffError(f"git archive {label}: {proc.stderr.decode(errors='replace').strip()}")
    tree = folder / "tree"
    with tarfile.open(tar) as archive:
        if not hasattr(tarfile, "data_filter"):  # Python before 3.11.4: no extraction filters
            raise DiffError("building a git revision needs Python 3.11.4 or later (safe tar extraction)")
        archive.extractall(tree, filter="data")  # 'data' keeps every member inside the folder
    manifest = tree / "sources" / "manifest.yaml"
    if not manifest.is_file():
        raise DiffError(f"revision {label} has no sources/manifest.yaml")
    result = extract(manifest)
    write_json(result, folder / "out" / "json")
    bundle = bundle_mod.load(folder / "out")
    bundle.origin = label
    return bundle


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


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _renamed(diff: Diff) -> int:
    """Renames; records paired across rulesets are not renamed."""
    return sum(1 for c in diff.changed if c.renamed) if diff.pairing == "renamed from" else 0


def _delta(value: float | None) -> str:
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
            lines.append(f"  {imp.weapon} ({imp.name}): {imp.reason}" + (f"; engine: {imp.error}" if imp.error else ""))
            lines += [f"      {r['target']}: {_fmt(r['old'])} -> {_fmt(r['new'])} ({_delta(r['delta'])})"
                      for r in imp.rows]
    if diff.empty:
        lines += ["", "No differences."]
    return "\n".join(printable(line) for line in lines) + "\n"


def _md(text: str) -> str:
    """A value in a Markdown table cell: pipes escaped, HTML neutralised, one line."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
            .replace("\n", " ").replace("`", "'"))


def render_markdown(diff: Diff) -> str:
    a, b = diff.labels
    renamed = _renamed(diff)
    out = [f"## Rules diff: {_md(diff.old)} → {_md(diff.new)}", "",
           f"**{len(diff.added)}** added, **{len(diff.removed)}** removed, **{len(diff.changed)}** changed "
           f"({renamed} renamed).", ""]
    out += [f"> **Note:** {_md(c)}." for c in diff.caveats] + ([""] if diff.caveats else [])
    if diff.added or diff.removed:
        out += ["| | kind | id | name |", "|---|---|---|---|"]
        out += [f"| added ({_md(b)}) | {r['kind']} | `{_md(r['id'])}` | {_md(r.get('name', ''))} |" for r in diff.added]
        out += [f"| removed ({_md(a)}) | {r['kind']} | `{_md(r['id'])}` | {_md(r.get('name', ''))} |"
                for r in diff.removed]
        out.append("")
    if diff.changed:
        out += ["### Changed", "", f"| record | field | {_md(a)} | {_md(b)} |", "|---|---|---|---|"]
        for c in diff.changed:
            who = f"{c.kind} `{_md(c.id)}`" + (f" ({diff.pairing} `{_md(c.old_id)}`)" if c.renamed else "")
            if not c.fields:
                out.append(f"| {who} | name | {_md(c.old_name)} | {_md(c.name)} |")
            for ch in c.fields:
                out.append(f"| {who} | {_md(ch.path)} | {_md(_show(ch.old))} | {_md(_show(ch.new))} |")
        out.append("")
    if diff.impact:
        out += ["### Impact", "", "Expected wounds removed by one model's attacks against reference targets.", "",
                "| weapon | reason | target | old | new | change |", "|---|---|---|---:|---:|---:|"]
        for imp in diff.impact:
            for r in imp.rows:
                out.append(f"| `{_md(imp.weapon)}` | {_md(imp.reason)} | {_md(r['target'])} | {_fmt(r['old'])} | "
                           f"{_fmt(r['new'])} | {_delta(r['delta'])} |")
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


RENDERERS = {
    "text": render_text,
    "markdown": render_markdown,
    "json": lambda d: json_text(as_dict(d)) + "\n",
}


def run_diff(args) -> int:
    repo = Path(args.repo)
    try:
        with tempfile.TemporaryDirectory(prefix="warscribe-diff-") as tmp:
            if args.ruleset_compare:
                if args.new is not None:
                    print("warscribe diff: --ruleset-compare takes one build (OLD), not two", file=sys.stderr)
                    return 2
                diff = compare_rulesets(load_side(args.old, repo, Path(tmp)), *args.ruleset_compare)
            else:
                old = load_side(args.old, repo, Path(tmp))
                new = load_side(args.new if args.new is not None else "out", repo, Path(tmp))
                diff = compare(old, new, provenance=args.provenance)
    except DiffError as exc:
        print(f"warscribe diff: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    sys.stdout.write(RENDERERS[args.format](diff))
    return 0 if diff.empty else 1  # as diff(1) and `git diff --exit-code`: 1 when there are differences
