"""The benches' child-process measurement (warscribe/measure.py): the child's own peak memory."""

from __future__ import annotations

from warscribe.bench.measure import run_warscribe

BALLAST_MIB = 300


def test_peak_memory_is_the_childs_not_the_parents_at_fork():
    ballast = bytearray(BALLAST_MIB * 1024 * 1024)
    ballast[::4096] = b"\1" * len(ballast[::4096])  # resident, not just reserved
    run = run_warscribe(["build", "--help"])
    assert run.status == 0 and "--manifest" in run.output
    # `wait4`'s ru_maxrss would be at least the ballast here (the parent's resident set at fork).
    assert 5 < run.peak_mib < BALLAST_MIB / 2, run.peak_mib
    assert run.wall > 0 and run.cpu > 0
    del ballast


def test_exit_status_and_output_of_a_failing_command(tmp_path):
    run = run_warscribe(["build", "--manifest", str(tmp_path / "missing.yaml"), "--out", str(tmp_path / "out")])
    assert run.status not in (0,) and "missing.yaml" in run.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
