"""Every real list of ../shared/rosters read without a knowledge base, and the layouts they do not show, hand-made.

Each real list: its format and what decided it, its header, every unit with its first
line, declared points and models, and every line of the file used or classified.
"""

from __future__ import annotations

import zipfile

import pytest

from conftest import rosters_path
from warscribe.roster import read_data, read_path

# file -> (format, variant, detected by, edition, declared total, points limit, detachments (name, points),
#          factions, [(line, name, declared points, models)])
REAL = {
    "gwapp10e-worldeaters-1.txt": ("gw-app", "", "signature", "10e", 1995, 2000, [("Berzerker Warband", None)],
                                   ["World Eaters"], 16, [(10, "Daemon Prince of Khorne", 220, None),
                                                          (32, "Khorne Berzerkers", 180, 10), (92, "Jakhals", 65, 10),
                                                          (108, "Maulerfiend", 150, None)]),
    "gwapp11e-worldeaters-1.txt": ("gw-app", "", "signature", "11e", 1975, 2000, [("Berzerker Warband", 3)],
                                   ["World Eaters"], 16, [(11, "Slaughterbound", 120, None),
                                                          (101, "Goremongers", 75, 8)]),
    "gwapp11e-darkangels-1.txt": ("gw-app", "", "signature", "11e", 1995, 2000,
                                  [("Darkflight Pursuit and Inner Circle Task Force", 3)],
                                  ["Space Marines", "Dark Angels"], 16, [(17, "Deathwing Knights", 240, 5),
                                                                          (96, "Land Speeder", 110, None)]),
    "gwapp11e-tau-fr-1.txt": ("gw-app", "", "signature", "11e", 2000, 2000, [("Mont’ka", 3)], ["Empire T’au"], 18,
                              [(11, "Commander Farsight", 80, None), (103, "The Twin Lance", 205, 2)]),
    "nrwtc10e-worldeaters-1.txt": ("newrecruit-text", "wtc", "signature", None, 1990, None,
                                   [("Berzerker Warband", None)], ["Chaos - World Eaters"], 16,
                                   [(16, "Khârn the Betrayer", 100, 1), (34, "Khorne Berzerkers", 180, 10)]),
    "nrtournament11e-worldeaters-1.txt": ("newrecruit-text", "tournament", "signature", "11e", 2000, None,
                                          [("Berzerker Warband", None)], ["Chaos - World Eaters"], 17,
                                          [(14, "Khârn the Betrayer", 115, 1), (63, "Jakhals", 65, 10)]),
    "nrsimple10e-worldeaters-1.txt": ("newrecruit-simple", "simple", "signature", None, 2000, 2000,
                                      [("Berzerker Warband", None)], [], 16,
                                      [(11, "Khârn the Betrayer", 100, None), (19, "Khorne Berzerkers", 180, 10)]),
    "battlescribe10e-necrons-1.rosz": ("battlescribe", "rosz", "signature", "10e", 1205, 2000,
                                       [("Awakened Dynasty", None)], ["Xenos - Necrons"], 4,
                                       [(143, "Overlord", 85, 1), (537, "The Silent King", 470, 3)]),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_every_real_list_is_read(name):
    fmt, variant, by, edition, total, limit, dets, factions, count, samples = REAL[name]
    r = read_path(str(rosters_path(name)))
    assert r.errors == [] and r.warnings == []
    assert (r.format, r.variant, r.detected_by, r.edition) == (fmt, variant, by, edition)
    assert (r.declared_total, r.points_limit) == (total, limit)
    assert [(d.name, d.points) for d in r.detachments] == dets
    assert [f.name for f in r.factions] == factions
    assert len(r.units) == count
    got = {u.line: (u.name, u.points, u.models) for u in r.units}
    for line, unit, points, models in samples:
        assert got[line] == (unit, points, models)
    assert all(u.points is not None and u.raw and u.raw[0].strip() for u in r.units)
    # Every line is used by something or classified; a text list's units keep their lines as written.
    assert sum(r.classified.values()) == r.lines
    if fmt != "battlescribe":
        text = rosters_path(name).read_text(encoding="utf-8").split("\n")
        for u in r.units:
            assert u.raw == [line for line in text[u.line - 1:u.last_line] if line.strip()]


def test_the_real_lists_attached_units_and_warlords():
    we = read_path(str(rosters_path("gwapp11e-worldeaters-1.txt")))
    assert [(u.name, u.group, u.role) for u in we.units[:4]] == [
        ("Slaughterbound", 1, "leader"), ("Exalted Eightbound", 1, "bodyguard"),
        ("Khârn the Betrayer", 2, "leader"), ("Khorne Berzerkers", 2, "bodyguard")]
    assert [u.name for u in we.units if u.warlord] == ["Daemon Prince of Khorne"]
    assert [(e.name, e.line) for u in we.units for e in u.enhancements] == [
        ("Battle-lust", 14), ("Berzerker Glaive", 48), ("Favoured of Khorne", 69)]
    da = read_path(str(rosters_path("gwapp11e-darkangels-1.txt")))
    assert da.units[0].role == "support" and [d.parts for d in da.detachments] == [
        ["Darkflight Pursuit", "Inner Circle Task Force"]]
    assert [(n.name, n.line) for n in da.notes] == [(".", 78)]  # the player's stray line, kept
    assert [(e.name, e.upgrade) for u in da.units for e in u.enhancements] == [("Thundercowl Turbines", True)]
    fr = read_path(str(rosters_path("gwapp11e-tau-fr-1.txt")))
    assert fr.language == "fr" and fr.units[0].warlord and fr.units[0].role == "leader"
    assert [d.name for d in fr.dispositions] == ["Éliminez l’Adversaire"]
    assert [e.name for u in fr.units for e in u.enhancements] == ["Exemplar of the Mont’ka", "Strike Swiftly"]
    nr = read_path(str(rosters_path("nrtournament11e-worldeaters-1.txt")))
    assert [(u.label, u.leading.name, u.leading_index) for u in nr.units if u.leading] == [
        ("Char1", "Khorne Berzerkers", 1), ("Char2", "Khorne Berzerkers", 2), ("Char3", "Khorne Berzerkers", 3),
        ("Char4", "Exalted Eightbound", None)]
    assert [u.attached_to.name for u in nr.units if u.attached_to] == [
        "Khârn the Betrayer", "Lord Invocatus", "Master of Executions", "Slaughterbound"]
    assert nr.header_warlord.name == "Khârn the Betrayer" and nr.units[0].warlord
    wtc = read_path(str(rosters_path("nrwtc10e-worldeaters-1.txt")))
    # The header's CharN labels disagree with the body's: enhancements are the body's, by name.
    assert [(u.label, u.name, [e.name for e in u.enhancements]) for u in wtc.units if u.enhancements] == [
        ("Char2", "Daemon Prince of Khorne", ["Favoured of Khorne"]), ("Char3", "Master of Executions", ["Berzerker Glaive"]),
        ("Char4", "Slaughterbound", ["Battle-lust"])]
    bs = read_path(str(rosters_path("battlescribe10e-necrons-1.rosz")))
    assert bs.file.endswith(".rosz/Necrons 10e.ros") and [u.name for u in bs.units if u.warlord] == ["The Silent King"]
    assert [(m.name, m.count) for m in bs.units[2].model_lines] == [("Szarekh", 1), ("Triarchal Menhir", 2)]


def test_a_plain_ros_reads_as_its_rosz(tmp_path):
    with zipfile.ZipFile(rosters_path("battlescribe10e-necrons-1.rosz")) as z:
        data = z.read("Necrons 10e.ros")
    plain = read_data(data, "Necrons 10e.ros")
    zipped = read_path(str(rosters_path("battlescribe10e-necrons-1.rosz")))
    assert plain.variant == "ros" and plain.detected_by == "signature"
    assert [(u.name, u.points, u.models, u.line) for u in plain.units] == [
        (u.name, u.points, u.models, u.line) for u in zipped.units]


# -- layouts the real files do not show ----------------------------------------------------------

ALTERNATE = """CRISIS SUITS  (1,990 Points)

T’au Empire
Retaliation Cadre and Kauyon (3 Detachment Points)
Force Dispositions: Purge the Foe, Reconnaissance
Strike Force (2\u00a0000 Points)

ATTACHED UNITS

Attached unit 1

Commander Farsight (80 Points)
  • Attached as: Leader (Character)
  • Warlord
  • 1x Dawn Blade
  • 1x High-intensity plasma rifle

Crisis Sunforge Battlesuits (1,135 Points)
  • Attached as: Bodyguard ()
  • 1x Crisis Sunforge Shas’vre
     ◦ 1x Battlesuit fists
     ◦ 2x Fusion blaster
  • 2x Crisis Sunforge Shas’ui
     ◦ 2x Battlesuit fists
     ◦ 4x Fusion blaster

Commander in Enforcer Battlesuit (100 Points)
  • 1x Battlesuit fists
  • Enhancements: Starflare Ignition System

ALLIED UNITS

Callidus Assassin (100 Points)
  • 1x Neural shredder

Bring snacks for the table.
"""


def test_the_apps_other_header_order_round_bullets_and_thousands():
    r = read_data(ALTERNATE.encode(), "alt.txt")
    assert (r.format, r.detected_by, r.edition) == ("gw-app", "shape", "11e")
    assert (r.name, r.declared_total, r.points_limit, r.battle_size.name) == ("CRISIS SUITS", 1990, 2000, "Strike Force")
    assert [f.name for f in r.factions] == ["T’au Empire"]
    assert [(d.name, d.points, d.parts) for d in r.detachments] == [
        ("Retaliation Cadre and Kauyon", 3, ["Retaliation Cadre", "Kauyon"])]
    assert [d.name for d in r.dispositions] == ["Purge the Foe", "Reconnaissance"]
    suits = r.units[1]
    assert (suits.points, suits.models, suits.role, suits.group) == (1135, 3, "bodyguard", 1)
    assert [(m.name, m.count, m.wargear) for m in suits.model_lines] == [
        ("Crisis Sunforge Shas’vre", 1, ["Battlesuit fists", "Fusion blaster"]),
        ("Crisis Sunforge Shas’ui", 2, ["Battlesuit fists", "Fusion blaster"])]
    assert r.units[0].warlord and [w.name for w in r.units[0].wargear] == ["Dawn Blade", "High-intensity plasma rifle"]
    assert [e.name for e in r.units[2].enhancements] == ["Starflare Ignition System"]
    assert r.units[3].allied and r.units[3].section == "ALLIED UNITS"
    assert [(n.name, n.line) for n in r.notes] == [
        ("Bring snacks for the table.", ALTERNATE.split("\n").index("Bring snacks for the table.") + 1)]
    assert sum(r.classified.values()) == r.lines


def test_the_tenth_edition_header_with_the_battle_size_last():
    text = ("Blood (2,000 points)\n\nWorld Eaters\nBerzerker Warband\nStrike Force (2,000 points)\n\n"
            "CHARACTERS\n\nMaster of Executions (95 points)\n  • Warlord\n  • 1x Axe\n  • Enhancement: Berzerker Glaive\n")
    r = read_data(text.encode(), "x.txt")
    assert [f.name for f in r.factions] == ["World Eaters"] and [d.name for d in r.detachments] == ["Berzerker Warband"]
    assert (r.battle_size.name, r.points_limit, r.declared_total) == ("Strike Force", 2000, 2000)


def test_french_labels():
    text = ("Liste (120 points)\n\nWorld Eaters\nBerzerker Warband (3 Points de Détachement)\nÉliminez l’Adversaire\n"
            "Force de Frappe (2000 points)\n\nUnités Attachées\nUnité 1 Attachée\n\n"
            "Slaughterbound (120 points)\n• Attachée en tant que : Meneur (Personnage)\n  • Seigneur de Guerre\n"
            "  • 1x Lacerator\n  • Optimisation : Battle-lust\n\nPERSONNAGES\n\nTRANSPORT ASSIGNÉ\n\n"
            "Exporté avec la Version de l'Appli : v2.4.0 (139), Version de Données : v925\n")
    r = read_data(text.encode(), "fr.txt")
    assert (r.language, r.detected_by, r.edition, r.data_version) == ("fr", "signature", "11e", "v925")
    u = r.units[0]
    assert (u.role, u.group, u.warlord, [e.name for e in u.enhancements]) == ("leader", 1, True, ["Battle-lust"])
    assert [d.name for d in r.dispositions] == ["Éliminez l’Adversaire"] and r.battle_size.name == "Force de Frappe"


def test_new_recruit_gw_style_body_and_bullet_enhancements():
    text = ("+++++++++++++++++++++++++++++++++++++++++++++++\n+ FACTION KEYWORD: Chaos - World Eaters\n"
            "+ DETACHMENT: Berzerker Warband (Relentless Rage)\n+ TOTAL ARMY POINTS: 1995pts\n+\n"
            "+ WARLORD: Char1: Khârn the Betrayer\n+ ENHANCEMENT: Berzerker Glaive (on Char3: Master of Executions)\n"
            "+++++++++++++++++++++++++++++++++++++++++++++++\n\nCHARACTER\n\nKhârn the Betrayer (115 pts)\n"
            "• 1x Gorechild\n• 1x Plasma pistol\n• Warlord\n\nMaster of Executions (95 pts)\n• 1x Axe of dismemberment\n"
            "• Berzerker Glaive (+35 pts)\n\nBATTLELINE\n\nKhorne Berzerkers (180 pts)\n• 1x Khorne Berzerker Champion\n"
            "    • 1x Chainblade\n• 9x Khorne Berzerker\n    • 7x Bolt pistol\n    • Icon of Khorne\n")
    r = read_data(text.encode(), "nrgw.txt")
    assert (r.format, r.variant, r.detected_by) == ("newrecruit-text", "gw", "signature")
    assert [d.name for d in r.detachments] == ["Berzerker Warband"]  # the rule's name in brackets dropped
    assert [(u.name, u.points, u.models, u.warlord) for u in r.units] == [
        ("Khârn the Betrayer", 115, None, True), ("Master of Executions", 95, None, False),
        ("Khorne Berzerkers", 180, 10, False)]
    assert [(e.name, e.points) for e in r.units[1].enhancements] == [("Berzerker Glaive", 35)]
    assert [w.name for w in r.units[0].wargear] == ["Gorechild", "Plasma pistol"]


@pytest.mark.parametrize("cut", ["Exported with App Version", "Created with newrecruit.eu", "# ++ Army Roster ++"])
def test_a_list_without_its_signature_is_recognised_by_its_shape(cut):
    name = {"Exported with App Version": "gwapp11e-worldeaters-1.txt",
            "Created with newrecruit.eu": "nrtournament11e-worldeaters-1.txt",
            "# ++ Army Roster ++": "nrsimple10e-worldeaters-1.txt"}[cut]
    text = rosters_path(name).read_text(encoding="utf-8")
    lines = [line for line in text.split("\n") if not line.startswith(cut) and not line.startswith("+")]
    signed = read_path(str(rosters_path(name)))
    bare = read_data("\n".join(lines).encode(), name)
    assert bare.detected_by == "shape" and bare.format == signed.format
    assert "lines shaped as" in bare.detection
    assert [(u.name, u.points) for u in bare.units] == [(u.name, u.points) for u in signed.units]


def test_standard_input(tmp_path):
    import io

    data = rosters_path("gwapp11e-worldeaters-1.txt").read_bytes()
    r = read_path("-", stdin=io.BytesIO(data))
    assert r.file == "<stdin>" and len(r.units) == 16 and r.errors == []


def test_windows_line_ends_and_a_byte_order_mark():
    data = b"\xef\xbb\xbf" + rosters_path("gwapp10e-worldeaters-1.txt").read_bytes().replace(b"\n", b"\r\n")
    r = read_data(data, "crlf.txt")
    assert r.name == "Chainblades go BRRRR" and len(r.units) == 16 and r.units[0].raw[0] == "Daemon Prince of Khorne (220 points)"
    utf16 = rosters_path("gwapp10e-worldeaters-1.txt").read_text(encoding="utf-8").encode("utf-16")
    assert len(read_data(utf16, "u16.txt").units) == 16
