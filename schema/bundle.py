"""Load a built knowledge base into an index: by id, by kind, by name and ruleset, with back-references.

Every consumer of a build (the engine's ``ref`` weapons, the site, ``check``, ``diff``,
the effects compiler) reads it through :func:`load` instead of its own loader.

A build is a folder written by ``warscribe build`` (``<out>/json/warscribe.json``), its
``json/`` folder, or the bundle file itself. References between records (a weapon's
datasheet, a datasheet's weapons, a detachment's stratagems, a keyword's datasheets...)
are resolved once here; a reference to an id the build does not hold is kept in
:attr:`Bundle.dangling`, never dropped silently.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from warscribe.schema import KINDS
from warscribe.schema.sniff import what_is

BUNDLE_NAME = "warscribe.json"
REPORT_NAME = "report.json"


class BundleError(Exception):
    """A build that cannot be read: missing, unreadable, or not a Warscribe bundle."""


@dataclass(frozen=True)
class Dangling:
    """`record` names `target` in `field`, and no record has that id."""

    record: str
    field: str
    target: str


# (kind, field, kind referred to, many) for every field that holds record ids.
REFERENCE_FIELDS: tuple[tuple[str, str, str, bool], ...] = (
    ("weapon", "datasheet", "datasheet", False),
    ("datasheet", "weapons", "weapon", True),
    ("stratagem", "detachment", "detachment", False),
    ("detachment", "stratagems", "stratagem", True),
    ("detachment", "enhancements", "enhancement", True),
    ("enhancement", "detachment", "detachment", False),
    ("keyword", "datasheets", "datasheet", True),
    ("stratagem", "targets", "datasheet", True),
    ("datasheet", "stratagems", "stratagem", True),
    ("enhancement", "bearers", "datasheet", True),
)


@dataclass
class Bundle:
    meta: dict
    origin: str = "<bundle>"
    by_id: dict[str, dict] = field(default_factory=dict)
    by_kind: dict[str, list[dict]] = field(default_factory=dict)
    # (kind, casefolded name) -> records, in bundle order (a name may be in both rulesets).
    by_name: dict[tuple[str, str], list[dict]] = field(default_factory=dict)
    # target id -> [(referring record id, field)], e.g. a detachment id -> its stratagems.
    referrers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    dangling: list[Dangling] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    # kind -> records, for kinds of the bundle's data that this Warscribe does not know (another schema version)
    unknown_kinds: dict[str, int] = field(default_factory=dict)

    # -- look-ups -------------------------------------------------------------------

    def __contains__(self, record_id: str) -> bool:
        return record_id in self.by_id

    def __len__(self) -> int:
        return len(self.by_id)

    def __iter__(self) -> Iterator[dict]:
        for kind in KINDS:
            yield from self.by_kind.get(kind, [])

    def get(self, record_id: str) -> dict | None:
        return self.by_id.get(record_id)

    def kind(self, kind: str) -> list[dict]:
        return self.by_kind.get(kind, [])

    def named(self, name: str, kind: str | None = None, ruleset: str | None = None) -> list[dict]:
        """Records with this name (case-insensitive), optionally of one kind and ruleset."""
        kinds = [kind] if kind else KINDS
        out = [r for k in kinds for r in self.by_name.get((k, name.casefold()), [])]
        return [r for r in out if ruleset is None or ruleset in r.get("rulesets", [r["ruleset"]])]

    def rulesets_of(self, record: dict) -> list[str]:
        """Every ruleset a record was seen under (its provenance), its own first."""
        seen = [record["ruleset"]] + [s.get("ruleset") for s in record.get("source", [])]
        return list(dict.fromkeys(r for r in seen if r))

    # -- back-references -------------------------------------------------------------

    def referring(self, record_id: str, kind: str | None = None) -> list[dict]:
        """Records whose reference fields name `record_id` (optionally of one kind)."""
        out = []
        for rid, _field in self.referrers.get(record_id, []):
            rec = self.by_id[rid]
            if kind is None or rec["kind"] == kind:
                out.append(rec)
        return out

    def datasheet_of(self, weapon: dict) -> dict | None:
        """The datasheet that carries a weapon."""
        got = self.by_id.get(weapon.get("datasheet") or "")
        if got is not None:
            return got
        holders = self.referring(weapon["id"], "datasheet")
        return holders[0] if holders else None

    def weapons_of(self, datasheet: dict) -> list[dict]:
        return [self.by_id[w] for w in datasheet.get("weapons", []) if w in self.by_id]

    def detachment_of(self, record: dict) -> dict | None:
        """The detachment of a stratagem or an enhancement."""
        return self.by_id.get(record.get("detachment") or "")

    def stratagems_of(self, detachment: dict) -> list[dict]:
        return [self.by_id[s] for s in detachment.get("stratagems", []) if s in self.by_id]

    def enhancements_of(self, detachment: dict) -> list[dict]:
        return [self.by_id[e] for e in detachment.get("enhancements", []) if e in self.by_id]

    def stratagems_for(self, datasheet: dict) -> list[dict]:
        """The stratagems that can target a datasheet's unit (the effects compiler's target lists)."""
        return [self.by_id[s] for s in datasheet.get("stratagems", []) if s in self.by_id]

    def targets_of(self, stratagem: dict) -> list[dict]:
        """The datasheets a stratagem can target."""
        return [self.by_id[d] for d in stratagem.get("targets", []) if d in self.by_id]

    def datasheets_with_keyword(self, keyword: dict) -> list[dict]:
        return [self.by_id[d] for d in keyword.get("datasheets", []) if d in self.by_id]

    def keywords_of(self, datasheet: dict) -> list[dict]:
        """Keyword records (of the datasheet's ruleset) for its keywords and faction keywords."""
        out = []
        for name in list(datasheet.get("keywords", [])) + list(datasheet.get("faction_keywords", [])):
            out += self.named(name, "keyword", datasheet["ruleset"])[:1]
        return out


def from_records(records: list[dict], meta: dict | None = None, origin: str = "<records>",
                 kinds: Iterable[str] | None = None) -> Bundle:
    """Index records already in memory (a build's result, or a test's).

    `kinds`: the records are only those kinds of a build (``load(path, kinds=...)``), so a
    reference to a record of another kind is not dangling, only not loaded.
    """
    loaded = set(kinds) if kinds is not None else None
    bundle = Bundle(meta=meta or {}, origin=origin)
    for rec in records:
        rid = rec.get("id")
        if not isinstance(rid, str):
            raise BundleError(f"{origin}: a record without an id: {str(rec)[:80]}")
        if rid in bundle.by_id:
            bundle.duplicates.append(rid)
            continue
        bundle.by_id[rid] = rec
        bundle.by_kind.setdefault(rec.get("kind", ""), []).append(rec)
        bundle.by_name.setdefault((rec.get("kind", ""), str(rec.get("name", "")).casefold()), []).append(rec)
    for kind, name, target_kind, many in REFERENCE_FIELDS:
        if loaded is not None and target_kind not in loaded:
            continue
        for rec in bundle.by_kind.get(kind, []):
            value = rec.get(name)
            targets = value if many else [value]
            for target in targets or []:
                if not target:
                    continue
                if target in bundle.by_id:
                    bundle.referrers.setdefault(target, []).append((rec["id"], name))
                else:
                    bundle.dangling.append(Dangling(rec["id"], name, target))
    return bundle


def locate(path: str | Path) -> Path:
    """The bundle file of a build folder, its json/ folder, or the file itself."""
    path = Path(path)
    for candidate in (path, path / BUNDLE_NAME, path / "json" / BUNDLE_NAME):
        if candidate.is_file():
            return candidate
    raise BundleError(f"no Warscribe build at {path}: expected {BUNDLE_NAME} there or in {path / 'json'}; "
                      "run `warscribe build` first")


def check(path: str | Path) -> Path:
    """The bundle file of the build at `path`, if it is a file of the right kind (BundleError: what was
    found instead), without reading it: for a command that reads the build only if it needs it."""
    file = locate(path)
    _refuse_other(file)
    return file


def _refuse_other(file: Path) -> None:
    found = what_is(file)
    if found is not None:
        raise BundleError(f"{file}: expected a Warscribe build (the folder `warscribe build --out` wrote, or its "
                          f"json/{BUNDLE_NAME}), found {found}")


def _read(file: Path):
    _refuse_other(file)
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BundleError(f"{file}:{exc.lineno}:{exc.colno}: expected a Warscribe build's JSON, found malformed "
                          f"JSON ({exc.msg})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BundleError(f"cannot read {file}: {exc}") from None


def load(path: str | Path, kinds: Iterable[str] | None = None) -> Bundle:
    """Load a build (folder or bundle file) into an index.

    `kinds`: only these kinds of record (a consumer that needs datasheets, enhancements
    and detachments need not parse forty megabytes of weapons). They are read from the
    build's per-kind files beside the bundle (``json/<kind>.json``, written with it) when
    it has them all, else from the bundle.
    """
    file = locate(path)
    if kinds is None:
        return from_bundle(_read(file), str(file))
    wanted = [k for k in KINDS if k in set(kinds)]
    unknown = set(kinds) - set(wanted)
    if unknown:
        raise BundleError(f"no record kind {', '.join(sorted(unknown))} (kinds: {', '.join(KINDS)})")
    parts = [file.parent / f"{k}.json" for k in wanted]
    if file.name == BUNDLE_NAME and all(p.is_file() for p in parts):
        groups, meta = {}, {}
        for kind, part in zip(wanted, parts):
            doc = _read(part)
            if not isinstance(doc, dict) or not isinstance(doc.get("data"), list):
                raise BundleError(f"{part}: not a Warscribe per-kind file (no 'data' list of records)")
            groups[kind] = doc["data"]
            meta = meta or {k: v for k, v in (doc.get("meta") or {}).items() if k not in ("kind", "count", "schema")}
        data = {"meta": meta, "data": groups}
    else:
        whole = _read(file)
        groups = whole.get("data") if isinstance(whole, dict) else None
        data = {"meta": whole.get("meta") if isinstance(whole, dict) else None,
                "data": {k: v for k, v in groups.items() if k in wanted} if isinstance(groups, dict) else groups}
    return from_bundle(data, str(file), wanted)


def load_report(path: str | Path) -> dict | None:
    """The build's own report (``report.json``: diagnostics, line accounting) beside its bundle, if any."""
    file = locate(path)
    for candidate in (file.parent / REPORT_NAME, file.parent.parent / REPORT_NAME):
        if candidate.is_file():
            try:
                data = json.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise BundleError(f"cannot read {candidate}: {exc}") from None
            if not isinstance(data, dict):
                raise BundleError(f"{candidate}: not a Warscribe build report (expected a JSON object)")
            return data
    return None


def from_bundle(data: dict, origin: str = "<bundle>", kinds: Iterable[str] | None = None) -> Bundle:
    """Index a bundle already parsed from JSON (``{"meta": ..., "data": {kind: [records]}}``)."""
    groups = data.get("data") if isinstance(data, dict) else None
    if not isinstance(groups, dict):
        raise BundleError(f"{origin}: not a Warscribe bundle (no 'data' mapping of kinds to records)")
    records = []
    for kind in KINDS:
        value = groups.get(kind, [])
        if not isinstance(value, list):
            raise BundleError(f"{origin}: data.{kind} is not a list of records")
        records += [r for r in value if isinstance(r, dict)]
    bundle = from_records(records, data.get("meta") or {}, origin, kinds)
    bundle.unknown_kinds = {k: len(v) if isinstance(v, list) else 0 for k, v in sorted(groups.items()) if k not in KINDS}
    return bundle
