"""The noise rules and the change ledger on small hand-made builds: each rule once, each section once.

The whole-game ledger is tested on two real releases in tests/test_ledger_realdata.py.
"""

from __future__ import annotations

import copy
import json

from warscribe.cli import main
from warscribe.ledger.diff import compare
from warscribe.ledger import make
from warscribe.ledger.model import Side
from warscribe.ledger.render import render_markdown, render_text
from warscribe.schema.bundle import from_records
from warscribe.schema.registry import validator


def _source(entry: str, line: int = 10) -> list[dict]:
    return [{"file": "sources/data/Imperium - Test.cat", "first_line": line,
             "entry": {"id": entry, "catalogue": "Imperium - Test"}}]


def _unit(name: str = "Tester Squad", entry: str = "aaaa-0001") -> dict:
    slug = name.lower().replace(" ", "-")
    return {"kind": "datasheet", "id": f"test-faction/{slug}", "name": name, "ruleset": "10e",
            "faction": "Test Faction", "keywords": ["Infantry", "Battleline"],
            "points": [{"models": 5, "points": 90}, {"models": 10, "points": 180}],
            "models": [{"name": name, "M": 6, "T": 4, "Sv": 3, "W": 2, "Ld": 6, "OC": 2}],
            "abilities": [{"name": "Oath of Moment", "type": "faction", "text": ""},
                          {"name": "Steady Aim", "type": "datasheet",
                           "text": "Each time a model in this unit makes an attack, re-roll a Hit roll of 1."},
                          {"name": "Kroot Allies", "type": "datasheet",
                           "text": "While this unit is within 6\" of a friendly KROOT unit, it can't be targeted."}],
            "source": _source(entry)}


def _enhancement(bearers: list[str]) -> dict:
    return {"kind": "enhancement", "id": "test-faction/test-detachment/enhancements/relic", "name": "Relic",
            "ruleset": "10e", "points": 20, "text": "The bearer has the Feel No Pain 5+ ability.",
            "bearers": bearers, "source": _source("eeee-0001", 500)}


def _ledger(old: list[dict], new: list[dict]):
    a, b = from_records(old, origin="old"), from_records(new, origin="new")
    diff = compare(a, b)
    return diff, make(a, b, diff, (Side("old", "old"), Side("new", "new")))


def test_notation_changes_are_noise_and_counted_by_rule():
    old = _unit()
    new = copy.deepcopy(old)
    new["abilities"].reverse()  # reordered
    new["abilities"][0]["text"] = "While this unit is within 6\" of a friendly **^^Kroot^^** unit, it can’t be  targeted."
    new["keywords"] = ["Battleline", "Infantry"]
    new["source"] = _source("bbbb-0002", 12)  # a new catalogue entry id, the same content
    diff, led = _ledger([old], [new])
    assert diff.empty and led.empty, render_text(led)
    assert diff.noise.counts["reorder"] >= 2 and diff.noise.counts["markup"] == 1
    assert "Left out as noise" in render_text(led) and "markup 1" in render_text(led)


def test_an_entry_id_alone_is_no_change():
    old = _unit()
    new = copy.deepcopy(old)
    new["source"] = _source("bbbb-0002")
    diff, led = _ledger([old], [new])
    assert led.empty and diff.noise.counts["entry-id"] == 1


def test_a_quote_style_change_is_noise_but_a_word_change_is_a_text_change():
    old = _unit()
    new = copy.deepcopy(old)
    new["abilities"][2]["text"] = old["abilities"][2]["text"].replace("can't", "can’t")
    new["abilities"][1]["text"] = old["abilities"][1]["text"].replace("a Hit roll of 1", "the Hit roll")
    diff, led = _ledger([old], [new])
    assert diff.noise.counts["quotes"] == 1
    item, = led.items
    assert (item.section, item.group, item.what) == ("texts", "Tester Squad", "Steady Aim")
    assert item.words.endswith("re-roll [-a-] {+the+} Hit [-roll of 1.-] {+roll.+}")


def test_points_per_unit_size_come_first_with_their_change():
    old = _unit()
    new = copy.deepcopy(old)
    new["points"] = [{"models": 5, "points": 95}, {"models": 10, "points": 180}, {"models": 5, "points": 120,
                                                                                   "condition": "Assigned Agent"}]
    new["models"][0]["T"] = 5
    _diff, led = _ledger([old], [new])
    plain = [(i.what, i.old, i.new, i.delta) for i in led.section("points") if not i.condition]
    assert plain == [("5 models", 90, 95, 5)]
    assert [i.condition for i in led.section("points") if i.condition] == ["Assigned Agent"]
    counts = led.counts()
    assert counts["points"] == 1 and counts["points_up"] == 1 and counts["points_conditional"] == 1
    assert led.items[0].section == "points"
    profile, = led.section("profiles")
    assert (profile.what, profile.old, profile.new) == ("Tester Squad: T", 4, 5)
    # Tougher models: fewer of them lost to the bolt rifles (S4 now wounds on 5+), as many to the lascannons (2+ still).
    defence, = led.defence
    rows = {r["attacker"].split(" (")[0]: r for r in defence.rows}
    assert rows["10 bolt rifles"]["new"] < rows["10 bolt rifles"]["old"]
    assert rows["2 lascannons"]["delta"] == 0 and all(r["new"] <= r["old"] for r in defence.rows)
    assert not list(validator("ledger").iter_errors(led.as_dict()))


def test_a_derived_list_grown_by_an_added_unit_is_the_addition_only():
    unit = _unit()
    added = _unit("Newcomer Squad", "cccc-0003")
    old = [unit, _enhancement([unit["id"]])]
    new = [copy.deepcopy(unit), added, _enhancement([unit["id"], added["id"]])]
    diff, led = _ledger(old, new)
    assert diff.noise.counts["derived-list"] == 1
    item, = led.items
    assert (item.section, item.what) == ("added", "Newcomer Squad")
    assert "5 models: 90 pts" in item.new


def test_a_derived_list_changed_for_no_other_reason_is_a_change():
    unit = _unit()
    other = _unit("Other Squad", "dddd-0004")
    old = [unit, other, _enhancement([unit["id"]])]
    new = [copy.deepcopy(unit), copy.deepcopy(other), _enhancement([unit["id"], other["id"]])]
    _diff, led = _ledger(old, new)
    assert [i.path for i in led.items] == ["bearers"]


def test_diff_cli_prints_the_ledger_in_three_forms(tmp_path, capsys):
    old, new = _unit(), _unit()
    new["points"][0]["points"] = 80
    for name, recs in (("old", [old]), ("new", [new])):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "warscribe.json").write_text(json.dumps({"meta": {"schema_version": "1.0"},
                                                           "data": {"datasheet": recs}}), encoding="utf-8")
    assert main(["diff", str(tmp_path / "old"), str(tmp_path / "new")]) == 1
    text = capsys.readouterr().out
    assert "1 change: 1 points (0 up, 1 down)" in text and "5 models: 90 -> 80  -10" in text
    assert main(["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "markdown"]) == 1
    assert "| Tester Squad | 5 models | 90 | 80 | -10 |" in capsys.readouterr().out
    assert main(["diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ledger"]["summary"]["points_down"] == 1 and data["changed"][0]["record"] == "test-faction/tester-squad"


def _bsdata_repo(tmp_path):
    """A git checkout of small BattleScribe data: the fixture, then its first unit repriced 100 -> 110."""
    import shutil
    import subprocess

    from conftest import ROOT

    repo = tmp_path / "wh40k-test"
    shutil.copytree(ROOT / "tests" / "fixtures" / "battlescribe" / "xml", repo)
    env = {"GIT_AUTHOR_DATE": "2025-12-08T12:00:00Z", "GIT_COMMITTER_DATE": "2025-12-08T12:00:00Z",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "PATH": "/usr/bin:/bin"}
    git = ["git", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    subprocess.run([*git, "add", "-A"], check=True, env=env)
    subprocess.run([*git, "commit", "-qm", "before"], check=True, env=env)
    cat = repo / "Testers.cat"
    text = cat.read_text(encoding="utf-8")
    assert text.count('value="100"/>') >= 1
    cat.write_text(text.replace('<cost name="pts" typeId="pts-id" value="100"/>',
                                '<cost name="pts" typeId="pts-id" value="110"/>', 1), encoding="utf-8")
    env.update(GIT_AUTHOR_DATE="2025-12-13T12:00:00Z", GIT_COMMITTER_DATE="2025-12-13T12:00:00Z")
    subprocess.run([*git, "commit", "-qam", "after"], check=True, env=env)
    return repo


def test_diff_builds_two_git_revisions_of_battlescribe_data(tmp_path, capsys):
    repo = _bsdata_repo(tmp_path)
    assert main(["diff", "HEAD~1", "HEAD", "--repo", str(repo), "--format", "json"]) == 1
    book = json.loads(capsys.readouterr().out)["ledger"]
    assert not list(validator("ledger").iter_errors(book))
    assert [(s["how"], s["date"]) for s in book["sides"].values()] == [("git", "2025-12-08"), ("git", "2025-12-13")]
    points = [(c["old"], c["new"], c["delta"]) for c in book["changes"] if c["section"] == "points"]
    assert points == [(100, 110, 10)] and book["summary"]["total"] == 1
    change, = book["changes"]
    assert change["new_source"]["file"].endswith("Testers.cat") and change["new_source"]["entry"]


def test_diff_builds_battlescribe_archives_given_directly(tmp_path, capsys):
    import tarfile

    repo = _bsdata_repo(tmp_path)
    after = tmp_path / "after.tar.xz"
    with tarfile.open(after, "w:xz") as tf:
        for f in sorted(repo.glob("*.c*")) + sorted(repo.glob("*.gst")):
            tf.add(f, arcname=f.name)
    assert main(["diff", str(repo), str(after)]) == 0  # the same data: exit 0
    text = capsys.readouterr().out
    assert text.count("(BattleScribe data, released 2025-12-13") == 1  # the checkout: its last commit
    assert "(BattleScribe data, released" in text.split("new:", 1)[1]  # the archive: its newest member
    assert "No differences." in text
