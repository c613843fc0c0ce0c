"""`warscribe serve`: builds, then serves the generated site on the given address, and leaves nothing behind."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from urllib.request import urlopen

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_serve_builds_and_serves(tmp_path):
    # From a working folder with the default, relative output folder (`out`), as a user runs it:
    # mkdocs must serve the site it built, not a 404 for every page.
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "warscribe.cli", "serve", "--manifest",
                             str(ROOT / "sources" / "manifest.yaml"), "-a", f"127.0.0.1:{port}"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        body = ""
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urlopen(f"http://127.0.0.1:{port}/datasheet/grey-knights/paladin-squad/", timeout=5) as r:
                    body = r.read().decode("utf-8")
                break
            except OSError:
                time.sleep(1)
        assert proc.poll() is None, proc.stderr.read()
        assert "Paladin Squad" in body and "Psycannon" in body
        assert "livereload" in body  # mkdocs serve injects its reload script
        with urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert r.status == 200 and "<title>Warscribe" in r.read().decode("utf-8")
    finally:
        proc.terminate()
        try:
            _out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _out, err = proc.communicate()
    # Stopped by SIGTERM: it exits by itself (not killed), the port is free, nothing is left beside the output.
    assert proc.returncode == 0, err
    assert not _listening(port)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert sorted(p.name for p in (tmp_path / "out" / "site-src").iterdir()) == [".warscribe-site-src", "docs",
                                                                               "hooks.py", "mkdocs.yml"]
    # Quiet by default: mkdocs' informational lines (one per page not in the navigation) are not shown.
    assert f"Serving on http://127.0.0.1:{port}/" in err and len(err.splitlines()) < 10, err
