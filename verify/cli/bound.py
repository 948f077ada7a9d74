"""`novikoff bound DATA|--example NAME [--bias] [--json] [--epochs N]`: the Novikoff bound.

Prints R^2 = max ||x_i||^2, the certified maximum squared margin gamma^2, the bound
R^2 / gamma^2, whether gamma is certified optimal (a KKT certificate checked exactly) or only
a verified lower bound, and the number of mistakes the perceptron makes on the data.

With `--bias` the perceptron learns a bias by augmentation (a constant 1 appended to every
example), and the theorem is applied to the augmented data: R^2 and gamma^2 are those of the
augmented data, the bias being the last coordinate of the separator (reported as `b`). For
comparison the hard-margin SVM with an unregularised bias is reported as well.

With `--beta Q` the margin perceptron too (update on `y<w,x> <= Q`, `run_margin`): its bound
`(R^2 + 2Q)/gamma^2` and its updates, on the data as the run reads them.

Exit codes: 0 separable (the run is within the bound), 1 not separable (a result, with its
Gordan certificate) or a run beyond its bound, the perceptron's or the margin perceptron's
(never expected: the theorem would be false), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from perceptron.dataset import Dataset
from perceptron.errors import DataError, printable
from perceptron.examples import EXAMPLES
from perceptron.numbers import approximate, approximate_text, as_text
from verify.cli.common import add_limit_options, label_column, whole_number
from verify.cli.margin import margin_beta
from verify.typeset.words import counted

DEFAULT_EPOCHS = 1000
MAX_EPOCHS = 10**9
#: Exact numbers longer than this are shown approximately in the human report (JSON: exact).
SHOW_DIGITS = 60
#: At most this many nonzero Gordan weights are listed in the text (all are in `--json`).
LAMBDAS_SHOWN = 8


def register(subparsers: Any) -> None:
    """Add the `bound` subcommand."""
    parser = subparsers.add_parser(
        "bound",
        help="R^2, the certified maximum margin, the Novikoff bound and the perceptron's mistakes",
        description="Compute R^2 = max ||x||^2 and the certified maximum margin gamma^2 of DATA "
        "exactly, the Novikoff bound R^2/gamma^2, and the perceptron's mistakes on DATA. "
        "Exit 0 when separable, 1 when not separable (with a Gordan certificate) or when a "
        "run's mistakes or updates pass their bound (which the theorem says they cannot), 2 "
        "on bad input.",
    )
    parser.add_argument("data", nargs="?", metavar="DATA", help="the data file (- for stdin)")
    parser.add_argument("--example", metavar="NAME", choices=sorted(EXAMPLES),
                        help="a built-in example instead of DATA (`novikoff list`): "
                        + ", ".join(EXAMPLES) + "; it brings its bias convention")
    parser.add_argument("--bias", action="store_true",
                        help="learn a bias by augmentation (a constant 1 feature)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--epochs", type=whole_number("epochs", 0, MAX_EPOCHS),
                        default=DEFAULT_EPOCHS, metavar="N",
                        help=f"cap on the perceptron's passes over the data "
                        f"(default {DEFAULT_EPOCHS}; 0 skips the run)")
    parser.add_argument("--label-column", default=None, metavar="COL", type=label_column,
                        help="CSV/.npy label column: an index (negative from the end) or a "
                        "header name (default: the last column)")
    parser.add_argument("--beta", type=margin_beta, default=None, metavar="Q",
                        help="also the margin perceptron at margin Q (an exact number >= 0 "
                        "such as 1, 1/2, 0.1; update on y<w,x> <= Q): its bound "
                        "(R^2 + 2 Q)/gamma^2 and its updates on DATA")
    add_limit_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Load, compute, report."""
    from verify.cli.run import data_or_example, header_u
    from verify.cli.terminal import print_fields

    data, bias = data_or_example(args)
    report = bound_report(data, bias=bias, epochs=args.epochs, separator=args.json,
                          beta=args.beta)
    named_json, named_fields = header_u(args)  # the file's `# u`, as `run` prints it
    if args.json:
        print(json.dumps(report | named_json, indent=2))
    else:
        print_fields(fields(report) + named_fields)
    if not report["separable"]:
        return 1
    beyond = report.get("margin_perceptron", {}).get("within_bound") is False
    return 0 if report["within_bound"] is not False and not beyond else 1


def bound_report(data: Dataset, *, bias: bool = False, epochs: int = DEFAULT_EPOCHS,
                 separator: bool = True, beta: Fraction | None = None) -> dict:
    """Everything `novikoff bound` reports, as a JSON-ready dict with exact `"p/q"` numbers;
    without `separator`, the certificate's `w` is left out (the text shows no coordinate, and
    writing a million of them was seconds); with `beta`, the margin perceptron at that
    margin too (`margin_perceptron`: newcomer 34 N3, a lecturer of the margin perceptron had
    no command for its bound and its updates on her data)."""
    from perceptron.geometry.bound import mistake_bound
    from perceptron.geometry.linear import radius2
    from perceptron.geometry.max_margin import NotSeparableError, max_margin

    target = data.augmented() if bias else data
    r2 = radius2(target)
    exact_bound: Fraction | None = None  # kept exact: the report's text may be too long to parse
    report: dict[str, Any] = {
        "data": data.name,
        "n": data.n,
        "d": data.d,
        "positives": sum(1 for v in data.y if v > 0),
        "bias": bias,
        "R2": as_text(r2),
    }
    try:
        result = max_margin(target)
    except NotSeparableError as exc:
        cert = exc.certificate
        if not cert.check(target):  # pragma: no cover - certificates are checked when made
            raise RuntimeError("internal error: the Gordan certificate does not check") from exc
        report.update({
            "separable": False,
            "gamma2": "0",
            "bound": None,
            "optimal": True,
            "reason": cert.reason or "0 is a nonnegative, nonzero combination of the y_i x_i",
            "certificate": {"lambda": [as_text(v) for v in cert.lam]},
        })
    else:
        if not result.check(target):  # pragma: no cover - results are checked when made
            raise RuntimeError("internal error: the maximum-margin certificate does not check")
        w = result.w[: data.d] if bias else result.w
        b = result.w[-1] if bias else result.b
        exact_bound = mistake_bound(r2, result.gamma2)
        report.update({
            "separable": True,
            "gamma2": as_text(result.gamma2),
            "bound": as_text(exact_bound),
            "optimal": result.optimal,
            "support_vectors": len(result.support),
            "certificate": {
                **({"w": [as_text(v) for v in w]} if separator else {}),
                "b": as_text(b),
                "alpha": [as_text(v) for v in result.alpha],
            },
        })
        if bias:
            report["free_bias"] = _free_bias(data)
    report.update(_perceptron(data, bias, epochs))
    mistakes = report["mistakes"]
    if exact_bound is not None and mistakes is not None:
        report["within_bound"] = mistakes <= exact_bound
    else:
        report["within_bound"] = None
    if beta is not None:
        report["margin_perceptron"] = _margin(target, beta, epochs, report)
    return report


def _margin(target: Dataset, beta: Fraction, epochs: int, report: dict[str, Any]
            ) -> dict[str, Any]:
    """The margin perceptron at `beta` on the data as the run reads them (augmented with a
    bias), under the epoch cap, and its bound `(R^2 + 2 beta)/gamma^2` when separable."""
    gamma2 = Fraction(report["gamma2"]) if report["separable"] else None
    from verify.cli.margin import margin_perceptron

    return margin_perceptron(target, beta, epochs, Fraction(report["R2"]), gamma2)[0]


def _free_bias(data: Dataset) -> dict[str, Any]:
    """The hard-margin SVM with an unregularised bias, for comparison (not a Novikoff bound)."""
    from perceptron.geometry.max_margin import NotSeparableError, max_margin

    try:
        res = max_margin(data, bias=True)
    except NotSeparableError:  # pragma: no cover - the augmented data were separable
        return {"separable": False}
    except DataError as exc:  # a single class: no maximum margin with a free bias
        return {"separable": True, "gamma2": None, "note": str(exc)}
    return {"separable": True, "gamma2": as_text(res.gamma2), "optimal": res.optimal,
            "b": as_text(res.b)}


def _perceptron(data: Dataset, bias: bool, epochs: int) -> dict[str, Any]:
    """The perceptron's run (default conventions) under an epoch cap."""
    if epochs == 0:
        return {"mistakes": None, "converged": None, "epochs": 0,
                "run": "skipped (--epochs 0)"}
    try:
        from perceptron.algorithms.online import run_online
        from perceptron.conventions import Conventions
    except ImportError:  # pragma: no cover - until the online perceptron lands
        return {"mistakes": None, "converged": None, "epochs": None,
                "run": "unavailable (perceptron.algorithms.online is missing)"}
    result = run_online(data, Conventions(bias=bias), max_epochs=epochs, keep_trace=False)
    converged = bool(result.converged)
    reason = str(getattr(result, "reason", ""))
    if converged:
        state = "converged"
    elif reason.startswith("cycling"):
        state = "never converges (" + reason + ")"
    else:
        state = f"hit the cap of {epochs} epochs without converging (see --epochs)"
    return {
        "mistakes": int(result.mistakes),
        "converged": converged,
        "epochs": getattr(result, "epochs", None),
        "run": state,
    }


def _num(text: str | None) -> str:
    """A report number for a person: exact when short, else approximate (read from the text,
    so numbers beyond float range or Python's 4300-digit `int()` limit show too)."""
    if text is None:
        return "infinite"
    if len(text) <= SHOW_DIGITS:
        q = Fraction(text)
        return text if q.denominator == 1 else f"{text} (~ {approximate(q)})"
    numerator, _, denominator = text.partition("/")
    digits = f"{len(numerator.lstrip('-'))}/{len(denominator)}" if denominator else \
        f"{len(numerator.lstrip('-'))}"
    kind = "a fraction" if denominator else "an integer"
    return f"~ {approximate_text(text)} (exact: {kind} of {digits} digits; see --json)"


def fields(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The report for a person: (name, value) rows of a two-column summary."""
    rows = [
        ("data", f"{printable(report['data'])} ({counted(report['n'], 'example')}, "  # escapes
                 f"{counted(report['d'], 'feature')}, {report['positives']} positive)"),  # shown
        ("bias", "by augmentation (a constant 1 appended; R^2 and gamma^2 are those of the "
                 "augmented data)" if report["bias"] else "none (separators through the origin)"),
        ("R^2", _num(report["R2"])),
    ]
    if report["separable"]:
        status = ("certified optimal (KKT conditions verified exactly, "
                  f"{counted(report['support_vectors'], 'support vector')})"
                  if report["optimal"] else "a verified LOWER BOUND on the maximum (not certified "
                  "optimal), so the bound below is valid but may not be the tightest")
        rows += [
            ("separable", "yes"),
            ("gamma^2", _num(report["gamma2"])),
            ("margin", status),
            ("bound R^2/gamma^2", _num(report["bound"])),
        ]
        fb = report.get("free_bias")
        if fb is not None and fb.get("gamma2") is not None:
            rows.append(("free bias", "for comparison, the SVM with an unregularised bias: "
                         f"gamma^2 = {_num(fb['gamma2'])}"
                         + ("" if fb.get("optimal") else " (lower bound)")))
    else:
        used = [(i, v) for i, v in enumerate(report["certificate"]["lambda"], 1) if v != "0"]
        x = "(x_i, 1)" if report["bias"] else "x_i"
        # the weights themselves when few (newcomer 24: a lecturer shows them to the class;
        # examples counted from 1, as every data message counts them), all in the JSON
        shown = (": " + ", ".join(f"lambda_{i} = {v}" for i, v in used)
                 if len(used) <= LAMBDAS_SHOWN and sum(len(v) for _, v in used) <= 200
                 else "")
        rows += [
            ("separable", "no" + (" (not even with a bias)" if report["bias"] else "")),
            ("reason", report["reason"]),
            ("certificate", f"Gordan, checked exactly: lambda >= 0, not all zero, "
                            f"sum_i lambda_i y_i {x} = 0 (lambda nonzero on {len(used)} of "
                            f"{report['n']} examples{shown})"),
            ("gamma^2", "0: no margin, no Novikoff bound"),
        ]
    if report["mistakes"] is None:
        rows.append(("perceptron", report["run"]))
    else:
        tail = ""
        if report["within_bound"] is True:
            tail = f"; {report['mistakes']} <= bound"
        elif report["within_bound"] is False:
            tail = "; MORE THAN THE BOUND"
        epochs = (f" in {counted(report['epochs'], 'epoch')}" if report.get("epochs")
                  is not None else "")
        rows.append(("perceptron", f"{counted(report['mistakes'], 'mistake')}{epochs}, "
                     f"{report['run']}{tail}"))
    margin = report.get("margin_perceptron")
    if margin is not None:
        # a long beta as the bound is shown (red team adv33: `--beta 1e400` printed its 401
        # digits on both rows while the bound beside it was `~ 1e+400`)
        beta = margin["beta"] if len(margin["beta"]) <= SHOW_DIGITS else _num(margin["beta"])
        if margin["bound"] is not None:
            rows.append(("margin bound", f"(R^2 + 2 beta)/gamma^2 at beta = {beta}: "
                                         f"{_num(margin['bound'])}"))
        if margin["updates"] is None:
            rows.append(("margin perceptron", margin["run"]))
        else:
            tail = ("" if margin["within_bound"] is None else
                    f"; {margin['updates']} <= bound" if margin["within_bound"]
                    else "; MORE THAN THE BOUND")
            rows.append(("margin perceptron", f"update on y<w,x> <= {beta}: "
                         f"{counted(margin['updates'], 'update')} in "
                         f"{counted(margin['epochs'], 'epoch')}, {margin['run']}{tail}"))
    return rows
