"""Red team 6 (2026-11-27): what a stranger's proof file made `check` and `audit` say.

1. A `with` instance of a step that mentions a `[define]`d name replaced the name, or a name
   its definition reads, inside the defining facts the used step carries: false claims
   (`norm(w) == 0`, `max(0, a) >= 5`) came out proved from no hypothesis the user wrote. Such
   an instance is now refused, one line naming the definition, exit 2.
2. A copy of a used step printed a `with` term or a hint holding a sum or a family's member
   with SymPy (`sum(_i1 in 1..n: y[_i1])`, `<w,x[1]>`), which does not read back: a
   traceback, or a valid file refused. A copy now substitutes into the terms as written.
3. A refuted induction base printed the values of the names of the step's statement
   (`at s = 0` for a base `s := -1` that fails everywhere), not of the obligation it refutes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.cli import main

DEFINED_NORM = """
title = "an instance that redefines n"
vectors = ["w"]
scalars = ["n"]

[define]
n = "norm(w)"

[[step]]
id = "s"
claim = "n >= 0"

[[step]]
id = "t"
claim = "n == 0"
uses = [{ step = "s", with = { w = "WITH" } }]
"""

DEFINED_MAX = """
title = "an instance that redefines r"
vectors = []
scalars = ["r", "a", "b"]

[define]
r = "max(0, a)"

[[step]]
id = "lemma"
claim = "b**2 >= 0"

[[step]]
id = "s"
claim = "r >= a"
uses = USES

[[step]]
id = "t"
claim = "CLAIM"
uses = [{ step = "s", with = { NAME = "VALUE" } }]
"""

#: (file, what the instance replaces): each a false claim the instance made provable.
REDEFINING = {
    "norm, its vector zeroed": DEFINED_NORM.replace("WITH", "0*w"),
    "norm, its vector doubled": DEFINED_NORM.replace("WITH", "2*w").replace(
        'claim = "n == 0"', 'claim = "norm2(w) == 0"').replace(
        'uses = [{', 'uses = ["s", {'),
    "max, the argument it reads": DEFINED_MAX.replace("USES", "[]").replace(
        "CLAIM", "r >= 5").replace("NAME", "a").replace("VALUE", "5"),
    "max, the defined name itself": DEFINED_MAX.replace("USES", "[]").replace(
        "CLAIM", "a == 7").replace("NAME", "r").replace("VALUE", "7"),
    "max, through a copy (the used step uses another)": DEFINED_MAX.replace(
        "USES", '["lemma"]').replace("CLAIM", "r >= 5").replace("NAME", "a").replace(
        "VALUE", "5"),
}


@pytest.mark.parametrize("text", REDEFINING.values(), ids=REDEFINING.keys())
def test_an_instance_never_gives_a_defined_name_another_value(
        text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ProofFileError, match=r"another value under the same name"):
        parse_proof(text.encode(), "redteam6.toml")
    path = tmp_path / "redefining.toml"
    path.write_text(text)
    assert main(["check", str(path), "--budget", "small"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "step t: uses s: its instance replaces" in err[0]


def test_an_instance_of_names_no_definition_reads_is_still_a_copy() -> None:
    """The refusal is narrow: `b` is read by no definition, so `s`'s instance at `b := 3`
    is read as before (a copy proved again)."""
    text = DEFINED_MAX.replace("USES", '["lemma"]').replace("r >= a", "r >= a + b - b").replace(
        "CLAIM", "r >= a").replace("NAME", "b").replace("VALUE", "3")
    proof = parse_proof(text.encode(), "redteam6.toml")
    assert [s.id for s in proof.steps] == ["lemma", "s", "s--with-1", "t"]


SUMMED = """
title = "copies of terms with sums and members"
vectors = ["w", "x"]
scalars = ["y", "n", "c", "z"]
naturals = ["n"]
indexed = ["y", "x"]

[[step]]
id = "lemma"
claim = "z**2 >= 0"

[[step]]
id = "s"
claim = "c**2 >= 0"
uses = ["lemma"]
hints = ["sum(j in 1..n, y[j])", "c*dot(w, x[1])"]

[[step]]
id = "t"
claim = "sum(j in 1..n, y[j])**2 >= 0"
uses = [{ step = "s", with = { c = "sum(j in 1..n, y[j])" } }]

[[step]]
id = "u"
claim = "dot(w, x[1])**2 >= 0"
uses = [{ step = "s", with = { c = "dot(w, x[1])" } }]
"""


def test_a_copy_reads_sums_and_members_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proof = parse_proof(SUMMED.encode(), "summed.toml")
    copies = {s.id: s for s in proof.steps if "--with-" in s.id}
    assert sorted(c.claim.text for c in copies.values()) == [
        "dot(w, x[1]) ** 2 >= 0", "sum(j in 1..n, y[j]) ** 2 >= 0"]
    assert {h for c in copies.values() for h in c.hint_texts} == {
        "sum(j_1 in 1..n, y[j_1])", "sum(j in 1..n, y[j]) * dot(w, x[1])",
        "sum(j in 1..n, y[j])", "dot(w, x[1]) * dot(w, x[1])"}
    path = tmp_path / "summed.toml"
    path.write_text(SUMMED)
    assert main(["check", str(path), "--budget", "small"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "proved   t" in captured.out and "proved   u" in captured.out


BASE = """
title = "a base that fails"
vectors = []
scalars = ["s", "t", "c"]
naturals = ["t"]

[[step]]
id = "inv"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "BASE" }
step = { s = "s + 1" }
"""


@pytest.mark.parametrize(("base", "point"), [
    ("-1", "any point (its refuted obligation names no variable)"), ("c", "c = -1")])
def test_a_refuted_base_shows_the_values_that_refute_it(
        base: str, point: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "base.toml"
    path.write_text(BASE.replace("BASE", base))
    assert main(["check", str(path), "--budget", "small"]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("refuted"))
    assert line.endswith(f"base: counterexample (dimension-1 screen) at {point}")
    assert "s = " not in line


def test_a_long_chain_of_uses_is_read_without_recursion() -> None:
    """The first version of the refusal above walked the uses recursively: a chain of 999
    steps, each using the one before, ended in a RecursionError traceback (found in the
    session's last read of its own change)."""
    lines = ['title = "chain"', 'vectors = []', 'scalars = ["a", "n"]', "[define]",
             'n = "max(a, 0)"']
    for i in range(999):
        lines += ["[[step]]", f'id = "s{i}"', 'claim = "n >= 0"']
        lines += [f'uses = ["s{i - 1}"]'] if i else []
    lines += ["[[step]]", 'id = "t"', 'claim = "n >= 0"',
              'uses = [{ step = "s998", with = { a = "1" } }]']
    with pytest.raises(ProofFileError, match="another value under the same name"):
        parse_proof("\n".join(lines).encode(), "chain.toml")
