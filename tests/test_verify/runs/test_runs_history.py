"""Single-pass, cyclic and batch runs offer their history as families (issue 31).

The method of test_runs_families.py's online history, for the other kinds: a few steps over
the history families (the updates `XU`, `YU` and the stream `XS`, `YS`, `ZS`, `IS` of a single
pass or of a cyclic run's presentations; the sizes `MK` of a batch run's sets), evaluated on
every row of small exact runs. At every row each sum's column equals the kernel's evaluator
(`Point.value`) at the row's instance with the families it reads, and the step holds there
exactly when the same statement holds in an independent replay of the algorithm in Fractions
(the perceptron's pass or epochs, the batch perceptron's sets), made here from the data
alone; a false step's counterexample is accepted by the kernel.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy

from perceptron.dataset import Dataset, Vector
from proofs.proof_file import load_proof
from verify import kernel
from verify.kernel.certificates import Point
from verify.numeric import campaign, epochs
from verify.numeric.instances import CompiledJudgement
from verify.numeric.orthonormal import orthonormal_positive
from verify.proof_checker import statements
from verify.runs.batch import engine_batch_runner
from verify.runs.columns import InstanceBatch, Origin
from verify.runs.families import is_atom
from verify.runs.naming import Naming, binding_of, on_runs, unbound
from verify.runs.quantity import Scenario, kind
from verify.runs.single_pass import run_pass


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


# ---- independent replays: per row, the run's history up to it, in Fractions ----------------


def replay_pass(data: Dataset) -> list[dict[str, object]]:
    """One pass of the perceptron from 0 (update on y<w,x> <= 0): per state w_t, the
    updates before it (example, label), the visits up to its time (example, label, updated)."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    updates: list[tuple[Vector, int]] = []
    visits: list[tuple[Vector, int, int]] = []
    states = [{"w": w, "updates": [], "visits": [], "w0": w}]
    for x, y in zip(data.X, data.y, strict=True):
        wrong = y * dot(w, x) <= 0
        visits.append((tuple(x), y, int(wrong)))
        if wrong:
            w = tuple(a + y * b for a, b in zip(w, x, strict=True))
            updates.append((tuple(x), y))
            states.append({"w": w, "updates": list(updates), "visits": list(visits),
                           "w0": states[0]["w"]})
    return states


def replay_cyclic(data: Dataset, max_epochs: int) -> list[dict[str, object]]:
    """The perceptron in cyclic epochs from 0 until an epoch without an update: per state."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    updates: list[tuple[Vector, int]] = []
    visits: list[tuple[Vector, int, int]] = []
    states = [{"w": w, "updates": [], "visits": [], "w0": w}]
    for _ in range(max_epochs):
        changed = False
        for x, y in zip(data.X, data.y, strict=True):
            wrong = y * dot(w, x) <= 0
            visits.append((tuple(x), y, int(wrong)))
            if wrong:
                changed = True
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                updates.append((tuple(x), y))
                states.append({"w": w, "updates": list(updates), "visits": list(visits),
                               "w0": states[0]["w"]})
        if not changed:
            break
    return states


def replay_batch(data: Dataset, theta_star: Vector, theta0: Vector) -> list[list[int]]:
    """The batch perceptron's sets M_k = {j : y_j <theta_k, x_j> <= 0}, step
    `<theta*, xbar>/||xbar||^2`, until M_k is empty: their sizes, per state theta_k the
    sizes of the sets before it."""
    theta, sizes, out = theta0, [], [[]]
    for _ in range(10_000):
        members = [j for j, (x, y) in enumerate(zip(data.X, data.y, strict=True))
                   if y * dot(theta, x) <= 0]
        if not members:
            break
        xbar = tuple(sum((data.y[j] * data.X[j][c] for j in members), Fraction(0))
                     for c in range(data.d))
        alpha = dot(theta_star, xbar) / dot(xbar, xbar)
        theta = tuple(a + alpha * b for a, b in zip(theta, xbar, strict=True))
        sizes.append(len(members))
        out.append(list(sizes))
    return out


# ---- the proofs and their rows --------------------------------------------------------------

PROOF = """
title = "history sums on {run} runs"
vectors = ["xu", "w", "w0", "xs", "z", "x"]
scalars = ["yu", "t", "time", "ys", "ind", "N", "n", "k", "mk", "m"]
naturals = ["t", "time", "N", "n", "k"]
indexed = ["xu", "yu", "xs", "ys", "z", "ind", "x", "m"]
[numeric]
run = "{run}"
names = {{ {names} }}
"""

STREAM_NAMES = ('xu = "XU", yu = "YU", xs = "XS", ys = "YS", z = "ZS", ind = "IS", '
                'x = "X"')

#: (id, given, claim, holds on every row, the row set) per kind.
STEPS: dict[str, list[tuple[str, str, str, bool, str]]] = {
    "single-pass": [
        ("iterate", "", "norm2(w - sum(k in 1..t, yu[k]*xu[k])) == 0", True, "pass-state"),
        ("updates-counted", "", "sum(i in 1..time, ind[i]) == t", True, "pass-state"),
        ("stream-iterate", "", "norm2(w - sum(i in 1..time, ind[i]*z[i])) == 0", True,
         "pass-state"),
        ("stream-in-order", "", "norm2(sum(i in 1..time, xs[i] - x[i])) == 0", True,
         "pass-state"),
        ("false-every-visit-updates", "", "sum(i in 1..time, ind[i]) == time", False,
         "pass-state"),
    ],
    "cyclic": [
        ("iterate", "", "norm2(w - w0 - sum(k in 1..t, yu[k]*xu[k])) == 0", True,
         "cyclic-state"),
        ("updates-counted", "", "sum(i in 1..time, ind[i]) == t", True, "cyclic-state"),
        ("stream-iterate", "", "norm2(w - w0 - sum(i in 1..time, ind[i]*z[i])) == 0", True,
         "cyclic-state"),
        ("stream-labels", "", "sum(i in 1..time, ys[i]**2) == time", True, "cyclic-state"),
        ("false-labels", "", "sum(k in 1..t, yu[k]) == t", False, "cyclic-state"),
    ],
    "batch": [
        ("sizes-positive", "", "sum(i in 1..k, m[i]) >= k", True, "batch-state"),
        ("false-one-each", "", "sum(i in 1..k, m[i]) == k", False, "batch-state"),
    ],
}


def proof(tmp_path: Path, run: str) -> Path:
    names = 'm = "MK"' if run == "batch" else STREAM_NAMES
    path = tmp_path / f"{run}.toml"
    steps = "".join(f'\n[[step]]\nid = "{i}"\ngiven = [{g}]\nclaim = "{c}"\n'
                    for i, g, c, _, _ in STEPS[run])
    path.write_text(textwrap.dedent(PROOF.format(run=run, names=names)) + steps)
    return path


def pass_data() -> list[Dataset]:
    X = tuple((Fraction(1), Fraction((-1) ** i * i, 3)) for i in range(14))
    y = tuple((-1) ** (i // 3) for i in range(14))
    Xo = tuple(tuple(Fraction(int(i == j)) for j in range(4)) for i in range(4))
    return [Dataset(X, y), Dataset(Xo, (1, -1, 1, 1))]


@functools.cache
def made(run: str) -> tuple[tuple[object, Callable[[int], object]], ...]:
    """Small exact runs of `run`'s kind, each with its independent replay per row index."""
    if run == "single-pass":
        unit = (Fraction(3, 5), Fraction(4, 5))
        out = []
        for data in pass_data():
            u = unit if data.d == 2 else (Fraction(1, 2),) * 4
            states = replay_pass(data)
            out.append((run_pass(data, u, (Fraction(1, 2),)), states.__getitem__))
        return tuple(out)
    if run == "cyclic":
        short = [Scenario(s.data, s.u, s.origin, 3) for s in epochs.inseparable(3, 3)]
        out = []
        for s in [*epochs.separable_epochs(3, 3), *short]:
            states = replay_cyclic(s.data, s.max_epochs)
            out.append((kind("cyclic").runner(None)(s), states.__getitem__))
        return tuple(out)
    out = []
    for s in [*campaign.generated(7, 2), *campaign.tight(7, 2)]:
        for r in engine_batch_runner(s):
            sizes = replay_batch(s.data, s.u, r.theta0)
            out.append((r, sizes.__getitem__))
    return tuple(out)


def judged(tmp_path: Path, run: str, step: str
           ) -> tuple[kernel.Judgement, CompiledJudgement, InstanceBatch]:
    loaded = load_proof(proof(tmp_path, run))
    assert loaded.numeric is not None
    judgement = on_runs(statements(loaded)[step],
                        Naming.of(loaded.numeric, loaded.vectors, loaded.indexed))
    binding = next(b for i, _, _, _, b in STEPS[run] if i == step)
    assert binding_of(judgement, run) is not None, unbound(judgement, run)
    check = CompiledJudgement.compile(judgement)
    batch = InstanceBatch.concat([kind(run).rows(r, binding, Origin("test", k), check.names)
                                  for k, (r, _) in enumerate(made(run))])
    check.assumed(batch)
    return judgement, check, batch


def holds(judgement: kernel.Judgement, instance: object) -> bool:
    """Whether the kernel finds the claim true at the row's instance."""
    try:
        kernel.check_counterexample(judgement, kernel.Counterexample(
            instance.scalars, instance.vectors, instance.families))  # type: ignore[attr-defined]
    except kernel.KernelError as error:
        assert "holds at the counterexample" in str(error), error
        return True
    return False


def independent(run: str, step: str, replayed: object) -> bool:
    """The step at one row, from the replay alone."""
    if run == "batch":
        sizes = replayed
        assert isinstance(sizes, list)
        return sum(sizes) >= len(sizes) if step == "sizes-positive" else sum(sizes) == len(sizes)
    state = replayed
    assert isinstance(state, dict)
    w, w0, ups, visits = state["w"], state["w0"], state["updates"], state["visits"]
    summed = tuple(w0[c] + sum((y * x[c] for x, y in ups), Fraction(0)) for c in range(len(w)))
    if step in ("iterate", "stream-iterate"):
        return summed == w
    if step == "updates-counted":
        return sum(m for _, _, m in visits) == len(ups)
    if step == "stream-in-order":
        return True  # a single pass visits the elements in their order
    if step == "stream-labels":
        return sum(y * y for _, y, _ in visits) == len(visits)
    if step == "false-labels":
        return sum(y for _, y in ups) == len(ups)
    assert step == "false-every-visit-updates"
    return all(m for _, _, m in visits)


CASES = [(run, i, h) for run, steps in STEPS.items() for i, _, _, h, _ in steps]


@pytest.mark.parametrize(("run", "step", "true"), CASES)
def test_each_history_sum_is_the_kernels_value_and_the_replays_at_every_row(
        tmp_path: Path, run: str, step: str, true: bool) -> None:
    judgement, check, batch = judged(tmp_path, run, step)
    atoms = [s for s in judgement.symbols() if is_atom(s.name)]
    assert atoms and len(batch) >= 10
    verdict, _ = check.check_rows(batch)
    runs = made(run)
    for i in range(len(batch)):
        instance = batch.instance(i, check.shown)
        at = Point(kernel.Counterexample(instance.scalars, instance.vectors, instance.families))
        for atom in atoms:
            assert batch.column(atom).value(i) == at.value(atom), (run, step, i)
        _, replay = runs[int(batch.origins[int(batch.origin_index[i])].seed)]
        state = replay(int(batch.iteration[i]))
        if "w" in batch.vectors:  # the replay's state is the row's own iterate
            assert state["w"] == batch.vectors["w"].row(i)[:len(state["w"])]  # type: ignore[index]
        if "time" in batch.scalars:  # and its time the replay's visits so far
            assert batch.scalars["time"].value(i) == len(state["visits"])  # type: ignore[index]
        assert independent(run, step, state) == holds(judgement, instance), (run, step, i)
    if true:
        assert verdict.status == "held" and verdict.violations == 0 and verdict.unevaluated == 0
        return
    assert verdict.status == "violated"
    cex = verdict.counterexample
    assert cex is not None and set(cex.families) - {"X", "Y"}
    kernel.check_counterexample(judgement, kernel.Counterexample(
        cex.scalars, cex.vectors, cex.families))


def test_the_histories_are_the_runs_own() -> None:
    """The families as arrays: a single pass's stream is its N elements in order, a cyclic
    run's every presentation (IS its `m`), `time` the update's visit on state and
    presentation rows; a batch run's `MK` is its `mk` column, iteration by iteration."""
    for r, _ in made("single-pass"):
        h = r.history  # type: ignore[attr-defined]
        assert h.vectors["XS"][0].tolist() == list(range(r.data.n))  # type: ignore[attr-defined]
        assert h.vectors["XU"][0].tolist() == list(r.positions)  # type: ignore[attr-defined]
        assert [i for i, v in enumerate(h.scalars["IS"].tolist()) if v] == list(r.positions)  # type: ignore[attr-defined]
    for r, _ in made("cyclic"):
        h = r.history  # type: ignore[attr-defined]
        assert h.vectors["XS"][0].tolist() == list(r.presented)  # type: ignore[attr-defined]
        assert h.scalars["IS"].tolist() == list(r.mistakes)  # type: ignore[attr-defined]
        rows = kind("cyclic").rows(r, "cyclic-presentation", Origin("test"), {"n", "t", "time"})
        n, t, time = (rows.scalars[q].num.tolist() for q in ("n", "t", "time"))
        marks = h.scalars["IS"].tolist()
        assert all(sum(marks[:a]) == b and sum(marks[:c]) == b and c <= a
                   for a, b, c in zip(n, t, time, strict=True))
    for r, _ in made("batch"):
        rows = kind("batch").rows(r, "batch-iteration", Origin("test"), {"mk"})
        assert r.history.scalars["MK"].tolist() == rows.scalars["mk"].num.tolist()  # type: ignore[attr-defined]


# ---- tightness-orthonormal's glue, as sums over an online run's history ---------------------

ONCE = """
title = "each example is updated exactly once"
vectors = ["xu", "w", "x", "xx"]
scalars = ["yu", "t", "mu", "N"]
naturals = ["t", "N"]
indexed = ["xu", "yu", "xx"]
[numeric]
run = "online"
names = { xu = "XU", yu = "YU", xx = "X" }

[[step]]
id = "at-most-once"
given = []
claim = "norm2(sum(k in 1..t, yu[k]*xu[k])) == t"

[[step]]
id = "not-before"
given = []
claim = "sum(k in 1..t, yu[k]*dot(xu[k], x)) == 0"

[[step]]
id = "exactly-once-at-convergence"
given = ["mu > 0"]
claim = "sum(j in 1..N, (sum(k in 1..t, yu[k]*dot(xu[k], xx[j])) - 1)**2) == 0"
"""


@pytest.mark.parametrize(("step", "binding"), [("at-most-once", "state"),
                                               ("not-before", "update"),
                                               ("exactly-once-at-convergence", "state")])
def test_each_orthonormal_example_is_updated_exactly_once_on_the_runs(
        tmp_path: Path, step: str, binding: str) -> None:
    """The glue of `tightness-orthonormal` ("each example is updated exactly once", which its
    count-at-convergence takes as two per-state facts) as sums over the runs' history, on
    the audit's orthonormal runs: the updates' double sum is t at every state (at most
    once: sum_j c_j^2 = sum_j c_j), each update's example is orthogonal to every earlier
    update's (not updated before), and at the final state (mu > 0) every example's count
    c_j = sum_k y_k <x_k, x_j> is 1. Each sum equals the kernel's evaluator at every row and
    the counts the updates' own, counted here in Fractions; every step holds on every row,
    the last at the final state of every run (not vacuously)."""
    path = tmp_path / "once.toml"
    path.write_text(ONCE)
    loaded = load_proof(path)
    assert loaded.numeric is not None
    judgement = on_runs(statements(loaded)[step],
                        Naming.of(loaded.numeric, loaded.vectors, loaded.indexed))
    check = CompiledJudgement.compile(judgement)
    made = [kind("online").runner("orthonormal-perceptron")(s)
            for s in orthonormal_positive(0, 8)]
    batch = InstanceBatch.concat([kind("online").rows(r, binding, Origin("test", k),
                                                      check.names)
                                  for k, r in enumerate(made)])
    check.assumed(batch)
    verdict = check.check(batch)
    assert verdict.status == "held" and verdict.violations == 0 and verdict.unevaluated == 0
    atoms = [a for a in judgement.symbols() if is_atom(a.name)]
    for i in range(len(batch)):
        instance = batch.instance(i, check.shown)
        at = Point(kernel.Counterexample(instance.scalars, instance.vectors, instance.families))
        for atom in atoms:
            assert batch.column(atom).value(i) == at.value(atom), (step, i)
    if step == "exactly-once-at-convergence":  # the final state of each run is an instance
        assert verdict.instances - verdict.vacuous == len(made)
        for r in made:
            counts = [sum(1 for u in r.updates if u.x == tuple(x))  # type: ignore[attr-defined]
                      for x in r.data.X]  # type: ignore[attr-defined]
            assert counts == [1] * r.data.n  # type: ignore[attr-defined]


def test_each_example_is_presented_once_per_epoch_in_order(tmp_path: Path) -> None:
    """`separable-converges`' "each example is presented once per epoch", as a sum over a
    cyclic run's stream: epoch e's presentations are the times e*N + 1..e*N + N, and
    `XS[e*N + j]` is `X[j]` there, on every epoch row of every run (the sum equals the
    kernel's evaluator at every row); one time later, it is not."""
    path = tmp_path / "epochs.toml"
    path.write_text(textwrap.dedent("""
        title = "the stream of a cyclic run, epoch by epoch"
        vectors = ["xs", "x"]
        scalars = ["e", "N"]
        naturals = ["e", "N"]
        indexed = ["xs", "x"]
        [numeric]
        run = "cyclic"
        names = { xs = "XS", x = "X" }
        [[step]]
        id = "in-order"
        given = []
        claim = "sum(j in 1..N, norm2(xs[e*N + j] - x[j])) == 0"
        [[step]]
        id = "false-shifted"
        given = []
        claim = "sum(j in 1..N, norm2(xs[e*N + j + 1] - x[j])) == 0"
        """))
    loaded = load_proof(path)
    assert loaded.numeric is not None
    naming = Naming.of(loaded.numeric, loaded.vectors, loaded.indexed)
    for step, status in (("in-order", "held"), ("false-shifted", "violated")):
        judgement = on_runs(statements(loaded)[step], naming)
        assert binding_of(judgement, "cyclic") == "cyclic-epoch"
        check = CompiledJudgement.compile(judgement)
        batch = InstanceBatch.concat([kind("cyclic").rows(r, "cyclic-epoch", Origin("test", k),
                                                          check.names)
                                      for k, (r, _) in enumerate(made("cyclic"))])
        check.assumed(batch)
        verdict = check.check(batch)
        assert verdict.status == status and len(batch) >= 10, step
        atoms = [a for a in judgement.symbols() if is_atom(a.name)]
        for i in range(len(batch)):
            instance = batch.instance(i, check.shown)
            at = Point(kernel.Counterexample(instance.scalars, instance.vectors,
                                             instance.families))
            for atom in atoms:
                assert batch.column(atom).value(i) == at.value(atom), (step, i)


def test_a_batch_keeps_no_chunk_s_products_with_every_example(monkeypatch) -> None:
    """`audit online-history --data` on a 20 000 x 50 file ended the whole audit at a
    worker's 4 GB (exit 2): each chunk of a batch's rows kept its rows' products with every
    example (`<w, XU[k]>`, rows x examples) and its history's families after its columns
    were made, so the batch held its states times its examples in all (84 121 x 20 000).
    A chunk now forgets them (`_Rows.pruned`), and a judgement reading them again on the
    same chunks (the chunks stay on the batch) makes them again: the same verdicts, on
    chunks of one row as on whole batches."""
    from proofs.library import load_builtin
    from verify.audit.job import statement
    from verify.runs import families

    proof = load_builtin("online-history")
    stated = statements(proof)
    step = proof.steps[0]
    history = campaign.Check(step.id, statement(proof, stated[step.id]), "state")
    sources = {"generated": list(campaign.generated(3, 4)),
               "adversary": list(campaign.adversary(4, (3, 6), 1))}
    whole = campaign.run_campaign([history], sources)
    assert all(v.instances and not v.unevaluated for v in whole.verdicts.values())
    kept: list[object] = []
    held: list[bool] = []
    pruned = families._Rows.pruned

    def pruning(rows: families._Rows) -> None:
        held.append(bool(rows.products))  # made for the step's atoms: <w, XU[k]>
        pruned(rows)
        kept.append(rows)

    monkeypatch.setattr(families._Rows, "pruned", pruning)
    twice = [history, replace(history, name="again")]  # the second reads them again
    again = campaign.run_campaign(twice, sources)
    for source in sources:
        assert again.verdicts[(history.name, source)] == again.verdicts[("again", source)] \
            == whole.verdicts[(history.name, source)]
    monkeypatch.setattr(families, "CELLS", 1)  # a chunk per row
    assert campaign.run_campaign(twice, sources).verdicts == again.verdicts
    assert any(held) and all(not r.products and not r.past for r in kept)  # type: ignore[attr-defined]


def test_a_gram_matrix_past_the_limit_is_not_made_and_said(monkeypatch) -> None:
    """`audit telgarsky-online --data` on a 20 000 x 50 file made the Gram matrix of its
    20 000 examples (4e8 inner products, 3 GB of int64, and as much again stacked) and ended
    the whole audit at a worker's 4 GB (exit 2). Past `GRAM_CELLS` none is made: the steps
    reading `<X[I], X[J]>` (telgarsky-online's two "as written") are not evaluated on those
    runs' rows, with the reason, and its other steps are checked as without the limit."""
    from proofs.library import load_builtin
    from verify.audit.job import statement
    from verify.runs import families

    proof = load_builtin("telgarsky-online")
    stated = statements(proof)
    checks = []
    for step in proof.steps:
        judgement = statement(proof, stated[step.id])
        binding = binding_of(judgement, "online")
        if binding is not None:
            checks.append(campaign.Check(step.id, judgement, binding))
    sources = {"generated": list(campaign.generated(3, 6))}
    whole = campaign.run_campaign(checks, sources)
    assert all(v.instances and not v.unevaluated for v in whole.verdicts.values())
    monkeypatch.setattr(families, "GRAM_CELLS", 0)
    cut = campaign.run_campaign(checks, sources)
    reading = {"lower-bound-as-written", "norm-sum-as-written"}
    assert reading < {c.name for c in checks}
    for check in checks:
        before, after = whole.verdicts[(check.name, "generated")], cut.verdicts[
            (check.name, "generated")]
        if check.name not in reading:
            assert after == before, check.name
            continue
        assert (after.instances, after.unevaluated) == (0, before.instances), check.name
        assert after.reason is not None and after.reason.startswith(
            "the inner products of every pair of examples of its runs' datasets (1 x "), \
            after.reason
        assert after.reason.endswith("are more than the 0 its sums may read at once; check "
                                     "fewer examples"), after.reason


def test_an_online_runs_stream_and_iterates_are_made_only_when_read() -> None:
    """bigdata31: online-history on a 20 000 x 50 file made every visit of the run's stream
    (2*10^7 of 1000 epochs: about 1 GB of int64 families that it never reads) and, for its
    first 335 544 state rows, every iterate of its 9.9 million updates (4 GB of int64). The
    stream families are made when one of them is read, the first rows from their own
    iterates: the same arrays as before, fewer held."""
    from verify.runs.online import engine_runner, state_rows

    rows = ((2, 1), (-1, -3), (1, -1), (3, 1), (-2, 2))
    data = Dataset(tuple(tuple(map(Fraction, x)) for x in rows), (1, -1, 1, -1, 1), "mixed")
    run = engine_runner(Scenario(data, (Fraction(1), Fraction(0)), Origin("test")))
    integer = run.integer
    assert integer is not None and len(run.updates) > 4
    first = state_rows(run, Origin("test"), {"w", "t"}, limit=3)
    assert "iterates" not in integer.__dict__  # the run's other iterates: not made
    whole = state_rows(run, Origin("test"), {"w", "t"})
    assert [first.vectors["w"].row(i) for i in range(3)] == \
        [whole.vectors["w"].row(i) for i in range(3)]
    assert integer.first(3).tolist() == integer.iterates[:3].tolist()
    h = run.history
    assert h.vectors["XU"][0].tolist() == integer.indices.tolist()
    assert h.scalars["YU"].tolist() == [data.y[int(j)] for j in integer.indices]
    assert "XS" in h.vectors and set(h.vectors._values) == {"XU"}  # type: ignore[attr-defined]
    assert set(h.scalars._values) == {"YU"}  # type: ignore[attr-defined]
    visits = int(run.times[-1])
    assert h.vectors["XS"][0].tolist() == [k % data.n for k in range(visits)]
    assert [k for k, v in enumerate(h.scalars["IS"].tolist()) if v] == \
        (run.times - 1).tolist()
    assert h.vectors["ZS"][1].tolist() == h.scalars["YS"].tolist() == \
        [data.y[k % data.n] for k in range(visits)]


@pytest.mark.parametrize(("run", "step"), [(r, i) for r, i, _ in CASES if r != "batch"])
def test_a_rows_products_with_members_are_read_alone_past_product_cells(
        tmp_path: Path, monkeypatch, run: str, step: str) -> None:
    """bigdata31: `<w, XU[k]>` on a chunk of rows made every row's products with every
    example of its run first, a table of rows x examples (2 000 x 20 000, 320 MB of int64 a
    chunk, online-history on a 20 000 x 50 file). Past `PRODUCT_CELLS` the members a row
    reads are multiplied alone: the same columns, no such table made."""
    from verify.runs import families

    tables: list[int] = []
    products = families._row_products

    def spied(num, X, which):  # type: ignore[no-untyped-def]
        tables.append(len(num))
        return products(num, X, which)

    judgement, check, batch = judged(tmp_path, run, step)  # sums from prefix sums
    atoms = sorted(s.name for s in judgement.symbols() if is_atom(s.name))
    expected = {a: [batch.column(sympy.Symbol(a)).value(i) for i in range(len(batch))]
                for a in atoms}
    monkeypatch.setattr(families, "_row_products", spied)
    monkeypatch.setattr(families._Rows, "linear", lambda *_: None)  # row by row

    def again() -> dict[str, list[Fraction]]:
        rows = InstanceBatch(batch.scalars, batch.vectors, batch.origins, batch.origin_index,
                             batch.iteration, families=batch.families)
        check.assumed(rows)
        return {a: [rows.column(sympy.Symbol(a)).value(i) for i in range(len(rows))]
                for a in atoms}

    assert again() == expected
    assert tables or not re.search(r"<XU\[#\d\],w>", str(judgement))  # a table at first
    tables.clear()
    monkeypatch.setattr(families, "PRODUCT_CELLS", 1)  # a chunk's table would pass it
    assert again() == expected and not tables


def test_one_runs_history_is_read_in_place_by_its_chunks() -> None:
    """bigdata31: each chunk of a run's rows copied the run's history into arrays padded to
    the longest run's (two of 80 MB each for the 9.9 million updates of online-history's run
    on a 20 000 x 50 file, made again per chunk). A chunk of one run reads its run's own
    arrays; chunks of several runs still pad them, each run's members where they were."""
    from verify.runs import families
    from verify.runs.online import engine_runner, state_rows

    rows = ((2, 1), (-1, -3), (1, -1), (3, 1), (-2, 2))
    data = Dataset(tuple(tuple(map(Fraction, x)) for x in rows), (1, -1, 1, -1, 1), "mixed")
    run = engine_runner(Scenario(data, (Fraction(1), Fraction(0)), Origin("test")))
    one = state_rows(run, Origin("test", 0), {"w", "t"})
    one.families = (run.families(),)
    first, second, _ = families._Rows(one, slice(0, len(one))).history("XU", True)
    own = run.history.vectors["XU"]
    assert np.shares_memory(first, own[0]) and first[0].tolist() == own[0].tolist()
    assert second is not None and second[0].tolist() == own[1].tolist()
    two = InstanceBatch.concat([one, state_rows(run, Origin("test", 1), {"w", "t"}, limit=2)])
    two.families = (run.families(), run.families())
    padded, _, _ = families._Rows(two, slice(0, len(two))).history("XU", True)
    assert not np.shares_memory(padded, own[0])
    assert padded[0].tolist() == padded[1].tolist() == own[0].tolist()
