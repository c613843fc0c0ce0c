"""The build's own findings: every diagnostic of extraction (report.json), and rejected records."""

from __future__ import annotations

from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.diagnostics import Diagnostic

_FIELDS = ("file", "line", "level", "code", "message", "expected", "found", "column")


def run(ctx: Context) -> Iterator[Diagnostic]:
    report = ctx.report or {}
    diagnostics = report.get("diagnostics") or []
    if not isinstance(diagnostics, list):
        yield ctx.finding("schema", "report.json: 'diagnostics' is not a list; the build's findings are not shown",
                          file=ctx.origin, line=0, expected="a list of diagnostics")
        diagnostics = []
    for d in diagnostics:
        if not isinstance(d, dict) or not all(k in d for k in ("file", "line", "level", "code", "message")):
            yield ctx.finding("schema", f"report.json holds a malformed diagnostic: {str(d)[:80]}",
                              file=ctx.origin, line=0, expected="{file, line, level, code, message}")
            continue
        yield Diagnostic(**{k: d[k] for k in _FIELDS if k in d}, record=d.get("record", ""))
    rejected = report.get("rejected") or []
    for rid in rejected if isinstance(rejected, list) else [rejected]:
        yield ctx.finding("schema", f"record {rid} failed its schema in the build and was not written",
                          file=ctx.origin, line=0, expected="a valid record", found=str(rid))
