"""A unit against a unit, from the knowledge base: datasheets in, a checked Scenario out.

``attacker: {datasheet: NAME, models: N, loadout: [...], attached: [NAME...], ...}`` names a
datasheet (id or unique name) with its models, its default loadout or one chosen, and the
Leader and Support units attached to it (their weapons fire too); ``target`` the same way
(its models shared out by composition as for ``target.ref``; attached units make it an
attached unit). Every model fires its own weapons (``engine.loadout``), with the choices
the rules leave to the player made for the most expected damage and reported:

* shooting: all ranged weapons, except that a model that is not a MONSTER or VEHICLE fires
  either its [PISTOL] weapons or its other ranged weapons (10e Pistol; 11e 24.07
  [CLOSE-QUARTERS], 24.27 [PISTOL] 'identical for all rules purposes');
* fighting: one melee weapon per model, plus its [EXTRA ATTACKS] weapons;
* a weapon of several profiles fires one of them.

Rules come from the records: each side's own abilities (its datasheets' and the faction
abilities they refer to; ``abilities: [names]`` picks some, ``[]`` none), a detachment rule,
an enhancement and stratagems by name. What a rule's compiled effect gives is applied
(``engine.effects``); every sentence of a rule named or present that bears on the attacks
and did not compile, or that the engine cannot compute, is listed in ``not_calculated`` with
its text. Nothing is approximated silently.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from warscribe.engine import effects as E
from warscribe.engine.attack import group_profile
from warscribe.engine.dist import mean
from warscribe.engine.errors import ScenarioError
from warscribe.engine.kb import KnowledgeBase, model_kinds, shares, weapon_from_record
from warscribe.engine.loadout import Carrier, chosen_loadout, default_loadout, weapons_of
from warscribe.engine.model import Conditions, Group, ModelKind, Modifiers, Scenario, Target, Weapon
from warscribe.schema.text import slugify

PHASES = ("shooting", "fight")
# Core abilities whose sentences the engine models itself, or that act outside the attacks of one
# unit on another: their uncompiled sentences are not listed as not calculated.
MODELLED_CORE = {"leader": "allocation to an attached unit (engine/groups.py)",
                 "support": "allocation to an attached unit (engine/groups.py)",
                 "feel-no-pain": "Feel No Pain from the ability's name (engine/kb.py)",
                 "deadly-demise": "after the model is destroyed", "deep-strike": "set-up", "scouts": "movement",
                 "infiltrators": "set-up", "firing-deck": "transports", "hover": "movement", "fights-first": "fight order",
                 "lone-operative": "target selection"}
# Scenarios built from datasheets, by their exact input and the knowledge base object.
_BUILT: OrderedDict = OrderedDict()
BUILT_KEPT = 256


def uses_units(data: dict) -> bool:
    return "datasheet" in data["attacker"] or "datasheet" in data["target"]


def cached(key: bytes | None, kb: KnowledgeBase, build) -> Scenario:
    if key is None:
        return build()
    full = (key, id(kb))
    found = _BUILT.get(full)
    if found is not None and found[0] is kb:
        _BUILT.move_to_end(full)
        return found[1]
    scenario = build()
    _BUILT[full] = (kb, scenario)
    if len(_BUILT) > BUILT_KEPT:
        _BUILT.popitem(last=False)
    return scenario


# --- units ---------------------------------------------------------------------------

def _shares(record: dict, models: int, field: str) -> list[int]:
    """Models per composition line, as ``kb.model_kinds`` shares them out."""
    composition = record.get("composition") or [{"name": record.get("name", ""), "min": 1, "max": 100}]
    return shares(composition, models, field, record["id"])


def _minimum(record: dict) -> int:
    return sum(c["min"] for c in record.get("composition") or []) or 1


def _keywords(record: dict) -> frozenset[str]:
    return frozenset(k.upper() for k in list(record.get("keywords", [])) + list(record.get("faction_keywords", [])))


def _datasheets(spec: dict, kb: KnowledgeBase, side: str) -> list[tuple[dict, int, str]]:
    """(record, models, field) for the unit and each unit attached to it."""
    unit = kb.datasheet(spec["datasheet"], f"{side}.datasheet")
    out = [(unit, spec.get("models") or _minimum(unit), f"{side}.datasheet")]
    for i, name in enumerate(spec.get("attached") or ()):
        field = f"{side}.attached[{i}]"
        record = kb.datasheet(name, field)
        out.append((record, _minimum(record), field))
    return out


def _attach_notes(units: list[tuple[dict, int, str]]) -> list[str]:
    """An attached unit whose Leader/Support ability does not list the unit is noted, not refused
    (names differ between sources: 'Sword Brethren' and 'Sword Brethren Squad')."""
    body = units[0][0]
    notes = []
    for record, _n, field in units[1:]:
        listed = [u.casefold() for key in ("leader", "support") for u in (record.get(key) or {}).get("units", [])]
        if not listed:
            notes.append(f"{field}: {record['name']} has no Leader or Support ability in this build; attached as asked")
        elif body["name"].casefold() not in listed:
            notes.append(f"{field}: {record['name']}'s Leader/Support ability does not list {body['name']}; attached as asked")
    return notes


def target_of(spec: dict, kb: KnowledgeBase) -> tuple[Target, list[dict], list[str]]:
    """The target unit: the datasheet's models by composition, and each attached unit's minimum."""
    target, records, notes, _owned = _target_units(spec, kb)
    return target, records, notes


def _target_units(spec: dict, kb: KnowledgeBase) -> tuple[Target, list[dict], list[str], list[tuple[dict, tuple[ModelKind, ...]]]]:
    """``target_of``, and each datasheet with the kinds (as named in the target) of its models."""
    units = _datasheets(spec, kb, "target")
    kinds: list[ModelKind] = []
    owned: list[tuple[dict, tuple[ModelKind, ...]]] = []
    taken: set[str] = set()
    extra = frozenset(k.upper() for k in spec.get("keywords") or ())
    for i, (record, models, field) in enumerate(units):
        mine = []
        for k in model_kinds(record, models, field):
            name = k.name if k.name not in taken else f"{k.name} ({record['name']})"
            taken.add(name)
            mine.append(ModelKind(**{**vars(k), "name": name, "keywords": k.keywords | extra}))
        kinds += mine
        owned.append((record, tuple(mine)))
    attached = len(units) > 1
    if attached and not any(k.character for k in kinds[len(model_kinds(units[0][0], units[0][1], units[0][2])):]):
        raise ScenarioError("target.attached: no attached unit has the CHARACTER keyword: an attached unit needs its leader")
    guards = [k.toughness for k in kinds if not k.character]
    toughness = max(guards) if attached and guards else max(k.toughness for k in kinds)
    every = frozenset().union(extra, *(k.keywords for k in kinds))
    first = kinds[0]
    target = Target(toughness=toughness, save=first.save, wounds=first.wounds, models=sum(k.count for k in kinds),
                    invulnerable=first.invulnerable, feel_no_pain=first.feel_no_pain,
                    damage_reduction=first.damage_reduction, damage_halved=first.damage_halved, keywords=every,
                    kinds=tuple(kinds), attached=attached, name=spec.get("name") or units[0][0]["name"])
    return target, [u[0] for u in units], _attach_notes(units), owned


def _bearers(owned: list[tuple[dict, tuple[ModelKind, ...]]], kb: KnowledgeBase, enhancement: str | None,
             ruleset: str) -> dict[str, tuple[str, ...]]:
    """By source id, the target's kind that bears a rule written for one model ('this model', 'the bearer').

    A datasheet's own rule is its models': known when the datasheet brings one model to the unit
    (an attached Leader, a character), and when no other datasheet of the unit has the same rule;
    a wargear's rule only when the datasheet's loadout names that wargear (a Storm Shield the model
    may not have taken is not its own). An enhancement is borne by a CHARACTER model (10e and 11e
    Enhancements): known when the unit has one. Anything else (a bodyguard of five, two leaders with
    the same ability) stays unknown.
    """
    owners: dict[str, list[tuple[ModelKind, ...]]] = {}
    for record, kinds in owned:
        carried = slugify(record.get("loadout") or "")
        optional = {slugify(a["name"]) for a in record.get("abilities") or ()
                    if a.get("type") == "wargear" and slugify(a["name"]) not in carried}
        mine: dict[str, str] = {}
        for sid, name in _own_sources([record], kb, None, "target"):
            mine.setdefault(sid, name)
        for sid, name in mine.items():
            owners.setdefault(sid, []).append(() if slugify(name) in optional else kinds)
    out = {sid: (found[0][0].name,) for sid, found in owners.items()
           if len(found) == 1 and sum(k.count for k in found[0]) == 1}
    characters = [k for _r, kinds in owned for k in kinds if k.character]
    if enhancement and sum(k.count for k in characters) == 1:
        try:
            source = E.resolve(enhancement, kb.bundle, ruleset, "target.enhancement")
        except ScenarioError:
            return out  # reported where the enhancement is read (_named_sources)
        if source.kind == "enhancement":
            out.setdefault(source.id, (characters[0].name,))
    return out


# --- what each model fires ---------------------------------------------------------------

def _expected(ruleset: str, weapon: Weapon, target: Target, conditions: Conditions, mods: Modifiers) -> float:
    """Expected damage of one model's weapon (through saves and Feel No Pain, before any is lost)."""
    p = group_profile(ruleset, 1, weapon, target, conditions, mods)
    per_attack = sum((k + m) * q for (k, m), q in p.per_attack.items())
    return p.expected_attacks * per_attack * mean(p.event_damage)


def _is_pistol(weapon: Weapon) -> bool:
    return weapon.has("pistol") or weapon.has("close-quarters")


class _Chooser:
    """The profile, the pistols-or-not and the melee weapon each model fires, best by expected damage."""

    def __init__(self, ruleset: str, target: Target, conditions: Conditions, mods: Modifiers, kb: KnowledgeBase):
        self.ruleset, self.target, self.conditions, self.mods, self.kb = ruleset, target, conditions, mods, kb
        self._values: dict[str, float] = {}

    def value(self, record: dict) -> float:
        if record["id"] not in self._values:
            try:
                self._values[record["id"]] = _expected(self.ruleset, weapon_from_record(record), self.target,
                                                       self.conditions, self.mods)
            except (ValueError, KeyError, TypeError, ZeroDivisionError):
                self._values[record["id"]] = -1.0  # unreadable profile: never preferred; refused later
        return self._values[record["id"]]

    def profile(self, profiles: list[dict]) -> tuple[dict, str | None]:
        if len(profiles) == 1:
            return profiles[0], None
        best = max(profiles, key=lambda p: (self.value(p), -profiles.index(p)))
        names = ", ".join(f"{p.get('profile') or p['name']} {self.value(p):.3f}" for p in profiles)
        return best, f"best profile by expected damage ({names})"


def _fired(carrier: Carrier, weapons: dict, phase: str, big: bool, chooser: _Chooser) -> tuple[list[tuple[dict, int]], list[str]]:
    """(profile record, how many) the carrier's models fire each, and why that choice."""
    picked: list[tuple[dict, int, str | None]] = []
    for name, n in carrier.weapons.items():
        weapon = weapons[name]
        profiles = weapon.profiles
        if name in carrier.profiles:
            profiles = [p for p in profiles if p["id"] in carrier.profiles[name]]
        kind = [p for p in profiles if p["type"] == ("ranged" if phase == "shooting" else "melee")]
        if not kind:
            continue
        record, why = chooser.profile(kind)
        picked.append((record, n, why))
    why: list[str] = [f"{r['name']}: {w}" for r, _n, w in picked if w]
    if phase == "shooting":
        if not big:
            with_pistol = [p for p in picked if _is_pistol(weapon_from_record(p[0]))]
            others = [p for p in picked if p not in with_pistol]
            if with_pistol and others:
                a = sum(chooser.value(r) * n for r, n, _w in with_pistol)
                b = sum(chooser.value(r) * n for r, n, _w in others)
                keep, drop = (others, with_pistol) if b >= a else (with_pistol, others)
                why.append(f"{carrier.line}: fires {'its other ranged weapons' if keep is others else 'its pistols'} "
                           f"({b if keep is others else a:.3f} expected damage against "
                           f"{a if keep is others else b:.3f}), not {', '.join(r['name'] for r, _n, _w in drop)} "
                           "(10e Pistol; 11e 24.07 [CLOSE-QUARTERS])")
                picked = keep
        return [(r, n) for r, n, _w in picked], why
    extra = [p for p in picked if weapon_from_record(p[0]).has("extra-attacks")]
    main = [p for p in picked if p not in extra]
    if len(main) > 1:
        best = max(main, key=lambda p: (chooser.value(p[0]) * p[1], -main.index(p)))
        why.append(f"{carrier.line}: fights with {best[0]['name']} (the most expected damage of "
                   f"{', '.join(r['name'] for r, _n, _w in main)})")
        main = [best]
    return [(r, n) for r, n, _w in main + extra], why


# Default loadouts read, by knowledge base, datasheet and models per line: the loadout does not
# depend on the target, and a datasheet meets many (the site's tables, a matrix of units).
_LOADOUTS: OrderedDict = OrderedDict()
LOADOUTS_KEPT = 4096


def _default(kb: KnowledgeBase, record: dict, counts: list[int], weapons: dict):
    key = (id(kb), record["id"], tuple(counts))
    found = _LOADOUTS.get(key)
    if found is None or found[0] is not kb:
        found = _LOADOUTS[key] = (kb, default_loadout(record, counts, weapons))
        if len(_LOADOUTS) > LOADOUTS_KEPT:
            _LOADOUTS.popitem(last=False)
    return found[1]


def _weapons(kb: KnowledgeBase, record: dict) -> dict:
    key = (id(kb), record["id"], "weapons")
    found = _LOADOUTS.get(key)
    if found is None or found[0] is not kb:
        found = _LOADOUTS[key] = (kb, weapons_of(record, kb.bundle.get))
    return found[1]


def _groups(spec: dict, units: list[tuple[dict, int, str]], phase: str, chooser: _Chooser, kb: KnowledgeBase,
            notes: list[str]) -> tuple[list[Group], list[dict]]:
    groups: OrderedDict[str, list] = OrderedDict()
    loadout: list[dict] = []
    for index, (record, models, field) in enumerate(units):
        weapons = _weapons(kb, record)
        counts = _shares(record, models, field)
        lines = [c["name"] for c in record.get("composition") or []] or [record["name"]]
        if index == 0 and spec.get("loadout"):
            def error(message: str) -> None:
                raise ScenarioError(message)
            carriers = chosen_loadout(spec["loadout"], lines, counts, weapons, "attacker.loadout", error)
        else:
            carriers, read = _default(kb, record, counts, weapons)
            notes += [f"{record['name']}: {n}" for n in read]
        big = bool(_keywords(record) & {"MONSTER", "VEHICLE"})
        for carrier in carriers:
            fired, why = _fired(carrier, weapons, phase, big, chooser)
            loadout.append({"unit": record["name"], "models": carrier.count, "line": carrier.line,
                            "carries": [f"{n} {w}" if n > 1 else w for w, n in carrier.weapons.items()],
                            "fires": [f"{n} {r['name']}" if n > 1 else r["name"] for r, n in fired],
                            "choices": why})
            for r, n in fired:
                entry = groups.setdefault(r["id"], [r, 0])
                entry[1] += carrier.count * n
    out = []
    for record, models in groups.values():
        weapon = weapon_from_record(record, f"attacker weapon {record['id']!r}")
        out.append(Group(models=models, weapon=weapon))
    return out, loadout


# --- rules ---------------------------------------------------------------------------------

def _own_sources(records: list[dict], kb: KnowledgeBase, selection, side: str) -> list[tuple[str, str]]:
    """(source id, name) of the abilities of the side's datasheets, as ``abilities`` selects them."""
    if selection is not None and not selection:
        return []  # `abilities: []`: none of them (the site's matchups ask this thousands of times)
    out: list[tuple[str, str]] = []
    for record in records:
        for ability in record.get("abilities") or ():
            if ability.get("ref"):
                if ability["ref"].rsplit("/", 1)[-1] in MODELLED_CORE:
                    continue
                ref = kb.bundle.get(ability["ref"])
                if ref is not None and ref.get("effects"):
                    out.append((ref["id"], ability["name"]))
            elif ability.get("effects"):
                out.append((f"{record['id']}#{slugify(ability['name'])}", ability["name"]))
    out = list(dict.fromkeys(out))
    if selection is None:
        return out
    wanted = {slugify(n): n for n in selection}
    have = {slugify(n) for _i, n in out} | {slugify(a["name"]) for r in records for a in r.get("abilities") or ()}
    for key, name in wanted.items():
        if key not in have:
            names = sorted({a["name"] for r in records for a in r.get("abilities") or ()})
            raise ScenarioError(f"{side}.abilities: {name!r} is not an ability of this unit (its abilities: {', '.join(names)})")
    return [(i, n) for i, n in out if slugify(n) in wanted]


def _record_text(record: dict) -> str:
    for key in ("effect", "text", "description"):
        if isinstance(record.get(key), str) and record[key].strip():
            return record[key].strip()
    rule = record.get("rule") or {}
    return str(rule.get("text") or "").strip()


def _named_sources(spec: dict, side: str, kb: KnowledgeBase, ruleset: str, not_calculated: list[dict]) -> list[tuple[str, str]]:
    """The detachment rule, enhancement and stratagems the side names; one without any compiled
    effect is listed as not calculated with its text."""
    named = []
    if spec.get("detachment"):
        named.append(("detachment", spec["detachment"], f"{side}.detachment"))
    if spec.get("enhancement"):
        named.append(("enhancement", spec["enhancement"], f"{side}.enhancement"))
    named += [("stratagem", s, f"{side}.stratagems[{i}]") for i, s in enumerate(spec.get("stratagems") or ())]
    out = []
    for kind, name, where in named:
        try:
            source = E.resolve(name, kb.bundle, ruleset, where)
        except ScenarioError as exc:
            if exc.code != "unknown-effect":
                raise
            found = [r for r in kb.bundle.named(name, kind) if r.get("ruleset") in (None, ruleset)] or \
                [r for r in kb.bundle.kind(kind) if slugify(r.get("name", "")) == slugify(name) and r.get("ruleset") == ruleset]
            if not found:
                raise
            record = found[0]
            not_calculated.append({"side": side, "rule": record["name"], "id": record["id"], "kind": kind,
                                   "sentence": _record_text(record), "reason": "no compiled effect in the knowledge base"})
            continue
        out.append((source.id, source.name, where))
    return out


def _uncompiled(source: E.Source, side: str, not_calculated: list[dict]) -> None:
    for entry in source.effects:
        if entry.get("status") != "compiled" and entry.get("attack_relevant"):
            not_calculated.append({"side": side, "rule": source.name, "id": source.id, "kind": source.kind,
                                   "sentence": entry["text"], "reason": "not compiled into an effect"})


def _with_rules(base: Scenario, sides: dict, kb: KnowledgeBase, notes: list[str], not_calculated: list[dict],
                bearers: dict[str, tuple[str, ...]]) -> Scenario:
    """``base`` with every rule of both sides that applies; the others noted or listed.

    ``bearers``: the target's kind bearing each rule written for one model, where it is known."""
    chosen: dict[str, list[str]] = {"attacker": [], "target": []}
    for side, (own, named) in sides.items():
        for sid, name, where, is_named in [(i, n, f"{side}.abilities", False) for i, n in own] + \
                [(i, n, w, True) for i, n, w in named]:
            source = E.resolve(sid, kb.bundle, base.ruleset, where)
            _uncompiled(source, side, not_calculated)
            if not any(e.get("status") == "compiled" for e in source.effects):
                continue
            try:
                E.apply_effects(base, {side: [sid]}, kb.bundle, bearers)
            except ScenarioError as exc:
                if exc.code == "effect-not-modelled":
                    not_calculated.append({"side": side, "rule": source.name, "id": source.id, "kind": source.kind,
                                           "sentence": "; ".join(e["text"] for e in source.effects
                                                                 if e.get("status") == "compiled"),
                                           "reason": str(exc)})
                elif exc.code == "effect-not-eligible" and is_named:
                    raise
                else:
                    notes.append(f"{side}: {source.name}: not applied: {str(exc).split(': ', 1)[-1]}")
                continue
            if sid not in chosen[side]:
                chosen[side].append(sid)
    if not (chosen["attacker"] or chosen["target"]):
        return base
    return E.apply_effects(base, {k: v for k, v in chosen.items() if v}, kb.bundle, bearers)


# --- the scenario ----------------------------------------------------------------------------

def build(data: dict, kb: KnowledgeBase, target_of_profile, conditions: Conditions, modifiers: Modifiers) -> Scenario:
    """The Scenario of a checked dict whose attacker (or target) names a datasheet.

    ``target_of_profile(t)``: the target when it is given without a datasheet (the usual forms).
    """
    a, t = data["attacker"], data["target"]
    notes: list[str] = []
    not_calculated: list[dict] = []
    rulesets: set[str] = set()
    owned: list[tuple[dict, tuple[ModelKind, ...]]] = []
    if "datasheet" in t:
        target, target_records, attach, owned = _target_units(t, kb)
        notes += attach
        rulesets |= {r["ruleset"] for r in target_records}
    else:
        target, target_records = target_of_profile(t), []
    attackers = _datasheets(a, kb, "attacker") if "datasheet" in a else []
    rulesets |= {r["ruleset"] for r, _n, _f in attackers} | set(a.get("rulesets") or ())
    ruleset = data.get("ruleset")
    if ruleset is None:
        if len(rulesets) > 1:
            raise ScenarioError(f"ruleset: the records come from {' and '.join(sorted(rulesets))}; say which ruleset to use")
        ruleset = rulesets.pop() if rulesets else "11e"
    phase = a.get("phase", "shooting")
    notes += _attach_notes(attackers) if attackers else []
    if attackers:
        chooser = _Chooser(ruleset, target, conditions, modifiers, kb)
        groups, loadout = _groups(a, attackers, phase, chooser, kb, notes)
        if not groups:
            raise ScenarioError(f"attacker: {attackers[0][0]['name']} has no {'ranged' if phase == 'shooting' else 'melee'} "
                                "weapon in this loadout (attacker.phase chooses shooting or fight)")
    else:
        groups = list(a["weapons"])
        loadout = [{"unit": a.get("name") or "attacker", "models": g.models, "line": None, "carries": [g.weapon.name],
                    "fires": [g.weapon.name], "choices": []} for g in groups]
    keywords = frozenset().union(*(_keywords(r) for r, _n, _f in attackers),
                                 frozenset(k.upper() for k in a.get("keywords") or ()))
    base = Scenario(ruleset=ruleset, groups=tuple(groups), target=target, conditions=conditions, modifiers=modifiers,
                    attacker_keywords=keywords, name=data.get("name") or _title(a, t, attackers, target))
    sides = {
        "attacker": (_own_sources([r for r, _n, _f in attackers], kb, a.get("abilities"), "attacker"),
                     _named_sources(a, "attacker", kb, ruleset, not_calculated)),
        "target": (_own_sources(target_records, kb, t.get("abilities"), "target") if target_records else [],
                   _named_sources(t, "target", kb, ruleset, not_calculated)),
    }
    if a.get("effects") or t.get("effects"):
        for side, spec in (("attacker", a), ("target", t)):
            own, named = sides[side]
            named += [(E.resolve(n, kb.bundle, ruleset, f"{side}.effects[{i}]").id, n, f"{side}.effects[{i}]")
                      for i, n in enumerate(spec.get("effects") or ())]
    has_rules = any(sides["target"])  # the site's tables ask thousands of targets without their rules
    scenario = _with_rules(base, sides, kb, notes, not_calculated,
                           _bearers(owned, kb, t.get("enhancement"), ruleset) if owned and has_rules else {})
    for g in scenario.groups:
        for ability in g.weapon.abilities:
            if ability["id"] == "custom":
                not_calculated.append({"side": "attacker", "rule": ability.get("name") or ability["text"],
                                       "id": g.weapon.id, "kind": "weapon ability",
                                       "sentence": ability["text"], "reason": "outside the engine's vocabulary"})
    return replace(scenario, loadout=tuple(loadout), not_calculated=tuple(not_calculated),
                   unit_notes=tuple(dict.fromkeys(notes)))


def _title(a: dict, t: dict, attackers, target: Target) -> str:
    if not attackers:
        return f"{a.get('name') or 'attacker'} vs {target.name or 'target'}"
    who = attackers[0][0]["name"] + "".join(f" + {r['name']}" for r, _n, _f in attackers[1:])
    return f"{attackers[0][1]} {who} vs {target.name or 'target'}"


def per_weapon(scenario: Scenario):
    """Each weapon group alone against the untouched target: (group, Result), in group order."""
    from warscribe.engine.evaluate import evaluate_scenario

    out = []
    for g in scenario.groups:
        alone = replace(scenario, groups=(g,), loadout=(), not_calculated=(), unit_notes=(), effects=())
        out.append((g, evaluate_scenario(alone)))
    return out
