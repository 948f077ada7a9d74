"""Mutation fuzzing of every input format through the command line, in-process.

Each test mutates one valid seed document (`tests/fuzzing.py`) with hypothesis-drawn edits
(extreme and malformed numbers, look-alike identifiers, powers of sums, duplicated chunks,
flipped bytes) and checks the promises of the README on the answer: exit 0, 1 or 2 only, no
exception escaping `main`, no traceback printed, on exit 2 one line on stderr per error
(a bounded number: a proof file's independent errors each get one).
Derandomized and bounded by the `ci` profile (a few hundred inputs in all); the long
campaign is `benchmarks/fuzz_campaign.py`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fuzzing import KINDS, SEEDS, Mutation, answer, command, mutate, problems
from hypothesis import given
from hypothesis import strategies as st

mutations = st.lists(
    st.builds(Mutation, st.sampled_from(KINDS), st.floats(0, 1), st.floats(0, 1),
              st.integers(0, 1 << 16)),
    min_size=1, max_size=4)


def check_input(suffix: str, edits: list[Mutation]) -> None:
    """Write the mutated seed and assert the command line keeps its promises on it."""
    data = mutate(SEEDS[suffix], edits)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(data)
        result = answer(command(suffix, path))
    assert problems(result) == [], (data[:400], result.stderr[-400:])


@given(mutations)
def test_fuzz_csv(edits: list[Mutation]) -> None:
    check_input(".csv", edits)


@given(mutations)
def test_fuzz_json(edits: list[Mutation]) -> None:
    check_input(".json", edits)


@given(mutations)
def test_fuzz_dat(edits: list[Mutation]) -> None:
    check_input(".dat", edits)


@given(mutations)
def test_fuzz_npy(edits: list[Mutation]) -> None:
    check_input(".npy", edits)


@given(mutations)
def test_fuzz_npz(edits: list[Mutation]) -> None:
    check_input(".npz", edits)


@given(mutations)
def test_fuzz_proof_file(edits: list[Mutation]) -> None:
    check_input(".toml", edits)


def test_every_seed_is_valid() -> None:
    """The seeds themselves are accepted (exit 0), so mutations start from real inputs."""
    for suffix in SEEDS:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"seed{suffix}"
            path.write_bytes(SEEDS[suffix])
            result = answer(command(suffix, path, capped=False))
        assert (result.code, problems(result)) == (0, []), (suffix, result.stderr)
