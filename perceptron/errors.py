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
        where = ":".join(printable(str(p)) for p in (source, line, column) if p is not None)
        super().__init__(f"{where}: {problem}" if where else problem)


def printable(name: str) -> str:
    """A file name on one line: a character that does not print (a newline, a tab, an escape)
    written as its Python escape, `x\\ny.toml` (truth14: a name with a newline split the one
    error line in two); any other character, spaces and non-ASCII letters included, as is."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in name)
