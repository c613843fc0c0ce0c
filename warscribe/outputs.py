"""Writing outputs without losing a user's data.

A build or an export is written into a staging folder beside its destination and moved
into place only when complete, so a failed or interrupted run (a bad manifest, a full
disk, Ctrl-C) leaves the previous output as it was. The destination is replaced only
when it is empty or a Warscribe output (recognised by the manifest or bundle Warscribe
wrote there); a folder of anything else is refused, never deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


class OutputError(Exception):
    """An output that may not or cannot be written; the message says which and why."""


def is_warscribe_output(folder: Path) -> bool:
    """A folder Warscribe wrote: its manifest.json (or bundle) names Warscribe as generator."""
    for name, key in (("manifest.json", ("generator",)), ("warscribe.json", ("meta", "generator"))):
        value = _read_json(folder / name)
        try:
            for k in key:
                value = value[k]
        except (KeyError, TypeError):
            continue
        if isinstance(value, str) and value.startswith("warscribe"):
            return True
    return False


def read_manifest(folder: Path) -> dict | None:
    """The manifest.json Warscribe wrote in `folder` (what a build holds), or None."""
    data = _read_json(folder / "manifest.json")
    if isinstance(data, dict) and str(data.get("generator", "")).startswith("warscribe"):
        return data
    return None


def _read_json(path: Path, limit: int = 64 << 20):
    """The JSON in `path` if it is a file of at most `limit` bytes that parses; else None."""
    try:
        if not path.is_file() or path.stat().st_size > limit:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def check_replaceable(out: Path) -> None:
    """OutputError unless `out` is absent, an empty folder, or a Warscribe output."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutputError(f"{out} exists and is not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()) and not is_warscribe_output(out):
        raise OutputError(f"{out} is not empty and is not a Warscribe output (no manifest.json of ours); "
                          "nothing was written there. Choose an empty or new folder with --out")


@contextlib.contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A fresh folder to write `out` into; moved into place when the block completes.

    On an exception the staging folder is removed and `out` is left untouched.
    """
    check_replaceable(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        yield stage
        if not (stage / "manifest.json").exists():
            _write_manifest(stage)
        check_replaceable(out)  # again: something may have been written there meanwhile
        _swap(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def output_files(folder: Path) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every file under ``folder`` but its manifest.json, sorted by path."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel != "manifest.json":
            yield rel, path.read_bytes()


def file_entries(folder: Path) -> dict[str, dict]:
    """{size, sha256} of every file under ``folder`` (but its manifest.json), by relative path, sorted.

    What a manifest lists, so that `warscribe check` can tell a truncated, edited, missing or added file.
    """
    return {rel: {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()} for rel, data in output_files(folder)}


def _write_manifest(folder: Path) -> None:
    """Every output folder says that Warscribe wrote it, and which files (so a later run may replace it)."""
    from warscribe import __version__

    text = json.dumps({"generator": f"warscribe {__version__}", "files": file_entries(folder)}, indent=2) + "\n"
    (folder / "manifest.json").write_text(text, encoding="utf-8")


def _swap(stage: Path, out: Path) -> None:
    if not out.exists():
        os.replace(stage, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.rmdir(old)
    os.replace(out, old)  # ours (checked): set aside, then the new one takes its name
    try:
        os.replace(stage, out)
    except OSError:
        os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def write_text(path: Path, text: str) -> None:
    """One file written whole or not at all (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
