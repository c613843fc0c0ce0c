"""Small text helpers shared by the extraction stages: slugs, normal forms, typos."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from extract.diagnostics import Report


def slugify(text: str) -> str:
    """Stable kebab-case slug: 'Ordo Xenos Alien Hunters' -> 'ordo-xenos-alien-hunters'."""
    text = text.replace("\u2011", "-").replace("’", "").replace("'", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return text or "unnamed"


def number_slug(number: str) -> str:
    return number.replace(".", "-")


def clean_name(text: str) -> str:
    """A name as a key: the non-breaking hyphen of 'WILL‑SAPPING SALVO' is a hyphen."""
    return re.sub(r"\s+", " ", text.replace("\u2011", "-").replace("\u00a0", " ")).strip()


@lru_cache(maxsize=65536)
def norm(text: str) -> str:
    """Comparison form: case, spacing, bullets, stray asterisks and quotes folded away.

    Two passages that differ only by scraping noise compare equal in this form.
    """
    text = text.replace("\u2011", "-").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = text.replace("*", "")
    text = re.sub(r"(?m)^\s*(?:-|•|\d+\.)\s+", "", text)
    text = re.sub(r"\s+-\s+(?=[A-Z])", " ", text)
    text = re.sub(r"([.:;])(?=[A-Za-z\[])", r"\1 ", text)
    text = re.sub(r"\s+", " ", text)
    return text.strip().casefold()


def join_paragraphs(parts: list[str]) -> str:
    """Paragraphs apart by a blank line; a run of '- ' bullets stays one block."""
    out = ""
    previous_bullet = False
    for part in (p.strip() for p in parts):
        if not part:
            continue
        bullet = part.startswith("- ")
        if out:
            out += "\n" if bullet and previous_bullet else "\n\n"
        out += part
        previous_bullet = bullet
    return out


# Scraping damage seen in real pages, with the reading the rules intend. Each entry
# is reported where it occurs; the text itself is kept as written.
KNOWN_TYPOS = {
    r"\bAnny Faction\b": "Army Faction",
}


def check_text(report: Report, file: str, line: int, text: str, col: int = 1) -> None:
    """Warn about scraping damage in a text field (the text is kept as written)."""
    for pattern, meant in KNOWN_TYPOS.items():
        for m in re.finditer(pattern, text):
            report.warning(file, line, "scraping-typo", f"probable scraping typo; the rules mean {meant!r}",
                           expected=meant, found=m.group(0), column=col + m.start())
    for m in re.finditer(r"\b(?:is|are|has|have|with|the|of)\s+,", text):
        report.warning(file, line, "missing-word", "a word (probably a keyword) is missing before the comma",
                       expected="a keyword", found=text[max(0, m.start() - 20): m.end() + 10], column=col + m.start())
    if re.search(r"\w\*|\*\w|\*\s*$", text):
        report.warning(file, line, "stray-asterisk", "stray '*' (lost italics) in rules text", expected="no '*'",
                       found=text[:100], column=col + text.index("*"))
    if re.search(r"\|\s*$", text) and not text.strip().startswith("|"):
        report.warning(file, line, "lost-table", "text ends with a table cell separator: part of a table was lost",
                       expected="complete sentence", found=text[-60:], column=col + len(text.rstrip()) - 1)
