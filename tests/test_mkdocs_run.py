"""How mkdocs runs for the site build: strict really is strict, its progress is consumed, its noise is not shown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from warscribe.site.generate import mkdocs_env
from warscribe.site.mkdocs_run import PROGRESS, build_site


def _project(tmp_path, page: str):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page, encoding="utf-8")
    (tmp_path / "docs" / "other.md").write_text("# Other\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: t\nnav: [index.md]\n", encoding="utf-8")
    return config


def test_a_warning_fails_the_strict_build(tmp_path):
    # `mkdocs build --strict -q` (as the site build ran it) silences warnings and so lets them pass.
    config = _project(tmp_path, "# Home\n[broken](nowhere.md)\n")
    quiet = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config)],
                           capture_output=True, text=True, env=mkdocs_env())
    assert quiet.returncode == 0  # the trap
    pages = []
    status, output = build_site(config, mkdocs_env(), pages.append)
    assert status == 1
    assert "mkdocs: warning: Doc file 'index.md' contains a link 'nowhere.md'" in output
    assert "strict mode" in output and PROGRESS not in output


def test_a_clean_build_reports_each_page_and_prints_nothing(tmp_path):
    config = _project(tmp_path, "# Home\n[fine](other.md)\n")
    pages = []
    status, output = build_site(config, mkdocs_env(), pages.append)
    assert status == 0 and output == ""  # not the informational lines ('other.md' is not in the nav ...)
    assert pages == [1, 2] and (tmp_path / "site" / "other" / "index.html").is_file()


def test_work_done_meanwhile_runs_while_the_child_builds_and_its_failure_stops_the_child(tmp_path):
    import os

    import pytest

    config = _project(tmp_path, "# Home\n[fine](other.md)\n")
    seen = []
    status, output = build_site(config, mkdocs_env(), meanwhile=lambda: seen.append(os.getpid()))
    assert status == 0 and output == "" and seen == [os.getpid()]

    def fail():
        raise RuntimeError("the records could not be written")

    with pytest.raises(RuntimeError, match="could not be written"):
        build_site(config, mkdocs_env(), meanwhile=fail)
    children = Path(f"/proc/{os.getpid()}/task")
    running = [pid for task in children.glob("*/children") for pid in task.read_text().split()
               if Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
    assert running == []  # mkdocs was stopped with the exception, not left to finish
