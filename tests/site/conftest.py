"""A site built once from the seeds for the site tests (`warscribe build` into a temporary folder)."""

from __future__ import annotations

import subprocess
import sys
import sys as _sys
from pathlib import Path

import pytest

_sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("seed-site") / "out"
    proc = subprocess.run([sys.executable, "-m", "warscribe.cli", "build", "--out", str(out), "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out
