"""What one read of BattleScribe data makes: records in order, one per id, with their
provenance, and the findings it reports against the entries they came from.

A finding the data repeats (155 units of one game mode with the same kind of cost
surcharge, a rule hidden on 300 datasheets) is *grouped*: one finding per code and kind,
at its first place, saying how many times it occurs with a few examples, so each kind
stays visible beside the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warscribe.extract import provenance
from warscribe.extract.battlescribe.common import number
from warscribe.extract.battlescribe.index import DataFile, Index
from warscribe.schema.diagnostics import Report

EXAMPLES = 3


@dataclass
class _Group:
    file: str
    line: int
    message: str
    expected: str
    found: str
    examples: list[str] = field(default_factory=list)
    count: int = 0


class Output:
    """The state the reading modules share: the index, the report, the records made so far."""

    def __init__(self, index: Index, report: Report):
        self.index = index
        self.report = report
        self.records: list[tuple[dict, list[dict]]] = []  # (record, provenance entries)
        self._emitted: dict[str, tuple[dict, list[dict]]] = {}  # id -> (record, provenance)
        # (ruleset, KEYWORD) -> the category links that gave it: (file, link, a faction keyword?)
        self.categories: dict[tuple[str, str], list[tuple[DataFile, dict, bool]]] = {}
        self.unknown_types: set[tuple[str, str]] = set()  # (file, profile type) reported
        self.pts: set[str] = set()  # the ids of the points cost types
        self.bearers: list = []  # datasheets that link enhancement groups (datasheets.Bearer)
        self.hidden_rules: list[tuple[str, str, DataFile, tuple[dict, ...]]] = []  # what armies hide, for detachments
        # Entries chosen for the whole army, not for a unit (each detachment): set by the reader
        # before any datasheet is read (:func:`.detachments.army_choices`).
        self.army_choices: frozenset[str] = frozenset()
        self._warned: set[tuple] = set()
        self._groups: dict[tuple[str, str], _Group] = {}
        self._added: set[str] | None = None  # categories a unit's own choice adds (see is_choice)
        for f in index.files:
            for cost in f.root.get("costTypes") or []:
                if isinstance(cost, dict) and str(cost.get("name", "")).strip().lower() in ("pts", "points"):
                    self.pts.add(str(cost.get("id")))

    def prov(self, data: DataFile, obj: dict, fields: list[str] | None = None) -> dict:
        line = int(obj.get("$line", 1))
        return provenance.entry(data.name, line, line, data.ruleset, fields=fields,
                                item={"catalogue": data.title, "id": str(obj.get("id", ""))})

    def emit(self, record: dict, data: DataFile, obj: dict, also: list[dict] | None = None) -> bool:
        """Keep `record`, sourced at `obj` (and the places in `also`); an id made again is kept once, a
        differing one reported. True when the record is new."""
        prov = [self.prov(data, obj)] + list(also or [])
        earlier = self._emitted.get(record["id"])
        if earlier is None:
            self._emitted[record["id"]] = (record, prov)
            self.records.append((record, prov))
            return True
        first, first_prov = earlier
        if first_prov[0]["entry"] == prov[0]["entry"] or first == record:
            return False  # a shared rule reached from several units; a unit both a library and a faction define alike
        differing = sorted(k for k in record if first.get(k) != record[k])
        self.report.warning(data.name, prov[0]["first_line"], "conflicting-duplicate",
                            f"{record['id']} is defined again (entry {prov[0]['entry']['id']} in {data.title}), differing "
                            f"from {first_prov[0]['file']}:{first_prov[0]['first_line']} in {', '.join(differing)}; "
                            "the first is kept", expected="the same values", found=", ".join(differing))
        return False

    def is_choice(self, key: str) -> bool:
        """Whether `key` names an entry a player may choose for a unit (an upgrade), not a category, a unit
        or a choice for the whole army: a unit is never 'an instance of' its army's detachment, so a rule
        the data hides unless the detachment is chosen or the unit is inside it is hidden on datasheets."""
        if key in self.army_choices:
            return False
        hit = self.index.anywhere.get(key)
        return hit is not None and hit[0] == "selectionEntry" and hit[1].get("type") == "upgrade"

    def added_categories(self) -> set[str]:
        """The categories an upgrade anywhere adds to what holds it (a Kinhost Commander's Exoframe
        specialism makes it EXOFRAME): whether a unit is one may depend on what the player picks for it.
        Which units' own upgrades add them is asked unit by unit (:mod:`.walk`); this set only tells
        which categories to ask that of."""
        if self._added is None:
            from warscribe.extract.battlescribe import conditions

            self._added = set()
            for what, obj, _f in self.index.anywhere.values():
                if what != "selectionEntry" or obj.get("type") != "upgrade" or not conditions.has_modifiers(obj):
                    continue
                for mod in conditions.modifiers(obj):
                    if mod.field == "category" and mod.type == "add" and mod.mod.get("value"):
                        self._added.add(str(mod.mod["value"]))
        return self._added

    def get(self, record_id: str) -> dict | None:
        found = self._emitted.get(record_id)
        return found[0] if found else None

    def warn(self, data: DataFile, obj: dict, code: str, message: str, expected: str = "", found: str = "") -> None:
        key = (code, data.name, obj.get("$line"), obj.get("id"), message)
        if key in self._warned:
            return  # the same entry met again (through another unit, in another army)
        self._warned.add(key)
        self.report.warning(data.name, int(obj.get("$line", 1)), code,
                            f"{message} (entry {obj.get('id', '?')} in {data.title})", expected=expected, found=found)

    def group(self, code: str, kind: str, data: DataFile, obj: dict, message: str, example: str,
              expected: str = "", found: str = "") -> None:
        """A finding of a kind the data repeats: one per (code, kind), reported by :meth:`flush`."""
        g = self._groups.get((code, kind))
        if g is None:
            g = self._groups[(code, kind)] = _Group(
                data.name, int(obj.get("$line", 1)), f"{message} (entry {obj.get('id', '?')} in {data.title})",
                expected, found)
        g.count += 1
        if example not in g.examples and len(g.examples) < EXAMPLES:
            g.examples.append(example)

    def flush(self) -> None:
        """Report the grouped findings: one each, with its count and examples."""
        for (code, _kind), g in self._groups.items():
            if g.count == 1:
                self.report.warning(g.file, g.line, code, g.message, expected=g.expected, found=g.found)
                continue
            more = "" if g.count <= len(g.examples) else ", ..."
            self.report.warning(g.file, g.line, code, f"{g.count} times: {g.message}; e.g. "
                                f"{'; '.join(g.examples)}{more}", expected=g.expected, found=g.found)
        self._groups.clear()

    def pts_of(self, obj: dict) -> float | None:
        """An entry's points cost; None where it has none."""
        for cost in obj.get("costs") or []:
            if isinstance(cost, dict) and str(cost.get("typeId")) in self.pts:
                return number(cost.get("value"))
        return None
