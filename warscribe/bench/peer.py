"""Side by side with W40kDiviner, and how the time grows with the attack dice.

The peer (github.com/aturchi/W40kDiviner, GPL) is used only as an external import
path: ``--peer PATH`` points at a checkout of it, whose ``src/`` goes on
``sys.path`` for this process. None of its code is part of Warscribe. Its headless
core is ``attack_math.analyze_weapon`` (exact distributions of one weapon against a
reference profile) and ``kill_chain.resolve`` (models destroyed, wounds removed,
p_wipe); each timed call builds its weapon, keyword mechanics and profile from
plain values, as our timed call parses a scenario dict, so both sides pay for their
own input handling.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from warscribe.bench.engine import (BOLTER, CLAWS, FLAMER, HAMMER, LASCANNON, MELTA, PLASMA, PSILENCER, PSYCANNON,
                                    RETINUE, STORM_BOLTER, STORM_OF_FIRE)
from warscribe.bench.timing import median_wall
from warscribe.engine import evaluate, forget_calls
from warscribe.engine.evaluate import evaluate_scenario
from warscribe.engine.scenario import parse_scenario


def _weapon(name, attacks, skill, strength, ap, damage, abilities=(), melee=False):
    return {"name": name, "range": None if melee else 24, "attacks": attacks, "skill": skill, "strength": strength,
            "ap": ap, "damage": damage, "abilities": list(abilities)}


def _target(t, sv, w, models, inv=None, fnp=None):
    out = {"toughness": t, "save": sv, "wounds": w, "models": models}
    if inv:
        out["invulnerable"] = inv
    if fnp:
        out["feel_no_pain"] = fnp
    return out


# The five reference scenarios of issue 10 (11e: the peer follows 11th edition).
REFERENCE = [
    ("10 bolter shots vs MEQ", 10, _weapon("Bolter", 1, 3, 4, 0, 1), _target(4, 3, 2, 5)),
    ("same, [SUSTAINED HITS 1] [LETHAL HITS]", 10,
     _weapon("Bolter", 1, 3, 4, 0, 1, ["SUSTAINED HITS 1", "LETHAL HITS"]), _target(4, 3, 2, 5)),
    ("6 shots S8 AP-1 D2 vs T5 3+ 4++ W3x3", 6, _weapon("Gun", 1, 3, 8, -1, 2), _target(5, 3, 3, 3, inv=4)),
    ("4 melee S5 AP-2 D3 [DEV] vs T4 3+ FNP5 W2x5", 1,
     _weapon("Blade", 4, 3, 5, -2, 3, ["DEVASTATING WOUNDS"], melee=True), _target(4, 3, 2, 5, fnp=5)),
    ("D6 [TORRENT] S6 AP-1 vs T3 5+ W1x10", 1, _weapon("Flamer", "D6", None, 6, -1, 1, ["TORRENT"]),
     _target(3, 5, 1, 10)),
]


# --- families of targets with several kinds of model (issue 24) ------------------------------------

def _kind(name, count, t, sv, w, inv=None, fnp=None, character=False):
    out = {"name": name, "count": count, "toughness": t, "save": sv, "wounds": w}
    if inv:
        out["invulnerable"] = inv
    if fnp:
        out["feel_no_pain"] = fnp
    if character:
        out["keywords"] = ["CHARACTER"]
    return out


def _unit(*kinds, attached=False, order=None):
    out = {"models": list(kinds), "keywords": ["INFANTRY"]}
    if attached:
        out["attached"] = True
    if order:
        out["allocation_order"] = order
    return out


# Attached units: a bodyguard and its leader (and a support), profiles from the datasheets.
ATTACHED = {
    "Intercessors + Captain": _unit(_kind("Intercessor", 5, 4, 3, 2), _kind("Captain", 1, 4, 3, 5, inv=4, character=True),
                                    attached=True),
    "Henchmen + Inquisitor": RETINUE,
    "Terminators + Chaplain": _unit(_kind("Terminator", 5, 5, 2, 3, inv=4),
                                    _kind("Chaplain", 1, 5, 2, 5, inv=4, character=True), attached=True),
    "Custodian Guard + Shield-Captain": _unit(_kind("Custodian", 4, 6, 2, 3, inv=4),
                                              _kind("Shield-Captain", 1, 6, 2, 6, inv=4, character=True), attached=True),
    "Boyz + Warboss + Painboy": _unit(_kind("Boy", 10, 5, 5, 1), _kind("Warboss", 1, 6, 4, 6, character=True),
                                      _kind("Painboy", 1, 5, 5, 3, fnp=5, character=True), attached=True),
    "Guardsmen + Commissar": _unit(_kind("Guardsman", 10, 3, 5, 1),
                                   _kind("Commissar", 1, 3, 5, 3, inv=5, character=True), attached=True),
}
# Units of mixed models: sergeants and gunners with their own profiles, declared allocation orders.
MIXED = {
    "Boyz with a Boss Nob": _unit(_kind("Boy", 9, 5, 5, 1), _kind("Boss Nob", 1, 5, 5, 2)),
    "Tactical squad, sergeant with a storm shield": _unit(_kind("Marine", 8, 4, 3, 2),
                                                          _kind("Sergeant", 1, 4, 3, 2, inv=4),
                                                          _kind("Heavy gunner", 1, 4, 3, 3)),
    "Kill team (declared order)": _unit(_kind("Terminator", 2, 5, 2, 3, inv=4), _kind("Biker", 2, 5, 3, 4),
                                        _kind("Intercessor", 5, 4, 3, 2), order=["Intercessor", "Biker", "Terminator"]),
    "Plague Marines with a champion": _unit(_kind("Plague Marine", 6, 5, 3, 2, fnp=5),
                                            _kind("Champion", 1, 5, 3, 3, fnp=5)),
    "Kroot, hounds and a Krootox": _unit(_kind("Kroot", 10, 3, 6, 1), _kind("Hound", 4, 3, 6, 1, inv=6),
                                         _kind("Krootox", 1, 6, 5, 4)),
    "Intercessors, sergeant W3, + Lieutenant": _unit(_kind("Intercessor", 4, 4, 3, 2), _kind("Sergeant", 1, 4, 3, 3),
                                                     _kind("Lieutenant", 1, 4, 3, 4, inv=5, character=True),
                                                     attached=True, order=["Sergeant", "Intercessor", "Lieutenant"]),
}
# One kind written as a list, against the same unit as a single profile.
ONE_KIND = {
    "10 MEQ W2": _target(4, 3, 2, 10),
    "5 Terminators W3 4++": _target(5, 2, 3, 5, inv=4),
    "20 Boyz W1 FNP6": _target(5, 5, 1, 20, fnp=6),
    "Tank W13": _target(10, 3, 13, 1),
}

HEAVY_BOLTER = _weapon("Heavy bolter", 3, 4, 5, -1, 2, ["SUSTAINED HITS 1"])
SNIPER = _weapon("Sniper rifle", 1, 3, 5, -2, 3, ["PRECISION", "DEVASTATING WOUNDS", "HEAVY"])

LOADOUTS = {
    "10 bolt rifles": [(10, BOLTER)],
    "Paladins (3 groups)": [(6, STORM_BOLTER), (2, PSILENCER), (2, PSYCANNON)],
    "5 plasma guns": [(5, PLASMA)],
    "5 thunder hammers [DEV]": [(5, HAMMER)],
    "Devastators (lascannons, heavy bolter)": [(4, LASCANNON), (1, HEAVY_BOLTER)],
    "3 flamers": [(3, FLAMER)],
    "3 snipers [PRECISION] [DEV]": [(3, SNIPER)],
    "5 lightning claws": [(5, CLAWS)],
    "Command squad (melta, bolt, sniper)": [(2, MELTA), (5, BOLTER), (1, SNIPER)],
}
# Many dice with the abilities that need the joint law of normal wounds and mortal-wound packets.
HEAVY_LOADOUTS = {
    "5 x D6 [SUS 1] [DEV] [PRECISION]": [(5, STORM_OF_FIRE)],
    "10 x D6 [SUS D3] [DEV]": [(10, _weapon("Shard storm", "D6", 4, 5, 0, 1, ["SUSTAINED HITS D3", "DEVASTATING WOUNDS"]))],
    "[DEV] first, then bolts, then [DEV] (3 groups)": [
        (5, _weapon("Psi-bolts", "D3", 3, 5, -1, 2, ["DEVASTATING WOUNDS", "SUSTAINED HITS 1"])), (10, BOLTER),
        (3, _weapon("Force staves", 3, 3, 6, -1, "D3", ["DEVASTATING WOUNDS"], melee=True))],
    "20 x 2 [LETHAL] [SUS 1] [DEV]": [(20, _weapon("Talons", 2, 3, 4, -1, 1, ["LETHAL HITS", "SUSTAINED HITS 1",
                                                                             "DEVASTATING WOUNDS"], melee=True))],
    "6 x 2D6 [TORRENT] [DEV] [PRECISION]": [(6, _weapon("Warp flames", "2D6", None, 5, -1, 1,
                                                        ["TORRENT", "DEVASTATING WOUNDS", "PRECISION"]))],
}
# The cliff: a 4-wound leader's attached unit under 5 x D6 attacks.
CLIFF = ("5 x D6 [SUS 1] [DEV] [PRECISION]", "Henchmen + Inquisitor", "11e")


def _groups(groups) -> dict:
    return {"weapons": [{"models": m, "weapon": w} for m, w in groups]}


def families() -> list[tuple[str, list[tuple[str, dict]]]]:
    """(family, [(scenario name, scenario dict)]): attached and mixed targets, both rulesets, and the dice-heavy cases."""
    out = []
    for family, targets, loadouts in (("attached", ATTACHED, LOADOUTS), ("mixed", MIXED, LOADOUTS),
                                      ("dice-heavy [DEV] (cliff)", ATTACHED, HEAVY_LOADOUTS)):
        for ruleset in ("11e", "10e"):
            cases = [(f"{loadout} vs {target} ({ruleset})",
                      {"ruleset": ruleset, "attacker": _groups(groups), "target": targets[target]})
                     for target in targets for loadout, groups in loadouts.items()]
            out.append((f"{family}, {ruleset}", cases))
    return out


def one_kind_cases() -> list[tuple[str, dict, dict]]:
    """(name, single-profile scenario, the same unit as a one-kind list)."""
    out = []
    for target_name, target in ONE_KIND.items():
        listed = {"models": [{"name": "Model", "count": target["models"],
                              **{k: v for k, v in target.items() if k != "models"}}]}
        for loadout, groups in LOADOUTS.items():
            for ruleset in ("11e", "10e"):
                single = {"ruleset": ruleset, "attacker": _groups(groups), "target": target}
                out.append((f"{loadout} vs {target_name} ({ruleset})", single, {**single, "target": listed}))
    return out


def peer_view(data: dict) -> tuple[list[tuple[int, dict]], dict]:
    """What the peer is given for a scenario: its weapon groups and one reference profile.

    W40kDiviner resolves a unit against one profile: the highest Toughness among the
    bodyguard (all models when nothing is attached), with the unit's model count; it
    has no [PRECISION] and no per-model saves (issue 24).
    """
    groups = [(g["models"], g["weapon"]) for g in data["attacker"]["weapons"]]
    target = data["target"]
    if not isinstance(target["models"], list):
        return groups, target
    kinds = target["models"]
    pool = [k for k in kinds if "CHARACTER" not in k.get("keywords", ())] if target.get("attached") else kinds
    ref = max(pool or kinds, key=lambda k: k["toughness"])
    return groups, {**{k: v for k, v in ref.items() if k not in ("name", "count", "keywords")},
                    "models": sum(k.get("count", 1) for k in kinds)}


def scenario_dict(models: int, weapon: dict, target: dict) -> dict:
    return {"ruleset": "11e", "attacker": {"weapons": [{"models": models, "weapon": weapon}]}, "target": target}


class Peer:
    """W40kDiviner's core, imported from a checkout (never copied)."""

    def __init__(self, path: str | Path):
        src = Path(path) / "src"
        if not (src / "attack_math.py").is_file():
            raise FileNotFoundError(f"{path}: not a W40kDiviner checkout (no src/attack_math.py)")
        sys.path.insert(0, str(src))
        import attack_math
        import kill_chain
        from unit_model import Weapon

        self.am, self.kc, self.Weapon = attack_math, kill_chain, Weapon

    def run(self, models: int, weapon: dict, target: dict, ctx: dict | None = None) -> tuple[float, float, float]:
        """(expected wounds removed, expected models slain, p_wipe)."""
        return self.run_groups([(models, weapon)], target, ctx or {})

    def run_groups(self, groups: list[tuple[int, dict]], target: dict, ctx: dict) -> tuple[float, float, float]:
        """Weapon groups fired in order (``kill_chain.resolve``) into one reference profile."""
        ref = {"T": target["toughness"], "Sv": target["save"], "W": target["wounds"], "models": target["models"],
               "invuln": target.get("invulnerable"), "fnp": target.get("feel_no_pain"), "keywords": set()}
        allocs = []
        for models, weapon in groups:
            w = self.Weapon(name=weapon["name"], wtype="Melee" if weapon["range"] is None else "Ranged",
                            A=str(weapon["attacks"]), skill=weapon["skill"] or "N/A", S=weapon["strength"],
                            AP=weapon["ap"], D=str(weapon["damage"]), count=models)
            mech = self.am.WeaponMechanics()
            self.am.parse_weapon_keywords(list(weapon["abilities"]), mech)
            allocs.append(self.am.analyze_weapon(w, ref, ctx, mech, alloc=True)["alloc"])
        out = self.kc.resolve(allocs, target["wounds"], target["models"])
        mean = self.am.pmf_stats
        return mean(out["removed"])["mean"], mean(out["kills"])["mean"], out["p_wipe"]


def _interleaved(calls, rounds: int, budget: float | None = None) -> list[float]:
    """Median seconds per call of each of ``calls``, timed in turn round after round.

    Taking turns, rather than one block of calls after another, gives every side the
    same share of whatever else the machine is doing meanwhile. ``budget``: stop after
    that many seconds in all (at least five rounds), for cases that take long. A call
    given as (setup, fn) runs setup untimed just before fn.
    """
    times: list[list[float]] = [[] for _ in calls]
    spent = 0.0
    for done in range(rounds):
        for call, out in zip(calls, times):
            setup, fn = call if isinstance(call, tuple) else (None, call)
            if setup is not None:
                setup()
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
            spent += out[-1]
        if budget is not None and done >= 4 and spent > budget:
            break
    return [statistics.median(t) for t in times]


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def families_side_by_side(peer: Peer, rounds: int) -> None:
    """Per family: our API time (median, quartiles over its scenarios) and the peer's, and their ratio."""
    print(f"Targets with several kinds of model, side by side with W40kDiviner (calls taken in turn, median of up "
          f"to {rounds} rounds per scenario; the peer gets its one reference profile, see peer_view)")
    print(f"{'family':<28} {'cases':>5} {'ours ms: median':>15} {'(Q1-Q3)':>15} {'max':>7} {'peer ms':>8} "
          f"{'peer/ours: median':>17} {'(Q1-Q3)':>13} {'first call: median':>18} {'(Q1-Q3)':>13}")
    slowest = []
    for family, cases in families():
        ours_t, peer_t, ratios, first_ratios = [], [], [], []
        for name, data in cases:
            groups, ref = peer_view(data)
            ctx: dict = {}
            evaluate(data)
            peer.run_groups(groups, ref, ctx)
            # The first call: a new scenario of known weapons and units (what a matrix pays).
            a, b, c = _interleaved([lambda: evaluate(data), lambda: peer.run_groups(groups, ref, ctx),
                                    (forget_calls, lambda: evaluate(data))], rounds, budget=2.0)
            ours_t.append((a, name))
            peer_t.append(b)
            ratios.append(b / a)
            first_ratios.append(b / c)
        times = [t for t, _ in ours_t]
        q1, q2, q3 = _quartiles(times)
        r1, r2, r3 = _quartiles(ratios)
        f1, f2, f3 = _quartiles(first_ratios)
        worst = max(ours_t)
        slowest.append((family, worst[1], worst[0], peer_t[ours_t.index(worst)]))
        print(f"{family:<28} {len(cases):>5} {q2 * 1e3:15.3f} {f'({q1 * 1e3:.3f}-{q3 * 1e3:.3f})':>15} "
              f"{worst[0] * 1e3:7.2f} {statistics.median(peer_t) * 1e3:8.3f} {r2:16.2f}x {f'({r1:.2f}-{r3:.2f})':>13} "
              f"{f2:17.2f}x {f'({f1:.2f}-{f3:.2f})':>13}")
    print("slowest scenario of each family (ours ms | peer ms):")
    for family, name, ours, theirs in slowest:
        print(f"  {family:<28} {name}: {ours * 1e3:.2f} | {theirs * 1e3:.2f}")
    loadout, target, ruleset = CLIFF
    data = {"ruleset": ruleset, "attacker": _groups(HEAVY_LOADOUTS[loadout]), "target": ATTACHED[target]}
    groups, ref = peer_view(data)
    a, b = _interleaved([lambda: evaluate(data), lambda: peer.run_groups(groups, ref, {})], rounds, budget=5.0)
    print(f"the cliff of issue 24, {loadout} vs {target} ({ruleset}): ours {a * 1e3:.2f} ms, peer {b * 1e3:.2f} ms")


def matrix_side_by_side(peer: Peer, rounds: int) -> None:
    """Every family scenario in turn, as a matrix of new scenarios in one process meets them.

    Each of our calls is a first call (``forget_calls``), and the calls go round all the
    families' scenarios, so what each unit needs whatever shoots at it (its plan and
    chains) is kept only as a long-running process keeps it, within its bounds. Each
    scenario is timed on both sides in turn (the order swapped every round); a scenario's
    time is its median over the rounds.
    """
    cases = [(family, data, peer_view(data)) for family, scenarios in families() for _, data in scenarios]
    ours_t: list[list[float]] = [[] for _ in cases]
    peer_t: list[list[float]] = [[] for _ in cases]
    for _, data, _ in cases:
        evaluate(data)
    for r in range(rounds):
        for i, (_, data, (groups, ref)) in enumerate(cases):
            calls = [(forget_calls, lambda: evaluate(data)), lambda: peer.run_groups(groups, ref, {})]
            if r % 2:
                b, a = _interleaved(calls[::-1], 1)
            else:
                a, b = _interleaved(calls, 1)
            ours_t[i].append(a)
            peer_t[i].append(b)
    print(f"A matrix of new scenarios: the {len(cases)} family scenarios in turn, {rounds} rounds, every call of ours a "
          f"first call (what belongs to one weapon or one unit kept: its checked profile, a unit's plan and chains)")
    print(f"{'family':<28} {'ours ms':>8} {'peer ms':>8} {'peer/ours: median':>17} {'(Q1-Q3)':>13}")
    total_ours = total_peer = 0.0
    for family in dict.fromkeys(f for f, _, _ in cases):
        index = [i for i, (f, _, _) in enumerate(cases) if f == family]
        a = [statistics.median(ours_t[i]) for i in index]
        b = [statistics.median(peer_t[i]) for i in index]
        total_ours, total_peer = total_ours + sum(a), total_peer + sum(b)
        q1, q2, q3 = _quartiles([y / x for x, y in zip(a, b)])
        print(f"{family:<28} {statistics.median(a) * 1e3:8.3f} {statistics.median(b) * 1e3:8.3f} {q2:16.2f}x "
              f"{f'({q1:.2f}-{q3:.2f})':>13}")
    print(f"the whole matrix: ours {total_ours / len(cases) * 1e3:.3f} ms per call, peer "
          f"{total_peer / len(cases) * 1e3:.3f} ms; peer/ours {total_peer / total_ours:.2f}x")


def never_seen_side_by_side(peer: Peer, rounds: int) -> None:
    """Per family: a scenario never seen (``forget_calls(everything=True)`` before each of our
    calls: no unit's plan or chains, no table kept), in turn with the peer's call."""
    print(f"A scenario never seen (its weapons and units new, nothing kept but the compiled schema; median of "
          f"{rounds} rounds per scenario, calls taken in turn)")
    print(f"{'family':<28} {'ours ms':>8} {'max':>7} {'peer ms':>8} {'peer/ours: median':>17} {'(Q1-Q3)':>13}")

    for family, cases in families():
        ours_t, peer_t = [], []
        for _, data in cases:
            groups, ref = peer_view(data)
            a, b = _interleaved([(lambda: forget_calls(everything=True), lambda: evaluate(data)),
                                 lambda: peer.run_groups(groups, ref, {})], rounds)
            ours_t.append(a)
            peer_t.append(b)
        q1, q2, q3 = _quartiles([b / a for a, b in zip(ours_t, peer_t)])
        print(f"{family:<28} {statistics.median(ours_t) * 1e3:8.3f} {max(ours_t) * 1e3:7.2f} "
              f"{statistics.median(peer_t) * 1e3:8.3f} {q2:16.2f}x {f'({q1:.2f}-{q3:.2f})':>13}")


def one_kind_side_by_side(peer: Peer, rounds: int) -> None:
    """A unit written as a one-kind list against the same unit as a single profile (and the peer)."""
    single_t, listed_t, peer_t, ratios = [], [], [], []
    for name, single, listed in one_kind_cases():
        groups, ref = peer_view(single)
        a, b, c = _interleaved([lambda: evaluate(single), lambda: evaluate(listed),
                                lambda: peer.run_groups(groups, ref, {})], rounds, budget=2.0)
        single_t.append(a)
        listed_t.append(b)
        peer_t.append(c)
        ratios.append(b / a)
    r1, r2, r3 = _quartiles(ratios)
    print(f"One kind as a list vs the single profile ({len(ratios)} cases, median ms): single {statistics.median(single_t) * 1e3:.3f}, "
          f"list {statistics.median(listed_t) * 1e3:.3f}, peer {statistics.median(peer_t) * 1e3:.3f}; "
          f"list/single median {r2:.2f}x (Q1-Q3 {r1:.2f}-{r3:.2f}, max {max(ratios):.2f}x)")


def side_by_side(peer_path: str | Path, repeat: int) -> int:
    try:
        peer = Peer(peer_path)
    except (FileNotFoundError, ImportError) as exc:
        print(f"peer: cannot use {peer_path}: {exc}")
        return 2
    print(f"Side by side with W40kDiviner ({peer_path}), one process, calls taken in turn, "
          f"median of {repeat} rounds, microseconds per call")
    header = f"{'scenario':<44} {'ours API':>9} {'ours core':>9} {'peer':>9} {'peer/API':>8}  values (ours | peer)"
    print(header)
    ratios = []
    for name, models, weapon, target in REFERENCE:
        data = scenario_dict(models, weapon, target)
        checked = parse_scenario(data)
        ours = evaluate(data)
        theirs = peer.run(models, weapon, target)
        api, core, other = _interleaved(
            [lambda: evaluate(data), lambda: evaluate_scenario(checked), lambda: peer.run(models, weapon, target)], repeat
        )
        ratios.append(other / api)
        mine = (ours.expected_wounds_removed, ours.expected_models_slain, ours.p_wipe)
        same = "same" if max(abs(a - b) for a, b in zip(mine, theirs)) < 1e-9 else "DIFFER"
        values = " ".join(f"{v:.6f}" for v in mine) + " | " + " ".join(f"{v:.6f}" for v in theirs)
        print(f"{name:<44} {api * 1e6:9.1f} {core * 1e6:9.1f} {other * 1e6:9.1f} {other / api:7.2f}x  {same}: {values}")
    print(f"{'geometric mean ratio (peer time / our API time)':<74} "
          f"{statistics.geometric_mean(ratios):7.2f}x")
    print()
    families_side_by_side(peer, min(repeat, FAMILY_ROUNDS))
    print()
    matrix_side_by_side(peer, min(repeat, MATRIX_ROUNDS))
    print()
    never_seen_side_by_side(peer, min(repeat, NEVER_SEEN_ROUNDS))
    print()
    one_kind_side_by_side(peer, min(repeat, FAMILY_ROUNDS))
    return 0


# Rounds per family scenario: a family has dozens of scenarios, each timed on its own.
FAMILY_ROUNDS = 40
# Rounds of the whole matrix (each a few hundred calls on either side).
MATRIX_ROUNDS = 7
# Rounds per scenario never seen (each call builds its unit's plan and chains again).
NEVER_SEEN_ROUNDS = 5


def growth(repeat: int) -> None:
    """Time against the number of attack dice: [SUSTAINED HITS D3] and Feel No Pain, 10 x W2."""
    print("Growth with attack dice (SUSTAINED HITS D3, FNP 5+, target 10 x W2; and 100 x W20), public API, ms")
    print(f"{'dice':>7} {'10 x W2':>9} {'100 x W20':>10}")
    for dice in (100, 300, 1000, 3000, 10000):
        models = min(100, dice)
        weapon = _weapon("Gun", dice // models, 3, 4, -1, 1, ["SUSTAINED HITS D3"])
        small = scenario_dict(models, weapon, _target(4, 3, 2, 10, fnp=5))
        large = scenario_dict(models, {**weapon, "damage": "D3"}, _target(4, 3, 20, 100, fnp=5))
        evaluate(small)
        a = median_wall(lambda: evaluate(small), repeat)
        b = median_wall(lambda: evaluate(large), max(1, repeat // 3))
        print(f"{dice:>7} {a * 1e3:9.2f} {b * 1e3:10.2f}")


def run_bench(args) -> int:
    """`warscribe bench engine --peer PATH`: side by side with the peer, then the growth with attack dice."""
    repeat = max(1, getattr(args, "repeat", 5) or 5)
    status = side_by_side(args.peer, max(repeat, 200))
    print()
    growth(repeat)
    return status
