"""`novikoff audit [PROOF ...]`: built-in proofs and users' proof files, symbolically and
numerically (docs/design.md §6).

With `--only ID` only that proof is audited (a built-in id, a proof file, or a proof given by
the name the summary shows), and a report file is its stand-alone handout (theorem, graph,
steps, certificates in an appendix that `--no-appendix` leaves out); `--summary` makes it one
page. So is a report file of a single proof file given. Report files are refused before any
work (`report_clash`) when one option is given twice, when two name one file, when one is
`-` (never standard output) or a file the audit reads (`inputs`, `plugin_files`, a proof's
data files once it is read): nothing is ever overwritten silently. So are the files of
`--counterexamples` (`PROOF--STEP.csv`, one per violated step), known once the audit is done
and refused before any report or counterexample is written.
Exit 0 when every canonical proof audited is verified (both, unless `--only` or a list of
proofs leaves some out), every user's proof file audited is verified, and every report file
was rendered whole (and, with `--coq`, coqc rejected no step exported), 1 otherwise;
findings in the source proofs are reported, not failures,
unless `--strict`. A proof file or data file that cannot be used is one line on stderr per
error (every independent error of a proof file, as `check` lists them) and exit 2, after the
report of the others; when nothing could be audited, only those lines. The summary is
printed before any report file is written. On a terminal, a progress bar is drawn on stderr
(`verify.cli.terminal`); otherwise stderr gets only the final time line.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from proofs.library import PROOFS
from verify.cli.check import seconds
from verify.cli.common import (
    UsageError,
    add_limit_options,
    given_kinds,
    integer,
    limits,
    made_folder,
    whole_number,
)
from verify.coq import CoqRun, add_option, annotate, for_command, lines
from verify.numeric.budgets import BUDGETS, MAX_JOBS, PLUGIN_WORK

if TYPE_CHECKING:  # the audit machinery (SymPy, SciPy) loads when the command runs
    from verify.audit.job import Audit, ProofAudit
    from verify.render.evidence import Layout
    from verify.runs.plugin import Plugin

REPORTS: tuple[str, ...] = ("markdown", "html", "latex")
"""Report file options; each names its renderer module in `verify.render`."""


def renderer(name: str) -> Callable[[Audit, list[str], Layout | None], str]:
    """The render function of report format `name`."""
    return importlib.import_module(f"verify.render.{name}").render


#: Proofs and campaign sources are independent, and the report does not depend on N.
MOST_DEFAULT_JOBS = 8
DEFAULT_JOBS = min(os.cpu_count() or 1, MOST_DEFAULT_JOBS)


def default_jobs_said(cores: int) -> str:
    """`--jobs`'s default as `--help` says it, on a machine of `cores` cores: the default is
    capped, so past the cap "the N cores here" would be untrue (it said "the 8 cores here")."""
    jobs = min(cores, MOST_DEFAULT_JOBS)
    if jobs == cores:
        return f"{jobs}, the cores here"
    return f"{jobs}: the cores here ({cores}), at most {MOST_DEFAULT_JOBS}"


def register(subparsers: Any) -> None:
    """Add the `audit` subcommand."""
    parser = subparsers.add_parser(
        "audit",
        help="audit built-in proofs and proof files, symbolically and on exact runs",
        description="Prove or refute every step of the built-in proofs (the canonical "
        "perceptron proofs, their variants and the five source documents), or of the proofs "
        "named (built-in ids and proof files, mixed), and check each step's statement on "
        "exact runs over adversarial sequences and the data given. Exit 0 when the canonical "
        "proofs and every proof file audited are verified and every report file was written "
        "whole; 1 when one of them is not verified (with --strict: any proof audited), a "
        "piece of a report file could not be rendered, or coqc rejects a step --coq "
        "exported; 2 when a proof, data file, plug-in or run kind (--run-kind) "
        "cannot be used or fails (one line each, the others are reported), or on a usage "
        "error.",
    )
    parser.add_argument("proofs", nargs="*", metavar="PROOF",
                        help="a built-in proof id or a proof file (TOML; default: every "
                        "built-in proof)")
    parser.add_argument("--data", action="append", default=[], metavar="FILE",
                        help="also run every audited proof on this data file (repeatable; "
                        "any format `novikoff run` reads)")
    add_limit_options(parser)
    parser.add_argument("--algorithm", action="append", default=[],
                        metavar="[NAME=]MODULE:FUNCTION",
                        help="run your own online or batch algorithm for the proofs whose "
                        "[numeric] algorithm is NAME (default: FUNCTION, _ as -); MODULE may "
                        "be a FILE.py "
                        "or, without :FUNCTION, NAME an installed novikoff.algorithms entry "
                        "point. Its code runs only when given here (docs/proof-files.md)")
    parser.add_argument("--max-plugin-updates", type=whole_number("updates", 1, 10**12),
                        default=None, metavar="N",
                        help="the most updates (online) and iterations (batch) each "
                        "--algorithm's runs may make in the whole audit, counted in shard "
                        f"order (default {PLUGIN_WORK}): past it, its steps are checked on the "
                        "runs before the shard that passed it only, its proofs are not "
                        "verified (incomplete) and the report says where it cut; a count of "
                        "work, so the cut is the same on any machine")
    parser.add_argument("--param", action=_Param, default=[], metavar="KEY=VALUE",
                        help="a parameter of the --algorithm given just before it, passed to "
                        "its function as KEY=Fraction(VALUE): an exact rational as written "
                        "(3, -1/2, 0.25); repeatable")
    parser.add_argument("--run-kind", action="append", default=[], metavar="NAME",
                        help="register an installed kind of run, the entry point NAME of the "
                        "group novikoff.runs, for the proofs whose [numeric] run is its name "
                        "(repeatable). Its code runs only when named here "
                        "(docs/proof-files.md)")
    parser.add_argument("--counterexamples", type=Path, metavar="DIR",
                        help="write the smallest failing run of each step violated on runs "
                        "to DIR as a CSV data file (fewest examples, smallest dimension, "
                        "smallest integers, still failing on the exact engine), and say on "
                        "standard error the command that reproduces it; never over a file "
                        "the audit reads (then nothing is written, exit 2)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--markdown", action=_Report, metavar="FILE",
                        help="also write the report as Markdown to FILE")
    parser.add_argument("--html", action=_Report, metavar="FILE",
                        help="also write a self-contained HTML page (formulas in MathML, "
                        "no scripts, nothing fetched when viewed) to FILE")
    parser.add_argument("--latex", action=_Report, metavar="FILE",
                        help="also write a standalone LaTeX document to FILE. Each report "
                        "option is given at most once, names a file of its own (not `-`: "
                        "reports are never written to standard output), and never a file "
                        "the audit reads (a proof file, a file it imports, a data file, a "
                        "plug-in's file); otherwise no report is written (exit 2), and "
                        "nothing is done unless the file is a data file a proof names, "
                        "known once the audit has read it: refused after the summary")
    parser.add_argument("--summary", action="store_true",
                        help="report files are one page: theorems, verdicts, findings and "
                        "vacuous steps")
    parser.add_argument("--no-appendix", action="store_true",
                        help="report files leave out the certificates (a shorter handout)")
    parser.add_argument("--only", action="append", metavar="ID",
                        help="audit only this proof (repeatable): a built-in id "
                        f"({', '.join(PROOFS)}), a proof file, or a PROOF given, by its file "
                        "or by the name the summary shows (its file's stem); a PROOF given "
                        "that no --only names is then not audited. With one proof a report "
                        "file is its stand-alone handout")
    parser.add_argument("--seed", type=_seed, default=0,
                        help="campaign seed, an integer (default 0)")
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="default",
                        help="campaign sizes (default: default); the symbolic search always "
                        "has the default work budget, so findings never depend on this, nor "
                        "on the clock unless --time-limit cuts a step short")
    parser.add_argument("--jobs", type=whole_number("processes", 1, MAX_JOBS),
                        default=DEFAULT_JOBS, metavar="N",
                        help="check proofs and campaign sources in N processes; the report "
                        f"is the same for every N (default: "
                        f"{default_jobs_said(os.cpu_count() or 1)})")
    parser.add_argument("--scheduler", metavar="ADDRESS", type=scheduler_address,
                        help="run the campaign's shards on the workers of this Dask "
                        "scheduler (tcp://HOST:PORT; needs Dask: `pip install -e '.[dask]'` in "
                        "the checkout); the "
                        "proofs stay in the --jobs local processes; the report is the same")
    parser.add_argument("--strict", action="store_true",
                        help="fail unless every proof audited is verified (the sources' too)")
    parser.add_argument("--search", action="store_true",
                        help="search every judgement, not consulting the certificate store "
                        "(the kernel checks the store's certificates either way; the report "
                        "is the same; regenerate the store with python -m verify.store)")
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                        help="a wall-clock cap per step, as a guard only (default: none; "
                        "a step it cuts short is unknown with 'time cap')")
    add_option(parser)
    parser.set_defaults(handler=run)


def scheduler_address(text: str) -> str:
    """`--scheduler`: a Dask scheduler's address, `tcp://HOST:PORT` (or `tls://`)."""
    from verify.numeric.executors import SCHEDULER_ADDRESS

    read = SCHEDULER_ADDRESS.fullmatch(text)
    if read is None or not 0 < int(read[2]) < 1 << 16:
        raise argparse.ArgumentTypeError(f"{text!r} is no scheduler address: write "
                                         "tcp://HOST:PORT")
    return text


def run(args: argparse.Namespace) -> int:
    """Audit, print, write the requested report files, and return the exit code."""
    if args.scheduler is not None and importlib.util.find_spec("distributed") is None:
        raise UsageError("--scheduler needs Dask distributed: pip install -e '.[dask]' in "
                         "the checkout")
    chosen, left_out = selection(args.proofs, args.only)
    from verify.audit.job import run_audit
    from verify.audit.overwrites import report_clash
    from verify.audit.report import summary_table, to_json, to_text

    outputs = {name: getattr(args, name) for name in REPORTS if getattr(args, name)}
    clash = report_clash(outputs, inputs(args), written_folders(args))
    if clash is not None:
        raise UsageError(clash)
    for path in outputs.values():
        folder = path.parent if str(path.parent) else Path()
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise UsageError(f"{path}: cannot write there (no such writable directory)")
        if path.is_dir():  # red team 23 F8: refused after the whole audit had run
            raise UsageError(f"{path}: is a directory; name the report's file")
    from verify.cli.terminal import callback, progress_bar
    from verify.runs.plugin import Plugin, PluginFault, parameters

    if args.counterexamples is not None:  # made now, as --coq makes its folder
        made_folder(args.counterexamples, "--counterexamples")
    if any(index < 0 for index, _ in args.param):
        first = next(text for index, text in args.param if index < 0)
        raise UsageError(f"--param {first}: give it after the --algorithm it is for")
    for _, text in args.param:  # read strictly before any plug-in is loaded
        try:
            parameters([text], "--param")
        except PluginFault as fault:
            raise UsageError(str(fault).removeprefix("--param: ")) from None
    from verify.audit.job import UnnamedPlugin, refuse_unnamed
    from verify.audit.targets import targets

    try:  # a plug-in no proof names would never run (the audit passed without it): refused
        refuse_unnamed(targets(chosen or list(PROOFS)),  # before its code is loaded
                       [Plugin.named(text) for text in args.algorithm], "--algorithm")
    except UnnamedPlugin as error:
        raise UsageError(str(error)) from None
    algorithms, unusable = given_plugins(args.algorithm, args.param, args.max_plugin_updates)
    clash = report_clash(outputs, plugin_files(algorithms))
    if clash is not None:  # a module's file is known once it is loaded (before any work)
        raise UsageError(clash)
    refused = given_kinds(args.run_kind)
    start = time.perf_counter()
    with progress_bar("audit") as bar:
        audit = run_audit(chosen or None, data=args.data,
                          seed=args.seed, budget=args.budget,
                          guard=args.time_limit, progress=callback(bar, "jobs"),
                          jobs=args.jobs, scheduler=args.scheduler, algorithms=algorithms,
                          refused=unusable, search=args.search, limits=limits(args),
                          named_checked=True)  # refused above, before any plug-in loaded
    if refused:  # run kinds that could not be loaded: the audit's errors, as a plug-in's are
        audit = dataclasses.replace(audit, errors=(*refused, *audit.errors))
    audit = dataclasses.replace(audit, strict=args.strict)  # every rendering's passed/failed
    if not audit.proofs and audit.errors:  # nothing to summarise or report:
        for error in audit.errors:  # an empty table would say nothing true
            print(f"novikoff: error: {error}", file=sys.stderr)
        return 2
    coq = for_command(args.coq, [(p.id, p.proof, [s.symbolic for s in p.steps])
                                 for p in audit.proofs])
    if audit.real_data in ("absent", "partial"):
        from verify.numeric.campaign import BENCH_DATA, BENCH_DATA_FROM

        print(f"novikoff: warning: the benchmark datasets are {audit.real_data} at "
              f"{BENCH_DATA} ({BENCH_DATA_FROM}; set NOVIKOFF_BENCH_DATA to the folder of the Coq "
              "perceptron benchmark's .dat files): their runs were skipped, so the campaign "
              "is smaller than its budget", file=sys.stderr)
    # The summary first: a report file that cannot be written must not cost it.
    if args.json:
        data = to_json(audit)
        for proof in data["proofs"] if coq is not None else ():
            annotate(proof["steps"], coq.for_proof(proof["id"]))
        print(json.dumps(data, indent=2))
        if bar is not None:
            print(summary_table(audit), file=sys.stderr)
    else:
        print(to_text(audit) + ("\n" + "\n".join(lines(coq)) if coq is not None else ""))
    sys.stdout.flush()
    named = [(f"a data file that {_file_of(p)} names", Path(path))
             for p in audit.proofs if p.proof.numeric is not None for path in p.proof.numeric.data]
    clash = report_clash(outputs, named)  # a proof's own data files are known once it is read
    if clash is None and args.counterexamples is not None:  # and the files to be shrunk
        from verify.audit.counterexamples import refused

        clash = refused(audit, args.counterexamples,  # the check shrink_all makes itself
                        [*inputs(args), *plugin_files(algorithms), *named])
    if clash is not None:
        nothing = "no report or counterexample file" if args.counterexamples else "no report"
        print(f"novikoff: error: {clash}; {nothing} was written", file=sys.stderr)
        return 2
    unrendered = write_reports(audit, outputs, _layout(args, coq)) if outputs else 0
    if args.counterexamples is not None:
        write_counterexamples(audit, args, algorithms)
    passed = audit.passed()
    broken = f"; {unrendered} report piece(s) could not be rendered" if unrendered else ""
    print(f"audit {'passed' if passed else 'failed'} in {time.perf_counter() - start:.1f} s "
          f"(seed {args.seed}, budget {args.budget}, jobs {args.jobs}"
          f"{', scheduler ' + args.scheduler if args.scheduler else ''}){broken}; "
          f"{store_note(audit, args.search)}", file=sys.stderr)
    for name in left_out:
        print(f"novikoff: note: {name} was not audited: no --only names it", file=sys.stderr)
    for error in audit.errors:
        print(f"novikoff: error: {error}", file=sys.stderr)
    if audit.errors:
        return 2
    return 0 if passed and not unrendered and (coq is None or not coq.rejected) else 1


def _layout(args: argparse.Namespace, coq: CoqRun | None) -> Layout:
    """The report files' layout; the renderers (Jinja2, about 25 ms) are imported only
    here, when a report file is asked for, not on the --json or text path, whose time the
    user waits for after the last shard."""
    from verify.render.evidence import Layout

    return Layout(summary=args.summary, appendix=not args.no_appendix, coq=coq)


def _file_of(proof: ProofAudit) -> str:
    """The file a proof audited was read from (its id when it has none)."""
    return proof.proof.origin.file if proof.proof.origin is not None else proof.id


def selection(proofs: Sequence[str], only: Sequence[str] | None
              ) -> tuple[list[str], list[str]]:
    """The proofs to audit, by the names `run_audit` loads them by, and the proofs given
    that `--only` leaves out. Without `--only`, every proof given; with it, only what it
    names: a proof given (by its name on the command line, or by its id in the summary: a
    file's stem, `verify.audit.targets`), a built-in id, or a proof file (an unreadable one
    is the audit's one-line fault, as when given as PROOF). UsageError for anything else."""
    if not only:
        return list(proofs), []
    from verify.audit.targets import targets

    shown = {t.id: t.name for t in targets(proofs)}
    chosen = []
    for name in only:
        if name in shown or name in proofs:
            chosen.append(shown.get(name, name))
        elif name in PROOFS or name.endswith(".toml") or Path(name).is_file():
            chosen.append(name)
        else:
            given = f"; proofs given: {', '.join(shown)}" if shown else ""
            raise UsageError(f"unknown proof id {name!r} (built-in: {', '.join(PROOFS)}"
                             f"{given})")
    return chosen, [p for p in dict.fromkeys(proofs) if p not in chosen]


class _Report(argparse.Action):
    """`--markdown FILE` and its siblings: a report file, given once, never `-`. A second
    `--markdown` would silently win over the first, and `-` would be a file named `-` where
    a reader expects standard output: both are refused while parsing (one line, exit 2)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} given twice: give each report option once")
        if values == "-":
            parser.error(f"{option_string} -: reports are written to files, never to "
                         "standard output; name a file (./- for a file named -)")
        setattr(namespace, self.dest, Path(str(values)))


def inputs(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The files the audit reads, as what they are and their path: every proof file and
    data file given (not `-`, standard input), the proof files each proof file given
    imports (`[imports]`, transitively: `imported_files`, TOML only), every built-in proof's
    file, and every plug-in's FILE.py (a plug-in given as MODULE:FUNCTION is a file once it
    is loaded: `plugin_files`)."""
    from proofs.proof_file import imported_files

    given: list[tuple[str, Path]] = []
    for name in dict.fromkeys([*args.proofs, *(args.only or [])]):
        if name != "-" and Path(name).is_file():  # what is not a file cannot be lost
            given.append(("a proof file given", Path(name)))
            given += [(f"a proof file that {name} imports", Path(path))
                      for path in imported_files(name)]
    given += [("a data file given", Path(name)) for name in args.data if name != "-"]
    given += [(f"the file of the built-in proof {proof_id}", Path(path))
              for proof_id, path in PROOFS.items()]
    for text in args.algorithm:
        module = text.rpartition("=")[2].rpartition(":")[0]
        if module.endswith(".py"):
            given.append(("a plug-in file given", Path(module)))
    return given


def plugin_files(plugins: Mapping[str, Plugin]) -> list[tuple[str, Path]]:
    """The module file of each plug-in loaded (`Plugin.source_file`), as `inputs` says what
    a file is: a report file must not overwrite the code it was run with."""
    return [(f"the file of plug-in {name} (--algorithm {plugin.spec})", Path(path))
            for name, plugin in plugins.items() if (path := plugin.source_file()) is not None]


def written_folders(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The folders the audit writes files of its own into (`--coq`, `--counterexamples`)."""
    return [(f"--{option.replace('_', '-')}", Path(folder)) for option in
            ("coq", "counterexamples") if (folder := getattr(args, option, None)) is not None]


class _Param(argparse.Action):
    """`--param KEY=VALUE`, recorded with the index of the `--algorithm` given before it
    (-1: none was, a usage error once parsing is done)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        params = list(getattr(namespace, self.dest, None) or [])
        params.append((len(getattr(namespace, "algorithm", None) or []) - 1, values))
        setattr(namespace, self.dest, params)


def given_plugins(texts: Sequence[str], params: Sequence[tuple[int, str]] = (),
                  work: int | None = None) -> tuple[dict[str, Plugin], list[tuple[str, str]]]:
    """The plug-ins of `--algorithm`, each with the `--param`s given after it, loaded (a
    user's code runs from here on: she asked for it); and each one that cannot be used, as
    the name it was given and its one line (`run_audit(refused=...)`: the line is one of
    the audit's errors, the proofs that name it are not run, and nothing else is said about
    that name). A name given twice is refused, whichever was meant. `work`: each one's
    budget of updates and iterations in the audit (`--max-plugin-updates`; None: the
    default, `verify.runs.plugin.MAX_WORK`)."""

    from verify.numeric.algorithms import BUILT_IN
    from verify.runs.plugin import Plugin, PluginFault, plugins

    loaded: dict[str, Plugin] = {}
    refused: list[tuple[str, str]] = []
    for index, text in enumerate(texts):
        try:
            own = [value for at, value in params if at == index]
            (plugin,) = plugins([Plugin.parse(text, own)], BUILT_IN).values()
            if work is not None:
                plugin = dataclasses.replace(plugin, work=work)
        except PluginFault as fault:
            refused.append((Plugin.named(text), str(fault)))
            continue
        if plugin.name in loaded:
            refused.append((plugin.name, f"plug-in name {plugin.name!r} given twice"))
        loaded[plugin.name] = plugin
    unusable = {name for name, _ in refused}
    return {name: p for name, p in loaded.items() if name not in unusable}, refused


def write_counterexamples(audit: Audit, args: argparse.Namespace,
                          algorithms: dict[str, Plugin]) -> None:
    """The smallest failing run of every violated step, as a data file in the directory of
    `--counterexamples`, each announced with the command that reproduces it."""
    from verify.audit.counterexamples import shrink_all

    options = [plugin.options() for plugin in algorithms.values()]
    for written in shrink_all(audit, args.counterexamples, plugins=options):
        print(f"novikoff: {written}", file=sys.stderr)


def store_note(audit: Audit, search: bool) -> str:
    """How the symbolic half was decided, counted: judgements from the certificate store
    (kernel-checked) and judgements searched, with the first reason a search ran for a
    built-in proof. The store holds the built-in proofs' judgements only, so a proof file's
    are searched (unless one is a built-in one's): counted apart, with no reason, which would
    only say that the store has no entry (newcomer 21, L3: the line named the first search
    of a user's step, "nothing to store", for a step then proved)."""
    if search:
        return "certificate store not consulted (--search)"
    notes = [f"{p.id}/{n}" for p in audit.proofs if not p.file for s in p.steps
             for n in s.symbolic.searched]
    files = sum(len(s.symbolic.searched) for p in audit.proofs if p.file for s in p.steps)
    first = f": {notes[0]}" if notes else ""
    more = f" (and {len(notes) - 1} more)" if len(notes) > 1 else ""
    said = [f"{len(notes)} searched{first}{more}"] * any(not p.file for p in audit.proofs)
    said += [f"{files} of proof files searched (the store holds the built-in proofs' "
             "judgements only)"] * any(p.file for p in audit.proofs)
    recalled = sum(s.symbolic.recalled for p in audit.proofs for s in p.steps)
    return f"certificate store: {recalled} judgements from the store, {', '.join(said)}"


def write_reports(audit: Audit, outputs: dict[str, Path], layout: Layout | None = None) -> int:
    """Write each requested report file; return how many pieces could not be typeset.
    A piece that fails is shown as such in its file and named in one line on stderr per
    file; the rest of every file is still written."""
    missing = 0
    for name, path in outputs.items():
        failures: list[str] = []
        text = renderer(name)(audit, failures, layout)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:  # a failed write (a full disk) names no file by itself
            raise OSError(error.errno, error.strerror, str(path)) from None
        if failures:
            missing += len(failures)
            more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
            print(f"novikoff: {path}: {failures[0]}{more}", file=sys.stderr)
    return missing


def _seed(text: str) -> int:
    """`--seed`: an integer in ASCII digits (`int` alone took `--seed ٣` as seed 3)."""
    return integer(text, "an integer seed")
