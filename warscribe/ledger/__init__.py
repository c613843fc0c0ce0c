"""The change ledger: what changed between two releases of the rules, as players and tool authors ask it.

`warscribe diff OLD NEW` compares two builds record by record (:mod:`warscribe.ledger.diff`,
the noise rules of :mod:`warscribe.ledger.noise` applied); the ledger places every change that
is left: per faction and unit, points per unit size first, then characteristics and
weapon profiles, abilities and rules whose text changed (word diff), units and
enhancements added or removed, detachments, and the rest. Each change cites both
sources (file, line, catalogue entry). Changed weapons and changed defences come with
their engine impact. It is rendered as text, Markdown and JSON (``schema/ledger.schema.json``)
and as the site's "What changed" page (``warscribe build --since OLD``).
"""

from __future__ import annotations

from warscribe.ledger.model import SECTIONS, Cite, Defence, Item, Ledger, Side


def make(old, new, diff, sides, engine: bool = True) -> Ledger:
    """The ledger of `diff` (``warscribe.ledger.diff.compare(old, new)``); see :mod:`warscribe.ledger.compose`."""
    from warscribe.ledger.compose import compose

    return compose(old, new, diff, sides, engine)


def previous(spec: str, ruleset: str | None = None):
    """(bundle, side) of what a build is compared with (``warscribe build --since SPEC``): any side of ``warscribe diff``.

    Read whole into memory, so that ``--since out`` (the build this one replaces) can be given.
    Raises ``warscribe.ledger.sides.DiffError``.
    """
    import tempfile
    from pathlib import Path

    from warscribe.ledger.sides import load_side

    with tempfile.TemporaryDirectory(prefix="warscribe-since-") as tmp:
        return load_side(spec, Path("."), Path(tmp), ruleset)


def since(old, old_side: Side, new, label: str = "this build") -> Ledger:
    """The ledger from a previous build (`previous`) to the records of this one.

    Across editions (a 10th-edition build before an 11th's) the ledger holds the migration
    (:mod:`warscribe.ledger.migration`) instead of record changes."""
    from warscribe.ledger.diff import compare
    from warscribe.ledger.sides import build_sources

    new_side = Side.of_sources(label, label, "build", build_sources(new))
    crossed = across_editions(old, new, (old_side, new_side))
    if crossed is not None:
        return crossed
    return make(old, new, compare(old, new), (old_side, new_side))


def across_editions(old, new, sides: tuple[Side, Side]) -> Ledger | None:
    """The migration ledger when the two builds are of different editions (their datasheets' ruleset), else None."""
    from warscribe.ledger.migration import edition, migrate

    editions = (edition(old), edition(new))
    if None in editions or editions[0] == editions[1]:
        return None
    book = Ledger(sides[0], sides[1], caveats=[f"the builds are of two editions ({editions[0]} and {editions[1]}): "
                                               "units are matched across them and compared as a player re-checks "
                                               "them (the edition migration), not record by record"])
    book.migration = migrate(old, new, sides)
    return book


__all__ = ["SECTIONS", "Cite", "Defence", "Item", "Ledger", "Side", "across_editions", "make", "previous", "since"]
