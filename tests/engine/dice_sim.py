"""A plain dice simulator, written straight from the rules text, to check the engine.

It shares nothing with the engine's probability code: every die is rolled, every hit
and wound is walked through the attack sequence, and damage is allocated model by
model, following the allocation rules literally (allocation groups and their order,
the unit's Toughness, [PRECISION], mortal wounds), not the engine's sequences. Only
the Scenario data types are shared.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

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
    slain_by_kind: list[int] = field(default_factory=list)  # in the order of target.model_kinds()


@dataclass
class Body:
    kind: int
    kind_name: str
    character: bool
    toughness: int
    save: int
    invulnerable: int | None
    feel_no_pain: int | None
    full: int
    left: int
    reduction: int = 0  # subtracted from each attack's Damage as it is allocated, to a minimum of 1
    halved: bool = False  # each attack's Damage halved as it is allocated, rounding up, before the reduction

    @property
    def wounded(self) -> bool:
        return 0 < self.left < self.full


class Unit:
    """The target unit, model by model, allocated to as the rules say.

    11e: allocation groups (05.03: one per CHARACTER model, one per W/Sv/InSv among
    the others), ordered per weapon group (a wounded non-CHARACTER group first,
    CHARACTER groups last, wounded ones first), the current group until destroyed
    (05.04.01), [PRECISION] making a CHARACTER group current (24.28), mortal wounds by
    06.02. 10e: a wounded model first; an attached unit's CHARACTER models last, except
    for [PRECISION] attacks (and their mortal wounds).
    """

    def __init__(self, s: Scenario, rng: random.Random):
        t = s.target
        self.ruleset = s.ruleset
        self.attached = t.attached
        self.single = not t.kinds
        self.rng = rng
        self.models = [
            Body(i, k.name, k.character, k.toughness, k.save, k.invulnerable, k.feel_no_pain, k.wounds, k.wounds,
                 k.damage_reduction, k.damage_halved)
            for i, k in enumerate(t.model_kinds())
            for _ in range(k.count)
        ]
        self.kinds = len(t.model_kinds())
        self.removed = 0
        self.damage = 0
        self.precision_pick: Body | None = None
        groups: dict[tuple, list[Body]] = {}
        for m in self.models:
            key = ("character", id(m)) if m.character else (m.full, m.save, m.invulnerable)
            groups.setdefault(key, []).append(m)
        self.groups = list(groups.values())  # declared order: first appearance in the kinds' order
        if s.ruleset == "10e":
            guards = [m.toughness for m in self.models if not m.character]
            self.fixed_t = max(guards) if t.attached and guards else max(m.toughness for m in self.models)

    def alive(self) -> list[Body]:
        return [m for m in self.models if m.left > 0]

    def toughness(self) -> int:
        """10e: fixed for the attacking unit's attacks; 11e 05.02.01 on the models alive now."""
        if self.ruleset == "10e":
            return self.fixed_t
        alive = self.alive() or self.models
        guards = [m.toughness for m in alive if not m.character]
        if self.attached and guards:
            return max(guards)
        return max(m.toughness for m in alive)

    def begin_batch(self, precision: bool) -> None:
        """11e: declare the allocation order for this weapon group; [PRECISION] picks a CHARACTER group."""
        if self.ruleset != "11e":
            return
        living = [g for g in self.groups if any(m.left > 0 for m in g)]
        others = [g for g in living if not g[0].character]
        chars = [g for g in living if g[0].character]
        others.sort(key=lambda g: not any(m.wounded for m in g))  # stable: a wounded group first
        chars.sort(key=lambda g: not any(m.wounded for m in g))
        self.order = others + chars
        self.precision_pick = chars[0][0] if precision and chars else None

    def pick(self, precision: bool) -> Body | None:
        """The model a wounding attack is allocated to."""
        alive = self.alive()
        if not alive:
            return None
        if self.ruleset == "11e":
            if self.precision_pick is not None and self.precision_pick.left > 0:
                return self.precision_pick
            for g in self.order:
                in_group = [m for m in g if m.left > 0]
                if in_group:
                    wounded = [m for m in in_group if m.wounded]
                    return wounded[0] if wounded else in_group[0]
            return None
        chars = [m for m in alive if m.character]
        if precision and self.attached and chars:
            pool = chars
        elif self.attached and any(not m.character for m in alive):
            pool = [m for m in alive if not m.character]
        else:
            pool = alive
        wounded = [m for m in pool if m.wounded]
        return wounded[0] if wounded else pool[0]

    def pick_mortal(self, precision: bool) -> Body | None:
        """The model a mortal wound goes to: 11e 06.02 Select Model; 10e as an attack."""
        if self.ruleset == "10e":
            return self.pick(precision)
        alive = self.alive()
        for pool in ([m for m in alive if not m.character], [m for m in alive if m.character]):
            if pool:
                wounded = [m for m in pool if m.wounded]
                return wounded[0] if wounded else self._first_in_order(pool)
        return None

    def _first_in_order(self, pool: list[Body]) -> Body:
        for g in self.order:
            for m in g:
                if m in pool:
                    return m
        return pool[0]

    def take(self, model: Body | None, points: int) -> None:
        """One attack's damage (or one mortal wound packet) on one model; the excess is lost."""
        body = model if model is not None else self.models[0]
        if points > 0:
            if body.halved:
                points = (points + 1) // 2
            points = max(1, points - body.reduction)
        if model is None:
            if self.single:
                # Nothing left to allocate to, but the damage was still inflicted.
                self.damage += sum(1 for _ in range(points) if not self._ignored(self.models[0]))
            return
        for _ in range(points):
            if self._ignored(model):
                continue
            self.damage += 1
            if model.left > 0:
                model.left -= 1
                self.removed += 1

    def _ignored(self, model: Body) -> bool:
        return model.feel_no_pain is not None and self.rng.randint(1, 6) >= model.feel_no_pain

    def outcome(self) -> Outcome:
        slain = [0] * self.kinds
        for m in self.models:
            if m.left == 0:
                slain[m.kind] += 1
        return Outcome(self.removed, sum(slain), self.damage, slain)


def simulate_once(s: Scenario, rng: random.Random) -> Outcome:
    t = s.target
    mods = s.modifiers
    cond = s.conditions
    unit = Unit(s, rng)
    # 'A unit has all the keywords of all models in that unit.'
    kw = frozenset(t.keywords).union(*(k.keywords for k in t.model_kinds()))
    late_packets: list[tuple[int, bool]] = []
    for group in s.groups:
        w = group.weapon
        ranged = w.type == "ranged"
        has = lambda aid: bool(find(w, aid, kw))  # noqa: E731
        packets: list[tuple[int, bool]] = []
        precision = has("precision")
        unit.begin_batch(precision)
        T = unit.toughness()  # the group's wound rolls are made together

        in_cover = cond.cover and ranged and not has("ignores-cover")
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
                need = 2 if s_val >= 2 * T else 3 if s_val > T else 4 if s_val == T else 6 if 2 * s_val <= T else 5
                ok = lambda f: f >= crit_wound or (f != 1 and f + wound_mod >= need)  # noqa: E731
                face = roll_d6(rng, ok, reroll_w)
                critical, wounded = face >= crit_wound, ok(face)
            if not wounded:
                return
            if critical and has("devastating-wounds"):
                packets.append((damage_roll(), precision))
                return
            model = unit.pick(precision)
            if model is None and not unit.single:
                return  # the unit is destroyed: nothing to allocate to
            sv, inv = (model.save, model.invulnerable) if model else (t.save, t.invulnerable)
            face = rng.randint(1, 6)
            # 10e: no cover for Sv 3+ or better against AP 0 (the model's own Sv).
            bonus = 1 if (s.ruleset == "10e" and in_cover and not (sv <= 3 and w.ap == 0)) else 0
            armour_ok = face != 1 and face + min(1, w.ap + bonus) >= sv
            invuln_ok = inv is not None and face != 1 and face >= inv
            # The defender picks the better save before rolling: compare chances.
            armour_p = sum(1 for f in range(2, 7) if f + min(1, w.ap + bonus) >= sv)
            invuln_p = sum(1 for f in range(2, 7) if inv is not None and f >= inv)
            saved = invuln_ok if invuln_p > armour_p else armour_ok
            if not saved:
                unit.take(model, damage_roll())

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
            for points, precise in packets:
                unit.take(unit.pick_mortal(precise), points)
        else:
            late_packets.extend(packets)
    for points, precise in late_packets:
        unit.take(unit.pick_mortal(precise), points)
    return unit.outcome()


def simulate(s: Scenario, trials: int, seed: int = 1) -> list[Outcome]:
    rng = random.Random(seed)
    return [simulate_once(s, rng) for _ in range(trials)]
