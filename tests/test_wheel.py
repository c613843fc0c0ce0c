"""Warscribe installed from a wheel (not editable): from an empty folder, init, build, check, calculate.

The wheel is built from a copy of the checkout into a temporary folder and installed,
without its dependencies, into a fresh virtual environment that sees this
environment's third-party packages (so the test needs no network) but not the
checkout: what runs is what the wheel ships.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow  # a wheel built and installed into a fresh environment

_SKIP = {".git", ".venv", "out", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}


def _run(args: list, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("wheel")
    tree = base / "tree"
    shutil.copytree(ROOT, tree, ignore=lambda d, names: [n for n in names if n in _SKIP or n.endswith(".egg-info")])
    wheels = base / "wheels"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", wheels, tree],
                 cwd=base)
    if built.returncode != 0:  # setuptools absent from this environment: let pip fetch it
        built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, tree], cwd=base)
    assert built.returncode == 0, built.stderr
    wheel = next(wheels.glob("warscribe-*.whl"))
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    # Third-party packages of this environment, but not the editable checkout (its finder
    # is installed by a .pth file of site-packages, which a path entry does not run).
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=base).stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    installed = _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "-q", wheel], cwd=base)
    if installed.returncode != 0:  # an older pip without --python: unpack the wheel as pip would
        with zipfile.ZipFile(wheel) as z:
            z.extractall(site)
    return wheel, env_dir


def test_the_wheel_claims_one_name_and_ships_the_schemas(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert tops == {"warscribe"}
    assert "warscribe/schema/weapon.schema.json" in names and "warscribe/schema/scenario.schema.json" in names
    assert "warscribe/extract/pipeline.py" in names and "warscribe/engine/evaluate.py" in names


def test_the_wheel_ships_every_python_package_of_the_checkout(installed):
    """Each folder of Python code under the installed folders (a package-dir mapping) is in the wheel."""
    import tomllib

    wheel, _ = installed
    shipped = {n.rsplit("/", 1)[0] for n in zipfile.ZipFile(wheel).namelist() if n.endswith("/__init__.py")}
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    expected = set()
    for name, folder in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            if "__pycache__" not in rel.parts:
                expected.add("/".join([*name.split("."), *rel.parts]))
    assert expected <= shipped, sorted(expected - shipped)


def test_installed_warscribe_builds_a_copy_of_the_sources_and_calculates(installed, tmp_path):
    _, env_dir = installed
    work = tmp_path / "work"
    shutil.copytree(ROOT / "sources", work / "sources")
    shutil.copy(ROOT / "examples" / "scenarios" / "single-weapon.yaml", work / "scenario.yaml")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    exe = env_dir / "bin" / "warscribe"
    where = _run([env_dir / "bin" / "python", "-c", "import warscribe.engine, sys; print(warscribe.engine.__file__)"],
                 cwd=work, env=env)
    assert str(env_dir) in where.stdout, where.stdout + where.stderr
    build = _run([exe, "build", "--sources", work / "sources", "--out", work / "kb", "-q"], cwd=work, env=env)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "Records: 229" in build.stdout and (work / "kb" / "json" / "warscribe.json").is_file()
    calc = _run([exe, "calc", "scenario.yaml", "--json", "--kb", work / "kb"], cwd=work, env=env)
    assert calc.returncode == 0, calc.stderr
    assert '"expected_wounds_removed"' in calc.stdout or '"expected_models_slain"' in calc.stdout
    check = _run([exe, "check", work / "kb"], cwd=work, env=env)
    assert "Traceback" not in check.stderr and check.returncode in (0, 1), check.stdout + check.stderr
    default = _run([exe, "build", "-q"], cwd=work, env=env)
    assert default.returncode == 0 and (work / "out" / "json" / "warscribe.json").is_file(), default.stderr


def _clean_env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def test_the_wheel_ships_the_license_the_docs_and_the_samples(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), [n for n in names if "dist-info" in n]
    assert {"warscribe/docs/formats.md", "warscribe/docs/diagnostics.md", "warscribe/samples/manifest.yaml",
            "warscribe/samples/annotations.yaml", "warscribe/__main__.py"} <= set(names)
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "Project-URL: Source," in metadata
    assert "Classifier: Programming Language :: Python :: 3.11" in metadata


def test_a_wheel_user_starts_from_an_empty_folder(installed, tmp_path):
    """As the README says: `warscribe init`, then `warscribe build`; defaults are the folder's, never the install's."""
    _, env_dir = installed
    env = _clean_env()
    exe = env_dir / "bin" / "warscribe"
    empty = tmp_path / "empty"
    empty.mkdir()
    # Before init: one line saying what to do, nothing written.
    before = _run([exe, "build"], cwd=empty, env=env)
    assert before.returncode == 2 and "`warscribe init`" in before.stderr and before.stderr.count("\n") == 1
    assert "Traceback" not in before.stderr and list(empty.iterdir()) == []
    # No default or help text points into the installation.
    site_packages = str(env_dir / "lib")
    for command in ("build", "serve", "export", "check", "calc", "effects", "matrix", "census", "bench", "manifest",
                    "init", "diff"):
        shown = _run([exe, command, "--help"], cwd=empty, env=env)
        assert shown.returncode == 0 and site_packages not in shown.stdout and "site-packages" not in shown.stdout, command
    census = _run([exe, "census"], cwd=empty, env=env)
    assert census.returncode == 2 and "site-packages" not in census.stderr and "Traceback" not in census.stderr

    init = _run([exe, "init"], cwd=empty, env=env)
    assert init.returncode == 0, init.stderr
    assert sorted(p.name for p in (empty / "sources").iterdir()) == sorted(p.name for p in (ROOT / "sources").iterdir())
    assert "warscribe build" in init.stdout
    again = _run([exe, "init"], cwd=empty, env=env)
    assert again.returncode == 2 and "not empty" in again.stderr  # never overwrites
    build = _run([exe, "build"], cwd=empty, env=env)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "Records: 229" in build.stdout and (empty / "out" / "site" / "index.html").is_file()
    doc = next(line for line in build.stdout.splitlines() if "what each code means:" in line).rsplit(": ", 1)[1]
    assert Path(doc).is_file()  # the docs named in messages are installed with the wheel
    check = _run([exe, "check"], cwd=empty, env=env)
    assert check.returncode == 0 and check.stdout.splitlines()[-1].startswith("0 errors"), check.stdout + check.stderr
    module = _run([env_dir / "bin" / "python", "-m", "warscribe", "--version"], cwd=empty, env=env)
    assert module.returncode == 0 and module.stdout.startswith("warscribe ")

    # A broken manifest in a new folder: nothing written, and no "previous output" that never was.
    fresh = tmp_path / "fresh"
    (fresh / "sources").mkdir(parents=True)
    (fresh / "sources" / "manifest.yaml").write_text("sources: [\n", encoding="utf-8")
    bad = _run([exe, "build"], cwd=fresh, env=env)
    assert bad.returncode == 2 and "previous output" not in bad.stderr and "out/ was not created" in bad.stderr
    empty_init = tmp_path / "blank"
    assert _run([exe, "init", empty_init, "--empty"], cwd=tmp_path, env=env).returncode == 0
    assert "sources: []" in (empty_init / "sources" / "manifest.yaml").read_text(encoding="utf-8")
