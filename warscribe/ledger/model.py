"""The change ledger's parts: the two sides, a citation, one change, the ledger; and their JSON form.

The JSON form is documented by ``schema/ledger.schema.json`` (tests validate it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

# The ledger's sections, in the order a reader wants them: what a unit costs first.
SECTIONS: dict[str, str] = {
    "points": "Points",
    "profiles": "Characteristics and weapon profiles",
    "texts": "Abilities and rules whose text changed",
    "added": "Units and enhancements added",
    "removed": "Units and enhancements removed",
    "detachments": "Detachments",
    "other": "Other changes",
}
CORE = "Core rules"  # the group of records no faction owns (core rules and abilities, keywords)


class DiffError(Exception):
    """A side that cannot be read or built (not a build, not a revision)."""


@dataclass(frozen=True)
class SourceInfo:
    """One source of a side as the release it is: the app's data version 886 of 2026-07-07, the manual v1.1."""

    kind: str | None  # app-json | field-manual | None (other kinds: no release read)
    file: str  # its file name, as provenance names it (the first part of a record's source file)
    version: str | None = None
    date: str | None = None  # YYYY-MM-DD
    dates: dict = field(default_factory=dict, compare=False)  # the app's faction files: cited file -> updated

    def short(self) -> str:
        what = {"app-json": "app data", "field-manual": "Field Manual"}.get(self.kind or "", self.file)
        bits = [f"{what} {'v' if self.kind == 'field-manual' else ''}{self.version}" if self.version else what]
        return " ".join(bits + ([self.date] if self.date else []))


@dataclass(frozen=True)
class Side:
    """One side of a comparison: what was given, how it was read, and its release date when known."""

    label: str  # as given on the command line (a folder, an archive, a git revision)
    origin: str  # the bundle read
    how: str = "build"  # build | git | battlescribe | app-json | field-manual
    date: str | None = None  # YYYY-MM-DD: the revision's commit date, the archive's newest member, the data's own
    commit: str | None = None
    version: str | None = None  # the release of the 11th-edition sources: 'app data 886 + Field Manual v1.1'
    sources: tuple = ()  # SourceInfo of the sources whose release is known

    @classmethod
    def of_sources(cls, label: str, origin: str, how: str, sources: tuple) -> Side:
        """A side whose version and date are those of its sources (the newest date)."""
        known = [s for s in sources if s.version or s.date]
        version = " + ".join(s.short() for s in known) or None
        date = max((s.date for s in known if s.date), default=None)
        return cls(label, origin, how, date, None, version, tuple(sources))

    def source(self, file: str | None) -> SourceInfo | None:
        """The release of the source a record's provenance file is in ('gdc-11e-886.tar.xz/gdc/x.json')."""
        if not file:
            return None
        parts = file.split("/")
        for s in self.sources:
            if s.file in parts:  # 'sources/gdc-11e-886.tar.xz/gdc/x.json': a build cites it from its manifest's folder
                return s
        return None

    def as_dict(self) -> dict:
        out = {"label": self.label, "origin": self.origin, "how": self.how, "date": self.date, "commit": self.commit}
        if self.version is not None:  # the sources' releases (11th edition): absent for BattleScribe sides
            out["version"] = self.version
        return out


@dataclass(frozen=True)
class Cite:
    """Where one side's record came from: file, line, catalogue entry, and its publication's date if given."""

    file: str
    line: int | None = None
    entry: str | None = None
    catalogue: str | None = None
    date: str | None = None  # a Wahapedia publication's latest errata, YYYY-MM-DD

    release: str | None = field(default=None, compare=False)  # the source's release: 'app data 886'

    @classmethod
    def of(cls, record: dict | None, side: Side | None = None, field_name: str | None = None) -> Cite | None:
        """Where `record` came from: its first source, or, for `field_name`, the source that gave that field
        (the Field Manual's points over the app's unit); dated and versioned by `side`'s releases."""
        sources = [s for s in (record or {}).get("source") or []
                   if isinstance(s, dict) and isinstance(s.get("file"), str)]
        if field_name:
            sources = [s for s in sources if field_name in (s.get("fields") or ())] + sources
        for src in sources:
            entry = src.get("entry") if isinstance(src.get("entry"), dict) else {}
            pub = src.get("publication") if isinstance(src.get("publication"), dict) else {}
            date, release = pub.get("errata_date"), None
            info = side.source(src["file"]) if side is not None else None
            if info is not None:
                parts = src["file"].split("/")
                inner = "/".join(parts[parts.index(info.file):])
                date = date or info.dates.get(inner) or info.date
                release = info.short() if info.version else None
            return cls(src["file"], src.get("first_line"), entry.get("id"), entry.get("catalogue"), date, release)
        return None

    def short(self) -> str:
        """'Imperium - Adeptus Custodes.cat:193 #c8a6-a4c5-703e-b717' (the archive's name left out),
        'adeptuscustodes.json:449 (app data 886 2026-07-07)'."""
        name = self.file.rsplit("/", 1)[-1]
        out = name + (f":{self.line}" if self.line else "")
        if self.entry:
            out += f" #{self.entry}"
        if self.release:
            out += f" ({self.release}" + (f", {self.date})" if self.date and self.date not in self.release else ")")
        elif self.date:
            out += f" ({self.date})"
        return out

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "entry": self.entry, "catalogue": self.catalogue,
                "date": self.date}


@dataclass
class Item:
    """One change of the ledger, in one section, under a faction and a group (a unit, a detachment)."""

    section: str
    faction: str
    group: str  # the unit, detachment or rule the change belongs to, as players name it
    record: str  # the record's id (the new side's, or the old one's when removed)
    kind: str
    what: str  # the part that changed: '5 models', 'Bolt pistol: AP', 'Oath of Moment'
    old: object = None
    new: object = None
    delta: int | None = None  # points and CP: new - old
    words: str | None = None  # a text change as a word diff: [-old-]{+new+}
    note: str = ""
    old_source: Cite | None = None
    new_source: Cite | None = None
    condition: str | None = None  # a price under a condition (an Assigned Agent): kept apart from matched play
    path: str = ""  # the record field that changed

    def as_dict(self) -> dict:
        return {"section": self.section, "faction": self.faction, "group": self.group, "record": self.record,
                "kind": self.kind, "what": self.what, "old": self.old, "new": self.new, "delta": self.delta,
                "words": self.words, "note": self.note, "condition": self.condition, "path": self.path,
                "old_source": self.old_source.as_dict() if self.old_source else None,
                "new_source": self.new_source.as_dict() if self.new_source else None}


@dataclass
class Defence:
    """A unit whose defensive characteristics changed: expected models lost to reference attackers."""

    record: str
    faction: str
    name: str
    model: str
    old: dict  # the target profile: toughness, save, invulnerable, wounds, feel_no_pain, models
    new: dict
    rows: list[dict]  # {attacker, old, new, delta}: expected models destroyed
    error: str = ""

    @property
    def size(self) -> float:
        return max((abs(r["delta"]) for r in self.rows if r["delta"] is not None), default=0.0)

    def as_dict(self) -> dict:
        return {"record": self.record, "faction": self.faction, "name": self.name, "model": self.model,
                "old": self.old, "new": self.new, "rows": self.rows, "error": self.error}


@dataclass
class Ledger:
    old: Side
    new: Side
    items: list[Item] = field(default_factory=list)
    defence: list[Defence] = field(default_factory=list)
    weapons: list = field(default_factory=list)  # warscribe.ledger.diff.Impact of changed weapons
    noise: dict = field(default_factory=dict)  # rule -> {count, meaning, examples}
    caveats: list[str] = field(default_factory=list)
    records: dict = field(default_factory=dict)  # the record-level comparison: added, removed, changed, renamed
    # Across editions (a 10th-edition build against an 11th's): warscribe.ledger.migration.Migration, and no items
    migration: object = None

    def section(self, name: str) -> list[Item]:
        return [i for i in self.items if i.section == name]

    def counts(self, items: list[Item] | None = None) -> dict:
        """Changes per section; points split into matched play (up/down) and prices under a condition."""
        items = self.items if items is None else items
        per = Counter(i.section for i in items)
        plain = [i for i in items if i.section == "points" and not i.condition]
        out = {name: per[name] for name in SECTIONS}
        out["points"] = len(plain)
        out["points_up"] = sum(1 for i in plain if (i.delta or 0) > 0)
        out["points_down"] = sum(1 for i in plain if (i.delta or 0) < 0)
        out["points_conditional"] = per["points"] - len(plain)
        out["total"] = len(items)
        return out

    def factions(self) -> list[str]:
        """Factions with changes, by name, the core rules last."""
        names = {i.faction for i in self.items}
        return sorted(names - {CORE}, key=str.casefold) + ([CORE] if CORE in names else [])

    @property
    def empty(self) -> bool:
        return not self.items

    def as_dict(self) -> dict:
        return {
            "sides": {"old": self.old.as_dict(), "new": self.new.as_dict()},
            "summary": dict(self.counts(), factions=[dict(self.counts([i for i in self.items if i.faction == f]),
                                                         faction=f) for f in self.factions()]),
            "records": self.records,
            "noise": self.noise,
            "changes": [i.as_dict() for i in self.items],
            "defence": [d.as_dict() for d in self.defence],
        }
