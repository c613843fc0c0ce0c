"""The Python side of the contract agrees with the JSON Schemas (schema/*.schema.json).

The schemas are the single source of truth for record shapes; these tests fail as soon
as a constructor, the kind and ruleset lists, the dice pattern or the ability
vocabulary says something the schemas do not.
"""

from __future__ import annotations

import ast
import functools
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
        "faq": dict(publication=None, text="Change to: ...", amends=[]),
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
    for path in [*ROOT.glob("extract/**/*.py"), *ROOT.glob("engine/**/*.py"), *ROOT.glob("warscribe/**/*.py"),
                 *ROOT.glob("site/**/*.py")]:
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
    with pytest.raises(bundle.BundleError, match=r"bad.json:1:2: expected a Warscribe build.s JSON, found malformed JSON"):
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


# -- the rooms and their arrows (docs/architecture.md) ------------------------------------

@functools.cache
def _setuptools() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def _package_dirs() -> dict[str, Path]:
    """Import name -> folder, as pyproject.toml maps them (the design card's folders are subpackages)."""
    return {name: ROOT / folder for name, folder in _setuptools()["package-dir"].items()}


def _native_modules() -> set[str]:
    """The C extensions (no Python source: an import of one is no arrow between our modules)."""
    return {ext["name"] for ext in _setuptools().get("ext-modules", [])}


def _modules() -> dict[str, Path]:
    """Every Python module of the package, by its import name."""
    found: dict[str, Path] = {}
    seen: set[Path] = set()
    for package, folder in sorted(_package_dirs().items(), key=lambda kv: -len(kv[0])):
        for path in sorted(folder.rglob("*.py")):
            if path in seen or "__pycache__" in path.parts:
                continue
            seen.add(path)
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports, at its top or inside a function (each is an arrow)."""
    modules = _modules()
    native = _native_modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        arrows: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                arrows |= {known(a.name) for a in node.names if a.name.split(".")[0] == "warscribe"}
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = (base + ("." + node.module if node.module else "")) if node.level else (node.module or "")
                if module.split(".")[0] != "warscribe":
                    continue
                for alias in node.names:
                    full = f"{module}.{alias.name}"
                    if full in native:
                        continue
                    arrows.add(full if full in modules else known(module))
        graph[name] = arrows - {name, None}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def documented_rooms() -> list[dict]:
    """The rooms table of docs/architecture.md: layer (number, name), room, module prefixes, imports."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    lines = text.split("<!-- rooms: read by tests/test_contract.py -->", 1)[1].strip().splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        layer, room, modules, imports = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows.append({"layer": int(layer.split()[0]), "room": room, "modules": re.findall(r"`([\w.]+)`", modules),
                     "imports": {r.strip() for r in imports.split(",") if r.strip()}})
    return rows


def _room_of(rows: list[dict]):
    prefixes = sorted(((p, r["room"]) for r in rows for p in r["modules"]), key=lambda pr: -len(pr[0]))

    def room(module: str) -> str | None:
        return next((r for p, r in prefixes if module == p or module.startswith(p + ".")), None)

    return room


def test_no_circle_of_imports_between_modules():
    """No module reaches itself through its imports, at the top or inside a function."""
    assert _circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_every_module_is_in_one_documented_room():
    rows = documented_rooms()
    names = [r["room"] for r in rows]
    assert len(names) == len(set(names)) and len(rows) >= 6
    room = _room_of(rows)
    assert [m for m in sorted(_modules()) if room(m) is None] == []
    unknown = {i for r in rows for i in r["imports"]} - set(names)
    assert unknown == set(), "the table names rooms it does not list"


def test_the_rooms_table_is_the_imports():
    """Every arrow between rooms is in docs/architecture.md, and every arrow there is in the code."""
    rows = documented_rooms()
    room = _room_of(rows)
    actual: dict[tuple[str, str], str] = {}
    for module, imported in import_graph().items():
        for other in imported:
            a, b = room(module), room(other)
            if a != b:
                actual.setdefault((a, b), f"{module} imports {other}")
    documented = {(r["room"], i) for r in rows for i in r["imports"]}
    assert sorted(actual[arrow] for arrow in set(actual) - documented) == [], "arrows the table does not name"
    assert sorted(set(documented) - set(actual)) == [], "arrows the table names that no import makes"


def test_arrows_point_down_or_across_and_rooms_make_no_circle():
    rows = documented_rooms()
    layer = {r["room"]: r["layer"] for r in rows}
    assert [r["layer"] for r in rows] == sorted(r["layer"] for r in rows), "the table lists layers bottom up"
    upward = [(r["room"], i) for r in rows for i in r["imports"] if layer[i] > r["layer"]]
    assert upward == []
    assert _circles({r["room"]: r["imports"] for r in rows}) == []
    # The readers and the engine never import each other: records are all there is between them.
    by_room = {r["room"]: r["imports"] for r in rows}
    assert "engine" not in by_room["extract"] and "extract" not in by_room["engine"]
    assert by_room["schema"] == set()
