"""Errors raised for bad user data: one clear line, never a traceback at the CLI."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial


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

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (an audit's worker sends its errors to the parent; by its `args`
        alone the message would be read again as the problem, its place lost)."""
        return (partial(type(self), source=self.source, line=self.line, column=self.column),
                (self.problem,))


class WorkLimitError(DataError):
    """An exact computation on the data would exceed its work budget (counted in big-integer
    operations, never in seconds): the data are too large or hostile for it, and no answer is
    given rather than a wrong one or none at all after hours."""


class DataErrors(DataError):
    """Several independent faults of one data file (its header naming u twice and a start
    theta0 no run takes, ...): each is its own line wherever the faults are said
    (`errors`); the first stands for them all where one error is read."""

    def __init__(self, errors: Sequence[DataError]) -> None:
        self.errors = tuple(errors)
        first = self.errors[0]
        super().__init__(first.problem, source=first.source, line=first.line,
                         column=first.column)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its errors (its constructor takes them, not a message)."""
        return (DataErrors, (self.errors,))


def each_error(error: Exception) -> tuple[Exception, ...]:
    """The independent faults an error stands for: a `DataErrors`'s own, else itself."""
    return error.errors if isinstance(error, DataErrors) else (error,)


def printable(name: str) -> str:
    """A file name on one line: a character that does not print (a newline, a tab, an escape)
    written as its Python escape, `x\\ny.toml` (truth14: a name with a newline split the one
    error line in two); any other character, spaces and non-ASCII letters included, as is."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in name)
