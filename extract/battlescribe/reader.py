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
from warscribe.extract.battlescribe.detachments import army_choices, detachments
from warscribe.extract.battlescribe.factions import catalogue_faction
from warscribe.extract.battlescribe.index import DataFile, Index
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
        out.army_choices = army_choices(out)
        for offer in armies.offers:
            datasheet(out, offer)
        detachments(out, armies)
        led_by(out)
        keywords(out)
        self._losses(armies)
        self.index.report_unresolved()
        out.flush()
        return out.records

    def _losses(self, armies: Armies) -> None:
        """What catalogues missing from the data cost each army: its datasheets left, or none."""
        made: dict[str, int] = {}
        for record, _p in self.output.records:
            if record["kind"] == "datasheet":
                made[record["faction"]] = made.get(record["faction"], 0) + 1
        by_missing: dict[str, tuple[DataFile, dict, list[str], list[str]]] = {}  # name -> (file, link, none, some)
        for data in self.index.files:
            if data.id not in armies.lost:
                continue
            faction = catalogue_faction(data)
            for c in data.root.get("catalogueLinks") or []:
                name = str(c.get("name", c.get("targetId"))) if isinstance(c, dict) else ""
                if name in armies.lost[data.id][1]:
                    entry = by_missing.setdefault(name, (data, c, [], []))
                    (entry[2] if not made.get(faction) else entry[3]).append(faction)
        for name, (data, link, none, some) in by_missing.items():
            own = [] if "library" in name.lower() else [name.rsplit(" - ", 1)[-1].strip()]
            self.output.report.warning(
                data.name, int(link.get("$line", 1)), "missing-catalogue",
                f"catalogue {name!r} is not in the data read: factions with no datasheets because of it: "
                f"{', '.join(own + none) or 'none'}; factions that lost units it holds: {', '.join(some) or 'none'}",
                expected=f"{name} in the data", found="nothing")
        for data in self.index.files:
            if data.id not in armies.lost:
                continue
            nowhere, missing = armies.lost[data.id]
            faction = catalogue_faction(data)
            count = made.get(faction, 0)
            have = f"has no datasheets" if not count else f"has {count} datasheets"
            parts = []
            if nowhere:
                parts.append(f"{nowhere} of its unit links point at ids defined in none of the data read")
            if missing:
                parts.append("it links to " + ", ".join(repr(m) for m in missing) + ", not in the data read "
                             "(their units and rules are missing)")
            link = next((c for c in data.root.get("catalogueLinks") or []
                         if isinstance(c, dict) and str(c.get("name", c.get("targetId"))) in missing), data.root)
            self.output.report.warning(data.name, int(link.get("$line", 1)), "missing-catalogue",
                                       f"the {faction} army ({data.title}) {have}: {'; '.join(parts)}",
                                       expected="every catalogue the army links to",
                                       found=f"{count} datasheets; missing: {', '.join(missing) or 'none'}")
