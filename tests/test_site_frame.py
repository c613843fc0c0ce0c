"""mkdocs.yml builds with mkdocs-material under --strict (warnings are errors)."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_mkdocs_strict_build(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Warscribe" in html and "material" in html.lower()
