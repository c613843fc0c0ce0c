"""The reading's order: the game system's rules, then per catalogue its faction's rules,
datasheets and detachments, then across all data who leads whom and the keywords.

One module per kind of record: :mod:`.rules`, :mod:`.datasheets` (with :mod:`.walk`,
:mod:`.composition`, :mod:`.abilities`, :mod:`.weapons`), :mod:`.detachments`
(and enhancements), :mod:`.keywords`; they share the records made so far through
:class:`.output.Output`.
"""

from __future__ import annotations

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
        # Entries an army list offers: the root entries and root links of every file.
        self.offered = {str(e.get(key)) for f in index.files for group, key in (("entryLinks", "targetId"), ("selectionEntries", "id"))
                        for e in f.root.get(group) or [] if isinstance(e, dict)}

    def read(self) -> list[tuple[dict, dict]]:
        """Every record with its provenance, in the order made."""
        out = self.output
        self.index.missing_catalogues()
        for data in self.index.files:
            if data.kind == "gameSystem":
                shared_rules(out, data, None)
        for data in self.index.files:
            if data.kind != "catalogue":
                continue
            faction = catalogue_faction(data)
            shared_rules(out, data, faction)
            for key in ("sharedSelectionEntries", "selectionEntries"):
                for entry in data.root.get(key) or []:
                    if not isinstance(entry, dict) or entry.get("type") not in ("unit", "model"):
                        continue
                    # A shared model no army list offers is a model of other units (a squad's sergeant).
                    if entry["type"] == "model" and key == "sharedSelectionEntries" and str(entry.get("id")) not in self.offered:
                        continue
                    datasheet(out, data, entry)
            detachments(out, data, faction)
        led_by(out)
        keywords(out)
        return out.records
