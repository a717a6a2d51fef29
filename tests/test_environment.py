"""The locked environment: one lock file is the source of .venv and of Binder's requirements.

``requirements/test.lock`` is written by ``make lock`` (``uv pip compile`` of
pyproject.toml); ``make venv`` installs exactly it (``--no-deps``) and then the kit
without its dependencies.  These tests compare files with files, so they do not
drift with the calendar, and one of them builds a small environment from a local
package folder in which a newer release exists, to show that the lock wins.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import PackageNotFoundError, distributions, version
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "test.lock"
BENCH_LOCK = ROOT / "requirements" / "bench.lock"
BINDER = ROOT / "binder" / "requirements.txt"
#: The extras that the test lock must cover (bench has a lock of its own).
LOCKED_EXTRAS = ("widgets", "lab", "dask", "hub", "test")
#: What `python -m venv` and the Makefile put into .venv besides the lock.
NOT_LOCKED = {"pip", "setuptools", "uv", "rummy-kit"}


def read_lock(path: Path) -> dict[str, tuple[str, Marker | None]]:
    """``{name: (version, marker)}`` of a requirements file that pins with ``==``."""
    out: dict[str, tuple[str, Marker | None]] = {}
    for line in path.read_text().splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        req = Requirement(line)
        pins = [s for s in req.specifier if s.operator == "=="]
        assert len(pins) == 1 and len(req.specifier) == 1, f"{path.name}: {line!r} is not pinned"
        out[canonicalize_name(req.name)] = (pins[0].version, req.marker)
    return out


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _requirements(extras: tuple[str, ...]) -> list[Requirement]:
    project = pyproject()["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        reqs += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return [r for r in reqs if canonicalize_name(r.name) != "rummy-kit"]


def test_lock_pins_every_dependency_of_pyproject_within_its_range():
    lock = read_lock(LOCK)
    for req in _requirements(LOCKED_EXTRAS):
        name = canonicalize_name(req.name)
        assert name in lock, f"{req} is in pyproject.toml but not in the lock: run make lock"
        assert req.specifier.contains(lock[name][0], prereleases=True), (
            f"the lock has {name}=={lock[name][0]}, outside pyproject's {req}: run make lock")


def test_bench_lock_agrees_with_the_test_lock():
    lock, bench = read_lock(LOCK), read_lock(BENCH_LOCK)
    assert {n: v for n, (v, _) in bench.items() if n in lock} == {n: v for n, (v, _) in
                                                                    lock.items()}
    for req in _requirements(("bench",)):
        assert canonicalize_name(req.name) in bench, f"{req} is not in {BENCH_LOCK.name}"


def test_binder_requirements_are_the_lock_s_runtime_part():
    lock, binder = read_lock(LOCK), read_lock(BINDER)
    differ = {n: (v, lock.get(n, ("missing",))[0]) for n, (v, _) in binder.items()
              if lock.get(n, (None,))[0] != v}
    assert not differ, f"binder/requirements.txt != the lock (run make lock): {differ}"
    for root in ("pandas", "sympy", "ipywidgets", "ipykernel", "matplotlib", "voila",
                 "jupyterlab"):
        assert root in binder, f"binder/requirements.txt lacks {root}"
    assert not {"pytest", "playwright", "hypothesis", "nbval", "ruff", "mypy"} & set(binder)


def test_binder_requirements_say_they_are_generated():
    head = BINDER.read_text().splitlines()[:3]
    assert any("make lock" in line for line in head), head


def _applies(marker: Marker | None) -> bool:
    return marker is None or marker.evaluate()


@pytest.mark.skipif(not (Path(sys.prefix) / ".installed").exists(),
                    reason="runs in the .venv that `make venv` builds")
def test_this_venv_is_exactly_the_lock():
    lock = read_lock(LOCK)
    wrong = {}
    for name, (ver, marker) in lock.items():
        if not _applies(marker):
            continue
        try:
            got = version(name)
        except PackageNotFoundError:
            got = "missing"
        if got != ver:
            wrong[name] = (ver, got)
    assert not wrong, f"locked != installed: {wrong}"
    extra = {canonicalize_name(d.metadata["Name"]) for d in distributions()} - set(lock)
    assert extra <= NOT_LOCKED, f"installed but not locked: {extra - NOT_LOCKED}"


def test_makefile_builds_the_venv_from_the_lock_only():
    make = (ROOT / "Makefile").read_text()
    installs = [line.strip() for line in make.splitlines()
                if re.search(r"(pip|uv pip) install", line) and "uv==" not in line]
    assert installs, "no install line found in the Makefile"
    for line in installs:
        assert "--no-deps" in line, f"an install that may pull unlocked versions: {line}"
        assert "-r $(LOCK)" in line or "-r $(SITE_LOCK)" in line or "-e ." in line, line
    for path in ("binder/postBuild", ".ci/run"):
        text = (ROOT / path).read_text()
        assert not re.search(r"pip install(?!.*--no-deps)", text), f"{path}: unlocked install"


def _wheel(folder: Path, name: str, ver: str) -> None:
    """A minimal pure-Python wheel ``name-ver`` whose module says its version."""
    dist = f"{name}-{ver}.dist-info"
    files = {
        f"{name}/__init__.py": f"VERSION = {ver!r}\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {ver}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
    }
    files[f"{dist}/RECORD"] = "".join(f"{p},,\n" for p in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(folder / f"{name}-{ver}-py3-none-any.whl", "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)


@pytest.mark.slow
@pytest.mark.parametrize("installer", ["pip", "uv"])
def test_install_takes_the_locked_version_when_a_newer_one_is_out(tmp_path, installer):
    uv = Path(sys.prefix) / "bin" / "uv"
    if installer == "uv" and not uv.exists():
        pytest.skip("uv is not in this environment")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for ver in ("1.0", "1.1", "2.0"):  # 2.0 is "last night's release"
        _wheel(wheels, "kitprobe", ver)
    lock = tmp_path / "test.lock"
    lock.write_text("kitprobe==1.1\n    # via rummy-kit\n")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "VIRTUAL_ENV"))}
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "install-lock",
         f"INSTALLER={installer}", f"VENV={venv}", f"LOCK={lock}", f"UV={uv}",
         f"INDEX_ARGS=--no-index --find-links {wheels}"],
        capture_output=True, text=True, env=env, timeout=50)
    assert done.returncode == 0, done.stdout + done.stderr
    probe = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import kitprobe; print(kitprobe.VERSION)"],
                           capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == "1.1"
