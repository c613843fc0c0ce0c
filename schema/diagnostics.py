"""Errors and warnings that name the file, the line, what was expected and what was found.

Extraction never stops at the first problem: every stage reports into one
:class:`Report`, and the build decides at the end (errors, or warnings under
``--strict``) whether it failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Diagnostic:
    file: str
    line: int
    level: str  # "error" or "warning"
    code: str  # short stable tag, e.g. "scraping-typo", "lost-table"
    message: str
    expected: str = ""
    found: str = ""
    column: int = 0

    def render(self) -> str:
        where = f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")
        out = f"{where}: {self.level}: {self.message} [{self.code}]"
        if self.expected:
            out += f"\n    expected: {self.expected}"
        if self.found:
            found = self.found if len(self.found) <= 100 else self.found[:97] + "..."
            out += f"\n    found:    {found}"
        return out

    def as_dict(self) -> dict:
        d = {"file": self.file, "line": self.line, "level": self.level, "code": self.code, "message": self.message}
        if self.column:
            d["column"] = self.column
        if self.expected:
            d["expected"] = self.expected
        if self.found:
            d["found"] = self.found
        return d


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, file: str, line: int, code: str, message: str, expected: str = "", found: str = "", column: int = 0) -> None:
        self.diagnostics.append(Diagnostic(file, line, "error", code, message, expected, found, column))

    def warning(self, file: str, line: int, code: str, message: str, expected: str = "", found: str = "", column: int = 0) -> None:
        self.diagnostics.append(Diagnostic(file, line, "warning", code, message, expected, found, column))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == "warning"]

    def sorted(self) -> list[Diagnostic]:
        # Deduplicate: a line read by two stages must not be reported twice.
        return sorted(set(self.diagnostics))
