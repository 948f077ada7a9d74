"""Every independent error of a proof file in one run (issue 27, item 8): each at its
file:line:column with its step and, where one is known, a fix; dependent errors once."""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.errors import MAX_REPORTED, ProofFileError, ProofFileErrors, Source
from proofs.proof_file import parse_proof
from verify.cli import main
from verify.proof_checker import statements

MANY = """title = "Many errors"
vectors = ["w", "x"]
scalars = ["y", "gamma", "R"]
colour = "blue"

[[step]]
id = "a"
given = ["y^2 == 1", "y*dot(w, x) <= 0"]
claim = "dot(w + y*x, w + y*x) <= dot(w, w) + gama"

[[step]]
id = "b"
uses = ["a"]
claim = "R >= 0"

[[step]]
id = "c"
clam = "R >= 0"
claim = "y.real >= 0"

[[step]]
id = "d"
uses = ["c2"]
claim = "R**2 >= 0"
"""

REFUSED = """title = "Two refusals"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]

[[step]]
id = "one"
claim = "dot(w, x) >= 0"
[step.induction]
variable = "t"
base = { w = "x" }
step = { w = "w + y*x" }

[[step]]
id = "uses-one"
uses = ["one"]
claim = "dot(w, x) >= 0"

[[step]]
id = "two"
claim = "y*t >= 0"
[step.induction]
variable = "t"
base = { w = "x" }
step = { w = "w + y*x" }
"""


def errors(text: str) -> tuple[ProofFileError, ...]:
    with pytest.raises(ProofFileError) as caught:
        parse_proof(text.encode(), "many.toml")
    return caught.value.errors


def test_every_independent_error_is_reported_at_its_line_and_column() -> None:
    found = [str(e) for e in errors(MANY)]
    assert found == [
        "many.toml:4:1: unknown key 'colour' in top level (expected one of: title, source, "
        "vectors, scalars, naturals, numeric, define, step, imports, theorem, notation, indexed, "
        "sets)",
        "many.toml:8:11: step a: given[0]: operator BitXor is not allowed; use ** for powers "
        "(y**2, not y^2) in 'y^2'",
        "many.toml:9:47: step a: claim: undeclared name 'gama' in 'gama'; did you mean "
        "'gamma'?",
        "many.toml:18:1: step c: unknown key 'clam' in a step (expected one of: id, given, "
        "claim, uses, hints, source, note, split, induction, witness); did you mean 'claim'?",
        "many.toml:19:10: step c: claim: Attribute is not allowed in 'y.real'",
        "many.toml:23:10: step d: uses 'c2', which is not a step; did you mean 'c'?",
    ]


def test_a_step_using_a_broken_step_is_not_reported_again() -> None:
    """b uses a, whose claim is broken: b's only error would be a's, so b is not named."""
    assert "b" not in {e.step for e in errors(MANY)}


def test_the_error_reads_as_its_first_line() -> None:
    """Callers that show one line show the most important: the first error."""
    with pytest.raises(ProofFileErrors) as caught:
        parse_proof(MANY.encode(), "many.toml")
    assert str(caught.value) == str(caught.value.errors[0])
    assert "\n" not in str(caught.value)


def test_at_most_a_bounded_number_are_listed_then_counted() -> None:
    steps = "".join(f'[[step]]\nid = "s{k}"\nclaim = "z{k} >= 0"\n' for k in range(30))
    found = errors('title = "t"\nscalars = ["y"]\n' + steps)
    assert len(found) == 30
    lines = ProofFileErrors(found).lines()
    assert len(lines) == MAX_REPORTED + 1 and lines[-1] == f"... and {30 - MAX_REPORTED} more"
    assert lines[0].startswith("many.toml:5:10: step s0: claim: undeclared name 'z0'")


def test_kernel_refusals_are_all_reported_at_their_steps() -> None:
    proof = parse_proof(REFUSED.encode(), "refused.toml")
    with pytest.raises(ProofFileError) as caught:
        statements(proof)
    located = caught.value.located("refused.toml", proof.origin)
    assert [(e.step, e.line, e.column) for e in located.errors] == [
        ("one", 8, 10), ("two", 21, 10)]  # uses-one uses a refused step: not named
    assert "mentions x: fresh at every update" in str(located.errors[0])


def test_the_cli_prints_one_line_per_error(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    for name, text, count in (("many.toml", MANY, 6), ("refused.toml", REFUSED, 2)):
        path = tmp_path / name
        path.write_text(text)
        assert main(["check", str(path)]) == 2
        out, err = capsys.readouterr()
        lines = err.splitlines()
        assert out == "" and len(lines) == count
        assert all(line.startswith(f"novikoff: error: {path}:") for line in lines)


def test_the_locator_falls_back_to_coarser_places() -> None:
    source = Source("f.toml", '[[step]]\nid = "a"\nclaim = "y >= 0"\n[[step]]\nid = "b"\n'
                    'given = [\n  "x >= 0",\n]\nclaim = "y >= 0"\n')
    assert source.where("b", "claim", "y >= 0", "y") == (9, 10)  # the string, in b's table
    assert source.where("b", "given[0]", "x >= 0", None) == (7, 4)  # in a multi-line array
    assert source.where("b", "claim", "not there", None) == (9, 1)  # the key's line
    assert source.where("#2", None, None, None) == (4, 1)  # by position: the 2nd header
    assert source.where("b", None, None, None) == (5, 1)  # the step's id line
    assert source.where("gone", None, None, None) == (1, 1)
