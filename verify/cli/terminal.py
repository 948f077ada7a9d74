"""Terminal output of the `novikoff` commands, through rich: tables, colour, progress bars.

One home for how the commands talk to a person, so that every command follows the same habits:

- **Colour only on a terminal**, and never when `NO_COLOR` is set (rich reads it): piped
  output is plain text that `grep` and `diff` can read.
- **No wrapping off a terminal.** A piped table is as wide as its widest row, so an exact
  number is never cut in two; on a terminal, rich folds long cells to the window.
- **Progress on stderr, and only when stderr is a terminal**: a log or a pipe never gets
  carriage returns, and stdout (the report, the JSON) is never touched by a bar.

rich is imported when something is drawn, not when a command module loads, so that
`novikoff --help` and `novikoff run` stay quick to start.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from verify.typeset.words import counted

if TYPE_CHECKING:
    from rich.progress import Progress

#: Width given to rich when the output is not a terminal: wide enough that nothing wraps.
UNWRAPPED = 1_000_000


def render(renderable: object, stream: TextIO | None = None) -> str:
    """`renderable` as the text to write on `stream` (default: the current stdout).

    Coloured only when `stream` is a terminal (and NO_COLOR is unset); never wrapped off a
    terminal; without the padding rich leaves at the end of lines. Markup and highlighting
    are off: the text is data (`[h2: ...]`, `1/3`), never rich markup, and its colour never
    depends on what a regex takes for a number. rich renders into a buffer and the caller
    writes the text, so a closed pipe is an ordinary BrokenPipeError (`verify.cli`).
    """
    from rich.console import Console

    stream = sys.stdout if stream is None else stream
    tty = _isatty(stream)
    width = None
    if tty:
        import shutil

        width = shutil.get_terminal_size().columns
    out = Console(file=io.StringIO(), force_terminal=tty, width=width or UNWRAPPED,
                  markup=False, highlight=False, emoji=False,
                  color_system="auto" if tty else None)
    out.print(renderable)
    text = out.file.getvalue()  # type: ignore[attr-defined]
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream is not a terminal
        return False


def print_fields(rows: Sequence[tuple[str, str]], stream: TextIO | None = None) -> None:
    """A key-value summary (`mistakes  3`): a two-column grid, keys bold on a terminal."""
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for key, value in rows:
        grid.add_row(key, value)
    _write(grid, stream)


def print_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]],
                stream: TextIO | None = None) -> None:
    """A table with a title and a header row underlined in ASCII (it reads in any pager)."""
    from rich.box import Box
    from rich.table import Table

    rule = Box("    \n    \n -  \n    \n    \n    \n    \n    \n", ascii=True)
    table = Table(title=title, title_justify="left", box=rule, padding=(0, 1, 0, 0),
                  show_edge=False, header_style="bold", title_style="bold")
    for name in columns:
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*row)
    _write(table, stream)


def _write(renderable: object, stream: TextIO | None) -> None:
    stream = sys.stdout if stream is None else stream
    stream.write(render(renderable, stream))


class Bar:
    """One task of a rich progress display; `update` moves it."""

    def __init__(self, progress: Progress, task: Any) -> None:
        self.progress = progress
        self.task = task

    def update(self, done: int, total: int | None = None, message: str = "", *,
               draw: bool = False) -> None:
        """Show `done` of `total` (None: unknown, a count), and a message; `draw` redraws at
        once (for few, long items, each worth seeing) instead of at the next refresh."""
        self.progress.update(self.task, completed=done, total=total, message=message,
                             refresh=draw)

    def steps(self, index: int, total: int, item: object) -> None:
        """Callback of `check_proof(progress=...)`: step `index` (0-based) of `total` starts."""
        self.update(index, total, str(getattr(item, "id", item)), draw=True)

    def jobs(self, done: int, total: int, message: str) -> None:
        """Callback of `run_audit(progress=...)`: `done` of `total` jobs, what runs now."""
        self.update(done, total, message, draw=True)

    def epochs(self, epoch: int, mistakes: int) -> None:
        """Callback of `run_online(progress=...)`: epochs done (no total: runs stop early)."""
        self.update(epoch, None, f"epoch {epoch}, {counted(mistakes, 'update')}")


@contextmanager
def progress_bar(what: str, stream: TextIO | None = None) -> Iterator[Bar | None]:
    """A progress bar for `what` on `stream` (default stderr), erased when the work ends.

    Yields None when the stream is not a terminal: the caller then passes no progress
    callback at all, and the work runs exactly as without a display.
    """
    stream = sys.stderr if stream is None else stream
    if not _isatty(stream):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    err = Console(file=stream, markup=False, highlight=False, emoji=False)
    display = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                       MofNCompleteColumn(), TimeElapsedColumn(),
                       TextColumn("{task.fields[message]}", markup=False),
                       console=err, transient=True, refresh_per_second=8)
    with display:
        yield Bar(display, display.add_task(what, total=None, message=""))


def callback(bar: Bar | None, kind: str) -> Callable[..., None] | None:
    """The bound callback `kind` (`steps`, `jobs`, `epochs`) of `bar`, or None without one."""
    return None if bar is None else getattr(bar, kind)
