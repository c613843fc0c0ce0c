"""BattleScribe data (the BSData repositories) as a source: game system and catalogues.

Both forms are read: the XML one (``.gst`` / ``.cat``) and the JSON one (``.json``, the
same elements as objects). ``files`` opens a folder, chosen files or an archive;
``tree`` parses either form into one shape; ``index`` resolves links across the game
system and catalogues; ``reader`` turns entries into records, one module per kind of
record (``rules``, ``datasheets``, ``detachments``, ``keywords``); ``merge`` meets them
with the records of other sources.
"""

from __future__ import annotations

from pathlib import Path

from warscribe.schema.diagnostics import Report
from warscribe.extract.battlescribe.files import open_source
from warscribe.extract.battlescribe.index import DataFile, Index
from warscribe.extract.battlescribe.merge import add_records
from warscribe.extract.battlescribe.tree import DataError, parse
from warscribe.extract.battlescribe.reader import Reader
from warscribe.extract.sources_merge import ranker


def cited_name(name: str) -> str:
    """A source outside the project is cited by its file name, not by a climb out of it."""
    return Path(name).name if name.startswith("../") or Path(name).is_absolute() else name


def load(path: Path, name: str, ruleset: str, rank: int, chosen: list[str] | None, report: Report) -> list[DataFile]:
    """Parse every data file of one manifest source; a bad file is reported and skipped."""
    out = []
    for member in open_source(path, cited_name(name), chosen, report):
        try:
            root = parse(member.name, member.data)
        except DataError as exc:
            report.error(member.name, exc.line, "bad-battlescribe", f"{exc}; file skipped",
                         expected=exc.expected, found=exc.found, column=exc.column)
            continue
        out.append(DataFile(member.name, root, ruleset, rank))
    return out


def read(files: list[DataFile], report: Report) -> tuple[list[tuple[dict, list[dict]]], Index]:
    """Records with their provenance entries, from the files of every BattleScribe source of a build."""
    index = Index(files, report)
    return Reader(index, report).read(), index


def add_to_store(store, files: list[DataFile], sources, report: Report) -> None:
    """Read every BattleScribe file of the build and merge the records into `store`."""
    rank_of = ranker({cited_name(s.name): i for i, s in enumerate(sources)})
    items, _index = read(files, report)
    add_records(store, items, rank_of, report)
