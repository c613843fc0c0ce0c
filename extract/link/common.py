"""What the linking modules share: ability mentions found in a record's text."""

from __future__ import annotations

from warscribe.extract.lines import Document, Line
from warscribe.schema.abilities import find_mentions
from warscribe.schema.diagnostics import Report
from warscribe.schema.records import OMIT


def mentions(report: Report, doc: Document, lines: list[Line], text: str) -> list[dict]:
    """The abilities `text` names (OMIT if none); a misspelt one is reported at its line."""
    found, problems = find_mentions(text)
    for p in problems:
        line = next((ln for ln in lines if p.text in ln.text), lines[0])
        report.warning(doc.path, line.no, "scraping-typo", f"ability {p.text!r}: {p.message}",
                       expected="[ABILITY] as printed in weapon profiles", found=p.text,
                       column=line.col + max(line.text.find(p.text), 0))
    return found or OMIT
