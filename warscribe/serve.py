"""`warscribe serve`: build, then serve the reference site with live reload until stopped.

The address is checked before anything is built (a busy port is one line, at once);
the server runs in this process (no child to outlive it), and Ctrl-C, SIGTERM or
SIGHUP stop it and free the port. Its scratch site lies beside the output folder
and is removed on every way out (by the next build or serve after a SIGKILL).
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
from pathlib import Path

from warscribe.extract.limits import Limits
from warscribe.schema.diagnostics import printable


class AddressError(Exception):
    pass


def parse_address(address: str) -> tuple[str, int]:
    """HOST:PORT (IPv6 hosts in brackets) as (host, port); AddressError for anything else."""
    host, sep, port = address.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise AddressError(f"{address!r} is not an address HOST:PORT, e.g. 127.0.0.1:8000")
    return host, int(port)


def address_in_use(host: str, port: int) -> str | None:
    """Why `host:port` cannot be served on (in use, not an address of this machine), or None when it can."""
    try:  # the family mkdocs' server takes: IPv6 for an IPv6 literal, else IPv4
        v6 = isinstance(ipaddress.ip_address(host), ipaddress.IPv6Address)
    except ValueError:
        v6 = False
    try:
        infos = socket.getaddrinfo(host, port, family=socket.AF_INET6 if v6 else socket.AF_INET,
                                   type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"cannot resolve {host}: {exc.strerror or exc}"
    family, kind, proto, _name, where = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will: TIME_WAIT is no obstacle
        try:
            s.bind(where)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "the port is in use (another server?)"
            return exc.strerror or str(exc)
    return None


def run_serve(manifest: Path, out: Path, address: str, roots: tuple[Path, ...] = (), limits: Limits | None = None,
              allow_shrink: bool = False, verbose: bool = False) -> int:
    from warscribe.build import run_build
    from warscribe.outputs import scratch
    from warscribe.site import serve

    shown = printable(address)
    try:
        host, port = parse_address(address)
    except AddressError as exc:
        print(f"warscribe serve: {printable(str(exc))}", file=sys.stderr)
        return 2
    why = address_in_use(host, port)
    if why:
        print(f"warscribe serve: cannot serve on {shown}: {why}; nothing was built. Stop that server, or choose "
              f"another address with -a HOST:PORT", file=sys.stderr)
        return 1
    status = run_build(manifest=manifest, out=out, quiet=True, site=True, roots=roots, limits=limits,
                       allow_shrink=allow_shrink)
    if status == 2:  # the sources could not be used: nothing was built, there is nothing new to serve
        return status
    if status != 0:
        print("warscribe serve: the build reported errors; serving what was built", file=sys.stderr)
    config = out / "site-src" / "mkdocs.yml"
    if not config.is_file():
        print(f"warscribe serve: no generated site configuration at {config}", file=sys.stderr)
        return 1
    from mkdocs.exceptions import ConfigurationError

    with scratch(out, "serve") as folder:
        try:
            serve(config, address, folder, verbose=verbose)
        except OSError as exc:
            print(f"warscribe serve: cannot serve on {shown}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        except ConfigurationError as exc:
            print(f"warscribe serve: {printable(str(exc))}", file=sys.stderr)
            return 2
    print("warscribe serve: stopped", file=sys.stderr)
    return 0
