"""The layers, read from the source: the trusted kernel is closed, packages point one way.

The import graph is read with `ast` (module-level and function-level imports alike), so a
lazy import inside a function cannot slip past.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("perceptron", "proofs", "verify")


def imports(path: Path) -> set[str]:
    """Every module `path` imports, absolute names (relative imports are not used here)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            found.add(node.module or "")
    return found


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_the_kernel_imports_nothing_else_of_the_project() -> None:
    """verify/kernel is the trusted base: the standard library, SymPy and itself only."""
    allowed_roots = {"sympy", "verify"} | set(sys.stdlib_module_names)
    for path in modules("verify/kernel"):
        for name in imports(path):
            assert name.split(".")[0] in allowed_roots, f"{path.name} imports {name}"
            if name.split(".")[0] == "verify":
                assert name == "verify.kernel" or name.startswith("verify.kernel."), (
                    f"{path.name} imports {name}, outside the kernel")


def test_only_the_kernel_constructs_theorems_and_refutations() -> None:
    """Outside verify/kernel nothing calls Theorem(...) or Refutation(...) directly."""
    for package in PROJECT:
        for path in modules(package):
            if "verify/kernel" in path.as_posix():
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                    assert name not in ("Theorem", "Refutation"), f"{path} builds a {name}"


def test_nothing_outside_the_kernel_touches_its_key() -> None:
    """The private key that constructs Theorems, and the registry of made values, are read
    only inside verify/kernel (Python cannot hide them; the discipline is checked here)."""
    for package in (*PROJECT, "tests", "benchmarks"):
        for path in modules(package):
            if "verify/kernel" in path.as_posix():
                continue
            names = {getattr(n, "attr", getattr(n, "id", "")) for n in
                     ast.walk(ast.parse(path.read_text(), str(path)))}
            assert not names & {"_KEY", "_MADE"}, f"{path} reads the kernel's key"


def test_the_kernel_stays_small_enough_to_read() -> None:
    """At most 800 lines of code and docstrings (blank lines not counted, as cloc counts code
    plus comments): the size the README states for the trusted base."""
    lines = [line for path in modules("verify/kernel")
             for line in path.read_text().splitlines() if line.strip()]
    assert len(lines) <= 800, f"verify/kernel has {len(lines)} non-blank lines"


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("perceptron", ("sympy", "proofs", "verify")),  # numbers never depend on statements
        ("proofs", ("numpy", "verify", "perceptron")),  # statements never depend on numbers
    ],
)
def test_packages_point_one_way(package: str, forbidden: tuple[str, ...]) -> None:
    for path in modules(package):
        for name in imports(path):
            assert name.split(".")[0] not in forbidden, f"{path} imports {name}"
