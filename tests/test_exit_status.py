"""One exit-status convention for every command (docs/commands.md#exit-status): 2 and one line for input
that cannot be used, whatever the command."""

from __future__ import annotations

import pytest

from conftest import ROOT
from warscribe import cli

SCENARIO = ROOT / "examples" / "scenarios" / "attached-unit.yaml"


def _cases(tmp):
    missing = tmp / "missing"
    yaml_file = tmp / "manifest.yaml"
    yaml_file.write_text("sources:\n  - file: page.txt\n", encoding="utf-8")
    binary = tmp / "binary.dat"
    binary.write_bytes(b"\x00\x01\x02\x03" * 100)
    empty = tmp / "empty.txt"
    empty.write_bytes(b"")
    out = tmp / "out"
    return {
        "build, no manifest": ["build", "--manifest", str(missing / "m.yaml"), "--out", str(out), "-q"],
        "export, no manifest": ["export", "--manifest", str(missing / "m.yaml"), "--out", str(out), "-q"],
        "manifest, no manifest": ["manifest", "--manifest", str(missing / "m.yaml")],
        "check, no build": ["check", str(missing)],
        "check, YAML for a build": ["check", str(yaml_file)],
        "check, binary for a build": ["check", str(binary)],
        "diff, no builds": ["diff", str(missing), str(missing / "b")],
        "effects, empty file for a build": ["effects", "--kb", str(empty)],
        "calc, no scenario": ["calc", str(missing / "s.yaml")],
        "calc, no build": ["calc", str(SCENARIO), "--kb", str(missing)],
        "matrix, no weapons": ["matrix", "--weapons", str(missing / "w.tsv"), "--out", str(tmp / "m.csv")],
        "census, binary": ["census", str(binary)],
        "roster, no build": ["roster", str(empty), "--kb", str(missing)],
        "roster, YAML for a build": ["roster", str(empty), "--kb", str(yaml_file)],
        "a command line that does not parse": ["build", "--no-such-option"],
    }


@pytest.mark.parametrize("case", [
    "build, no manifest", "export, no manifest", "manifest, no manifest", "check, no build",
    "check, YAML for a build", "check, binary for a build", "diff, no builds", "effects, empty file for a build",
    "calc, no scenario", "calc, no build", "matrix, no weapons", "census, binary", "roster, no build",
    "roster, YAML for a build", "a command line that does not parse"])
def test_input_that_cannot_be_used_exits_2_saying_so(tmp_path, capsys, case):
    argv = _cases(tmp_path)[case]
    try:
        status = cli.main(argv)
    except SystemExit as exc:  # argparse's own exit for a command line that does not parse
        status = exc.code
    captured = capsys.readouterr()
    assert status == 2, (case, captured.out[-500:], captured.err[-500:])
    assert captured.err.strip(), case  # said, on standard error
    assert "Traceback" not in captured.err
    assert not (tmp_path / "out").exists(), "nothing was written"
