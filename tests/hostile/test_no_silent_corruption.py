"""No silent corruption: byte-order marks, colliding ids, stray lines, manifest order, implausible values."""

from __future__ import annotations

import shutil
import subprocess
import sys

import yaml

from conftest import ROOT, write_manifest
from warscribe.extract.pipeline import extract, line_accounting
from warscribe.schema import ids

PAGE = ROOT / "sources" / "datasheet-grey-knights-paladin-squad.10e.txt"
FIXTURE = ROOT / "tests" / "fixtures" / "wahapedia"


def _page(tmp_path, lines: list[str], prefix: bytes = b"") -> dict:
    (tmp_path / "p.txt").write_bytes(prefix + "\n".join(lines).encode("utf-8"))
    result = extract(write_manifest(tmp_path, [{"file": "p.txt", "ruleset": "10e", "kind": "datasheet-page"}]))
    return result


def _seed_lines() -> list[str]:
    return PAGE.read_text(encoding="utf-8").split("\n")


def test_a_byte_order_mark_never_reaches_a_record(tmp_path):
    result = _page(tmp_path, _seed_lines(), prefix=b"\xef\xbb\xbf")
    [ds] = [r for r in result.records if r["kind"] == "datasheet"]
    assert ds["faction"] == "Grey Knights" and ds["id"] == "grey-knights/paladin-squad"
    assert not any("\ufeff" in str(r) for r in result.records)


def test_weapons_whose_names_slug_alike_get_distinct_ids_and_a_warning(tmp_path):
    lines = _seed_lines()
    at = lines.index("MELEE WEAPONS | RANGE | A | WS | S | AP | D | |")
    lines[at:at] = ["| Plasma gun | |||||||", '| Plasma gun | 24" | 1 | 3+ | 7 | -2 | 1 | |',
                    "| Plasma-gun! | |||||||", '| Plasma-gun! | 24" | 2 | 3+ | 8 | -3 | 2 | |']
    result = _page(tmp_path, lines)
    weapons = {r["id"]: r for r in result.records if r["kind"] == "weapon"}
    first, second = weapons["grey-knights/paladin-squad/plasma-gun"], weapons["grey-knights/paladin-squad/plasma-gun-2"]
    assert (first["name"], first["strength"]) == ("Plasma gun", 7)
    assert (second["name"], second["strength"]) == ("Plasma-gun!", 8)
    [ds] = [r for r in result.records if r["kind"] == "datasheet"]
    assert {first["id"], second["id"]} <= set(ds["weapons"])
    [warning] = [d for d in result.report.warnings if d.code == "id-collision"]
    assert warning.line == at + 3 and "Plasma-gun!" in warning.message


def test_weapon_ids_are_by_order_of_appearance_and_skip_taken_ids():
    assert ids.weapons("f/u", ["A b", "A-b", "A b", "a B!", "A-b-2"]) == [
        "f/u/a-b", "f/u/a-b-2", "f/u/a-b", "f/u/a-b-3", "f/u/a-b-2-2"]


def test_one_unrecognised_line_after_the_weapon_table_does_not_end_the_datasheet(tmp_path):
    baseline = {r["id"]: r for r in _page(tmp_path, _seed_lines()).records}
    lines = _seed_lines()
    at = lines.index("WARGEAR OPTIONS")
    lines.insert(at, "Some line no parser knows")
    result = _page(tmp_path, lines)
    records = {r["id"]: r for r in result.records}
    ds = records["grey-knights/paladin-squad"]
    assert ds["keywords"] and ds["composition"] and ds["points"] and ds["abilities"]
    assert set(records) == set(baseline)  # no junk rule records
    assert line_accounting(result.documents[0])["unaccounted"] == 1
    [stray] = [d for d in result.report.warnings if d.code == "unaccounted-line"]
    assert stray.line == at + 1 and stray.found == "Some line no parser knows"


def test_a_line_the_abilities_section_cannot_read_is_reported_and_the_section_goes_on(tmp_path):
    lines = _seed_lines()
    at = lines.index("WARGEAR ABILITIES")
    lines.insert(at - 1, "| a stray | table row |")
    result = _page(tmp_path, lines)
    [ds] = [r for r in result.records if r["kind"] == "datasheet"]
    assert {"Attuned Onslaught", "Ancient’s Banner"} <= {a["name"] for a in ds["abilities"]}
    assert ds["points"]
    assert line_accounting(result.documents[0])["unaccounted"] == 1


def _copy(folder, order):
    shutil.copytree(FIXTURE, folder, ignore=shutil.ignore_patterns("*.py"))
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text(encoding="utf-8"))
    manifest["sources"] = [manifest["sources"][i] for i in order]
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    return folder / "manifest.yaml"


def test_the_same_sources_in_any_manifest_order_give_the_same_records(tmp_path):
    n = len(yaml.safe_load((FIXTURE / "manifest.yaml").read_text(encoding="utf-8"))["sources"])
    builds = []
    for name, order in (("a", range(n)), ("b", reversed(range(n))), ("c", [2, 5, 0, 3, 1, 4][:n])):
        (tmp_path / name).mkdir()
        result = extract(_copy(tmp_path / name / "sources", list(order)))
        builds.append(result.records)
    assert builds[0] == builds[1] == builds[2]


def test_a_manifest_rank_says_which_source_is_consulted_first(tmp_path):
    (tmp_path / "sources").mkdir()
    manifest = _copy(tmp_path / "sources" / "s", range(6))
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    from warscribe.extract.manifest import load_manifest, ranked
    from warscribe.extract.pipeline import READERS
    from warscribe.schema.diagnostics import Report

    names = [s.entry["file"] for s in ranked(load_manifest(manifest, Report(), READERS))]
    assert names == sorted(names, key=lambda f: f"sources/s/{f}")
    data["sources"][3]["rank"] = 1  # the 11e page
    manifest.write_text(yaml.safe_dump(data), encoding="utf-8")
    names = [s.entry["file"] for s in ranked(load_manifest(manifest, Report(), READERS))]
    assert names[0] == data["sources"][3]["file"]


def test_implausible_characteristics_warn_at_build_and_are_refused_by_calc(tmp_path):
    lines = _seed_lines()
    at = lines.index("MELEE WEAPONS | RANGE | A | WS | S | AP | D | |")
    lines[at:at] = ["| Null gun | |||||||", '| Null gun | 24" | 1 | 3+ | 0 | 0 | 0 | |',
                    "| Many gun | |||||||", '| Many gun | 24" | 100000 | 3+ | 4 | 0 | 1 | |']
    result = _page(tmp_path, lines)
    found = sorted((d.found, d.line) for d in result.report.warnings if d.code == "implausible-characteristic")
    assert found == [("attacks: 100000", at + 3), ("damage: 0", at + 1), ("strength: 0", at + 1)]
    assert {"grey-knights/paladin-squad/null-gun", "grey-knights/paladin-squad/many-gun"} <= {r["id"] for r in result.records}
    weapon = {"name": "X", "range": 24, "attacks": 2, "skill": 3, "strength": 0, "ap": 0, "damage": 1}
    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump({"attacker": {"weapons": [{"models": 1, "weapon": weapon}]},
                                        "target": {"toughness": 4, "save": 3, "wounds": 1, "models": 5}}))
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "calc", str(scenario)], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "attacker.weapons[0].weapon.strength: S 0 makes no attack" in proc.stderr


def test_a_ranged_and_a_melee_profile_of_one_name_are_two_weapons_in_any_order():
    names, types = ["Guardian spear", "Guardian spear", "Guardian spear"], ["melee", "ranged", "melee"]
    assert ids.weapons("f/u", names, types) == ["f/u/guardian-spear-melee", "f/u/guardian-spear", "f/u/guardian-spear-melee"]
    assert ids.weapons("f/u", names[1:], types[1:]) == ["f/u/guardian-spear", "f/u/guardian-spear-melee"]
    # names that differ only in case are one weapon's two profiles too (Toxinjector Harpoon / harpoon)
    assert ids.weapons("f/u", ["Toxinjector Harpoon", "Toxinjector harpoon"], ["ranged", "melee"]) == [
        "f/u/toxinjector-harpoon", "f/u/toxinjector-harpoon-melee"]
    # a melee weapon alone, or two of one type, keep the rules without a type
    assert ids.weapons("f/u", ["Power fist"], ["melee"]) == ["f/u/power-fist"]
    assert ids.weapons("f/u", ["A b", "A-b"], ["ranged", "ranged"]) == ["f/u/a-b", "f/u/a-b-2"]
