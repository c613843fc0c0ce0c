"""A JSON Schema (2020-12, $refs inlined) compiled to the source of one Python function.

Why source and not closures: a scenario check walks some sixty schema keywords, and
as one closure per keyword the calls cost more than the tests. Written out as
straight-line code (``if not isinstance(v, dict): return False`` ...), the same
check is a few microseconds, which is what lets ``engine.evaluate(dict)`` validate
every call.

The compiler knows the keywords our schemas use and refuses any other (ValueError),
so that it can never pass an instance the reference validator would reject for a
keyword it skipped. Tests hold it equal to jsonschema on valid and broken records and
scenarios (tests/test_schemas.py).

Nothing of the instance reaches the generated source: keys, enums, patterns and
constants are passed in as named values, never spliced into code as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# Keywords that never change whether an instance is valid.
ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples", "x-error"}

# Deeper than this many nested blocks, a node becomes a function of its own (Python
# refuses more than 20 statically nested blocks in one function).
_MAX_INLINE_DEPTH = 8

_TYPE_TESTS = {
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "number": "(isinstance({v}, (int, float)) and not isinstance({v}, bool))",
    "integer": "((isinstance({v}, int) and not isinstance({v}, bool)) or (isinstance({v}, float) and {v}.is_integer()))",
}

# The type a keyword constrains; on other types it says nothing.
_APPLIES_TO = {
    "properties": "object", "required": "object", "additionalProperties": "object",
    "items": "array", "minItems": "array", "maxItems": "array", "uniqueItems": "array",
    "minLength": "string", "maxLength": "string", "pattern": "string",
    "minimum": "number", "maximum": "number",
}


def equal(a, b) -> bool:
    """JSON equality as jsonschema has it: 1 == 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict, str)) or isinstance(b, (list, dict, str)):
        return type(a) is type(b) and a == b
    return a == b


def _unique(items: list) -> bool:
    if all(type(x) is str for x in items):  # the usual case (lists of ids): by hashing, not pairwise
        return len(set(items)) == len(items)
    return not any(equal(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items)))


class _Compiler:
    """Writes one ``def`` per node that needs its own function; the root is ``f0``."""

    def __init__(self, reference: Callable[[str], Callable[[Any], bool]]):
        self.reference = reference
        self.functions: list[list[str]] = []
        self.values: dict[str, Any] = {"_equal": equal, "_unique": _unique}
        self.counter = 0

    def value(self, obj) -> str:
        """A name for a constant of the schema (never written into the source as text)."""
        name = f"c{len(self.values)}"
        self.values[name] = obj
        return name

    def var(self) -> str:
        self.counter += 1
        return f"v{self.counter}"

    def function(self, node) -> str:
        name = f"f{len(self.functions)}"
        body: list[str] = []
        self.functions.append(body)  # reserve the name before compiling the body
        lines = [f"def {name}(x):"]
        self.node(node, "x", 1, lines)
        lines.append("    return True")
        body.extend(lines)
        return name

    def node(self, node, v: str, depth: int, out: list[str]) -> None:
        """Lines that ``return False`` when ``v`` breaks ``node``."""
        pad = "    " * depth
        if node is True or node == {}:
            return
        if node is False:
            out.append(f"{pad}return False")
            return
        if not isinstance(node, dict):
            raise ValueError(f"compile_check: not a schema: {node!r}")
        if depth > _MAX_INLINE_DEPTH:
            out.append(f"{pad}if not {self.function(node)}({v}): return False")
            return
        for key in node:
            if key not in ANNOTATIONS and key not in _KEYWORDS:
                raise ValueError(f"compile_check: keyword {key!r} is not supported; add it here")
        types = node.get("type")
        known = None  # the one type ``v`` is known to have after the type test
        if types is not None:
            listed = [types] if isinstance(types, str) else list(types)
            test = " or ".join(_TYPE_TESTS[t].format(v=v) for t in listed)
            out.append(f"{pad}if not ({test}): return False")
            if len(listed) == 1:
                known = "number" if listed[0] == "integer" else listed[0]
        if "enum" in node:
            values = node["enum"]
            if all(isinstance(e, str) for e in values):
                out.append(f"{pad}if not (isinstance({v}, str) and {v} in {self.value(frozenset(values))}): return False")
            else:
                out.append(f"{pad}if not any(_equal({v}, e) for e in {self.value(list(values))}): return False")
        if "const" in node:
            out.append(f"{pad}if not _equal({v}, {self.value(node['const'])}): return False")
        for of in ("object", "array", "string", "number"):
            keys = [k for k in node if _APPLIES_TO.get(k) == of]
            if not keys:
                continue
            if known == of:
                getattr(self, f"_{of}")(node, v, depth, out)
            else:
                guard = _TYPE_TESTS[of].format(v=v)
                out.append(f"{pad}if {guard}:")
                inner: list[str] = []
                getattr(self, f"_{of}")(node, v, depth + 1, inner)
                out.extend(inner or [f"{pad}    pass"])
        for key in ("anyOf", "oneOf"):
            if key in node:
                calls = [f"{self.function(part)}({v})" for part in node[key]]
                if key == "anyOf":
                    out.append(f"{pad}if not ({' or '.join(calls)}): return False")
                else:
                    out.append(f"{pad}if ({' + '.join(calls)}) != 1: return False")
        for part in node.get("allOf", ()):
            self.node(part, v, depth, out)
        if "$ref" in node:
            out.append(f"{pad}if not {self.value(self.reference(node['$ref']))}({v}): return False")
        if "if" in node:
            cond = self.function(node["if"])
            out.append(f"{pad}if {cond}({v}):")
            self.block(node.get("then", True), v, depth + 1, out)
            other: list[str] = []
            self.node(node.get("else", True), v, depth + 1, other)
            if other:
                out.append(f"{pad}else:")
                out.extend(other)

    def block(self, node, v: str, depth: int, out: list[str]) -> None:
        """The lines of ``node`` as the body of a block opened by the line before (``pass`` if none)."""
        inner: list[str] = []
        self.node(node, v, depth, inner)
        out.extend(inner or ["    " * depth + "pass"])

    def bounds(self, node, low: str, high: str, measure: str, out: list[str], pad: str) -> None:
        """``low``/``high`` keywords (minItems/maxItems...) as tests of ``measure``."""
        for key, broken in ((low, "<"), (high, ">")):
            if key in node:
                out.append(f"{pad}if {measure} {broken} {self.value(node[key])}: return False")

    def _object(self, node, v: str, depth: int, out: list[str]) -> None:
        pad = "    " * depth
        required = node.get("required", ())
        if required:
            out.append(f"{pad}if not {self.value(frozenset(required))}.issubset({v}): return False")
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        if extra is False:
            out.append(f"{pad}if not {self.value(frozenset(props))}.issuperset({v}): return False")
        for key, sub in props.items():
            if sub is True or sub == {}:
                continue
            w = self.var()
            out.append(f"{pad}{w} = {v}.get({self.value(key)}, _missing)")
            out.append(f"{pad}if {w} is not _missing:")
            self.block(sub, w, depth + 1, out)
        if extra not in (True, False) and extra != {}:
            k, w = self.var(), self.var()
            out.append(f"{pad}for {k}, {w} in {v}.items():")
            out.append(f"{pad}    if {k} not in {self.value(frozenset(props))}:")
            self.block(extra, w, depth + 2, out)

    def _array(self, node, v: str, depth: int, out: list[str]) -> None:
        pad = "    " * depth
        self.bounds(node, "minItems", "maxItems", f"len({v})", out, pad)
        if node.get("uniqueItems"):
            out.append(f"{pad}if not _unique({v}): return False")
        if "items" in node and node["items"] is not True and node["items"] != {}:
            w = self.var()
            out.append(f"{pad}for {w} in {v}:")
            self.block(node["items"], w, depth + 1, out)

    def _string(self, node, v: str, depth: int, out: list[str]) -> None:
        pad = "    " * depth
        self.bounds(node, "minLength", "maxLength", f"len({v})", out, pad)
        if "pattern" in node:
            out.append(f"{pad}if {self.value(re.compile(node['pattern']).search)}({v}) is None: return False")

    def _number(self, node, v: str, depth: int, out: list[str]) -> None:
        self.bounds(node, "minimum", "maximum", v, out, "    " * depth)


_KEYWORDS = {
    "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
    "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "anyOf", "oneOf", "allOf", "$ref",
    "if", "then", "else",
}


def compile_schema(node, reference: Callable[[str], Callable[[Any], bool]]) -> Callable[[Any], bool]:
    """``instance -> bool`` for ``node``; ``reference(address)`` gives the check of a $ref."""
    if node is True or node == {}:
        return lambda x: True
    if node is False:
        return lambda x: False
    compiler = _Compiler(reference)
    root = compiler.function(node)
    source = "\n\n".join("\n".join(lines) for lines in compiler.functions)
    namespace: dict[str, Any] = {**compiler.values, "_missing": object()}
    exec(compile(source, "<compiled schema>", "exec"), namespace)  # noqa: S102 (source written above, from the schema only)
    return namespace[root]
