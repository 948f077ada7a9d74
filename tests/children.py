"""A benchmark's child process run in the test's own process (`in_process`): its smoke runs
start interpreters that import NumPy, SymPy, SciPy or scikit-learn, most of their cost at the
toy size, to run scripts that run the same here. Each benchmark keeps one test that starts a
real child (`tests/promises/test_benchmarks.py`, `tests/test_benchmarks_scaling.py`)."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from collections.abc import Sequence
from types import SimpleNamespace


def in_process(argv: Sequence[str], *, check: bool = False, stdout: object = None,
               stderr: object = None, capture_output: bool = False, text: bool = False,
               **_: object) -> subprocess.CompletedProcess[str]:
    """`subprocess.run` of `python -c SCRIPT ARGS` or `python -m verify ARGS`, done in this
    process: the script (or `verify.cli.main`) runs with `sys.argv` as the child's, its
    output captured and its exit status returned as the child's would be (`check` raises
    `CalledProcessError` on a non-zero one). Anything else is refused, so a benchmark that
    starts another kind of child fails here instead of being silently faked."""
    executable, flag, target, *arguments = argv
    assert executable == sys.executable and flag in ("-c", "-m"), argv
    assert flag == "-c" or target == "verify", argv
    out, err, code = io.StringIO(), io.StringIO(), 0
    saved = sys.argv
    sys.argv = ["-c" if flag == "-c" else "verify", *arguments]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            if flag == "-c":
                exec(compile(target, "<benchmark child>", "exec"), {"__name__": "__main__"})
            else:
                from verify.cli import main

                code = main(arguments)
    except SystemExit as ended:
        code = ended.code if isinstance(ended.code, int) else int(ended.code is not None)
    finally:
        sys.argv = saved
    if check and code != 0:
        raise subprocess.CalledProcessError(code, argv, out.getvalue(), err.getvalue())
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


#: A stand-in for a benchmark module's `subprocess` (set on the module alone, so that nothing
#: else the test runs starts its children in-process).
SUBPROCESS = SimpleNamespace(run=in_process, DEVNULL=subprocess.DEVNULL)
