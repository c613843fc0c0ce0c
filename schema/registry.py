"""The JSON Schemas in schema/: loading, and validating records against them."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from pathlib import Path
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from warscribe.schema import KINDS, SCHEMA_DIR


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
    """``instance -> bool``: the derived schema of ``fast_validator`` compiled to closures.

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


# Keywords that never change whether an instance is valid.
_ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples", "x-error"}

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer()),
}


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _equal(a, b) -> bool:
    """JSON equality as jsonschema has it: 1 == 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict, str)) or isinstance(b, (list, dict, str)):
        return type(a) is type(b) and a == b
    return a == b


def compile_check(node) -> Callable[[Any], bool]:
    """A JSON Schema (2020-12, $refs inlined) as one boolean function.

    Knows the keywords our schemas use and refuses any other, so that it can never
    pass an instance the reference validator would reject for a keyword it skipped.
    """
    if node is True or node == {}:
        return lambda x: True
    if node is False:
        return lambda x: False
    keys = {k for k in node if k not in _ANNOTATIONS}
    if node.get("type") == "object" and keys <= {"type", "properties", "required", "additionalProperties"}:
        return _object(node)
    if node.get("type") in ("integer", "number") and keys <= {"type", "minimum", "maximum"}:
        return _number(node)
    checks: list[Callable[[Any], bool]] = []
    for key, value in node.items():
        if key in _ANNOTATIONS or key in ("then", "else"):
            continue
        checks.append(_keyword(key, value, node))
    if len(checks) == 1:
        return checks[0]
    checks = tuple(checks)

    def every(x) -> bool:
        for check in checks:
            if not check(x):
                return False
        return True

    return every


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


def _object(node) -> Callable[[Any], bool]:
    """The common object node as one function (the hot path of a scenario check)."""
    props = {k: compile_check(v) for k, v in node.get("properties", {}).items()}
    required = tuple(node.get("required", ()))
    extra = node.get("additionalProperties", True)
    extra_check = None if extra in (True, False) else compile_check(extra)

    def check(x) -> bool:
        if type(x) is not dict and not isinstance(x, dict):
            return False
        for k in required:
            if k not in x:
                return False
        for k, v in x.items():
            c = props.get(k)
            if c is not None:
                if not c(v):
                    return False
            elif extra is False or (extra_check is not None and not extra_check(v)):
                return False
        return True

    return check


def _number(node) -> Callable[[Any], bool]:
    integer = node["type"] == "integer"
    low, high = node.get("minimum"), node.get("maximum")

    def check(x) -> bool:
        kind = type(x)
        if kind is int:
            pass
        elif kind is float:
            if integer and not x.is_integer():
                return False
        elif isinstance(x, bool) or not isinstance(x, (int, float)):
            return False
        elif integer and isinstance(x, float) and not x.is_integer():
            return False
        return (low is None or x >= low) and (high is None or x <= high)

    return check


def _keyword(key: str, value, node) -> Callable[[Any], bool]:
    if key == "type":
        kinds = [_TYPES[t] for t in ([value] if isinstance(value, str) else value)]
        return kinds[0] if len(kinds) == 1 else (lambda x: any(k(x) for k in kinds))
    if key == "enum":
        if all(isinstance(v, str) for v in value):
            strings = frozenset(value)
            return lambda x: isinstance(x, str) and x in strings
        return lambda x: any(_equal(x, v) for v in value)
    if key == "const":
        return lambda x: _equal(x, value)
    if key == "properties":
        props = {k: compile_check(v) for k, v in value.items()}

        def properties(x) -> bool:
            if isinstance(x, dict):
                for k, v in x.items():
                    c = props.get(k)
                    if c is not None and not c(v):
                        return False
            return True

        return properties
    if key == "required":
        return lambda x: not isinstance(x, dict) or all(k in x for k in value)
    if key == "additionalProperties":
        known = set(node.get("properties", {}))
        if value is False:
            return lambda x: not isinstance(x, dict) or known.issuperset(x)
        extra = compile_check(value)
        return lambda x: not isinstance(x, dict) or all(extra(v) for k, v in x.items() if k not in known)
    if key == "items":
        item = compile_check(value)

        def items(x) -> bool:
            if isinstance(x, list):
                for v in x:
                    if not item(v):
                        return False
            return True

        return items
    if key == "minItems":
        return lambda x: not isinstance(x, list) or len(x) >= value
    if key == "uniqueItems":
        if not value:
            return lambda x: True
        return lambda x: not isinstance(x, list) or not any(
            _equal(x[i], x[j]) for i in range(len(x)) for j in range(i + 1, len(x))
        )
    if key == "minimum":
        return lambda x: not _is_number(x) or x >= value
    if key == "maximum":
        return lambda x: not _is_number(x) or x <= value
    if key == "maxItems":
        return lambda x: not isinstance(x, list) or len(x) <= value
    if key == "maxLength":
        return lambda x: not isinstance(x, str) or len(x) <= value
    if key == "minLength":
        return lambda x: not isinstance(x, str) or len(x) >= value
    if key == "pattern":
        regex = re.compile(value)
        return lambda x: not isinstance(x, str) or regex.search(x) is not None
    if key in ("anyOf", "oneOf", "allOf"):
        parts = [compile_check(v) for v in value]
        if key == "anyOf":

            def any_of(x) -> bool:
                for p in parts:
                    if p(x):
                        return True
                return False

            return any_of
        if key == "allOf":
            return lambda x: all(p(x) for p in parts)
        return lambda x: sum(1 for p in parts if p(x)) == 1
    if key == "$ref":
        return _reference(value)
    if key == "if":
        cond = compile_check(value)
        then = compile_check(node.get("then", True))
        other = compile_check(node.get("else", True))
        return lambda x: then(x) if cond(x) else other(x)
    raise ValueError(f"compile_check: keyword {key!r} is not supported; add it here")


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
