"""The certificate store (verify/store): whole and current for the built-in proofs, exact when
read back, and unable to change a verdict: a tampered entry is rejected by the kernel and the
judgement searched, a changed statement finds no entry, another search's store is not used."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest

from proofs.library import load_builtin
from verify.proof_checker import ProofReport, check_proof, check_step
from verify.render import json as serialize
from verify.store import codec, write
from verify.store.library import FOLDER, Store, load, read_file, search_fingerprint

PROOF = "ng-cs229"  # small, with refuted steps (counterexamples) and proved ones


def reports(store: Store | None, proof_id: str = PROOF) -> ProofReport:
    return check_proof(load_builtin(proof_id), store=store)


def same(a: ProofReport, b: ProofReport) -> bool:
    """The reports' JSON alike except their timings."""
    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "seconds"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(serialize.report(a)) == strip(serialize.report(b))


def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "certificates"
    shutil.copytree(FOLDER, folder)
    return folder


def edit(folder: Path, proof_id: str, change) -> None:  # type: ignore[no-untyped-def]
    path = folder / f"{proof_id}.json"
    document = json.loads(path.read_text())
    change(document["entries"])
    path.write_text(json.dumps(document))


def test_every_built_in_judgement_has_a_current_entry() -> None:
    """CI's check: every judgement of every built-in proof is answered from the store, the
    kernel accepts every entry, no entry is stale, and the store is this search's. On
    failure, regenerate: python -m verify.store."""
    assert write.problems() == []


def test_the_store_answers_and_the_report_is_the_searchs() -> None:
    searched, stored = reports(None), reports(load())
    assert same(searched, stored)
    assert all(s.recalled and not s.searched for s in stored.steps)
    assert not any(s.recalled for s in searched.steps)


def test_a_stale_or_missing_entry_is_named(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    removed: list[str] = []

    def drop_first_and_add_an_orphan(entries: list[dict]) -> None:  # type: ignore[type-arg]
        removed.append(entries[0]["where"])
        orphan = dict(entries.pop(0), key="0" * 64, where="no/such: statement")
        entries.append(orphan)

    edit(folder, PROOF, drop_first_and_add_an_orphan)
    found = write.problems(folder, [PROOF])
    assert any("stale entry no/such: statement" in line for line in found), found
    assert any("searched (no stored certificate)" in line
               and line.startswith(removed[0].split(":")[0]) for line in found), found


def test_a_tampered_certificate_is_rejected_and_searched(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    tampered: list[str] = []

    def tamper(entries: list[dict]) -> None:  # type: ignore[type-arg]
        for entry in entries:
            certificate = entry["certificate"]
            if entry["status"] == "proved" and certificate["products"] and not tampered:
                certificate["products"][0]["coeff"] = "7/3"  # no longer an identity
                tampered.append(entry["where"])
            elif entry["status"] == "refuted" and len(tampered) == 1:
                scalars = entry["counterexample"]["scalars"]
                entry["counterexample"]["scalars"] = dict.fromkeys(scalars, "1/7")
                tampered.append(entry["where"])

    edit(folder, PROOF, tamper)
    assert len(tampered) == 2
    store = load(folder)
    stored = reports(store)
    notes = [n for s in stored.steps for n in s.searched]
    rejected = [n for n in notes if "the kernel rejected the stored" in n]
    assert len(rejected) == 2, notes
    assert same(stored, reports(None))  # the search ran instead: the same verdicts, evidence


def test_a_store_of_another_search_is_not_used(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    path = folder / f"{PROOF}.json"
    document = json.loads(path.read_text())
    document["search"] = "0" * 64
    path.write_text(json.dumps(document))
    store = load(folder)
    assert store.stale is not None and "another version of the search" in store.stale
    stored = reports(store)
    assert not any(s.recalled for s in stored.steps)
    assert all("another version of the search" in n for s in stored.steps for n in s.searched)
    assert write.problems(folder, [PROOF])[0].startswith("the store is stale")


def test_the_store_files_are_this_searchs() -> None:
    for path in sorted(FOLDER.glob("*.json")):
        assert read_file(path)[0] == search_fingerprint(), path.name


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')", "x.y", "x**1000", "x**y", "1.5*x", "x/y", "x/0",
    "f(x)", "dot(x, 2)", "lambda: 1", "[x]", "x if y else z", "1e5", "x @ y", "",
])
def test_the_reader_refuses_anything_but_a_polynomial(text: str) -> None:
    with pytest.raises(codec.StoreFormatError):
        codec.polynomial(text)


@pytest.mark.parametrize("text", ["1.5", "1e3", "x", "", "1/0", " 1"])
def test_the_reader_refuses_inexact_numbers(text: str) -> None:
    with pytest.raises(codec.StoreFormatError):
        codec.number(text)


def test_the_reader_reads_what_the_writer_wrote() -> None:
    import sympy

    from proofs.language.terms import gram, scalar

    x, y = scalar("x"), scalar("y")
    expr = sympy.Rational(3, 2) * x**2 * gram("b", "a") - y / 7 + 1
    assert codec.polynomial(serialize.polynomial(expr)) == expr
    assert str(codec.number("-3/4")) == "-3/4"


@pytest.mark.slow
def test_the_store_is_what_the_search_finds_today(tmp_path: Path) -> None:
    """Regenerated, the store is byte for byte the shipped one: no drift the fingerprint of
    the search's sources cannot see (another SciPy or Clarabel build proposing otherwise)."""
    folder = tmp_path / "certificates"
    write.regenerate(folder)
    for path in sorted(FOLDER.glob("*.json")):
        assert (folder / path.name).read_text() == path.read_text(), path.name


SETS = "chan-batch"  # its steps as written, with sums, are refuted on concrete sets
ON_SETS = ("misclassified-set", "batch-average")  # no uses; the second an equality's goal


def on_sets(store: Store | None) -> ProofReport:
    """The steps `ON_SETS` of `SETS` checked alone (they use no other step)."""
    proof = load_builtin(SETS)
    return ProofReport(proof.title, tuple(check_step(proof, proof.step(s), store=store)
                                          for s in ON_SETS))


@cache
def searched_on_sets() -> ProofReport:
    """`on_sets(None)`: the steps searched without the store, once per process (seconds; the
    search counts work, not time, so its report is the same each time)."""
    return on_sets(None)


def test_a_refutation_on_concrete_sets_comes_from_the_store() -> None:
    """The kernel refutes the step as written with the stored point; nothing is searched
    (before, the search ran every time, found nothing, and the sets were searched)."""
    stored, searched = on_sets(load()), searched_on_sets()
    assert [s.status for s in stored.steps] == ["refuted", "refuted"]
    assert all(s.recalled and not s.searched and s.refutation is not None
               for s in stored.steps), [s.searched for s in stored.steps]
    assert same(stored, searched)


def test_a_tampered_refutation_on_sets_is_rejected_and_searched(tmp_path: Path) -> None:
    folder = copy(tmp_path)

    def tamper(entries: list[dict]) -> None:  # type: ignore[type-arg]
        for entry in entries:
            if entry["purpose"] == "sets":
                families = entry["counterexample"]["families"]
                for members in families.values():  # every member zero: no longer false
                    for index, value in members.items():
                        members[index] = ["0"] * len(value) if isinstance(value, list) else "0"

    edit(folder, SETS, tamper)
    stored = on_sets(load(folder))
    notes = [n for s in stored.steps for n in s.searched]
    assert sum("the kernel rejected the stored counterexample" in n for n in notes) == 2, notes
    assert same(stored, searched_on_sets())  # searched instead: same verdicts and points


def test_an_entry_on_sets_proves_nothing(tmp_path: Path) -> None:
    """A sets entry turned into a proof (a certificate of the goal) is refused as such."""
    folder = copy(tmp_path)

    def prove(entries: list[dict]) -> None:  # type: ignore[type-arg]
        for entry in entries:
            if entry["purpose"] == "sets":
                entry.update(status="proved", counterexample=None,
                             certificate={"multiplier": [], "products": [], "linear": []})

    edit(folder, SETS, prove)
    stored = on_sets(load(folder))
    notes = [n for s in stored.steps for n in s.searched]
    assert [s.status for s in stored.steps] == ["refuted", "refuted"]
    assert sum("the kernel rejected the stored certificate" in n for n in notes) == 2, notes


def test_the_reader_reads_a_point_with_families() -> None:
    from fractions import Fraction

    from verify.kernel import Counterexample

    point = Counterexample({"N": Fraction(2)}, {"ts": (Fraction(1, 3),)},
                           {"x": {Fraction(1): (Fraction(-1),), Fraction(2): (Fraction(5, 2),)},
                            "y": {Fraction(1): Fraction(1)}})
    assert codec.counterexample(serialize.counterexample(point)) == point
    with pytest.raises(codec.StoreFormatError):
        codec.counterexample({"scalars": {}, "vectors": {}, "families": {"y": ["1"]}})


COUNT = '''title = "h1"
vectors = ["w"]
scalars = ["t", "YU"]
naturals = ["t"]
indexed = ["YU"]

[[step]]
id = "sum-count"
given = []
claim = "sum(k in 1..t, YU[k]**2) <= t"
'''


def test_a_note_says_the_concrete_sets_refuted_what_the_search_did_not(tmp_path: Path
                                                                       ) -> None:
    """Red team 19 F9: a step the search leaves unknown and the concrete sets refute had the
    note "the search finds neither a certificate nor a counterexample: nothing to store",
    written before the sets were searched; now its note says the sets refuted it, and the
    sets' own note names a counterexample, not a certificate. Neither is a missing entry."""
    from proofs.proof_file import load_proof
    from verify.store.recall import NOTHING_TO_STORE, REFUTED_ON_SETS, unstored

    path = tmp_path / "h1.toml"
    path.write_text(COUNT)
    proof = load_proof(str(path))
    report = check_step(proof, proof.step("sum-count"), store=Store())
    assert report.status == "refuted" and report.refutation is not None
    assert report.searched == (f"sum-count: main: searched ({REFUTED_ON_SETS})",
                               "sum-count: main: on concrete sets: searched (no stored "
                               "counterexample)")
    assert not any(NOTHING_TO_STORE in note for note in report.searched)
    assert unstored(report.searched[0]) and not unstored(report.searched[1])


def test_a_search_on_sets_that_finds_nothing_says_so() -> None:
    """Its note speaks of a counterexample only (it seeks no certificate)."""
    from verify.kernel import Judgement
    from verify.store.recall import NO_COUNTEREXAMPLE_ON_SETS, keep, unstored
    from verify.verdict import Verdict

    store = Store(searched=["p: main: on concrete sets: searched (no stored counterexample)"])
    keep(store, "k", "sets", "p: main: on concrete sets", "whole",
         Verdict("unknown", None, None, "none", 0.0), Judgement((), None, (), ()))  # type: ignore[arg-type]
    assert store.searched == [f"p: main: on concrete sets: searched ({NO_COUNTEREXAMPLE_ON_SETS})"]
    assert unstored(store.searched[0])
