"""Mutated seeds (truncated, lines duplicated and deleted, random bytes and markup inserted,
sections swapped) build without a traceback, every line accounted for, the other
sources' records unchanged."""

from __future__ import annotations

import re
import shutil

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import ROOT, write_manifest
from warscribe.extract.pipeline import extract

MUTATED = "datasheet-grey-knights-paladin-squad.10e.txt"
OTHERS = ["datasheet-imperial-agents-inquisitor.11e.txt", "rules-extract-inquisitorial-agents.11e.txt"]
SEED_LINES = (ROOT / "sources" / MUTATED).read_bytes().split(b"\n")
MARKUP = [b"<b>WHEN:</b>", b"| a | b |", b"RANGED WEAPONS | RANGE | A | BS | S | AP | D | |", b"KEYWORDS:",
          b"ABILITIES", b"\xef\xbb\xbf", b"\x1b[2J", b"\xff\xfe", b"\x00", b"- ", b"1CP", b"[", b"]", b"|||",
          b"UNIT COMPOSITION", b"STRATAGEMS", b"Core \xe2\x80\x93 Battle Tactic Stratagem"]

_index = st.integers(min_value=0, max_value=len(SEED_LINES) - 1)
_op = st.one_of(
    st.tuples(st.just("truncate"), _index),
    st.tuples(st.just("duplicate"), _index),
    st.tuples(st.just("delete"), _index),
    st.tuples(st.just("bytes"), _index, st.binary(min_size=1, max_size=12)),
    st.tuples(st.just("markup"), _index, st.sampled_from(MARKUP)),
    st.tuples(st.just("swap"), _index, _index, st.integers(min_value=1, max_value=40)),
)


def mutate(lines: list[bytes], ops) -> bytes:
    lines = list(lines)
    for op in ops:
        at = min(op[1], max(len(lines) - 1, 0))
        if op[0] == "truncate":
            lines = lines[: at + 1]
        elif op[0] == "duplicate" and lines:
            lines.insert(at, lines[at])
        elif op[0] == "delete" and lines:
            del lines[at]
        elif op[0] in ("bytes", "markup") and lines:
            line = lines[at]
            cut = len(line) // 2
            lines[at] = line[:cut] + op[2] + line[cut:]
        elif op[0] == "swap":
            a, b = sorted((at, min(op[2], len(lines))))
            n = op[3]
            if a + n <= b:
                lines = lines[:a] + lines[b:b + n] + lines[a + n:b] + lines[a:a + n] + lines[b + n:]
    return b"\n".join(lines)


def _build(folder, data: bytes):
    folder = folder / "sources"  # records cite 'sources/<file>' whatever the temporary folder is
    folder.mkdir()
    (folder / MUTATED).write_bytes(data)
    for name in OTHERS:
        shutil.copy(ROOT / "sources" / name, folder / name)
    entries = [{"file": MUTATED, "ruleset": "10e", "kind": "datasheet-page"},
               {"file": OTHERS[0], "ruleset": "11e", "kind": "datasheet-page"},
               {"file": OTHERS[1], "ruleset": "11e", "kind": "rules-extract", "title": "Inquisitorial Agents"}]
    return extract(write_manifest(folder, entries))


def _by_id(result) -> dict:
    return {r["id"]: r for r in result.records}


def _others(record: dict) -> bool:
    return all(not s["file"].endswith(MUTATED) for s in record["source"])


_BASELINE: dict[str, dict] = {}  # built once per session: the unmutated sources' records


# Few examples, no shrinking: each is a whole build, and the suite must stay quick.
@settings(max_examples=20, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=st.lists(_op, min_size=1, max_size=4))
def test_mutated_seeds_build_with_every_line_accounted_for(tmp_path_factory, ops):
    if not _BASELINE:
        _BASELINE.update(_by_id(_build(tmp_path_factory.mktemp("fuzz-baseline"), b"\n".join(SEED_LINES))))
    baseline = _BASELINE
    folder = tmp_path_factory.mktemp("mutated")
    result = _build(folder, mutate(SEED_LINES, ops))  # never raises

    docs = {d.path: d for d in result.documents}
    mutated = next((d for p, d in docs.items() if p.endswith(MUTATED)), None)
    if mutated is None:
        # Not read at all: then an error says why, at that file.
        assert any(e.file.endswith(MUTATED) for e in result.report.errors)
    else:
        # Every physical line is in the document, and each is used, classified or reported.
        assert {ln.no for ln in mutated.lines} == set(range(1, mutated.raw_line_count + 1))
        reported = {d.line for d in result.report.warnings if d.code == "unaccounted-line" and d.file == mutated.path}
        assert {ln.no for ln in mutated.lines if ln.use is None} <= reported
    for d in result.report.sorted():
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", d.render()), d.render()  # escaped for the terminal

    # The other sources' records are all still there; one only changes by merging a sighting of the mutated page.
    # Known limit, not checked here: Boarding Actions stratagem ids carry no ruleset, so a
    # 10e page and an 11e page share them and a datasheet's `stratagems` list (filtered by
    # ruleset) depends on whether the other edition's page prints them too.
    records = _by_id(result)
    for rid, old in baseline.items():
        if not _others(old):
            continue
        assert rid in records, rid
        new = records[rid]
        ignored = {"source", "stratagems"} if old["kind"] == "datasheet" else {"source"}
        if {k: v for k, v in new.items() if k not in ignored} != {k: v for k, v in old.items() if k not in ignored}:
            assert not _others(new), rid
        assert [s for s in new["source"] if not s["file"].endswith(MUTATED)] == old["source"]
