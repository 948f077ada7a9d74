"""Red-team findings against the trusted kernel and its rules, each a regression test now:
what came out proved (or refuted, or crashed) and why that was wrong is in the comment above
each test. Two reviews, one module (tests/promises holds at most ten): the quantifier rules of
issue 16 (scalar induction, instances, existentials, carried invariants, split inductive steps)
and the kernel's registry first; then the review of the kernel through proof files that
followed, in which nothing false came out proved: tracebacks on bad input, and a divisor the
kernel read without its own divisions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.cli import main
from verify.proof_checker import ProofReport, check_proof


def check(text: str) -> ProofReport:
    return check_proof(parse_proof(text.encode(), "redteam.toml"))


def statuses(report: ProofReport) -> dict[str, str]:
    return {s.step.id: s.status for s in report.steps}


# A witnessed name leaks through one intermediate step. `some-b` proves "exists B: B >= 1";
# `middle` uses it legitimately (its own claim does not mention B), but its statement carries
# the hypothesis `B >= 1 [some-b]`, which any later step imports as `B >= 1 [middle]`: the
# existential check (`statement` in rules.py) only looks at the *direct* use of an existential
# statement, so `every-b` may read B freely. Its theorem is `B >= 1 [middle] |- B >= 1`; with
# the tagged hypothesis read as discharged by `middle` (as every tagged hypothesis is), that
# is "B >= 1 for every B", false at B = 0: exactly the reading
# test_soundness_regressions.test_an_existential_is_not_read_as_a_universal refuses one level
# up.
LEAK = """
title = "An existential eliminated through an intermediate step"
scalars = ["B", "a"]

[[step]]
id = "some-b"
claim = "B >= 1"
witness = { B = "1" }

[[step]]
id = "middle"
claim = "a*a >= 0"
uses = ["some-b"]

[[step]]
id = "every-b"
claim = "B >= 1"
uses = ["middle"]
"""


def test_an_existential_does_not_become_universal_through_an_intermediate_step() -> None:
    report = check(LEAK)
    assert statuses(report)["some-b"] == "proved" and statuses(report)["middle"] == "proved"
    assert statuses(report)["every-b"] != "proved"


# A true statement about runs is refuted. `nonneg` proves s >= 0 at every state of the run
# s_0 = 0, s_{t+1} = s_t + 2 (so s_t = 2t). `exact` uses it and claims s <= 2*t, which holds
# at every state of that run (the reading the kernel gives an induction's claim where it is
# used: "an induction's claim holds at run states only", rules.py on instances; issue 19: "a
# used induction brings its context"). The kernel marks the direct step's main obligation
# decisive and accepts the counterexample t = 0, s = 1, a point where s >= 0 holds but which
# no run reaches (s_0 = 0). The inductive step's obligation is not decisive for exactly this
# reason ("its counterexample need not be reachable"); a direct step that uses an induction's
# claim has the same unreachable points and is treated as decisive.
RUN_REFUTED = """
title = "A true claim about runs, refuted at an unreachable point"
scalars = ["t", "s"]
naturals = ["t"]

[[step]]
id = "nonneg"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + 2" }

[[step]]
id = "exact"
claim = "s <= 2*t"
uses = ["nonneg"]
"""


def test_a_claim_true_at_every_run_state_is_not_refuted() -> None:
    report = check(RUN_REFUTED)
    assert statuses(report)["nonneg"] == "proved"
    assert statuses(report)["exact"] != "refuted"


# A kernel-made Theorem can be mutated after the fact. `Statement.over` is the `Induction` the
# kernel built in `_frozen`, and its `base`/`step` are plain dicts: frozen dataclasses do not
# freeze what they hold. Rewriting `theorem.statement.over.base` makes the kernel's own
# Theorem for the run s := 0, s := s (invariant s == 0) match any other run in `_carried`,
# here s := 7, s := s, whose inductive step then assumes s == 0 at every state. The Theorem
# obtained says t*s == 0 at every state of the run that stays at s = 7: false at t = 1.
def _proved(seq: object, used: tuple = ()) -> object:
    from verify import kernel
    from verify.prover import decide

    found = [(ob.judgement, decide(ob.judgement).certificate) for ob in kernel.obligations(seq)]
    assert all(c is not None for _, c in found)
    return kernel.conclude(seq, found, used)


def test_a_theorem_cannot_be_mutated_into_the_invariant_of_other_runs() -> None:
    import sympy

    from verify.kernel import Induction, KernelError, Rel, Sequent

    s, t, zero, seven = sympy.Symbol("s"), sympy.Symbol("t"), sympy.Integer(0), sympy.Integer(7)
    names = frozenset({"s", "t"})
    still = Sequent("still", frozenset(), names, (), Rel(s, "==", zero, "s == 0"),
                    Induction("t", {"s": zero}, {"s": s}))
    theorem = _proved(still)
    try:
        theorem.statement.over.base["s"] = seven  # type: ignore[attr-defined]
    except (TypeError, AttributeError):
        return  # immutable: the attack stops here
    other = Sequent("seven", frozenset(), names, (), Rel(t * s, "==", zero, "t*s == 0"),
                    Induction("t", {"s": seven}, {"s": s}), (theorem.statement,),  # type: ignore[attr-defined]
                    frozenset({"t"}))
    with pytest.raises(KernelError):
        _proved(other, (theorem,))


# A kernel-made Theorem can be re-pointed at any statement: `_Made.__setattr__` refuses
# assignment, but `object.__setattr__` writes the slot directly, and `conclude` only asks that a
# used Theorem be in `_MADE` and carry the used statement. Here the Theorem of `|- x**2 >= 0`
# is made to carry `|- x >= 1` (false at x = 0) and serves as that statement's Theorem.
def test_a_made_theorem_cannot_be_re_pointed_at_another_statement() -> None:
    import sympy

    from verify import kernel
    from verify.kernel import KernelError, Rel, Sequent

    x, names = sympy.Symbol("x"), frozenset({"x"})
    theorem = _proved(Sequent("a", frozenset(), names, (),
                              Rel(x**2, ">=", sympy.Integer(0), "x**2 >= 0")))
    false = kernel.statement(Sequent("a", frozenset(), names, (),
                                     Rel(x, ">=", sympy.Integer(1), "x >= 1")))
    try:
        object.__setattr__(theorem, "statement", false)
    except (TypeError, AttributeError):
        return  # the slot cannot be written: the attack stops here
    use = Sequent("b", frozenset(), names, (), Rel(x, ">=", sympy.Integer(1), "x >= 1"),
                  uses=(false,))
    with pytest.raises(KernelError):
        _proved(use, (theorem,))


# Sort confusion through a declared name: `_names` accepts any str as a scalar, so a scalar may
# be named "<w,w>", which is also the Gram symbol norm2(w). Iterated as a scalar, it is shown
# as updated ("from <w,w> := -1, <w,w> := <w,w> - 1"), but `_substitute` sees a Gram symbol of
# the non-iterated vector w and never replaces it, so the base obligation is `|- <w,w> >= 0`,
# proved by a norm square. The Theorem says the iterated quantity, -1 at t = 0, is >= 0 at
# every state: false at t = 0. (Proof files cannot declare such a name; the kernel API can.)
def test_a_scalar_cannot_be_named_like_a_gram_symbol() -> None:
    import sympy

    from verify.kernel import Induction, KernelError, Rel, Sequent

    g = sympy.Symbol("<w,w>")
    seq = Sequent("gram", frozenset({"w"}), frozenset({"t", "<w,w>"}), (),
                  Rel(g, ">=", sympy.Integer(0), "norm2(w) >= 0"),
                  Induction("t", {"<w,w>": sympy.Integer(-1)}, {"<w,w>": g - 1}, (),
                            frozenset({"w"})))
    with pytest.raises(KernelError):
        _proved(seq)


# A Refutation keeps the caller's Counterexample object, whose `scalars`/`vectors` are plain
# dicts: after `refute` returns, the caller (or any code holding the object) can change it, and
# the kernel-made Refutation then carries a "counterexample" at which the claim holds. The
# verdict (refuted) stays right; the evidence it shows does not. Cosmetic, but a kernel-made
# value should not change under the kernel's feet.
def test_a_refutation_keeps_the_counterexample_it_checked() -> None:
    from fractions import Fraction

    import sympy

    from verify import kernel
    from verify.kernel import Counterexample, Rel, Sequent

    x = sympy.Symbol("x")
    seq = Sequent("a", frozenset(), frozenset({"x"}), (), Rel(x, ">=", sympy.Integer(1), "x >= 1"))
    cex = Counterexample({"x": Fraction(0)}, {})
    refutation = kernel.refute(seq, "main", cex)
    cex.scalars["x"] = Fraction(5)
    assert refutation.counterexample.scalars["x"] == 0


# A declared natural read only by an induction's base is dropped from the statement, then
# refuted at a non-natural value. `n` is declared natural; the run starts at s = n and adds 1,
# so s_t = n + t is a natural number and s*(s - 1) >= 0 holds at every state. `statement`
# keeps a declared natural only where the hypotheses or the claim read it (rules.py:
# `sequent.naturals & read(hyps, claim)`), so n loses "n in Nat", and `refute` checks only the
# statement's naturals: the base obligation `|- n*(n - 1) >= 0` is refuted at n = 1/2, which
# docs/proof-files.md forbids ("a counterexample must give every natural a natural value").
NATURAL_START = """
title = "A run from a natural start"
scalars = ["t", "s", "n"]
naturals = ["t", "n"]

[[step]]
id = "from-n"
claim = "s*(s - 1) >= 0"
[step.induction]
variable = "t"
constants = ["n"]
base = { s = "n" }
step = { s = "s + 1" }
"""


def test_a_natural_read_by_the_base_only_is_not_refuted_at_a_fraction() -> None:
    assert statuses(check(NATURAL_START))["from-n"] != "refuted"


# A malformed used Statement crashes the rules instead of being refused: `_frozen` checks only
# that each used step is a `Statement`, not what it holds, so `statement`/`obligations` read
# `.lhs` of an int or `.free_symbols` of a float (AttributeError, a traceback for an API
# caller). The kernel validates everything else it is given into exact types first.
@pytest.mark.parametrize("shape", ["int hypothesis", "str claim", "float in claim"])
def test_a_malformed_used_statement_is_refused_not_crashed(shape: str) -> None:
    import sympy

    from verify import kernel
    from verify.kernel import KernelError, Rel, Sequent, Statement

    x = sympy.Symbol("x")
    claim = Rel(x, ">=", sympy.Integer(0), "x >= 0")
    bad = {"int hypothesis": Statement("u", (1,), ("",), claim, frozenset()),  # type: ignore[arg-type]
           "str claim": Statement("u", (), (), "x >= 0", frozenset()),  # type: ignore[arg-type]
           "float in claim": Statement("u", (), (), Rel(x, ">=", 0.5, "x >= 1/2"),  # type: ignore[arg-type]
                                       frozenset())}[shape]
    with pytest.raises(KernelError):
        kernel.obligations(Sequent("s", frozenset(), frozenset({"x"}), (), claim, uses=(bad,)))


# A claim that divides by what the base (or a witness) sets to zero is left unknown with
# SymPy's internals as the reason: `_substitute` builds `1/0`, SymPy makes it ComplexInfinity,
# and `algebra.expr` then refuses "ComplexInfinity is not a SymPy core class". The verdict is
# right (not proved); the message should say the claim divides by zero there. Cosmetic.
ZERO_AT_BASE = """
title = "Division by zero at the base"
scalars = ["t", "s"]
naturals = ["t"]

[[step]]
id = "inverse"
claim = "1/s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + 1" }
"""


def test_a_division_by_zero_after_substitution_says_so() -> None:
    step = check(ZERO_AT_BASE).steps[0]
    assert step.status == "unknown"
    assert "ComplexInfinity" not in step.message and "zero" in step.message


# Found while fixing the registry: it was a WeakSet, whose membership test compares weak
# references by their referents' `__eq__`, so an object equal to (and hashing like) a real
# Theorem passed as "made by the kernel" while carrying any statement.
def test_an_object_that_equals_a_theorem_is_not_one() -> None:
    import sympy

    from verify import kernel
    from verify.kernel import KernelError, Rel, Sequent

    x, names = sympy.Symbol("x"), frozenset({"x"})
    real = _proved(Sequent("a", frozenset(), names, (),
                           Rel(x**2, ">=", sympy.Integer(0), "x**2 >= 0")))
    false = kernel.statement(Sequent("a", frozenset(), names, (),
                                     Rel(x, ">=", sympy.Integer(1), "x >= 1")))

    class Lookalike:
        statement = false
        __hash__ = real.__hash__

        def __eq__(self, other: object) -> bool:
            return True

    use = Sequent("b", frozenset(), names, (), Rel(x, ">=", sympy.Integer(1), "x >= 1"),
                  uses=(false,))
    with pytest.raises(KernelError, match="needs its own Theorem"):
        _proved(use, (Lookalike(),))


# -- the review through proof files ----------------------------------------------------------


def cli(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`novikoff check` on `text`, in process: the exit code and what it wrote on stderr."""
    path = tmp_path / "redteam.toml"
    path.write_text(text)
    code = main(["check", str(path)])
    return code, capsys.readouterr().err


# A definition's text was handed to Python's parser with no length limit (every expression
# has one, MAX_CHARS) and only SyntaxError/ValueError caught: `d = "-----...1"` (100 000
# minus signs, well inside the file cap) made `ast.parse` raise MemoryError, and
# `novikoff check` printed a traceback (proofs/definitions.py, `_facts`).
NESTED_DEFINITION = """
title = "A definition nested beyond the parser"
scalars = ["a", "d"]

[define]
d = "max(%s1, a)"

[[step]]
id = "s"
claim = "d >= a"
""" % ("-" * 100_000)


def test_a_huge_definition_is_one_line_exit_2(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, err = cli(NESTED_DEFINITION, tmp_path, capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "define: d" in err


# An induction's update facts (`given` under [step.induction]) were never checked at load for
# a division inside a divisor, which steps' own hypotheses are (`required`, proofs/step.py):
# the first to notice was `divisors` while the checker built the kernel's Rel, and its
# ExpressionError is no ProofFileError, so `novikoff check` printed a traceback.
NESTED_UPDATE_DIVISION = """
title = "An update fact that divides by a quotient"
scalars = ["t", "s", "a"]
naturals = ["t"]

[[step]]
id = "s"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + a" }
given = ["1/(1/a) > 0"]
"""


def test_an_update_fact_dividing_by_a_quotient_is_refused_at_load() -> None:
    with pytest.raises(ProofFileError, match="division inside the denominator"):
        parse_proof(NESTED_UPDATE_DIVISION.encode(), "redteam.toml")


def test_an_update_fact_dividing_by_a_quotient_is_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = cli(NESTED_UPDATE_DIVISION, tmp_path, capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


# An instance (`with`) that makes a used step's divisor zero: `inv` proves 1/a > 0 for a > 0,
# and `use` imports it with a := 0. `kernel.instance` substitutes (1/0 is SymPy's zoo) and the
# kernel refuses the used statement when it reads it (KernelError "divides by zero"), but
# `proof_checker.statements` caught only UseError and RuleError: a traceback before any step
# was checked. The used statement is undefined there, so `use` is unknown (never proved), and
# the message says why.
INSTANCE_AT_ZERO = """
title = "An instance that divides by zero"
scalars = ["a", "b"]

[[step]]
id = "inv"
given = ["a > 0"]
claim = "1/a > 0"

[[step]]
id = "use"
claim = "b*b >= 0"
uses = [{ step = "inv", with = { a = "0" } }]
"""


def test_an_instance_that_divides_by_zero_is_not_proved_and_no_traceback() -> None:
    report = check(INSTANCE_AT_ZERO)
    inv, use = report.steps
    assert inv.status == "proved"
    assert use.status == "unknown" and "zero" in use.message


# Not reachable from a proof file (the parser refuses a division inside a divisor, now in
# update facts too), but the kernel's own comment said it refused one and did so only for the
# bases of SymPy's negative powers: a Rel whose text divisor itself divides (`x/(1/y)`, read by
# SymPy as x*y, divisors (1/y,)) got no condition at all, so `|- x/(1/y) == x*y` was a
# one-obligation Theorem, also at y = 0 where its text is undefined. The divisor's own
# divisions are now divisors of the relation: here the side condition y > 0.
def test_a_text_divisor_that_divides_brings_its_own_divisor() -> None:
    import sympy

    from verify import kernel
    from verify.kernel import Fact, Rel, Sequent

    x, y = sympy.symbols("x y")
    claim = Rel(x * y, "==", x * y, "x/(1/y) == x*y", (1 / y,))
    goals = kernel.obligations(Sequent("nested", frozenset(), frozenset({"x", "y"}), (), claim))
    assert Fact(y, ">") in {g.judgement.claim for g in goals}
