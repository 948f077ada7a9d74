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
    """At most 2022 lines of code and docstrings (blank lines not counted, as cloc counts code
    plus comments): the size the README states for the trusted base (800 for the rules of
    issue 12, 120 for those of issue 16: scalar induction, instances, existentials, invariants
    carried between inductions over the same runs, a split inductive step, and the red team's
    fixes: bound existentials, claims on runs never decisive, a registry keyed by identity),
    10 for issue 15's memo of the normal form, 30 for issue 26's closing of the API: every
    field of a used statement rebuilt in exact types, a private copy of every statement the
    kernel makes, the memo validating what it caches, read-only ring generators; and 10 for
    a second red team's: names and substitution keys exactly `str`, nesting bounded; and 10
    for issue 28's antisymmetry (an equality from its two inequalities); and 30 for issue
    27's one-update lemmas in an induction's step (and freezing a sequent once per call);
    and 95 for issue 30's linear costs: the kernel's own values (Theorem, Stated) as used
    steps, read without validating them again, memos of validation, symbols, expansions,
    bases and normal forms (each keeping validated values only), and copies at every exit,
    so that no caller holds what the memos share (its review found the normal-form memo's
    facts handed out: tests/kernel/test_kernel_handles.py); and 625 for issue 31's finite
    sums, a term language with a binder that nothing outside the kernel may be trusted to
    read: `atoms.py` (415: families and sums read back from their names and refused unless
    canonical, linearity and alpha-equivalence as the canonical form, capture-avoiding
    substitution, exact bounded evaluation, copies out of the reader's memo), `sums.py` (110:
    six axiom schemata and rewriting under a binder, copies out of their memo), and 100 in
    the rules and certificates (bounds are naturals, families are nothing else, the term-wise
    rule, sum facts and their conditions, a counterexample assigns names only); and 22 for
    issue 31's two rules for what users write about families and double sums (`sums.py`:
    `congruence`, an atom with a name replaced by an equal term, and `swap`, a double sum in
    the other order with its refusal of an inner set that reads the outer index; the sum
    rules' one schema function now reads any atom for a congruence); and 73 for `refute_run`,
    an induction refuted by one of its runs, checked state by state, at most 64 updates, and
    no name both a vector and a scalar (tests/kernel/test_kernel_runs.py); and 85 for named
    vector sums (`sums.VectorSum`: a fresh vector standing for a sum of vectors, its inner
    products read by bilinearity as facts of the obligations, with its semantics, validation
    and the freshness the definition needs; tests/kernel/sums/test_kernel_named_sums.py);
    and 5 for its red team's findings (each part of a named sum read as an exact pair, at
    most 8 members: a sum's facts pair every member with every other); and 12 for a
    refutation's counterexample read-only (`certificates.Frozen`, a dict refusing every
    change that pickles and that `Point` reads back: its holder could change the point the
    kernel checked, red team 22 F6; tests/kernel/test_kernel_rules.py); and 5 for red team
    29 F2: a base's counterexample refutes an induction that carries another's invariant
    only where that invariant holds at the start (the run of no update from the point is
    otherwise no run of the theorem; tests/kernel/test_kernel_runs.py); and 56 for
    `refute_start` (newcomers 27 F5, 31 F4): a statement about runs refuted at the start of
    every induction it speaks of, which each statement records (`Statement.starts`, rebuilt
    in exact types like every field of a used one, unknown for an instance), with its
    semantics (tests/kernel/runs/test_kernel_starts.py); and 5 for red team adv32b O1: the
    starts of a used statement about runs are the kernel's, read from its own copy of each
    statement it handed out (by identity), unknown for any other (a caller's `starts=()`
    refuted a true step at a point no run reaches; tests/kernel/runs/test_kernel_starts.py);
    and 29 for hostile sizes (red team kern33): an expansion measured before it is made, a
    sum of products too and its parts as they come (`algebra.fold`), and where SymPy expands
    (`atoms._predicted`), and every exact value a point's evaluation makes bounded in bits
    (`atoms.bounded`): small inputs hung the kernel
    (tests/kernel/algebra/test_kernel_hostile_sizes.py)."""
    lines = [line for path in modules("verify/kernel")
             for line in path.read_text().splitlines() if line.strip()]
    assert len(lines) <= 2022, f"verify/kernel has {len(lines)} non-blank lines"


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


#: The run wing's floors (docs/design.md §1), bottom up: what a run offers (`verify.runs`),
#: evaluation and campaigns (`verify.numeric`), the audit (`verify.audit`). A floor imports
#: only floors below it, never what sits above the floors (the command line, the public API,
#: the testing helpers, the Coq export). The views (`verify.render`) sit above runs and
#: numeric; the audit still reads their JSON contract (`render/json.py`, to become
#: `audit/contract.py` in docs/design.md §1), so they are not checked against it.
FLOORS = ("verify.runs", "verify.numeric", "verify.audit")
ABOVE_THE_FLOORS = ("verify.cli", "verify.testing", "verify.coq", "verify.api",
                    "verify.pytest_plugin")
VIEWS = "verify.render"


@pytest.mark.parametrize("floor", FLOORS)
def test_no_import_points_back_up_a_floor(floor: str) -> None:
    """`verify.runs` never reads the campaign or the audit, `verify.numeric` never reads the
    audit, and neither reads what sits above them (at any depth of their code)."""
    above = (*FLOORS[FLOORS.index(floor) + 1:], *ABOVE_THE_FLOORS)
    if floor != "verify.audit":
        above = (*above, VIEWS)
    for path in modules(floor.replace(".", "/")):
        for name in imports(path):
            assert not any(name == up or name.startswith(up + ".") for up in above), (
                f"{path.relative_to(ROOT)} imports {name}, a floor above {floor}")


def test_the_floor_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check reads function-level imports too (a lazy import is still an arrow)."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from verify.audit.job import run_audit\n")
    assert "verify.audit.job" in imports(module)


# -- the import graph: no cycles, small folders --------------------------------------------------


def module_name(path: Path) -> str:
    """`verify/cli/__init__.py` -> `verify.cli`, `verify/cli/run.py` -> `verify.cli.run`."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every project module and the project modules it imports, at any depth of its code.

    `from package import name` is an edge to `package.name` when that is a module (importing a
    submodule does not read the package's own names) and to `package` otherwise. An import
    inside a function counts like one at the top: a cycle is a cycle whenever it closes.
    """
    paths = {module_name(p): p for package in PROJECT for p in modules(package)}

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found |= {m for alias in node.names if (m := known(alias.name))}
            elif isinstance(node, ast.ImportFrom) and node.module:
                subs = {f"{node.module}.{a.name}" for a in node.names} & paths.keys()
                found |= subs
                if len(subs) < len(node.names) and (m := known(node.module)):
                    found.add(m)
        graph[name] = found - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as a path
    that closes on itself, so a failure names the modules in import order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(_closed_path(graph, set(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _closed_path(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth first)."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in previous:
                    previous[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover - Tarjan said so


def test_the_cycle_finder_finds_and_names_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    """Modules import in one direction: each layer reads only those below it."""
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


MAX_MODULES = 10


def test_no_folder_holds_more_than_ten_modules() -> None:
    """One concept per folder: a folder that outgrows ten modules holds two concepts (an
    `__init__.py` not counted: it is the folder's door, not a module of its own). The packages,
    the tests (which mirror them) and the benchmarks alike."""
    for top in (*PROJECT, "tests", "benchmarks"):
        folders = {p.parent for p in (ROOT / top).rglob("*.py")}
        for folder in sorted(folders):
            found = sorted(p.name for p in folder.glob("*.py") if p.name != "__init__.py")
            assert len(found) <= MAX_MODULES, f"{folder.relative_to(ROOT)}: {found}"
