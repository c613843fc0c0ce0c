"""The `warscribe check` command: run the checks on a build, print the report, set the exit status."""

from __future__ import annotations

import sys
from collections import Counter

from warscribe.checks import CHECKS, run_checks, sources
from warscribe.checks.context import load
from warscribe.checks.files import build_folder, verify
from warscribe.schema.bundle import BundleError
from warscribe.schema.diagnostics import Diagnostic, plural
from warscribe.schema.text import json_text, printable

def report_dict(findings: list[Diagnostic], missing_sources: list[str]) -> dict:
    levels = Counter(f.level for f in findings)
    return {
        "errors": levels.get("error", 0),
        "warnings": levels.get("warning", 0),
        "codes": dict(sorted(Counter(f.code for f in findings).items())),
        "sources_not_found": sorted(missing_sources),
        "findings": [f.as_dict() for f in findings],
    }


def render_text(report: dict, findings: list[Diagnostic]) -> str:
    lines = [f.render() for f in findings]  # render() escapes every part for a terminal
    if report["sources_not_found"]:
        lines.append("sources not found or changed since the build (findings point at record starts): "
                     + ", ".join(printable(s) for s in report["sources_not_found"]))
    lines += [printable(line, 2000) for line in sources.render_summary(report["disagreements"])] if "disagreements" in report else []
    by_code = ", ".join(f"{code} {n}" for code, n in report["codes"].items())
    lines.append(f"{plural(report['errors'], 'error')}, {plural(report['warnings'], 'warning')}"
                 + (f" ({by_code})" if by_code else ""))
    return "\n".join(lines) + "\n"


def failed(findings: list[Diagnostic], fail_on: str) -> bool:
    levels = ("error",) if fail_on == "error" else ("error", "warning")
    return any(f.level in levels for f in findings)


def run_check(args) -> int:
    only = set(args.only.split(",")) if args.only else None
    if only and not only <= set(CHECKS):
        print(f"--only: unknown check(s) {', '.join(sorted(only - set(CHECKS)))}; "
              f"expected some of {', '.join(CHECKS)}", file=sys.stderr)
        return 2
    try:
        ctx = load(args.build, args.sources)
    except BundleError as exc:
        # The bundle is unreadable; what differs from the manifest says which files were damaged.
        folder = build_folder(args.build)
        damaged = verify(folder) if folder is not None and (only is None or "files" in only) else []
        if damaged:
            report = report_dict(damaged, [])
            sys.stdout.write(json_text(report) + "\n" if args.json else render_text(report, damaged))
        print(f"warscribe check: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    findings = run_checks(ctx, only)
    report = report_dict(findings, ctx.missing_sources)
    if only is None or "sources" in only:
        report["disagreements"] = sources.summary(sources.disagreements(ctx.bundle))
    if args.json:
        sys.stdout.write(json_text(report) + "\n")
    else:
        sys.stdout.write(render_text(report, findings))
    return 1 if failed(findings, args.fail_on) else 0
