"""Mutational fuzzing of the inputs strangers give `novikoff`: shared by
`tests/promises/test_fuzz.py` (hypothesis draws the mutations, bounded and derandomized) and
`benchmarks/fuzz_campaign.py`
(a seeded `random.Random` draws them, 10**5 inputs and more).

An input is a seed document (a small valid CSV, JSON, `.dat`, `.npy`, `.npz` or proof file)
with a list of `Mutation`s applied. The mutations favour what has broken the loaders and the
parser before: extreme numbers (`1e308`, `1e-400`, `1e5000`), malformed ones (`1/0`, `²`,
`nan`), look-alike identifiers (`𝐱`, `ｘ`), powers of sums, duplicated lines and chunks.
`answer` runs the command line in-process on one input and returns what a user would see.
"""

from __future__ import annotations

import contextlib
import io
import random
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from proofs.errors import MAX_REPORTED

#: Seed documents, by file suffix; each is a valid input of its format.
CSV = b"x1,x2,label\n1,2,1\n-1,0.5,-1\n3/4,-2,1\n0.25,-1.5,-1\n"
JSON = b'{"X": [[1, 2], [-1, 0.5], ["3/4", -2], [0.25, -1.5]], "y": [1, -1, 1, -1]}\n'
DAT = b"4\n2\n1\n1\n2\n0\n-1\n1/2\n1\n3 % 4\n-2\n0\n0.25\n-1.5\n"
PROOF = b"""title = "norm growth"
vectors = ["w", "x"]
scalars = ["y", "R"]

[[step]]
id = "norm-growth"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R**2"]
claim = "dot(w + y*x, w + y*x) <= dot(w, w) + R**2"

[[step]]
id = "square"
given = ["R >= 1"]
claim = "(R + y)**2 >= 0"
uses = ["norm-growth"]
"""


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def _npz(X: np.ndarray, y: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("X.npy", _npy(X))
        archive.writestr("y.npy", _npy(y))
    return buffer.getvalue()


_X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.75, -2.0], [0.25, -1.5]])
_Y = np.array([1, -1, 1, -1])
NPY = _npy(np.hstack([_X, _Y[:, None]]))
NPZ = _npz(_X, _Y)

SEEDS: dict[str, bytes] = {".csv": CSV, ".json": JSON, ".dat": DAT, ".npy": NPY,
                           ".npz": NPZ, ".toml": PROOF}

#: Tokens inserted by mutations: what broke the loaders and the parser before, and kin.
TOKENS: tuple[bytes, ...] = (
    b"1e308", b"-1e308", b"1e-400", b"1e5000", b"1e-5000", b"9" * 400, b"1/0", b"0/0",
    b"1/" + b"7" * 300, b"nan", b"inf", b"-0", b"0", b"1", b"-1", b"\xc2\xb2",
    "𝐱".encode(), "ｘ".encode(), b"\xff\xfe", b"\x00", b"\"", b",", b";", b"\t", b"\n",
    b"\r\n", b"#", b"\\", b"{", b"[", b"]", b"}", b"(", b")", b"**7", b"**16", b"*",
    b"/", b"+", b"-", b"dot(w, w)", b"dot(x, (y + R + 1)**5*x)", b"(y - R + y*R + 2)**9",
    b"norm2(w)", b"1/(1 + y)", b"y/y", b"<=", b">=", b"==", b"<", b"\"\"\"", b"[[step]]",
    b"id = \"s2\"\n", b"uses = [\"norm-growth\"]\n", b"__import__", b"x" * 70,
    b"\x93NUMPY", b"PK\x03\x04",
    b"{'descr': '<f8', 'fortran_order': False, 'shape': (9999999999, 2), }",
    b"'shape': (-1, 2)", b"'descr': '|O'", b"'descr': '<U99999'",
)

#: Mutation kinds: replace a byte range, insert, delete, duplicate a chunk, flip a byte.
KINDS = ("insert", "replace", "delete", "duplicate", "flip", "repeat-line")


@dataclass(frozen=True)
class Mutation:
    """One edit of a document; positions are fractions of its length, so any list of
    mutations applies to any document (hypothesis shrinks them freely)."""

    kind: str
    where: float
    span: float
    token: int

    def apply(self, data: bytes) -> bytes:
        """The document after this edit."""
        n = len(data)
        at = min(int(self.where * (n + 1)), n)
        width = min(int(self.span * 16) + 1, n - at) if n > at else 0
        token = TOKENS[self.token % len(TOKENS)]
        if self.kind == "insert":
            return data[:at] + token + data[at:]
        if self.kind == "replace":
            return data[:at] + token + data[at + width:]
        if self.kind == "delete":
            return data[:at] + data[at + width:]
        if self.kind == "duplicate":
            chunk = data[at:at + width]
            return data[:at + width] + chunk * (1 + self.token % 8) + data[at + width:]
        if self.kind == "flip":
            if n == 0:
                return data
            spot = min(at, n - 1)
            return data[:spot] + bytes([data[spot] ^ (1 << self.token % 8)]) + data[spot + 1:]
        if self.kind == "repeat-line":
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = n if end < 0 else end + 1
            return data[:end] + data[start:end] * (1 + self.token % 50) + data[end:]
        raise ValueError(f"unknown mutation {self.kind!r}")


def mutate(seed: bytes, mutations: list[Mutation]) -> bytes:
    """`seed` with every mutation applied in order (capped at 64 KiB: the harness checks
    behaviour on hostile content, not on sheer size)."""
    data = seed
    for mutation in mutations:
        data = mutation.apply(data)[: 1 << 16]
    return data


def random_mutations(rng: random.Random, most: int = 4) -> list[Mutation]:
    """A list of up to `most` mutations drawn from `rng` (the campaign's generator)."""
    return [Mutation(rng.choice(KINDS), rng.random(), rng.random(), rng.randrange(1 << 16))
            for _ in range(rng.randint(1, most))]


@dataclass(frozen=True)
class Answer:
    """What the command line did with one input."""

    code: int
    stdout: str
    stderr: str
    crash: BaseException | None = None  # an exception that escaped `main`: a traceback


def command(suffix: str, path: Path, capped: bool = True) -> list[str]:
    """The `novikoff` arguments that exercise an input of this kind, cheaply: a proof file
    checked on the small work budget, and (`capped`) a wall-clock cap of 0.2 s per step
    against a mutation that would take long; a verdict that cap cuts is `unknown`, which a
    fuzzed input may be, but a seed must be decided whatever the load (a busy suite once cut
    the seed's first step: exit 1)."""
    if suffix == ".toml":
        return ["check", str(path), "--budget", "small",
                *(["--time-limit", "0.2"] if capped else [])]
    return ["run", str(path), "--epochs", "20"]


def answer(argv: list[str]) -> Answer:
    """Run `novikoff argv` in-process, capturing its output and any escaping exception."""
    from verify.cli import main

    out, err = io.StringIO(), io.StringIO()
    crash: BaseException | None = None
    code = -1
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception as exc:  # what the harness looks for: it escaped main
            crash = exc
    return Answer(code, out.getvalue(), err.getvalue(), crash)


def problems(result: Answer) -> list[str]:
    """Every broken promise of the command line in `result` (empty: all kept)."""
    found = []
    if result.crash is not None:
        found.append(f"traceback: {type(result.crash).__name__}: {result.crash}")
    if result.code not in (0, 1, 2):
        found.append(f"exit code {result.code}")
    if "Traceback" in result.stderr or "Traceback" in result.stdout:
        found.append("a traceback was printed")
    lines = result.stderr.splitlines()
    if result.code == 2 and not 1 <= len(lines) <= MAX_REPORTED + 1:  # one per error, bounded
        found.append(f"{len(lines)} lines on stderr, not one per error (at most "
                     f"{MAX_REPORTED} and a count)")
    if result.code == 2 and not all(line.startswith("novikoff: error: ") for line in lines):
        found.append("a line on stderr that is not an error")
    return found
