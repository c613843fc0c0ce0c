"""The export's files into rows: multi-line rows, columns by header name, located errors."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from warscribe.extract.battlescribe.files import Member, is_archive, read_archive
from warscribe.extract.encoding import decode_utf8
from warscribe.extract.limits import Limits
from warscribe.extract.wahapedia.layout import ESSENTIAL, LAYOUT, REQUIRED, SEPARATOR, TABLES, UNREAD
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import spreadsheet_text


def folder_sha256(folder: Path) -> str:
    """Checksum of a data folder: ``cd DIR && LC_ALL=C sha256sum * | sha256sum`` for a flat one.

    That is the sha256 of the lines '<sha256 of file>  <path>\\n' for every regular,
    non-hidden file in the folder, in byte order of the paths; a file in a subfolder (the
    app's ``core/core_rules.json``) by its path from the folder, so for a folder with
    subfolders: ``cd DIR && find . -type f ! -path '*/.*' | sed 's|^./||' | LC_ALL=C sort |
    xargs sha256sum | sha256sum``.
    """
    lines = []
    files = [p for p in folder.rglob("*") if p.is_file()
             and not any(part.startswith(".") for part in p.relative_to(folder).parts)]
    for path in sorted(files, key=lambda p: p.relative_to(folder).as_posix().encode()):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(folder).as_posix()}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


@dataclass
class Row:
    file: str  # as reported: '<folder>/<Name>.csv'
    number: int  # data row, 1-based (the header is row 0)
    line: int  # physical line the row starts on
    last_line: int
    values: dict[str, str]
    columns: list[str]

    def __getitem__(self, column: str) -> str:
        return self.values.get(column, "")

    def col(self, column: str) -> int:
        return self.columns.index(column) + 1 if column in self.columns else 0

    def error(self, report: Report, code: str, column: str, message: str, expected: str = "", found: str = "",
              level: str = "error") -> None:
        where = f"{Path(self.file).name} row {self.number}, column {column!r}: "
        getattr(report, level)(self.file, self.line, code, where + message, expected=expected,
                               found=found if found else self[column], column=self.col(column))


@dataclass
class Table:
    name: str
    file: str
    columns: list[str]
    rows: list[Row] = field(default_factory=list)


def read_table(name: str, data: bytes | None, file: str, report: Report, limits: Limits | None = None) -> Table | None:
    """One file of the export (its bytes; None: absent); None (reported) if it is absent, undecodable
    as a table or lacks a column. `file` is the name it is cited by ('<source>/<Name>.csv')."""
    if data is None:
        if name in ESSENTIAL:
            report.error(file, 1, "missing-file", f"the export has no {name}", expected=name, found="nothing")
        return None
    limits = limits or Limits()
    if limits.source_too_large(report, file, len(data)):
        return None
    text, bad = decode_utf8(data)
    if bad is not None:
        report.error(file, bad.line, "bad-encoding", f"{name} is not valid UTF-8 (byte {bad.column} of line {bad.line}); "
                     "undecodable bytes replaced, rows with them reported",
                     expected="UTF-8 text", found=bad.found)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    physical = text.split("\n")
    header = physical[0]
    if SEPARATOR not in header:
        counts = {sep: header.count(sep) for sep in (",", ";", "\t")}
        found = max(counts, key=counts.get) if any(counts.values()) else "no separator"
        report.error(file, 1, "wrong-separator", f"{name} row 0 (header): columns are not separated by '|'; file not read",
                     expected="'|' between columns and after the last", found=repr(found) + " in " + header[:80],
                     column=1)
        return None
    columns = [c.strip() for c in header.split(SEPARATOR)]
    if columns and columns[-1] == "":
        columns.pop()
    missing = [c for c in REQUIRED.get(name, []) if c not in columns]
    if missing:
        for c in missing:
            report.error(file, 1, "missing-column", f"{name} row 0 (header): column {c!r} is missing; file not read",
                         expected=", ".join(REQUIRED[name]), found=", ".join(columns), column=len(columns) + 1)
        return None
    table = Table(name, file, columns)
    _rows(table, physical, report, limits)
    return table


def _rows(table: Table, physical: list[str], report: Report, limits: Limits) -> None:
    n = len(table.columns)
    buf: list[str] = []
    start = 0
    number = 0

    def complete(piece: str) -> bool:
        return piece.count(SEPARATOR) >= n and piece.rstrip().endswith(SEPARATOR)

    def emit(lines: list[str], first: int) -> None:
        nonlocal number
        number += 1
        joined = "\n".join(lines)
        parts = joined.split(SEPARATOR)
        row = Row(table.file, number, first, first + len(lines) - 1, {}, table.columns)
        if joined.rstrip().endswith(SEPARATOR):
            parts = parts[:-1]
        if len(parts) > n:
            extra = len(parts) - n
            row.values = dict(zip(table.columns, (p.strip() for p in parts)))
            report.error(table.file, first, "too-many-fields",
                         f"{table.name} row {number}: {len(parts)} fields for {n} columns "
                         f"(first extra at column {n + 1}); row skipped",
                         expected=f"{n} fields: {', '.join(table.columns)}",
                         found=f"{extra} more: " + SEPARATOR.join(parts[n:])[:80], column=n + 1)
            return
        if len(parts) < n:
            report.error(table.file, first, "too-few-fields",
                         f"{table.name} row {number}: {len(parts)} fields for {n} columns "
                         f"(column {table.columns[len(parts)]!r} and after missing); row skipped",
                         expected=f"{n} fields: {', '.join(table.columns)}", found=joined[:80],
                         column=len(parts) + 1)
            return
        long = next((i for i, p in enumerate(parts) if limits.too_long(len(p))), None)
        if long is not None:
            limits.report_line(report, table.file, first, len(parts[long]), parts[long].strip(),
                               what=f"{table.name} row {number}, column {table.columns[long]!r}: the field",
                               consequence="row skipped")
            return
        # A text a spreadsheet would run carries a leading apostrophe in our own export (warscribe/export_csv.py).
        row.values = {c: spreadsheet_text(p.strip()) for c, p in zip(table.columns, parts)}
        for c, v in row.values.items():
            if "\ufffd" in v:
                row.error(report, "bad-encoding", c, "text is not valid UTF-8; undecodable bytes replaced",
                          expected="UTF-8 text")
        table.rows.append(row)

    # The row so far is complete when it holds a separator per column and its last
    # non-blank line ends with one; both are kept up to date line by line, so a field
    # of many lines is never re-joined or re-counted.
    seps = 0
    ends_with_sep = False
    for index, line in enumerate(physical[1:], start=2):
        if not buf:
            if not line.strip():
                continue
            start = index
        elif complete(line) and line.count(SEPARATOR) == n:
            # The next line is a whole row by itself: what came before was cut short.
            emit(buf, start)
            buf, start = [], index
            seps, ends_with_sep = 0, False
        buf.append(line)
        seps += line.count(SEPARATOR)
        if line.strip():
            ends_with_sep = line.rstrip().endswith(SEPARATOR)
        if seps >= n and ends_with_sep:
            emit(buf, start)
            buf = []
            seps, ends_with_sep = 0, False
    if buf:
        emit(buf, start)


def read_export(path: Path, display: str, report: Report, limits: Limits | None = None) -> dict[str, Table]:
    """The tables of an export: a folder of .csv files, or an archive of one (.tar.xz, .zip ...).

    An archive is opened through the one safe way into archives
    (``extract/battlescribe/files.py:read_archive``: regular files at a relative path,
    sizes and members bounded, bombs refused); its tables may lie in a folder inside it.
    A file is cited as '<source>/<Name>.csv' (inside an archive, with its folder:
    '<source>/<folder>/<Name>.csv').
    """
    limits = limits or Limits()
    refused: set[str] = set()  # tables over the size limit: reported, not read, not missing
    if is_archive(path):
        members = read_archive(path, display, report, lambda name: name.lower().endswith(".csv"))
    else:
        members = _folder_files(path, display, report, limits, refused)
    files: dict[str, Member] = {}
    for member in members:
        name = PurePosixPath(member.name).name
        if name in files:
            report.error(member.name, 1, "duplicate-table", f"{name} is in the export twice; this copy is not read",
                         expected=f"one {name}", found=f"{files[name].name} and {member.name}")
            continue
        files[name] = member
    tables = {}
    for name in TABLES:
        member = files.get(name)
        if name in refused:
            continue
        table = read_table(name, member.data if member else None, member.name if member else f"{display}/{name}",
                           report, limits)
        if table is not None:
            tables[name] = table
    known = set(TABLES) | set(LAYOUT)
    for name, member in sorted(files.items()):
        if name in UNREAD:
            report.warning(member.name, 1, "unread-table", f"{name} is not read: {UNREAD[name]}",
                           expected="a table the reader reads", found=name)
        elif name not in known:
            report.warning(member.name, 1, "unknown-table", f"{name} is not a table of the export; ignored",
                           expected=", ".join(sorted(known)), found=name)
    return tables


def _folder_files(folder: Path, display: str, report: Report, limits: Limits, refused: set[str]) -> list[Member]:
    """The .csv files directly in `folder` (hidden files and links left out), in name order; one over
    the size limit is reported and not read (its name goes into `refused`)."""
    out = []
    for p in sorted(folder.iterdir(), key=lambda p: p.name.encode()) if folder.is_dir() else []:
        if p.suffix.lower() != ".csv" or not p.is_file() or p.is_symlink() or p.name.startswith("."):
            continue
        if limits.source_too_large(report, f"{display}/{p.name}", p.stat().st_size):
            refused.add(p.name)
            continue
        out.append(Member(f"{display}/{p.name}", p.read_bytes(), p.name))
    return out


def true(raw: str) -> bool:
    return raw.strip().lower() in ("true", "1", "yes")


def line_key(row: Row) -> tuple:
    def num(v: str) -> tuple:
        v = v.strip()
        return (0, int(v), "") if v.isdigit() else (1, 0, v)
    return (num(row["line"]), num(row["line_in_wargear"]), row.number)
