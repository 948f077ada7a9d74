"""What a text data file names in its comment lines before its first example: the reference
separator `# u = 3, -1, 1/2`, the start of batch runs `# theta0 = 0, 2, -1`, the margins of a
single pass `# gamma = 1/4, 1` (exact rationals).

Here, with the loaders, so that every command that reads a data file reads its header the
same way and says its faults in the same words: the audit (`verify.audit.targets`), its
shrunk counterexamples, and `novikoff run` and `bound`, which refuse a `u` that does not
separate as the audit does (newcomer 19 saw them accept it, exit 0, while the audit refused
the same file). Every fault is placed at its line, and every independent one is said
(`DataErrors`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError, DataErrors


@dataclass(frozen=True)
class Header:
    """What a text data file names in its comment lines before its first example, so that a
    shrunk counterexample (`verify.audit.counterexamples`) is run as the campaign ran it:

    - `# u = 3, -1, 1/2`: the reference separator u (for runs to convergence it must
      separate the examples; for single passes it must be of norm exactly 1);
    - `# theta0 = 0, 2, -1`: the one start of batch runs (kinds with `RunKind.start_of`);
    - `# gamma = 1/4, 1`: the margins a single pass is read at (each > 0).

    `lines`: the line of the file that names each key (its faults are placed there); not
    part of what the header names.
    """

    u: Vector | None = None
    theta0: Vector | None = None
    margins: tuple[Fraction, ...] = ()
    lines: Mapping[str, int] = field(default_factory=dict, compare=False, hash=False)

    def text(self) -> str:
        """The comment lines naming what is given (empty when nothing is)."""
        named = (("u", self.u), ("theta0", self.theta0), ("gamma", self.margins or None))
        return "".join(f"# {key} = {', '.join(map(str, values))}\n"
                       for key, values in named if values is not None)


#: A data file that names nothing: runs as the campaign's own data runs.
NOTHING_NAMED = Header()
#: The keys a data file's header may name (`Header`), and the line that names u.
HEADER_KEYS = ("u", "theta0", "gamma")
U_LINE = "# u ="


def header(path: str, data: Dataset) -> Header:
    """What the text data file `path` names (`Header`; nothing for a binary format or
    standard input, read already); DataError, placed at its line, when a line names a value
    that is not exact rationals of the data's dimension (margins: > 0), or names a key
    twice: every such fault at once (`DataErrors`)."""
    from perceptron.numbers import parse_exact

    if path == "-":
        return Header()
    try:
        head = list(_comments(path))
    except OSError:
        return Header()  # read already by the loader, which said what was wrong
    found: dict[str, tuple[Fraction, ...]] = {}
    lines: dict[str, int] = {}
    faults: list[DataError] = []
    for no, raw, whole in head:
        key, equals, _ = raw.lstrip()[1:].partition(b"=")
        try:
            key_text = key.decode("ascii").strip()
        except UnicodeDecodeError:
            continue  # no key of ours: any other comment
        if not equals or key_text not in HEADER_KEYS:
            continue

        def fault(problem: str, no: int = no) -> None:
            faults.append(DataError(problem, source=path, line=no))

        if not whole:
            fault(f"its {key_text} line is longer than {HEADER_LINE} bytes")
            continue
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            fault(f"its {key_text} line is not UTF-8 text")
            continue
        key, values = key_text, line[1:].partition("=")[2]
        if key in found or key in lines:
            fault(f"names {key} twice (first on line {lines[key]})")
            continue
        lines[key] = no
        try:
            read = tuple(parse_exact(t.strip()) for t in values.split(","))
        except DataError as error:
            fault(f"its line `{line[:60]}`: {error}")
            continue
        if key != "gamma" and len(read) != data.d:
            fault(f"its {key} has {len(read)} coordinates, its examples {data.d}")
        elif key == "gamma" and min(read) <= 0:
            fault("its margins gamma must be > 0")
        else:
            found[key] = read
    if faults:
        raise DataErrors(faults)
    return Header(found.get("u"), found.get("theta0"), found.get("gamma", ()), lines)


def margins(u: Sequence[Fraction], data: Dataset) -> list[Fraction]:
    """`y<u, x>` of every example, exactly."""
    return [y * sum((a * b for a, b in zip(u, x, strict=True)), Fraction(0))
            for x, y in zip(data.X, data.y, strict=True)]


def separates(u: Sequence[Fraction], data: Dataset) -> bool:
    """Whether `y<u, x> > 0` for every example: `u` is a separator of `data`, exactly."""
    return len(u) == data.d and all(m > 0 for m in margins(u, data))


def is_unit(u: Sequence[Fraction]) -> bool:
    """Whether `||u||^2 = 1` exactly (the u a single pass is read with)."""
    return sum((c * c for c in u), Fraction(0)) == 1


def not_separating(path: str, named: Header, data: Dataset) -> DataError | None:
    """The fault of a header whose `u` does not separate the examples (a run to convergence
    needs `y<u, x> > 0` for every one), placed at its `# u` line and saying which example
    fails and its margin (newcomer 19 read "(y<u, x> > 0 for every example)" as if it held);
    None when it separates or names no u. One home of the words: the audit and `novikoff
    run` and `bound` say it alike."""
    if named.u is None or separates(named.u, data):
        return None
    found = margins(named.u, data)
    first = next(i for i, m in enumerate(found) if m <= 0)
    more = sum(m <= 0 for m in found) - 1
    also = f" (and {more} other example{'s' if more > 1 else ''})" if more else ""
    return DataError(f"the u it names does not separate its examples: example {first + 1} "
                     f"has y<u, x> = {found[first]}, not > 0{also}", source=path,
                     line=named.lines.get("u"))


#: A header line's bytes at most (a `# u = ...` of a million coordinates is refused, placed
#: at its line; a longer plain comment is skipped whole, never held).
HEADER_LINE = 1 << 20


def _comments(path: str) -> Iterator[tuple[int, bytes, bool]]:
    """The comment lines before the file's first example, read a line at a time (bounded by
    `HEADER_LINE` each): its number, its bytes (at most `HEADER_LINE`), and whether they
    are the whole line. Blank lines are passed over; the first other line ends the header
    (an example, or the first bytes of a binary format). Red team 20 F1: the first 64 KiB
    were decoded at once, so a character split at their end dropped the whole header (a
    `u` that does not separate then accepted, exit 0), and a line across it was cut (`u = 1,
    -10` read as `1, -1`)."""
    with open(path, "rb") as handle:
        for no in itertools.count(1):
            raw = handle.readline(HEADER_LINE + 1)
            if not raw:
                return
            whole = raw.endswith(b"\n") or len(raw) <= HEADER_LINE
            if not whole:  # the rest of an overlong line, read and dropped in pieces
                while (rest := handle.readline(HEADER_LINE)) and not rest.endswith(b"\n"):
                    pass
            stripped = raw.strip()
            if not stripped:
                continue
            if not stripped.startswith(b"#"):
                return
            yield no, raw[:HEADER_LINE], whole
