"""The Python side of the contract agrees with the JSON Schemas (schema/*.schema.json).

The schemas are the single source of truth for record shapes; these tests fail as soon
as a constructor, the kind and ruleset lists, the dice pattern or the ability
vocabulary says something the schemas do not.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warscribe.schema import DICE_PATTERN, KINDS, RULESETS, SCHEMA_DIR, bundle, ids, records
from warscribe.schema.abilities import ABILITIES
from warscribe.schema.diagnostics import CODES, Report
from warscribe.schema.registry import record_errors, schema
from warscribe.schema.values import parse_dice

ROOT = Path(__file__).resolve().parent.parent
COMMON = schema("defs")["$defs"]["common"]


def _properties(kind: str) -> tuple[set[str], set[str]]:
    """(all fields, required fields) of a kind: the common part and the kind's own."""
    s = schema(kind)
    props = set(COMMON["properties"]) | set(s["properties"])
    required = set(COMMON["required"]) | set(s.get("required", []))
    return props - {"kind"}, required - {"kind"}


def test_kinds_and_rulesets_come_from_the_schemas():
    assert KINDS == tuple(COMMON["properties"]["kind"]["enum"])
    assert RULESETS == tuple(schema("defs")["$defs"]["ruleset"]["enum"])
    assert schema("scenario")["properties"]["ruleset"]["$ref"] == "defs.schema.json#/$defs/ruleset"
    for kind in KINDS:
        assert (SCHEMA_DIR / f"{kind}.schema.json").is_file()
        assert schema(kind)["properties"]["kind"] == {"const": kind}


@pytest.mark.parametrize("kind", KINDS)
def test_constructor_parameters_are_the_schema_fields(kind):
    params = inspect.signature(records.CONSTRUCTORS[kind]).parameters
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values()), "keyword arguments only"
    fields, required = _properties(kind)
    assert set(params) == fields, f"{kind}: constructor and schema list different fields"
    optional_in_schema = fields - required
    for name, p in params.items():
        if name == "source":
            # Provenance is attached when a record is stored (extract's store), so it may come later.
            assert p.default is records.OMIT
        elif name in required:
            # A required field may default only to a value the schema allows (None for a nullable text).
            assert p.default is inspect.Parameter.empty or p.default is None, f"{kind}.{name} is required"
        else:
            assert p.default is records.OMIT, f"{kind}.{name} is optional in the schema: default OMIT"
    assert optional_in_schema <= {n for n, p in params.items() if p.default is records.OMIT}


def _minimal(kind: str) -> dict:
    values = {
        "datasheet": dict(faction="Grey Knights", keywords=["INFANTRY"], faction_keywords=["GREY KNIGHTS"],
                          composition=[], points=[], abilities=[], weapons=[], wargear_options=[]),
        "weapon": dict(datasheet="a/b", type="ranged", range=24, attacks=2, skill=3, strength=4, ap=0, damage=1,
                       abilities=[]),
        "stratagem": dict(cp=1, category="Battle Tactic", origin="core", detachment=None),
        "detachment": dict(faction="Grey Knights", rule=None, stratagems=[], enhancements=[]),
        "enhancement": dict(detachment=None, points=10, text="Text.", restriction=None),
        "ability": dict(type="core", text="Text."),
        "rule": dict(number=None, title="T", text="Text.", bullets=[], see_also=[]),
        "keyword": dict(faction_keyword=False, datasheets=[], usage=[]),
    }[kind]
    source = [{"file": "sources/x.txt", "first_line": 1, "last_line": 1, "ruleset": "10e"}]
    return records.make(kind, id="a/b", name="N", ruleset="10e", source=source, **values)


@pytest.mark.parametrize("kind", KINDS)
def test_constructed_records_validate_and_leave_out_omitted_fields(kind):
    record = _minimal(kind)
    assert list(record)[:4] == ["id", "kind", "name", "ruleset"] and record["kind"] == kind
    assert list(record)[-1] == "source"
    assert record_errors(record) == [] and record_errors(record, reference=True) == []
    assert records.OMIT not in record.values()


def test_the_only_record_literals_are_in_the_constructors():
    """No module outside schema/records.py writes a record dict ({"id": ..., "kind": ...})."""
    offenders = []
    for path in [*ROOT.glob("extract/**/*.py"), *ROOT.glob("engine/**/*.py"), *ROOT.glob("warscribe/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"id", "kind", "name"} <= keys:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_ability_vocabulary_is_the_schema_enum():
    assert set(schema("weapon-ability")["properties"]["id"]["enum"]) == set(ABILITIES) | {"custom"}


@given(st.from_regex(r"\A(?:[0-9]{1,2}|[0-9]?D[0-9](?:\+[0-9]{1,3})?|[A-Z0-9+]{1,5})\Z"))
def test_the_dice_parser_accepts_exactly_the_schema_pattern(raw):
    matches = bool(re.fullmatch(r"\d+", raw)) or bool(re.fullmatch(DICE_PATTERN, raw))
    try:
        parse_dice(raw, "A")
        parsed = True
    except ValueError:
        parsed = False
    assert parsed == matches


def test_ids_match_the_id_pattern():
    pattern = schema("defs")["$defs"]["id"]["pattern"]
    made = [ids.datasheet("Grey Knights", "Paladin Squad"), ids.weapon("grey-knights/paladin-squad", "Psycannon"),
            ids.stratagem("core", "11e", "COMMAND RE-ROLL"), ids.stratagem("boarding-actions", "10e", "X"),
            ids.enhancement("Tome", None, "Imperial Agents"), ids.rule("11e", "Save Rolls", "05.03"),
            ids.untitled_rule("11e", "Inquisitor's Hand", "Each unit"), ids.keyword("10e", "AGENTS OF THE IMPERIUM"),
            ids.core_ability("10e", "Deep Strike"), ids.faction_ability("Grey Knights", "Gate of Infinity"),
            ids.weapon_ability("10e", "lethal-hits")]
    assert all(re.fullmatch(pattern, i) for i in made), made
    with pytest.raises(ValueError):
        ids.stratagem("detachment", "10e", "X")


def test_every_reported_code_is_in_the_vocabulary():
    report = Report()
    with pytest.raises(ValueError, match="not in the vocabulary"):
        report.warning("f", 1, "no-such-code", "m")
    assert all(c.level in ("error", "warning") and c.meaning and c.action for c in CODES.values())


def test_docs_list_every_diagnostic_code():
    from warscribe.schema.diagnostics import codes_markdown

    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert text == codes_markdown(), "regenerate: python -m warscribe.schema.diagnostics > docs/diagnostics.md"


# -- the bundle loader ------------------------------------------------------------------

def _records() -> list[dict]:
    ds = _minimal("datasheet") | {"id": "gk/paladin", "name": "Paladin Squad", "weapons": ["gk/paladin/gun", "gk/paladin/gone"]}
    gun = _minimal("weapon") | {"id": "gk/paladin/gun", "name": "Gun", "datasheet": "gk/paladin"}
    det = _minimal("detachment") | {"id": "gk/host", "name": "Host", "stratagems": ["gk/host/smite"]}
    strat = _minimal("stratagem") | {"id": "gk/host/smite", "name": "SMITE", "origin": "detachment", "detachment": "gk/host"}
    kw10 = _minimal("keyword") | {"id": "10e/keywords/infantry", "name": "INFANTRY", "datasheets": ["gk/paladin"]}
    kw11 = kw10 | {"id": "11e/keywords/infantry", "ruleset": "11e", "datasheets": []}
    return [ds, gun, det, strat, kw10, kw11]


def test_bundle_looks_up_by_id_kind_name_and_ruleset():
    b = bundle.from_records(_records())
    assert b.get("gk/paladin/gun")["name"] == "Gun" and "gk/host" in b and len(b) == 6
    assert [r["id"] for r in b.kind("keyword")] == ["10e/keywords/infantry", "11e/keywords/infantry"]
    assert [r["id"] for r in b.named("infantry", "keyword", "11e")] == ["11e/keywords/infantry"]
    assert len(b.named("INFANTRY")) == 2 and b.named("nothing") == []


def test_bundle_back_references():
    b = bundle.from_records(_records())
    ds = b.get("gk/paladin")
    assert b.datasheet_of(b.get("gk/paladin/gun")) is ds
    assert [w["id"] for w in b.weapons_of(ds)] == ["gk/paladin/gun"]
    assert b.detachment_of(b.get("gk/host/smite"))["id"] == "gk/host"
    assert [s["id"] for s in b.stratagems_of(b.get("gk/host"))] == ["gk/host/smite"]
    assert [s["id"] for s in b.referring("gk/host", "stratagem")] == ["gk/host/smite"]
    assert [d["id"] for d in b.datasheets_with_keyword(b.get("10e/keywords/infantry"))] == ["gk/paladin"]
    assert [k["id"] for k in b.keywords_of(ds)] == ["10e/keywords/infantry"]


def test_bundle_reports_dangling_ids_and_duplicates():
    recs = _records()
    b = bundle.from_records(recs + [dict(recs[1])])
    assert b.dangling == [bundle.Dangling("gk/paladin", "weapons", "gk/paladin/gone")]
    assert b.duplicates == ["gk/paladin/gun"]


def test_bundle_loads_a_build_folder_its_json_folder_and_the_file(tmp_path):
    import json

    data = {"meta": {"count": 6}, "data": {k: [r for r in _records() if r["kind"] == k] for k in KINDS}}
    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "warscribe.json").write_text(json.dumps(data), encoding="utf-8")
    for where in (tmp_path, tmp_path / "json", tmp_path / "json" / "warscribe.json"):
        assert len(bundle.load(where)) == 6
    with pytest.raises(bundle.BundleError, match="run `warscribe build`"):
        bundle.load(tmp_path / "nothing")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(bundle.BundleError, match="cannot read"):
        bundle.load(tmp_path / "bad.json")


def test_bundle_loads_only_some_kinds_from_the_per_kind_files(tmp_path):
    import json

    recs = _records()
    (tmp_path / "json").mkdir()
    by_kind = {k: [r for r in recs if r["kind"] == k] for k in KINDS}
    (tmp_path / "json" / "warscribe.json").write_text(json.dumps({"meta": {}, "data": by_kind}), encoding="utf-8")
    b = bundle.load(tmp_path, kinds=["datasheet", "detachment"])
    assert sorted(r["id"] for r in b) == ["gk/host", "gk/paladin"]  # read from the bundle: no per-kind files
    assert b.dangling == []  # the weapons and stratagems were not loaded, not missing
    for kind, group in by_kind.items():
        (tmp_path / "json" / f"{kind}.json").write_text(json.dumps({"meta": {"kind": kind}, "data": group}),
                                                        encoding="utf-8")
    (tmp_path / "json" / "warscribe.json").write_text("{not json", encoding="utf-8")  # so the bundle is not read
    b = bundle.load(tmp_path, kinds=["datasheet", "weapon"])
    assert [r["id"] for r in b] == ["gk/paladin", "gk/paladin/gun"]
    assert b.dangling == [bundle.Dangling("gk/paladin", "weapons", "gk/paladin/gone")]
    with pytest.raises(bundle.BundleError, match="no record kind"):
        bundle.load(tmp_path, kinds=["army"])


# -- the dependency rule ----------------------------------------------------------------

_LAYERS = {"schema": {"warscribe.schema"}, "extract": {"warscribe.schema", "warscribe.extract"},
           "engine": {"warscribe.schema", "warscribe.engine"}}


@pytest.mark.parametrize("folder", sorted(_LAYERS))
def test_nothing_below_imports_from_above(folder):
    """schema/ stands alone; extract/ and engine/ stand on it and never import each other or the CLI."""
    bad = []
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")
                ours = top[0] in ("warscribe", "extract", "engine", "schema")
                if ours and not any(name == a or name.startswith(a + ".") for a in _LAYERS[folder]):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert bad == []
