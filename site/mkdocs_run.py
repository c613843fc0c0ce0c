"""How mkdocs runs: `build` in a child process that dies with its parent, `serve` in this one.

The site build runs ``mkdocs build --strict`` through mkdocs' Python API in a fresh
interpreter (``python -m warscribe.site.mkdocs_run build CONFIG``): a site of
thousands of pages is built, and its memory given back, without touching the
builder's process. The child adopts its parent's lifetime (:mod:`warscribe.processes`)
and reports each page built as a progress line that the parent consumes.

mkdocs' own logging is set here, not by its command line: warnings (which ``--strict``
counts, and which its ``-q`` would silence and so let pass) and errors are printed;
its informational lines (about 220 on a seeds build: every page not in the navigation)
only with ``verbose``.

``serve`` runs mkdocs' development server in this process, so there is no server
process to outlive the command: Ctrl-C, SIGTERM and SIGHUP stop it and free the port,
and its scratch site goes into a folder of the caller's (removed on exit; left by a
killed server, the next build or serve removes it).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from warscribe.processes import adopt, started_child

PROGRESS = "\x1ewarscribe-progress "  # a line of the child that is a progress report, not output
_BUILDING_PAGE = "Building page "  # mkdocs' debug message for each page it renders


_CLOCK = re.compile(r"^\[\d\d:\d\d:\d\d\] ")  # the development server stamps its lines with the time


class _Format(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        message = _CLOCK.sub("", record.getMessage())
        return f"mkdocs: {record.levelname.lower()}: {message}" if record.levelno != logging.INFO else f"mkdocs: {message}"


@contextlib.contextmanager
def _mkdocs_logging(stream, verbose: bool, keep: Callable[[logging.LogRecord], bool] = lambda r: False) -> Iterator[None]:
    """mkdocs' log: warnings and errors to `stream` (everything with `verbose`, plus records `keep` takes)."""
    logger = logging.getLogger("mkdocs")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(_Format())
    handler.addFilter(lambda r: verbose or r.levelno >= logging.WARNING or keep(r))
    saved = logger.level, logger.propagate
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logger.propagate = False
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


class _PageCounter(logging.Handler):
    """Counts mkdocs' 'Building page' records and prints each count as a progress line."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.pages = 0

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(record.msg, str) and record.msg.startswith(_BUILDING_PAGE):
            self.pages += 1
            sys.stdout.write(f"{PROGRESS}{self.pages}\n")
            sys.stdout.flush()


def _child_build(config_file: str) -> int:
    """In the child: `mkdocs build --strict` of `config_file`; 0 when the site built."""
    adopt()
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, MkDocsException

    counter = _PageCounter()
    page_log = logging.getLogger("mkdocs.commands.build")
    with _mkdocs_logging(sys.stdout, verbose=False):
        page_log.setLevel(logging.DEBUG)  # its page records reach the counter, not the printed log
        page_log.addHandler(counter)
        try:
            config = load_config(config_file=config_file, strict=True)
            config.plugins.on_startup(command="build", dirty=False)
            try:
                build(config)
            finally:
                config.plugins.on_shutdown()
        except (Abort, MkDocsException) as exc:
            print(f"mkdocs: error: {exc.format_message() if hasattr(exc, 'format_message') else exc}")
            return 1
    return 0


def build_site(config: Path, env: dict, progress: Callable[[int], None] | None = None,
               meanwhile: Callable[[], None] | None = None) -> tuple[int, str]:
    """`mkdocs build --strict` of `config` in a child; (exit status, what it printed).

    `progress(pages)` is told the number of pages rendered so far (from another thread).
    `meanwhile()` runs in this process while the child builds (work that does not need the
    site: on two cores it takes no time of its own); if it raises, the child is stopped.
    """
    def on_line(line: str) -> bool:
        if not line.startswith(PROGRESS):
            return False
        if progress is not None:
            with contextlib.suppress(ValueError):
                progress(int(line[len(PROGRESS):]))
        return True

    argv = [sys.executable, "-m", "warscribe.site.mkdocs_run", "build", str(config)]
    with started_child(argv, env, on_line) as finish:
        if meanwhile is not None:
            meanwhile()
        return finish()


def serve(config: Path, address: str, scratch: Path, verbose: bool = False, stream=None) -> None:
    """mkdocs' development server on `config` at `address`, in this process, until interrupted.

    KeyboardInterrupt (Ctrl-C, or SIGTERM/SIGHUP as :class:`warscribe.processes.Terminated`)
    stops it; mkdocs' scratch site is made inside `scratch`. OSError when the address
    cannot be bound; mkdocs' ConfigurationError for a bad configuration or address.
    """
    from mkdocs.commands import serve as mkdocs_serve

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    saved = tempfile.tempdir
    # Documented: the default folder of tempfile.mkdtemp (mkdocs' site). Absolute, because mkdocs
    # takes a relative site_dir from the configuration's folder while its server serves it from
    # the working folder: with the default `--out out` every page was a 404, built into site-src/.
    tempfile.tempdir = str(Path(scratch).resolve())
    try:
        with _mkdocs_logging(stream or sys.stderr, verbose, keep=lambda r: "Serving on " in r.getMessage()):
            mkdocs_serve.serve(config_file=str(config), dev_addr=address, livereload=True)
    finally:
        tempfile.tempdir = saved


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "build":
        sys.exit(_child_build(sys.argv[2]))
    sys.exit("usage: python -m warscribe.site.mkdocs_run build CONFIG")
