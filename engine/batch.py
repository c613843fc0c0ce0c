"""Many weapons against many targets at once: one weapon group of one profile per pair.

What a single-group evaluation depends on is much smaller than the pair: the attacks
of one model (A, [BLAST] against the target's model count, [RAPID FIRE]), the events
one attack makes (hit, wound and save outcomes, [SUSTAINED HITS], [LETHAL HITS],
[DEVASTATING WOUNDS], thinned by Feel No Pain), the damage of an event that takes a
wound, and the target's models and wounds. Each of those factors depends on a few
characteristics only, so they are computed once per distinct combination with the
engine's own functions (``engine.attack``, ``engine.rules``), the pairs get integer
codes with numpy, and the distinct *cases* (about 2% of the corpus' pairs) are
evaluated together: counts of events per case in Python, the allocation chain for
all cases of one target shape at once as numpy arrays. The results are scattered
back to the pairs.

The chain here is ``engine.allocation.Chain`` laid out as (models left, wounds left
on the current model), stepped for a whole batch per event; a test checks sampled
pairs against ``engine.evaluate``.

numpy is used because the work is the same small arithmetic over hundreds of
thousands of cases: batched, it runs at C speed instead of one Python loop per case.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from warscribe.engine import dist as D
from warscribe.engine.attack import (
    active_abilities,
    attacks_per_model,
    damage_per_event,
    hit_roll,
    per_attack_joint,
    wound_roll,
)
from warscribe.engine.model import Conditions, Modifiers, Target, Weapon
from warscribe.engine.rules import save_fail

try:  # the chain's loop in C, case by case (engine/_chains.c); without a compiler, numpy
    from warscribe.engine import _chains as _native
except ImportError:  # pragma: no cover (a machine without a C compiler)
    _native = None

# Cases per numpy batch: bounds memory at about BATCH x models x wounds x 8 bytes per array.
BATCH_CELLS = 2_000_000


@dataclass
class Matrix:
    """Results for every pair, stored once per distinct case.

    ``case_of[i, j]`` is the case of (weapon i, target j); ``values[:, case]`` its
    expected wounds removed, expected models slain and p_wipe.
    """

    case_of: np.ndarray  # (weapons, targets) int32
    values: np.ndarray  # (3, cases)
    classes: tuple[int, int]  # weapon and target classes

    @property
    def cases(self) -> int:
        return self.values.shape[1]

    @property
    def expected_wounds_removed(self) -> np.ndarray:
        return self.values[0][self.case_of]

    @property
    def expected_models_slain(self) -> np.ndarray:
        return self.values[1][self.case_of]

    @property
    def p_wipe(self) -> np.ndarray:
        return self.values[2][self.case_of]


class _Interner:
    """Dense integer ids for hashable keys, in order of first sight."""

    def __init__(self):
        self.ids: dict = {}
        self.keys: list = []

    def __call__(self, key) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.keys)
            self.keys.append(key)
        return found


def _ability_key(a: dict) -> str:
    return json.dumps({k: v for k, v in a.items() if k not in ("text", "name")}, sort_keys=True)


def weapon_key(weapon: Weapon, ruleset: str) -> tuple:
    """Everything of a weapon the numbers depend on (not its name, id or range)."""
    return (ruleset, weapon.type, weapon.attacks, weapon.skill, weapon.strength, weapon.ap, weapon.damage,
            tuple(sorted(_ability_key(a) for a in weapon.abilities)))


def target_key(target: Target, relevant: frozenset[str]) -> tuple:
    return (target.toughness, target.save, target.invulnerable, target.feel_no_pain, target.damage_reduction,
            target.damage_halved, target.wounds, target.models, frozenset(target.keywords) & relevant)


def _keywords_that_matter(weapons: Sequence[Weapon]) -> frozenset[str]:
    out = set()
    for w in weapons:
        for a in w.abilities:
            if "condition" in a:
                out.add(str(a["condition"]).upper())
            if a["id"] == "anti":
                out.add(a["keyword"])
    return frozenset(out)


def evaluate_matrix(
    weapons: Sequence[Weapon],
    rulesets: Sequence[str],
    targets: Sequence[Target],
    models: int = 1,
    conditions: Conditions = Conditions(),
    mods: Modifiers = Modifiers(),
    progress: Callable[[int, int], None] | None = None,
) -> Matrix:
    """Exact single-group results for every (weapon, target) pair.

    ``rulesets[i]`` is the ruleset for ``weapons[i]``; every weapon attacks with
    ``models`` models. ``progress(done, total)`` is called as cases are evaluated.
    """
    relevant = _keywords_that_matter(weapons)
    wclass, tclass = _Interner(), _Interner()
    w_of = np.array([wclass(weapon_key(w, r)) for w, r in zip(weapons, rulesets)], dtype=np.int64)
    t_of = np.array([tclass(target_key(t, relevant)) for t in targets], dtype=np.int64)
    rep_w = {}
    for i, c in enumerate(w_of.tolist()):
        rep_w.setdefault(c, (weapons[i], rulesets[i]))
    rep_t = {}
    for i, c in enumerate(t_of.tolist()):
        rep_t.setdefault(c, targets[i])
    wc = [rep_w[c] for c in range(len(wclass.keys))]
    tc = [rep_t[c] for c in range(len(tclass.keys))]

    codes, case_keys = _case_codes(wc, tc, conditions, mods)
    values = _evaluate_cases(case_keys, models, progress)
    case_of = codes.astype(np.int32)[w_of][:, t_of]
    return Matrix(case_of=case_of, values=values, classes=(len(wc), len(tc)))


def _case_codes(wc: list[tuple[Weapon, str]], tc: list[Target], conditions: Conditions, mods: Modifiers):
    """For every (weapon class, target class) the index of its distinct case, and the cases."""
    # Target factors.
    kw_ids, tough_ids, save_ids, fnp_ids, blast_ids, shape_ids = (_Interner() for _ in range(6))
    t_kw = np.array([kw_ids(t.keywords) for t in tc])
    t_tough = np.array([tough_ids((t.toughness, t.keywords)) for t in tc])
    t_save = np.array([save_ids((t.save, t.invulnerable)) for t in tc])
    t_fnp = np.array([fnp_ids((t.feel_no_pain, t.damage_reduction, t.damage_halved)) for t in tc])  # all act on the damage
    t_blast = np.array([blast_ids(t.models // 5) for t in tc])
    t_shape = np.array([shape_ids((t.models, t.wounds)) for t in tc])

    def stand_in(**fields) -> Target:
        base = dict(toughness=4, save=7, wounds=1, models=1)
        base.update(fields)
        return Target(**base)

    # Active weapon (abilities limited to keywords) per (weapon class, target keywords).
    active_ids = _Interner()
    weapons_active: list[tuple[Weapon, str]] = []
    active = np.empty((len(wc), len(kw_ids.keys)), dtype=np.int64)
    for i, (w, ruleset) in enumerate(wc):
        for k, kws in enumerate(kw_ids.keys):
            a = active_abilities(w, stand_in(keywords=kws))
            seen = len(active_ids.keys)
            active[i, k] = active_ids(weapon_key(a, ruleset))
            if len(active_ids.keys) > seen:
                weapons_active.append((a, ruleset))

    # Factors of an active weapon, each over a small target factor.
    attack_ids, wound_ids, unsaved_ids, apm_ids, damage_ids = (_Interner() for _ in range(5))
    n = len(weapons_active)
    a_attack = np.empty(n, dtype=np.int64)
    a_wound = np.empty((n, len(tough_ids.keys)), dtype=np.int64)
    a_unsaved = np.empty((n, len(save_ids.keys)), dtype=np.int64)
    a_apm = np.empty((n, len(blast_ids.keys)), dtype=np.int64)
    a_damage = np.empty((n, len(fnp_ids.keys)), dtype=np.int64)
    wound_cache: dict = {}
    for i, (w, ruleset) in enumerate(weapons_active):
        hit = hit_roll(ruleset, w, stand_in(), conditions, mods)
        sustained = next((a for a in w.abilities if a["id"] == "sustained-hits"), None)
        extra = tuple(D.dice(sustained["value"])) if sustained is not None else (1.0,)
        a_attack[i] = attack_ids((hit, w.has("devastating-wounds"), w.has("lethal-hits"), extra))
        wkey = (w.strength, w.type, tuple(a["id"] + json.dumps(a, sort_keys=True) for a in w.abilities
                                          if a["id"] in ("anti", "lance", "twin-linked")))
        for k, (toughness, kws) in enumerate(tough_ids.keys):
            ck = (wkey, toughness, kws)
            if ck not in wound_cache:
                wound_cache[ck] = wound_roll(w, stand_in(toughness=toughness, keywords=kws), conditions, mods)
            a_wound[i, k] = wound_ids(wound_cache[ck])
        for k, (save, inv) in enumerate(save_ids.keys):
            a_unsaved[i, k] = unsaved_ids(save_fail(ruleset, w, stand_in(save=save, invulnerable=inv), conditions.cover))
        for k, groups in enumerate(blast_ids.keys):
            a_apm[i, k] = apm_ids(tuple(attacks_per_model(w, stand_in(models=5 * groups), conditions)))
        for k, (fnp, reduction, halved) in enumerate(fnp_ids.keys):
            a_damage[i, k] = damage_ids(tuple(damage_per_event(
                w, stand_in(feel_no_pain=fnp, damage_reduction=reduction, damage_halved=halved), conditions)))

    # Per class pair: active weapon, then the factor codes.
    act = active[:, t_kw]  # (weapon classes, target classes)
    attack = a_attack[act]
    wound = a_wound[act, t_tough[None, :]]
    unsaved = a_unsaved[act, t_save[None, :]]
    event_code = (attack * len(wound_ids.keys) + wound) * len(unsaved_ids.keys) + unsaved
    event_keys, event_of = np.unique(event_code, return_inverse=True)
    event_of = event_of.reshape(act.shape)
    events = []
    for code in event_keys.tolist():
        code, u = divmod(code, len(unsaved_ids.keys))
        a, wnd = divmod(code, len(wound_ids.keys))
        hit, devastating, lethal, extra = attack_ids.keys[a]
        joint = per_attack_joint(hit, wound_ids.keys[wnd], unsaved_ids.keys[u], devastating, lethal, extra)
        events.append(D.joint_total(joint))
    apm = a_apm[act, t_blast[None, :]]
    damage = a_damage[act, t_fnp[None, :]]

    radix = [len(event_keys), len(apm_ids.keys), len(damage_ids.keys), len(shape_ids.keys)]
    code = ((event_of * radix[1] + apm) * radix[2] + damage) * radix[3] + t_shape[None, :]
    case_codes, case_of = np.unique(code, return_inverse=True)
    cases = []
    for c in case_codes.tolist():
        c, shape = divmod(c, radix[3])
        c, dmg = divmod(c, radix[2])
        ev, ap = divmod(c, radix[1])
        cases.append((apm_ids.keys[ap], tuple(events[ev]), damage_ids.keys[dmg], shape_ids.keys[shape]))
    return case_of.reshape(act.shape), cases


def _events(apm: tuple, per_attack: tuple, event_damage: tuple, attackers: int, cap: int) -> D.Dist:
    """Events that take a wound, lumped at ``cap`` (as ``attack.wounding_events``)."""
    keep = 1.0 - event_damage[0]
    thinned = D.thin(list(per_attack), keep, cap)
    per_model = D.random_sum(list(apm), thinned, cap)
    return D.sum_iid(per_model, attackers, cap)


def _evaluate_cases(cases: list[tuple], attackers: int, progress) -> np.ndarray:
    """(3, cases): expected wounds removed, expected models slain, p_wipe.

    Cases of one target shape are batched by their number of possible events, so a
    batch steps the chain about as often as its cases need.
    """
    out = np.zeros((3, len(cases)))
    by_shape: dict[tuple[int, int], list[int]] = {}
    for i, case in enumerate(cases):
        by_shape.setdefault(case[3], []).append(i)
    done = 0
    events_cache: dict = {}
    damage_cache: dict = {}
    for (models, wounds), members in sorted(by_shape.items()):
        cap = models * wounds
        counts: dict[int, D.Dist] = {}
        for i in members:
            apm, per_attack, event_damage, _shape = cases[i]
            # A cap above the most events possible changes nothing: share those counts across shapes.
            most = (len(apm) - 1) * (len(per_attack) - 1) * attackers
            key = (apm, per_attack, event_damage[0], min(cap, most))
            ev = events_cache.get(key)
            if ev is None:
                ev = events_cache[key] = _events(apm, per_attack, event_damage, attackers, cap)
            counts[i] = ev
        # A batch steps as often as its longest count and loops over its largest damage:
        # batch cases whose counts and damages are alike.
        def bucket(i: int) -> tuple[int, int]:
            return (len(counts[i]) - 1).bit_length(), len(cases[i][2])

        members = sorted(members, key=lambda i: (bucket(i), len(counts[i])))
        step = max(1, BATCH_CELLS // (models * (wounds + 1)))
        chunks: list[list[int]] = []
        for i in members:
            if not chunks or len(chunks[-1]) >= step or bucket(chunks[-1][0]) != bucket(i):
                chunks.append([])
            chunks[-1].append(i)
        for chunk in chunks:
            damages = []
            for i in chunk:
                event_damage = cases[i][2]
                wounding = damage_cache.get(event_damage)
                if wounding is None:
                    keep = 1.0 - event_damage[0]
                    wounding = [0.0] + [p / keep for p in event_damage[1:]] if keep > 0.0 else [1.0]
                    damage_cache[event_damage] = wounding
                damages.append(wounding)
            out[:, chunk] = _chain(models, wounds, [counts[i] for i in chunk], damages)
            done += len(chunk)
            if progress:
                progress(done, len(cases))
    return out


def _pad(rows: list[list[float]], width: int | None = None) -> np.ndarray:
    width = width or max(len(r) for r in rows)
    arr = np.zeros((len(rows), width))
    for i, r in enumerate(rows):
        arr[i, : len(r)] = r[:width]
    return arr


def _chain(models: int, wounds: int, counts: list[D.Dist], damages: list[D.Dist]) -> np.ndarray:
    """The allocation chain for a batch of cases on one target shape.

    State: ``alive[c, m, w]`` = probability that models m+1 are left and the current
    one has w wounds (w = 1..wounds), ``dead[c]`` the unit destroyed. An event that
    takes the wounds it can (at least one: counts exclude the others) from a model
    with w left either leaves it at w - j (j < w) or kills it: the next model, full,
    becomes current.
    """
    n = len(counts)
    count = _pad(counts)
    damage = _pad(damages)
    if damage.shape[1] < wounds + 1:
        damage = np.pad(damage, ((0, 0), (0, wounds + 1 - damage.shape[1])))
    if _native is not None:
        out = np.empty((3, n))
        _native.batch_chain(np.ascontiguousarray(count), np.ascontiguousarray(damage), models, wounds, out)
        return out
    return _chain_numpy(models, wounds, count, damage)


def _chain_numpy(models: int, wounds: int, count: np.ndarray, damage: np.ndarray) -> np.ndarray:
    """``_chain`` on numpy arrays, all the batch's cases at once (without the C loop)."""
    n = count.shape[0]
    # tail[c, w] = P(B >= w): the event kills a model with w wounds left.
    tail = np.flip(np.cumsum(np.flip(damage, axis=1), axis=1), axis=1)[:, : wounds + 1]
    alive = np.zeros((n, models, wounds + 1))
    alive[:, models - 1, wounds] = 1.0
    dead = np.zeros(n)
    acc_alive = np.zeros_like(alive)
    acc_dead = np.zeros(n)
    last = count.shape[1] - 1
    partial = [j for j in range(1, wounds) if damage[:, j].any()]
    for e in range(last + 1):
        pe = count[:, e]
        acc_alive += pe[:, None, None] * alive
        acc_dead += pe * dead
        if e == last:
            break
        nxt = np.zeros_like(alive)
        for j in partial:
            nxt[:, :, 1 : wounds + 1 - j] += alive[:, :, 1 + j :] * damage[:, j, None, None]
        kill = np.einsum("cmw,cw->cm", alive[:, :, 1:], tail[:, 1:])
        nxt[:, : models - 1, wounds] += kill[:, 1:]
        dead = dead + kill[:, 0]
        alive = nxt
    total = models * wounds
    m_idx = np.arange(models)[:, None]
    w_idx = np.arange(wounds + 1)[None, :]
    removed = (total - (m_idx * wounds + w_idx)).astype(float)
    removed[:, 0] = 0.0  # w = 0 is never a state
    slain = np.broadcast_to((models - 1 - m_idx).astype(float), (models, wounds + 1))
    ewr = (acc_alive * removed).sum(axis=(1, 2)) + acc_dead * total
    ems = (acc_alive * slain).sum(axis=(1, 2)) + acc_dead * models
    return np.stack([ewr, ems, acc_dead])
