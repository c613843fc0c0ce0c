"""`warscribe init [DIR]`: a sources folder to start from, in an empty folder.

Installed from a wheel, Warscribe has no sources beside it: ``init`` writes
``DIR/sources/`` with the manifest (its header says what each field means) and the
four sample documents the project is built and tested on (or, with ``--empty``, a
manifest with no sources yet), so that ``warscribe build`` works at once. It never
overwrites: a ``sources/`` folder that exists and is not empty is refused.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from warscribe.paths import samples
from warscribe.schema import safeyaml
from warscribe.schema.diagnostics import printable

SAMPLE_FILES = ("manifest.yaml", "annotations.yaml")  # besides the sources the manifest lists


def _header(manifest: str) -> str:
    """The manifest's comment header (what every field means)."""
    lines = []
    for line in manifest.splitlines(keepends=True):
        if not line.startswith("#"):
            break
        lines.append(line)
    return "".join(lines)


def run_init(folder: Path, empty: bool = False) -> int:
    target = folder / "sources"
    shown = printable(str(target))
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        print(f"warscribe init: {shown} exists and is not a folder; nothing written", file=sys.stderr)
        return 2
    if target.is_dir() and any(target.iterdir()):
        print(f"warscribe init: {shown}/ exists and is not empty; nothing written (to start again, "
              f"move it away; to build it: warscribe build --sources {shown})", file=sys.stderr)
        return 2
    origin = samples()
    manifest_text = (origin / "manifest.yaml").read_text(encoding="utf-8")
    if empty:
        files = {"manifest.yaml": (_header(manifest_text) + "sources: []\n").encode("utf-8")}
    else:
        listed = [e["file"] for e in safeyaml.load_file(origin / "manifest.yaml")["sources"]]
        files = {name: (origin / name).read_bytes() for name in (*SAMPLE_FILES, *listed) if (origin / name).is_file()}
    staging = folder / ".sources.init"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir(parents=True)
        for name, data in files.items():
            (staging / name).write_bytes(data)  # byte for byte: the manifest's checksums hold
        if target.is_dir():
            target.rmdir()  # empty (checked above)
        staging.rename(target)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        print(f"warscribe init: cannot write {shown}/: {exc.strerror or exc}", file=sys.stderr)
        return 1
    sources = len(files) - (1 if empty else len([n for n in SAMPLE_FILES if n in files]))
    where = "" if folder.resolve() == Path.cwd().resolve() else f"cd {printable(str(folder))} && "
    if empty:
        print(f"Created {shown}/manifest.yaml with no sources yet: put your documents in {shown}/, list each in the "
              "manifest (its header says how), then record their checksums with `warscribe manifest --update`.")
    else:
        print(f"Created {shown}/ with manifest.yaml and {sources} sample sources (two datasheet pages, two "
              "rules extracts; 10th and 11th edition).")
    print(f"Next: {where}warscribe build    (the knowledge base into out/, the reference site into out/site/)\n"
          f"      {where}warscribe serve    (the site on http://127.0.0.1:8000/ while you edit)")
    return 0
