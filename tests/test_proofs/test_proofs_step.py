"""The proof model (proofs/step.py, proofs/language/division.py): names, structure, what divides."""

from __future__ import annotations

import pytest
import sympy
from hypothesis import strategies as st

from proofs.errors import ProofFileError
from proofs.language.division import denominators, required
from proofs.language.expressions import ExpressionError, Names, Relation, parse_relation
from proofs.language.terms import Vec, gram, scalar
from proofs.step import CaseSplit, Induction, Proof, Step

VECTORS = ("w", "x")
SCALARS = ("t", "y", "R", "eta")
NAMES = Names(vectors=frozenset(VECTORS), scalars=frozenset(SCALARS))
RATIONALS = st.fractions(min_value=-20, max_value=20, max_denominator=12)


def rel(text: str) -> Relation:
    return parse_relation(text, NAMES)


def proof(*steps: Step) -> Proof:
    return Proof("T", VECTORS, SCALARS, steps)


# -- the proof model (names and structure; the rules themselves: tests/test_kernel_rules.py) ---


def test_induction_names_must_be_declared() -> None:
    bad_variable = Induction("w", {}, {})
    with pytest.raises(ProofFileError, match="'w' is not a declared scalar"):
        proof(Step("inv", (), rel("t >= 0"), rule=bad_variable))
    stray = Induction("t", {"w": Vec.named("z")}, {})
    with pytest.raises(ProofFileError, match="undeclared vector"):
        proof(Step("inv", (), rel("t >= 0"), rule=stray))
    with pytest.raises(ProofFileError, match="constants lists undeclared 'q'"):
        proof(Step("inv", (), rel("t >= 0"), rule=Induction("t", {}, {}, constants=("q",))))
    with pytest.raises(ProofFileError, match="naturals lists 'w'"):
        Proof("T", VECTORS, SCALARS, (Step("a", (), rel("t >= 0")),), naturals=("w",))


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        ((Step("a", (), rel("y >= 0")), Step("a", (), rel("y >= 0"))), "step a: id is used"),
        ((Step("a", (), rel("y >= 0"), uses=("b",)), Step("b", (), rel("y >= 0"))), "later step"),
        ((Step("a", (), Relation(scalar("q"), ">=", sympy.Integer(0), "q >= 0")),), "undeclared q"),
        ((Step("a", (), Relation(gram("w", "z"), ">=", sympy.Integer(0), "?")),), "undeclared"),
        ((Step("a", (), rel("y >= 0"), hints=(Vec.named("z"),)),), "undeclared vectors"),
        ((Step("a", (), rel("y >= 0"), hints=(scalar("q"),)),), "undeclared q"),
        ((Step("a", (), rel("y >= 0"), rule=CaseSplit(1 / scalar("y"))),), "must not divide"),
        ((), "at least one step"),
    ],
)
def test_proof_structure_errors(steps: tuple[Step, ...], problem: str) -> None:
    with pytest.raises(ProofFileError, match=problem):
        proof(*steps)


def test_step_limits() -> None:
    with pytest.raises(ProofFileError, match="must be a string of 1 to 64 characters, each "
                       "a-z, 0-9 or -"):
        Step("Bad_Id", (), rel("y >= 0"))
    with pytest.raises(ProofFileError) as long_id:  # red team 4: the limit said, the id clipped
        Step("a" * 100_000, (), rel("y >= 0"))
    assert str(long_id.value) == (f"id '{'a' * 40}'... has 100000 characters, more than 64 (an "
                                  "id is 1 to 64 characters, each a-z, 0-9 or -)")
    with pytest.raises(ProofFileError, match="201 hypotheses"):
        Step("a", (rel("y >= 0"),) * 201, rel("y >= 0"))
    with pytest.raises(ProofFileError, match="21 hints"):
        Step("a", (), rel("y >= 0"), hints=(scalar("y"),) * 21)
    with pytest.raises(ProofFileError, match="more than once"):
        Step("a", (), rel("y >= 0"), uses=("b", "b"))


# -- division -----------------------------------------------------------------------------


def test_denominators_and_divisors() -> None:
    relation = rel("dot(w, x)/(t*y) >= 1/y**2")
    assert denominators(sympy.Tuple(relation.lhs, relation.rhs)) == (scalar("t"), scalar("y") ** 2)
    assert relation.divisors == (scalar("t") * scalar("y"), scalar("y") ** 2)
    assert required(relation) == (scalar("t"), scalar("y") ** 2)


def test_nested_division_is_refused() -> None:
    with pytest.raises(ExpressionError, match="division inside the denominator"):
        required(rel("1/(1 + 1/y) >= 0"))


def test_relation_built_in_code_uses_its_sympy_form() -> None:
    t = scalar("t")
    relation = Relation(1 / t, ">", sympy.Integer(0), "reciprocal of t is positive")
    assert relation.divisors == ()
    assert required(relation) == (t,)
