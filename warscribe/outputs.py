"""Writing outputs without losing a user's data.

A build or an export is written into a staging folder beside its destination and moved
into place only when complete, so a failed or interrupted run (a bad manifest, a full
disk, Ctrl-C, SIGTERM) leaves the previous output as it was. The destination is
replaced only when it is empty or a Warscribe output (recognised by the manifest or
bundle Warscribe wrote there); a folder of anything else is refused, never deleted.

Replacing a previous output never deletes what the command did not write:

- files the previous run's ``manifest.json`` does not list (a user's notes, an
  export written into the build's folder by another command) are kept, hard-linked
  into the new output (copied where links are impossible), and named in a note; one
  that the new output would overwrite makes the run refuse, changing nothing;
- a nested output of another command (a folder with its own Warscribe
  ``manifest.json``, e.g. ``out/wahapedia-csv`` from ``warscribe export``) is kept
  whole, or, where the new output writes that very folder, replaced with a note;
- a part of the previous output that the new one lacks (``site/`` after
  ``build --no-site``) is removed with a note.

The new folder keeps the previous one's mode, or follows the umask when there was none.

Scratch folders are named ``.<out>.<new|old|serve>-<pid>-<random>`` beside the
output. One left behind by a run that was killed outright (SIGKILL, power loss; its
process no longer runs) is removed by the next run, or, when it may still hold the
previous output, put back; each is named in a note.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path


class OutputError(Exception):
    """An output that may not or cannot be written; the message says which and why."""


def _read_json(path: Path, limit: int = 64 << 20):
    """The JSON in `path` if it is a file (not a link) of at most `limit` bytes that parses; else None."""
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > limit:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_manifest(folder: Path) -> dict | None:
    """The manifest.json Warscribe wrote in `folder` (what a build holds), or None."""
    data = _read_json(folder / "manifest.json")
    if isinstance(data, dict) and str(data.get("generator", "")).startswith("warscribe"):
        return data
    return None


def _manifest_of(folder: Path) -> dict | None:
    """The Warscribe manifest.json of `folder` ({} for a bare bundle folder), None when not ours.

    A build's manifest names Warscribe as ``generator``; an export's under ``warscribe``.
    """
    data = _read_json(folder / "manifest.json")
    if isinstance(data, dict) and any(isinstance(data.get(k), str) for k in ("generator", "warscribe")):
        if str(data.get("generator", "warscribe")).startswith("warscribe"):
            return data
    bundle = _read_json(folder / "warscribe.json")
    try:
        generator = bundle["meta"]["generator"]
    except (KeyError, TypeError):
        return None
    return {} if isinstance(generator, str) and generator.startswith("warscribe") else None


def is_warscribe_output(folder: Path) -> bool:
    """A folder Warscribe wrote: its manifest.json (or bundle) names Warscribe as generator."""
    return _manifest_of(folder) is not None


def check_replaceable(out: Path) -> None:
    """OutputError unless `out` is absent, an empty folder, or a Warscribe output."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutputError(f"{out} exists and is not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()) and not is_warscribe_output(out):
        raise OutputError(f"{out} is not empty and is not a Warscribe output (no manifest.json of ours); "
                          "nothing was written there. Choose an empty or new folder with --out")


# -- scratch folders ---------------------------------------------------------------------

_SCRATCH = re.compile(r"^\.(?P<name>.+)\.(?P<kind>new|old|serve)-(?P<pid>\d+)-[0-9a-f]{8}$")
_LEGACY = re.compile(r"^\.(?P<name>.+)\.(?P<kind>new|old)-[a-z0-9_]{8}$")  # tempfile.mkdtemp's, before pids


def _folder_mode(out: Path) -> int:
    """The previous output's mode, or what the umask gives a new folder."""
    with contextlib.suppress(OSError):
        if out.is_dir() and not out.is_symlink():
            return stat.S_IMODE(out.stat().st_mode)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o777 & ~umask


def scratch_folder(out: Path, kind: str) -> Path:
    """A new, empty scratch folder beside `out`, named so that a later run can tell whether it is stale."""
    out.parent.mkdir(parents=True, exist_ok=True)
    mode = _folder_mode(out)
    while True:
        path = out.parent / f".{out.name}.{kind}-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            continue
        os.chmod(path, mode)
        return path


@contextlib.contextmanager
def scratch(out: Path, kind: str) -> Iterator[Path]:
    """A scratch folder beside `out` for the block, removed on every way out of it."""
    path = scratch_folder(out, kind)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: leave its folder alone
    return True


def _size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def clean_stale(out: Path) -> list[str]:
    """Remove (or report) scratch folders of `out` left by runs that no longer run; one note each."""
    notes: list[str] = []
    try:
        entries = sorted(out.parent.iterdir())
    except OSError:
        return notes
    for path in entries:
        m = _SCRATCH.match(path.name)
        if m is None or m["name"] != out.name or not path.is_dir() or path.is_symlink():
            legacy = _LEGACY.match(path.name)
            if legacy and legacy["name"] == out.name and path.is_dir():
                notes.append(f"{path} looks like a staging folder of an interrupted run (of an earlier "
                             "Warscribe); it was left alone: remove it if no build is running")
            continue
        if _running(int(m["pid"])):
            if int(m["pid"]) != os.getpid():
                notes.append(f"{path}: in use by running process {m['pid']} (another build?); left alone")
            continue
        size = _size(path)
        if m["kind"] == "old" and not out.exists():
            # Killed between setting the previous output aside and moving the new one in.
            os.replace(path, out)
            notes.append(f"restored the previous output {out}/ from {path.name}, left by an interrupted run")
            continue
        if m["kind"] == "old" and out.is_dir():
            # Set aside once the new output was in place: what it holds that Warscribe did not
            # write was linked into the new one first; bring back any that is not there.
            back = [rel for rel in _classify(path)[2] if not os.path.lexists(out / rel.rstrip("/"))]
            _bring(back, path, out)
            if back:
                notes.append(f"moved {len(back)} entries Warscribe did not write back into {out}/ from {path.name}")
        shutil.rmtree(path, ignore_errors=True)
        what = {"new": "a staging folder", "old": "a previous output", "serve": "a server's scratch site"}[m["kind"]]
        notes.append(f"removed {what} left by an interrupted run (process {m['pid']}): {path.name}, {_megabytes(size)}")
    return notes


# -- what a previous output holds that the new one did not write -------------------------


def _listed(manifest: dict | None) -> set[str] | None:
    """The files a manifest lists (None: a manifest without a list, whose folder is all ours)."""
    if manifest is None:
        return None
    files = manifest.get("files")
    return set(files) if isinstance(files, dict) else None


def _walk(folder: Path) -> Iterator[tuple[str, bool]]:
    """(relative path, is a folder) of everything under `folder`, links not followed, parents first."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        rel_root = Path(root).relative_to(folder)
        for name in dirs:
            yield (rel_root / name).as_posix(), not os.path.islink(os.path.join(root, name))
        for name in sorted(files):
            yield (rel_root / name).as_posix(), False
        # os.walk does not descend into links to folders: they were yielded as entries above.


def _classify(folder: Path) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """Of a previous output: (its own files, nested outputs -> their files, foreign entries).

    Foreign entries are files (or links, or empty folders, marked by a trailing '/')
    that neither its manifest nor a nested output's manifest lists.
    """
    listed = _listed(_manifest_of(folder))
    if listed is None:  # a manifest without a list of files: everything in the folder is ours
        return [rel for rel, is_dir in _walk(folder) if not is_dir], {}, []
    parents = {p for rel in listed for p in _parents(rel)}
    own, foreign = [], []
    nested: dict[str, list[str]] = {}
    nested_listed: dict[str, set[str]] = {}
    for rel, is_dir in _walk(folder):
        owner = next((n for n in nested_listed if rel.startswith(n + "/")), None)
        if is_dir:
            sub = _manifest_of(folder / rel) if owner is None and rel + "/manifest.json" not in listed else None
            if sub is not None and _listed(sub) is not None:
                nested_listed[rel] = _listed(sub) | {"manifest.json"}
                nested[rel] = []
            elif rel not in parents and not any(os.scandir(folder / rel)):
                foreign.append(rel + "/")
        elif rel == "manifest.json" or rel in listed:
            own.append(rel)
        elif owner is not None and rel[len(owner) + 1:] in nested_listed[owner]:
            nested[owner].append(rel)
        else:
            foreign.append(rel)
    return own, nested, foreign


def _parents(rel: str) -> Iterator[str]:
    parts = rel.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        yield "/".join(parts[:i])


def _link_or_copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)


def _bring(entries: list[str], src: Path, dst: Path) -> None:
    """Entries of `src` (files, links, or empty folders ending in '/') into `dst` at the same places."""
    for rel in entries:
        if rel.endswith("/"):
            (dst / rel).mkdir(parents=True, exist_ok=True)
        else:
            _link_or_copy(src / rel, dst / rel)


def _carry_over(old: Path, stage: Path, what: str) -> list[str]:
    """Bring what `old` holds and the command did not write into `stage`; the notes saying so."""
    if not old.is_dir() or old.is_symlink():
        return []
    own, nested, foreign = _classify(old)
    notes = []
    written = {p.name for p in stage.iterdir()}  # before anything is carried over
    for folder, files in sorted(nested.items()):
        if (stage / folder).exists():
            notes.append(f"replaced {folder}/, an output of another Warscribe command, with this {what}'s")
            continue
        for rel in files:
            _link_or_copy(old / rel, stage / rel)
        notes.append(f"kept {folder}/ (written by another Warscribe command, not by this {what})")
    clash = [rel for rel in foreign if not rel.endswith("/") and os.path.lexists(stage / rel)]
    if clash:
        raise OutputError(f"{old}/{clash[0]} was not written by Warscribe (the previous output's manifest.json does "
                          f"not list it{f', nor {len(clash) - 1} more' if len(clash) > 1 else ''}), and this {what} "
                          f"writes a file of that name; nothing was replaced. Move it out of {old}/ and run again")
    _bring(foreign, old, stage)
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        notes.append(f"kept {len(foreign)} {'entry' if len(foreign) == 1 else 'entries'} Warscribe did not write: {shown}")
    gone = sorted({rel.split("/")[0] for rel in own if "/" in rel} - written)
    for top in gone:
        count = sum(1 for rel in own if rel.startswith(top + "/"))
        notes.append(f"removed {top}/ of the previous output ({count} files): this {what} does not write it")
    return notes


# -- staging -----------------------------------------------------------------------------


@contextlib.contextmanager
def staged(out: Path, notes: list[str] | None = None, what: str = "run") -> Iterator[Path]:
    """A fresh folder to write `out` into; moved into place when the block completes.

    On an exception the staging folder is removed and `out` is left untouched. `notes`
    receives one line for each stale scratch folder removed and each thing kept,
    replaced or removed that the command did not write (`what` names the command).
    """
    notes = notes if notes is not None else []
    check_replaceable(out)
    notes += clean_stale(out)
    stage = scratch_folder(out, "new")
    try:
        yield stage
        if not (stage / "manifest.json").exists():
            _write_manifest(stage)
        check_replaceable(out)  # again: something may have been written there meanwhile
        notes += _carry_over(out, stage, what)
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
    old = scratch_folder(out, "old")
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


__all__ = ["OutputError", "check_replaceable", "clean_stale", "file_entries", "is_warscribe_output", "output_files",
           "read_manifest", "scratch", "scratch_folder", "staged", "write_text"]
