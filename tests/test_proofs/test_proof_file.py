"""Loading proof files (docs/design.md §5): valid files become `Proof`s, bad ones one clear
error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sympy

from proofs.errors import ProofFileError
from proofs.language.terms import Vec, gram, scalar
from proofs.proof_file import load_proof, parse_proof
from proofs.step import CaseSplit, Direct, Induction
from verify.proof_checker import check_proof

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEADER = 'title = "T"\nvectors = ["w", "x"]\nscalars = ["y", "R"]\n'
A = '[[step]]\nid = "a"\nclaim = "y >= 0"\n'
D = '[[step]]\nid = "a"\nclaim = "dot(w, w) >= 0"\n'
B = '[[step]]\nid = "b"\nclaim = "1 >= 0"\n'
IND = 'induction = { variable = "R", '


def parse(text: str) -> object:
    return parse_proof(text.encode(), "p.toml")


def test_design_example_loads_exactly() -> None:
    proof = load_proof(EXAMPLES / "norm-growth.toml")
    assert proof.title == "Perceptron norm growth"
    assert proof.vectors == ("w", "x") and proof.scalars == ("y", "R")
    (step,) = proof.steps
    assert step.id == "norm-growth"
    assert [h.text for h in step.hypotheses] == [
        "y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R**2",
    ]
    w, x, y, r = gram("w", "w"), gram("w", "x"), scalar("y"), scalar("R")
    assert sympy.expand(step.claim.lhs - (w + 2 * y * x + y**2 * gram("x", "x"))) == 0
    assert sympy.expand(step.claim.rhs - (w + r**2)) == 0
    assert step.hints == (gram("w", "w") - 2 * x + gram("x", "x"),)
    assert isinstance(step.rule, Direct)


def test_optional_keys_and_extensions() -> None:
    proof = load_proof(EXAMPLES / "mistake-bound.toml")
    rules = {s.id: s.rule for s in proof.steps}
    induction = rules["norm-invariant"]
    assert isinstance(induction, Induction)
    assert induction.variable == "t"
    assert induction.base == {"w": Vec()}
    assert induction.step == {"w": Vec({"w": 1, "x": scalar("y")})}
    assert induction.hypotheses[0].text == "y**2 == 1"
    split = rules["mistake-bound"]
    assert isinstance(split, CaseSplit) and split.on == scalar("t") and split.zero_case
    assert tuple(map(str, proof.step("mistake-bound").uses)) == ("norm-invariant",
                                                                 "squared-lower-bound")
    assert proof.step("squared-lower-bound").hints == (
        Vec({"w": 1, "u": -gram("u", "w")}),
    )


def test_defaults_for_missing_optional_keys() -> None:
    proof = parse('title = "T"\n[[step]]\nid = "a"\nclaim = "1 >= 0"\n')
    assert proof.vectors == () and proof.scalars == ()
    (step,) = proof.steps
    assert (step.hypotheses, step.uses, step.hints, step.source, step.note) == ((), (), (), "", "")


def test_split_without_zero_case() -> None:
    proof = parse(HEADER + A + 'split = { on = "y", zero = false }\n')
    assert proof.steps[0].rule.zero_case is False  # cases >= 0, < 0 (tests/test_kernel_rules.py)


#: What an id that breaks the rule is told (it once said "matching [a-z0-9-]+" only).
ID_RULE = "must be a string of 1 to 64 characters, each a-z, 0-9 or -"


@pytest.mark.parametrize(
    ("body", "step", "problem"),
    [
        (A + 'prove = "yes"\n', "a", "unknown key 'prove'"),
        ("colour = 1\n" + A, None, "unknown key 'colour'"),
        ('[[step]]\nid = "A b"\nclaim = "y >= 0"\n', "#1", ID_RULE),
        ('[[step]]\nid = 3\nclaim = "y >= 0"\n', "#1", ID_RULE),
        ('[[step]]\nclaim = "y >= 0"\n', "#1", ID_RULE),
        ('[[step]]\nid = "a"\n', "a", "missing 'claim'"),
        ('[[step]]\nid = "a"\nclaim = 1\n', "a", "'claim' must be a string"),
        (A + 'given = "y >= 0"\n', "a", "list of strings"),
        (A + "given = [1]\n", "a", "list of strings"),
        (A + "source = []\n", "a", "must be a string"),
        (A + A, "a", "id is used by an earlier step"),
        (A + 'uses = ["b"]\n' + B, "a", "uses 'b', which is a later step"),
        (A + 'uses = ["a"]\n', "a", "which is a later step (or itself)"),
        (A + 'uses = ["zz"]\n', "a", "which is not a step"),
        (B + A + 'uses = ["b", "b"]\n', "a", "more than once"),
        ('[[step]]\nid = "a"\nclaim = "z >= 0"\n', "a", "claim: undeclared name 'z'"),
        (A + 'given = ["y >= 0", "w >= 0"]\n', "a", "given[1]: a vector is used outside dot()"),
        (A + 'hints = ["w + y"]\n', "a", "hints[0]: cannot add"),
        (A + 'hints = ["1/y"]\n', "a", "must be a polynomial"),
        ('[[step]]\nid = "a"\nclaim = "1/(1 + 1/y) >= 0"\n', "a", "division inside the denom"),
        (A + 'split = "y"\n', "a", "'split' must be a table"),
        (A + 'split = { on = "y", zero = 1 }\n', "a", "true or false"),
        (A + 'split = { on = "w" }\n', "a", "split.on:"),
        (A + 'split = { by = "y" }\n', "a", "unknown key 'by' in split"),
        (A + 'split = { on = "1/y" }\n', "a", "must not divide"),
        (A + 'split = { on = "1/y" }\n' + IND + "base = {}, step = {} }\n", "a",
         "must not divide"),  # a split beside an induction is read like any other
        (D + 'induction = { variable = "q", base = {}, step = {} }\n', "a", "'q' is not a"),
        (D + IND + 'base = { z = "w" }, step = {} }\n', "a", "'z' is not a declared name"),
        (D + IND + 'base = { y = "w" }, step = {} }\n', "a", "induction.base.y:"),
        (D + 'witness = { y = "1/y" }\n', "a", "witness.y = '1/y' must not divide by y"),
        (D + 'uses = [{ step = "a", by = 1 }]\n', "a", "unknown key 'by' in a use"),
        (D + 'uses = [1]\n', "a", "list of step ids or { step, with } tables"),
        (D + IND + 'base = { w = "y" }, step = {} }\n', "a", "induction.base.w:"),
        (D + IND + "base = { w = 1 }, step = {} }\n", "a", "must be a string"),
        (D + IND + "base = {} }\n", "a", "'step' must be a table"),
        (D + IND + "base = {}, step = {}, by = 1 }\n", "a", "unknown key 'by' in induction"),
    ],
)
def test_bad_files_name_file_step_and_problem(body: str, step: str | None, problem: str) -> None:
    with pytest.raises(ProofFileError) as caught:
        parse(HEADER + body)
    error = caught.value
    assert (error.file, error.step) == ("p.toml", step)
    assert problem in error.problem
    where = f"p.toml:{error.line}:{error.column}: " + (f"step {step}: " if step else "")
    assert error.line is not None and error.column is not None
    assert str(error) == where + error.problem + (f"; {error.fix}" if error.fix else "")
    assert "\n" not in str(error)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (D + 'given = ["dot(w, x) >= 0"]\n' + IND + 'base = { w = "x" }, step = { w = "w" } }\n',
         "may not mention the iteration"),
        (D + IND + 'base = {}, step = { w = "w/y" } }\n', "must not divide"),
        (D + IND + 'base = { R = "0" }, step = { R = "R + 1" } }\n', "R cannot be iterated"),
        (A + IND + 'base = { y = "R" }, step = { y = "y + 1" } }\n', "base of y mentions R"),
    ],
)
def test_rules_refuse_before_anything_is_decided(body: str, problem: str) -> None:
    """What only the kernel's rules can see is refused as bad input too, naming the step."""
    with pytest.raises(ProofFileError, match=f"step a: .*{problem}"):
        check_proof(parse(HEADER + body))


STEP = '[[step]]\nid = "a"\nclaim = "1 >= 0"\n'


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('vectors = ["w"]\n' + STEP, "missing 'title'"),
        ("title = 1\n" + STEP, "'title' must be a string"),
        ('title = "T"\nvectors = "w"\n' + STEP, "'vectors' must be a list of strings"),
        ('title = "T"\nvectors = ["w", "w"]\n' + STEP, "declared more than once"),
        ('title = "T"\nvectors = ["w"]\nscalars = ["w"]\n' + STEP, "declared more than once"),
        ('title = "T"\nscalars = ["dot"]\n' + STEP, "reserved"),
        ('title = "T"\nscalars = ["norm2"]\n' + STEP, "reserved"),
        ('title = "T"\nscalars = ["lambda"]\n' + STEP, "cannot be used: it is a Python keyword"),
        ('title = "T"\nscalars = ["2x"]\n' + STEP, "not an identifier"),
        ('title = "T"\nscalars = ["a b"]\n' + STEP, "not an identifier"),
        ('title = "T"\n', "no [[step]] tables"),
        ('title = "T"\nstep = "a"\n', "array of tables"),
        ('title = "T"\nstep = []\n', "at least one step"),
    ],
)
def test_bad_headers(text: str, problem: str) -> None:
    with pytest.raises(ProofFileError) as caught:
        parse(text)
    assert caught.value.step is None
    assert problem in str(caught.value)


def test_limits_on_steps_and_hypotheses() -> None:
    many = "".join(f'[[step]]\nid = "s{k}"\nclaim = "1 >= 0"\n' for k in range(1001))
    with pytest.raises(ProofFileError, match="1001 steps, more than 1000"):
        parse(HEADER + many)
    given = ", ".join(['"y >= 0"'] * 201)
    with pytest.raises(ProofFileError, match="201 entries, more than 200"):
        parse(HEADER + f'[[step]]\nid = "a"\ngiven = [{given}]\nclaim = "y >= 0"\n')
    uses = ", ".join(['"s0"'] * 1001)
    with pytest.raises(ProofFileError, match="'uses' has 1001 entries, more than 1000"):
        parse(HEADER + f'[[step]]\nid = "s0"\nclaim = "1 >= 0"\n[[step]]\nid = "s1"\n'
              f'uses = [{uses}]\nclaim = "1 >= 0"\n')
    fine = "".join(f'[[step]]\nid = "s{k}"\nclaim = "1 >= 0"\n' for k in range(1000))
    assert len(parse(HEADER + fine).steps) == 1000


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "norm-growth.toml").read_bytes())
    assert load_proof(path).title == "Perceptron norm growth"


def test_error_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(HEADER + '[[step]]\nid = "a"\nclaim = "q >= 0"\n')
    with pytest.raises(ProofFileError) as caught:
        load_proof(path)
    assert str(caught.value) == (f"{path}:6:10: step a: claim: undeclared name 'q' in 'q'; "
                                 "declare it in scalars (or vectors)")


def test_an_induction_iterates_scalars_too() -> None:
    """`base`/`step` map a scalar to a polynomial (a partial sum along the run): read as
    such, and proved by the kernel's rule (issue 16)."""
    proof = parse(HEADER + A + IND + 'base = { y = "0" }, step = { y = "y + R**2" } }\n')
    rule = proof.steps[0].rule
    assert isinstance(rule, Induction)
    assert rule.base == {"y": sympy.Integer(0)} and rule.step == {"y": scalar("y") + scalar("R")**2}
    report = check_proof(proof)
    assert report.steps[0].status == "proved", report.steps[0].message
    assert "y := 0" in report.steps[0].statement_text


def test_a_split_beside_an_induction_splits_its_inductive_step() -> None:
    proof = parse(HEADER + D + 'split = { on = "R" }\n' + IND
                  + 'base = { w = "0*w" }, step = { w = "w + y*x" } }\n')
    rule = proof.step("a").rule
    assert isinstance(rule, Induction) and rule.split is not None and rule.split.text == "R"
    labels = [g.goal.label for g in check_proof(proof).steps[0].goals]
    assert labels == ["base", "step, case R > 0", "step, case R == 0", "step, case R < 0"]


def test_constants_listing_an_iterated_name_gets_a_note() -> None:
    """Regression (red team 8): `constants` listing a name the induction iterates or counts was
    silently ignored (the kernel moves it whatever the listing says); the file now gets a note
    naming the names, and one listing only true constants gets none."""
    body = (D + IND + 'base = { w = "0*w" }, step = { w = "w + y*x" }, constants = [')
    header = HEADER + 'naturals = ["R"]\n'
    noted = parse(header + body + '"x", "w", "R"] }\n')
    assert noted.notes == ("p.toml:6: note: step a: its induction iterates or counts R, w, so "
                           "listing it in `constants` has no effect (it changes at each "
                           "update); remove it from `constants`",)
    assert parse(header + body + '"x"] }\n').notes == ()


@pytest.mark.parametrize(("written", "hint"), [
    ("y^2 == 1", "use ** for powers"),
    ("y**2 = 1", "use =="),
    ("y*<w, x> <= 0", "write dot(w, x)"),
    ("||x|| <= 1", "write norm2(x)"),
    ("sqrt(t) <= 1", 'define it: [define] r = "sqrt(t)"'),
])
def test_a_habit_from_another_notation_gets_a_fix_it(written: str, hint: str) -> None:
    """Issue 29.7: the message says what to write instead."""
    from proofs.language.expressions import ExpressionError, Names, parse_relation

    names = Names(vectors=frozenset({"w", "x"}), scalars=frozenset({"y", "t"}))
    with pytest.raises(ExpressionError, match=re.escape(hint)):
        parse_relation(written, names)


@pytest.mark.parametrize(("written", "hint"), [
    ("dot(w, x) =< 0", "write <= for 'less than or equal'"),
    ("t => 0", "write >= for 'greater than or equal'"),
])
def test_a_reversed_comparison_is_told_its_comparison_not_equality(written: str,
                                                                    hint: str) -> None:
    """Newcomer 19, section 5.1: `dot(w,x) =< 0` was told "use == for equality"; the writer
    meant `<=`."""
    from proofs.language.expressions import ExpressionError, Names, parse_relation

    names = Names(vectors=frozenset({"w", "x"}), scalars=frozenset({"y", "t"}))
    with pytest.raises(ExpressionError, match=re.escape(hint)) as raised:
        parse_relation(written, names)
    assert "==" not in str(raised.value)


def test_a_proof_file_names_its_theorem_and_notation(tmp_path) -> None:
    """Issue 29: `theorem` picks the main result (default: the last step no other uses);
    `[notation]` must rename declared names to identifiers."""
    from proofs.errors import ProofFileError
    from proofs.proof_file import parse_proof

    base = ('title = "t"\nvectors = []\nscalars = ["a", "b"]\n'
            '[[step]]\nid = "one"\nclaim = "a**2 >= 0"\n'
            '[[step]]\nid = "two"\nclaim = "a**2 + 1 >= 0"\nuses = ["one"]\n')
    assert parse_proof(base.encode(), "f").main_result == "two"
    named = parse_proof(('theorem = "one"\n' + base + '[notation]\na = "alpha"\n').encode(), "f")
    assert named.main_result == "one" and named.notation == {"a": "alpha"}
    with pytest.raises(ProofFileError, match="not a step"):
        parse_proof(('theorem = "three"\n' + base).encode(), "f")
    with pytest.raises(ProofFileError, match="identifier"):
        parse_proof((base + '[notation]\na = "\\\\alpha"\n').encode(), "f")


def test_the_default_theorem_is_never_a_correction() -> None:
    """Red team 23 F6: with steps `main` (refuted) and `main-corrected`, the default theorem
    (the last step no other uses) was the correction, and the summary's first line read
    "Theorem ✅ proved (step main-corrected)"; a correction stands beside its theorem."""
    from proofs.proof_file import parse_proof

    text = ('title = "t"\nscalars = ["a"]\n[[step]]\nid = "main"\nclaim = "a >= 1"\n'
            '[[step]]\nid = "main-corrected"\nclaim = "a**2 >= 0"\n')
    assert parse_proof(text.encode(), "f").main_result == "main"
    alone = text.replace('id = "main"', 'id = "other"')  # no `main`: the step is a plain one
    assert parse_proof(alone.encode(), "f").main_result == "main-corrected"


def test_a_hint_with_a_sum_of_vectors_is_refused_for_what_it_is() -> None:
    """Newcomer 21, M2: a vector hint with a sum of vectors in it was refused as "a vector is
    used outside dot()/norm2()", untrue of a hint (which may be a vector); its vector
    reading's error says what fails."""
    text = ('title = "T"\nvectors = ["th", "x"]\nscalars = ["y", "k", "j"]\nnaturals = ["k"]\n'
            'indexed = ["x", "y"]\n[[step]]\nid = "a"\nclaim = "dot(th, th) >= 0"\n'
            'hints = ["th - sum(j in 1..k, y[j]*x[j])"]\n')
    with pytest.raises(ProofFileError) as caught:
        parse(text)
    assert "hints[0]:" in str(caught.value)
    assert "a sum of vectors may stand only inside dot() or norm2()" in str(caught.value)
    assert "a vector is used outside" not in str(caught.value)
