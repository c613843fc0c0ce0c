"""Reading the BattleScribe corpus (TSV) for parser checks and benchmarks."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from warscribe.schema.abilities import parse_ability_list


class CensusError(ValueError):
    """The file is not a weapon TSV: where, and what was found instead."""

    def __init__(self, line: int, found: str):
        super().__init__(f"line {line}: {found}")
        self.line, self.found = line, found


def ability_census(path: Path) -> dict:
    """How many keyword entries of a weapon TSV parse to known abilities, and the rest by name.

    Raises CensusError when the file has no 'keywords' column or no row under its header:
    a count of nothing must never read as a census of 100%."""
    rows = entries = known = 0
    unknown: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    with path.open(encoding="utf-8", errors="replace") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        if "keywords" not in (reader.fieldnames or []):
            header = "\t".join(reader.fieldnames or [])
            raise CensusError(1, f"the header {header[:120]!r}, without a 'keywords' column")
        for row in reader:
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
    if not rows:
        raise CensusError(2, "a header and no weapon rows")
    return {"rows": rows, "entries": entries, "known": known,
            "unknown": dict(sorted(unknown.items(), key=lambda kv: (-kv[1], kv[0]))),
            "problems": dict(sorted(problems.items()))}
