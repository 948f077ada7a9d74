"""The run wing (docs/design.md §1): what a run offers to a proof.

- `columns`: the exact column types a run's rows are built of;
- `quantity`: `Quantity`, `RowSet`, `RunKind` and the open registry of run kinds;
- `families`: the dataset's families a kind offers (`X`, `Y` over 1..N), a run's history
  (`HISTORY`: the updates and the stream of an online, single-pass or cyclic run, the sizes
  of a batch run's sets) and the exact columns of sums and family members on a run's rows;
- `online`, `batch`, `single_pass`, `cyclic`: the built-in kinds, one module each
  (quantities, engine adapters, runners, row builders), registered when this package is
  imported: it imports every module of its own but its machinery (`_MACHINERY`), so a new
  built-in kind is one new module, touching no other file;
- `naming`: what a proof's names denote on runs (`[numeric] names`, expressions over the
  quantities of its kind);
- `plugin`: users' own algorithms (online or batch), run only when the user names them;
- `isolation`: each call of a user's code in a child process of its own, under a deadline;
- `docs`: docs/run-quantities.md, generated from the registry.

A user adds a run kind with `register` (or names an installed entry point of the group
`novikoff.runs`, `entry_point`); a proof file alone never runs code. This package sits below
`verify.numeric` (the campaign reads it, it never reads the campaign).
"""

import importlib
import pkgutil

from verify.runs.quantity import (
    Joint,
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
    seal_built_ins,
    unregister,
)

#: The wing's own machinery: every other module of this package is a built-in run kind.
_MACHINERY = {"columns", "quantity", "families", "naming", "plugin", "isolation", "docs"}

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module not in _MACHINERY:  # (`docs` is also run as a script: not imported here)
        importlib.import_module(f"{__name__}.{_module}")  # registers its kind
seal_built_ins()

__all__ = ["Joint", "Quantity", "RowSet", "RunKind", "Scenario", "UnknownRunKind", "entry_point",
           "kind", "kind_of", "kinds", "register", "unregister"]
