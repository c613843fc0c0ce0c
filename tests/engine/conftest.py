"""Fixtures for the engine tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_helpers import BUNDLE


@pytest.fixture
def bundle_path(tmp_path: Path) -> Path:
    path = tmp_path / "warscribe.json"
    path.write_text(json.dumps(BUNDLE), encoding="utf-8")
    return path
