"""Stage 1, the manifest: every source checked by schema, confined to its folder, checksummed.

The manifest and the files it names are untrusted (a downloaded sources folder, a
user's edit): the manifest is loaded as bounded YAML with duplicate keys refused and
checked against ``schema/manifest.schema.json``; a source path must stay inside the
manifest's folder (no absolute paths, no ``..``, no link that leads out), so a build
never reads, publishes or prints a checksum of a file outside it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from warscribe.extract.battlescribe.files import is_archive
from warscribe.extract.wahapedia import folder_sha256
from warscribe.schema import safeyaml
from warscribe.schema.diagnostics import Report
from warscribe.schema.registry import fast_validator, schema

# Source kinds, as the manifest schema declares them.
KINDS_OF_SOURCE = tuple(schema("manifest")["$defs"]["entry"]["properties"]["kind"]["enum"])
# Kinds whose `file` is a folder (checksummed over its files, see folder_sha256) or an archive of one.
FOLDER_KINDS = {"wahapedia-csv", "app-json", "field-manual"}
# Kinds read by their own readers, not as a text file: what they are, and what `file` may name.
DATA_KINDS = {
    "wahapedia-csv": ("export folder", "a folder of .csv files or a .tar.xz/.zip archive of one"),
    "battlescribe": ("BattleScribe data", "a folder, a .gst/.cat/.json file or a .tar.xz/.zip archive"),
    "app-json": ("the app's data", "a folder of the app's JSON (faction files, core/, faqs.json) or a .tar.xz/.zip archive of one"),
    "field-manual": ("Field Manual", "a folder of the Munitorum Field Manual's YAML or a .tar.xz/.zip archive of one"),
}


@dataclass
class Source:
    path: Path  # on disk
    name: str  # as recorded in provenance: 'sources/<file>'
    entry: dict
    sha256: str = ""



def ranked(sources: list[Source]) -> list[Source]:
    """Sources in the order they are consulted: by `rank`, then by file name (never manifest order).

    Where sightings disagree the first consulted wins, so the same sources give the same
    records however the manifest lists them; a user who prefers one source says so
    with `rank`.
    """
    return sorted(sources, key=lambda s: (0, s.entry["rank"], s.name) if "rank" in s.entry else (1, 0, s.name))


class Unconfined(ValueError):
    """A listed path that would leave the sources folder."""


def confine(folder: Path, listed: str, roots: tuple[Path, ...] = ()) -> Path:
    """The path of `listed` inside `folder`; Unconfined when it would lead outside.

    `roots` are folders the user trusts besides (``warscribe build --data DIR``, e.g. a
    BattleScribe checkout beside the project): a relative path with '..' may lead into
    one of them, never anywhere else.
    """
    if "\\" in listed or PureWindowsPath(listed).drive or PurePosixPath(listed).is_absolute():
        raise Unconfined("an absolute path (or a Windows one); list files relative to the manifest's folder")
    path = folder / listed
    real = path.resolve()
    trusted = [r.resolve() for r in roots]
    inside = next((r for r in trusted if real == r or r in real.parents), None)
    if inside is not None:
        return path
    if ".." in PurePosixPath(listed).parts:
        raise Unconfined("'..' leads out of the manifest's folder" + (" and out of the --data folders" if roots else ""))
    root = folder.resolve()
    if real != root and root not in real.parents:
        raise Unconfined("a link that leads out of the manifest's folder")
    if path.is_dir():
        for child in path.iterdir():
            target = child.resolve()
            if child.is_symlink() and root not in target.parents:
                raise Unconfined(f"{child.name} in the folder is a link that leads out of the manifest's folder")
    return path


def load_manifest(manifest: Path, report: Report, readers: dict, roots: tuple[Path, ...] = ()) -> list[Source]:
    """Stage 1: the manifest, with every entry checked (file present, checksum, fields).

    Sources lie inside the manifest's folder, or inside one of `roots` (see confine).
    """
    mname = _display(manifest)
    try:
        data = safeyaml.load_file(manifest)
    except OSError as exc:
        report.error(mname, 1, "bad-manifest", f"cannot read the manifest: {exc.strerror or exc}",
                     expected="a readable YAML file with a 'sources' list", found="nothing")
        return []
    except safeyaml.YamlError as exc:
        report.error(mname, exc.line or 1, "bad-manifest", f"cannot read the manifest: {exc.message}",
                     expected="a YAML file with a 'sources' list", column=exc.column)
        return []
    entries = (data or {}).get("sources") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        report.error(mname, 1, "bad-manifest", "manifest has no 'sources' list", expected="sources: [...]", found=str(type(data).__name__))
        return []
    sources = []
    listed: dict[str, int] = {}
    text_lines = manifest.read_text(encoding="utf-8").splitlines()
    check = fast_validator("manifest")
    for index, entry in enumerate(entries):
        line = _entry_line(text_lines, entry.get("file") if isinstance(entry, dict) and isinstance(entry.get("file"), str) else None)
        # Each entry is checked apart, so one bad entry costs only its own source.
        problems = sorted(check.iter_errors({"sources": [entry]}), key=lambda e: list(e.absolute_path))
        if problems:
            missing = [m for e in problems if e.validator == "required" for m in e.validator_value
                       if isinstance(entry, dict) and m not in entry]
            other = [f"{'/'.join(str(p) for p in list(e.absolute_path)[2:]) or 'entry'}: {e.message}"
                     for e in problems if e.validator != "required"]
            what = ([f"lacks {', '.join(missing)}"] if missing else []) + other
            name = f" ({entry['file']})" if isinstance(entry, dict) and isinstance(entry.get("file"), str) else ""
            report.error(mname, line, "bad-manifest", f"sources[{index}]{name}: {'; '.join(what)}",
                         expected="file, original_name, sha256, ruleset, kind (see schema/manifest.schema.json)",
                         found=", ".join(sorted(map(str, entry))) if isinstance(entry, dict) else type(entry).__name__)
            continue
        try:
            path = confine(manifest.parent, entry["file"], roots)
        except Unconfined as exc:
            report.error(mname, line, "unconfined-source", f"sources[{index}] ({entry['file']}): {exc}; skipped",
                         expected="a path inside the manifest's folder", found=entry["file"])
            continue
        key = os.path.normcase(os.path.normpath(entry["file"]))
        if key in listed:
            report.error(mname, line, "duplicate-source", f"sources[{index}] lists {entry['file']} again "
                         f"(first as sources[{listed[key]}]); skipped", expected="each source once", found=entry["file"])
            continue
        listed[key] = index
        src = Source(path, _provenance_name(manifest, entry["file"]), entry)
        if entry["kind"] in DATA_KINDS:
            # A folder (checksummed over its files, see folder_sha256) or, for some kinds, an archive.
            what, expected = DATA_KINDS[entry["kind"]]
            if not (path.is_dir() or (path.is_file() and (entry["kind"] not in FOLDER_KINDS or is_archive(path)))):
                report.error(mname, line, "missing-source", f"{what} {entry['file']} does not exist",
                             expected=expected, found="nothing" if not path.exists() else "a file")
                continue
            src.sha256 = folder_sha256(path) if path.is_dir() else _file_sha256(path)
            if src.sha256 != entry["sha256"]:
                report.error(src.name, 1, "checksum", f"{what} differs from the manifest's checksum; skipped",
                             expected=entry["sha256"], found=src.sha256)
                continue
            sources.append(src)
            continue
        if not path.is_file():
            report.error(mname, line, "missing-source", f"source file {entry['file']} does not exist", expected="a file", found="nothing")
            continue
        src.sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        if src.sha256 != entry["sha256"]:
            report.error(src.name, 1, "checksum", "source file differs from the manifest's checksum; skipped",
                         expected=entry["sha256"], found=src.sha256)
            continue
        if path.suffix not in readers:
            report.error(src.name, 1, "unknown-format", f"no reader for {path.suffix!r} files",
                         expected=" or ".join(sorted(readers)), found=path.suffix)
            continue
        sources.append(src)
    return sources


def source_sha256(path: Path) -> str:
    """The checksum the manifest records for a source: a file's, or a folder's (see folder_sha256)."""
    return folder_sha256(path) if path.is_dir() else _file_sha256(path)


def _file_sha256(path: Path) -> str:
    """A large file's checksum, read in blocks (an archive of the data is tens of MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_PROJECT_MARKERS = (".git", "pyproject.toml", "mkdocs.yml")


def _provenance_name(manifest: Path, as_listed: str) -> str:
    """How records cite a source: its path from the project that holds the manifest.

    The project is the nearest folder above the manifest with a project marker (a
    checkout); without one, the manifest's own folder is named ('sources/x.txt'). The
    name never depends on the working directory or on where the project sits on disk.
    """
    folder = manifest.resolve().parent
    path = (folder / as_listed)
    for top in folder.parents if not any((folder / m).exists() for m in _PROJECT_MARKERS) else [folder]:
        if any((top / m).exists() for m in _PROJECT_MARKERS):
            break
    else:
        top = folder.parent
    try:
        return Path(os.path.normpath(path)).relative_to(top).as_posix()
    except ValueError:
        return Path(as_listed).as_posix()


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _entry_line(lines: list[str], file: str | None) -> int:
    for no, text in enumerate(lines, start=1):
        if file and file in text:
            return no
    return 1
