"""The Coq export (issue 18): proved steps re-checked by coqc, a second, independent kernel.

Tests that need coqc skip with the reason when it is not on PATH (CI installs Debian's
`coq`). The canonical proofs and the small proof below are checked once per module (their
certificates are found by our prover) and exported; every proved step must then compile, one
theorem per step, with no axiom outside `InnerProduct.v` and no `Admitted`. A certificate
altered by hand in the export must be rejected by coqc.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cases.inductions import NEVER_UPDATES
from cases.vacuity import TWO_CASES
from coq_preamble import compile_inner_product

from proofs.library import load_builtin
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
AXIOMS = {"V", "vadd", "vscal", "ip", "ip_sym", "ip_add_l", "ip_scal_l", "ip_pos"}
FORBIDDEN = re.compile(r"\b(Admitted|admit|Axiom|Parameter|Hypothesis|Variable|Conjecture)\b")

SMALL = b"""
title = "small"
vectors = ["w", "x", "u"]
scalars = ["a", "R", "fun", "c", "g", "eta", "y", "t"]
naturals = ["t"]

[[step]]
id = "double"
given = ["a >= 0"]
claim = "2*a >= 0"

[[step]]
id = "cs"
given = []
claim = "dot(w, x)**2 <= norm2(w)*norm2(x)"

[[step]]
id = "chained"
given = ["a >= 0", "R > 0"]
claim = "2*a/R >= 0"
uses = ["double"]

[[step]]
id = "split"
given = ["fun**2 == 1"]
claim = "fun*fun >= 0"
split = { on = "fun", zero = true }

# regression: a divisor the parser cancels (c) still needs `c <> 0` for Coq's field
[[step]]
id = "cancel"
given = ["c > 0", "g > 0"]
claim = "(c*a/(c*g))**2 == (a/g)**2"

# regression: a divisor with a constant factor (2*g divides D = g) makes the quotient in its
# `<> 0` proof rational (1/2), which ring cannot verify (field does)
[[step]]
id = "half"
given = ["g > 0"]
claim = "a**2/(2*g) >= 0"

# regression: a product coefficient in the update (eta*y) printed alike in lemma and theorem
[[step]]
id = "scaled-lower"
given = ["eta > 0"]
claim = "dot(w, x) >= eta*t*g"

[step.induction]
variable = "t"
constants = ["eta", "g", "x"]  # u, y: fresh at each update (sequences over nat in Coq)
base = { w = "0*w" }
step = { w = "w + eta*y*u" }
given = ["y*dot(u, x) >= g"]

# a natural is a `nat` in Coq: its `0 <= INR t` (pos_INR) is the only hypothesis here
[[step]]
id = "count"
given = []
claim = "t + 1 > 0"

# uses a step with a natural: its theorem is applied to the `nat` before it becomes real
[[step]]
id = "count-twice"
given = []
claim = "2*t + 2 > 0"
uses = ["count"]

# a square with polynomial coefficients (`scaled squares`: |c*w - c*x|^2, the minor of c*w, x)
[[step]]
id = "scaled-squares"
given = ["norm2(x) <= R**2"]
claim = "c**2*norm2(w - x) + c**2*R**2 + c**2*dot(w, x)**2 >= c**2*norm2(x) + 0*c"

[[step]]
id = "scaled-cs"
given = []
claim = "c**2*dot(w, x)**2 <= c**2*norm2(w)*norm2(x)"
"""
STEPS = ["double", "cs", "chained", "split", "cancel", "half", "scaled-lower", "count",
         "count-twice", "scaled-squares", "scaled-cs"]


@pytest.fixture(scope="module")
def small() -> tuple[str, object, list[object]]:
    """The small proof, checked once for the module (every step proved)."""
    proof = parse_proof(SMALL, "small.toml")
    report = check_proof(proof)
    assert [s.status for s in report.steps] == ["proved"] * len(STEPS)
    return "small", proof, list(report.steps)


@pytest.fixture(scope="module")
def canonical(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Both canonical proofs checked by our prover and exported; `built` compiles them
    (coqc's per-step results are tested on the small proof, which costs less to compile)."""
    out = {}
    for proof_id in ("canonical-online", "canonical-batch"):
        proof = load_builtin(proof_id)
        report = check_proof(proof)
        directory = tmp_path_factory.mktemp(proof_id)
        out[proof_id] = (proof, report, export_and_check(
            directory, [(proof_id, proof, report.steps)], compile=False))
    return out


@pytest.fixture(scope="module")
def built(canonical: dict[str, object]) -> dict[str, subprocess.CompletedProcess[str]]:
    """`coq_makefile -f _CoqProject -o Makefile && make` on each canonical export, once.
    Its `InnerProduct.v` is compiled through `compile_inner_product` first (coqc's outputs
    for the same text copied once this process has compiled it, ~1.5 s each): make then
    finds `InnerProduct.vo` newer than its source and compiles the proofs' modules only."""
    if COQC is None:
        pytest.skip("coqc is not on PATH (install Debian's `coq`: apt-get install coq)")
    for _proof, _report, run in canonical.values():  # type: ignore[misc]
        assert compile_inner_product(run.directory).returncode == 0
    return {
        proof_id: subprocess.run(
            "coq_makefile -f _CoqProject -o Makefile && make", shell=True,
            cwd=run.directory, capture_output=True, text=True, check=False)
        for proof_id, (_proof, _report, run) in canonical.items()  # type: ignore[misc]
    }


def theorems(text: str) -> list[str]:
    return re.findall(r"^Theorem (\w+)", text, re.M)


@needs_coqc
@pytest.mark.parametrize("proof_id", ["canonical-online", "canonical-batch"])
def test_canonical_proofs_compile_one_theorem_per_proved_step(
    canonical: dict[str, object], built: dict[str, subprocess.CompletedProcess[str]],
    proof_id: str
) -> None:
    _proof, report, run = canonical[proof_id]  # type: ignore[misc]
    proved = [s.step.id for s in report.steps if s.status == "proved"]
    assert proved, "the prover proved nothing: nothing to re-check"
    results = run.for_proof(proof_id)
    assert {s: results[s] for s in proved} == dict.fromkeys(proved, NOT_RUN)  # all exported
    text = (run.directory / f"{proof_id.replace('-', '_')}.v").read_text()
    assert theorems(text) == ["step_" + s.replace("-", "_") for s in proved]
    made = built[proof_id]  # the whole file compiles: every theorem in it is checked
    assert made.returncode == 0, made.stdout + made.stderr


@pytest.mark.parametrize("proof_id", ["canonical-online", "canonical-batch"])
def test_no_axiom_outside_the_preamble_and_nothing_admitted(
    canonical: dict[str, object], proof_id: str
) -> None:
    run = canonical[proof_id][2]  # type: ignore[index]
    for path in sorted(run.directory.glob("*.v")):
        text = re.sub(r"\(\*.*?\*\)", "", path.read_text(), flags=re.S)  # comments aside
        found = {m.group(1) for m in FORBIDDEN.finditer(text)}
        if path.name == "InnerProduct.v":
            assert found <= {"Axiom", "Parameter"}
            declared = set(re.findall(r"^(?:Axiom|Parameter) (\w+)", text, re.M))
            assert declared == AXIOMS
        else:
            assert not found, f"{path.name}: {found}"


@needs_coqc
def test_theorems_rest_on_the_inner_product_axioms_only(
    canonical: dict[str, object], built: dict[str, subprocess.CompletedProcess[str]],
    tmp_path: Path
) -> None:
    """`Print Assumptions`: our axioms, then only the standard library's axioms of R."""
    run = canonical["canonical-batch"][2]  # type: ignore[index]
    assert built["canonical-batch"].returncode == 0  # its .vo files are read below
    (tmp_path / "Check.v").write_text(
        f"Require Import {LOGICAL}.canonical_batch.\n"
        "Print Assumptions step_iterations.\nPrint Assumptions step_xbar_nonzero.\n"
        "Print Assumptions step_distance_decrease.\n"
    )
    done = subprocess.run([COQC, "-R", str(run.directory), LOGICAL, "Check.v"],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    listed = {line.split()[0] for line in done.stdout.splitlines()
              if line[:1].strip() and line != "Axioms:"}
    ours = {name.removeprefix("InnerProduct.") for name in listed
            if name.startswith("InnerProduct.")}
    assert ours == AXIOMS  # every axiom used, and nothing else of ours
    stdlib = ("ClassicalDedekindReals.", "FunctionalExtensionality.")  # Coq's reals
    assert all(name.startswith(("InnerProduct.", *stdlib)) for name in listed), listed


@needs_coqc
def test_a_changed_certificate_coefficient_is_rejected(
    small: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    run = export_and_check(tmp_path, [small])
    assert run.for_proof("small") == dict.fromkeys(STEPS, "checked")
    assert theorems((tmp_path / "small.v").read_text()) == [
        "step_" + s.replace("-", "_") for s in STEPS]
    path = tmp_path / "small.v"
    text = path.read_text()
    assert "(int_pos 2 eq_refl)" in text
    # the coefficient 2 of the product term becomes 3, in the term and in its sign proof
    altered = text.replace("(int_pos 2 eq_refl)", "(int_pos 3 eq_refl)", 1)
    head, _, tail = altered.partition("(int_pos 3 eq_refl)")
    head = head[: head.rindex("(2 * ")] + "(3 * " + head[head.rindex("(2 * ") + 5:]
    path.write_text(head + "(int_pos 3 eq_refl)" + tail)
    assert compile_inner_product(tmp_path).returncode == 0
    rejected = subprocess.run([COQC, "-R", ".", LOGICAL, "small.v"], cwd=tmp_path,
                              capture_output=True, text=True, check=False)
    assert rejected.returncode != 0
    assert "Error" in rejected.stdout + rejected.stderr
    path.write_text(text)  # the export as written does compile
    accepted = subprocess.run([COQC, "-R", ".", LOGICAL, "small.v"], cwd=tmp_path,
                              capture_output=True, text=True, check=False)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


def test_export_is_deterministic_and_renames_coq_names(
    small: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    first = export_and_check(tmp_path / "a", [small], compile=False)
    second = export_and_check(tmp_path / "b", [small], compile=False)
    names = sorted(p.name for p in first.directory.iterdir())
    assert names == ["InnerProduct.v", "_CoqProject", "small.v"]
    for name in names:
        assert (first.directory / name).read_text() == (second.directory / name).read_text()
    text = (first.directory / "small.v").read_text()
    # `R` would shadow Coq's type R and `fun` is a keyword: both are renamed
    assert "forall (a R' : R)," in text and "forall (fun' : R)," in text
    assert set(first.results.values()) == {NOT_RUN}


def test_naturals_are_nat_and_runs_have_per_update_sequences(
    small: tuple[str, object, list[object]], tmp_path: Path
) -> None:
    """The semantics of naturals and of induction over runs, as Coq statements."""
    text = export_and_check(tmp_path, [small], compile=False).directory.joinpath(
        "small.v").read_text()
    # a natural ranges over nat (not over the nonnegative reals)
    assert "Theorem step_count : forall (t : nat),\n    ((INR t) + 1) > 0." in text
    # the run: x, eta, g are declared constants; u, y are read by the update, so fresh at
    # every update (sequences); w is iterated; the counter is INR n'
    assert ("Theorem step_scaled_lower : forall (x : V) (g eta : R) (w u : nat -> V) "
            "(y : nat -> R) (N' : nat),") in text
    # a run of N' updates: its facts at the updates n' < N', the invariant at the states
    assert "(forall n', (n' < N')%nat -> ((y n') * (ip (u n') x)) >= g) ->" in text
    assert "forall n', (n' <= N')%nat -> (ip (w n') x) >= ((eta * (INR n')) * g)." in text


def test_without_coqc_the_project_is_written_and_steps_say_not_run(
    small: tuple[str, object, list[object]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    run = export_and_check(tmp_path, [small])
    assert run.seconds is None
    assert set(run.for_proof("small").values()) == {NOT_RUN}
    assert (tmp_path / "_CoqProject").read_text().splitlines() == [
        f"-R . {LOGICAL}", "InnerProduct.v", "small.v"]


def test_the_project_replaces_a_link_never_the_file_it_names(
    small: tuple[str, object, list[object]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team 32 F6: links in the folder (`small.v -> ../proof.toml`, `InnerProduct.v`
    and `_CoqProject` to other files) had the export written through them, over the files
    they name; now each link is replaced by the file, and those files are as they were."""
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    out = tmp_path / "coq"
    out.mkdir()
    for name in ("small.v", "InnerProduct.v", "_CoqProject"):
        (tmp_path / f"{name}.kept").write_text("precious")
        (out / name).symlink_to(tmp_path / f"{name}.kept")
    export_and_check(out, [small])
    for name in ("small.v", "InnerProduct.v", "_CoqProject"):
        assert (tmp_path / f"{name}.kept").read_text() == "precious"
        assert not (out / name).is_symlink() and (out / name).read_text() != "precious"


@needs_coqc
def test_check_cli_json_has_a_coq_field_per_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "small.toml"
    file.write_bytes(SMALL)
    code = main(["check", str(file), "--json", "--time-limit", "60", "--coq",
                 str(tmp_path / "out")])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {s["id"]: s["coq"] for s in data["steps"]} == dict.fromkeys(STEPS, "checked")
    assert (tmp_path / "out" / "small.v").is_file()


def test_check_cli_refuses_a_coq_dir_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "small.toml"
    file.write_bytes(SMALL)
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    code = main(["check", str(file), "--coq", str(blocker)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "not a directory" in err



#: Names coqc 8.16 refuses as binders (red team 4: `Axiom`, next to `exact`, broke coqc while
#: `check --coq` exited 0), and `exact`, a tactic name coqc accepts: every step must check.
KEYWORDS = b"""
title = "coq keywords"
vectors = ["Theorem", "by"]
scalars = ["exact", "Axiom", "CoFixpoint", "Definition", "Fixpoint", "Hypothesis",
           "Parameter", "Variable", "until"]

[[step]]
id = "s1"
given = ["exact >= 0", "Axiom >= exact", "CoFixpoint*Definition >= 0", "until == Fixpoint"]
claim = "Axiom + Hypothesis**2 + Parameter**2 + until - Fixpoint >= 0"

[[step]]
id = "s2"
claim = "dot(Theorem, by) <= norm2(Theorem) + norm2(by) + Variable**2"
hints = ["Theorem - by"]
"""


@needs_coqc
def test_names_that_are_coq_keywords_are_renamed_and_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proof = tmp_path / "keywords.toml"
    proof.write_bytes(KEYWORDS)
    assert main(["check", str(proof), "--coq", str(tmp_path / "coq")]) == 0
    out = capsys.readouterr().out
    assert "coq keywords s1: checked" in out and "coq keywords s2: checked" in out
    text = (tmp_path / "coq" / "keywords.v").read_text()
    assert "(Axiom' " in text or " Axiom' " in text
    assert "Theorem' by'" in text or "by' Theorem'" in text


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
@needs_coqc
def test_a_step_coqc_rejects_makes_check_and_audit_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team 4: coqc failed on an exported step and `check --coq` exited 0. A keyword left
    unrenamed (the printer's reserved names emptied) is a real coqc rejection."""
    from verify.coq import printer

    proof = tmp_path / "keywords.toml"
    proof.write_bytes(KEYWORDS)
    monkeypatch.setattr(printer, "RESERVED", frozenset())
    assert main(["check", str(proof), "--coq", str(tmp_path / "c")]) == 1
    out = capsys.readouterr().out
    assert "coq keywords s1: error:" in out and "rejected by coqc" in out
    assert main(["audit", str(proof), "--budget", "small", "--jobs", "1",
                 "--coq", str(tmp_path / "a")]) == 1
    out = capsys.readouterr().out
    assert "coq keywords s1: error:" in out
    monkeypatch.undo()  # the same proof, renamed: checked, exit 0
    assert main(["check", str(proof), "--coq", str(tmp_path / "c")]) == 0


def test_module_names_are_distinct_deterministic_and_never_reserved() -> None:
    """Red team 21, F1: `a-b` and `a_b` gave one module (one `.v` file, one proof's coqc
    results printed for the other); `InnerProduct` overwrote the preamble."""
    from verify.coq.build import RESERVED, module_names

    assert module_names(["a_b", "a-b", "a_b_2", "A.b"]) == ["a_b", "a_b_2", "a_b_2_2", "A_b_3"]
    assert module_names(["canonical-online", "canonical_online"]) == [
        "canonical_online", "canonical_online_2"]
    assert module_names(["InnerProduct", "innerproduct", "Reals", "1x"]) == [
        "InnerProduct_2", "innerproduct_3", "Reals_2", "p_1x"]
    assert not {n.casefold() for n in module_names(sorted(RESERVED))} & {
        n.casefold() for n in RESERVED}


TRUE_ONE = b'title = "true one"\nscalars = ["a"]\n[[step]]\nid = "k"\n' + (
    b'given = ["a >= 1"]\nclaim = "a >= 0"\n')
FALSE_ONE = TRUE_ONE.replace(b"true", b"false").replace(b'"a >= 1"', b'"a >= 0"').replace(
    b'claim = "a >= 0"', b'claim = "a >= 1"')


@needs_coqc
def test_proofs_with_one_module_name_keep_their_own_coq_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Red team 21, F1 (regression): `a_b` (true) and `a-b` (its step `k` refuted) audited
    together wrote one `a_b.v`; the refuted `k` was printed `coq: checked` and the proved one
    `not run: coqc is not on PATH`. Each proof now has its own module and its own results;
    a proof named `InnerProduct` no longer overwrites the axioms (coqc rejected a true step)."""
    (tmp_path / "a_b.toml").write_bytes(TRUE_ONE)
    (tmp_path / "a-b.toml").write_bytes(FALSE_ONE)
    out = tmp_path / "out"
    code = main(["audit", str(tmp_path / "a_b.toml"), str(tmp_path / "a-b.toml"), "--json",
                 "--budget", "small", "--jobs", "1", "--coq", str(out)])
    data = json.loads(capsys.readouterr().out)
    coq = {p["id"]: {s["id"]: (s["symbolic"]["status"], s["coq"]) for s in p["steps"]}
           for p in data["proofs"]}
    assert code == 1  # a refuted step: the audit has findings
    assert coq["a_b"]["k"] == ("proved", "checked")
    status, result = coq["a-b"]["k"]
    assert status == "refuted" and result.startswith("not exported:"), (status, result)
    assert (out / "_CoqProject").read_text().splitlines() == [
        f"-R . {LOGICAL}", "InnerProduct.v", "a_b.v", "a_b_2.v"]
    assert "a >= 1" in (out / "a_b.v").read_text() and "false one" in (out / "a_b_2.v").read_text()

    (tmp_path / "InnerProduct.toml").write_bytes(TRUE_ONE)
    assert main(["check", str(tmp_path / "InnerProduct.toml"), "--coq", str(tmp_path / "c")]) == 0
    assert "coq InnerProduct k: checked" in capsys.readouterr().out
    assert "Axiom" in (tmp_path / "c" / "InnerProduct.v").read_text()
    assert (tmp_path / "c" / "InnerProduct_2.v").is_file()


#: Titles that made coqc reject every step of the file (red team 12, F: the title's `(*` opened
#: a nested comment, its `"` a string inside the header comment: "Unterminated comment").
NASTY_TITLES = ('Lemma (*draft*)', 'The "margin proof', '(**)', '((* a *))', '*)(*', '"(*"',
                'inj *) Redirect "x" Print nat. (* x', '( *', 'end (', '*')


@pytest.mark.parametrize("text", [*NASTY_TITLES, "sum(j in P, a[j+c]) >= 0 (* ok *)"])
def test_comment_text_has_no_comment_delimiter_and_no_quote(text: str) -> None:
    """Coq's lexer nests comments on `(*` and opens a string on `"` inside one: with none of
    `(*`, `*)`, `"` left, user text is inert in a comment (the exporter writes it between
    `(* ` or `(** ` and a space or a new line, so it joins no delimiter either)."""
    from verify.coq.statement import comment

    inside = comment(text)
    assert "(*" not in inside and "*)" not in inside and '"' not in inside, inside
    assert comment("Lemma (*draft*)") == "Lemma ( *draft* )"  # still readable
    assert comment('The "margin" proof') == "The 'margin' proof"


@needs_coqc
def test_a_title_with_comment_delimiters_or_quotes_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression (red team 12, F): `title = "Lemma (*draft*)"` or a title with a `"` made
    coqc reject every step ("Lexer: Unterminated comment"). All of them in one title: checked,
    the title readable in the header."""
    title = " ".join(NASTY_TITLES)
    proof = tmp_path / "titled.toml"
    proof.write_text(f'title = {json.dumps(title)}\nscalars = ["a"]\n'
                     '[[step]]\nid = "s"\nclaim = "a*a >= 0"\n', encoding="utf-8")
    assert main(["check", str(proof), "--coq", str(tmp_path / "coq")]) == 0
    out = capsys.readouterr().out
    assert "s: checked" in out and "rejected" not in out
    text = (tmp_path / "coq" / "titled.v").read_text()
    assert text.startswith("(** Lemma ( *draft* ) The 'margin proof ( ** ) ")




@needs_coqc
def test_a_vacuous_step_is_said_checked_vacuously_wherever_coq_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 28's open aside: for a step the kernel marks VACUOUS, coqc checks a theorem
    that is vacuously true too, and `coq ... both: checked` (the JSON's `coq`, the reports'
    `Coq: checked`, the summary's count) read as evidence for its claim. Every place that
    reports the Coq result of such a step says it is vacuous; the other steps are unchanged.
    An induction no run leaves the start of says what its theorem then claims."""
    said = ("checked, vacuously: the kernel found its hypotheses contradictory, so the "
            "theorem holds whatever it claims")
    proof = tmp_path / "cases.toml"
    proof.write_text(TWO_CASES.format(op="<"), encoding="utf-8")  # VACUOUS
    assert main(["check", str(proof), "--coq", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    assert "coq cases far: checked\n" in out and "coq cases near: checked\n" in out
    assert f"coq cases both: {said}\n" in out
    assert re.search(r"coq: 3/3 steps checked by coqc in [0-9.]+ s, 1 of them vacuously, as "
                     r"the kernel's VACUOUS steps are \(project in ", out), out
    markdown = tmp_path / "cases.md"
    assert main(["audit", str(proof), "--budget", "small", "--jobs", "1", "--json",
                 "--coq", str(tmp_path / "a"), "--markdown", str(markdown)]) == 0
    steps = json.loads(capsys.readouterr().out)["proofs"][0]["steps"]
    assert {s["id"]: s["coq"] for s in steps} == {"far": "checked", "near": "checked",
                                                  "both": said}
    report = markdown.read_text()
    assert report.count(f"Coq: {said}") == 1 and report.count("Coq: checked\n") == 2
    assert "1 of them vacuously, as the kernel's VACUOUS steps are" in report
    never = tmp_path / "never.toml"
    never.write_text(NEVER_UPDATES)
    assert main(["check", str(never), "--coq", str(tmp_path / "n")]) == 0
    assert ("coq never bound: checked, vacuously: the kernel found that no run leaves its "
            "start state, so the theorem claims at most the invariant at the start\n"
            ) in capsys.readouterr().out
