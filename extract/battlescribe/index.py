"""Definitions by id across a game system and its catalogues, and link resolution.

BattleScribe entries point at each other (``entryLink``, ``infoLink``,
``categoryLink``) by id, across files: a faction catalogue links to a library
catalogue's units, a unit links to the game system's core rules. A link is looked up
in its own file, then in the catalogues that file links to (transitively), then in the
game system, then anywhere; a target found nowhere is reported once per link.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from warscribe.schema.diagnostics import Report

# Under which list a definition sits says what it is.
DEFINITION_LISTS = {
    "sharedSelectionEntries": "selectionEntry", "selectionEntries": "selectionEntry",
    "sharedSelectionEntryGroups": "selectionEntryGroup", "selectionEntryGroups": "selectionEntryGroup",
    "sharedProfiles": "profile", "profiles": "profile",
    "sharedRules": "rule", "rules": "rule",
    "sharedInfoGroups": "infoGroup", "infoGroups": "infoGroup",
    "categoryEntries": "categoryEntry", "profileTypes": "profileType", "costTypes": "costType",
}


@dataclass
class DataFile:
    """One parsed .gst/.cat/.json file."""

    name: str  # as cited: '<source>/<file>'
    root: dict
    ruleset: str
    rank: int  # the manifest's order of its source
    defs: dict[str, tuple[str, dict]] = field(default_factory=dict)  # id -> (what, object)

    @property
    def kind(self) -> str:
        return self.root["$kind"]

    @property
    def id(self) -> str:
        return str(self.root.get("id", ""))

    @property
    def title(self) -> str:
        return str(self.root.get("name", self.name))

    @property
    def library(self) -> bool:
        """A library is read only through the catalogues that link to it (no army is made of it alone)."""
        value = self.root.get("library")
        return value is True or str(value).lower() == "true"

    def links(self) -> list[str]:
        return [str(c.get("targetId")) for c in self.root.get("catalogueLinks") or [] if isinstance(c, dict)]

    def imports(self) -> list[str]:
        """The catalogues whose root entries this one's army lists offer too (importRootEntries)."""
        return [str(c.get("targetId")) for c in self.root.get("catalogueLinks") or []
                if isinstance(c, dict) and str(c.get("importRootEntries")).lower() == "true"]


@dataclass(frozen=True)
class Target:
    what: str  # selectionEntry, selectionEntryGroup, profile, rule, infoGroup, categoryEntry
    obj: dict
    file: DataFile


# Lists that never hold definitions: not walked when indexing (most of a catalogue's bulk).
_NO_DEFINITIONS = {"modifiers", "modifierGroups", "conditions", "conditionGroups", "localConditionGroups",
                   "constraints", "costs", "characteristics", "categoryLinks", "repeats", "infoLinks", "catalogueLinks"}


def register(data: DataFile) -> None:
    """Index every definition of a file by id (iteratively: nesting is bounded but deep)."""
    stack: list = [data.root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in _NO_DEFINITIONS:
                    continue
                if isinstance(value, list):
                    what = DEFINITION_LISTS.get(key)
                    if what:
                        for item in value:
                            if isinstance(item, dict) and "id" in item:
                                data.defs.setdefault(str(item["id"]), (what, item))
                    stack.append(value)
                elif isinstance(value, dict):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))


class Index:
    def __init__(self, files: list[DataFile], report: Report):
        self.files = files
        self.report = report
        self.by_id: dict[str, DataFile] = {}
        for f in files:
            register(f)
            self.by_id.setdefault(f.id, f)
        self.systems = [f for f in files if f.kind == "gameSystem"]
        self.anywhere: dict[str, tuple[str, dict, DataFile]] = {}
        for f in files:
            for key, (what, obj) in f.defs.items():
                self.anywhere.setdefault(key, (what, obj, f))
        self._scope: dict[str, list[DataFile]] = {}
        self._reported: set[tuple[str, str]] = set()
        self._resolved: dict[tuple[str, str, tuple[str, ...]], Target | None] = {}
        self._pending: dict[str, tuple[DataFile, list]] = {}  # file -> the links to nowhere met in it
        self.unresolved = 0

    def scope(self, data: DataFile) -> list[DataFile]:
        """The files a link in `data` may point into, nearest first."""
        if data.name not in self._scope:
            seen, order = {data.name}, [data]
            queue = deque(data.links())
            while queue:
                target = self.by_id.get(queue.popleft())
                if target is None or target.name in seen:
                    continue
                seen.add(target.name)
                order.append(target)
                queue.extend(target.links())
            for system in self.systems:
                if system.name not in seen and system.ruleset == data.ruleset:
                    order.append(system)
            self._scope[data.name] = order
        return self._scope[data.name]

    def resolve(self, data: DataFile, link: dict, wanted: tuple[str, ...]) -> Target | None:
        """The definition `link` points at, looked up once per file and target (links form graphs)."""
        target_id = str(link.get("targetId", ""))
        key = (data.name, target_id, wanted)
        if key in self._resolved:
            found = self._resolved[key]
            if found is None:
                self._unresolved(data, link, target_id, wanted)
            return found
        found = self._lookup(data, target_id, wanted)
        self._resolved[key] = found
        if found is None:
            self._unresolved(data, link, target_id, wanted)
        return found

    def find(self, data: DataFile, target_id: str, wanted: tuple[str, ...]) -> Target | None:
        """The definition of `target_id` as a link in `data` would find it, or None, unreported."""
        key = (data.name, target_id, wanted)
        if key not in self._resolved:
            self._resolved[key] = self._lookup(data, target_id, wanted)
        return self._resolved[key]

    def _lookup(self, data: DataFile, target_id: str, wanted: tuple[str, ...]) -> Target | None:
        for f in self.scope(data):
            hit = f.defs.get(target_id)
            if hit and hit[0] in wanted:
                return Target(hit[0], hit[1], f)
        hit = self.anywhere.get(target_id)
        if hit and hit[0] in wanted and hit[2].ruleset == data.ruleset:
            return Target(hit[0], hit[1], hit[2])
        return None

    def _unresolved(self, data: DataFile, link: dict, target_id: str, wanted: tuple[str, ...]) -> None:
        key = (data.name, str(link.get("id", target_id)))
        if key not in self._reported:
            self._reported.add(key)
            self.unresolved += 1
            self._pending.setdefault(data.name, (data, []))[1].append((link, target_id, wanted))

    def report_unresolved(self) -> None:
        """The links to nowhere, per file: each one where a file has a few; else one finding with
        their number, examples, and the catalogues the file links to that were not read."""
        for name, (data, links) in self._pending.items():
            missing = [str(c.get("name", c.get("targetId"))) for c in data.root.get("catalogueLinks") or []
                       if isinstance(c, dict) and str(c.get("targetId")) not in self.by_id]
            if len(links) <= 3:
                for link, target_id, wanted in links:
                    self.report.warning(name, int(link.get("$line", 1)), "unresolved-link",
                                        f"link {link.get('name', '')!r} (entry {link.get('id', '?')}) points at "
                                        f"{target_id!r}, defined in none of the data read",
                                        expected=f"a {' or '.join(wanted)} with that id", found="nothing")
                continue
            link, target_id, wanted = links[0]
            where = (f"; {data.title} links to {', '.join(repr(m) for m in missing)}, not in the data read"
                     if missing else "")
            examples = "; ".join(f"{lk.get('name', '')!r} -> {t}" for lk, t, _w in links[:3])
            self.report.warning(name, int(link.get("$line", 1)), "unresolved-link",
                                f"{len(links)} links of {data.title} point at ids defined in none of the data "
                                f"read{where}; e.g. {examples}", expected="definitions for the ids linked",
                                found=f"{len(links)} unresolved links")
        self._pending.clear()

    def missing_catalogues(self) -> None:
        """Catalogue links to files that were not read (e.g. left out of a snapshot)."""
        for f in self.files:
            for link in f.root.get("catalogueLinks") or []:
                if isinstance(link, dict) and str(link.get("targetId")) not in self.by_id:
                    self.unresolved += 1
                    self.report.warning(f.name, int(link.get("$line", 1)), "missing-catalogue",
                                        f"catalogue {link.get('name', '?')!r} ({link.get('targetId')}) is linked but "
                                        "not in the data read; links into it stay unresolved",
                                        expected="the linked catalogue", found="nothing")

    def name(self, key: str) -> str:
        """What an id names, for messages: a definition's or a catalogue's name, else the id."""
        if key in self.by_id:
            return self.by_id[key].title
        hit = self.anywhere.get(key)
        return str(hit[1].get("name") or key) if hit else key
