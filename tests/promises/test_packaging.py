"""Packaging promises (issue 17): the pytest11 entry point of docs/api.md, `py.typed` in each
package (PEP 561) and shipped as package data, `rich` declared, scikit-learn optional.

The entry point is tested as pytest meets it: a distribution whose `entry_points.txt` is
written from pyproject.toml is put on the path of a fresh pytest process, which must then
give a test the `perceptron_theory` fixture without any conftest line, and stay quiet
when a conftest adds the line anyway.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGES = ("perceptron", "proofs", "verify")


def test_py_typed_in_each_package_and_shipped() -> None:
    for package in PACKAGES:
        assert (ROOT / package / "py.typed").is_file(), package
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    assert "py.typed" in package_data


def test_dependencies() -> None:
    project = PYPROJECT["project"]
    assert any(dep.startswith("rich") for dep in project["dependencies"])
    assert not any(dep.startswith("scikit-learn") for dep in project["dependencies"])
    assert not any(dep.startswith("pandas") for dep in project["dependencies"])
    assert any(dep.startswith("scikit-learn") for dep in project["optional-dependencies"]["test"])


TEST_FILE = '''
def test_fixture_from_the_entry_point(perceptron_theory):
    planted = perceptron_theory.seeded_separable(3)
    report = perceptron_theory.check_run(planted.data, perceptron_theory.run_online(planted.data))
    assert report.ok
'''


@pytest.mark.parametrize("with_conftest_line", [False, True])
def test_pytest11_entry_point_loads_the_plugin(tmp_path: Path, with_conftest_line: bool) -> None:
    entry_points = PYPROJECT["project"]["entry-points"]["pytest11"]
    assert list(entry_points.values()) == ["verify.pytest_plugin"]
    site = tmp_path / "site"
    dist = site / "novikoff_entry_point_probe-0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: novikoff-entry-point-probe\n"
                                   "Version: 0\n")
    (dist / "entry_points.txt").write_text(
        "[pytest11]\n" + "".join(f"{name} = {value}\n" for name, value in entry_points.items()))
    project = tmp_path / "project"
    project.mkdir()
    (project / "test_user.py").write_text(TEST_FILE)
    if with_conftest_line:
        (project / "conftest.py").write_text('pytest_plugins = ["verify.pytest_plugin"]\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    env.pop("PYTEST_DISABLE_PLUGIN_AUTOLOAD", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "test_user.py"], cwd=project, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
