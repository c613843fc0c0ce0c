"""Scraping checks on text fields (the pure text helpers live in warscribe.schema.text)."""

from __future__ import annotations

import re

from warscribe.schema.diagnostics import Report


# Scraping damage seen in real pages, with the reading the rules intend. Each entry
# is reported where it occurs; the text itself is kept as written.
KNOWN_TYPOS = {
    r"\bAnny Faction\b": "Army Faction",
}
# Compiled once: check_text runs on every line of every source.
_TYPOS = [(re.compile(pattern), meant) for pattern, meant in KNOWN_TYPOS.items()]
_MISSING_WORD = re.compile(r"\b(?:is|are|has|have|with|the|of)\s+,")
_ASTERISK = re.compile(r"\w\*|\*\w|\*\s*$")
_TRAILING_BAR = re.compile(r"\|\s*$")


def check_text(report: Report, file: str, line: int, text: str, col: int = 1) -> None:
    """Warn about scraping damage in a text field (the text is kept as written)."""
    for pattern, meant in _TYPOS:
        for m in pattern.finditer(text):
            report.warning(file, line, "scraping-typo", f"probable scraping typo; the rules mean {meant!r}",
                           expected=meant, found=m.group(0), column=col + m.start())
    for m in _MISSING_WORD.finditer(text):
        report.warning(file, line, "missing-word", "a word (probably a keyword) is missing before the comma",
                       expected="a keyword", found=text[max(0, m.start() - 20): m.end() + 10], column=col + m.start())
    if "*" in text and _ASTERISK.search(text):
        report.warning(file, line, "stray-asterisk", "stray '*' (lost italics) in rules text", expected="no '*'",
                       found=text[:100], column=col + text.index("*"))
    if "|" in text and _TRAILING_BAR.search(text) and not text.strip().startswith("|"):
        report.warning(file, line, "lost-table", "text ends with a table cell separator: part of a table was lost",
                       expected="complete sentence", found=text[-60:], column=col + len(text.rstrip()) - 1)
