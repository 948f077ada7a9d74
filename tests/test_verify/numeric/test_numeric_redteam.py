"""Red team of the exact numeric checks: the fast evaluation against a slow exact reference.

Every verdict of `CompiledJudgement.check` (status, instance and vacuous counts, violations,
minimum slack, first counterexample) is recomputed row by row in Fractions, on batches built to
reach the fast paths' edges: int64 / object columns mixed in one polynomial, values at and
around +-2^63 (and -2^63 itself), huge denominators, constant columns, rows taken from smaller
columns (the repeated-row magnitude shortcut and the Gram columns built from source rows),
padding, empty batches, strict and non-strict comparisons at exactly 0, and hypothesis masks
cached per batch and reused by judgements whose hypothesis sets share polynomials in another
order; and the rows of engine runs (built from the engine's integers) against the same rows
built from Fractions and against their definitions. Then the three overflows found, each with
its root cause in its test's docstring (all three fixed on this branch).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron.algorithms.batch import run_batch
from perceptron.algorithms.fast import integer_arrays
from perceptron.algorithms.online import run_arrays, run_online
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset
from perceptron.generators.adversary import OnlineAdversary
from proofs.language.terms import gram, scalar
from verify.kernel import Fact, Judgement
from verify.kernel.algebra import holds
from verify.numeric import campaign
from verify.numeric.instances import CompiledJudgement, NumericVerdict
from verify.runs.batch import (
    batch_iteration_rows,
    batch_member_rows,
    batch_run_from_engine,
    batch_state_rows,
)
from verify.runs.columns import (
    INT64_LIMIT,
    Column,
    Instance,
    InstanceBatch,
    Origin,
    VectorColumn,
    gram_column,
    reduced,
)
from verify.runs.online import engine_runner, example_rows, run_from_engine, state_rows, update_rows
from verify.runs.quantity import Scenario

A, B = scalar("a"), scalar("b")
UU, UV, VV = gram("u", "u"), gram("u", "v"), gram("v", "v")

EDGES = [0, 1, -1, 2, 2**31, -(2**31), 3037000499, -3037000500, 2**53, -(2**53) - 1,
         2**62, -(2**62), INT64_LIMIT, -INT64_LIMIT, -(2**63), 2**63, 2**64, -(2**70)]
DENS = [1, 1, 3, 2**31 - 1, 2**61 - 1, 2**64]
integers = st.one_of(st.sampled_from(EDGES), st.integers(-5, 5),
                     st.integers(-(2**66), 2**66))
rationals = st.builds(Fraction, integers, st.sampled_from(DENS))

# hypotheses and claims: sums of products (cancellations), odd powers (negative extremes),
# Gram symbols of padded / repeated vectors, constants, exact zeros
POLYS = [A, A - B, A * B - 1, A**2 - 2 * A * B + B**2, A**3 + B**3, UV, UU - VV,
         A * UV - B**2, UU * VV - UV**2, 7 * A - sympy.Rational(7, 3) * B, sympy.Integer(0),
         sympy.Integer(-1), A * B * UV + sympy.Rational(1, 2**64), UV**3 - A * UU]
KINDS = [">", ">=", "=="]
facts = st.builds(Fact, st.sampled_from(POLYS), st.sampled_from(KINDS))


def _take(base_len: int, n: int) -> st.SearchStrategy[np.ndarray]:
    return st.lists(st.integers(0, base_len - 1), min_size=n, max_size=n).map(
        lambda v: np.array(v, dtype=np.intp))


@st.composite
def scalar_columns(draw: st.DrawFn, n: int) -> Column:
    how = draw(st.sampled_from(["of", "constant", "take"]))
    if how == "constant":
        return Column.constant(draw(rationals), n)
    if how == "of" or n == 0:
        return Column.of(draw(st.lists(rationals, min_size=n, max_size=n))) if n else (
            Column(np.zeros(0, dtype=np.int64)))
    base = Column.of(draw(st.lists(rationals, min_size=1, max_size=3)))
    return base.take(draw(_take(len(base), n)))


@st.composite
def vector_columns(draw: st.DrawFn, n: int) -> VectorColumn:
    dim = draw(st.integers(0, 3))
    row = st.lists(rationals, min_size=dim, max_size=dim)
    how = draw(st.sampled_from(["of", "constant", "take", "take-twice"]))
    if how == "constant":
        return VectorColumn.constant(draw(row), n)
    if how == "of" or n == 0:
        return VectorColumn.of(draw(st.lists(row, min_size=n, max_size=n)), dim)
    base = VectorColumn.of(draw(st.lists(row, min_size=1, max_size=3)), dim)
    if how == "take":
        return base.take(draw(_take(len(base), n)))
    middle = base.take(draw(_take(len(base), n + 1)))
    return middle.take(draw(_take(n + 1, n)))


@st.composite
def batches(draw: st.DrawFn) -> InstanceBatch:
    n = draw(st.integers(0, 6))
    scalars = {"a": draw(scalar_columns(n)), "b": draw(scalar_columns(n))}
    vectors = {"u": draw(vector_columns(n)), "v": draw(vector_columns(n))}
    origin = Origin("red", draw(st.integers(0, 3)))  # tells concatenated parts apart
    return InstanceBatch(scalars, vectors, (origin,), np.zeros(n, dtype=np.int64),
                         np.arange(n, dtype=np.int64))


# ---- the slow reference -------------------------------------------------------------------------


def _row(batch: InstanceBatch, i: int) -> dict[sympy.Symbol, sympy.Rational]:
    """Row i's symbols as exact rationals, every value read as a Fraction first."""
    a, b = batch.scalars["a"].value(i), batch.scalars["b"].value(i)
    u, v = batch.vectors["u"].row(i), batch.vectors["v"].row(i)

    def dot(p: tuple[Fraction, ...], q: tuple[Fraction, ...]) -> Fraction:
        width = max(len(p), len(q))
        p, q = p + (Fraction(0),) * (width - len(p)), q + (Fraction(0),) * (width - len(q))
        return sum((x * y for x, y in zip(p, q, strict=True)), Fraction(0))

    values = {A: a, B: b, UU: dot(u, u), UV: dot(u, v), VV: dot(v, v)}
    return {s: sympy.Rational(x.numerator, x.denominator) for s, x in values.items()}


def _value(expr: sympy.Expr, row: dict[sympy.Symbol, sympy.Rational]) -> Fraction:
    value = sympy.Rational(expr.xreplace(row))
    return Fraction(int(value.p), int(value.q))


def _reference(judgement: Judgement, batch: InstanceBatch) -> tuple:
    """(status, instances, vacuous, violations, min_slack, first violating row), row by row."""
    n = len(batch)
    held, slacks, failing = 0, [], []
    for i in range(n):
        row = _row(batch, i)
        if not all(holds(f.kind, _value(f.expr, row)) for f in judgement.hypotheses):
            continue
        held += 1
        gap = _value(judgement.claim.expr, row)
        slacks.append(-abs(gap) if judgement.claim.kind == "==" else gap)
        if not holds(judgement.claim.kind, gap):
            failing.append(i)
    status = "violated" if failing else "held" if held else "not-run"
    if n == 0:
        return ("not-run", 0, 0, 0, None, None)
    return (status, n, n - held, len(failing), min(slacks) if slacks else None,
            _shown(batch.instance(failing[0])) if failing else None)


def _shown(instance: Instance) -> tuple:
    """A counterexample as compared: its provenance, scalars and vectors without their
    trailing zeros (a reported counterexample drops the padding every vector shares)."""
    def strip(v: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        while v and v[-1] == 0:
            v = v[:-1]
        return v

    return (instance.provenance, sorted(instance.scalars.items()),
            sorted((k, strip(v)) for k, v in instance.vectors.items()))


def _fast(judgement: Judgement, batch: InstanceBatch) -> tuple:
    verdict = CompiledJudgement.compile(judgement).check(batch)
    first = None
    if verdict.counterexample is not None:
        # the first violating row, with every quantity (not only those the judgement names)
        cex = verdict.counterexample
        assert cex.provenance is not None
        first = _shown(batch.instance(_row_of(batch, cex)))
    return (verdict.status, verdict.instances, verdict.vacuous, verdict.violations,
            verdict.min_slack, first)


def _row_of(batch: InstanceBatch, cex: Instance) -> int:
    """The first row of `batch` with the counterexample's provenance and values."""
    for i in range(len(batch)):
        row = batch.instance(i, set(cex.scalars) | set(cex.vectors))
        if _shown(row) == _shown(cex):
            return i
    raise AssertionError(f"the counterexample {cex} is no row of the batch")


@settings(max_examples=max(150, settings.default.max_examples), deadline=None)
@given(batches(), st.lists(st.tuples(st.lists(facts, max_size=3), facts), min_size=1,
                           max_size=4), st.randoms(use_true_random=False))
def test_verdicts_are_the_row_by_row_fraction_verdicts(
        batch: InstanceBatch, judgements: list, rnd) -> None:
    # several judgements on one batch, each checked twice (the second time from the cached
    # values and masks), the second time with its hypotheses in another order
    for hyps, claim in judgements:
        judgement = Judgement(tuple(hyps), claim)
        shuffled = list(hyps)
        rnd.shuffle(shuffled)
        expected = _reference(judgement, batch)
        assert _fast(judgement, batch) == expected
        assert _fast(Judgement(tuple(shuffled), claim), batch) == expected


@settings(max_examples=max(60, settings.default.max_examples), deadline=None)
@given(st.lists(batches(), min_size=1, max_size=3), facts, facts)
def test_verdicts_on_concatenated_batches(parts: list[InstanceBatch], hyp: Fact,
                                          claim: Fact) -> None:
    judgement = Judgement((hyp,), claim)
    for part in parts:  # fill the parts' caches first: the concatenation must not reuse them
        _fast(judgement, part)
    both = InstanceBatch.concat(parts)
    assert _fast(judgement, both) == _reference(judgement, both)


@settings(max_examples=max(80, settings.default.max_examples), deadline=None)
@given(st.data())
def test_gram_columns_of_repeated_rows_are_exact(data: st.DataObject) -> None:
    a = data.draw(vector_columns(data.draw(st.integers(0, 7))))
    n = len(a)
    b = data.draw(vector_columns(n))
    for x, y in ((a, b), (a, a), (b, a)):
        got = gram_column(x, y)
        width = max(x.dim, y.dim)
        zero = (Fraction(0),)
        expected = [sum((p * q for p, q in zip(x.row(i) + zero * (width - x.dim),
                                                 y.row(i) + zero * (width - y.dim), strict=True)),
                        Fraction(0)) for i in range(n)]
        assert [got.value(i) for i in range(n)] == expected
        # int64 exactly when every value fits (never -2^63), as `int_array` would make it
        if got.num.dtype != object:
            assert all(abs(int(v)) <= INT64_LIMIT for v in got.num)
        for column in (x, y):
            assert column.magnitude == max((abs(int(v)) for v in column.num.ravel()),
                                           default=0)


def test_strict_and_non_strict_at_exactly_zero_after_cancellation() -> None:
    # a*b - 1 is 0 on every row, computed from numerators near 2^63 over huge denominators
    big = 2**62 + 1
    a = Column.of([Fraction(big, 2**64 + 3), Fraction(-big, 2**64 + 3)])
    b = Column.of([Fraction(2**64 + 3, big), Fraction(-(2**64 + 3), big)])
    batch = InstanceBatch({"a": a, "b": b}, {"u": VectorColumn.of([[], []]),
                                             "v": VectorColumn.of([[], []])},
                          (Origin("red"),), np.zeros(2, dtype=np.int64), np.arange(2))
    for kind, status in ((">=", "held"), ("==", "held"), (">", "violated")):
        judgement = Judgement((), Fact(A * B - 1, kind))
        assert _fast(judgement, batch) == _reference(judgement, batch)
        assert _fast(judgement, batch)[0] == status


# ---- finding 1: int64 data holding -2^63 ----


def test_integer_arrays_with_the_most_negative_int64() -> None:
    """`integer_arrays` kept int64 data as int64 when one entry is -2^63: its magnitude 2^63
    does not fit, and `Z = y * rows` wrapped (-1 * -2^63 == -2^63 in int64), so `run_arrays`
    ran on the wrong examples: it returned w = -2^63 as a converged run on x = -2^63, y = -1,
    where the exact run (from Fractions) updates to w = +2^63. Root cause: the tier test
    `huge` looked at the dtype only (object, or uint64 beyond 2^63), not at the value -2^63,
    the one int64 whose negation overflows."""
    X = np.array([[-(2**63)], [5]], dtype=np.int64)
    y = np.array([-1, 1])
    form = integer_arrays(X, y)
    assert [int(v) for v in form.signed().ravel()] == [2**63, 5]
    data = Dataset(tuple(tuple(Fraction(int(v)) for v in row) for row in X.tolist()),
                   tuple(int(v) for v in y))
    reference = run_online(data, max_epochs=5)
    fast = run_arrays(X, y, max_epochs=5, engine="primal")
    assert (fast.w, fast.converged, fast.mistakes) == (
        reference.w, reference.converged, reference.mistakes)
    assert fast.w == (Fraction(2**63),)


# ---- finding 2: an all-zero column over a denominator beyond int64 ----


def test_reduced_all_zero_rows_over_a_huge_denominator() -> None:
    """`reduced` divided int64 numerators by their gcd with the denominator; when every
    numerator is 0 that gcd is the denominator itself, and int64 // (an int >= 2^63) raised
    OverflowError. It happens on real runs: an online run on x = (2^-64,) has one update, and
    its `update` rows hold only w_0 = 0 over the unit 2^-64, so `update_rows` crashed (the
    audit could check nothing bound to update rows of such a run)."""
    for den in (2**63, 2**64, 3 * 2**70):
        column = reduced(np.zeros((2, 3), dtype=np.int64), den)
        expected = VectorColumn.of([[Fraction(0)] * 3] * 2)
        assert (column.num.dtype, column.num.tolist(), column.den) == (
            expected.num.dtype, expected.num.tolist(), expected.den)
    data = Dataset(((Fraction(1, 2**64),),), (1,))
    run = engine_runner(Scenario(data, (Fraction(1),), Origin("red")))
    rows = update_rows(run, Origin("red"))
    assert rows.vectors["w"].row(0) == (Fraction(0),)
    assert rows.vectors["w_next"].row(0) == (Fraction(1, 2**64),)
    assert rows.vectors["x"].row(0) == (Fraction(1, 2**64),)
    for make in (state_rows, example_rows):
        assert make(run, Origin("red")).vectors["w"].row(0) == (Fraction(0),)


# ---- finding 3: a step multiplier beyond int64 on all-zero data ----


def test_engines_with_a_huge_step_multiplier_on_zero_data() -> None:
    """The engines choose a tier from Novikoff's bound `max(B2 R2, B2, R2)`, and then form the
    steps `E * Z` (primal) or `E * H` (dual) in it. With R2 >= 1 the bound covers E; on
    all-zero data (R2 = 0) nothing bounds E, so w0 = (2^60 + 1) / 2^70 (unit 2^-70, E = 2^70,
    ||W0||^2 < 2^126: the int64 tier) made every engine raise OverflowError instead of
    reporting the exact run (every example updates by 0: the epochs cycle at w0). Root cause:
    E was not one of the bounded values (fixed: E^2, resp. E, joins the bound)."""
    data = Dataset(((Fraction(0),), (Fraction(0),)), (1, -1))
    w0 = (Fraction(2**60 + 1, 2**70),)
    # the reference: the same run with E = 1 (w0 = 1: same updates, same cycle, w stays w0)
    small = run_online(data, Conventions(w0=(Fraction(1),)), max_epochs=4, engine="primal")
    assert (small.w, small.converged) == ((Fraction(1),), False)
    for engine in ("primal", "compiled", "dual"):
        result = run_online(data, Conventions(w0=w0), max_epochs=4, engine=engine)
        assert (result.w, result.converged, result.mistakes, result.epochs) == (
            w0, False, small.mistakes, small.epochs), engine


# ---- rows of engine runs: built from the engine's integers = built from Fractions --------------


def _hostile_data() -> list[tuple[Dataset, tuple[Fraction, ...]]]:
    """Data at the fast paths' edges: +-2^63 and beyond, denominators beyond int64, zero
    examples among huge ones, and the adversary's huge rationals."""
    F = Fraction
    cases = [
        (((F(-(2**63)), F(1)), (F(2**63 - 1), F(-3))), (1, -1), (F(-1), F(0))),
        (((F(1, 2**64), F(0)), (F(0), F(0)), (F(-3, 2**64 + 1), F(5, 7))), (1, 1, -1),
         (F(1), F(-1))),
        (((F(3037000500), F(-3037000499)), (F(2**53 + 1, 3), F(1))), (1, -1), (F(1), F(-1))),
        (((F(2**70), F(-1, 2**70)), (F(-5), F(2**62))), (-1, 1), (F(-1), F(1, 2**40))),
    ]
    out = [(Dataset(X, y), u) for X, y, u in cases]
    for bound, shape in ((5, 1), (8, 3)):
        R2, gamma = campaign.ADVERSARY_SHAPES[shape](bound)
        played = OnlineAdversary(R2, gamma, seed=bound).play()
        out.append((played.data, played.u))
    return out


def _same_rows(fast: InstanceBatch, slow: InstanceBatch) -> None:
    """Every column of two row sets holds the same rationals (the Fraction-built one is the
    reference), every Gram column is the exact dot product, and no int64 entry is -2^63."""
    assert len(fast) == len(slow)
    n = len(fast)
    assert fast.scalars.keys() == slow.scalars.keys()
    for name, column in fast.scalars.items():
        assert [column.value(i) for i in range(n)] == [
            slow.scalars[name].value(i) for i in range(n)], name
        assert column.magnitude == max((abs(int(v)) for v in column.num), default=0), name
    names = sorted(fast.vectors)
    for name in names:
        a, b = fast.vectors[name], slow.vectors[name]
        width = max(a.dim, b.dim)
        zero = (Fraction(0),)
        assert [a.row(i) + zero * (width - a.dim) for i in range(n)] == [
            b.row(i) + zero * (width - b.dim) for i in range(n)], name
        assert a.magnitude == max((abs(int(v)) for v in a.num.ravel()), default=0), name
    for k, p in enumerate(names):
        for q in names[k:]:
            column = fast.column(gram(p, q))
            P, Q = fast.vectors[p], fast.vectors[q]
            width = max(P.dim, Q.dim)
            expected = [sum((x * y for x, y in zip(P.row(i) + zero * (width - P.dim),
                                                     Q.row(i) + zero * (width - Q.dim),
                                                     strict=True)), Fraction(0))
                        for i in range(n)]
            assert [column.value(i) for i in range(n)] == expected, (p, q)
            if column.num.dtype != object:
                assert all(abs(int(v)) <= INT64_LIMIT for v in column.num), (p, q)


def test_online_rows_from_integers_are_the_fraction_rows() -> None:
    for data, u in _hostile_data():
        for conventions in (Conventions(), Conventions(eta=Fraction(3, 2**64),
                                                       w0=(Fraction(-1, 3),) * data.d)):
            result = run_online(data, conventions, max_epochs=2, keep_trace=True)
            run = run_from_engine(result, data, u)
            assert run.integer is not None
            slow = replace(run, integer=None)
            for make in (state_rows, example_rows, update_rows):
                _same_rows(make(run, Origin("red")), make(slow, Origin("red")))


def test_batch_rows_from_integers_are_the_fraction_rows() -> None:
    for data, u in _hostile_data():
        for start in ((Fraction(0),) * data.d, tuple(-v for v in u),
                      (Fraction(2**63), Fraction(-(2**63), 3), *(Fraction(0),) * data.d)[:data.d]):
            result = run_batch(data, step="optimal", theta_star=u, w0=start, max_iterations=6)
            run = batch_run_from_engine(result, data, u, start)
            assert run.integer is not None
            slow = replace(run, iterations=tuple(run.iterations), integer=None)
            for make in (batch_state_rows, batch_iteration_rows, batch_member_rows):
                _same_rows(make(run, Origin("red")), make(slow, Origin("red")))


def _example_reference(run) -> dict[str, list]:
    """The example rows' loss and gradient quantities from their definitions, in Fractions."""
    data, dim = run.data, run.data.d
    out: dict[str, list] = {k: [] for k in ("m", "m_set", "m_sum", "m_set_sum", "J", "J_at",
                                            "Gb", "h", "db", "G")}
    for t, w in enumerate(run.states):
        q = t % (dim + 1)
        h = Fraction(t + 1, 2)
        d = [Fraction(int(k == q)) for k in range(dim)]
        db = Fraction(int(q == dim))
        moved = [a + h * b for a, b in zip(w, d, strict=True)]
        sums = {"m_sum": Fraction(0), "m_set_sum": Fraction(0), "J_at": Fraction(0),
                "Gb": Fraction(0)}
        G = [Fraction(0)] * dim
        for x, y in zip(data.X, data.y, strict=True):
            margin = y * sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0))
            member = margin <= 0
            out["m"].append(max(-margin, Fraction(0)))
            out["m_set"].append(-margin if member else Fraction(0))
            for k in ("m_sum", "m_set_sum", "J_at", "Gb"):
                out[k].append(sums[k])
            out["J"].append(sums["m_set_sum"])
            out["G"].append(tuple(G))
            out["h"].append(h)
            out["db"].append(db)
            sums["m_sum"] += max(-margin, Fraction(0))
            if member:
                sums["m_set_sum"] -= margin
                sums["J_at"] -= y * (sum((a * b for a, b in zip(moved, x, strict=True)),
                                         Fraction(0)) + h * db)
                sums["Gb"] -= y
                G = [g - y * v for g, v in zip(G, x, strict=True)]
    return out


def test_example_rows_are_their_definitions_on_hostile_runs() -> None:
    for data, u in _hostile_data():
        for conventions in (Conventions(), Conventions(eta=Fraction(3, 2**64),
                                                       w0=(Fraction(-1, 3),) * data.d)):
            result = run_online(data, conventions, max_epochs=2, keep_trace=True)
            run = run_from_engine(result, data, u)
            batch = example_rows(run, Origin("red"))
            n = len(batch)
            for name, expected in _example_reference(run).items():
                if name == "G":
                    column = batch.vectors["G"]
                    assert [column.row(i) for i in range(n)] == expected
                else:
                    column = batch.scalars[name]
                    assert [column.value(i) for i in range(n)] == expected, name


# ---- batched verdicts: many runs' rows checked together -----------------------------------


def _one_by_one(held: list[tuple[int, InstanceBatch]], judgement: CompiledJudgement):
    """The verdict of checking each part alone, stage by stage, the runs of small magnitude
    first in each: the order whose first violation a verdict keeps."""
    order = sorted(range(len(held)), key=lambda i: (
        held[i][0], held[i][1].magnitude() >= campaign.SMALL, i))
    total = NumericVerdict.empty()
    for i in order:
        total = total.merge(judgement.check(held[i][1]))
    return total


@st.composite
def small_or_big_runs(draw: st.DrawFn) -> InstanceBatch:
    """Rows of one run, all of small magnitude or all big (2^40 times as large): the order
    of the two decides which violation is kept."""
    n, dim = draw(st.integers(1, 4)), draw(st.integers(1, 2))
    scale = 2**40 if draw(st.booleans()) else 1
    values = st.builds(Fraction, st.integers(-3, 3).map(lambda v: v * scale),
                       st.sampled_from([1, 2, 3]))
    rows = st.lists(st.lists(values, min_size=dim, max_size=dim), min_size=n, max_size=n)
    return InstanceBatch(
        {name: Column.of(draw(st.lists(values, min_size=n, max_size=n))) for name in "ab"},
        {name: VectorColumn.of(draw(rows)) for name in "uv"},
        (Origin("run", draw(st.integers(0, 10**6))),), np.zeros(n, dtype=np.int64),
        np.arange(n, dtype=np.int64))


@settings(max_examples=max(120, settings.default.max_examples), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.one_of(batches(), small_or_big_runs())),
                min_size=1, max_size=6),
       st.lists(st.tuples(st.lists(facts, max_size=2), facts), min_size=1, max_size=3),
       st.sampled_from([1000, 4, 1]), st.sampled_from([10**6, 2, 1]))
def test_batched_verdicts_are_those_of_the_runs_one_by_one(
        drawn: list[tuple[int, InstanceBatch]], judgements: list, alone: int,
        slice_rows: int) -> None:
    """Runs' rows concatenated by tier of magnitude (each with its own denominators per row)
    and checked in few calls give the verdict of checking each run alone in order: the
    counts, the exact least slack, and the same first counterexample, provenance included;
    so does a run's rows checked a slice at a time (`SLICE_ROWS`)."""
    held = sorted(drawn, key=lambda part: part[0])  # parts are collected stage by stage
    compiled = [(campaign.Check(f"c{k}", Judgement(tuple(h), c), "state"),
                 CompiledJudgement.compile(Judgement(tuple(h), c)))
                for k, (h, c) in enumerate(judgements)]
    before = campaign.ALONE, campaign.SLICE_ROWS
    campaign.ALONE, campaign.SLICE_ROWS = alone, slice_rows
    try:
        got = campaign.verdicts(held, compiled)
    finally:
        campaign.ALONE, campaign.SLICE_ROWS = before
    fresh = [(stage, InstanceBatch(part.scalars, part.vectors, part.origins, part.origin_index,
                                   part.iteration)) for stage, part in held]
    assert got == [_one_by_one(fresh, judgement) for _, judgement in compiled]


def test_a_small_run_s_violation_comes_before_a_big_one_s_in_its_stage() -> None:
    """Within a stage the runs of small magnitude are checked first, so their violation is
    the counterexample kept, though the big run came first and both are checked in one call
    when they share a tier; a later stage's small run does not overtake an earlier one."""
    def run(seed: int, a: int) -> InstanceBatch:
        return InstanceBatch({"a": Column.of([Fraction(a)]), "b": Column.of([Fraction(1)])},
                             {"u": VectorColumn.of([[Fraction(1)]]),
                              "v": VectorColumn.of([[Fraction(1)]])},
                             (Origin("run", seed),), np.zeros(1, dtype=np.int64),
                             np.zeros(1, dtype=np.int64))

    judgement = Judgement((), Fact(A, ">"))
    compiled = [(campaign.Check("a", judgement, "state"), CompiledJudgement.compile(judgement))]
    for held, first in (([(0, run(1, -2**40)), (0, run(2, -1))], 2),
                        ([(0, run(1, -2**40)), (1, run(2, -1))], 1),
                        ([(0, run(1, -1)), (0, run(2, -2**40)), (0, run(3, -2))], 1)):
        (verdict,) = campaign.verdicts(held, compiled)
        assert verdict.counterexample is not None and verdict.violations == len(held)
        assert verdict.counterexample.provenance.origin.seed == first
        assert verdict.min_slack == -2**40


def test_a_large_runs_rows_are_checked_a_slice_at_a_time_with_the_same_verdicts(
        monkeypatch) -> None:
    """bigdata31 (1): averaged-voted's checks of the first 335 544 state rows of its run on a
    20 000 x 50 file were made at once (every polynomial's values, masks and Gram columns on
    every row held together: 885 MB). A run's rows past `SLICE_ROWS` are checked that many
    at a time, no check seeing more, with the verdicts of the whole: counts, least slack, the
    first violation (its row, provenance), and the rows a carried invariant leaves out
    however far back in the run it failed (here in the first slice, rows in the last)."""
    n = 40
    iteration = np.repeat(np.arange(n // 2, dtype=np.int64), 2)  # two rows a state
    a = [Fraction(k % 7 - 1, 1 + k % 3) for k in range(n)]
    b = [Fraction(1 if k != 5 else -1) for k in range(n)]  # the carried fact fails at t = 2
    counter = [Fraction(int(t)) for t in iteration]  # 0 at the run's first state
    batch = InstanceBatch({"a": Column.of(a), "b": Column.of(b), "c": Column.of(counter)},
                          {"u": VectorColumn.of([[Fraction(k), Fraction(1)] for k in range(n)]),
                           "v": VectorColumn.constant([Fraction(2), Fraction(-1)], n)},
                          (Origin("run", 3),), np.zeros(n, dtype=np.int64), iteration)
    judgements = [Judgement((), Fact(A, ">=")),
                  Judgement((Fact(B - 1, "=="),), Fact(gram("u", "v") - A, ">")),
                  Judgement((), Fact(A + 2, ">"))]
    compiled = [(campaign.Check(f"c{k}", j, "state"),
                 CompiledJudgement.compile(j, carried=carried))
                for k, j in enumerate(judgements) for carried in ((), (Fact(B, ">"),))]
    # an induction's start that the run breaks at its counter's 0 (`a == 5` where a = -1):
    # every row of the run is outside, in the last slice as in the first (runbase31's starts
    # were read off each slice alone: the rows after the first were counted)
    start = ((Fact(scalar("c"), "=="), Fact(A - 5, "==")),)
    compiled.append((campaign.Check("c6", judgements[0], "state"),
                     CompiledJudgement.compile(judgements[0], starts=start)))
    # an induction whose update facts the run's update at t = 3 fails (red team 30 A4): its
    # rows from t = 4 on are left out, in every slice
    unmet = {"ind update facts": {Origin("run", 3): 3}}
    compiled.append((campaign.Check("c7", judgements[2], "state", unmet=("ind update facts",)),
                     CompiledJudgement.compile(judgements[2], unmet=("ind update facts",))))
    whole = campaign.verdicts([(0, batch)], compiled, unmet)
    assert [v.violations > 0 for v in whole] == [True, True, True, True, False, False, False,
                                                 False]
    assert whole[1].instances == n and whole[1].vacuous > 0  # rows left by the carried fact
    assert whole[6].outside == n and whole[6].instances == 0  # the run is not the induction's
    assert whole[7].instances == 8 and whole[7].past_unmet == n - 8  # states 0..3, two rows each
    seen: list[int] = []
    check_rows = CompiledJudgement.check_rows

    def spied(self: CompiledJudgement, rows: InstanceBatch, unmet: object = None):
        seen.append(len(rows))
        return check_rows(self, rows, unmet)

    monkeypatch.setattr(CompiledJudgement, "check_rows", spied)
    monkeypatch.setattr(campaign, "SLICE_ROWS", 7)
    fresh = InstanceBatch(batch.scalars, batch.vectors, batch.origins, batch.origin_index,
                          batch.iteration)
    assert campaign.verdicts([(0, fresh)], compiled, unmet) == whole
    assert seen and max(seen) == 7 and sum(seen) == n * len(compiled)
