"""The JSON Schemas in schema/: loading, and validating records against them."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
KINDS = ("datasheet", "weapon", "stratagem", "detachment", "enhancement", "ability", "rule", "keyword")


@lru_cache(maxsize=None)
def registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name), registry=registry())


def record_errors(record: dict) -> list[tuple[str, str]]:
    """(path, message) for every way a record breaks its kind's schema."""
    kind = record.get("kind")
    if kind not in KINDS:
        return [("kind", f"unknown kind {kind!r}")]
    out = []
    for err in sorted(validator(kind).iter_errors(record), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in err.absolute_path) or "(record)"
        out.append((path, err.message))
    return out
