"""Where the sources disagree: every field a record's sources give differently, from the records.

A record two sources give carries, on the provenance entry of the source whose value was
not kept, ``differs`` (field -> that source's value) and ``agrees`` (the fields it
confirms); see docs/formats.md, "Two sources at once". This check turns each ``differs``
field into a finding ``source-disagreement`` naming the record, the field, each source's
value and where it comes from (a file with its row, or a catalogue entry), and
:func:`summary` groups them by field and by faction, with counts, for the report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from warscribe.checks.context import Context
from warscribe.extract.sources_compare import shown
from warscribe.extract.sources_merge import source_of
from warscribe.schema.diagnostics import Diagnostic

def place(prov: dict) -> str:
    """Where a value comes from: file and row (line), and the catalogue entry where there is one."""
    where = f"{prov['file']}:{prov['first_line']}"
    entry = prov.get("entry")
    return f"{where} (entry {entry['id']})" if entry else where


def disagreements(bundle) -> list[dict]:
    """Every disputed field of every record: record, kind, faction, field, the kept and the other value."""
    out = []
    for record in bundle:
        sources = record.get("source") or []
        for prov in sources:
            differs = prov.get("differs")
            if not isinstance(differs, dict) or not differs:
                continue
            other = source_of(prov["file"])
            kept_all = [p for p in sources if source_of(p["file"]) != other] or sources[:1]
            for field in sorted(differs):
                # The kept source's entry for this field where one names it (a Wahapedia model row).
                kept_prov = next((p for p in kept_all if field in (p.get("fields") or ())), kept_all[0])
                out.append({
                    "record": record["id"], "kind": record["kind"], "name": record.get("name", ""),
                    "faction": _faction(bundle, record), "field": field,
                    "kept": {"source": source_of(kept_prov["file"]), "place": place(kept_prov),
                             "value": record.get(field)},
                    "other": {"source": other, "place": place(prov), "value": differs[field]},
                    "agree": sorted(prov.get("agrees") or ()),
                })
    return out


def _faction(bundle, record: dict) -> str:
    if record.get("faction"):
        return record["faction"]
    unit = bundle.datasheet_of(record) if record["kind"] == "weapon" else None
    return (unit or {}).get("faction") or ""


def run(ctx: Context) -> Iterator[Diagnostic]:
    for d in disagreements(ctx.bundle):
        record = ctx.bundle.get(d["record"])
        kept, other = d["kept"], d["other"]
        yield ctx.finding(
            "source-disagreement",
            f"{d['record']} ({d['faction'] or d['kind']}): {d['field']} differs between {kept['source']} and "
            f"{other['source']}; the value of {kept['source']} (ranked first) is kept",
            record,
            expected=f"{shown(d['kind'], d['field'], kept['value'])} [{kept['place']}]",
            found=f"{shown(d['kind'], d['field'], other['value'])} [{other['place']}]",
            file=other["place"].split(":")[0], line=int(other["place"].split(":")[1].split(" ")[0]))


def summary(items: list[dict]) -> dict:
    """Disagreements counted by field, and by faction and field; records disputed and sources compared."""
    by_field = Counter(d["field"] for d in items)
    by_faction: dict[str, Counter] = {}
    for d in items:
        by_faction.setdefault(d["faction"] or "(none)", Counter())[d["field"]] += 1
    return {
        "total": len(items),
        "records": len({d["record"] for d in items}),
        "by_field": dict(sorted(by_field.items(), key=lambda kv: (-kv[1], kv[0]))),
        "by_faction": {f: dict(sorted(c.items())) for f, c in sorted(by_faction.items())},
        "disagreements": items,
    }


def render_summary(s: dict) -> list[str]:
    """The summary as lines for a terminal: by field, then by faction (names from data escaped by the caller)."""
    if not s["total"]:
        return []
    lines = [f"source disagreements: {s['total']} on {s['records']} records; by field: "
             + ", ".join(f"{k} {n}" for k, n in s["by_field"].items())]
    for faction, fields in s["by_faction"].items():
        lines.append(f"  {faction}: {sum(fields.values())} ("
                     + ", ".join(f"{k} {n}" for k, n in fields.items()) + ")")
    return lines
