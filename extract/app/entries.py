"""One entry of the app's army or core files being read: where it is, where findings about it go,
and its texts made the project's text.

The app's JSON numbers only objects with an id (a detachment, a stratagem, a core-rules
container, an FAQ entry); an army rule, a rule's parts or a keyword's rule have none, so they are
placed on the line of the nearest object around them that has one (the file's root at worst).
"""

from __future__ import annotations

from dataclasses import dataclass

from warscribe.extract import provenance
from warscribe.extract.app.markup import english, is_text, names, plain
from warscribe.extract.app.source import AppFile
from warscribe.schema.diagnostics import Report
from warscribe.schema.records import OMIT
from warscribe.schema.text import clean_name


def line_of(obj, default: int = 1) -> int:
    """The line an object's id is written on; `default` (its parent's) for an object without one."""
    line = obj.get("$line") if isinstance(obj, dict) else None
    return line if isinstance(line, int) and line >= 1 else default


@dataclass
class Entry:
    """An object of `file` placed on `line`, called `what` in findings ("stratagem 'Armour of Contempt'")."""

    file: AppFile
    report: Report
    line: int
    what: str

    def warn(self, code: str, message: str, expected: str = "", found: str = "") -> None:
        self.report.warning(self.file.name, self.line, code, f"{self.what}: {message}", expected=expected, found=found)

    def error(self, code: str, message: str, expected: str = "", found: str = "") -> None:
        self.report.error(self.file.name, self.line, code, f"{self.what}: {message}", expected=expected, found=found)

    def prov(self) -> dict:
        return provenance.entry(self.file.name, self.line, self.line, self.file.ruleset)

    def text(self, value, field: str) -> str | None:
        """The plain English text of one of the app's texts; None where there is none (absent, empty, or
        not a text: reported)."""
        if value is None:
            return None
        if not is_text(value):
            self.warn("bad-app-data", f"{field} is not a text; left out", expected="a string or {language: string}",
                      found=type(value).__name__)
            return None
        return plain(english(value)) or None


def name_of(value) -> str:
    """A name as records keep it: plain English, the typographic apostrophe a straight one (as the other
    sources write names: "Emperor's Champion"); '' where `value` is no text."""
    if not is_text(value):
        return ""
    return clean_name(plain(english(value))).replace("\u2019", "'").strip()


def names_of(value):
    """The other languages' names, or OMIT (a record leaves `names` out then)."""
    found = names(value) if is_text(value) else {}
    return found or OMIT
