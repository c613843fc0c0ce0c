"""The `warscribe` command: build, export, calc, matrix, census, bench."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from warscribe import ROOT, __version__
from warscribe.schema import DEFAULT_OUT


def _manifest(args: argparse.Namespace) -> Path:
    """--manifest FILE, or --sources DIR (its manifest.yaml), or ./sources, or the checkout's."""
    if getattr(args, "sources", None):
        return Path(args.sources) / "manifest.yaml"
    if args.manifest:
        return Path(args.manifest)
    here = Path("sources") / "manifest.yaml"
    return here if here.is_file() else ROOT / "sources" / "manifest.yaml"


def _build(args: argparse.Namespace) -> int:
    from warscribe.build import run_build

    return run_build(
        manifest=_manifest(args),
        out=Path(args.out),
        strict=args.strict,
        quiet=args.quiet,
        site=not args.no_site,
        roots=tuple(Path(d) for d in args.data),
        limits=_limits(args),
        allow_shrink=args.allow_shrink,
    )


def _limits(args: argparse.Namespace):
    from warscribe.extract.limits import Limits

    return Limits(max_source_bytes=args.max_source_bytes, max_line_length=args.max_line_length)


def _serve(args: argparse.Namespace) -> int:
    """Build (records and pages), then serve the site with live reload."""
    from warscribe.build import run_build
    from warscribe.sitegen import serve

    out = Path(args.out)
    status = run_build(manifest=_manifest(args), out=out, quiet=True, site=True, allow_shrink=args.allow_shrink)
    if status != 0:
        print("warscribe serve: the build reported errors; serving what was built", file=sys.stderr)
    config = out / "site-src" / "mkdocs.yml"
    if not config.is_file():
        print(f"warscribe serve: no generated site configuration at {config}", file=sys.stderr)
        return 1
    return serve(config, args.dev_addr)


def _export(args: argparse.Namespace) -> int:
    from warscribe.build import run_export

    return run_export(manifest=_manifest(args), out=Path(args.out), fmt=args.format, quiet=args.quiet,
                      build_time=args.build_time, roots=tuple(Path(d) for d in args.data),
                      limits=_limits(args), allow_shrink=args.allow_shrink)


def _calc(args: argparse.Namespace) -> int:
    from warscribe.calc import run_calc

    return run_calc(args)


def _check(args: argparse.Namespace) -> int:
    from warscribe.checks.command import run_check

    return run_check(args)


def _diff(args: argparse.Namespace) -> int:
    from warscribe.diff import run_diff

    return run_diff(args)


def _effects(args: argparse.Namespace) -> int:
    from warscribe.coverage import run_effects

    return run_effects(args.kb, args.json, args.all)


def _roster(args: argparse.Namespace) -> int:
    from warscribe.roster.command import run_roster

    args.kb = args.kb or [str(DEFAULT_OUT)]
    return run_roster(args)


def _bench(args: argparse.Namespace) -> int:
    if args.target == "engine":
        from warscribe.bench_engine import run_bench
    elif args.target == "matrix":
        from warscribe.bench_matrix import run_bench
    elif args.target == "battlescribe":
        from warscribe.bench_battlescribe import run_bench
    elif args.target == "hostile":
        from warscribe.bench_hostile import run_bench
    elif args.target == "roster":
        from warscribe.roster.bench import run_bench
    else:
        from warscribe.bench import run_bench
    return run_bench(args)


def _matrix(args: argparse.Namespace) -> int:
    from warscribe.matrix import run_matrix

    for name in ("models", "target_models"):
        value = getattr(args, name)
        if value is not None and not 1 <= value <= 100:
            print(f"error: --{name.replace('_', '-')}: {value} is not from 1 to 100", file=sys.stderr)
            return 2
    return run_matrix(args)


def _census(args: argparse.Namespace) -> int:
    from warscribe.extract.corpus import ability_census
    from warscribe.schema.text import printable

    path = Path(args.tsv)
    if not path.is_file():
        print(f"{path}: no such file (expected a BattleScribe weapon TSV with a 'keywords' column)", file=sys.stderr)
        return 2
    c = ability_census(path)
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


def _source_args(p: argparse.ArgumentParser) -> None:
    from warscribe.extract.limits import Limits

    group = p.add_mutually_exclusive_group()
    group.add_argument("--manifest", default=None, help="the sources' manifest (default: sources/manifest.yaml)")
    group.add_argument("--sources", default=None, metavar="DIR", help="a sources folder holding manifest.yaml")
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


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="warscribe", description=__doc__)
    p.add_argument("--version", action="version", version=f"warscribe {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="extract, validate and write every record of the sources in the manifest")
    _source_args(b)
    b.add_argument("--out", default=str(DEFAULT_OUT), help=f"output folder (default: {DEFAULT_OUT})")
    b.add_argument("--strict", action="store_true", help="treat warnings as errors")
    b.add_argument("-q", "--quiet", action="store_true", help="print only the summary")
    b.add_argument("--no-site", action="store_true", help="skip the reference site (mkdocs build)")
    b.set_defaults(func=_build)

    v = sub.add_parser("serve", help="build, then serve the reference site locally with live reload")
    _source_args(v)
    v.add_argument("--out", default=str(DEFAULT_OUT), help=f"output folder (default: {DEFAULT_OUT})")
    v.add_argument("-a", "--dev-addr", default="127.0.0.1:8000", help="address to serve on (default: 127.0.0.1:8000)")
    v.set_defaults(func=_serve)

    e = sub.add_parser("export", help="write the knowledge base in an exchange format")
    _source_args(e)
    e.add_argument("--format", default="json", choices=["json", "wahapedia-csv"])
    e.add_argument("--out", default=None, help=f"output folder (default: {DEFAULT_OUT}/json or {DEFAULT_OUT}/wahapedia-csv)")
    e.add_argument("dir", nargs="?", default=None, metavar="DIR", help="output folder (the same as --out DIR)")
    e.add_argument("-q", "--quiet", action="store_true")
    e.add_argument("--build-time", action="store_true",
                   help="record the build time (SOURCE_DATE_EPOCH if set) in manifest.json; "
                        "without it, the same sources give byte-identical output")
    e.set_defaults(func=_export)

    h = sub.add_parser("check", help="consistency checks on a build: the build's diagnostics and the checks'")
    h.add_argument("build", nargs="?", default=str(DEFAULT_OUT), help=f"a build folder or bundle file (default: {DEFAULT_OUT})")
    h.add_argument("--json", action="store_true", help="print the report as JSON")
    h.add_argument("--fail-on", choices=["error", "warning"], default="error",
                   help="the lowest level that makes the exit status non-zero (default: error)")
    h.add_argument("--sources", default=None, metavar="DIR",
                   help="where the build's sources are, for line and column (default: ./ and the checkout)")
    h.add_argument("--only", default=None, metavar="CHECKS", help="comma-separated checks to run (default: all)")
    h.set_defaults(func=_check)

    d = sub.add_parser("diff", help="what changed between two builds or two git revisions, and what it changes")
    d.add_argument("old", help="a build folder, or a git revision of the repository (built from its sources)")
    d.add_argument("new", nargs="?", default=None, help="the same (default: the --ruleset-compare build, or out/)")
    d.add_argument("--ruleset-compare", nargs=2, metavar=("OLD_RULESET", "NEW_RULESET"), default=None,
                   help="pair the rules of two rulesets inside one build (OLD) and show their differences")
    d.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    d.add_argument("--provenance", action="store_true", help="also report changed source line numbers")
    d.add_argument("--repo", default=".", help="the git repository for revisions (default: .)")
    d.set_defaults(func=_diff)

    c = sub.add_parser("calc", help="exact damage distributions for a scenario file")
    c.add_argument("scenario", help="scenario YAML file (see schema/scenario.schema.json)")
    c.add_argument("--json", action="store_true", help="print JSON instead of a table")
    c.add_argument("--kb", default=str(DEFAULT_OUT / "json" / "warscribe.json"),
                   help="knowledge base for weapon references: a build folder or its bundle file")
    c.set_defaults(func=_calc)

    f = sub.add_parser("effects", help="coverage of the effects compiler: compiled and uncompiled sentences per record kind")
    f.add_argument("--kb", default=str(DEFAULT_OUT), help="a build folder or its bundle file (default: out)")
    f.add_argument("--json", action="store_true", help="print JSON instead of a table")
    f.add_argument("--all", action="store_true", help="list every uncompiled sentence, not only those about attacks")
    f.set_defaults(func=_effects)

    x = sub.add_parser("matrix", help="exact results for every weapon against every target (CSV or .npz)")
    corpus = ROOT.parent / "shared" / "corpus"
    x.add_argument("--weapons", default=str(DEFAULT_OUT),
                   help=f"a build folder or bundle (record ids), or a weapons TSV such as {corpus / 'bsdata-10e-weapons.tsv'} "
                        f"(default: {DEFAULT_OUT})")
    x.add_argument("--targets", default=str(DEFAULT_OUT),
                   help="a build folder or bundle (datasheets with model characteristics), a YAML list of targets, "
                        "or a units TSV with --target-models (default: %(default)s)")
    x.add_argument("--target-models", type=int, default=None, metavar="N",
                   help="models in every target unit (required for a units TSV; default: the datasheet's composition)")
    x.add_argument("--models", type=int, default=1, metavar="N", help="attacking models with the weapon (default 1)")
    x.add_argument("--ruleset", choices=["10e", "11e"], default=None,
                   help="default: the weapon record's ruleset (10e for a TSV)")
    for flag, what in (("half-range", "target within half range"), ("stationary", "attacker remained stationary"),
                       ("charged", "attacker charged"), ("cover", "target has the Benefit of Cover")):
        x.add_argument(f"--{flag}", action="store_true", help=what)
    x.add_argument("--out", required=True, help="output file: .csv or .npz")
    x.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    x.set_defaults(func=_matrix)

    a = sub.add_parser("census", help="how many weapon abilities of a BattleScribe TSV the parser knows")
    a.add_argument("tsv", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "bsdata-10e-weapons.tsv"))
    a.set_defaults(func=_census)

    # -- warscribe roster (warscribe/roster/): army lists read, resolved, re-priced and checked
    r = sub.add_parser("roster", help="read army lists (app, New Recruit, BattleScribe), check them against the "
                                      "knowledge base and re-price them")
    r.add_argument("files", nargs="+", metavar="FILE", help="an exported list ('-' for standard input); several allowed")
    r.add_argument("--kb", action="append", default=None, metavar="BUILD",
                   help=f"a build to check against; give a 10e and an 11e build to check lists of both (default: {DEFAULT_OUT})")
    r.add_argument("--json", action="store_true", help="print JSON (schema/roster.schema.json)")
    r.add_argument("--edition", choices=["10e", "11e"], default=None, help="the lists' edition, where they do not say")
    r.add_argument("--since", action="append", default=None, metavar="OLD_BUILD",
                   help="an older build: also say what changed for the army between it and --kb")
    r.add_argument("--fail-on", choices=["error", "warning"], default="error",
                   help="the lowest level that makes the exit status non-zero (default: error)")
    r.set_defaults(func=_roster)

    k = sub.add_parser("bench", help="measure speed and memory")
    k.add_argument("target", choices=["build", "site", "check", "diff", "engine", "matrix", "battlescribe", "hostile",
                                      "roster"])
    k.add_argument("data", nargs="?", default=str(ROOT.parent / "shared" / "bsdata" / "wh40k-10e-801555b.tar.xz"),
                   help="battlescribe: a snapshot of the data (folder, .tar.xz or .zip); roster: a build, or a "
                        "snapshot to build first")
    k.add_argument("--ruleset", choices=["10e", "11e"], default="10e", help="battlescribe: the data's edition")
    k.add_argument("--scale", type=int, default=100, help="build, site, check, diff: corpus size multiplier")
    k.add_argument("--repeat", type=int, default=None, help="runs per case (default: 5; 1 for site)")
    k.add_argument("--case", default=None, help="hostile: one case only (paragraph, csv-lines, csv-html, "
                   "ability-lines, lines, tar-bomb, zip-bomb, link-diamonds, link-cycle, link-chain, link-fanout)")
    k.add_argument("--peer", default=None, metavar="PATH",
                   help="engine: a W40kDiviner checkout to compare with side by side (used as an import path only)")
    k.set_defaults(func=_bench)
    return p


def _safe_streams() -> None:
    """Never die on output: a terminal or pipe that cannot show a character gets an escape."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass


def main(argv: list[str] | None = None) -> int:
    _safe_streams()
    args = parser().parse_args(argv)
    if args.command == "export" and args.dir is not None:
        if args.out is not None and args.out != args.dir:
            parser().error(f"export: two output folders given ({args.dir} and --out {args.out}); give one")
        args.out = args.dir
    if args.command == "export" and args.out is None:
        args.out = str(DEFAULT_OUT / ("json" if args.format == "json" else "wahapedia-csv"))
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted; outputs being written were discarded, earlier ones are untouched", file=sys.stderr)
        return 130
    except OSError as exc:
        from warscribe.schema.text import printable

        where = f" ({printable(str(exc.filename), 200)})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    except RecursionError:
        print("error: input nested too deeply to process; see the limits in docs/formats.md", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
