"""What every check reads: the build (through the bundle loader), its report, its sources.

Records cite their sources by file and line range (``source``); where the source files
are at hand (and still match the checksums the build recorded) a finding about a
phrase of a record is placed at the line and column where that phrase is printed.
Without them, findings point at the record's first source line. A BattleScribe source
(an archive or a folder of catalogues) is cited as '<archive>/<member>'; its members are
read, through the reader's own bounded opener, the first time a finding needs one, and a
catalogue entry's phrase is looked for in the lines the entry spans.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from warscribe import ROOT
from warscribe.schema import bundle as bundle_mod
from warscribe.schema.bundle import Bundle
from warscribe.schema.diagnostics import Diagnostic, code_info

# Text fields of each kind, in the order a reader meets them (paths into the record).
TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "stratagem": ("when", "target", "effect", "restrictions", "flavour", "designer_note"),
    "enhancement": ("text", "restriction", "flavour"),
    "ability": ("flavour", "text", "bullets"),
    "rule": ("flavour", "text", "bullets"),
    "detachment": ("rule.flavour", "rule.text", "rule.designer_note"),
    "datasheet": ("abilities",),
}

MAX_SOURCE_BYTES = 64 * 1024 * 1024
ENTRY_LINES = 400  # how far below its first line a catalogue entry's phrase is looked for


class Sources(dict):
    """Source lines by cited name; the members of a data archive or folder read when first asked for."""

    def __init__(self):
        super().__init__()
        self.containers: dict[str, Path] = {}  # cited name of an archive or folder -> where it is
        self._opened: set[str] = set()

    def get(self, name, default=None):
        if not dict.__contains__(self, name):
            self._open(name)
        return dict.get(self, name, default)

    def __contains__(self, name) -> bool:
        return self.get(name) is not None

    def _open(self, name: str) -> None:
        for cited, path in self.containers.items():
            if name.startswith(cited + "/") and cited not in self._opened:
                from warscribe.extract.battlescribe.files import open_source
                from warscribe.schema.diagnostics import Report

                self._opened.add(cited)
                for member in open_source(path, cited, None, Report()):
                    self[member.name] = re.split(r"\r\n|\r|\n", member.data.decode("utf-8", errors="replace"))


@dataclass
class Context:
    bundle: Bundle
    report: dict | None = None  # the build's report.json, when the build has one
    origin: str = "<build>"
    # source name (as records cite it) -> its lines; only sources found and unchanged.
    sources: Sources = field(default_factory=Sources)
    missing_sources: list[str] = field(default_factory=list)

    # -- locating -------------------------------------------------------------------

    def where(self, record: dict | None) -> tuple[str, int]:
        """The record's first source line (file, line); the build itself when it has none."""
        for prov in _provenance(record or {}):
            return prov.get("file", self.origin), int(prov.get("first_line", 0))
        return self.origin, 0

    def locate(self, record: dict, snippet: str) -> tuple[str, int, int]:
        """(file, line, column) of `snippet` in the record's source lines; else its first line."""
        if snippet:
            folded = snippet.casefold()
            for prov in _provenance(record):
                lines = self.sources.get(prov.get("file", ""))
                if not lines:
                    continue
                first, last = int(prov.get("first_line", 1)), int(prov.get("last_line", 0))
                if prov.get("entry") and last <= first:
                    last = first + ENTRY_LINES  # an entry's text lies in the lines below its start
                for no in range(max(first, 1), min(max(last, first), len(lines)) + 1):
                    col = lines[no - 1].find(snippet)
                    if col < 0:
                        col = lines[no - 1].casefold().find(folded)
                    if col >= 0:
                        return prov["file"], no, col + 1
        file, line = self.where(record)
        return file, line, 0

    def finding(self, code: str, message: str, record: dict | None = None, *, snippet: str = "",
                expected: str = "", found: str = "", level: str | None = None,
                file: str | None = None, line: int | None = None, column: int = 0) -> Diagnostic:
        """A finding of `code` (its level from the vocabulary unless given), placed on the record."""
        info = code_info(code)
        if file is None:
            file, line, column = self.locate(record, snippet) if record is not None else (self.origin, 0, 0)
        return Diagnostic(file=file, line=line or 0, level=level or info.level, code=code, message=message,
                          expected=expected, found=found if found else snippet, column=column,
                          record=(record or {}).get("id", ""))

    # -- reading records ------------------------------------------------------------

    def texts(self, record: dict) -> Iterator[tuple[str, str]]:
        """(field path, text) of every rules-text field of a record that holds text."""
        for path in TEXT_FIELDS.get(record.get("kind", ""), ()):
            if path == "abilities":
                for i, ab in enumerate(record.get("abilities") or []):
                    if isinstance(ab, dict) and isinstance(ab.get("text"), str):
                        yield f"abilities[{i}].text", ab["text"]
                continue
            value = _get(record, path)
            if isinstance(value, str):
                yield path, value
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        yield f"{path}[{i}]", item


def _provenance(record: dict) -> list[dict]:
    """A record's sources in file and line order, so findings do not depend on the order of the build's sources."""
    return sorted((p for p in record.get("source") or [] if isinstance(p, dict)),
                  key=lambda p: (str(p.get("file", "")), int(p.get("first_line", 0) or 0)))


def _get(record: dict, path: str):
    value = record
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def load(build: str | Path, sources: str | Path | None = None) -> Context:
    """The context of a build folder (or bundle file): records, report, and the sources it cites."""
    ctx = Context(bundle=bundle_mod.load(build), report=bundle_mod.load_report(build),
                  origin=str(bundle_mod.locate(build)))
    _read_sources(ctx, Path(sources) if sources else None)
    return ctx


def _read_sources(ctx: Context, root: Path | None) -> None:
    """Find each source the build cites; keep it only if its checksum still matches."""
    for entry in ctx.bundle.meta.get("sources") or []:
        name, sha = entry.get("file"), entry.get("sha256")
        if not isinstance(name, str) or name in ctx.sources:
            continue
        bases = ([root, root.parent] if root else []) + [Path.cwd(), ROOT]
        candidates = [base / name for base in bases]
        if root:
            candidates.insert(1, root / Path(name).name)
        for path in candidates:
            if not _inside(path, bases):
                continue
            if path.is_dir() and _data_folder(path, sha):
                ctx.sources.containers[_cited(name)] = path
                break
            if not path.is_file() or path.stat().st_size > MAX_SOURCE_BYTES:
                continue
            data = path.read_bytes()
            if sha and hashlib.sha256(data).hexdigest() != sha:
                continue
            if _is_archive(path):
                ctx.sources.containers[_cited(name)] = path
            else:
                ctx.sources[name] = re.split(r"\r\n|\r|\n", data.decode("utf-8", errors="replace"))
            break
        else:
            ctx.missing_sources.append(name)


def _cited(name: str) -> str:
    """How records cite a source's members (a source outside the project by its file name)."""
    from warscribe.extract.battlescribe import cited_name

    return cited_name(name)


def _is_archive(path: Path) -> bool:
    from warscribe.extract.battlescribe.files import is_archive

    return is_archive(path)


def _data_folder(path: Path, sha: str | None) -> bool:
    """A folder source (BattleScribe data, a CSV export) that still matches the build's checksum."""
    from warscribe.extract.wahapedia import folder_sha256

    return not sha or folder_sha256(path) == sha


def _inside(path: Path, bases: list[Path]) -> bool:
    """A cited name must not lead outside the folders searched (no '../../etc/passwd')."""
    resolved = path.resolve()
    return any(resolved.is_relative_to(base.resolve()) for base in bases)
