"""The JSON Schemas in schema/: loading, and validating records against them."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from warscribe.schema import KINDS, SCHEMA_DIR
from warscribe.schema.checkgen import compile_schema


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


def _inline(node, base: str, expanding: tuple[str, ...] = ()):
    """Replace every $ref by a copy of its target, so validation does no look-ups.

    A recursive definition (a keyword expression holds keyword expressions) is expanded
    once; the reference back into it stays a $ref, by absolute address.
    """
    if isinstance(node, list):
        return [_inline(n, base, expanding) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        address = urljoin(base, node["$ref"])
        if address in expanding:
            return {"$ref": address}
        resolved = registry().resolver(base).lookup(node["$ref"])
        return _inline(copy.deepcopy(resolved.contents), address.split("#")[0], expanding + (address,))
    return {k: (_inline(v, base, expanding) if k not in ("$id", "$schema") else v) for k, v in node.items()}


@lru_cache(maxsize=None)
def fast_validator(name: str) -> Draft202012Validator:
    """An equivalent, quicker form of the published schema, derived from it at load time.

    The published schemas share the common fields through `allOf` + `unevaluatedProperties`,
    which makes jsonschema re-validate the shared part to learn which keys it covered. Here
    the shared part is merged into `properties`/`required` and `additionalProperties: false`
    takes over; tests check both forms agree on valid and broken records.
    """
    return Draft202012Validator(derived_schema(name), registry=registry())


@lru_cache(maxsize=None)
def fast_check(name: str) -> Callable[[Any], bool]:
    """``instance -> bool``: the derived schema of ``fast_validator`` compiled to Python.

    jsonschema walks the schema for every instance and builds error objects on the way
    (a few milliseconds for a scenario); this answers valid or not in tens of
    microseconds, so callers ask it first and go to ``fast_validator`` only for the
    messages of an invalid instance. Tests check it agrees with the reference
    validator on valid and broken records and scenarios.
    """
    try:
        return compile_check(derived_schema(name))
    except ValueError:  # a keyword the compiler does not know: jsonschema answers instead
        return fast_validator(name).is_valid


@lru_cache(maxsize=None)
def derived_schema(name: str) -> dict:
    """The published schema with every $ref inlined and the shared fields merged in."""
    published = schema(name)
    derived = _inline(copy.deepcopy(published), published["$id"])
    derived.pop("$id", None)
    if derived.pop("unevaluatedProperties", True) is False:
        rest = []
        for part in derived.pop("allOf", []):
            if part.get("description") == "Fields every record has.":
                derived["properties"] = {**part["properties"], **derived.get("properties", {})}
                derived["required"] = part["required"] + [r for r in derived.get("required", []) if r not in part["required"]]
            else:
                rest.append(part)
        if rest:
            derived["allOf"] = rest
        derived["additionalProperties"] = False
    return derived


def compile_check(node) -> Callable[[Any], bool]:
    """A JSON Schema (2020-12, $refs inlined) as one boolean function (``schema.checkgen``)."""
    return compile_schema(node, _reference)


_REFERENCES: dict[str, Callable[[Any], bool] | None] = {}


def _reference(address: str) -> Callable[[Any], bool]:
    """A $ref left by ``_inline`` (a recursive definition), compiled once, looked up when called."""
    if address not in _REFERENCES:
        _REFERENCES[address] = None  # compiling it may meet the same reference again
        contents = registry().resolver(address.split("#")[0]).lookup(address).contents
        _REFERENCES[address] = compile_check(_inline(copy.deepcopy(contents), address.split("#")[0], (address,)))

    def check(x) -> bool:
        return _REFERENCES[address](x)

    return check


def record_errors(record: dict, reference: bool = False) -> list[tuple[str, str]]:
    """(path, message) for every way a record breaks its kind's schema."""
    kind = record.get("kind")
    if kind not in KINDS:
        return [("kind", f"unknown kind {kind!r}")]
    if not reference and fast_check(kind)(record):
        return []
    out = []
    check = validator(kind) if reference else fast_validator(kind)
    for err in sorted(check.iter_errors(record), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in err.absolute_path) or "(record)"
        out.append((path, err.message))
    return out
