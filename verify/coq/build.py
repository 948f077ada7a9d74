"""Writing the Coq project and compiling it with coqc, with a result per step.

The project is `_CoqProject` (`-R . Novikoff`), `InnerProduct.v` and one `.v` per proof, so
`coq_makefile -f _CoqProject -o Makefile && make` builds it. Here each file is compiled with
`coqc` in dependency order. coqc stops at a file's first error: the step whose text holds the
error line is marked with coqc's message, and the file is compiled again without it (in a
scratch copy), so every step gets its own verdict. A wall-clock cap guards against a
pathological file; when it fires, the result says so. The written files are deterministic.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from verify.coq.preamble import PREAMBLE
from verify.coq.statement import Exported, comment

LOGICAL = "Novikoff"
TIMEOUT = 1800.0  # seconds per coqc run: a guard against hostile input, never a verdict
_ERROR_AT = re.compile(r'File "[^"]*", line (\d+), characters \d+-\d+:\n(.*)', re.S)


@dataclass(frozen=True)
class ProofFile:
    """One proof's Coq module: its file name and its steps."""

    module: str
    title: str
    steps: tuple[Exported, ...]

    def text(self, skip: frozenset[str] = frozenset()) -> tuple[str, dict[str, tuple[int, int]]]:
        """The file's text and each exported step's line span, leaving out `skip`."""
        head = (
            f"(** {comment(self.title)}\n"
            "    Exported by novikoff: every step's certificate replayed (issue 18). *)\n"
            "Require Import Reals.\n"
            f"Require Import {LOGICAL}.InnerProduct.\n"
            "Open Scope R_scope.\n"
        )
        lines = head.splitlines()
        spans: dict[str, tuple[int, int]] = {}
        for step in self.steps:
            if step.theorem is None or step.step_id in skip:
                continue
            body = step.text.rstrip("\n").splitlines()
            lines.append("")
            spans[step.step_id] = (len(lines) + 1, len(lines) + len(body))
            lines.extend(body)
        return "\n".join(lines) + "\n", spans


def module_name(proof_id: str) -> str:
    """A Coq module name for a proof id (letters, digits, `_`); not unique by itself
    (`a-b` and `a_b` give one name): an export names its modules with `module_names`."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", proof_id)
    return cleaned if cleaned[:1].isalpha() else f"p_{cleaned}"


#: Module names no proof may take: the preamble's file, the libraries a written file
#: requires (a local `Reals.v` would be the one `coqdep` finds for `Require Import Reals`
#: under `coq_makefile`) and Coq's own roots.
RESERVED = frozenset({"InnerProduct", "Reals", "Lra", "ZArith", "Lia", "Coq", "Stdlib"})


def module_names(proof_ids: Sequence[str]) -> list[str]:
    """One Coq module name per proof, in order, each distinct and none reserved (red team
    21 F1: `a-b` and `a_b` wrote one `.v` file and one proof's coqc results were printed for
    the other, a refuted step as `checked`; a proof `InnerProduct` overwrote the axioms).
    A name taken (compared case-insensitively, for file systems that fold case) gets the
    first free suffix `_2`, `_3`, ... in the order given, so the export stays deterministic."""
    taken = {name.casefold() for name in RESERVED}
    out: list[str] = []
    for proof_id in proof_ids:
        base = name = module_name(proof_id)
        suffix = 1
        while name.casefold() in taken:
            suffix += 1
            name = f"{base}_{suffix}"
        taken.add(name.casefold())
        out.append(name)
    return out


def write_project(directory: Path, files: Sequence[ProofFile]) -> list[Path]:
    """Write `_CoqProject`, the preamble and every proof file; returns the .v paths."""
    directory.mkdir(parents=True, exist_ok=True)
    _write(directory / "InnerProduct.v", PREAMBLE)
    paths = []
    for proof_file in files:
        path = directory / f"{proof_file.module}.v"
        _write(path, proof_file.text()[0])
        paths.append(path)
    project = [f"-R . {LOGICAL}", "InnerProduct.v", *(p.name for p in paths)]
    _write(directory / "_CoqProject", "\n".join(project) + "\n")
    return paths


def _write(path: Path, text: str) -> None:
    """`text` as the file `path`: a symbolic link there is replaced, the file it points to
    left alone, as `--counterexamples` does (red team 32 F6: a folder from a stranger's
    repository with `proof.v -> ../proof.toml` made `check proof.toml --coq coq` write the
    Coq text over the proof file it read, or over any file a link named)."""
    if path.is_symlink():
        path.unlink()
    path.write_text(text, encoding="utf-8")


def coqc() -> str | None:
    """The coqc executable on PATH, or None."""
    return shutil.which("coqc")


@dataclass(frozen=True)
class Compiled:
    """Per-step results of one compilation (`checked` or an error) and the time it took."""

    results: dict[tuple[str, str], str]  # (module, step id) -> "checked" | "error: ..."
    seconds: float
    preamble: str  # "checked" or the preamble's error
    files: tuple[ProofFile, ...] = ()  # the files compiled last (`compile_project`'s `again`)


def _run(executable: str, directory: Path, file: str) -> tuple[bool, str]:
    try:
        done = subprocess.run(
            [executable, "-R", ".", LOGICAL, file], cwd=directory, capture_output=True,
            text=True, timeout=TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired:
        return False, f"coqc did not finish within {TIMEOUT:g} s (guard)"
    return done.returncode == 0, (done.stderr + done.stdout).strip()


def _message(output: str) -> tuple[int | None, str]:
    match = _ERROR_AT.search(output)
    if match is None:
        return None, " ".join(output.split())[:500]
    text = " ".join(match.group(2).split())
    return int(match.group(1)), text[:500]


#: Given a file and its steps' results, the file exported anew to be compiled in its place,
#: or None when it stands (`compile_project`).
Again = Callable[[ProofFile, Mapping[str, str]], "ProofFile | None"]


def compile_project(files: Sequence[ProofFile], executable: str, again: Again | None = None
                    ) -> Compiled:
    """Compile the preamble and every proof file in a scratch copy; one result per step.

    After each file, `again` may hand back another export of it (a step whose derivation
    coqc rejected, exported with a premise instead: `verify.coq.export_and_check`), which is
    compiled in its place, and so on until it returns None; the results are the last
    file's, and `Compiled.files` the files compiled last, which are the ones to write."""
    start = time.perf_counter()
    results: dict[tuple[str, str], str] = {}
    final: list[ProofFile] = []
    with tempfile.TemporaryDirectory(prefix="novikoff-coq-") as scratch:
        root = Path(scratch)
        write_project(root, [])
        ok, output = _run(executable, root, "InnerProduct.v")
        if not ok:
            return Compiled({}, time.perf_counter() - start, f"error: {_message(output)[1]}",
                            tuple(files))
        for proof_file in files:
            while True:
                own = _compile_file(executable, root, proof_file)
                replacement = again(proof_file, own) if again is not None else None
                if replacement is None:
                    break
                proof_file = replacement
            results.update({(proof_file.module, s): r for s, r in own.items()})
            final.append(proof_file)
    return Compiled(results, time.perf_counter() - start, "checked", tuple(final))


def _compile_file(executable: str, root: Path, proof_file: ProofFile) -> dict[str, str]:
    """Each exported step's result in one file (step id -> `checked` or `error: ...`):
    coqc stops at the first error, so its step is left out and the file compiled again."""
    results: dict[str, str] = {}
    skip: set[str] = set()
    while True:
        text, spans = proof_file.text(frozenset(skip))
        (root / f"{proof_file.module}.v").write_text(text, encoding="utf-8")
        ok, output = _run(executable, root, f"{proof_file.module}.v")
        if ok:
            results.update(dict.fromkeys(spans, "checked"))
            return results
        line, message = _message(output)
        culprit = next(
            (s for s, (a, b) in spans.items() if line is not None and a <= line <= b),
            None,
        )
        if culprit is None:  # an error outside every step: nothing in the file checks
            results.update(dict.fromkeys(spans, f"error: {message}"))
            return results
        results[culprit] = f"error: {message}"
        skip.add(culprit)
