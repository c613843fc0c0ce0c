"""`warscribe bench engine`: time per scenario, and the whole BSData weapon corpus.

Two numbers:

* the median time to evaluate one scenario, over a fixed set of scenarios (single
  weapons, dice, re-rolls, both rulesets, and full units with three weapon groups);
  each scenario is timed ``--repeat`` times and its median kept;
* the time to evaluate every weapon of ``../shared/corpus/bsdata-10e-weapons.tsv`` (one
  model each, 10e) against a reference target: T4, Sv 3+, 10 models of W2. Rows the
  engine cannot read (junk cells such as '*') are skipped and counted.

Timings exclude schema validation: they measure the engine on checked scenarios.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from warscribe.engine.evaluate import evaluate_scenario
from warscribe import ROOT
from warscribe.engine.model import Group, Scenario, Target
from warscribe.engine.scenario import parse_scenario
from warscribe.engine.tsv import read_weapons
from warscribe.bench.timing import median_wall

CORPUS = ROOT.parent / "shared" / "corpus" / "bsdata-10e-weapons.tsv"
REFERENCE_TARGET = Target(toughness=4, save=3, wounds=2, models=10)


def _w(name, a, bs, s, ap, d, abilities=(), rng=24):
    return {"name": name, "range": rng, "attacks": a, "skill": bs, "strength": s, "ap": ap, "damage": d,
            "abilities": list(abilities)}


BOLTER = _w("Bolt rifle", 2, 3, 4, -1, 1, ["ASSAULT", "HEAVY"])
STORM_BOLTER = _w("Storm bolter", 2, 2, 4, 0, 1, ["RAPID FIRE 2"])
PSILENCER = _w("Psilencer", 6, 2, 5, 0, 1, ["PRECISION", "PSYCHIC", "SUSTAINED HITS 1"])
PSYCANNON = _w("Psycannon", 3, 2, 8, -1, 2, ["PSYCHIC"])
MELTA = _w("Multi-melta", 2, 4, 9, -4, "D6", ["HEAVY", "MELTA 2"])
LASCANNON = _w("Lascannon", 1, 3, 12, -3, "D6+1", ["HEAVY"])
PLASMA = _w("Plasma gun", 1, 3, 8, -3, 2, ["RAPID FIRE 1", "HAZARDOUS"])
FLAMER = _w("Flamer", "D6", None, 4, 0, 1, ["IGNORES COVER", "TORRENT"], rng=12)
FRAG = _w("Frag missile", "D6", 4, 4, 0, 1, ["BLAST", "HEAVY"], rng=48)
BATTLE_CANNON = _w("Battle cannon", "2D6", 4, 10, -1, 3, ["BLAST"], rng=48)
COMBI = _w("Combi-weapon", 1, 3, 4, -2, 1, ["ANTI-INFANTRY 4+", "DEVASTATING WOUNDS", "RAPID FIRE 1"])
SHOCK_WAVE = _w("Psychic Shock Wave", "2D6", None, 3, -2, 1, ["DEVASTATING WOUNDS", "PSYCHIC", "TORRENT"], rng=18)
SWORD = _w("Power sword", 4, 3, 5, -2, 1, ["LETHAL HITS"], rng=None)
HAMMER = _w("Thunder hammer", 3, 4, 8, -2, 2, ["DEVASTATING WOUNDS"], rng=None)
CLAWS = _w("Lightning claws", 5, 3, 5, -2, 1, ["TWIN-LINKED", "SUSTAINED HITS 1"], rng=None)
LANCE = _w("Power lance", 3, 3, 5, -2, 2, ["LANCE", "SUSTAINED HITS 1", "LETHAL HITS"], rng=None)
FORCE = _w("Force weapon", 4, 3, 5, -2, "D3", ["PSYCHIC"], rng=None)

MEQ = {"toughness": 4, "save": 3, "wounds": 2, "models": 10, "keywords": ["INFANTRY"]}
TERMINATORS = {"toughness": 5, "save": 2, "invulnerable": 4, "wounds": 3, "models": 5, "keywords": ["INFANTRY"]}
BOYZ = {"toughness": 5, "save": 5, "wounds": 1, "models": 20, "feel_no_pain": 6, "keywords": ["INFANTRY"]}
TANK = {"toughness": 10, "save": 3, "wounds": 13, "models": 1, "keywords": ["VEHICLE"]}
KNIGHT = {"toughness": 12, "save": 3, "invulnerable": 5, "wounds": 22, "models": 1, "keywords": ["VEHICLE"]}
# MEQ with an attached leader: 10 bodyguard models and a CHARACTER (engine/groups.py and engine/unit_states.py).
MEQ_LED = {"attached": True, "keywords": ["INFANTRY"], "models": [
    {"name": "Marine", "count": 10, "toughness": 4, "save": 3, "wounds": 2},
    {"name": "Captain", "toughness": 4, "save": 3, "invulnerable": 4, "wounds": 5, "keywords": ["CHARACTER"]}]}

RETINUE = {"attached": True, "keywords": ["INFANTRY"], "models": [
    {"name": "Henchman", "count": 10, "toughness": 3, "save": 5, "wounds": 1},
    {"name": "Inquisitor", "toughness": 3, "save": 4, "invulnerable": 5, "feel_no_pain": 6, "wounds": 4,
     "keywords": ["CHARACTER"]}]}
STORM_OF_FIRE = _w("Storm of fire", "D6", 3, 4, -1, 1, ["SUSTAINED HITS 1", "DEVASTATING WOUNDS", "PRECISION"])


def _s(name, groups, target, ruleset="11e", **extra):
    out = {"name": name, "ruleset": ruleset, "attacker": {"weapons": [{"models": m, "weapon": w} for m, w in groups]},
           "target": target}
    out.update(extra)
    return out


SCENARIOS = [
    _s("10 bolt rifles vs MEQ", [(10, BOLTER)], MEQ),
    _s("10 bolt rifles vs MEQ, cover, 10e", [(10, BOLTER)], MEQ, "10e", conditions={"cover": True}),
    _s("5 bolt rifles vs Terminators", [(5, BOLTER)], TERMINATORS, conditions={"stationary": True}),
    _s("Storm bolters half range vs Boyz", [(5, STORM_BOLTER)], BOYZ, "10e", conditions={"half_range": True}),
    _s("2 psilencers vs MEQ", [(2, PSILENCER)], MEQ, "10e"),
    _s("Psycannons vs Terminators", [(2, PSYCANNON)], TERMINATORS, "10e"),
    _s("Multi-melta half range vs tank", [(2, MELTA)], TANK, conditions={"half_range": True, "stationary": True}),
    _s("Lascannons vs Knight", [(4, LASCANNON)], KNIGHT, "10e"),
    _s("Plasma vs MEQ (hazardous)", [(5, PLASMA)], MEQ, conditions={"half_range": True}),
    _s("Flamers vs Boyz", [(3, FLAMER)], BOYZ),
    _s("Frag missiles vs Boyz (blast)", [(2, FRAG)], BOYZ, "10e"),
    _s("Battle cannon vs MEQ", [(1, BATTLE_CANNON)], MEQ),
    _s("Combi-weapon anti/devastating vs Boyz", [(5, COMBI)], BOYZ, conditions={"half_range": True}),
    _s("Psychic shock wave vs MEQ", [(1, SHOCK_WAVE)], MEQ),
    _s("Power swords, re-roll hits vs MEQ", [(10, SWORD)], MEQ, modifiers={"reroll_hits": "failed"}),
    _s("Thunder hammers vs Terminators", [(5, HAMMER)], TERMINATORS, "10e"),
    _s("Lightning claws vs Boyz", [(5, CLAWS)], BOYZ),
    _s("Lances on the charge vs Terminators", [(5, LANCE)], TERMINATORS, "10e", conditions={"charged": True},
       modifiers={"reroll_hits": "ones", "reroll_wounds": "failed"}),
    _s("Force weapon vs MEQ", [(1, FORCE)], MEQ),
    _s("Paladins full unit, 10e (3 groups)", [(6, STORM_BOLTER), (2, PSILENCER), (2, PSYCANNON)], MEQ, "10e",
       conditions={"half_range": True, "cover": True}),
    _s("Paladins full unit, 11e (3 groups)", [(6, STORM_BOLTER), (2, PSILENCER), (2, PSYCANNON)], TERMINATORS,
       conditions={"cover": True}),
    _s("Inquisitor retinue (3 groups, devastating first, 10e)", [(3, COMBI), (5, BOLTER), (2, FORCE)], BOYZ, "10e",
       conditions={"half_range": True}),
    _s("Assault squad melee (3 groups)", [(6, SWORD), (2, HAMMER), (2, CLAWS)], MEQ, conditions={"charged": True}),
    _s("10 bolt rifles vs MEQ + leader (attached)", [(10, BOLTER)], MEQ_LED),
    _s("2 psilencers vs MEQ + leader ([PRECISION], 10e)", [(2, PSILENCER)], MEQ_LED, "10e"),
    _s("Paladins full unit vs MEQ + leader, 10e (3 groups)", [(6, STORM_BOLTER), (2, PSILENCER), (2, PSYCANNON)],
       MEQ_LED, "10e", conditions={"half_range": True, "cover": True}),
    _s("Paladins full unit vs MEQ + leader, 11e (3 groups)", [(6, STORM_BOLTER), (2, PSILENCER), (2, PSYCANNON)],
       MEQ_LED, conditions={"half_range": True, "cover": True}),
    _s("Inquisitor retinue vs MEQ + leader (devastating first, 10e)", [(3, COMBI), (5, BOLTER), (2, FORCE)], MEQ_LED,
       "10e", conditions={"half_range": True}),
    # Issue 24's cliff: the joint law of normal wounds and mortal-wound packets against an attached unit.
    _s("5 x D6 [SUS 1] [DEV] [PRECISION] vs Henchmen + Inquisitor", [(5, STORM_OF_FIRE)], RETINUE),
]


def run_bench(args) -> int:
    repeat = max(1, getattr(args, "repeat", 5) or 5)
    checked = [parse_scenario(s) for s in SCENARIOS]
    for s in checked:  # warm caches (dice tables, schema) before timing
        evaluate_scenario(s)
    rows = [(raw["name"], median_wall(lambda s=s: evaluate_scenario(s), repeat)) for raw, s in zip(SCENARIOS, checked)]
    width = max(len(name) for name, _ in rows)
    print(f"Engine benchmark: {len(rows)} scenarios, median of {repeat} runs each (one core)")
    print(f"{'scenario':<{width}}  {'ms':>8}")
    for name, t in rows:
        print(f"{name:<{width}}  {t * 1e3:8.3f}")
    times = [t for _, t in rows]
    print(f"{'median per scenario':<{width}}  {statistics.median(times) * 1e3:8.3f}")
    print(f"{'slowest scenario':<{width}}  {max(times) * 1e3:8.3f}")
    print()

    corpus = Path(getattr(args, "corpus", None) or CORPUS)
    if not corpus.is_file():
        print(f"corpus not found at {corpus}: skipped")
        return 0
    rows = read_weapons(corpus)
    weapons = [r.value for r in rows if r.value is not None]
    skipped = [(r.id, r.reason) for r in rows if r.value is None]
    scenarios = [Scenario(ruleset="10e", groups=(Group(1, w),), target=REFERENCE_TARGET) for w in weapons]
    failed = 0
    start = time.perf_counter()
    per_weapon = []
    for s in scenarios:
        t0 = time.perf_counter()
        try:
            evaluate_scenario(s)
        except (ValueError, KeyError):
            failed += 1
        per_weapon.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    print(f"Corpus: {corpus.name} against T4 Sv3+ 10 x W2 (10e, one model per weapon)")
    print(f"  rows read             {len(weapons) + len(skipped)}")
    print(f"  weapons evaluated     {len(weapons) - failed}")
    custom = sum(1 for w in weapons if w.has("custom"))
    print(f"  ...of which with a rule outside the vocabulary (ignored)  {custom}")
    print(f"  rows skipped          {len(skipped) + failed}")
    for row_id, reason in skipped[:10]:
        print(f"    {row_id}: {reason}")
    print(f"  total time            {total:.3f} s")
    print(f"  median per weapon     {statistics.median(per_weapon) * 1e3:.3f} ms")
    print(f"  slowest weapon        {max(per_weapon) * 1e3:.3f} ms")
    return 0
