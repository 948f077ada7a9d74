"""Red-team findings against the trusted kernel through proof files (the review after issue
16's): what came out wrong, and why, is in the comment above each test. None was a proved false
statement; each was a traceback where a stranger's bad proof file must get one line on stderr
and exit 2 (or, where the file is well formed, a verdict).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.cli import main
from verify.proof_checker import ProofReport, check_proof


def check(text: str) -> ProofReport:
    return check_proof(parse_proof(text.encode(), "redteam.toml"))


def cli(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`novikoff check` on `text`, in process: the exit code and what it wrote on stderr."""
    path = tmp_path / "redteam.toml"
    path.write_text(text)
    code = main(["check", str(path)])
    return code, capsys.readouterr().err


# A definition's text was handed to Python's parser with no length limit (every expression
# has one, MAX_CHARS) and only SyntaxError/ValueError caught: `d = "-----...1"` (100 000
# minus signs, well inside the 256 KiB file cap) made `ast.parse` raise MemoryError, and
# `novikoff check` printed a traceback (proofs/definitions.py, `_facts`).
NESTED_DEFINITION = """
title = "A definition nested beyond the parser"
scalars = ["a", "d"]

[define]
d = "max(%s1, a)"

[[step]]
id = "s"
claim = "d >= a"
""" % ("-" * 100_000)


def test_a_huge_definition_is_one_line_exit_2(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, err = cli(NESTED_DEFINITION, tmp_path, capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "define: d" in err


# An induction's update facts (`given` under [step.induction]) were never checked at load for
# a division inside a divisor, which steps' own hypotheses are (`required`, proofs/step.py):
# the first to notice was `divisors` while the checker built the kernel's Rel, and its
# ExpressionError is no ProofFileError, so `novikoff check` printed a traceback.
NESTED_UPDATE_DIVISION = """
title = "An update fact that divides by a quotient"
scalars = ["t", "s", "a"]
naturals = ["t"]

[[step]]
id = "s"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + a" }
given = ["1/(1/a) > 0"]
"""


def test_an_update_fact_dividing_by_a_quotient_is_refused_at_load() -> None:
    with pytest.raises(ProofFileError, match="division inside the denominator"):
        parse_proof(NESTED_UPDATE_DIVISION.encode(), "redteam.toml")


def test_an_update_fact_dividing_by_a_quotient_is_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = cli(NESTED_UPDATE_DIVISION, tmp_path, capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


# An instance (`with`) that makes a used step's divisor zero: `inv` proves 1/a > 0 for a > 0,
# and `use` imports it with a := 0. `kernel.instance` substitutes (1/0 is SymPy's zoo) and the
# kernel refuses the used statement when it reads it (KernelError "divides by zero"), but
# `proof_checker.statements` caught only UseError and RuleError: a traceback before any step
# was checked. The used statement is undefined there, so `use` is unknown (never proved), and
# the message says why.
INSTANCE_AT_ZERO = """
title = "An instance that divides by zero"
scalars = ["a", "b"]

[[step]]
id = "inv"
given = ["a > 0"]
claim = "1/a > 0"

[[step]]
id = "use"
claim = "b*b >= 0"
uses = [{ step = "inv", with = { a = "0" } }]
"""


def test_an_instance_that_divides_by_zero_is_not_proved_and_no_traceback() -> None:
    report = check(INSTANCE_AT_ZERO)
    inv, use = report.steps
    assert inv.status == "proved"
    assert use.status == "unknown" and "zero" in use.message
