"""The audit report against the JSON Schema shipped in the package."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from verify import schema
from verify.audit.job import run_audit
from verify.audit.report import to_json

Report = dict[str, Any]


@pytest.fixture(scope="module")
def report() -> Report:
    audit = run_audit(["canonical-online", "joeyonng-online"], budget="small", seed=2)
    return json.loads(json.dumps(to_json(audit)))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    audit_schema = schema.load("audit")
    jsonschema.Draft202012Validator.check_schema(audit_schema)
    return jsonschema.Draft202012Validator(audit_schema)


def _steps(report: Report) -> list[Report]:
    return [s for p in report["proofs"] for s in p["steps"]]


def test_a_real_report_is_valid_and_exercises_every_branch(report: Report, validator):
    assert list(validator.iter_errors(report)) == []
    steps = _steps(report)
    assert {s["symbolic"]["status"] for s in steps} == {"proved", "refuted"}
    assert {s["numeric"]["status"] for s in steps} == {"held", "violated", "not-run"}
    assert any(isinstance(s["symbolic"]["certificate"], list) for s in steps)
    assert any(s["numeric"]["counterexample"] for s in steps)


def _first(report: Report, symbolic: str | None = None, numeric: str | None = None) -> Report:
    return next(s for s in _steps(report)
                if symbolic in (None, s["symbolic"]["status"])
                and numeric in (None, s["numeric"]["status"]))


def _drop_statement(r: Report) -> None:
    del _first(r)["statement"]


def _unknown_status(r: Report) -> None:
    _first(r)["symbolic"]["status"] = "maybe"


def _bad_proof_status(r: Report) -> None:
    r["proofs"][0]["status"] = "fine"


def _proved_without_certificate(r: Report) -> None:
    _first(r, symbolic="proved")["symbolic"]["certificate"] = None


def _refuted_without_counterexample(r: Report) -> None:
    _first(r, symbolic="refuted")["symbolic"]["counterexample"] = None


def _violated_without_violations(r: Report) -> None:
    _first(r, numeric="violated")["numeric"]["violations"] = 0


def _float_slack(r: Report) -> None:
    _first(r, numeric="held")["numeric"]["min_slack"] = 0.5


def _float_coordinate(r: Report) -> None:
    cex = _first(r, symbolic="refuted")["symbolic"]["counterexample"]
    cex["scalars"][next(iter(cex["scalars"]))] = "0.5"


def _extra_key(r: Report) -> None:
    _first(r)["seconds"] = 1.0


def _summary_without_passed(r: Report) -> None:
    del r["summary"]["passed"]


@pytest.mark.parametrize("breakage", [
    _drop_statement, _unknown_status, _bad_proof_status, _proved_without_certificate,
    _refuted_without_counterexample, _violated_without_violations, _float_slack,
    _float_coordinate, _extra_key, _summary_without_passed,
])
def test_a_broken_report_is_rejected(report: Report, validator,
                                     breakage: Callable[[Report], None]):
    broken = copy.deepcopy(report)
    breakage(broken)
    assert list(validator.iter_errors(broken)) != []
