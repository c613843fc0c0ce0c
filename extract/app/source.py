"""Opening the app's data: which file is what, read within bounds, parsed with line numbers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from warscribe.extract.battlescribe.files import Member, is_archive, read_archive
from warscribe.extract.battlescribe.tree import DataError, parse_json
from warscribe.schema.diagnostics import Report

# Bounds of a source: the whole game unpacks to 17 MB in 60 files.
MAX_FILE = 32 * 1024 * 1024
MAX_TOTAL = 256 * 1024 * 1024
MAX_FILES = 2_000


@dataclass
class AppFile:
    """One parsed file of the app's data."""

    name: str  # as cited in provenance: '<source>/<path inside it>'
    path: str  # its path inside the source, from the data folder ('core/core_rules.json')
    role: str  # faction | combat-patrol | core | faqs | keywords | mission
    doc: dict
    ruleset: str


def role_of(path: str) -> str | None:
    """What a file of the data is, by its path inside the source; None: not the app's data."""
    parts = PurePosixPath(path).parts
    if not parts or not parts[-1].endswith(".json"):
        return None
    folder = parts[-2] if len(parts) > 1 else ""
    if folder == "combatpatrol":
        return "combat-patrol"
    if folder == "core":
        return "core"
    if folder == "missions":
        return "mission"
    if parts[-1] == "faqs.json":
        return "faqs"
    if parts[-1] == "keywords.json":
        return "keywords"
    return "faction"


def load(path: Path, display: str, ruleset: str, report: Report) -> list[AppFile]:
    """Every JSON file of the source, parsed; a file that cannot be read is reported and skipped."""
    members = _members(path, display, report)
    out = []
    for member in members:
        role = role_of(member.path)
        if role is None:
            continue
        try:
            doc = parse_json(member.data)
        except DataError as exc:
            report.error(member.name, exc.line, "bad-app-data", f"{exc}; file skipped",
                         expected=exc.expected, found=exc.found, column=exc.column)
            continue
        out.append(AppFile(member.name, member.path, role, doc, ruleset))
    if not out:
        report.error(display, 1, "no-app-data", "no JSON file of the app's data in the source",
                     expected="faction files, core/, faqs.json (Game Datacards' 11th-edition JSON)", found="nothing")
    return out


def _members(path: Path, display: str, report: Report) -> list[Member]:
    """The source's .json files in name order: from an archive (bounded) or a folder tree (links not followed)."""
    if is_archive(path):
        return read_archive(path, display, report, lambda name: name.endswith(".json"))
    members: list[Member] = []
    total = 0
    if path.is_file():
        files = [path]
        root = path.parent
    else:
        root = path
        files = sorted((p for p in path.rglob("*.json") if p.is_file() and not p.is_symlink()
                        and not any(part.startswith(".") for part in p.relative_to(path).parts)),
                       key=lambda p: p.relative_to(path).as_posix().encode())
    for file in files[:MAX_FILES]:
        rel = file.relative_to(root).as_posix()
        size = file.stat().st_size
        if size > MAX_FILE or total + size > MAX_TOTAL:
            report.error(f"{display}/{rel}", 1, "too-large", f"{rel} is {size:,} bytes; skipped",
                         expected=f"at most {MAX_FILE:,} bytes a file and {MAX_TOTAL:,} in all", found=f"{size:,}")
            continue
        total += size
        members.append(Member(f"{display}/{rel}", file.read_bytes(), rel))
    if len(files) > MAX_FILES:
        report.error(display, 1, "too-many-files", f"the source holds {len(files):,} JSON files; the first "
                     f"{MAX_FILES:,} read", expected=f"at most {MAX_FILES:,}", found=f"{len(files):,}")
    return members
