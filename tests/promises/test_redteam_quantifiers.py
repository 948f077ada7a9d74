"""Red-team findings against the quantifier rules of issue 16 (scalar induction, instances,
existentials, carried invariants, split inductive steps) and the kernel's registry, each a
regression test now: what came out proved (or refuted) and why it was false (or true) is in
the comment above each test.
"""

from __future__ import annotations

import pytest

from proofs.proof_file import parse_proof
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


# Found while fixing the one above: the registry was a WeakSet, whose membership test compares
# weak references by their referents' `__eq__`, so an object equal to (and hashing like) a real
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
