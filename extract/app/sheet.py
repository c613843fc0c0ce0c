"""One datasheet object of the app's data being read: where it is, where findings about it go, and
its texts made the project's text.

The app's JSON numbers only objects with an id (a datasheet); its weapons, abilities and points
have none, so every finding and record made from inside a datasheet is placed on the line of the
datasheet's id.
"""

from __future__ import annotations

from dataclasses import dataclass

from warscribe.extract import provenance
from warscribe.extract.app.markup import english, is_text, names, plain
from warscribe.extract.app.source import AppFile
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import clean_name


@dataclass
class Sheet:
    """A datasheet object of `file`, its id written on `line`, called `name` in findings."""

    file: AppFile
    report: Report
    line: int
    name: str

    def warn(self, code: str, message: str, expected: str = "", found: str = "") -> None:
        self.report.warning(self.file.name, self.line, code, f"datasheet {self.name!r}: {message}",
                            expected=expected, found=found)

    def error(self, code: str, message: str, expected: str = "", found: str = "") -> None:
        self.report.error(self.file.name, self.line, code, f"datasheet {self.name!r}: {message}",
                          expected=expected, found=found)

    def prov(self) -> dict:
        return provenance.entry(self.file.name, self.line, self.line, self.file.ruleset)

    def text(self, value, what: str) -> str:
        """The plain English text of one of the app's texts; '' (reported) where `value` is not a text."""
        if value is None:
            return ""
        if not is_text(value):
            self.warn("bad-ability" if "abilit" in what else "empty-field", f"{what} is not a text; left out",
                      expected="a string or {language: string}", found=type(value).__name__)
            return ""
        return plain(english(value))


def name_of(value) -> str:
    """A name as records keep it: plain English, the typographic apostrophe a straight one (as the other
    sources write names: "Emperor's Champion")."""
    return clean_name(plain(english(value))).replace("\u2019", "'").strip()


def names_of(value) -> dict[str, str]:
    """The other languages' names, or {} (a record leaves `names` out then)."""
    return names(value) if is_text(value) else {}
