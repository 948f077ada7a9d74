"""A statement about runs refuted at their start (rules.py `refute_start`, module doc
*Starts*): a step that imports an induction's claim speaks of the runs' states only, so a
point where its claim fails refutes it only if it is one; the start of every induction it
speaks of (each counter 0, each based name at its base, each carried invariant true) is the
state of the run of no update. Newcomers 27 F5 and 31 F4: such false steps stayed unknown.

Each rejection is an attack on a TRUE statement, or on a point that is no start: accepted,
it would refute a theorem, or a statement at a state no run reaches.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy
from cases.sequents import evidence, proved, rel, sequents
from hypothesis import given
from hypothesis import strategies as st

from verify import kernel
from verify.kernel import Counterexample, Induction, KernelError, Statement, gram

t, y, B, g, s, n = (sympy.Symbol(v) for v in ("t", "y", "B", "g", "s", "n"))
WW, WX, WU, UU, XX = (gram("w", "w"), gram("w", "x"), gram("w", "u"), gram("u", "u"),
                      gram("x", "x"))
sequent = sequents(frozenset({"w", "x", "u"}), frozenset({"t", "y", "B", "g", "s", "n"}))
ONE, NAT = sympy.Integer(1), frozenset({"t"})
RUNS = Induction("t", {"w": {}}, {"w": {"w": ONE, "x": y}},
                 (rel(y * WU, ">=", g),), frozenset({"u", "g"}))
PROGRESS = kernel.statement(sequent((), rel(WU, ">=", t * g), RUNS, naturals=NAT,
                                    step="progress"))  # true: <w,u> >= t*g on these runs


def using(hyps: tuple, claim: object, uses: tuple = (PROGRESS,), **more: object
          ) -> kernel.Sequent:
    return sequent(hyps, claim, naturals=NAT, uses=uses, step="using", **more)


def point(k: object = 0, w: tuple = (0,), u: tuple = (0,), gv: object = 1, **more: object
          ) -> Counterexample:
    scalars = {"t": Fraction(k), "g": Fraction(gv)}  # type: ignore[arg-type]
    scalars.update({m: Fraction(v) for m, v in more.items()})  # type: ignore[arg-type]
    return Counterexample(scalars, {"w": tuple(map(Fraction, w)), "u": tuple(map(Fraction, u))})


NONZERO_T0 = using((rel(g, ">", 0),), rel(WW * UU, ">=", g**2))  # newcomer 31 F4: false at w_0


def test_a_step_false_at_the_start_of_the_runs_it_uses_is_refuted_there() -> None:
    refutation = kernel.refute_start(NONZERO_T0, point())
    assert refutation.label == "start" and refutation.run == ()
    assert refutation.statement.starts == (("t", (("w", ()),), ()),)
    with pytest.raises(TypeError, match="read-only"):  # as `refute`'s: nobody changes it
        refutation.counterexample.scalars["t"] = Fraction(1)  # type: ignore[index]


def test_a_true_step_whose_hypotheses_exclude_the_start_is_not_refuted() -> None:
    """`t >= 1` excludes the start: the same claim is then true (newcomer 31's `nonzero`)."""
    with pytest.raises(KernelError, match="`t >= 1` fails"):
        kernel.refute_start(using((rel(g, ">", 0), rel(t, ">=", 1)), rel(WW * UU, ">=", g**2)),
                            point())


@pytest.mark.parametrize(("cex", "why"), [
    (point(1), "the counter t is not 0"),  # a state after one update: the point is none
    (point(w=(1,)), "w is not its base's value"),  # not w_0 = 0
    (point(gv=0), "`g > 0` fails"),  # a hypothesis of the step fails
    (point(w=(0, 0), u=(1, 0), gv=0), "`g > 0` fails"),
    (point(k=Fraction(1, 2)), "t = 1/2 is not a natural number"),
], ids=["counter", "base", "hypothesis", "dimension", "natural"])
def test_a_point_that_is_no_start_or_breaks_a_hypothesis_refutes_nothing(
        cex: Counterexample, why: str) -> None:
    with pytest.raises(KernelError, match=why):
        kernel.refute_start(NONZERO_T0, cex)


def test_the_imported_claim_must_hold_at_the_start() -> None:
    """An imported claim false at the start (`<w,u> >= 1` from w = 0) is a hypothesis no
    start meets: the step is true there, vacuously."""
    false_there = kernel.statement(sequent((), rel(WU, ">=", 1), RUNS, naturals=NAT,
                                           step="false-there"))
    with pytest.raises(KernelError, match="`<u,w> >= 1` fails"):
        kernel.refute_start(using((), rel(WW, ">=", 1), (false_there,)), point())


def test_a_claim_true_at_the_start_is_not_refuted() -> None:
    with pytest.raises(KernelError, match="holds at the start"):
        kernel.refute_start(using((), rel(WU, ">=", 0)), point())


def test_the_carried_invariants_of_a_used_induction_hold_at_its_start() -> None:
    """An induction carrying `<w,w> >= 1` speaks of runs where it holds at every state: w_0
    = 0 breaks it, so that start is none of its runs' (red team 29 F2, for a using step)."""
    carried = kernel.statement(sequent((), rel(WW, ">=", 1), RUNS, naturals=NAT, step="c"))
    carrying = kernel.statement(sequent((), rel(WU, ">=", t * g), RUNS, naturals=NAT,
                                        uses=(carried,), step="carrying"))
    assert ("t", (("w", ()),), (carried.claim,)) in carrying.starts  # its start: carried true
    with pytest.raises(KernelError, match="carried invariant `<w,w> >= 1` fails"):
        kernel.refute_start(using((), rel(WW, ">=", 1), (carrying,)), point())
    holds = kernel.statement(sequent((), rel(WW, ">=", 0), RUNS, naturals=NAT, step="c"))
    carrying = kernel.statement(sequent((), rel(WU, ">=", t * g), RUNS, naturals=NAT,
                                        uses=(holds,), step="carrying"))
    assert kernel.refute_start(using((), rel(WW, ">=", 1), (carrying,)), point()).label == "start"


def test_a_start_reached_through_a_used_step_and_a_scalar_base() -> None:
    """m2-square (newcomer 27 F5): the induction's claim comes through a used step, whose
    statement carries its start; a scalar base (`s := 2`) is met at the point, or refused."""
    runs = Induction("t", {"w": {}, "s": sympy.Integer(2)}, {"w": {"w": ONE, "x": y},
                                                             "s": s + 1}, (), frozenset())
    counted = kernel.statement(sequent((), rel(s, "==", t + 2), runs, naturals=NAT, step="c"))
    middle = kernel.statement(using((), rel(s, ">=", 2), (counted,)))
    assert middle.starts == counted.starts
    last = sequent((), rel(s + WW, ">=", 3), naturals=NAT, uses=(middle,), step="last")
    assert kernel.refute_start(last, point(s=2)).label == "start"
    with pytest.raises(KernelError, match="s is not its base's value"):
        kernel.refute_start(last, point(s=1))


def test_two_inductions_over_one_name_start_together_or_not_at_all() -> None:
    """Red team adv32b (A2): `progress` (counter t, w_0 = 0) and an induction over the same
    name w counted by s from w_0 = B*u. A point is the start of the runs a step about both
    speaks of only where it is the start of each: t = s = 0 and w at both bases, so
    B*u = 0. `<w,w> == 0` is true there (w = 0), so no such point refutes it, not even one
    at each counter 0 with w at one base only; `<w,w> >= 1` is false there and refuted."""
    shifted = Induction("s", {"w": {"u": B}}, {"w": {"w": ONE, "x": y}},
                        (rel(y * WU, ">=", g),), frozenset({"u", "g", "B"}))
    other = kernel.statement(sequent((), rel(WU, ">=", B * UU + s * g), shifted,
                                     naturals=frozenset({"s"}), step="other"))
    both = (PROGRESS, other)
    assert other.starts == (("s", (("w", (("u", B),)),), ()),)

    def at(w: int, u: int, bv: int) -> Counterexample:
        return point(w=(w,), u=(u,), gv=0, s=0, B=bv)

    true = sequent((), rel(WW, "==", 0), naturals=frozenset({"t", "s"}), uses=both, step="u")
    with pytest.raises(KernelError, match="w is not its base's value"):
        kernel.refute_start(true, at(1, 1, 1))  # w at other's base (B*u), not progress's
    with pytest.raises(KernelError, match="w is not its base's value"):
        kernel.refute_start(true, at(0, 1, 1))  # w at progress's base, not other's
    with pytest.raises(KernelError, match="holds at the start"):
        kernel.refute_start(true, at(0, 1, 0))  # the joint start: B*u = 0, w = 0
    false = sequent((), rel(WW, ">=", 1), naturals=frozenset({"t", "s"}), uses=both, step="f")
    assert kernel.refute_start(false, at(0, 1, 0)).label == "start"


def test_an_induction_is_refuted_at_its_own_start() -> None:
    """An induction's own start: its claim at counter 0 and its base (its base case)."""
    seq = sequent((), rel(WU, ">=", (t + 1) * g), RUNS, naturals=NAT, step="off-by-one")
    assert kernel.refute_start(seq, point()).label == "start"


def test_no_start_without_runs_with_an_instance_or_for_an_existential() -> None:
    """A statement about no run has no start (`refute` decides it); an instance of one
    importing a claim has unknown starts (the substitution may move a base's names); a point
    refutes no existential claim."""
    with pytest.raises(KernelError, match="whose starts are known"):
        kernel.refute_start(sequent((), rel(g, ">", 0)), point())
    moved = kernel.instance(kernel.statement(using((), rel(WW * UU, ">=", s))),
                            {"s": sympy.Integer(1)})
    assert moved.starts is None and kernel.statement(using((), rel(g, ">=", 0), (moved,))
                                                     ).starts is None
    with pytest.raises(KernelError, match="whose starts are known"):
        kernel.refute_start(using((), rel(WW, ">=", 1), (moved,)), point())
    some = using((), rel(n, ">=", 1), witness={"n": sympy.Integer(0)})
    with pytest.raises(KernelError, match="no existential"):
        kernel.refute_start(some, point(n=0))


def test_a_used_statement_about_runs_the_kernel_did_not_hand_out_has_unknown_starts() -> None:
    """A statement built outside the kernel is read again field by field; its starts, its
    maker's word, are not read: unknown when it speaks of runs, none when it does not."""
    built = Statement("built", PROGRESS.hypotheses, PROGRESS.origins, PROGRESS.claim,
                      PROGRESS.naturals, PROGRESS.run, over=PROGRESS.over, starts=[
                          ["t", (("w", ()),), []]])  # type: ignore[arg-type]
    assert kernel.statement(using((), rel(WW, ">=", 1), (built,))).starts is None
    assert kernel.statement(using((), rel(WW, ">=", 1), (PROGRESS,))).starts == PROGRESS.starts
    flag = Statement("built", (), (), PROGRESS.claim, NAT, runs=True, starts=(("t", ()),))
    assert kernel.statement(using((), rel(WW, ">=", 1), (flag,))).starts is None
    plain = Statement("built", (), (), rel(g, ">=", 0), frozenset(), starts=(("t", (), ()),))
    assert kernel.statement(using((), rel(WW, ">=", 1), (plain,))).starts == ()


OTHER = kernel.statement(sequent((), rel(s, ">=", 0), Induction("n", {"s": sympy.Integer(0)}, {
    "s": s + 1}), naturals=frozenset({"n"}), step="other"))  # true: s = n >= 0 on its runs


def test_a_used_statement_that_leaves_out_its_start_refutes_no_true_step() -> None:
    """Red team adv32b O1 (kern33): `progress` as a caller rebuilds it with `starts=()`
    left its start out, so a point at `other`'s start alone, w = 1 there, refuted the TRUE
    `t <= 0 |- <w,w> <= 0` (t = 0 on progress's runs, where w = w_0 = 0): a theorem refuted.
    Its starts are now unknown, so no start refutes the step; with `progress` as the kernel
    handed it out, w = 1 is no start."""
    fake = dataclasses.replace(PROGRESS, starts=())
    cex = point(0, w=(1,), n=0, s=0)
    for uses, why in [((fake, OTHER), "whose starts are known"),
                      ((PROGRESS, OTHER), "w is not its base's value")]:
        step = sequent((rel(t, "<=", 0),), rel(WW, "<=", 0), naturals=frozenset({"t", "n"}),
                       uses=uses, step="x")
        with pytest.raises(KernelError, match=why):
            kernel.refute_start(step, cex)


@given(gv=st.integers(1, 4), u=st.integers(-3, 3), x=st.integers(-3, 3), yv=st.sampled_from(
    [-1, 1]))
def test_no_start_refutes_a_true_step(gv: int, u: int, x: int, yv: int) -> None:
    """`<w,u> >= t*g` and `g > 0` give `<w,u> >= 0`: true at every state, so no start
    point refutes it, whatever the other names."""
    true = using((rel(g, ">", 0),), rel(WU, ">=", 0))
    cex = Counterexample({"t": Fraction(0), "g": Fraction(gv), "y": Fraction(yv)},
                         {"w": (Fraction(0),), "u": (Fraction(u),), "x": (Fraction(x),)})
    with pytest.raises(KernelError, match="holds at the start"):
        kernel.refute_start(true, cex)


def test_a_callers_universal_copy_of_an_induction_claim_refutes_only_its_universal_reading(
        ) -> None:
    """kern33's open end, settled (kern35): a Statement a caller builds is taken at its word
    for all but its starts. Stripped of its runs (`run`, `over`, `runs`), progress's claim
    `<w,u> >= t*g` is a universal fact, and a step using it is refuted at a point no run
    reaches (w = 1 at t = 0). What is refuted is the statement the refutation carries:
    about no run (`runs` False), that universal claim among its hypotheses, all of them true
    at the point and its claim false: a false statement. With progress as the kernel handed
    it out, the same step is true (at t = 0, w = w_0 = 0): no obligation is decisive and the
    point is no start. Nor does such a copy prove anything: `conclude` wants, for each used
    statement, a Theorem whose own statement it is."""
    universal = dataclasses.replace(PROGRESS, run="", over=None, runs=False, starts=())
    step, honest = (using((rel(t, "<=", 0),), rel(WW, "<=", 0), (u,)) for u in (
        universal, PROGRESS))
    cex = point(0, w=(1,), u=(0,))
    refuted = kernel.refute(step, "main", cex).statement
    assert not refuted.runs and refuted.run == "" and refuted.starts == ()
    assert universal.claim in refuted.hypotheses  # as a hypothesis, shown with its origin
    assert f"{universal.claim.text} [progress]" in str(refuted)
    with pytest.raises(KernelError, match="no decisive obligation"):
        kernel.refute(honest, "main", cex)
    with pytest.raises(KernelError, match="w is not its base's value"):
        kernel.refute_start(honest, cex)
    runs = dataclasses.replace(RUNS, update=(rel(y * gram("x", "u"), ">=", g),))
    theorem = proved(sequent((), rel(WU, ">=", t * g), runs, naturals=NAT, step="progress"))
    copy = dataclasses.replace(theorem.statement, run="", over=None, runs=False, starts=())
    weaker, kept = (using((rel(g, ">=", 0),), rel(WU, ">=", 0), (u,)) for u in (
        copy, theorem))
    with pytest.raises(KernelError, match="needs its own Theorem"):
        kernel.conclude(weaker, evidence(weaker), [theorem])
    assert kernel.conclude(kept, evidence(kept), [theorem]).statement.runs
