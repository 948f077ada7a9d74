"""`io/common.py`: what a loader reads at all. Only regular files, and at most
`Limits.bytes` of one (trial item 4: `/dev/zero` as a data file exhausted the memory, and
`/dev/urandom`, a named pipe or `novikoff run /dev/zero` never ended)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from perceptron.errors import DataError
from perceptron.io.common import BYTES_PER_CELL, MAX_CELLS, Limits, read_stream
from perceptron.io.loaders import load, load_csv


@pytest.mark.parametrize(("path", "said"), [
    ("/dev/zero", "is a character device, not a regular file"),
    ("/dev/urandom", "is a character device, not a regular file"),
])
def test_a_device_is_refused_without_reading_it(path: str, said: str) -> None:
    if not Path(path).exists():
        pytest.skip(f"no {path} here")
    with pytest.raises(DataError, match=f"^{path}: {said}: a data file is read from a file, "
                                        "or from standard input as -$"):
        load(path)


def test_a_named_pipe_nobody_writes_is_refused_at_once(tmp_path: Path) -> None:
    """Opened without blocking (opening a pipe with no writer blocks forever), then
    refused."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    with pytest.raises(DataError, match="is a named pipe, not a regular file"):
        load(pipe)
    with pytest.raises(DataError, match="is a named pipe, not a regular file"):
        load_csv(pipe)  # every loader reads through the same door


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="is a directory, not a data file"):
        load(tmp_path)


def test_no_more_than_the_limit_is_read(tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("1,2,1\n-1,-2,-1\n")  # 15 bytes
    assert load(data, limits=Limits(max_bytes=15)).n == 2
    with pytest.raises(DataError, match=r"more than 14 bytes.*raise it with --max-cells"):
        load(data, limits=Limits(max_bytes=14))
    assert Limits().bytes == BYTES_PER_CELL * MAX_CELLS
    assert Limits(max_cells=10).bytes == 10 * BYTES_PER_CELL  # --max-cells raises both


class _Endless(io.RawIOBase):
    """A stream that never ends (standard input fed by /dev/zero), counting what is read."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        buffer[:] = b"\0" * len(buffer)
        self.given += len(buffer)
        return len(buffer)


def test_an_endless_stream_is_read_only_up_to_the_limit() -> None:
    stream = _Endless()
    with pytest.raises(DataError, match=r"^<stdin>: more than 1000 bytes"):
        read_stream(io.BufferedReader(stream), "<stdin>", Limits(max_bytes=1000))
    assert stream.given <= 1001 + io.DEFAULT_BUFFER_SIZE
