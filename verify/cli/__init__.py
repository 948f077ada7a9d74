"""The `novikoff` command line: subcommands, and one-line errors with exit code 2.

Habits a command-line user expects, kept here once for every subcommand:

- `novikoff --version` prints the installed version;
- a bare `novikoff` prints the usage and the list of commands on stderr and exits 2: no
  command is a usage error like any other (a script that forgot its command fails loudly
  instead of "succeeding" at nothing), and the message is the help a person wanted;
- `-` in place of a file reads standard input (data files and proof files alike);
- bad input is one line on stderr and exit 2; a proof file with several independent
  errors gets one line for each (at most `proofs.errors.MAX_REPORTED`, then a count);
- a closed pipe (`novikoff audit | head`) ends the command quietly with exit 0: the reader
  has what it wanted, so there is no "Broken pipe" message and no traceback (the standard
  handling: stdout is pointed at devnull so that the final flush cannot fail again).
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import os
import sys
from collections.abc import Sequence

from perceptron.errors import DataError, each_error, printable
from proofs.errors import ProofFileError
from verify.cli.common import UsageError

#: Subcommand modules under verify/cli, in the order `--help` lists them. They are imported
#: by name when the parser is built, only the one a command line names (`needed`); none
#: imports this module (shared helpers: `common`, the margin perceptron's `margin`).
COMMANDS: tuple[str, ...] = ("audit", "run", "check", "bound", "explain", "list")

#: At exit the interpreter's last collection scanned every object a command had made (SymPy's
#: caches, an audit's reports) only to free memory the system takes back anyway: 0.4
#: CPU-seconds after the default audit had printed its report. Frozen at exit (`gc.freeze`),
#: they are left to the system: reference counting still frees what it frees, and only
#: garbage cycles go uncollected (each file here is closed by its `with`, none by a finalizer).
atexit.register(gc.freeze)

#: Errors that mean "bad input": reported in one line, exit code 2.
USER_ERRORS: tuple[type[BaseException], ...] = (
    DataError,
    ProofFileError,
    OSError,
    UnicodeDecodeError,
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other bad input
        self.exit(2, f"novikoff: error: {message}\n")


def version() -> str:
    """The installed version of novikoff (from the package metadata: one home, pyproject)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("novikoff")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed; see pyproject.toml)"


class _Version(argparse.Action):
    """`--version`: the version is read from the package metadata only when asked for
    (`importlib.metadata` costs tens of milliseconds every other command would pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help=help or "show the installed version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"novikoff {version()}")
        parser.exit()


def build_parser(commands: Sequence[str] = COMMANDS) -> argparse.ArgumentParser:
    """The parser with the subcommands `commands` registered (default: every one)."""
    parser = _Parser(
        prog="novikoff",
        description="Prove and test the perceptron convergence theory, exactly.",
        epilog="Run `novikoff COMMAND --help` for a command's options; `novikoff list` shows "
        "the built-in proofs and examples. A FILE or DATA argument may be `-` for stdin.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in commands:
        importlib.import_module(f"verify.cli.{name}").register(sub)
    return parser


def needed(argv: Sequence[str]) -> tuple[str, ...]:
    """The subcommands whose modules a command line needs registered: the one it names, or
    none for `--version` (each module imports what its options need; the other five's
    imports would be start-up time spent for nothing, issue 30). Anything else before the
    command (`--help`, an abbreviation, an unknown option), no command, or an unknown one
    gets every subcommand, so that the help and the errors list them all as before. The
    top-level parser has no option that takes a value, so the first argument not an option
    is the command."""
    for arg in argv:
        if arg == "--version":  # acted on where argparse meets it: nothing is parsed after
            return ()
        if arg.startswith("-"):  # --help, an abbreviation, an unknown option
            return COMMANDS
        return (arg,) if arg in COMMANDS else COMMANDS
    return COMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `novikoff` script; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else [*argv]  # not list(): here that is verify.cli.list
    parser = build_parser(needed(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code = int(args.handler(args))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's final flush
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except (*USER_ERRORS, UsageError) as exc:
        for line in _lines(exc):
            print(f"novikoff: error: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("novikoff: interrupted", file=sys.stderr)
        return 130
    except MemoryError:  # a guard behind the budgets, which count work before they allocate
        print("novikoff: error: out of memory: the input asks for more than this machine "
              "has, or than a worker may take (4 GB more than it started with)",
              file=sys.stderr)
        return 2
    except Exception as exc:  # a pool's worker ended by the system (killed, out of memory)
        if not _broken_pool(exc):
            raise
        print("novikoff: error: a worker process ended abruptly (killed, or out of memory): "
              "the input asks for more than this machine gave it", file=sys.stderr)
        return 2


def _broken_pool(exc: Exception) -> bool:
    """Whether `exc` says a process pool lost a worker (`BrokenExecutor`): the system killed
    it, most often for memory (newcomer 26, F6: a traceback ended the audit). Read off the
    module already loaded, so that a command that made no pool imports nothing for it."""
    futures = sys.modules.get("concurrent.futures")
    return futures is not None and isinstance(exc, futures.BrokenExecutor)


def _quiet_stdout() -> None:
    """Point stdout at devnull after its reader went away, so no later flush can fail."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (e.g. captured in tests)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _lines(exc: BaseException) -> list[str]:
    """One line per error: a proof file's independent errors each get theirs (bounded by
    `proofs.errors.MAX_REPORTED`, the most important first); any other error is one line."""
    if isinstance(exc, ProofFileError):
        return [" ".join(line.split()) for line in exc.lines()]
    return [_one_line(e) for e in each_error(exc)]  # a data file's faults: one line each


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{printable(str(exc.filename))}: {exc.strerror or exc}"
    return " ".join(str(exc).split()) or type(exc).__name__

