"""The separators kept for the campaign's sources (`verify.store.separators`): current, used
only once they check, and enough that the default audit decides no data with the LP."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import perceptron.geometry.separability as separability_module
from perceptron.dataset import Dataset
from perceptron.geometry.separability import Inseparable, fingerprint, known_json
from verify.runs import cyclic
from verify.store import separators

F = Fraction
XOR = Dataset(((F(1), F(1)), (F(-1), F(-1)), (F(1), F(-1)), (F(-1), F(1))), (1, 1, -1, -1))


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deciding anything without a kept certificate fails the test."""
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("decided without a kept certificate")

    monkeypatch.setattr(separability_module, "quick_separability", refuse)
    monkeypatch.setattr(separability_module, "exact_ldp", refuse)
    cyclic._gordan.cache_clear()
    yield
    cyclic._gordan.cache_clear()


def test_the_kept_separators_are_what_the_sources_decide_today() -> None:
    assert separators.problems() == []


def test_the_default_audits_data_are_all_decided_from_kept_certificates(no_solver: None
                                                                         ) -> None:
    separators.walk(("default",))  # no data set is decided afresh (the real ones if here)


def test_another_seed_decides_its_data_afresh(no_solver: None) -> None:
    with pytest.raises(AssertionError, match="without a kept certificate"):
        separators.walk(("small",), seed=1000)  # scenario i from seed + i


def test_a_tampered_kept_certificate_is_not_used(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = Inseparable((F(1), F(0), F(1), F(0)))  # 1 * (1, 1) - 1 * (1, -1) != 0
    assert not wrong.check(XOR)
    kept = tmp_path / "separators.json"
    kept.write_text(known_json({fingerprint(XOR): wrong}), encoding="utf-8")
    monkeypatch.setattr(cyclic, "KEPT", kept)
    cyclic._kept.cache_clear()
    try:
        found = cyclic.decided(XOR)
    finally:
        cyclic._kept.cache_clear()
    assert isinstance(found, Inseparable) and found.check(XOR) and found != wrong
