"""Issue 43, round 4: the classes the independent audit (tests/bs_audit.py) still found on the whole
10th-edition game, read on hand-made catalogues where the reader was wrong, and on the audit's own
reading where the audit was.

The reader's:
- a unit whose models sit in a group inside the group that bounds them (Corsair Voidscarred: '4 -9
  Voidscarred', at most 9, holds the group 'Voidscarred', at least 4): the inner group's minimum is
  the unit's too (it was 1-10 models, priced from 1);
- models that take the place of another's ('4 Sanctifiers w/ hand flamer, one fewer for each with two
  hand flamers or the simulacrum'): variants of its line, not models more (it was 9-11 models);
- what only an upgrade the unit is never offered in its army shows (a Death Guard Daemonic Herald's
  Khorne abilities: its Daemon of Blood specialism is hidden outside the armies of Khorne and of all
  gods) is not the unit's; in an army that imports the unit's (a Blood Angels army imports the Space
  Marines' Crucible characters) what that army offers stays, with its condition;
- a unit's own Unit profile where every model has one of its own (Pink Horrors' 'Blue/Brimstone Horror
  (ref. only)', the models its Split ability adds; Wahapedia prints it too) is a model of the datasheet
  (it was dropped, unreported).

The audit's (round 5): a unit hidden in the matched-play force (a Crusade force's Chaos Spawn (Flesh
Change)); a profile linked under another name (Recon Sergeant, Watch Sergeant); a characteristic set
unconditionally (a shield Custodian Guard's W 4); a leader list on the line after the colon; curly and
straight apostrophes; a rule's value chosen by an upgrade the army never offers (Deadly Demise D3).
"""

from __future__ import annotations

import tarfile
from pathlib import Path

from warscribe.extract import battlescribe as bs
from warscribe.schema.diagnostics import Report

from bs_audit import _leader_units, _models_in, _plain, Data, sample
from conftest import ROOT

SYSTEM = ROOT / "tests" / "fixtures" / "battlescribe" / "xml" / "Test System.gst"
NS = 'xmlns="http://www.battlescribe.net/schema/catalogueSchema"'
UNIT_PROFILE = ('<profiles><profile id="{id}-p" name="{name}" typeId="unit-type" typeName="Unit" hidden="false">'
                '<characteristics><characteristic name="M" typeId="m">6"</characteristic>'
                '<characteristic name="T" typeId="t">3</characteristic><characteristic name="SV" typeId="sv">4+</characteristic>'
                '<characteristic name="W" typeId="w">1</characteristic><characteristic name="LD" typeId="ld">7+</characteristic>'
                '<characteristic name="OC" typeId="oc">1</characteristic></characteristics></profile></profiles>')


def _model(id_: str, name: str, lo: int | None = None, hi: int | None = None, extra: str = "") -> str:
    cons = "".join(f'<constraint type="{k}" value="{v}" field="selections" scope="parent" id="{id_}-{k}"/>'
                   for k, v in (("min", lo), ("max", hi)) if v is not None)
    return (f'<selectionEntry type="model" name="{name}" hidden="false" id="{id_}">'
            f'{f"<constraints>{cons}</constraints>" if cons else ""}{extra}{UNIT_PROFILE.format(id=id_, name=name)}'
            '</selectionEntry>')


def _unit(id_: str, name: str, body: str) -> str:
    return (f'<selectionEntry type="unit" name="{name}" hidden="false" id="{id_}">{body}'
            '<costs><cost name="pts" typeId="pts-id" value="80"/></costs></selectionEntry>')


def _read(tmp_path: Path, catalogues: dict[str, str]) -> dict[str, dict]:
    for name, text in catalogues.items():
        (tmp_path / name).write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n{text}', encoding="utf-8")
    report = Report()
    files = bs.load(SYSTEM, "bs/Test System.gst", "10e", 0, None, report)
    files += bs.load(tmp_path, "bs", "10e", 0, None, report)
    items, _index = bs.read(files, report)
    return {r["id"]: r for r, _p in items}


def _size(ds: dict) -> tuple[int, int]:
    return sum(c["min"] for c in ds["composition"]), sum(c["max"] for c in ds["composition"])


NESTED = _unit("u-void", "Void Band", (
    '<selectionEntryGroups><selectionEntryGroup name="4-9 Voidscarred" hidden="false" id="g-outer">'
    '<constraints><constraint type="max" value="9" field="selections" scope="parent" id="g-outer-max"/></constraints>'
    f'<selectionEntries>{_model("m-runner", "Shade Runner", None, 1)}</selectionEntries>'
    '<selectionEntryGroups><selectionEntryGroup name="Voidscarred" hidden="false" id="g-inner">'
    '<constraints><constraint type="min" value="4" field="selections" scope="parent" id="g-inner-min"/></constraints>'
    f'<selectionEntries>{_model("m-void", "Voidscarred", None, 9)}</selectionEntries>'
    '</selectionEntryGroup></selectionEntryGroups></selectionEntryGroup>'
    '<selectionEntryGroup name="Felarch" hidden="false" id="g-felarch">'
    f'<selectionEntries>{_model("m-felarch", "Felarch", 1, 1)}</selectionEntries></selectionEntryGroup>'
    '</selectionEntryGroups>'))

TRADED = _unit("u-sanct", "Sanct Band", (
    '<selectionEntries>'
    + _model("m-leader", "Missionary", 1, 1)
    + _model("m-flamer", "Sanctifier w/ hand flamer", 4, 4, extra=(
        '<modifiers>' + "".join(
            f'<modifier type="decrement" value="1" field="m-flamer-{k}"><repeats>'
            '<repeat value="1" repeats="1" field="selections" scope="u-sanct" childId="m-two"/>'
            '<repeat value="1" repeats="1" field="selections" scope="u-sanct" childId="m-simulacrum"/>'
            '</repeats></modifier>' for k in ("min", "max")) + '</modifiers>'))
    + _model("m-two", "Sanctifier w/ two hand flamers", None, 1)
    + _model("m-simulacrum", "Sanctifier w/ simulacrum", None, 1)
    + '</selectionEntries>'))


def test_an_inner_groups_minimum_bounds_the_unit(tmp_path):
    cat = f'<catalogue {NS} id="cat-a" name="Army A" gameSystemId="sys-test" revision="1" type="catalogue">' \
          f'<entryLinks><entryLink name="Void Band" hidden="false" id="l-void" targetId="u-void" type="selectionEntry"/>' \
          f'</entryLinks><sharedSelectionEntries>{NESTED}</sharedSelectionEntries></catalogue>'
    ds = _read(tmp_path, {"Army A.cat": cat})["army-a/void-band"]
    assert _size(ds) == (5, 10)  # 4 to 8 Voidscarred and up to 1 Shade Runner (9 at most), and the Felarch
    assert ds["points"][0]["models"] == 5


def test_models_taking_anothers_place_add_no_models(tmp_path):
    cat = f'<catalogue {NS} id="cat-a" name="Army A" gameSystemId="sys-test" revision="1" type="catalogue">' \
          f'<entryLinks><entryLink name="Sanct Band" hidden="false" id="l-sanct" targetId="u-sanct" type="selectionEntry"/>' \
          f'</entryLinks><sharedSelectionEntries>{TRADED}</sharedSelectionEntries></catalogue>'
    ds = _read(tmp_path, {"Army A.cat": cat})["army-a/sanct-band"]
    assert _size(ds) == (5, 5)
    assert [(c["name"], c["min"], c["max"]) for c in ds["composition"]] == [("Missionary", 1, 1), ("Sanctifier", 4, 4)]
    [option] = [o for o in ds["wargear_options"] if o["text"].startswith("Sanctifier")]
    assert option["choices"] == ["Sanctifier w/ hand flamer", "Sanctifier w/ two hand flamers (up to 1)",
                                 "Sanctifier w/ simulacrum (up to 1)"]


def _herald_catalogues() -> dict[str, str]:
    """A library Herald with a specialism each army offers or not, a group of abilities only that
    specialism shows; army A (never offered it), army B (offered it), army C importing army A's."""
    ability = ('<profiles><profile id="{id}-p" name="{name}" typeId="abilities-type" typeName="Abilities" hidden="false">'
               '<characteristics><characteristic name="Description" typeId="desc">{name} text.</characteristic>'
               '</characteristics></profile></profiles>')
    herald = (
        '<selectionEntry type="model" name="Herald" hidden="false" id="u-herald">'
        + UNIT_PROFILE.format(id="u-herald", name="Herald")
        + '<selectionEntryGroups><selectionEntryGroup name="Specialisms" hidden="false" id="g-spec"><selectionEntries>'
        '<selectionEntry type="upgrade" name="Daemon of Blood" hidden="false" id="up-blood"><modifiers>'
        '<modifier type="set" value="true" field="hidden"><conditionGroups><conditionGroup type="and"><conditions>'
        '<condition type="notInstanceOf" value="1" field="selections" scope="primary-catalogue" childId="cat-b"/>'
        '<condition type="notInstanceOf" value="1" field="selections" scope="primary-catalogue" childId="cat-c"/>'
        '</conditions></conditionGroup></conditionGroups></modifier></modifiers></selectionEntry>'
        '</selectionEntries></selectionEntryGroup>'
        '<selectionEntryGroup name="Khorne" hidden="true" id="g-khorne"><modifiers>'
        '<modifier type="set" value="false" field="hidden"><conditions>'
        '<condition type="atLeast" value="1" field="selections" scope="parent" childId="up-blood"/>'
        '</conditions></modifier></modifiers><selectionEntries>'
        '<selectionEntry type="upgrade" name="Bloodmarked" hidden="false" id="up-marked">'
        + ability.format(id="up-marked", name="Bloodmarked") + '</selectionEntry>'
        '</selectionEntries></selectionEntryGroup></selectionEntryGroups>'
        '<costs><cost name="pts" typeId="pts-id" value="60"/></costs></selectionEntry>')
    lib = (f'<catalogue {NS} library="true" id="cat-lib" name="Herald Library" gameSystemId="sys-test" revision="1" '
           f'type="catalogue"><sharedSelectionEntries>{herald}</sharedSelectionEntries></catalogue>')

    def army(cid: str, name: str, imports: str = "") -> str:
        links = '<catalogueLink type="catalogue" name="Herald Library" id="{c}-l" targetId="cat-lib"/>'.format(c=cid)
        if imports:
            links += f'<catalogueLink type="catalogue" name="x" id="{cid}-i" targetId="{imports}" importRootEntries="true"/>'
        body = "" if imports else (f'<entryLinks><entryLink name="Herald" hidden="false" id="{cid}-h" '
                                   'targetId="u-herald" type="selectionEntry"/></entryLinks>')
        return (f'<catalogue {NS} id="{cid}" name="{name}" gameSystemId="sys-test" revision="1" type="catalogue">'
                f'<catalogueLinks>{links}</catalogueLinks>{body}</catalogue>')

    return {"Herald Library.cat": lib, "Army A.cat": army("cat-a", "Army A"), "Army B.cat": army("cat-b", "Army B"),
            "Army D.cat": army("cat-d", "Army D"), "Army C.cat": army("cat-c", "Army C", imports="cat-d")}


def _abilities(ds: dict) -> set[str]:
    return {a["name"] for a in ds["abilities"]}


def test_what_only_a_choice_never_offered_shows_is_not_the_units(tmp_path):
    sheets = _read(tmp_path, _herald_catalogues())
    assert "Bloodmarked" not in _abilities(sheets["army-a/herald"])  # army A never offers Daemon of Blood
    assert "Bloodmarked" in _abilities(sheets["army-b/herald"])
    # army D's Herald serves army C too (C imports D's root entries), where the specialism is offered
    assert "Bloodmarked" in _abilities(sheets["army-d/herald"])


SPLITTING = _unit("u-pink", "Pink Band", (
    UNIT_PROFILE.format(id="u-pink", name="Blue Horror (ref. only)")
    + f'<selectionEntries>{_model("m-pink", "Pink Horror", 10, 10)}</selectionEntries>'))


def test_the_units_own_unit_profile_is_a_model_where_every_model_has_its_own(tmp_path):
    """Pink Horrors: the unit's 'Blue/Brimstone Horror (ref. only)' profile, for the models its Split
    ability adds, beside the Pink Horror model's own (it was dropped, unreported)."""
    cat = f'<catalogue {NS} id="cat-a" name="Army A" gameSystemId="sys-test" revision="1" type="catalogue">' \
          f'<entryLinks><entryLink name="Pink Band" hidden="false" id="l-pink" targetId="u-pink" type="selectionEntry"/>' \
          f'</entryLinks><sharedSelectionEntries>{SPLITTING}</sharedSelectionEntries></catalogue>'
    ds = _read(tmp_path, {"Army A.cat": cat})["army-a/pink-band"]
    assert [m["name"] for m in ds["models"]] == ["Pink Horror", "Blue Horror (ref. only)"]
    assert _size(ds) == (10, 10)  # a profile, not a model line


# -- the audit's own reading ---------------------------------------------------------------------

def test_the_audit_reads_no_break_spaces_in_leader_lists_as_spaces():
    text = "This model can be attached to the following units:\n■ Bladeguard Veteran\u00a0Squad\n■ Intercessor Squad"
    assert _leader_units(text) == {"bladeguard veteran squad", "intercessor squad"}


GROUPED = _unit("u-g", "Guard", (
    '<selectionEntryGroups><selectionEntryGroup name="Guard" hidden="false" id="g"><constraints>'
    '<constraint type="min" value="3" field="selections" scope="parent" id="g-min"/>'
    '<constraint type="max" value="6" field="selections" scope="parent" id="g-max"/></constraints>'
    f'<selectionEntries>{_model("m-a", "Guard A")}{_model("m-b", "Guard B")}</selectionEntries>'
    '</selectionEntryGroup></selectionEntryGroups>'))


def test_the_audit_bounds_models_with_no_maximum_by_their_group(tmp_path):
    """Models linked bare into a group of 3 to 6 (Agamatus Custodians): as many as the group allows."""
    cat = (f'<catalogue {NS} id="cat-a" name="Army A" gameSystemId="sys-test" revision="1" type="catalogue">'
           f'<sharedSelectionEntries>{GROUPED}</sharedSelectionEntries></catalogue>')
    (tmp_path / "Army A.cat").write_text(cat, encoding="utf-8")
    archive = tmp_path / "data.tar.xz"
    with tarfile.open(archive, "w:xz") as tf:
        tf.add(tmp_path / "Army A.cat", arcname="Army A.cat")
    data = Data(archive)
    assert _models_in(data, data.by_id["u-g"][0], set(), set()) == (3, 6)


def test_the_audit_reads_a_leader_list_on_the_line_after_the_colon():
    text = "This model can be attached to the following units:\n^^**Plague Marines^^**, ^^**Poxwalkers^^**"
    assert _leader_units(text) == {"plague marines", "poxwalkers"}


def test_the_audit_reads_curly_and_straight_apostrophes_as_one():
    assert _plain("ancient’s banner") == _plain("ancient's banner")


def _chars(w: str = "1") -> str:
    return ('<characteristics><characteristic name="M" typeId="m">6"</characteristic>'
            '<characteristic name="T" typeId="t">3</characteristic><characteristic name="SV" typeId="sv">4+</characteristic>'
            f'<characteristic name="W" typeId="w">{w}</characteristic><characteristic name="LD" typeId="ld">7+</characteristic>'
            '<characteristic name="OC" typeId="oc">1</characteristic></characteristics>')


PLAYERS_VIEW = (
    # hidden in the matched-play force: a Crusade force's unit
    '<selectionEntry type="unit" name="Flesh Spawn" hidden="false" id="u-spawn"><modifiers>'
    '<modifier type="set" value="true" field="hidden"><conditions><condition type="instanceOf" value="1" '
    'field="selections" scope="force" childId="f-army"/></conditions></modifier></modifiers>'
    f'<profiles><profile id="p-spawn" name="Flesh Spawn" typeId="unit-type" typeName="Unit">{_chars()}</profile>'
    '</profiles></selectionEntry>'
    # a profile linked under another name
    '<selectionEntry type="unit" name="Recon" hidden="false" id="u-recon"><selectionEntries>'
    '<selectionEntry type="model" name="Recon Sergeant w/ lasgun" hidden="false" id="m-sgt"><infoLinks>'
    '<infoLink name="Recon" id="il-sgt" targetId="p-recon" type="profile"><modifiers>'
    '<modifier type="set" value="Recon Sergeant" field="name"/></modifiers></infoLink></infoLinks></selectionEntry>'
    '</selectionEntries></selectionEntry>'
    # a characteristic set unconditionally
    '<selectionEntry type="unit" name="Guard" hidden="false" id="u-guard"><selectionEntries>'
    '<selectionEntry type="model" name="Guard w/ shield" hidden="false" id="m-shield"><profiles>'
    '<profile id="p-shield" name="Guard (Shield)" typeId="unit-type" typeName="Unit"><modifiers>'
    f'<modifier type="set" value="4" field="w"/></modifiers>{_chars("3")}</profile></profiles></selectionEntry>'
    '</selectionEntries></selectionEntry>'
    # a rule's value named by an upgrade the unit is never offered
    '<selectionEntry type="unit" name="Macro" hidden="false" id="u-macro"><infoLinks>'
    '<infoLink name="Deadly Demise" id="il-dd" targetId="r-dd" type="rule"><modifiers>'
    '<modifier type="append" value="D3" field="name"><conditions><condition type="lessThan" value="1" '
    'field="selections" scope="parent" childId="up-shell"/></conditions></modifier>'
    '<modifier type="append" value="D6" field="name"><conditions><condition type="atLeast" value="1" '
    'field="selections" scope="parent" childId="up-shell"/></conditions></modifier></modifiers></infoLink></infoLinks>'
    f'<profiles><profile id="p-macro" name="Macro" typeId="unit-type" typeName="Unit">{_chars()}</profile></profiles>'
    '</selectionEntry>'
    '<selectionEntry type="upgrade" name="Armoured Shell" hidden="false" id="up-shell"/>')


def test_the_audit_reads_what_a_player_sees(tmp_path):
    """The audit's own reading of four things BattleScribe shows a player: a unit hidden in the
    matched-play force is none of the army's; a profile linked under another name has that name; a
    characteristic set unconditionally is that value; a rule's value chosen by an upgrade the unit is
    never offered is the value without it."""
    gst = (f'<gameSystem {NS.replace("catalogueSchema", "gameSystemSchema")} id="sys-test" name="Test" revision="1">'
           '<forceEntries><forceEntry id="f-army" name="Army Roster" hidden="false"/>'
           '<forceEntry id="f-crusade" name="Crusade Force" hidden="false"/></forceEntries></gameSystem>')
    links = "".join(f'<entryLink name="{n}" hidden="false" id="l-{n}" targetId="u-{n.lower()}" type="selectionEntry"/>'
                    for n in ("Spawn", "Recon", "Guard", "Macro"))
    cat = (f'<catalogue {NS} id="cat-a" name="Army A" gameSystemId="sys-test" revision="1" type="catalogue">'
           f'<entryLinks>{links}</entryLinks><sharedSelectionEntries>{PLAYERS_VIEW}</sharedSelectionEntries>'
           '<sharedProfiles><profile id="p-recon" name="Recon" typeId="unit-type" typeName="Unit">'
           f'{_chars()}</profile></sharedProfiles>'
           '<sharedRules><rule id="r-dd" name="Deadly Demise"><description>x</description></rule></sharedRules>'
           '</catalogue>')
    archive = tmp_path / "data.tar.xz"
    with tarfile.open(archive, "w:xz") as tf:
        for name, text in (("Test.gst", gst), ("Army A.cat", cat)):
            (tmp_path / name).write_text(text, encoding="utf-8")
            tf.add(tmp_path / name, arcname=name)
    found = {e.id: e for e in sample(Data(archive), 0)}
    assert "army-a/flesh-spawn" not in found
    assert set(found["army-a/recon"].models) == {"Recon Sergeant"}
    assert found["army-a/guard"].models["Guard (Shield)"][3] == 4
    assert "deadly demise d3" in found["army-a/macro"].abilities
