"""Sums printed as a proof file writes them (`verify.typeset.indices.readable`): red team 14
found an induction whose update holds a sum printed with the kernel's canonical index,
`s := s + sum(#1 in 1..N: y[#1]**2)`, in `check --statements`, its reasons and `explain`."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.cli import main
from verify.typeset.indices import as_source, readable

CASES = [
    ("s + sum(#1 in 1..N: y[#1]**2) >= 0", "s + sum(j in 1..N, y[j]**2) >= 0"),
    # the letter avoids every identifier of the text: j and k are names here
    ("sum(#1 in 1..N: y[#1]*j) <= k", "sum(l in 1..N, y[l]*j) <= k"),
    # nested: the outer height reads first
    ("sum(#2 in 1..t: sum(#1 in 1..#2: z[#1]*y[#2]))",
     "sum(j in 1..t, sum(k in 1..j, z[k]*y[j]))"),
    # filters as relations, joined by `and`, their parentheses kept whole
    ("sum(#1 in 1..N where nonneg(y[#1] - 1), pos(a*(b + c)), zero(z[#1]): 1)",
     "sum(j in 1..N where y[j] - 1 >= 0 and a*(b + c) > 0 and z[j] == 0, 1)"),
    # a sum in a range's bound
    ("sum(#1 in 1..sum(#1 in 1..N: n[#1]): y[#1])",
     "sum(j in 1..sum(j in 1..N, n[j]), y[j])"),
    ("no sum here: #1 and sum(k in M, y[k])", "no sum here: #1 and sum(k in M, y[k])"),
]


@pytest.mark.parametrize(("kernel", "reader"), CASES)
def test_a_canonical_sum_reads_as_written(kernel: str, reader: str) -> None:
    assert readable(kernel) == reader
    assert readable(reader) == reader  # idempotent: a readable text is left alone


def test_a_kernel_text_reads_in_proof_file_syntax() -> None:
    """`as_source`, the one home of the kernel's Gram symbols written back as `dot` (a
    judgement's label, typeset by `verify.render.evidence.label_pieces`): its sums as
    `readable` writes them, `<a,b>` as `dot(a, b)`, members too; a relation sign stays."""
    assert as_source("denominator <xb,xb> > 0") == "denominator dot(xb, xb) > 0"
    assert as_source("sum(#1 in 1..N: <w,x[#1]>*y[#1]) <= 0") == (
        "sum(j in 1..N, dot(w, x[j])*y[j]) <= 0")
    assert as_source("t < 0") == "t < 0"


def test_check_statements_and_reasons_read_no_canonical_index(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    """Regression (red team 14): the statement and the reasons of an induction whose update
    holds a sum, in `check --statements`, `explain` and `explain --json`."""
    path = tmp_path / "s.toml"
    path.write_text('''title = "a sum in an update"
scalars = ["y", "N", "t", "s"]
naturals = ["N", "t"]
indexed = ["y"]

[[step]]
id = "b"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + sum(k in 1..N, y[k]**2)" }
constants = ["y", "N"]

[[step]]
id = "odd"
claim = "s >= 1"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s - sum(k in 1..N, y[k]**3)" }
constants = ["y", "N"]
''')
    main(["check", str(path), "--statements"])
    out = capsys.readouterr().out
    assert "s := s + sum(k in 1..N, y[k]**2)" in out, out  # j names the found fact
    assert "#1" not in out and "#2" not in out, out
    for args in (["explain", str(path), "b"], ["explain", str(path), "b", "--json"],
                 ["explain", str(path), "odd"]):
        main(args)
        out = capsys.readouterr().out
        assert "#1" not in out, out
        assert "sum(" in out or "odd" in args, out
