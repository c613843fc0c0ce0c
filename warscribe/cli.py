"""The `warscribe` command: build, export, calc, census, bench."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from warscribe import ROOT, __version__


def _build(args: argparse.Namespace) -> int:
    from warscribe.build import run_build

    return run_build(
        manifest=Path(args.manifest),
        out=Path(args.out),
        strict=args.strict,
        quiet=args.quiet,
    )


def _export(args: argparse.Namespace) -> int:
    from warscribe.build import run_export

    return run_export(manifest=Path(args.manifest), out=Path(args.out), fmt=args.format, quiet=args.quiet)


def _calc(args: argparse.Namespace) -> int:
    from warscribe.engine.cli import run_calc

    return run_calc(args)


def _bench(args: argparse.Namespace) -> int:
    if args.target == "engine":
        from warscribe.engine.bench import run_bench
    else:
        from warscribe.bench import run_bench
    return run_bench(args)


def _census(args: argparse.Namespace) -> int:
    from warscribe.extract.corpus import ability_census

    path = Path(args.tsv)
    if not path.is_file():
        print(f"{path}: no such file (expected a BattleScribe weapon TSV with a 'keywords' column)", file=sys.stderr)
        return 2
    c = ability_census(path)
    share = 100 * c["known"] / c["entries"] if c["entries"] else 100.0
    print(f"{path}: {c['rows']} weapon profiles, {c['entries']} ability entries; "
          f"{c['known']} parsed to known abilities ({share:.2f}%), {c['entries'] - c['known']} weapon-specific rules:")
    for name, count in c["unknown"].items():
        print(f"  {count:4d}  {name}")
    if c["problems"]:
        print("Entries parsed with a warning:")
        for text, count in c["problems"].items():
            print(f"  {count:4d}  {text}")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="warscribe", description=__doc__)
    p.add_argument("--version", action="version", version=f"warscribe {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="extract, validate and write every record of the sources in the manifest")
    b.add_argument("--manifest", default=str(ROOT / "sources" / "manifest.yaml"))
    b.add_argument("--out", default="build", help="output folder (default: build)")
    b.add_argument("--strict", action="store_true", help="treat warnings as errors")
    b.add_argument("-q", "--quiet", action="store_true", help="print only the summary")
    b.set_defaults(func=_build)

    e = sub.add_parser("export", help="write the knowledge base in an exchange format")
    e.add_argument("--manifest", default=str(ROOT / "sources" / "manifest.yaml"))
    e.add_argument("--format", default="json", choices=["json", "wahapedia-csv"])
    e.add_argument("--out", default=None, help="output folder (default: build/json or build/wahapedia-csv)")
    e.add_argument("-q", "--quiet", action="store_true")
    e.set_defaults(func=_export)

    c = sub.add_parser("calc", help="exact damage distributions for a scenario file")
    c.add_argument("scenario", help="scenario YAML file (see schema/scenario.schema.json)")
    c.add_argument("--json", action="store_true", help="print JSON instead of a table")
    c.add_argument("--kb", default="build/json/warscribe.json", help="knowledge-base bundle for weapon references")
    c.set_defaults(func=_calc)

    a = sub.add_parser("census", help="how many weapon abilities of a BattleScribe TSV the parser knows")
    a.add_argument("tsv", nargs="?", default=str(ROOT.parent / "shared" / "corpus" / "bsdata-10e-weapons.tsv"))
    a.set_defaults(func=_census)

    k = sub.add_parser("bench", help="measure speed and memory")
    k.add_argument("target", choices=["build", "engine"])
    k.add_argument("--scale", type=int, default=100, help="build: corpus size multiplier")
    k.add_argument("--repeat", type=int, default=5)
    k.set_defaults(func=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "export" and args.out is None:
        args.out = "build/json" if args.format == "json" else "build/wahapedia-csv"
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
