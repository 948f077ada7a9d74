"""Errors raised for bad user data: one clear line, never a traceback at the CLI."""

from __future__ import annotations


class DataError(ValueError):
    """Bad input data; the message names the file, line and column where known."""

    def __init__(
        self,
        problem: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.column = column
        where = ":".join(str(p) for p in (source, line, column) if p is not None)
        super().__init__(f"{where}: {problem}" if where else problem)
