"""An induction refuted by one of its runs (rules.py `refute_run`): the run is given state
by state, and the kernel checks that it is a run the theorem speaks of (constants held, the
counter counting, the base and every update applied, the update facts, hypotheses, carried
invariants and one-update lemmas' claims holding) and that the invariant fails at its end.

Each rejection is an attack: a run that cheats on one of those points, against a statement
that is true (so a cheat accepted would refute a theorem). The property test makes honest
runs of a true induction and finds none of them refuting it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sequents import proved, rel, sequents
from hypothesis import given
from hypothesis import strategies as st

from verify import kernel
from verify.kernel import Counterexample, Induction, KernelError, Rel, Sequent, gram

t, y, B, n, s, c = (sympy.Symbol(v) for v in ("t", "y", "B", "n", "s", "c"))
WW, WX, XX = gram("w", "w"), gram("w", "x"), gram("x", "x")
sequent = sequents(frozenset({"w", "x", "v"}), frozenset({"t", "y", "B", "n", "s", "c"}))
ONE = sympy.Integer(1)
HALF = Fraction(1, 2)

UPDATE = (rel(y**2, "==", 1), rel(y * WX, "<=", 0), rel(XX, "<=", B))
RUNS = Induction("t", {"w": {}}, {"w": {"w": ONE, "x": y}}, UPDATE, frozenset({"B"}))
TRUE = rel(WW, "<=", t * B)  # Block-Novikoff's upper bound: an invariant of these runs
FALSE = rel(2 * WW, "<=", t * B)  # false after one update on an example of norm B


def induction(claim: Rel, rule: Induction = RUNS, hyps: tuple = (), uses: tuple = ()
              ) -> Sequent:
    return sequent(hyps, claim, rule, naturals=frozenset({"t"}), uses=uses, step="norm")


def state(k: int, w: tuple, x: tuple = (1,), yv: int = 1, b: Fraction = Fraction(1),
          **more: object) -> Counterexample:
    scalars = {"t": Fraction(k), "y": Fraction(yv), "B": b}
    scalars.update({n: v for n, v in more.items() if not isinstance(v, tuple)})
    vectors = {"w": tuple(map(Fraction, w)), "x": tuple(map(Fraction, x))}
    vectors.update({n: v for n, v in more.items() if isinstance(v, tuple)})
    return Counterexample(scalars, vectors)


def test_a_run_whose_last_state_breaks_the_invariant_refutes_it() -> None:
    refutation = kernel.refute_run(induction(FALSE), [state(0, (0,)), state(1, (1,))])
    assert refutation.label == "run" and len(refutation.run) == 2
    assert refutation.counterexample.vectors["w"] == (Fraction(1),)
    for point in (refutation.counterexample, *refutation.run):  # read-only, as `refute`'s
        with pytest.raises(TypeError, match="read-only"):
            point.vectors["w"] = (Fraction(0),)  # type: ignore[index]
    # pickled (an audit's workers send it) and read back by the kernel: the same run
    import pickle

    states = pickle.loads(pickle.dumps(refutation.run))
    assert kernel.refute_run(induction(FALSE), states).run == refutation.run


@pytest.mark.parametrize(("states", "why"), [
    ([], "its start state and at most"),
    ([state(0, (0,)), state(1, (1,), b=Fraction(2))], "holds constant changed"),
    ([state(0, (0,)), state(2, (1,))], "the counter t is not 1"),
    ([state(0, (1,)), state(1, (2,))], "w is not what the run makes of it"),  # not the base
    ([state(0, (0,)), state(1, (2,))], "w is not what the run makes of it"),  # not the update
    ([state(0, (0,)), state(1, (1,)), state(2, (2,))], "fails, and the run needs it"),  # y<w,x>>0
    ([state(0, (0,), x=(2,)), state(1, (2,), x=(2,))], "fails, and the run needs it"),  # |x|^2>B
    ([state(0, (0,), x=(HALF,)), state(1, (HALF,), x=(HALF,))], "holds at the run's last"),
    ([state(0, (0,))], "holds at the run's last state"),
], ids=["empty", "constant", "counter", "base", "update", "fact", "fact-norm", "holds", "start"])
def test_a_run_that_cheats_refutes_nothing(states: list, why: str) -> None:
    with pytest.raises(KernelError, match=why):
        kernel.refute_run(induction(FALSE), states)


def test_the_counter_is_natural_at_every_state() -> None:
    start = Counterexample({**state(0, (0,)).scalars, "t": Fraction(1, 2)}, state(0, (0,)).vectors)
    with pytest.raises(KernelError, match="t = 1/2 is not a natural number"):
        kernel.refute_run(induction(FALSE), [start, state(1, (1,))])
    claim = rel(WW + n, "<=", t * B)  # n is natural there, and a constant of the run
    bad = [state(0, (0,), n=Fraction(-1)), state(1, (1,), n=Fraction(-1))]
    with pytest.raises(KernelError, match="n = -1 is not a natural number"):
        kernel.refute_run(sequent((), claim, RUNS, naturals=frozenset({"t", "n"})), bad)


def test_a_run_is_at_most_max_run_updates_long() -> None:
    """Red team 22 F3: the kernel's work on a run is bounded by its length."""
    long = [state(k, (0,), x=(0,)) for k in range(kernel.rules.MAX_RUN + 2)]
    with pytest.raises(KernelError, match="at most 64 updates"):
        kernel.refute_run(induction(FALSE), long)


def test_a_name_is_a_vector_or_a_scalar_never_both() -> None:
    """Red team 22 F2: with `w` declared both ways, a scalar `w` that nothing updates could
    change between states, refuting a statement that holds while it is constant."""
    both = Sequent("norm", frozenset({"w", "x"}), frozenset({"t", "y", "B", "w"}), (), FALSE,
                   RUNS, naturals=frozenset({"t"}))
    with pytest.raises(kernel.RuleError, match="no name both kinds"):
        kernel.refute_run(both, [state(0, (0,)), state(1, (1,))])


def test_the_hypotheses_hold() -> None:
    seq = induction(FALSE, hyps=(rel(B, ">=", 2),))
    with pytest.raises(KernelError, match="`B >= 2` fails"):
        kernel.refute_run(seq, [state(0, (0,)), state(1, (1,))])


def test_an_induction_only_and_no_claim_that_holds_on_other_runs() -> None:
    with pytest.raises(KernelError, match="refutes only an induction"):
        kernel.refute_run(sequent((), FALSE), [state(0, (0,))])
    other = Induction("n", {"v": {}}, {"v": {"v": ONE, "x": y}}, UPDATE, frozenset({"B"}))
    elsewhere = kernel.statement(sequent((), rel(gram("v", "v"), ">=", 0), other,
                                         naturals=frozenset({"n"}), step="other"))
    seq = sequent((), FALSE, RUNS, naturals=frozenset({"t", "n"}), uses=(elsewhere,))
    with pytest.raises(KernelError, match="refutes only an induction"):
        kernel.refute_run(seq, [state(0, (0,)), state(1, (1,))])


def test_a_carried_invariant_holds_at_every_state() -> None:
    """The carried claim `<w,w> <= 0` (false on this run) is part of what the runs are."""
    carried = kernel.statement(induction(rel(WW, "<=", 0)))
    with pytest.raises(KernelError, match="fails, and the run needs it"):
        kernel.refute_run(induction(FALSE, uses=(carried,)), [state(0, (0,)), state(1, (1,))])


def test_a_base_counterexample_meets_the_carried_invariants_at_the_start() -> None:
    """Red team 29 F2: the statement over the runs "where at every state <w,w> >= 1" from
    w := 0 is about no run (the start breaks it), so it is true whatever it claims; its base
    was refuted at a point where the carried invariant fails at the start, a run of no update
    that is not one the statement speaks of. Where the carried invariant holds at the start,
    the base counterexample still refutes."""
    false_at_start = kernel.statement(induction(rel(WW, ">=", 1)))
    claim = rel(2 * WW, ">=", 1)  # false at the start w = 0
    with pytest.raises(KernelError, match="carried invariant"):
        kernel.refute(induction(claim, uses=(false_at_start,)), "base", state(0, (0,)))
    true_at_start = kernel.statement(induction(rel(WW, "<=", 0)))
    refuted = kernel.refute(induction(claim, uses=(true_at_start,)), "base", state(0, (0,)))
    assert refuted.label == "base"


def test_a_lemmas_claim_holds_at_every_update() -> None:
    """An unproved one-update lemma's claim (false here) is one of the update's facts."""
    lemma = kernel.statement(sequent(UPDATE, rel(WX, ">=", 1), step="lemma"))
    with pytest.raises(KernelError, match="fails, and the run needs it"):
        kernel.refute_run(induction(FALSE, uses=(lemma,)), [state(0, (0,)), state(1, (1,))])
    proved_lemma = proved(sequent(UPDATE, rel(WW + 2 * y * WX + y**2 * XX, "<=", WW + B),
                                  step="lemma"))
    kernel.refute_run(induction(FALSE, uses=(proved_lemma,)), [state(0, (0,)), state(1, (1,))])


def test_a_name_the_base_leaves_free_starts_anywhere_and_one_the_step_leaves_is_kept() -> None:
    """`s` counts from any start (not in the base), `v` starts at 0 and never moves: a run
    may start `s` anywhere but may not move `v`."""
    rule = Induction("t", {"w": {}, "v": {}}, {"w": {"w": ONE, "x": y}, "s": s + 1},
                     UPDATE, frozenset({"B"}))
    seq = induction(rel(s, "<=", t), rule)  # false from s = 5
    run = [state(0, (0,), s=Fraction(5), v=(0,)), state(1, (1,), s=Fraction(6), v=(0,))]
    assert kernel.refute_run(seq, run).label == "run"
    moved = [run[0], state(1, (1,), s=Fraction(6), v=(1,))]
    with pytest.raises(KernelError, match="v is not what the run makes of it"):
        kernel.refute_run(seq, moved)


EXAMPLE = st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.sampled_from([-1, 1]))


@given(examples=st.lists(EXAMPLE, min_size=1, max_size=6))
def test_no_honest_run_refutes_a_true_induction(examples: list) -> None:
    """Runs of the perceptron on any examples, as far as their update facts allow: the true
    invariant holds at every state, so the kernel refuses each as a refutation."""
    world_states = [Counterexample({"t": Fraction(0), "y": Fraction(1), "B": Fraction(18)},
                                   {"w": (Fraction(0), Fraction(0)), "x": (Fraction(0),) * 2})]
    for a, b, label in examples:
        last = world_states[-1]
        w = last.vectors["w"]
        x = (Fraction(a), Fraction(b))
        if label * (w[0] * x[0] + w[1] * x[1]) > 0:
            break
        here = Counterexample({**last.scalars, "y": Fraction(label)}, {"w": w, "x": x})
        world_states[-1] = here
        world_states.append(Counterexample(
            {**here.scalars, "t": here.scalars["t"] + 1},
            {"w": tuple(p + label * q for p, q in zip(w, x, strict=True)), "x": x}))
    for end in range(1, len(world_states) + 1):
        with pytest.raises(KernelError, match="holds at the run's last state"):
            kernel.refute_run(induction(TRUE), world_states[:end])
