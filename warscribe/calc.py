"""`warscribe calc SCENARIO [--json] [--kb PATH]`, or a unit against a unit:
`warscribe calc --attacker NAME --target NAME [--attached NAME] [--stratagem NAME] --kb BUILD`."""

from __future__ import annotations

import json
import sys

from warscribe.engine.errors import ScenarioError
from warscribe.schema.bundle import BundleError
from warscribe.schema.bundle import check as check_build
from warscribe.engine.evaluate import evaluate_scenario
from warscribe.engine.report import to_json_text, to_text
from warscribe.engine.scenario import check_plausible, load_scenario, parse_scenario
from warscribe.engine.unit import per_weapon
from warscribe.schema.text import printable


def add_unit_arguments(p) -> None:
    """The options that name a unit against a unit instead of a scenario file."""
    p.add_argument("--attacker", metavar="NAME", help="attacking datasheet (id or unique name)")
    p.add_argument("--target", metavar="NAME", help="target datasheet (id or unique name)")
    p.add_argument("--attacker-models", type=int, metavar="N", help="models in the attacking unit (default: its minimum)")
    p.add_argument("--target-models", type=int, metavar="N", help="models in the target unit (default: its minimum)")
    p.add_argument("--attached", action="append", default=[], metavar="NAME",
                   help="a Leader or Support datasheet attached to the attacker (repeatable)")
    p.add_argument("--target-attached", action="append", default=[], metavar="NAME",
                   help="a Leader or Support datasheet attached to the target (repeatable)")
    p.add_argument("--loadout", action="append", default=[], metavar="WEAPON",
                   help="the attacker's loadout instead of its default: 'WEAPON' (every model) or 'N WEAPON' (repeatable)")
    p.add_argument("--stratagem", action="append", default=[], metavar="NAME", help="a stratagem the attacker uses (repeatable)")
    p.add_argument("--target-stratagem", action="append", default=[], metavar="NAME",
                   help="a stratagem the target uses (repeatable)")
    p.add_argument("--detachment", metavar="NAME", help="the attacker's detachment (its rule applies)")
    p.add_argument("--target-detachment", metavar="NAME", help="the target's detachment")
    p.add_argument("--enhancement", metavar="NAME", help="an enhancement of the attacker's leader")
    p.add_argument("--roster", metavar="LIST", help="an army list (as `warscribe roster` reads them): --attacker "
                   "names one of its units (its name as listed, or its line), fired with its models and weapons as listed "
                   "and the characters the list attaches to it")
    p.add_argument("--target-roster", metavar="LIST", help="an army list --target names a unit of, the same way")
    p.add_argument("--fight", action="store_true", help="melee weapons (the Fight phase) instead of ranged ones")
    p.add_argument("--ruleset", choices=["10e", "11e"], help="the ruleset (default: the datasheets')")
    for flag, what in (("--half-range", "half_range"), ("--stationary", "stationary"), ("--charged", "charged"),
                       ("--cover", "cover")):
        p.add_argument(flag, dest=what, action="store_true", help=f"condition {what}")


def unit_scenario(args) -> dict:
    """The scenario dict the unit options describe."""
    attacker: dict = {"datasheet": args.attacker}
    target: dict = {"datasheet": args.target}
    for side, models, attached, stratagems, detachment in (
            (attacker, args.attacker_models, args.attached, args.stratagem, args.detachment),
            (target, args.target_models, args.target_attached, args.target_stratagem, args.target_detachment)):
        if models:
            side["models"] = models
        if attached:
            side["attached"] = list(attached)
        if stratagems:
            side["stratagems"] = list(stratagems)
        if detachment:
            side["detachment"] = detachment
    for side, listed, which in ((attacker, getattr(args, "roster", None), args.attacker),
                                (target, getattr(args, "target_roster", None), args.target)):
        if listed:
            from warscribe.army_units import side_from_list

            found, notes = side_from_list(listed, which, args.kb)
            for note in notes:
                print(f"note: {printable(listed)}: {printable(which)}: {printable(note, 500)}", file=sys.stderr)
            side.pop("datasheet")
            side.update({k: v for k, v in found.items() if k not in side})
    if args.loadout:
        attacker["loadout"] = list(args.loadout)
    if args.enhancement:
        attacker["enhancement"] = args.enhancement
    if args.fight:
        attacker["phase"] = "fight"
    data: dict = {"attacker": attacker, "target": target}
    if args.ruleset:
        data["ruleset"] = args.ruleset
    conditions = {k: True for k in ("half_range", "stationary", "charged", "cover") if getattr(args, k, False)}
    if conditions:
        data["conditions"] = conditions
    return data


def unit_json(result, scenario) -> dict:
    """The JSON of a unit against a unit: the total, and each weapon alone against the untouched target."""
    out = result.to_json()
    out["weapons"] = []
    for group, alone in per_weapon(scenario):
        entry = {"name": group.weapon.name, "id": group.weapon.id, "models": group.models,
                 "expected_damage": alone.expected_damage, "expected_wounds_removed": alone.expected_wounds_removed,
                 "expected_models_slain": alone.expected_models_slain, "p_wipe": alone.p_wipe,
                 "models_slain": alone.models_slain, "wounds_removed": alone.wounds_removed}
        if alone.damage is not None:
            entry["damage"] = alone.damage
        out["weapons"].append(entry)
    return out


def run_calc(args) -> int:
    """Print the distributions for one scenario file; 2 on bad input (message, no traceback)."""
    units = bool(getattr(args, "attacker", None) or getattr(args, "target", None))
    where = args.scenario or "calc"
    try:
        if getattr(args, "kb", None) and getattr(args, "kb_given", True):
            # A build named and missing is said now, whether or not the scenario needs it (it
            # would be read only for a unit the scenario names by reference, and a mistyped
            # --kb must never pass silently).
            try:
                check_build(args.kb)
            except BundleError as exc:
                raise ScenarioError(str(exc)) from None
        if units:
            if args.scenario:
                raise ScenarioError("give a scenario file or --attacker/--target, not both")
            if not (args.attacker and args.target):
                raise ScenarioError("--attacker and --target name the two units (datasheet ids or unique names)")
            scenario = parse_scenario(unit_scenario(args), getattr(args, "kb", None))
        elif args.scenario:
            scenario = load_scenario(args.scenario, getattr(args, "kb", None))
        else:
            raise ScenarioError("give a scenario file, or --attacker NAME --target NAME")
        check_plausible(scenario)
        result = evaluate_scenario(scenario)
        if getattr(args, "json", False):
            text = json.dumps(unit_json(result, scenario), indent=2) if scenario.loadout else to_json_text(result)
        else:
            text = to_text(result, scenario)
    except ScenarioError as exc:
        for line in str(exc).splitlines():
            print(f"error: {printable(where)}: {printable(line, 1000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"error: {where}: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"error: {where}: not enough memory to compute this scenario", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug must still reach the user as one line
        print(f"error: {where}: internal error ({type(exc).__name__}: {exc}); please report it with the scenario",
              file=sys.stderr)
        return 3
    print(text)
    return 0
