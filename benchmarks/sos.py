"""The example goals of the two standard sum-of-squares provers, as proof files (issue 28).

Sources (each goal cites its file and line):

* `sos.ml`: HOL Light `Examples/sos.ml` (Harrison), jrh13/hol-light, the examples at lines
  1611-1894 (`REAL_SOS`, `SOS_CONV`, `PURE_SOS`). `lean` marks the goals that Lean's
  `leanprover/sos` tactic closes (its `SOSTest/Harrison.lean`, the cases not marked FIXME).
* `linarith.lean`: Mathlib's `MathlibTest/linarith.lean` (leanprover-community/mathlib4 at
  00d9f04), its `linarith` and `nlinarith` examples over ordered fields; line numbers were
  counted in that stored copy. Goals over ℕ declare their names `naturals`; an opaque term
  (`mess S`, `2 ^ i`, `1 / a`) is a fresh scalar, as linarith's atoms are; a `False`
  conclusion is `0 >= 1`; `¬ (a < b)` is `a >= b`; a goal `a ≠ b` from `a < b` is `a < b`'s
  contrapositive, `a == b |- 0 >= 1`.

Left out, with the reason in `EXCLUDED`: disjunctive conclusions (the proof language has one
relation per claim), goals that need a lemma the tactic is given (`Rat.num_pos`), and goals
about naturals' `DIV`/`MOD` (`SOS_RULE`), which are not real-closed-field goals.

Each goal becomes a one-step proof file checked by `verify.proof_checker.check_proof` at the
chosen budget: proved, unknown or refuted per source, the time per goal, and the median and
maximum; then the goals left unknown are run again at `--budget large`, one line each. A
script that prints figures; `tests/test_benchmarks_sos.py` runs its smallest size.

    python benchmarks/sos.py [--budget small|default|large] [--tiny] [--source sos.ml|linarith]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass

from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS


@dataclass(frozen=True)
class Goal:
    """One example: where it is, its names, hypotheses and claim."""

    source: str
    line: int
    scalars: tuple[str, ...]
    given: tuple[str, ...]
    claim: str
    lean: bool = False  # closed by leanprover/sos (sos.ml goals only)
    naturals: tuple[str, ...] = ()
    define: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.source}:{self.line}"

    def toml(self) -> str:
        """The goal as a one-step proof file."""
        quoted = ", ".join(f'"{g}"' for g in self.given)
        lines = [f'title = "{self.label}"',
                 "scalars = [" + ", ".join(f'"{s}"' for s in self.scalars) + "]"]
        if self.naturals:
            lines.append("naturals = [" + ", ".join(f'"{n}"' for n in self.naturals) + "]")
        if self.define:
            lines.append("[define]")
            lines += [f'{name} = "{text}"' for name, text in self.define]
        lines += ["[[step]]", 'id = "goal"', f"given = [{quoted}]", f'claim = "{self.claim}"']
        return "\n".join(lines) + "\n"


S, L = "sos.ml", "linarith.lean"
XYZ, XY = ("x", "y", "z"), ("x", "y")
GOALS: tuple[Goal, ...] = (
    # -- HOL Light Examples/sos.ml ------------------------------------------------------------
    Goal(S, 1617, ("a1", "a2", "b1", "b2"),
         ("a1 >= 0", "a2 >= 0", "a1*a1 + a2*a2 == b1*b1 + b2*b2 + 2", "a1*b1 + a2*b2 == 0"),
         "a1*a2 - b1*b2 >= 0"),
    Goal(S, 1623, ("x", "a"), ("3*x + 7*a < 4", "3 < 2*x"), "a < 0"),
    Goal(S, 1625, ("a", "b", "c", "x"), ("b**2 < 4*a*c", "a*x**2 + b*x + c == 0"), "0 >= 1"),
    Goal(S, 1628, ("a", "b", "c", "x"), ("a*x**2 + b*x + c == 0",), "b**2 >= 4*a*c",
         lean=True),
    Goal(S, 1638, ("a", "b", "c", "x", "y"),
         ("0 <= b", "0 <= c", "0 <= x", "0 <= y", "x**2 == c", "y**2 == a**2*c + b"),
         "a*c <= y*x"),
    Goal(S, 1643, XYZ, ("0 <= x", "0 <= y", "0 <= z", "x + y + z <= 3"),
         "x*y + x*z + y*z >= 3*x*y*z"),
    Goal(S, 1647, XYZ, ("x**2 + y**2 + z**2 == 1",), "(x + y + z)**2 <= 3", lean=True),
    Goal(S, 1650, ("w", *XYZ), ("w**2 + x**2 + y**2 + z**2 == 1",), "(w + x + y + z)**2 <= 4",
         lean=True),
    Goal(S, 1654, XY, ("x >= 1", "y >= 1"), "x*y >= x + y - 1"),
    Goal(S, 1657, XY, ("x > 1", "y > 1"), "x*y > x + y - 1"),
    Goal(S, 1660, ("x", "ax", "ap"), ("ax <= 1",), "ap <= 1",
         define=(("ax", "max(x, -x)"),
                 ("ap", "max(64*x**7 - 112*x**5 + 56*x**3 - 7*x, "
                        "-(64*x**7 - 112*x**5 + 56*x**3 - 7*x))"))),
    Goal(S, 1664, ("x", "y", "z", "e", "u", "v", "p", "q", "r"),
         ("p <= e", "q <= e", "0 <= u", "0 <= v", "u + v == 1"), "r <= e",
         define=(("p", "max(x - z, z - x)"), ("q", "max(y - z, z - y)"),
                 ("r", "max(u*x + v*y - z, z - (u*x + v*y))"))),
    Goal(S, 1672, XYZ, ("2 <= x", "x <= 125841/50000", "2 <= y", "y <= 125841/50000",
                        "2 <= z", "z <= 125841/50000"),
         "2*(x*z + x*y + y*z) - (x*x + y*y + z*z) >= 0"),
    Goal(S, 1682, XYZ, ("2 <= x", "x <= 4", "2 <= y", "y <= 4", "2 <= z", "z <= 4"),
         "0 <= 2*(x*z + x*y + y*z) - (x*x + y*y + z*z)"),
    Goal(S, 1690, XYZ, ("2 <= x", "x <= 4", "2 <= y", "y <= 4", "2 <= z", "z <= 4"),
         "12 <= 2*(x*z + x*y + y*z) - (x*x + y*y + z*z)"),
    Goal(S, 1710, XY, ("0 <= x", "0 <= y", "x*y == 1"), "x + y <= x**2 + y**2"),
    Goal(S, 1714, XY, ("0 <= x", "0 <= y", "x*y == 1"), "x*y*(x + y) <= x**2 + y**2",
         lean=True),
    Goal(S, 1718, XY, ("0 <= x", "0 <= y"), "x*y*(x + y)**2 <= (x**2 + y**2)**2", lean=True),
    Goal(S, 1789, XY, (), "2*x**4 + 2*x**3*y - x**2*y**2 + 5*y**4 >= 0", lean=True),
    Goal(S, 1792, XYZ, (), "x**4 - (2*y*z + 1)*x**2 + (y**2*z**2 + 2*y*z + 2) >= 0",
         lean=True),
    Goal(S, 1796, XY, (), "4*x**4 + 4*x**3*y - 7*x**2*y**2 - 2*x*y**3 + 10*y**4 >= 0",
         lean=True),
    Goal(S, 1800, XY, (), "4*x**4*y**6 + x**2 - x*y**2 + y**2 >= 0", lean=True),
    Goal(S, 1802, ("x", "z"), (), "4096*(x**4 + x**2 + z**6 - 3*x**2*z**2) + 729 >= 0",
         lean=True),
    Goal(S, 1805, XY, (), "120*x**2 - 63*x**4 + 10*x**6 + 30*x*y - 120*y**2 + 120*y**4 + 31 >= 0"),
    Goal(S, 1809, XYZ, (), "9*x**2*y**4 + 9*x**2*z**4 + 36*x**2*y**3 + 36*x**2*y**2 "
         "- 48*x*y*z**2 + 4*y**4 + 4*z**4 - 16*y**3 + 16*y**2 >= 0", lean=True),
    Goal(S, 1814, XYZ, (), "(x**2 + y**2 + z**2)*(x**4*y**2 + x**2*y**4 + z**6 "
         "- 3*x**2*y**2*z**2) >= 0", lean=True),
    Goal(S, 1819, XYZ, (), "x**4 + y**4 + z**4 - 4*x*y*z + x + y + z + 3 >= 0", lean=True),
    Goal(S, 1829, ("x",), (), "100*((2*x - 2)**2 + (x**3 - 8*x - 2)**2) - 588 >= 0"),
    Goal(S, 1832, XY, (), "x**2*(120 - 63*x**2 + 10*x**4) + 30*x*y "
         "+ 30*y**2*(4*y**2 - 4) + 31 >= 0"),
    Goal(S, 1840, XYZ, (), "x**4 + y**4 + z**4 - 4*x*y*z + x + y + z + 3 >= 1/7", lean=True),
    Goal(S, 1844, ("x",), (), "0 <= 98*x**12 - 980*x**10 + 3038*x**8 - 2968*x**6 "
         "+ 1022*x**4 - 84*x**2 + 2", lean=True),
    Goal(S, 1853, ("x",), (), "0 <= 2*x**14 - 84*x**12 + 1022*x**10 - 2968*x**8 "
         "+ 3038*x**6 - 980*x**4 + 98*x**2", lean=True),
    Goal(S, 1867, XYZ, (), "x**6 + y**6 + z**6 - 3*x**2*y**2*z**2 >= 0", lean=True),
    Goal(S, 1870, XYZ, (), "x**4 + y**4 + z**4 + 1 - 4*x*y*z >= 0", lean=True),
    Goal(S, 1872, XYZ, (), "x**4 + 2*x**2*z + x**2 - 2*x*y*z + 2*y**2*z**2 + 2*y*z**2 "
         "+ 2*z**2 - 2*x + 2*y*z + 1 >= 0", lean=True),
    Goal(S, 1879, XYZ, (), "x**4*y**4 - 2*x**5*y**3*z**2 + x**6*y**2*z**4 + 2*x**2*y**3*z "
         "- 4*x**3*y**2*z**3 + 2*x**4*y*z**5 + z**2*y**2 - 2*z**4*y*x + z**6*x**2 >= 0",
         lean=True),
    Goal(S, 1886, ("w", *XYZ), (), "x**4 + 4*x**2*y**2 + 2*x*y*z**2 + 2*x*y*w**2 + y**4 "
         "+ z**4 + w**4 + 2*z**2*w**2 + 2*x**2*w + 2*y**2*w + 2*x*y + 3*w**2 + 2*z**2 + 1 "
         ">= 0", lean=True),
    Goal(S, 1891, ("w", *XYZ), (), "w**6 + 2*z**2*w**3 + x**4 + y**4 + z**4 + 2*x**2*w "
         "+ 2*x**2*z + 3*x**2 + w**2 + 2*z*w + z**2 + 2*z + 2*w + 1 >= 0", lean=True),
    # -- Mathlib MathlibTest/linarith.lean --------------------------------------------------
    Goal(L, 17, ("a", "b"), ("a < b", "b < a"), "0 >= 1"),
    Goal(L, 21, ("a", "b", "c"), ("a < 0", "c == 0", "(1 - a)*(b*b) <= 0",
                                  "-(a*(-b)*(-b) + b*(-b) + 0) == (1 - a)*(b*b)"), "0 < 1 - a"),
    Goal(L, 34, ("e", "b", "c", "a", "v0", "v1"), ("v0 == 5*a", "v1 == 3*b", "v0 + v1 + c == 10"),
         "v0 + 5 + (v1 - 3) + (c - 2) == 10"),
    Goal(L, 46, ("u", "v", "r", "s", "t"), ("0 < u*(t*v + t*r + s)",),
         "0 < (t*(r + v) + s)*3*u"),
    Goal(L, 49, ("A", "B"), ("0 < A*B",), "0 < 8*A*B"),
    Goal(L, 52, ("A", "B"), ("0 < A*B",), "0 < A*8*B"),
    Goal(L, 75, ("A", "B"), ("0 < A*B",), "0 < A*B/8"),
    Goal(L, 78, ("A", "B"), ("0 < A*B",), "0 < A/8*B"),
    Goal(L, 81, ("e",), ("e > 0",), "e/2 + e/3 + e/7 < e"),
    Goal(L, 84, XYZ, ("2*x < 3*y", "-4*x + z/2 < 0", "12*y - z < 0"), "0 >= 1"),
    Goal(L, 88, ("e",), ("0 < e",), "e/2 < e"),
    Goal(L, 90, ("e",), ("0 < e",), "e/3 + e/3 + e/3 == e"),
    Goal(L, 93, ("x",), ("0 < x",), "0 < x/1"),
    Goal(L, 96, ("x",), ("x < 0",), "0 < -x"),
    Goal(L, 98, ("x",), ("x < 0",), "0 < -x/2"),
    Goal(L, 100, ("x",), ("x < 0",), "0 < -5*x/4"),
    Goal(L, 102, ("x",), ("0 < x",), "0 < x/2/3"),
    Goal(L, 104, ("x",), ("0 < x",), "0 < 3*x/2"),
    Goal(L, 108, ("a",), ("10/(8 + 2) <= a",), "1 <= a"),
    Goal(L, 110, ("a",), ("10/10**1 <= a",), "1 <= a"),
    Goal(L, 114, ("a",), ("1.0 <= a",), "1 <= a"),
    Goal(L, 121, ("b",), ("b + 2 > 3 + b",), "0 >= 1"),
    Goal(L, 128, ("g", "v", "V", "c", "h"),
         ("h == 0", "v == V", "V > 0", "g > 0", "0 <= c", "c < 1"), "v <= V"),
    Goal(L, 132, XYZ, ("2*x < 3*y", "-4*x + 2*z < 0", "12*y - 4*z < 0"), "0 >= 1"),
    Goal(L, 135, XYZ, ("2*x < 3*y", "-4*x + 2*z < 0", "x*y < 5", "12*y - 4*z < 0"), "0 >= 1"),
    Goal(L, 139, ("a", "b", "c"), ("a > 0", "b > 5", "c < -10", "a + b - c < 3"), "0 >= 1"),
    Goal(L, 142, ("b",), ("b > 0", "b < 0"), "0 >= 1"),
    Goal(L, 145, XYZ, ("x <= 3*y", "y <= 2*z", "x >= 6*z"), "x == 3*y"),
    Goal(L, 148, XYZ, ("2*x < 3*y", "-4*x + 2*z < 0", "x*y < 5"), "12*y - 4*z >= 0"),
    Goal(L, 154, XY, ("6 + ((x + 4)*x + (6 + 3*y)*y) == 3", "(x + 4)*x >= 0",
                      "(6 + 3*y)*y >= 0"), "0 >= 1"),
    Goal(L, 158, ("a",), ("0 <= a",), "0*0 <= 2*a"),
    Goal(L, 161, XY, ("x < y", "x == y"), "0 >= 1"),
    Goal(L, 173, XYZ, ("2*x + ((-3)*y) < 0", "(-4)*x + 2*z < 0", "12*y + (-4)*z < 0"), "0 >= 1"),
    Goal(L, 177, XYZ, ("2*1*x + 3*(y*(-1)) < 0", "(-2)*x*2 < -(z + z)", "12*y + (-4)*z < 0"),
         "0 >= 1"),
    Goal(L, 181, ("w", *XYZ), ("4*x + (-3)*y + 6*w <= 0", "(-1)*x < 0", "y < 0", "w >= 0"),
         "0 >= 1"),
    Goal(L, 201, ("p", "q"), ("p <= q",), "0 <= q - p"),
    Goal(L, 205, ("b",), ("b > 0", "b < 0"), "0 >= 1"),
    Goal(L, 208, ("a", "b", "c"), ("2 > 3",), "a + b - c >= 3"),
    Goal(L, 212, XY, ("6 + ((x + 4)*x + (6 + 3*y)*y) == 3", "(x + 4)*x >= 0",
                      "(6 + 3*y)*y >= 0"), "0 >= 1"),
    Goal(L, 228, ("a", "b", "c"), (), "a + b >= a", naturals=("a", "b", "c")),
    Goal(L, 231, ("a", "b", "i"), ("a >= i", "b < i", "a <= b"), "0 >= 1",
         naturals=("a", "b", "i")),
    Goal(L, 240, XYZ, ("x <= 3*y", "y <= 2*z", "x >= 6*z"), "x == 3*y", naturals=XYZ),
    Goal(L, 243, ("a", "b", "c"), (), "a + b >= a", naturals=("a", "b", "c")),
    Goal(L, 255, ("i",), ("i > 5",), "2*i + 3 > 11"),
    Goal(L, 258, ("m",), (), "m*m + m + (2*m + 2) == m*m + m + (m + 1) + (m + 1)",
         naturals=("m",)),
    Goal(L, 261, ("mS", "n"), (), "mS + (n*mS + n*2 + 1) < n*mS + mS + (n*2 + 2)",
         naturals=("mS", "n")),
    Goal(L, 265, ("p", "n", "pp", "nn"), ("p + nn == pp + n",), "n + pp == nn + p",
         naturals=("p", "n", "pp", "nn")),
    Goal(L, 268, ("ia", "b", "c"), ("ia < b", "b < c"), "ia < c"),
    Goal(L, 271, ("N", "n", "A", "l"), ("n > N", "A - l <= -(A - l)", "A > -A", "l > -l",
                                        "-(A - l) < 1"), "A < l + 1", naturals=("N", "n")),
    Goal(L, 275, ("d", "q", "n"), ("(q - 1)*n >= 0", "d == 2/3*((q - 1)*n)"),
         "d <= (q - 1)*n", naturals=("q", "n")),
    Goal(L, 279, ("d", "q", "n"), ("(q - 1)*n >= 0", "d == 2/3*((q - 1)*n)"),
         "(q - 1)*n - d == 1/3*((q - 1)*n)", naturals=("q", "n")),
    Goal(L, 283, XYZ, ("x < 5", "x > 5", "y < 5000000000", "z > 34*y"), "0 >= 1"),
    Goal(L, 286, XYZ, ("x < 5", "y < 5000000000", "z > 34*y"), "x <= 5"),
    Goal(L, 299, XY, ("x + y == 10", "x + 2*y <= 18", "x < 2"), "0 >= 1"),
    Goal(L, 303, ("u", "v", "x", "y", "A", "B"),
         ("0 < A", "0 <= 1 - A", "0 <= B - 1", "0 <= B - x", "0 <= B - y", "0 <= u",
          "0 <= v", "0 < A - u", "0 < A - v"), "u*y + v*x + u*v < 3*A*B"),
    Goal(L, 316, ("u", "v", "x", "y", "A", "B"),
         ("0 < A", "A <= 1", "1 <= B", "x <= B", "y <= B", "0 <= u", "0 <= v", "u < A",
          "v < A"), "u*y + v*x + u*v < 3*A*B"),
    Goal(L, 324, ("u", "v", "x", "y", "A", "B"),
         ("0 < A - u", "0 < A - v", "0 <= A*(1 - A)", "0 <= A*(B - 1)", "0 < A*(A - u)",
          "0 <= (B - 1)*(A - u)", "0 <= (B - 1)*(A - v)", "0 <= (B - x)*v",
          "0 <= (B - y)*u", "0 <= u*(A - v)"), "u*y + v*x + u*v < 3*A*B"),
    Goal(L, 434, ("A", "B"), ("0 < A", "1 <= B"), "0 < A/8*B"),
    Goal(L, 438, XY, (), "0 <= x**2 + y**2"),
    Goal(L, 441, XY, (), "0 <= x*x + y*y"),
    Goal(L, 444, XY, ("x == 0", "y == 0"), "x*x + y*y == 0"),
    Goal(L, 455, XY, ("x*x + y*y == 0",), "x == 0"),
    Goal(L, 458, XY, ("x*x + y*y <= 0",), "y == 0"),
    Goal(L, 461, XY, ("x*x + y*y <= 0",), "x == 0"),
    Goal(L, 471, ("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3"),
         ("a1 + a2 + a3 == b1 + b2 + b3", "c1 + c2 + c3 == d1 + d2 + d3"),
         "a1*c1 + a2*c1 + a3*c1 + a1*c2 + a2*c2 + a3*c2 + a1*c3 + a2*c3 + a3*c3 == "
         "b1*d1 + b2*d1 + b3*d1 + b1*d2 + b2*d2 + b3*d2 + b1*d3 + b2*d3 + b3*d3",
         naturals=("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3")),
    Goal(L, 479, ("p", "q", "r", "s", "t", "u", "v", "w"), ("p + u == q + t", "r + w == s + v"),
         "p*r + q*s + (t*w + u*v) == p*s + q*r + (t*v + u*w)",
         naturals=("p", "q", "r", "s", "t", "u", "v", "w")),
)
GOALS = (*GOALS, Goal(L, 339, ("u", "v", "x", "y", "A", "B"), (
    "0 < A", "0 <= 1 - A", "0 <= B - 1", "0 <= B - x", "0 <= B - y", "0 <= u", "0 <= v",
    "0 < A - u", "0 < A - v", "0 < A*A",
    *(f"0 <= ({a})*({b})" for a in ("A", "1 - A", "B - 1", "B - x", "B - y", "u", "v",
                                    "A - u", "A - v")
      for b in ("A", "1 - A", "B - 1", "B - x", "B - y", "u", "v", "A - u", "A - v")
      if (a, b) != ("A", "A"))), "u*y + v*x + u*v < 3*A*B"))
EXCLUDED = (
    (S, 1631, "a disjunctive conclusion (one relation per claim)"),
    (S, 1725, "SOS_RULE goals over num with DIV/MOD (lines 1725-1783): not real closed field"),
    (L, 187, "needs the lemma Rat.num_pos the tactic is handed"),
    (L, 43, "closed numerals only (3 < 7 from 1 < 0 over Z): kept out, no variables"),
)


def run(goals: tuple[Goal, ...], budget: str) -> list[tuple[Goal, str, float, str]]:
    """Each goal's status, seconds and message, checked as a one-step proof file."""
    out = []
    for goal in goals:
        proof = parse_proof(goal.toml().encode(), goal.label)
        start = time.perf_counter()
        report = check_proof(proof, budget=BUDGETS[budget])
        seconds = time.perf_counter() - start
        (step,) = report.steps
        out.append((goal, step.status, seconds, step.message))
    return out


def summary(results: list[tuple[Goal, str, float, str]]) -> dict[str, dict[str, float]]:
    """Per source: proved, unknown, refuted, goals, median and max seconds; and the goals
    leanprover/sos closes (sos.ml) proved here."""
    table: dict[str, dict[str, float]] = {}
    for source in sorted({g.source for g, *_ in results}):
        rows = [r for r in results if r[0].source == source]
        times = [r[2] for r in rows]
        entry: dict[str, float] = {k: sum(1 for r in rows if r[1] == k)
                                   for k in ("proved", "unknown", "refuted")}
        entry.update(goals=len(rows), median=statistics.median(times), max=max(times))
        lean = [r for r in rows if r[0].lean]
        if lean:
            entry.update(lean=len(lean), lean_proved=sum(1 for r in lean if r[1] == "proved"))
        table[source] = entry
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="default")
    parser.add_argument("--tiny", action="store_true", help="three goals per source")
    parser.add_argument("--source", choices=(S, "linarith"), default=None)
    args = parser.parse_args(argv)
    goals = GOALS
    if args.source:
        goals = tuple(g for g in goals if g.source.startswith(args.source))
    if args.tiny:
        goals = tuple(g for s in (S, L) for g in [g for g in goals if g.source == s][:3])
    results = run(goals, args.budget)
    for goal, status, seconds, message in results:
        note = "" if status == "proved" else f"  {message[:110]}"
        print(f"{goal.label:<20} {status:<8} {seconds:6.2f} s{note}")
    for source, entry in summary(results).items():
        lean = (f", leanprover/sos closes {entry['lean']:.0f}: {entry['lean_proved']:.0f} "
                "proved here" if "lean" in entry else "")
        print(f"{source}: {entry['proved']:.0f} proved, {entry['unknown']:.0f} unknown, "
              f"{entry['refuted']:.0f} refuted of {entry['goals']:.0f}; median "
              f"{entry['median']:.2f} s, max {entry['max']:.2f} s{lean}")
    if args.budget != "large":  # what `--budget large` buys: the goals left unknown, again
        unknown = tuple(goal for goal, status, _, _ in results if status == "unknown")
        for goal, status, seconds, _ in run(unknown, "large"):
            print(f"at --budget large: {goal.label:<20} {status:<8} {seconds:6.2f} s")
    for source, line, why in EXCLUDED:
        print(f"left out {source}:{line}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
