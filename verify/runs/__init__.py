"""The run wing (docs/design.md §1): what a run offers to a proof.

- `columns`: the exact column types a run's rows are built of;
- `quantity`: `Quantity`, `RowSet`, `RunKind` and the open registry of run kinds;
- `online`, `batch`, `single_pass`, `cyclic`: the built-in kinds, one module each
  (quantities, engine adapters, runners, row builders), registered when this package is
  imported;
- `naming`: what a proof's names denote on runs (`[numeric] names`, expressions over the
  quantities of its kind);
- `plugin`: users' own algorithms (online or batch), run only when the user names them;
- `isolation`: each call of a user's code in a child process of its own, under a deadline;
- `docs`: docs/run-quantities.md, generated from the registry.

A user adds a run kind with `register` (or names an installed entry point of the group
`novikoff.runs`, `entry_point`); a proof file alone never runs code. This package sits below
`verify.numeric` (the campaign reads it, it never reads the campaign).
"""

from verify.runs import batch, cyclic, online, single_pass  # noqa: F401  (the built-in kinds register)
from verify.runs.quantity import (
    Quantity,
    RowSet,
    RunKind,
    Scenario,
    UnknownRunKind,
    entry_point,
    kind,
    kind_of,
    kinds,
    register,
    unregister,
)

__all__ = ["Quantity", "RowSet", "RunKind", "Scenario", "UnknownRunKind", "entry_point", "kind",
           "kind_of", "kinds", "register", "unregister"]
