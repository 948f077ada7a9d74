"""A sum's range split in two, or its index shifted, in Coq: the kernel's `split` and `shift`.

The kernel (verify/kernel/sums.py) gives, for S = sum(j in lo..hi where F, body):

- `split` at m: S == sum over lo..m + sum over m + 1..hi, when m - lo + 1 >= 0 and
  hi - m >= 0 (a first or last member peeled, `N == K + M` halves);
- `shift` by c: S == sum(j in lo + c..hi + c where F(j - c), body(j - c)), always.

Both are how users re-index a sum (`sum(j in 0..N-1, y[j+1]) == sum(j in 1..N, y[j])`, a
first member against a sum from lo + 1), so a step using either was `not exported` until the
replay proved them. Replayed by the preamble's lemmas, each proved by induction on the length
of the range with no axiom of ours: `zsum_split` (its two conditions read over the integers
from the kernel's, `zle_of`), `zsum_bounds` to print the second range's lower bound as the
kernel does; `zsum_shift` (`zsum lo hi f = zsum (lo + c) (hi + c) (fun x => f (x - IZR c))`),
then the summand at a point: each member, Gram symbol and indicator read at `x - c` made the
kernel's (its index by `ring`, the naturals' `IZR (Z.of_nat n)` read as n), and the split by
linearity into the kernel's canonical sums (`linear.combine`: a shifted body such as
`(j - c)*y[j - c]` is two of them).

Which split point or shift a fact uses is read from the other sums it mentions (`moves`): a
split's parts are sums of the same summand from lo, or to hi; a shift's image is a sum whose
range is the target's moved by one constant. Each candidate is checked by recomputing the
kernel's identity; a wrong guess is no proof. A sum inside the shifted summand
(`a[j+1]*sum(l in 1..K, y[l+j+1])`) is read at `x - c` under its own `fun`, where `replace`
cannot reach: it is made the kernel's by `zsum_ext` at a point (`identities.equal_atoms`).
A filter on the index itself (`j - 2 >= 0`) is scaled by the kernel to lead with 1, so the
shifted filter is a constant multiple of the written one: the indicators are equal by the
preamble's `ind_ge_scale` (`ind_gt_scale`, `ind_eq_scale`). Not replayed (the step says so):
a shift whose canonical sums' inner sums print otherwise at a point than the raw one's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import sympy

from verify.coq import printer
from verify.coq.printer import INDICATORS
from verify.coq.statement import Unsupported
from verify.coq.sums import linear
from verify.coq.sums.identities import Replay, equal_atoms
from verify.kernel import Rel, atoms

__all__ = ["Ranges", "moves", "prove_shift", "prove_split", "sums_in"]


class Ranges(Replay, Protocol):
    """What a proof script offers here besides `identities.Replay` (`replay.Script`)."""

    def zreal(self) -> str: ...


def sums_in(e: sympy.Expr) -> list[sympy.Symbol]:
    """Every sum atom of `e`, inside the bodies and filters of others too (a rule inside a
    sum's body has its parts there), outermost first, each once."""
    out: dict[sympy.Symbol, None] = {}
    todo = sorted(e.free_symbols, key=str)
    while todo:
        symbol = todo.pop(0)
        found = atoms.structure(symbol)
        if isinstance(found, atoms.Sum) and symbol not in out:
            out[symbol] = None
            todo += sorted(set().union(found.body.free_symbols, *(
                p.free_symbols for p, _ in found.filters)), key=str)
    return list(out)


def moves(s: atoms.Sum, others: Iterable[sympy.Symbol]) -> list[tuple[str, sympy.Expr]]:
    """The splits and shifts of `s` whose results are among `others`: a split at m where a
    sum of the same summand and filters runs lo..m or m + 1..hi, a shift by c where a sum's
    range is lo + c..hi + c (c != 0). Candidates only: the caller checks each identity."""
    out: dict[tuple[str, sympy.Expr], None] = {}
    for symbol in others:
        t = atoms.structure(symbol)
        if not isinstance(t, atoms.Sum) or t == s:
            continue
        if (t.bound, t.body, t.filters) == (s.bound, s.body, s.filters):
            if sympy.expand(t.lo - s.lo) == 0:
                out[("split", sympy.expand(t.hi))] = None
            if sympy.expand(t.hi - s.hi) == 0:
                out[("split", sympy.expand(t.lo - 1))] = None
        c = sympy.expand(t.lo - s.lo)
        if c != 0 and sympy.expand(t.hi - s.hi - c) == 0:
            out[("shift", c)] = None
    return list(out)


def prove_split(script: Ranges, s: atoms.Sum, at: sympy.Expr, labels: list[str], lo: str,
                hi: str) -> None:
    """The block proving `S = part(lo, m) + part(m + 1, hi)` (the `assert` is open): the
    kernel's conditions `m - lo + 1 >= 0`, `hi - m >= 0` (`labels`) as `lo - 1 <= m <= hi`
    over Z, `zsum_split`, the second lower bound printed as the kernel's, then `ring` (the
    parts are the target's summand over each range: the same function, printed alike)."""
    m = printer.integer(at, script.nat)
    after = printer.integer(sympy.expand(at + 1), script.nat)
    below, above = script.new("za"), script.new("zb")
    script.emit(f"{{ assert ({below} : ({lo} - 1 <= {m})%Z) by (apply zle_of; {script.zreal()}; "
                f"refine (nonneg_eq _ _ _ {labels[0]}); ring).")
    script.emit(f"  assert ({above} : ({m} <= {hi})%Z) by (apply zle_of; {script.zreal()}; "
                f"refine (nonneg_eq _ _ _ {labels[1]}); ring).")
    script.emit(f"  refine (eq_trans (zsum_split {lo} {m} {hi} _ {below} {above}) _).")
    # `try`: where the kernel prints m + 1 as the lemma does (`(Z.of_nat K + (1))%Z`), the
    # bounds are already the same term and `rewrite` would fail on a goal it leaves as it is
    script.emit(f"  try (rewrite (zsum_bounds ({m} + 1) {hi} {after} {hi} _) by zbounds).")
    script.emit("  ring. }")


def prove_shift(script: Ranges, s: atoms.Sum, at: sympy.Expr, relation: Rel, lo: str,
                hi: str) -> None:
    """The block proving `S = the kernel's shifted sum` (the `assert` is open): `zsum_shift`,
    the new bounds printed as the kernel's (`zsum_bounds`), then pointwise the target's
    members and indicators read at `x - c` made the kernel's, and the split by linearity
    (`linear.combine`) into the canonical sums of the right side."""
    parts = (s.body, *(p for p, _ in s.filters))
    own, moved = f"#{s.bound}", sympy.Symbol("#~0")  # the kernel's fresh index of a shift
    back = {own: moved - at}
    filters = [(sympy.expand(atoms.substitute(p, back, {})), kind) for p, kind in s.filters]
    body = sympy.expand(atoms.substitute(s.body, back, {}))
    new_lo, new_hi = sympy.expand(s.lo + at), sympy.expand(s.hi + at)
    split = linear.terms(moved, new_lo, new_hi, filters, body, relation.rhs)
    first: atoms.Sum = atoms.structure(split[0][1])  # type: ignore[assignment]
    named = [(sympy.expand(atoms.substitute(q, {f"#{first.bound}": moved}, {})), kind)
             for q, kind in first.filters]
    scaled = [_scaled(p, kind, named) for p, kind in filters]
    if len(named) != len(filters):
        raise Unsupported("a shift whose filters the kernel merges is not replayed in Coq yet")
    for _, atom in split:  # an inner sum prints at the point as the raw one's (`ring` atoms)
        found: atoms.Sum = atoms.structure(atom)  # type: ignore[no-redef]
        name = f"#{found.bound}"
        for t in set().union(found.body.free_symbols, *(
                p.free_symbols for p, _ in found.filters)):
            if isinstance(atoms.structure(t), atoms.Sum) and printer.expr(
                    t, {name: "x'"}, script.nat) != printer.expr(
                    atoms.substitute(t, {name: moved}, {}), {moved.name: "x'"}, script.nat):
                raise Unsupported("a shift of a sum whose inner sum prints otherwise at a "
                                  "point is not replayed in Coq yet")
    c = printer.integer(at, script.nat)
    lo2, hi2 = printer.integer(new_lo, script.nat), printer.integer(new_hi, script.nat)
    script.emit(f"{{ refine (eq_trans (zsum_shift {lo} {hi} {c} _) _).")
    script.emit(f"  try (rewrite (zsum_bounds ({lo} + {c}) ({hi} + {c}) {lo2} {hi2} _) by "
                "zbounds).")  # `try`: the bounds may already be the kernel's terms
    indent = script.indent
    script.indent += "  "

    def read(point: str) -> str:
        """At the point: the target's members and Gram symbols read at `point - c` (what
        `cbv beta` leaves) replaced by the kernel's, read at the point; then its indicators,
        their members already the kernel's; then the naturals' `IZR (Z.of_nat n)` as n."""
        there, at_point = f"({point} - IZR {c})", {moved.name: point}
        canon: dict[str, str] = {}  # each atom's name -> its text as the kernel's
        steps: dict[str, str] = {}
        for symbol in sorted(set().union(*(e.free_symbols for e in parts)), key=str):
            if atoms.structure(symbol) is None or symbol.name == own:
                continue
            raw = printer.expr(symbol, {own: there}, script.nat)
            canon[symbol.name] = printer.expr(atoms.substitute(symbol, back, {}), at_point,
                                              script.nat)
            if raw != canon[symbol.name]:  # a sum inside: by `zsum_ext` at a point
                tactic = equal_atoms(script, symbol, back, {own: there}, at_point,
                                     f"{script.zreal()}; ")
                steps[raw] = f"replace {raw} with {canon[symbol.name]} by ({tactic}); "
        for (p, kind), (q, factor) in zip(s.filters, scaled, strict=True):
            ind = INDICATORS[kind]
            raw = f"({ind} {printer.expr(p, {own: there, **canon}, script.nat)})"
            steps[raw] = (f"replace {raw} with ({ind} {printer.expr(q, at_point, script.nat)}) "
                          f"by ({linear.same_indicator(kind, factor, script.zreal())}); ")
        return "".join(steps.values()) + f"{script.zreal()}; "

    linear.combine(script, moved.name, [(q, kind) for (q, _), (_, kind) in zip(
        scaled, filters, strict=True)], split, {}, lo2, hi2, read)
    script.indent = indent
    script.emit("}")



def _scaled(p: sympy.Expr, kind: str, named: Sequence[tuple[sympy.Expr, str]]
            ) -> tuple[sympy.Expr, sympy.Expr]:
    """The kernel's filter `q` of the shifted sum that the shifted filter `p` is, and the
    constant `r` with q = r*p: the kernel scales a filter to lead with 1 (by a positive
    number, any nonzero one for `==`), and a shift moves a filter's constant term (`j - 2`
    at j - 1 is `j - 3`, led by -3: `j/3 - 1`)."""
    for q, other in named:
        r = sympy.cancel(q / p)
        if other == kind and r.is_Rational and r != 0 and (r > 0 or kind == "=="):
            return q, r
    raise Unsupported("a shift whose filter is no multiple of one of the kernel's is not "
                      "replayed in Coq yet")
