"""`warscribe check`: consistency checks on a built knowledge base.

A build is read through the one bundle loader (:mod:`warscribe.schema.bundle`), its
own diagnostics from ``report.json`` beside it. Each family of checks is one module of
this package with a ``run(ctx)`` that yields :class:`~warscribe.schema.diagnostics.Diagnostic`
findings; :data:`CHECKS` is the one table that lists them, in report order. Codes
and levels come from the diagnostics vocabulary (``schema/diagnostics.py`` CODES).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from warscribe.checks import abilities, build, completeness, conflicts, files, references, sources, structure, text
from warscribe.checks.context import Context
from warscribe.schema.diagnostics import Diagnostic

#: name -> (what it checks, its run function). Every check of `warscribe check`.
CHECKS: dict[str, tuple[str, Callable[[Context], Iterable[Diagnostic]]]] = {
    "files": ("every file of the output folder against its manifest.json: missing, added, changed (size, sha256)",
              files.run),
    "build": ("the build's own diagnostics (report.json)", build.run),
    "structure": ("schema violations and duplicate ids", structure.run),
    "references": ("dangling ids, rule numbers, [ABILITIES], stratagems and keywords that resolve to no record",
                   references.run),
    "conflicts": ("one name with different texts, one rule number on two rules", conflicts.run),
    "text": ("mixed case, broken brackets, typos, run-ons, empty fields, duplicated text", text.run),
    "abilities": ("weapon abilities the lexicon does not know, missing parameters", abilities.run),
    "completeness": ("enhancements, detachment rules and stratagems without text; unaccounted lines",
                     completeness.run),
    "sources": ("fields two sources give different values (record, field, each value and its place)", sources.run),
}
# Build findings a check derives again from the records, with the record named: the build's copy is left out.
REDERIVED = {"source-disagreement": "sources"}

LEVELS = ("error", "warning")


def run_checks(ctx: Context, only: Iterable[str] | None = None) -> list[Diagnostic]:
    """Every finding of the selected checks, de-duplicated and sorted.

    A finding that the build already reported (same file, line and code) is kept once:
    the build's wording wins, since it was made with the source line in hand. So is a
    finding at one column reached through two fields of one record.
    """
    findings: list[Diagnostic] = []
    reported: set[tuple[str, int, str]] = set()  # (file, line, code) the build already reported
    placed: set[tuple] = set()  # one phrase read through two fields (a rule's text and its bullets)
    for name, (_about, run) in CHECKS.items():
        if only is not None and name not in only:
            continue
        for finding in run(ctx):
            key = (finding.file, finding.line, finding.code)
            spot = (finding.file, finding.line, finding.column, finding.code, finding.record)
            if name == "build":
                if REDERIVED.get(finding.code) in (only if only is not None else CHECKS):
                    continue
                reported.add(key)
            elif (key in reported and finding.line) or (finding.column and spot in placed):
                continue
            else:
                placed.add(spot)
            findings.append(finding)
    return sorted(set(findings), key=_order)


def _order(d: Diagnostic) -> tuple:
    return (d.file, d.line, d.column, d.code, d.record, d.message, d.expected, d.found)


__all__ = ["CHECKS", "Context", "LEVELS", "run_checks"]
