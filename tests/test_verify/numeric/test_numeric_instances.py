"""Exact numeric evaluation of judgements: values, verdicts, overflow guard, shrinking."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy
from cases.steps import CASES, Case, judgement_of
from hypothesis import given
from hypothesis import strategies as st

from proofs.language.terms import Vec, dot, norm2, scalar
from verify.kernel import Fact, Judgement
from verify.numeric.campaign import canonical_checks, wrong_norm_growth
from verify.numeric.instances import (
    FIRST,
    CompiledJudgement,
    CompiledPolynomial,
    Shrinker,
    check,
    check_in_slices,
)
from verify.runs.columns import (
    Column,
    Instance,
    InstanceBatch,
    Origin,
    VectorColumn,
    cached_property,
    gram_column,
    max_abs,
)

W, X, U = Vec.named("w"), Vec.named("x"), Vec.named("u")
Y, T, R2 = scalar("y"), scalar("t"), scalar("R2")

rationals = st.fractions(min_value=-50, max_value=50, max_denominator=9)
huge = st.integers(-(10**15), 10**15).map(Fraction)


def batch_of(instances: list[Instance]) -> InstanceBatch:
    return InstanceBatch.from_instances(instances, Origin("test", 7, "unit"))


def exact_value(expr: sympy.Expr, inst: Instance) -> Fraction:
    """The reference: substitute into the SymPy expression (Gram symbols as exact dots)."""
    subs = {}
    for s in expr.free_symbols:
        name = s.name
        if name.startswith("<"):
            a, b = name[1:-1].split(",")
            subs[s] = sympy.Rational(sum((p * q for p, q in zip(inst.vectors[a],
                                                                 inst.vectors[b],
                                                                 strict=True)),
                                         Fraction(0)))
        else:
            subs[s] = sympy.Rational(inst.scalars[name])
    value = sympy.Rational(expr.xreplace(subs))
    return Fraction(int(value.p), int(value.q))


EXPR = (norm2(W) + R2 - norm2(W + X.scaled(Y))) * T / 3 + Y**3 * dot(W, U) - sympy.Rational(5, 7)


@pytest.mark.parametrize("values", [rationals, huge], ids=["rationals", "beyond-int64"])
def test_compiled_polynomial_matches_exact_substitution(values: st.SearchStrategy) -> None:
    @given(st.lists(st.tuples(values, values, values,
                              st.lists(st.tuples(values, values, values), min_size=1,
                                       max_size=4)), min_size=1, max_size=6))
    def run(rows: list) -> None:
        instances = [
            Instance({"y": y, "t": t, "R2": r2},
                     {"w": tuple(c[0] for c in cs), "x": tuple(c[1] for c in cs),
                      "u": tuple(c[2] for c in cs)})
            for y, t, r2, cs in rows
        ]
        dim = max(len(i.vectors["w"]) for i in instances)
        instances = [Instance(i.scalars, {k: v + (Fraction(0),) * (dim - len(v))
                                          for k, v in i.vectors.items()}) for i in instances]
        num, den = CompiledPolynomial.compile(EXPR).evaluate(batch_of(instances))
        for k, inst in enumerate(instances):
            assert Fraction(int(num[k]), den) == exact_value(EXPR, inst)

    run()


def test_int64_is_used_only_under_a_bound() -> None:
    small = batch_of([Instance({"t": Fraction(3)}, {"w": (Fraction(2), Fraction(-5))})])
    num, _ = CompiledPolynomial.compile(T * norm2(W)).evaluate(small)
    assert num.dtype == np.int64 and int(num[0]) == 87
    big = 3 * 10**9  # squared and summed: 1.8e19 > 2^63
    batch = batch_of([Instance({"t": Fraction(1)}, {"w": (Fraction(big), Fraction(big))})])
    num, _ = CompiledPolynomial.compile(T * norm2(W)).evaluate(batch)
    assert num.dtype == object and int(num[0]) == 2 * big * big


def test_gram_column_is_exact_with_fractions_and_padding() -> None:
    a = VectorColumn.of([(Fraction(1, 2), Fraction(1, 3)), (Fraction(2),)])
    b = VectorColumn.of([(Fraction(4), Fraction(3)), (Fraction(1, 5), Fraction(7))])
    g = gram_column(a, b)
    assert [g.value(0), g.value(1)] == [Fraction(3), Fraction(2, 5)]


def test_columns_concatenate_over_a_common_denominator() -> None:
    one = batch_of([Instance({"t": Fraction(1, 2)}, {"w": (Fraction(1),)})])
    two = batch_of([Instance({"t": Fraction(2, 3)}, {"w": (Fraction(1, 5), Fraction(1))})])
    both = InstanceBatch.concat([one, two])
    assert [both.scalars["t"].value(i) for i in range(2)] == [Fraction(1, 2), Fraction(2, 3)]
    assert both.vectors["w"].row(0) == (Fraction(1), Fraction(0))
    assert both.provenance(1).origin.dataset == "unit"


def test_verdict_counts_vacuous_violations_and_exact_min_slack() -> None:
    judgement = Judgement((Fact(T, ">="),), Fact(T - sympy.Rational(1, 3), ">="), (), ("t",))
    values = [Fraction(-1), Fraction(1, 2), Fraction(1, 3), Fraction(0), Fraction(5)]
    verdict = check(judgement, [batch_of([Instance({"t": v}, {}) for v in values])])
    assert (verdict.status, verdict.instances, verdict.vacuous, verdict.violations) == (
        "violated", 5, 1, 1)
    assert verdict.min_slack == Fraction(-1, 3)
    assert verdict.counterexample is not None
    assert verdict.counterexample.scalars == {"t": Fraction(0)}
    assert verdict.counterexample.provenance is not None
    assert verdict.counterexample.provenance.iteration == 3


def test_all_vacuous_is_not_run_and_equations_report_zero_slack() -> None:
    vacuous = Judgement((Fact(T, ">"),), Fact(-T, ">="), (), ("t",))
    zero = batch_of([Instance({"t": Fraction(0)}, {})])
    assert check(vacuous, [zero]).status == "not-run"
    equation = Judgement((), Fact(T * (T - 1), "=="), (), ("t",))
    held = check(equation, [batch_of([Instance({"t": Fraction(v)}, {}) for v in (0, 1)])])
    assert (held.status, held.min_slack) == ("held", 0)


def test_strict_claims_fail_at_equality() -> None:
    strict = Judgement((), Fact(norm2(W), ">"), ("w",), ())
    verdict = check(strict, [batch_of([Instance({}, {"w": (Fraction(0), Fraction(0))})])])
    assert verdict.status == "violated"


def test_missing_binding_is_a_clear_error() -> None:
    judgement = Judgement((), Fact(dot(W, U), ">="), ("w", "u"), ())
    with pytest.raises(KeyError, match="no vector 'u'"):
        check(judgement, [batch_of([Instance({}, {"w": (Fraction(1),)})])])


def test_canonical_steps_never_fail_on_small_integer_instances() -> None:
    """Exhaustive: every integer instance of size <= 1 in dimension 1..3, for the steps that
    are theorems on their own (the invariants and the update rule are facts about runs)."""
    for c in canonical_checks():
        if c.name not in ("norm-growth", "final-bound"):
            continue
        assert Shrinker(CompiledJudgement.compile(c.judgement), max_magnitude=1).search() is None


def test_wrong_step_shrinks_to_a_minimal_counterexample() -> None:
    wrong = CompiledJudgement.compile(wrong_norm_growth().judgement)
    found = Shrinker(wrong).shrink()
    assert found is not None and wrong.is_counterexample(found)
    # Minimal: dimension 1, entries in {0, 1}, w = 0 and x = y = R2 = 1 (a first update).
    assert found.size == (1, 1, 1)
    assert found.vectors == {"w": (Fraction(0),), "x": (Fraction(1),)}
    assert found.scalars == {"R2": Fraction(1), "y": Fraction(1)}


def test_greedy_shrinking_keeps_a_counterexample_and_simplifies_it() -> None:
    """A violation that needs a fraction: the integer search cannot find it, greedy can."""
    judgement = Judgement((Fact(T, ">"), Fact(1 - 2 * T, ">")), Fact(-T, ">="), (), ("t",))
    compiled = CompiledJudgement.compile(judgement)
    start = Instance({"t": Fraction(37, 97)}, {})
    assert compiled.is_counterexample(start)
    shrinker = Shrinker(compiled)
    assert shrinker.search() is None
    found = shrinker.shrink(start)
    assert found is not None and compiled.is_counterexample(found)
    assert found.size < start.size


def test_int64_columns_from_large_rows_fall_back_to_object() -> None:
    col = Column.of([2**70, 1])
    assert col.num.dtype == object and col.value(0) == 2**70
    vec = VectorColumn.of([(Fraction(2**64),)])
    assert vec.num.dtype == object and vec.row(0) == (Fraction(2**64),)


@pytest.mark.parametrize("case", [c for c in CASES if c.expected == "proved"], ids=lambda c: c.id)
def test_no_true_step_of_the_case_table_fails_on_small_integer_instances(case: Case) -> None:
    """The shared step table, numerically: a step the prover must prove has no counterexample
    among the integer instances in [-2, 2] of dimension 1 and 2 (the exhaustive search)."""
    compiled = CompiledJudgement.compile(judgement_of(case))
    assert Shrinker(compiled, max_dim=2, max_magnitude=2, budget=50_000).search() is None


entries = st.one_of(st.integers(-9, 9), st.integers(-(2**70), 2**70))


@given(st.data())
def test_gram_of_taken_columns_equals_row_by_row_products(data: st.DataObject) -> None:
    """Law: a Gram column computed on the columns rows were taken from (each distinct
    product once) equals the row-by-row products of the taken rows: same integers, same
    denominator, and int64 exactly when every value fits."""
    dim = data.draw(st.integers(0, 4))
    vectors = st.lists(st.lists(entries, min_size=dim, max_size=dim), min_size=1, max_size=5)
    a_rows, b_rows = data.draw(vectors), data.draw(vectors)
    den_a, den_b = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))
    base_a = VectorColumn.of([[Fraction(v, den_a) for v in r] for r in a_rows], dim)
    base_b = VectorColumn.of([[Fraction(v, den_b) for v in r] for r in b_rows], dim)
    n = data.draw(st.integers(0, 12))
    pick_a = np.array(data.draw(st.lists(st.integers(0, len(a_rows) - 1), min_size=n,
                                         max_size=n)), dtype=np.intp)
    same = data.draw(st.booleans()) and len(a_rows) == len(b_rows)
    pick_b = pick_a if same else np.array(data.draw(st.lists(
        st.integers(0, len(b_rows) - 1), min_size=n, max_size=n)), dtype=np.intp)
    a, b = base_a.take(pick_a), base_b.take(pick_b)
    if data.draw(st.booleans()):
        b = VectorColumn.constant(base_b.row(0), n)
    plain_a, plain_b = VectorColumn(a.num, a.den), VectorColumn(b.num, b.den)  # no source
    expected = gram_column(plain_a, plain_b)
    got = gram_column(a, b)
    assert got.den == expected.den
    assert got.num.dtype == expected.num.dtype
    assert [int(v) for v in got.num] == [int(v) for v in expected.num]
    assert got.num.tolist() == [sum(int(p) * int(q) for p, q in zip(r, s, strict=True))
                                for r, s in zip(a.num, b.num, strict=True)]


def test_a_batch_evaluates_each_polynomial_once() -> None:
    """Checks sharing a hypothesis read its values from the batch (computed once), and the
    verdicts are those of fresh batches."""
    rows = [Instance({"y": Fraction(v % 3 - 1), "R2": Fraction(v)},
                     {"w": (Fraction(v), Fraction(1)), "x": (Fraction(1), Fraction(-v))})
            for v in range(-4, 5)]
    shared = Fact(Y**2 - 1, "==")
    first = CompiledJudgement.compile(Judgement((shared,), Fact(R2 - norm2(X), ">="),
                                                ("w", "x"), ("y", "R2")))
    second = CompiledJudgement.compile(Judgement((shared,), Fact(-Y * dot(W, X), ">="),
                                                 ("w", "x"), ("y", "R2")))
    batch = batch_of(rows)
    verdicts = (first.check(batch), second.check(batch))
    assert verdicts == (first.check(batch_of(rows)), second.check(batch_of(rows)))
    hypothesis = first.hypotheses[0][0]
    assert hypothesis is second.hypotheses[0][0]  # compiled once per process
    values = hypothesis.evaluate(batch)
    assert hypothesis.evaluate(batch) is values  # and evaluated once per batch
    assert verdicts[0].instances == len(rows) and verdicts[0].vacuous == 3


def test_gram_of_no_rows_against_big_rows_is_empty() -> None:
    """Regression: an empty int64 matrix beside an object one (no row selected from a run of
    big integers) failed to convert to Python ints (`could not broadcast`)."""
    small = VectorColumn(np.zeros((0, 1), dtype=np.int64))
    big = VectorColumn.of([[Fraction(2**64)]]).take(np.array([], dtype=np.intp))
    assert big.num.dtype == object and len(gram_column(small, big)) == 0


def test_the_package_re_exports_every_name_of_instances() -> None:
    """`verify.numeric` lists the names of `instances` without importing it (lazily)."""
    import verify.numeric
    import verify.numeric.instances

    assert verify.numeric.__all__ == verify.numeric.instances.__all__
    assert verify.numeric.Shrinker is verify.numeric.instances.Shrinker


def test_taken_rows_are_made_only_when_read() -> None:
    """Rows taken from a smaller column (a run's iterates repeated once per example) hold no
    numerators of their own until read: the Gram columns read the smaller one."""
    base = VectorColumn.of([[Fraction(1, 2), Fraction(3)], [Fraction(-5), Fraction(7, 4)]])
    taken = base.take(np.array([1, 1, 0, 1], dtype=np.intp)).take(np.array([3, 2, 0]))
    assert taken._num is None and len(taken) == 3 and taken.dim == 2
    assert taken.magnitude == max_abs(base.num)
    assert gram_column(taken, taken).num.tolist() == [
        sum(int(p) * int(p) for p in base.num[i]) for i in (1, 0, 1)]
    assert taken._num is None  # the Gram column read the base's rows
    assert [taken.row(i) for i in range(3)] == [base.row(1), base.row(0), base.row(1)]
    assert taken.num.tolist() == base.num[[1, 0, 1]].tolist() and taken._num is not None


def test_column_properties_are_computed_once_and_keep_a_preset_value() -> None:
    """The columns' lock-free `cached_property`: the first read computes and stores the
    value, later reads find it without computing again, a builder's preset value wins, and
    a constant vector column knows its magnitude (the single row's, 0 without rows)."""
    calls: list[int] = []

    class Counted:
        @cached_property
        def value(self) -> int:
            """Counts its computations."""
            calls.append(1)
            return 42

    counted = Counted()
    assert (counted.value, counted.value, len(calls)) == (42, 42, 1)
    assert Counted.value.__doc__ == "Counts its computations."
    preset = Counted()
    preset.__dict__["value"] = 7
    assert (preset.value, len(calls)) == (7, 1)
    column = Column(np.array([3, -9, 4], dtype=np.int64))
    assert column.magnitude == 9 and column.den_max == 1
    row = (Fraction(-5, 2), Fraction(1, 3))
    for n in (0, 1, 4):
        constant = VectorColumn.constant(row, n)
        assert constant.__dict__["magnitude"] == (15 if n else 0)
        assert constant.magnitude == max_abs(constant.num)


@given(st.lists(st.tuples(st.integers(-2**70, 2**70), st.integers(1, 2**66),
                          st.integers(1, 4)), min_size=1, max_size=30),
       st.booleans())
def test_least_is_the_least_fraction_in_any_runs_of_denominators(
        runs: list[tuple[int, int, int]], spread: bool) -> None:
    """`_least`, by runs of equal denominators or (past `SEGMENTS` runs) by distinct ones,
    is the least of the fractions exactly, in int64 or Python ints (object arrays)."""
    from verify.numeric import instances

    nums = [num + k for num, _, count in runs for k in range(count)]
    dens = [den for _, den, count in runs for _ in range(count)]
    if spread:  # every row its own run of one: past SEGMENTS, the other path
        nums, dens = nums * 3, dens[::-1] * 3
    expected = min(Fraction(n, d) for n, d in zip(nums, dens, strict=True))
    fits = all(abs(v) <= 2**63 - 1 for v in [*nums, *dens])
    for dtype in ((np.int64, object) if fits else (object,)):
        got = instances._least(np.array(nums, dtype=dtype), np.array(dens, dtype=dtype))
        assert got == expected and type(got) is Fraction


def test_least_at_the_edge_of_its_runs_of_denominators() -> None:
    """One run, SEGMENTS - 1 edges (the last counted), SEGMENTS edges (by distinct ones)."""
    from verify.numeric import instances

    assert instances._least(np.array([5, -3, 4]), np.array([7, 7, 7])) == Fraction(-3, 7)
    for runs in (instances.SEGMENTS, instances.SEGMENTS + 1):
        dens = np.array([1 + k % 2 for k in range(runs)], dtype=np.int64)  # 1, 2, 1, ...
        nums = np.array([-k for k in range(runs)], dtype=np.int64)
        assert instances._least(nums, dens) == min(Fraction(-k, 1 + k % 2) for k in range(runs))


@given(st.lists(st.tuples(st.fractions(), st.fractions(), st.fractions()), min_size=1,
                max_size=6))
def test_a_definition_column_is_max_and_min_exactly(rows: list[tuple[Fraction, ...]]) -> None:
    """A `[define]`d `max`/`min` of rational functions is evaluated on each row exactly (the
    arguments compared by cross-multiplying over positive denominators: a denominator < 0
    flips no comparison, no float rounds two near values into a tie); an argument whose
    denominator is 0 is read as 0 (the row is vacuous by the division's condition)."""
    from verify.runs.columns import Instance, InstanceBatch, Origin
    from verify.runs.naming import Defined

    a, b, c = (sympy.Symbol(n) for n in "abc")
    rows = [*rows, (Fraction(10**30 + 1, 10**30), Fraction(1), Fraction(1))]  # a float tie
    batch = InstanceBatch.from_instances(
        [Instance({"a": x, "b": y, "c": z}, {}) for x, y, z in rows], Origin("test"))
    for function, pick in (("max", max), ("min", min)):
        defined = Defined("m", f"m__{function}", function, (a / c, b * c + 1))
        claim = Fact(sympy.Symbol(defined.symbol), ">=")
        compiled = CompiledJudgement.compile(Judgement((), claim, (), ()), (defined,))
        compiled.check(batch)
        column = batch.defined[defined.symbol]
        for i, (x, y, z) in enumerate(rows):
            expected = pick(x / z if z != 0 else 0, y * z + 1)
            assert column.value(i) == expected


def test_a_constants_change_within_one_state_leaves_out_that_states_rows_and_later() -> None:
    """Ends35 (memb33's open end): rows of one run at one iteration (one state, an example
    row per example) where an induction's constant `c` changes at the third row of the
    first state. Every row of that state is left out, the two before the change too (its
    rows are one state, whose run is none of the induction's runs), and every later one:
    sound, as a row left out is never an instance, and the audit's text says so
    (`constants_text`). A run whose constant holds on a second run is left whole."""
    from types import SimpleNamespace

    from proofs.step import Induction
    from verify.audit.membership import constants_text

    c = sympy.Symbol("c")
    judgement = Judgement((), Fact(c, ">="))
    compiled = CompiledJudgement.compile(judgement, fixed=[(
        "c", (c - sympy.Symbol("c" + FIRST)) ** 2)])
    values = [5, 5, 7, 7, 7, 3, 3, 3]
    batch = InstanceBatch({"c": Column.of([Fraction(v) for v in values])}, {},
                          (Origin("a"), Origin("b")),
                          np.array([0, 0, 0, 0, 0, 1, 1, 1], dtype=np.int64),
                          np.array([0, 0, 0, 1, 1, 0, 0, 1], dtype=np.int64))
    assert compiled.varying(batch).tolist() == [True] * 5 + [False] * 3
    verdict = compiled.check(batch)
    assert verdict.varying == 5 and verdict.instances == 3 and verdict.varied == ("c",)
    audited = SimpleNamespace(numeric=verdict, step=SimpleNamespace(
        rule=Induction("k", {}, {}, (), ("c",))))
    said = constants_text(audited)  # type: ignore[arg-type]
    assert ("from the state of such a row on (that state's rows before it included: a "
            "state's rows share its iteration), a run is none of the runs") in said


#: The reasons `check_rows` leaves rows of an induction's runs out (neither instances nor
#: vacuous), each as the compiled judgement's arguments and the `unmet` it is checked with.
LEFT_OUT = {
    # a base broken at the counter's 0 on row 20: its run is outside from there on
    "outside": ({"starts": ((Fact(scalar("s"), "=="), Fact(scalar("b"), "==")),)}, None),
    # the run's update 19 fails the induction's update facts: the rows after it are out
    "past_unmet": ({"unmet": ("facts",)}, {"facts": {Origin("test", 7, "unit"): 19}}),
    # the constant c takes another value from row 20 on: so does the run leave its runs
    "varying": ({"fixed": (("c", scalar("c") - scalar("c" + FIRST)),)}, None),
    # the counter k is not the count t of updates on rows 20 on: no state of k updates
    "miscounted": ({"counted": (scalar("k") - T,)}, None),
}


#: Past int64: a claim in Python ints is read on its instances alone.
BIG = 2**70


def _left_out_rows(n: int = 40, big: int = BIG) -> InstanceBatch:
    """One run's rows, each reason of `LEFT_OUT` leaving out rows 20 on (the claim `a >= 0`
    fails there, the hypothesis `h >= 0` holds), the hypothesis false on half the others."""
    late = [k >= 20 for k in range(n)]
    columns = {
        # the claim a >= 0 fails on the late rows; in Python ints, it is read on the
        # instances alone (`_claim_at`)
        "a": [-big if out else big for out in late],
        "h": [1 if out or k % 2 else -1 for k, out in enumerate(late)],  # half vacuous early
        "t": list(range(n)),
        "s": [k - 20 if out else k for k, out in enumerate(late)],  # 0 at rows 0 and 20
        "b": [1 if out else 0 for out in late],  # the base holds at row 0, not at row 20
        "c": [1 if out else 0 for out in late],
        "k": [k + 1 if out else k for k, out in enumerate(late)],
    }
    return InstanceBatch({name: Column.of([Fraction(v) for v in values])
                          for name, values in columns.items()}, {},
                         (Origin("test", 7, "unit"),), np.zeros(n, dtype=np.int64),
                         np.arange(n, dtype=np.int64))


@pytest.mark.parametrize("big", [BIG, 1], ids=["python-ints", "int64"])
@pytest.mark.parametrize("reason", sorted(LEFT_OUT))
def test_the_claim_read_on_its_instances_alone_leaves_out_every_row_left_out(
        reason: str, big: int) -> None:
    """The claim is evaluated on the rows that decide it only (`_claim_at`: its instances
    whose hypotheses hold, a quarter of these rows), and every reason to leave a row out is
    applied first, once: camp33 narrowed to the rows the hypotheses leave in a second copy
    of `check_rows`, which already missed memb33's constants that vary and counters that
    miscount, and counted those rows' violations. Here each reason leaves out rows 20 to 39,
    where the hypothesis holds and the claim fails: none is a violation, each is counted
    under its reason, and checked a slice at a time the verdict is the same. In int64 the
    claim is read on every row (taking the rows would cost more): the same verdict."""
    batch = _left_out_rows(big=big)
    options, unmet = LEFT_OUT[reason]
    judgement = Judgement((Fact(scalar("h"), ">="),), Fact(scalar("a"), ">="))
    compiled = CompiledJudgement.compile(judgement, **options)
    verdict = compiled.check(batch, unmet)
    assert (verdict.status, verdict.instances, verdict.vacuous, verdict.violations) == (
        "held", 20, 10, 0)
    assert verdict.min_slack == big and verdict.counterexample is None
    out = {"outside": verdict.outside, "past_unmet": verdict.past_unmet,
           "varying": verdict.varying, "miscounted": verdict.miscounted}
    assert out == {name: 20 if name == reason else 0 for name in out}
    assert verdict.false == (10,)  # the hypothesis, false on the vacuous rows only
    # in Python ints, read on the 10 instances alone (its values not the batch's)
    assert (compiled.claim in batch._values) == (big == 1)
    fresh = InstanceBatch(batch.scalars, {}, batch.origins, batch.origin_index,
                          batch.iteration)
    ((sliced, row),) = check_in_slices([compiled], fresh, 7, unmet)
    assert sliced == verdict and row is None


def test_a_constant_s_changes_are_read_a_slice_at_a_time(monkeypatch) -> None:
    """Review 33 F4: `check_in_slices` read a constant's changes (`varying`) on the whole
    batch at once, its first rows' copies and its gap's values on every row, what it slices
    a batch to avoid (a run's 335 544 rows once took a process to 885 MB). They are read a
    slice at a time now, no polynomial evaluated on more rows than a slice, against each
    run's first row of the whole batch: the verdict of the whole, the change (row 20) and
    the rows after it in later slices than the run's first row."""
    options, _ = LEFT_OUT["varying"]
    compiled = CompiledJudgement.compile(
        Judgement((Fact(scalar("h"), ">="),), Fact(scalar("a"), ">=")), **options)
    whole = compiled.check(_left_out_rows())
    seen: list[int] = []
    evaluate = CompiledPolynomial.evaluate

    def spied(self: CompiledPolynomial, rows: InstanceBatch):
        seen.append(len(rows))
        return evaluate(self, rows)

    monkeypatch.setattr(CompiledPolynomial, "evaluate", spied)
    ((sliced, _),) = check_in_slices([compiled], _left_out_rows(), 7)
    assert sliced == whole and sliced.varying == 20 and sliced.varied == ("c",)
    assert seen and max(seen) <= 7
