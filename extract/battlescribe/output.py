"""What one read of BattleScribe data makes: records in order, one per id, with their
provenance, and the findings it reports against the entries they came from."""

from __future__ import annotations

from warscribe.extract import provenance
from warscribe.extract.battlescribe.common import number
from warscribe.extract.battlescribe.index import DataFile, Index
from warscribe.schema.diagnostics import Report


class Output:
    """The state the reading modules share: the index, the report, the records made so far."""

    def __init__(self, index: Index, report: Report):
        self.index = index
        self.report = report
        self.records: list[tuple[dict, dict]] = []  # (record, provenance)
        self._emitted: dict[str, tuple[dict, dict]] = {}  # id -> (record, provenance)
        # (ruleset, KEYWORD) -> the category links that gave it: (file, link, a faction keyword?)
        self.categories: dict[tuple[str, str], list[tuple[DataFile, dict, bool]]] = {}
        self.unknown_types: set[tuple[str, str]] = set()  # (file, profile type) reported
        self.pts: set[str] = set()  # the ids of the points cost types
        for f in index.files:
            for cost in f.root.get("costTypes") or []:
                if isinstance(cost, dict) and str(cost.get("name", "")).strip().lower() in ("pts", "points"):
                    self.pts.add(str(cost.get("id")))

    def prov(self, data: DataFile, obj: dict) -> dict:
        line = int(obj.get("$line", 1))
        return provenance.entry(data.name, line, line, data.ruleset,
                                item={"catalogue": data.title, "id": str(obj.get("id", ""))})

    def emit(self, record: dict, data: DataFile, obj: dict) -> None:
        """Keep `record`, sourced at `obj`; an id made again is kept once, a differing one reported."""
        prov = self.prov(data, obj)
        earlier = self._emitted.get(record["id"])
        if earlier is None:
            self._emitted[record["id"]] = (record, prov)
            self.records.append((record, prov))
            return
        first, first_prov = earlier
        if first_prov["entry"] == prov["entry"] or first == record:
            return  # a shared rule reached from several units; a unit both a library and a faction define alike
        differing = sorted(k for k in record if first.get(k) != record[k])
        self.report.warning(data.name, prov["first_line"], "conflicting-duplicate",
                            f"{record['id']} is defined again (entry {prov['entry']['id']} in {data.title}), differing "
                            f"from {first_prov['file']}:{first_prov['first_line']} in {', '.join(differing)}; the first is kept",
                            expected="the same values", found=", ".join(differing))

    def warn(self, data: DataFile, obj: dict, code: str, message: str, expected: str = "", found: str = "") -> None:
        self.report.warning(data.name, int(obj.get("$line", 1)), code,
                            f"{message} (entry {obj.get('id', '?')} in {data.title})", expected=expected, found=found)

    def pts_of(self, obj: dict) -> float | None:
        """An entry's points cost; None where it has none."""
        for cost in obj.get("costs") or []:
            if isinstance(cost, dict) and str(cost.get("typeId")) in self.pts:
                return number(cost.get("value"))
        return None
