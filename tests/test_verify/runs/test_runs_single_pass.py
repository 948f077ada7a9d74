"""`verify/runs/single_pass.py`: one pass of the perceptron, its sums and its rows, exactly.

The reference here is the definition written out with Fractions: the pass (w_0 = 0, update on
y<w,x> <= 0), d_i = max(0, gamma - y_i <u, x_i>), and the sums over updates and elements.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.dataset import Dataset
from verify.numeric.passes import UNITS
from verify.runs.columns import Origin
from verify.runs.quantity import radius_bound
from verify.runs.single_pass import KIND, PassSums, run_pass


def reference(data: Dataset, u: tuple[Fraction, ...], gamma: Fraction) -> dict[str, list]:
    """The pass and its quantities by definition, one element at a time."""
    w = [Fraction(0)] * data.d
    dev = [max(Fraction(0), gamma - y * sum(a * b for a, b in zip(u, x, strict=True)))
           for x, y in zip(data.X, data.y, strict=True)]
    out: dict[str, list] = {"positions": [], "w": [tuple(w)], "s": [Fraction(0)],
                            "q": [Fraction(0)], "rest": [sum(v * v for v in dev)],
                            "d": [], "skip": []}
    last = -1
    for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
        if y * sum(a * b for a, b in zip(w, x, strict=True)) <= 0:
            w = [a + y * b for a, b in zip(w, x, strict=True)]
            out["positions"].append(i)
            out["w"].append(tuple(w))
            out["d"].append(dev[i])
            out["skip"].append(sum(v * v for v in dev[last + 1:i]))
            out["s"].append(out["s"][-1] + dev[i])
            out["q"].append(out["q"][-1] + dev[i] ** 2)
            out["rest"].append(sum(v * v for v in dev[i + 1:]))
            last = i
    out["D2"] = [sum(v * v for v in dev)]
    return out


def padded(unit: tuple[Fraction, ...], dim: int) -> tuple[Fraction, ...]:
    return (*unit, *(Fraction(0) for _ in range(dim - len(unit))))


@st.composite
def passes(draw: st.DrawFn) -> tuple[Dataset, tuple[Fraction, ...], Fraction]:
    """Any small integer data (separable or not), a rational unit u, a margin gamma > 0."""
    unit = draw(st.sampled_from(UNITS))
    dim = draw(st.integers(len(unit), 4))
    n = draw(st.integers(1, 12))
    X = tuple(tuple(Fraction(draw(st.integers(-5, 5))) for _ in range(dim)) for _ in range(n))
    y = tuple(draw(st.sampled_from((-1, 1))) for _ in range(n))
    gamma = Fraction(draw(st.integers(1, 30)), draw(st.integers(1, 6)))
    return Dataset(X, y), padded(unit, dim), gamma


@given(passes())
def test_the_pass_and_its_sums_are_the_definitions(case) -> None:
    data, u, gamma = case
    run = run_pass(data, u, (gamma,))
    ref = reference(data, u, gamma)
    assert list(run.positions) == ref["positions"]
    sums = run.sums(gamma)
    assert sums.D2 == ref["D2"][0]
    for name in ("d", "skip", "s", "q", "rest"):
        assert [sums.value(name, k) for k in range(len(ref[name]))] == ref[name], name
    state = KIND.rows(run, "pass-state", Origin("test"))
    assert [state.vectors["w"].row(i) for i in range(len(state))] == ref["w"]


@given(passes())
def test_the_update_facts_of_the_proof_hold_on_every_pass(case) -> None:
    """What the proof's inductions assume of an update holds on the rows: skip >= 0 (the
    elements passed over) and rest - skip - d^2 >= 0 (the elements after it), and rest
    becomes the latter."""
    data, u, gamma = case
    run = run_pass(data, u, (gamma,))
    sums = run.sums(gamma)
    for k in range(run.mistakes):
        d, skip, rest = (sums.value(n, k) for n in ("d", "skip", "rest"))
        assert skip >= 0 and rest - skip - d**2 >= 0
        assert sums.value("rest", k + 1) == rest - skip - d**2


@given(passes())
def test_freund_schapire_holds_on_every_pass(case) -> None:
    """Theorem 2 itself, decided exactly on the final state of any pass."""
    data, u, gamma = case
    run = run_pass(data, u, (gamma,))
    R = radius_bound(run.R2)
    D = radius_bound(run.sums(gamma).D2)
    assert run.mistakes * gamma**2 <= (R + D) ** 2
    assert run.bound_holds(gamma)


def test_the_bound_is_attained_on_orthonormal_data() -> None:
    """k = 4 orthonormal examples, u = (1, 1, 1, 1)/2: gamma = 1/2 is the margin (D = 0),
    gamma = 1 asks for more (every d_i = 1/2, D = 1); both make t gamma^2 = (R + D)^2."""
    X = tuple(tuple(Fraction(int(i == j)) for j in range(4)) for i in range(4))
    run = run_pass(Dataset(X, (1, 1, 1, 1)), (Fraction(1, 2),) * 4,
                   (Fraction(1, 2), Fraction(1)))
    assert run.mistakes == 4
    for gamma, D in ((Fraction(1, 2), 0), (Fraction(1), 1)):
        assert radius_bound(run.sums(gamma).D2) == D
        assert run.mistakes * gamma**2 == (1 + D) ** 2


def test_rows_bind_their_names() -> None:
    X = tuple((Fraction(1), Fraction((-1) ** i * i)) for i in range(40))
    y = tuple((-1) ** (i // 3) for i in range(40))
    margins = (Fraction(1, 3), Fraction(2))
    run = run_pass(Dataset(X, y), (Fraction(3, 5), Fraction(4, 5)), margins)
    origin = Origin("test", 1, "zigzag")
    for binding, count in (("pass-state", run.mistakes + 1), ("pass-update", run.mistakes)):
        batch = KIND.rows(run, binding, origin)
        assert set(batch.scalars) | set(batch.vectors) == set(KIND.names(binding))
        assert len(batch) == count * len(margins)
        assert {o.dataset for o in batch.origins} == {f"zigzag [gamma = {g}]" for g in margins}
    update = KIND.rows(run, "pass-update", origin, names=("w", "w_next", "x", "y"))
    assert set(update.scalars) | set(update.vectors) == {"w", "w_next", "x", "y"}
    for i in range(len(update)):
        w, x, after = (update.vectors[n].row(i) for n in ("w", "x", "w_next"))
        yv = update.scalars["y"].value(i)
        assert yv * sum(a * b for a, b in zip(w, x, strict=True)) <= 0
        assert after == tuple(a + yv * b for a, b in zip(w, x, strict=True))
    with pytest.raises(ValueError, match="no 'state' rows"):
        KIND.rows(run, "state", origin)


def test_a_pass_needs_a_unit_u_and_positive_margins() -> None:
    data = Dataset(((Fraction(1), Fraction(0)),), (1,))
    with pytest.raises(ValueError, match="unit vector"):
        run_pass(data, (Fraction(1), Fraction(1)), (Fraction(1),))
    with pytest.raises(ValueError, match="gamma > 0"):
        run_pass(data, (Fraction(1), Fraction(0)), (Fraction(0),))
    with pytest.raises(ValueError, match="must increase"):
        PassSums.of((1, 2, 3), 1, (2, 1))
