"""Exact data geometry: radius, margins, separability certificates, the certified maximum margin,
the three formulations of seed 003, on hand cases and on the acceptance datasets."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.geometry import max_margin as mm_module
from perceptron.geometry import separators as sep_module
from perceptron.geometry.bound import novikoff_bound
from perceptron.geometry.formulations import three_formulations
from perceptron.geometry.linear import (
    SingularSystem,
    _solve_fraction,
    _solve_padic,
    margin2,
    radius2,
    solve_integer_system,
)
from perceptron.geometry.max_margin import MaxMarginResult, NotSeparableError, exact_ldp, max_margin
from perceptron.geometry.separability import (
    Inseparable,
    Separable,
    fingerprint,
    known_json,
    read_known,
    separability,
)

F = Fraction
from verify.numeric.campaign import BENCH_DATA  # noqa: E402

DATA_DIR = BENCH_DATA


def bench(name: str) -> Dataset:
    """A dataset of the Coq perceptron benchmark, through the project's loader."""
    path = DATA_DIR / name
    if not path.exists():
        pytest.skip(f"benchmark data not found at {path}")
    from perceptron.io.loaders import load

    return load(str(path))


@pytest.fixture(scope="module")
def iris() -> Dataset:
    """Iris, setosa (label 1 in the file) versus the rest."""
    data = bench("iris_data_set")
    assert (data.n, data.d) == (150, 4)
    # setosa are the first 50 rows, the only ones with petal length < 2.5 cm
    setosa = [i for i in range(data.n) if data.X[i][2] < F(5, 2)]
    assert setosa == list(range(50))
    assert [i for i in range(data.n) if data.y[i] == 1] == setosa
    return data


@pytest.fixture(scope="module")
def sonar() -> Dataset:
    data = bench("rocks_and_mines")
    assert (data.n, data.d) == (208, 60)
    return data


@pytest.fixture(scope="module")
def versicolor_virginica() -> Dataset:
    """scikit-learn's iris, versicolor (+1) versus virginica (-1), as exact one-digit decimals."""
    datasets = pytest.importorskip("sklearn.datasets")
    iris = datasets.load_iris()
    rows, labels = [], []
    for x, t in zip(iris.data, iris.target, strict=True):
        if t in (1, 2):
            # each value is a one-digit decimal; its float's shortest repr is that decimal
            rows.append([F(repr(float(v))) for v in x])
            labels.append(1 if t == 1 else -1)
    assert all(v.denominator in (1, 2, 5, 10) for r in rows for v in r)
    return Dataset(tuple(tuple(r) for r in rows), tuple(labels), "iris versicolor/virginica")


XOR = Dataset.of([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], name="xor")
XOR_CENTRED = Dataset.of([[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1], name="xor+-")


# ---------------------------------------------------------------------------------------------
# radius and margins
# ---------------------------------------------------------------------------------------------


def test_radius_is_the_largest_squared_norm() -> None:
    data = Dataset.of([["1/2", 0], [3, 4], ["-1/3", "1/3"]], [1, -1, 1])
    assert radius2(data) == 25
    assert radius2(data.augmented()) == 26


def test_margin_is_signed_and_exact() -> None:
    data = Dataset.of([[2, 0], [-1, 1]], [1, -1])
    assert margin2(data, [1, 0]) == 1  # margins 2 and 1; ||w|| = 1
    assert margin2(data, [1, -1]) == 2  # margins 2 and 2, ||w||^2 = 2
    assert margin2(data, [-1, 0]) == -4  # misclassifies x_0 with y<w,x> = -2
    assert margin2(data, [0, 1], b=F(-1, 2)) == -F(1, 4)
    with pytest.raises(DataError):
        margin2(data, [0, 0])
    with pytest.raises(DataError):
        margin2(data, [1, 0, 0])


def test_margin_uses_the_minimum_over_examples() -> None:
    data = Dataset.of([[3, 0], [1, 1], [0, -5]], [1, 1, -1])
    # y<w,x> for w = (1, 1): 3, 2, 5; min 2, ||w||^2 = 2
    assert margin2(data, [1, 1]) == 2


# ---------------------------------------------------------------------------------------------
# the exact linear solver
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 5, 30, 70])
def test_padic_and_fraction_solvers_agree(n: int) -> None:
    rng = random.Random(n)
    a = [[rng.randint(-10**5, 10**5) for _ in range(n)] for _ in range(n)]
    b = [rng.randint(-3, 3) for _ in range(n)]
    num, den = _solve_padic(a, b)
    assert (num, den) == _solve_fraction(a, b)
    assert all(sum(r * x for r, x in zip(row, num, strict=True)) == bi * den
               for row, bi in zip(a, b, strict=True))


def test_singular_systems_are_refused() -> None:
    with pytest.raises(SingularSystem):
        solve_integer_system([[1, 2], [2, 4]], [1, 1])
    row = list(range(1, 41))
    a = [row, row] + [[(i * j) % 7 + (i == j) for j in range(40)] for i in range(38)]
    with pytest.raises(SingularSystem):
        solve_integer_system(a, [1] * 40)


# ---------------------------------------------------------------------------------------------
# separability
# ---------------------------------------------------------------------------------------------


def test_separable_data_get_a_checked_separator() -> None:
    data = Dataset.of([[1, 2], [2, 1], [-1, -1]], [1, 1, -1])
    result = separability(data)
    assert isinstance(result, Separable) and result.separable
    assert result.check(data)


@pytest.mark.parametrize(
    ("data", "support"),
    [
        (Dataset.of([[1, 0], [0, 0], [2, 2]], [1, -1, 1]), {1}),  # a zero example
        (Dataset.of([[1, 2], ["1/2", 3], [1, 2]], [1, -1, -1]), {0, 2}),  # opposite duplicates
    ],
)
def test_obvious_gordan_certificates(data: Dataset, support: set[int]) -> None:
    result = separability(data)
    assert isinstance(result, Inseparable) and not result.separable
    assert result.check(data)
    assert {i for i, v in enumerate(result.lam) if v} == support
    assert result.reason


def test_xor_is_not_separable() -> None:
    for data in (XOR.augmented(), XOR_CENTRED, XOR):
        result = separability(data)
        assert isinstance(result, Inseparable)
        assert result.check(data)


def test_a_known_certificate_decides_only_once_it_checks(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from perceptron.geometry import separability as separability_module

    found = separability(XOR_CENTRED)
    renamed = Dataset(XOR_CENTRED.X, XOR_CENTRED.y, "another name")
    assert fingerprint(renamed) == fingerprint(XOR_CENTRED)
    flipped = Dataset(XOR_CENTRED.X, (1, -1, 1, -1))  # separable by (1, 0)
    assert fingerprint(flipped) != fingerprint(XOR_CENTRED)
    known = read_known(known_json({fingerprint(XOR_CENTRED): found}))
    assert known == {fingerprint(XOR_CENTRED): found}  # read back exactly
    # kept for these data and checking: it decides, nothing is solved
    monkeypatch.setattr(separability_module, "quick_separability", None)
    monkeypatch.setattr(separability_module, "exact_ldp", None)
    assert separability(renamed, known) == found
    monkeypatch.undo()
    # kept for other data (a fingerprint collision, or a tampered file): decided afresh
    wrong = {fingerprint(flipped): found,
             fingerprint(XOR): Separable((F(1), F(1)))}  # misclassifies (1, 0)
    result = separability(flipped, wrong)
    assert isinstance(result, Separable) and result.check(flipped)
    result = separability(XOR, wrong)
    assert isinstance(result, Inseparable) and result.check(XOR)
    big = Separable((F(-3**80, 7**40), F(2**70 + 1, 3)))
    assert read_known(known_json({"k": big}))["k"].w == big.w


def test_single_class_is_separable_without_bias_unless_it_surrounds_the_origin() -> None:
    data = Dataset.of([[1, 0], [1, 1], [2, -1]], [1, 1, 1])
    assert separability(data).check(data)
    assert isinstance(separability(data), Separable)
    around = Dataset.of([[1, 0], [-1, 1], [-1, -1]], [-1, -1, -1])
    result = separability(around)
    assert isinstance(result, Inseparable) and result.check(around)


def test_exact_fallback_decides_when_the_lp_gives_nothing(
    monkeypatch: pytest.MonkeyPatch, iris: Dataset
) -> None:
    monkeypatch.setattr(sep_module, "_float_lp", lambda data: None)
    result = separability(iris)
    assert isinstance(result, Separable) and result.check(iris)
    assert result.method == "exact Lawson-Hanson"
    result = separability(XOR.augmented())
    assert isinstance(result, Inseparable) and result.check(XOR.augmented())


def test_exact_fallback_after_a_wrong_lp_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    data = Dataset.of([[1, 2], [2, 1], [-1, -1]], [1, 1, -1])
    # an untrusted solver that lies both ways: the result is still right and checked
    monkeypatch.setattr(sep_module, "_float_lp", lambda d: Separable((F(-1), F(0))))
    assert isinstance(separability(data), Separable) and separability(data).check(data)
    monkeypatch.setattr(sep_module, "_float_lp", lambda d: Inseparable((F(1), F(0), F(0))))
    assert isinstance(separability(data), Separable)


def test_certificate_checkers_reject_malformed_certificates() -> None:
    data = Dataset.of([[1, 2], [2, 1], [-1, -1]], [1, 1, -1])
    assert not Separable((F(1),)).check(data)
    assert not Separable((F(0), F(0))).check(data)
    assert not Inseparable((F(0), F(0), F(0))).check(data)
    assert not Inseparable((F(1), F(-1), F(0))).check(data)
    assert not Inseparable((F(1), F(1))).check(data)


# ---------------------------------------------------------------------------------------------
# maximum margin: hand cases
# ---------------------------------------------------------------------------------------------


def test_max_margin_in_one_dimension() -> None:
    data = Dataset.of([[1], [-2]], [1, -1])
    res = max_margin(data)
    assert (res.w, res.b, res.gamma2, res.optimal) == ((F(1),), 0, 1, True)
    assert res.check(data)
    res = max_margin(data, bias=True)
    # the free bias puts the boundary halfway: gamma = 3/2
    assert (res.w, res.b, res.gamma2, res.optimal) == ((F(2, 3),), F(1, 3), F(9, 4), True)
    assert res.alpha == (F(2, 9), F(2, 9))
    assert res.check(data)


def test_max_margin_of_two_symmetric_points() -> None:
    data = Dataset.of([[1, 1], [-1, -1]], [1, -1])
    res = max_margin(data)
    assert res.w == (F(1, 2), F(1, 2)) and res.gamma2 == 2 and res.check(data)


def test_max_margin_raises_with_a_gordan_certificate() -> None:
    with pytest.raises(NotSeparableError) as info:
        max_margin(XOR_CENTRED)
    assert info.value.certificate.check(XOR_CENTRED)
    with pytest.raises(NotSeparableError) as info:
        max_margin(XOR, bias=True)
    assert info.value.certificate.check(XOR.augmented())
    assert novikoff_bound(XOR, bias=True) is None


def test_a_single_class_with_a_free_bias_has_no_maximum_margin() -> None:
    data = Dataset.of([[1, 0], [2, 1]], [1, 1])
    with pytest.raises(DataError, match="same label"):
        max_margin(data, bias=True)
    # through the origin it has one, and by augmentation too
    assert max_margin(data).check(data)
    assert novikoff_bound(data, bias=True) is not None


def test_degenerate_support_is_handled_exactly() -> None:
    # collinear and repeated support vectors: the KKT system on all of them is singular
    data = Dataset.of([[1, 1], [2, 2], [1, 1], [-1, -1], [-3, -3], [0, 5]], [1, 1, 1, -1, -1, 1])
    for bias in (False, True):
        res = max_margin(data, bias=bias)
        assert res.optimal and res.check(data)
        assert res.gamma2 == exact_ldp(data, bias=bias).gamma2


def test_cold_exact_method_matches_the_warm_start(
    monkeypatch: pytest.MonkeyPatch, iris: Dataset
) -> None:
    warm = max_margin(iris)
    monkeypatch.setattr(mm_module, "_float_warm_start", lambda problem: ([], None))
    cold = max_margin(iris)
    assert cold.optimal and cold.check(iris)
    assert cold.gamma2 == warm.gamma2 and cold.w == warm.w


def test_a_capped_search_reports_a_verified_lower_bound(
    monkeypatch: pytest.MonkeyPatch, iris: Dataset
) -> None:
    best = max_margin(iris).gamma2
    monkeypatch.setattr(mm_module, "_float_warm_start", lambda problem: ([], None))
    for bias in (False, True):
        res = max_margin(iris, bias=bias, max_steps=1)
        assert not res.optimal
        assert res.check(iris)
        assert res.gamma2 > 0
        if not bias:
            assert res.gamma2 <= best
    # a lower bound never passes as an optimum
    assert not replace(res, optimal=True).check(iris)


def test_tampered_max_margin_certificates_are_rejected(iris: Dataset) -> None:
    res = max_margin(iris)
    assert res.check(iris)
    i = res.support[0]
    alpha = list(res.alpha)
    alpha[i] += F(1, 10**6)
    assert not replace(res, alpha=tuple(alpha)).check(iris)
    alpha = list(res.alpha)
    alpha[next(j for j in range(iris.n) if j not in res.support)] = F(1, 10**9)
    assert not replace(res, alpha=tuple(alpha)).check(iris)  # complementary slackness
    w = list(res.w)
    w[0] += F(1, 10**9)
    assert not replace(res, w=tuple(w)).check(iris)
    assert not replace(res, gamma2=res.gamma2 * 2).check(iris)
    assert not replace(res, b=F(1)).check(iris)  # no bias: b must be 0
    assert not replace(res, alpha=res.alpha[:-1]).check(iris)
    assert not MaxMarginResult((F(0),) * 4, F(0), (), F(1), False).check(iris)


# ---------------------------------------------------------------------------------------------
# acceptance: iris, sonar, versicolor/virginica, XOR
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bias", [False, True])
def test_iris_setosa_has_a_certified_optimal_margin(iris: Dataset, bias: bool) -> None:
    res = max_margin(iris, bias=bias)
    assert res.optimal and res.check(iris)
    assert 2 <= len(res.support) <= iris.d + 1
    assert separability(iris.augmented() if bias else iris).check(
        iris.augmented() if bias else iris)


@pytest.mark.parametrize("bias", [False, True])
def test_iris_perceptron_mistakes_within_the_exact_bound(iris: Dataset, bias: bool) -> None:
    from perceptron.algorithms.online import run_online
    from perceptron.conventions import Conventions

    bound = novikoff_bound(iris, bias=bias)
    target = iris.augmented() if bias else iris
    res = max_margin(target)
    assert res.optimal
    assert bound == radius2(target) / res.gamma2
    run = run_online(iris, Conventions(bias=bias), max_epochs=1000, keep_trace=False)
    assert run.converged
    assert 0 < run.mistakes <= bound


@pytest.mark.parametrize("bias", [False, True])
def test_sonar_has_a_certified_optimal_margin(sonar: Dataset, bias: bool) -> None:
    res = max_margin(sonar, bias=bias)
    assert res.optimal and res.check(sonar)
    assert 0 < res.gamma2 < F(1, 10**5)  # separable, but only just
    bound = novikoff_bound(sonar, bias=False)
    assert bound is not None and bound > 10**8


@pytest.mark.parametrize("bias", [False, True])
def test_versicolor_virginica_has_a_verified_gordan_certificate(
    versicolor_virginica: Dataset, bias: bool
) -> None:
    data = versicolor_virginica.augmented() if bias else versicolor_virginica
    result = separability(data)
    assert isinstance(result, Inseparable)
    assert result.check(data)
    with pytest.raises(NotSeparableError) as info:
        max_margin(versicolor_virginica, bias=bias)
    assert info.value.certificate.check(data)
    assert novikoff_bound(versicolor_virginica, bias=bias) is None


def test_tampered_gordan_certificates_are_rejected(versicolor_virginica: Dataset) -> None:
    data = versicolor_virginica.augmented()
    cert = separability(data)
    assert isinstance(cert, Inseparable) and cert.check(data)
    i = next(k for k, v in enumerate(cert.lam) if v)
    lam = list(cert.lam)
    lam[i] += F(1, 10**9)
    assert not replace(cert, lam=tuple(lam)).check(data)
    lam = list(cert.lam)
    lam[i] = -lam[i]
    assert not replace(cert, lam=tuple(lam)).check(data)


# ---------------------------------------------------------------------------------------------
# the three formulations of seed 003
# ---------------------------------------------------------------------------------------------


def test_three_formulations_agree_on_iris_and_sonar(iris: Dataset, sonar: Dataset) -> None:
    for data in (iris, iris.augmented(), sonar, sonar.augmented()):
        f = three_formulations(data)
        assert f.agree and f.check(data)
        assert f.gamma2 == max_margin(data).gamma2
        assert f.min_norm.value == 1 / (2 * f.gamma2)
        assert f.svm.c == max(max_margin(data).alpha)  # the sup over C is attained there


def test_three_formulations_agree_on_inseparable_data(versicolor_virginica: Dataset) -> None:
    for data in (XOR.augmented(), XOR_CENTRED, versicolor_virginica):
        f = three_formulations(data)
        assert f.agree and f.check(data)
        assert f.gamma2 == 0 and f.min_norm.value is None and f.svm.value is None


def test_formulation_certificates_reject_tampering(iris: Dataset) -> None:
    f = three_formulations(iris)
    bumped = tuple(v + F(1, 10**6) if i == 0 else v for i, v in enumerate(f.min_norm.w))
    assert not replace(f.min_norm, w=bumped).check(iris)
    assert not replace(f.svm, c=min(v for v in f.svm.a if v) / 2).check(iris)
    assert not replace(f.max_min, gamma2=f.max_min.gamma2 + 1).check(iris)
    assert not replace(f, min_norm=replace(f.min_norm, value=f.min_norm.value * 2)).check(iris)


def test_a_kept_entry_that_does_not_read_is_left_out_not_a_traceback() -> None:
    """Review 11: one entry `"lam": ["1/0"]` raised ZeroDivisionError from every lookup (each
    pool worker's traceback) instead of leaving those data to be decided afresh."""
    good = Separable((F(1), F(-2, 3)))
    text = known_json({"good": good}).replace(
        '"certificates": {', '"certificates": {"bad": {"lam": ["1/0"]}, "odd": {"w": 3}, '
        '"none": {}, ', 1)
    assert read_known(text) == {"good": good}
    for broken in ("", "[]", '{"certificates": 3}', '{"other": {}}', "{"):
        assert read_known(broken) == {}
