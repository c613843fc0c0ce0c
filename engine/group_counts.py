"""What a weapon group makes, as the allocation over several kinds of model reads it.

A group's profile (``attack.group_profile``: its attacks, and per attack the law of its
wounds and mortal-wound packets) is turned here into the count distributions the states
are stepped by: attacks, hits, wounds before saves, and the joint law of wounds and
packets of the whole group (``_joint_counts``, the [DEVASTATING WOUNDS] route that
``engine.devastating`` weighs against the others). A profile is a pure function of small
frozen values that repeat across calls and targets, so it is kept (``_PROFILES``), and so
are the tables it derives (``lru_cache`` on their inputs).
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cached_property, lru_cache

from warscribe.engine import dist as D
from warscribe.engine.attack import GroupProfile, group_profile
from warscribe.engine.chains import Counts
from warscribe.engine.model import Conditions, Target

# A group's profile is a pure function of small frozen values that repeat across calls and
# targets (every weapon against every unit of one Toughness): kept, with what it derives
# (counts, hits, the tables), for the most recent PROFILES_KEPT of them.
PROFILES_KEPT = 512
_PROFILES: OrderedDict = OrderedDict()
# Up to this many attacks the joint law of wounds and packets is built sparse, beyond it dense (the same bits).
JOINT_SPARSE_ATTACKS = 12


def _profile_of(ruleset: str, models: int, weapon, target: Target, conditions: Conditions, modifiers) -> _Profile:
    """``_Profile(group_profile(..., saves=False))``, the same object for the same inputs."""
    try:
        key = (ruleset, models, weapon.key, target, conditions, modifiers)
        hash(key)
    except TypeError:  # an ability with a value that is not hashable: no sharing
        return _Profile(group_profile(ruleset, models, weapon, target, conditions, modifiers, saves=False))
    found = _PROFILES.get(key)
    if found is None:
        found = _PROFILES[key] = _Profile(group_profile(ruleset, models, weapon, target, conditions, modifiers,
                                                        saves=False))
        if len(_PROFILES) > PROFILES_KEPT:
            _PROFILES.popitem(last=False)
    else:
        _PROFILES.move_to_end(key)
    return found


@lru_cache(maxsize=512)
def _counts_of(counts: tuple[float, ...]) -> Counts:
    return Counts.of([list(counts)])


class _Profile:
    """A weapon group's profile with what the allocation reads of it, computed once."""

    def __init__(self, profile: GroupProfile):
        self.profile = profile
        self.per_attack = profile.per_attack
        self.devastating = profile.devastating
        self.expected_wounds_per_attack = profile.expected_wounds_per_attack
        self.event_damage = profile.event_damage
        self.attacks = _attacks(tuple(profile.attacks_per_model), profile.models)

    @cached_property
    def counts(self) -> D.Dist:
        """Wounds (before saves) and mortal-wound packets the group makes."""
        return _random_sum(tuple(self.attacks), tuple(D.joint_total(self.per_attack)))

    @cached_property
    def table(self) -> Counts:
        return _counts_of(tuple(self.counts))

    @cached_property
    def hits(self) -> D.Dist:
        """Hits the group makes (``GroupProfile.hits_per_attack``), for ``_by_hits``."""
        return _random_sum(tuple(self.attacks), tuple(self.profile.hits_per_attack))

    @cached_property
    def normal_counts(self) -> D.Dist:
        """Wounds (before saves) the group makes, packets aside."""
        per_attack: D.Dist = []
        for (k, _), p in self.per_attack.items():
            D.add_scaled(per_attack, D.point(k), p)
        # Through the cache the other counts use: a profile is rebuilt on every first call.
        return _random_sum(tuple(self.attacks), tuple(per_attack))


def _joint_counts(prof: _Profile) -> Counts:
    """Rows m = 0, 1, ...: P(k normal wounds and m mortal wound packets) over k, over the group's attacks."""
    return _joint_table(tuple(prof.attacks), tuple(prof.per_attack.items()))


def _dense_degree(counts: int, law: D.Joint) -> int | None:
    """The degree of the dense joint law where it is the one built (past JOINT_SPARSE_ATTACKS
    attacks, a law in graded order), else None: the sparse law."""
    return D.graded_degree(law) if counts > JOINT_SPARSE_ATTACKS else None


@lru_cache(maxsize=256)
def _joint_table(attacks: tuple[float, ...], per_attack: tuple[tuple[tuple[int, int], float], ...]) -> Counts:
    law = dict(per_attack)
    degree = _dense_degree(len(attacks), law)
    if degree is not None:
        return Counts(D.joint_rows_graded(list(attacks), law, degree))
    return Counts(D.joint_rows(list(attacks), law))


# The group's count distributions, for the profiles that repeat (each weapon against each unit).
@lru_cache(maxsize=512)
def _attacks(per_model: tuple[float, ...], models: int) -> D.Dist:
    return D.sum_iid(list(per_model), models)


@lru_cache(maxsize=512)
def _random_sum(count: tuple[float, ...], unit: tuple[float, ...]) -> D.Dist:
    return D.random_sum(list(count), list(unit))

