"""A progress line on stderr for builds that take a while, only on a terminal.

Quiet for the first couple of seconds (most builds are done by then) and never when
stderr is a file or a pipe, so logs, tests and CI see exactly the output they saw before;
the line is erased when the build is done. Outputs never depend on it.
"""

from __future__ import annotations

import sys
import threading
import time


class Progress:
    """`progress(stage, done, total)` records where the build is; a thread shows it."""

    def __init__(self, stream=None, delay: float = 2.0, interval: float = 0.5):
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.interval = interval
        self.state = ("starting", 0, 0)
        self._start = time.monotonic()
        self._done = threading.Event()
        self._shown = False
        self._thread: threading.Thread | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        self.state = (stage, done, total)

    def enabled(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def __enter__(self) -> Progress:
        if self.enabled():
            self._thread = threading.Thread(target=self._run, name="warscribe-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self._shown:
            self._write("\r\x1b[K")

    def line(self) -> str:
        stage, done, total = self.state
        # total 0: not known in advance (the site's pages, made as they come); the count so far.
        where = f" {done + 1}/{total}" if total > 1 else f" {done + 1}" if total == 0 and done else ""
        return f"warscribe: {stage}{where} … {time.monotonic() - self._start:.0f} s"

    def _run(self) -> None:
        if self._done.wait(self.delay):
            return
        while not self._done.is_set():
            self._write("\r\x1b[K" + self.line())
            self._shown = True
            self._done.wait(self.interval)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self._done.set()
