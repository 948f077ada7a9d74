"""Attacks on the kernel from an adversarial review, each a regression test now.

Each test asserts the correct behaviour; each failed on the kernel it was written against
(snapshot f787ebf) and passes since the fixes. Proof-file attacks first (anyone can run them
with `novikoff check`), then attacks that need Python-level access to the kernel API.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
import sympy

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import (
    Certificate,
    Direct,
    Fact,
    Induction,
    Judgement,
    KernelError,
    Product,
    Rel,
    Sequent,
    gram,
)
from verify.proof_checker import check_proof
from verify.prover import decide

ROOT = Path(__file__).resolve().parents[2]


def statuses(text: str) -> dict[str, str] | None:
    """Each step's status, or None when the file is refused as bad input (also acceptable)."""
    try:
        proof = parse_proof(text.encode(), "redteam.toml")
        report = check_proof(proof)
    except ProofFileError:
        return None
    return {s.step.id: s.status for s in report.steps}


# -- 1. a TRUE induction refuted: a hypothesis that mentions the iteration through a divisor --
#
# rules._run checks that the step's hypotheses H do not mention the counter or an iterated
# vector with `_mentions`, which reads only `lhs`/`rhs`, never `Rel.divisors`. A hypothesis
# `norm2(w)/norm2(w) == 1` (SymPy cancels it to `1 == 1`) passes, yet it says "w != 0", i.e. it
# mentions w. The base obligation then keeps H unsubstituted (H is assumed free of t and W)
# while the claim is read at t = 0, w = 0; `refute` accepts the point w = (1), where H holds
# but the run's w_0 = 0 is not w. The statement is true: norm2(w_t) > 0 wherever w_t != 0.

DIVISOR_MENTIONS_ITERATE = """
title = "a nonzero iterate has a positive norm"
vectors = ["w", "x"]
scalars = ["t", "y"]
naturals = ["t"]

[[step]]
id = "positive"
given = ["norm2(w)/norm2(w) == 1"]
claim = "norm2(w) > 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
"""

# Same hole through the counter: `t/t == 1` says t != 0, and for natural t != 0, t >= 1.
DIVISOR_MENTIONS_COUNTER = """
title = "t is at least one wherever t is nonzero"
scalars = ["t"]
naturals = ["t"]

[[step]]
id = "positive"
given = ["t/t == 1"]
claim = "t >= 1"
[step.induction]
variable = "t"
base = {}
step = {}
"""


@pytest.mark.parametrize("text", [DIVISOR_MENTIONS_ITERATE, DIVISOR_MENTIONS_COUNTER],
                         ids=["iterate", "counter"])
def test_hypothesis_dividing_by_the_iteration_never_refutes_a_true_induction(text: str) -> None:
    found = statuses(text)
    assert found is None or found["positive"] != "refuted", found


# -- 2. traceback: the induction substitution makes a divisor zero ----------------------------
#
# rules._substitute xreplaces t -> 0 (base) or the update into the claim; `1/t` becomes SymPy's
# `zoo`, and algebra.fold raises a bare KernelError from kernel.obligations, which
# proof_checker.check_step does not catch (it catches UseError and RuleError only): the CLI
# prints a traceback. The claim is undefined at t = 0, so refused or unknown is right.

ZOO_BASE = """
title = "reciprocal of the counter"
scalars = ["t"]

[[step]]
id = "zoo"
claim = "1/t >= 0"
[step.induction]
variable = "t"
base = {}
step = {}
"""

ZOO_STEP = """
title = "reciprocal of an iterate that the update zeroes"
vectors = ["w", "u"]
scalars = ["t"]

[[step]]
id = "zoo"
given = ["norm2(u) >= 1"]
claim = "1/norm2(w) > 0"
[step.induction]
variable = "t"
base = { w = "u" }
step = { w = "0*w" }
"""


@pytest.mark.parametrize("text", [ZOO_BASE, ZOO_STEP], ids=["base", "step"])
def test_a_divisor_that_the_substitution_zeroes_is_no_traceback(text: str) -> None:
    found = statuses(text)  # raises KernelError today
    assert found is None or found["zoo"] == "unknown", found


def test_a_divisor_that_the_substitution_zeroes_is_one_line_exit_2_or_unknown(
        tmp_path: Path) -> None:
    path = tmp_path / "zoo.toml"
    path.write_text(ZOO_BASE)
    done = subprocess.run([sys.executable, "-m", "verify", "check", str(path), "--time-limit",
                           "3"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (1, 2)


# -- 3. hangs: work in the kernel's normal form is unbounded ----------------------------------
#
# algebra.normal_form computes `lhs - rhs` in the field QQ(symbols) before any budget applies
# (kernel.obligations runs outside the prover's time limit). Both files pass the frontend's
# size limits (degree <= 32, <= 20000 terms, as written) and hang `novikoff check` for minutes:
# (a) eight `1/(a+-b+-c+-d)**16` terms: the common denominator has degree 128 and SymPy's
#     multivariate gcd runs for minutes; (b) the induction step substitutes w -> w+a+b+c+d into
#     `norm2(w)**16`: a 15-term polynomial to the 16th power, ~1.4e8 monomials.
# The subprocess timeout is only a guard so the suite cannot hang: the expected behaviour is a
# prompt refusal (exit 2, one line) or an unknown verdict under a work budget.

HANG_DENOMINATORS = """
title = "many high-power denominators"
scalars = ["a", "b", "c", "d"]

[[step]]
id = "h"
given = ["a > 0"]
claim = "{claim}"
""".format(claim=" + ".join(f"1/(a{s}b{u}c{v}d)**16" for s in "+-" for u in "+-"
                             for v in "+-") + " >= 0")

HANG_SUBSTITUTION = """
title = "substitution blow-up"
vectors = ["w", "a", "b", "c", "d"]
scalars = ["t"]

[[step]]
id = "blow"
claim = "norm2(w)**16 >= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + a + b + c + d" }
constants = ["a", "b", "c", "d"]
"""

GUARD_SECONDS = 60


@pytest.mark.parametrize("text", [HANG_DENOMINATORS, HANG_SUBSTITUTION],
                         ids=["denominators", "substitution"])
def test_kernel_normal_form_work_is_bounded(text: str, tmp_path: Path) -> None:
    path = tmp_path / "hang.toml"
    path.write_text(text)
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", f"ulimit -v 3000000; exec {sys.executable} -m verify check "
             f"{path} --time-limit 3"],
            capture_output=True, text=True, cwd=ROOT, timeout=GUARD_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"novikoff check did not finish within {GUARD_SECONDS}s (kernel hang)")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (1, 2)


# -- 4. display: a statement shown in other letters than those the kernel checked -------------
#
# Python's parser NFKC-normalises identifiers, so `ｙ*ｘ**2` (fullwidth) is read as y*x**2, while
# the statement shown keeps the text: "y >= 0 |- ｙ*ｘ**2 >= 0*x". Declared names must be ASCII
# identifiers (proofs.step.IDENTIFIER); the expression language should refuse the others.

FULLWIDTH = """
title = "fullwidth names"
scalars = ["x", "y"]

[[step]]
id = "s"
given = ["y >= 0"]
claim = "ｙ*ｘ**2 >= 0*x"
"""


def test_non_ascii_names_are_refused() -> None:
    with pytest.raises(ProofFileError):
        parse_proof(FULLWIDTH.encode(), "fullwidth.toml")


# -- 5. Python-level: a Theorem with a false statement -----------------------------------------

x = sympy.Symbol("x")


class _Liar(sympy.Add):
    """Folds as 1 + 0 but equals anything; its `__module__` passes algebra.expr's check,
    which tests `type(node).__module__.startswith("sympy.core.")`, not the class itself."""

    __module__ = "sympy.core.add"

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = sympy.Add.__hash__


def test_an_expression_class_that_claims_a_sympy_module_is_refused() -> None:
    seq = Sequent("s", frozenset(), frozenset({"x"}), (),
                  Rel(x, ">=", sympy.Integer(1), "x >= 1"), Direct())  # false at x = 0
    liar = _Liar(sympy.Integer(1), sympy.Integer(0), evaluate=False)
    evidence = [(Judgement((), Fact(liar, ">=")), Certificate((Product(1),)))]
    with pytest.raises(KernelError):
        kernel.conclude(seq, evidence, [])


class _Flip(Mapping[str, Mapping[str, sympy.Expr]]):
    """An induction base that reads `w := 0` the first time and `w := u` afterwards: the
    kernel reads `Induction.base` once for the Statement and again for the obligations."""

    def __init__(self) -> None:
        self.reads = 0

    def __getitem__(self, key: str) -> Mapping[str, sympy.Expr]:
        if key != "w":
            raise KeyError(key)
        self.reads += 1
        return {} if self.reads == 1 else {"u": sympy.Integer(1)}

    def __iter__(self) -> Iterator[str]:
        return iter(["w"])

    def __len__(self) -> int:
        return 1


def _stays(base: Mapping[str, Mapping[str, sympy.Expr]]) -> Sequent:
    ww, uu = gram("w", "w"), gram("u", "u")
    return Sequent("s", frozenset({"w", "u"}), frozenset({"t"}),
                   (Rel(uu, ">=", sympy.Integer(1), "norm2(u) >= 1"),),
                   Rel(ww, ">=", sympy.Integer(1), "norm2(w) >= 1"),
                   Induction("t", base, {"w": {"w": sympy.Integer(1)}}))


def test_the_statement_of_a_theorem_is_the_one_checked() -> None:
    honest = _stays({"w": {"u": sympy.Integer(1)}})
    evidence = []
    for ob in kernel.obligations(honest):
        verdict = decide(ob.judgement)
        assert verdict.certificate is not None, verdict.message
        evidence.append((ob.judgement, verdict.certificate))
    try:
        theorem = kernel.conclude(_stays(_Flip()), evidence, [])
    except KernelError:
        return  # refused: fine
    # "from w := 0, w := w at each update: norm2(u) >= 1 |- norm2(w) >= 1" is false (w_t = 0)
    assert "w := u" in theorem.statement.run, str(theorem.statement)


def test_a_theorem_made_without_the_kernel_is_not_accepted_as_a_used_step() -> None:
    used = kernel.statement(Sequent("a", frozenset(), frozenset({"x"}), (),
                                    Rel(x, ">=", sympy.Integer(1), "x >= 1")))
    forged = object.__new__(kernel.Theorem)
    object.__setattr__(forged, "statement", used)
    seq = Sequent("b", frozenset(), frozenset({"x"}), (),
                  Rel(x, ">=", sympy.Integer(1), "x >= 1"), uses=(used,))
    evidence = []
    for ob in kernel.obligations(seq):
        verdict = decide(ob.judgement)
        assert verdict.certificate is not None, verdict.message
        evidence.append((ob.judgement, verdict.certificate))
    with pytest.raises(KernelError):
        kernel.conclude(seq, evidence, [forged])
