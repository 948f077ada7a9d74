"""The registry of run kinds (`verify.runs`): open to a kind defined here, in a test file,
audited through the normal path; the built-in kinds' laws hold on their runs; the generated
page of run quantities is the registry's."""

from __future__ import annotations

import pickle
from collections.abc import Collection, Iterator
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import pytest

from perceptron.dataset import Dataset
from perceptron.geometry.linear import radius2
from proofs.language.terms import scalar
from verify import audit_proofs
from verify.audit.report import to_json
from verify.numeric import campaign, passes
from verify.numeric.campaign import Check, run_campaign
from verify.runs import (
    Quantity,
    RowSet,
    RunKind,
    UnknownRunKind,
    entry_point,
    kind,
    kind_of,
    kinds,
    register,
    unregister,
)
from verify.runs import quantity as registry
from verify.runs.columns import Column, InstanceBatch, Origin, VectorColumn, run_rows
from verify.runs.docs import PAGE, markdown
from verify.runs.naming import binding_of, law

# ---- a toy kind, defined here and nowhere in the package --------------------------------------


def toy_rows(data: Dataset, origin: Origin, names: Collection[str] | None = None
             ) -> InstanceBatch:
    """One row per example of the data, in order: the example, its label, its position."""
    n = data.n
    return run_rows({"y": Column.of(data.y), "j": Column(np.arange(n, dtype=np.int64)),
                     "R2": Column.constant(radius2(data), n)},
                    {"x": VectorColumn.of(data.X, data.d)}, origin, np.arange(n))


def toy_runner(algorithm: str | None):
    """The toy run of a scenario is its data, as given; no algorithm of its own."""
    if algorithm is not None:
        raise ValueError(f"{algorithm}: toy runs have no algorithm")
    return lambda scenario: scenario.data


TOY = RunKind(
    "toy-examples",
    "each example of the scenario once, in order (no iteration at all)",
    (Quantity("x", True, "the example", ("toy-example",)),
     Quantity("y", False, "its label", ("toy-example",)),
     Quantity("j", False, "its position in the scenario's order", ("toy-example",)),
     Quantity("R2", False, "`max_i ||x_i||^2`", ("toy-example",))),
    (RowSet("toy-example", "one row per example", toy_rows),),
    toy_runner,
)

TOY_PROOF = """\
title = "Toy kind: each example on its own"
vectors = ["x", "w"]
scalars = ["y", "R2", "j"]

[numeric]
run = "toy-examples"
{names}

[[step]]
id = "label-fourth-power"
given = ["y**2 == 1"]
claim = "y**4 == 1"

[[step]]
id = "scaled-radius"
given = ["norm2(x) <= R2"]
claim = "norm2(2*x) <= 4*R2"

[[step]]
id = "position"
given = ["j >= 0"]
claim = "j + 1 >= 1"

[[step]]
id = "no-iterate"
given = []
claim = "norm2(w) >= 0"
"""


@pytest.fixture
def toy() -> Iterator[RunKind]:
    register(TOY)
    try:
        yield TOY
    finally:
        unregister(TOY.name)


def test_a_kind_registered_from_a_test_file_is_audited_through_the_normal_path(
        toy: RunKind, tmp_path: Path) -> None:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_PROOF.format(names=""))
    audit = audit_proofs(path, budget="small")
    assert audit.errors == () and audit.passed()
    (proof,) = audit.proofs
    steps = {s.step.id: s for s in proof.steps}
    assert proof.status == "verified"
    for step_id in ("label-fourth-power", "scaled-radius", "position"):
        verdict = steps[step_id].numeric
        assert verdict is not None and verdict.status == "held", step_id
        assert verdict.instances >= 100 and verdict.violations == 0
    # every row is one example: the hypotheses hold on each (labels are +-1, R2 the max)
    assert steps["scaled-radius"].numeric.vacuous == 0  # type: ignore[union-attr]
    # a name the kind does not offer is not run, and the report says why
    assert steps["no-iterate"].numeric is None
    assert steps["no-iterate"].reason.startswith("w is no quantity of a toy-examples run")
    report = to_json(audit)  # the report a built-in proof gets
    assert [p["id"] for p in report["proofs"]] == [proof.id]
    assert report["summary"]["numeric"]["checked_steps"] == 3


def test_a_toy_step_false_on_runs_is_violated_with_its_row(toy: RunKind,
                                                             tmp_path: Path) -> None:
    text = TOY_PROOF.format(names="") + '\n[[step]]\nid = "small"\ngiven = []\nclaim = "j <= 3"\n'
    path = tmp_path / "toy.toml"
    path.write_text(text)
    (proof,) = audit_proofs(path, budget="small").proofs
    small = next(s for s in proof.steps if s.step.id == "small")
    assert small.numeric is not None and small.numeric.status == "violated"
    assert small.numeric.counterexample is not None
    assert small.numeric.counterexample.scalars["j"] == 4  # the first position past 3


def test_unknown_names_are_refused_with_what_the_kind_offers(toy: RunKind,
                                                            tmp_path: Path) -> None:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_PROOF.format(names='names = { j = "jj + 1" }'))
    audit = audit_proofs(path, budget="small")
    assert audit.proofs == () and len(audit.errors) == 1
    assert "'jj' is no quantity of toy-examples runs (closest: 'j'); they offer: R2, j, x, y" \
        in audit.errors[0]


def test_without_registering_the_kind_the_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_PROOF.format(names=""))
    audit = audit_proofs(path, budget="small")
    assert audit.proofs == () and "no run kind 'toy-examples'" in audit.errors[0]


# ---- the registry --------------------------------------------------------------------------


def test_the_built_in_kinds_and_their_row_sets() -> None:
    assert [k.name for k in kinds()] == ["online", "batch", "single-pass", "cyclic"]
    assert [r.name for r in kind("online").row_sets] == ["state", "example", "update"]
    assert kind_of("batch-member") is kind("batch")
    assert kind_of("pass-update").passes and not kind("online").passes
    assert kind_of("cyclic-epoch") is kind("cyclic") and kind("cyclic").any_data
    assert not any(kind(name).any_data for name in ("online", "batch", "single-pass"))
    online = kind("online")
    assert online.binding_for({"w", "t", "R2"}) == "state"
    assert online.binding_for({"w", "x", "y"}) == "example"
    assert online.binding_for({"w", "w_next"}) == "update"
    assert online.binding_for({"w", "theta"}) is None
    assert online.binding_for({"d"}, scalars={"d"}, vectors=set()) is None  # d is a vector


def test_registering_is_idempotent_and_names_are_unique(toy: RunKind) -> None:
    assert register(TOY) is TOY
    other = RunKind("toy-examples", "another", TOY.quantities, TOY.row_sets, toy_runner)
    with pytest.raises(ValueError, match="already registered"):
        register(other)
    thief = RunKind("thief", "reuses a row set name",
                    (Quantity("w", True, "w", ("state",)),),
                    (RowSet("state", "rows", toy_rows),), toy_runner)
    with pytest.raises(ValueError, match="row set 'state' is already online's"):
        register(thief)
    with pytest.raises(ValueError, match="built-in"):
        unregister("online")


def test_a_quantity_must_name_row_sets_of_its_kind() -> None:
    with pytest.raises(ValueError, match="quantity x names row sets"):
        RunKind("bad", "x", (Quantity("x", True, "x", ("nowhere",)),),
                (RowSet("bad-rows", "rows", toy_rows),), toy_runner)


def test_an_unknown_kind_names_the_registered_ones_and_the_closest() -> None:
    with pytest.raises(UnknownRunKind, match=r"no run kind 'batc' \(closest: 'batch'\); "
                                             r"registered: online, batch, single-pass, "
                                             r"cyclic"):
        kind("batc")


def test_a_kind_travels_to_a_worker_by_name() -> None:
    for built_in in kinds():
        assert pickle.loads(pickle.dumps(built_in)) is built_in


@dataclass(frozen=True)
class _EntryPoint:
    name: str
    value: str
    made: object

    def load(self) -> object:
        return self.made


def test_an_entry_point_is_loaded_only_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[str] = []

    def installed(group: str) -> list[_EntryPoint]:
        assert group == "novikoff.runs"
        loads.append(group)
        return [_EntryPoint("toy", "tests:TOY", lambda: TOY)]

    monkeypatch.setattr(registry, "entry_points", installed)
    with pytest.raises(UnknownRunKind, match="toy-examples"):
        kind("toy-examples")  # naming a kind in a proof never loads one
    assert loads == []
    try:
        assert entry_point("toy") is TOY and kind("toy-examples") is TOY
    finally:
        unregister(TOY.name)
    with pytest.raises(UnknownRunKind, match="no entry point 'nope'"):
        entry_point("nope")


# ---- the built-in kinds keep their own laws ------------------------------------------------


@pytest.mark.parametrize("name", ["online", "batch", "single-pass", "cyclic"])
def test_every_law_of_a_built_in_kind_holds_exactly_on_its_runs(name: str) -> None:
    run_kind = kind(name)
    assert run_kind.laws
    checks = []
    for law_name in run_kind.laws:
        judgement = law(name, law_name)
        binding = binding_of(judgement, name)
        assert binding is not None, law_name
        checks.append(Check(f"{name}/{law_name}", judgement, binding))
    sources = {"generated": campaign.generated(1, 8), "tight": campaign.tight(2, 8),
               "noisy": passes.noisy(3, 2), "tight-pass": passes.tight(4, 3)}
    result = run_campaign(checks, sources)
    for check in checks:
        verdicts = [v for (c, _), v in result.verdicts.items() if c == check.name]
        assert verdicts and all(v.status == "held" and v.violations == 0 for v in verdicts)
        assert sum(v.instances for v in verdicts) > 10


def test_the_canonical_checks_are_read_from_the_proof_file() -> None:
    """Each canonical check is a step of canonical-online as the audit binds it (or the
    online update rule): a different statement there would be a different check here."""
    from proofs.library import load_builtin
    from verify.audit.job import statement
    from verify.proof_checker import statements

    proof = load_builtin("canonical-online")
    stated = statements(proof)
    checks = {c.name: c for c in campaign.canonical_checks()}
    for name, (form, source) in campaign.CANONICAL.items():
        if form == "statement":
            assert checks[name].judgement == statement(proof, stated[source]), name
    assert checks["update-rule"].judgement == law("online", "update-rule")
    growth = checks["norm-growth"].judgement
    assert {s.name for s in growth.symbols()} == {"R2", "y", "<w,x>", "<x,x>"}
    assert checks["norm-growth"].binding == "example"
    # without its R2 term the one-update form is false, and stays so (refutation tests)
    wrong = campaign.wrong_norm_growth()
    assert wrong.judgement.claim.expr == growth.claim.expr - scalar("R2")


# ---- the generated page --------------------------------------------------------------------


def test_the_page_of_run_quantities_is_the_registrys() -> None:
    assert PAGE.read_text(encoding="utf-8") == markdown(), (
        "docs/run-quantities.md is stale: run python -m verify.runs.docs")
    text = markdown()
    for run_kind in kinds():
        for q in run_kind.quantities:
            assert f"| `{q.name}` |" in text.split(f"## `{run_kind.name}`")[1]


def test_every_formula_of_the_registry_is_proof_file_syntax() -> None:
    """Each quantity's definition and every formula of its doc is read by the proof language
    (`verify.runs.docs.unparsed`): a doc written in ASCII art again (`||x_i||^2`) fails here
    and in `python -m verify.runs.docs --check`, before a report has to typeset it."""
    from verify.runs.docs import unparsed

    for run_kind in kinds():
        assert unparsed(run_kind) == [], run_kind.name
    stated = [f for k in kinds() for q in k.quantities for f in q.formulas()]
    assert "Y[j]*dot(u, X[j])" in stated and "w + tau*y*x" in stated and len(stated) > 60


@pytest.mark.parametrize(("name", "doc", "formula", "reason"), [
    # the ASCII the docs were written in, which the reports' regular expressions guessed at
    ("gamma_u", "`min_i y_i <u, x_i>`", "", "invalid syntax"),
    ("R2", "the squared radius", "max_i ||x_i||^2", "invalid syntax"),
    ("w_next", "", "w + tau y x", "invalid syntax"),
    ("beta", "`y<w,x> <= beta`", "", "invalid syntax"),
    # proof-file syntax of the wrong sort, or no definition at all
    ("w_next", "", "dot(w, x)", ""),
    ("t", "", "w + x", ""),
    ("t", "", "t >= 0", "a definition is an expression, not a relation"),
    # a name no online run offers, a function the language does not have
    ("t", "before `w_k`", "", "w_k names nothing an online run offers"),
    ("s", "`sign(dot(w, x))`", "", "only dot(a, b), norm2(a) and sum"),
])
def test_a_formula_that_is_not_proof_file_syntax_is_said(name: str, doc: str, formula: str,
                                                         reason: str) -> None:
    from dataclasses import replace

    from verify.runs.docs import unparsed

    online = kind("online")
    if name not in online.offered:
        bad = Quantity(name, False, doc, ("state",), formula)
        quantities = (*online.quantities, bad)
    else:
        quantities = tuple(replace(q, doc=doc, formula=formula,
                                   extreme=q.extreme if formula else "")
                           if q.name == name else q for q in online.quantities)
    problems = unparsed(replace(online, quantities=quantities))
    assert len(problems) == 1 and problems[0].startswith(f"online {name}: `"), problems
    assert reason in problems[0]


def test_a_quantity_says_its_formulas_apart_from_its_words() -> None:
    gamma_u = kind("online").quantity("gamma_u")
    assert (gamma_u.formula, gamma_u.extreme) == ("Y[j]*dot(u, X[j])", "min")
    words, formula = gamma_u.parts()[:2]
    assert not words[0] and formula == (True, "dot(w_t, u) >= t*gamma_u")
    assert gamma_u.formulas()[0] == "Y[j]*dot(u, X[j])"
    with pytest.raises(ValueError, match="extreme"):
        Quantity("v", False, "", ("state",), extreme="min")
    with pytest.raises(ValueError, match="code span"):
        Quantity("v", False, "an `open span", ("state",))


def test_docs_check_exits_1_on_a_stale_page(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    from verify.runs import docs

    page = tmp_path / "run-quantities.md"
    monkeypatch.setattr(docs, "PAGE", page)
    assert docs.main(["--check"]) == 1
    assert docs.main([]) == 0 and page.read_text(encoding="utf-8") == markdown()
    assert docs.main(["--check"]) == 0


# ---- the command line: an installed kind, named ----------------------------------------------


def test_the_cli_registers_an_installed_kind_only_when_named(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    monkeypatch.setattr(registry, "entry_points",
                        lambda group: [_EntryPoint("toy", "tests:TOY", TOY)])
    path = tmp_path / "toy.toml"
    path.write_text(TOY_PROOF.format(names=""))
    common = [str(path), "--budget", "small", "--jobs", "1"]
    assert main(["audit", *common]) == 2  # not named: the file names a kind nobody registered
    assert "no run kind 'toy-examples'" in capsys.readouterr().err
    try:
        assert main(["audit", *common, "--run-kind", "toy"]) == 0
        out = capsys.readouterr().out
        assert "proof files verified: 1 of 1" in out
        assert "toy/no-iterate: w is no quantity of a toy-examples run" in out
    finally:
        unregister(TOY.name)
    assert main(["audit", *common, "--run-kind", "nope"]) == 2
    err = capsys.readouterr().err
    assert "novikoff: error: --run-kind nope: no entry point 'nope' in group novikoff.runs" in err
    assert "Traceback" not in err


def test_a_kind_whose_code_fails_to_load_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    class Broken:
        name, value = "broken", "nowhere:kind"

        def load(self) -> object:
            raise ImportError("No module named 'nowhere'")

    monkeypatch.setattr(registry, "entry_points", lambda group: [Broken()])
    code = main(["audit", "canonical-online", "--budget", "small", "--jobs", "1",
                 "--run-kind", "broken"])
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err
    assert ("--run-kind broken: cannot be loaded: ImportError: No module named 'nowhere'"
            in captured.err)
    assert "canonical-online" in captured.out  # the other proofs are still reported


def test_a_built_in_kind_is_one_module_of_the_wing(toy: RunKind) -> None:
    """Issue 27 ("adding a run kind touches one file"): every module of `verify.runs` but its
    machinery is a built-in kind, registered and listed with no edit elsewhere; the built-in
    kinds come first, by their rank, and a user's kind is not one of them."""
    import importlib
    import pkgutil

    import verify.runs as wing

    modules = sorted(m.name for m in pkgutil.iter_modules(wing.__path__))
    kind_modules = [m for m in modules if m not in wing._MACHINERY]
    made = {importlib.import_module(f"verify.runs.{m}").KIND.name for m in kind_modules}
    assert set(registry.built_in()) == made
    assert registry.built_in()[:3] == ("online", "batch", "single-pass")
    ranks = [kind(name).rank for name in registry.built_in()]
    assert ranks == sorted(ranks)
    assert toy.name not in registry.built_in() and kinds()[-1] == toy  # users' kinds: last
    with pytest.raises(ValueError, match="built-in run kind"):
        unregister("online")


def test_the_learning_rate_says_it_is_one_on_every_run_and_is() -> None:
    """Newcomer 31, F6: the gloss was "the learning rate" alone, and every online run has
    eta = 1 (the default rule's, every source's; a plug-in's runs offer none), so a proof that
    dropped `eta > 0` held on every run instance with nothing saying the rate never moved.
    The gloss says so, and stays true: no source runs at another rate, nor does a run made
    without one."""
    from perceptron.algorithms.sources import SOURCE_ALGORITHMS, SOURCE_VARIANTS
    from verify.runs.online import QUANTITIES, OnlineUpdates

    (eta,) = (q for q in QUANTITIES if q.name == "eta")
    assert eta.doc.startswith("the learning rate: 1 on every run that offers it")
    assert {s.eta for s in (*SOURCE_ALGORITHMS.values(), *SOURCE_VARIANTS.values())} == {1}
    assert {f.default for f in fields(OnlineUpdates) if f.name == "eta"} == {1}


def _uncounted() -> RunKind:
    """The online kind under other names with no `counter`: a user's kind whose runs have
    rows per update (`update`, with `w_next`) but name no count of their updates."""
    from dataclasses import replace

    online = kind("online")
    renamed = {r.name: f"uncounted-{r.name}" for r in online.row_sets}
    return replace(online, name="online-uncounted", rank=100, counter=None,
                   quantities=tuple(replace(q, rows=tuple(renamed[r] for r in q.rows))
                                    for q in online.quantities),
                   row_sets=tuple(replace(r, name=renamed[r.name]) for r in online.row_sets))


def test_a_kind_with_rows_per_update_but_no_counter(tmp_path: Path) -> None:
    """Ends35 (memb33's open end, untested until now): on a user's kind whose runs have rows
    per update but name no count of their updates (`RunKind.counter` None), an induction's
    step is checked against its runs' updates, and so are its constants, but its counter
    cannot be: every output says so, a counter bound to `2*t` included (on the online kind
    it is caught, its rows left out), and the proof is not called incomplete for it."""
    from cases.inductions import progress_bound

    from verify.audit.report import to_text

    uncounted = register(_uncounted())
    try:
        for counter, miscounts in (("t", 0), ("2*t", 1)):
            text = progress_bound("uncounted", f'k = "{counter}", g = "gamma_u"').replace(
                'run = "online"', 'run = "online-uncounted"')
            path = tmp_path / "uncounted.toml"
            path.write_text(text)
            audit = audit_proofs(path, budget="small")
            (progress,) = audit.proofs[0].steps
            assert progress.update_map is not None and progress.unmet_map == 0
            assert progress.counter is None and progress.miscounted == 0
            assert progress.counter_unchecked == (
                "its runs (online-uncounted) name no count of their updates")
            assert progress.constants_unchecked is None and progress.varied == ()
            assert f"uncounted ({progress.counter_unchecked}): progress" in to_text(audit)
            numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
            assert numeric["counter_unchecked"] == progress.counter_unchecked
            assert progress.numeric is not None and progress.numeric.miscounted == 0
            # 2*t is no count of updates: unchecked here, so its rows stay (and fail)
            assert (progress.numeric.status == "violated") == bool(miscounts), counter
            if not miscounts:
                assert audit.proofs[0].status == "verified"
    finally:
        unregister(uncounted.name)
    path.write_text(text.replace('run = "online-uncounted"', 'run = "online"'))
    (counted,) = audit_proofs(path, budget="small").proofs[0].steps
    assert counted.miscounted > 0 and counted.counter_unchecked is None
