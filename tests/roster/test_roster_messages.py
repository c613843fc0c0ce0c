"""What `warscribe roster` says of names it cannot resolve, and of model counts it assumes.

A list whose faction the knowledge base has no datasheets of (an 11th-edition BattleScribe
snapshot without the Space Marines catalogue) is told so once, at the faction's line, with
the reason the build's report gives and the build to use instead; its other unresolved
names point there instead of suggesting near names of other factions ('Inceptor Squad'
is not a Grey Knights 'Interceptor Squad'). A small build folder is written by hand:
json/warscribe.json, manifest.json and a report.json with the reader's missing-catalogue
warning.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roster_helpers import _ds, app_list, knowledge_base
from warscribe.cli import main
from warscribe.roster import examine, read_data
from warscribe.roster.report import render_text
from warscribe.schema import bundle

MISSING = ("catalogue 'Imperium - Space Marines' is not in the data read: factions with no datasheets because of it: "
           "Space Marines; factions that lost units it holds: Black Templars, Dark Angels")

UNITS = """
Deathwing Knights (240 points)
• 5x Deathwing Knight

Inceptor Squad (120 points)
• 3x Inceptor

Azrael (140 points)
• Warlord
• Enhancement: Eye of the Unseen
"""


def _build(folder: Path, report: dict | None) -> Path:
    recs = list(knowledge_base("11e"))
    recs.append(_ds("11e", "Dark Angels", "dark-angels/deathwing-knights", "Deathwing Knights",
                    ["INFANTRY", "TERMINATOR"], [("Deathwing Knight", 5, 5)], [(5, 240)],
                    fkw=("ADEPTUS ASTARTES", "DARK ANGELS")))
    recs.append(_ds("11e", "Dark Angels", "dark-angels/azrael", "Azrael", ["INFANTRY", "CHARACTER", "EPIC HERO"],
                    [("Azrael", 1, 1)], [(1, 140)], fkw=("ADEPTUS ASTARTES", "DARK ANGELS")))
    recs.append(_ds("11e", "Grey Knights", "grey-knights/interceptor-squad", "Interceptor Squad", ["INFANTRY"],
                    [("Interceptor", 5, 10)], [(5, 110)], fkw=("GREY KNIGHTS",)))
    data: dict[str, list] = {}
    for r in recs:
        data.setdefault(r["kind"], []).append(r)
    (folder / "json").mkdir(parents=True)
    (folder / "json" / "warscribe.json").write_text(json.dumps({"meta": {}, "data": data}), encoding="utf-8")
    (folder / "manifest.json").write_text(json.dumps({"sources": []}), encoding="utf-8")
    if report is not None:
        (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")
    return folder


def _report(*messages: str) -> dict:
    return {"diagnostics": [{"file": "wh40k-11e.tar.xz/Imperium - Dark Angels.json", "line": 9, "level": "warning",
                             "code": "missing-catalogue", "message": m, "expected": "", "found": "nothing"}
                            for m in messages]}


def _check(folder: Path, faction="Space Marines\nDark Angels", detachment="Berzerker Warband (3 Detachment Points)"):
    text = app_list(UNITS, faction=faction, detachment=detachment, version="v2.0.5 (128)")
    return examine(read_data(text.encode("utf-8"), "list.txt"), [bundle.load(folder)])


def _messages(result) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for f in result.findings:
        if f.diagnostic.code == "roster-unresolved":
            out.setdefault(f.diagnostic.line, []).append(f.diagnostic.message)
    return out


@pytest.fixture(scope="module")
def with_report(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("kb") / "bs11e", _report(MISSING))


def test_a_missing_faction_is_said_once_with_the_reason_and_the_build_to_use(with_report):
    result = _check(with_report)
    messages = _messages(result)
    assert messages[3] == [
        f"faction 'Space Marines': the knowledge base {with_report} has no 11e Space Marines datasheets: the "
        "BattleScribe data it was built from lacks the catalogue 'Imperium - Space Marines' (its report.json, "
        "missing-catalogue); build with examples/11e (the app's data); the list's units, detachments and "
        "enhancements of that faction do not resolve"]
    assert sum("build with" in m for ms in messages.values() for m in ms) == 1
    assert result.resolution.army == {"Dark Angels"}


def test_its_units_and_enhancements_point_there_instead_of_near_names_of_other_factions(with_report):
    result = _check(with_report)
    lines = {u.unit.name: u.unit.line for u in result.resolution.units}
    inceptor = _messages(result)[lines["Inceptor Squad"]]
    assert inceptor == ["unit 'Inceptor Squad' names no 11e record of the knowledge base, which has no Space "
                        "Marines datasheets (line 3)"]
    assert "Interceptor" not in str(_messages(result))
    assert not result.resolution.units[1].datasheet.ok and result.resolution.units[0].datasheet.ok
    enhancement = next(f.diagnostic for f in result.findings if "Eye of the Unseen" in f.diagnostic.message)
    assert enhancement.expected == "an enhancement of the knowledge base (11e)"  # not 'a enhancement'


def test_without_a_report_the_reason_is_that_no_source_gives_them(tmp_path):
    folder = _build(tmp_path / "seeds", None)
    message = _messages(_check(folder))[3][0]
    assert f"the knowledge base {folder} has no 11e Space Marines datasheets (none of its sources gives them); " \
           "build with examples/11e (the app's data)" in message


def test_a_misspelt_faction_keeps_its_near_names_as_a_possibility(tmp_path):
    folder = _build(tmp_path / "kb", None)
    message = _messages(_check(folder, faction="Dark Angles"))[3][0]
    assert "no 11e Dark Angles datasheets" in message
    assert message.endswith("if the name is misspelt, nearest: 'Dark Angels'")


def test_a_list_whose_factions_all_resolve_still_gets_near_names(with_report):
    # The army resolves; a unit misspelt is given its near name, and the army's missing units are explained.
    text = app_list("Deathwing Knigts (240 points)\n• 5x Deathwing Knight", faction="Dark Angels",
                    detachment="Berzerker Warband (3 Detachment Points)", version="v2.0.5 (128)")
    result = examine(read_data(text.encode("utf-8"), "list.txt"), [bundle.load(with_report)])
    (message,) = [m for ms in _messages(result).values() for m in ms]
    assert message == ("unit 'Deathwing Knigts' names no 11e record of the knowledge base; nearest: 'Deathwing "
                       "Knights' (the knowledge base's Dark Angels datasheets are incomplete: its BattleScribe data "
                       "lacks the catalogue 'Imperium - Space Marines')")


def test_an_inferred_model_count_is_explained_in_the_text(with_report):
    result = _check(with_report)
    azrael = next(u for u in result.resolution.units if u.unit.name == "Azrael")
    assert azrael.models == 1 and azrael.models_inferred
    text = render_text(result)
    assert "1?" in text
    assert "  ? models: the list prints no model count; the datasheet's smallest size is assumed" in text.splitlines()


def test_the_command_prints_it(with_report, tmp_path, capsys):
    path = tmp_path / "list.txt"
    path.write_text(app_list(UNITS, faction="Space Marines\nDark Angels",
                             detachment="Berzerker Warband (3 Detachment Points)", version="v2.0.5 (128)"),
                    encoding="utf-8")
    assert main(["roster", str(path), "--kb", str(with_report)]) == 1
    out = capsys.readouterr().out
    assert "has no 11e Space Marines datasheets" in out and "nearest" not in out
