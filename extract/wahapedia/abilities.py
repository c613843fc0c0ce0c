"""Core and faction abilities (Abilities.csv) as ability records."""

from __future__ import annotations

from warscribe.extract.wahapedia.common import Rows, Sighting, text, without_banner
from warscribe.schema import ids, records
from warscribe.schema.text import clean_name


class AbilityRows(Rows):
    """Abilities.csv: a row without a faction is a core ability, one with a faction that faction's.

    A row without a description only names the ability for the datasheets that refer to it.
    One ability shared by several factions (Oath of Moment, Synapse) is a row a faction with
    one Wahapedia id; each becomes its faction's record, as datasheets refer to them
    (``DatasheetRows.datasheet_abilities``).
    """

    def ability_records(self) -> list[Sighting]:
        out = []
        for r in self.rows("Abilities.csv"):
            name = clean_name(text(r["name"]))
            body = without_banner(text(r["description"]), name, text(r["legend"]))
            if not name:
                r.error(self.report, "bad-ability", "name", "ability without a name; skipped", expected="a name")
                continue
            if not body:
                continue  # a row that only names an ability (as `warscribe export` writes them): used by the datasheets
            if r["faction_id"]:
                faction = self.faction(r)
                if faction is None:
                    continue  # reported by faction()
                kind, rid = "faction", ids.faction_ability(faction, name)
            else:
                kind, rid = "core", ids.core_ability(self.ruleset, name)
            record = records.ability(id=rid, name=name, ruleset=self.ruleset, type=kind, text=body,
                                     flavour=text(r["legend"]) or records.OMIT,
                                     mentions=self.mentions(r, "description", body))
            out.append(Sighting(record, [r]))
        return out
