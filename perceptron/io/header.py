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

import io
import re
from collections.abc import Mapping, Sequence
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
    that is not exact rationals of the data's dimension (margins: > 0), names a key twice,
    looks like a header line but cannot be read as one (`# U = 1`, `# u\u00a0= 1`), or is a
    header line after the header (after the first example or column-name row: the loaders
    skip every comment line, so it would be ignored): every such fault at once
    (`DataErrors`). Lines are the loaders' lines: a UTF-8 byte-order mark is the start of
    the file, and CR, LF and CR LF (and the other breaks of `str.splitlines`) end a line."""
    from perceptron.numbers import parse_exact

    if path == "-":
        return Header()
    found: dict[str, tuple[Fraction, ...]] = {}
    lines: dict[str, int] = {}
    faults: list[DataError] = []
    try:
        head, late = _comments(path)
    except OSError:
        return Header()  # read already by the loader, which said what was wrong
    for no, first in late:
        faults.append(DataError(
            f"a header line after the header (it ends at line {first}, the first line that "
            "is not a comment): header lines go before the first example and any "
            "column-name row", source=path, line=no))
    for no, raw, whole in head:
        key, equals, _ = raw.lstrip()[1:].partition("=")
        key_text = key.strip()

        def fault(problem: str, no: int = no) -> None:
            faults.append(DataError(problem, source=path, line=no))

        if not equals or key_text not in HEADER_KEYS:
            if _LOOKS_LIKE_KEY.match(raw):
                fault(f"its line `{_shown(raw)}` looks like a header line but is not one: "
                      "write `# u = ...`, `# theta0 = ...` or `# gamma = ...` (lower case, "
                      "an ASCII `=`)")
            continue
        if not whole:
            fault(f"its {key_text} line is longer than {HEADER_LINE} characters")
            continue
        try:
            raw.encode("utf-8")
        except UnicodeEncodeError:  # a byte that is not UTF-8, kept as a lone surrogate
            fault(f"its {key_text} line is not UTF-8 text")
            continue
        line = raw.strip()
        key, values = key_text, line[1:].partition("=")[2]
        if key in found or key in lines:
            fault(f"names {key} twice (first on line {lines[key]})")
            continue
        lines[key] = no
        try:
            read = tuple(parse_exact(t.strip()) for t in values.split(","))
        except DataError as error:
            fault(f"its line `{_shown(line)}`: {error}")
            continue
        if key != "gamma" and len(read) != data.d:
            fault(f"its {key} has {len(read)} coordinates, its examples {data.d}")
        elif key == "gamma" and min(read) <= 0:
            fault("its margins gamma must be > 0")
        else:
            found[key] = read
    if faults:
        raise DataErrors(sorted(faults, key=lambda f: f.line or 0))
    return Header(found.get("u"), found.get("theta0"), found.get("gamma", ()), lines)


#: A comment line meant as a header line: `#`, a key in any case (`theta_0`, `theta`, `w0`
#: for theta0), then after any spaces (a no-break space pasted from a web page included) an
#: `=`-like character, a colon (`:`, `:=`) or a number. One the header does not read is
#: refused, never skipped as any other comment (red team 21 F3; red team 23 F5: `# u: 1, 0`,
#: `# u := 1, 0`, `# gamma 1/4` and `# theta_0 = 0, 2` were skipped, the file's separator,
#: margins or start replaced in silence). `# u is a unit vector` is a comment.
_LOOKS_LIKE_KEY = re.compile(
    r"\s*#\s*(u|theta_?0?|w_?0|gamma)(\s*[=\uff1d\ufe66:]|\s+[-+.(0-9])", re.IGNORECASE)


def _shown(line: str) -> str:
    """A line as a message shows it: stripped, at most 60 characters, escapes for what a
    terminal would not show (a no-break space is `\\xa0`)."""
    text = line.strip()[:60]
    return "".join(c if c.isprintable() and (c == " " or not c.isspace())
                   else ascii(c)[1:-1] for c in text)


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


def _comments(path: str) -> tuple[list[tuple[int, str, bool]], list[tuple[int, int]]]:
    """The comment lines before the file's first example, read a line at a time (bounded by
    `HEADER_LINE` characters each): its number, its text (at most `HEADER_LINE`
    characters; a byte that is not UTF-8 kept as a lone surrogate), and whether that is the
    whole line. Blank lines are passed over; the first other line ends the header (an
    example, a column-name row). Then `late`: the lines after it that look like header lines
    (`_LOOKS_LIKE_KEY`), each with the line that ended the header. A binary format (numpy's
    magic, a zip archive) has neither.

    Lines are the loaders' (`perceptron.io.csv`): the file is read as `utf-8-sig` (a
    byte-order mark is no character of the first line) with universal newlines, each line
    split again as `str.splitlines` splits. Red team 21 F3/F5: a BOM before `# u` ended the
    header at its first line (the u dropped in silence), a CR-only file was one line. Red
    team 20 F1: the first 64 KiB were decoded at once, so a character split at their end
    dropped the whole header, and a line across it was cut (`u = 1, -10` read as `1, -1`)."""
    head: list[tuple[int, str, bool]] = []
    late: list[tuple[int, int]] = []
    ended = 0  # the line that ended the header, 0 while in it
    with open(path, "rb") as binary:
        start = binary.read(6)
        if not start or start.startswith((b"\x93NUMPY", b"PK\x03\x04")):
            return head, late
        binary.seek(0)
        handle = io.TextIOWrapper(binary, encoding="utf-8-sig", errors="surrogateescape",
                                  newline=None)
        no = 0
        while text := handle.readline(HEADER_LINE + 1):
            whole = text.endswith("\n") or len(text) <= HEADER_LINE
            if not whole:  # the rest of an overlong line, read and dropped in pieces
                while (rest := handle.readline(HEADER_LINE)) and not rest.endswith("\n"):
                    pass
            parts = text.splitlines() if whole else [text[:HEADER_LINE]]
            for part in parts or [""]:
                no += 1
                stripped = part.strip()
                if ended:
                    if stripped.startswith("#") and _LOOKS_LIKE_KEY.match(part):
                        late.append((no, ended))
                elif not stripped:
                    continue
                elif stripped.startswith("#"):
                    head.append((no, part, whole))
                else:
                    ended = no
    return head, late
