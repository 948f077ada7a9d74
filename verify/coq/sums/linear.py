"""A raw sum is the kernel's canonical reading of it, in Coq: the split by linearity (issue 31).

The kernel reads `sum(j in lo..hi where F, body)` by linearity (`atoms.finite_sum`): the
coefficients of `body` free of `j` times canonical sums of the rest. `terms` recomputes that
split with the kernel's own constructor, one (coefficient, canonical sum) pair per monomial
of the body. `combine` proves in Coq that the raw sum `zsum lo hi (fun x => F(x) * body(x))`
is that combination: `zsum_combine` splits off one canonical sum at a time (pointwise by
`ring`, each family member and indicator of a canonical sum first read as the raw sum's: the
same term, its index printed from another name of the summed index, so in another order),
then `zsum_zero`. Every lemma is in the preamble, proved by induction on the length of the
range. The term-wise rule (`termwise`: the raw sum of a used claim) and a rule inside a sum's
body (`within`: the body rewritten) both end with this step.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction

import sympy

from verify.coq import printer
from verify.coq.printer import INDICATORS, expr
from verify.coq.statement import Unsupported
from verify.coq.sums.identities import CLOSE, Replay
from verify.kernel import atoms

__all__ = ["Filters", "Terms", "combine", "constant_indicator", "constants", "same_indicator",
           "terms"]

Filters = Sequence[tuple[sympy.Expr, str]]
"""A raw sum's filters `(p, kind)`, about its index by name."""
Terms = Sequence[tuple[sympy.Expr, sympy.Symbol]]
"""A split by linearity: (coefficient free of the index, canonical sum) pairs."""


def terms(index: sympy.Symbol, lo: sympy.Expr, hi: sympy.Expr, filters: Filters,
          body: sympy.Expr, total: sympy.Expr) -> tuple[tuple[sympy.Expr, sympy.Symbol], ...]:
    """The split by linearity of the raw sum of `body` over `index` (one pair per monomial
    of the expanded body), refused unless it adds up to `total`, the kernel's reading."""
    out = []
    expanded = sympy.expand(body)
    symbols = sorted(expanded.free_symbols, key=str) or [sympy.Symbol("_")]
    for monomial, coefficient in sympy.Poly(expanded, *symbols).terms():
        power = [s**k for s, k in zip(symbols, monomial, strict=True) if k]
        depends = sympy.Mul(*(p for p in power if index.name in atoms.names_of(p)))
        rest = sympy.Mul(*(p for p in power if index.name not in atoms.names_of(p)))
        atom = atoms.finite_sum(index, lo, hi, filters, depends)
        if not atom.is_Symbol:
            raise Unsupported(f"the sum of {depends} is no single canonical sum")
        out.append((coefficient * rest, atom))
    if sympy.expand(sum((k * a for k, a in out), sympy.Integer(0)) - total) != 0:
        raise Unsupported("the kernel's reading of the sum is not its split by linearity")
    return tuple(out)


def combine(script: Replay, index: str, filters: Filters, split: Terms,
            real: Mapping[str, str], lo: str, hi: str,
            first: Callable[[str], str] = lambda point: "",
            rewritten: Mapping[sympy.Expr, sympy.Expr] | None = None) -> None:
    """Prove the goal `zsum lo hi f = total`, `f` the raw sum's function (`index` in it, its
    `filters` as indicators) and `total` the combination of `split` (`terms`): `zsum_combine`
    splits off one canonical sum at a time, then `zsum_zero`; the combination is the total by
    `ring`. `first(point)` is a tactic run first at the first split's point (`f point` is read
    there: a rewrite of its body, and of its filters: `rewritten` says which atom `first`
    rewrote to which term, so the indicators are read as the rewrite leaves them)."""
    parts = []
    for k, atom in split:
        found = atoms.structure(atom)
        assert isinstance(found, atoms.Sum)
        parts.append((expr(k, real, script.nat), printer.sum_parts(found, real, script.nat)[2],
                      expr(atom, real, script.nat), found))
    chain = "0"
    for k, _, atom, _ in reversed(parts):
        chain = f"({k} * {atom} + {chain})"
    script.emit(f"transitivity {chain}; [| ring].")
    u = script.new("u")
    point = script.new("x")
    found = [f for *_, f in parts]
    indicators, merged = _indicators(script, index, filters, real, point, found,
                                     rewritten or {})
    replaced = (constants(script, index, filters, real, point, rewritten or {}) + indicators
                + _members(script, index, real, point, found) + merged)
    for m, (k, function_m, _, _) in enumerate(parts):
        rest = "0"
        for k2, g2, _, _ in reversed(parts[m + 1:]):
            rest = f"({k2} * {g2} {u} + {rest})"
        pointwise = f"intros {point}; cbv beta; " + (first(point) + replaced if m == 0 else "") + (
            "ip_canon; ring")
        script.emit(f"refine (zsum_combine {lo} {hi} _ {k} {function_m} (fun {u} => {rest}) "
                    f"_ _ _); [{pointwise} |].")
    script.emit("apply zsum_zero.")


def _members(script: Replay, index: str, real: Mapping[str, str], point: str,
             found: Sequence[atoms.Sum]) -> str:
    """`replace` of each family member (or Gram symbol with one) of a canonical sum's body
    at the point by the raw sum's: the same member, its index printed from another name of
    the summed index, so in another order (`z (x + IZR z)` against `z (IZR z + x)`), which
    `ring` reads as two unknowns."""
    out: dict[str, str] = {}
    for s in found:
        out.update(_read_raw(script, index, real, point, s.bound, s.body))
    return "".join(out.values())


def _read_raw(script: Replay, index: str, real: Mapping[str, str], point: str, bound: int,
              term: sympy.Expr, skip: Collection[sympy.Expr] = ()) -> dict[str, str]:
    """For each family member (or Gram symbol with one) of `term`, a canonical sum's body or
    filter about its index `#bound`, printed at the point: the `replace` of it by the raw
    sum's print of it, where the two differ (keyed by the canonical print). A member whose
    raw form is in `skip` (one a rewrite left another term in place of) is left alone."""
    j, out = sympy.Symbol(index), {}
    for symbol in sorted(term.free_symbols, key=str):
        if isinstance(atoms.structure(symbol), atoms.Sum) or (
                atoms.structure(symbol) is None and atoms.gram_pair(symbol) is None):
            continue
        named = atoms.substitute(symbol, {f"#{bound}": j}, {})
        if named in skip:
            continue
        text = expr(symbol, {**real, f"#{bound}": point}, script.nat)
        raw = expr(named, {**real, index: point}, script.nat)
        if text != raw:
            out[text] = f"replace {text} with {raw} by ({CLOSE}); "
    return out


def _indicators(script: Replay, index: str, filters: Filters, real: Mapping[str, str],
                point: str, found: Sequence[atoms.Sum],
                rewritten: Mapping[sympy.Expr, sympy.Expr]) -> tuple[str, str]:
    """`replace` of each canonical sum's indicator at the point by the raw sum's (the same
    filter, printed from another name of its index; an atom of it `rewritten` printed as the
    term a rewrite left in its place, a rule inside a filter: `within`; a multiple of it,
    which the kernel rescaled to lead with 1, by `ind_*_scale`), and, second, a case on the
    value of an indicator two raw filters share once rewritten (run last: the raw summand
    has its square, which `ring` does not know is itself)."""
    j = sympy.Symbol(index)
    out: dict[str, str] = {}
    at = {**real, index: point}
    terms = {a.name: expr(e, at, script.nat) for a, e in rewritten.items()}  # type: ignore[attr-defined]
    # the raw filters as rewritten, in groups of multiples of one another (the kernel keeps
    # one of each: two filters the rewrite made one, or one a multiple of the other): each
    # group's leader -> its text, the others' indicators made the leader's
    raw: dict[tuple[sympy.Expr, str], list[tuple[sympy.Expr, str]]] = {}
    for p, k in filters:
        q, text = sympy.expand(p.xreplace(rewritten)), expr(p, {**at, **terms}, script.nat)
        leader = next((key for key in raw if key[1] == k and _multiple(key[0], q, k)), (q, k))
        raw.setdefault(leader, []).append((q, text))
    merged = ""
    for (lead, k), members in raw.items():  # one indicator, 0 or 1
        ind, first = INDICATORS[k], members[0][1]
        for q, other in members[1:]:
            if other != first and other not in out:
                factor = sympy.cancel(lead / q)
                tactic = ("f_equal; ip_canon; ring" if factor == 1 else
                          same_indicator(k, factor, "ip_canon"))
                out[other] = f"replace ({ind} {other}) with ({ind} {first}) by ({tactic}); "
        if len(members) > 1:
            merged += (f"destruct ({ind}_01 {first}) as [{point}e | {point}e]; "
                       f"rewrite {point}e; ")
    for s in found:
        for p, k in s.filters:
            named = sympy.expand(atoms.substitute(p, {f"#{s.bound}": j}, {}))
            ratio = next(((r, key) for key in raw if key[1] == k and (r := sympy.cancel(
                named / key[0])).is_Rational and r != 0 and (r > 0 or k == "==")), None)
            if ratio is None:
                raise Unsupported("a canonical sum's filter is not the raw sum's")
            factor, key = ratio
            text, first = expr(p, {**real, f"#{s.bound}": point}, script.nat), raw[key][0][1]
            ind = INDICATORS[k]
            if factor != 1:  # the kernel rescaled the rewritten filter to lead with 1
                out[text] = (f"replace ({ind} {text}) with ({ind} {first}) by (symmetry; "
                             f"{same_indicator(k, factor, 'ip_canon')}); ")
            elif text != first:  # a member of it printed in another order is read first
                members = "".join(_read_raw(script, index, real, point, s.bound, p,
                                            rewritten).values())
                out[text] = (f"replace ({ind} {text}) with ({ind} {first}) by "
                             f"(f_equal; {members}ip_canon; ring); ")
    return "".join(out.values()), merged


def _sign(value: Fraction, strict: bool) -> str:
    """A proof of `0 <= value` (`0 < value`), a nonnegative (positive) rational, by
    computation: the preamble's `int_nonneg` (`int_pos`, `rat_nonneg`, `rat_pos`)."""
    lemma = ("int_pos" if strict else "int_nonneg") if value.denominator == 1 else (
        "rat_pos" if strict else "rat_nonneg")
    if value.denominator == 1:
        return f"({lemma} {value.numerator} eq_refl)"
    return f"({lemma} {value.numerator} {value.denominator} eq_refl eq_refl)"


def constant_indicator(kind: str, value: Fraction, text: str, close: str = "field"
                       ) -> tuple[str, str]:
    """`(b, tactic)`: the indicator `IND text` of a filter whose polynomial the kernel reads
    as the constant `value` is `b` (1 where the filter holds, else 0), and `tactic` proves
    `b = IND text` (the goal `replace` leaves): the preamble's `ind_*_in` or `ind_*_out`, its
    sign by computation (`_sign`), `text` made the constant by `close` (`field`: the text is
    the filter as written, its atoms rewritten to what makes it constant)."""
    bridge = {True: "pos_eq", False: "nonneg_eq"}
    if kind == ">=":
        lemma, strict, sign = ("ind_ge_in", False, value) if value >= 0 else (
            "ind_ge_out", True, -value)
    elif kind == ">":
        lemma, strict, sign = ("ind_gt_in", True, value) if value > 0 else (
            "ind_gt_out", False, -value)
    elif value == 0:
        return "1", f"symmetry; apply ind_eq_in; refine (zero_eq 0 _ _ eq_refl); {close}"
    else:
        lemma, strict, sign = ("ind_eq_out_pos", True, value) if value > 0 else (
            "ind_eq_out_neg", True, -value)
    holds = lemma.endswith("_in")
    return ("1" if holds else "0"), (f"symmetry; apply {lemma}; refine ({bridge[strict]} _ _ _ "
                                     f"{_sign(sign, strict)}); {close}")


def constants(script: Replay, index: str, filters: Filters, real: Mapping[str, str],
              point: str, rewritten: Mapping[sympy.Expr, sympy.Expr]) -> str:
    """`replace` of each raw indicator whose filter a rewrite at the point left constant
    (`within`: an emptied sum in a set's condition) by its value, 1 or 0: the kernel's
    canonical sum drops a filter that holds, and is 0 where one fails."""
    at = {**real, index: point}
    terms = {a.name: expr(e, at, script.nat) for a, e in rewritten.items()}  # type: ignore[attr-defined]
    out: dict[str, str] = {}
    for p, kind in filters:
        value = sympy.expand(p.xreplace(rewritten))
        if not value.is_Rational:
            continue
        inner = expr(p, {**at, **terms}, script.nat)
        text = f"({INDICATORS[kind]} {inner})"
        bit, tactic = constant_indicator(kind, Fraction(int(value.p), int(value.q)), inner)
        out[text] = f"replace {text} with {bit} by ({tactic}); "
    return "".join(out.values())


def _multiple(p: sympy.Expr, q: sympy.Expr, kind: str) -> bool:
    """Whether the filters `p` and `q` of one kind hold at the same points: q = r*p, r > 0
    (r != 0 for `==`), a rational."""
    r = sympy.cancel(q / p)
    return bool(r.is_Rational and r != 0 and (r > 0 or kind == "=="))


def same_indicator(kind: str, factor: sympy.Expr, zreal: str) -> str:
    """A tactic proving `ind q = ind raw` (the goal `replace raw with q` leaves) where
    q = factor * raw (a filter the kernel rescales: `ranges`, `within`):
    `f_equal` for a factor 1, else the preamble's `ind_*_scale` with the factor's sign proved
    by computation (`int_pos`, `rat_pos`), then `field` for the scaled identity."""
    if factor == 1:
        return f"f_equal; {zreal}; ring"
    k = abs(sympy.Rational(factor))
    text, proof = ((f"(IZR {k.p})", f"(int_pos {k.p} eq_refl)") if k.q == 1 else
                   (f"(IZR {k.p} / IZR {k.q})", f"(rat_pos {k.p} {k.q} eq_refl eq_refl)"))
    last = "_" if kind != "==" else ("(or_introl _)" if factor > 0 else "(or_intror _)")
    lemma = {">=": "ind_ge_scale", ">": "ind_gt_scale", "==": "ind_eq_scale"}[kind]
    return f"symmetry; refine ({lemma} _ _ {text} {proof} {last}); {zreal}; field"
