"""Opening the Munitorum Field Manual: a folder, or a .tar.xz/.tar.gz/.zip of one, of YAML files.

The manual is one ``meta.yaml`` (its version, date and notes) beside one file per faction.
Every file is untrusted: an archive is opened only through
:func:`~warscribe.extract.battlescribe.files.read_archive` (regular files at relative paths,
bounded in size and number), a folder is walked without following links, within the same
bounds, and YAML is parsed only by :func:`warscribe.schema.safeyaml.loads_located` (aliases,
size and nesting bounded; duplicate keys refused).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from warscribe.extract.battlescribe.files import Bounds, is_archive, read_archive
from warscribe.extract.encoding import decode_utf8
from warscribe.schema import safeyaml
from warscribe.schema.diagnostics import Report

SUFFIXES = (".yaml", ".yml")
# The largest faction file of v1.1 is 53 kB, the whole manual 600 kB.
BOUNDS = Bounds(max_file=4 << 20, max_total=64 << 20, max_members=2_000)
YAML_LIMITS = safeyaml.Limits(max_bytes=4 << 20, max_nodes=1_000_000, max_depth=32)
META = "meta.yaml"


@dataclass
class File:
    """One YAML file of the manual, parsed: `cited` names it in provenance ('<source>/<path>')."""

    cited: str
    path: str  # inside the source
    document: object  # safeyaml.Located for a well-formed file


def open_manual(path: Path, display: str, report: Report) -> list[File]:
    """The manual's YAML files, parsed, in path order; what cannot be read is reported and left out."""
    wanted = _is_yaml
    if is_archive(path):
        members = [(m.name, m.path, m.data) for m in read_archive(path, display, report, wanted, BOUNDS)]
    elif path.is_dir():
        members = _walk(path, display, report)
    elif path.is_file() and _is_yaml(path.name):
        members = _walk_one(path, display, report)
    else:
        report.error(display, 1, "missing-source", f"{display} is neither a folder, an archive nor a YAML file",
                     expected="a folder or a .tar.xz/.tar.gz/.zip of the manual's YAML files", found=str(path))
        return []
    out = []
    for cited, inner, data in members:
        text, bad = decode_utf8(data)
        if bad is not None:
            report.error(cited, bad.line, "bad-encoding", "the file is not UTF-8; not read", expected="UTF-8",
                         found=bad.found, column=bad.column)
            continue
        try:
            document = safeyaml.loads_located(text.removeprefix("\ufeff"), YAML_LIMITS)
        except safeyaml.YamlError as exc:
            report.error(cited, exc.line or 1, "bad-field-manual", f"cannot read the YAML: {exc.message}; file not read",
                         expected="a YAML document", found=exc.message, column=exc.column)
            continue
        out.append(File(cited, inner, document))
    return out


def _is_yaml(name: str) -> bool:
    return name.lower().endswith(SUFFIXES) and not PurePosixPath(name).name.startswith(".")


def _walk_one(path: Path, display: str, report: Report) -> list[tuple[str, str, bytes]]:
    size = path.stat().st_size
    if size > BOUNDS.max_file:
        report.error(display, 1, "too-large", f"{path.name} is {size:,} bytes; not read",
                     expected=f"at most {BOUNDS.max_file:,} bytes", found=f"{size:,}")
        return []
    return [(display, path.name, path.read_bytes())]


def _walk(root: Path, display: str, report: Report) -> list[tuple[str, str, bytes]]:
    """The YAML files under folder `root` (links and hidden entries left out), in path order, within BOUNDS."""
    found: list[str] = []
    seen = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        seen += len(files) + len(dirs)
        if seen > BOUNDS.max_members:
            report.error(display, 1, "archive-too-large", f"the folder holds more than {BOUNDS.max_members:,} "
                         "entries; not read", expected=f"at most {BOUNDS.max_members:,} files", found="more")
            return []
        rel = Path(folder).relative_to(root)
        for name in files:
            full = Path(folder) / name
            if _is_yaml(name) and full.is_file() and not full.is_symlink():
                found.append((rel / name).as_posix())
    out = []
    total = 0
    for inner in sorted(found, key=lambda n: n.encode()):
        full = root / inner
        cited = f"{display}/{inner}"
        size = full.stat().st_size
        if size > BOUNDS.max_file or total + size > BOUNDS.max_total:
            report.error(cited, 1, "too-large", f"{inner} is {size:,} bytes; not read",
                         expected=f"at most {BOUNDS.max_file:,} bytes a file, {BOUNDS.max_total:,} in all",
                         found=f"{size:,}")
            continue
        data = full.read_bytes()[:BOUNDS.max_file + 1]
        total += len(data)
        out.append((cited, inner, data))
    return out
