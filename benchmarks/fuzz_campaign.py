"""A long mutation-fuzzing campaign of `novikoff` on hostile inputs (run by hand).

    PYTHONPATH=. python benchmarks/fuzz_campaign.py [--inputs 100000] [--seed 0]
        [--seconds-per-input 15] [--memory-gb 1.5] [--check-share 0.05] [--save DIR]

Inputs are the seed documents of `tests/fuzzing.py` (CSV, JSON, .dat, .npy, .npz, proof
files) with up to four random mutations each, run through the command line in-process
(`novikoff run --epochs 20`; proof files: their loading for most inputs, and a share through
`novikoff check --time-limit 0.2`). Each input gets a wall-clock alarm (a hang is an input
over `--seconds-per-input`) and the process an address-space limit (`--memory-gb`: an input
that needs more ends in MemoryError, counted as a crash). Prints the figures: inputs, exits
by code, tracebacks, one-line violations, hangs, max seconds per input, max RSS; saves every
failing input under `--save` to become a regression test.
"""

from __future__ import annotations

import argparse
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import SEEDS, Answer, answer, command, mutate, problems, random_mutations


class Hang(BaseException):
    """An input ran past its wall-clock allowance (a BaseException: `answer` must not
    swallow it as a crash)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def load_only(path: Path) -> Answer:
    """The proof file's load path only (parse, structure, expressions): fast, for volume."""
    from proofs.errors import ProofFileError
    from proofs.proof_file import load_proof

    try:
        load_proof(path)
    except ProofFileError as exc:
        return Answer(2, "", f"novikoff: error: {exc}\n")
    except Exception as exc:  # what the campaign looks for: it would escape main
        return Answer(-1, "", "", exc)
    return Answer(0, "", "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--tiny", action="store_true",
                        help="20 inputs: the test suite's smoke run (in a subprocess, since "
                        "the campaign limits its own address space)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds-per-input", type=float, default=15.0)
    parser.add_argument("--memory-gb", type=float, default=1.5)
    parser.add_argument("--check-share", type=float, default=0.05,
                        help="share of proof files run through `check` (the rest: load only)")
    parser.add_argument("--save", type=Path, default=None,
                        help="folder for the failing inputs (default: not saved)")
    args = parser.parse_args(argv)
    if args.tiny:
        args.inputs = 20

    limit = int(args.memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(args.seed)
    kinds = sorted(SEEDS)
    exits: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    tracebacks = lines = hangs = 0
    slowest = (0.0, "")
    failures: list[tuple[str, bytes, list[str]]] = []
    folder = Path(tempfile.mkdtemp(prefix="novikoff-fuzz-"))
    start = time.perf_counter()
    for index in range(args.inputs):
        suffix = rng.choice(kinds)
        data = mutate(SEEDS[suffix], random_mutations(rng))
        path = folder / f"input{suffix}"
        path.write_bytes(data)
        full = suffix != ".toml" or rng.random() < args.check_share
        began = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, args.seconds_per_input)
        try:
            result = answer(command(suffix, path)) if full else load_only(path)
        except Hang:
            result = Answer(-2, "", "", None)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        seconds = time.perf_counter() - began
        if seconds > slowest[0]:
            slowest = (seconds, f"{suffix} #{index}")
        by_kind[suffix + ("" if full else " (load)")] += 1
        found = problems(result) if result.code != -2 else ["hang"]
        exits["hang" if result.code == -2 else str(result.code)] += 1
        tracebacks += any(p.startswith("traceback") or "printed" in p for p in found)
        lines += any("lines on stderr" in p for p in found)
        hangs += result.code == -2
        if found:
            failures.append((suffix, data, found))
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"fail-{index}{suffix}").write_bytes(data)
        if (index + 1) % 5000 == 0:
            print(f"  {index + 1} inputs, {len(failures)} failing, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"inputs: {args.inputs} (seed {args.seed}) in {elapsed:.0f} s")
    print("by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))
    print("exits: " + ", ".join(f"{k}: {v}" for k, v in sorted(exits.items())))
    print(f"tracebacks: {tracebacks}")
    print(f"errors not on one line: {lines}")
    print(f"hangs (> {args.seconds_per_input:g} s): {hangs}")
    print(f"max seconds per input: {slowest[0]:.2f} ({slowest[1]})")
    print(f"max RSS: {rss:.0f} MB (address space limited to {args.memory_gb:g} GB)")
    for suffix, data, found in failures[:20]:
        print(f"FAIL {suffix}: {'; '.join(found)}: {data[:200]!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
