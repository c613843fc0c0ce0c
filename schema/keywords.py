"""Keyword expressions: which units a rule applies to, as a small tree.

The core rules' keyword bullets (the "Inquisitor's Hand" extract) give the meaning:

* a unit has every keyword of every model in it (a mixed unit has them all);
* a comma, slash or ``or`` list means any one of them: ``{"any": [...]}``;
* adjacent keywords mean all of them: ``{"all": [...]}``;
* ``non-KEYWORD`` means a unit without it: ``{"not": ...}``;
* singular and plural are the same keyword (``CHARACTERS`` is ``CHARACTER``).

A leaf is ``{"keyword": "PSYKER"}``. ``schema/effect.schema.json#/$defs/keywords`` is the
shape; the parser lives in ``extract/keyexpr.py``, and both the extraction (which
datasheets a stratagem can target) and the engine (is this stratagem allowed on the
scenario's unit) evaluate with :func:`matches` here.
"""

from __future__ import annotations

from collections.abc import Iterable


def same_keyword(a: str, b: str) -> bool:
    """Equal as keywords: case folded, singular and plural alike (TERMINATOR / TERMINATORS), a curly
    apostrophe the same as a straight one (rules text prints T’AU EMPIRE, datasheets T'AU EMPIRE)."""
    a, b = _normal(a), _normal(b)
    if a == b:
        return True
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return long_ in (short + "S", short + "ES")


def has_keyword(keywords: Iterable[str], keyword: str) -> bool:
    return _has(_normal_set(keywords), keyword)


def same_keywords(a: Iterable[str], b: Iterable[str]) -> bool:
    """Two keyword lists say the same: every keyword of each is a keyword of the other (`same_keyword`)."""
    na, nb = _normal_set(a), _normal_set(b)
    return all(_has(nb, k) for k in na) and all(_has(na, k) for k in nb)


def _normal(keyword: str) -> str:
    return " ".join(keyword.upper().replace("’", "'").split())


def _normal_set(keywords: Iterable[str]) -> frozenset[str]:
    return frozenset(_normal(k) for k in keywords)


def _has(normal: frozenset[str], keyword: str) -> bool:
    """`same_keyword` against every keyword of `normal` (normal forms) at once: the forms that
    are the same keyword as `keyword` (itself, its plural, its singular), looked up."""
    k = _normal(keyword)
    if k in normal or k + "S" in normal or k + "ES" in normal:
        return True
    return (k.endswith("S") and k[:-1] in normal) or (k.endswith("ES") and k[:-2] in normal)


def matches(expr: dict | None, keywords: Iterable[str]) -> bool:
    """Whether a unit with `keywords` (all of its models' keywords) satisfies `expr`.

    ``None`` is "any unit" (a TARGET that names no keyword).
    """
    if expr is None:
        return True
    return _matches(expr, _normal_set(keywords))


def _matches(expr: dict, normal: frozenset[str]) -> bool:
    if "keyword" in expr:
        return _has(normal, expr["keyword"])
    if "all" in expr:
        return all(_matches(e, normal) for e in expr["all"])
    if "any" in expr:
        return any(_matches(e, normal) for e in expr["any"])
    if "not" in expr:
        return not _matches(expr["not"], normal)
    raise ValueError(f"not a keyword expression: {expr!r}")


def describe(expr: dict | None) -> str:
    """The expression in the rules' own notation: 'PSYKER INFANTRY', 'MONSTER or VEHICLE', 'non-VEHICLE'."""
    if expr is None:
        return "any unit"
    if "keyword" in expr:
        return expr["keyword"]
    if "not" in expr:
        inner = describe(expr["not"])
        return f"non-{inner}" if "keyword" in expr["not"] else f"not ({inner})"
    if "all" in expr:
        return " ".join(describe(e) if "any" not in e else f"({describe(e)})" for e in expr["all"])
    parts = [describe(e) if "all" not in e else f"({describe(e)})" for e in expr["any"]]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def unit_keywords(datasheet: dict) -> list[str]:
    """Every keyword of a datasheet's unit: its keywords, faction keywords and its models' keywords."""
    out = list(datasheet.get("keywords", [])) + list(datasheet.get("faction_keywords", []))
    for model in datasheet.get("models", None) or []:
        out += [k for k in model.get("keywords", []) if k not in out]
    return out
