"""An induction whose sums' bodies read its counter, replayed in Coq (issue 31's glue).

The iterate as the sum of its updates, `norm2(w - w0 - eta*sum(k in 1..t, yu[k]*xu[k])) == 0`,
is in the kernel's form a double sum over `1..t` (the squared norm of the sum): the inner
sum, in the outer sum's body, has the counter in its bounds. The export refused it ("a sum
whose body reads the induction's counter"), and forced, coqc rejected it: a rewrite of the
inner sum's bounds cannot reach under the outer sum's `fun` (its function reads the outer
index). The bounds are now replaced as closed terms (`replace ... by zbounds`), which reaches
them there, and the invariant's sums whose bodies read the iterate are brought to the
kernel's reading with their bounds at `0` and `t + 1`. An update's fact may read the counter
in a sum's body too (the orthonormal runs' count: each update's example orthogonal to the
earlier ones). What is still refused says why: the counter read in the invariant's body
otherwise (a member's index `z[i + t]`), or in a split's case.
Compiling skips without coqc; a false variant must not compile."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.library import load_builtin
from proofs.proof_file import parse_proof
from verify.coq import NOT_RUN, export_and_check
from verify.proof_checker import check_proof

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|nia|Admitted|admit|Axiom)\b")

HISTORY = b"""
title = "the iterate as the sum of its updates"
vectors = ["w", "w0", "xu"]
scalars = ["t", "eta", "yu", "s", "c", "z"]
naturals = ["t"]
indexed = ["xu", "yu", "z"]

[[step]]
id = "iterate-from-zero"
claim = "norm2(w - sum(k in 1..t, yu[k]*xu[k])) == 0"
[step.induction]
variable = "t"
constants = ["xu", "yu"]
base = { w = "0*w" }
step = { w = "w + yu[t+1]*xu[t+1]" }

[[step]]
id = "iterate"
claim = "norm2(w - w0 - eta*sum(k in 1..t, yu[k]*xu[k])) == 0"
[step.induction]
variable = "t"
constants = ["w0", "eta", "xu", "yu"]
base = { w = "w0" }
step = { w = "w + eta*yu[t+1]*xu[t+1]" }

# the counter read in a body other than by a nested sum's bounds: refused, and says so
[[step]]
id = "member-of-counter"
claim = "s == sum(i in 1..1, z[i+t])"
[step.induction]
variable = "t"
constants = ["z"]
base = { s = "z[1]" }
step = { s = "z[t+2]" }

# the counter read in a sum's body in an update's fact (the update's own member): replayed
[[step]]
id = "fact-reads-counter"
claim = "s == sum(i in 1..t, z[i])"
[step.induction]
variable = "t"
constants = ["z"]
base = { s = "0" }
step = { s = "s + c" }
given = ["c == sum(i in 1..1, z[i+t])"]

# the orthonormal runs' count (tightness-orthonormal's glue): each update's example a unit
# vector orthogonal to the earlier ones, an update fact whose sum reads the counter
[[step]]
id = "orthonormal-count"
claim = "norm2(sum(k in 1..t, yu[k]*xu[k])) == t"
[step.induction]
variable = "t"
constants = ["xu", "yu"]
base = { s = "0" }
step = { s = "s" }
given = ["yu[t+1]**2 == 1", "norm2(xu[t+1]) == 1", "sum(k in 1..t, yu[k]*dot(xu[k], xu[t+1])) == 0"]

# the counter read in a sum's body in a split's case: refused, and says so
[[step]]
id = "split-reads-counter"
claim = "s == sum(i in 1..t, z[i])"
split = { on = "sum(i in 1..1, z[i+t])" }
[step.induction]
variable = "t"
constants = ["z"]
base = { s = "0" }
step = { s = "s + z[t+1]" }
"""

#: False variants of history.v, each (what it breaks, the text, its replacement, how often
#: the text occurs): coqc must reject each.
FALSE_HISTORY = (
    # a run that adds the next update's example, not this one's: its iterate is not the sum
    ("update", "(vscal (yu ((INR n') + 1)) (xu ((INR n') + 1)))",
     "(vscal (yu ((INR n') + 1)) (xu ((INR n') + 2)))", 1),
    # the invariant after an update with the inner sum of its double sum one term short
    ("inner bound", "(fun j'2 => ((zsum ((1))%Z ((Z.of_nat (S t)))%Z",
     "(fun j'2 => ((zsum ((1))%Z ((Z.of_nat t))%Z", 3),
    # the orthonormal count's new example orthogonal to the next one's, not to the earlier
    # ones: the count no longer follows
    ("orthogonal", "(fun j'1 => ((ip (xu j'1) (xu ((INR n') + 1))) * (yu j'1)))",
     "(fun j'1 => ((ip (xu j'1) (xu ((INR n') + 2))) * (yu j'1)))", 1),
)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    proof = parse_proof(HISTORY, "history.toml")
    report = check_proof(proof)
    assert report.status == "proved"
    directory = tmp_path_factory.mktemp("coq")
    run = export_and_check(directory, [("history", proof, report.steps)], compile=False)
    return directory, run.for_proof("history")


def test_the_iterate_as_the_sum_of_its_updates_is_exported(
        exported: tuple[Path, dict[str, str]]) -> None:
    directory, results = exported
    assert {results[s] for s in ("iterate-from-zero", "iterate", "fact-reads-counter",
                                 "orthonormal-count")} == {NOT_RUN}
    text = (directory / "history.v").read_text()
    # the double sum over 1..t, its inner sum in the outer one's body, over nat and in the
    # step lemma after the update
    assert ("(zsum ((1))%Z ((Z.of_nat n'))%Z (fun j'2 => ((zsum ((1))%Z ((Z.of_nat n'))%Z "
            "(fun j'1 => ((ip (xu j'1) (xu j'2)) * (yu j'1)))) * (yu j'2))))" in text)
    assert text.count("(fun j'2 => ((zsum ((1))%Z ((Z.of_nat (S t)))%Z") == 3
    # its bounds replaced as closed terms, under the outer sum's `fun` too
    assert text.count("replace ((Z.of_nat 0%nat))%Z with ((0))%Z by zbounds.") == 4
    assert text.count("replace ((Z.of_nat (S nat'0)))%Z with ((Z.of_nat nat'0) + (1))%Z by "
                      "zbounds.") == 4
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))


def test_what_is_not_replayed_yet_says_why(exported: tuple[Path, dict[str, str]]) -> None:
    _, results = exported
    assert results["member-of-counter"] == (
        "not exported: a sum whose body reads the induction's counter other than in a nested "
        "sum's bounds is not replayed in Coq yet")
    assert results["split-reads-counter"] == (
        "not exported: a sum whose body reads the induction's counter is not replayed in Coq "
        "yet")


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
@pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")
def test_the_iterate_compiles_and_false_variants_do_not(
        exported: tuple[Path, dict[str, str]]) -> None:
    directory = exported[0]
    path = directory / "history.v"
    text = path.read_text()

    def compiles(source: str) -> bool:
        return coqc_compiles(directory, "history.v", source, COQC)  # type: ignore[arg-type]

    try:
        assert compile_inner_product(directory, COQC).returncode == 0  # type: ignore[arg-type]
        assert compiles(text)
        for what, old, new, count in FALSE_HISTORY:
            assert text.count(old) == count, what
            assert not compiles(text.replace(old, new)), what
    finally:
        path.write_text(text)


@pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")
@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_the_builtin_online_history_is_checked_by_coqc(tmp_path: Path) -> None:
    """The library's step (`online-history`, issue 31's glue) as the audit's `--coq` exports
    it: every step `checked` by coqc (on main: `not exported`, the refusal above)."""
    proof = load_builtin("online-history")
    report = check_proof(proof)
    assert report.status == "proved"
    run = export_and_check(tmp_path, [("online-history", proof, report.steps)])
    assert run.for_proof("online-history") == {"iterate-is-sum-of-updates": "checked"}
