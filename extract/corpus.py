"""Reading the BattleScribe corpus (TSV) for parser checks and benchmarks."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from warscribe.schema.abilities import parse_ability_list


def ability_census(path: Path) -> dict:
    """How many keyword entries of a weapon TSV parse to known abilities, and the rest by name."""
    rows = entries = known = 0
    unknown: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            rows += 1
            abilities, probs = parse_ability_list(row.get("keywords") or "")
            for a in abilities:
                entries += 1
                if a["id"] == "custom":
                    unknown[a["name"]] += 1
                else:
                    known += 1
            for p in probs:
                if p.message != "not a known weapon ability":
                    problems[f"{p.text}: {p.message}"] += 1
    return {"rows": rows, "entries": entries, "known": known,
            "unknown": dict(sorted(unknown.items(), key=lambda kv: (-kv[1], kv[0]))),
            "problems": dict(sorted(problems.items()))}
