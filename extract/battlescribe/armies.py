"""Armies and the datasheets they offer: which units a catalogue's army lists hold, and whose they are.

A catalogue that is not a library is an army (its faction's). Its army lists offer its
root entries and root links, and the root entries of the catalogues it imports
(``importRootEntries``). A unit is a datasheet of every army that offers it by a root
link or entry of its own (Genestealer Cults' Brood Brothers link Astra Militarum's Leman
Russ; five Chaos catalogues link the same Heresy Legends Deredeo): each such link makes
the datasheet of that army's faction, with the categories the link adds. A unit an army
only imports is that army's too when it carries the army's own faction keyword (the
Daemons library's units, LEGIONES DAEMONICA, in Chaos Daemons); otherwise it is an ally or the parent
faction's unit (an Inquisitor in a Space Marines army, a Space Marines unit in a Blood
Angels army) and stays the datasheet of the army that offers it itself. A unit no army
offers (a library nobody imports) is read under the file that lists it, so nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from warscribe.extract.battlescribe.conditions import Army
from warscribe.extract.battlescribe.factions import FACTION_NAMES, catalogue_faction
from warscribe.extract.battlescribe.index import DataFile, Index


@dataclass(frozen=True)
class Offer:
    """One datasheet to read: a unit as one army's lists offer it."""

    army: DataFile  # the catalogue whose faction the datasheet is
    item: dict  # the root link (or root entry) that offers it
    item_file: DataFile
    target: dict  # the unit's entry
    target_file: DataFile
    faction: str  # the knowledge base's name of the army's faction
    context: Army

    @property
    def link(self) -> dict | None:
        return self.item if self.item is not self.target else None


def roots(data: DataFile) -> list[dict]:
    """A file's root entries and root links, as its army lists offer them."""
    return [e for key in ("entryLinks", "selectionEntries") for e in data.root.get(key) or [] if isinstance(e, dict)]


def default_force(index: Index, ruleset: str) -> str:
    """The game system's first force entry: the standard army roster."""
    for system in index.systems:
        if system.ruleset == ruleset:
            for force in system.root.get("forceEntries") or []:
                if isinstance(force, dict):
                    return str(force.get("id", ""))
    return ""


def _faction_categories(*objs: dict) -> list[str]:
    return [str(c.get("name"))[9:] for o in objs for c in o.get("categoryLinks") or []
            if isinstance(c, dict) and str(c.get("name", "")).startswith("Faction: ")]


class Armies:
    """Every army of the data read and the offers of each, in file order; then the units no army offers."""

    def __init__(self, index: Index):
        self.index = index
        self.offers: list[Offer] = []
        # faction -> the factions whose units its armies field as their own kind (a chapter's
        # Space Marines): those its own units carry the faction keyword of, among what it imports.
        self.parents: dict[str, set[str]] = {}
        # army -> (its root links to nowhere, the catalogues it links or imports that were not read)
        self.lost: dict[str, tuple[int, list[str]]] = {}
        offered: set[str] = set()
        for army in index.files:
            if army.kind != "catalogue" or army.library:
                continue
            context = Army(army.id, default_force(index, army.ruleset))
            faction = catalogue_faction(army)
            own = [(item, army) for item in roots(army)]
            resolved = [(item, f, self._target(f, item)) for item, f in own]
            carried = {FACTION_NAMES.get(n, n) for _i, _f, t in resolved if t is not None
                       for n in _faction_categories(t[0], _i)}
            self.parents.setdefault(faction, set()).update(
                catalogue_faction(d) for d in map(index.by_id.get, army.imports())
                if d is not None and catalogue_faction(d) != faction and catalogue_faction(d) in carried)
            missing = [str(c.get("name", c.get("targetId"))) for c in army.root.get("catalogueLinks") or []
                       if isinstance(c, dict) and str(c.get("targetId")) not in index.by_id]
            nowhere = sum(1 for item, _f, target in resolved if target is None and item.get("type") == "selectionEntry")
            if missing or nowhere:
                self.lost[army.id] = (nowhere, missing)
            for item, f, target in resolved + [(i, f, self._target(f, i)) for i, f in self._imported(army)]:
                if target is None or target[0].get("type") not in ("unit", "model"):
                    continue
                if f is not army and faction not in {FACTION_NAMES.get(n, n) for n in _faction_categories(target[0], item)}:
                    continue  # an ally, or the unit of the faction whose catalogue it is
                self.offers.append(Offer(army, item, f, target[0], target[1], faction, context))
                offered.add(str(target[0].get("id")))
        for data in index.files:  # what no army offers: read under its own file
            for item in roots(data):
                target = self._target(data, item)
                if target is None or target[0].get("type") not in ("unit", "model"):
                    continue
                if str(target[0].get("id")) in offered:
                    continue
                offered.add(str(target[0].get("id")))
                context = Army(data.id, default_force(index, data.ruleset))
                self.offers.append(Offer(data, item, data, target[0], target[1], "", context))

    def _target(self, data: DataFile, item: dict) -> tuple[dict, DataFile] | None:
        if "targetId" not in item:
            return item, data
        found = self.index.resolve(data, item, ("selectionEntry",))
        return (found.obj, found.file) if found else None

    def _imported(self, army: DataFile) -> list[tuple[dict, DataFile]]:
        """Root items of the catalogues `army` imports, transitively, nearest first."""
        out, seen, queue = [], {army.id}, list(army.imports())
        while queue:
            key = queue.pop(0)
            data = self.index.by_id.get(key)
            if data is None or key in seen:
                continue
            seen.add(key)
            out += [(item, data) for item in roots(data)]
            queue += data.imports()
        return out


__all__ = ["Armies", "FACTION_NAMES", "Offer", "roots"]
