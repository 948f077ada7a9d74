"""The margin perceptron as `novikoff bound --beta Q` and `novikoff run --beta Q` report it:
the one home of both commands' reading of Q (`margin_beta`) and of its run against its bound
(`margin_perceptron`), so the two print the same run and the same bound for the same data
(a module of its own: `bound` reads `run`'s data loader, and `run` this).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from perceptron.dataset import Dataset
from perceptron.numbers import as_text

if TYPE_CHECKING:
    from perceptron.algorithms.margin import MarginRun


def margin_beta(text: str) -> Fraction:
    """`--beta` of `bound` and `run`: an exact rational at least 0 (the margin perceptron's
    margin), or the one line argparse prints (exit 2)."""
    from perceptron.errors import DataError
    from perceptron.numbers import parse_exact

    try:
        value = parse_exact(text)
    except DataError as exc:
        raise argparse.ArgumentTypeError(exc.problem) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"the margin perceptron needs a margin >= 0, not {text}")
    return value


def margin_perceptron(target: Dataset, beta: Fraction, epochs: int, r2: Fraction,
                      gamma2: Fraction | None) -> tuple[dict[str, Any], MarginRun | None]:
    """The margin perceptron at `beta` on `target` (the data as the run reads them), under the
    epoch cap, against its bound `(R^2 + 2 beta)/gamma^2` (None: not separable): the JSON-ready
    dict `bound --beta` and `run --beta` print (`margin_perceptron`), and the run (None with
    `epochs` 0)."""
    from perceptron.algorithms.margin import run_margin
    from perceptron.geometry.bound import margin_bound

    bound = None if gamma2 is None else margin_bound(r2, gamma2, beta)
    out: dict[str, Any] = {"beta": as_text(beta),
                           "bound": None if bound is None else as_text(bound)}
    if epochs == 0:
        return out | {"updates": None, "converged": None, "epochs": 0,
                      "run": "skipped (--epochs 0)", "within_bound": None}, None
    made = run_margin(target, beta, max_epochs=epochs)
    state = ("converged: every y<w,x> > beta" if made.converged
             else f"hit the cap of {epochs} epochs without converging (see --epochs)")
    return out | {"updates": made.updates, "converged": made.converged,
                  "epochs": made.epochs, "run": state,
                  "within_bound": None if bound is None else made.updates <= bound}, made
