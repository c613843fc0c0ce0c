"""No command leaves a process, a port or a scratch folder behind, however it is stopped.

`warscribe build` runs mkdocs in a child for the site: SIGTERM, SIGHUP or Ctrl-C of
the build stops the child and removes the staging folder (the previous output stays
as it was); SIGKILL of the build kills the child too (the kernel's parent-death
signal), and the next build removes the staging folder left behind and says so.
`warscribe serve` serves in its own process: stopped by any of these signals, the
port is free at once. A busy port is one line, before anything is built.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

import pytest

from conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                                   reason="reads the process table from /proc")]


def _children(pid: int) -> list[int]:
    """Every process whose parent is `pid`, and theirs (from /proc)."""
    by_parent: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            by_parent.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in by_parent.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _gone(pid: int, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _start(*args, cwd=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "warscribe", *map(str, args)], cwd=cwd or ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _site_child(proc: subprocess.Popen, timeout: float = 120) -> int:
    """The pid of the build's mkdocs child, once it runs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        for pid in _children(proc.pid):
            if "warscribe.site.mkdocs_run" in _cmdline(pid):
                return pid
        time.sleep(0.02)
    raise AssertionError(f"no site child appeared (exit {proc.poll()}): {proc.communicate()}")


def _scratch(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def previous(tmp_path_factory) -> Path:
    """A finished build (records only) that an interrupted build must leave as it was."""
    out = tmp_path_factory.mktemp("previous") / "out"
    done = subprocess.run([sys.executable, "-m", "warscribe", "build", "--out", str(out), "-q", "--no-site"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_during_the_site_stage_stops_the_child_and_removes_the_stage(tmp_path, previous, signum):
    out = tmp_path / "out"
    import shutil

    shutil.copytree(previous, out)
    before = json.loads((out / "manifest.json").read_text())
    proc = _start("build", "--out", out)
    child = _site_child(proc)
    os.kill(proc.pid, signum)
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    assert _gone(child), f"the site child {child} outlived the build: {_cmdline(child)}"
    assert _scratch(tmp_path) == [], "a staging folder was left behind"
    assert json.loads((out / "manifest.json").read_text()) == before  # the previous build, untouched


def test_a_killed_build_takes_its_child_along_and_the_next_build_removes_its_stage(tmp_path):
    out = tmp_path / "out"
    proc = _start("build", "--out", out)
    child = _site_child(proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert _gone(child), f"the site child {child} outlived the killed build: {_cmdline(child)}"
    left = _scratch(tmp_path)
    assert len(left) == 1 and left[0].startswith(".out.new-"), left  # killed outright: no code of ours ran
    again = subprocess.run([sys.executable, "-m", "warscribe", "build", "--out", str(out), "-q", "--no-site"],
                           cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"removed a staging folder left by an interrupted run (process {proc.pid}): {left[0]}" in again.stderr
    assert _scratch(tmp_path) == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_free(port: int) -> bool:
    """Nothing listens on the port and a new server can take it (as servers do, TIME_WAIT is no obstacle)."""
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            return False
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # Linux still refuses while a listener holds it
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError:
            return False
    return True


def _serving(proc: subprocess.Popen, port: int, timeout: float = 240) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urlopen(f"http://127.0.0.1:{port}/datasheet/grey-knights/paladin-squad/", timeout=5) as r:
                return r.read().decode("utf-8")
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"not serving (exit {proc.poll()})")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGKILL])
def test_serve_stops_on_every_signal_and_frees_the_port(tmp_path, signum):
    port = _free_port()
    proc = _start("serve", "--out", tmp_path / "out", "-a", f"127.0.0.1:{port}")
    try:
        assert "Paladin Squad" in _serving(proc, port)
        assert _children(proc.pid) == []  # the server runs in the command's own process
        assert [n for n in _scratch(tmp_path) if n.startswith(".out.serve-")]
        os.kill(proc.pid, signum)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert _port_free(port), "the port is still held after the server stopped"
    assert "Traceback" not in err
    if signum != signal.SIGKILL:
        assert proc.returncode == 0 and "warscribe serve: stopped" in err, err
        assert _scratch(tmp_path) == []
    else:  # killed outright: the next run clears the scratch site
        again = subprocess.run([sys.executable, "-m", "warscribe", "build", "--out", str(tmp_path / "out"), "-q",
                                "--no-site"], cwd=ROOT, capture_output=True, text=True)
        assert "removed a server's scratch site left by an interrupted run" in again.stderr, again.stderr
        assert _scratch(tmp_path) == []


def test_serve_on_a_busy_port_says_so_in_one_line_before_building(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "warscribe", "serve", "--out", str(tmp_path / "out"),
                               "-a", f"127.0.0.1:{port}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and f"cannot serve on 127.0.0.1:{port}: the port is in use" in proc.stderr
    assert not (tmp_path / "out").exists() and time.monotonic() - start < 20  # nothing was built
    bad = subprocess.run([sys.executable, "-m", "warscribe", "serve", "-a", "nowhere"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "HOST:PORT" in bad.stderr
