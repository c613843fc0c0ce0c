"""`warscribe diff OLD NEW`: two sides loaded, compared record by record, the ledger made and printed."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from warscribe.ledger import across_editions, make, migration, render
from warscribe.ledger.diff import as_dict, compare, compare_rulesets, render_markdown, render_text
from warscribe.ledger.sides import DiffError, load_side
from warscribe.schema.text import json_text, printable

RENDERERS = {
    "text": render_text,
    "markdown": render_markdown,
    "json": lambda d: json_text(as_dict(d)) + "\n",
}


def run_diff(args) -> int:
    repo = Path(args.repo)
    ruleset = getattr(args, "ruleset", None)
    try:
        with tempfile.TemporaryDirectory(prefix="warscribe-diff-") as tmp:
            if args.ruleset_compare:
                if args.new is not None:
                    print("warscribe diff: --ruleset-compare takes one build (OLD), not two", file=sys.stderr)
                    return 2
                diff = compare_rulesets(load_side(args.old, repo, Path(tmp), ruleset)[0], *args.ruleset_compare)
                sys.stdout.write(RENDERERS[args.format](diff))
                return 0 if diff.empty else 1
            old, old_side = load_side(args.old, repo, Path(tmp), ruleset)
            new, new_side = load_side(args.new if args.new is not None else "out", repo, Path(tmp), ruleset)
            crossed = across_editions(old, new, (old_side, new_side))
            if crossed is not None:
                return _migration(crossed.migration, args.format)
            diff = compare(old, new, provenance=args.provenance)
            book = make(old, new, diff, (old_side, new_side))
    except DiffError as exc:
        print(f"warscribe diff: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    if args.format == "json":
        sys.stdout.write(json_text(dict(as_dict(diff), ledger=book.as_dict())) + "\n")
    elif args.format == "markdown":
        sys.stdout.write(render.render_markdown(book) + ("\n" + render_markdown(diff) if args.records else ""))
    else:
        sys.stdout.write(render.render_text(book) + ("\n" + render_text(diff) if args.records else ""))
    return 0 if diff.empty else 1  # as diff(1) and `git diff --exit-code`: 1 when there are differences


def _migration(m, fmt: str) -> int:
    """A 10th-edition build against an 11th's: the migration report (exit status 1: they differ)."""
    if fmt == "json":
        sys.stdout.write(json_text({"migration": m.as_dict()}) + "\n")
    elif fmt == "markdown":
        sys.stdout.write(migration.render_markdown(m) + "\n")
    else:
        sys.stdout.write(migration.render_text(m))
    return 1
