"""The Warhammer 40,000 app's data (Game Datacards' JSON form) as a source: the whole live game.

A source of kind ``app-json`` is a folder (or a .tar.xz/.zip archive of one) holding one
JSON file per faction (datasheets, the army rules, detachments, stratagems, enhancements),
``combatpatrol/`` (Combat Patrol's forces, a game mode of its own), ``core/`` (the core
rules with their numbers, Chapter Approved, Combat Patrol's rules), ``faqs.json`` and
``keywords.json`` (the weapon abilities' rules). ``missions/`` holds mission cards, which
are no record of ours: each is counted and classified as ignorable in the report.

:func:`load` opens the source (bounded, as every archive: ``battlescribe.files``) and
parses each file, giving every object with an id the line its id is written on;
:func:`read` turns the files into records, each with its provenance entries, one module
per kind of file: :mod:`.datasheets` (units, weapons, their abilities and keywords),
:mod:`.armies` (army rules, detachments, stratagems, enhancements, and Combat Patrol's
forces), :mod:`.core` (core rules, the weapon abilities' rules, FAQ entries). Texts pass
through :mod:`.markup`. The records then meet the other sources' as BattleScribe's do
(``battlescribe.merge.add_records``).
"""

from __future__ import annotations

from warscribe.extract.app import armies, core, datasheets
from warscribe.extract.app.source import AppFile, load, role_of
from warscribe.schema.diagnostics import Report

__all__ = ["AppFile", "load", "read", "role_of"]


def read(files: list[AppFile], report: Report) -> list[tuple[dict, list[dict]]]:
    """Records, each with its provenance entries (the first entry the record's own place), in a stable order."""
    items: list[tuple[dict, list[dict]]] = []
    for file in files:
        if file.role in ("faction", "combat-patrol"):
            mode = "combat-patrol" if file.role == "combat-patrol" else None
            items += _guarded(file.name, report, lambda: datasheets.read_faction(file, report, game_mode=mode)
                              + armies.read_faction(file, report, game_mode=mode))
    # Each faction file gives the keywords its datasheets carry; one record per keyword.
    items = datasheets.merge_keywords(items)
    items += _guarded(", ".join(f.name for f in files if f.role not in ("faction", "combat-patrol", "mission")),
                      report, lambda: core.read(files, report))
    return items


def _guarded(where: str, report: Report, read) -> list[tuple[dict, list[dict]]]:
    """`read()`, or nothing and one located error if the data has a shape the readers do not expect.

    The readers check every value they use and report what they cannot read; this is the net
    under them, so that data shaped in a way nobody foresaw costs its own file, never the
    build (a value of another type deep inside a hand-edited or damaged file)."""
    try:
        return read()
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        report.error(where or "(the app's data)", 1, "bad-app-data",
                     f"a value has a shape the reader does not expect ({type(exc).__name__}: {exc}); "
                     "the file's records are left out", expected="the app's JSON as Game Datacards writes it",
                     found=str(exc)[:200])
        return []
