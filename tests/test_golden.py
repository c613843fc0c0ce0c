"""Golden files: the records and diagnostics the seeds give, reviewed and checked in.

Refresh after an intended change with `python -m pytest tests/test_golden.py --update-golden`,
then read the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import json
import shutil

import pytest

from warscribe.extract.pipeline import extract, line_accounting
from warscribe.writers import record_yaml

from conftest import GOLDEN, ROOT


@pytest.fixture(scope="module")
def result():
    return extract(ROOT / "sources" / "manifest.yaml")


def _rendered(result) -> dict[str, str]:
    return {f"records/{r['kind']}/{r['id']}.yaml": record_yaml(r) for r in result.records}


def _diagnostics(result) -> str:
    data = {
        "sources": {d.path: line_accounting(d) for d in result.documents},
        "diagnostics": [d.as_dict() for d in result.report.sorted()],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def test_records_match_golden(result, update_golden):
    rendered = _rendered(result)
    if update_golden:
        shutil.rmtree(GOLDEN / "records", ignore_errors=True)
        for rel, text in rendered.items():
            path = GOLDEN / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return
    golden = {str(p.relative_to(GOLDEN)): p.read_text(encoding="utf-8") for p in (GOLDEN / "records").rglob("*.yaml")}
    assert sorted(rendered) == sorted(golden), "record set differs from the golden files"
    changed = [rel for rel in rendered if rendered[rel] != golden[rel]]
    assert not changed, f"{len(changed)} records differ from golden, e.g. {changed[:5]}"


def test_diagnostics_match_golden(result, update_golden):
    text = _diagnostics(result)
    path = GOLDEN / "diagnostics.json"
    if update_golden:
        path.write_text(text, encoding="utf-8")
        return
    assert text == path.read_text(encoding="utf-8")


def test_seeds_have_no_unaccounted_lines_and_no_errors(result):
    for doc in result.documents:
        assert line_accounting(doc)["unaccounted"] == 0, doc.path
    assert result.report.errors == []
    assert result.rejected == []


def test_every_physical_line_is_accounted_for(result):
    """Each line number of each seed is used by a record or classified, not just most of them."""
    for doc in result.documents:
        seen = {ln.no for ln in doc.lines if ln.use is not None}
        assert seen == set(range(1, doc.raw_line_count + 1)), doc.path
