"""The engine's data types: a checked scenario going in, a result coming out.

Scenarios arrive as YAML/JSON (see ``engine.scenario``); once checked they become
these frozen dataclasses, so the probability code never sees unvalidated input.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property

from warscribe.schema import RULESETS  # noqa: F401 (the engine's rulesets are the contract's)

CURRENT_RULESET = RULESETS[-1]


@dataclass(frozen=True)
class Weapon:
    """One weapon profile, inline or from the knowledge base (schema/weapon.schema.json)."""

    name: str
    type: str  # "ranged" | "melee"
    attacks: int | str
    skill: int | None  # None: N/A (e.g. [TORRENT])
    strength: int | str
    ap: int
    damage: int | str
    abilities: tuple[dict, ...] = ()
    range: float | None = None
    id: str | None = None  # knowledge-base id when the weapon came from a reference
    ruleset: str | None = None  # ruleset of the knowledge-base record
    # The abilities' ids, for ``has``: the attack sequence asks a dozen times per call.
    ability_ids: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "ability_ids", frozenset(a["id"] for a in self.abilities))

    def has(self, ability_id: str) -> bool:
        return ability_id in self.ability_ids

    @cached_property
    def key(self) -> tuple:
        """Every compared field as one tuple (each ability as its sorted items), to key what depends on
        the weapon's profile; made once per weapon (a kept weapon meets many targets)."""
        return tuple(getattr(self, f.name) for f in fields(self) if f.compare and f.name != "abilities") + (
            tuple(tuple(sorted(a.items())) for a in self.abilities),)


@dataclass(frozen=True)
class Group:
    """``models`` models of the attacking unit, each making attacks with ``weapon``."""

    models: int
    weapon: Weapon
    # What effects changed for this group only (engine/effects.py); None: the scenario's.
    target: Target | None = None
    conditions: Conditions | None = None
    modifiers: Modifiers | None = None


@dataclass(frozen=True)
class ModelKind:
    """Models of a target unit that share one profile (scenario ``target.models`` list)."""

    name: str
    count: int
    toughness: int
    save: int
    wounds: int
    invulnerable: int | None = None
    feel_no_pain: int | None = None
    keywords: frozenset[str] = frozenset()
    # Subtracted from the Damage of each attack allocated to these models, to a minimum of 1.
    damage_reduction: int = 0
    # The Damage of each attack allocated to these models halved, rounding up (before the reduction).
    damage_halved: bool = False

    @property
    def character(self) -> bool:
        return "CHARACTER" in self.keywords


@dataclass(frozen=True)
class Target:
    """The target unit.

    Single profile: ``models`` alike models described by the other fields, ``kinds``
    empty. Several kinds: ``kinds`` lists them in allocation order (checked against
    the rules by ``engine.scenario``); ``models`` is then their total, ``toughness``
    the unit's Toughness when the attacks begin, and ``save``, ``wounds``,
    ``invulnerable``, ``feel_no_pain``, ``damage_reduction`` and ``damage_halved`` those of the
    first kind allocated to.
    ``attached`` marks an attached unit: its CHARACTER kinds are the leader (or
    support), the others the bodyguard.
    """

    toughness: int
    save: int  # 7 means no armour save worth rolling (only cover can make it a 6+)
    wounds: int
    models: int
    invulnerable: int | None = None
    feel_no_pain: int | None = None
    keywords: frozenset[str] = frozenset()
    kinds: tuple[ModelKind, ...] = ()
    damage_reduction: int = 0
    damage_halved: bool = False
    attached: bool = False
    name: str | None = None

    def but(self, **changes) -> Target:
        """A copy with ``changes`` (``dataclasses.replace`` without its per-call introspection: the engine's hot paths make several per call)."""
        out = object.__new__(Target)
        out.__dict__.update(self.__dict__)
        out.__dict__.update(changes)
        return out

    def model_kinds(self) -> tuple[ModelKind, ...]:
        """The kinds in allocation order; a single-profile target is one kind."""
        if self.kinds:
            return self.kinds
        return (
            ModelKind(
                name=self.name or "models",
                count=self.models,
                toughness=self.toughness,
                save=self.save,
                wounds=self.wounds,
                invulnerable=self.invulnerable,
                feel_no_pain=self.feel_no_pain,
                keywords=self.keywords,
                damage_reduction=self.damage_reduction,
                damage_halved=self.damage_halved,
            ),
        )


@dataclass(frozen=True)
class Conditions:
    half_range: bool = False
    stationary: bool = False
    charged: bool = False
    cover: bool = False


@dataclass(frozen=True)
class Modifiers:
    hit: int = 0
    wound: int = 0
    reroll_hits: str = "none"  # none | ones | failed
    reroll_wounds: str = "none"
    critical_hit: int = 6
    critical_wound: int = 6


@dataclass(frozen=True)
class Scenario:
    ruleset: str
    groups: tuple[Group, ...]
    target: Target
    conditions: Conditions = Conditions()
    modifiers: Modifiers = Modifiers()
    attacker_keywords: frozenset[str] = frozenset()
    name: str | None = None
    effects: tuple[dict, ...] = ()  # what the scenario's named effects changed (engine/effects.py)
    # A unit against a unit (engine/unit.py): what each model fires and why, the rules that
    # could not be computed (each with its sentence), and what was read or assumed.
    loadout: tuple[dict, ...] = ()
    not_calculated: tuple[dict, ...] = ()
    unit_notes: tuple[str, ...] = ()


@dataclass
class GroupSummary:
    """Expected counts along the attack sequence for one weapon group (before allocation)."""

    name: str
    models: int
    expected_attacks: float
    expected_hits: float
    expected_wounds: float
    expected_unsaved: float  # unsaved wounds plus [DEVASTATING WOUNDS] critical wounds
    expected_damage: float
    notes: list[str] = field(default_factory=list)


@dataclass
class ModelSummary:
    """Models of one kind slain: distribution (index = models slain), mean, chance all are."""

    name: str
    count: int
    models_slain: list[float]
    expected_models_slain: float
    p_all_slain: float

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "count": self.count,
            "expected_models_slain": self.expected_models_slain,
            "models_slain": self.models_slain,
            "p_all_slain": self.p_all_slain,
        }


@dataclass
class Result:
    ruleset: str
    expected_damage: float
    expected_wounds_removed: float
    expected_models_slain: float
    p_wipe: float
    models_slain: list[float]
    wounds_removed: list[float]
    damage: list[float] | None  # last entry lumps damage >= damage_cap; None: see docs/engine.md
    damage_cap: int | None
    attacker_mortal_wounds: float | None
    groups: list[GroupSummary]
    notes: list[str] = field(default_factory=list)
    effects: list[dict] = field(default_factory=list)
    by_model: list[ModelSummary] = field(default_factory=list)
    # A unit against a unit only (empty otherwise, and then absent from the JSON).
    loadout: list[dict] = field(default_factory=list)
    not_calculated: list[dict] = field(default_factory=list)
    unit: bool = False

    def to_json(self) -> dict:
        out = {
            "ruleset": self.ruleset,
            "expected_damage": self.expected_damage,
            "expected_wounds_removed": self.expected_wounds_removed,
            "expected_models_slain": self.expected_models_slain,
            "p_wipe": self.p_wipe,
            "models_slain": self.models_slain,
            "wounds_removed": self.wounds_removed,
        }
        if self.damage is not None:
            out["damage"] = self.damage
            out["damage_cap"] = self.damage_cap
        out["by_model"] = [m.to_json() for m in self.by_model]
        if self.attacker_mortal_wounds is not None:
            out["attacker_mortal_wounds"] = self.attacker_mortal_wounds
        out["groups"] = [
            {
                "name": g.name,
                "models": g.models,
                "expected_attacks": g.expected_attacks,
                "expected_hits": g.expected_hits,
                "expected_wounds": g.expected_wounds,
                "expected_unsaved": g.expected_unsaved,
                "expected_damage": g.expected_damage,
            }
            for g in self.groups
        ]
        out["notes"] = list(self.notes)
        if self.effects:
            out["effects"] = [dict(e) for e in self.effects]
        if self.unit:
            out["loadout"] = [dict(e) for e in self.loadout]
            out["not_calculated"] = [dict(e) for e in self.not_calculated]
        return out
