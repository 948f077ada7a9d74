"""Lemma, then induction, in Coq (issue 27.7): an induction's step discharged by a one-update
lemma is replayed, the lemma's theorem applied in the step lemma at the update's names.

The kernel assumes a one-update lemma's claim in the step obligation only; the export states
neither the lemma's claim nor anything of it as a premise (of the step lemma or of the
theorem over runs) but derives it there by applying the lemma's exported theorem: Coq checks
that the lemma gives what the step needs. Held here: the example and the kernel's red-team
files compile with no decider, no `Admitted` and no axiom of ours besides the preamble's; a
lemma used through `with`, written with other texts, chained through another step or under a
split step compiles; a weaker lemma's theorem (true, proved, checked) put in the lemma's place
is rejected by coqc.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product

from proofs.errors import ProofFileError
from proofs.proof_file import load_proof, parse_proof
from verify.coq import export_and_check
from verify.proof_checker import check_proof

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "lemma-then-induction.toml"
LOGICAL = "Novikoff"
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit|Axiom|Parameter|"
                      r"Hypothesis|Variable|Conjecture)\b")
# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not on PATH")

LEMMA = "norm2(w + y*x) <= norm2(w) + R**2"
WEAKER = "norm2(w + y*x) <= norm2(w) + 2*R**2"  # true, and too weak for the step


def _export(text: str, tmp_path: Path, *, compile: bool = True) -> tuple[dict[str, str], str]:
    """Check the proof, export it (compiling it when asked): coq results and the `.v` text."""
    proof = parse_proof(text.encode(), "lemma.toml")
    report = check_proof(proof)
    assert {s.step.id: s.status for s in report.steps} == dict.fromkeys(
        (s.step.id for s in report.steps), "proved")
    run = export_and_check(tmp_path, [("lemma", proof, list(report.steps))], compile=compile)
    return run.for_proof("lemma"), (tmp_path / "lemma.v").read_text()


def _step_lemma(text: str) -> str:
    start = text.index("Lemma step_norm_invariant_step :")
    return text[start:text.index("Qed.", start)]


def test_the_step_lemma_applies_the_lemma_and_does_not_assume_its_claim(
        tmp_path: Path) -> None:
    """Before, the export refused the induction ('not replayed in Coq yet')."""
    results, text = _export(EXAMPLE.read_text(), tmp_path, compile=False)
    assert not any(r.startswith("not exported") for r in results.values()), results
    step = _step_lemma(text)
    statement = step[:step.index("Proof.")]
    # the lemma's claim is no premise: it is derived, by the lemma's theorem at w, x, y, R
    assert "ip (vadd w (vscal y x)) (vadd w (vscal y x))) <= ((ip w w) + (R ^ 2)) ->" \
        not in statement
    assert "pose proof (step_one_update w x y R' hyp'" in step  # R' is Coq's R renamed
    theorem = text[text.index("Theorem step_norm_invariant :"):]
    assert "vadd (w n') (vscal (y n') (x n'))))) <=" not in theorem[:theorem.index("Proof.")]
    assert not DECIDERS.search(text)


@needs_coqc
def test_the_example_compiles_and_rests_on_the_preamble_only(tmp_path: Path) -> None:
    proof = load_proof(EXAMPLE)
    report = check_proof(proof)
    run = export_and_check(tmp_path, [("example", proof, list(report.steps))])
    assert run.for_proof("example") == {"one-update": "checked", "norm-invariant": "checked"}
    assert compile_inner_product(tmp_path).returncode == 0  # the export compiles elsewhere
    subprocess.run(["coqc", "-R", ".", LOGICAL, "example.v"], cwd=tmp_path, check=True,
                   capture_output=True)
    (tmp_path / "Check.v").write_text(f"Require Import {LOGICAL}.example.\n"
                                      "Print Assumptions step_norm_invariant.\n")
    done = subprocess.run(["coqc", "-R", ".", LOGICAL, "Check.v"], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    listed = {line.split()[0] for line in done.stdout.splitlines()
              if line[:1].strip() and line != "Axioms:"}
    stdlib = ("ClassicalDedekindReals.", "FunctionalExtensionality.")  # Coq's reals
    assert any(n.startswith("InnerProduct.") for n in listed), listed
    assert all(n.startswith(("InnerProduct.", *stdlib)) for n in listed), listed


BASE = EXAMPLE.read_text()
VARIANTS = {
    # the lemma's hypotheses written otherwise than the update's facts (same normal form):
    # restated in Coq from the update's facts
    "restated": BASE.replace(
        'given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]\nclaim',
        'given = ["y*y == 1", "0 >= y*dot(x, w)", "dot(x, x) <= R*R"]\nclaim'),
    # the lemma over other names, used through `with`
    "instance": BASE.replace('vectors = ["w", "x"]', 'vectors = ["w", "x", "a", "b"]').replace(
        'scalars = ["t", "y", "R"]', 'scalars = ["t", "y", "R", "c", "B"]').replace(
        'given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]\n'
        f'claim = "{LEMMA}"\nhints = ["dot(w - x, w - x)"]',
        'given = ["c**2 == 1", "c*dot(a, b) <= 0", "norm2(b) <= B**2"]\n'
        'claim = "norm2(a + c*b) <= norm2(a) + B**2"').replace(
        'uses = ["one-update"]',
        'uses = [{ step = "one-update", with = { a = "w", b = "x", c = "y", B = "R" } }]'),
    # the lemma uses a step about no run, which the induction uses too
    "chained": BASE.replace('[[step]]\nid = "one-update"',
                            '[[step]]\nid = "radius"\ngiven = ["R >= 1"]\nclaim = "R**2 >= 0"'
                            '\n\n[[step]]\nid = "one-update"\nuses = ["radius"]').replace(
        'uses = ["one-update"]\nclaim', 'uses = ["radius", "one-update"]\ngiven = ["R >= 1"]'
                                        '\nclaim'),
    # the inductive step split by cases, the lemma applied before the split
    "split": BASE.replace('uses = ["one-update"]\nclaim',
                          'uses = ["one-update"]\nsplit = { on = "y", zero = false }\nclaim'),
    # the lemma's claim repeats an update fact (the kernel red team's DUPLICATE)
    "duplicate": BASE.replace(
        'given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]\n'
        f'claim = "{LEMMA}"\nhints = ["dot(w - x, w - x)"]',
        'given = ["norm2(x) <= R**2"]\nclaim = "norm2(x) <= R**2"'),
    # an update fact repeated (regression: the step lemma stated both but introduced one name
    # for them, every later premise under the name of the one before it: coqc rejected it)
    "repeated-fact": BASE.replace(
        'given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]\nconstants',
        'given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2", "y*dot(w, x) <= 0"]'
        '\nconstants'),
}


@needs_coqc
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_lemma_variants_compile(variant: str, tmp_path: Path) -> None:
    text = VARIANTS[variant]
    assert text != BASE
    results, written = _export(text, tmp_path)
    assert set(results.values()) == {"checked"}, results
    assert not DECIDERS.search(written)


def _lemma_theorem(source: str) -> str:
    start = source.index("Theorem step_one_update :")
    return source[start:source.index("Qed.", start) + 4]


def _rejected(directory: Path, text: str) -> int:
    """coqc on `text` as `lemma.v` in `directory` (the preamble compiled first): the line of
    its first error (the test fails if it compiles)."""
    (directory / "lemma.v").write_text(text)
    assert compile_inner_product(directory).returncode == 0
    done = subprocess.run(["coqc", "-R", ".", LOGICAL, "lemma.v"], cwd=directory,
                          capture_output=True, text=True, check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0 and "Error" in output, output
    return int(re.search(r"line (\d+)", output).group(1))  # type: ignore[union-attr]


def _line_of(text: str, start: str) -> int:
    return next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith(start))


@needs_coqc
def test_a_false_lemma_is_rejected_by_coq(tmp_path: Path) -> None:
    """The lemma's claim made false in the Coq file (`|w + y x|^2 <= |w|^2`, its replayed
    proof kept): coqc rejects the lemma, so nothing built on it compiles."""
    results, text = _export(BASE, tmp_path)
    assert set(results.values()) == {"checked"}
    lemma = _lemma_theorem(text)
    stated = "(ip (vadd w (vscal y x)) (vadd w (vscal y x))) <= ((ip w w) + (R' ^ 2))."
    assert stated in lemma
    false = lemma.replace(stated, "(ip (vadd w (vscal y x)) (vadd w (vscal y x))) <= (ip w w).")
    line = _rejected(tmp_path, text.replace(lemma, false))
    assert _line_of(text, "Theorem step_one_update :") < line < _line_of(
        text, "Lemma step_norm_invariant_base :")


@needs_coqc
def test_a_weaker_lemma_in_the_lemmas_place_is_rejected_by_coq(tmp_path: Path) -> None:
    """The step lemma's certificate uses the lemma's claim, and Coq checks that the lemma
    applied gives it: a true but weaker lemma (proved and checked on its own), put in the
    lemma's place under the same name, leaves the step lemma unproved in Coq."""
    results, text = _export(BASE, tmp_path / "good")
    assert set(results.values()) == {"checked"}
    assert re.search(r"\(refine \(fact_le [^;]* use'0\)", _step_lemma(text))  # it is used
    weak = BASE.replace(f'claim = "{LEMMA}"', f'claim = "{WEAKER}"')
    weak_results, weak_text = _export(weak, tmp_path / "weak")
    assert weak_results["one-update"] == "checked"
    assert _lemma_theorem(weak_text) != _lemma_theorem(text)
    line = _rejected(tmp_path / "good",
                     text.replace(_lemma_theorem(text), _lemma_theorem(weak_text)))
    assert line > _line_of(text, "Lemma step_norm_invariant_step :")


LECTURE = ROOT / "tests" / "cases" / "trial" / "perceptron.toml"


def _theorem(text: str, name: str) -> str:
    start = text.index(f"Theorem {name} :")
    return text[start:text.index("Proof.", start)]


def test_the_steps_built_on_an_induction_with_a_lemma_are_exported(tmp_path: Path) -> None:
    """The newcomer trial's lecture proof (item 3): `combine` uses `norm-growth`, an induction
    whose step uses the one-update lemma; `combine` and `mistake-bound` were refused ("applying
    one-update-growth needs 'y**2 == 1'"), the lemma reached through `norm-growth` as if they
    imported it. They state the kernel's theorem: nothing of the lemma among their premises."""
    proof = load_proof(LECTURE)
    report = check_proof(proof)
    run = export_and_check(tmp_path, [("lecture", proof, list(report.steps))], compile=False)
    assert not any(r.startswith("not exported") for r in run.for_proof("lecture").values())
    text = (tmp_path / "lecture.v").read_text()
    for name in ("step_combine", "step_mistake_bound"):
        premises = _theorem(text, name)
        assert "(ip w u) >= ((INR t) * gamma)" in premises
        assert " y " not in premises and "vscal" not in premises, premises


@needs_coqc
def test_the_lecture_proof_compiles_whole(tmp_path: Path) -> None:
    proof = load_proof(LECTURE)
    report = check_proof(proof)
    run = export_and_check(tmp_path, [("lecture", proof, list(report.steps))])
    assert run.for_proof("lecture") == dict.fromkeys((s.id for s in proof.steps), "checked")


CYCLING = ROOT / "proofs" / "library" / "cycling-inseparable.toml"
EPOCH_STEP_CLAIM = ('given = ["norm2(ws + g) <= far*norm2(ws) + (1 - far)*(2*K**2 + 2*N*(N + 1)'
                    '*R2)",\n         "far >= 0", "far <= 1"]')


def test_the_cycling_epoch_step_is_glue_because_a_lemma_brings_its_used_claims() -> None:
    """Why `cycling-inseparable` assumes `epoch-step` at each epoch (proofs/library/README.md,
    "What issue 31's proofs take from the runs"): as a one-update lemma of the induction over
    the epochs, with every fact the steps it rests on are given (29, the premises of its Coq
    theorem) as the epochs' facts, the kernel still refuses it, naming a claim of a step it
    uses (Cauchy–Schwarz's, here): those 18 claims would have to be update facts, assumed by
    the theorem over the epochs. If this ever passes, the glue can go: revisit the proof."""
    source = CYCLING.read_text()
    steps = {s["id"]: s for s in tomllib.loads(source)["step"]}
    rests_on: set[str] = set()
    stack = ["epoch-step"]
    while stack:
        for use in steps[stack.pop()].get("uses", []):
            used = use if isinstance(use, str) else use["step"]
            if used not in rests_on:
                rests_on.add(used)
                stack.append(used)
    facts: list[str] = []
    for step_id, step in steps.items():
        if step_id in rests_on or step_id == "epoch-step":
            facts += [g for g in step.get("given", []) if g not in facts]
    assert (len(rests_on), len(facts)) == (18, 29)
    assert EPOCH_STEP_CLAIM in source
    joined = source.replace(EPOCH_STEP_CLAIM, "given = " + json.dumps([*facts, "far <= 1"])
                            ).replace('claim = "norm2(ws) <= B2"\nsource',
                                      'claim = "norm2(ws) <= B2"\nuses = ["epoch-step"]\nsource')
    assert joined.count('uses = ["epoch-step"]') == 1
    proof = parse_proof(joined.encode(), str(CYCLING))
    with pytest.raises(ProofFileError, match=re.escape(
            "uses epoch-step at each update, but its hypothesis `dot(a, b)**2 <= "
            "norm2(a)*norm2(b) [a := wb - ws, b := xs]` is none of the update's facts")):
        check_proof(proof)


NATURAL_LEMMAS = """
title = "one-update lemmas reading naturals"
scalars = ["t", "s", "n", "k", "q"]
naturals = ["t", "n", "k"]

[[step]]
id = "lem"
given = ["n >= 2", "s >= 0"]
claim = "s + n >= 2"

[[step]]
id = "ind"
given = ["n >= 2"]
claim = "s >= 0"
uses = ["lem"]
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + n" }
constants = ["n"]

[[step]]
id = "lem2"
given = ["q >= k"]
claim = "q + k >= 2*k"

[[step]]
id = "ind2"
given = []
claim = "q >= 0"
uses = ["lem2"]
[step.induction]
variable = "t"
base = { q = "0" }
step = { q = "q + k" }
given = ["q >= k"]
"""


@needs_coqc
def test_a_one_update_lemma_reading_a_natural_is_applied_to_its_nat(tmp_path: Path) -> None:
    """Red team 28 F4: a one-update lemma reading a natural (a constant n, a per-update k)
    was applied in the step lemma after `set (n := INR nat'0) in *. clearbody n.`, so the
    step's premise `n >= 2` no longer matched the lemma's `INR nat'0 >= 2` and coqc rejected
    the kernel-proved induction. It is applied while the natural is still its `nat` now."""
    results, text = _export(NATURAL_LEMMAS, tmp_path)
    assert results == dict.fromkeys(("lem", "ind", "lem2", "ind2"), "checked"), results
    step = text[text.index("Lemma step_ind_step :"):]
    step = step[:step.index("Qed.")]
    assert step.index("pose proof (step_lem ") < step.index("clearbody")


WITH_NATURAL_LEMMAS = """
title = "one-update lemmas used through with, reading naturals"
scalars = ["t", "s", "n", "k", "m", "q", "p"]
naturals = ["t", "n", "k", "m"]

[[step]]
id = "lem"
given = ["q >= k", "q >= 0"]
claim = "q*q >= k*q"

[[step]]
id = "ind"
given = []
claim = "p >= 0"
uses = [{ step = "lem", with = { k = "m" } }]
[step.induction]
variable = "t"
base = { p = "0" }
step = { p = "p + q*q - m*q" }
given = ["q >= m", "q >= 0"]

[[step]]
id = "lemn"
given = ["n >= 2", "s >= 0"]
claim = "s*n >= 2*s"

[[step]]
id = "indn"
given = ["n >= 2"]
claim = "s >= 0"
uses = [{ step = "lemn", with = { n = "n" } }]
[step.induction]
variable = "t"
base = { s = "1" }
step = { s = "s*n - s" }
constants = ["n"]
"""


@needs_coqc
def test_a_with_lemma_whose_restated_premise_reads_a_natural_is_checked(
        tmp_path: Path) -> None:
    """Red team 28 F4, its `with` case (/work/notes/redteam28/cq5.toml `ind2`): a lemma used
    through `with` has its premises restated in the step lemma, after the naturals were made
    opaque reals (`set (m := INR nat'0) in *. clearbody m.`), and its theorem, applied to
    the `nat`, wanted `q >= INR nat'0` where the restated premise read `q >= m`: coqc
    rejected the kernel-proved induction (a per-update natural renamed, a constant natural).
    The equation `m = INR nat'0` is kept and the theorem brought to `m` by it. The step
    lemmas still state the kernel's step, the lemma's claim in no premise, and its claim is
    what the certificate reads."""
    results, text = _export(WITH_NATURAL_LEMMAS, tmp_path)
    assert results == dict.fromkeys(("lem", "ind", "lemn", "indn"), "checked"), results
    assert not DECIDERS.search(text)
    for step_id, statement, used, real in (
            ("ind", "forall (m : nat) (t q p : R),\n    t >= 0 ->\n    p >= 0 ->\n"
                    "    q >= (INR m) ->\n    q >= 0 ->\n"
                    "    ((- ((INR m) * q)) + p + (q ^ 2)) >= 0.", "step_lem", "m"),
            ("indn", "forall (n : nat) (t s : R),\n    (INR n) >= 2 ->\n    t >= 0 ->\n"
                     "    s >= 0 ->\n    (((INR n) * s) + (- (s))) >= 0.", "step_lemn", "n")):
        start = text.index(f"Lemma step_{step_id}_step :")
        lemma = text[start:text.index("Qed.", start)]
        assert lemma.startswith(f"Lemma step_{step_id}_step : {statement}\n"), lemma
        use = re.search(rf"pose proof \({used} nat'0 \w+\) as (use'\d+)\.", lemma)
        assert use is not None, lemma
        assert f"assert (real'1 : {real} = INR nat'0) by reflexivity." in lemma
        assert f"try rewrite <- real'1 in {use[1]}." in lemma
        assert f"_ {use[1]}); " in lemma  # the certificate reads the lemma's claim
    theorem = text[text.index("Theorem step_indn :"):]
    assert theorem.startswith(
        "Theorem step_indn : forall (n : nat) (s : nat -> R) (N' : nat),\n"
        "    (INR n) >= 2 ->\n    s 0%nat = 1 ->\n"), theorem[:300]
