"""`warscribe manifest [--update]`: which sources differ from their recorded checksums, and recording them.

The maintainer's loop is: edit a source, build. The build refuses a source whose
sha256 is not the manifest's (a file changed by accident must not change the
knowledge base silently), so an intended edit is recorded here: ``--update``
rewrites the ``sha256:`` line of each changed entry in place (comments, order and
layout of the manifest stay as they were) and names every file it changed.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from warscribe.extract.manifest import Unconfined, confine, source_sha256
from warscribe.outputs import write_text
from warscribe.schema import safeyaml
from warscribe.schema.diagnostics import plural, printable

_ENTRY_START = re.compile(r"^\s*-\s")
# A sha256 line; its value may be a placeholder ('new', '') in an entry just added.
_SHA_LINE = re.compile(r"^(?P<lead>\s*(?:-\s+)?sha256:[ \t]*)(?P<q>['\"]?)(?P<sha>[^'\"#\s]*)(?P=q)(?P<tail>\s*(?:#.*)?)$")


@dataclass
class Entry:
    index: int
    file: str
    recorded: str
    actual: str | None  # None: missing or not readable
    problem: str = ""


def _entries(manifest: Path, roots: tuple[Path, ...]) -> list[Entry]:
    data = safeyaml.load_file(manifest)
    sources = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(sources, list):
        raise ValueError("it has no 'sources' list")
    entries = []
    for i, e in enumerate(sources):
        if not isinstance(e, dict) or not isinstance(e.get("file"), str):
            entries.append(Entry(i, f"sources[{i}]", "", None, "an entry without a 'file'"))
            continue
        recorded = "" if e.get("sha256") is None else str(e.get("sha256"))
        try:
            path = confine(manifest.parent, e["file"], roots)
        except Unconfined as exc:
            entries.append(Entry(i, e["file"], recorded, None, str(exc)))
            continue
        if not path.exists():
            entries.append(Entry(i, e["file"], recorded, None, "does not exist"))
            continue
        try:
            entries.append(Entry(i, e["file"], recorded, source_sha256(path)))
        except OSError as exc:
            entries.append(Entry(i, e["file"], recorded, None, f"cannot be read: {exc.strerror or exc}"))
    return entries


def rewrite(text: str, changes: dict[int, tuple[str, str]]) -> str:
    """`text` of a manifest with the sha256 of entry i (old, new) replaced, everything else as it was.

    Entries are found in order: the i-th list item under ``sources:`` holds entry i's
    ``sha256:`` line. ValueError when a line cannot be found (the manifest is left alone).
    """
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    in_sources = False
    indent = None  # of the list's items: a nested list (a battlescribe entry's files) is deeper
    for no, line in enumerate(lines):
        if re.match(r"^sources:\s*(#.*)?$", line):
            in_sources = True
            continue
        if in_sources and line.strip() and not line.startswith((" ", "\t", "-", "#")):
            in_sources = False  # the next top-level key
        if in_sources and _ENTRY_START.match(line):
            here = len(line) - len(line.lstrip())
            indent = here if indent is None else indent
            if here == indent:
                starts.append(no)
    starts.append(len(lines))
    for index, (old, new) in changes.items():
        if index + 1 >= len(starts):
            raise ValueError(f"entry {index} is not written as a block list item")
        for no in range(starts[index], starts[index + 1]):
            m = _SHA_LINE.match(lines[no].rstrip("\r\n"))
            if m and m["sha"] == old:
                ending = lines[no][len(lines[no].rstrip("\r\n")):]
                lines[no] = f"{m['lead']}{m['q']}{new}{m['q']}{m['tail']}{ending}"
                break
        else:
            raise ValueError(f"entry {index}: no line 'sha256: {old}' in its block")
    return "".join(lines)


def run_manifest(manifest: Path, update: bool, roots: tuple[Path, ...] = (), verbose: bool = False) -> int:
    """List each changed or missing source (every source with `verbose`); with `update`, record the changes."""
    name = printable(str(manifest))
    try:
        entries = _entries(manifest, roots)
        text = manifest.read_text(encoding="utf-8")
    except (OSError, safeyaml.YamlError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else getattr(exc, "message", None) or str(exc)
        print(f"warscribe manifest: cannot read {name}: {why}", file=sys.stderr)
        return 2
    changed = {e.index: (e.recorded, e.actual) for e in entries if e.actual and e.actual != e.recorded}
    for e in entries:
        shown = printable(e.file, 200)
        if e.actual is None:
            print(f"  missing  {shown}: {e.problem}")
        elif e.index in changed:
            print(f"  {'updated' if update else 'changed'}  {shown}: {e.recorded[:12] or '(none)'}… -> {e.actual[:12]}…")
        elif verbose:
            print(f"  same     {shown}")
    problems = [e for e in entries if e.actual is None]
    if update and changed:
        try:
            write_text(manifest, rewrite(text, changed))
        except ValueError as exc:
            print(f"warscribe manifest: {name} not changed: {exc}; edit its sha256 lines by hand", file=sys.stderr)
            return 2
    summary = (f"{name}: {plural(len(entries), 'source')}; "
               + (f"{plural(len(changed), 'checksum')} recorded" if update
                  else f"{len(changed)} changed since {'its checksum was' if len(changed) == 1 else 'their checksums were'} recorded")
               + (f"; {len(problems)} missing or unreadable" if problems else ""))
    print(summary)
    if changed and not update:
        print("Run `warscribe manifest --update` to record the new checksums, if the changes are intended.")
    return 1 if problems or (changed and not update) else 0
