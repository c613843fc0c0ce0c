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


@dataclass(frozen=True)
class Side:
    """One side of a comparison: what was given, how it was read, and its release date when known."""

    label: str  # as given on the command line (a folder, an archive, a git revision)
    origin: str  # the bundle read
    how: str = "build"  # build | git | battlescribe
    date: str | None = None  # YYYY-MM-DD: the revision's commit date, or the archive's newest member
    commit: str | None = None

    def as_dict(self) -> dict:
        return {"label": self.label, "origin": self.origin, "how": self.how, "date": self.date, "commit": self.commit}


@dataclass(frozen=True)
class Cite:
    """Where one side's record came from: file, line, catalogue entry, and its publication's date if given."""

    file: str
    line: int | None = None
    entry: str | None = None
    catalogue: str | None = None
    date: str | None = None  # a Wahapedia publication's latest errata, YYYY-MM-DD

    @classmethod
    def of(cls, record: dict | None) -> Cite | None:
        for src in (record or {}).get("source") or []:
            if not isinstance(src, dict) or not isinstance(src.get("file"), str):
                continue
            entry = src.get("entry") if isinstance(src.get("entry"), dict) else {}
            pub = src.get("publication") if isinstance(src.get("publication"), dict) else {}
            return cls(src["file"], src.get("first_line"), entry.get("id"), entry.get("catalogue"),
                       pub.get("errata_date"))
        return None

    def short(self) -> str:
        """'Imperium - Adeptus Custodes.cat:193 #c8a6-a4c5-703e-b717' (the archive's name left out)."""
        name = self.file.rsplit("/", 1)[-1]
        out = name + (f":{self.line}" if self.line else "")
        if self.entry:
            out += f" #{self.entry}"
        if self.date:
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
