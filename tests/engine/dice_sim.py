"""A plain dice simulator, written straight from the rules text, to check the engine.

It shares nothing with the engine's probability code: every die is rolled, every hit
and wound is walked through the attack sequence, and damage is allocated model by
model. Only the Scenario data types are shared.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from warscribe.engine.model import Scenario, Weapon

_DICE = re.compile(r"^(\d?)D(3|6)(?:\+(\d+))?$")


def roll_value(value, rng: random.Random) -> int:
    if isinstance(value, int):
        return value
    m = _DICE.match(value)
    n = int(m.group(1) or 1)
    sides = int(m.group(2))
    return sum(rng.randint(1, sides) for _ in range(n)) + int(m.group(3) or 0)


def find(weapon: Weapon, ability_id: str, keywords: frozenset[str]) -> list[dict]:
    return [
        a for a in weapon.abilities if a["id"] == ability_id and ("condition" not in a or a["condition"] in keywords)
    ]


def roll_d6(rng, succeeded, reroll: str) -> int:
    """Roll once; re-roll once per the policy ('ones' or 'failed'); the second roll stands."""
    face = rng.randint(1, 6)
    if (reroll == "ones" and face == 1) or (reroll == "failed" and not succeeded(face)):
        face = rng.randint(1, 6)
    return face


@dataclass
class Outcome:
    wounds_removed: int
    models_slain: int
    damage: int  # damage that got through saves and Feel No Pain, overkill included


class Unit:
    """The target unit: a list of remaining wounds; the wounded model takes the next attack."""

    def __init__(self, models: int, wounds: int, fnp: int | None, rng: random.Random):
        self.alive = [wounds] * models
        self.wounds_full = wounds
        self.fnp = fnp
        self.rng = rng
        self.removed = 0
        self.damage = 0

    def take(self, points: int) -> None:
        """One attack's damage (or one devastating-wounds packet) on the current model."""
        if not self.alive:
            # Nothing left to allocate to, but the damage was still inflicted.
            self.damage += sum(1 for _ in range(points) if not self._ignored())
            return
        wounded = [i for i, w in enumerate(self.alive) if w < self.wounds_full]
        index = wounded[0] if wounded else 0
        for _ in range(points):
            if self._ignored():
                continue
            self.damage += 1
            if index is None:
                continue  # the model is destroyed: the rest is lost
            self.alive[index] -= 1
            self.removed += 1
            if self.alive[index] == 0:
                del self.alive[index]
                index = None

    def _ignored(self) -> bool:
        return self.fnp is not None and self.rng.randint(1, 6) >= self.fnp


def simulate_once(s: Scenario, rng: random.Random) -> Outcome:
    t = s.target
    mods = s.modifiers
    cond = s.conditions
    unit = Unit(t.models, t.wounds, t.feel_no_pain, rng)
    late_packets: list[int] = []
    for group in s.groups:
        w = group.weapon
        kw = t.keywords
        ranged = w.type == "ranged"
        has = lambda aid: bool(find(w, aid, kw))  # noqa: E731
        packets: list[int] = []

        in_cover = cond.cover and ranged and not has("ignores-cover")
        if s.ruleset == "10e" and t.save <= 3 and w.ap == 0:
            in_cover = False
        skill = w.skill
        hit_mod = mods.hit + (1 if has("heavy") and cond.stationary and ranged else 0)
        hit_mod = max(-1, min(1, hit_mod))
        if s.ruleset == "11e" and has("psychic"):
            hit_mod = max(0, hit_mod)
        if skill is not None and s.ruleset == "11e" and in_cover and not has("psychic"):
            skill += 1
        crit_wound = mods.critical_wound
        for a in find(w, "anti", kw):
            if a["keyword"] in kw:
                crit_wound = min(crit_wound, a["threshold"])
        wound_mod = max(-1, min(1, mods.wound + (1 if has("lance") and cond.charged else 0)))
        reroll_w = "failed" if has("twin-linked") else mods.reroll_wounds

        def damage_roll() -> int:
            d = roll_value(w.damage, rng)
            if cond.half_range and ranged:
                for a in find(w, "melta", kw):
                    d += roll_value(a["value"], rng)
            return d

        def resolve_hit(auto_wound: bool) -> None:
            if auto_wound:
                critical, wounded = False, True
            else:
                s_val = roll_value(w.strength, rng)
                T = t.toughness
                need = 2 if s_val >= 2 * T else 3 if s_val > T else 4 if s_val == T else 6 if 2 * s_val <= T else 5
                ok = lambda f: f >= crit_wound or (f != 1 and f + wound_mod >= need)  # noqa: E731
                face = roll_d6(rng, ok, reroll_w)
                critical, wounded = face >= crit_wound, ok(face)
            if not wounded:
                return
            if critical and has("devastating-wounds"):
                packets.append(damage_roll())
                return
            face = rng.randint(1, 6)
            bonus = 1 if (s.ruleset == "10e" and in_cover) else 0
            armour_ok = face != 1 and face + min(1, w.ap + bonus) >= t.save
            invuln_ok = t.invulnerable is not None and face != 1 and face >= t.invulnerable
            # The defender picks the better save before rolling: compare chances.
            armour_p = sum(1 for f in range(2, 7) if f + min(1, w.ap + bonus) >= t.save)
            invuln_p = sum(1 for f in range(2, 7) if t.invulnerable is not None and f >= t.invulnerable)
            saved = invuln_ok if invuln_p > armour_p else armour_ok
            if not saved:
                unit.take(damage_roll())

        for _ in range(group.models):
            attacks = roll_value(w.attacks, rng)
            for a in find(w, "blast", kw):
                for _ in range(t.models // 5):
                    attacks += roll_value(a.get("value", 1), rng)
            if cond.half_range and ranged:
                for a in find(w, "rapid-fire", kw):
                    attacks += roll_value(a["value"], rng)
            for _ in range(attacks):
                if has("torrent") or skill is None:
                    resolve_hit(False)
                    continue
                ok = lambda f: f >= mods.critical_hit or (f != 1 and f + hit_mod >= skill)  # noqa: E731
                face = roll_d6(rng, ok, mods.reroll_hits)
                if not ok(face):
                    continue
                if face >= mods.critical_hit:
                    resolve_hit(auto_wound=has("lethal-hits"))
                    for a in find(w, "sustained-hits", kw):
                        for _ in range(roll_value(a["value"], rng)):
                            resolve_hit(False)
                else:
                    resolve_hit(False)
        if s.ruleset == "11e":
            for p in packets:
                unit.take(p)
        else:
            late_packets.extend(packets)
    for p in late_packets:
        unit.take(p)
    return Outcome(unit.removed, t.models - len(unit.alive), unit.damage)


def simulate(s: Scenario, trials: int, seed: int = 1) -> list[Outcome]:
    rng = random.Random(seed)
    return [simulate_once(s, rng) for _ in range(trials)]
