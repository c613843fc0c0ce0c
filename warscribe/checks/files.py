"""The output folder against its manifest: every file there, its size and sha256.

A build (and an export) ends by writing ``manifest.json``, which lists every file it wrote
with its size and sha256. Before the records are checked, the folder is held to it: a
file truncated or edited since (``output-changed``), one deleted (``output-missing``) and
one added (``output-unlisted``) are reported by file, so a damaged build never gives a
clean build's report. What the manifest cannot vouch for (there is none, it is
unreadable, an entry is malformed or leads outside the folder) is ``output-unverified``.
The manifest guards against accidents and tampering with the files, not with the
manifest itself: an edit of both agrees with itself.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from warscribe.checks.context import Context
from warscribe.outputs import read_manifest
from warscribe.schema.bundle import BUNDLE_NAME
from warscribe.schema.diagnostics import Diagnostic, code_info

MANIFEST = "manifest.json"


def run(ctx: Context) -> Iterator[Diagnostic]:
    folder = build_folder(ctx.origin)
    if folder is None:
        yield _finding("output-unverified", ctx.origin, "no manifest.json beside this bundle: its files are not "
                       "verified (a build of an older Warscribe, or a bundle file on its own)",
                       expected="a build folder with the manifest.json its build wrote", found="no manifest")
        return
    yield from verify(folder)


def build_folder(path: str | Path) -> Path | None:
    """The output folder a build argument names (the folder, its json/ folder or its bundle) if it has our manifest."""
    path = Path(path)
    candidates = [path, path.parent] if path.is_dir() else [path.parent, path.parent.parent]
    for folder in candidates:  # a manifest.json beside a bundle, or one level up (the bundle in json/)
        if (folder / MANIFEST).is_file() and any((folder / p / BUNDLE_NAME).is_file() for p in ("", "json")):
            return folder
    return None


def verify(folder: Path) -> list[Diagnostic]:
    """Every difference between `folder` and the files its manifest.json lists, by file, in path order."""
    manifest = read_manifest(folder)
    where = str(folder / MANIFEST)
    if manifest is None or not isinstance(manifest.get("files"), dict):
        return [_finding("output-unverified", where, "manifest.json cannot be read or lists no files; "
                         "the build's files are not verified", expected="the manifest.json Warscribe wrote",
                         found="unreadable, not ours, or no 'files'")]
    findings = []
    listed: dict[str, dict] = {}
    for rel, entry in manifest["files"].items():
        if isinstance(entry, str):  # a manifest of an earlier Warscribe: the sha256 alone
            entry = {"sha256": entry}
        if not _inside(rel) or not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
            findings.append(_finding("output-unverified", where, f"manifest.json lists {rel!r} with "
                                     f"{str(entry)[:60]!r}; not checked", expected="a path inside the folder with "
                                     "its size and sha256", found=str(rel)[:200]))
            continue
        listed[rel] = entry
    present = dict(_files(folder))
    for rel in sorted(set(listed) | set(present)):
        path, entry = folder / rel, listed.get(rel)
        shown = f"{folder}/{rel}"
        if entry is None:
            if rel != MANIFEST:
                findings.append(_finding("output-unlisted", shown, f"{rel} is not in the build's manifest: added "
                                         "after the build, not written by it", expected="only the files the build "
                                         "wrote", found=rel))
            continue
        kind = present.get(rel)
        if kind is None:
            findings.append(_finding("output-missing", shown, f"{rel} is listed in manifest.json but missing: "
                                     "deleted since the build", expected=_said(entry), found="no file"))
        elif kind != "file":
            findings.append(_finding("output-changed", shown, f"{rel} is now a {kind}, not the file the build "
                                     "wrote; not followed", expected=_said(entry), found=kind))
        else:
            size = path.stat().st_size
            if isinstance(entry.get("size"), int) and size != entry["size"]:
                what = "truncated" if size < entry["size"] else "grown"
                findings.append(_finding("output-changed", shown, f"{rel} is {size:,} bytes, the manifest says "
                                         f"{entry['size']:,}: {what} or edited since the build",
                                         expected=_said(entry), found=f"{size:,} bytes"))
            else:
                digest = _sha256(path)
                if digest != entry["sha256"]:
                    findings.append(_finding("output-changed", shown, f"{rel} differs from what the build wrote "
                                             "(sha256): edited since the build", expected=_said(entry),
                                             found=f"sha256 {digest}"))
    return findings


def _said(entry: dict) -> str:
    size = f"{entry['size']:,} bytes, " if isinstance(entry.get("size"), int) else ""
    return f"{size}sha256 {entry['sha256']}"


def _inside(rel) -> bool:
    if not isinstance(rel, str) or not rel or "\\" in rel or "\x00" in rel:
        return False
    p = PurePosixPath(rel)
    return not p.is_absolute() and ".." not in p.parts and p.as_posix() == rel


def _files(folder: Path) -> Iterator[tuple[str, str]]:
    """(relative path, 'file' / 'link' / 'folder link' / 'special file') of every entry under `folder`, links not followed."""
    for top, dirs, names in os.walk(folder):
        base = Path(top)
        for name in list(dirs):
            if (base / name).is_symlink():
                dirs.remove(name)
                yield (base / name).relative_to(folder).as_posix(), "folder link"
        for name in names:
            path = base / name
            kind = "link" if path.is_symlink() else "file" if path.is_file() else "special file"
            yield path.relative_to(folder).as_posix(), kind


def _sha256(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _finding(code: str, file: str, message: str, expected: str = "", found: str = "") -> Diagnostic:
    return Diagnostic(file=file, line=0, level=code_info(code).level, code=code, message=message,
                      expected=expected, found=found)
