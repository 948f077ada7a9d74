"""The norm-growth induction written as a user writes it (`norm2(w) <= k*R2`, updates
`w + y*x` from 0), with its update facts given: the one proof-file text the message, audit
and Coq tests vary (a strict mistake condition, none at all, a step that uses it)."""

from __future__ import annotations

HEADER = 'vectors = ["w", "x"]\nscalars = ["y", "k", "R2"]\nnaturals = ["k"]\n'


def norm_induction(step: str, given: str = '"y**2 == 1", "y*dot(w, x) <= 0", '
                   '"norm2(x) <= R2"') -> str:
    """The `[[step]]` table of the induction `step` with update facts `given`."""
    return (f'\n[[step]]\nid = "{step}"\nclaim = "norm2(w) <= k*R2"\n[step.induction]\n'
            'variable = "k"\nbase = { w = "0*w" }\nstep = { w = "w + y*x" }\n'
            f'given = [{given}]\nconstants = ["R2"]\n')


#: Red team 10's induction: the invariant `norm2(w) <= 0` of updates on `y<w, x> < 0`, which
#: no run from w = 0 makes, so its inductive step's hypotheses are contradictory (the
#: step's own, `R2 >= 0`, are not): vacuous, for the reason the vacuity tests name.
NEVER_UPDATES = """title = "T"
vectors = ["w", "x"]
scalars = ["y", "t", "R2"]
naturals = ["t"]
[[step]]
id = "bound"
given = ["R2 >= 0"]
claim = "norm2(w) <= 0"
[step.induction]
variable = "t"
constants = ["R2"]
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) < 0", "norm2(x) <= R2"]
"""


#: Newcomer 31's alignment induction with a learning rate (`<w, u> >= t*eta*g` from w = 0,
#: updates `w + eta*y*x`), its title `title`: the proof-file text the start-refutation and
#: split-advice tests add their steps to.
def progress_induction(title: str) -> bytes:
    """The header and the `progress` induction of a proof titled `title`."""
    return f"""
title = "{title}"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "g", "eta"]
naturals = ["t"]

[[step]]
id = "progress"
claim = "dot(w, u) >= t*eta*g"
[step.induction]
variable = "t"
base = {{ w = "0*w" }}
step = {{ w = "w + eta*y*x" }}
given = ["eta > 0", "y*dot(u, x) >= g"]
constants = ["u", "g", "eta"]
""".encode()
