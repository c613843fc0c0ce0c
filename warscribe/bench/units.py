"""`warscribe bench units BUILD [--peer BINARY]`: a unit against a unit, and the site's tables.

Times, on a build's knowledge base (loaded and indexed first, untimed):

* a unit against a unit: ten models with three kinds of weapon and a leader against an attached
  target, a first call (after ``forget_calls(everything=True)``) and repeated calls;
* every datasheet against the ten reference targets of ``site/matchups.py`` (shooting), and the
  whole matchups section (shooting, fighting, ten reference attackers against it);
* with ``--peer``: the four published workloads of pineappleiceberg/warhammercalculator (its
  ``warhammercalculator_benchmark`` executable, built from its own sources, run as a black box)
  beside the same workloads written as Warscribe scenarios where the rules are the same.
"""

from __future__ import annotations

import json
import subprocess
import time

from warscribe.engine import evaluate, forget_calls, parse_scenario
from warscribe.engine.scenario import _knowledge_base
from warscribe.site import matchups

# The unit of the speed target, per edition (datasheet ids present in both builds).
UNIT = {
    "attacker": {"datasheet": "space-marines/intercessor-squad", "models": 10, "attached": ["space-marines/captain"],
                 "loadout": ["bolt rifle", "bolt pistol", "1 astartes grenade launcher"]},
    "target": {"datasheet": "space-marines/intercessor-squad", "models": 5, "attached": ["space-marines/lieutenant"]},
}


def _gun(name, attacks, skill, strength, ap, damage, abilities=()):
    return {"name": name, "range": 24, "attacks": attacks, "skill": skill, "strength": strength, "ap": ap,
            "damage": damage, "abilities": list(abilities)}


def _mixed_32_weapon_16_target() -> dict:
    """32 weapons in turn into 16 kinds of two models, some with Feel No Pain or a damage reduction. The peer
    wounds each kind on its own Toughness; Warscribe on the unit's (10e: the highest), so the values differ."""
    weapons = [{"models": 1, "weapon": _gun(f"Gun {i + 1}", 4 + i % 3, 3, 8, -2, 2 + i % 2,
                                            (["TWIN-LINKED"] if i % 2 == 0 else []) + (["LETHAL HITS"] if i % 3 == 0 else []))}
               for i in range(32)]
    kinds = []
    for i in range(16):
        kind = {"name": f"Segment {i + 1}", "count": 2, "toughness": 6 + i % 7, "save": 2 + i % 3, "wounds": 2 + i % 4,
                "invulnerable": 5 if i % 2 == 0 else None, "feel_no_pain": 6 if i % 4 == 0 else None,
                "damage_reduction": 1 if i % 5 == 0 else 0}
        kinds.append(kind)
    return {"ruleset": "10e", "attacker": {"weapons": weapons}, "target": {"models": kinds}}


# The peer's workloads as scenarios: AP and critical thresholds as its benchmark sets them.
PEER_WORKLOADS = {
    "mixed_32_weapon_16_target": _mixed_32_weapon_16_target(),
    "dense_80_attacks": {"ruleset": "10e", "attacker": {"weapons": [
        {"models": 80, "weapon": _gun("Gun", 1, 3, 8, -2, 3, ["LETHAL HITS", "TWIN-LINKED"])}]},
        "target": {"toughness": 10, "save": 3, "invulnerable": 5, "feel_no_pain": 5, "wounds": 3, "models": 100}},
    "devastating_wounds_last": {"ruleset": "10e", "modifiers": {"critical_wound": 2}, "attacker": {"weapons": [
        {"models": 1, "weapon": _gun("Dev", 1, None, 8, -2, 2, ["TORRENT", "DEVASTATING WOUNDS"])},
        {"models": 1, "weapon": _gun("Torrent", 1, None, 8, -2, 3, ["TORRENT"])}]},
        "target": {"toughness": 1, "save": 7, "wounds": 3, "models": 2}},
    "prefix_tightened_devastating": {"ruleset": "10e", "modifiers": {"critical_wound": 2}, "attacker": {"weapons": [
        {"models": 1, "weapon": _gun("Torrent", 8, None, 8, -2, 1, ["TORRENT"])},
        {"models": 1, "weapon": _gun("Dev", 1, None, 8, -2, 2, ["TORRENT", "DEVASTATING WOUNDS"])}]},
        "target": {"toughness": 1, "save": 7, "wounds": 3, "models": 2}},
}


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return 1000 * times[len(times) // 2]


def unit_times(kb, repeat: int) -> tuple[float, float, float]:
    """(first call ms, median of first calls ms, repeated call ms) of the UNIT scenario."""
    firsts = []
    for _ in range(max(3, repeat // 10)):
        forget_calls(everything=True)
        t = time.perf_counter()
        evaluate(UNIT, kb)
        firsts.append(1000 * (time.perf_counter() - t))
    again = _ms(lambda: evaluate(UNIT, kb), repeat)
    return firsts[0], sorted(firsts)[len(firsts) // 2], again


def site_times(kb) -> tuple[int, float, float]:
    """(datasheets, s for every datasheet against the ten targets, s for the whole matchups section)."""
    sheets = [d for d in kb.bundle.kind("datasheet") if d.get("models") and d.get("weapons")]
    forget_calls(everything=True)
    t = time.perf_counter()
    for d in sheets:
        matchups.unit_against_targets(kb, d, "shooting")
    targets = time.perf_counter() - t
    forget_calls(everything=True)
    t = time.perf_counter()
    for d in sheets:
        matchups.section(kb, d)
    return len(sheets), targets, time.perf_counter() - t


def peer_side_by_side(binary: str, repeat: int) -> list[str]:
    out = subprocess.run([binary, str(repeat), "250"], capture_output=True, text=True, timeout=600, check=False)
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return [f"peer: {binary} printed no JSON report ({out.stderr.strip()[:200]})"]
    lines = [f"{'workload':32} {'peer ms':>9} {'ours ms (first)':>16} {'ours ms (again)':>16}  ours: expected damage, p_wipe"]
    for case in report.get("cases", []):
        name = case["name"]
        peer = case["millisecondsPerIteration"]
        scenario = PEER_WORKLOADS.get(name)
        if scenario is None:
            lines.append(f"{name:32} {peer:9.3f} {'-':>16} {'-':>16}  not run: no scenario of ours for it")
            continue
        forget_calls(everything=True)
        t = time.perf_counter()
        result = evaluate(scenario)
        first = 1000 * (time.perf_counter() - t)
        again = _ms(lambda: evaluate(scenario), repeat)
        lines.append(f"{name:32} {peer:9.3f} {first:16.3f} {again:16.3f}  {result.expected_damage:.6f}, {result.p_wipe:.6f}")
    lines.append(f"peer checksum matches its pinned value: {report.get('checksumMatches')}")
    return lines


def run_bench(args) -> int:
    if not args.data:
        print("bench units: give a build (its folder or json/warscribe.json)")
        return 2
    repeat = args.repeat or 200
    kb = _knowledge_base(args.data if str(args.data).endswith(".json") else f"{args.data}/json/warscribe.json")
    parse_scenario(UNIT, kb)  # loads and indexes the knowledge base (untimed)
    first, first_median, again = unit_times(kb, repeat)
    print(f"unit against unit ({kb.origin}): first call {first:.2f} ms (median of first calls {first_median:.2f} ms), "
          f"repeated {again:.3f} ms")
    n, targets, whole = site_times(kb)
    print(f"every datasheet ({n}) against the ten reference targets: {targets:.1f} s; "
          f"the whole matchups section (shooting, fight, ten attackers against it): {whole:.1f} s")
    if args.peer:
        print("\n".join(peer_side_by_side(args.peer, max(5, repeat // 20))))
    return 0
