"""BattleScribe fidelity (issue 19) on the whole 10th-edition snapshot, class by class, with
units the issue names and others; and the self-audit: a seeded sample of datasheets
compared field by field with a second, independent reading of the catalogues
(tests/bs_audit.py, xml.etree on the .cat files). The 11th-edition snapshot builds and says
what its missing catalogues cost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import realdata
from bs_audit import audit

pytestmark = pytest.mark.slow


def _data(out: Path, kind: str) -> dict[str, dict]:
    return {r["id"]: r for r in json.loads((out / "json" / f"{kind}.json").read_text(encoding="utf-8"))["data"]}


def _built(tmp_path_factory, name: str) -> Path:
    out = realdata.build(tmp_path_factory, name)
    assert realdata.status(name) == 0, realdata.log(name)
    return out


@pytest.fixture(scope="module")
def build10(tmp_path_factory):
    return _built(tmp_path_factory, "bsdata-10e")


@pytest.fixture(scope="module")
def sheets(build10):
    return _data(build10, "datasheet")


@pytest.fixture(scope="module")
def weapons(build10):
    return _data(build10, "weapon")


@pytest.fixture(scope="module")
def report10(build10):
    return json.loads((build10 / "report.json").read_text(encoding="utf-8"))["diagnostics"]


def test_self_audit_of_a_seeded_sample(build10):
    """Every field a player reads, for 80 datasheets drawn with a fixed seed, against the catalogues."""
    count, errors = audit(build10, realdata.path("bsdata-10e"))
    assert count >= 60
    total = sum(len(v) for v in errors.values())
    shown = "\n".join(f"{k}: {'; '.join(v)[:300]}" for k, v in sorted(errors.items()))
    assert not [k for k, v in errors.items() if any(e.startswith("missing") for e in v)], shown
    # Measured on main (issue 38): 4 errors on the 80 datasheets of this sample, 5.0 per 100 (an earlier
    # reader: 125 per 100). What is left is unit sizes the audit reads more simply than the reader:
    # Aquilon Custodians (size and points), the Hippogriff AFV, the Strike Squad. The mark
    # allows one error more than measured: 6.25 per 100 on 80 datasheets.
    assert total * 100 / count <= 6.25, shown


def test_class1_a_spear_that_shoots_and_strikes_is_two_weapons(sheets, weapons):
    guard = sheets["adeptus-custodes/custodian-guard"]
    ranged, melee = weapons["adeptus-custodes/custodian-guard/guardian-spear"], \
        weapons["adeptus-custodes/custodian-guard/guardian-spear-melee"]
    assert (ranged["type"], ranged["range"], melee["type"], melee["strength"]) == ("ranged", 24, "melee", 7)
    assert {w.rsplit("/", 1)[1] for w in guard["weapons"]} >= {"guardian-spear", "guardian-spear-melee",
                                                              "sentinel-blade", "sentinel-blade-melee"}


def test_class1_no_datasheet_loses_a_weapon_of_a_shared_name(sheets, weapons):
    for ds in sheets.values():
        assert len(ds["weapons"]) == len(set(ds["weapons"])), ds["id"]
    both = [ds["id"] for ds in sheets.values()
            if any(w.endswith("-melee") and w[:-6] in ds["weapons"] for w in ds["weapons"])]
    assert len(both) >= 70  # main kept one of the two on each (the issue counted 132 names on 93 datasheets)


def test_class2_invulnerable_saves_per_model(sheets):
    models = {m["name"]: m for m in sheets["orks/ghazghkull-thraka"]["models"]}
    assert (models["Ghazghkull Thraka"]["invulnerable"], models["Makari"]["invulnerable"]) == (4, 2)
    # 'This unit has a 5+ Invulnerable save', capital I
    assert {m["invulnerable"] for m in sheets["aeldari/dire-avengers"]["models"]} == {5}
    assert sheets["adepta-sororitas/dogmata"]["models"][0]["invulnerable"] == 6  # 'an invulnerable save of 6+'


def test_class3_enhancements_sit_in_their_detachments_and_go_on_characters(build10, sheets):
    enhancements = _data(build10, "enhancement")
    detachments = _data(build10, "detachment")
    tied = [e for e in enhancements.values() if e["detachment"]]
    assert len(tied) >= 0.95 * len(enhancements)  # main: 489 of 804
    assert sum(1 for d in detachments.values() if not d["enhancements"]) <= 5  # main: 89
    for e in tied:
        assert e["id"] in detachments[e["detachment"]]["enhancements"], e["id"]
    with_bearers = [e for e in enhancements.values() if e.get("bearers")]
    assert len(with_bearers) >= 0.9 * len(enhancements)
    characters = sum(1 for e in with_bearers for b in e["bearers"] if "CHARACTER" in sheets[b]["keywords"])
    assert characters >= 0.97 * sum(len(e["bearers"]) for e in with_bearers)
    honour = enhancements["space-marines/gladius-task-force/enhancements/adept-of-the-codex"]
    assert honour["bearers"] and all("CAPTAIN" in sheets[b]["keywords"] for b in honour["bearers"])


def test_class4_a_unit_is_a_datasheet_of_each_army_that_links_it(sheets):
    russ = sheets["genestealer-cults/leman-russ-battle-tank"]
    # Brood Brothers: the Genestealer Cults link adds no category, so the unit keeps its own keywords
    assert russ["faction"] == "Genestealer Cults" and "ASTRA MILITARUM" in russ["faction_keywords"]
    assert sheets["astra-militarum/leman-russ-battle-tank"]
    for faction in ("space-marines", "chaos-space-marines", "death-guard", "thousand-sons", "world-eaters"):
        assert f"{faction}/deredeo-dreadnought-legends" in sheets
    # main: 46. The 16 left have no Faction category in the data, on the unit or its link (a Drop
    # Pod, the game system's Unbound Adversaries, Corsair bands of Legends); the whole-game
    # self-audit finds no datasheet whose faction keywords differ from the data's
    assert sum(1 for ds in sheets.values() if not ds["faction_keywords"]) <= 16
    assert not sheets["space-marines/drop-pod"]["faction_keywords"]
    assert sheets["drukhari/death-jester"]["faction"] == "Drukhari"


def test_class5_a_captains_plasma_pistol_is_bs_2(weapons):
    assert weapons["space-marines/captain/plasma-pistol-standard"]["skill"] == 2
    assert weapons["space-marines/intercessor-squad/plasma-pistol-standard"]["skill"] == 3


def test_class6_points_per_legal_unit_size(sheets):
    def pts(rid):
        return [(p["models"], p["points"]) for p in sheets[rid]["points"] if p["condition"] is None]

    assert pts("space-marines/intercessor-squad") == [(5, 80), (10, 160)]
    assert pts("grey-knights/paladin-squad") == [(4, 180), (5, 225), (8, 360), (10, 450)]
    assert pts("necrons/necron-warriors") == [(10, 90), (20, 200)]
    assert pts("orks/boyz") == [(10, 80), (20, 170)]
    # the unit's size a choice of a group ('10 models' or '20 models'), its bounds set by modifiers
    # on that choice (main: no Jakhal line, priced at 2 and 11 models)
    jakhals = {c["name"]: (c["min"], c["max"]) for c in sheets["world-eaters/jakhals"]["composition"]}
    assert jakhals == {"Jakhal Pack Leader": (1, 1), "Jakhal": (8, 17), "Dishonoured": (1, 2)}
    assert pts("world-eaters/jakhals") == [(10, 65), (20, 140)]
    empty = [ds["id"] for ds in sheets.values() if not ds["composition"]]
    assert empty == []


def test_class7_rules_of_other_armies_and_detachments_are_not_a_units_own(build10, sheets, report10):
    assert not [ds["id"] for ds in sheets.values() if ds["faction"] == "Space Marines"
                and any(a["name"] == "Templar Vows" for a in ds["abilities"])]
    assert any(a["name"] == "Templar Vows" for a in sheets["black-templars/castellan"]["abilities"])
    detachments = _data(build10, "detachment")
    assert sum(1 for d in detachments.values() if not d["rule"]) <= 3
    assert any(d["code"] == "conditional-rule" and "Templar Vows" in d["message"] for d in report10)
    # a rule hidden by the very test that gates the unit (Chaos Daemons field a Chaos Lord only
    # with Shadow Legion) is the unit's own wherever the unit is
    assert any(a["name"] == "Disciples of Be'lakor" for a in sheets["chaos-daemons/chaos-lord"]["abilities"])
    assert not any(a["name"] == "Disciples of Be'lakor" for a in sheets["chaos-space-marines/chaos-lord"]["abilities"])


def test_class8_wargear_options(sheets):
    warriors = sheets["necrons/necron-warriors"]["wargear_options"]
    assert any("Warrior w/ gauss reaper" in o.get("choices", []) for o in warriors)
    assert not [o for ds in sheets.values() for o in ds["wargear_options"]
                if "any of the following" in o["text"] and not o.get("choices")]


def test_class9_leader_lists(sheets):
    assert sheets["emperors-children/lord-exultant"]["leader"]["units"] == ["Infractors", "Tormentors"]
    captain = sheets["space-marines/captain"]["leader"]
    assert "Intercessor Squad" in captain["units"] and not [u for u in captain["units"] if "cannot" in u]
    assert "cannot be attached" in captain["text"]
    # a list on the line after its head, unbulleted, is read; a Leader profile that names no
    # units to attach to (a Warlock Conclave joins Bodyguard units its own way) has none
    assert sheets["death-guard/malignant-plaguecaster"]["leader"]["units"] == ["Plague Marines", "Poxwalkers"]
    assert not [ds["id"] for ds in sheets.values() if "leader" in ds and not ds["leader"]["units"]
                and "attached to" in ds["leader"]["text"]]
    assert not [ds["id"] for ds in sheets.values() if any(";" in u for u in ds.get("leader", {}).get("units", []))]


def test_class10_one_edition_and_accented_keywords(build10, sheets):
    assert all(r["ruleset"] == "10e" for kind in ("datasheet", "weapon", "enhancement", "detachment")
               for r in _data(build10, kind).values())
    assert "KÂHL" in sheets["leagues-of-votann/kahl"]["keywords"]
    assert "KHÂRN THE BETRAYER" in sheets["world-eaters/kharn-the-betrayer"]["keywords"]


def test_class10_the_example_manifest_lists_one_edition():
    import yaml

    manifest = yaml.safe_load((realdata.ROOT / "examples" / "bsdata-10e" / "manifest.yaml").read_text(encoding="utf-8"))
    assert {s["ruleset"] for s in manifest["sources"]} == {"10e"}


def test_class12_repeated_findings_are_grouped_and_each_kind_visible(report10):
    modifiers = [d for d in report10 if d["code"] == "unsupported-modifier"]
    assert len(modifiers) <= 10  # main: 214, 155 of one game mode's
    crucible = [d for d in modifiers if "[Crucible]" in d["message"]]
    assert crucible and all(d["message"].split(" ")[1] == "times:" for d in crucible)
    assert all(d["line"] > 1 and d["file"].endswith(".cat") for d in modifiers)


def test_class12_check_places_findings_inside_the_archive(build10, tmp_path):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "warscribe.cli", "check", str(build10), "--json",
                          "--sources", str(realdata.path("bsdata-10e").parent)], capture_output=True, text=True)
    report = json.loads(run.stdout)
    assert not report["sources_not_found"]
    placed = [d for d in report["findings"] if ".tar.xz/" in d["file"] and d.get("column")]
    assert placed, "no finding placed at a column of a catalogue"


def test_class11_the_11e_snapshot_builds_and_says_what_is_missing(tmp_path_factory):
    out = realdata.build(tmp_path_factory, "bsdata-11e")
    assert realdata.status("bsdata-11e") == 0, realdata.log("bsdata-11e")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))["diagnostics"]
    lost = {d["message"] for d in report if d["code"] == "missing-catalogue" and "is not in the data read:" in d["message"]}
    assert any("Imperium - Space Marines" in m and "factions with no datasheets because of it: Space Marines" in m
               for m in lost)
    assert any("'Aeldari - Aeldari Library'" in m and "Aeldari, Drukhari" in m for m in lost)
    assert any("has no datasheets" in d["message"] and "Astra Militarum" in d["message"] for d in report)
    sheets = _data(out, "datasheet")
    assert len(sheets) > 900 and all(r["ruleset"] == "11e" for r in sheets.values())
    assert sum(1 for d in report if d["code"] == "unresolved-link") < 60  # grouped per file (main: 1,193)


# Issue 27: the classes of disagreement with Wahapedia's export of the same week traced to this
# reader, on that week's snapshot (51e5f8f), which the two-source tests and the roster tests build too.

@pytest.fixture(scope="module")
def build07(tmp_path_factory):
    return _built(tmp_path_factory, "bsdata-10e-2025-07")


@pytest.fixture(scope="module")
def sheets07(build07):
    return _data(build07, "datasheet")


def test_issue27_transport_profiles_are_the_transport_box(sheets07):
    serpent, rhino = sheets07["aeldari/wave-serpent"], sheets07["chaos-space-marines/chaos-rhino"]
    assert serpent["transport"].startswith("This model has a transport capacity of 12 AELDARI INFANTRY models.")
    assert rhino["transport"].startswith("This model has a transport capacity of 12 HERETIC ASTARTES INFANTRY")
    # the data names these profiles after the unit; typed as an ability (Land Raider Banisher) too
    assert "Wave Serpent" not in [a["name"] for a in serpent["abilities"]]
    assert "Chaos Rhino" not in [a["name"] for a in rhino["abilities"]]
    assert sheets07["grey-knights/land-raider-banisher"]["transport"].startswith("This model has a transport capacity")
    carriers = [k for k, ds in sheets07.items() if any(a.get("type") != "wargear" and "transport capacity"
                                                        in (a.get("text") or "") for a in ds["abilities"])]
    assert carriers == [] and sum("transport" in ds for ds in sheets07.values()) >= 180


def test_issue27_allied_budgets_are_not_keywords_hidden_categories_neither(sheets07):
    assert "HARLEQUIN ALLIES" not in sheets07["aeldari/death-jester"]["keywords"]
    assert "ALLIED UNITS" not in sheets07["unaligned-forces/ambull-legends"]["keywords"]
    every = {k for ds in sheets07.values() for k in ds["keywords"]}
    assert not every & {"HARLEQUIN ALLIES", "ALLIED UNITS", "KHORNE NON-BATTLELINE", "KNIGHT CHARACTER"}
    assert "DAMNED" in every  # a keyword with a points budget of its own is still a keyword


def test_issue27_detachment_rules_are_not_unit_abilities(sheets07):
    # Warp Rifts (Daemonic Incursion) and Ruthless Efficiency (Oathband): hidden until chosen
    assert "Warp Rifts" not in [a["name"] for a in sheets07["chaos-daemons/bloodthirster"]["abilities"]]
    assert "Ruthless Efficiency" not in [a["name"] for a in sheets07["leagues-of-votann/kahl"]["abilities"]]
    assert "Eye of the Ancestors" in [a["name"] for a in sheets07["leagues-of-votann/kahl"]["abilities"]]


def test_issue27_valued_core_abilities_linked_bare_are_references(sheets07):
    wardens = [a["name"] for a in sheets07["adeptus-custodes/custodian-wardens"]["abilities"]]
    assert "Feel No Pain" not in wardens and "Living Fortress" in wardens  # FNP 4+ for one phase only
    scouts = {a["name"]: a for a in sheets07["adeptus-mechanicus/serberys-raiders"]["abilities"]}["Scouts"]
    assert scouts["text"] == '9"'  # the value the profile beside the bare link gives


def test_issue27_weapons_of_one_profile_in_two_cases_and_misspelt_invulnerable_saves(build07, sheets07):
    weapons = _data(build07, "weapon")
    assert "aeldari/corsair-voidscarred/shuriken-pistol" in weapons
    assert "aeldari/corsair-voidscarred/shuriken-pistol-2" not in weapons
    assert "adeptus-custodes/witchseekers/witchseeker-flamer-2" not in weapons
    deredeo = sheets07["chaos-space-marines/deredeo-dreadnought-legends"]
    assert deredeo["models"][0]["invulnerable"] == 5  # 'Invunerable Save' in the data
    assert not [a for a in deredeo["abilities"] if a["name"].startswith("Inv")]


def test_issue27_every_unit_with_a_leader_list_has_the_leader_ability(sheets07):
    # the data links no Leader rule on 16 datasheets that list whom they lead (Azrael, Ynnari Succubus)
    assert "Leader" in [a["name"] for a in sheets07["dark-angels/azrael"]["abilities"]]
    assert [k for k, ds in sheets07.items() if ds.get("leader") and "Leader" not in
            [a["name"] for a in ds["abilities"]]] == []


def test_issue27_group_names_are_not_model_lines(sheets07):
    lines = lambda rid: [(ln["name"], ln["min"], ln["max"]) for ln in sheets07[rid]["composition"]]  # noqa: E731
    assert lines("aeldari/dark-reapers") == [("Dark Reaper Exarch", 1, 1), ("Dark Reapers", 4, 9)]
    assert lines("drukhari/incubi") == [("Klaivex", 1, 1), ("Incubi", 4, 9)]
    assert lines("dark-angels/deathwing-terminator-squad")[1][0] == "Deathwing Terminator"  # not 'Squad Members'
    left = {k for k, ds in sheets07.items() for ln in ds["composition"]
            if ln["name"] in ("Squad Members", "0-10 Voidscarred") or " and 1 " in ln["name"]}
    # not yet: where every model shares one Unit profile (Corsairs' Felarch) or the heading holds
    # models of several names (Legends kill teams), the group's name is still the line's
    assert left == {"aeldari/corsair-voidreavers", "aeldari/corsair-voidscarred", "drukhari/corsair-voidreavers",
                    "drukhari/corsair-voidscarred", "imperial-agents/fortis-kill-team-legends",
                    "imperial-agents/proteus-kill-team-legends"}


def test_keywords_of_one_model_are_its_profile_s(sheets07):
    """A category the data repeats on some model entries (the Tempestor Prime's Character) is those
    models' own; one on the unit alone is everyone's (Ghazghkull Thraka's Character: Makari is one)."""
    from warscribe.engine.kb import model_kinds

    squad = sheets07["astra-militarum/militarum-tempestus-command-squad"]
    own = {m["name"]: m.get("keywords") for m in squad["models"]}
    assert "CHARACTER" in own["Tempestor Prime"] and not own["Tempestus Scion"]
    assert "CHARACTER" in squad["keywords"]  # the unit has every model's keywords
    assert {k.name: k.character for k in model_kinds(squad, 5, "target")} == {"Tempestus Scion": False,
                                                                              "Tempestor Prime": True}
    ghaz = sheets07["orks/ghazghkull-thraka"]
    own = {m["name"]: m.get("keywords") or [] for m in ghaz["models"]}
    assert "WARBOSS" in own["Ghazghkull Thraka"] and "CHARACTER" not in own["Ghazghkull Thraka"]
    assert all(k.character for k in model_kinds(ghaz, 2, "target"))
    # 37 datasheets of this snapshot have keywords of one model (34 of Wahapedia's export of that week,
    # whose model column names the CHARACTER models alike on every unit both give: 27 of 27); two are
    # Pink Horrors, whose Pink Horror is PINK and its Blue/Brimstone Horror profile is not.
    assert sum(1 for ds in sheets07.values() if any(m.get("keywords") for m in ds.get("models", []))) == 37


# Issue 43: what the audits still found, class by class (tests/bs_audit.py reads each its own way).

def test_issue43_keywords_a_detachment_shows_are_not_keywords(sheets, report10):
    # SHADOW LEGION (and UNDIVIDED): categories the data hides until the Shadow Legion detachment is chosen
    assert "SHADOW LEGION" not in sheets["chaos-daemons/bloodthirster"]["keywords"]
    assert not [k for k, ds in sheets.items() if "YNNARI" in ds["keywords"] and not k.startswith("aeldari/ynnari")
                and "ynnari" not in ds["name"].lower()]
    # a unit the army offers only with that detachment keeps them: where it is, so is the keyword
    assert "SHADOW LEGION" in sheets["chaos-daemons/chaos-lord"]["keywords"]
    assert any(d["code"] == "hidden-entry" and "'Shadow Legion' is shown only with" in d["message"] for d in report10)


def test_issue43_an_invulnerable_save_of_wargear_is_its_ability(sheets):
    adept = {a["name"]: a for a in sheets["space-marines/librarius-adept-crucible"]["abilities"]}
    assert adept["Conversion Field"]["type"] == "wargear"
    assert "4+ invulnerable save" in adept["Conversion Field"]["text"]
    assert "4+ invulnerable save" in adept["Terminator Armor"]["text"]  # added to the wargear's own ability


def test_issue43_wargear_a_choice_unlocks_says_so(sheets):
    ctan = {a["name"]: a for a in sheets["necrons/ctan-shard-of-the-void-dragon"]["abilities"]}
    assert ctan["Animus Damper"]["text"].endswith("(Only with Pantheon of Woe.)")
    adept = sheets["space-marines/librarius-adept-crucible"]
    shield = {a["name"]: a for a in adept["abilities"]}["Storm Shield"]
    assert shield["text"].endswith("(Only with Space Wolves.)")
    choices = [c for o in adept["wargear_options"] for c in o.get("choices", [])]
    assert "Storm Shield (only with Space Wolves)" in choices


def test_issue43_weapons_a_specialism_or_mount_gives_are_the_units(sheets):
    kinhost = {w.rsplit("/", 1)[1] for w in sheets["leagues-of-votann/kinhost-commander-crucible"]["weapons"]}
    assert {"graviton-blast-cannon", "bolt-revolver"} <= kinhost


def test_issue43_legends_is_a_fact_not_a_name(sheets):
    hornet = sheets["aeldari/hornet-legends"]  # the id keeps the mark: sources and releases meet by id
    assert (hornet["name"], hornet.get("legends")) == ("Hornet", True)
    assert not [k for k, ds in sheets.items() if "[Legends]" in ds["name"]]
    assert "legends" not in sheets["space-marines/intercessor-squad"]


def test_issue43_the_audit_finds_none_of_these_classes_in_the_whole_game(build10):
    """A seeded sample of 120 datasheets of the armies and units these classes live in, read the audit's way
    (`python tests/bs_audit.py BUILD ARCHIVE 0` audits every one: 758 errors on 644 datasheets before the
    fixes, 162 on 107 after). Measured on all of them before the fixes: 31 keyword errors of this kind,
    510 names, 11 wargear without its condition, 36 datasheets missing weapons or abilities a choice's
    category unlocks."""
    # the armies and units these classes live in: Legends and Crucible units, Chaos Daemons, Necrons
    _count, errors = audit(build10, realdata.path("bsdata-10e"), 120, pick=r"legends|crucible|daemons|necrons")
    found = [f"{k}: {e}" for k, v in sorted(errors.items()) for e in v
             if e.startswith(("name ", "wargear shown without")) or ("SHADOW LEGION" in e or "YNNARI" in e)]
    # not yet: a Crucible character's Ravenwing Hunter and Tortuous Revelation, offered only with the Dark
    # Angels chapter *and* a bike (a category the bike adds): no one choice shows them, so no condition is said
    left = [f for f in found if "(Dark Angels)" in f and "wargear shown without" in f]
    assert len(left) <= 3 and [f for f in found if f not in left] == [], "\n".join(found[:20])
