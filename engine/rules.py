"""Single-die rolls of the attack sequence, per ruleset.

Each function answers "what happens to one die" as exact probabilities; how the dice
combine into attacks lives in ``engine.attack``. Rule references are to the texts in
``sources/`` (10e: the core-rule tooltips on the Paladin Squad page; 11e: the numbered
rules on the Inquisitor page and the two rules extracts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from warscribe.engine.model import Target, Weapon

REROLLS = ("none", "ones", "failed")


@dataclass(frozen=True)
class RollOutcome:
    """One D6 roll resolved: failed, successful, or critical (which is also successful)."""

    fail: float
    success: float  # successful but not critical
    critical: float


def cap_modifier(mod: int) -> int:
    """10e Hit Roll / Wound Roll: 'can never be modified by more than -1 or +1'."""
    return max(-1, min(1, mod))


# A pure function of four small values (a few hundred cases in all): computed once each.
@lru_cache(maxsize=1024)
def d6_roll(need: int, mod: int, critical: int = 6, reroll: str = "none") -> RollOutcome:
    """A Hit or Wound roll: success on ``roll + mod >= need``.

    10e Hit Roll / Wound Roll: an unmodified roll at or above the critical threshold
    is a critical and always succeeds; an unmodified 1 always fails. 10e Re-rolls: a
    die is re-rolled once at most, before modifiers, and the re-rolled result stands
    (so critical thresholds apply to it). ``reroll`` is ``ones`` (re-roll an
    unmodified 1) or ``failed`` (re-roll any failed roll).
    """

    def outcome(face: int) -> int:  # 0 fail, 1 success, 2 critical
        if face >= critical:
            return 2
        if face == 1:
            return 0
        return 1 if face + mod >= need else 0

    faces = [outcome(f) for f in range(1, 7)]
    if reroll == "ones":
        again = {1}
    elif reroll == "failed":
        again = {f for f in range(1, 7) if faces[f - 1] == 0}
    else:
        again = set()
    # Final face distribution: a face kept first time, or anything after a re-roll.
    p_again = len(again) / 6.0
    probs = [0.0, 0.0, 0.0]
    for f in range(1, 7):
        p = (0.0 if f in again else 1.0 / 6.0) + p_again / 6.0
        probs[faces[f - 1]] += p
    return RollOutcome(probs[0], probs[1], probs[2])


def wound_need(strength: int, toughness: int) -> int:
    """10e Wound Roll table (the five rows; 11e keeps them, its table was lost in scraping)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def in_cover(ruleset: str, weapon: Weapon, target: Target, cover: bool) -> bool:
    """Whether the target has the Benefit of Cover against this weapon's attacks.

    Only ranged attacks (10e Benefit of Cover, 11e 13.08); [IGNORES COVER] denies it
    (10e Ignores Cover, 11e 24.18). In 10e models with Sv 3+ or better cannot have it
    against AP 0.
    """
    return _in_cover(ruleset, weapon, target.save, cover)


def _in_cover(ruleset: str, weapon: Weapon, save: int, cover: bool) -> bool:
    if not cover or weapon.type != "ranged" or weapon.has("ignores-cover"):
        return False
    if ruleset == "10e" and save <= 3 and weapon.ap == 0:
        return False
    return True


def save_fail(ruleset: str, weapon: Weapon, target: Target, cover: bool) -> float:
    """Probability that the saving throw against one wound fails.

    10e Saving Throw: roll + AP against Sv, an unmodified 1 fails, improved by +1 at
    most; Benefit of Cover adds 1 (armour only). Invulnerable Saves ignore AP; the
    defender uses whichever is better. In 11e cover changes the hit roll instead
    (see ``hit_skill``), so it never touches the save.
    """
    return save_fail_of(ruleset, weapon, target.save, target.invulnerable, cover)


def save_fail_of(ruleset: str, weapon: Weapon, save: int, invulnerable: int | None, cover: bool) -> float:
    """``save_fail`` for a model of save ``save`` and invulnerable save ``invulnerable``."""
    bonus = 1 if ruleset == "10e" and _in_cover(ruleset, weapon, save, cover) else 0
    return _save_fail(min(1, weapon.ap + bonus), save, invulnerable)


@lru_cache(maxsize=1024)
def _save_fail(mod: int, save: int, invulnerable: int | None) -> float:
    armour = sum(1 for face in range(2, 7) if face + mod >= save) / 6.0
    invuln = 0.0
    if invulnerable is not None:
        invuln = sum(1 for face in range(2, 7) if face >= invulnerable) / 6.0
    return 1.0 - max(armour, invuln)


def hit_skill(ruleset: str, weapon: Weapon, target: Target, cover: bool) -> int:
    """BS/WS after 11e 13.08 (cover worsens the attack's BS by 1).

    11e [PSYCHIC]: the attacker can ignore any modifier to BS/WS, so a psychic attack
    never suffers the cover penalty.
    """
    skill = weapon.skill if weapon.skill is not None else 7
    if ruleset == "11e" and in_cover(ruleset, weapon, target, cover) and not weapon.has("psychic"):
        skill += 1
    return skill


def hit_modifier(ruleset: str, weapon: Weapon, base: int, stationary: bool) -> int:
    """Total hit-roll modifier, capped at +/-1.

    [HEAVY] adds 1 to ranged attacks of a unit that remained stationary (10e Heavy;
    11e: moved no more than 3"). 11e [PSYCHIC] lets the attacker ignore modifiers to
    the hit roll, so negative ones are dropped.
    """
    mod = base
    if weapon.has("heavy") and stationary and weapon.type == "ranged":
        mod += 1
    mod = cap_modifier(mod)
    if ruleset == "11e" and weapon.has("psychic") and mod < 0:
        mod = 0
    return mod


def feel_no_pain_loses(fnp: int | None) -> float:
    """Probability that one point of damage is not ignored (Feel No Pain X+)."""
    if fnp is None:
        return 1.0
    return (fnp - 1) / 6.0


def hazard_mortal_wounds(ruleset: str, attacker_keywords: frozenset[str]) -> float:
    """Expected mortal wounds the attacker suffers per [HAZARDOUS] weapon used.

    10e Hazardous: one test per weapon, failed on a 1, 3 mortal wounds each failure.
    11e 24.15 / 06.03: one hazard roll per weapon, failed on 1-2, 1 mortal wound, or 3
    if every model in the unit is MONSTER/VEHICLE (we read the attacker's unit
    keywords: MONSTER or VEHICLE present means every model is one).
    """
    if ruleset == "10e":
        return 3.0 / 6.0
    big = "MONSTER" in attacker_keywords or "VEHICLE" in attacker_keywords
    return (2.0 / 6.0) * (3.0 if big else 1.0)


def attacker_hazard(ruleset: str, attacker_keywords: frozenset[str], profiles) -> float | None:
    """Expected mortal wounds the attacker suffers from all its [HAZARDOUS] weapon groups; None without any."""
    hazardous = [p for p in profiles if p.hazardous]
    if not hazardous:
        return None
    per_weapon = hazard_mortal_wounds(ruleset, attacker_keywords)
    return sum(p.models * per_weapon for p in hazardous)
