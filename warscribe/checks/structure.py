"""Schema violations and duplicate ids: the records as the contract defines them."""

from __future__ import annotations

from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.schema.diagnostics import Diagnostic
from warscribe.schema.registry import record_errors


def run(ctx: Context) -> Iterator[Diagnostic]:
    for record in ctx.bundle:
        for path, message in record_errors(record):
            yield ctx.finding("schema", f"{record.get('kind')} record breaks its schema at {path}: {message}",
                              record, expected=f"schema/{record.get('kind')}.schema.json", found=path)
    for rid in ctx.bundle.duplicates:
        first = ctx.bundle.get(rid)
        yield ctx.finding("duplicate-record", f"two records have the id {rid}; readers keep the first",
                          first, expected="one record per id", found=rid)
