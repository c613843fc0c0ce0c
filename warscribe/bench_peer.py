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

from warscribe.bench_engine import _time as _median_time
from warscribe.engine import evaluate
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

    def run(self, models: int, weapon: dict, target: dict) -> tuple[float, float, float]:
        """(expected wounds removed, expected models slain, p_wipe)."""
        w = self.Weapon(name=weapon["name"], wtype="Melee" if weapon["range"] is None else "Ranged",
                        A=str(weapon["attacks"]), skill=weapon["skill"] or "N/A", S=weapon["strength"],
                        AP=weapon["ap"], D=str(weapon["damage"]), count=models)
        mech = self.am.WeaponMechanics()
        self.am.parse_weapon_keywords(list(weapon["abilities"]), mech)
        ref = {"T": target["toughness"], "Sv": target["save"], "W": target["wounds"], "models": target["models"],
               "invuln": target.get("invulnerable"), "fnp": target.get("feel_no_pain"), "keywords": set()}
        res = self.am.analyze_weapon(w, ref, {}, mech, alloc=True)
        out = self.kc.resolve([res["alloc"]], target["wounds"], target["models"])
        mean = self.am.pmf_stats
        return mean(out["removed"])["mean"], mean(out["kills"])["mean"], out["p_wipe"]


def _interleaved(calls, rounds: int) -> list[float]:
    """Median seconds per call of each of ``calls``, timed in turn round after round.

    Taking turns, rather than one block of calls after another, gives every side the
    same share of whatever else the machine is doing meanwhile.
    """
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(rounds):
        for fn, out in zip(calls, times):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


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
    return 0


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
        a = _median_time(lambda: evaluate(small), repeat)
        b = _median_time(lambda: evaluate(large), max(1, repeat // 3))
        print(f"{dice:>7} {a * 1e3:9.2f} {b * 1e3:10.2f}")
