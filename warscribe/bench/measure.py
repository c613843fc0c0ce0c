"""One warscribe command in a fresh interpreter, with its wall time, CPU time and peak memory.

The benches time their commands this way. The peak resident set is read inside the child,
at exit, from /proc/self/status (VmHWM), and combined with what its own children used
(the mkdocs process of a site build): the ``ru_maxrss`` that ``wait4`` gives the parent
also counts the resident set the child had between fork and exec, which is the parent's
(a bench holding a generated corpus made every command it timed look that large).
Where /proc is not there, ``ru_maxrss`` is all there is, and is used.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# Run in the child: the peak goes to the file named first, then warscribe.cli runs as `python -m` would.
_CHILD = """\
import atexit, resource, runpy, sys
peak_file = sys.argv.pop(1)
def _peak():
    kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    kib = max(kib, int(line.split()[1]))
    except OSError:
        return
    with open(peak_file, "w", encoding="ascii") as out:
        out.write(str(kib))
atexit.register(_peak)
sys.argv[0] = "warscribe"
runpy.run_module("warscribe.cli", run_name="__main__", alter_sys=True)
"""


@dataclass
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child and its children
    peak_mib: float  # largest resident set of the child or of one of its children, MiB
    status: int  # exit status
    output: str  # what it printed (stdout and stderr, when captured)


def run_warscribe(args: list[str], capture: bool = True, cwd: str | Path | None = None) -> Run:
    """`warscribe ARGS` in a new interpreter; its output captured (or discarded) and measured."""
    with tempfile.TemporaryDirectory(prefix="warscribe-measure-") as tmp:
        peak_file = Path(tmp) / "peak"
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(peak_file), *args],
                                stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                                stderr=subprocess.STDOUT if capture else subprocess.DEVNULL,
                                text=True, cwd=None if cwd is None else str(cwd))
        output = proc.stdout.read() if capture else ""
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        try:
            kib = int(peak_file.read_text(encoding="ascii"))
        except (OSError, ValueError):  # no /proc, or the child did not reach its exit handlers
            kib = usage.ru_maxrss
    return Run(wall=wall, cpu=usage.ru_utime + usage.ru_stime, peak_mib=kib / 1024,
               status=os.waitstatus_to_exitcode(status), output=output)
