"""Term-wise facts the checker finds itself (`verify.search.sums.termwise`): a step with sums
the search leaves unknown is decided again with lemmas about one member of each sum, proved
as steps of their own and used summed through the kernel's term-wise rule, as a user's
`uses = [{ step = ..., sum = ... }]`. True steps are proved and say which facts were found;
false ones are never proved, also when the concrete sets that refute them are not searched
(so the lemmas are tried on them)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import verify.proof_checker as checker
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof, detached, replay
from verify.search.sums import termwise
from verify.search.work import BUDGETS

HEAD = b'''
title = "found"
vectors = ["w", "x", "th"]
scalars = ["n", "N", "t", "s", "y", "z", "j", "l", "a", "k"]
naturals = ["n", "N", "t"]
indexed = ["x", "y", "z"]

[sets]
M = { index = "j", range = "1..N", where = ["y[j]**2 == 1", "y[j]*dot(th, x[j]) <= 0"] }
P = { index = "j", range = "1..N", where = ["z[j] >= 0"] }
Q = { index = "j", range = "1..N", where = ["y[j] <= z[j]"] }
'''

#: The reproduction (an induction whose update adds a sum of squares, and that sum >= 0):
#: both `unknown` before the checker found term-wise facts itself.
REPRODUCTION = b'''
title = "sum of squares in an induction"
vectors = ["w", "x"]
scalars = ["y", "N", "k", "t", "s"]
naturals = ["N", "t"]
indexed = ["y"]

[[step]]
id = "b"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + sum(k in 1..N, y[k]**2)" }
constants = ["y", "N"]

[[step]]
id = "c"
claim = "sum(k in 1..N, y[k]**2) >= 0"
'''

TRUE = {
    "squares": ('claim = "sum(k in 1..N, y[k]**2 + z[k]**2) >= 0"', "y[i]**2 + z[i]**2 >= 0"),
    "negated-squares": ('claim = "sum(k in 1..N, -y[k]**2) <= 0"', "y[i]**2 >= 0"),
    "mistakes-on-a-set": ('claim = "sum(j in M, y[j]*dot(th, x[j])) <= 0"',
                          "dot(th, x[i])*y[i] <= 0 summed over i in M"),
    "signed-product-filtered": ('claim = "sum(j in P, z[j]*y[j]**2) >= 0"',
                                "y[i]**2*z[i] >= 0 summed over i in P"),
    "order-on-a-set": ('claim = "sum(j in Q, y[j]) <= sum(j in Q, z[j])"',
                       "-y[i] + z[i] >= 0 summed over i in Q"),
    "difference-of-sums": (
        'claim = "sum(k in 1..N, 2*y[k]*z[k]) <= sum(k in 1..N, y[k]**2 + z[k]**2)"',
        "y[i]**2 - 2*y[i]*z[i] + z[i]**2 >= 0 summed over i in 1..N"),
    "free-name-beside-the-index": ('given = ["z[j] >= 0"]\n'
                                   'claim = "sum(k in 1..N, y[k]**2*z[j]) >= 0"',
                                   "y[i]**2 >= 0 summed over i in 1..N"),
    "squared-norms": ('claim = "sum(k in 1..N, norm2(x[k])) >= 0"', "dot(x[i], x[i]) >= 0"),
    "scaled-by-a-hypothesis": ('given = ["a >= 0"]\nclaim = "a*sum(k in 1..N, y[k]**2) >= 0"',
                               "y[i]**2 >= 0"),
}

FALSE = {
    "unsigned-body": 'claim = "sum(k in 1..N, y[k]) >= 0"',
    "empty-set": 'claim = "sum(k in 1..N, y[k]**2 + 1) >= 1"',
    "empty-set-strict": 'claim = "sum(k in 1..N, y[k]**2 + 1) > 0"',
    "hypothesis-on-the-index": 'given = ["y[j] >= 0"]\nclaim = "sum(j in 1..N, y[j]) >= 0"',
    "captured-by-the-bound-name": ('given = ["y[j] >= 0", "z[j] >= 0"]\n'
                                   'claim = "sum(k in 1..N, y[k]*z[j]) >= 0"'),
    "order-the-wrong-way": 'claim = "sum(j in Q, z[j]) <= sum(j in Q, y[j])"',
    "filter-not-given": 'claim = "sum(k in 1..N, z[k]*y[k]**2) >= 0"',
}


def one(body: str) -> checker.StepReport:
    proof = parse_proof(HEAD + f'\n[[step]]\nid = "s"\n{body}\n'.encode(), "found.toml")
    return check_proof(proof, store=None, budget=BUDGETS["small"]).steps[0]


def test_the_reproduction_is_proved_with_the_facts_it_found() -> None:
    proof = parse_proof(REPRODUCTION, "s2.toml")
    report = check_proof(proof, store=None)
    assert [s.status for s in report.steps] == ["proved", "proved"]
    for step in report.steps:
        assert ("term-wise facts found and proved: y[j]**2 >= 0 summed over j in 1..N "
                f"({step.step.id}-termwise-1)") in step.message
        assert [r.status for r in step.termwise] == ["proved"]
        assert step.statement is not None and step.theorem is not None
        assert step.theorem.statement == step.statement  # the report shows its theorem
        assert "(y[j]**2 >= 0 summed over j in 1..N)" in [h.text for h in
                                                         step.statement.hypotheses]
        assert [str(u) for u in step.step.uses] == [
            f"{step.step.id}-termwise-1 summed over j in 1..N"]


@pytest.mark.parametrize("name", sorted(TRUE))
def test_true_steps_with_sums_are_proved_by_the_facts_found(name: str) -> None:
    body, fact = TRUE[name]
    report = one(body)
    assert report.status == "proved", report.message
    assert "term-wise facts found and proved: " in report.message
    assert fact in report.message
    assert all(r.status == "proved" for r in report.termwise)


@pytest.mark.parametrize("name", sorted(FALSE))
def test_false_steps_with_sums_are_never_proved(name: str) -> None:
    assert one(FALSE[name]).status != "proved"


@pytest.mark.parametrize("name", sorted(FALSE))
def test_false_steps_stay_unproved_when_the_lemmas_are_tried(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the concrete sets (which refute them first), the false steps come back
    unknown and every lemma is tried on them: none makes them proved."""
    monkeypatch.setattr(checker, "_on_sets", lambda *args, **kwargs: None)
    report = one(FALSE[name])
    assert report.status != "proved", report.message
    assert report.termwise == ()


def test_the_lemmas_admit_only_membership_facts_beside_the_steps_own() -> None:
    """The hypothesis `y[j] >= 0` names the file's j, not the member: the fresh index is
    another name, so the lemma `y[i] >= 0` cannot read it as its own member's."""
    proof = parse_proof(HEAD + b'''
[[step]]
id = "s"
given = ["y[j] >= 0"]
claim = "sum(j in 1..N, y[j]) >= 0"
''', "found.toml")
    index = termwise.fresh_index(proof)
    assert index not in {"j", "k", "l"}
    stated = checker.kernel.state(checker.sequent(proof, proof.steps[0], []))
    home, lemmas = termwise.lemmas(proof, proof.steps[0], stated.obligations, index,  # type: ignore[arg-type]
                                   checker.over)
    assert [lemma.shown for lemma in lemmas] == [f"y[{index}] >= 0 summed over {index} in 1..N",
                                                 f"y[{index}] <= 0 summed over {index} in 1..N"]
    for lemma in lemmas:
        assert [h.text for h in lemma.step.hypotheses] == [f"{index} >= 1", f"{index} <= N",
                                                           "y[j] >= 0"]
    assert index in home.scalars


def test_a_step_still_unknown_with_the_facts_found_says_which_were_found() -> None:
    """Cauchy-Schwarz for sums is true, but no term-wise fact gives it: the verdict is the
    one without them, and the message names what was found."""
    report = one('claim = "sum(k in 1..N, y[k]*z[k])**2 <= '
                 'sum(k in 1..N, y[k]**2)*sum(k in 1..N, z[k]**2)"')
    assert report.status == "unknown" and report.termwise == ()
    assert report.message.endswith(
        "; term-wise facts found and proved, the step still not proved with them: "
        "y[i]**2 >= 0 summed over i in 1..N; z[i]**2 >= 0 summed over i in 1..N")
    assert [str(u) for u in report.step.uses] == []


def test_a_step_proved_without_them_finds_none() -> None:
    plain = one('claim = "sum(k in 1..N, y[k]) == sum(k in 1..N, y[k])"')
    assert plain.status == "proved" and plain.termwise == ()
    assert "term-wise" not in plain.message


def test_the_facts_found_are_the_same_each_run() -> None:
    """Budgets count work: the lemmas tried and the facts found do not depend on time."""
    first, second = (one(TRUE["order-on-a-set"][0]) for _ in range(2))
    assert first.message.split("; ", 1)[1] == second.message.split("; ", 1)[1]
    assert [r.step for r in first.termwise] == [r.step for r in second.termwise]


def test_a_later_step_imports_the_facts_with_the_step_it_uses() -> None:
    proof = parse_proof(REPRODUCTION + b'''
[[step]]
id = "d"
claim = "sum(k in 1..N, y[k]**2) + 1 >= 1"
uses = [{ step = "c" }]
''', "s3.toml")
    d = check_proof(proof, store=None).steps[-1]
    assert d.status == "proved" and d.termwise == ()
    assert d.statement is not None and d.theorem is not None
    assert d.theorem.statement == d.statement
    assert [(h.text, o) for h, o in zip(d.statement.hypotheses, d.statement.origins,
                                         strict=True)] == [
        ("(y[j]**2 >= 0 summed over j in 1..N)", "c"), ("sum(k in 1..N, y[k]**2) >= 0", "c")]


def test_the_facts_found_cross_processes_and_are_replayed_by_the_kernel() -> None:
    """An audit's worker sends its reports detached (no Theorem is pickled): the parent
    makes the lemmas' Theorems and the step's again from their evidence."""
    proof = parse_proof(REPRODUCTION, "s2.toml")
    sent = [pickle.loads(pickle.dumps(detached(s)))
            for s in check_proof(proof, store=None).steps]
    assert all(s.theorem is None and all(r.theorem is None for r in s.termwise) for s in sent)
    again = replay(proof, sent)
    assert [s.status for s in again] == ["proved", "proved"]
    assert [r.status for s in again for r in s.termwise] == ["proved", "proved"]


def test_extended_declares_the_index_and_puts_each_lemma_before_its_step() -> None:
    proof = parse_proof(REPRODUCTION, "s2.toml")
    reports = check_proof(proof, store=None).steps
    home, flat = termwise.extended(proof, reports)
    assert [s.id for s in home.steps] == ["b-termwise-1", "b", "c-termwise-1", "c"]
    assert [r.step.id for r in flat] == [s.id for s in home.steps]  # type: ignore[attr-defined]
    assert "j" in home.scalars and "j" not in proof.scalars
    assert termwise.extended(proof, [replace_termwise(r) for r in reports])[0] is proof


@pytest.mark.parametrize("stem", ["a" * 40, "b" * 59])
def test_two_steps_lemmas_never_share_an_id(stem: str) -> None:
    """Red team 17: lemma ids were `step.id[:40]` + `-termwise-k`, so two steps whose ids
    share their first 40 characters named their different lemmas alike, and `--coq` and
    `audit --jobs 2` (the replay of `extended`) refused the file while `--jobs 1` passed it.
    Ids long enough to carry the mark keep it whole, longer ones a digest of the whole id."""
    text = f'''title = "f3"
scalars = ["y", "z", "N"]
naturals = ["N"]
indexed = ["y", "z"]

[[step]]
id = "{stem}x"
claim = "sum(k in 1..N, y[k]**2) >= 0"

[[step]]
id = "{stem}y"
claim = "sum(k in 1..N, -z[k]**4) <= 0"
'''
    proof = parse_proof(text.encode(), "f3.toml")
    reports = check_proof(proof, store=None).steps
    home, _ = termwise.extended(proof, reports)
    ids = [s.id for s in home.steps]
    assert len(ids) == 4 and len(set(ids)) == 4, ids
    assert all(len(i) <= 64 for i in ids)
    sent = [pickle.loads(pickle.dumps(detached(s))) for s in reports]
    assert [s.status for s in replay(proof, sent)] == ["proved", "proved"]


def test_a_lemma_stem_gives_back_its_step() -> None:
    """Distinct ids, distinct stems: a short id is its own stem; a long one is 53 characters
    (no short id has that length) ending in a digest of the whole id."""
    ids = ["a", "a-termwise-1", "x" * 52, "x" * 53, "x" * 64, "x" * 63 + "y"]
    stems = [termwise.lemma_stem(i) for i in ids]
    assert len(set(stems)) == len(ids)
    assert stems[:3] == ids[:3] and {len(s) for s in stems[3:]} == {53}


def replace_termwise(report: checker.StepReport) -> checker.StepReport:
    from dataclasses import replace
    return replace(report, termwise=())


def test_explain_shows_the_facts_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    from verify.cli import main

    path = tmp_path / "s2.toml"
    path.write_bytes(REPRODUCTION)
    assert main(["explain", str(path), "c"]) == 0
    out = capsys.readouterr().out
    assert "term-wise facts found and proved: y[j]**2 >= 0 summed over j in 1..N" in out
    assert "uses the claims of: c-termwise-1 summed over j in 1..N" in out
    # the fact is the sum, not `y[j]² ≥ 0` with j free (newcomer 21 H2)
    assert "from c-termwise-1, summed: Σ_{j ∈ 1..N} y[j]² ≥ 0" in out
    # red team 23 F4: the lemma's id the check names is a step explain finds
    assert main(["explain", str(path), "c-termwise-1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}/c-termwise-1") and "⊢ y[j]² ≥ 0" in out
    assert main(["explain", str(path), "c-termwise-2"]) == 2
    assert "c was proved without that term-wise fact" in capsys.readouterr().err
    # red team 23 F9: of a step left unknown, whatever facts were found, no lemma is a step
    unknown = tmp_path / "s1.toml"
    unknown.write_text('title = "t"\nscalars = ["y", "N", "j"]\nnaturals = ["N"]\n'
                       'indexed = ["y"]\n[sets]\nM = { index = "j", range = "1..N", where = '
                       '["y[j] >= 0"] }\n[[step]]\nid = "a6"\n'
                       'claim = "sum(j in M, y[j]) >= sum(j in 1..N, y[j])"\n')
    assert main(["explain", str(unknown), "a6-termwise-1"]) == 2
    assert "a6 is unknown, and the term-wise facts found for a step are steps only when it " \
        "is proved with them" in capsys.readouterr().err


def test_check_reports_both_steps_of_the_reproduction_proved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: `novikoff check s2.toml --statements` said `unknown` for both."""
    from verify.cli import main

    path = tmp_path / "s2.toml"
    path.write_bytes(REPRODUCTION)
    assert main(["check", str(path), "--statements"]) == 0
    out = capsys.readouterr().out
    assert "proved (2 proved, 0 refuted, 0 unknown" in out
    assert "[c-termwise-1] |- sum(k in 1..N, y[k]**2) >= 0" in out


def test_the_time_cap_covers_the_lemmas_too() -> None:
    """`--time-limit` caps the step as a whole (against hostile input): once the step used
    it, no lemma is searched, and the step stays unknown as without them."""
    proof = parse_proof(REPRODUCTION, "s2.toml")
    for step in check_proof(proof, store=None, guard=0.0).steps:
        assert step.status == "unknown" and step.termwise == ()
        assert "term-wise" not in step.message


def test_a_time_cap_reached_while_the_lemmas_are_made_says_time_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (red team 17 F3): the lemmas' share of `--time-limit` was counted from
    their searches' own seconds only, so making them overran the cap (3.0-3.3 s against
    2 s), and a step the cap stopped before its lemmas were tried was unknown in the
    budget's words. Making the lemmas is slowed past the cap here: none is searched, and
    the verdict says it is the clock's."""
    import time

    made = termwise.lemmas

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(1.0)
        return made(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(termwise, "lemmas", slow)
    proof = parse_proof(REPRODUCTION, "s2.toml")
    step = next(s for s in check_proof(proof, store=None, guard=1.0).steps if s.step.id == "c")
    assert step.status == "unknown" and step.termwise == ()
    assert "time cap" in step.message


def test_a_fact_a_used_step_holds_is_not_labelled_as_that_step_summed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression (red team 17 F2): a step using `c`, whose term-wise fact was found for `c`,
    showed `from c summed over j in 1..N: y[j]² ≥ 0`, which reads as if c's claim were
    summed; it is a hypothesis c holds. The claim of a use summed stays `from c, summed`
    (`c-termwise-1`'s, in `c`'s own statement); the fact is typeset as the sum (newcomer 21
    H2)."""
    from verify.cli import main

    path = tmp_path / "s3.toml"
    path.write_bytes(REPRODUCTION + b'''
[[step]]
id = "e"
claim = "sum(k in 1..N, y[k]**2) + 1 >= 1"
uses = ["c"]
''')
    assert main(["explain", str(path), "e"]) == 0
    out = capsys.readouterr().out
    assert ("from c (its hypothesis: c-termwise-1's claim, summed): Σ_{j ∈ 1..N} y[j]² ≥ 0"
            in out)
    assert "from c, summed" not in out
    assert main(["explain", str(path), "c"]) == 0
    assert "from c-termwise-1, summed: Σ_{j ∈ 1..N} y[j]² ≥ 0" in capsys.readouterr().out


def test_the_tightness_proofs_inherited_sum_reads_as_a_hypothesis(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Regression (red team 17 F2, the built-in proofs): `count-at-convergence` uses
    `alignment-lower-bound`, which sums `member-margin`; the fact was labelled `from
    alignment-lower-bound summed over ...`."""
    from verify.cli import main

    assert main(["explain", "tightness-orthonormal", "count-at-convergence"]) == 0
    out = capsys.readouterr().out
    assert ("from alignment-lower-bound (its hypothesis: member-margin's claim, summed): "
            "Σ_{j ∈ D} (yy[j]·⟨w, xx[j]⟩ − μ) ≥ 0") in out
    assert "from alignment-lower-bound, summed" not in out


def test_the_reports_say_which_claim_is_summed_where_a_lemma_was_found(tmp_path: Path) -> None:
    """Regression (red team 17 F2, the reports): in the Markdown, LaTeX and HTML reports the
    step `c` proved with a found lemma showed `From c-termwise-1 (its hypothesis summed over
    ...)`, though what is summed there is the lemma's claim (its hypotheses are the
    membership facts only): the reports did not know the lemma's statement. A step using `c`
    names the lemma whose claim `c` holds summed, as `explain` does."""
    from verify.cli import main

    path = tmp_path / "s4.toml"
    path.write_bytes(REPRODUCTION + b'''
[[step]]
id = "e"
claim = "sum(k in 1..N, y[k]**2) + 1 >= 1"
uses = ["c"]
''')
    md, tex, page = (tmp_path / f"r.{ext}" for ext in ("md", "tex", "html"))
    assert main(["audit", str(path), "--markdown", str(md), "--latex", str(tex),
                 "--html", str(page)]) == 0
    for report in (md, tex, page):
        text = report.read_text().replace("&#39;", "'").replace(r"\allowbreak{}", "")
        assert "c-termwise-1 (its hypothesis" not in text, report.name
        assert "c-termwise-1, summed" in text, report.name
        assert "c (its hypothesis: c-termwise-1's claim, summed)" in text, report.name


def test_the_html_report_links_no_found_lemma_to_a_section_it_lacks(tmp_path: Path) -> None:
    """Regression: the HTML report linked `from c-termwise-1 ...` to `#...--c-termwise-1`,
    a section it has not (a found lemma is no step of the file): every link must land."""
    import re

    from verify.cli import main

    path, page = tmp_path / "s5.toml", tmp_path / "r.html"
    path.write_bytes(REPRODUCTION)
    assert main(["audit", str(path), "--html", str(page)]) == 0
    html = page.read_text()
    assert "from c-termwise-1, summed<" in html
    targets = set(re.findall(r'href="#([^"]+)"', html))
    assert targets and all(f'id="{t}"' in html for t in targets)


#: Red team 19 F6: a lemma proved with a fact the search found (`lm`), used at each update.
ONE_UPDATE = b'''
title = "sf2"
vectors = ["w", "x", "xx"]
scalars = ["t", "N", "s"]
naturals = ["t", "N"]
indexed = ["xx"]

[sets.D]
index = "j"
range = "1..N"
where = ["dot(w, xx[j]) > 0"]

[[step]]
id = "lm"
given = []
claim = "sum(j in D, 1) >= 0"

[[step]]
id = "inv"
given = []
claim = "s >= 0"
uses = ["lm"]
[step.induction]
variable = "t"
constants = ["xx", "N"]
base = { w = "0*w", s = "0" }
step = { w = "w + x", s = "s + sum(j in D, 1)" }
given = []
'''


@pytest.mark.parametrize("budget", ["small", "default"])
def test_a_lemma_proved_with_found_facts_used_at_each_update_is_no_file_error(
        budget: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 19 F6: `check` refused this well-formed file (exit 2) over a hypothesis the
    user never wrote, the fact the search found to prove `lm`, and only when the budget let
    it find the fact. At every budget the file is read; `inv` is left unknown (never proved:
    the kernel admits no lemma whose hypothesis is not a fact of the update), its message
    names the fact found and says it is not in the file."""
    from verify.cli import main

    report = check_proof(parse_proof(ONE_UPDATE, "sf2.toml"), budget=BUDGETS[budget],
                         store=None)
    lm, inv = report.steps
    assert lm.status == "proved" and [f.step.id for f in lm.termwise] == ["lm-termwise-1"]
    assert inv.status == "unknown" and inv.theorem is None and inv.statement is None
    assert inv.message.startswith("not decided: uses lm at each update, but its hypothesis ")
    assert ("What it uses was proved with facts the search found, which the file does not "
            "state (1 >= 0 summed over i in D for lm (lm-termwise-1))") in inv.message
    path = tmp_path / "sf2.toml"
    path.write_bytes(ONE_UPDATE)
    assert main(["check", str(path), "--budget", budget]) == 1
    out, err = capsys.readouterr()
    assert err == "" and "unknown  inv" in out
