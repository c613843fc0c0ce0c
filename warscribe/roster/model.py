"""What a reader makes of an army list: the list as written, before any knowledge base is consulted.

Every reader (app text, New Recruit text, BattleScribe XML) fills the same shapes, so
resolving, checking and re-pricing never care which format a list came in. Each unit
keeps the lines it was read from and the points the list declares for it; every line
of the file is either used by something here or classified (``Roster.classified``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warscribe.schema.diagnostics import Diagnostic

# Roles a unit can have in an attached unit, as the lists print them (French labels
# are mapped onto these by the readers).
ROLES = ("leader", "bodyguard", "support")


@dataclass
class Named:
    """A name the list gives, with the line it is on (1-based, in the file or archive member)."""

    name: str
    line: int


@dataclass
class Enhancement(Named):
    points: int | None = None  # as declared ('(+35 pts)'), where the list says
    upgrade: bool = False  # the app marks some 11e enhancements '(Upgrade)': they go on units, not characters
    explicit: bool = True  # labelled as an enhancement; False: a wargear name the resolver found to be one


@dataclass
class Detachment(Named):
    points: int | None = None  # 11e detachment points, as declared
    parts: list[str] = field(default_factory=list)  # 'A and B (3 Detachment Points)': the names it may join


@dataclass
class Gear(Named):
    """A piece of wargear as listed, with its count where the list prints one ('4x Power fist')."""

    count: int | None = None


@dataclass
class ModelLine(Named):
    count: int = 1
    wargear: list[str] = field(default_factory=list)
    # How many of an item the models of this line carry, where the list says ('4x Storm bolter'
    # under '4x Deathwing Terminator'); an item not here is carried by every model of the line.
    gear_counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Unit(Named):
    last_line: int = 0
    raw: list[str] = field(default_factory=list)  # the unit's lines as written (control characters kept)
    points: int | None = None  # declared, including its enhancement (every format prices it in)
    models: int | None = None  # declared model count: a count prefix ('10x'), else the sum of model lines
    model_lines: list[ModelLine] = field(default_factory=list)
    wargear: list[Named] = field(default_factory=list)  # items not under a model line
    enhancements: list[Enhancement] = field(default_factory=list)
    warlord: bool = False
    section: str = ""  # the list's heading above it (CHARACTERS, BATTLELINE, Attached Unit 2, ...)
    allied: bool = False  # under an allied-units heading, or from an allied force
    group: int | None = None  # the attached unit it belongs to (the app's 'Attached Unit N')
    role: str | None = None  # leader / bodyguard / support within that group
    leading: Named | None = None  # New Recruit 'Leading Khorne Berzerkers[2]' (name, instance in `line`'s stead)
    leading_index: int | None = None
    attached_to: Named | None = None  # New Recruit 'Attached to Khârn the Betrayer'
    label: str | None = None  # New Recruit 'Char2'


@dataclass
class Roster:
    """One army list as read; `errors` holds what stopped it being read (then it has no units)."""

    file: str  # as cited in findings: the path given, or 'list.rosz/list.ros' inside an archive
    format: str = ""  # gw-app, newrecruit-text (the +++ family), newrecruit-simple, battlescribe
    variant: str = ""  # e.g. wtc, tournament, gw (New Recruit bodies), rosz / ros
    detected_by: str = ""  # 'signature' or 'shape'
    detection: str = ""  # the evidence: the signature line, or the shape seen
    language: str = "en"
    edition: str | None = None  # 10e / 11e when the list says; else the resolver decides
    edition_evidence: str = ""
    name: str | None = None  # the list's own title
    title_line: int = 0
    declared_total: int | None = None
    total_line: int = 0
    factions: list[Named] = field(default_factory=list)  # parent first ('Space Marines', 'Dark Angels')
    faction_candidates: list[Named] = field(default_factory=list)  # New Recruit simple: title prefixes to try
    battle_size: Named | None = None
    points_limit: int | None = None
    detachments: list[Detachment] = field(default_factory=list)
    dispositions: list[Named] = field(default_factory=list)  # 11e force dispositions
    header_warlord: Named | None = None  # New Recruit header 'WARLORD: Char1: X'
    header_enhancements: list[Named] = field(default_factory=list)  # New Recruit header enhancement lines
    units: list[Unit] = field(default_factory=list)
    notes: list[Named] = field(default_factory=list)  # free text the player wrote, kept
    app_version: str | None = None  # the app's 'App Version: v2.0.5', New Recruit's 'v35.51'
    data_version: str | None = None  # the app's 'Data Version: v886', BattleScribe's catalogue revision
    lines: int = 0
    classified: dict[str, int] = field(default_factory=dict)  # line class -> count of lines
    errors: list[Diagnostic] = field(default_factory=list)  # the list could not be read
    warnings: list[Diagnostic] = field(default_factory=list)  # lines the reader could not place

    def classify(self, kind: str, count: int = 1) -> None:
        self.classified[kind] = self.classified.get(kind, 0) + count

    def free_text(self, text: str, no: int) -> None:
        """A line that is none of the format's: the player's own text, kept as a note."""
        self.notes.append(Named(text, no))
        self.classify("free-text")

    def unit_line(self, unit: Unit, raw: str, no: int) -> None:
        """A line that belongs to `unit` (kept as written)."""
        unit.raw.append(raw)
        unit.last_line = no
        self.classify("unit")


@dataclass(frozen=True)
class Finding:
    """A diagnostic about a list, with the rule it comes from (None: a reading or resolving finding)."""

    diagnostic: Diagnostic
    rule: str | None = None
    unit: int | None = None  # index into the roster's units, where the finding is about one
    rule_ref: dict | None = None  # the rule's number, record and sources, where it was read from the build

    def as_dict(self) -> dict:
        out = self.diagnostic.as_dict()
        if self.rule:
            out["rule"] = self.rule
        if self.rule_ref:
            out["rule_ref"] = self.rule_ref
        if self.unit is not None:
            out["unit"] = self.unit
        return out


@dataclass(frozen=True)
class Unchecked:
    """A check that could not be made from the knowledge base's records, and why."""

    check: str
    line: int
    reason: str

    def as_dict(self) -> dict:
        return {"check": self.check, "line": self.line, "reason": self.reason}
