"""`novikoff explain`: finding a step, certificates written as sums, counterexamples plugged in."""

from __future__ import annotations

from fractions import Fraction

import pytest
from cases.inductions import carried_broken_once

from verify.cli import main
from verify.kernel import Certificate
from verify.render.text import (
    Located,
    UnknownStep,
    builtin_steps,
    check_with_uses,
    explain,
    fact,
    labels,
    locate,
    number,
    polynomial,
)


@pytest.fixture(scope="module")
def steps() -> list[Located]:
    return builtin_steps()


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`novikoff explain ARGS`: exit code (argparse's own exits included), stdout, stderr."""
    try:
        code = main(["explain", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_locate_full_and_unique_bare_ids(steps: list[Located]) -> None:
    full = locate("virtue-online/part3-as-written", steps)
    assert (full.proof_id, full.step.id) == ("virtue-online", "part3-as-written")
    assert locate("part3-as-written", steps) == full  # only virtue-online has it
    # by itself, a PROOF/STEP query parses only that proof, and finds the same step
    assert locate("virtue-online/part3-as-written") == full


def test_locate_lists_ambiguity_and_close_matches(steps: list[Located]) -> None:
    with pytest.raises(UnknownStep) as ambiguous:
        locate("norm-growth", steps)
    owners = [s.full_id for s in steps if s.step.id == "norm-growth"]
    assert len(owners) > 1 and all(o in str(ambiguous.value) for o in owners)
    with pytest.raises(UnknownStep, match=r"close matches: .*norm-growth"):
        locate("nrom-growth", steps)
    with pytest.raises(UnknownStep, match=r"no built-in proof 'virtue-onlin'.*virtue-online"):
        locate("virtue-onlin/part3-as-written", steps)
    with pytest.raises(UnknownStep, match=r"close matches: virtue-online/part3-as-written"):
        locate("virtue-online/part3-as-writen", steps)


def test_proved_step_shows_every_hypothesis_and_coefficient(steps: list[Located]) -> None:
    located = locate("canonical-online/norm-growth", steps)
    reports = check_with_uses(located)
    report = reports[located.step.id]
    assert report.status == "proved"
    text = explain(located, reports)
    assert located.step.source in text and located.step.note in text
    for goal in report.goals:
        judgement = goal.verdict.judgement or goal.judgement
        certificate = goal.verdict.certificate
        assert isinstance(certificate, Certificate)
        names = labels(judgement)
        origins = dict(zip(goal.judgement.hypotheses, goal.goal.origins, strict=True))
        for name, hypothesis in zip(names, judgement.hypotheses, strict=True):
            assert f"{name}: {fact(hypothesis)}    [{origins[hypothesis]}]" in text
        assert f"    i.e.  {fact(judgement.claim)}" in text
        for term in certificate.products:
            bracketed = " * ".join(f"[{names[i]}: {fact(judgement.hypotheses[i])}]"
                                   for i in term.hyps)
            assert f"{number(term.coeff)} * {bracketed}" in text
        for j, q in certificate.linear:
            assert f"({polynomial(q)}) * [{names[j]}: {fact(judgement.hypotheses[j])}]" in text
    # the induction step's certificate, as a person would write it, and where each fact is
    # from, in the reports' notation (R2 is R²), the update as the file writes it (w + y*x)
    assert "for every run from w = 0 of updates w ← w + y·x, each with y² = 1" in text
    assert "claim: ‖w‖² ≤ t·R² [t := t + 1, w := w + y·x]" in text
    assert "claim: ‖w‖² ≤ t·R² [t := 0, w := 0]" in text
    assert "h2: R²*t - ⟨w,w⟩ >= 0    [invariant]" in text
    assert "= 1 * [h2: R²*t - ⟨w,w⟩ >= 0]" in text
    assert "+ 2 * [h3: -y*⟨w,x⟩ >= 0]" in text
    assert "+ (-⟨x,x⟩) * [e1: y^2 - 1 = 0]" in text
    assert "R2" not in text.replace(located.step.note, "")  # no raw name outside the note


def test_refuted_step_plugs_the_counterexample_into_everything(steps: list[Located]) -> None:
    located = locate("virtue-online/part3-as-written", steps)
    reports = check_with_uses(located)
    report = reports[located.step.id]
    assert report.status == "refuted"
    cex = report.counterexample
    assert cex is not None
    text = explain(located, reports)
    k, gamma, n, R = (Fraction(cex.scalars[v]) for v in ("k", "gamma", "n", "R"))
    assert f"k = {number(k)}" in text and f"γ = {number(gamma)}" in text
    assert f"    k > 0:  {number(k)} > 0  holds" in text
    assert f"    k·γ ≤ n:  {number(k * gamma)} ≤ {number(n)}  holds" in text
    assert f"    n² ≤ k·R²:  {number(n * n)} ≤ {number(k * R * R)}  holds" in text
    assert k * gamma**2 > R**2
    assert f"k·γ² ≤ R²:  {number(k * gamma**2)} ≤ {number(R**2)}  FAILS" in text
    assert text.count("FAILS") == 1 and "w1a" not in text  # unused names are left out


def test_refuted_vector_step_shows_gram_values(steps: list[Located]) -> None:
    located = locate("virtue-online/part2-radius-equality", steps)
    text = explain(located, check_with_uses(located))
    assert "⟨x,x⟩ = " in text and "FAILS" in text and "    y² = 1:  1 = 1  holds" in text


def test_cli_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "canonical-online/norm-growth")
    assert code == 0 and err == "" and "status: proved" in out
    code, out, err = cli(capsys, "part3-as-written")
    assert code == 1 and "status: refuted" in out and "FAILS" in out


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("nrom-growth", "close matches"),
        ("norm-growth", "write PROOF/STEP"),
        ("no/such-step", "no built-in proof 'no'"),
        ("zzzzzz", "built-in proofs: canonical-online"),
    ],
)
def test_cli_bad_ids_are_one_line_exit_2(capsys: pytest.CaptureFixture[str], query: str,
                                         says: str) -> None:
    code, out, err = cli(capsys, query)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("novikoff: error:") and says in err


def test_help_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--help")
    assert code == 0
    assert "STEP_ID" in out and "PROOF/STEP" in out and "counterexample" in out
    code, out, _ = (0, *capsys.readouterr())
    try:
        main(["--help"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code == 0 and "explain" in capsys.readouterr().out


def test_refutation_form_spells_out_the_contradiction(steps: list[Located]) -> None:
    """`p <= r` from `r >= 0, p**2 <= r**2` is proved by refuting `p - r > 0`: explain says so."""
    located = locate("nonseparable-freund-schapire/root", steps)
    text = explain(located, check_with_uses(located))
    assert "h3: p - r > 0    [the claim's negation]" in text
    assert ("by contradiction: assume the claim p ≤ r fails, i.e. h3: p - r > 0; then" in text
            and "0 = (right side) > 0, a contradiction. So the claim holds." in text)
    # newcomer 28 (Low): the claim line read "claim: p ≤ r    i.e.  0 > 0"
    assert "i.e.  0 > 0" not in text
    assert "(proved in refutation form: its negation is h3, and the goal is 0 > 0)" in text


def test_inherited_hypotheses_are_each_marked(steps: list[Located]) -> None:
    """A used step's own hypotheses are inherited too, and explain marks each one."""
    from proofs.proof_file import parse_proof
    from verify.render.text import statement_lines

    text = ('title = "t"\nscalars = ["a", "b"]\n[[step]]\nid = "one"\ngiven = ["a >= 1"]\n'
            'claim = "a > 0"\n[[step]]\nid = "two"\ngiven = ["b >= a"]\nclaim = "b > 0"\n'
            'uses = ["one"]\n')
    proof = parse_proof(text.encode(), "t.toml")
    located = Located("t.toml", proof, proof.step("two"))
    lines = statement_lines(located, check_with_uses(located))
    # one's given is not one's result (newcomer 23 L5): marked as its hypothesis
    assert lines == ["statement:", "  given b ≥ a", "  given as a hypothesis of one: a ≥ 1",
                     "  from one: a > 0", "  ⊢ b > 0"]


def test_a_hypothesis_another_used_step_proves_reads_from_that_step() -> None:
    """Red team 28: `uses = ["b", "a"]`, b given `a >= 0` and a claiming it. The kernel keeps
    the fact once, tagged with b (first), and the statement read `given as a hypothesis of
    b: a ≥ 0` (an assumption of the theorem) where a proves it; in the other order, `from
    a`. Now `from a` in both orders; a fact the claiming step also assumes stays given."""
    from proofs.proof_file import parse_proof
    from verify.render.text import statement_lines

    head = 'title = "t"\nscalars = ["a", "b", "c"]\n'
    lemma_a = '[[step]]\nid = "a"\ngiven = ["c >= 1", "a == c*c"]\nclaim = "a >= 0"\n'
    lemma_b = '[[step]]\nid = "b"\ngiven = ["a >= 0", "b == 2*a"]\nclaim = "b >= a"\n'
    for order in ('["b", "a"]', '["a", "b"]'):
        text = (head + lemma_a + lemma_b + '[[step]]\nid = "main"\nclaim = "b >= 0"\n'
                f'uses = {order}\n')
        proof = parse_proof(text.encode(), "t.toml")
        located = Located("t.toml", proof, proof.step("main"))
        lines = statement_lines(located, check_with_uses(located))
        assert "  from a: a ≥ 0" in lines, lines
        assert not any("hypothesis of b: a ≥ 0" in line for line in lines), lines
    circular = head + lemma_b.replace('given = ["a >= 0", ', 'given = [') + (
        '[[step]]\nid = "a"\ngiven = ["a >= 0"]\nclaim = "a >= 0"\n'
        '[[step]]\nid = "main"\ngiven = ["b >= a"]\nclaim = "b >= 0"\nuses = ["a"]\n')
    proof = parse_proof(circular.encode(), "t.toml")
    located = Located("t.toml", proof, proof.step("main"))
    lines = statement_lines(located, check_with_uses(located))
    assert "  given as a hypothesis of a: a ≥ 0" in lines, lines


def test_a_hypothesis_an_instance_proves_in_other_words_reads_from_the_instance() -> None:
    """Red team 28 (F2, second form): `needs` assumes `dot(w, u)**2 <= norm2(w)*norm2(u)`,
    and the step also uses cs with a := w, b := u, whose claim is that fact written
    otherwise (the kernel keeps both texts). It read `given as a hypothesis of needs`; the
    two are one relation in the kernel's normal form, so it reads as the claim of cs with
    a := w, b := u that proves it, shown once."""
    from proofs.proof_file import parse_proof
    from verify.render.text import statement_lines

    text = ('title = "t"\nvectors = ["w", "u", "a", "b"]\n'
            '[[step]]\nid = "cs"\nclaim = "dot(a, b)**2 <= norm2(a)*norm2(b)"\n'
            '[[step]]\nid = "needs"\ngiven = ["dot(w, u)**2 <= norm2(w)*norm2(u)", '
            '"norm2(u) == 1"]\nclaim = "dot(w, u)**2 <= norm2(w)"\n'
            '[[step]]\nid = "main"\ngiven = ["norm2(u) == 1"]\n'
            'claim = "dot(w, u)**2 <= norm2(w)"\n'
            'uses = ["needs", { step = "cs", with = { a = "w", b = "u" } }]\n')
    proof = parse_proof(text.encode(), "t.toml")
    located = Located("t.toml", proof, proof.step("main"))
    lines = statement_lines(located, check_with_uses(located))
    assert lines == ["statement:", "  given ‖u‖² = 1",
                     "  from cs with a := w, b := u: ⟨a, b⟩² ≤ ‖a‖²‖b‖²",
                     "  from needs: ⟨w, u⟩² ≤ ‖w‖²", "  ⊢ ⟨w, u⟩² ≤ ‖w‖²"], lines


def test_a_per_update_natural_is_a_fact_of_each_update_not_a_given() -> None:
    """Red team 26 (R6 aside, left open) and 28: an induction's per-update natural `k`
    (read by the update, not constant) read `given k ∈ ℕ`, one value for the whole run;
    it is natural at each update, fresh each time. A constant natural stays given."""
    from proofs.proof_file import parse_proof
    from verify.render.text import statement_lines

    text = ('title = "t"\nscalars = ["s", "t", "k", "n"]\nnaturals = ["t", "k", "n"]\n'
            '[[step]]\nid = "r"\ngiven = ["n >= 2"]\nclaim = "s >= t*n"\n'
            '[step.induction]\nvariable = "t"\nbase = { s = "0" }\n'
            'step = { s = "s + n + k" }\ngiven = ["k <= 5"]\nconstants = ["n"]\n')
    proof = parse_proof(text.encode(), "t.toml")
    located = Located("t.toml", proof, proof.step("r"))
    lines = statement_lines(located, check_with_uses(located))
    assert lines == ["statement:", "  for every run from s = 0 of updates s ← s + n + k, each "
                     "with k ∈ ℕ, k ≤ 5, after t updates:", "  given n ∈ ℕ, n ≥ 2",
                     "  ⊢ s ≥ t·n"], lines


def test_explain_json_is_what_explain_prints(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = cli(capsys, "virtue-online/part3-as-written", "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "refuted"
    assert data["statement"] == ["given k ∈ ℕ, k > 0, n ≥ 0, k·γ ≤ n, n² ≤ k·R²", "⊢ k·γ² ≤ R²"]
    (main_goal,) = data["judgements"]
    cex = main_goal["counterexample"]
    assert set(cex["scalars"]) == {"k", "gamma", "n", "R"} and cex["names"]["gamma"] == "γ"
    assert cex["claim"]["text"] == "k·γ² ≤ R²" and cex["claim"]["holds"] is False
    assert all(h["holds"] for h in cex["hypotheses"])
    code, out, _ = cli(capsys, "nonseparable-freund-schapire/root", "--json")
    (goal,) = json.loads(out)["judgements"]
    assert code == 0 and goal["contradiction"].startswith("assume the claim p ≤ r fails")
    assert goal["certificate"][0] == "(claim: 0)" and goal["counterexample"] is None


CARRIES_ANOTHERS_INVARIANT = carried_broken_once("a carrier", "")


def test_an_invariant_carried_from_another_induction_is_named_by_it(
        tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 31: `explain` marked the invariant `b` carries from `a` `[invariant]`, as it
    marks b's own, so the reader could not tell which hypothesis was whose. The kernel marks
    its own first and then one per carried claim, in `uses` order: those are now named."""
    import json

    path = tmp_path / "carrier.toml"
    path.write_text(CARRIES_ANOTHERS_INVARIANT)
    code, out, _ = cli(capsys, str(path), "b")
    assert code in (0, 1)
    assert "h2: 1 - t >= 0    [invariant]" in out
    assert "h3: t^2 - 2*t >= 0    [invariant of a]" in out
    code, out, _ = cli(capsys, str(path), "b", "--json")
    (step,) = [j for j in json.loads(out)["judgements"] if j["label"] == "step"]
    origins = [h["origin"] for h in step["hypotheses"]]
    assert "invariant" in origins and "invariant of a" in origins


def test_a_side_conditions_point_shows_its_values() -> None:
    """Newcomer nc35 K1: a denominator `b > 0` that no hypothesis shows is broken at b = 0,
    and explain printed "a point where the hypotheses hold and the claim fails ...:" with no
    value under it (a side condition has no written text, so every name was left out as
    unused). The point's names are then the judgement's own."""
    import json

    from proofs.proof_file import parse_proof
    from verify.render.text import explanation

    text = ('title = "t"\nscalars = ["a", "b", "c"]\n[[step]]\nid = "q"\ngiven = ["a >= 0"]\n'
            'claim = "a/b >= 0"\n')
    proof = parse_proof(text.encode(), "t.toml")
    located = Located("t.toml", proof, proof.step("q"))
    reports = check_with_uses(located)
    lines = explain(located, reports).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  a point where"))
    assert lines[at + 1] == "    a = 0, b = 0", lines[at:]
    side = json.loads(json.dumps(explanation(located, reports)))["judgements"][1]
    assert side["label"] == "denominator b > 0"
    assert side["counterexample"]["scalars"] == {"a": "0", "b": "0"}  # c: no name of it


def test_a_used_steps_facts_are_marked_with_its_id() -> None:
    """Newcomer nc35 K3: a used step's claim was marked `[claim]` among a judgement's
    hypotheses, which reads as if the step assumed its own claim; a hypothesis that step
    brought, `[inherited]`, from nowhere said. Each now names the step, as the statement
    does (`from one: a > 0`), in the text and in --json."""
    import json

    from proofs.proof_file import parse_proof
    from verify.render.text import explanation

    text = ('title = "t"\nscalars = ["a", "b"]\n[[step]]\nid = "one"\ngiven = ["a >= 1"]\n'
            'claim = "a > 0"\n[[step]]\nid = "two"\ngiven = ["b >= 2*a"]\n'
            'claim = "b >= 1 + a"\nuses = ["one"]\n')  # needs one's claim and its hypothesis
    proof = parse_proof(text.encode(), "t.toml")
    located = Located("t.toml", proof, proof.step("two"))
    reports = check_with_uses(located)
    out = explain(located, reports)
    assert "a - 1 >= 0    [hypothesis of one]" in out, out
    assert "a > 0    [claim of one]" in out, out
    assert "[claim]" not in out and "[inherited]" not in out, out
    (main,) = json.loads(json.dumps(explanation(located, reports)))["judgements"]
    assert [h["origin"] for h in main["hypotheses"]] == [
        "own", "hypothesis of one", "claim of one"], main["hypotheses"]
