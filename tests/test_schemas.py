"""schema/ is the single source of truth: the quick validator must agree with it."""

from __future__ import annotations

import copy
import json

import pytest

from warscribe.extract.pipeline import extract
from warscribe.schema.registry import KINDS, SCHEMA_DIR, record_errors, schema

from conftest import ROOT


@pytest.fixture(scope="module")
def records():
    return extract(ROOT / "sources" / "manifest.yaml").records


def _breakages(record: dict):
    """Ways to break a record: drop a required field, add an unknown one, corrupt values."""
    yield {k: v for k, v in record.items() if k != "name"}
    yield {**record, "surprise": 1}
    yield {**record, "id": "Not A Slug"}
    yield {**record, "ruleset": "9e"}
    broken = copy.deepcopy(record)
    broken["source"][0]["first_line"] = 0
    yield broken
    if record["kind"] == "weapon":
        yield {**record, "damage": "D7"}
        yield {**record, "abilities": [{"id": "anti", "text": "anti"}]}
    if record["kind"] == "stratagem":
        yield {**record, "category": "Gambit"}
    if record["kind"] == "datasheet":
        yield {**record, "keywords": ["lowercase"]}


def test_every_kind_has_a_schema():
    for kind in KINDS:
        assert (SCHEMA_DIR / f"{kind}.schema.json").is_file()
        assert schema(kind)["properties"]["kind"] == {"const": kind}


def test_quick_validator_agrees_with_the_published_schemas(records):
    checked = 0
    for record in records:
        assert record_errors(record) == [] == record_errors(record, reference=True), record["id"]
        for broken in _breakages(record):
            fast = {p for p, _ in record_errors(broken)}
            ref = {p for p, _ in record_errors(broken, reference=True)}
            assert fast and ref, json.dumps(broken)[:200]
            # The published form also reports the failed allOf at the root; same verdict.
            assert fast - {"(record)"} == ref - {"(record)"}, (record["id"], fast, ref)
            checked += 1
    assert checked > 1000


ODD_VALUES = [None, True, 0, -1, 1.5, 7.0, "", "x", "3+", "D6", [], {}, ["X"], {"id": "custom"}]


def _mutations(value, depth: int = 0):
    """Every way to swap one value (at any depth) for an odd one, drop a key or add one."""
    if depth > 6:
        return
    if isinstance(value, dict):
        yield {**value, "surprise": 1}
        for key, inner in value.items():
            yield {k: v for k, v in value.items() if k != key}
            for odd in ODD_VALUES:
                yield {**value, key: odd}
            for changed in _mutations(inner, depth + 1):
                yield {**value, key: changed}
    elif isinstance(value, list):
        yield []
        for i, inner in enumerate(value):
            for odd in ODD_VALUES:
                yield value[:i] + [odd] + value[i + 1 :]
            for changed in _mutations(inner, depth + 1):
                yield value[:i] + [changed] + value[i + 1 :]


def _agree(name: str, instance) -> bool:
    from warscribe.schema.registry import fast_check, validator

    return fast_check(name)(instance) == validator(name).is_valid(instance)


@pytest.mark.slow
def test_compiled_check_agrees_with_the_reference_validator_on_records(records):
    checked = 0
    for record in records[::7]:
        for instance in [record, *_breakages(record), *_mutations(record)]:
            assert _agree(record["kind"], instance), json.dumps(instance)[:300]
            checked += 1
    assert checked > 5000


@pytest.mark.slow
def test_compiled_check_agrees_with_the_reference_validator_on_scenarios():
    import yaml

    from warscribe.bench.engine import SCENARIOS

    examples = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))]
    checked = 0
    for data in SCENARIOS[::3] + examples:
        for instance in [data, *_mutations(data)]:
            assert _agree("scenario", instance), json.dumps(instance)[:300]
            checked += 1
    assert checked > 5000


def test_compiled_check_refuses_keywords_it_does_not_know():
    from warscribe.schema.registry import compile_check

    with pytest.raises(ValueError, match="patternProperties"):
        compile_check({"type": "object", "patternProperties": {"^x": {"type": "string"}}})


def test_compiled_check_keeps_schema_text_out_of_its_source():
    """Keys, enums and patterns reach the compiled check as values, never as code."""
    from jsonschema import Draft202012Validator

    from warscribe.schema.registry import compile_check

    odd = "a'\"\n); raise SystemExit(1) #"
    node = {"type": "object", "required": [odd], "additionalProperties": False,
            "properties": {odd: {"enum": [odd, "b"]}, "n": {"type": "integer", "minimum": 1}}}
    check, reference = compile_check(node), Draft202012Validator(node)
    for instance in ({odd: odd}, {odd: "b", "n": 2}, {odd: "c"}, {"n": 1}, {odd: odd, "n": 0}, {odd: odd, "x": 1}):
        assert check(instance) == reference.is_valid(instance), instance


def test_compiled_check_handles_nesting_deeper_than_python_blocks():
    from jsonschema import Draft202012Validator

    from warscribe.schema.registry import compile_check

    node: dict = {"type": "integer"}
    valid, broken = 1, "x"
    for _ in range(40):
        node = {"type": "array", "items": {"type": "object", "properties": {"k": node}}}
        valid, broken = [{"k": valid}], [{"k": broken}]
    check, reference = compile_check(node), Draft202012Validator(node)
    assert check(valid) and reference.is_valid(valid)
    assert not check(broken) and not reference.is_valid(broken)
