"""An induction's Coq theorem is about finite runs, and is not vacuous (issue 26, point 3).

Before, the theorem assumed the update facts at every index (`forall n', U n'`): a run that
must stop cannot satisfy them, so for canonical-batch's `distance-decrease` (the termination
invariant) Coq could derive `False` from the premises and `checked` certified nothing. Now it
is stated over runs of `N'` updates. Held here: the old form's premises are contradictory
where the theorem is used (proved in Coq from the new theorem), and concrete runs with two
updates discharge the new premises in Coq (`concrete_runs`: the exported files compiled
against the Euclidean plane as a model of the axioms), for the canonical proofs here and for
every induction of the built-in proofs in the slow test. A run that violates a fact is
rejected, so the instance is a check and not a formality.
"""

from __future__ import annotations

import dataclasses
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from concrete_runs import ConcreteRun, coqc_in, find_run, in_the_plane

from proofs.library import load_builtin
from verify.coq import export_and_check
from verify.coq.export import Exported, export_proof
from verify.proof_checker import check_proof

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
needs_coqc = pytest.mark.skipif(
    shutil.which("coqc") is None,
    reason="coqc is not on PATH (install Debian's `coq`: apt-get install coq)",
)
BUILT_IN = ("canonical-online", "canonical-batch", "canonical-online-w0", "canonical-online-eta",
            "canonical-online-bias", "canonical-online-normalised", "canonical-online-kernel",
            "margin-perceptron", "tightness-orthonormal", "nonseparable-freund-schapire",
            "chan-batch", "joeyonng-online", "ng-cs229", "telgarsky-online", "virtue-online")
# the source as written: `y*dot(x, w) < 0` at the first update, from w = 0, is false, so no run
# with an update satisfies the premises (the kernel's statement is vacuous there too; the
# corrected step, `<= 0`, has a run)
NO_RUN = {("joeyonng-online", "norm-unrolled")}

Checked = tuple[str, object, list[object]]


def _checked(proof_id: str) -> Checked:
    proof = load_builtin(proof_id)
    return proof_id, proof, list(check_proof(proof).steps)


@pytest.fixture(scope="module")
def canonical() -> list[Checked]:
    """Both canonical proofs, checked once for the module."""
    return [_checked(p) for p in ("canonical-online", "canonical-batch")]


def _inductions(checked: Checked) -> list[Exported]:
    _, proof, reports = checked
    return [e for e in export_proof(proof, reports) if e.run is not None]  # type: ignore[arg-type]


def _runs(checked: list[Checked]) -> dict[tuple[str, str], ConcreteRun]:
    """A run with two updates (one where two cannot be found) for every induction."""
    found = {}
    for proof_id, proof, reports in checked:
        for exported in _inductions((proof_id, proof, reports)):
            run = (find_run(proof, exported, 2)  # type: ignore[arg-type]
                   or find_run(proof, exported, 1))  # type: ignore[arg-type]
            if run is not None:
                found[(proof_id, exported.step_id)] = run
    return found


def test_distance_decrease_is_stated_over_a_run_of_n_updates(
    canonical: list[Checked], tmp_path: Path
) -> None:
    text = export_and_check(tmp_path, canonical[1:], compile=False).directory.joinpath(
        "canonical_batch.v").read_text()
    theorem = text[text.index("Theorem step_distance_decrease :"):]
    statement = theorem[:theorem.index(".\nProof.")]
    assert statement.splitlines()[0].endswith("(alpha : nat -> R) (N' : nat),")
    assert "    theta 0%nat = theta0 ->" in statement
    assert ("(forall n', (n' < N')%nat -> theta (S n') = (vadd (theta n') (vscal (alpha n') "
            "(xbar n')))) ->") in statement
    assert statement.count("(forall n', (n' < N')%nat -> ") == 2  # equation and fact
    assert "\n    forall n', (n' <= N')%nat -> (R2 * (ip (vadd (theta n')" in statement
    assert "(forall n', theta" not in statement  # no premise over every index is left


def _forever(statement: str) -> str:
    """The old form of distance-decrease's statement, with the signs the theorem is used
    under (`iterations`: `R2 >= 0`; the bound divides by `gamma**2 > 0`), concluding False."""
    lines = statement.splitlines()
    premises = [line.replace("(n' < N')%nat -> ", "") for line in lines[1:-1]]
    return "\n".join([lines[0].replace(" (N' : nat),", ","), "    R2 >= 0 ->",
                      "    gamma > 0 ->", *premises, "    False"])


FOREVER_PROOF = r"""
Lemma nat_above : forall r, exists n : nat, r < INR n.
Proof.
  intros r. destruct (archimed r) as [H _]. destruct (Rle_or_lt r 0) as [Hr | Hr].
  - exists 1%nat. simpl. lra.
  - exists (Z.to_nat (up r)). rewrite INR_IZR_INZ, Z2Nat.id; [lra |]. apply le_IZR. lra.
Qed.

(* every prefix of the run is a run of n updates: at n past R2 D0 / gamma^2, the invariant
   and R2 D_n >= 0 (iterations) give n gamma^2 <= R2 D0 < n gamma^2 *)
Lemma forever_is_vacuous : STATEMENT.
Proof.
  intros theta_star theta0 gamma R2 theta xbar alpha HR Hg base next upd.
  assert (Hg2 : 0 < gamma ^ 2) by (apply pow_lt; lra).
  destruct (nat_above ((R2 * ip (vadd theta0 (vscal (-1) theta_star))
                                 (vadd theta0 (vscal (-1) theta_star))) / gamma ^ 2)) as [n Hn].
  pose proof (step_distance_decrease theta_star theta0 gamma R2 theta xbar alpha n base
                (fun k _ => next k) (fun k _ => upd k) n (le_n n)) as P.
  pose proof (step_iterations (theta n) theta_star theta0 n gamma R2 HR P) as I.
  apply (Rmult_lt_compat_r (gamma ^ 2)) in Hn; [| exact Hg2].
  unfold Rdiv in Hn. rewrite Rmult_assoc, Rinv_l, Rmult_1_r in Hn; lra.
Qed.
"""


@needs_coqc
@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_premises_over_every_index_are_contradictory_for_batch_termination(
    canonical: list[Checked], tmp_path: Path
) -> None:
    """The bug the finite form removes: with `forall n', U n'` (the old premises) Coq derives
    False for distance-decrease wherever it is used, so a `checked` theorem of that form said
    nothing about any run. Proved in the axiomatised space (any inner-product space)."""
    directory = export_and_check(tmp_path, canonical[1:], compile=False).directory
    text = (directory / "canonical_batch.v").read_text()
    start = text.index("Theorem step_distance_decrease : ") + len("Theorem ")
    statement = text[start:text.index(".\nProof.", start)].split(" : ", 1)[1]
    forever = FOREVER_PROOF.replace("STATEMENT", _forever(statement))
    (directory / "Forever.v").write_text(
        "Require Import Reals Lra.\nRequire Import Novikoff.InnerProduct "
        "Novikoff.canonical_batch.\nOpen Scope R_scope.\n" + forever)
    done = coqc_in(directory, "InnerProduct.v", "canonical_batch.v", "Forever.v")
    assert done.returncode == 0, done.stderr + done.stdout


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
@needs_coqc
def test_a_concrete_run_discharges_the_premises_of_the_canonical_inductions(
    canonical: list[Checked], tmp_path: Path
) -> None:
    runs = _runs(canonical)
    assert set(runs) == {(c[0], e.step_id) for c in canonical for e in _inductions(c)}
    assert {r.length for r in runs.values()} == {2}
    # batch termination with the signs under which the old premises are contradictory
    decrease = runs[("canonical-batch", "distance-decrease")]
    assert decrease.constants["R2"] > 0 and decrease.constants["gamma"] > 0
    assert ("canonical-online", "norm-growth") in runs
    done = in_the_plane(tmp_path, canonical, runs)  # type: ignore[arg-type]
    assert done.returncode == 0, done.stderr + done.stdout


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
@needs_coqc
def test_a_run_that_breaks_an_update_fact_is_rejected(
    canonical: list[Checked], tmp_path: Path
) -> None:
    """The instance is a check: a margin the run does not have (`gamma` raised until the
    distance cannot fall by `gamma**2` at each update) makes coqc fail on that fact. Both
    canonical proofs are exported, as above, so that their modules compiled against the
    plane there are reused (`concrete_runs.coqc_in`): coqc runs on this `Runs.v` only."""
    runs = _runs(canonical[1:])
    key = ("canonical-batch", "distance-decrease")
    broken = dataclasses.replace(runs[key], constants={**runs[key].constants,
                                                       "gamma": Fraction(100)})
    done = in_the_plane(tmp_path, canonical, {key: broken})  # type: ignore[arg-type]
    assert done.returncode != 0
    assert "Runs.v" in done.stderr + done.stdout


@pytest.mark.slow
@needs_coqc
def test_every_induction_of_the_built_in_proofs_has_a_concrete_run(tmp_path: Path) -> None:
    checked = [_checked(p) for p in BUILT_IN]
    runs = _runs(checked)
    every = {(c[0], e.step_id) for c in checked for e in _inductions(c)}
    assert set(runs) == every - NO_RUN
    assert NO_RUN <= every
    done = in_the_plane(tmp_path, checked, runs)  # type: ignore[arg-type]
    assert done.returncode == 0, done.stderr + done.stdout


KEPT = """
title = "names the base sets and the update leaves"
vectors = ["w", "x", "v", "u"]
scalars = ["t", "s", "c", "y"]
naturals = ["t"]

[[step]]
id = "base-only"
claim = "c == 3"
[step.induction]
variable = "t"
base = { c = "3", s = "0" }
step = { s = "s + 1" }

[[step]]
id = "carried"
claim = "s == c*t - 2*t"
uses = ["base-only"]
[step.induction]
variable = "t"
base = { c = "3", s = "0" }
step = { s = "s + 1" }

[[step]]
id = "vector-kept"
claim = "norm2(v - u) == 0"
[step.induction]
variable = "t"
base = { v = "u", w = "0*w" }
step = { w = "w + y*x" }
constants = ["u"]
"""


@needs_coqc
def test_a_name_the_base_sets_and_the_update_leaves_keeps_its_value_in_coq(
        tmp_path: Path) -> None:
    """Red team 28 F1: the kernel reads a name the base sets and the step map leaves as
    keeping its value (`refute_run`'s `kept`) and proves `c == 3` from `base = { c = "3" }`;
    the theorem over runs left `c (S n')` free (no equation for it), a stronger statement
    than the kernel's, and coqc rejected the kernel-proved step. It states `c (S n') = c n'`
    now, for a scalar, a vector and a carried invariant over such runs."""
    from proofs.proof_file import parse_proof

    proof = parse_proof(KEPT.encode(), "kept.toml")
    reports = list(check_proof(proof).steps)
    assert [r.status for r in reports] == ["proved"] * 3
    run = export_and_check(tmp_path, [("kept", proof, reports)])
    assert run.for_proof("kept") == dict.fromkeys(("base-only", "carried", "vector-kept"),
                                                  "checked")
    text = (tmp_path / "kept.v").read_text()
    assert "(forall n', (n' < N')%nat -> c (S n') = (c n')) ->" in text
    assert "(forall n', (n' < N')%nat -> v (S n') = (v n')) ->" in text


#: Red team 31 B6: `z` and `b` claim the same invariant over other runs (from s := 1, from
#: s := 0); `c` carries b's.
ONE_CLAIM_TWO_RUNS = """
title = "two inductions with one claim over other runs"
scalars = ["s", "d", "t"]
naturals = ["t"]
[[step]]
id = "z"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "1" }
step = { s = "s + d" }
given = ["d >= 1"]
[[step]]
id = "b"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 1"]
[[step]]
id = "c"
uses = ["b"]
claim = "s*t >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 1"]
"""


@needs_coqc
def test_a_carried_invariant_is_applied_from_the_induction_the_step_uses(
        tmp_path: Path) -> None:
    """Red team 31 B6: the export took the theorem of a carried invariant from the first
    exported induction with the same claim, `z`, whose runs start elsewhere (s := 1), not
    from `b`, the one `c` uses: coqc rejected `c`, a true step the kernel proved."""
    from proofs.proof_file import parse_proof

    proof = parse_proof(ONE_CLAIM_TWO_RUNS.encode(), "same.toml")
    reports = list(check_proof(proof).steps)
    assert [r.status for r in reports] == ["proved"] * 3
    run = export_and_check(tmp_path, [("same", proof, reports)])
    assert run.for_proof("same") == dict.fromkeys(("z", "b", "c"), "checked")
