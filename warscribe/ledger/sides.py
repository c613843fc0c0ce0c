"""What a side of `warscribe diff` can be, each read into a bundle with its release date when known.

- a build folder or bundle file (as written by ``warscribe build``);
- the app's data given directly (11th edition, kind ``app-json``: an archive or folder of Game
  Datacards' JSON, told by its faction files' ``compatibleDataVersion``), built alone; its
  version is that data version and its date the newest faction file's ``updated``;
- the Munitorum Field Manual given directly (kind ``field-manual``: an archive or folder of its
  YAML with ``meta.yaml``): the manual makes no records when built (it is applied over the
  units other sources give), so it is read as it prices (:mod:`warscribe.ledger.manual`): a
  record per unit, detachment and enhancement it lists; its version and date are
  ``meta.yaml``'s ``version`` and ``lastUpdated``;
- BattleScribe data given directly: an archive of a checkout (``.tar.xz``, ``.zip``...) or a
  checkout folder, built into a temporary folder with this Warscribe (10th edition for the
  XML form, 11th for the JSON form, as the BSData repositories are; ``--ruleset`` says
  otherwise). Its date is the newest member's (an archive made from a revision carries its
  commit time) or the checkout's last commit;
- a git revision: of a Warscribe repository (its ``sources/`` built), or of a BattleScribe
  data checkout (built as above); its date is the commit's.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import subprocess
import tarfile
import zipfile
from pathlib import Path

import yaml

from warscribe.ledger.model import DiffError, Side, SourceInfo
from warscribe.schema import bundle as bundle_mod
from warscribe.schema.bundle import Bundle, BundleError

_DATA_SUFFIXES = (".gst", ".cat")  # the XML form; the JSON form's files are .json
_ARCHIVES = (".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar", ".zip")


def load_side(spec: str, repo: Path, workdir: Path, ruleset: str | None = None) -> tuple[Bundle, Side]:
    """A build folder or bundle file; the app's data, the Field Manual or BattleScribe data (archive or
    folder); else a git revision, built."""
    path = Path(spec)
    if path.exists():
        try:
            bundle = bundle_mod.load(path)
        except BundleError as exc:
            kind = source_kind(path)
            if kind is None:
                raise DiffError(f"{exc}; nor is it the app's data (faction .json files with compatibleDataVersion), "
                                "the Munitorum Field Manual (meta.yaml and faction .yaml files) or BattleScribe data "
                                "(a .gst/.cat or .json game system and catalogues), in a folder or an archive") from None
            if kind == "app-json":
                return build_app(path, workdir / _slot(workdir), spec)
            if kind == "field-manual":
                from warscribe.ledger.manual import manual_side

                return manual_side(path, spec)
            return build_battlescribe(path, workdir / _slot(workdir), spec, ruleset or _EDITION[kind])
        bundle.origin = spec
        return bundle, Side.of_sources(spec, spec, "build", build_sources(bundle))
    if spec.startswith("-"):  # never let a side be read as a git option
        raise DiffError(f"{spec!r} is neither a build folder nor a git revision")
    commit = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{spec}^{{commit}}")
    if commit is None:
        raise DiffError(f"{spec!r} is neither a build folder nor a git revision of {repo} (nor the app's data, "
                        "the Field Manual or BattleScribe data)")
    return build_revision(repo, commit.strip(), workdir / commit.strip()[:12], spec, ruleset)


_EDITION = {"xml": "10e", "json": "11e"}
# What a JSON file's opening says it is: the app's faction files name their data version near the
# top; BattleScribe's JSON form opens with its game system or catalogue.
_APP_MARK = b'"compatibleDataVersion"'
_BS_MARKS = (b'"gameSystem"', b'"catalogue"')
_HEAD = 4096


def _slot(workdir: Path) -> str:
    n = len(list(workdir.iterdir())) if workdir.is_dir() else 0
    return f"side-{n}"


def battlescribe_form(path: Path) -> str | None:
    """'xml' or 'json' when `path` is BattleScribe data (a folder of it, or an archive of one), else None."""
    name = path.name.lower()
    if path.is_file():
        if name.endswith(_DATA_SUFFIXES):
            return "xml"
        if name.endswith(_ARCHIVES):
            names = _archive_names(path)
            if any(n.lower().endswith(_DATA_SUFFIXES) for n in names):
                return "xml"
            if any(n.lower().endswith(".json") for n in names):
                return "json"
        return None
    if path.is_dir():
        files = [p.name.lower() for p in path.iterdir() if p.is_file()]
        if any(f.endswith(_DATA_SUFFIXES) for f in files):
            return "xml"
        if any(f.endswith(".json") for f in files) and not (path / bundle_mod.BUNDLE_NAME).exists():
            return "json"
    return None


def source_kind(path: Path) -> str | None:
    """What data `path` (a folder or an archive) is: 'app-json', 'field-manual', 'xml' or 'json' (BattleScribe's
    two forms), or None. Told by content, not by name: a Field Manual has meta.yaml beside .yaml faction
    files; the app's faction files carry compatibleDataVersion, BattleScribe's JSON a game system or
    catalogue."""
    form = battlescribe_form(path)
    if form == "xml":
        return form
    names = _archive_names(path) if path.is_file() and path.name.lower().endswith(_ARCHIVES) else \
        _folder_names(path) if path.is_dir() else []
    lower = [n.lower() for n in names]
    if any(n.rsplit("/", 1)[-1] == "meta.yaml" for n in lower) and any(n.endswith((".yaml", ".yml")) for n in lower):
        return "field-manual"
    if form != "json":
        return None
    for head in _json_heads(path, names):
        if _APP_MARK in head:
            return "app-json"
        if any(m in head for m in _BS_MARKS):
            return "json"
    return None


def _folder_names(path: Path, limit: int = 5000) -> list[str]:
    out = []
    for p in sorted(path.rglob("*")):
        if p.is_file() and not p.is_symlink() and not any(x.startswith(".") for x in p.relative_to(path).parts):
            out.append(p.relative_to(path).as_posix())
            if len(out) >= limit:
                break
    return out


def _json_heads(path: Path, names: list[str], most: int = 8):
    """The openings of a few top-level .json files of the data (those that say what it is)."""
    wanted = sorted((n for n in names if n.lower().endswith(".json") and "/core/" not in f"/{n}"
                     and "/missions/" not in f"/{n}" and "/combatpatrol/" not in f"/{n}"), key=lambda n: (n.count("/"), n))
    wanted = set(wanted[:most])
    if not wanted:
        return
    if path.is_dir():
        for name in sorted(wanted):
            with (path / name).open("rb") as fh:
                yield fh.read(_HEAD)
        return
    from warscribe.extract.battlescribe.files import read_archive
    from warscribe.schema.diagnostics import Report

    for member in read_archive(path, path.name, Report(), lambda n: n in wanted):
        yield member.data[:_HEAD]


_VERSION = re.compile(rb'"compatibleDataVersion"\s*:\s*"?([0-9A-Za-z._-]{1,40})')
_UPDATED = re.compile(rb'"updated"\s*:\s*"(\d{4}-\d{2}-\d{2})')


def app_release(path: Path) -> tuple[str | None, str | None, dict[str, str]]:
    """(data version, newest ``updated`` date, {file: its updated date}) of the app's data at `path`.

    The version is the one most faction files name (they all do in a release)."""
    from collections import Counter

    from warscribe.extract.app.source import _members
    from warscribe.schema.diagnostics import Report

    versions: Counter = Counter()
    dates: dict[str, str] = {}
    for member in _members(path, path.name, Report()):
        head = member.data[:_HEAD]
        v, d = _VERSION.search(head), _UPDATED.search(head)
        if v:
            versions[v.group(1).decode()] += 1
        if d:
            dates[member.name] = d.group(1).decode()
    version = versions.most_common(1)[0][0] if versions else None
    return version, max(dates.values(), default=None), dates


def build_app(data: Path, folder: Path, label: str) -> tuple[Bundle, Side]:
    """Build the app's data (folder or archive) alone into `folder`; its version and date read from its files."""
    version, date, dates = app_release(data)
    bundle = _build(_manifest(data, folder, "app-json", "11e"), folder / "out", label, roots=(data.resolve(),))
    info = SourceInfo("app-json", data.name, version, date, dates)
    return bundle, Side.of_sources(label, label, "app-json", (info,))


def _manifest(data: Path, folder: Path, kind: str, ruleset: str, name: str | None = None) -> Path:
    """A manifest in `folder`/sources naming `data` (through a link beside it) as one source of `kind`."""
    from warscribe.extract.manifest import _file_sha256
    from warscribe.extract.wahapedia import folder_sha256

    sources = folder / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    link = sources / (name or data.name)
    if not link.exists():
        os.symlink(data.resolve(), link, target_is_directory=data.is_dir())
    sha = folder_sha256(data) if data.is_dir() else _file_sha256(data)
    entry = {"file": link.name, "original_name": data.name, "sha256": sha, "ruleset": ruleset, "kind": kind}
    manifest = sources / "manifest.yaml"
    manifest.write_text(yaml.safe_dump({"sources": [entry]}, sort_keys=False), encoding="utf-8")
    return manifest


# What a source's file name says of its release, when a build is all there is (the sources are not
# beside it): Game Datacards' archives name the app's data version (gdc-11e-886), the manual's its
# version and date (mfm-11e-v1.1-2026-07-22).
_NAME_VERSION = re.compile(r"(?:^|[-_])v(\d+(?:\.\d+)*)(?=[-_.]|$)|^gdc-\d+e-(\d+)(?=[-_.]|$)")
_NAME_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})")


def build_sources(bundle: Bundle) -> tuple[SourceInfo, ...]:
    """The sources a build names (its meta), each with the version and date its file name gives."""
    out = []
    for src in bundle.meta.get("sources") or []:
        file = src.get("file") if isinstance(src, dict) else None
        if not isinstance(file, str):
            continue
        name = file.replace("\\", "/").rsplit("/", 1)[-1]
        stem = re.sub(r"\.(tar\.xz|txz|tar\.gz|tgz|tar|zip)$", "", name, flags=re.I)
        v, d = _NAME_VERSION.search(stem), _NAME_DATE.search(stem)
        kind = "app-json" if stem.startswith("gdc-") else "field-manual" if stem.startswith("mfm-") else None
        out.append(SourceInfo(kind, name, (v.group(1) or v.group(2)) if v else None, d.group(1) if d else None))
    return tuple(out)


def _archive_names(path: Path) -> list[str]:
    """The member names of an archive, read through the one shared archive reader (bounded, nothing kept)."""
    from warscribe.extract.battlescribe.files import read_archive
    from warscribe.schema.diagnostics import Report

    names: list[str] = []

    def note(name: str) -> bool:
        names.append(name)
        return False

    read_archive(path, path.name, Report(), note)
    return names


def archive_date(path: Path) -> str | None:
    """The newest member's modification date (YYYY-MM-DD, UTC): an archive of a revision carries its commit time.

    Called after the archive was built, so after the shared reader has held it to its bounds.
    """
    try:
        if path.name.lower().endswith(".zip"):
            with zipfile.ZipFile(path) as zf:
                stamps = [_dt.datetime(*info.date_time).date().isoformat() for info in zf.infolist()]
                return max(stamps) if stamps else None
        with tarfile.open(path) as tf:
            newest = max((m.mtime for m in tf.getmembers() if m.isfile()), default=None)
    except (OSError, tarfile.TarError, zipfile.BadZipFile, ValueError, EOFError):
        return None
    return _day(newest) if newest else None


def _day(stamp: float) -> str:
    return _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).date().isoformat()


def _git(repo: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def commit_date(repo: Path, commit: str) -> str | None:
    out = _git(repo, "show", "-s", "--format=%cs", commit)
    return out.strip() or None if out else None


def build_battlescribe(data: Path, folder: Path, label: str, ruleset: str, how: str = "battlescribe",
                       commit: str | None = None, date: str | None = None) -> tuple[Bundle, Side]:
    """Build BattleScribe data (folder or archive) into `folder`: a manifest beside a link to it."""
    manifest = _manifest(data, folder, "battlescribe", ruleset, data.name if not commit else f"{data.name}@{commit[:7]}")
    if date is None:
        date = archive_date(data) if data.is_file() else commit_date(data, "HEAD") if (data / ".git").exists() else None
    bundle = _build(manifest, folder / "out", label, roots=(data.resolve(),))
    return bundle, Side(label, label, how, date, commit)


def _build(manifest: Path, out: Path, label: str, roots: tuple[Path, ...] = ()) -> Bundle:
    from warscribe.writers import write_json
    from warscribe.extract.pipeline import extract

    result = extract(manifest, roots)
    if not result.records:
        problems = "; ".join(d.render() for d in result.report.sorted()[:3])
        raise DiffError(f"{label}: nothing could be built" + (f" ({problems})" if problems else ""))
    write_json(result, out / "json")
    bundle = bundle_mod.load(out)
    bundle.origin = label
    return bundle


def build_revision(repo: Path, commit: str, folder: Path, label: str,
                   ruleset: str | None = None) -> tuple[Bundle, Side]:
    """Check out `commit`'s tree into `folder` (git archive) and build it: its sources, or the BattleScribe data it is."""
    folder.mkdir(parents=True, exist_ok=True)
    tar = folder / "tree.tar"
    with tar.open("wb") as fh:
        proc = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit], stdout=fh,
                              stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        raise DiffError(f"git archive {label}: {proc.stderr.decode(errors='replace').strip()}")
    tree = folder / "tree"
    with tarfile.open(tar) as archive:
        if not hasattr(tarfile, "data_filter"):  # Python before 3.11.4: no extraction filters
            raise DiffError("building a git revision needs Python 3.11.4 or later (safe tar extraction)")
        archive.extractall(tree, filter="data")  # 'data' keeps every member inside the folder
    tar.unlink()
    date = commit_date(repo, commit)
    manifest = tree / "sources" / "manifest.yaml"
    if manifest.is_file():
        return _build(manifest, folder / "out", label), Side(label, label, "git", date, commit)
    form = battlescribe_form(tree)
    if form is None:
        raise DiffError(f"revision {label} has no sources/manifest.yaml and is not BattleScribe data")
    name = Path(repo).resolve().name
    data = folder / name
    tree.rename(data)
    return build_battlescribe(data, folder / "build", label, ruleset or _EDITION[form], "git", commit, date)
