"""Finite sums in the proof language (issue 31.1): `indexed` families, `[sets]`, `sum(j in
lo..hi, body)` and `sum(j in M, body)`, vector sums inside dot/norm2, the term-wise `uses`.

What the parser builds is read by the kernel (`verify.kernel.atoms.canonical`), so each test
compares the kernel's reading of a text with the sum the kernel's own constructors make:
the two spellings of the grammar agree, and no index is captured."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from proofs.errors import ProofFileError
from proofs.instances import substituted
from proofs.language.expressions import (
    ExpressionError,
    IndexSet,
    parse_relation,
    parse_scalar,
    parse_vector,
)
from proofs.proof_file import parse_proof
from proofs.step import declare
from verify.kernel import atoms
from verify.kernel.atoms import World, family, finite_sum, gram, vector_name
from verify.proof_checker import check_proof

j, k, n, a, N = (sympy.Symbol(s) for s in ("j", "k", "n", "a", "N"))
ONE = sympy.Integer(1)
NAMES = declare(["w", "x", "th"], ["n", "N", "a", "y", "j", "k"], ["x", "y"],
                {"M": IndexSet("j", "1", "N", ("y[j]*dot(th, x[j]) <= 0",))})


def read(text: str) -> sympy.Expr:
    """The kernel's reading of a scalar expression of the language."""
    return atoms.canonical(parse_scalar(text, NAMES))


def y(i: object) -> sympy.Symbol:
    return family("y", sympy.sympify(i))


def x(i: object) -> str:
    return vector_name("x", sympy.sympify(i))


def total(lo: object, hi: object, body: sympy.Expr, where: tuple = (), index: sympy.Symbol = j
          ) -> sympy.Expr:
    return finite_sum(index, sympy.sympify(lo), sympy.sympify(hi), list(where), body)


def test_a_sum_over_a_range_is_the_kernels_sum() -> None:
    assert read("sum(j in 1..n, a*y[j] + 2)") == total(1, n, a * y(j) + 2)
    assert read("sum(i in 1..n+1, y[i])") == total(1, n + 1, y(j))  # `..` looser than `+`
    assert read("sum(j in 2*n..3*n - 1, y[j])") == total(2 * n, 3 * n - 1, y(j))


def test_the_index_of_a_sum_is_bound_and_never_captures() -> None:
    """j is a declared scalar too: inside the sum j is the index, outside it is j."""
    assert read("j*sum(j in 1..n, y[j])") == j * total(1, n, y(j))
    assert read("sum(j in 1..n, y[j]*y[k])") == y(k) * total(1, n, y(j))
    assert read("sum(j in 1..n, sum(j in 1..n, y[j]))") == total(1, n, ONE) * total(1, n, y(j))
    assert read("sum(i in 1..n, sum(j in 1..n, y[i]*y[j] + y[i + j]))") == (
        total(1, n, y(j)) ** 2 + total(1, n, total(1, n, y(j + k), index=k)))


def test_a_vector_sum_is_read_by_bilinearity_inside_dot_and_norm2() -> None:
    """<sum_j y_j x_j, x_j> with j free outside: the sum's index is fresh, j stays j."""
    assert read("dot(sum(i in 1..n, y[i]*x[i]), w)") == total(1, n, y(j) * gram(x(j), "w"))
    assert read("dot(sum(i in 1..n, x[i]), x[j])") == total(1, n, gram(x(k), x(j)), index=k)
    assert read("norm2(sum(i in 1..n, y[i]*x[i]))") == total(
        1, n, total(1, n, y(j) * y(k) * gram(x(j), x(k)), index=k))
    assert read("norm2(w + sum(i in 1..n, x[i]))") == (
        gram("w", "w") + 2 * total(1, n, gram("w", x(j)))
        + total(1, n, total(1, n, gram(x(j), x(k)), index=k)))


def test_a_declared_set_brings_its_filters_with_its_index_renamed() -> None:
    where = ((-y(j) * gram("th", x(j)), ">="),)
    assert read("sum(i in M, y[i])") == total(1, N, y(j), where)
    assert read("dot(th, sum(i in M, y[i]*x[i]))") == total(1, N, y(j) * gram("th", x(j)),
                                                            where)


@pytest.mark.parametrize(("text", "why"), [
    ("y >= 0", "is a family"),
    ("w[1] >= 0", "only a family declared"),
    ("y[1/n] >= 0", "polynomial"),
    ("sum(j in 1..n, 1/y[j]) >= 0", "no division inside a sum"),
    # regression (red team): SymPy cancelled these to 1 before any check saw the division
    ("sum(j in 0..n, j/j) == n + 1", "no division inside a sum"),
    ("sum(j in 1..n, y[j]/y[j]) == n", "no division inside a sum"),
    ("sum(j in 1..n/n, 1) == 1", "no division inside a sum"),
    ("sum(j in 1..n, sum(l in 1..n, y[l]/y[j])) >= 0", "no division inside a sum"),
    ("sum(j in 1..n) >= 0", "a sum is written"),
    ("sum(j in Q, y[j]) >= 0", "declared set"),
    ("sum(j, 1..n, y[j]) >= 0", "a sum is written"),
    ("sum(j in 1..n, x[j]) >= 0", "a vector is used outside"),
    ("n >> 1 >= 0", "'>>' is not an operator"),
    ("1..n >= 0", "a range lo..hi stands only in sum"),
    ("sum(j in 1..n/2, y[j]) >= 0", "integer coefficients"),
    ("sum(i in 1..n, sum(j in 1..i, y[j])) >= 0", "enclosing index"),
    # regression (red team): the range's `j` was read as the file's j, as the docs refuse
    ("sum(n in 1..n, y[n]) >= 0", "may not mention its own index n"),
    # regression: these reached the kernel and came out unknown (exit 1), while
    # `y[norm2(w)] - y[norm2(w)] == 0` cancelled before it and came out proved
    ("y[y[1]] >= y[y[1]]", "an index is a polynomial in scalars and sum indices"),
    ("y[sum(j in 1..n, 1)] >= 0", "an index is a polynomial in scalars and sum indices"),
    ("y[dot(w, w)] >= y[dot(w, w)]", "an index is a polynomial in scalars and sum indices"),
    ("y[norm2(w)] - y[norm2(w)] == 0", "an index is a polynomial in scalars and sum indices"),
    ("dot(x[dot(w, x[1])], w) >= 0", "an index is a polynomial in scalars and sum indices"),
])
def test_what_the_language_refuses(text: str, why: str) -> None:
    with pytest.raises(ExpressionError, match=why):
        parse_relation(text, NAMES)


def test_a_sum_may_divide_by_a_nonzero_constant() -> None:
    """What the refusal of division inside a sum leaves: a constant divisor, defined
    everywhere (`(n - n + 2)` is the constant 2 as SymPy reads it)."""
    assert parse_relation("sum(j in 1..n, y[j]/2) == sum(j in 1..n, y[j]/(n - n + 2))",
                          NAMES).text


def test_the_parser_refuses_the_sums_the_kernel_could_not_read() -> None:
    """One measure, one limit: the text of the symbol built is the atom the kernel reads."""
    from proofs.language.indexed import MAX_SUM_TEXT
    from verify.kernel.atoms import MAX_NAME

    assert MAX_SUM_TEXT == MAX_NAME


def test_sums_nested_deeper_than_the_kernel_reads_are_bad_input() -> None:
    """Seven sums one inside another were read, then left `unknown` by the kernel (whose
    `MAX_HEIGHT` is the limit): an input limit is refused where it is written (exit 2)."""
    from proofs.language.indexed import MAX_SUM_DEPTH

    assert MAX_SUM_DEPTH == atoms.MAX_HEIGHT
    names = declare([], ["N", "y", *"abcdefg"], ["y"])

    def nested(depth: int) -> str:
        indices = "abcdefg"[:depth]
        body = f"y[{'+'.join(indices)}]**2"
        for index in reversed(indices):
            body = f"sum({index} in 1..N, {body})"
        return body + " >= 0"

    deepest = atoms.canonical(parse_relation(nested(6), names).lhs)  # the kernel reads it
    assert str(deepest).count("sum(") == 6
    with pytest.raises(ExpressionError, match="sums nested more than 6 deep"):
        parse_relation(nested(7), names)


def test_an_index_may_read_scalars_and_the_indices_of_enclosing_sums() -> None:
    """What the refusal above leaves: a polynomial in declared scalars and sum indices."""
    assert parse_relation("sum(j in 1..n, y[2*j + n**2]) >= y[a*k - 1]", NAMES).text


def test_a_vector_sum_is_no_vector_of_its_own() -> None:
    with pytest.raises(ExpressionError, match="only inside dot"):
        parse_vector("sum(j in 1..n, x[j])", NAMES)
    assert parse_vector("w + x[n + 1]", NAMES) == parse_vector("x[1 + n] + w", NAMES)


@pytest.mark.parametrize(("sets", "why"), [
    ({"M": IndexSet("j", "1", "j", ())}, "its own index"),
    ({"M": IndexSet("y", "1", "N", ())}, "no family"),
    ({"n": IndexSet("j", "1", "N", ())}, "new identifier"),
    ({"M": IndexSet("j", "1", "N", ("y[j] <= q",))}, "undeclared"),
    ({"M": IndexSet("j", "1", "N", ("y[j]/y[j] >= 1",))}, "no division inside a sum"),
    ({"M": IndexSet("j", "1", "N/N", ())}, "no division inside a sum"),
    ({"M": IndexSet("j", "1", "N", ("sum(k in M, y[k]) >= 0",))}, "through itself"),
])
def test_a_declared_set_is_checked_where_it_is_declared(sets: dict, why: str) -> None:
    with pytest.raises(ProofFileError, match=why):
        declare(["x"], ["n", "N", "y"], ["y"], sets)
    with pytest.raises(ProofFileError, match="not a declared"):
        declare(["x"], ["n"], ["q"])


def test_a_copys_substitution_leaves_a_bound_index_alone() -> None:
    """The copy of an instance rewrites names in the text: never the index of a sum, which
    is renamed first where a term names it (a term's `j` is the file's, never captured)."""
    assert substituted("sum(j in 1..n, a*y[j]) >= j", {"j": "k", "a": "y[j]"}, NAMES) == (
        "sum(j_1 in 1..n, y[j] * y[j_1]) >= k")
    assert substituted("sum(j in 1..n, a*y[j]) >= 0", {"a": "y[k]"}, NAMES) == (
        "sum(j in 1..n, y[k] * y[j]) >= 0")  # no term names j: nothing renamed


def test_a_copys_substitution_keeps_decimals_as_written() -> None:
    """Red team 3 (F7): `ast.unparse` printed each decimal's float, so the copy `a := b` of
    `a*1e999 >= 0` stated `b * 1e309 >= 0`, another statement than the one its note names."""
    assert substituted("a*1e999 >= 0.10000000000000001", {"a": "n*1.50"}, NAMES) == (
        "n * 1.50 * 1e999 >= 0.10000000000000001")


def test_a_copys_substitution_renames_past_every_name_and_nested_sums() -> None:
    """The fresh index is free nowhere (the text, the terms, the declarations); an inner
    sum over the same index keeps its own, and a bound that becomes an outer index's name
    is not captured by it (regression: the copy route captured, giving an untrue
    `refuted`)."""
    assert substituted("sum(j in 1..n, a*y[j] + j_1) >= 0", {"a": "y[j]"}, NAMES) == (
        "sum(j_2 in 1..n, y[j] * y[j_2] + j_1) >= 0")
    assert substituted("sum(k in 1..N, sum(l in 1..n, y[l]*y[k])) >= 0", {"n": "k"},
                       NAMES) == "sum(k_1 in 1..N, sum(l in 1..k, y[l] * y[k_1])) >= 0"
    assert substituted("sum(j in 1..n, sum(j in 1..n, a*y[j])*y[j]) >= 0", {"a": "y[j]"},
                       NAMES) == ("sum(j_1 in 1..n, sum(j_2 in 1..n, y[j] * y[j_2])"
                                  " * y[j_1]) >= 0")
    assert substituted("sum(j in M, a*y[j]) >= 0", {"a": "y[j]"}, NAMES) == (
        "sum(j_1 in M, y[j] * y[j_1]) >= 0")  # a set's own index is its own: M unchanged
    assert substituted("sum(j in 1..n+1, y[j]) >= 0", {"n": "k"}, NAMES) == (
        "sum(j in 1..k + 1, y[j]) >= 0")


FILE = b'''
title = "sums"
vectors = ["w", "x", "th"]
scalars = ["n", "N", "y", "j"]
naturals = ["n", "N"]
indexed = ["x", "y"]

[sets]
M = { index = "j", range = "1..N", where = ["y[j]*dot(th, x[j]) <= 0"] }

[[step]]
id = "member"
given = ["j >= 1", "j <= N", "y[j]*dot(th, x[j]) <= 0"]
claim = "y[j]*dot(th, x[j]) <= 0"

[[step]]
id = "summed"
claim = "dot(th, sum(j in M, y[j]*x[j])) <= 0"
uses = [{ step = "member", sum = "j in M" }]
'''


def test_a_proof_file_declares_families_and_sets_and_sums_a_step() -> None:
    proof = parse_proof(FILE, "sums.toml")
    assert proof.indexed == ("x", "y") and set(proof.sets) == {"M"}
    assert proof.steps[1].uses[0].over == "j in M"
    assert str(proof.steps[1].uses[0]) == "member summed over j in M"


@pytest.mark.parametrize("spelling", [b"j\\tin M", b"j in\\tM", b"  j   in  M ",
                                      "j\u00a0in M".encode()])
def test_a_term_wise_use_spelt_with_other_spaces_is_the_same_use(spelling: bytes) -> None:
    # red team 3 (F2): the file's reader accepts any spaces around `in`, the checker split on
    # " in " alone: a tab ended in a traceback
    proof = parse_proof(FILE.replace(b'sum = "j in M"', b'sum = "%s"' % spelling), "sums.toml")
    assert proof.steps[1].uses[0].over == "j in M"
    assert [s.status for s in check_proof(proof).steps] == ["proved", "proved"]


@pytest.mark.parametrize(("edit", "why"), [
    ((b'sum = "j in M"', b'sum = "q in M"'), "must be `j in M`"),
    ((b'sum = "j in M"', b'sum = "j in M", with = { n = "N" }'), "no `with`"),
    ((b'sum = "j in M"', b'sum = "j in 1..N/2"'), "integer coefficients"),
    ((b'sum = "j in M"', b'sum = "j in 1..y[1]"'), "no family"),
    ((b'range = "1..N"', b'range = "1 to N"'), "lo..hi"),
    ((b'index = "j", ', b''), "missing 'index'"),
    ((b'where = ["', b'whence = ["'), "unknown key 'whence'"),
])
def test_a_proof_file_with_a_broken_sum_is_refused_naming_it(edit: tuple[bytes, bytes],
                                                             why: str) -> None:
    with pytest.raises(ProofFileError, match=why):
        parse_proof(FILE.replace(*edit), "sums.toml")


# -- red team: a set keeps the names of its declaration ------------------------------------
# FOUND: `sum(k in 1..N, sum(l in M, ...))` with M = {j in 1..N : y[j] >= k} read M's free k
# as the enclosing sum's index (dynamic scope), so a step false as written, with k the
# file's scalar (given k == 0), came out proved (`CAPTURE`).
SCOPED = declare([], ["y", "N", "k", "l"], ["y"], {"M": IndexSet("j", "1", "N", ("y[j] >= k",))})

CAPTURE = b'''
title = "the set's k is the file's k, not the enclosing sum's"
scalars = ["y", "N", "k", "l"]
naturals = ["N"]
indexed = ["y"]

[sets.M]
index = "j"
range = "1..N"
where = ["y[j] >= k"]

[[step]]
id = "member"
given = ["k >= 1", "k <= N", "l >= 1", "l <= N", "y[l] >= k"]
claim = "y[l] - k >= 0"

[[step]]
id = "double"
given = ["k == 0"]
claim = "sum(k in 1..N, sum(l in M, y[l] - k)) >= 0"
uses = [{ step = "member", sum = ["l in M", "k in 1..N"] }]
'''


def test_a_set_read_inside_a_sum_keeps_its_own_names() -> None:
    """Inside sum(k in 1..N, ...), M's k is still the file's k: M does not depend on the
    enclosing index, so the inner sum is the same for every k and factors out."""
    inner = finite_sum(j, sympy.Integer(1), N, [(family("y", j) - k, ">=")], family("y", j))
    read = atoms.canonical(parse_scalar("sum(k in 1..N, sum(l in M, y[l]))", SCOPED))
    assert read == inner * finite_sum(j, sympy.Integer(1), N, [], sympy.Integer(1))


def test_a_false_claim_through_a_captured_set_is_not_proved() -> None:
    """`double` is false as written: with k == 0 and N = 1, y[1] = 0, M = {1} and the sum is
    y[1] - 1 = -1. Before the fix the set's k was read as the outer index, making every term
    y[l] - k >= 0 a member's fact, and the step came out proved."""
    claim = parse_scalar("sum(k in 1..N, sum(l in M, y[l] - k))", SCOPED)
    point = World({"k": Fraction(0), "N": Fraction(1)}, {}, {"y": {Fraction(1): Fraction(0)}}, 1)
    assert point.of(atoms.canonical(claim)) == -1
    report = check_proof(parse_proof(CAPTURE, "capture.toml"))
    verdicts = {step.step.id: step.status for step in report.steps}
    assert verdicts["member"] == "proved"
    assert verdicts["double"] == "refuted"


def test_a_use_summed_over_a_set_by_an_index_its_conditions_name_is_refused() -> None:
    """Red team (open item of the second round): `sum = "k in M"` where M's condition names
    the file's k read M's filter as `y[k] >= k` (the use's index captured the file's name)
    while the report showed `y[j] >= k`; it is refused, naming the fix."""
    text = CAPTURE.replace(b'sum = ["l in M", "k in 1..N"]', b'sum = "k in M"').replace(
        b'claim = "sum(k in 1..N, sum(l in M, y[l] - k)) >= 0"',
        b'claim = "sum(k in M, y[k] - k) >= 0"')
    assert text != CAPTURE
    with pytest.raises(ProofFileError, match=r"sum = 'k in M': M's range or conditions name "
                                             r"k, which this sum binds; sum over M with "
                                             r"another index"):
        check_proof(parse_proof(text, "capture.toml"))


INSIDE = b'''
title = "an index inside a member or a sum of a set's condition"
scalars = ["a", "b", "j", "l", "k", "N"]
naturals = ["N"]
indexed = ["a", "b"]

[sets]
S = { index = "j", range = "1..N", where = [] }
Q = { index = "j", range = "1..N", where = ["b[j] >= b[l]"] }
W = { index = "j", range = "1..N", where = ["N*a[j] <= sum(l in S, a[l]*a[j])"] }

[[step]]
id = "term"
given = ["N*a[l] <= sum(k in S, a[k]*a[l])"]
claim = "a[l]**2 >= 0"

[[step]]
id = "summed"
claim = "sum(j in W, a[j]**2) >= 0"
uses = [{ step = "term", sum = "l in W" }]
'''


def test_an_index_named_inside_a_member_of_the_sets_condition_is_refused() -> None:
    """Review finding (2026-11-27): the capture check read the condition's free symbols, so
    `b[l]` (a member whose index is the file's l) escaped it, and `sum = "l in Q"` summed
    over `b[l] >= b[l]`, a set other than Q, without a word. Refused like a bare `l`."""
    text = INSIDE.replace(b'"term", sum = "l in W"', b'"term", sum = "l in Q"')
    assert text != INSIDE
    with pytest.raises(ProofFileError, match=r"sum = 'l in Q': Q's range or conditions name l"):
        check_proof(parse_proof(text, "inside.toml"))


def test_a_renamed_condition_prints_what_the_kernel_read() -> None:
    """Review finding (2026-11-27): renaming W's index j to the use's l in the condition's
    text also renamed the inner sum's bound l, so reports printed `sum(l in S, a[l]*a[l])`
    for what the kernel read as `sum(l in S, a[l]*a[j])` about j := l. The inner index is
    renamed first; the printed condition parses back to the kernel's relation."""
    report = check_proof(parse_proof(INSIDE, "inside.toml"))
    assert [s.status for s in report.steps] == ["proved", "proved"]
    texts = [h.text for h in report.steps[1].statement.hypotheses]
    assert texts == ["(a[l]**2 >= 0 summed over l in 1..N where N*a[l] <= sum(l_1 in S, "
                     "a[l_1]*a[l]))"]
    names = declare([], ["a", "j", "l", "l_1", "k", "N"], ["a"],
                    {"S": IndexSet("j", "1", "N", ())})
    shown = parse_relation("N*a[l] <= sum(l_1 in S, a[l_1]*a[l])", names)
    read = parse_relation("N*a[l] <= sum(k in S, a[k]*a[l])", names)
    assert atoms.canonical(shown.lhs - shown.rhs) == atoms.canonical(read.lhs - read.rhs)


def test_names_of_sums_read_from_their_text_are_the_ones_recorded(monkeypatch) -> None:
    """A process that did not parse a proof (an audit's worker, which unpickles it) reads
    the names a member or a sum mentions, and how deep a sum nests, from its text: the same
    as the parser recorded, for every member and sum of the built-in proofs and examples,
    and of whatever the tests run before this one in its process built (placeholders `#j`
    of substitutions among them)."""
    from pathlib import Path

    from proofs.language import indexed

    root = Path(__file__).resolve().parents[2]
    for path in (*root.glob("examples/*.toml"), *root.glob("proofs/library/**/*.toml")):
        parse_proof(path.read_bytes(), path.name)
    free, depth = dict(indexed._FREE), dict(indexed._DEPTH)
    assert len(free) > 100 and max(depth.values()) >= 2  # nested sums among them
    monkeypatch.setattr(indexed, "_FREE", {})
    monkeypatch.setattr(indexed, "_DEPTH", {})
    assert {name: indexed._built(name) for name in free} == free
    assert {name: indexed._depth(name) for name in depth} == depth
