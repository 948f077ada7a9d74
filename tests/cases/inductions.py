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
