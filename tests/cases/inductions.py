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


def from_zero_on_batch_runs(title: str, rests: str) -> str:
    """An induction `ahead` from theta = 0 over batch runs (which start from 0, from -u and
    from a seeded start: runs off its base are left out), and a step `rests` using its
    claim, whose claim is `rests`: the proof file the audit's base and counterexample tests
    read (newcomer 31 F7, red team 32 F5)."""
    return f"""title = "{title}"
vectors = ["th", "ts", "xb"]
scalars = ["a", "k"]
naturals = ["k"]
[numeric]
run = "batch"
names = {{ th = "theta", ts = "theta_star", xb = "xbar", a = "alpha" }}
[[step]]
id = "ahead"
claim = "dot(th, ts) >= 0"
[step.induction]
variable = "k"
base = {{ th = "0*th" }}
step = {{ th = "th + a*xb" }}
given = ["a >= 0", "dot(ts, xb) >= 0"]
constants = ["ts"]
[[step]]
id = "rests"
uses = ["ahead"]
claim = "{rests}"
"""


def carried_broken_once(title: str, numeric: str) -> str:
    """Two inductions over the same online runs, `b` carrying `a`'s invariant
    `(t - 1)**2 >= 1`, which fails at t = 1 only (red team 30, red team 31's `explain`
    label), titled `title`; `numeric` is its `[numeric]` table ('' for none)."""
    return f"""title = "{title}"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]
{numeric}[[step]]
id = "a"
claim = "(t - 1)**2 >= 1"
[step.induction]
variable = "t"
base = {{ w = "0*w" }}
step = {{ w = "w + y*x" }}
given = ["y*dot(w, x) <= 0"]
[[step]]
id = "b"
claim = "t <= 1"
uses = ["a"]
[step.induction]
variable = "t"
base = {{ w = "0*w" }}
step = {{ w = "w + y*x" }}
given = ["y*dot(w, x) <= 0"]
"""


#: Red team 10's never-updating invariant `a` (`norm2(w) <= 0` over updates on
#: `y<w, x> < 0`) carried by `b`, whose own invariant `t >= 0` holds everywhere: both are
#: vacuous, `b` by `a`'s invariant, which its vacuity must name as `a`'s, not as its own
#: (memb33: "norm2(w) <= 0 (the invariant)" of `b` read as `b`'s claim).
CARRIES_NEVER_UPDATES = """title = "a carried invariant no update keeps"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]
[[step]]
id = "a"
claim = "norm2(w) <= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) < 0"]
[[step]]
id = "b"
uses = ["a"]
claim = "t >= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) < 0"]
"""


def progress_bound(title: str, names: str) -> str:
    """Novikoff's progress induction `dot(w, u) >= k*g` over online runs (proved), its
    counter `k` and margin `g` bound by `names` (the `[numeric] names` table's inside):
    bound to `2*t` the counter miscounts (memb33 open end 1), bound to the example's own
    margin `y*dot(u, x)` the constant `g` varies along a run (adv32b O2)."""
    return f"""title = "{title}"
vectors = ["w", "x", "u"]
scalars = ["y", "k", "g"]
naturals = ["k"]
[numeric]
run = "online"
names = {{ {names} }}
[[step]]
id = "progress"
claim = "dot(w, u) >= k*g"
[step.induction]
variable = "k"
base = {{ w = "0*w" }}
step = {{ w = "w + y*x" }}
given = ["y*dot(u, x) >= g"]
constants = ["u", "g"]
"""


#: An induction whose iterated vector `v` is bound to an expression (`2*w`) and whose step
#: `v - 2*y*x` is not the runs' update (refuted): its step has no `_next` form to check, so
#: "runs: held" stood beside the refutation with nothing said (memb33 open end 2);
#: `{counter}` is the `[numeric] names` entry of its counter `k`.
STEP_OF_AN_EXPRESSION = """title = "an iterated name bound to an expression"
vectors = ["v", "x"]
scalars = ["y", "k", "R2"]
naturals = ["k"]
[numeric]
run = "online"
names = {{ v = "2*w", {counter} }}
[[step]]
id = "norm"
given = ["R2 >= 0"]
claim = "norm2(v) <= 4*k*R2"
[step.induction]
variable = "k"
base = {{ v = "0*v" }}
step = {{ v = "v - 2*y*x" }}
given = ["y*dot(v, x) <= 0", "norm2(x) <= R2", "y**2 == 1"]
constants = ["R2"]
"""


#: Novikoff's progress induction with a constant `g` that is a `[define]`d name
#: (`min(a, a)`, `a` the example's own margin, a constant too): memb33 checked `a` to keep
#: one value along a run and skipped `g` without a line (ends35).
DEFINED_CONSTANT = """title = "a constant defined from another"
vectors = ["w", "x", "u"]
scalars = ["y", "k", "g", "a"]
naturals = ["k"]
[define]
g = "min(a, a)"
[numeric]
run = "online"
names = { k = "t", a = "y*dot(u, x)" }
[[step]]
id = "progress"
claim = "dot(w, u) >= k*g"
[step.induction]
variable = "k"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) >= g"]
constants = ["u", "g", "a"]
"""

#: The progress induction with a constant `c` its update facts read and its claim does not
#: (`c` bound to the example's margin): the claim's rows (one per state) do not make what
#: `c` reads, so memb33's check, made on those rows only, skipped it without a line (ends35).
UPDATE_FACTS_CONSTANT = """title = "a constant read by the update facts alone"
vectors = ["w", "x", "u"]
scalars = ["y", "k", "c", "gm"]
naturals = ["k"]
[numeric]
run = "online"
names = { k = "t", gm = "gamma_u", c = "y*dot(u, x)" }
[[step]]
id = "progress"
claim = "dot(w, u) >= k*gm"
[step.induction]
variable = "k"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) >= c", "c >= gm"]
constants = ["u", "gm", "c"]
"""
