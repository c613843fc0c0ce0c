"""`warscribe roster FILE... [--kb BUILD]... [--json] [--edition 10e|11e] [--since OLD_BUILD]`."""

from __future__ import annotations

import sys

from warscribe.roster.examine import Result, examine
from warscribe.roster.read import read_path
from warscribe.roster.report import as_json, render_text
from warscribe.schema import bundle
from warscribe.schema.diagnostics import printable


# What resolving, re-pricing and checking a list read of a build; the rest (weapons, keywords) is not parsed.
# Rules and abilities: the 11th edition's muster rules are read from them (roster/muster.py).
KINDS = ("datasheet", "enhancement", "detachment", "rule", "ability")


def load_builds(paths: list[str]) -> list[bundle.Bundle]:
    return [bundle.load(p, kinds=KINDS) for p in dict.fromkeys(paths)]


def run_roster(args) -> int:
    try:
        kbs = load_builds(args.kb)
        old = load_builds(args.since) if args.since else None
    except bundle.BundleError as exc:
        print(f"error: {printable(str(exc))} (pass --kb BUILD, a folder written by `warscribe build`)", file=sys.stderr)
        return 2
    if args.files.count("-") > 1:
        print("error: standard input ('-') can be read once", file=sys.stderr)
        return 2
    results: list[Result] = []
    for path in args.files:
        # One list's trouble never stops the others: each is read and examined on its own.
        results.append(examine(read_path(path), kbs, args.edition, old))
    if args.json:
        sys.stdout.write(as_json(results))
    else:
        print("\n\n".join(render_text(r) for r in results))
    errors = sum(r.errors for r in results)
    warnings = sum(r.warnings for r in results)
    if len(results) > 1 and not args.json:
        print(f"\n{len(results)} lists: {errors} error(s), {warnings} warning(s)")
    return 1 if errors or (args.fail_on == "warning" and warnings) else 0
