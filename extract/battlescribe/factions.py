"""Which faction a catalogue or a unit belongs to, by the knowledge base's names."""

from __future__ import annotations

from warscribe.extract.battlescribe.index import DataFile

# BattleScribe's faction names where the knowledge base (and the rules site) uses another.
FACTION_NAMES = {
    "Agents of the Imperium": "Imperial Agents", "Adeptus Astartes": "Space Marines",
    "Heretic Astartes": "Chaos Space Marines", "Asuryani": "Aeldari", "Legiones Daemonica": "Chaos Daemons",
}


def _specificity(faction: str, title: str) -> tuple[bool, bool]:
    """'Black Templars' before 'Adeptus Astartes' in 'Imperium - Adeptus Astartes - Black Templars'."""
    return title.rsplit(" - ", 1)[-1].strip() == faction, faction in title


def catalogue_faction(data: DataFile) -> str:
    """The faction most of a catalogue's entries name, the one its title ends with first."""
    counts: dict[str, int] = {}
    for key in ("sharedSelectionEntries", "selectionEntries"):
        for entry in data.root.get(key) or []:
            for link in (entry.get("categoryLinks") or []) if isinstance(entry, dict) else []:
                name = str(link.get("name", ""))
                if name.startswith("Faction: "):
                    counts[name[9:]] = counts.get(name[9:], 0) + 1
    if counts:
        best = max(sorted(counts), key=lambda n: (_specificity(n, data.title), counts[n]))
        return FACTION_NAMES.get(best, best)
    return data.title.split(" - ")[-1].strip()


def entry_faction(data: DataFile, entry: dict) -> str:
    """The unit's `Faction: X` category that names its catalogue; without one, the catalogue's."""
    factions = [str(c.get("name"))[9:] for c in entry.get("categoryLinks") or []
                if isinstance(c, dict) and str(c.get("name", "")).startswith("Faction: ")]
    if not factions:
        factions = [catalogue_faction(data)]
    bs_faction = max(factions, key=lambda n: _specificity(n, data.title))
    return FACTION_NAMES.get(bs_faction, bs_faction)
