"""Steps proved with their sums of vectors named as vectors, in Coq (`verify/coq/sums/named.py`).

The checker proves `norm2(th - sum(j in 1..k, y[j]*x[j])) >= 0` and its kin by naming the sum
a fresh vector (`Step.named`: Sum1) whose inner products the kernel reads by bilinearity; `--coq`
once said such a step was `not exported`. Now its theorem states the step as the kernel does
(Sum1 nowhere in it), and its proof defines Sum1 as the sum (`pose`, the preamble's `vzsum`),
proves each fact the kernel assumed of it from that definition (`ip_vzsum_l`, the split by
linearity), forgets the definition (`clearbody`) and replays the certificate. coqc accepts
them, and rejects a wrong definition (another body, a longer range) and a stronger claim.
Compiling skips without coqc."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.coq import NOT_RUN, export_and_check
from verify.proof_checker import check_proof

pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit|Axiom)\b")

NAMED = '''
title = "named"
vectors = ["th", "x", "z", "u"]
scalars = ["y", "k", "m", "j", "c", "g"]
naturals = ["k", "m"]
indexed = ["x", "y", "z"]

[sets]
M = {{ index = "j", range = "1..k", where = ["y[j]*dot(th, x[j]) <= 0"] }}
{steps}
'''
SUM = "sum(j in 1..k, y[j]*x[j])"

#: (id, given, claim): each proved only with its sums named (tests/.../test_sums_named.py).
STEPS = [
    ("square", [], f"norm2(th - {SUM}) >= 0"),
    ("cross", [], f"2*dot(th, {SUM}) <= dot(th, th) + norm2({SUM})"),
    ("cauchy-schwarz", [], f"dot(th, {SUM})**2 <= dot(th, th)*norm2({SUM})"),
    ("scaled", [], f"norm2(th + c*{SUM}) >= 0"),
    ("two-sums", [], f"norm2({SUM} - sum(j in 1..m, z[j])) >= 0"),
    ("two-members", [], "norm2(th - sum(j in 1..k, x[j+1] - 2*c*z[j])) >= 0"),
    ("filtered", [], "norm2(th - sum(j in M, y[j]*x[j])) >= 0"),
    ("given", [f"dot(th, {SUM}) >= 1"], f"norm2(th)*norm2({SUM}) >= 1"),
    # a division, cleared under its denominator's side condition
    ("divide", ["g > 0", "norm2(u) > 0", "dot(u, sum(j in 1..k, x[j])) >= g"],
     "norm2(sum(j in 1..k, x[j])) >= g**2/norm2(u)"),
]


def _text(steps: list[tuple[str, list[str], str]]) -> bytes:
    body = "".join(f'\n[[step]]\nid = "{i}"\ngiven = {given!r}\nclaim = "{claim}"\n'.replace(
        "'", '"') for i, given, claim in steps)
    return NAMED.format(steps=body).encode()


def _export(tmp_path: Path, steps: list[tuple[str, list[str], str]], compile: bool
            ) -> tuple[dict[str, str], str]:
    proof = parse_proof(_text(steps), "named.toml")
    report = check_proof(proof)
    assert all(s.status == "proved" and s.step.named for s in report.steps), [
        (s.step.id, s.message) for s in report.steps]
    run = export_and_check(tmp_path, [("named", proof, report.steps)], compile=compile)
    return run.for_proof("named"), (tmp_path / "named.v").read_text()


def test_a_named_step_is_exported_its_sum_defined_and_its_facts_proved(tmp_path) -> None:
    """No coqc needed: the theorem states the kernel's statement (no Sum1 in it), the proof
    defines Sum1 as the sum, proves the facts, forgets the definition; nothing decided by a
    procedure, nothing admitted."""
    results, text = _export(tmp_path, STEPS[:1], compile=False)
    assert results == {"square": NOT_RUN}
    statement, proof = text.split("Proof.", 1)
    assert "Sum1" not in statement and "forall (th : V) (x : R -> V) (k : nat)" in statement
    assert ("pose (Sum1 := (vzsum ((1))%Z ((Z.of_nat nat'0))%Z (fun s'j => "
            "(vscal (y s'j) (x s'j)))))." in proof)
    assert "unfold Sum1; apply ip_vzsum_l" in proof and "clearbody Sum1." in proof
    assert proof.index("clearbody Sum1.") < proof.index("ip_pos (vadd Sum1")  # the square
    assert not DECIDERS.search(text)


DEFINITION = "(vscal (y s'j) (x s'j))"
POSE = f"pose (Sum1 := (vzsum ((1))%Z ((Z.of_nat nat'0))%Z (fun s'j => {DEFINITION})))."
#: (what, old, new): each makes the exported square's proof fail.
VARIANTS = [
    # the name defined as another sum: the facts no longer follow from its definition
    ("another body", POSE, POSE.replace(DEFINITION, "(vscal (2 * y s'j) (x s'j))")),
    ("a longer range", POSE, POSE.replace("(vzsum ((1))%Z", "(vzsum ((0))%Z")),
    # the claim made stronger: the certificate no longer proves it
    ("claim", "(y j'2))))) >= 0.\nProof.", "(y j'2))))) >= 1.\nProof."),
]


def _rejected(tmp_path: Path, variants: list[tuple[str, str, str]]) -> None:
    """The square exported and checked by coqc; each variant of its text rejected."""
    results, text = _export(tmp_path, STEPS[:1], compile=True)
    assert results == {"square": "checked"}
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    assert len(re.findall(r"assert \((n[dm]'\d+) : ", text)) == 3  # <x_p,S>, <S,S>, <th,S>
    for what, old, new in variants:
        assert text.count(old) == 1, what
        assert not coqc_compiles(tmp_path, "named.v", text.replace(old, new),
                                 COQC), what  # type: ignore[arg-type]


@needs_coqc
def test_coq_checks_a_named_step_and_rejects_another_definition(tmp_path) -> None:
    _rejected(tmp_path, VARIANTS[:1])


@pytest.mark.slow  # the check and three coqc runs (1 s each): 8-14 s loaded; run by -m slow
@needs_coqc
def test_coq_rejects_a_longer_range_and_a_stronger_claim(tmp_path) -> None:
    _rejected(tmp_path, VARIANTS[1:])


@pytest.mark.slow  # nine checks and coqc about 3 s: 30-40 s loaded; run by -m slow
@needs_coqc
def test_coq_checks_every_kind_of_named_step(tmp_path) -> None:
    """Two members and a coefficient free of the index, two sums (`<S, T>` read through T's
    members), a set's filter (an indicator in the definition), a premise with the sum, a
    division."""
    results, text = _export(tmp_path, STEPS, compile=True)
    assert results == dict.fromkeys((i for i, _, _ in STEPS), "checked")
    assert "pose (Sum2 := " in text and "clearbody Sum1 Sum2." in text
    assert not DECIDERS.search(text)


SPLIT = f'''
[[step]]
id = "split-square"
given = []
claim = "c**2*norm2(th - {SUM}) >= 0"
split = {{ on = "c", zero = true }}
'''


@pytest.mark.slow  # the search of three cases and coqc: about 10 s; run by -m slow
@needs_coqc
def test_coq_checks_a_named_step_split_by_cases(tmp_path) -> None:
    """A case split whose every case names the sum (each case's certificate a scaled square,
    `|c*th - c*Sum1|^2`): one theorem, the sum defined and its facts proved, then each case,
    accepted by coqc; with the claim made strict it is no longer proved, so not exported.
    The sum is defined once, before the cases."""
    proof = parse_proof(NAMED.format(steps=SPLIT).encode(), "named.toml")
    report = check_proof(proof)
    (step,) = report.steps
    assert step.status == "proved" and step.step.named, step.message
    assert [g.goal.label for g in step.goals] == ["case c > 0", "case c == 0", "case c < 0"]
    run = export_and_check(tmp_path, [("named", proof, report.steps)], compile=True)
    assert run.for_proof("named") == {"split-square": "checked"}
    text = (tmp_path / "named.v").read_text()
    assert text.count("clearbody Sum1.") == 1 and not DECIDERS.search(text)
    strict = parse_proof(NAMED.format(steps=SPLIT.replace(">= 0", "> 0")).encode(), "s.toml")
    assert check_proof(strict).steps[0].status != "proved"


@pytest.mark.parametrize("text", [f"{SUM[:-1]}", "sum(j in 1..k, q[j]*x[j])",
                                  "sum(j in 1..k, y[j])", "th"])
def test_the_export_reads_a_named_sum_as_the_checker_does(text: str) -> None:
    # the export had its own copy of the checker's reading, which let an ExpressionError
    # (an unbalanced or undeclared sum) escape instead of saying the step is not exported
    from verify.coq.replay import Script
    from verify.coq.statement import Unsupported
    from verify.coq.sums.named import _kernel_sum
    from verify.kernel import KernelError
    from verify.proof_checker import vector_sum

    proof = parse_proof(_text([("s", [], f"norm2(th - {SUM}) >= 0")]), "named.toml")
    script = Script(proof, [], {}, {})
    assert _kernel_sum(script, "S1", SUM) == vector_sum(proof, "S1", SUM)
    with pytest.raises(KernelError) as checker:
        vector_sum(proof, "S1", text)
    with pytest.raises(Unsupported) as export:
        _kernel_sum(script, "S1", text)
    assert str(export.value) == str(checker.value)
