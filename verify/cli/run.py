"""`novikoff run [DATA] [--bias] [--rule le|lt|mistake] [--epochs N] [--eta Q] [--beta Q]
[--json] [--example NAME] [--plot FILE]`.

Runs the exact online perceptron (cyclic epochs) on a data file (`perceptron.io.loaders.load`) or
on a built-in example (`--example NAME`, default the 10-607 worked example when DATA is
omitted), and prints the mistakes, epochs, whether it converged and why it stopped, the exact
final iterate, and whether that iterate separates the data (checked exactly). Exit 0 after a
run (converged or not), 2 on bad input. Progress (epochs done) goes to stderr when stderr is a
terminal. `--plot FILE.png|.svg` also draws the two inequalities of the Novikoff proof along
the run and the mistakes against the bound (`verify.render.plot`, matplotlib loaded only then).
`--beta Q` runs the margin perceptron instead (update on `y<w,x> <= Q`, step 1,
`perceptron.algorithms.margin.run_margin`) and checks its updates against its bound
`(R^2 + 2Q)/gamma^2`, the one `bound --beta` prints (`verify.cli.margin`, the one home of
both): exit 1 only if a run went past it.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from perceptron.conventions import RULES, Conventions
from perceptron.dataset import Dataset
from perceptron.errors import DataError, printable
from perceptron.examples import DEFAULT_EXAMPLE, EXAMPLES, example
from perceptron.geometry.linear import margin_numerators
from perceptron.numbers import parse_exact, shown
from verify.cli.common import UsageError, add_limit_options, label_column, limits, whole_number
from verify.cli.margin import margin_beta
from verify.typeset.words import counted

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
        '{"X": [[...]], "y": [...]}, .npy/.npz, LIBSVM/svmlight, or the .dat format of the '
        "Coq perceptron benchmark.",
    )
    parser.add_argument("data", nargs="?", metavar="DATA",
                        help=f"the data file (- for stdin); without it, --example (default "
                        f"{DEFAULT_EXAMPLE})")
    parser.add_argument("--example", metavar="NAME", choices=sorted(EXAMPLES),
                        help="a built-in example (`novikoff list`): " + ", ".join(EXAMPLES)
                        + "; it brings its bias convention")
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
    parser.add_argument("--beta", type=margin_beta, default=None, metavar="Q",
                        help="run the margin perceptron instead (update on y<w,x> <= Q, an "
                        "exact number >= 0 such as 1, 1/2, 0.1; step 1) and check its updates "
                        "against its bound (R^2 + 2 Q)/gamma^2, as `bound --beta` gives it")
    parser.add_argument("--label-column", metavar="C", type=label_column,
                        help="CSV/.npy label column: an index (negative from the end) or a "
                        "header name (default: the last column)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON, the final w whole (the text shows "
                        f"at most {2 * WEIGHTS_SHOWN + 1} weights: the first and last "
                        f"{WEIGHTS_SHOWN} of a longer w)")
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


def data_or_example(args: argparse.Namespace, default: str | None = None) -> tuple[Dataset, bool]:
    """The data of `run` and `bound`: DATA (`-` for stdin) or `--example NAME`, with the bias
    to use: `--bias`, or the example's own convention (XOR is meant with a bias). A file's
    header is read as the audit reads it (`perceptron.io.header`): a fault of it, or a
    `# u` that does not separate the examples, is refused (DataError) as by the audit."""
    if args.data is not None and args.example is not None:
        raise UsageError("give DATA or --example, not both")
    if args.data is None:
        if args.label_column is not None:
            raise UsageError("--label-column needs a DATA file")
        name = args.example or default
        if name is None:
            raise UsageError("give DATA (a file, or - for stdin) or --example NAME")
        chosen = example(name)
        return chosen.build(), args.bias or chosen.bias
    from perceptron.errors import DataError, DataErrors
    from perceptron.io.header import header, not_separating
    from perceptron.io.loaders import load

    data = load(args.data, label_column=args.label_column, limits=limits(args))
    named = header(args.data, data)
    fault = not_separating(args.data, named, data)
    if fault is not None:  # refused as the audit refuses it, in its words: a u the file
        raise fault        # names and the run ignored would pass unseen (newcomer 19 §5.10)
    unhonoured = [DataError(problem, source=args.data, line=named.lines.get(key))
                  for key, problem in (
        ("theta0", "a start theta0 is for a batch run; `run` and `bound` run the online "
                   "perceptron from 0: remove the line, or audit a batch proof on the file"),
        ("gamma", "margins gamma are for a single pass; `run` and `bound` run to "
                  "convergence: remove the line, or audit a single-pass proof on the file"),
    ) if key in named.lines]
    if unhonoured:  # newcomer 21 M3: a `# gamma` line was passed over in silence, which the
        raise DataErrors(unhonoured)  # docs say refuses the file for runs to convergence
    args.header_u = named.u
    return data, args.bias


def run(args: argparse.Namespace) -> int:
    """Handler of `novikoff run`."""
    from perceptron.algorithms.online import run_online
    from verify.cli.terminal import callback, print_fields, progress_bar

    if args.beta is not None:
        return _margin_run(args)
    target = _plot_target(args.plot, getattr(args, "data", None))
    data, bias = data_or_example(args, DEFAULT_EXAMPLE)
    conventions = Conventions(rule=args.rule, sign_zero=int(args.sign_zero), bias=bias,
                              eta=args.eta)
    with progress_bar("run") as bar:
        result = run_online(data, conventions, max_epochs=args.epochs,
                            keep_trace=target is not None, progress=callback(bar, "epochs"))
    if target is not None:
        from perceptron.errors import DataError
        from verify.render.plot import bound_series, draw

        try:
            series = bound_series(data, result)
        except DataError as error:  # named as given, folder and all (the data know their
            if args.data is None or error.source != data.name:  # file's base name only)
                raise
            raise DataError(error.problem, source=args.data, line=error.line,
                            column=error.column) from None
        draw(series, target)
    named_json, named_fields = header_u(args)
    if args.json:
        print(json.dumps(result.as_dict() | named_json))
        return 0
    w = weights(result.w)
    fields = [
        ("data", f"{printable(data.name)} ({counted(data.n, 'example')}, "  # the file's name:
                 f"{counted(data.d, 'feature')})"),  # an escape in it is shown, never obeyed
        ("conventions", conventions.describe(SHOW_DIGITS)),
        ("mistakes", str(result.mistakes)),
        ("epochs", str(result.epochs)),
        ("converged", f"{'yes' if result.converged else 'no'} ({result.reason})"),
        ("separates", "yes (every y<w,x> > 0, checked exactly)" if result.separating
         else "no (some y<w,x> <= 0, checked exactly)"),
        ("w", f"({w})" + (" (bias last)" if bias else "")),
    ]
    fields += named_fields
    if target is not None:
        fields.append(("plot", target))
    print_fields(fields)
    return 0


def _margin_run(args: argparse.Namespace) -> int:
    """`run --beta Q`: the margin perceptron's run on the data as `run` reads them (its
    `--bias`), its exact final w, whether every y<w,x> > Q (checked exactly), and its updates
    against `(R^2 + 2Q)/gamma^2` (no bound on data that are not separable). Its rule and step
    are the margin perceptron's: `--rule`, `--sign-zero`, `--eta` and `--plot`, which
    describe the perceptron's run, are refused beside it (one line, exit 2) rather than
    ignored. Exit 0 after a run within its bound, 1 past it (the theorem would be false)."""
    from perceptron.geometry.linear import radius2
    from perceptron.geometry.max_margin import NotSeparableError, max_margin
    from perceptron.numbers import as_text
    from verify.cli.margin import margin_perceptron
    from verify.cli.terminal import print_fields

    given = [option for option, value, default in (
        ("--rule", args.rule, "le"), ("--sign-zero", args.sign_zero, "+1"),
        ("--eta", args.eta, Fraction(1)), ("--plot", args.plot, None)) if value != default]
    if given:
        raise UsageError(f"--beta runs the margin perceptron (update on y<w,x> <= Q, step 1): "
                         f"{', '.join(given)} is the perceptron's, not its")
    data, bias = data_or_example(args, DEFAULT_EXAMPLE)
    target = data.augmented() if bias else data
    r2 = radius2(target)
    try:
        gamma2: Fraction | None = max_margin(target).gamma2
    except NotSeparableError:
        gamma2 = None
    report, made = margin_perceptron(target, args.beta, args.epochs, r2, gamma2)
    assert made is not None  # --epochs is at least 1
    numerators, common = margin_numerators(target, made.w)
    least_margin = Fraction(min(numerators), common)
    report |= {"R2": as_text(r2), "gamma2": None if gamma2 is None else as_text(gamma2),
               "w": [as_text(v) for v in made.w], "bias": bias,
               "least_margin": as_text(least_margin)}
    beyond = report["within_bound"] is False
    named_json, named_fields = header_u(args)
    if args.json:
        print(json.dumps({"data": data.name, "margin_perceptron": report} | named_json))
        return 1 if beyond else 0
    beta = shown(args.beta, SHOW_DIGITS)
    if report["bound"] is None:
        bound = "none: the data are not separable (no margin gamma > 0)"
    else:
        bound = (f"(R^2 + 2 beta)/gamma^2 = {shown(Fraction(report['bound']), SHOW_DIGITS)}; "
                 f"{counted(report['updates'], 'update')} {'<=' if not beyond else '>'} bound")
    least = shown(least_margin, SHOW_DIGITS)
    fields = [
        ("data", f"{printable(data.name)} ({counted(data.n, 'example')}, "
                 f"{counted(data.d, 'feature')})"),
        ("conventions", f"margin perceptron: update on y<w,x> <= {beta}, w_0 = 0, step 1, "
                        f"cyclic epochs{', bias by augmentation' if bias else ''}"),
        ("updates", str(report["updates"])),
        ("epochs", str(report["epochs"])),
        ("converged", f"yes (an epoch without an update: every y<w,x> > {beta})"
         if made.converged else f"no (hit the cap of {args.epochs} epochs; see --epochs)"),
        ("margin", f"least y<w,x> = {least}, "
                   + (f"> {beta}" if least_margin > args.beta else f"<= {beta}")
                   + " (checked exactly)"),
        ("bound", bound),
        ("w", f"({weights(made.w)})" + (" (bias last)" if bias else "")),
    ]
    print_fields(fields + named_fields)
    return 1 if beyond else 0


def header_u(args: argparse.Namespace) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """The data file's `# u = ...` header (`data_or_example` read it and checked that it
    separates the examples) as `run` and `bound` print it: the JSON's exact `header_u` and
    the text's `header u` row; nothing without one (newcomer 21 M3: it was read and shown
    by neither, then by `run` only)."""
    named_u = getattr(args, "header_u", None)
    if named_u is None:
        return {}, []
    return ({"header_u": [str(v) for v in named_u]},
            [("header u", f"({weights(named_u)}) read from the file, separates its examples "
                          "(checked exactly)")])


WEIGHTS_SHOWN = 5
"""Weights shown at each end of a long vector: a terminal line, not a page of numbers."""


def weights(w: Sequence[Fraction], ends: int = WEIGHTS_SHOWN) -> str:
    """`w` for the terminal: every value up to 2*ends + 1 of them, else the first and last
    `ends` around a count (`[1000 values; --json for all]`), so a 1000-dimensional run still
    prints one readable line and says where the rest is."""
    values = [shown(v, SHOW_DIGITS) for v in (w if len(w) <= 2 * ends + 1
                                              else [*w[:ends], *w[-ends:]])]
    if len(w) > 2 * ends + 1:
        values[ends:ends] = [f"... [{len(w)} values; --json for all] ..."]
    return ", ".join(values)


def _plot_target(path: str | None, data: str | None) -> str | None:
    """The plot file, checked before the run (bad extension or unwritable: exit 2; the data
    file read, by its name or through a link: red team 33 F10, `run d.svg --plot d.svg`
    drew over the data it had read, as the audit's reports never may)."""
    if path is None:
        return None
    import os

    from verify.render.plot import check_target

    try:
        check_target(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if data not in (None, "-") and os.path.exists(path) and os.path.exists(data) \
            and os.path.samefile(path, data):
        raise UsageError(f"--plot {path}: that is the data file read ({data}); a plot never "
                         "overwrites its data")
    return path
