"""The engine's data types: a checked scenario going in, a result coming out.

Scenarios arrive as YAML/JSON (see ``engine.scenario``); once checked they become
these frozen dataclasses, so the probability code never sees unvalidated input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

    def has(self, ability_id: str) -> bool:
        return any(a["id"] == ability_id for a in self.abilities)


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
class Target:
    toughness: int
    save: int  # 7 means no armour save worth rolling (only cover can make it a 6+)
    wounds: int
    models: int
    invulnerable: int | None = None
    feel_no_pain: int | None = None
    keywords: frozenset[str] = frozenset()


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
class Result:
    ruleset: str
    expected_damage: float
    expected_wounds_removed: float
    expected_models_slain: float
    p_wipe: float
    models_slain: list[float]
    wounds_removed: list[float]
    damage: list[float]  # last entry lumps damage >= damage_cap
    damage_cap: int
    attacker_mortal_wounds: float | None
    groups: list[GroupSummary]
    notes: list[str] = field(default_factory=list)
    effects: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {
            "ruleset": self.ruleset,
            "expected_damage": self.expected_damage,
            "expected_wounds_removed": self.expected_wounds_removed,
            "expected_models_slain": self.expected_models_slain,
            "p_wipe": self.p_wipe,
            "models_slain": self.models_slain,
            "wounds_removed": self.wounds_removed,
            "damage": self.damage,
            "damage_cap": self.damage_cap,
        }
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
        return out
