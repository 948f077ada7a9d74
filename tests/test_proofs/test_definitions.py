"""Defined names (proofs/definitions.py, issue 16): max, min, sqrt and norm by their
defining facts, which every step that mentions the name receives as hypotheses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.cli import main
from verify.proof_checker import check_proof

HEADER = """
title = "definitions"
vectors = ["w", "u", "x"]
scalars = ["n", "gamma", "y", "d", "T", "r", "t", "m"]
naturals = ["t"]
"""

DEFINED = HEADER + """
[define]
n = "norm(w)"
d = "max(0, gamma - y*dot(u, x))"
r = "sqrt(T)"
m = "min(r, 1)"

[[step]]
id = "norm-above-projection"
given = ["dot(u, u) == 1"]
claim = "n >= dot(w, u)"

[[step]]
id = "hinge-covers-the-margin"
given = []
claim = "y*dot(u, x) + d >= gamma"

[[step]]
id = "root-monotone"
given = ["T >= 1"]
claim = "r >= 1"

[[step]]
id = "min-through-a-root"
given = ["T >= 0"]
claim = "m <= 1"

[[step]]
id = "a-root-is-not-below-its-square"
given = ["T >= 0"]
claim = "r <= T"

[[step]]
id = "unrelated"
given = ["t >= 1"]
claim = "t >= 0"
"""


def test_defined_names_prove_what_the_functions_mean() -> None:
    proof = parse_proof(DEFINED.encode(), "defined.toml")
    report = {s.step.id: s for s in check_proof(proof).steps}
    for proved in ("norm-above-projection", "hinge-covers-the-margin", "root-monotone",
                   "min-through-a-root"):
        assert report[proved].status == "proved", (proved, report[proved].message)
    refuted = report["a-root-is-not-below-its-square"]  # sqrt(1/4) = 1/2 > 1/4
    assert refuted.status == "refuted"
    # the statement the kernel checked carries every defining fact, transitively
    shown = str(report["min-through-a-root"].statement)
    assert "m <= r" in shown and "(m - r)*(m - 1) == 0" in shown and "r**2 == T" in shown
    assert str(report["unrelated"].statement) == "t in Nat, t >= 1 |- t >= 0"


def test_an_update_fact_gets_the_definitions_it_mentions() -> None:
    text = HEADER + """
[define]
d = "max(0, gamma - y*dot(u, x))"

[[step]]
id = "hinge-sum"
given = []
claim = "dot(w, u) >= t*gamma"
[step.induction]
variable = "t"
constants = ["u", "gamma"]
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) + d >= gamma", "d <= 0"]
"""
    step = parse_proof(text.encode(), "update.toml").steps[0]
    assert not step.hypotheses  # the invariant does not mention d
    assert "d >= 0" in [r.text for r in step.rule.hypotheses]  # type: ignore[union-attr]
    assert check_proof(parse_proof(text.encode(), "update.toml")).steps[0].status == "proved"


@pytest.mark.parametrize(
    ("define", "problem"),
    [
        ('q = "max(0, 1)"', "'q' is not a declared scalar"),
        # a vector is named, not a scalar: said so, and what to write instead
        ('w = "u + x"', "'w' is a vector; [define] defines scalars only"),
        ('n = "abs(T)"', "must be one of max(a, b), min(a, b), sqrt(e), norm(v)"),
        ('n = "max(T)"', "max takes 2 argument(s)"),
        ('n = "sqrt(T, T)"', "sqrt takes 1 argument(s)"),
        ('n = "sqrt(n + 1)"', "n uses n, defined at or after it"),
        ('n = "sqrt(r)"\nr = "sqrt(n)"', "n uses r, defined at or after it"),
        ('n = "sqrt(z)"', "define: n:"),
        ("n = 3", "must be a string"),
        ('n = "sqrt(("', "is not an expression"),
        ('n = "max(0, T, key=1)"', "must be one of"),
    ],
)
def test_bad_definitions_are_one_line_errors(define: str, problem: str,
                                             capsys: pytest.CaptureFixture[str],
                                             tmp_path: object) -> None:
    text = HEADER + f"[define]\n{define}\n\n[[step]]\nid = \"s\"\ngiven = []\nclaim = \"t >= t\"\n"
    with pytest.raises(ProofFileError, match=re.escape(problem)):
        parse_proof(text.encode(), "bad.toml")
    path = tmp_path / "bad.toml"  # type: ignore[operator]
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert problem in err and "\n" not in err and "Traceback" not in err
    # placed at the entry's line, 7, as every other error of a file is (newcomer 32 N2: a
    # definition's errors were all placed at 1:1)
    assert err.startswith(f"novikoff: error: {path}:7:"), err


def test_a_name_read_only_in_a_divisor_or_by_the_update_gets_its_definition() -> None:
    """Red-team findings: SymPy cancels `a*d/d` to `a`, so a definition read only by the
    text's divisor was dropped and a counterexample that breaks it (d = 1 where max(0, -c*c)
    is 0) refuted a claim defined nowhere; a definition read only by the update map (`w + d*u`)
    was dropped without a word."""
    divisor = HEADER + """
[define]
d = "max(0, -gamma*gamma)"

[[step]]
id = "divisor-only"
given = []
claim = "y*d/d >= 0"
"""
    step = check_proof(parse_proof(divisor.encode(), "divisor.toml")).steps[0]
    assert step.status != "refuted", step.message
    assert "d >= 0" in str(step.statement)
    update = HEADER + """
[define]
d = "max(0, gamma)"

[[step]]
id = "grows"
given = []
claim = "dot(w, u) >= 0"
[step.induction]
variable = "t"
constants = ["u", "gamma"]
base = { w = "0*w" }
step = { w = "w + d*u" }
"""
    step = check_proof(parse_proof(update.encode(), "update.toml")).steps[0]
    assert step.status == "proved", step.message  # d >= 0 and <u,u> >= 0: <w,u> grows
    assert "each with d >= 0" in str(step.statement)  # the definition is among the update facts


def test_a_sum_index_spelled_as_a_defined_name_does_not_get_its_definition() -> None:
    """Red-team finding: a sum's bound index spelled like a defined name (`r = "sqrt(T)"`)
    attached r's facts (`r**2 == T`, so T >= 0) to a step that never mentions the defined
    r, and `T >= sum(r in 1..1, 0)` (T >= 0 for every T) came out proved. A bound index is
    no mention: refuted at T < 0, with no defining fact among the hypotheses."""
    captured = """
title = "a bound index named like a defined name"
scalars = ["T", "r", "N", "y"]
naturals = ["N"]
indexed = ["y"]

[define]
r = "sqrt(T)"

[[step]]
id = "bound-index"
claim = "T >= sum(r in 1..1, 0)"

[[step]]
id = "bound-index-over-members"
claim = "sum(r in 1..N, y[r]) + T >= sum(r in 1..N, y[r])"

[[step]]
id = "both"
claim = "r + sum(r in 1..N, 0) >= 0"
"""
    steps = check_proof(parse_proof(captured.encode(), "captured.toml")).steps
    for step in steps[:2]:
        assert step.status == "refuted", (step.step.id, step.message)
        assert "T ==" not in str(step.statement) and "r >= 0" not in str(step.statement)
    # the free r outside the sum is a mention: its facts make r >= 0 provable
    assert steps[2].status == "proved", steps[2].message
    assert "r >= 0" in str(steps[2].statement)


def test_huge_literals_are_unknown_or_decided_never_a_traceback(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """Red-team finding: `1e400` overflowed the float screen and the float LP (untrusted
    searches); now the screen saturates and the LP strategies step aside (the true step is
    proved since the exact LP for extreme coefficients; its vacuity check's LP once raised
    SciPy's 'b_ub must not contain values inf': `linear_point` steps aside too)."""
    for given, claim, code in (([], "t >= 1e400", 1), (["t >= 1e400"], "t >= 1e399", 0)):
        path = tmp_path / "huge.toml"  # type: ignore[operator]
        path.write_text(HEADER + f"[[step]]\nid = \"s\"\ngiven = {given!r}\n"
                        f"claim = \"{claim}\"\n".replace("'", '"'))
        assert main(["check", str(path)]) == code
        assert "Traceback" not in capsys.readouterr().err


COUNTED = """
title = "a defined counter"
vectors = ["w", "x"]
scalars = ["t", "y", "s", "a", "n"]
naturals = ["t"]
[define]
DEFINE
[[step]]
id = "inv"
claim = "s >= 0"
[step.induction]
variable = "t"
base = BASE
step = STEP
"""


@pytest.mark.parametrize(("define", "base", "step", "problem"), [
    ('t = "max(a, 0)"', '{ s = "0" }', '{ s = "s + y**2" }',
     "induction: t counts the runs, but [define] gives it one value (t = max(a, 0))"),
    ('n = "norm(w)"', '{ n = "0", s = "0" }', '{ n = "n + 1", s = "s + n" }',
     "induction: n is updated, but [define] gives it one value (n = norm(w))"),
])
def test_a_defined_name_is_no_counter_nor_iterated(define: str, base: str, step: str,
                                                   problem: str) -> None:
    """Red team 8: a defined counter's definition was dropped, and a defined iterated name's
    facts became update facts that cut the runs to where it equals its definition; both
    proved without a word against the file's own declaration."""
    text = COUNTED.replace("DEFINE", define).replace("BASE", base).replace("STEP", step)
    with pytest.raises(ProofFileError) as raised:
        parse_proof(text.encode(), "counted.toml")
    assert problem in str(raised.value)


def test_a_clash_with_an_imported_copy_is_said_once() -> None:
    """Red team 8: a step id taken by an imported copy was said, then every use of that
    import as `which is not a step; did you mean ...` (it is one: the clash is the error)."""
    text = """
title = "import id collision"
vectors = ["w", "x"]
scalars = ["a", "t", "y", "R2"]
naturals = ["t"]
[imports]
cs = "canonical-online"
[[step]]
id = "cs--norm-growth"
given = ["a >= 5"]
claim = "a >= 4"
[[step]]
id = "u"
uses = ["cs/norm-growth"]
claim = "norm2(w) <= t*R2"
"""
    with pytest.raises(ProofFileError) as raised:
        parse_proof(text.encode(), "clash.toml")
    said = str(raised.value)
    assert "is taken by an imported step" in said and "not a step" not in said


ON_RUNS = """
title = "a norm on runs"
vectors = ["v", "z"]
scalars = ["k", "nv", "md", "Q"]
naturals = ["k"]

[numeric]
run = "online"
names = { v = "w", z = "u", k = "t", Q = "R2"BINDING }

[define]
nv = "norm(v)"
md = "max(0, Q - k)"

[[step]]
id = "cs"
given = ["norm2(z) == 1"]
claim = "dot(v, z) <= nv"

[[step]]
id = "hinge"
claim = "md >= Q - k"

[[step]]
id = "grows"
claim = "k >= 0"
"""


@pytest.mark.parametrize(("binding", "name", "definition"), [
    (', nv = "t*R2"', "nv", "norm(v)"), (', md = "R2"', "md", "max(0, Q - k)")])
def test_a_defined_name_is_never_bound_on_runs(binding: str, name: str,
                                               definition: str) -> None:
    """Red team 9: the audit advised binding a defined name in [numeric] names, and the
    binding it led to (`nv = "t*R2"` for `nv = norm(v)`) was accepted: the runs checked the
    steps under the defined name's name on another quantity, vacuous wherever it does not
    meet the defining facts. The binding is refused, one line placed at the entry."""
    with pytest.raises(ProofFileError) as caught:
        parse_proof(ON_RUNS.replace("BINDING", binding).encode(), "runs.toml")
    (line,) = caught.value.lines()
    assert line.startswith("runs.toml:9:") and f"numeric.names.{name} = " in line
    assert f"{name} is defined as {definition} ([define]) and keeps that meaning" in line
    assert line.endswith("remove it from [numeric] names")


def test_an_unbound_defined_name_is_explained_not_advised_to_be_bound(tmp_path: Path) -> None:
    """Red team 9: a step mentioning `nv = norm(v)` was not run 'nv is no quantity of an
    online run: bind it in [numeric] names'. A root is irrational in general, so no exact run
    holds it: the reason says so, names the definition, and advises no binding. `md =
    max(0, Q - k)`, exact on rationals, is evaluated on each row now (the step was not run,
    'the audit does not evaluate definitions on runs')."""
    from verify.api import audit_proofs

    proof = tmp_path / "runs.toml"
    proof.write_text(ON_RUNS.replace("BINDING", ""), encoding="utf-8")
    audit = audit_proofs(proof, budget="small")
    (audited,) = audit.proofs
    reasons = {s.step.id: s.reason for s in audited.steps}
    assert reasons["cs"] == (
        "nv is defined as norm(v) ([define]), a root, irrational in general, which no exact "
        "run can hold: the audit evaluates on runs only definitions exact on rationals (max, "
        "min of rational functions; a defined name is otherwise read only as a quantity the "
        "run offers under its name, and may not be bound in [numeric] names): checked "
        "symbolically only")
    assert all("bind" not in (r or "") for r in reasons.values())
    hinge = audited.steps[1].numeric
    assert hinge is not None and hinge.status == "held" and hinge.vacuous == 0
    assert audited.steps[2].numeric is not None  # the others are run as before


DEFINED_ON_RUNS = """
title = "definitions evaluated on runs"
vectors = ["v", "z"]
scalars = ["k", "Q", "big", "low", "nv", "mn"]
naturals = ["k"]

[numeric]
run = "online"
names = { v = "w", z = "u", k = "t", Q = "R2" }

[define]
big = "max(Q - k, k)"
low = "min(big, Q/(k + 1))"
nv = "norm(v)"
mn = "min(nv, 1)"

[[step]]
id = "above"
claim = "big >= k"

[[step]]
id = "below"
claim = "big <= k"

[[step]]
id = "nested"
claim = "low <= big"

[[step]]
id = "nested-false"
claim = "low >= big"

[[step]]
id = "root"
claim = "mn <= 1"
"""


def test_definitions_exact_on_rationals_are_evaluated_on_runs(tmp_path: Path) -> None:
    """A step reading a `max`/`min` definition (of a rational function, of another such
    definition) was not run: 'the audit does not evaluate definitions on runs'. Each row
    now holds its exact value: a true step holds on every row of the campaign (none vacuous:
    the defining facts hold there), a false one is violated on runs, its counterexample
    checked by the kernel and shown under the proof's name, at the value the definition
    has there. A definition reading a root is still not run, and says which root."""
    from verify.api import audit_proofs

    proof = tmp_path / "defined.toml"
    proof.write_text(DEFINED_ON_RUNS, encoding="utf-8")
    audit = audit_proofs(proof, budget="small")
    (audited,) = audit.proofs
    found = {s.step.id: s for s in audited.steps}
    for held in ("above", "nested"):
        numeric = found[held].numeric
        assert numeric is not None and numeric.status == "held", held
        assert numeric.instances > 100 and numeric.vacuous == 0, held
    for false in ("below", "nested-false"):
        numeric = found[false].numeric
        assert numeric is not None and numeric.status == "violated", false
        point = numeric.counterexample
        assert point is not None
        scalars = point.scalars  # in the proof's names: Q = "R2", k = "t"
        assert scalars["big"] == max(scalars["Q"] - scalars["k"], scalars["k"])
        if false == "nested-false":
            assert scalars["low"] == min(scalars["big"], scalars["Q"] / (scalars["k"] + 1))
    assert found["root"].numeric is None or found["root"].numeric.status == "not-run"
    assert found["root"].reason.startswith(
        "mn is defined as min(nv, 1) ([define]), which reads nv = norm(v), a root, "
        "irrational in general, which no exact run can hold")


def test_a_definition_is_one_column_per_meaning() -> None:
    """Two proofs may define one name two ways, checked on the same rows: each definition's
    column is named by the name and its meaning on runs, so one proof's column never
    answers for the other's, and the same definition is one column."""
    from verify.numeric.algorithms import naming

    texts = [DEFINED_ON_RUNS, DEFINED_ON_RUNS.replace("max(Q - k, k)", "max(Q, k)"),
             DEFINED_ON_RUNS.replace("[[step]]", "# a comment\n[[step]]", 1)]
    symbols = [naming(p.numeric, p).defined["big"].symbol
               for p in (parse_proof(t.encode(), "p.toml") for t in texts)]
    assert symbols[0] != symbols[1] and symbols[0] == symbols[2]


def test_a_scalar_defined_under_a_vectors_name_of_the_run_is_evaluated(tmp_path: Path) -> None:
    """Online runs offer a vector `d` (the update's direction): a proof's scalar `d =
    max(0, g - y*dot(z, x))` is no such quantity, so it is evaluated on the rows (it was
    taken for the run's `d` and left unbound, 'of the other sort')."""
    from verify.api import audit_proofs

    proof = tmp_path / "hinge.toml"
    proof.write_text(
        'title = "hinge"\nvectors = ["w", "x", "z"]\nscalars = ["y", "g", "d"]\n'
        '[numeric]\nrun = "online"\nnames = { z = "u", g = "gamma_u" }\n'
        '[define]\nd = "max(0, g - y*dot(z, x))"\n'
        '[[step]]\nid = "hinge"\nclaim = "d + y*dot(z, x) >= g"\n', encoding="utf-8")
    (audited,) = audit_proofs(proof, budget="small").proofs
    numeric = audited.steps[0].numeric
    assert numeric is not None and numeric.status == "held" and numeric.vacuous == 0


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
def test_a_definition_read_in_a_sets_filter_is_evaluated_on_runs(tmp_path: Path) -> None:
    """Red team 14 F1: `mm = max(t, 1)` read in a set's `where` left the step not run, 'the
    audit evaluates on runs only definitions exact on rationals', untrue of `max` (a step
    reading `mm` in a sum's body was run). The definition is evaluated inside the sum's
    filter as in a body: the false step is violated on runs, its counterexample at the
    definition's value there."""
    from verify.api import audit_proofs

    (tmp_path / "d.csv").write_text("x1,x2,y\n1,0,1\n0,1,-1\n2,1,1\n1,3,-1\n",
                                    encoding="utf-8")
    proof = tmp_path / "filter.toml"
    proof.write_text(
        'title = "filter"\nvectors = ["w", "x"]\nscalars = ["y", "N", "k", "t", "mm"]\n'
        'naturals = ["N", "t"]\nindexed = ["x", "y"]\n[numeric]\nrun = "online"\n'
        'names = { x = "X", y = "Y" }\ndata = ["d.csv"]\n[define]\nmm = "max(t, 1)"\n'
        '[sets]\nM = { index = "k", range = "1..N", where = ["k - mm <= 0"] }\n'
        '[[step]]\nid = "in-filter"\ngiven = ["N >= 1"]\nclaim = "sum(k in M, 1) <= 0"\n',
        encoding="utf-8")
    (audited,) = audit_proofs(proof, budget="small").proofs
    numeric = audited.steps[0].numeric
    assert numeric is not None and numeric.status == "violated"
    point = numeric.counterexample
    assert point is not None and point.scalars["mm"] == max(point.scalars["t"], 1)


@pytest.mark.parametrize(("define", "naturals"), [
    ('r = "sqrt(T)"', '["r"]'), ('r = "max(T, 0)"', '["n", "r"]')])
def test_a_defined_name_is_never_declared_natural(define: str, naturals: str) -> None:
    """Red team 12: `[define] r = "sqrt(T)"` with naturals = ["r"] was accepted, and
    `sum(j in 1..r, 1) == r` proved "for T" (false at T = 2 under the definition alone).
    A defined name has its definition's value: refused, one line at `naturals`."""
    text = (f'title = "T"\nscalars = ["T", "r", "n"]\nnaturals = {naturals}\n[define]\n'
            f'{define}\n[[step]]\nid = "s"\ngiven = ["T >= 0"]\n'
            'claim = "sum(j in 1..r, 1) == r"\n')
    with pytest.raises(ProofFileError) as caught:
        parse_proof(text.encode(), "nat.toml")
    (line,) = caught.value.lines()
    assert line.startswith("nat.toml:3:1: naturals: r is defined as ")
    assert line.endswith("which need not be a natural number; remove r from naturals or "
                         "from [define]")


DEFINES_R = ('title = "defs"\nscalars = ["a", "b", "r"]\n[define]\nr = "max(a, b)"\n'
             '[[step]]\nid = "rb"\nclaim = "r >= b"\n')


@pytest.mark.parametrize("declared", ['["a", "b"]', '["a", "b", "r"]'])
def test_a_name_an_import_defines_has_its_definition_in_the_importing_files_steps(
        tmp_path: Path, declared: str) -> None:
    """Regression (kernadv31 K1, a TRUE step refuted): `r` comes from an import that defines
    it as `max(a, b)`; the tool read it as defined (the proof's definitions, the refusal of a
    `with` replacing `a`), but the importing file's own steps got no defining facts, so
    `r >= a` was refuted at a = 1, r = 0, a point where r is not max(1, b). Names are shared
    as within one file: the own steps get the facts too (declared here or not)."""
    (tmp_path / "defs.toml").write_text(DEFINES_R, encoding="utf-8")
    text = (f'title = "main"\nscalars = {declared}\n[imports]\nd = "defs.toml"\n'
            '[[step]]\nid = "theirs"\nuses = ["d/rb"]\nclaim = "b <= b"\n'
            '[[step]]\nid = "mine"\nclaim = "r >= a"\n'
            '[[step]]\nid = "false"\nclaim = "r >= a + 1"\n')
    path = tmp_path / "main.toml"
    path.write_text(text, encoding="utf-8")
    report = check_proof(parse_proof(text.encode(), str(path)))
    mine = next(s for s in report.steps if s.step.id == "mine")
    assert mine.status == "proved"
    assert "r >= a" in [h.text for h in mine.step.hypotheses]
    assert next(s for s in report.steps if s.step.id == "false").status == "refuted"


def test_definitions_of_two_imports_that_read_each_other_are_refused(tmp_path: Path) -> None:
    """Regression (kernadv31 O3): `r = max(q, 0)` in one import (q plain there) and
    `q = max(r, 0)` in another (r plain there) were both adopted: a cycle neither file has,
    whose facts fix no value (`r == q` came out proved, true of the facts only)."""
    for name, (defined, other) in {"a": ("r", "q"), "b": ("q", "r")}.items():
        (tmp_path / f"{name}.toml").write_text(
            f'title = "{name}"\nscalars = ["r", "q"]\n[define]\n{defined} = "max({other}, 0)"\n'
            f'[[step]]\nid = "s"\nclaim = "{defined} >= {other}"\n', encoding="utf-8")
    text = ('title = "c"\nscalars = ["r", "q"]\n[imports]\na = "a.toml"\nb = "b.toml"\n'
            '[[step]]\nid = "both"\nuses = ["a/s", "b/s"]\nclaim = "r == q"\n')
    with pytest.raises(ProofFileError, match="reads itself through the definitions"):
        parse_proof(text.encode(), str(tmp_path / "c.toml"))
    one = text.replace('"a/s", "b/s"', '"a/s"').replace("r == q", "r >= 0")
    assert check_proof(parse_proof(one.encode(), str(tmp_path / "c.toml"))).steps[-1].status \
        == "proved"
