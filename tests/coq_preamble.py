"""The Coq preamble compiled once per test process, not once per test.

Every test that runs coqc on an export compiles its `InnerProduct.v` first (the preamble of
`verify.coq.preamble`, or the plane of `coq/concrete_runs.py`): the same text, about 1.5 s
each time, some 35 times in the suite. `compile_inner_product` runs coqc on a directory's
`InnerProduct.v` as before, keeps coqc's output files when it succeeds, and gives any later
directory holding the same text, byte for byte, a copy of them instead of compiling it again.
A `.vo` is coqc's output for its text alone (the preamble requires only Coq's standard
library), so the copy is what coqc would write there. Only a compile that succeeded is kept:
a text that fails, or differs in one byte, is compiled by coqc every time.

`preamble_once` (a fixture, `tests/conftest.py`) routes the coqc runs of `verify.coq.build`
(`export_and_check`) through it. `compiles` is the tampering tests' one way to ask coqc
whether a module of an export, rewritten, still compiles.
"""

from __future__ import annotations

import atexit
import shutil
import subprocess
import tempfile
from pathlib import Path

from verify.coq.build import LOGICAL

FILE = "InnerProduct.v"
#: What coqc writes for `InnerProduct.v` and what a `Require` of it reads.
OUTPUTS = ("InnerProduct.vo", "InnerProduct.vos", "InnerProduct.vok", "InnerProduct.glob")

_compiled: dict[str, Path] = {}  # a text of InnerProduct.v -> coqc's outputs for it


def compile_inner_product(directory: Path, executable: str = "coqc"
                          ) -> subprocess.CompletedProcess[str]:
    """`coqc -R . Novikoff InnerProduct.v` in `directory`, or, when this process compiled the
    same text before, its outputs copied there (an empty, successful result)."""
    text = (directory / FILE).read_text(encoding="utf-8")
    command = [executable, "-R", ".", LOGICAL, FILE]
    kept = _compiled.get(text)
    if kept is not None:
        for name in OUTPUTS:
            if (kept / name).exists():
                shutil.copyfile(kept / name, directory / name)
        return subprocess.CompletedProcess(command, 0, "", "")
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, check=False)
    if done.returncode == 0:
        kept = Path(tempfile.mkdtemp(prefix="novikoff-preamble-"))
        atexit.register(shutil.rmtree, kept, True)
        for name in OUTPUTS:
            if (directory / name).exists():
                shutil.copyfile(directory / name, kept / name)
        _compiled[text] = kept
    return done


def compiles(directory: Path, module: str, source: str, executable: str = "coqc") -> bool:
    """Whether `module` (a `.v` file in `directory`, its `InnerProduct.v` compiled) compiles
    once its text is `source` (written there: a caller that tampers restores it)."""
    (directory / module).write_text(source, encoding="utf-8")
    done = subprocess.run([executable, "-R", ".", LOGICAL, module], cwd=directory,
                          capture_output=True, text=True, check=False)
    return done.returncode == 0
