"""The knowledge base's record files: one YAML file per record, one JSON file per kind and the bundle.

The build writes them into its staging folder; the ledger writes the JSON of a side it builds
to compare. Both go through here, so a build and a compared side are the same files.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from warscribe import __version__
from warscribe.extract.pipeline import Result
from warscribe.schema.filenames import record_path
from warscribe.schema.registry import KINDS
from warscribe.schema.text import json_text, printable

SCHEMA_VERSION = "1.0"


# libyaml's emitter when PyYAML has it (its wheels do): the pure-Python one spends
# seconds per megabyte of text, and both write the same bytes for every record the
# seeds and the CSV fixtures give (tests/hostile/test_linear.py checks).
_BaseDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_BaseDumper):
    """Safe dumper that writes multi-line text as literal blocks, readable in diffs."""


def _str(dumper, value: str):
    if "\n" in value and not value.endswith((" ", "\t")) and "\n " not in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str)


def record_yaml(record: dict) -> str:
    return yaml.dump(record, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)


def json_file(data) -> str:
    return json_text(data) + "\n"  # no character from data that cannot be written or shown stays raw


def meta(result: Result, kind: str | None, count: int) -> dict:
    meta = {
        "schema_version": SCHEMA_VERSION,
        "generator": f"warscribe {__version__}",
        "sources": [{"file": s.name, "sha256": s.sha256, "ruleset": s.entry["ruleset"]}
                    for s in result.sources],
        "count": count,
    }
    if kind:
        meta["kind"] = kind
        meta["schema"] = f"schema/{kind}.schema.json"
    return meta


class RecordWriteError(OSError):
    """A record that could not be written: the message names the record and its source, not the staging folder."""


def write_yaml(result: Result, out: Path, progress=None) -> None:
    """One YAML file per record: records/<kind>/<id>.yaml, the id made a portable file name (schema/filenames.py)."""
    root = out / "records"
    for n, rec in enumerate(result.records):
        if progress is not None:
            progress("write", n, len(result.records))
        rel = f"{rec['kind']}/{record_path(rec['id'], '.yaml')}"
        try:
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(record_yaml(rec), encoding="utf-8")
        except OSError as exc:
            src = (rec.get("source") or [{}])[0]
            raise RecordWriteError(exc.errno, f"cannot write record {printable(rec['id'], 120)} (from "
                                   f"{printable(str(src.get('file', '?')), 120)}:{src.get('first_line', '?')}) as "
                                   f"records/{printable(rel, 160)}: {exc.strerror or exc}") from exc


def write_json(result: Result, out: Path) -> None:
    """One JSON file per kind ({"meta", "data"}) and the bundle warscribe.json."""
    out.mkdir(parents=True, exist_ok=True)
    by_kind = {k: [r for r in result.records if r["kind"] == k] for k in KINDS}
    for kind, records in by_kind.items():
        (out / f"{kind}.json").write_text(json_file({"meta": meta(result, kind, len(records)), "data": records}),
                                          encoding="utf-8")
    bundle = {"meta": meta(result, None, len(result.records)), "data": by_kind}
    (out / "warscribe.json").write_text(json_file(bundle), encoding="utf-8")
