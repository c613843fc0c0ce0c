"""What a side of `warscribe diff` can be, each read into a bundle with its release date when known.

- a build folder or bundle file (as written by ``warscribe build``);
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
import subprocess
import tarfile
import zipfile
from pathlib import Path

import yaml

from warscribe.ledger.model import Side
from warscribe.schema import bundle as bundle_mod
from warscribe.schema.bundle import Bundle, BundleError

_DATA_SUFFIXES = (".gst", ".cat")  # the XML form; the JSON form's files are .json
_ARCHIVES = (".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar", ".zip")


class DiffError(Exception):
    """A side that cannot be read or built (not a build, not a revision)."""


def load_side(spec: str, repo: Path, workdir: Path, ruleset: str | None = None) -> tuple[Bundle, Side]:
    """A build folder or bundle file; BattleScribe data (archive or folder); else a git revision, built."""
    path = Path(spec)
    if path.exists():
        try:
            bundle = bundle_mod.load(path)
        except BundleError as exc:
            form = battlescribe_form(path)
            if form is None:
                raise DiffError(f"{exc}; nor is it BattleScribe data (a .gst/.cat or .json game system and "
                                "catalogues, in a folder or an archive)") from None
            return build_battlescribe(path, workdir / _slot(workdir), spec, ruleset or _EDITION[form])
        bundle.origin = spec
        return bundle, Side(spec, spec, "build")
    if spec.startswith("-"):  # never let a side be read as a git option
        raise DiffError(f"{spec!r} is neither a build folder nor a git revision")
    commit = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{spec}^{{commit}}")
    if commit is None:
        raise DiffError(f"{spec!r} is neither a build folder nor a git revision of {repo} (nor BattleScribe data)")
    return build_revision(repo, commit.strip(), workdir / commit.strip()[:12], spec, ruleset)


_EDITION = {"xml": "10e", "json": "11e"}


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
    from warscribe.extract.manifest import _file_sha256
    from warscribe.extract.wahapedia import folder_sha256

    sources = folder / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    link = sources / (data.name if not commit else f"{data.name}@{commit[:7]}")
    if not link.exists():
        os.symlink(data.resolve(), link, target_is_directory=data.is_dir())
    sha = folder_sha256(data) if data.is_dir() else _file_sha256(data)
    entry = {"file": link.name, "original_name": data.name, "sha256": sha, "ruleset": ruleset, "kind": "battlescribe"}
    manifest = sources / "manifest.yaml"
    manifest.write_text(yaml.safe_dump({"sources": [entry]}, sort_keys=False), encoding="utf-8")
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
