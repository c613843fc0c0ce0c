"""The compile stage: rules text on linked records becomes keyword expressions and effects.

Runs after linking, before validation (``extract/pipeline.py``). For every record it
adds, through the record constructors:

* stratagems: ``target_keywords`` (TARGET, plus a restriction that excludes units),
  ``targets`` (the datasheets it can target) and ``effects`` (EFFECT);
* enhancements: ``restriction_keywords``, ``bearers`` and ``effects``;
* abilities, detachment rules, datasheet abilities and headingless rule passages:
  ``effects``;
* datasheets: ``stratagems`` (the inverse of ``targets``).

Which stratagems can target a datasheet: core and Boarding Actions ones of its
ruleset, and the detachment ones of its faction, whose keyword expression the unit
meets (a unit has every keyword of its models).
"""

from __future__ import annotations

from warscribe.extract.effects import Context, compile_text
from warscribe.extract.keyexpr import Known, parse_phrase, parse_restriction, standalone_keywords
from warscribe.schema import records as R
from warscribe.schema.keywords import matches, unit_keywords
from warscribe.schema.text import slugify


_TEXT_FIELDS = {"stratagem": ("target", "effect", "restrictions"), "enhancement": ("text", "restriction"),
                "ability": ("text",), "rule": ("text",)}


def known_keywords(records: list[dict]) -> Known:
    """Every keyword the knowledge base knows: keyword records, datasheets' keywords, the
    keywords of [ANTI-X] abilities, and words the rules texts use as a keyword on their own."""
    names: set[str] = set()
    for rec in records:
        kind = rec["kind"]
        if kind == "keyword":
            names.add(rec["name"])
        elif kind == "datasheet":
            names.update(unit_keywords(rec))
        elif kind == "weapon":
            names.update(a["keyword"] for a in rec["abilities"] if "keyword" in a)
        for name in _TEXT_FIELDS.get(kind, ()):
            names.update(standalone_keywords(rec.get(name)))
        if kind == "detachment":
            for rule in ([rec["rule"]] if rec.get("rule") else []) + rec.get("additional_rules", []):
                names.update(standalone_keywords(rule["text"]))
        names.update(m["keyword"] for m in rec.get("mentions", []) if "keyword" in m)
    return Known(sorted(names))


def _rebuild(rec: dict, **fields) -> dict:
    """The record made again by its constructor with new fields (keeps the canonical key order)."""
    given = {k: v for k, v in rec.items() if k != "kind"}
    given.update(fields)
    return R.make(rec["kind"], **given)


def _all(*exprs: dict | None) -> dict | None:
    parts = [e for e in exprs if e is not None]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else {"all": parts}


def compile_records(records: list[dict]) -> list[dict]:
    """The records with keyword expressions, target lists and compiled effects added."""
    known = known_keywords(records)
    contexts: dict[str, Context] = {}

    def context(ruleset: str, ability_id: str | None = None) -> Context:
        base = contexts.setdefault(ruleset, Context(ruleset, known))
        if ability_id is None:
            return base
        return Context(ruleset, known, base.granted, ability_id)

    out: dict[str, dict] = {r["id"]: r for r in records}
    # Abilities first: 'your unit has the Stealth ability' reuses Stealth's compiled effects.
    for rec in records:
        if rec["kind"] == "ability":
            ability_id = rec.get("ability_id") or slugify(rec["name"])
            effects = compile_text(rec["text"], context(rec["ruleset"], ability_id))
            context(rec["ruleset"]).granted[rec["name"].casefold()] = (rec["id"], effects)
            out[rec["id"]] = _rebuild(rec, effects=effects)

    detachments = {r["id"]: r for r in records if r["kind"] == "detachment"}
    datasheets = [r for r in records if r["kind"] == "datasheet"]
    can_target: dict[str, list[str]] = {d["id"]: [] for d in datasheets}
    # Candidates by ruleset and by (ruleset, faction), each with its unit's keywords, made once:
    # a whole game is a thousand stratagems over fifteen hundred datasheets.
    by_ruleset: dict[str, list[tuple[dict, list[str]]]] = {}
    by_faction: dict[tuple[str, str], list[tuple[dict, list[str]]]] = {}
    for d in datasheets:
        entry = (d, unit_keywords(d))
        by_ruleset.setdefault(d["ruleset"], []).append(entry)
        by_faction.setdefault((d["ruleset"], d["faction"]), []).append(entry)
    for rec in records:
        kind, ctx = rec["kind"], context(rec["ruleset"])
        if kind == "stratagem":
            expr = _all(parse_phrase(rec["target"], known), parse_restriction(rec["restrictions"], known))
            faction = (detachments.get(rec["detachment"] or "") or {}).get("faction")
            candidates = (by_ruleset.get(rec["ruleset"], []) if rec["origin"] != "detachment"
                          else by_faction.get((rec["ruleset"], faction), []))
            targets = sorted(d["id"] for d, words in candidates if matches(expr, words))
            for d in targets:
                can_target[d].append(rec["id"])
            fields = {"target_keywords": expr, "targets": targets}
            if rec["effect"]:
                fields["effects"] = compile_text(rec["effect"], ctx)
            out[rec["id"]] = _rebuild(rec, **fields)
        elif kind == "enhancement":
            expr = parse_phrase(rec["restriction"], known)
            faction = (detachments.get(rec["detachment"] or "") or {}).get("faction")
            if "bearers" in rec:  # a structured source (BattleScribe) says who may take it
                bearers = rec["bearers"]
            else:
                candidates = (by_ruleset.get(rec["ruleset"], []) if faction is None
                              else by_faction.get((rec["ruleset"], faction), []))
                bearers = sorted(d["id"] for d, words in candidates if matches(expr, words))
            fields = {"restriction_keywords": expr, "bearers": bearers}
            if rec["text"]:
                fields["effects"] = compile_text(rec["text"], ctx)
            out[rec["id"]] = _rebuild(rec, **fields)
        elif kind == "detachment" and (rec["rule"] or rec.get("additional_rules")):
            fields = {}
            if rec["rule"]:
                fields["rule"] = dict(rec["rule"], effects=compile_text(rec["rule"]["text"], ctx))
            if rec.get("additional_rules"):
                fields["additional_rules"] = [dict(r, effects=compile_text(r["text"], ctx)) for r in rec["additional_rules"]]
            out[rec["id"]] = _rebuild(rec, **fields)
        elif kind == "rule" and rec["title"] is None and rec["number"] is None:
            out[rec["id"]] = _rebuild(rec, effects=compile_text(rec["text"], ctx))
    for d in datasheets:
        abilities = [dict(a, effects=compile_text(a["text"], context(d["ruleset"]))) if a.get("text") else a
                     for a in d["abilities"]]
        out[d["id"]] = _rebuild(out[d["id"]], abilities=abilities, stratagems=sorted(can_target[d["id"]]))
    return [out[r["id"]] for r in records]


#: Fields this stage derives from others (never read from a source).
DERIVED_FIELDS = ("target_keywords", "targets", "restriction_keywords", "bearers", "effects", "stratagems")


def without_derived(record: dict) -> dict:
    """A copy of a record without what this stage adds (to compare with a source that lacks it)."""
    out = {k: v for k, v in record.items() if k not in DERIVED_FIELDS or (k == "stratagems" and record["kind"] == "detachment")}
    if record["kind"] == "datasheet":
        out["abilities"] = [{k: v for k, v in a.items() if k != "effects"} for a in record["abilities"]]
    if record["kind"] == "detachment" and record.get("rule"):
        out["rule"] = {k: v for k, v in record["rule"].items() if k != "effects"}
    if record["kind"] == "detachment" and record.get("additional_rules"):
        out["additional_rules"] = [{k: v for k, v in r.items() if k != "effects"} for r in record["additional_rules"]]
    return out
