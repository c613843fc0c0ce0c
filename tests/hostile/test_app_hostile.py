"""The app's data, damaged: any value of any type anywhere costs at most its own file, never the build.

A faction file, the core rules and the FAQ of the real data (a small faction: the Titans) with
values replaced at random paths by values of other types; the reader must report and go on.
"""

from __future__ import annotations

import copy
import json
import tarfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import realdata
from warscribe.extract import app
from warscribe.extract.app.source import AppFile
from warscribe.schema.diagnostics import Report

pytestmark = pytest.mark.slow

_WANTED = {"titan.json": "faction", "faqs.json": "faqs", "keywords.json": "keywords"}
_ODD = st.sampled_from([None, 0, -1, 1.5, True, "", "x", "<k>", "**", [], {}, [1, "a"], {"en": None}, {"en": 3},
                        "9" * 30])


@pytest.fixture(scope="module")
def docs():
    out = {}
    with tarfile.open(realdata.path("app-11e")) as tf:
        for m in tf.getmembers():
            name = m.name.rsplit("/", 1)[-1]
            if m.isfile() and name in _WANTED and "/combatpatrol/" not in m.name:
                doc = json.loads(tf.extractfile(m).read())
                if name == "faqs.json":
                    doc["faqs"] = doc["faqs"][:40]
                out[name] = doc
    return out


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_app_data_is_reported_never_raised(docs, data):
    damaged = copy.deepcopy(docs)
    name = data.draw(st.sampled_from(sorted(damaged)))
    paths = [p for p in _paths(damaged[name]) if p]
    for _ in range(data.draw(st.integers(1, 4))):
        path = data.draw(st.sampled_from(paths))
        node = damaged[name]
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = data.draw(_ODD)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier change replaced a parent of this path
    files = [AppFile(f"gdc/{n}", n, role, damaged[n], "11e") for n, role in sorted(_WANTED.items())]
    report = Report()
    items = app.read(files, report)
    # Whatever was made is a record with its provenance; what was not is said.
    for record, provs in items:
        assert record["id"] and provs and provs[0]["file"].startswith("gdc/")
