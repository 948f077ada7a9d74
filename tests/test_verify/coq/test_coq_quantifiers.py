"""Scalar induction, instances of a used step and existential claims, replayed in Coq.

An instance applies the earlier theorem to the substituted terms (so its claim is derived);
an existential claim is stated with `exists` and proved by `exists <witness>`, and a step
that uses it destructs it; iterated scalars are sequences over `nat` like iterated vectors.
Tests that compile skip without coqc; a tampered witness or instance must be rejected.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.cli import main
from verify.coq import NOT_RUN, export_and_check
from verify.coq.build import LOGICAL
from verify.proof_checker import check_proof

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(
    COQC is None, reason="coqc is not on PATH (install Debian's `coq`: apt-get install coq)"
)
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

QUANTIFIERS = b"""
title = "quantifiers"
vectors = ["w", "v"]
scalars = ["a", "b", "s", "q", "t", "k", "d", "D"]
naturals = ["t", "k"]

[[step]]
id = "double"
given = ["a >= 0"]
claim = "2*a >= a"

# one step used twice, on different terms
[[step]]
id = "double-twice"
given = ["b >= 0"]
claim = "4*b**2 >= b**2"
uses = [{ step = "double", with = { a = "b**2" } }, { step = "double", with = { a = "2*b**2" } }]

[[step]]
id = "count"
given = []
claim = "t + 1 > 0"

# a natural replaced by a natural name: the theorem is applied to its nat
[[step]]
id = "count-k"
given = []
claim = "k + 1 > 0"
uses = [{ step = "count", with = { t = "k" } }]

[[step]]
id = "above"
given = ["a >= 0"]
claim = "s >= a"
witness = { s = "a + 1" }

[[step]]
id = "longer"
given = []
claim = "norm2(v) >= norm2(w)"
witness = { v = "2*w" }

# an existential claim used: its name is destructed, not bound by the theorem
[[step]]
id = "use-above"
given = ["a >= 0", "b >= a"]
claim = "b >= 0"
uses = ["above"]

[[step]]
id = "partial-sum"
given = []
claim = "s <= t*D"
[step.induction]
variable = "t"
constants = ["D"]
base = { s = "0" }
step = { s = "s + d" }
given = ["d <= D"]

# regression: an iterated name the invariant does not read (s) has nothing to rewrite
[[step]]
id = "squares"
given = []
claim = "q >= 0"
[step.induction]
variable = "t"
base = { s = "0", q = "0" }
step = { s = "s + d", q = "q + d**2" }

# the invariant of another induction over the same runs, carried: derived from its theorem
[[step]]
id = "carried"
given = []
claim = "t*q >= 0"
uses = ["squares"]
[step.induction]
variable = "t"
base = { s = "0", q = "0" }
step = { s = "s + d", q = "q + d**2" }

# the inductive step split by cases: its step lemma destructs them
[[step]]
id = "split-step"
given = []
claim = "q >= 0"
split = { on = "d", zero = false }
[step.induction]
variable = "t"
base = { q = "0" }
step = { q = "q + d**2" }

[[step]]
id = "induction-with-instance"
given = []
claim = "s <= t*D"
uses = [{ step = "double", with = { a = "D" } }]
[step.induction]
variable = "t"
constants = ["D"]
base = { s = "0" }
step = { s = "s + d" }
given = ["d <= D"]
"""
STEPS = ["double", "double-twice", "count", "count-k", "above", "longer", "use-above",
         "partial-sum", "squares", "carried", "split-step", "induction-with-instance"]


def _all_proved(text: bytes, name: str, steps: list[str]) -> tuple[str, object, list[object]]:
    """`text` parsed and checked, every one of `steps` proved: what `export_and_check` takes."""
    proof = parse_proof(text, f"{name}.toml")
    report = check_proof(proof)
    assert [s.status for s in report.steps] == ["proved"] * len(steps)
    return name, proof, list(report.steps)


def _exported(tmp_path: Path, checked: tuple[str, object, list[object]], steps: list[str]
              ) -> str:
    """The Coq file of `checked` (from `_all_proved`), written without compiling: every one
    of `steps` exported, none yet run by coqc."""
    run = export_and_check(tmp_path, [checked], compile=False)
    assert run.for_proof(checked[0]) == dict.fromkeys(steps, NOT_RUN)
    return (tmp_path / f"{checked[0]}.v").read_text()


@pytest.fixture(scope="module")
def quantifiers() -> tuple[str, object, list[object]]:
    return _all_proved(QUANTIFIERS, "quantifiers", STEPS)


def test_each_rule_is_stated_and_proved_as_its_semantics_says(
    quantifiers: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    text = _exported(tmp_path, quantifiers, STEPS)
    # instances: the earlier theorem applied to the terms (twice), a natural to its nat
    assert "pose proof (step_double (b ^ 2) hyp'1) as use'0." in text
    assert "pose proof (step_double (2 * (b ^ 2)) hyp'2) as use'1." in text
    assert "Theorem step_count_k : forall (k : nat),\n    ((INR k) + 1) > 0." in text
    assert "pose proof (step_count nat'0) as use'0." in text
    # existentials: stated with exists, proved by the witness, destructed where used
    assert "a >= 0 ->\n    exists (s : R), s >= a." in text
    assert "  exists (a + 1).\n" in text and "  exists (vscal 2 w).\n" in text
    assert "Theorem step_use_above : forall (a b : R)," in text
    assert "destruct use'0 as [s use'0]." in text
    # scalar induction: the partial sum is a sequence over nat, like an iterated vector
    assert "Theorem step_partial_sum : forall (D : R) (s d : nat -> R) (N' : nat)," in text
    assert "(forall n', (n' < N')%nat -> s (S n') = ((d n') + (s n'))) ->" in text
    # an instance inside an induction: applied in its base and step lemmas, its premise
    # `a >= 0 [a := D]` stated as `D >= 0` over R and over nat
    assert text.count("pose proof (step_double D hyp'0) as use'0.") == 2
    # a carried invariant: the other induction's theorem applied to this run (of the same
    # length N') at the state n' before the update
    assert ("(step_squares s q d N' base'0 base'1 next'0 next'1 n' "
            "(Nat.lt_le_incl _ _ bound')) )." in text)
    # a split inductive step: its lemma destructs the cases of the split polynomial
    lemma = text[text.index("Lemma step_split_step_step"):]
    assert "{ destruct (dichotomy d) as [case' | case']." in lemma[:lemma.index("Qed.")]
    assert "Theorem step_induction_with_instance : forall (D : R) (s d : nat -> R) (N' : nat),\n" \
        "    D >= 0 ->\n" in text


@needs_coqc
def test_the_rules_compile_and_a_tampered_witness_or_instance_is_rejected(
    quantifiers: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    # compiled here: as written (every step in the file checks), then once per tampering
    export_and_check(tmp_path, [quantifiers], compile=False)
    path = tmp_path / "quantifiers.v"
    text = path.read_text()

    def compiles(source: str) -> bool:
        return coqc_compiles(tmp_path, 'quantifiers.v', source, COQC)  # type: ignore[arg-type]

    assert compile_inner_product(tmp_path).returncode == 0
    assert compiles(text)  # as written (so each rejection below is the tampering's)
    # a witness that does not satisfy the claim: a + 1 becomes a - 1
    assert text.count("  exists (a + 1).\n") == 1
    assert not compiles(text.replace("  exists (a + 1).\n", "  exists (a - 1).\n"))
    # an instance on other terms than the statement imports: b**2 becomes b
    assert text.count("(step_double (b ^ 2) hyp'1)") == 1
    assert not compiles(text.replace("(step_double (b ^ 2) hyp'1)", "(step_double b hyp'1)"))


@needs_coqc
def test_quantifiers_example_replays_every_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(EXAMPLES / "quantifiers.toml"), "--json", "--coq",
                 str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    found = {s["id"]: s["coq"] for s in data["steps"]}
    assert found == dict.fromkeys(found, "checked") and len(found) == 8


CARRIED_WITH_FACTS = b"""
title = "carried invariant over runs with update facts"
scalars = ["s", "d", "t"]
naturals = ["t"]

[[step]]
id = "nonnegative"
given = []
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 0"]

[[step]]
id = "grows"
given = []
claim = "s <= t*s"
uses = ["nonnegative"]
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 0"]
"""


@needs_coqc
def test_a_carried_invariant_of_runs_with_update_facts_compiles(tmp_path: Path) -> None:
    # Regression: the carried induction's theorem was given its update facts at n' instead of
    # as the run's `forall n'` facts, which coqc rejected (Freund–Schapire's nothing-summed-yet).
    carried = _all_proved(CARRIED_WITH_FACTS, "carried", ["nonnegative", "grows"])
    run = export_and_check(tmp_path, [carried])
    assert run.for_proof("carried") == {"nonnegative": "checked", "grows": "checked"}


INHERITED_INSTANCE = b"""
title = "an instance inherited through other steps"
scalars = ["a", "b", "t"]
naturals = ["t"]

[[step]]
id = "double"
given = ["a >= 0"]
claim = "2*a >= a"

[[step]]
id = "scaled"
given = []
claim = "2*t*b**2 >= t*b**2"
uses = [{ step = "double", with = { a = "t*b**2" } }]

# inherits `a >= 0 [a := b**2*t]` (and the instance's claim) through scaled
[[step]]
id = "inherits"
given = []
claim = "3*t*b**2 >= t*b**2"
uses = ["scaled"]

# two steps away, split by cases
[[step]]
id = "inherits-split"
given = []
claim = "4*t*b**2 >= t*b**2"
uses = ["inherits"]
split = { on = "b", zero = true }

[[step]]
id = "partial-sum"
given = []
claim = "a <= t*b**2"
uses = [{ step = "double", with = { a = "b**2" } }]
[step.induction]
variable = "t"
constants = ["b"]
base = { a = "0" }
step = { a = "a + b**2" }

# inherits the instance through an induction (whose own claim stays a premise)
[[step]]
id = "partial-sum-doubled"
given = []
claim = "2*a <= 2*t*b**2"
uses = ["partial-sum"]
"""
INHERITED = ["double", "scaled", "inherits", "inherits-split", "partial-sum",
             "partial-sum-doubled"]


@pytest.fixture(scope="module")
def inherited() -> tuple[str, object, list[object]]:
    return _all_proved(INHERITED_INSTANCE, "inherited", INHERITED)


def _theorem(text: str, step: str) -> str:
    start = text.index(f"Theorem step_{step} :")
    return text[start:text.index("Qed.", start)]


def test_an_inherited_instance_is_stated_from_its_source_and_its_claim_derived(
    inherited: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    # Regression: a step inheriting an instance's substituted hypotheses through another step
    # was not exported (their text, `a >= 0 [a := b**2*t]`, is not source), as were the last
    # 3 steps of nonseparable-freund-schapire.
    text = _exported(tmp_path, inherited, INHERITED)
    # the inherited premise printed from `a >= 0` with the term in place, the natural as INR;
    # the instance's claim `2*a >= a [a := b**2*t]` derived by applying double, not assumed
    for step, claim in (("inherits", "3"), ("inherits_split", "4")):
        theorem = _theorem(text, step)
        assert theorem.startswith(
            f"Theorem step_{step} : forall (t : nat) (b : R),\n"
            "    ((INR t) * (b ^ 2)) >= 0 ->\n"
            f"    (({claim} * (INR t)) * (b ^ 2)) >= ((INR t) * (b ^ 2)).\n")
        assert "(step_double ((INR nat'0) * (b ^ 2)) hyp'0)" in theorem
        assert "(step_scaled nat'0 b hyp'0)" in theorem
    # through an induction: its claim a premise, the instance's premise too, its claim derived
    theorem = _theorem(text, "partial_sum_doubled")
    assert theorem.startswith(
        "Theorem step_partial_sum_doubled : forall (t : nat) (a b : R),\n"
        "    (b ^ 2) >= 0 ->\n"
        "    a <= ((INR t) * (b ^ 2)) ->\n")
    assert "(step_double (b ^ 2) hyp'0)" in theorem


@needs_coqc
def test_an_inherited_instance_compiles_and_a_tampered_premise_is_rejected(
    inherited: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    run = export_and_check(tmp_path, [inherited])
    assert run.for_proof("inherited") == dict.fromkeys(INHERITED, "checked")
    path = tmp_path / "inherited.v"
    text = path.read_text()
    # the inherited premise on another term (t*b**2 becomes b**2) no longer proves the claim
    theorem = _theorem(text, "inherits")
    tampered = theorem.replace("    ((INR t) * (b ^ 2)) >= 0 ->\n", "    (b ^ 2) >= 0 ->\n")
    assert tampered != theorem
    path.write_text(text.replace(theorem, tampered))
    assert compile_inner_product(tmp_path).returncode == 0
    done = subprocess.run([COQC, "-R", ".", LOGICAL, "inherited.v"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    first = text.index(theorem)  # coqc's error is inside the tampered theorem
    lines = (text[:first].count("\n") + 1, text[:first + len(theorem)].count("\n") + 1)
    found = re.search(r'File "[^"]*inherited.v", line (\d+)', done.stderr + done.stdout)
    assert found is not None and lines[0] <= int(found.group(1)) <= lines[1]


NATURALS_IN_RUNS = b"""
title = "an induction with a natural besides its counter"
scalars = ["s", "d", "t", "k", "m", "D"]
naturals = ["t", "k", "m"]

# k: a natural constant of the run, read by the base
[[step]]
id = "offset"
given = ["D >= 0"]
claim = "s <= (t + k)*D"
[step.induction]
variable = "t"
constants = ["D", "k"]
base = { s = "k*D" }
step = { s = "s + d" }
given = ["d <= D"]

# carried with k: the other induction's theorem applied to the run, k included
[[step]]
id = "offset-carried"
given = ["D >= 0"]
claim = "s <= (t + k)*D + k"
uses = ["offset"]
[step.induction]
variable = "t"
constants = ["D", "k"]
base = { s = "k*D" }
step = { s = "s + d" }
given = ["d <= D"]

# m: a natural read fresh at each update, a sequence of naturals
[[step]]
id = "grows"
given = []
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + m" }

[[step]]
id = "uses-offset"
given = ["D >= 0"]
claim = "s <= (t + k)*D + 1"
uses = ["offset"]
"""
NATURAL_STEPS = ["offset", "offset-carried", "grows", "uses-offset"]


@pytest.fixture(scope="module")
def naturals_in_runs() -> tuple[str, object, list[object]]:
    return _all_proved(NATURALS_IN_RUNS, "naturals", NATURAL_STEPS)


def test_a_natural_besides_the_counter_is_a_nat_in_the_lemmas_and_over_runs(
    naturals_in_runs: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    # Regression: such an induction was not exported ("naturals besides the induction
    # variable: not exported yet").
    text = _exported(tmp_path, naturals_in_runs, NATURAL_STEPS)
    # the lemmas bind k as a nat, read through INR (its 0 <= k from pos_INR); t is a real
    assert "Lemma step_offset_step : forall (k : nat) (s d t D : R),\n" \
        "    D >= 0 ->\n    t >= 0 ->\n    s <= ((t + (INR k)) * D) ->\n" in text
    assert "pose proof (pos_INR nat'0) as natge'0. set (k := INR nat'0) in *." in text
    # over runs: k a constant nat, the base read through INR; m a sequence of naturals
    assert "Theorem step_offset : forall (k : nat) (D : R) (s d : nat -> R) (N' : nat),\n" \
        "    D >= 0 ->\n    s 0%nat = (D * (INR k)) ->\n" in text
    assert "forall n', (n' <= N')%nat -> (s n') <= (((INR n') + (INR k)) * D)." in text
    assert "Theorem step_grows : forall (m : nat -> nat) (s : nat -> R) (N' : nat),\n" in text
    assert "(forall n', (n' < N')%nat -> s (S n') = ((INR (m n')) + (s n'))) ->" in text
    # the carried invariant: the other induction's theorem, k given as it is
    assert ("(step_offset k D s d N' hyp'0 base'0 next'0 upd'0 n' (Nat.lt_le_incl _ _ bound'))"
            in text)


@needs_coqc
def test_a_natural_besides_the_counter_compiles(
    naturals_in_runs: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    run = export_and_check(tmp_path, [naturals_in_runs])
    assert run.for_proof("naturals") == dict.fromkeys(NATURAL_STEPS, "checked")
