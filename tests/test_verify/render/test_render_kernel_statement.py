"""The statement every report shows is the one the kernel read (newcomer trial, item 3).

An induction that `uses` a one-update lemma takes in nothing of the lemma but its claim at
each update; the reports, `explain` and the Coq export once listed the lemma's hypotheses
and claim as hypotheses of the induction and of every step using it (a different theorem from
the kernel's, `check --statements`). The lecture proof of the trial (tests/cases/trial/) is
the regression case; every built-in proof and the trial's files are held to the property:
the facts a typeset statement shows are exactly the kernel's hypotheses, its naturals, and
an induction's carried invariants and one-update lemmas in its run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofs.library import PROOFS, load_builtin
from proofs.proof_file import load_proof
from proofs.step import Induction, Proof
from verify import kernel
from verify.audit.job import Audit, run_audit
from verify.cli import main
from verify.kernel.algebra import normal_form
from verify.proof_checker import statements
from verify.render import html, latex, markdown
from verify.render.evidence import Layout
from verify.typeset.names import spelling
from verify.typeset.statement import statement, written
from verify.typeset.written import LATEX, TEXT, Printer
from verify.uses import used_as

ROOT = Path(__file__).resolve().parents[3]
TRIAL = ROOT / "tests" / "cases" / "trial"
LECTURE = TRIAL / "perceptron.toml"
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))


def _facts_of_the_kernel(proof: Proof, step_id: str, stated: dict[str, kernel.Statement | None]
                        ) -> tuple[set[tuple[str, str]], list[str]]:
    """(origin, fact) for each hypothesis of the kernel's statement and each natural (not an
    induction's counter), and the claims the kernel adds to the run, all in plain text."""
    st, step = stated[step_id], proof.step(step_id)
    assert st is not None
    printer = Printer(TEXT, spelling(proof))  # the names as the proof spells them
    counter = step.rule.variable if isinstance(step.rule, Induction) else None
    facts = {("", TEXT.natural(printer.expression(n))) for n in st.naturals if n != counter}
    uses = used_as(step, st, stated, proof)
    claims = {(u.use.step, u.statement.claim.text) for u in uses}
    # a fact that is, in the kernel's normal form, the claim of a step used (which does not
    # assume it) is derived: shown as that claim, from that step (red team 28 F2)
    proved = {}
    for u in uses:
        form = normal_form(u.statement.claim, u.statement.claim.text)
        if form not in {normal_form(r, r.text) for r in u.statement.hypotheses}:
            proved.setdefault(form, u)
    for h, origin in zip(st.hypotheses, st.origins, strict=True):
        source, substituted = written(h.text, proof)
        by = proved.get(normal_form(h, h.text)) if origin else None
        if by is not None and (origin, h.text) not in claims:
            source, substituted = written(by.statement.claim.text, proof)
            facts.add((by.use.step + substituted, printer.relation(source)))
            continue
        # a used step's claim summed reads `c, summed`; a hypothesis c holds summed reads
        # `c (its hypothesis: b's claim, summed)`, b the step c uses summed (red team 17
        # F2); the formula is the sum (newcomer 21 H2)
        if origin and " summed over " in h.text and (origin, h.text) not in claims:
            inner = _summing(proof, origin, h.text, stated)
            whose = f": {min(inner)}'s claim" if len(inner) == 1 else ""
            origin, substituted = f"{origin} (its hypothesis{whose}{substituted})", ""
        elif origin and (origin, h.text) not in claims:
            # a hypothesis c holds that is b's claim reads `b (through c)` (newcomer 19: it
            # read `c`, as if c had proved it)
            inner = _summing(proof, origin, h.text, stated)
            if len(inner) == 1:
                origin, substituted = f"{min(inner)}{substituted} (through {origin})", ""
            else:  # c's own given, no step's claim: `c (its hypothesis)` (newcomer 23 L5:
                # `from c` read as if c had derived it)
                origin, substituted = f"{origin} (its hypothesis{substituted})", ""
        facts.add((origin + substituted if origin else "", printer.relation(source)))
    run = [printer.relation(written(u.statement.claim.text, proof)[0])
           for u in uses if u.kind != "imported"]
    return facts, run


def _summing(proof: Proof, step_id: str, text: str,
             stated: dict[str, kernel.Statement | None]) -> set[str]:
    """The steps whose claim, summed, is the fact `text` that `step_id` holds: read from the
    uses of `step_id` (its own, or of a step it uses that brings the fact as a hypothesis)."""
    st = stated[step_id]
    if st is None:
        return set()
    found: set[str] = set()
    for u in used_as(proof.step(step_id), st, stated, proof):
        if u.statement.claim.text == text:
            found.add(u.use.step)
        elif text in {r.text for r in u.statement.hypotheses}:
            found |= _summing(proof, u.use.step, text, stated)
    return found


def _facts_shown(proof: Proof, step_id: str, stated: dict[str, kernel.Statement | None]
                 ) -> tuple[set[tuple[str, str]], str]:
    shown = statement(proof, proof.step(step_id), TEXT, stated[step_id], stated)
    facts = {("", TEXT.row(g)) for g in shown.given} | {
        (used, TEXT.row(chunks)) for used, chunks in shown.inherited}
    # a `[define]` name's facts are shown under its definition (`where n = ‖w‖, given by
    # n ≥ 0 and n² = ‖w‖²`), each a formula after "given by", up to the next "; "
    after = False
    for kind, text in shown.sets:
        if kind == "text":
            after = text.endswith("given by ") or (after and text in (", ", " and "))
        elif after:
            facts.add(("", text))
    return facts, "".join(text for _, text in shown.run)


# every built-in proof (by its id) and the trial's and examples' files (by their path), read
# in the test, not while collecting (reading them all takes seconds, in every worker)
SOURCES: list[tuple[str, str | Path]] = [(f"builtin:{p}", p) for p in PROOFS] + [
    (path.name, path) for path in (*sorted(TRIAL.glob("*.toml")),
                                   *sorted((TRIAL.parent / "trial21").glob("*.toml")), *EXAMPLES)]


@pytest.mark.parametrize(("name", "source"), SOURCES, ids=[n for n, _ in SOURCES])
def test_every_typeset_statement_shows_the_kernels_facts_and_no_other(name: str,
                                                                      source: str | Path):
    proof = load_builtin(source) if isinstance(source, str) else load_proof(source)
    stated = statements(proof)  # once: stating a proof of sums takes a second
    for step in proof.steps:
        if stated[step.id] is None:
            continue
        expected, in_run = _facts_of_the_kernel(proof, step.id, stated)
        facts, run = _facts_shown(proof, step.id, stated)
        assert facts == expected, (name, step.id)
        assert all(claim in run for claim in in_run), (name, step.id, run)


def test_the_lecture_theorem_is_the_kernels_in_every_format():
    """The trial's theorem: `mistake-bound` inherits from `combine` the unit separator, the
    norm growth and the Cauchy–Schwarz step, never the lemma's y² = 1 or its claim."""
    audit = run_audit([str(LECTURE)], budget="small")
    assert audit.proofs[0].status == "verified"
    md = markdown.render(audit)
    theorem = md[:md.index("## The proof")]
    # combine's own hypothesis and its claim; the claims it passes on are named by their
    # steps (newcomer 19: all five read `From combine`)
    assert theorem.count("*From combine:*") == 1  # its claim
    assert theorem.count("*Given as a hypothesis of combine:*") == 1  # a given of combine
    for source in ("norm-growth", "progress", "cauchy-schwarz"):
        assert theorem.count(f"*From {source} (through combine):*") == 1
    # the lemma's y² = 1 and claim are no fact of the theorem: they are only in the runs its
    # inductions are about (newcomer 27, F2), as norm-growth's update fact and lemma
    context, _, facts = theorem.partition("whose claims it rests on):")
    assert "$y^{2} = 1$" not in facts
    assert r"\lVert w + y\,x \rVert" not in facts
    assert "each with $y^{2} = 1$" in context and "by the lemma one-update-growth, " in context
    norm_growth = md[md.index("#### norm-growth"):md.index("#### cauchy-schwarz")]
    assert "*From one-update-growth:*" not in norm_growth
    # the lemma's claim follows at each update from the lemma, said so; never worded as a
    # condition of the runs (newcomer 34 N4: "at each update also ..." read as assumed)
    also = norm_growth[norm_growth.index(", and so at each update, by the lemma "
                                         "one-update-growth, "):]
    assert also.index(r"\lVert w + y\,x \rVert^{2} \le") < also.index("after $t$ updates")
    for document in (md, latex.render(audit), html.render(audit)):
        assert "at each update also" not in document
        assert "by the lemma one-update-growth, " in document
    combine = md[md.index("#### combine"):md.index("#### mistake-bound")]
    assert "*From norm-growth:* $y^{2} = 1$" not in combine
    assert combine.count("*From ") == 3  # the claims of norm-growth, progress, cauchy-schwarz
    tex = latex.render(audit)
    tex_theorem = tex[:tex.index(r"\section")]
    assert tex_theorem.count(r"\emph{From \texttt{combine}:}") == 1
    assert tex_theorem.count(r"\emph{Given as a hypothesis of \texttt{combine}:}") == 1
    assert tex_theorem.count(r"(through combine)}:}") == 3
    assert "y^{2} = 1" not in tex_theorem.partition("whose claims it rests on):")[2]
    page = html.render(audit)
    html_theorem = page[:page.index('class="step ')]
    assert html_theorem.count('class="inherited"') == 5


def test_explain_states_the_kernels_theorem(capsys: pytest.CaptureFixture[str]):
    assert main(["explain", str(LECTURE), "mistake-bound"]) == 0
    out = capsys.readouterr().out
    statement_lines = out[out.index("statement:"):out.index("\njudgement")]
    assert "y² = 1" not in statement_lines and "‖w + y·x‖²" not in statement_lines
    assert "  given t ∈ ℕ, γ > 0\n  given as a hypothesis of combine: ‖u‖² = 1\n" in statement_lines
    # newcomer 19: the claims combine passes on read `from combine`, as if it proved them
    assert ("  from norm-growth (through combine): ‖w‖² ≤ t·R²\n"
            "  from progress (through combine): ⟨w, u⟩ ≥ t·γ\n"
            "  from cauchy-schwarz (through combine): t²γ² ≤ ‖w‖²\n"
            "  from combine: t²γ² ≤ t·R²\n") in statement_lines
    assert main(["explain", str(LECTURE), "norm-growth", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["statement"] == [
        "for every run from w = 0 of updates w ← w + y·x, each with y² = 1, y·⟨w, x⟩ ≤ 0, "
        "‖x‖² ≤ R², "
        "and so at each update, by the lemma one-update-growth, ‖w + y·x‖² ≤ ‖w‖² + R², "
        "after t updates:",
        "⊢ ‖w‖² ≤ t·R²"]


def test_an_existential_claim_and_the_naturals_are_stated():
    """The kernel reads `weights-bounded-at-t` as `t in Nat, ... |- exists B: ...`."""
    proof = load_proof(ROOT / "examples" / "quantifiers.toml")
    stated = statements(proof)
    shown = statement(proof, proof.step("weights-bounded-at-t"), TEXT,
                      stated["weights-bounded-at-t"], stated)
    assert shown.claim[0].startswith("⊢ ∃ B: ")
    assert shown.given == (("t ∈ ℕ",),)
    assert shown.width == len(" ".join(shown.claim))


def test_a_summed_fact_is_read_apart_from_its_brackets() -> None:
    """Red team 10: the kernel writes a term-wise fact bracketed (`(claim summed over ...)`,
    one hypothesis in a list, not `claim, summed over ..., filter`). Newcomer 21 H2: the
    fact is the sum, not the claim about one member with its index free; it is typeset as
    the sum of the claim's sides' difference over the range, the filters (commas inside
    them kept) under the sum, a strict claim summed weak, `0 <= g` as the sum of g; the label
    says `summed` and the instances in order."""
    assert written("(y[k] >= 0 summed over k in 1..N where y[k] >= 0)") == (
        "sum(k in 1 >> N, y[k], y[k] >= 0) >= 0", ", summed")
    assert written("((a[j]*a[l] >= 0 [a := b] summed over l in 1..N) summed over j in "
                   "1..N where a[j] >= 0, a[j] <= 1) [b := c]") == (
        "sum(j in 1 >> N, sum(l in 1 >> N, a[j] * a[l]), a[j] >= 0, a[j] <= 1) >= 0",
        " with a := b, then summed, then with b := c")
    assert written("(y[j] < z[j] summed over j in 2..n + 1 where dot(u, x[j]) >= g, "
                   "y[j] >= 0)")[0] == (
        "sum(j in 2 >> n + 1, y[j] - z[j], dot(u, x[j]) >= g, y[j] >= 0) <= 0")
    assert written("(0 <= y[j]**2 summed over j in 1..N)")[0] == "sum(j in 1 >> N, y[j] ** 2) >= 0"
    assert written("(y[j] == 1 summed over j in 1..N)")[0] == "sum(j in 1 >> N, y[j] - 1) == 0"
    assert written("(a + b)*(c) >= 0") == ("(a + b)*(c) >= 0", "")
    assert written("a >= b [a := w]") == ("a >= b", " with a := w")
    for fmt, want in ((TEXT, "Σ_{2 ≤ j ≤ n + 1, ⟨u, x[j]⟩ ≥ g} (y[j] − z[j]) ≤ 0"),
                      (LATEX, r"\sum_{\substack{2 \le j \le n + 1 \\ \langle u, {x}_{j} "
                              r"\rangle \ge g}} \left({y}_{j} - {z}_{j}\right) \le 0")):
        assert Printer(fmt).relation(written(
            "(y[j] < z[j] summed over j in 2..n + 1 where dot(u, x[j]) >= g)")[0]) == want


SUMS = TRIAL.parent / "trial21" / "sums.toml"
"""Newcomer 21's week-5 handout in small: a one-member lemma summed term-wise over a set
(`U`), a step holding the sum as a hypothesis, a false step about θ* and γ."""


def test_a_summed_fact_is_typeset_as_its_sum_in_every_report() -> None:
    """Newcomer 21 H2: every report and `explain` typeset the fact `margin-member` brings
    summed over U as its body, `y_j<θ*, x_j> - γ >= 0`, j free: a statement the kernel never
    used. It reads as the kernel's (`check --statements`: `(... summed over j in 1..k where
    ...)`): the sum over U, in the page's notation; the label says where it comes from, and
    no longer spells the set in the file's raw names (`ts`, `gam`)."""
    audit = run_audit([str(SUMS)], budget="small")
    md, tex = markdown.render(audit), latex.render(audit)
    page = html.render(audit)
    summed = (r"\sum_{j \in U} \left({y}_{j}\,\langle \theta^{*}, {x}_{j} \rangle - "
              r"\gamma\right) \ge 0")
    body = r"${y}_{j}\,\langle \theta^{*}, {x}_{j} \rangle - \gamma \ge 0$"
    theorem = md[:md.index("## Findings")]
    assert (f"*From progress-sum (its hypothesis: margin-member's claim, summed):* ${summed}$."
            in theorem)
    assert md.count(f"*From margin-member, summed:* ${summed}$.") == 1
    assert body not in md and "summed over" not in md and "dot(ts" not in md
    assert tex[:tex.index(r"\section")].count(summed) == 1
    assert tex.count(summed) == 3 and body not in tex and "summed over" not in tex
    sigma = ('<munder><mo>&#x2211;</mo><mrow><mi>j</mi><mo>&#x2208;</mo><mi>U</mi></mrow>'
             '</munder><mrow><mo>(</mo>')
    facts = page.split('<div class="inherited">')[1:]
    held = [f for f in facts if "margin-member" in f[:f.index("</span>")]]
    assert len(held) == 3 and all(sigma in f for f in held)
    assert all("summed over" not in f[:f.index("</span>")] for f in facts)
    summary = markdown.render(audit, layout=Layout(summary=True))
    assert f"*From progress-sum (its hypothesis: margin-member's claim, summed):* ${summed}$." \
        in summary and body not in summary


def test_explain_states_a_summed_fact_as_its_sum(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(SUMS), "scaled"]) == 0
    out = capsys.readouterr().out
    assert ("  from progress-sum (its hypothesis: margin-member's claim, summed): "
            "Σ_{j ∈ U} (y[j]·⟨θ*, x[j]⟩ − γ) ≥ 0\n") in out
    assert "y[j]·⟨θ*, x[j]⟩ − γ ≥ 0\n" not in out


def test_the_statement_text_tags_a_passed_on_claim_with_its_step(
        capsys: pytest.CaptureFixture[str]):
    """Newcomer 19, section 5.5: the full statement (`check --statements`, `check --json`,
    the audit's JSON and findings) tagged progress's claim, which combine holds through
    cauchy-schwarz, `[combine]`; it reads `[progress (through combine)]`. What combine
    brings as its claim or its own hypothesis keeps `[combine]`."""
    from verify.audit.report import to_json

    want = ("norm2(u) == 1 [combine], norm2(w) <= t*R**2 [norm-growth (through combine)], "
            "dot(w, u) >= t*gamma [progress (through combine)], "
            "t**2*gamma**2 <= norm2(w) [cauchy-schwarz (through combine)], "
            "t**2*gamma**2 <= t*R**2 [combine] |- t <= R**2/gamma**2")
    assert main(["check", str(LECTURE), "--json"]) == 0
    steps = {s["id"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    assert steps["mistake-bound"]["statement"].endswith(want)
    assert main(["check", str(LECTURE), "--statements"]) == 0
    assert want in capsys.readouterr().out
    audit = run_audit([str(LECTURE)], budget="small")
    (proof,) = to_json(audit)["proofs"]
    assert {s["id"]: s["statement"] for s in proof["steps"]}["mistake-bound"].endswith(want)


@pytest.mark.parametrize(("naturals", "split", "run"), [
    ('["t"]', '{ on = "t" }',
     "by cases on the sign of t (> 0, = 0; the case < 0 is vacuous: t ∈ ℕ):"),
    ('["t"]', '{ on = "t", zero = false }',
     "by cases on the sign of t (>= 0; the case < 0 is vacuous: t ∈ ℕ):"),
    ("[]", '{ on = "t" }', "by cases on the sign of t (> 0, = 0, < 0):"),
    ('["t"]', '{ on = "t - 1" }', "by cases on the sign of t − 1 (> 0, = 0, < 0):"),
])
def test_a_split_on_a_natural_says_its_negative_case_is_vacuous(naturals: str, split: str,
                                                                run: str) -> None:
    """Newcomer 23 L5: the handout read "by cases on the sign of t (> 0, = 0, < 0)" for a
    natural t, listing a case that cannot occur; the kernel checks it with t >= 0 among its
    hypotheses, so it is said vacuous (a polynomial in a natural, t - 1, can be negative)."""
    from proofs.proof_file import parse_proof

    text = (f'title = "s"\nscalars = ["t"]\nnaturals = {naturals}\n[[step]]\nid = "sq"\n'
            f'claim = "t**2 >= 0"\nsplit = {split}\n')
    proof = parse_proof(text.encode(), "s.toml")
    stated = statements(proof)
    shown = statement(proof, proof.step("sq"), TEXT, stated["sq"], stated)
    assert "".join(piece for _, piece in shown.run) == run


def test_a_used_steps_given_is_marked_its_hypothesis_in_every_format() -> None:
    """Newcomer 23 L5: the theorem box read `from squared-lower-bound ‖u‖² = 1`, a given of
    that step shown as if it were derived there; its claim keeps `from c`."""
    from proofs.proof_file import parse_proof

    text = ('title = "t"\nscalars = ["a", "b"]\n[[step]]\nid = "one"\ngiven = ["a >= 1"]\n'
            'claim = "a > 0"\n[[step]]\nid = "two"\ngiven = ["b >= a"]\nclaim = "b > 0"\n'
            'uses = ["one"]\n')
    proof = parse_proof(text.encode(), "t.toml")
    stated = statements(proof)
    for fmt in (TEXT, LATEX):
        shown = statement(proof, proof.step("two"), fmt, stated["two"], stated)
        assert [used for used, _ in shown.inherited] == ["one (its hypothesis)", "one"]


# A `[define]` name is defined where a statement reads it, its facts under the definition,
# not among the author's hypotheses (newcomer 29 F5: `l = max(0, -y*g)` appeared nowhere in
# the handout, and `claim = "l >= -y*g"`, written with no hypothesis, read `Given l ≥ 0,
# l ≥ −y g, (l − 0)(l − (−y g)) = 0 ⊢ l ≥ −y g`).

DEFINED = """
title = "the perceptron criterion and the soft loss"
vectors = []
scalars = ["y", "g", "l"]

[define]
l = "max(0, -y*g)"

[[step]]
id = "misclassified"
given = ["y*g < 0"]
claim = "l == -y*g"

[[step]]
id = "criterion"
claim = "l >= -y*g"
"""


@pytest.fixture(scope="module")
def defined(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    path = tmp_path_factory.mktemp("define") / "loss.toml"
    path.write_text(DEFINED, encoding="utf-8")
    return run_audit([str(path)], budget="small")


def test_markdown_defines_the_name_and_gives_only_what_the_author_wrote(defined: Audit) -> None:
    document = markdown.render(defined)
    assert document.count(r"where $l = \operatorname{max}\left(0, - y\,g\right)$, given by "
                          r"$l \ge 0$, $l \ge - y\,g$ and ") >= 2  # each step reads l
    assert r"*Given* $y\,g < 0$." in document  # the author's own hypothesis, alone
    assert r"*Given* $l \ge 0$" not in document and r"$y\,g < 0$, $l \ge 0$" not in document


def test_latex_and_html_define_the_name(defined: Audit) -> None:
    tex = latex.render(defined)
    assert r"where $l = \operatorname{max}\left(0, - y\,g\right)$, given by" in tex
    assert r"\emph{Given} $l \ge 0$" not in tex
    # the `where` sentence is a paragraph of its own: `Source:` / `Note:` follow on the next
    # line, and ran on after it
    where = tex.index("where $l = ")
    assert tex[where:tex.index("\n", where)].endswith("= 0$.\\par")
    page = html.render(defined)
    assert "where <math" in page and "<mi>max</mi>" in page and ", given by <math" in page
    assert '<span class="label">given</span> <math display="inline"><mrow><mi>l</mi>' \
        not in page
