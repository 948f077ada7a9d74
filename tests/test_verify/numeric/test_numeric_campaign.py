"""Campaigns: the canonical steps hold exactly on every update of adversarial runs.

The runs use a small exact reference loop (the default conventions: w_0 = 0, eta = 1, update
on y<w,x> <= 0, cyclic epochs until an error-free one), kept here to cross-check the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st

from perceptron.dataset import Dataset
from perceptron.generators.hypothesis import Planted, seeded_separable, separable_data
from perceptron.generators.orders import most_mistakes
from perceptron.geometry.linear import dot
from proofs.language.terms import Vec, scalar
from proofs.language.terms import dot as dot_term
from proofs.language.terms import norm2 as norm2_term
from verify.kernel import Fact, Judgement
from verify.numeric.campaign import (
    JOINT_TIERS,
    ROWS_NOT_MADE,
    TIERS,
    Check,
    _compiled,
    _tier,
    adversary,
    canonical_checks,
    generated,
    orders,
    run_campaign,
    tight,
    verdicts,
    wrong_norm_growth,
)
from verify.numeric.instances import CompiledJudgement, Shrinker
from verify.runs import kind_of
from verify.runs.columns import InstanceBatch, Origin
from verify.runs.online import (
    _JOINT_NAMES,
    JOINT_CELLS,
    OnlineUpdates,
    Update,
    engine_runner,
    margin_runs,
    runner,
)
from verify.runs.quantity import RunKind, Scenario, margin


def reference_run(scenario: Scenario) -> OnlineUpdates:
    data = scenario.data
    w = tuple(Fraction(0) for _ in range(data.d))
    updates: list[Update] = []
    for _ in range(scenario.max_epochs):
        clean = True
        for x, y in zip(data.X, data.y, strict=True):
            if y * dot(w, x) <= 0:
                after = tuple(a + y * b for a, b in zip(w, x, strict=True))
                updates.append(Update(w, x, y, after))
                w, clean = after, False
        if clean:
            break
    return OnlineUpdates(data, scenario.u, tuple(updates))


def reference_mistakes(data: Dataset) -> int:
    return len(reference_run(Scenario(data, data.X[0], Origin("count"))).updates)


TIGHT_CHECKS = ("norm-growth", "lower-bound", "final-bound")


@pytest.mark.slow
def test_canonical_steps_hold_on_10000_instances_per_source_with_zero_slack() -> None:
    result = run_campaign(canonical_checks(), {
        "generated": generated(seed=20_000, count=3500),
        "tight": tight(seed=30_000, count=2600),
        "adversary": adversary(seed=40_000, bounds=range(1, 31), sweeps=23),
    }, runners={"online": reference_run})
    for (name, source), verdict in result.verdicts.items():
        assert verdict.status == "held", (name, source, verdict)
        assert verdict.instances >= 10_000, (name, source, verdict.instances)
        if name in TIGHT_CHECKS and source in ("tight", "adversary"):
            assert verdict.min_slack == 0, (name, source, verdict.min_slack)


def test_adversary_runs_make_exactly_the_promised_mistakes_over_all_epochs() -> None:
    for scenario in adversary(seed=5, bounds=(1, 4, 9), sweeps=4):
        run = reference_run(scenario)
        assert len(run.updates) == scenario.data.n  # every round a mistake, then none


def test_tight_runs_make_n_mistakes() -> None:
    for scenario in tight(seed=6, count=40):
        assert len(reference_run(scenario).updates) == scenario.data.n


@given(st.integers(0, 10**6), st.integers(0, 12), st.integers(1, 12))
def test_tight_draws_the_stream_that_randoms_own_methods_draw(seed: int, start: int,
                                                              count: int) -> None:
    """`tight` draws its stream with `randint_of`: the scenarios (and the shards' starts)
    are those of the stream drawn with `random.Random`'s `randint`, `choice` and
    `randrange`, replayed here as the source drew it before."""
    import random

    from perceptron.generators.tight import orthonormal

    rng = random.Random(seed)
    expected = []
    for i in range(start + count):
        n = rng.randint(1, 8)
        labels = [rng.choice((-1, 1)) for _ in range(n)]
        scale = Fraction(rng.randint(1, 9), rng.choice((1, 1, 2, 3)))
        dim = n + rng.randint(0, 2)
        rotation = rng.randrange(10**6) if rng.random() < 0.5 else None
        if i >= start:
            family = orthonormal(labels, scale=scale, dim=dim, rotation_seed=rotation)
            expected.append((family.data, family.u, Origin("tight", seed + i,
                                                           family.data.name)))
    got = [(s.data, s.u, s.origin) for s in tight(seed, count, start)]
    assert got == expected


def test_tight_goes_on_from_where_its_last_stream_ended() -> None:
    """A stream of `tight` drawn to its end is kept where it ended (`_TIGHT_STREAMS`), and a
    later call of the same seed from there or beyond goes on from it instead of drawing
    the stream again: every cut of the stream, in any order, is the cut of the stream drawn
    whole; a stream left unfinished keeps nothing; and the memo stays bounded."""
    from verify.numeric import campaign as source

    def cut(seed: int, count: int, start: int) -> list[tuple[object, ...]]:
        return [(s.data, s.u, s.origin) for s in tight(seed, count, start)]

    source._TIGHT_STREAMS.clear()
    whole = cut(77, 30, 0)
    source._TIGHT_STREAMS.clear()
    for start, count in ((0, 5), (5, 5), (12, 4), (3, 6), (16, 14), (29, 1)):
        assert cut(77, count, start) == whole[start:start + count]
        assert source._TIGHT_STREAMS[77][0] == start + count
    unfinished = tight(77, 5, 0)
    next(unfinished)
    assert source._TIGHT_STREAMS[77][0] == 30
    for seed in range(2 * source.TIGHT_STREAMS):
        cut(1000 + seed, 1, 0)
    assert len(source._TIGHT_STREAMS) <= source.TIGHT_STREAMS


def test_wrong_step_is_violated_with_a_shrunk_counterexample_and_provenance() -> None:
    wrong = wrong_norm_growth()
    result = run_campaign([wrong], {"tight": tight(seed=8, count=20)},
                          runners={"online": reference_run})
    verdict = result.verdicts[(wrong.name, "tight")]
    assert verdict.status == "violated" and verdict.violations == verdict.instances
    found = verdict.counterexample
    assert found is not None and found.provenance is not None
    assert found.provenance.origin.source == "tight" and found.provenance.origin.seed == 8
    compiled = CompiledJudgement.compile(wrong.judgement)
    shrunk = Shrinker(compiled).shrink(found)
    assert shrunk is not None and compiled.is_counterexample(shrunk)
    assert shrunk.size == (1, 1, 1) and shrunk.size < found.size


def test_order_search_finds_the_worst_order() -> None:
    data = Dataset.of([[1, 0], [0, 1], [1, 1], [2, -1]], [1, 1, 1, 1])
    best = most_mistakes(data, mistakes=reference_mistakes)
    assert best.exhaustive and best.tried == 24
    worst = max(reference_mistakes(data.subset(p)) for p in itertools.permutations(range(4)))
    assert best.mistakes == worst
    big = seeded_separable(3, max_dim=2)
    data9 = Dataset((big.data.X * 9)[:9], (big.data.y * 9)[:9])
    searched = most_mistakes(data9, mistakes=reference_mistakes, seed=4, budget=200)
    assert not searched.exhaustive and sorted(searched.order) == list(range(9))
    assert searched.mistakes >= reference_mistakes(data9)


def test_order_source_runs_reproduce_their_recorded_order() -> None:
    for scenario in orders(seed=9, count=5, counter=reference_mistakes):
        assert scenario.origin.order is not None
        assert scenario.origin.source == "orders"


@given(separable_data())
def test_planted_data_is_strictly_separated_and_steps_hold(planted: Planted) -> None:
    gamma_u = margin(planted.data, planted.u)
    assert gamma_u > 0
    scenario = Scenario(planted.data, planted.u, Origin("hypothesis"))
    run = reference_run(scenario)
    for check in canonical_checks():
        batch = kind_of(check.binding).rows(run, check.binding, scenario.origin)
        verdict = CompiledJudgement.compile(check.judgement).check(batch)
        assert verdict.status != "violated", (check.name, verdict.counterexample)
        if check.name == "final-bound" and verdict.min_slack is not None:
            target(-float(verdict.min_slack / (1 + abs(verdict.min_slack))),
                   label="final-bound slack (reported only)")


def test_state_example_rows_bind_loss_terms_partial_sums_and_gradients() -> None:
    data = Dataset.of([[1, 0], [0, 1], [-1, 2]], [1, -1, 1])
    run = OnlineUpdates(data, (Fraction(2), Fraction(-1)),
                    (Update((Fraction(0), Fraction(0)), data.X[0], 1,
                            (Fraction(1), Fraction(0))),))
    batch = kind_of("example").rows(run, "example", Origin("hand"))
    assert len(batch) == 6  # 2 states x 3 examples
    # state w_1 = (1, 0), example 2 (x = (-1, 2), y = 1): y<w,x> = -1, a strict mistake
    row = batch.instance(5)
    assert row.scalars["m"] == row.scalars["m_set"] == 1
    # before it, example 0 (y<w,x> = 1) and example 1 (y<w,x> = 0, in the non-strict set)
    assert row.scalars["m_sum"] == 0 and row.scalars["Gb"] == 1
    assert row.vectors["G"] == (0, 1)  # -y x of example 1 only
    # t = 1 in dimension 2: direction e_1, h = 1; J_at = -y <w + h d, x_1> = 1 * <(1, 1), (0, 1)>
    assert row.vectors["d"] == (0, 1) and row.scalars["h"] == 1 and row.scalars["J_at"] == 1


def test_real_source_runs_hold_and_name_their_datasets() -> None:
    from verify.numeric.campaign import BENCH_DATA, REAL_SETS, real

    if not BENCH_DATA.is_dir():
        pytest.skip(f"benchmark data not at {BENCH_DATA}")
    iris = [s for s in REAL_SETS if s.file == "iris_data_set"]
    scenarios = list(real(seed=3, orders_per_set=2, sets=iris))
    assert [s.origin.seed for s in scenarios] == [None, 4]
    assert all(s.data.X[0][0] == 1 and margin(s.data, s.u) > 0 for s in scenarios)
    result = run_campaign(canonical_checks(), {"real": scenarios})
    assert all(v.status == "held" for v in result.verdicts.values())


def test_when_rows_are_checked_changes_no_verdict() -> None:
    """Rows are checked in stages (`batch_rows`), small runs first in each: that order picks
    a verdict's counterexample. Checking them after every stage, after many, or at the end
    gives the same verdicts, counterexamples and witnesses, on checks violated here and there
    (in small and in big runs, on three row sets) as well as on the canonical ones."""
    t, y = scalar("t"), scalar("y")
    w, x = Vec.named("w"), Vec.named("x")
    checks = [*canonical_checks(), wrong_norm_growth(),
              Check("late", Judgement((), Fact(2 - t, ">=")), "state"),
              Check("margin", Judgement((), Fact(y * dot_term(w, x), ">")), "example")]
    results = []
    for held_rows in (1, 900, 10**9):
        sources = {"generated": generated(seed=40, count=30),
                   "adversary": adversary(seed=41, bounds=range(1, 7), sweeps=2),
                   "tight": tight(seed=42, count=20)}
        found = run_campaign(checks, sources, batch_rows=300, held_rows=held_rows)
        results.append((found.verdicts, found.witnesses, found.runs))
    assert results[0] == results[1] == results[2]
    verdicts = results[0][0]
    assert {key for key, v in verdicts.items() if v.status == "violated"} >= {
        ("late", "generated"), ("late", "adversary"), ("margin", "tight"),
        ("norm-growth-without-R2", "adversary")}


def test_a_judgement_stated_by_two_checks_is_evaluated_once_per_batch(monkeypatch) -> None:
    """A step copied into another proof (`uses = ["PROOF/STEP"]`) states the same judgement:
    the campaign evaluates it once per batch and records the same verdict under both names."""
    norm = next(c for c in canonical_checks() if c.name == "norm-invariant")
    twice = [norm, replace(norm, name="copy-of-norm-invariant")]
    calls: list[object] = []
    original = CompiledJudgement.check_rows

    def counted(self: CompiledJudgement, batch: object, unmet: object = None) -> object:
        calls.append(batch)
        return original(self, batch, unmet)

    monkeypatch.setattr(CompiledJudgement, "check_rows", counted)
    once = run_campaign(twice, {"generated": generated(0, 4)})
    evaluations = len(calls)
    calls.clear()
    alone = run_campaign([norm], {"generated": generated(0, 4)})
    assert evaluations == len(calls) > 0
    assert once.verdicts[("norm-invariant", "generated")] == \
        once.verdicts[("copy-of-norm-invariant", "generated")] == \
        alone.verdicts[("norm-invariant", "generated")]


def test_a_checks_compiled_judgement_is_found_by_identity_never_by_a_stale_id() -> None:
    """`_compiled` finds a check's compiled judgement by the check's identity: the same
    object as `CompiledJudgement.compile` makes of its judgement; an entry left under the
    check's id by another object (an id reused) is not taken for it; a full memo starts
    again."""
    from verify.numeric import campaign

    first, second = canonical_checks()[:2]
    assert campaign._compiled(first) is CompiledJudgement.compile(first.judgement)
    stale = replace(second)  # equal to `second`, another object
    campaign._COMPILED[id(stale)] = (second, CompiledJudgement.compile(first.judgement))
    assert campaign._compiled(stale).judgement == stale.judgement
    assert campaign._COMPILED[id(stale)][0] is stale
    campaign._COMPILED.update({-k: (first, campaign._compiled(first))
                               for k in range(1, campaign.COMPILED_CHECKS + 1)})
    fresh = replace(second)
    assert campaign._compiled(fresh).judgement == fresh.judgement
    assert list(campaign._COMPILED) == [id(fresh)]
    campaign._COMPILED.clear()


def _sampled(lengths: Sequence[int], most: int = 300) -> range | list[int]:
    """The rows of runs of these row counts, checked together, that a comparison reads: all
    of them up to `most`, else each run's first and last three (where a run's rows meet the
    next run's, the seams of a joint batch) and an even sample of `most`. Reading every row
    as Fractions made the property test below take 53 s, 2.7 million rows of long margin
    runs."""
    total = sum(lengths)
    if total <= most:
        return range(total)
    rows = set(range(0, total, total // most))
    start = 0
    for length in lengths:
        rows |= {i for i in (*range(start, start + 3), *range(start + length - 3, start + length))
                 if start <= i < start + length}
        start += length
    return sorted(rows)


def _rationals(batch: InstanceBatch, names: frozenset[str],
               rows: Iterable[int] | None = None) -> list[tuple[object, ...]]:
    """The rows of `batch` (all, or those given) as exact values of `names` (vectors without
    trailing zeros: the padding of rows checked together is no value)."""
    def trimmed(row: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        while row and row[-1] == 0:
            row = row[:-1]
        return row

    return [tuple((n, batch.scalars[n].value(i)) if n in batch.scalars
                  else (n, trimmed(batch.vectors[n].row(i))) for n in sorted(names))
            for i in (range(len(batch)) if rows is None else rows)]


#: The joint-rows property's data: planted separable sets, and a seed for generated ones.
JOINT_DATA = (st.lists(separable_data(max_dim=4, max_n=6), min_size=1, max_size=5),
              st.integers(0, 10**6))


@pytest.mark.parametrize("prepared", ["none", "all", "some"])
@settings(max_examples=8, deadline=None)
@given(*JOINT_DATA)
def test_joint_rows_are_each_runs_rows_and_give_the_same_verdicts(
        prepared: str, planted: list[Planted], seed: int) -> None:
    """The property of `_joint_rows_agree` on 8 examples per way of preparing (about 17 s
    of the default suite's CPU at 25): the full 25 run with `-m slow`."""
    _joint_rows_agree(prepared, planted, seed)


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
@pytest.mark.parametrize("prepared", ["none", "all", "some"])
@settings(max_examples=25, deadline=None)
@given(*JOINT_DATA)
def test_joint_rows_agree_on_25_examples(prepared: str, planted: list[Planted],
                                         seed: int) -> None:
    """`_joint_rows_agree` on 25 examples per way of preparing."""
    _joint_rows_agree(prepared, planted, seed)


def _joint_rows_agree(prepared: str, planted: list[Planted], seed: int) -> None:
    """The rows of many runs made at once (`Joint`, the online kind's `joint_rows`) are, row
    by row, the exact values each run's own builder gives (whatever their denominators),
    with the same count; and every canonical check (and one false step) gives the same
    verdict on them as on the runs' own rows checked in order (`verdicts`), counterexample
    aside: a violation sends a campaign back to those rows (`_jointly`). So they are when
    the runs were readied together first (`Joint.prepare`: stacked once, read off that
    stack), all of them or every other one (then made run by run as before)."""
    scenarios = [Scenario(p.data, p.u, Origin("hypothesis", k)) for k, p in enumerate(planted)]
    scenarios += list(generated(seed, 3))  # rational data over other denominators
    runs = [engine_runner(s) for s in scenarios]
    # other algorithms' runs: the margin perceptron's (a beta), a source's on its data
    # divided by their radius bound (other denominators)
    margins = margin_runs(scenarios[0])
    stepped = runner("telgarsky-online")(scenarios[-1])
    runs += [*margins, stepped]
    scenarios += [scenarios[0]] * len(margins) + [scenarios[-1]]
    online = kind_of("state")
    if prepared != "none":
        joint = online.joint("state")
        assert joint is not None
        joint.prepare(runs if prepared == "all" else runs[::2])
        # R2 is stored in the runs' problems there, where their own rows read it too
        for run in runs:
            if run.integer is not None:
                rows = run.integer.problem.form.rows.tolist()
                assert run.integer.problem.R2 == max(sum(v * v for v in row) for row in rows)
    checks = [*canonical_checks(), wrong_norm_growth()]
    for binding in ("state", "update", "example"):
        joint = online.joint(binding)
        assert joint is not None
        read = [c for c in checks if c.binding == binding]
        for names in (frozenset().union(*(_compiled(c).names for c in read)),
                      _JOINT_NAMES[binding]):
            counts = [joint.count(run, names) for run in runs]
            own = [online.rows(run, binding, s.origin, names)
                   for run, s in zip(runs, scenarios, strict=True)]
            for run, count, part in zip(runs, counts, own, strict=True):
                if count is None:  # made on its own: too many coordinates for a joint batch
                    assert len(part) * max(run.data.d, 1) > JOINT_CELLS
                else:
                    assert count == len(part)
            kept = [(run, s.origin) for run, s, c in zip(runs, scenarios, counts, strict=True)
                    if c]
            if not kept:
                continue
            together = joint.build([r for r, _ in kept], [o for _, o in kept], names)
            # the rows of the runs made jointly (a run of more coordinates than
            # JOINT_CELLS is made on its own, not in `together`)
            parts = [part for part, c in zip(own, counts, strict=True) if c]
            alone = InstanceBatch.concat(parts)
            assert len(together) == len(alone)
            rows = _sampled([len(part) for part in parts])
            assert _rationals(together, names, rows) == _rationals(alone, names, rows)
            if names != _JOINT_NAMES[binding]:
                compiled = [(c, _compiled(c)) for c in read]
                expected = verdicts([(0, part) for part in parts], compiled)
                for (_, judgement), verdict in zip(compiled, expected, strict=True):
                    got = judgement.check(together)
                    assert replace(got, counterexample=None) == \
                        replace(verdict, counterexample=None)


def test_joint_rows_change_no_verdict_counterexample_or_witness(monkeypatch) -> None:
    """A campaign whose runs' rows are made jointly reports what one that makes each run's
    rows alone reports: verdicts, counts, least slacks, the counterexamples of false steps
    (found again on each run's own rows) and their witnesses; with true steps only, and
    with a false one on every row set."""
    from verify.numeric import campaign as module

    t, y = scalar("t"), scalar("y")
    w, x = Vec.named("w"), Vec.named("x")
    false = [wrong_norm_growth(), Check("late", Judgement((), Fact(2 - t, ">=")), "state"),
             Check("margin", Judgement((), Fact(y * dot_term(w, x), ">")), "example")]

    def campaign(checks: list[Check]) -> tuple[object, ...]:
        sources = {"generated": generated(seed=40, count=30),
                   "adversary": adversary(seed=41, bounds=range(1, 7), sweeps=2),
                   "tight": tight(seed=42, count=20)}
        found = run_campaign(checks, sources, batch_rows=300)
        return found.verdicts, found.witnesses, found.runs

    answered: list[tuple[bool, bool]] = []  # (joint verdicts, some violated)
    original = module._jointly

    def spied(*args: object) -> object:
        found = original(*args)  # type: ignore[arg-type]
        answered.append((found is not None, any(v.violations for v in found or ())))
        return found

    monkeypatch.setattr(module, "_jointly", spied)
    true_only = campaign(list(canonical_checks()))
    assert answered and all(joint and not violated for joint, violated in answered)
    answered.clear()
    with_false = campaign([*canonical_checks(), *false])
    assert all(joint for joint, _ in answered)
    assert any(violated for _, violated in answered)  # checked again on each run's rows
    assert any(v.counterexample is not None for v in with_false[0].values())
    monkeypatch.setattr(RunKind, "joint", lambda _kind, _row_set: None)
    assert campaign(list(canonical_checks())) == true_only
    assert campaign([*canonical_checks(), *false]) == with_false


def test_a_tier_is_the_first_edge_at_least_the_bits():
    """`_tier` (a bisection) is the first edge of the tiers at least the bit length, and
    their count past the last, on `TIERS`, `JOINT_TIERS` and no edges, every edge included."""
    for tiers in (TIERS, JOINT_TIERS, ()):
        for bits in range(0, 130):
            assert _tier(bits, tiers) == next(
                (k for k, edge in enumerate(tiers) if bits <= edge), len(tiers))
    assert [_tier(bits) for bits in (0, 8, 9, 62, 63)] == [0, 0, 1, 4, 5]


def test_a_run_whose_rows_are_past_the_limit_is_left_unmade_and_said(monkeypatch) -> None:
    """Newcomer 26, F6: `audit --data` on a 20 000 x 50 file made every example row of its
    run (739 states times 20 000 examples) at once: 13 GB, killed. Rows of one run past
    `MAX_RUN_CELLS` are not made; the checks reading them record them as unevaluated, with
    a reason naming the run, its rows and the limit; the other row sets are checked as before,
    and the same campaign under the limit checks them all."""
    from verify.numeric import campaign as module
    from verify.runs.columns import Origin
    from verify.runs.quantity import Scenario

    X = tuple((Fraction(a), Fraction(b)) for a, b in
              ((2, 1), (-1, -3), (1, -1), (3, 2), (-2, -1), (1, 2), (-3, 1), (2, -2)))
    u = (Fraction(3), Fraction(1))
    y = tuple(1 if dot(x, u) > 0 else -1 for x in X)
    scenario = Scenario(Dataset(X, y, "eight.csv"), u, Origin("data", None, "eight.csv"))
    checks = canonical_checks()
    whole = run_campaign(checks, {"data": [scenario]})
    assert all(v.unevaluated == 0 for v in whole.verdicts.values())
    example = [c for c in checks if c.binding == "example"]
    assert example and len(example) < len(checks)  # state rows too, below
    assert all(whole.verdicts[(c.name, "data")].instances for c in example)
    states = len(engine_runner(scenario).updates) + 1
    limit = 2 * states  # the state rows' coordinates: made, the example rows' not
    monkeypatch.setattr(module, "MAX_RUN_CELLS", limit)
    cut = run_campaign(checks, {"data": [scenario]})
    for check in checks:
        verdict = cut.verdicts[(check.name, "data")]
        if check.binding == "example":
            assert verdict.status == "not-run" and verdict.reason is not None
            assert verdict.reason.startswith(
                f"{module.ROWS_NOT_MADE}: the run on eight.csv has ")
            rows_of_run = int(verdict.reason.split(" has ")[1].split()[0])
            assert rows_of_run % len(X) == 0  # states times examples
            assert (verdict.instances, verdict.vacuous, verdict.unevaluated) == (
                0, 0, rows_of_run)
            assert verdict.reason.endswith(
                f"example rows of 2 coordinates, {rows_of_run * 2} in all, more than the "
                f"{limit} one run's rows may hold (they are made whole); check fewer "
                "examples, or fewer coordinates")
        else:  # the run's state rows: as many as before, all checked
            assert verdict == whole.verdicts[(check.name, "data")]


@pytest.mark.parametrize("kept", [3, 0])
def test_a_voted_run_past_its_presentations_is_kept_for_whole_epochs_and_said(
        monkeypatch, kept: int) -> None:
    """Votedbig: `audit averaged-voted --data` on a 20 000 x 50 file that is not separable
    ended at a worker's 4 GB (exit 2): the voted perceptron's own run was made whole before
    any row set was asked for. A run asked for more than `VOTED_PRESENTATIONS` presentations
    is kept for the whole epochs within it (none when one epoch is more), the updates of
    the others counted, and every check on its rows is checked on the rows kept and records
    those not made, exactly counted, with a reason naming the file, the epochs kept and asked,
    the limit and the rows."""
    from perceptron.algorithms.voted import run_voted
    from verify.runs import cyclic

    X = tuple((Fraction(a), Fraction(b)) for a, b in
              ((2, 1), (-1, -3), (1, -1), (3, 2), (-2, -1), (1, 2), (-3, 1), (2, -2)))
    y = (1, 1, -1, 1, 1, -1, 1, 1)  # (2, 1) and (-2, -1) both +1: not separable
    data = Dataset(X, y, "eight.csv")
    scenario = Scenario(data, (Fraction(1), Fraction(0)), Origin("data", None, "eight.csv"))
    checks = []
    for row_set in cyclic.KIND.row_sets:  # a claim true on every row, on each row set
        vector = next(q.name for q in cyclic.KIND.quantities
                      if q.vector and row_set.name in q.rows)
        checks.append(Check(row_set.name, Judgement(
            (), Fact(norm2_term(Vec.named(vector)), ">="), (vector,), ()), row_set.name,
            "voted-perceptron"))
    epochs = cyclic.voted_epochs(data, scenario.max_epochs)
    whole = run_voted(data, epochs)
    rows = {"cyclic-state": whole.updates + 1, "cyclic-presentation": epochs * 8,
            "cyclic-epoch": epochs}
    before = run_campaign(checks, {"data": [scenario]})
    assert {c.name: (before.verdicts[(c.name, "data")].instances,
                     before.verdicts[(c.name, "data")].unevaluated) for c in checks} == {
        name: (count, 0) for name, count in rows.items()}
    limit = 8 * kept + 5  # whole epochs: `kept` of them
    monkeypatch.setattr(cyclic, "VOTED_PRESENTATIONS", limit)
    cut = run_campaign(checks, {"data": [scenario]})
    made = {"cyclic-state": (run_voted(data, kept).updates if kept else 0) + 1,
            "cyclic-presentation": kept * 8, "cyclic-epoch": kept}
    for check in checks:
        verdict = cut.verdicts[(check.name, "data")]
        missing = rows[check.name] - made[check.name]
        assert missing > 0 and (verdict.instances, verdict.vacuous, verdict.violations,
                                verdict.unevaluated) == (made[check.name], 0, 0, missing)
        assert verdict.reason == (
            f"{ROWS_NOT_MADE}: the run on eight.csv is the voted perceptron's first {kept} "
            f"of its {epochs} epochs (one run keeps at most {limit} presentations, whole "
            f"epochs), so the {missing} {check.name} rows of the other {epochs - kept} are "
            "not made; check fewer examples")


@pytest.mark.parametrize("name", ["online", "batch", "cyclic", "single-pass"])
def test_every_row_set_of_a_built_in_kind_is_left_unmade_past_the_limit(monkeypatch,
                                                                        name: str) -> None:
    """`audit averaged-voted --data` on a 20 000 x 50 file ended the whole audit at a
    worker's 4 GB (exit 2): only the online example rows were bounded. Every row set of every
    built-in kind counts its rows (`RowSet.count`, `RunKind.size`), and a run's rows of one
    row set past `MAX_RUN_CELLS` coordinates are not made, whatever the row set: for each
    row set, with the limit just below its largest run's rows, the checks on it (and on any
    row set as large) are unevaluated on those runs with the reason naming the run, the row
    set, its rows and the limit, and the checks on smaller row sets are checked as before.
    A row set that can make its first rows alone (`RowSet.prefix`: the online and cyclic
    state rows, the online update rows, the cyclic presentation rows) makes as many as the
    limit allows and says on how many of how many each step is checked (votedbig: dataguard
    made none, and the margin perceptron's 422 920 state rows on a 20 000 x 50 file, checked
    before it, were not checked at all; bigdata30: nor were any of the voted run's rows on a
    20 000 x 50 file that is not separable, cyclic rows being made whole)."""
    from verify.numeric import campaign as module
    from verify.runs import kind

    run_kind = kind(name)
    checks = []
    for row_set in run_kind.row_sets:  # a claim true on every row, on each row set
        vector = next(q.name for q in run_kind.quantities if q.vector and row_set.name in q.rows)
        checks.append(Check(row_set.name, Judgement(
            (), Fact(norm2_term(Vec.named(vector)), ">="), (vector,), ()), row_set.name))
    X = tuple((Fraction(a), Fraction(b)) for a, b in
              ((2, 1), (-1, -3), (1, -1), (3, 2), (-2, -1), (1, 2), (-3, 1), (2, -2)))
    u = (Fraction(3), Fraction(1))
    y = tuple(1 if dot(x, u) > 0 else -1 for x in X)
    scenario = Scenario(Dataset(X, y, "eight.csv"), u, Origin("data", None, "eight.csv"))
    if run_kind.passes:  # one pass, read for a unit u at a margin
        scenario = replace(scenario, u=(Fraction(3, 5), Fraction(4, 5)),
                           margins=(Fraction(1, 2), Fraction(1)))
    made = run_kind.runner(None)(scenario)
    runs = made if isinstance(made, tuple) else (made,)
    sizes: dict[str, list[int]] = {}  # row set -> rows of each run, each 2 coordinates
    where = [run_kind.label(scenario.origin, run).dataset for run in runs]  # each run's name
    for row_set in run_kind.row_sets:
        for run in runs:
            size = run_kind.size(run, row_set.name)
            assert size is not None and size[1] == 2, row_set.name
            assert size[0] == len(run_kind.rows(run, row_set.name, scenario.origin))
            sizes.setdefault(row_set.name, []).append(size[0])
    whole = run_campaign(checks, {"data": [scenario]})
    assert all(v.unevaluated == 0 and v.instances for v in whole.verdicts.values())
    largest = max(max(rows) for rows in sizes.values())
    smaller = 0
    for row_set in run_kind.row_sets:
        limit = 2 * max(sizes[row_set.name]) - 1
        monkeypatch.setattr(module, "MAX_RUN_CELLS", limit)
        cut = run_campaign(checks, {"data": [scenario]})
        for check in checks:
            verdict = cut.verdicts[(check.name, "data")]
            over = [(rows, at) for rows, at in zip(sizes[check.binding], where, strict=True)
                    if 2 * rows > limit]
            if not over:  # checked as without a limit
                assert verdict == whole.verdicts[(check.name, "data")], check.name
                smaller += max(sizes[row_set.name]) == largest
                continue
            first = run_kind.first(check.binding, 2, limit)  # rows made
            assert first == (limit // (2 * next(r.vectors for r in run_kind.row_sets
                                                if r.name == check.binding))
                             if run_kind.prefix(check.binding) else 0)
            assert verdict.unevaluated == sum(rows - first for rows, _ in over), check.name
            rows, at = over[0]  # the reason of the first run refused
            made = ("(they are made whole)" if not first else
                    f"(they are made at once): checked on the first {first} of "
                    f"its {rows} rows")
            assert verdict.reason == (
                f"{module.ROWS_NOT_MADE}: the run on {at} has {rows} {check.binding} rows of "
                f"2 coordinates, {2 * rows} in all, more than the {limit} one run's rows may "
                f"hold {made}; check fewer examples, or fewer coordinates"), verdict.reason
            if len(over) == len(sizes[check.binding]) and not first:  # no run's rows made
                assert verdict.status == "not-run" and verdict.instances == 0
            if first:  # the first rows of each run past it, as many as the limit allows
                made_rows = sum(min(rows, first) for rows in sizes[check.binding])
                assert verdict.instances + verdict.vacuous == made_rows, check.name
    assert smaller or len({max(rows) for rows in sizes.values()}) == 1  # others checked
