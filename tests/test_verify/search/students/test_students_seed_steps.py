"""The seeds' proof steps as students and lecturers write them (gaps35): every step of the
shared table `cases.steps.SEEDS35` (and its sums and inductions) gets its expected verdict at
the default budget, every false twin is refuted or unknown and never proved, and the true
steps still unknown (`SEEDS35_OPEN`) are never refuted. Of the 158 steps, 13 true ones were
unknown on main (fc981b9), 10 of them proved now (the others are in `SEEDS35_OPEN`); the
regression tests of each fix are beside the code they test (tests/test_verify/sums/
test_sums_termwise_coefficients.py, tests/test_verify/search/students/test_students_zero_norm.py).

Checking the two large files costs minutes of CPU, so they run under `slow`; the inductions
are quick."""

from __future__ import annotations

import pytest
from cases.steps import SEEDS35, SEEDS35_EXPECTED, SEEDS35_INDUCTIONS, SEEDS35_OPEN, SEEDS35_SUMS

from proofs.proof_file import parse_proof
from verify.proof_checker import ProofReport, check_proof

FILES = {"direct": SEEDS35, "sums": SEEDS35_SUMS, "inductions": SEEDS35_INDUCTIONS}
_DONE: dict[str, ProofReport] = {}


def checked(name: str) -> dict[str, object]:
    if name not in _DONE:
        _DONE[name] = check_proof(parse_proof(FILES[name].encode(), f"seeds35-{name}.toml"))
    return {s.step.id: s for s in _DONE[name].steps}


def ids(name: str) -> list[str]:
    return [s.id for s in parse_proof(FILES[name].encode(), f"seeds35-{name}.toml").steps]


def cases() -> list[object]:
    out = []
    for name in FILES:
        marks = () if name == "inductions" else (pytest.mark.slow,)
        out += [pytest.param(name, step, id=f"{name}/{step}", marks=marks) for step in ids(name)]
    return out


def test_the_tables_cover_every_step_once() -> None:
    every = [step for name in FILES for step in ids(name)]
    assert len(every) == len(set(every)) == 158
    assert set(every) == set(SEEDS35_EXPECTED) | set(SEEDS35_OPEN)
    assert not set(SEEDS35_EXPECTED) & set(SEEDS35_OPEN)


@pytest.mark.parametrize(("name", "step"), cases())
def test_each_seed_step_gets_its_expected_verdict(name: str, step: str) -> None:
    report = checked(name)[step]
    if step in SEEDS35_OPEN:
        assert report.status != "refuted", report.message  # true: never refuted
    elif SEEDS35_EXPECTED[step] == "not-proved":
        assert report.status != "proved", report.message
    else:
        assert report.status == SEEDS35_EXPECTED[step], report.message
