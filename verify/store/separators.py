"""The separators kept for the campaign's sources: found once, re-checked on every audit.

The cyclic sources draw data until they are not separable and run each draw with its Gordan
certificate `lam`; the real source runs each data file with a separator `u`
(`verify.runs.cyclic.decided`). Finding those certificates took SciPy's LP, and its import
alone cost 0.45 CPU-seconds in each process of the audit's pool, on the same data sets every
audit. So, as the certificate store keeps the search's results for the kernel, this keeps
the LP's certificates, keyed by the data's fingerprint, in `verify/runs/separators.json`
(`KEPT`); `decided` re-checks the one it uses, exactly. `regenerate` decides the data of the
budgets `small` and `default` at seed 0 afresh (nothing kept consulted) and writes them;
`problems` says where the file differs from what they decide now. Another seed or budget
decides its other data as before, with the LP.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from perceptron.geometry.separability import Certificate, known_json
from verify.runs import cyclic

#: The budgets whose data are kept, at seed 0 (the audit's default seed).
BUDGETS = ("small", "default")
#: The sources that decide separability (`verify.runs.cyclic.decided`).
SOURCES = ("real", "separable-epochs", "inseparable", "inseparable-long")


def decide_afresh(budgets: Sequence[str] = BUDGETS, seed: int = 0) -> dict[str, Certificate]:
    """Every certificate the budgets' sources decide, by fingerprint, found afresh (nothing
    kept consulted)."""
    cyclic.RECORDED = found = {}
    cyclic._gordan.cache_clear()
    try:
        walk(budgets, seed)
    finally:
        cyclic.RECORDED = None
        cyclic._gordan.cache_clear()
    return found


def walk(budgets: Sequence[str] = BUDGETS, seed: int = 0) -> None:
    """Decide what the budgets' sources decide (`verify.runs.cyclic.decided`): the data each
    source draws and, for the cyclic runs, those their `u` does not separate (a run asks for
    their Gordan certificate, `CyclicRun.certificate`)."""
    from perceptron.geometry.linear import functional_margins
    from verify.numeric.budgets import BUDGETS as ALL

    for name in budgets:
        for source, scenarios in ALL[name].sources(seed).items():
            if source not in SOURCES:
                continue
            for scenario in scenarios:
                data = scenario.data
                if source != "real" and not all(
                        m > 0 for m in functional_margins(data, scenario.u)):
                    cyclic.gordan(data)


def regenerate(path: Path = cyclic.KEPT) -> int:
    """Write the certificates decided afresh to `path`; how many."""
    found = decide_afresh()
    path.write_text(known_json(found), encoding="utf-8")
    cyclic._kept.cache_clear()
    return len(found)


def problems(path: Path = cyclic.KEPT) -> list[str]:
    """Where the kept file differs from the certificates decided afresh, one line each: a
    data set not kept, or kept with another certificate (entries no source asks for are
    stale unless the real data sets are missing here, which leaves theirs unasked)."""
    fresh = json.loads(known_json(decide_afresh()))["certificates"]
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))["certificates"]
    except FileNotFoundError:
        return [f"no kept separators: {path}"]
    out = [f"separator for data {key[:12]} {'differs' if key in kept else 'not kept'}"
           for key, value in fresh.items() if kept.get(key) != value]
    if _real_data_here():
        out += [f"separator for data {key[:12]} is stale" for key in kept if key not in fresh]
    return out


def _real_data_here() -> bool:
    from verify.numeric.campaign import BENCH_DATA, REAL_SETS

    return all((BENCH_DATA / spec.file).is_file() for spec in REAL_SETS)
