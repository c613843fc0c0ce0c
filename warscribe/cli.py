"""warscribe: Warhammer 40,000 rules documents compiled into a validated knowledge base.

Start in an empty folder with `warscribe init` (a sources folder with sample
documents), then `warscribe build`. Each command's options: warscribe COMMAND --help.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from warscribe import __version__
from warscribe.paths import CHECKOUT, beside_checkout, default_manifest
from warscribe.schema import DEFAULT_OUT

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A command line that cannot run as given: one message, exit status 2."""


# -- the commands: one place each --------------------------------------------------------
#
# A command is a function decorated with @command: it declares its options on the parser
# it is given and returns the function that runs it. Its position in this file is its
# position in `warscribe --help`.


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], Handler]


COMMANDS: list[Command] = []


def command(name: str, help: str):
    def register(configure: Callable[[argparse.ArgumentParser], Handler]):
        COMMANDS.append(Command(name, help, configure))
        return configure

    return register


@command("init", "start here: a sources folder with a manifest and sample documents")
def _init(p: argparse.ArgumentParser) -> Handler:
    p.add_argument("dir", nargs="?", default=".", metavar="DIR",
                   help="where to create sources/ (default: the current folder)")
    p.add_argument("--empty", action="store_true",
                   help="a manifest with no sources yet, instead of the sample documents")

    def run(args):
        from warscribe.init import run_init

        return run_init(Path(args.dir), empty=args.empty)

    return run


@command("build", "extract, validate and write every record of the sources, then the reference site")
def _build(p: argparse.ArgumentParser) -> Handler:
    _source_args(p)
    _out_arg(p)
    p.add_argument("--strict", action="store_true", help="treat warnings as errors (exit status 1)")
    p.add_argument("--no-site", action="store_true",
                   help="skip the reference site (mkdocs build); a previous out/site/ is removed, with a note")
    p.add_argument("--since", default=None, metavar="OLD",
                   help="a previous build (or anything `warscribe diff` takes): add the site's \"What changed\" page")
    _verbosity(p, quiet="print only the summary",
               verbose="print every diagnostic (default: errors in full, warnings counted by code)")

    def run(args):
        from warscribe.build import run_build

        return run_build(manifest=_manifest(args), out=Path(args.out), strict=args.strict, quiet=args.quiet,
                         site=not args.no_site, roots=_roots(args), limits=_limits(args),
                         allow_shrink=args.allow_shrink, verbose=args.verbose, since=args.since)

    return run


@command("serve", "build, then serve the reference site locally with live reload")
def _serve(p: argparse.ArgumentParser) -> Handler:
    _source_args(p)
    _out_arg(p)
    p.add_argument("-a", "--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT",
                   help="address to serve on (default: %(default)s)")
    p.add_argument("-v", "--verbose", action="store_true", help="also print mkdocs' informational lines")

    def run(args):
        from warscribe.serve import run_serve

        return run_serve(manifest=_manifest(args), out=Path(args.out), address=args.dev_addr, roots=_roots(args),
                         limits=_limits(args), allow_shrink=args.allow_shrink, verbose=args.verbose)

    return run


@command("manifest", "which sources differ from the manifest's checksums; --update records them")
def _manifest_command(p: argparse.ArgumentParser) -> Handler:
    _manifest_args(p)
    p.add_argument("--data", action="append", default=[], metavar="DIR",
                   help="a folder outside the manifest's that its sources may lie in (repeatable)")
    p.add_argument("--update", action="store_true",
                   help="rewrite the sha256 of each changed source in the manifest (naming each one)")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the sources that did not change")

    def run(args):
        from warscribe.manifest_update import run_manifest

        return run_manifest(_manifest(args), update=args.update, roots=_roots(args), verbose=args.verbose)

    return run


@command("export", "write the knowledge base in an exchange format (JSON with its schemas, or Wahapedia CSV)")
def _export(p: argparse.ArgumentParser) -> Handler:
    _source_args(p)
    p.add_argument("--format", default="json", choices=["json", "wahapedia-csv"], help="default: %(default)s")
    p.add_argument("--out", default=None, metavar="DIR",
                   help=f"output folder (default: {DEFAULT_OUT}/json or {DEFAULT_OUT}/wahapedia-csv)")
    p.add_argument("dir", nargs="?", default=None, metavar="DIR", help="output folder (the same as --out DIR)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the summary line, not the errors")
    p.add_argument("--build-time", action="store_true",
                   help="record the build time (SOURCE_DATE_EPOCH if set) in manifest.json; "
                        "without it, the same sources give byte-identical output")

    def run(args):
        from warscribe.build import run_export

        if args.dir is not None and args.out is not None and args.out != args.dir:
            raise UsageError(f"export: two output folders given ({args.dir} and --out {args.out}); give one")
        out = args.dir or args.out or str(DEFAULT_OUT / ("json" if args.format == "json" else "wahapedia-csv"))
        return run_export(manifest=_manifest(args), out=Path(out), fmt=args.format, quiet=args.quiet,
                          build_time=args.build_time, roots=_roots(args), limits=_limits(args),
                          allow_shrink=args.allow_shrink)

    return run


@command("check", "consistency checks on a build: the build's diagnostics and the checks' findings")
def _check(p: argparse.ArgumentParser) -> Handler:
    p.add_argument("build", nargs="?", default=str(DEFAULT_OUT),
                   help="a build folder or bundle file (default: %(default)s)")
    _format_arg(p, ["text", "json"])
    p.add_argument("--fail-on", choices=["error", "warning"], default="error",
                   help="the lowest level that makes the exit status non-zero (default: error)")
    p.add_argument("--sources", default=None, metavar="DIR",
                   help="where the build's sources are, for line and column (default: ./ and the checkout)")
    p.add_argument("--only", default=None, metavar="CHECKS", help="comma-separated checks to run (default: all)")

    def run(args):
        from warscribe.checks.command import run_check

        args.json = args.format == "json"
        return run_check(args)

    return run


@command("diff", "what changed between two builds or two git revisions, and what it changes (exit 1: differences)")
def _diff(p: argparse.ArgumentParser) -> Handler:
    p.add_argument("old", help="a build folder, BattleScribe data (an archive or a checkout), or a git revision of "
                              "the repository (built from its sources, or as BattleScribe data)")
    p.add_argument("new", nargs="?", default=None, help="the same (default: out/; none with --ruleset-compare)")
    p.add_argument("--ruleset-compare", nargs=2, metavar=("OLD_RULESET", "NEW_RULESET"), default=None,
                   help="pair the rules of two rulesets inside one build (OLD) and show their differences")
    _format_arg(p, ["text", "markdown", "json"])
    p.add_argument("--provenance", action="store_true", help="also report changed source line numbers")
    p.add_argument("--repo", default=".", help="the git repository for revisions (default: .)")
    p.add_argument("--records", action="store_true",
                   help="after the change ledger, every changed record field by field (text and markdown)")
    p.add_argument("--ruleset", choices=["10e", "11e"], default=None,
                   help="the edition of BattleScribe data given directly (default: 10e for XML, 11e for JSON)")

    def run(args):
        from warscribe.ledger.command import run_diff

        return run_diff(args)

    return run


@command("calc", "exact damage distributions for a scenario file")
def _calc(p: argparse.ArgumentParser) -> Handler:
    p.add_argument("scenario", nargs="?",
                   help="scenario YAML file (see schema/scenario.schema.json, examples/scenarios/); or --attacker/--target")
    _format_arg(p, ["text", "json"])
    p.add_argument("--kb", default=str(DEFAULT_OUT / "json" / "warscribe.json"),
                   help="knowledge base for weapon references: a build folder or its bundle file (default: %(default)s)")
    from warscribe.calc import add_unit_arguments

    add_unit_arguments(p)

    def run(args):
        from warscribe.calc import run_calc

        args.json = args.format == "json"
        # A build named on the command line must exist; the default is read only if a scenario needs it.
        args.kb_given = args.kb != p.get_default("kb")
        return run_calc(args)

    return run


@command("effects", "coverage of the effects compiler: compiled and uncompiled sentences per record kind")
def _effects(p: argparse.ArgumentParser) -> Handler:
    p.add_argument("--kb", default=str(DEFAULT_OUT), help="a build folder or its bundle file (default: %(default)s)")
    _format_arg(p, ["text", "json"])
    p.add_argument("--all", action="store_true", help="list every uncompiled sentence, not only those about attacks")

    def run(args):
        from warscribe.coverage import run_effects

        return run_effects(args.kb, args.format == "json", args.all)

    return run


@command("matrix", "exact results for every weapon against every target (CSV or .npz)")
def _matrix(p: argparse.ArgumentParser) -> Handler:
    p.add_argument("--weapons", default=str(DEFAULT_OUT),
                   help="a build folder or bundle (record ids), or a BattleScribe weapons TSV such as the corpus's "
                        "bsdata-10e-weapons.tsv (default: %(default)s)")
    p.add_argument("--targets", default=str(DEFAULT_OUT),
                   help="a build folder or bundle (datasheets with model characteristics), a YAML list of targets, "
                        "or a units TSV with --target-models (default: %(default)s)")
    p.add_argument("--target-models", type=int, default=None, metavar="N",
                   help="models in every target unit (required for a units TSV; default: the datasheet's composition)")
    p.add_argument("--models", type=int, default=1, metavar="N", help="attacking models with the weapon (default 1)")
    p.add_argument("--ruleset", choices=["10e", "11e"], default=None,
                   help="default: the weapon record's ruleset (10e for a TSV)")
    for flag, what in (("half-range", "target within half range"), ("stationary", "attacker remained stationary"),
                       ("charged", "attacker charged"), ("cover", "target has the Benefit of Cover")):
        p.add_argument(f"--{flag}", action="store_true", help=what)
    for prefix, what in (("", "weapons (by their datasheets)"), ("target-", "targets")):
        p.add_argument(f"--{prefix}faction", action="append", default=[], metavar="NAME",
                       help=f"only {what} of this faction, e.g. 'Space Marines' (repeatable: any of them)")
        p.add_argument(f"--{prefix}keyword", action="append", default=[], metavar="KEYWORD",
                       help=f"only {what} with this keyword or faction keyword, whole, e.g. VEHICLE (repeatable)")
        p.add_argument(f"--{prefix}name", action="append", default=[], metavar="TEXT",
                       help=f"only {what} whose name contains this, ignoring case" +
                            (" (the weapon's or its datasheet's)" if not prefix else "") + " (repeatable)")
    p.add_argument("--max-size", type=_size, default=None, metavar="SIZE",
                   help="refuse, before computing, an output estimated larger than this (default: 200M; 0: no limit)")
    p.add_argument("--force", action="store_true", help="write the output whatever its estimated size")
    p.add_argument("--out", required=True, metavar="FILE", help="output file: .csv or .npz")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")

    def run(args):
        from warscribe.matrix import MAX_SIZE, run_matrix

        if args.max_size is None:
            args.max_size = MAX_SIZE

        for name in ("models", "target_models"):
            value = getattr(args, name)
            if value is not None and not 1 <= value <= 100:
                raise UsageError(f"--{name.replace('_', '-')}: {value} is not from 1 to 100")
        return run_matrix(args)

    return run


@command("census", "how many weapon abilities of a BattleScribe TSV the parser knows")
def _census(p: argparse.ArgumentParser) -> Handler:
    corpus = beside_checkout("shared", "corpus", "bsdata-10e-weapons.tsv")
    p.add_argument("tsv", nargs="?", default=None, metavar="TSV",
                   help="a BattleScribe weapon TSV with a 'keywords' column"
                        + (" (default: ../shared/corpus/bsdata-10e-weapons.tsv beside the checkout)" if corpus else ""))

    def run(args):
        if args.tsv is None and corpus is None:
            raise UsageError("census: give a BattleScribe weapon TSV (e.g. bsdata-10e-weapons.tsv of the corpus)")
        return _run_census(Path(args.tsv) if args.tsv else corpus)

    return run


@command("roster", "read army lists (app, New Recruit, BattleScribe), check them against the knowledge base and "
                   "re-price them")
def _roster(p: argparse.ArgumentParser) -> Handler:
    # warscribe/roster/: army lists read, resolved, re-priced and checked
    p.add_argument("files", nargs="+", metavar="FILE", help="an exported list ('-' for standard input); several allowed")
    p.add_argument("--kb", action="append", default=None, metavar="BUILD",
                   help=f"a build to check against; give a 10e and an 11e build to check lists of both (default: {DEFAULT_OUT})")
    _format_arg(p, ["text", "json"])
    p.add_argument("--edition", choices=["10e", "11e"], default=None, help="the lists' edition, where they do not say")
    p.add_argument("--since", action="append", default=None, metavar="OLD_BUILD",
                   help="an older build: also say what changed for the army between it and --kb")
    p.add_argument("--fail-on", choices=["error", "warning"], default="error",
                   help="the lowest level that makes the exit status non-zero (default: error)")

    def run(args):
        from warscribe.roster.command import run_roster

        args.kb = args.kb or [str(DEFAULT_OUT)]
        args.json = args.format == "json"
        return run_roster(args)

    return run


@command("bench", "measure speed and memory (build, site, check, diff, engine, matrix, battlescribe, hostile, roster)")
def _bench(p: argparse.ArgumentParser) -> Handler:
    snapshot = beside_checkout("shared", "bsdata", "wh40k-10e-801555b.tar.xz")
    p.add_argument("target", choices=["build", "site", "check", "diff", "engine", "matrix", "battlescribe", "hostile",
                                      "roster", "units"], help="what to measure")
    p.add_argument("data", nargs="?", default=None, metavar="DATA",
                   help="battlescribe: a snapshot of the data (folder, .tar.xz or .zip); roster: a build, or a "
                        "snapshot to build first"
                        + (" (default: ../shared/bsdata/wh40k-10e-801555b.tar.xz beside the checkout)" if snapshot else ""))
    p.add_argument("--ruleset", choices=["10e", "11e"], default="10e", help="battlescribe: the data's edition")
    p.add_argument("--scale", type=int, default=100, help="build, site, check, diff: corpus size multiplier")
    p.add_argument("--repeat", type=int, default=None, help="runs per case (default: 5; 1 for site)")
    p.add_argument("--case", default=None, help="hostile: one case only (paragraph, csv-lines, csv-html, "
                   "ability-lines, lines, tar-bomb, zip-bomb, link-diamonds, link-cycle, link-chain, link-fanout)")
    p.add_argument("--peer", default=None, metavar="PATH",
                   help="engine: a W40kDiviner checkout to compare with side by side (used as an import path only); "
                        "units: the warhammercalculator_benchmark executable of pineappleiceberg/warhammercalculator")

    def run(args):
        if args.target in ("battlescribe", "roster") and args.data is None:
            if snapshot is None:
                raise UsageError(f"bench {args.target}: give a snapshot of the BattleScribe data (folder, .tar.xz or .zip)")
            args.data = str(snapshot)
        if args.target == "engine" and args.peer:
            from warscribe.bench.peer import run_bench
        elif args.target == "engine":
            from warscribe.bench.engine import run_bench
        elif args.target == "matrix":
            from warscribe.bench.matrix import run_bench
        elif args.target == "battlescribe":
            from warscribe.bench.battlescribe import run_bench
        elif args.target == "hostile":
            from warscribe.bench.hostile import run_bench
        elif args.target == "roster":
            from warscribe.bench.roster import run_bench
        elif args.target == "units":
            from warscribe.bench.units import run_bench
        elif args.target == "diff":
            from warscribe.bench.ledger import run_bench
        else:  # build, site, check
            from warscribe.bench.build import run_bench
        return run_bench(args)

    return run


# -- options shared by several commands --------------------------------------------------


def _source_args(p: argparse.ArgumentParser) -> None:
    from warscribe.extract.limits import Limits

    _manifest_args(p)
    p.add_argument("--data", action="append", default=[], metavar="DIR",
                   help="a folder outside the manifest's that its sources may lie in, e.g. a BattleScribe "
                        "checkout beside the project (repeatable)")
    p.add_argument("--max-source-bytes", type=_size, default=Limits.max_source_bytes, metavar="SIZE",
                   help="refuse a source file larger than this (default: 64M; 0: no limit)")
    p.add_argument("--max-line-length", type=_size, default=Limits.max_line_length, metavar="SIZE",
                   help="refuse a source with a line (or a CSV field) longer than this (default: 1M; 0: no limit)")
    p.add_argument("--allow-shrink", action="store_true",
                   help="replace the previous output even if this one holds less (under 90%% of its records, "
                        "none of a kind it had, or nothing from a source that gave records)")


def _manifest_args(p: argparse.ArgumentParser) -> None:
    where = "sources/manifest.yaml of the current folder" + (", else of the checkout" if CHECKOUT else "")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--manifest", default=None, metavar="FILE", help=f"the sources' manifest (default: {where})")
    group.add_argument("--sources", default=None, metavar="DIR", help="a sources folder holding manifest.yaml")


def _out_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default=str(DEFAULT_OUT), metavar="DIR", help="output folder (default: %(default)s)")


def _verbosity(p: argparse.ArgumentParser, quiet: str, verbose: str) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("-q", "--quiet", action="store_true", help=quiet)
    group.add_argument("-v", "--verbose", action="store_true", help=verbose)


def _format_arg(p: argparse.ArgumentParser, choices: list[str]) -> None:
    """--format, the one spelling of every command's output format; --json is kept as its short form."""
    p.add_argument("--format", choices=choices, default="text", help="output format (default: text)")
    p.add_argument("--json", dest="format", action="store_const", const="json", help="the same as --format json")


def _manifest(args: argparse.Namespace) -> Path:
    """--manifest FILE, or --sources DIR (its manifest.yaml), or ./sources, or the checkout's."""
    if getattr(args, "sources", None):
        return Path(args.sources) / "manifest.yaml"
    if args.manifest:
        return Path(args.manifest)
    found = default_manifest()
    if found is None:
        raise UsageError("no sources/manifest.yaml in this folder: `warscribe init` creates one with sample "
                         "documents, or give --sources DIR (a folder holding manifest.yaml) or --manifest FILE")
    return found


def _roots(args: argparse.Namespace) -> tuple[Path, ...]:
    return tuple(Path(d) for d in args.data)


def _limits(args: argparse.Namespace):
    from warscribe.extract.limits import Limits

    return Limits(max_source_bytes=args.max_source_bytes, max_line_length=args.max_line_length)


def _size(text: str) -> int:
    """A size in bytes or characters: 1048576, 64K, 64M, 1G (powers of 1024); 0 for no limit."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    text = text.strip().lower().removesuffix("ib").removesuffix("b")
    try:
        value = int(text[:-1]) * units[text[-1]] if text and text[-1] in units else int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (e.g. 1048576, 64M, 0 for no limit)") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a size cannot be negative")
    return value


def _run_census(path: Path) -> int:
    from warscribe.extract.corpus import CensusError, ability_census
    from warscribe.schema.sniff import what_is
    from warscribe.schema.text import printable

    expected = "expected a weapon TSV with a 'keywords' column (../shared/corpus/bsdata-10e-weapons.tsv)"
    found = what_is(path)
    if found is not None:
        print(f"{printable(str(path))}: {expected}, found {found}", file=sys.stderr)
        return 2
    try:
        c = ability_census(path)
    except CensusError as exc:
        print(f"{printable(str(path))}:{exc.line}: {expected}, found {printable(exc.found, 200)}", file=sys.stderr)
        return 2
    share = 100 * c["known"] / c["entries"] if c["entries"] else 100.0
    print(f"{printable(str(path))}: {c['rows']} weapon profiles, {c['entries']} ability entries; "
          f"{c['known']} parsed to known abilities ({share:.2f}%), {c['entries'] - c['known']} weapon-specific rules:")
    for name, count in c["unknown"].items():
        print(f"  {count:4d}  {printable(name, 200)}")
    if c["problems"]:
        print("Entries parsed with a warning:")
        for text, count in c["problems"].items():
            print(f"  {count:4d}  {printable(text, 200)}")
    return 0


# -- the parser and the entry point ------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="warscribe", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"warscribe {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", title="commands")
    for cmd in COMMANDS:
        s = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help[0].upper() + cmd.help[1:] + ".")
        s.set_defaults(func=cmd.configure(s))
    return p


def _safe_streams() -> None:
    """Never die on output: a terminal or pipe that cannot show a character gets an escape."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass


def main(argv: list[str] | None = None) -> int:
    from warscribe.processes import exit_status, signals_as_interrupts
    from warscribe.schema.docs import doc

    _safe_streams()
    p = parser()
    args = p.parse_args(argv)
    try:
        with signals_as_interrupts():
            return args.func(args)
    except UsageError as exc:
        from warscribe.schema.text import printable

        print(f"warscribe {args.command}: {printable(str(exc), 1000)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print("interrupted; outputs being written were discarded, earlier ones are untouched", file=sys.stderr)
        return exit_status(exc)
    except OSError as exc:
        from warscribe.schema.text import printable

        where = f" ({printable(str(exc.filename), 200)})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"error: input nested too deeply to process; see the limits in {doc('formats.md')}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
