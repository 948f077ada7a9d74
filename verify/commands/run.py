"""`novikoff run [DATA] [--bias] [--rule le|lt|mistake] [--epochs N] [--eta Q] [--json]
[--example NAME] [--plot FILE]`.

Runs the exact online perceptron (cyclic epochs) on a data file (`perceptron.loaders.load`) or
on a built-in example (`--example NAME`, default the 10-607 worked example when DATA is
omitted), and prints the mistakes, epochs, whether it converged and why it stopped, the exact
final iterate, and whether that iterate separates the data (checked exactly). Exit 0 after a
run (converged or not), 2 on bad input. Progress (epochs done) goes to stderr when stderr is a
terminal. `--plot FILE.png|.svg` also draws the two inequalities of the Novikoff proof along
the run and the mistakes against the bound (`verify.plot`, matplotlib loaded only then).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from typing import Any

from perceptron.conventions import RULES, Conventions
from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.examples import DEFAULT_EXAMPLE, EXAMPLES, example
from perceptron.numbers import parse_exact, shown
from verify.cli import UsageError
from verify.commands import add_limit_options, limits, whole_number

#: Exact numbers longer than this are shown approximately in the human report (JSON: exact).
SHOW_DIGITS = 1000


def register(subparsers: Any) -> None:
    """Add the `run` subcommand."""
    parser = subparsers.add_parser(
        "run",
        help="run the exact perceptron on a data file or a built-in example",
        description="Run the online perceptron in exact rational arithmetic: cyclic epochs "
        "until an epoch makes no update, the epoch cap, or a repeated state (proof that it "
        "never converges). Data: CSV (label column last, labels -1/+1 or 0/1), JSON "
        '{"X": [[...]], "y": [...]}, .npy/.npz, or the .dat format of the Coq perceptron '
        "benchmark.",
    )
    parser.add_argument("data", nargs="?", metavar="DATA",
                        help=f"the data file; without it, --example (default {DEFAULT_EXAMPLE})")
    parser.add_argument("--example", metavar="NAME", choices=sorted(EXAMPLES),
                        help="a built-in example: " + ", ".join(EXAMPLES))
    parser.add_argument("--bias", action="store_true",
                        help="learn a bias: append a constant 1 to every example (bias last)")
    parser.add_argument("--rule", choices=list(RULES), default="le",
                        help="update on y<w,x> <= 0 (le, default), < 0 (lt), or on a wrong "
                        "prediction sign(<w,x>) != y (mistake, see --sign-zero)")
    parser.add_argument("--sign-zero", choices=["+1", "0", "-1"], default="+1",
                        help="the prediction sign(0) (default +1)")
    parser.add_argument("--epochs", type=whole_number("epochs", 1), default=1000, metavar="N",
                        help="epoch cap (default 1000)")
    parser.add_argument("--eta", type=_eta, default=Fraction(1), metavar="Q",
                        help="learning rate, an exact positive number such as 1, 1/2, 0.1")
    parser.add_argument("--label-column", metavar="C",
                        help="CSV/.npy label column: an index (negative from the end) or a "
                        "header name (default: the last column)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--plot", metavar="FILE",
                        help="also draw FILE (.png or .svg): <w_t,u> against t*gamma, "
                        "||w_t||^2 against t*R^2, and the mistakes against R^2/gamma^2 "
                        "(u the certified max-margin separator; needs separable data)")
    add_limit_options(parser)
    parser.set_defaults(handler=run)


def _eta(text: str) -> Fraction:
    try:
        value = parse_exact(text)
    except DataError as exc:
        raise argparse.ArgumentTypeError(exc.problem) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"the learning rate must be positive, not {text}")
    return value


def _label_column(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _data(args: argparse.Namespace) -> tuple[Dataset, bool]:
    if args.data is not None and args.example is not None:
        raise UsageError("give DATA or --example, not both")
    if args.data is None:
        if args.label_column is not None:
            raise UsageError("--label-column needs a DATA file")
        chosen = example(args.example or DEFAULT_EXAMPLE)
        return chosen.build(), args.bias or chosen.bias
    from perceptron.loaders import load

    return (load(args.data, label_column=_label_column(args.label_column), limits=limits(args)),
            args.bias)


class _Progress:
    """Epochs done, on one rewritten stderr line, at most a few times a second."""

    def __init__(self) -> None:
        self.last = 0.0
        self.shown = False

    def __call__(self, epoch: int, mistakes: int) -> None:
        now = time.monotonic()
        if now - self.last >= 0.2:
            self.last = now
            self.shown = True
            sys.stderr.write(f"\rnovikoff run: epoch {epoch}, {mistakes} updates")
            sys.stderr.flush()

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    """Handler of `novikoff run`."""
    from perceptron.online import run_online

    target = _plot_target(args.plot)
    data, bias = _data(args)
    conventions = Conventions(rule=args.rule, sign_zero=int(args.sign_zero), bias=bias,
                              eta=args.eta)
    progress = _Progress() if sys.stderr.isatty() else None
    try:
        result = run_online(data, conventions, max_epochs=args.epochs,
                            keep_trace=target is not None, progress=progress)
    finally:
        if progress is not None:
            progress.done()
    if target is not None:
        from verify.plot import bound_series, draw

        draw(bound_series(data, result), target)
    if args.json:
        print(json.dumps(result.as_dict()))
        return 0
    w = ", ".join(shown(v, SHOW_DIGITS) for v in result.w)
    print(f"data: {data.name} ({data.n} examples, {data.d} features)")
    print(f"conventions: {conventions.describe()}")
    print(f"mistakes: {result.mistakes}")
    print(f"epochs: {result.epochs}")
    print(f"converged: {'yes' if result.converged else 'no'} ({result.reason})")
    print("separates: " + ("yes (every y<w,x> > 0, checked exactly)" if result.separating
                           else "no (some y<w,x> <= 0, checked exactly)"))
    print(f"w: ({w})" + (" (bias last)" if bias else ""))
    if target is not None:
        print(f"plot: {target}")
    return 0


def _plot_target(path: str | None) -> str | None:
    """The plot file, checked before the run (bad extension or unwritable: exit 2)."""
    if path is None:
        return None
    from verify.plot import check_target

    try:
        check_target(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return path
