"""Child processes that never outlive the command that started them.

A command that runs a child (the site build runs mkdocs in a fresh interpreter) must
leave nothing behind however it ends: on return, on an exception, on Ctrl-C
(SIGINT), on SIGTERM or SIGHUP (turned into :class:`Terminated`, so every ``finally``
and every staging folder's cleanup runs), and when it is killed outright (SIGKILL).

- The child runs in its own process group (``start_new_session``): the parent stops
  the whole group, grandchildren included, on every exit path of :func:`run_child`
  (and of :func:`started_child`, whose caller works while the child runs).
- The child calls :func:`adopt` first thing: on Linux it asks the kernel to kill it
  when its parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), the one case where no
  code of the parent runs; elsewhere a watchdog thread notices the parent is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

PARENT_VARIABLE = "WARSCRIBE_PARENT_PID"  # the pid a child checks its parent against
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_STOP_GRACE = 5.0  # seconds a child has to stop on SIGTERM before it is killed


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread as Ctrl-C is, so that cleanup runs."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_status(exc: KeyboardInterrupt) -> int:
    """The shell's convention: 128 + the signal's number (130 for Ctrl-C)."""
    return 128 + (exc.signum if isinstance(exc, Terminated) else signal.SIGINT)


def _raise_terminated(signum, _frame):
    raise Terminated(signum)


@contextlib.contextmanager
def signals_as_interrupts() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = ("SIGTERM", "SIGHUP")
    previous = {}
    for name in names:
        signum = getattr(signal, name, None)
        if signum is not None:
            previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def child_env(env: dict | None = None) -> dict:
    env = dict(os.environ if env is None else env)
    env[PARENT_VARIABLE] = str(os.getpid())
    return env


def run_child(argv: list[str], env: dict | None = None, on_line: Callable[[str], bool] | None = None) -> tuple[int, str]:
    """Run `argv` to completion in its own process group; (exit status, what it printed).

    Its stdout and stderr are read line by line; a line for which `on_line` returns True
    is consumed (a progress report), the others are returned. However this function is
    left (an exception, Ctrl-C, :class:`Terminated`), the child's group is stopped first.
    """
    with started_child(argv, env, on_line) as finish:
        return finish()


@contextlib.contextmanager
def started_child(argv: list[str], env: dict | None = None,
                  on_line: Callable[[str], bool] | None = None) -> Iterator[Callable[[], tuple[int, str]]]:
    """`argv` started in its own process group, for the block to do other work while it runs.

    The block gets `finish()`, which waits for the child and gives (exit status, what it
    printed) as :func:`run_child` does; its output is read meanwhile by a thread (`on_line`
    is called there). However the block is left, a child still running is stopped with its group.
    """
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, encoding="utf-8", errors="backslashreplace", env=child_env(env),
                            start_new_session=True)
    kept: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if on_line is None or not on_line(line):
                kept.append(line)

    reader = threading.Thread(target=read, name="warscribe-child-output", daemon=True)
    reader.start()

    def finish() -> tuple[int, str]:
        reader.join()
        return proc.wait(), "".join(kept)

    try:
        yield finish
    finally:
        stop(proc)
        reader.join(_STOP_GRACE)  # the group is gone, so its pipe is at its end
        if proc.stdout is not None and not reader.is_alive():
            proc.stdout.close()


def stop(proc: subprocess.Popen) -> None:
    """Stop `proc` and its process group, if it still runs: SIGTERM, then SIGKILL after a grace period."""
    if proc.poll() is not None:
        return  # it ended by itself (and was reaped): its group id may no longer be ours to signal
    _signal_group(proc, signal.SIGTERM)
    try:
        proc.wait(timeout=_STOP_GRACE)
    except subprocess.TimeoutExpired:
        pass
    # Grandchildren may outlive the leader; whatever is left of the group goes.
    _signal_group(proc, getattr(signal, "SIGKILL", signal.SIGTERM))
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=_STOP_GRACE)


def _signal_group(proc: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(proc.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass
    except (AttributeError, OSError):  # no process groups here
        with contextlib.suppress(OSError):
            proc.send_signal(signum)


def adopt() -> None:
    """In a child started by :func:`run_child`: die with the parent, even when it is killed outright."""
    expected = os.environ.get(PARENT_VARIABLE)
    parent = int(expected) if expected and expected.isdigit() else os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
    if not sys.platform.startswith("linux"):
        threading.Thread(target=_watch_parent, args=(parent,), name="warscribe-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    stopped = threading.Event()
    while not stopped.wait(0.5):
        if os.getppid() != parent:
            os._exit(1)
