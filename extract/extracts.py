"""Rules extracts: a title line, then passages separated by blank lines, headings lost.

Each passage is either a part of a rule some other source prints with its heading
(so it becomes one more provenance of that record), the text of a weapon ability it
names itself ('... with a [HEAVY] weapon ...'), or an untitled rule. The choice is made
in :mod:`extract.link`, once every page has been read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from warscribe.schema.diagnostics import Report
from warscribe.extract.lines import Document, Line

_BULLET = re.compile(r"^\s*(?:[•\-]|\d+\.)\s+")


@dataclass
class Passage:
    lines: list[Line]

    @property
    def text(self) -> str:
        return "\n".join(ln.text.strip() for ln in self.lines)

    @property
    def bullets(self) -> list[str]:
        return [_BULLET.sub("", ln.text).strip() for ln in self.lines if ln.text.lstrip().startswith("•")]

    @property
    def display_text(self) -> str:
        """The passage with its '•' bullets written as '- ' items, as other records have them."""
        return "\n".join(re.sub(r"^•\s*", "- ", ln.text.strip()) for ln in self.lines)


def parse_extract(doc: Document, report: Report) -> tuple[str, list[Passage]]:
    content = [ln for ln in doc.lines if ln.use is None]
    if not content:
        report.error(doc.path, 1, "empty-source", "rules extract has no content")
        return "", []
    title_line = content[0]
    title_line.classify("heading")
    title = title_line.text.strip()
    passages: list[Passage] = []
    current: list[Line] = []
    after_blank = False
    for ln in doc.lines[doc.lines.index(title_line) + 1:]:
        if ln.use == "class:blank":
            after_blank = True
            continue
        if ln.use is not None:
            continue
        if current and after_blank and not _continues(current, ln):
            passages.append(Passage(current))
            current = []
        current.append(ln)
        after_blank = False
    if current:
        passages.append(Passage(current))
    # Passages of one numbered list ('1. Create Groups' ... '2. Allocation Order') stay together.
    merged: list[Passage] = []
    for p in passages:
        if merged and re.match(r"^\s*[2-9]\.\s", p.lines[0].text) and merged[-1].lines[0].text.lstrip()[:2] in {f"{k}." for k in range(1, 9)}:
            merged[-1].lines.extend(p.lines)
        else:
            merged.append(p)
    return title, merged


def _continues(current: list[Line], ln: Line) -> bool:
    """A bullet list broken by a blank line still belongs to the item above it."""
    return ln.text.startswith(" ") and not current[-1].text.startswith(" ") and current[-1].text.rstrip().endswith(":")
