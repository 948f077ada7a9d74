"""Errors in proofs and proof files, and where in the file each one is (one locator).

An error names the file, its line and column, the step and the problem, leaving out the parts
that are unknown, so a user can go straight to the offending text: `FILE:LINE:COLUMN: step ID:
problem; fix`. A file with several independent problems gets them all at once
(`ProofFileErrors`), so fixing a file takes one run per round of fixes, not one per error.

`tomllib` keeps no positions, so `Source` finds them in the text: the step's table (its
`id = "..."` line, or its `[[step]]` header by position), or for an entry of a table outside
the steps (a key `numeric.names.R2`, `imports.lib`, `notation.ts`) that table's region, then
the string the error is about (or the key's line), then the column of the offending part
inside that string. The same locator places the notes of `proofs.earlier`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_REPORTED = 20  # errors listed in full; the rest are counted ("... and K more")
_STEP_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*step[ \t]*\]\]", re.MULTILINE)
_TABLE_HEADER = re.compile(r"^[ \t]*\[\[?[ \t]*([A-Za-z0-9_.\- \t\"']+?)[ \t]*\]\]?",
                           re.MULTILINE)
#: The top-level tables besides the steps: a key `TABLE.ENTRY` is searched in TABLE's region.
TABLES = ("numeric", "imports", "notation", "define")


#: characters a terminal obeys rather than prints (C0 but tab and line feed, a carriage
#: return not before a line feed, DEL, C1 with its one-byte CSI) and the bidirectional
#: overrides that reorder what is shown: a stranger's title `x\x1b[2K\rall proved ...\x1b[8m`
#: erased and hid `check`'s `refuted` line on a terminal (red team 28 F6)
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
                     "|\r(?!\n)")


def quoted(text: str, limit: int = 80) -> str:
    """`text` quoted for an error line that names it (`names.k = '...'`): whole up to `limit`
    characters, else its start and its length. The error is placed at the text in the file
    (`Source.where`), so its start is enough to know it; a binding of 2 000 characters made
    its error a line of over 2 000 (docs32)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit - 20]!r}... ({len(text)} characters)"


class ProofFileError(ValueError):
    """A proof (file) that cannot be checked; the CLI prints it as one line, exit code 2.

    `key` is the entry the problem is in (`claim`, `given[1]`), `text` the string it read and
    `segment` the offending part of it: they place the error in the file (`Source.located`),
    which fills in `line` and `column`. `fix` says what to write instead, where that is known.
    """

    #: The proof of the steps read without error, where the file could not be read whole:
    #: set by the reader (`proofs.proof_file`), so that a checker can add what its rules
    #: refuse in those steps (`verify.proof_checker.with_refusals`); None otherwise.
    partial: Any = None

    def __init__(self, problem: str, *, file: str | None = None, step: str | None = None,
                 key: str | None = None, text: str | None = None, segment: str | None = None,
                 fix: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.problem = " ".join(problem.split())
        self.file, self.step, self.key, self.text, self.segment = file, step, key, text, segment
        self.fix, self.line, self.column = fix, line, column
        super().__init__(self.line_text())

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole, every field kept (an audit's worker sends its errors to the parent;
        by its `args` alone the line would be read again as the problem)."""
        return (_rebuilt, (type(self), self.problem, {
            k: getattr(self, k) for k in ("file", "step", "key", "text", "segment", "fix",
                                          "line", "column")}))

    def line_text(self) -> str:
        """`FILE:LINE:COLUMN: step ID: problem; fix`, without the parts that are unknown;
        what a terminal would obey (`CONTROL`) written as its escape: a problem may quote
        what no field check looks at (a TOML key, `names = { "th\\u001b[31m..." = 3 }`,
        reached every output with its escape sequence)."""
        place = ":".join(str(p) for p in (self.file, self.line, self.column) if p is not None)
        step = f"step {self.step}" if self.step else None
        fix = f"; {self.fix}" if self.fix else ""
        return CONTROL.sub(lambda m: repr(m.group())[1:-1], ": ".join(
            part for part in (place, step, self.problem + fix) if part))

    @property
    def errors(self) -> tuple[ProofFileError, ...]:
        """Every error this one stands for (itself)."""
        return (self,)

    def lines(self, limit: int = MAX_REPORTED) -> list[str]:
        """One line per error, at most `limit` of them, then `... and K more`."""
        shown = [e.line_text() for e in self.errors[:limit]]
        extra = len(self.errors) - len(shown)
        return shown + ([f"... and {extra} more"] if extra > 0 else [])

    def _with(self, **changes: object) -> ProofFileError:
        fields = {"file": self.file, "step": self.step, "key": self.key, "text": self.text,
                  "segment": self.segment, "fix": self.fix, "line": self.line,
                  "column": self.column, **changes}
        return ProofFileError(self.problem, **fields)  # type: ignore[arg-type]

    def at(self, *, step: str | None = None, prefix: str = "") -> ProofFileError:
        """The same error inside `step` (unless it names one already), its problem led by
        `prefix` (e.g. the entry of an import it came through)."""
        out = self._with(step=self.step if self.step is not None else step)
        if prefix:
            out = ProofFileError(f"{prefix}{self.problem}", **{
                k: getattr(out, k) for k in ("file", "step", "key", "text", "segment", "fix",
                                             "line", "column")})
        return out

    def located(self, file: str, source: Source | None = None) -> ProofFileError:
        """The same error(s) attributed to `file`, at their line and column in `source`."""
        if source is None:
            return self._with(file=file)
        if self.step in source.copies:  # a copy is written nowhere: placed at the use it serves
            step, used = source.copies[self.step]
            copied = ProofFileError(f"uses {used}: its instance {self.step} (a copy of {used}, "
                                    f"proved again) is refused: {self.problem}", step=step,
                                    key="uses", text=used, fix=self.fix)
            return copied.located(file, source)
        line, column = source.where(self.step, self.key, self.text, self.segment)
        return self._with(file=file, line=line, column=column)


class ProofFileErrors(ProofFileError):
    """Several independent errors of one file, in file order; it reads as the first (so a
    caller that shows one line shows the most important), and `errors` holds them all."""

    def __init__(self, errors: Sequence[ProofFileError]) -> None:
        flat = tuple(e for error in errors for e in error.errors)
        if not flat:
            raise ValueError("ProofFileErrors needs at least one error")
        self._all = flat
        first = flat[0]
        super().__init__(first.problem, file=first.file, step=first.step, key=first.key,
                         text=first.text, segment=first.segment, fix=first.fix,
                         line=first.line, column=first.column)

    @property
    def errors(self) -> tuple[ProofFileError, ...]:
        """Every error, in the order found (the file's)."""
        return self._all

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its errors (its constructor takes them, not a message)."""
        return (ProofFileErrors, (list(self._all),))

    def at(self, *, step: str | None = None, prefix: str = "") -> ProofFileError:
        """Every error inside `step`, led by `prefix` (`ProofFileError.at`)."""
        return ProofFileErrors([e.at(step=step, prefix=prefix) for e in self._all])

    def located(self, file: str, source: Source | None = None) -> ProofFileError:
        """Every error attributed to `file` and placed in `source`, in file order (those
        placed nowhere first)."""
        placed = [e.located(file, source) for e in self._all]
        return ProofFileErrors(sorted(placed, key=lambda e: (e.line or 0, e.column or 0)))


def _rebuilt(kind: type[ProofFileError], problem: str, fields: dict[str, Any]
             ) -> ProofFileError:
    """A `ProofFileError` unpickled (`ProofFileError.__reduce__`)."""
    return kind(problem, **fields)


def raise_all(errors: Sequence[ProofFileError]) -> None:
    """Raise the errors found, if any: the only one, or all of them together."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ProofFileErrors(errors)


@dataclass(frozen=True)
class Source:
    """A proof file's name and text: where its errors and notes are in it (the one locator).

    Positions are found, not recorded (`tomllib` keeps none), so each search falls back to
    something coarser that is still right: the string, else the key, else the step's line,
    else line 1. `copies` maps the id of each copy the file's instances made
    (`proofs.instances`) to the step and the `uses` entry it was made for: an error in a copy
    is placed there.
    """

    file: str
    text: str
    copies: Mapping[str, tuple[str, str]] = field(default_factory=dict, compare=False)

    def step_line(self, step: str | None) -> int:
        """The line of `step`'s `id = "..."` (`#N`: the N-th `[[step]]` header); 1 if none."""
        return self.where(step, None, None, None)[0]

    def where(self, step: str | None, key: str | None, text: str | None,
              segment: str | None) -> tuple[int, int]:
        """(line, column), both from 1, of `segment` inside the string `text` of entry `key`
        of `step`, as far as they can be found (class docstring)."""
        start, end, at = self._region(step) if step or not key else self._table(key)
        found_key = None
        if key:
            name = re.escape(key.split("[")[0].rsplit(".", 1)[-1])
            found_key = re.compile(rf"(^|[{{,][ \t]*)[\"']?{name}[\"']?[ \t]*=",
                                   re.MULTILINE).search(self.text, start, end)
        if text:  # the string after its key first: the same text may be another entry's
            # (`title = "t"` before `naturals = ["t"]` took naturals' error, docs32)
            for begin in ((found_key.end(),) if found_key else ()) + (start,):
                for quoted in _quoted(text):
                    found = self.text.find(quoted, begin, end)
                    if found >= 0:
                        inner = found + 1 + max(0, text.find(segment) if segment else 0)
                        return self._position(inner)
        if found_key:
            return self._position(found_key.start() + len(found_key.group(1)))
        return self._position(at)

    def _region(self, step: str | None) -> tuple[int, int, int]:
        """The span of `step`'s table in the text and where it is named (whole file, 0: none)."""
        headers = [m.start() for m in _STEP_HEADER.finditer(self.text)]
        named: int | None = None
        if step and step.startswith("#") and step[1:].isdigit():
            index = int(step[1:]) - 1
            named = headers[index] if 0 <= index < len(headers) else None
        elif step:
            found = re.search(rf'^[ \t]*id[ \t]*=[ \t]*["\']{re.escape(step)}["\']', self.text,
                              re.MULTILINE)
            named = found.start() + len(found.group(0)) - len(found.group(0).lstrip()) \
                if found else None
        if named is None:
            return 0, len(self.text), 0
        begin = max((h for h in headers if h <= named), default=0)
        later = [m.start() for m in _TABLE_HEADER.finditer(self.text, named + 1)
                 if not m.group(1).replace(" ", "").startswith("step.")]
        return begin, min(later, default=len(self.text)), named

    def _table(self, key: str) -> tuple[int, int, int]:
        """The span of the top-level table a key `TABLE.ENTRY` (or `TABLE`) is in (`[numeric]`
        for `numeric.names.R2`), from its header to the next one, and where it is named; the
        whole file for any other key, or a table written inline (`numeric = { ... }`)."""
        table = key.split(".", 1)[0]
        if table not in TABLES:
            return 0, len(self.text), 0
        for found in _TABLE_HEADER.finditer(self.text):
            if found.group(1).replace(" ", "").strip("\"'") == table and \
                    not found.group(0).lstrip().startswith("[["):
                later = [m.start() for m in _TABLE_HEADER.finditer(self.text, found.end())]
                return found.start(), min(later, default=len(self.text)), found.start()
        return 0, len(self.text), 0

    def _position(self, offset: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, offset) + 1
        return line, offset - (self.text.rfind("\n", 0, offset) + 1) + 1


def _quoted(text: str) -> Iterator[str]:
    """How a TOML string holding `text` may be spelt: basic or literal quotes."""
    yield f'"{text}"'
    yield f"'{text}'"
