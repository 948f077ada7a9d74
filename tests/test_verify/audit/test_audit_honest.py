"""Issue 26: what the audit prints is true. Every built-in proof renders in every format
(the default audit once crashed on a refutation-form certificate), the verdict line says
which canonical proofs were audited, a missing dataset folder is reported, and a report
piece that cannot be typeset is shown as such while the rest is written."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cases.inductions import (
    DEFINED_CONSTANT,
    HEADER,
    STEP_OF_AN_EXPRESSION,
    UPDATE_FACTS_CONSTANT,
    carried_broken_once,
    from_zero_on_batch_runs,
    norm_induction,
    progress_bound,
)

from proofs.library import CANONICAL, PROOFS
from verify.audit import job
from verify.audit.job import Audit
from verify.audit.report import canonical_line, headline, to_json, to_text
from verify.cli import main
from verify.numeric import campaign, shards
from verify.render import html, latex, markdown

RENDERERS = {"markdown": markdown.render, "html": html.render, "latex": latex.render}


@pytest.fixture(scope="module")
def audit(small_audit: Audit) -> Audit:
    """Every built-in proof, with the small campaign (`tests/conftest.py`, made once)."""
    return small_audit


def _only(audit: Audit, *ids: str) -> Audit:
    """The audit restricted to `ids`, as `--only` would give it (same step reports)."""
    return dataclasses.replace(audit, proofs=tuple(p for p in audit.proofs if p.id in ids))


@pytest.mark.parametrize("fmt", sorted(RENDERERS))
def test_the_full_default_audit_renders_whole_in_every_format(
        small_audit_documents: dict[str, tuple[str, list[str]]], fmt: str):
    document, failures = small_audit_documents[fmt]  # RENDERERS[fmt](audit, failures), once
    assert failures == []
    assert all(proof_id in document for proof_id in PROOFS)
    assert "could not be rendered" not in document


@pytest.mark.parametrize("proof_id", list(PROOFS))
def test_every_builtin_proof_renders_alone_in_every_format(
        small_audit_handouts: Callable[[str], dict[str, tuple[str, list[str]]]], proof_id: str):
    handouts = small_audit_handouts(proof_id)  # RENDERERS[fmt](alone, failures), once
    assert sorted(handouts) == sorted(RENDERERS)
    for fmt, (document, failures) in handouts.items():
        assert proof_id in document, fmt
        assert failures == [], (fmt, failures)


def test_a_refutation_form_certificate_shows_the_negated_claim_it_uses(audit: Audit):
    """Regression: `nonseparable-freund-schapire/root` is proved by refuting its negation;
    its certificate indexes a hypothesis beyond the stated ones, which the renderers did
    not know (IndexError after the whole audit, no file written)."""
    proof = next(p for p in audit.proofs if p.id == "nonseparable-freund-schapire")
    root = next(s for s in proof.steps if s.step.id == "root")
    goal = root.symbolic.goals[0]
    assert len(goal.evidence.hypotheses) == len(goal.judgement.hypotheses) + 1
    assert str(goal.evidence.claim.expr) == "0" and goal.evidence.claim.kind == ">"
    used = {i for p in goal.verdict.certificate.products for i in p.hyps}
    assert max(used) == len(goal.judgement.hypotheses)  # the negated claim, used
    document = markdown.render(_only(audit, proof.id))
    assert "root" in document and "could not be rendered" not in document


def test_the_verdict_line_says_which_canonical_proofs_were_audited(
        audit: Audit, small_audit_documents: dict[str, tuple[str, list[str]]]):
    assert canonical_line(audit) == "canonical proofs verified: 2 of 2"
    none = _only(audit, "virtue-online")
    assert canonical_line(none) == "no canonical proof audited"
    one = _only(audit, "canonical-online", "virtue-online")
    assert canonical_line(one) == ("canonical proofs verified: 1 of the 1 audited "
                                   "(canonical-online; 2 exist)")
    for selection in (none, one, audit):
        line = canonical_line(selection)
        assert to_text(selection).splitlines()[0] == f"passed · {line}"
        assert to_json(selection)["summary"]["canonical"]["line"] == line
        for fmt, render in RENDERERS.items():
            document = small_audit_documents[fmt][0] if selection is audit else render(selection)
            # a one-proof handout says it in plain words (`headline`), the others this line
            assert headline(selection) in document and "both canonical" not in document
    assert headline(none) == ("The built-in proof virtue-online is not verified: "
                              f"{sum(s.finding for s in none.proofs[0].steps)} steps refuted "
                              "or violated on runs (it does not decide whether the audit passes)")
    assert headline(one) == canonical_line(one) and headline(audit) == canonical_line(audit)
    summary = to_json(none)["summary"]["canonical"]
    assert summary == {"audited": [], "verified": [], "line": "no canonical proof audited"}
    assert to_json(audit)["summary"]["canonical"]["verified"] == list(CANONICAL)


def test_a_missing_dataset_folder_is_reported(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch):
    planned = shards.real_shards(0, 1) + shards.pass_shards(0, 1, 1)
    monkeypatch.setattr(campaign, "BENCH_DATA", tmp_path)
    assert shards.real_data(planned) == "absent"
    shutil.copy(Path(__file__).parents[3] / "pyproject.toml", tmp_path / "iris_data_set")
    assert shards.real_data(planned) == "partial"
    assert shards.real_data(shards.generated_shards(0, 3)) == "not used"


def test_the_cli_warns_when_the_datasets_are_missing_and_prints_before_writing(
        audit: Audit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]):
    missing = dataclasses.replace(_only(audit, "canonical-online"), real_data="absent")
    monkeypatch.setattr(job, "run_audit", lambda *args, **kwargs: missing)
    assert main(["audit", "--json", "--markdown", str(tmp_path / "r.md")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summary"]["real_data"] == "absent"
    assert "benchmark datasets are absent" in err and "NOVIKOFF_BENCH_DATA" in err
    assert (tmp_path / "r.md").is_file()
    # where that folder came from (newcomer 24: a path beside the clone's parent, unexplained)
    from verify.numeric import campaign

    assert f"{campaign.BENCH_DATA} ({campaign.BENCH_DATA_FROM}; set NOVIKOFF_BENCH_DATA to " \
        "the folder of the Coq perceptron benchmark's .dat files)" in err
    monkeypatch.delenv("NOVIKOFF_BENCH_DATA", raising=False)
    assert campaign._bench_data_from().startswith("the default, shared/bench-data/")
    monkeypatch.setenv("NOVIKOFF_BENCH_DATA", str(tmp_path))
    assert campaign._bench_data_from() == "NOVIKOFF_BENCH_DATA"


def test_a_step_that_cannot_be_typeset_is_shown_as_such_and_the_rest_is_written(
        audit: Audit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]):
    chosen = _only(audit, "canonical-online")
    monkeypatch.setattr(job, "run_audit", lambda *args, **kwargs: chosen)
    original = markdown.evidence_math

    def broken(step: object) -> object:
        if step.audit.step.id == "norm-growth":  # type: ignore[attr-defined]
            raise IndexError("a renderer defect")
        return original(step)  # type: ignore[arg-type]

    monkeypatch.setattr(markdown, "evidence_math", broken)
    target = tmp_path / "r.md"
    assert main(["audit", "--markdown", str(target), "--html", str(tmp_path / "r.html")]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("passed · canonical proofs verified: 1 of the 1 audited")
    written = target.read_text(encoding="utf-8")
    assert "canonical-online/norm-growth could not be rendered (IndexError: a renderer " \
           "defect)" in written
    assert "bound-unit" in written  # the rest of the report is there
    assert (tmp_path / "r.html").read_text(encoding="utf-8").count("could not be") == 0
    problems = [line for line in err.splitlines() if line.startswith("novikoff: ")]
    assert len(problems) == 1 and str(target) in problems[0]
    assert "could not be rendered" in err.splitlines()[-1]


def test_a_step_no_run_can_leave_is_vacuous_in_every_audit_output(audit: Audit):
    """Issue 26.5, through the audit: JSON, text and the three documents."""
    source = _only(audit, "joeyonng-online")
    steps = {s["id"]: s for s in to_json(source)["proofs"][0]["steps"]}
    reason = steps["norm-unrolled"]["symbolic"]["vacuity"]
    assert reason is not None and reason.startswith("no run leaves its start state")
    assert steps["norm-unrolled-corrected"]["symbolic"]["vacuity"] is None
    assert f"joeyonng-online/norm-unrolled: {reason}" in to_text(source)
    for fmt, render in RENDERERS.items():
        assert "no run leaves its start state" in render(source), fmt


def test_the_verdict_line_counts_the_users_proof_files(audit: Audit):
    """A copy of canonical-online in a user's file is a proof file, not the canonical proof."""
    copy = dataclasses.replace(_only(audit, "canonical-online").proofs[0], file=True)
    chosen = dataclasses.replace(audit, proofs=(copy,))
    assert canonical_line(chosen) == "no canonical proof audited; proof files verified: 1 of 1"
    assert to_text(chosen).splitlines()[0] == f"passed · {canonical_line(chosen)}"


def test_a_one_proof_handout_says_in_plain_words_whether_that_proof_is_verified(
        audit: Audit):
    """Regression: a student's handout headed "no canonical proof audited; proof files
    verified: 1 of 1" (jargon about proofs she never wrote); it says now whether this proof
    is verified and why not, and the text and JSON keep the canonical line."""
    copy = dataclasses.replace(_only(audit, "canonical-online").proofs[0], file=True)
    found = dataclasses.replace(_only(audit, "ng-cs229").proofs[0], file=True)
    cases = {
        "This proof file is verified: every step is proved":
            dataclasses.replace(audit, proofs=(copy,)),
        f"This proof file is not verified: {sum(s.finding for s in found.steps)} steps "
        "refuted or violated on runs": dataclasses.replace(audit, proofs=(found,)),
        "The built-in proof ng-cs229 is not verified: "
        f"{sum(s.finding for s in found.steps)} steps refuted or violated on runs (it does "
        "not decide whether the audit passes)": _only(audit, "ng-cs229"),
        "This proof file is verified: every step is proved; 1 other proof file was refused":
            dataclasses.replace(audit, proofs=(copy,), refused_files=1),
    }
    for line, handout in cases.items():
        assert to_json(handout)["summary"]["canonical"]["line"] == canonical_line(handout)
        assert to_text(handout).splitlines()[0].endswith(canonical_line(handout))
        for fmt, render in RENDERERS.items():
            document = render(handout)
            assert line in document, (fmt, line)
            assert "canonical proof" not in document.split("Theorem")[0], fmt
    unknown = next(s for s in copy.steps if s.symbolic.status == "proved")
    undecided = dataclasses.replace(unknown, symbolic=dataclasses.replace(
        unknown.symbolic, theorem=None))  # neither a theorem nor a refutation: unknown
    incomplete = dataclasses.replace(copy, steps=(undecided,))
    assert headline(dataclasses.replace(audit, proofs=(incomplete,))) == (
        "This proof file is not verified: 1 step neither proved nor refuted")
    assert headline(_only(audit, *CANONICAL)) == canonical_line(_only(audit, *CANONICAL))


def test_a_step_not_run_says_why_in_every_document(audit: Audit):
    """Issue 27.2: a step no row set binds says `not run` and why in every output."""
    proof = _only(audit, "canonical-online-normalised")  # no [numeric]: nothing is run
    reason = to_json(proof)["proofs"][0]["steps"][0]["numeric"]["reason"]
    assert reason
    for fmt, render in RENDERERS.items():
        document = render(proof)
        assert "not run" in document, fmt
        assert reason.split(",")[0] in document.replace("\\", ""), fmt


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_report_file_that_cannot_be_written_is_named_in_its_one_line(
        audit: Audit, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Review finding: a write that fails after the file opened (a full disk) said only
    `[Errno 28] No space left on device`, naming no file; it names the report file."""
    monkeypatch.setattr(job, "run_audit",
                        lambda *args, **kwargs: _only(audit, "canonical-online"))
    assert main(["audit", "--markdown", "/dev/full"]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines()
              if line.startswith("novikoff: error")]
    assert errors == ["novikoff: error: /dev/full: No space left on device"]


PLUG = Path(__file__).resolve().parents[2] / "cases" / "plugins"


def test_an_induction_violated_on_runs_it_is_not_about_is_not_called_false(
        tmp_path: Path) -> None:
    """Regression (red team 9): a plug-in updating `w + 2 y x` violated the proved invariant
    of an induction updating `w + y*x`, and every output listed the step among "steps false
    as written". The proved statement is about other runs: each update is now checked
    against its step (newcomer 32 N6), every run's rows after its first update are left out
    and each output says why; the audit still fails (the proof does not describe the
    algorithm: the proof is not verified on its runs), and a correct plug-in's runs hold."""
    from cases.plugins import hostile

    from verify.api import audit_proofs
    from verify.audit.membership import map_text
    from verify.runs.plugin import Plugin

    wrong = audit_proofs(PLUG / "plug.toml", budget="small",
                         algorithms=[Plugin("p", None, hostile.doubles_its_step)])
    (step,) = wrong.proofs[0].steps
    assert step.symbolic.status == "proved" and step.numeric is not None
    assert step.update_map is not None and step.unmet_map == step.update_map.instances > 0
    assert step.numeric.past_unmet > 0 and not step.finding and not wrong.passed()
    assert wrong.proofs[0].status == "incomplete"
    said = map_text(step)
    assert f"  plug/norm-growth: {said}" in to_text(wrong).splitlines()
    assert to_json(wrong)["proofs"][0]["steps"][0]["numeric"]["update_map"]["said"] == said
    for render in (markdown.render, html.render):
        assert "false as written" not in render(wrong, [])
    right = audit_proofs(PLUG / "plug.toml", budget="small",
                         algorithms=[Plugin("p", None, hostile.perceptron)])
    (held,) = right.proofs[0].steps
    assert held.numeric is not None and held.numeric.status == "held"
    assert held.unmet_map == 0 and held.caveat is None and right.passed()
    (problem,) = wrong.problems()
    assert problem == ("plug: incomplete: norm-growth (its runs update otherwise than its "
                       "step)")


def negative_rate(data: Any, max_updates: int) -> Any:
    """The perceptron with the rate -1 (newcomer 28 F8's `eta = -1/10`): `w - y x` on each
    example with `y<w,x> <= 0`, three passes (it never converges: cut short, not at the
    audit's budget)."""
    w = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    for _ in range(3):
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if y * sum(a * b for a, b in zip(w, x, strict=True)) <= 0 and made < max_updates:
                w = tuple(a - y * b for a, b in zip(w, x, strict=True))
                made += 1
                yield i, w


def test_runs_that_fail_every_update_fact_are_no_finding_against_the_induction(
        tmp_path: Path) -> None:
    """Newcomer 28 F8: with the rate bound to a negative constant, `eta > 0` failed at every
    update of the runs and the audit said so, yet the proved induction was listed under
    findings, its proof `has-findings` and the handouts called it false as written. These
    runs are its runs up to their first update only: their rows after it are left out
    (red team 30 A4; the step was once not run as a whole), its verdict is the one on the
    runs' starts, and nothing lists it as a finding."""
    from verify.api import audit_proofs
    from verify.runs.plugin import Plugin

    text = (PLUG / "plug.toml").read_text()
    text = (text.replace('scalars = ["t", "y", "R2", "gamma_u"]',
                         'scalars = ["t", "y", "R2", "gamma_u", "eta"]')
            .replace('algorithm = "p"', 'algorithm = "p"\nnames = { eta = "-1" }')
            .replace('claim = "norm2(w) <= t*R2"', 'claim = "norm2(w) <= t*eta**2*R2"')
            .replace('step = { w = "w + y*x" }', 'step = { w = "w + eta*y*x" }')
            .replace('"norm2(x) <= R2"]', '"norm2(x) <= R2", "eta > 0"]')
            .replace('constants = ["R2"]', 'constants = ["R2", "eta"]'))
    (tmp_path / "neg.toml").write_text(text)
    audit = audit_proofs(tmp_path / "neg.toml", budget="small",
                         algorithms=[Plugin("p", None, negative_rate)])
    (step,) = audit.proofs[0].steps
    assert step.symbolic.status == "proved" and step.updates is not None
    assert step.unmet_updates == step.updates.instances > 0
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.past_unmet > 0 and not step.finding and step.caveat is None
    assert audit.proofs[0].status == "verified" and audit.problems() == []
    text_report = to_text(audit)
    assert "findings:" not in text_report
    report = to_json(audit)["proofs"][0]
    assert report["status"] == "verified"
    assert report["steps"][0]["numeric"]["past_unmet"] == step.numeric.past_unmet
    for render in (markdown.render, html.render, latex.render):
        assert "false as written" not in render(audit, [])


def test_problems_say_an_unknown_step_is_violated_on_runs() -> None:
    """Newcomer 28 F9: `Audit.problems()` said `mistake-bound (unknown)` of a bound a real run
    broke (the CLI listed it under findings); it now says it is violated on runs too."""
    from types import SimpleNamespace

    from verify.numeric.instances import NumericVerdict

    def step(status: str, numeric: str) -> job.StepAudit:
        return job.StepAudit(SimpleNamespace(id="bound", rule=None, witness={}),  # type: ignore[arg-type]
                             SimpleNamespace(status=status),  # type: ignore[arg-type]
                             NumericVerdict(numeric, 10, 0, 3 * (numeric == "violated"),
                                            None, None))

    def problems(status: str, numeric: str) -> list[str]:
        proof = job.ProofAudit("mine", None, "", (step(status, numeric),),  # type: ignore[arg-type]
                               file=True)
        return Audit((proof,), 0, "small").problems()

    assert problems("unknown", "violated") == [
        "mine: has-findings: bound (unknown; violated on runs)"]
    assert problems("refuted", "violated") == [
        "mine: has-findings: bound (refuted; violated on runs)"]
    assert problems("proved", "violated") == ["mine: has-findings: bound (violated on runs)"]
    assert problems("unknown", "held") == ["mine: incomplete: bound (unknown)"]


def test_a_reason_said_under_runs_not_made_is_named_again_by_the_subject_it_was_made_with(
        ) -> None:
    """Closing note 29 (addendum): `said_once` read a reason's subject back from its words
    (`plug-in NAME` by a regex, else the words before the first colon), so a data file whose
    name holds ": " was named by half its name ("--data a: as said under runs not made").
    The subject is now carried beside the reason (`Unmade`) and named from there."""
    from types import SimpleNamespace

    from verify.audit.report import not_run_lines, plugin_lines
    from verify.render.evidence import numeric_line

    data = "--data odd: name.csv:2: the u it names does not separate the examples"
    fault = "plug-in p raised SystemExit: 3 on generated, scenario 0"
    steps = tuple(job.StepAudit(SimpleNamespace(id=name), None, None, reason)  # type: ignore[arg-type]
                  for name, reason in (("a", data), ("b", fault)))
    proof = job.ProofAudit("mine", SimpleNamespace(numeric=object()), "", steps,  # type: ignore[arg-type]
                           file=True, unmade=(job.Unmade("--data odd: name.csv", data),
                                              job.Unmade("plug-in p", fault)))
    audit = Audit((proof,), 0, "small", plugins=(fault,))
    assert not_run_lines(audit)[2:] == [
        "  mine/a: --data odd: name.csv: as said under runs not made",
        "  mine/b: plug-in p: as said under runs not made"]
    assert plugin_lines(audit)[2:] == ["  plug-in p: as said under runs not made"]
    said = {data: "--data odd: name.csv"}
    step = {"numeric": {"status": "not-run", "instances": 0, "reason": data}}
    assert numeric_line(step, said) == "not run: --data odd: name.csv: as said under runs not made"
    assert numeric_line(step) == f"not run: {data}"  # said nowhere else: said whole


def test_strict_decides_every_rendering_not_only_the_exit_code(audit: Audit) -> None:
    """Regression (red team 9): `--strict` on a source proof with findings printed "passed"
    first, `summary.passed: true` and `**passed**`, then "audit failed" and exit 1."""
    strict = dataclasses.replace(_only(audit, "ng-cs229"), strict=True)
    assert not strict.passed() and dataclasses.replace(strict, strict=False).passed()
    line = "no canonical proof audited; --strict: proofs verified: 0 of 1"
    assert canonical_line(strict) == line
    assert to_text(strict).splitlines()[0] == f"failed · {line}"
    assert to_json(strict)["summary"]["passed"] is False
    # the handout: --strict makes this proof decide, so no "does not decide" there
    assert headline(strict).startswith("The built-in proof ng-cs229 is not verified: ")
    assert f"**failed** · {headline(strict)} · " in markdown.render(strict, [])
    assert "does not decide" not in headline(strict)
    assert strict.problems() == strict.problems(strict=True) != []


def test_a_proof_whose_runs_were_not_made_is_not_verified(tmp_path: Path) -> None:
    """Regression (red team 9): a proof whose plug-in raised, or whose own data file was
    refused, was "verified" (table, JSON, "proof files verified: 1 of 1") while the runs it
    asked for never happened; it is incomplete now, and says why."""
    from cases.plugins import hostile

    from verify.api import audit_proofs
    from verify.runs.plugin import Plugin

    raised = audit_proofs(PLUG / "plug.toml", budget="small",
                          algorithms=[Plugin("p", None, hostile.raises)])
    (proof,) = raised.proofs
    assert proof.status == "incomplete"
    assert tuple(each.line for each in proof.unmade) == raised.errors
    assert [each.subject for each in proof.unmade] == ["plug-in p"]
    assert raised.problems()[-1] == f"plug: incomplete: runs not made ({raised.errors[0]})"
    assert canonical_line(raised) == "no canonical proof audited; proof files verified: 0 of 1"
    (tmp_path / "bad.csv").write_text("1,2,x\n")
    text = (PLUG / "plug.toml").read_text().replace('algorithm = "p"', 'data = ["bad.csv"]')
    (tmp_path / "own.toml").write_text(text)
    refused = audit_proofs(tmp_path / "own.toml", budget="small")
    (proof,) = refused.proofs
    assert proof.steps[0].numeric is not None  # the campaign's runs were made
    assert proof.status == "incomplete" and len(proof.unmade) == 1
    assert proof.unmade[0].line in refused.errors and "bad.csv" in proof.unmade[0].line
    assert proof.unmade[0].subject == str(tmp_path / "bad.csv")
    assert to_json(refused)["summary"]["proofs"] == {"own": "incomplete"}



STRICT = ('title = "strict"\n' + HEADER
          + norm_induction("norm-strict-update",
                           '"y**2 == 1", "y*dot(w, x) < 0", "norm2(x) <= R2"')
          + norm_induction("norm-update") + '''
[numeric]
run = "online"
names = { k = "t" }
''')


def test_runs_that_do_not_meet_an_inductions_update_facts_are_said_so(tmp_path: Path) -> None:
    """Newcomer 19, section 6: an induction with the strict update `y<w,x> < 0` was checked
    on runs that update on `<= 0` with no remark (the caveat came only with a violation).
    Its updates failing the facts are counted and said, in the text and the JSON (a field
    present only then); the same induction on `<= 0` has no such remark."""
    from verify.api import audit_proofs

    path = tmp_path / "strict.toml"
    path.write_text(STRICT)
    audit = audit_proofs(path, budget="small")
    strict, plain = audit.proofs[0].steps
    assert strict.numeric is not None and strict.numeric.status == "held"
    assert strict.updates is not None and 0 < strict.unmet_updates <= strict.updates.instances
    assert plain.updates is not None and plain.updates.instances == strict.updates.instances
    assert plain.unmet_updates == 0
    steps = to_json(audit)["proofs"][0]["steps"]
    facts = steps[0]["numeric"]["update_facts"]
    assert (facts["updates"], facts["unmet"]) == (strict.updates.instances, strict.unmet_updates)
    assert facts["said"].startswith(f"its update facts fail at {strict.unmet_updates} of "
                                    f"{strict.updates.instances} updates of the runs it was "
                                    "checked on")
    assert "update_facts" not in steps[1]["numeric"]
    text = to_text(audit).splitlines()
    assert f"  strict/norm-strict-update: {facts['said']}" in text
    assert not any(line.startswith("  strict/norm-update:") for line in text)
    assert facts["said"].replace("[numeric]", "\\[numeric\\]") in markdown.render(audit, [])


def test_a_built_in_inductions_runs_that_miss_its_update_facts_are_said_so(audit: Audit):
    """joeyonng's norm chain as written assumes `||x|| = R` and a strict mistake at each
    update, which its runs do not meet; its corrected form's runs do."""
    source = _only(audit, "joeyonng-online")
    steps = {s.step.id: s for s in source.proofs[0].steps}
    assert steps["norm-unrolled"].unmet_updates > 0
    assert steps["norm-unrolled-corrected"].updates is not None
    assert steps["norm-unrolled-corrected"].unmet_updates == 0
    assert "joeyonng-online/norm-unrolled: its update facts fail at" in to_text(source)


def test_update_facts_not_checked_on_runs_without_update_rows_are_said_so(tmp_path: Path):
    """Cyclic runs (and a user's kind of runs) have no row per update, so an induction's
    update facts are not checked on them; nothing said so, and a reader took the silence for
    checked and met. Each output says which were not and why: the text by proof and reason,
    the JSON (`numeric.update_facts_unchecked`, there only then), the reports beside the
    step; on online runs, where they are checked, nothing is added."""
    from verify.api import audit_proofs

    said = "its runs (cyclic) have no row per update"
    for run in ("cyclic", "online"):
        path = tmp_path / f"{run}.toml"
        path.write_text('title = "t"\n' + HEADER + norm_induction("norm-update")
                        + f'\n[numeric]\nrun = "{run}"\nnames = {{ k = "t" }}\n')
        audit = audit_proofs(path, budget="small")
        (step,) = audit.proofs[0].steps
        assert step.numeric is not None and step.numeric.status == "held"
        numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
        text = to_text(audit)
        if run == "online":
            assert step.updates is not None and step.updates_unchecked is None
            assert "update_facts_unchecked" not in numeric
            assert "update facts not checked" not in text
            continue
        assert step.updates is None and step.updates_unchecked == said
        assert numeric["update_facts_unchecked"] == said
        assert "update facts not checked on runs (" in text
        assert f"  cyclic ({said}): norm-update" in text.splitlines()
        for fmt, render in RENDERERS.items():
            assert "update facts were not checked on its runs" in render(audit, []), fmt


def test_built_in_cyclic_inductions_say_their_update_facts_were_not_checked(audit: Audit):
    """The built-in proofs on cyclic runs (separable-converges and its kin) had held
    inductions whose update facts nothing checked, and nothing said it; the online ones'
    are checked."""
    steps = {(p.id, s.step.id): s for p in audit.proofs for s in p.steps}
    cyclic = steps[("separable-converges", "updating-epochs")]
    assert cyclic.updates is None
    assert cyclic.updates_unchecked == "its runs (cyclic) have no row per update"
    online = steps[("canonical-online", "norm-growth")]
    assert online.updates is not None and online.updates_unchecked is None
    assert "  separable-converges (its runs (cyclic) have no row per update): " in to_text(audit)


#: Red team 29 F3: `b` carries `a`'s invariant (an induction over the same runs it uses),
#: which the perceptron's runs break at their first update.
CARRIES_A_FALSE_INVARIANT = """title = "carried"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "a"
claim = "norm2(w) <= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0"]
[[step]]
id = "b"
claim = "2*norm2(w) <= 0"
uses = ["a"]
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0"]
"""


def test_a_row_where_a_carried_invariant_fails_is_no_instance_of_the_carrier(
        tmp_path: Path) -> None:
    """`b`'s statement speaks of the runs "where at every state norm2(w) <= 0 [a]": a row
    where `a`'s invariant fails is on none of them. `b` was "violated on runs" there, with a
    caveat that called it false once the runs start and update as it says (they do). Now
    those rows are vacuous for `b`, as rows where a hypothesis fails; `a` is violated."""
    from verify.api import audit_proofs

    (tmp_path / "carried.toml").write_text(CARRIES_A_FALSE_INVARIANT)
    audit = audit_proofs(tmp_path / "carried.toml", budget="small")
    a, b = audit.proofs[0].steps
    assert a.numeric is not None and a.numeric.status == "violated"
    assert b.numeric is not None and b.numeric.status != "violated" and not b.finding
    assert b.numeric.vacuous == a.numeric.violations > 0


CARRIES_ONE_BROKEN_ONCE = carried_broken_once("carried, broken once", '[numeric]\nrun = "online"\n')


def test_a_row_after_a_state_that_broke_a_carried_invariant_is_no_instance_of_the_carrier(
        tmp_path: Path) -> None:
    """Red team 30: `a`'s invariant `(t - 1)**2 >= 1` fails at t = 1 only, so no run with an
    update is one `b` speaks of ("where at every state ... [a]"), and `b` (`t <= 1`, its own
    obligations certified) is true. Its rows at t >= 2 met `a` at their own state and were
    "violated", the caveat calling `b` false; they are rows of runs that broke `a` at t = 1,
    vacuous as the rows at t = 1 are."""
    from verify.api import audit_proofs

    (tmp_path / "carried.toml").write_text(CARRIES_ONE_BROKEN_ONCE)
    audit = audit_proofs(tmp_path / "carried.toml", budget="small")
    a, b = audit.proofs[0].steps
    assert a.numeric is not None and a.numeric.status == "violated"
    assert b.symbolic.message.startswith("proved from unproved step(s) a")
    assert b.numeric is not None and b.numeric.violations == 0 and not b.finding
    assert b.numeric.vacuous > a.numeric.violations > 0


def test_a_run_that_broke_a_carried_fact_earlier_leaves_its_later_rows_out() -> None:
    """`_so_far` on rows out of order, several per state (example rows), two runs: a row
    counts only while its run held the carried facts at every iteration up to its own."""
    import numpy as np

    from verify.numeric.instances import _so_far

    class Rows:  # the two columns `_so_far` reads
        origin_index = np.array([1, 0, 0, 1, 0, 0, 1, 1])
        iteration = np.array([2, 1, 0, 0, 1, 2, 1, 2])
    held = np.array([True, True, True, True, False, True, False, True])
    # run 0: t=0 held, t=1 one row of two fails -> t=1 and t=2 out; run 1: t=1 fails
    assert _so_far(held, Rows()).tolist() == [  # type: ignore[arg-type]
        False, False, True, True, False, False, False, False]
    assert _so_far(np.ones(8, dtype=bool), Rows()).all()  # type: ignore[arg-type]


USES_AN_INDUCTION_OF_OTHER_RUNS = """title = "uses an induction of other runs"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "b"
claim = "t >= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(w, x) <= -1"]
[[step]]
id = "d"
uses = ["b"]
claim = "t <= 0"
"""


def test_a_violation_of_a_step_resting_on_an_induction_says_whose_runs_it_needs(
        tmp_path: Path) -> None:
    """Red team 30: a step using an induction's claim holds at the states of that
    induction's runs only, and the audit listed its violations as a plain finding, no word of
    the induction's runs. Here `b`'s update fact `t <= 1` holds at the first two updates of
    each run and fails from the third on: `d` (`t >= 0 [b] |- t <= 1`) is false at t = 2, a
    state of `b`'s runs, and its violation there carries the caveat, with the count of
    updates that fail `b`'s update facts and of the rows left out after them."""
    from verify.api import audit_proofs
    from verify.audit.report import to_text

    (tmp_path / "uses.toml").write_text(USES_AN_INDUCTION_OF_OTHER_RUNS.replace(
        'given = ["y*dot(w, x) <= -1"]', 'given = ["t <= 1"]').replace(
        'claim = "t <= 0"', 'claim = "t <= 1"'))
    audit = audit_proofs(tmp_path / "uses.toml", budget="small")
    b, d = audit.proofs[0].steps
    assert b.unmet_updates > 0 and d.numeric is not None and d.numeric.status == "violated"
    cex = d.numeric.counterexample
    assert cex is not None and cex.scalars["t"] == 2  # the state the first two updates reach
    assert d.off_runs and d.caveat is not None
    assert "one of the runs of b" in d.caveat and "counts its updates" in d.caveat
    assert (f"b's update facts fail at {b.unmet_updates} of {b.updates.instances} updates"
            in d.caveat)
    assert f"the {d.numeric.past_unmet} rows of this step on runs after an update" in d.caveat
    assert d.caveat in to_text(audit)


def test_a_step_resting_on_an_induction_leaves_out_the_rows_after_a_failing_update(
        tmp_path: Path) -> None:
    """Red team 30 A4, the update-facts part: `d` (`t >= 0 [b] |- t <= 0`) holds at the
    states of `b`'s runs only, and `b`'s update fact `y*dot(w, x) <= -1` fails at the first
    update from w = 0: no run of `b` leaves its start, so `d` is true. The perceptron's runs
    violate it at every t >= 1, rows of none of `b`'s runs, and the audit called `d`
    "violated on 201 of 251 run instances", a finding (with a caveat only). Each run's rows
    after its first update failing `b`'s update facts are now left out of `b`'s verdict and
    of `d`'s, and every output says how many."""
    from verify.api import audit_proofs
    from verify.audit.report import to_json, to_text

    (tmp_path / "uses.toml").write_text(USES_AN_INDUCTION_OF_OTHER_RUNS)
    audit = audit_proofs(tmp_path / "uses.toml", budget="small")
    b, d = audit.proofs[0].steps
    assert b.unmet_updates > 0 and b.numeric is not None and d.numeric is not None
    assert d.numeric.status == "held" and not d.finding and d.caveat is None
    assert d.numeric.past_unmet > 0 and d.numeric.instances == b.starts  # the starts only
    assert b.numeric.past_unmet == d.numeric.past_unmet
    assert audit.proofs[0].status != "has-findings"
    text = to_text(audit)
    assert "findings:" not in text
    assert ("so its rows after it are left out of its verdict, and of those of the steps "
            "that use its claim") in text
    assert (f"{d.numeric.past_unmet} rows of runs after an update that fails an induction's "
            "update facts or is not its step are left out") in markdown.render(audit, [])
    numeric = to_json(audit)["proofs"][0]["steps"][1]["numeric"]
    assert numeric["past_unmet"] == d.numeric.past_unmet and "outside" not in numeric


WITNESSED_BADLY = """title = "a bad witness"
vectors = ["w", "x"]
scalars = ["t", "z"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "e"
claim = "z >= t"
witness = { z = "0" }
"""


def test_a_violation_at_a_witness_is_not_said_to_be_the_statements(tmp_path: Path) -> None:
    """Red team 30: `t in Nat |- exists z: z >= t` is true (z = t), its witness `z = 0` is
    not. On runs the claim is checked at the witness (`witnessed`), and the audit printed
    "violated on 201 of 251 run instances" under the existential statement with no word that
    the witness, not the statement, fails there. Now the violation says so."""
    from verify.api import audit_proofs
    from verify.audit.report import to_text

    (tmp_path / "witness.toml").write_text(WITNESSED_BADLY)
    audit = audit_proofs(tmp_path / "witness.toml", budget="small")
    (e,) = audit.proofs[0].steps
    assert e.numeric is not None and e.numeric.status == "violated"
    assert e.caveat is not None and "the proof's witness for z, not the statement" in e.caveat
    assert e.caveat in to_text(audit)
    for render in (markdown.render, html.render):  # the findings' heading, not only inductions
        assert "an existential step not at all where only its witness fails" in render(audit, [])



COUNTER_BOUND_ELSEWHERE = """title = "the counter bound to another quantity"
vectors = ["w", "x"]
scalars = ["y", "k", "R2"]
naturals = ["k"]
[numeric]
run = "online"
names = { k = "0*t" }
[[step]]
id = "lem"
claim = "k*(k - 1) >= 0"
[[step]]
id = "norm"
uses = ["lem"]
given = ["R2 >= 0"]
claim = "norm2(w) <= k*R2"
[step.induction]
variable = "k"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(w, x) <= 0", "norm2(x) <= R2", "y**2 == 1"]
constants = ["R2"]
"""


def test_a_counter_that_is_not_the_runs_count_of_updates_is_said(tmp_path: Path) -> None:
    """Red team 30 A6, the rest: a counter bound to `2*t` starts at 0 with its runs, so the
    base check passes, and nothing said that the rows are no states "after k updates". The
    counter is now checked against the runs' count of updates (`RunKind.counter`) on the rows
    its claim is checked on, and every output says at how many it is not that count."""
    from verify.api import audit_proofs
    from verify.audit.membership import counter_text
    from verify.audit.report import to_json, to_text

    (tmp_path / "counter.toml").write_text(COUNTER_BOUND_ELSEWHERE.replace("0*t", "2*t"))
    audit = audit_proofs(tmp_path / "counter.toml", budget="small")
    _, norm = audit.proofs[0].steps
    assert norm.numeric is not None and norm.unmet_base == 0 and norm.unmet_updates == 0
    assert norm.counter is not None
    # every row but those at t = 0, now left out of its verdict too (memb33)
    assert norm.miscounted == norm.counter.instances - norm.starts > 0
    assert norm.numeric.miscounted == norm.miscounted
    assert norm.numeric.instances == norm.starts
    said = counter_text(norm)
    assert said.startswith(f"its counter k is not the run's count of updates at "
                           f"{norm.miscounted} of the {norm.counter.instances} rows")
    assert f"counter/norm: {said}" in to_text(audit)
    numeric = to_json(audit)["proofs"][0]["steps"][1]["numeric"]
    assert numeric["counter"] == {"rows": norm.counter.instances,
                                  "miscounted": norm.miscounted, "said": said}
    assert said.split(" (under")[0] in markdown.render(audit, [])  # the rest escaped there
    (tmp_path / "counted.toml").write_text(COUNTER_BOUND_ELSEWHERE.replace(
        'names = { k = "0*t" }', 'names = { k = "t" }'))
    _, counted = audit_proofs(tmp_path / "counted.toml", budget="small").proofs[0].steps
    assert counted.counter is None and counted.miscounted == 0  # the count itself


STEPPING_OTHERWISE = """title = "a step that is not the runs' update"
vectors = ["w", "x"]
scalars = ["y", "t", "R2"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "norm"
given = ["R2 >= 0"]
claim = "norm2(w) <= t*R2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w - y*x" }
given = ["y*dot(w, x) <= 0", "norm2(x) <= R2", "y**2 == 1"]
constants = ["R2"]
"""


def test_an_induction_whose_step_is_not_the_runs_update_leaves_their_later_rows_out(
        tmp_path: Path) -> None:
    """Newcomer 32 N6: an induction whose step is `w - y*x` (refuted: it can grow the norm
    past t*R2) on the perceptron's runs, which do `w + y*x`, showed "runs: held" on every
    row, green beside the refutation, with no word that these runs are none of its runs.
    Each update is now checked against its step (the rows' `w_next`): from a run's first
    update that moves otherwise, its rows are left out, and every output says so."""
    from verify.api import audit_proofs
    from verify.audit.membership import map_text
    from verify.audit.report import to_json, to_text

    (tmp_path / "step.toml").write_text(STEPPING_OTHERWISE)
    audit = audit_proofs(tmp_path / "step.toml", budget="small")
    (norm,) = audit.proofs[0].steps
    assert norm.symbolic.status == "refuted" and norm.numeric is not None
    assert norm.update_map is not None and norm.unmet_map == norm.update_map.instances > 0
    assert norm.numeric.instances == norm.starts and norm.numeric.past_unmet > 0
    said = map_text(norm)
    assert said.startswith(f"its runs update otherwise than its step at all "
                           f"{norm.update_map.instances} updates")
    assert f"step/norm: {said}" in to_text(audit)
    numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
    assert numeric["update_map"] == {"updates": norm.update_map.instances,
                                     "unmet": norm.unmet_map, "said": said}
    for render in (markdown.render, html.render):  # the rest escaped there
        assert said.split(" (under")[0] in render(audit, [])
    (tmp_path / "plus.toml").write_text(STEPPING_OTHERWISE.replace("w - y*x", "w + y*x"))
    (right,) = audit_proofs(tmp_path / "plus.toml", budget="small").proofs[0].steps
    assert right.update_map is not None and right.unmet_map == 0  # checked, and met
    assert right.numeric is not None and right.numeric.past_unmet == 0


def test_a_counter_bound_to_another_quantity_leaves_the_rows_past_its_start_out(
        tmp_path: Path) -> None:
    """Red team 30 A6: `norm` is Novikoff's norm invariant (true; unknown only through the
    true lemma `k*(k - 1) >= 0` over the naturals), its counter bound to `0*t`, which counts
    no update. The runs start, update and meet its update facts, and the audit called it
    "violated on runs", with a caveat (since d6243aa naming the counter). Now the base is
    checked wherever the counter is 0: after a run's first update k is still 0 and w is not
    at the base, so from there on the run is none of `norm`'s, its rows left out, and the
    audit says why, naming the counter."""
    from verify.api import audit_proofs

    (tmp_path / "counter.toml").write_text(COUNTER_BOUND_ELSEWHERE)
    audit = audit_proofs(tmp_path / "counter.toml", budget="small")
    _, norm = audit.proofs[0].steps
    assert norm.numeric is not None and norm.numeric.status == "held"
    assert norm.updates is not None and norm.unmet_updates == 0
    assert norm.unmet_base > 0 and norm.numeric.outside > 0 and not norm.finding
    from verify.audit.report import base_text

    assert "or k does not count its updates" in base_text(norm)


def test_a_step_resting_on_a_carrier_says_the_carried_invariant_bounds_its_runs(
        tmp_path: Path) -> None:
    """Red team 30: `d` (`t <= 1 [b] |- t <= 0`) rests on `b`, which carries `a`'s invariant
    `(t - 1)**2 >= 1`: `b`'s runs are those where it holds at every state, so none updates and
    `d` is true. Its caveat said only that `b`'s update facts hold on these runs; it now says
    that `b`'s runs are also bounded by `a`'s invariant, and where that fails on them."""
    from verify.api import audit_proofs

    text = CARRIES_ONE_BROKEN_ONCE + '[[step]]\nid = "d"\nuses = ["b"]\nclaim = "t <= 0"\n'
    (tmp_path / "rests.toml").write_text(text)
    audit = audit_proofs(tmp_path / "rests.toml", budget="small")
    a, _, d = audit.proofs[0].steps
    assert a.numeric is not None and d.numeric is not None and d.numeric.status == "violated"
    assert d.caveat is not None
    assert (f"b's runs are also those where the invariant of a holds at every state, which "
            f"fails at {a.numeric.violations} of {a.numeric.instances} rows") in d.caveat



FROM_ZERO_ON_BATCH_RUNS = from_zero_on_batch_runs(
    "an induction from 0 over batch runs from three starts",
    "norm2(th - ts) <= norm2(ts)")


def test_an_induction_is_not_violated_on_runs_that_start_elsewhere_than_its_base(
        tmp_path: Path) -> None:
    """Newcomer 31 F7: batch runs start at 0, at -u and at a seeded vector; `ahead` (proved,
    from th = 0) was "violated on runs" at k = 0 of the runs from -u, rows of none of its
    runs, a finding with a caveat only; `rests` (true on the runs from 0: the oracle step
    never moves theta farther from u) was a finding too (red team 30 A4). Now the audit
    checks the base where the counter is 0 and leaves those runs' rows out of both
    verdicts, saying so."""
    from verify.api import audit_proofs

    (tmp_path / "ahead.toml").write_text(FROM_ZERO_ON_BATCH_RUNS)
    audit = audit_proofs(tmp_path / "ahead.toml", budget="small")
    ahead, rests = audit.proofs[0].steps
    assert ahead.numeric is not None and ahead.numeric.status == "held"
    assert rests.numeric is not None and rests.numeric.status == "held"
    assert 0 < ahead.unmet_base < ahead.starts  # the runs from -u and a seeded start
    assert ahead.numeric.outside > 0 and rests.numeric.outside > 0
    assert audit.proofs[0].status == "incomplete"  # rests is unknown, no finding
    from verify.audit.report import base_text

    text = to_text(audit)
    assert "findings:" not in text and "base not met on runs" in text
    assert base_text(ahead) in text and f"fails at {ahead.unmet_base} of the" in text
    numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
    assert numeric["base"]["unmet"] == ahead.unmet_base
    assert numeric["outside"] == ahead.numeric.outside
    for fmt, render in RENDERERS.items():
        assert "runs it was checked on where its counter k is 0" in render(audit, []), fmt


BASE_OF_A_SUM = """title = "an induction whose base reads a sum"
vectors = ["w", "x"]
scalars = ["y", "t", "s", "N", "j"]
naturals = ["t", "N"]
indexed = ["x", "y"]
[numeric]
run = "online"
names = { s = "N + t", x = "X", y = "Y" }
[[step]]
id = "ind"
claim = "s >= t"
[step.induction]
variable = "t"
base = { s = "sum(j in 1..N, y[j]**2)" }
step = { s = "s + 1" }
constants = ["N"]
"""


@pytest.mark.parametrize("case", ["rests on the iteration rows", "base reads a sum",
                                  "claim reads a sum"])
def test_a_start_is_read_on_rows_that_make_what_it_reads(tmp_path: Path, case: str) -> None:
    """Red team 32 F2: a step resting on `ahead` whose claim reads `xbar` is checked on the
    batch-iteration rows, which no other check asked to make `k` or `th` (the counter and
    the iterated name its start reads); an induction whose base reads a sum read it where
    its column was never made. Both were a traceback (`KeyError: no scalar 'k' bound in
    this batch`), the whole audit lost. Now the rows are made with what the starts read,
    and the verdicts are the ones the starts give: the runs from -u and a seeded start left
    out of `rests`, every online run starting at its base sum N."""
    from verify.api import audit_proofs

    path = tmp_path / "start.toml"
    if case == "base reads a sum":
        path.write_text(BASE_OF_A_SUM)
    elif case == "claim reads a sum":  # its base check counted on the runs it is checked on
        path.write_text(BASE_OF_A_SUM.replace('"sum(j in 1..N, y[j]**2)"', '"N"').replace(
            'claim = "s >= t"', 'claim = "s + sum(j in 1..N, y[j]**2) >= t"'))
    else:
        path.write_text(FROM_ZERO_ON_BATCH_RUNS.replace(
            'claim = "norm2(th - ts) <= norm2(ts)"', 'claim = "dot(ts, xb) >= 0"'))
    audit = audit_proofs(path, budget="small")
    steps = audit.proofs[0].steps
    assert all(s.numeric is not None and s.numeric.status == "held" for s in steps)
    if case != "rests on the iteration rows":
        (ind,) = steps
        assert ind.base_unchecked is None and ind.starts > 0 and ind.unmet_base == 0
        # the runs its starts are read on are those its base check runs on: none of the
        # sources kept from sums (`shards.NO_FAMILIES`), where the base check never runs
        assert ind.base is not None and ind.numeric.instances == ind.base.instances
    else:
        ahead, rests = steps
        assert 0 < ahead.unmet_base < ahead.starts
        assert rests.numeric is not None and rests.numeric.outside > 0


UNCOUNTED = """title = "an induction whose counter no run has"
vectors = ["w", "x"]
scalars = ["y", "j"]
naturals = ["j"]
[numeric]
run = "online"
[[step]]
id = "nonneg"
claim = "norm2(w) >= 0"
[step.induction]
variable = "j"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1"]
"""


def test_an_induction_whose_base_cannot_be_checked_says_so(tmp_path: Path) -> None:
    """An induction's counter that is no run quantity leaves no row known to be a run's
    start: its base is not checked, and every output says so (a reader would take silence
    for checked), as for update facts not checked."""
    from verify.api import audit_proofs

    (tmp_path / "uncounted.toml").write_text(UNCOUNTED)
    audit = audit_proofs(tmp_path / "uncounted.toml", budget="small")
    (step,) = audit.proofs[0].steps
    assert step.numeric is not None and step.numeric.status == "held" and step.base is None
    said = ("its counter j is no quantity of its runs' rows (online, under the [numeric] "
            "names), so no row is known to be a run's start")
    assert step.base_unchecked == said
    assert to_json(audit)["proofs"][0]["steps"][0]["numeric"]["base_unchecked"] == said
    assert f"  uncounted ({said}): nonneg" in to_text(audit).splitlines()
    for fmt, render in RENDERERS.items():
        assert "its base was not checked on its runs" in render(audit, []), fmt


DEFINED_IN_THE_BASE = """title = "a base that reads a defined name"
vectors = ["w", "x", "u"]
scalars = ["y", "t", "a", "b", "r"]
naturals = ["t"]
[define]
r = "max(a, b)"
[numeric]
run = "online"
names = { a = "0*R2", b = "0*R2" }
[[step]]
id = "ind"
claim = "dot(w, u) >= r*t"
[step.induction]
variable = "t"
base = { w = "r*u" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) >= 0"]
constants = ["u", "a", "b"]
"""


def test_a_base_reading_a_defined_name_is_said_unchecked_for_that_reason(
        tmp_path: Path) -> None:
    """Red team 32 F1: a base `w := r*u` with `r = max(a, b)` [define]d is not checked on
    runs, and the reason said the claim's rows "do not make a [define]d name", where the
    claim reads r and those same rows made its column (251 instances). Now it says what is
    so: the base reads r, which the audit does not evaluate at a run's start."""
    from verify.api import audit_proofs

    (tmp_path / "defbase.toml").write_text(DEFINED_IN_THE_BASE)
    audit = audit_proofs(tmp_path / "defbase.toml", budget="small")
    (step,) = audit.proofs[0].steps
    assert step.numeric is not None and step.numeric.instances > 0  # r made on its rows
    assert step.base_unchecked == ("its base reads r, a [define]d name, which the audit does "
                                   "not evaluate at a run's start, so no row of its runs is "
                                   "known to be one")
    assert "do not make" not in to_text(audit)


def test_rows_from_a_state_where_the_counter_is_0_off_the_base_are_left_out() -> None:
    """`CompiledJudgement.starts` on rows of two runs, out of order: the run whose row at
    counter 0 is off the base has every row left out (`outside`), neither instance nor
    vacuous; the other run's rows are checked as ever."""
    import sympy

    from verify.kernel import Judgement
    from verify.kernel.algebra import Fact
    from verify.numeric.instances import CompiledJudgement
    from verify.runs.columns import Instance, InstanceBatch, Origin

    k, s = sympy.Symbol("k"), sympy.Symbol("s")
    claim = Judgement((), Fact(s, ">="), (), ("k", "s"))  # s >= 0: broken by the bad run
    compiled = CompiledJudgement.compile(claim, starts=((Fact(k, "=="), Fact(s, "==")),))

    def run(name: str, values: list[int]) -> InstanceBatch:
        return InstanceBatch.from_instances(
            [Instance({"k": Fraction(i), "s": Fraction(v)}, {}) for i, v in
             enumerate(values)], Origin(name))

    good, bad = run("good", [0, 1, 2]), run("bad", [-1, 0, -2])
    verdict = compiled.check(InstanceBatch.concat([bad, good]))
    assert (verdict.status, verdict.instances, verdict.vacuous, verdict.outside) == (
        "held", 3, 0, 3)
    plain = CompiledJudgement.compile(claim).check(InstanceBatch.concat([bad, good]))
    assert (plain.status, plain.violations, plain.outside) == ("violated", 2, 0)


def test_an_induction_whose_base_no_run_meets_is_not_run_and_says_why(tmp_path: Path) -> None:
    """No batch run starts at 3u: every row of every run is left out, so neither `ahead` nor
    `rests` has an instance; each is not run, its reason saying that the runs start
    elsewhere (not "not-run on 0 instances"), and the JSON keeps the base's counts beside
    the not-run verdict (the schema takes them there)."""
    import jsonschema

    from verify import schema
    from verify.api import audit_proofs

    path = tmp_path / "elsewhere.toml"
    path.write_text(FROM_ZERO_ON_BATCH_RUNS.replace('base = { th = "0*th" }',
                                                    'base = { th = "3*ts" }'))
    audit = audit_proofs(path, budget="small")
    ahead, rests = audit.proofs[0].steps
    assert ahead.numeric is None and rests.numeric is None
    assert ahead.unmet_base == ahead.starts > 0
    assert ahead.reason is not None and ahead.reason.startswith(
        "every run it was checked on starts elsewhere than its base")
    assert rests.reason is not None and "the base of an induction whose claim it uses" in \
        rests.reason
    document = to_json(audit)
    assert document["proofs"][0]["steps"][0]["numeric"]["base"]["unmet"] == ahead.starts
    jsonschema.validate(json.loads(json.dumps(document)), schema.load("audit"))


#: The same proof with b's update facts gone: every run of b is one of its runs.
RESTS_ON_AN_INDUCTION_WITHOUT_FACTS = USES_AN_INDUCTION_OF_OTHER_RUNS.replace(
    'given = ["y*dot(w, x) <= -1"]\n', "").replace(
    "uses an induction of other runs", "rests on an induction without update facts")


def test_a_step_resting_on_an_induction_without_update_facts_says_it_has_none(
        tmp_path: Path) -> None:
    """Red team 31 B2: `d` (`t >= 0 [b] |- t <= 0`, false on every run of b that updates)
    rests on `b`, which has no update facts; its caveat said "b's are not checked on these
    runs", facts that do not exist and that every run meets, leaving the reader to doubt a
    violation that holds of b's own runs."""
    from verify.api import audit_proofs

    (tmp_path / "rests.toml").write_text(RESTS_ON_AN_INDUCTION_WITHOUT_FACTS)
    audit = audit_proofs(tmp_path / "rests.toml", budget="small")
    b, d = audit.proofs[0].steps
    assert d.numeric is not None and d.numeric.status == "violated"
    assert b.update_map is not None
    assert d.caveat is not None and d.caveat.endswith(
        "of these the audit checks the base, the update facts and, where their rows make what "
        f"they read, the step and the counter only: b's base holds at each of the {b.starts} "
        "rows where its counter is 0; b has no update facts; b's step is the run's update at "
        f"each of the {b.update_map.instances} updates of these runs"), d.caveat
    assert "not checked" not in d.caveat


READ_ON_UPDATE_ROWS = """title = "an induction read on update rows"
vectors = ["w", "x"]
scalars = ["y", "t", "c"]
naturals = ["t"]
[numeric]
run = "online"
names = { c = "tau" }
[[step]]
id = "b"
claim = "t <= c"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["t <= 0"]
constants = ["c"]
"""


def test_an_induction_read_on_rows_per_update_leaves_out_those_after_a_failing_update(
        tmp_path: Path) -> None:
    """`c` bound to the update's step `tau` puts `b`'s own rows on the rows per update, those
    its update facts are checked on. Checked in one go with them, its rows after a run's
    first failing update (`t <= 0` fails from t = 1) were kept, "violated" at t = 2 on 112
    rows while the update-facts line said they were left out. The checks of the update facts
    now go first whatever rows the others read."""
    from verify.api import audit_proofs

    (tmp_path / "rows.toml").write_text(READ_ON_UPDATE_ROWS)
    audit = audit_proofs(tmp_path / "rows.toml", budget="small")
    (b,) = audit.proofs[0].steps
    assert b.unmet_updates > 0 and b.numeric is not None
    assert b.numeric.status == "held" and b.numeric.past_unmet > 0


#: A lecturer's false bound for the margin perceptron (newcomer 34): each update adds at most
#: 2 beta + R^2 to ||w||^2, not beta + R^2, so the invariant fails on runs at beta > 0.
#: The margin bound without its factor 2, written with `R2` for R²: false, and still unknown
#: symbolically (n34e's walk refutes the `R**2` form by a 3-update run, not this one), so
#: the audit's verdict on it is a violation on runs, with the caveat an unproved induction
#: carries.
MARGIN_TOO_SMALL = """
title = "A student's margin bound"
vectors = ["w", "x"]
scalars = ["t", "y", "R2", "beta"]
naturals = ["t"]
[numeric]
run = "online"
algorithm = "margin-perceptron"
[[step]]
id = "norm-invariant"
claim = "norm2(w) <= t*(beta + R2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R2"]
constants = ["R2", "beta"]
"""


def test_the_caveat_of_an_unproved_induction_lists_what_was_checked_one_by_one(
        tmp_path: Path) -> None:
    """Newcomer 34, N7: the caveat of a false induction violated on runs ran its checks
    together, "the audit checks only the update facts, at each update of these runs, none of
    which fails them and the base, at the 1188 rows where t is 0, holding at each and the
    step, at each of ...", which reads as the update facts failing "them and the base". Each
    check is now one item, with what it found after a colon, the items apart by semicolons."""
    from verify.api import audit_proofs

    (tmp_path / "margin.toml").write_text(MARGIN_TOO_SMALL)
    audit = audit_proofs(tmp_path / "margin.toml", budget="small")
    (step,) = audit.proofs[0].steps
    assert step.symbolic.status != "proved" and step.numeric is not None
    assert step.numeric.status == "violated"
    assert step.updates is not None and step.base is not None and step.update_map is not None
    assert step.caveat is not None and step.caveat.endswith(
        ": the audit checks only these: the update facts at each update of these runs: none "
        f"fails them; the base at the {step.starts} rows where t is 0: it holds at each; the "
        f"step at each of the {step.update_map.instances} updates of these runs: each moves "
        "as it says"), step.caveat
    assert step.caveat in to_text(audit)


def test_rows_where_the_counter_miscounts_are_left_out_of_the_verdict(tmp_path: Path) -> None:
    """memb33, open end 1: the progress induction (proved) with its counter bound to `2*t`
    was "violated on runs" (a finding of a proved induction) at rows where `k` is twice
    the run's count of updates: rows the counter check reported as miscounted, still read.
    Such a row is no state after `k` updates: it is now left out of the verdict (neither
    instance nor vacuous), the verdict rests on the rows where `k` is the count, and the
    proof, checked on its runs at those rows only, is incomplete, saying why."""
    from verify.api import audit_proofs
    from verify.audit.report import to_json, to_text

    (tmp_path / "twice.toml").write_text(progress_bound(
        "progress counted twice", 'k = "2*t", g = "gamma_u"')
        + '[[step]]\nid = "rests"\nuses = ["progress"]\nclaim = "dot(w, u) >= k*g"\n')
    audit = audit_proofs(tmp_path / "twice.toml", budget="small")
    progress, rests = audit.proofs[0].steps
    # a step resting on its claim reads the same runs' rows: those left out with them
    assert rests.numeric is not None and not rests.finding
    assert rests.numeric.miscounted == progress.miscounted
    assert progress.symbolic.status == "proved" and progress.numeric is not None
    assert progress.miscounted > 0 and not progress.finding
    assert progress.numeric.status == "held" and progress.numeric.violations == 0
    assert progress.numeric.miscounted == progress.miscounted  # none of them outside
    assert progress.numeric.instances == progress.starts  # the rows at k = 0 = t only
    assert audit.proofs[0].status == "incomplete"
    assert ("progress (its counter is not its runs' count of updates)"
            in audit.problems()[0])
    numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
    assert numeric["miscounted"] == progress.miscounted
    assert "so it is left out of its verdict" in numeric["counter"]["said"]
    assert "so it is left out of its verdict" in to_text(audit)


def test_a_constant_that_varies_along_a_run_is_said_and_its_rows_left_out(
        tmp_path: Path) -> None:
    """adv32b O2: the progress induction (proved) with its constant `g` bound to the
    example's own margin `y*dot(u, x)`, which varies along a run: every other check passed
    (the update fact `y*dot(u, x) >= g` holds at each update with g bound so), and the
    proof was "violated on runs" at rows where `g` was a larger margin than the updates
    had. A constant keeps one value along the induction's runs: from a run's first row
    where it has another value than at its first, the run is none of them, its rows are
    left out, and every output says which constant; the proof is incomplete."""
    from verify.api import audit_proofs
    from verify.audit.report import to_json, to_text

    (tmp_path / "margin.toml").write_text(progress_bound(
        "a margin bound to the example's", 'k = "t", g = "y*dot(u, x)"'))
    audit = audit_proofs(tmp_path / "margin.toml", budget="small")
    (progress,) = audit.proofs[0].steps
    assert progress.symbolic.status == "proved" and progress.numeric is not None
    assert progress.numeric.violations == 0 and not progress.finding  # a finding before
    assert progress.numeric.varying > 0 and progress.varied == ("g",)
    from verify.audit.membership import constants_text

    assert audit.proofs[0].status == "incomplete"
    assert "progress (its constant g changes along its runs)" in audit.problems()[0]
    said = constants_text(progress)
    assert said.startswith("its constant g takes another value along some of the runs")
    assert f"its {progress.numeric.varying} rows there are left out" in said
    assert f"margin/progress: {said}" in to_text(audit)
    numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
    assert numeric["constants"] == {"varied": ["g"], "rows": progress.numeric.varying,
                                    "said": said}
    assert numeric["varying"] == progress.numeric.varying and numeric["varied"] == ["g"]
    for render in (markdown.render, html.render):
        assert said.split(" (under")[0] in render(audit, [])
    # review 33: a step resting on the induction names the constant as the induction's
    (tmp_path / "rests.toml").write_text(progress_bound(
        "a margin bound to the example's", 'k = "t", g = "y*dot(u, x)"')
        + '[[step]]\nid = "rests"\nuses = ["progress"]\nclaim = "dot(w, u) >= k*g"\n')
    _, rests = audit_proofs(tmp_path / "rests.toml", budget="small").proofs[0].steps
    assert rests.numeric is not None and rests.numeric.varying > 0
    assert rests.numeric.varied == ("progress's g",)
    (tmp_path / "fixed.toml").write_text(progress_bound(
        "a margin of the data", 'k = "t", g = "gamma_u"'))
    (fixed,) = audit_proofs(tmp_path / "fixed.toml", budget="small").proofs[0].steps
    assert fixed.numeric is not None and fixed.numeric.varying == 0 and fixed.varied == ()


def test_a_step_or_counter_left_unchecked_is_said_beside_a_verdict_that_held(
        tmp_path: Path) -> None:
    """memb33, open end 2: `v` bound to `2*w` has no next value the rows make, so the step
    `v - 2*y*x` (refuted: the runs do `+`) was not checked against the runs' updates, nor,
    with it, the counter: the reasons were dropped, and "runs: held" stood with nothing
    said. Every output now says what was not checked and why; the counter by name the
    count (`k = t`) needs no check."""
    from verify.api import audit_proofs
    from verify.audit.report import to_json, to_text

    (tmp_path / "expr.toml").write_text(STEP_OF_AN_EXPRESSION.format(counter='k = "2*t"'))
    audit = audit_proofs(tmp_path / "expr.toml", budget="small")
    (norm,) = audit.proofs[0].steps
    assert norm.symbolic.status == "refuted" and norm.numeric is not None
    assert norm.numeric.status == "held" and norm.update_map is None
    text = to_text(audit)
    assert "step not checked on runs (each induction's claim" in text  # nothing before
    assert norm.map_unchecked is not None and norm.map_unchecked.startswith(
        "v denotes no run quantity whose next value the rows per update of its runs")
    assert norm.counter is None and norm.counter_unchecked == (
        "its step is not checked against its runs' updates, so neither is that its counter "
        "counts them")
    assert f"expr ({norm.map_unchecked}): norm" in text
    assert f"expr ({norm.counter_unchecked}): norm" in text
    numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
    assert numeric["update_map_unchecked"] == norm.map_unchecked
    assert numeric["counter_unchecked"] == norm.counter_unchecked
    for render in (markdown.render, html.render):
        assert "its step was not checked against its runs" in render(audit, [])
    (tmp_path / "count.toml").write_text(STEP_OF_AN_EXPRESSION.format(counter='k = "t"'))
    (counted,) = audit_proofs(tmp_path / "count.toml", budget="small").proofs[0].steps
    assert counted.map_unchecked is not None and counted.counter_unchecked is None
    assert norm.constants_unchecked is None  # R2 is the runs' own, fixed along each
    (tmp_path / "moving.toml").write_text(STEP_OF_AN_EXPRESSION.format(
        counter='k = "t", R2 = "norm2(x)"'))
    (moving,) = audit_proofs(tmp_path / "moving.toml", budget="small").proofs[0].steps
    assert moving.constants_unchecked is not None and ", and R2, which reads quantities its " \
        "runs do not hold fixed, is not checked to keep one value" in moving.constants_unchecked


def test_a_constant_the_check_skips_is_said_not_checked(tmp_path: Path) -> None:
    """Ends35 (memb33's open ends): where an induction's step is checked against its runs'
    updates, its constants are checked on the rows its claim is checked on; two were
    skipped without a line, and the proof read as if every constant had been checked: a
    constant that is a `[define]`d name (`g = min(a, a)`: a definition is evaluated at each
    row, never against a run's first row; `a`, a constant too, is still checked and
    varies), and one its update facts read but its claim does not (`c`, the example's
    margin: the claim's rows, one per state, do not make `x`, and the rows per update are
    not where constants are checked). Each is now said in every output, with why."""
    from verify.api import audit_proofs
    from verify.audit.membership import caveat

    (tmp_path / "defined.toml").write_text(DEFINED_CONSTANT)
    audit = audit_proofs(tmp_path / "defined.toml", budget="small")
    (progress,) = audit.proofs[0].steps
    assert progress.varied == ("a",) and progress.update_map is not None
    assert progress.constants_unchecked == (
        "of its constants, g (a [define]d name: a definition is evaluated at each row, never "
        "compared with its value at a run's first row) is not checked to keep one value "
        "along its runs")
    text = to_text(audit)
    assert f"defined ({progress.constants_unchecked}): progress" in text
    numeric = to_json(audit)["proofs"][0]["steps"][0]["numeric"]
    assert numeric["constants_unchecked"] == progress.constants_unchecked
    for render in (markdown.render, html.render):
        assert "its constants were not all checked to keep one value" in render(audit, [])
    (tmp_path / "update.toml").write_text(UPDATE_FACTS_CONSTANT)
    audit = audit_proofs(tmp_path / "update.toml", budget="small")
    (progress,) = audit.proofs[0].steps
    assert progress.numeric is not None and progress.numeric.varying == 0
    assert progress.constants_unchecked == (
        "of its constants, c (it reads quantities the rows its claim is checked on (online: "
        "state) do not make; constants are checked on those rows only, not on its rows per "
        "update) is not checked to keep one value along its runs")
    assert f"update ({progress.constants_unchecked}): progress" in to_text(audit)
    broken = dataclasses.replace(progress, symbolic=dataclasses.replace(
        progress.symbolic, theorem=None))
    assert caveat(broken).endswith(
        "; it does not check that every one of its constants keeps one value along these "
        f"runs ({progress.constants_unchecked})")


READS_ITS_COUNTER = """title = "a step that reads its counter and is the runs' update"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "g"]
naturals = ["t"]
[[step]]
id = "progress"
claim = "dot(w, u) >= t*g"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x + t*(y**2 - 1)*x" }
given = ["y*dot(u, x) >= g", "y**2 == 1"]
constants = ["u", "g"]
[numeric]
run = "online"
names = { g = "gamma_u", t = "time" }
"""


def test_a_counter_left_unchecked_for_a_step_reading_it_says_no_more_than_is_known(
        tmp_path: Path) -> None:
    """num35 F2: a step that reads its counter (`+ t*(y**2 - 1)*x`, 0 under its update
    facts) is checked to be its runs' update at every update, yet its counter's reason
    said "its steps are not its runs' updates", untrue. It now says what reading the
    counter may mean (steps over visits), and that the counter is not compared."""
    from verify.api import audit_proofs

    (tmp_path / "reads.toml").write_text(READS_ITS_COUNTER)
    (step,) = audit_proofs(tmp_path / "reads.toml", budget="small").proofs[0].steps
    assert step.update_map is not None and step.unmet_map == 0  # its steps are the updates
    assert step.counter is None and step.counter_unchecked is not None
    assert "its steps are not its runs' updates" not in step.counter_unchecked
    assert step.counter_unchecked.startswith(
        "its step reads its counter t, so its steps may be visits that update nothing")


def test_rows_left_out_for_several_reasons_are_never_all_said_to_start_elsewhere(
        tmp_path: Path) -> None:
    """Review 33: `not_its_runs` said "every run it was checked on starts elsewhere than its
    base: none of their 40 rows..." when 40 rows were off the base and 60 more were left out
    as miscounted, rows of runs that did start at the base. Only rows all off a base are
    said so; rows left out for several reasons are counted by reason."""
    from verify.api import audit_proofs
    from verify.audit.membership import not_its_runs
    from verify.numeric.instances import NumericVerdict

    (tmp_path / "p.toml").write_text(progress_bound("progress", 'k = "t", g = "gamma_u"'))
    (step,) = audit_proofs(tmp_path / "p.toml", budget="small").proofs[0].steps
    mixed = dataclasses.replace(step, numeric=NumericVerdict(
        "not-run", 0, 0, 0, None, None, outside=40, miscounted=60))
    reason = not_its_runs(mixed).reason
    assert not_its_runs(mixed).numeric is None and reason is not None
    assert "starts elsewhere" not in reason
    assert reason.startswith("every row of the runs it was checked on was left out (40 off a "
                             "base, 0 past an update"), reason
    assert "60 where an induction's counter is not the run's count of updates" in reason
    alone = dataclasses.replace(step, numeric=NumericVerdict(
        "not-run", 0, 0, 0, None, None, outside=40))
    assert not_its_runs(alone).reason == (
        "every run it was checked on starts elsewhere than its base (under the [numeric] "
        "names): none of their 40 rows is a state of the runs its statement speaks of")


def test_the_caveats_say_when_an_inductions_constants_are_not_checked(tmp_path: Path) -> None:
    """Review 33 (red team 33 F2's case where memb33's check does not reach): an induction
    whose step is not checked against its runs' updates (`v` bound to `2*w`) has its
    constants unchecked too (`R2` bound to `norm2(x)`, which varies along a run); the caveat
    of its violation, and of a step resting on it, listed what was checked and said nothing
    of its constants, as if a violation could only come from the runs' start, updates or
    counter. Both now say the constants are not checked, and why."""
    from verify.api import audit_proofs
    from verify.audit.membership import caveat

    (tmp_path / "moving.toml").write_text(STEP_OF_AN_EXPRESSION.format(
        counter='k = "t", R2 = "norm2(x)"')
        + '[[step]]\nid = "rests"\nuses = ["norm"]\nclaim = "norm2(v) <= 4*k*R2"\n')
    norm, rests = audit_proofs(tmp_path / "moving.toml", budget="small").proofs[0].steps
    assert norm.symbolic.status != "proved" and norm.constants_unchecked is not None
    said = caveat(norm)
    assert said.startswith(
        "this violation shows the step false only if these runs start, update, meet the update "
        "facts, count their updates and keep its constants at one value as its induction says "
        "(base, step, given, counter k and constants, under the [numeric] names): "), said
    assert said.endswith(
        "; it does not check that every one of its constants keeps one value along these runs "
        f"({norm.constants_unchecked})"), said
    assert [a.step.id for a in rests.runs_of] == ["norm"]
    assert (f"not every one of norm's constants is checked to keep one value along these runs "
            f"({norm.constants_unchecked})") in caveat(rests)
