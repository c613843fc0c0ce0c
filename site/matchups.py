"""A datasheet's unit against common targets, and common attackers against it (its edition's rules).

Each datasheet page gets two small tables computed by the engine (a unit against a unit,
``engine/unit.py``): the unit, at its smallest size with its default loadout, shooting and
fighting ten reference targets; and ten reference attackers shooting the unit. The unit's own
rules are left out (``abilities: []``) so that units compare on one footing; the page says so.
Every number is exact; a unit the engine cannot read (no model characteristics, no weapons)
shows why instead.

The references are generic profiles, not datasheets, so the tables mean the same in every
edition and every build.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from warscribe.engine import ScenarioError, evaluate, parse_scenario
from warscribe.engine.kb import KnowledgeBase
from warscribe.site.markup import el, esc, table


@dataclass(frozen=True)
class Reference:
    name: str
    label: str
    spec: dict


def _target(t, sv, w, n, inv=None, keywords=("INFANTRY",)):
    out = {"toughness": t, "save": sv, "wounds": w, "models": n, "keywords": list(keywords)}
    if inv:
        out["invulnerable"] = inv
    return out


TARGETS: tuple[Reference, ...] = (
    Reference("Light infantry", "T3 Sv5+ W1 ×10", _target(3, 5, 1, 10)),
    Reference("Power-armoured infantry", "T4 Sv3+ W2 ×10", _target(4, 3, 2, 10)),
    Reference("Heavy infantry", "T6 Sv3+ W3 ×3", _target(6, 3, 3, 3)),
    Reference("Terminators", "T5 Sv2+ 4++ W3 ×5", _target(5, 2, 3, 5, inv=4)),
    Reference("Hordes", "T5 Sv5+ W1 ×20", _target(5, 5, 1, 20)),
    Reference("Bikes", "T5 Sv3+ W3 ×3", _target(5, 3, 3, 3, keywords=("MOUNTED",))),
    Reference("Light vehicle", "T9 Sv3+ W10 ×1", _target(9, 3, 10, 1, keywords=("VEHICLE",))),
    Reference("Battle tank", "T11 Sv2+ W13 ×1", _target(11, 2, 13, 1, keywords=("VEHICLE",))),
    Reference("Monster", "T10 Sv2+ 4++ W16 ×1", _target(10, 2, 16, 1, inv=4, keywords=("MONSTER",))),
    Reference("Character", "T4 Sv2+ 4++ W5 ×1", _target(4, 2, 5, 1, inv=4, keywords=("INFANTRY", "CHARACTER"))),
)


def _gun(name, attacks, skill, strength, ap, damage, abilities=(), melee=False):
    return {"name": name, "range": None if melee else 24, "attacks": attacks, "skill": skill, "strength": strength,
            "ap": ap, "damage": damage, "abilities": list(abilities)}


ATTACKERS: tuple[Reference, ...] = (
    Reference("10 bolt rifles", "A2 BS3+ S4 AP-1 D1", {"weapons": [{"models": 10, "weapon": _gun("Bolt rifle", 2, 3, 4, -1, 1)}]}),
    Reference("20 lasguns", "A1 BS4+ S3 D1 [RAPID FIRE 1]", {"weapons": [{"models": 20, "weapon": _gun("Lasgun", 1, 4, 3, 0, 1, ["RAPID FIRE 1"])}]}),
    Reference("5 plasma guns", "A1 BS3+ S8 AP-3 D2", {"weapons": [{"models": 5, "weapon": _gun("Plasma gun", 1, 3, 8, -3, 2)}]}),
    Reference("3 heavy bolters", "A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]", {"weapons": [{"models": 3, "weapon": _gun("Heavy bolter", 3, 4, 5, -1, 2, ["SUSTAINED HITS 1"])}]}),
    Reference("3 lascannons", "A1 BS3+ S12 AP-3 D6+1", {"weapons": [{"models": 3, "weapon": _gun("Lascannon", 1, 3, 12, -3, "D6+1")}]}),
    Reference("2 multi-meltas", "A2 BS3+ S9 AP-4 D6 [MELTA 2]", {"weapons": [{"models": 2, "weapon": _gun("Multi-melta", 2, 3, 9, -4, "D6", ["MELTA 2"])}]}),
    Reference("Battle cannon", "D6+3 BS4+ S10 AP-1 D3 [BLAST]", {"weapons": [{"models": 1, "weapon": _gun("Battle cannon", "D6+3", 4, 10, -1, 3, ["BLAST"])}]}),
    Reference("10 chainswords", "A4 WS3+ S4 AP-1 D1 (melee)", {"weapons": [{"models": 10, "weapon": _gun("Chainsword", 4, 3, 4, -1, 1, melee=True)}]}),
    Reference("5 power fists", "A3 WS3+ S8 AP-2 D2 (melee)", {"weapons": [{"models": 5, "weapon": _gun("Power fist", 3, 3, 8, -2, 2, melee=True)}]}),
    Reference("5 thunder hammers", "A3 WS4+ S8 AP-2 D2 [DEVASTATING WOUNDS] (melee)",
              {"weapons": [{"models": 5, "weapon": _gun("Thunder hammer", 3, 4, 8, -2, 2, ["DEVASTATING WOUNDS"], melee=True)}]}),
)


def unit_against_targets(kb: KnowledgeBase, datasheet: dict, phase: str) -> list[float | None] | str:
    """Expected models slain of each reference target by the unit (None: nothing to attack with).

    The unit is read once, against the first target; where it chose nothing by its target (no
    pistol or profile picked by expected damage: every `choices` empty), the same weapon groups
    fire at the others, the target swapped in; else each target is read on its own."""
    def read(ref: Reference):
        data = {"ruleset": datasheet["ruleset"], "attacker": {"datasheet": datasheet["id"], "phase": phase,
                                                              "abilities": []}, "target": ref.spec}
        return parse_scenario(data, kb)

    try:
        base = read(TARGETS[0])
    except ScenarioError as exc:
        if "has no ranged weapon" in str(exc) or "has no melee weapon" in str(exc):
            return [None] * len(TARGETS)
        return str(exc)
    fixed = not any(entry.get("choices") for entry in base.loadout)
    out: list[float | None] = []
    for ref in TARGETS:
        scenario = base if ref is TARGETS[0] else (
            replace(base, target=_target_of(ref, base.ruleset)) if fixed else read(ref))
        out.append(evaluate(scenario).expected_models_slain)
    return out


_TARGETS: dict[tuple[str, str], object] = {}
# Any attacker: a reference target's profile does not depend on it.
_ANY_ATTACKER = {"weapons": [{"models": 1, "weapon": {"name": "Gun", "range": 24, "attacks": 1, "skill": 3,
                                                       "strength": 4, "ap": 0, "damage": 1, "abilities": []}}]}


def _target_of(ref: Reference, ruleset: str):
    key = (ruleset, ref.name)
    if key not in _TARGETS:
        _TARGETS[key] = parse_scenario({"ruleset": ruleset, "attacker": _ANY_ATTACKER, "target": ref.spec}).target
    return _TARGETS[key]


def attackers_against_unit(kb: KnowledgeBase, datasheet: dict) -> list[float] | str:
    """Expected models slain of the unit (its smallest size) by each reference attacker.

    The unit is read once (the first attacker's scenario); the others fire at that same target,
    their weapon groups swapped in: a reference attacker is plain profiles, with no rule of a
    datasheet and no choice of weapon that could depend on the target."""
    data = {"ruleset": datasheet["ruleset"], "attacker": ATTACKERS[0].spec,
            "target": {"datasheet": datasheet["id"], "abilities": []}}
    try:
        base = parse_scenario(data, kb)
    except ScenarioError as exc:
        return str(exc)
    return [evaluate(replace(base, groups=_groups_of(ref, base.ruleset))).expected_models_slain for ref in ATTACKERS]


_GROUPS: dict[tuple[str, str], tuple] = {}
# Any target: a reference attacker's weapon groups do not depend on it.
_ANY_TARGET = {"toughness": 4, "save": 3, "wounds": 1, "models": 1}


def _groups_of(ref: Reference, ruleset: str) -> tuple:
    key = (ruleset, ref.name)
    if key not in _GROUPS:
        _GROUPS[key] = parse_scenario({"ruleset": ruleset, "attacker": ref.spec, "target": _ANY_TARGET}).groups
    return _GROUPS[key]


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


_KB: dict[int, tuple[object, KnowledgeBase]] = {}


def knowledge_base(bundle) -> KnowledgeBase:
    """One KnowledgeBase per site bundle (its indexes are made once for every page)."""
    found = _KB.get(id(bundle))
    if found is None or found[0] is not bundle:
        _KB.clear()
        found = _KB[id(bundle)] = (bundle, KnowledgeBase(bundle))
    return found[1]


def page_section(site, datasheet: dict) -> str:
    """The section of a datasheet page (the one hook in site/datasheet_page.py)."""
    if not datasheet.get("models") or not datasheet.get("weapons"):
        return ""
    return section(knowledge_base(site.bundle), datasheet)


def section(kb: KnowledgeBase, datasheet: dict) -> str:
    """The HTML of the matchups section."""
    shooting = unit_against_targets(kb, datasheet, "shooting")
    fight = unit_against_targets(kb, datasheet, "fight")
    against = attackers_against_unit(kb, datasheet)
    parts = []
    if not isinstance(shooting, str) and not isinstance(fight, str):
        rows = [[esc(r.name) + "<br>" + el("small", esc(r.label)), _cell(s), _cell(f)]
                for r, s, f in zip(TARGETS, shooting, fight)]
        parts.append(el("p", "This unit at its smallest size with its default loadout, without its rules: expected "
                             "models slain of each reference target, shooting and fighting.", class_="ws-note"))
        parts.append(table(["Target", "Shooting", "Fight"], rows, label="Against common targets", class_="ws-table ws-matchups"))
    if not isinstance(against, str):
        rows = [[esc(r.name) + "<br>" + el("small", esc(r.label)), _cell(v)] for r, v in zip(ATTACKERS, against)]
        parts.append(el("p", "Common attackers against this unit at its smallest size, without its rules: expected "
                             "models slain.", class_="ws-note"))
        parts.append(table(["Attacker", "Models slain"], rows, label="Common attackers against it",
                           class_="ws-table ws-matchups"))
    if not parts:
        reason = shooting if isinstance(shooting, str) else against
        return el("p", "Not computed: " + esc(str(reason)), class_="ws-note")
    return "".join(parts)
