"""Issue 43, round 4: what a unit's own choices make it, on the 11th-edition BattleScribe data.

The reader offers wargear the data shows only to what the bearer is (a DESTROYER CULT model, a
PSYKER, a MOUNTED one) when one of the unit's *own* upgrades, as the data offers it to that
unit, makes it so; named with that choice ('Skorpekh hyperphase weapons (only with Ophydian
Lord)'). Against the build before that rule, 128 weapon records of 30 Crucible datasheets were
no longer made; read one by one, every one is wargear only another unit's upgrade unlocks:

- the upgrade is in the unit's own list but the data hides it from this unit by what the unit
  is (Ophydian Lord, which makes its bearer DESTROYER CULT, is offered to a NOBLE only: a
  Hyperscientist is a CRYPTEK; a Kinhost Commander's Exoframe is not a Living Ancestor's; the
  Terminator Armour of a World Eaters Butcherlord is not a Bloodcult Champion's; a Tyranids
  Leader-beast is hidden when Genestealer Cults is the army);
- or nothing the unit's faction offers adds the category at all (no Death Guard, Emperor's
  Children, Thousand Sons, Ork or Votann Crucible upgrade makes its bearer a PSYKER; no Necron
  one a VEHICLE), only other factions' upgrades or another detachment's enhancement do.

So these stay out. A hand-made catalogue shows the rule in small; the whole game, that it holds
where the data offers the Ophydian Lord to one character and hides it from the other.
"""

from __future__ import annotations

import json
import shutil

import pytest

import realdata
from conftest import ROOT
from warscribe.extract import battlescribe as bs
from warscribe.schema.diagnostics import Report

SYSTEM = ROOT / "tests" / "fixtures" / "battlescribe" / "json" / "Test System.json"


def _hidden_unless_ancestor(category: str) -> dict:
    return {"type": "set", "field": "hidden", "value": True,
            "conditions": [{"type": "notInstanceOf", "value": 1, "field": "selections", "scope": "ancestor",
                            "childId": category, "shared": True}]}


def _melee(entry_id: str, name: str, *modifiers: dict) -> dict:
    chars = [("Range", "Melee"), ("A", "4"), ("WS", "3+"), ("S", "6"), ("AP", "-2"), ("D", "2"), ("Keywords", "-")]
    return {"type": "upgrade", "name": name, "hidden": False, "id": entry_id, "modifiers": list(modifiers),
            "profiles": [{"name": name, "typeId": "melee-type", "typeName": "Melee Weapons", "hidden": False,
                          "id": f"{entry_id}-p", "characteristics": [
                              {"name": k, "typeId": k.lower(), "$text": v} for k, v in chars]}]}


def _character(entry_id: str, name: str, kind: tuple[str, str]) -> dict:
    chars = [("M", "5\""), ("T", "5"), ("SV", "3+"), ("W", "5"), ("LD", "6+"), ("OC", "1")]
    return {"type": "model", "name": f"{name} [Crucible]", "hidden": False, "id": entry_id,
            "categoryLinks": [{"targetId": c, "id": f"{entry_id}-{c}", "primary": c == "cat-character", "name": n}
                              for c, n in (("cat-character", "Character"), ("cat-faction", "Faction: Crucibles"),
                                           kind)],
            "profiles": [{"name": name, "typeId": "unit-type", "typeName": "Unit", "hidden": False,
                          "id": f"{entry_id}-p", "characteristics": [
                              {"name": k, "typeId": k.lower(), "$text": v} for k, v in chars]}],
            "entryLinks": [{"name": n, "hidden": False, "id": f"{entry_id}-{g}", "type": "selectionEntryGroup",
                            "targetId": g} for n, g in (("Specialisms", "grp-specialisms"), ("Weapons", "grp-weapons"))]}


def _catalogue() -> dict:
    """Two Crucible characters linking one list of specialisms and one of weapons, as the Necrons'
    do: the Ophydian Lord is offered to a NOBLE only and makes it DESTROYER CULT, the hyperphase
    weapons are offered only to a DESTROYER CULT model."""
    ophydian = {"type": "upgrade", "name": "Ophydian Lord", "hidden": False, "id": "up-ophydian",
                "modifiers": [_hidden_unless_ancestor("cat-noble"),
                              {"type": "add", "field": "category", "value": "cat-destroyer", "scope": "parent"}]}
    return {"catalogue": {
        "library": False, "id": "cat-crucibles", "name": "Xenos - Crucibles", "gameSystemId": "sys-test",
        "revision": 1, "battleScribeVersion": "2.03", "type": "catalogue",
        "categoryEntries": [{"id": i, "name": n, "hidden": False} for i, n in (
            ("cat-faction", "Faction: Crucibles"), ("cat-noble", "Noble"), ("cat-cryptek", "Cryptek"),
            ("cat-destroyer", "Destroyer Cult"))],
        "sharedSelectionEntryGroups": [
            {"name": "Specialisms", "hidden": False, "id": "grp-specialisms", "selectionEntries": [ophydian]},
            {"name": "Weapons", "hidden": False, "id": "grp-weapons", "selectionEntries": [
                _melee("up-staff", "Staff of light"),
                _melee("up-skorpekh", "Skorpekh hyperphase weapons", _hidden_unless_ancestor("cat-destroyer"))]}],
        "sharedSelectionEntries": [_character("m-noble", "Dynastic Conqueror", ("cat-noble", "Noble")),
                                   _character("m-cryptek", "Hyperscientist", ("cat-cryptek", "Cryptek"))],
        "entryLinks": [{"import": True, "name": f"{n} [Crucible]", "hidden": False, "id": f"root-{i}",
                        "type": "selectionEntry", "targetId": i}
                       for i, n in (("m-noble", "Dynastic Conqueror"), ("m-cryptek", "Hyperscientist"))]}}


def _choices(ds: dict) -> list[str]:
    return [c for o in ds["wargear_options"] for c in o.get("choices", [])]


def _weapons(ds: dict) -> set[str]:
    return {w.rsplit("/", 1)[1] for w in ds["weapons"]}


def test_an_upgrade_the_data_hides_from_the_unit_unlocks_nothing_for_it(tmp_path):
    folder = tmp_path / "bs"
    folder.mkdir()
    shutil.copyfile(SYSTEM, folder / SYSTEM.name)
    (folder / "Crucibles.json").write_text(json.dumps(_catalogue()), encoding="utf-8")
    report = Report()
    items, _index = bs.read(bs.load(folder, "bs", "11e", 0, None, report), report)
    sheets = {r["id"]: r for r, _p in items if r["kind"] == "datasheet"}
    noble, cryptek = sheets["crucibles/dynastic-conqueror-crucible"], sheets["crucibles/hyperscientist-crucible"]
    # the NOBLE's own Ophydian Lord makes it DESTROYER CULT: the blades are its wargear, with that choice
    assert "Skorpekh hyperphase weapons (only with Ophydian Lord)" in _choices(noble)
    assert {"staff-of-light", "skorpekh-hyperphase-weapons"} <= _weapons(noble)
    # the CRYPTEK links the same list, but the data never offers it the Ophydian Lord: no blades
    assert "Ophydian Lord" not in _choices(cryptek)
    assert _weapons(cryptek) == {"staff-of-light"}
    assert not [c for c in _choices(cryptek) if "Skorpekh" in c]


@pytest.fixture(scope="module")
def sheets11(tmp_path_factory) -> dict[str, dict]:
    out = realdata.example(tmp_path_factory, "11e")
    return {r["id"]: r for r in json.loads((out / "json" / "datasheet.json").read_text(encoding="utf-8"))["data"]}


DESTROYER_CULT = {"skorpekh-hyperphase-weapons", "ophydian-hyperphase-weapons", "hyperphase-harvester",
                  "flensing-claw", "gauss-cannon", "gauss-destructor", "enmitic-annihilator", "enmitic-exterminator"}


@pytest.mark.slow
def test_the_ophydian_lords_weapons_go_with_it_to_a_noble_only(sheets11):
    conqueror = sheets11["necrons/dynastic-conqueror-crucible"]
    assert DESTROYER_CULT <= _weapons(conqueror)
    assert {"Skorpekh hyperphase weapons (only with Ophydian Lord)",
            "Ophydian hyperphase weapons (only with Ophydian Lord)"} <= set(_choices(conqueror))
    # a CRYPTEK: the shared Specialisms list holds the Ophydian Lord, for NOBLEs only; nothing else
    # of its own makes it DESTROYER CULT, nor a VEHICLE (the Triarchal Overseer's heat ray)
    scientist = sheets11["necrons/hyperscientist-crucible"]
    assert "Ophydian Lord" not in _choices(scientist)
    assert not (DESTROYER_CULT | {"heat-ray-focused", "stalkers-forelimbs"}) & _weapons(scientist)
    assert {"staff-of-light", "chronomancers-stave"} <= _weapons(scientist)  # its own list is read
    overseer = sheets11["necrons/triarchal-overseer-crucible"]  # a VEHICLE by its datasheet
    assert {"heat-ray-focused", "stalkers-forelimbs"} <= _weapons(overseer)
    assert not DESTROYER_CULT & _weapons(overseer)


@pytest.mark.slow
def test_only_another_units_choice_unlocks_it_so_it_stays_out(sheets11):
    kinhost = sheets11["leagues-of-votann/kinhost-commander-crucible"]
    assert "Graviton blast cannon (only with Exoframe)" in _choices(kinhost)
    assert not {"ancestral-ward-stave", "ancestral-wrath-witchfire"} & _weapons(kinhost)  # nothing makes it a PSYKER
    # the Exoframe is offered to a Kinhost Commander only
    ancestor = sheets11["leagues-of-votann/living-ancestor-crucible"]
    assert not {"graviton-blast-cannon", "darkstar-axe"} & _weapons(ancestor)
    # the Tyranids' Leader-beast (PSYKER) is hidden when Genestealer Cults is the army
    psychic = {"psychic-scream", "psychic-overload", "psychoclastic-torrent"}
    for organism in ("macro", "node", "prime"):
        assert psychic <= _weapons(sheets11[f"tyranids/{organism}-organism-crucible"])
        assert "Psychic scream (only with Leader-beast)" in _choices(sheets11[f"tyranids/{organism}-organism-crucible"])
        assert not psychic & _weapons(sheets11[f"genestealer-cults/{organism}-organism-crucible"])
    # Terminator Armour is a Butcherlord's; a PSYKER's weapons are nothing a Brayherd Chieftain picks
    assert "chainfist" not in _weapons(sheets11["world-eaters/bloodcult-champion-crucible"])
    assert not {"force-weapon", "astral-blast"} & _weapons(sheets11["thousand-sons/brayherd-chieftain-crucible"])
