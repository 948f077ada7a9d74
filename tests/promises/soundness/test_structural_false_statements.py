"""False statements that go through the structural rules, never proved (kernadv31).

Each attack of red team kernadv31 on the PROVED verdict through the structure around single
judgements (uses chains, `with` instances, splits, inductions, existentials, divisions,
term-wise sums, signs from equalities, imports), kept as a table so it is tested forever:
the file's text, the step, and what it must not be. `FALSE` steps are false as written and
must not come out proved (each was refuted or unknown when written, as it must be); `REFUSED`
files break a rule and must be bad input (exit 2), never decided. Run with the small budget:
a verdict here is a matter of the rules, not of how long the search looks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS

COUNTER_UPDATE = """title = "counter in the update"
scalars = ["s", "t", "d"]
naturals = ["t"]
[[step]]
id = "in-step"
claim = "2*s == t*(t+1)"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + t" }
[[step]]
id = "in-fact"
claim = "2*s == t*(t+1)"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d == t"]
[[step]]
id = "one-after-another"
claim = "s == t*t - t"
[step.induction]
variable = "t"
base = { s = "0", d = "0" }
step = { d = "d + 1", s = "s + d + 1" }
"""

EXISTENTIALS = """title = "existentials"
scalars = ["a", "B"]
[[step]]
id = "e1"
claim = "B >= a"
witness = { B = "a" }
[[step]]
id = "e2"
claim = "B <= a - 1"
witness = { B = "a - 1" }
[[step]]
id = "g"
given = ["B <= 0"]
claim = "B <= 0"
[[step]]
id = "h"
uses = ["e1"]
claim = "a*a >= 0"
[[step]]
id = "two-of-one-name"
uses = ["e1", "e2"]
claim = "0 >= 1"
[[step]]
id = "beside-a-hypothesis-on-it"
uses = ["e1", "g"]
claim = "a <= 0"
[[step]]
id = "through-a-step"
uses = ["h"]
given = ["B <= 0"]
claim = "a <= 0"
"""

SPLITS_AND_DIVISIONS = """title = "splits and divisions"
scalars = ["a", "b"]
[[step]]
id = "non-strict-boundary"
given = ["a >= 0"]
claim = "a > 0"
split = { on = "a", zero = false }
[[step]]
id = "product-boundary"
given = ["a*b >= 0"]
claim = "a >= 0"
split = { on = "a*b", zero = true }
[[step]]
id = "split-on-nothing"
claim = "a >= 0"
split = { on = "a - a", zero = true }
[[step]]
id = "zero-denominator-in-a-case"
given = ["a >= 0"]
claim = "a*(b/a) == b"
split = { on = "a" }
[[step]]
id = "zero-denominator-square"
given = ["a*a >= 0"]
claim = "1/(a*a) > 0"
"""

SIGNS = """title = "signs from equalities"
scalars = ["e", "t", "s", "g"]
naturals = ["t"]
[[step]]
id = "p-not-positive"
given = ["e*(t - 1) == 1"]
claim = "e*g**2 >= 0"
[[step]]
id = "p-of-a-real"
given = ["e*(s + 1) == 1"]
claim = "e*g**2 >= 0"
[[step]]
id = "c-zero"
given = ["e*(t + 1) == 0", "s >= 0"]
claim = "e >= 1"
[[step]]
id = "c-negative"
given = ["e*(t + 1) == -1"]
claim = "e*g**2 >= 0"
[[step]]
id = "two-signs"
given = ["e*(t + 1) == 1", "s*(t+2) == 1"]
claim = "e*s >= 1"
"""

SUMS = """title = "term-wise"
scalars = ["y", "j", "N"]
naturals = ["N"]
indexed = ["y"]
[sets]
P = { index = "j", range = "1..N", where = ["y[j] > 0"] }
[[step]]
id = "member-strict"
given = ["j >= 1", "j <= N", "y[j] > 0"]
claim = "y[j] > 0"
[[step]]
id = "strict-over-a-set-maybe-empty"
uses = [{ step = "member-strict", sum = "j in P" }]
claim = "sum(j in P, y[j]) > 0"
[[step]]
id = "member-reversed"
given = ["j >= N", "j <= 1"]
claim = "j - 1 <= 0"
[[step]]
id = "reversed-range"
uses = [{ step = "member-reversed", sum = "j in N..1" }]
claim = "sum(j in N..1, j) <= N"
"""

NATURALS = """title = "an induction's counter where it is not natural"
scalars = ["t"]
naturals = []
[[step]]
id = "a"
claim = "t*(t-1) >= 0"
[step.induction]
variable = "t"
base = {}
step = {}
[[step]]
id = "real-t"
uses = ["a"]
claim = "t*(t-1) >= 0"
"""

PER_UPDATE_DEFINITION = """title = "a defined name read by the update"
scalars = ["s", "t", "m", "d"]
naturals = ["t"]
[define]
m = "max(d, 0)"
[[step]]
id = "no-update-fact"
claim = "s <= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + m" }
"""

FALSE = [
    (COUNTER_UPDATE, "in-step"), (COUNTER_UPDATE, "in-fact"),
    (COUNTER_UPDATE, "one-after-another"),
    (EXISTENTIALS, "two-of-one-name"), (EXISTENTIALS, "beside-a-hypothesis-on-it"),
    (EXISTENTIALS, "through-a-step"),
    *((SPLITS_AND_DIVISIONS, s) for s in ("non-strict-boundary", "product-boundary",
                                          "split-on-nothing", "zero-denominator-in-a-case",
                                          "zero-denominator-square")),
    *((SIGNS, s) for s in ("p-not-positive", "p-of-a-real", "c-zero", "c-negative",
                           "two-signs")),
    (SUMS, "strict-over-a-set-maybe-empty"), (SUMS, "reversed-range"),
    (NATURALS, "real-t"), (PER_UPDATE_DEFINITION, "no-update-fact"),
]


@pytest.mark.parametrize(("text", "step"), FALSE, ids=[s for _, s in FALSE])
def test_a_false_statement_through_the_structure_is_not_proved(text: str, step: str) -> None:
    report = check_proof(parse_proof(text.encode(), "structural.toml"), budget=BUDGETS["small"])
    assert {s.step.id: s.status for s in report.steps}[step] != "proved"


REFUSED = {
    "lemma-inherited-hypothesis": """title = "t"
scalars = ["s", "t", "x"]
naturals = ["t"]
[[step]]
id = "m"
given = ["x >= 5"]
claim = "x >= 5"
[[step]]
id = "l"
uses = ["m"]
claim = "x - 5 >= 0"
[[step]]
id = "i"
uses = ["l"]
claim = "s >= 5*t"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + x" }
""",
    "lemma-hypothesis-a-split-case": """title = "t"
scalars = ["s", "t", "x"]
naturals = ["t"]
[[step]]
id = "l"
given = ["x >= 0"]
claim = "x >= 0"
[[step]]
id = "i"
uses = ["l"]
claim = "s >= 0"
split = { on = "x", zero = false }
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + x" }
""",
    "lemma-by-an-instance": """title = "t"
scalars = ["s", "t", "x", "a", "b"]
naturals = ["t"]
[[step]]
id = "l"
given = ["a >= b"]
claim = "a - b >= 0"
[[step]]
id = "i"
uses = [{ step = "l", with = { a = "x", b = "5" } }]
claim = "s >= 5*t"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + x" }
""",
    "instance-of-an-existential": """title = "t"
scalars = ["a", "B", "c"]
[[step]]
id = "e1"
claim = "B >= a"
witness = { B = "a" }
[[step]]
id = "f"
uses = [{ step = "e1", with = { a = "c" } }]
given = ["B <= 0"]
claim = "c <= 0"
""",
    "definition-reads-the-counter": """title = "t"
scalars = ["s", "t", "m"]
naturals = ["t"]
[define]
m = "max(t, 0)"
[[step]]
id = "m-stays-0"
claim = "m <= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + 1" }
""",
    "natural-onto-an-expression": """title = "t"
scalars = ["n", "m"]
naturals = ["n", "m"]
[[step]]
id = "l"
claim = "n >= 0"
[[step]]
id = "onto-expr"
uses = [{ step = "l", with = { n = "m - 1" } }]
claim = "m >= 1"
""",
    "summed-hypothesis-no-membership-fact": """title = "t"
scalars = ["j", "N", "c"]
naturals = ["N"]
[[step]]
id = "member"
given = ["j >= 1", "j <= N", "j >= c"]
claim = "j - c >= 0"
[[step]]
id = "sum"
uses = [{ step = "member", sum = "j in 1..N" }]
claim = "sum(j in 1..N, j) >= N*c"
""",
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_a_structural_attack_that_breaks_a_rule_is_refused(text: str) -> None:
    with pytest.raises(ProofFileError):
        check_proof(parse_proof(text.encode(), "structural.toml"), budget=BUDGETS["small"])


DEFINES_R = ('title = "defs"\nscalars = ["a", "b", "r"]\n[define]\nr = "max(a, b)"\n'
             '[[step]]\nid = "rb"\nclaim = "r >= b"\n')


@pytest.mark.parametrize("with_", ['{ a = "b + 1" }', '{ b = "a + 1" }'])
def test_an_instance_replacing_what_an_imported_definition_reads_is_refused(
        tmp_path: Path, with_: str) -> None:
    """`r = max(a, b)` in the import: `r >= b + 1` from `rb` with `a := b + 1` would be read
    about the r this file shares with it (false at a = b = 0)."""
    (tmp_path / "defs.toml").write_text(DEFINES_R, encoding="utf-8")
    text = ('title = "main"\nscalars = ["a", "b"]\n[imports]\nd = "defs.toml"\n[[step]]\n'
            f'id = "bigger"\nuses = [{{ step = "d/rb", with = {with_} }}]\nclaim = "r >= b + 1"\n')
    with pytest.raises(ProofFileError, match="read by the definition of r"):
        check_proof(parse_proof(text.encode(), str(tmp_path / "main.toml")),
                    budget=BUDGETS["small"])
