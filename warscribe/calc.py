"""`warscribe calc SCENARIO [--json] [--kb PATH]`."""

from __future__ import annotations

import sys

from warscribe.engine.errors import ScenarioError
from warscribe.engine.evaluate import evaluate_scenario
from warscribe.engine.report import to_json_text, to_text
from warscribe.engine.scenario import check_plausible, load_scenario
from warscribe.schema.text import printable


def run_calc(args) -> int:
    """Print the distributions for one scenario file; 2 on bad input (message, no traceback)."""
    try:
        scenario = load_scenario(args.scenario, getattr(args, "kb", None))
        check_plausible(scenario)
        result = evaluate_scenario(scenario)
    except ScenarioError as exc:
        for line in str(exc).splitlines():
            print(f"error: {printable(args.scenario)}: {printable(line, 1000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"error: {args.scenario}: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"error: {args.scenario}: not enough memory to compute this scenario", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug must still reach the user as one line
        print(f"error: {args.scenario}: internal error ({type(exc).__name__}: {exc}); please report it with the scenario",
              file=sys.stderr)
        return 3
    print(to_json_text(result) if getattr(args, "json", False) else to_text(result, scenario))
    return 0
