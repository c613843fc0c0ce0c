"""The reading's order: the game system's rules, each catalogue's faction rules, then every
datasheet each army offers (:mod:`.armies`), the detachments with their enhancements, and
across all data who leads whom and the keywords; last, the findings the data repeats,
grouped.

One module per kind of record: :mod:`.rules`, :mod:`.datasheets` (with :mod:`.walk`,
:mod:`.composition`, :mod:`.abilities`, :mod:`.weapons`, :mod:`.options`),
:mod:`.detachments` (and enhancements), :mod:`.keywords`; they share the records made so
far through :class:`.output.Output`.
"""

from __future__ import annotations

from warscribe.extract.battlescribe.armies import Armies
from warscribe.extract.battlescribe.datasheets import datasheet, led_by
from warscribe.extract.battlescribe.detachments import detachments
from warscribe.extract.battlescribe.factions import catalogue_faction
from warscribe.extract.battlescribe.index import Index
from warscribe.extract.battlescribe.keywords import keywords
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.rules import shared_rules
from warscribe.schema.diagnostics import Report


class Reader:
    """Records of all files of one build's BattleScribe data."""

    def __init__(self, index: Index, report: Report):
        self.index = index
        self.output = Output(index, report)

    def read(self) -> list[tuple[dict, list[dict]]]:
        """Every record with its provenance entries, in the order made."""
        out = self.output
        self.index.missing_catalogues()
        for data in self.index.files:
            if data.kind == "gameSystem":
                shared_rules(out, data, None)
        for data in self.index.files:
            if data.kind == "catalogue":
                shared_rules(out, data, catalogue_faction(data))
        armies = Armies(self.index)
        for offer in armies.offers:
            datasheet(out, offer)
        detachments(out, armies)
        led_by(out)
        keywords(out)
        out.flush()
        return out.records
