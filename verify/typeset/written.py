"""A relation typeset as its author wrote it, in LaTeX, MathML or plain text.

The kernel reads SymPy's normal form, which is what it should check but not what a reader
should see: `norm2(a*v - (2*a)*(v/2)) == 0` normalises to `0 = 0`, and `-y*dot(w, x)` may
come back as `-x*y...`. Here the relation's own text is parsed again (Python's `ast`, the
grammar proof files are written in, already validated by `proofs.language`) and printed
node by node: nothing is evaluated, reordered or cancelled; only redundant parentheses go.

A relation also comes apart into *chunks* at its top-level `+` and `-` and at its relation
sign, so a long formula breaks there: LaTeX lines of `multline*`, MathML elements that wrap
like words (`Printer.chunks`). One `Format` per output; `pretty` names (`verify.typeset.names`)
in all three, so a step, its certificate and `explain` share one notation.
"""

from __future__ import annotations

import ast
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from verify.typeset.names import pretty

ADD, NEG, MUL, POW, ATOM = 1, 2, 3, 5, 6
"""Binding strength of a printed node (higher binds tighter)."""
RELATIONS = {ast.LtE: "<=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.Eq: "=="}


class Format(ABC):
    """How one output writes the pieces of a formula."""

    #: whether a raised exponent reads as one group (LaTeX's and MathML's superscripts); a
    #: plain-text `^` does not: `2^1/2` reads as (2^1)/2, so such an exponent is bracketed
    exponent_grouped: bool = True

    @abstractmethod
    def name(self, name: str, notation: Mapping[str, str]) -> str:
        """An identifier, prettified."""

    @abstractmethod
    def number(self, text: str) -> str:
        """A numeral."""

    @abstractmethod
    def op(self, symbol: str) -> str:
        """An operator or relation sign: one of `+ - <= < >= > == ⊢ ←`."""

    @abstractmethod
    def row(self, parts: Sequence[str]) -> str:
        """Pieces side by side."""

    @abstractmethod
    def paren(self, body: str) -> str:
        """`(body)`."""

    @abstractmethod
    def frac(self, num: tuple[str, int], den: tuple[str, int]) -> tuple[str, int]:
        """A quotient of two printed nodes (with their strengths) and its own strength."""

    @abstractmethod
    def power(self, base: str, exponent: str) -> str:
        """`base` raised to `exponent` (base already parenthesised where needed)."""

    @abstractmethod
    def times(self, left: str, right: str, numeral: bool) -> str:
        """A product; `numeral`: the right factor starts with a digit (needs a dot)."""

    @abstractmethod
    def call(self, function: str, args: Sequence[str]) -> str:
        """`dot(a, b)` ⟨a, b⟩, `norm2(v)` ‖v‖², `sqrt(e)` √e, other functions by name."""

    def unary(self, sign: str, operand: str) -> str:
        """`-operand` (or `+operand`)."""
        return self.row([self.op(sign), operand])

    @abstractmethod
    def member(self, family: str, index: str) -> str:
        """`y[i]`, a member of a family: y with the subscript i."""

    @abstractmethod
    def total(self, index: str, lo: str, hi: str | None, body: str,
              where: Sequence[str] = ()) -> str:
        """`sum(j in lo..hi, body)` (Σ from j = lo to hi), or with `hi` None, `sum(j in M,
        body)` (Σ over j in the set `lo`); `where`, printed relations: only the members
        where they hold (a term-wise fact over a set no `[sets]` name reads:
        `verify.typeset.statement.written`), written under the Σ with the range."""

    @abstractmethod
    def extreme(self, op: str, index: str, body: str) -> str:
        """`min_j body` (`op` min or max): the least or largest value of `body` over the
        index, an operator with the index as its subscript (a run quantity's definition,
        `verify.runs.quantity.Quantity.extreme`; the proof language has none)."""

    @abstractmethod
    def natural(self, name: str) -> str:
        """`name ∈ ℕ`, a printed name declared natural."""

    @abstractmethod
    def exists(self, names: Sequence[str]) -> str:
        """`∃ a, b:` before a claim that values of the printed names exist."""


class Latex(Format):
    """LaTeX math (amsmath)."""

    def name(self, name: str, notation: Mapping[str, str]) -> str:
        return pretty(name, notation).latex()

    def number(self, text: str) -> str:
        return text

    def op(self, symbol: str) -> str:
        return {"<=": r"\le", ">=": r"\ge", "==": "=", "-": "-", "⊢": r"\vdash",
                "←": r"\leftarrow", "<": "<", ">": ">", "+": "+"}[symbol]

    def row(self, parts: Sequence[str]) -> str:
        return " ".join(p for p in parts if p)

    def paren(self, body: str) -> str:
        return rf"\left({body}\right)"

    def frac(self, num: tuple[str, int], den: tuple[str, int]) -> tuple[str, int]:
        return rf"\frac{{{num[0]}}}{{{den[0]}}}", ATOM

    def power(self, base: str, exponent: str) -> str:
        bare = "^" not in base or (base.startswith(r"\left(") and base.endswith(r"\right)"))
        return f"{base}^{{{exponent}}}" if bare else f"{{{base}}}^{{{exponent}}}"

    def times(self, left: str, right: str, numeral: bool) -> str:
        return f"{left} \\cdot {right}" if numeral else f"{left}\\,{right}"

    def call(self, function: str, args: Sequence[str]) -> str:
        if function == "dot":
            return rf"\langle {args[0]}, {args[1]} \rangle"
        if function in ("norm2", "norm"):
            return rf"\lVert {args[0]} \rVert" + ("^{2}" if function == "norm2" else "")
        if function == "sqrt":
            return rf"\sqrt{{{args[0]}}}"
        return rf"\operatorname{{{function}}}\left({', '.join(args)}\right)"

    def member(self, family: str, index: str) -> str:
        return f"{{{family}}}_{{{index}}}"

    def total(self, index: str, lo: str, hi: str | None, body: str,
              where: Sequence[str] = ()) -> str:
        if hi is None:
            under = rf"{index} \in {lo}"
        elif not where:
            return rf"\sum_{{{index}={lo}}}^{{{hi}}} {body}"
        else:
            under = rf"{lo} \le {index} \le {hi}"
        if where:
            under = r"\substack{" + r" \\ ".join([under, *where]) + "}"
        return rf"\sum_{{{under}}} {body}"

    def extreme(self, op: str, index: str, body: str) -> str:
        return rf"\{op}_{{{index}}} {body}"

    def natural(self, name: str) -> str:
        return rf"{name} \in \mathbb{{N}}"

    def exists(self, names: Sequence[str]) -> str:
        return rf"\exists\, {', '.join(names)}\colon"


#: A MathML identifier of several letters (a user's name such as `gam`; an entity, one
#: letter such as `&#x3B3;`, is not one).
_WORD = re.compile(r"<mi[^>]*>[^<&]{2,}</mi>")


class MathML(Format):
    """Presentation MathML fragments (no `<math>` around them)."""

    def name(self, name: str, notation: Mapping[str, str]) -> str:
        return pretty(name, notation).mathml()

    def number(self, text: str) -> str:
        return f"<mn>{text}</mn>"

    def op(self, symbol: str) -> str:
        text = {"<=": "&#x2264;", ">=": "&#x2265;", "==": "=", "-": "&#x2212;",
                "<": "&lt;", ">": "&gt;", "⊢": "&#x22A2;", "←": "&#x2190;"}.get(symbol, symbol)
        return f"<mo>{text}</mo>"

    def row(self, parts: Sequence[str]) -> str:
        return "<mrow>" + "".join(parts) + "</mrow>"

    def paren(self, body: str) -> str:
        return f"<mrow><mo>(</mo>{body}<mo>)</mo></mrow>"

    def frac(self, num: tuple[str, int], den: tuple[str, int]) -> tuple[str, int]:
        return f"<mfrac>{num[0]}{den[0]}</mfrac>", ATOM

    def power(self, base: str, exponent: str) -> str:
        if base.startswith("<msub>") and base.endswith("</msub>"):  # γ_u²: one script pair
            return f"<msubsup>{base[6:-7]}<mrow>{exponent}</mrow></msubsup>"
        return f"<msup>{base}<mrow>{exponent}</mrow></msup>"

    def times(self, left: str, right: str, numeral: bool) -> str:
        # a name of several letters beside another factor gets a visible dot: with the
        # invisible times a browser set `k gam` as one word, `kgam` (newcomer trial 19)
        dotted = numeral or any(_WORD.search(side) for side in (left, right))
        sign = "&#x22C5;" if dotted else "&#x2062;"
        return f"<mrow>{left}<mo>{sign}</mo>{right}</mrow>"

    def call(self, function: str, args: Sequence[str]) -> str:
        if function == "dot":
            return (f"<mrow><mo>&#x27E8;</mo>{args[0]}<mo>,</mo>{args[1]}"
                    "<mo>&#x27E9;</mo></mrow>")
        if function in ("norm2", "norm"):
            bars = f"<mrow><mo>&#x2016;</mo>{args[0]}<mo>&#x2016;</mo></mrow>"
            return f"<msup>{bars}<mn>2</mn></msup>" if function == "norm2" else bars
        if function == "sqrt":
            return f"<msqrt>{args[0]}</msqrt>"
        inner = "<mo>,</mo>".join(args)
        return f"<mrow><mi>{function}</mi><mo>(</mo>{inner}<mo>)</mo></mrow>"

    def member(self, family: str, index: str) -> str:
        return f"<msub>{family}<mrow>{index}</mrow></msub>"

    def total(self, index: str, lo: str, hi: str | None, body: str,
              where: Sequence[str] = ()) -> str:
        sigma = "<mo>&#x2211;</mo>"
        if hi is not None and not where:
            return (f"<mrow><munderover>{sigma}<mrow>{index}<mo>=</mo>{lo}</mrow>"
                    f"<mrow>{hi}</mrow></munderover>{body}</mrow>")
        under = (f"<mrow>{index}<mo>&#x2208;</mo>{lo}</mrow>" if hi is None else
                 f"<mrow>{lo}<mo>&#x2264;</mo>{index}<mo>&#x2264;</mo>{hi}</mrow>")
        if where:  # one condition a row, as LaTeX's \substack
            under = "<mtable>" + "".join(f"<mtr><mtd>{c}</mtd></mtr>"
                                         for c in (under, *where)) + "</mtable>"
        return f"<mrow><munder>{sigma}{under}</munder>{body}</mrow>"

    def extreme(self, op: str, index: str, body: str) -> str:
        # upright (an <mi> of several letters), then a function application: its space
        return f"<mrow><msub><mi>{op}</mi>{index}</msub><mo>&#x2061;</mo>{body}</mrow>"

    def natural(self, name: str) -> str:
        return f'<mrow>{name}<mo>&#x2208;</mo><mi mathvariant="normal">&#x2115;</mi></mrow>'

    def exists(self, names: Sequence[str]) -> str:
        return f'<mrow><mo>&#x2203;</mo>{"<mo>,</mo>".join(names)}<mo>:</mo></mrow>'


class Text(Format):
    """Plain Unicode, one line: y⟨w, x⟩ ≤ 0, ‖x‖² ≤ R², t·γ_u² ≤ R²."""

    exponent_grouped = False

    def name(self, name: str, notation: Mapping[str, str]) -> str:
        return pretty(name, notation).text()

    def number(self, text: str) -> str:
        return text

    def op(self, symbol: str) -> str:
        return {"<=": "≤", ">=": "≥", "==": "=", "-": "−"}.get(symbol, symbol)

    def row(self, parts: Sequence[str]) -> str:
        return " ".join(p for p in parts if p)

    def paren(self, body: str) -> str:
        return f"({body})"

    def unary(self, sign: str, operand: str) -> str:
        return self.op(sign) + operand

    def frac(self, num: tuple[str, int], den: tuple[str, int]) -> tuple[str, int]:
        top = num[0] if num[1] >= MUL else self.paren(num[0])
        bottom = den[0] if den[1] >= POW else self.paren(den[0])
        return f"{top}/{bottom}", MUL

    def power(self, base: str, exponent: str) -> str:
        return base + (exponent.translate(_SUPERSCRIPT) if exponent.isdigit() else f"^{exponent}")

    def times(self, left: str, right: str, numeral: bool) -> str:
        return f"{left}·{right}" if numeral or not left[-1:].isdigit() else f"{left}{right}"

    def call(self, function: str, args: Sequence[str]) -> str:
        if function == "dot":
            return f"⟨{args[0]}, {args[1]}⟩"
        if function in ("norm2", "norm"):
            return f"‖{args[0]}‖" + ("²" if function == "norm2" else "")
        if function == "sqrt":
            return f"√({args[0]})"
        return f"{function}({', '.join(args)})"

    def member(self, family: str, index: str) -> str:
        return f"{family}[{index}]"

    def total(self, index: str, lo: str, hi: str | None, body: str,
              where: Sequence[str] = ()) -> str:
        if where:
            under = f"{index} ∈ {lo}" if hi is None else f"{lo} ≤ {index} ≤ {hi}"
            return f"Σ_{{{', '.join([under, *where])}}} {body}"
        return f"Σ_{{{index} ∈ {lo if hi is None else f'{lo}..{hi}'}}} {body}"

    def extreme(self, op: str, index: str, body: str) -> str:
        return f"{op}_{index} {body}"

    def natural(self, name: str) -> str:
        return f"{name} ∈ ℕ"

    def exists(self, names: Sequence[str]) -> str:
        return f"∃ {', '.join(names)}:"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
LATEX, MATHML, TEXT = Latex(), MathML(), Text()


class Printer:
    """Prints the expressions of one proof (its `[notation]`) in one `Format`."""

    def __init__(self, fmt: Format, notation: Mapping[str, str] | None = None) -> None:
        self.fmt = fmt
        self.notation: Mapping[str, str] = notation if notation is not None else {}

    def expression(self, text: str) -> str:
        """A scalar or vector expression as written."""
        return self._node(_parse(text).body)[0]

    def relation(self, text: str) -> str:
        """`lhs op rhs` as written, on one line."""
        return self.fmt.row(self.chunks(text))

    def formula(self, text: str) -> str:
        """An expression or one relation as written, on one line (a formula of prose, such
        as a run quantity's, that may be either: `verify.runs.quantity.Quantity`)."""
        tree = _parse(text).body
        return self.relation(text) if isinstance(tree, ast.Compare) else self._node(tree)[0]

    def extreme(self, op: str, index: str, text: str) -> str:
        """`min_j text`: the least (`op` min) or largest (max) value of the expression
        `text` over `index` (`Format.extreme`), bracketed when it is a sum of terms."""
        return self.fmt.extreme(op, self.expression(index),
                                self._at_least(_parse(text).body, MUL))

    def chunks(self, text: str, prefix: str = "") -> list[str]:
        """The relation in pieces that may go on separate lines: the left side's terms, the
        relation sign with the right side's first term, then its other terms (`prefix`, an
        operator such as `⊢`, opens the first)."""
        tree = _parse(text).body
        if not isinstance(tree, ast.Compare) or len(tree.ops) != 1:
            raise ValueError(f"{text!r} is not one relation")
        op = RELATIONS[type(tree.ops[0])]
        left, right = self._terms(tree.left), self._terms(tree.comparators[0])
        right[0] = self.fmt.row([self.fmt.op(op), right[0]])
        if prefix:
            left[0] = self.fmt.row([self.fmt.op(prefix), left[0]])
        return [*left, *right]

    def _terms(self, node: ast.expr) -> list[str]:
        """The top-level summands of `node`, each with its sign (`a`, `+ b`, `- c`)."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            sign = "+" if isinstance(node.op, ast.Add) else "-"
            return [*self._terms(node.left),
                    self.fmt.row([self.fmt.op(sign), self._at_least(node.right, MUL)])]
        return [self._node(node)[0]]

    def _at_least(self, node: ast.expr, strength: int) -> str:
        text, own = self._node(node)
        return text if own >= strength else self.fmt.paren(text)

    def _base(self, node: ast.expr) -> str:
        """A power's base, bracketed unless it is a name, a number, a member or a call that
        carries no script of its own: a stacked fraction, a norm squared or a root raised
        bare read as another formula (`\\frac{R}{\\gamma}^{2}` as R²/γ, `‖v‖²²` as ‖v‖ to
        the 22nd, `√a²` as the root of a²; newcomer 27, F9)."""
        text, own = self._node(node)
        scripted = isinstance(node, ast.BinOp) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("norm2", "sqrt"))
        return text if own >= ATOM and not scripted else self.fmt.paren(text)

    def _node(self, node: ast.expr) -> tuple[str, int]:
        fmt = self.fmt
        if isinstance(node, ast.Name):
            return fmt.name(node.id, self.notation), ATOM
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return fmt.number(getattr(node, "written", None) or str(node.value)), ATOM
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            sign = "-" if isinstance(node.op, ast.USub) else "+"
            return fmt.unary(sign, self._at_least(node.operand, MUL)), NEG
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.Subscript):
            return fmt.member(self._node(node.value)[0], self._node(node.slice)[0]), ATOM
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "sum" and len(node.args) >= 2
                and isinstance(node.args[0], ast.Compare)):
            # `sum(j in S, body)`; filters after the body, `sum(j in lo..hi, body, F1, F2)`,
            # are no proof file's syntax: the typesetter writes them for a term-wise fact
            where = node.args[0].comparators[0]
            ranged = isinstance(where, ast.BinOp) and isinstance(where.op, ast.RShift)
            lo = self._node(where.left if ranged else where)[0]  # type: ignore[attr-defined]
            hi = self._node(where.right)[0] if ranged else None  # type: ignore[attr-defined]
            filters = [self._relation(f) for f in node.args[2:]]
            return fmt.total(self._node(node.args[0].left)[0], lo, hi,
                             self._at_least(node.args[1], MUL), filters), MUL
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            args = [self._node(a)[0] for a in node.args]
            return fmt.call(node.func.id, args), ATOM
        raise ValueError(f"cannot typeset {ast.dump(node)[:60]}")

    def _relation(self, node: ast.expr) -> str:
        """`lhs op rhs`, one relation, on one line."""
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            raise ValueError(f"cannot typeset {ast.dump(node)[:60]} as one relation")
        op = self.fmt.op(RELATIONS[type(node.ops[0])])
        return self.fmt.row([self._node(node.left)[0], op, self._node(node.comparators[0])[0]])

    def _binary(self, node: ast.BinOp) -> tuple[str, int]:
        fmt = self.fmt
        if isinstance(node.op, ast.Add | ast.Sub):
            return fmt.row(self._terms(node)), ADD
        if isinstance(node.op, ast.Mult):
            if (isinstance(node.left, ast.Constant) and node.left.value == 0
                    and type(node.left.value) is int and isinstance(node.right, ast.Name)):
                # `0*d`, the proof files' idiom for the zero vector, reads 0 (as a run's
                # start does): `dot(0*d, d)` was typeset ⟨0d, d⟩ (newcomer 27, F6)
                return fmt.number("0"), ATOM
            left, strength = self._node(node.left)
            if strength < NEG or _is_sum(node.left):  # Σ_j y_j c would read c as summed
                left, strength = fmt.paren(left), ATOM
            right = self._at_least(node.right, MUL)
            numeral = isinstance(node.right, ast.Constant) or (
                isinstance(node.right, ast.BinOp) and isinstance(node.right.left, ast.Constant))
            return fmt.times(left, right, numeral), min(MUL, strength)
        if isinstance(node.op, ast.Div):
            return fmt.frac(self._node(node.left), self._node(node.right))
        if isinstance(node.op, ast.Pow):
            exponent, strength = self._node(node.right)
            if strength < ATOM and not fmt.exponent_grouped:
                exponent = fmt.paren(exponent)
            return fmt.power(self._base(node.left), exponent), POW
        raise ValueError(f"cannot typeset the operator {type(node.op).__name__}")


def _is_sum(node: ast.expr) -> bool:
    """Whether `node` is a written sum, `sum(j in S, body)`: a factor after it would read as
    part of its body (newcomer 27, F10: a product of two sums read as a double sum)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "sum")


def _parse(text: str) -> ast.Expression:
    """The syntax tree of the text as written (`lo..hi` read as `>>`, as the language reads
    it: `proofs.language.expressions.source_tree`), each decimal literal keeping its text
    (`written`): the language reads it exactly, Python as a float, which printed `1e999` as
    `inf`, `1e-999` as `0.0` and `0.1234567890123456789` rounded (red team 23 F1 residual)."""
    source = " ".join(text.split()).replace("..", ">>")
    tree = ast.parse(source, mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is float:
            node.written = ast.get_source_segment(source, node)  # type: ignore[attr-defined]
    return tree


def lines(chunks: Sequence[str], widths: Sequence[int], budget: int) -> list[list[str]]:
    """`chunks` packed greedily into lines of at most `budget` (by `widths`, one each); a
    chunk wider than the budget gets a line of its own."""
    out: list[list[str]] = [[]]
    used = 0
    for chunk, width in zip(chunks, widths, strict=True):
        if out[-1] and used + width > budget:
            out.append([])
            used = 0
        out[-1].append(chunk)
        used += width + 1
    return out
