"""A faction file's army rules, detachments, stratagems and enhancements.

* ``rules.army``: the army rules, each a faction ability of the file's army
  (:func:`army_rule_id`, the formula BattleScribe's faction abilities use).
* ``detachments`` with ``rules.detachment`` (their rules, by ``detachment_id``): a detachment
  record; its first rule is ``rule``, the others ``additional_rules``. ``detachmentPoints`` is
  the Detachment Points it costs; ``detachmentPointsOverrides`` (another army's price of the same
  detachment: Stormlance Task Force costs Black Templars 2, not 3) has no field, and is reported.
  The app does not say a detachment's unique tag: the Field Manual does.
* ``stratagems``: by ``detachment_id``; ``type`` is the category ("" none), ``turn`` and
  ``phase`` the turn and phases (read from WHEN where the app leaves them empty, as the
  Wahapedia export's are).
* ``enhancements``: ``cost`` is points ("null": none, as Combat Patrol's); an Upgrade is named
  "... (Upgrade)" or its text begins "Upgrade:" (the marker is left off name and text); the
  first sentence, "X model only." (with any "(excluding Y models)"), is the restriction. The
  app's ``excludes`` are the keywords that sentence excludes, not enhancements: the restriction
  keeps them, and any it does not print is reported.

A Combat Patrol file (``game_mode``) gives records of that mode, under ids of their own
(:func:`warscribe.schema.ids.in_game_mode`).
"""

from __future__ import annotations

import re

from warscribe.extract.app.entries import Entry, line_of, name_of, names_of
from warscribe.extract.app.factions import army_name
from warscribe.extract.app.rules_text import rule_text
from warscribe.extract.app.source import AppFile
from warscribe.extract.stratagem_text import timing
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.records import OMIT

CATEGORIES = ("Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear")
TURNS = {"your": "your", "opponents": "opponent", "opponent": "opponent", "either": "either"}
PHASES = ("command", "movement", "shooting", "charge", "fight", "any")
# "... (Upgrade)" at the end of a name, in any language's brackets ("（アップグレード）").
_UPGRADE_NAME = re.compile(r"\s*\(Upgrade\)\s*$", re.I)
_BRACKETED_END = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
_UPGRADE_TEXT = re.compile(r"^Upgrade:\s*", re.I)
# The restriction: a first sentence naming who may take it, ending "only." (an "(excluding ...)"
# before or after "only"). It begins with a KEYWORD (a word in capitals: "KÂHL", "SHIELD‑CAPTAIN"),
# or, where the app left the keyword unmarked ("Heretic Astartes model only."), names a model or a
# unit in one clause (no comma: "When this unit declares a charge, ..." is a rule, not who takes it).
_FIRST_SENTENCE = re.compile(r"^(?P<r>[^.]*?\bonly(?:\s*\([^)]*\))?\s*\.)\s*(?P<t>.*)$", re.S)
_KEYWORD_START = re.compile(r"^[A-ZÀ-Þ0-9‘'\u2019][A-ZÀ-Þ0-9‘'\u2019\-\u2010\u2011/]+(?=[\s,/])")
_WHO = re.compile(r"\b(?:models?|units?)\b")
_PARENTHESES = re.compile(r"\([^)]*\)")
_COST = re.compile(r"^\s*\+?(?P<n>\d{1,5})\s*(?:pts|points)?\s*$", re.I)


def faction_of(file: AppFile) -> str:
    """The army a faction file is (its records' faction)."""
    return army_name(file.doc.get("name") if isinstance(file.doc.get("name"), (str, dict)) else "")


def army_rule_id(faction: str, name: str, game_mode: str | None = None) -> str:
    """The id of an army rule: the faction ability of `faction` called `name` (the id a datasheet's
    faction ability names; BattleScribe's faction abilities have the same)."""
    return ids.in_game_mode(game_mode, ids.faction_ability(faction, name))


def detachment_id(faction: str, name: str, game_mode: str | None = None) -> str:
    return ids.in_game_mode(game_mode, ids.detachment(faction, name))


def enhancement_name(value) -> tuple[str, bool]:
    """(name without the Upgrade marker, whether it had one)."""
    name = name_of(value)
    bare = _UPGRADE_NAME.sub("", name)
    return bare, bare != name


def _list(doc, key: str) -> list:
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, list) else []


def _objects(file: AppFile, report: Report, container, key: str, line: int) -> list[dict]:
    """The objects of list `key`; a value that is not a list, or items that are not objects, reported."""
    value = container.get(key) if isinstance(container, dict) else None
    if value is None:
        return []
    if not isinstance(value, list):
        report.warning(file.name, line, "bad-app-data", f"{key} is not a list; not read", expected="a list",
                       found=type(value).__name__)
        return []
    bad = [v for v in value if not isinstance(v, dict)]
    if bad:
        report.warning(file.name, line, "bad-app-data", f"{len(bad)} item(s) of {key} are not objects; not read",
                       expected="objects", found=type(bad[0]).__name__)
    return [v for v in value if isinstance(v, dict)]


def read_faction(file: AppFile, report: Report, game_mode: str | None = None) -> list[tuple[dict, list[dict]]]:
    """Army rules, detachments, stratagems and enhancements of one faction (or Combat Patrol) file."""
    doc = file.doc
    faction = faction_of(file)
    root = line_of(doc)
    items: list[tuple[dict, list[dict]]] = []
    rules = doc.get("rules") if isinstance(doc.get("rules"), dict) else {}
    items += _army_rules(file, report, faction, _objects(file, report, rules, "army", root), root, game_mode)
    detachments = _objects(file, report, doc, "detachments", root)
    by_app_id: dict[str, tuple[str, Entry]] = {}  # app id -> (our id, the detachment's entry)
    for det in detachments:
        name = name_of(det.get("name"))
        entry = Entry(file, report, line_of(det, root), f"detachment {name!r}")
        if not name:
            entry.error("bad-app-data", "detachment without a name; skipped, with its stratagems and enhancements",
                        expected="a name", found="nothing")
            continue
        if isinstance(det.get("id"), str):
            by_app_id[det["id"]] = (detachment_id(faction, name, game_mode), entry)
    owned: dict[str, dict[str, list[str]]] = {key: {"stratagem": [], "enhancement": []} for key in by_app_id}
    for section, kind, make in (("stratagems", "stratagem", _stratagem), ("enhancements", "enhancement", _enhancement)):
        for obj in _objects(file, report, doc, section, root):
            made = make(file, report, obj, faction, by_app_id, root, game_mode)
            if made:
                items.append(made)
                key = obj.get("detachment_id")
                if key in owned:
                    owned[key][kind].append(made[0]["id"])
    det_rules = _detachment_rules(file, report, _objects(file, report, rules, "detachment", root), by_app_id, root)
    seen: set[str] = set()
    for det in detachments:
        key = det.get("id")
        if key not in by_app_id:
            continue
        det_id, entry = by_app_id[key]
        if det_id in seen:
            entry.warn("id-collision", f"another detachment of this file has the id {det_id}; this one is left out",
                       expected="detachment names that differ in letters or digits", found=name_of(det.get("name")))
            continue
        seen.add(det_id)
        items.append(_detachment(entry, det, det_id, faction, det_rules.get(key, []), owned[key], game_mode))
    return items


def _army_rules(file: AppFile, report: Report, faction: str, rules: list[dict], root: int,
                game_mode: str | None) -> list[tuple[dict, list[dict]]]:
    out = []
    seen: set[str] = set()
    for rule in rules:
        name = name_of(rule.get("name"))
        entry = Entry(file, report, line_of(rule, root), f"army rule {name!r}")
        if not name:
            entry.error("bad-app-data", "army rule without a name; skipped", expected="a name", found="nothing")
            continue
        text = rule_text(entry, rule.get("rules"))
        if not text:
            entry.warn("empty-rule", "army rule without a text; not made a record", expected="its text", found="nothing")
            continue
        rid = army_rule_id(faction, name, game_mode)
        if rid in seen:
            entry.warn("id-collision", f"another army rule of this file has the id {rid}; this one is left out",
                       expected="army rule names that differ in letters or digits", found=name)
            continue
        seen.add(rid)
        record = records.ability(id=rid, name=name, ruleset=file.ruleset, type="faction", text=text,
                                 names=names_of(rule.get("name")))
        out.append((record, [entry.prov()]))
    return out


def _detachment_rules(file: AppFile, report: Report, wraps: list[dict], by_app_id: dict[str, tuple[str, Entry]],
                      root: int) -> dict[str, list[dict]]:
    """Each detachment's rules ({name, text}), by the detachment's app id."""
    out: dict[str, list[dict]] = {}
    for wrap in wraps:
        key = wrap.get("detachment_id")
        if key not in by_app_id:
            report.error(file.name, line_of(wrap, root), "unknown-reference",
                         f"detachment rules of {name_of(wrap.get('detachment'))!r}: detachment_id {key!r} names no "
                         "detachment of this file; skipped", expected="the id of a detachment of the file",
                         found=str(key))
            continue
        _det_id, det_entry = by_app_id[key]
        for rule in _objects(file, report, wrap, "rules", det_entry.line):
            name = name_of(rule.get("name"))
            entry = Entry(file, report, det_entry.line, f"{det_entry.what}, rule {name!r}")
            text = rule_text(entry, rule.get("rules"))
            if not name or not text:
                entry.warn("empty-rule", "detachment rule without a name or a text; left out",
                           expected="a name and a text", found=name or "no name")
                continue
            out.setdefault(key, []).append({"name": name, "text": text})
    return out


def _detachment(entry: Entry, det: dict, det_id: str, faction: str, rules: list[dict],
                owned: dict[str, list[str]], game_mode: str | None) -> tuple[dict, list[dict]]:
    if not rules:
        entry.warn("missing-detachment-rule", "the app gives no rule for this detachment", expected="its rule",
                   found="nothing")
    points = det.get("detachmentPoints")
    if points is not None and (isinstance(points, bool) or not isinstance(points, int) or points < 0):
        entry.warn("bad-app-data", "detachmentPoints is not a whole number; left out", expected="0, 1, 2 ...",
                   found=repr(points)[:40])
        points = None
    overrides = det.get("detachmentPointsOverrides")
    if overrides:
        entry.warn("app-unused", "Detachment Points for other armies (no field holds them): " + _overrides(overrides)
                   + f"; the detachment's own ({points}) is kept", expected=f"{points} for every army",
                   found=_overrides(overrides))
    disposition = det.get("forceDisposition")
    force = name_of(disposition.get("name")) if isinstance(disposition, dict) else ""
    if disposition is not None and not force:
        entry.warn("bad-app-data", "forceDisposition has no name; left out", expected="{name: ...}",
                   found=type(disposition).__name__)
    record = records.detachment(
        id=det_id, name=name_of(det.get("name")), ruleset=entry.file.ruleset, faction=faction,
        rule=rules[0] if rules else None, additional_rules=rules[1:] or OMIT,
        stratagems=list(dict.fromkeys(owned["stratagem"])), enhancements=list(dict.fromkeys(owned["enhancement"])),
        detachment_points=points, force_disposition=force or None, names=names_of(det.get("name")),
        game_mode=game_mode or OMIT)
    return record, [entry.prov()]


def _overrides(overrides) -> str:
    """'Black Templars 2, Blood Angels 2' from the app's list of {faction, detachmentPoints}."""
    if not isinstance(overrides, list):
        return repr(overrides)[:80]
    parts = []
    for o in overrides:
        if isinstance(o, dict):
            parts.append(f"{name_of(o.get('faction')) or '?'} {o.get('detachmentPoints')}")
    return ", ".join(parts) or "nothing readable"


def _owner(entry: Entry, obj: dict, faction: str, by_app_id: dict[str, tuple[str, Entry]],
           game_mode: str | None) -> str | None:
    """The id of the detachment an entry belongs to: by its detachment_id, else by the detachment name it
    gives (reported); None (reported) when it gives neither."""
    key = obj.get("detachment_id")
    if key in by_app_id:
        return by_app_id[key][0]
    name = name_of(obj.get("detachment"))
    if name:
        det_id = detachment_id(faction, name, game_mode)
        entry.warn("unknown-reference", f"detachment_id {key!r} names no detachment of this file; filed under "
                   f"{det_id}, after the detachment it names", expected="the id of a detachment of the file",
                   found=str(key))
        return det_id
    entry.error("unknown-reference", "names no detachment of this file; skipped",
                expected="the id of a detachment of the file", found=str(key))
    return None


def _stratagem(file: AppFile, report: Report, s: dict, faction: str, by_app_id: dict[str, tuple[str, Entry]],
               root: int, game_mode: str | None) -> tuple[dict, list[dict]] | None:
    name = name_of(s.get("name"))
    entry = Entry(file, report, line_of(s, root), f"stratagem {name!r}")
    if not name:
        entry.error("bad-stratagem", "stratagem without a name; skipped", expected="a name", found="nothing")
        return None
    det_id = _owner(entry, s, faction, by_app_id, game_mode)
    if det_id is None:
        return None
    cp = s.get("cost")
    if isinstance(cp, str) and cp.strip().isdigit():
        cp = int(cp)
    if isinstance(cp, bool) or not isinstance(cp, int) or cp < 0:
        entry.error("bad-stratagem", "cost is not a whole number of CP; skipped", expected="1, 2 ...",
                    found=repr(cp)[:40])
        return None
    raw_type = s.get("type")
    category = raw_type if raw_type in CATEGORIES else None
    if raw_type not in CATEGORIES and raw_type not in ("", None):
        entry.warn("bad-stratagem", "type is not a stratagem category; the category is left empty",
                   expected=", ".join(CATEGORIES), found=str(raw_type)[:60])
    fields = {key: entry.text(s.get(key), key) for key in ("when", "target", "effect", "restrictions")}
    for key in ("when", "target", "effect"):
        if fields[key] is None:
            entry.warn("stratagem-text", f"no {key.upper()}", expected=f"{key}: a text", found="nothing")
    turn, phases = _timing(entry, s, fields["when"])
    record = records.stratagem(
        id=ids.stratagem("detachment", file.ruleset, name, det_id), name=name, ruleset=file.ruleset, cp=cp,
        category=category, origin="detachment", detachment=det_id, turn=turn or OMIT, phases=phases or OMIT,
        **fields, flavour=entry.text(s.get("fluff"), "fluff"), names=names_of(s.get("name")),
        game_mode=game_mode or OMIT)
    return record, [entry.prov()]


def _timing(entry: Entry, s: dict, when: str | None) -> tuple[str | None, list[str] | None]:
    """(turn, phases) as the app gives them; from WHEN where it gives none (reported)."""
    said_phases, said_turn = timing(when)
    raw_turn = s.get("turn")
    turn = TURNS.get(raw_turn) if isinstance(raw_turn, str) else None
    if turn is None:
        entry.warn("bad-stratagem" if raw_turn not in (None, "") else "empty-field",
                   f"turn {raw_turn!r} is not one the reader knows; read from WHEN ({said_turn or 'nothing'})",
                   expected="your, opponents or either", found=str(raw_turn)[:40])
        turn = said_turn
    raw = s.get("phase")
    phases = None
    if isinstance(raw, list) and raw and all(isinstance(p, str) and p in PHASES for p in raw):
        phases = [p for p in PHASES if p in raw]
    else:
        shown = ", ".join(map(str, raw)) if isinstance(raw, list) else repr(raw)
        entry.warn("empty-field" if raw in ([], None) else "bad-stratagem",
                   f"phase [{shown}] names no phase the reader knows; read from WHEN ({', '.join(said_phases or []) or 'nothing'})",
                   expected=", ".join(PHASES), found=shown[:60] or "nothing")
        phases = said_phases
    return turn, phases


def _points(entry: Entry, cost) -> tuple[bool, int | None]:
    """(readable, points): "null" and an absent cost are no points; a number or a digit string its value."""
    if cost is None or cost == "null":
        return True, None
    if isinstance(cost, int) and not isinstance(cost, bool) and cost >= 0:
        return True, cost
    m = _COST.match(cost) if isinstance(cost, str) else None
    if m:
        return True, int(m["n"])
    entry.error("bad-cost", "cost is not points; enhancement skipped", expected="'15', 15 or 'null'",
                found=repr(cost)[:40])
    return False, None


def _enhancement(file: AppFile, report: Report, e: dict, faction: str, by_app_id: dict[str, tuple[str, Entry]],
                 root: int, game_mode: str | None) -> tuple[dict, list[dict]] | None:
    name, upgrade = enhancement_name(e.get("name"))
    entry = Entry(file, report, line_of(e, root), f"enhancement {name!r}")
    if not name:
        entry.error("bad-app-data", "enhancement without a name; skipped", expected="a name", found="nothing")
        return None
    det_id = _owner(entry, e, faction, by_app_id, game_mode)
    if det_id is None:
        return None
    readable, points = _points(entry, e.get("cost"))
    if not readable:
        return None
    body = entry.text(e.get("description"), "description") or ""
    if _UPGRADE_TEXT.match(body):
        upgrade = True
        body = _UPGRADE_TEXT.sub("", body, count=1)
    restriction, text = split_restriction(body)
    if not text:
        entry.warn("empty-field", "enhancement without a rules text", expected="its text", found=body[:60] or "nothing")
    _check_excludes(entry, e.get("excludes"), restriction)
    other_names = names_of(e.get("name"))
    if upgrade and other_names:  # each language prints its own "(Upgrade)"
        other_names = {lang: _BRACKETED_END.sub("", n) or n for lang, n in other_names.items()}
    record = records.enhancement(
        id=ids.enhancement(name, det_id, faction), name=name, ruleset=file.ruleset, detachment=det_id, points=points,
        text=text, restriction=restriction, upgrade=upgrade, names=other_names, game_mode=game_mode or OMIT)
    return record, [entry.prov()]


def split_restriction(body: str) -> tuple[str | None, str | None]:
    """(restriction, rules text) of an enhancement's text; (None, text) where it states none."""
    m = _FIRST_SENTENCE.match(body)
    if m:
        first = m["r"].strip()
        if _KEYWORD_START.match(first) or (_WHO.search(first) and "," not in _PARENTHESES.sub("", first)
                                            and first[:1].isupper()):
            return first, m["t"].strip() or None
    return None, body or None


def _check_excludes(entry: Entry, excludes, restriction: str | None) -> None:
    """The app's excluded keywords are the restriction's "(excluding ...)": any it does not print is reported."""
    if not excludes:
        return
    if not isinstance(excludes, list) or not all(isinstance(x, str) for x in excludes):
        entry.warn("bad-app-data", "excludes is not a list of keywords; not read", expected="['Khorne', ...]",
                   found=repr(excludes)[:60])
        return
    said = (restriction or "").casefold()
    missing = sorted({x for x in excludes if x.casefold().replace("\u2019", "'") not in said.replace("\u2019", "'")})
    if missing:
        entry.warn("app-unused", f"excluded keyword(s) {', '.join(missing)} not printed in the restriction; not kept",
                   expected="the restriction's '(excluding ...)'", found=", ".join(missing))


def named(file: AppFile, game_mode: str | None = None) -> list[tuple[str, str | None, str, str]]:
    """What a faction file names, as (kind, its app id, its name, our record's id), for references from
    other files (the FAQ's targets): the ids :func:`read_faction` gives (and a datasheet's, by
    :func:`warscribe.schema.ids.datasheet`)."""
    doc = file.doc
    faction = faction_of(file)
    out: list[tuple[str, str | None, str, str]] = []
    rules = doc.get("rules") if isinstance(doc.get("rules"), dict) else {}
    for rule in _list(rules, "army"):
        name = name_of(rule.get("name")) if isinstance(rule, dict) else ""
        if name:
            out.append(("army-rule", None, name, army_rule_id(faction, name, game_mode)))
    dets: dict[str, str] = {}
    for det in _list(doc, "detachments"):
        name = name_of(det.get("name")) if isinstance(det, dict) else ""
        if name:
            det_id = detachment_id(faction, name, game_mode)
            dets[str(det.get("id"))] = det_id
            out.append(("detachment", det.get("id") if isinstance(det.get("id"), str) else None, name, det_id))
    for kind, key in (("stratagem", "stratagems"), ("enhancement", "enhancements")):
        for obj in _list(doc, key):
            if not isinstance(obj, dict):
                continue
            name = enhancement_name(obj.get("name"))[0] if kind == "enhancement" else name_of(obj.get("name"))
            det_id = dets.get(str(obj.get("detachment_id")))
            if not name or det_id is None:
                continue
            rid = (ids.stratagem("detachment", file.ruleset, name, det_id) if kind == "stratagem"
                   else ids.enhancement(name, det_id, faction))
            out.append((kind, obj.get("id") if isinstance(obj.get("id"), str) else None, name, rid))
    for ds in _list(doc, "datasheets"):
        name = name_of(ds.get("name")) if isinstance(ds, dict) else ""
        if name:
            out.append(("datasheet", ds.get("id") if isinstance(ds.get("id"), str) else None, name,
                        ids.in_game_mode(game_mode, ids.datasheet(faction, name))))
    return out
