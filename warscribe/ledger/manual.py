"""The Munitorum Field Manual as one side of `warscribe diff`, read as it prices.

Built, the manual makes no records of its own: it is applied over the units the other sources
give (``extract/fieldmanual/apply.py``), so a unit it prices that no other source gives would
be missing from a comparison of two builds, and the app's own prices (ranked first) would
hide the manual's. Given directly, the manual is read with the same reader the build uses
(``warscribe.extract.fieldmanual.load``) and each of its entries becomes a record of what the
manual says of it, with the ids a build gives the same unit:

- per unit: a datasheet with its points per starting strength and requisition tier
  (``from_copy``), its add-on models and wargear costs (``extra_points``) and its Leader or
  Support list;
- per detachment: its Detachment Points, Force Disposition and unique tag, and its
  enhancements, each with its points and Upgrade mark.

Two versions of the manual read so are compared as any two builds are.
"""

from __future__ import annotations

from pathlib import Path

from warscribe.ledger.model import Side, SourceInfo
from warscribe.schema import bundle as bundle_mod
from warscribe.schema import ids, records
from warscribe.schema.bundle import Bundle
from warscribe.schema.diagnostics import Report

RULESET = "11e"
ATTACHED = "This unit can be attached to the following units:"


def manual_side(path: Path, label: str) -> tuple[Bundle, Side]:
    """The manual at `path` (a folder or archive of its YAML) as a bundle of its entries, and its side."""
    from warscribe.extract.fieldmanual import load
    from warscribe.ledger.model import DiffError
    from warscribe.writers import SCHEMA_VERSION

    report = Report()
    manual = load(path, path.name, report)
    if not manual.factions:
        problems = "; ".join(d.render() for d in report.sorted()[:3])
        raise DiffError(f"{label}: no faction of the Munitorum Field Manual could be read"
                        + (f" ({problems})" if problems else ""))
    records = manual_records(manual)
    meta = {"schema_version": SCHEMA_VERSION, "sources": [{"file": path.name, "kind": "field-manual",
                                                 "version": manual.version, "date": manual.last_updated}]}
    bundle = bundle_mod.from_records(records, meta, label)
    info = SourceInfo("field-manual", path.name, manual.version, manual.last_updated)
    return bundle, Side.of_sources(label, label, "field-manual", (info,))


def _source(file: str, line: int, last: int | None = None) -> list[dict]:
    return [{"file": file, "first_line": line, "last_line": last or line, "ruleset": RULESET}]


def manual_records(manual) -> list[dict]:
    """A datasheet per unit, a detachment and its enhancements per detachment, as the manual gives them:
    what it does not say (keywords, abilities, texts) is empty on both sides of a comparison."""
    out: list[dict] = []
    seen: set[str] = set()
    for faction in manual.factions:
        for unit in faction.units:
            rid = ids.datasheet(faction.name, unit.name)
            if rid in seen:  # the same unit twice in one file: the first is the one a build applies
                continue
            seen.add(rid)
            attach = {unit.role: {"text": ATTACHED, "units": list(unit.attach_to)}} \
                if unit.role in ("leader", "support") else {}
            out.append(records.datasheet(
                id=rid, name=unit.name, ruleset=RULESET, faction=faction.name, keywords=[], faction_keywords=[],
                composition=[], points=unit.points_entries(), abilities=[], weapons=[], wargear_options=[],
                extra_points=unit.extra_points(), **attach, source=_source(unit.file, unit.line, unit.last_line)))
        for det in faction.detachments:
            did = ids.detachment(faction.name, det.name)
            if did in seen:
                continue
            seen.add(did)
            enhancements = []
            for enh in det.enhancements:
                eid = ids.enhancement(enh.name, did, faction.name)
                if eid in seen:
                    continue
                seen.add(eid)
                enhancements.append(eid)
                out.append(records.enhancement(id=eid, name=enh.name, ruleset=RULESET, detachment=did, points=enh.points,
                                               text=None, restriction=None, upgrade=enh.upgrade,
                                               source=_source(enh.file, enh.line)))
            out.append(records.detachment(id=did, name=det.name, ruleset=RULESET, faction=faction.name, rule=None,
                                          stratagems=[], enhancements=enhancements, detachment_points=det.dp,
                                          force_disposition=det.objective, unique=det.unique,
                                          source=_source(det.file, det.line, det.last_line)))
    return out
