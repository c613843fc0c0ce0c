"""The Munitorum Field Manual (11th edition) as a source: points, requisition tiers, detachment
points, Force Dispositions, unique tags, enhancement points and attachments, per faction.

``source`` opens the manual (a folder or an archive of its YAML), ``model`` reads and checks
its entries, ``apply`` meets them with the records the datasheet sources made, ``price``
says what a unit costs by the manual's rules.
"""

from __future__ import annotations

from pathlib import Path

from warscribe.extract.fieldmanual.apply import Applied, apply
from warscribe.extract.fieldmanual.model import Manual, read_manual
from warscribe.extract.fieldmanual.price import price
from warscribe.extract.fieldmanual.source import open_manual
from warscribe.schema.diagnostics import Report


def load(path: Path, display: str, report: Report) -> Manual:
    """The manual at `path` (cited as `display`), every entry checked; what cannot be read is reported."""
    return read_manual(open_manual(Path(path), display, report), display, report)


__all__ = ["Applied", "Manual", "apply", "load", "price"]
