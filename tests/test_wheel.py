"""Warscribe installed from a wheel (not editable) builds a sources folder and evaluates a scenario.

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
    assert "Records: 227" in build.stdout and (work / "kb" / "json" / "warscribe.json").is_file()
    calc = _run([exe, "calc", "scenario.yaml", "--json", "--kb", work / "kb"], cwd=work, env=env)
    assert calc.returncode == 0, calc.stderr
    assert '"expected_wounds_removed"' in calc.stdout or '"expected_models_slain"' in calc.stdout
    check = _run([exe, "check", work / "kb"], cwd=work, env=env)
    assert "Traceback" not in check.stderr and check.returncode in (0, 1), check.stdout + check.stderr
    default = _run([exe, "build", "-q"], cwd=work, env=env)
    assert default.returncode == 0 and (work / "out" / "json" / "warscribe.json").is_file(), default.stderr
