"""What a proof's names denote on runs: its `[numeric] names`, read against its run kind.

A proof that declares `[numeric] run = KIND` says that its names are quantities of runs of
that kind (`verify.runs.quantity`: the registry, docs/run-quantities.md). A name of the proof
denotes the run quantity of the same name, or, through `names = { margin = "y*dot(w, x)",
th = "w" }`, any expression over the run's quantities: a scalar name a scalar expression
(polynomial in the run's scalars and inner products of its vectors), a vector name a linear
combination of the run's vectors.
The expressions are read by the proof-file parser (`proofs.language.expressions`: a
whitelist walked on the syntax tree, never evaluated), with the run's quantities as the
only declared names, so an expression that names anything else is refused before any run
is made, naming what the run offers and the closest spelling.

A step is then checked on the first row set that binds every run quantity its statement
mentions once the names are replaced; when none does, `unbound` says why in one line, and
the audit reports the step `not run` with that reason.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import sympy

from proofs.definitions import Definition
from proofs.errors import ProofFileError, quoted, raise_all
from proofs.language.division import denominators
from proofs.language.expressions import (
    MAX_DEGREE,
    MAX_TERMS,
    ExpressionError,
    Names,
    expansion_size,
    parse_relation,
    parse_scalar,
    parse_vector,
)
from proofs.language.terms import Vec, dot, gram_pair
from proofs.step import RunBinding
from verify import kernel
from verify.kernel import Fact, Judgement
from verify.kernel.algebra import normal_form, reciprocal_bases
from verify.kernel.atoms import (
    IDENT,
    Family,
    Sum,
    family,
    finite_sum,
    structure,
)
from verify.kernel.atoms import dot as kernel_dot
from verify.runs.columns import Instance
from verify.runs.families import HISTORY, atom_reads, is_atom
from verify.runs.quantity import RunKind, UnknownRunKind, kind


def quantities(run: str) -> Names:
    """The run quantities of runs of kind `run`, as declared names of the expression parser."""
    found = kind(run)
    names = set(found.offered)
    return Names(vectors=frozenset(names & found.vectors),
                 scalars=frozenset(names - found.vectors))


def closest(name: str, run: str) -> str:
    """` (closest: 'x')` when a quantity of `run` is spelt like `name`, else nothing."""
    near = kind(run).closest(name)
    return f" (closest: {near!r})" if near else ""


#: The definitions (`proofs.definitions.FUNCTIONS`) whose value is exact on rationals: the
#: larger or smaller of two rationals, so each row of a run holds it exactly (`Defined`).
EXACT = ("max", "min")


@dataclass(frozen=True)
class Defined:
    """A `[define]`d name evaluated on each row of a run: `function(*args)`, its arguments
    rational functions of the run's quantities and of the `symbol`s of earlier definitions
    (`verify.numeric.instances` makes its column, exactly: no float decides which argument
    is the larger). `symbol` names the column: the name and a digest of the definition as
    read on runs, so the `m` of two proofs defined alike is one column of a batch, and
    defined otherwise two, where the proof's own name would have let one proof's column
    answer for the other's (an identifier: the kernel reads every symbol's name as an
    atom, and `max(...)` is none)."""

    name: str
    symbol: str
    function: str
    args: tuple[sympy.Expr, ...]


@dataclass(frozen=True)
class Naming:
    """The proof's names that denote expressions: scalar names to scalar expressions over
    the run's quantities, vector names to combinations of its vectors; `defined`, its
    `[define]`d names whose value each row holds exactly (`Defined`); every other name
    denotes the run quantity of its own name (if the run has one)."""

    run: str
    scalars: Mapping[str, sympy.Expr]
    vectors: Mapping[str, Vec]
    defined: Mapping[str, Defined] = field(default_factory=dict)
    #: the proof's families bound to families of the run (`x = "X"`); a family not listed
    #: denotes the run's family of its own name, if the run has one
    families: Mapping[str, str] = field(default_factory=dict)
    #: the definitions exact on rationals that `defining` leaves unevaluated for their
    #: degree in the run's quantities (`MAX_DEGREE`; `column_degree`), each with that degree
    too_high: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, numeric: RunBinding, vectors: Iterable[str],
           indexed: Iterable[str] | None = None) -> Naming:
        """Parse `numeric.names` (the proof's `vectors` take vector expressions, its
        families, `indexed`, a family of the run: `x = "X"`); raises ProofFileError naming
        the entry, for a run kind nobody registered, and every unknown quantity, term of the
        wrong sort, family bound to an expression or name bound to a family, or term that
        divides by a run quantity at once (`ProofFileErrors`), each with the entry and the
        part of its text to place it. Without `indexed` (a file that could not be read
        whole), an entry naming a family of the run is taken for a family's."""
        run = numeric.run
        try:
            words = quantities(run)
        except UnknownRunKind as error:
            later = ("; the quantities its names read are checked once the kind is known"
                     if numeric.names else "")
            raise ProofFileError(f"numeric.run = {run!r}: {error.args[0]}{later}",
                                 key="numeric.run", text=run) from None
        proof_vectors = set(vectors)
        scalars: dict[str, sympy.Expr] = {}
        vector_terms: dict[str, Vec] = {}
        families: dict[str, str] = {}
        errors: list[ProofFileError] = []
        offered = kind(run).families
        for name, text in numeric.names.items():
            where = f"numeric.names.{name}"
            if (problem := _family_binding(name, text.strip(), run, offered, proof_vectors,
                                           indexed)) is not None:
                if problem:
                    errors.append(ProofFileError(f"{where} = {quoted(text)}: {problem}", key=where,
                                                 text=text))
                else:
                    families[name] = text.strip()
                continue
            try:
                if name in proof_vectors:
                    vector_terms[name] = parse_vector(text, words)
                    parts: Sequence[sympy.Expr] = tuple(vector_terms[name].values())
                else:
                    scalars[name] = parse_scalar(text, words)
                    parts = (scalars[name],)
            except ExpressionError as error:
                unknown = _unknown(text, run)
                problem = unknown[0] if unknown else str(error)
                errors.append(ProofFileError(f"{where} = {quoted(text)}: {problem}", key=where,
                                             text=text, segment=unknown and unknown[1]))
                continue
            if any(denominators(part) for part in parts):
                errors.append(ProofFileError(
                    f"{where} = {quoted(text)}: divides by a run quantity (a statement on runs "
                    "must stay a polynomial)", key=where, text=text))
        raise_all(errors)
        return cls(run, scalars, vector_terms, families=families)

    def defining(self, definitions: Sequence[Definition]) -> Naming:
        """This naming with each definition exact on rationals (`EXACT`, whose arguments
        read no name the run neither offers nor evaluates) evaluated on runs: a step that
        reads it is then checked on runs like any other. A name the run offers keeps that
        meaning (single-pass runs offer `d`, which the Freund-Schapire proofs define), and
        `sqrt`, `norm` and what reads them are not evaluated: a root is irrational in
        general (`defined_unbound` says so)."""
        found = kind(self.run)
        offered = set(found.offered) - set(found.vectors)  # a scalar `d` is no vector `d`
        defined: dict[str, Defined] = dict(self.defined)
        too_high: dict[str, int] = dict(self.too_high)
        named = replace(self, defined=defined, too_high=too_high)  # reads them as they grow
        degrees: dict[str, int] = {}
        for made in defined.values():  # in file order: each reads earlier ones only
            degrees[made.symbol] = column_degree(made.args, degrees)
        names = {d.name for d in definitions}
        for definition in definitions:
            function = definition.text.split("(", 1)[0].strip()
            if definition.name in offered or function not in EXACT:
                continue
            # FUNCTIONS' templates: the first two facts are `n >= a`, `n >= b` (or `<=`)
            args = tuple(f.rhs for f in definition.facts[:2])
            read = {s.name for a in args for s in a.free_symbols}
            if read & (names - set(defined) - offered):  # a root, or what reads one
                continue
            if any(is_atom(name) for name in read):  # a sum or a family member: the rows
                continue  # make their columns for statements, never inside a definition
            replaced = tuple(named.replaced(a) for a in args)
            # num35 F1: each definition may raise an earlier one to a power, so a chain of
            # four (`d1 = max(t**16, 0)`, `d2 = max(d1**16, 0)`, ...) is t**65536, an
            # exact value of about a megabit on each row: that audit ran for over 400 s
            # (without d4, 33 s for 5). Past the parser's bound on one expression it is
            # left unevaluated, checked symbolically only (`defined_unbound` says why).
            degree = column_degree(replaced, degrees)
            if degree > MAX_DEGREE:
                too_high[definition.name] = degree
                continue
            meaning = f"{function}({', '.join(map(sympy.srepr, replaced))})"
            symbol = f"{definition.name}__{hashlib.sha256(meaning.encode()).hexdigest()[:12]}"
            defined[definition.name] = Defined(definition.name, symbol, function, replaced)
            degrees[symbol] = degree
        return named

    def quantities_read(self, scalars: Iterable[str], vectors: Iterable[str]) -> frozenset[str]:
        """The run quantities a proof's declared `scalars` and `vectors` denote (each bound
        by `[numeric] names`, or the quantity of its own name): every name a step reads
        is declared, so no step reads another. Whether a proof reads the separator, so
        that data without one can be run for it (`RunKind.separator_read`)."""
        read: set[str] = set()
        for name in scalars:
            for symbol in self.scalars.get(name, sympy.Symbol(name)).free_symbols:
                read |= set(gram_pair(symbol) or (symbol.name,))
        for name in vectors:
            read |= set(self.vectors.get(name, {name: 1}))
        return frozenset(read)

    def replaced(self, expr: sympy.Expr) -> sympy.Expr:
        """`expr` with every name replaced by what it denotes on runs, unexpanded."""
        return expr.xreplace({s: self._term(s) for s in expr.free_symbols})

    def evaluated(self, judgement: Judgement) -> tuple[Defined, ...]:
        """The definitions a judgement over run quantities reads (through another's
        arguments too), in file order: each column is made after those it reads."""
        by_symbol = {d.symbol: d for d in self.defined.values()}
        read = {s.name for s in judgement.symbols()}
        wanted = (read | {n for a in read if is_atom(a) for n in atom_reads(a)[0]}) & set(
            by_symbol)  # inside a sum (a set's filter) too

        grown = True
        while grown:
            more = {s.name for n in wanted for a in by_symbol[n].args
                    for s in a.free_symbols} & set(by_symbol)
            grown = not more <= wanted
            wanted |= more
        return tuple(d for d in self.defined.values() if d.symbol in wanted)

    def judgement(self, hypotheses: Sequence[Fact], claim: Fact) -> Judgement:
        """`hypotheses |- claim` with every name replaced by what it denotes on runs, all
        at once (an inner product of two named vectors expands bilinearly)."""
        symbols = {s for fact in (*hypotheses, claim) for s in fact.expr.free_symbols}
        replace = {s: self._term(s) for s in symbols}
        facts = [Fact(sympy.expand(f.expr.xreplace(replace)) if replace else f.expr, f.kind)
                 for f in (*hypotheses, claim)]
        used = {s for f in facts for s in f.expr.free_symbols}
        vectors = sorted({n for s in used if (pair := gram_pair(s)) for n in pair})
        scalars = sorted(s.name for s in used if gram_pair(s) is None)
        return Judgement(tuple(facts[:-1]), facts[-1], tuple(vectors), tuple(scalars))

    def _term(self, symbol: sympy.Symbol) -> sympy.Expr:
        """What `symbol` denotes on runs (`_meaning`), made once per symbol: planning a step
        reads each of its names' meanings three or four times (`too_large`, `judgement`,
        `slack_scale`), and a sum's is rebuilt by the kernel's constructors each time (0.45
        of the 0.75 CPU-seconds the audit's pool spent planning the built-in proofs' checks
        after reading their statements). Each meaning is kept with the number of
        definitions it was made under: `defining` adds them one by one, to this naming."""
        memo: dict[sympy.Symbol, tuple[int, sympy.Expr]] = self.__dict__.setdefault(
            "_meanings", {})
        found = memo.get(symbol)
        if found is None or found[0] != len(self.defined):
            found = memo[symbol] = (len(self.defined), self._meaning(symbol))
        return found[1]

    def _meaning(self, symbol: sympy.Symbol) -> sympy.Expr:
        if is_atom(symbol.name):
            return self._atom(symbol)
        pair = gram_pair(symbol)
        if pair is None:
            if (defined := self.defined.get(symbol.name)) is not None:
                return sympy.Symbol(defined.symbol)
            return self.scalars.get(symbol.name, symbol)
        a, b = (self.vectors.get(n, Vec.named(n)) for n in pair)
        return dot(a, b) if (pair[0] in self.vectors or pair[1] in self.vectors) else symbol

    def family(self, name: str) -> str:
        """The run's family a proof's family denotes (its own name when not bound)."""
        return self.families.get(name, name)

    def _atom(self, symbol: sympy.Symbol) -> sympy.Expr:
        """A sum, family member or inner product of a member, with every name inside it
        replaced by what it denotes on runs and every family by the run's family it is bound
        to, rebuilt by the kernel's constructors (so in the kernel's canonical form, the one
        the kernel evaluates at a counterexample)."""
        return self._inside(sympy.expand(symbol))

    def _inside(self, e: sympy.Expr) -> sympy.Expr:
        table: dict[sympy.Symbol, sympy.Expr] = {}
        for s in e.free_symbols:
            name = s.name
            if name.startswith("#"):
                continue
            if IDENT.fullmatch(name):  # a definition read in a sum's filter or bound too
                defined = self.defined.get(name)
                table[s] = (sympy.Symbol(defined.symbol) if defined is not None
                            else self.scalars.get(name, s))
                continue
            found = gram_pair(s) or structure(s)
            if isinstance(found, tuple):
                table[s] = kernel_dot(*(self._side(v) for v in found))
            elif isinstance(found, Family):
                table[s] = family(self.family(found.family), self._inside(found.index))
            elif isinstance(found, Sum):
                table[s] = finite_sum(sympy.Symbol(f"#{found.bound}"), self._inside(found.lo),
                                      self._inside(found.hi),
                                      [(self._inside(p), k) for p, k in found.filters],
                                      self._inside(found.body))
        return sympy.expand(e.xreplace(table)) if table else e

    def _side(self, vector: str) -> Mapping[str, sympy.Expr]:
        """One side of an inner product on runs: a combination of the run's vectors, or a
        member of a run's family."""
        if IDENT.fullmatch(vector):
            return self.vectors.get(vector, Vec.named(vector))
        member = structure(sympy.Symbol(vector))
        assert isinstance(member, Family)
        name = family(self.family(member.family), self._inside(member.index)).name
        return {name: sympy.Integer(1)}

    def too_large(self, hypotheses: Sequence[Fact], claim: Fact) -> bool:
        """Whether the statement with the names replaced would expand past `MAX_TERMS` per
        relation (predicted without expanding: a hostile table cannot ask for minutes).
        Each relation's answer is kept, as `_term` keeps meanings, with the number of
        definitions it was found under: a proof's steps repeat their hypotheses (the
        built-in proofs' plan asked about 2 024 relations, 685 of them distinct)."""
        memo: dict[sympy.Expr, tuple[int, int]] = self.__dict__.setdefault("_expanded", {})
        for fact in (*hypotheses, claim):
            found = memo.get(fact.expr)
            if found is None or found[0] != len(self.defined):
                replace = {s: self._term(s) for s in fact.expr.free_symbols}
                found = memo[fact.expr] = (len(self.defined),
                                           expansion_size(fact.expr.xreplace(replace))[1])
            if found[1] > MAX_TERMS:
                return True
        return False


_V = TypeVar("_V")


@dataclass(frozen=True)
class ProofPoint(Instance):
    """A counterexample found on a run, read in the proof's names (`Reading.point`): each
    value under the name of the proof that denotes its run quantity as it stands, the
    value itself unchanged. `denotes`: each name the step reads that is bound to an
    expression (`margin = "y*dot(w, x)"`), with that expression as the proof wrote it; its
    value is not given (no row holds it, the kernel evaluated only the run's quantities).
    `run`: the values of the run quantities no name the step reads denotes as they stand
    (they enter through such an expression), under the run's own names, kept apart so that
    a run's `x` is never read as a proof's `x` that denotes something else (its scalars and
    vectors: a family enters by name only)."""

    denotes: Mapping[str, str] = field(default_factory=dict)
    run: Instance | None = None
    #: the instance itself, in the run's names: the one the kernel checked against the
    #: statement on runs (`verify.audit.job._merged`), which a caller may check again
    checked: Instance | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Reading:
    """How one step's counterexample on runs reads in its proof's names: what the names
    denote (`names`), the proof's declared names (its scalars, vectors, families and
    `[define]`d names: one left unbound denotes the run quantity of its own name), the names
    the step's statement reads (`read`: of several names that denote one run quantity, the
    step's are shown), and the `[numeric] names` as written (`written`)."""

    names: Naming
    declared: frozenset[str]
    read: frozenset[str]
    written: Mapping[str, str]

    def point(self, instance: Instance) -> ProofPoint:
        """`instance` (in the run's names, as the kernel has just checked it against the
        statement on runs) renamed, nothing evaluated: a run quantity under each name the
        step reads that denotes it as it stands (`th = "w"`, `x = "X"`, a name left unbound;
        a `[define]`d name's column under that name), else under its run name in `run`;
        each name the step reads that is bound to an expression in `denotes`. Presentation
        only: the kernel's check is made on `instance` before, never on this."""
        aliases = self._aliases()
        made = {d.symbol for d in self.names.defined.values()}

        def shown(quantity: str) -> list[str]:
            return [n for n in aliases.get(quantity, ()) if n in self.read or quantity in made]

        def split(values: Mapping[str, _V]) -> tuple[dict[str, _V], dict[str, _V]]:
            mine: dict[str, _V] = {}
            theirs: dict[str, _V] = {}
            for quantity, value in values.items():
                names = shown(quantity)
                mine.update(dict.fromkeys(names, value))
                if not names:
                    theirs[quantity] = value
            return dict(sorted(mine.items())), dict(sorted(theirs.items()))

        scalars, run_scalars = split(instance.scalars)
        vectors, run_vectors = split(instance.vectors)
        # a run family no name of the step denotes is one its statement does not read (a
        # family is bound by name only, never inside an expression): the rows give every
        # family of the dataset, the reader needs only the step's
        families, _ = split(instance.families)
        bare = {n for names in aliases.values() for n in names}
        denotes = {n: self.written[n].strip() for n in sorted(self.read)
                   if n in self.written and n not in bare}
        run = Instance(run_scalars, run_vectors) if run_scalars or run_vectors else None
        return ProofPoint(scalars, vectors, instance.provenance, families, denotes, run,
                          instance)

    def _aliases(self) -> dict[str, list[str]]:
        """Run quantity -> the proof's names that denote it as it stands."""
        out: dict[str, list[str]] = {}
        for name, expr in self.names.scalars.items():
            if isinstance(expr, sympy.Symbol) and gram_pair(expr) is None \
                    and not is_atom(expr.name):
                out.setdefault(expr.name, []).append(name)
        for name, vector in self.names.vectors.items():
            if len(vector) == 1 and next(iter(vector.values())) == 1:
                out.setdefault(next(iter(vector)), []).append(name)
        for name, family_name in self.names.families.items():
            out.setdefault(family_name, []).append(name)
        for defined in self.names.defined.values():
            out.setdefault(defined.symbol, []).append(defined.name)
        bound = {*self.names.scalars, *self.names.vectors, *self.names.families,
                 *self.names.defined}
        for name in sorted(self.declared - bound):
            out.setdefault(name, []).append(name)
        return out

    @classmethod
    def of(cls, names: Naming, declared: Collection[str], read: Collection[str],
           written: Mapping[str, str], definitions: Mapping[str, str] | None = None
           ) -> Reading:
        """`read` grown by the names each `[define]`d name it reads reads in turn
        (`definitions`, by their text: the step reading `big = "max(Q - k, k)"` reads Q
        and k, whose run values its counterexample holds)."""
        grown, todo = set(read), [n for n in read if n in (definitions or {})]
        while todo:
            text = (definitions or {})[todo.pop()]
            for word in set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)) & set(declared):
                if word not in grown:
                    grown.add(word)
                    if word in (definitions or {}):
                        todo.append(word)
        return cls(names, frozenset(declared), frozenset(grown), dict(written))


def _family_binding(name: str, text: str, run: str, offered: Mapping[str, bool],
                    vectors: set[str], indexed: Iterable[str] | None) -> str | None:
    """Whether `[numeric] names` entry `name = text` binds a family: None (it does not:
    an expression), "" (it does, rightly), or why it is refused (a family bound to an
    expression, a scalar or vector bound to a family, families of different sorts)."""
    families = set(indexed) if indexed is not None else None
    is_family = name in families if families is not None else text in offered
    if not is_family:
        if text not in offered:
            return None
        return (f"{text} is a family of {run} runs ({_offer(offered)}), and {name} is no "
                "family: only a family (listed in indexed) may be bound to it")
    if text not in offered:
        return (f"{name} is a family (listed in indexed): bind it to a family of {run} runs "
                f"({_offer(offered)}), not to an expression")
    mine, theirs = name in vectors, offered[text]
    if mine != theirs:
        return (f"{name} is a family of {'vectors' if mine else 'scalars'}, {text} one of "
                f"{'vectors' if theirs else 'scalars'}")
    return ""


def _offer(offered: Mapping[str, bool]) -> str:
    """What families a run offers, in words."""
    if not offered:
        return "they offer none"
    return "they offer " + ", ".join(
        f"{n} (of {'vectors' if v else 'scalars'})" for n, v in offered.items())


def families_read(judgement: Judgement) -> set[str]:
    """The families a judgement on runs reads (inside its sums too)."""
    return {f for s in judgement.symbols() if is_atom(s.name) for f in atom_reads(s.name)[2]}


def unbound(judgement: Judgement, run: str, defined: Mapping[str, str] | None = None,
            evaluated: Sequence[Defined] = (), too_high: Mapping[str, int] | None = None
            ) -> str | None:
    """Why no row set of a `run` run binds the statement's quantities (None: one does).
    `defined`: the proof's `[define]`d names and their definitions, which are never advised
    to be bound (`defined_unbound`); `evaluated`: those the rows evaluate (`sorts`)."""
    scalars, vectors = sorts(judgement, evaluated)
    found = kind(run)
    missing = families_read(judgement) - set(found.families)
    if not missing and found.binding_for(scalars | vectors, scalars, vectors) is not None:
        # bound but for an inner product of a member outside any sum (`binding_of`): its
        # own reason (red team 13 G: it fell through to "no run ... had a row")
        return _PRODUCTS if _member_products(judgement) else None
    article = f"{'an' if run[0] in 'aeiou' else 'a'} {run} run"
    strangers = sorted((scalars | vectors) - set(found.offered))
    if missing:
        return _indexed(judgement, sorted(missing), run, found.families)
    mine = [name for name in strangers if name in (defined or {})]
    if mine:
        assert defined is not None
        others = [name for name in strangers if name not in defined]
        rest = (f"; {', '.join(others)} {'is' if len(others) == 1 else 'are'} no quantity of "
                f"{article} either" if others else "")
        return f"{defined_unbound(mine, defined, too_high)}{rest}"
    if not strangers and _member_products(judgement):
        return _PRODUCTS
    free = [name for name in strangers if name in _free_indices(judgement)]
    if free:
        others = [name for name in strangers if name not in free]
        rest = (f"; {', '.join(others)} {'is' if len(others) == 1 else 'are'} no quantity of "
                f"{article} either" if others else "")
        return (f"{', '.join(free)} {'is an index' if len(free) == 1 else 'are indices'} of a "
                "family member outside any sum, which no run binds (a run reads members at "
                "the indices its quantities or a sum give, `y[1]`, `y[N]`, never at a free "
                f"one), so a step about one member is checked symbolically only{rest}")
    if strangers:
        hints = "".join(closest(n, run) for n in strangers[:1])
        return (f"{', '.join(strangers)} {'is' if len(strangers) == 1 else 'are'} no quantity "
                f"of {article}{hints}: bind {'it' if len(strangers) == 1 else 'them'} in "
                "[numeric] names")
    wrong = sorted((scalars & found.vectors) | (vectors - found.vectors))
    if mine := [name for name in wrong if name in (defined or {})]:
        assert defined is not None  # a defined name the run offers of the other sort
        return (f"{defined_unbound(mine, defined, too_high)}; {', '.join(mine)} on {article} is a "
                "quantity of the other sort (vector or scalar)")
    if wrong:
        return f"{', '.join(wrong)}: of the other sort (vector or scalar) on {article}"
    used = scalars | vectors
    sets = "; ".join(f"{r.name} rows bind {', '.join(sorted(used & found.names(r.name)))}"
                     if used & found.names(r.name) else f"{r.name} rows bind none of them"
                     for r in found.row_sets)
    return f"no row set of {article} binds all of {', '.join(sorted(scalars | vectors))} ({sets})"


def _indexed(judgement: Judgement, missing: Sequence[str], run: str,
             offered: Mapping[str, bool]) -> str:
    """Why a step reading a family no run of its kind offers is not run: it names the sums
    by their ranges and the families by name, never a kernel name (red team 10: the line
    said `sum(#1 in 1..N: #1) is no quantity of an online run: bind it in [numeric] names`,
    in the kernel's own spelling of the sum). A run offers its dataset's families (`X`, `Y`:
    docs/run-quantities.md), which a proof's family is bound to in `[numeric] names`, and
    their history too: online, single-pass and cyclic runs their updates and stream (`XU`,
    `YU`, `XS`, `YS`, `ZS`, `IS`), batch runs the sizes of their sets (`MK`); a family of
    anything else is offered by no run."""
    sums: list[str] = []
    for symbol in sorted(judgement.symbols(), key=lambda s: s.name):
        found = structure(symbol) if is_atom(symbol.name) else None
        if isinstance(found, Sum) and set(missing) & atom_reads(symbol.name)[2]:
            span = f"{found.lo}..{found.hi}"
            sums.append(f"a sum over {span}" if "#" not in span else "a sum")
    what = [*dict.fromkeys(sums)]
    listed = ", ".join(missing)
    what.append(f"a member of the famil{'ies' if len(missing) > 1 else 'y'} {listed}")
    article = f"{'an' if run[0] in 'aeiou' else 'a'} {run} run"
    history = any(n in HISTORY for n in offered)
    offers = (f"which offers {_offer(offered)[11:]}, its dataset's examples and labels"
              f"{' and its history' if history else ''}, bound in [numeric] names as "
              '`x = "X"`' if offered else
              "which offers none (the built-in runs offer their dataset's examples X and "
              "labels Y)")
    others = ("" if history else "; the built-in runs offer their history as families "
              "(online, single-pass and cyclic runs XU, YU, XS, YS, ZS, IS; batch runs MK)")
    return (f"it reads {' and '.join(what)}, and {listed} {'is' if len(missing) == 1 else 'are'}"
            f" no family of {article}, {offers}{others}: checked symbolically only")


def quotient_split(arg: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """A definition's argument, a rational function, as the expanded numerator and
    denominator polynomials `together` makes of it: the one split both the column
    (`verify.numeric.instances`) and its bound (`column_degree`) read, so the bound counts
    what the column holds (fix35 F1)."""
    num, den = sympy.fraction(sympy.together(arg))
    return sympy.expand(num), sympy.expand(den)


def column_degree(args: Iterable[sympy.Expr], degrees: Mapping[str, int]) -> int:
    """A bound on the degree, in the run's quantities, of the column of a definition of
    `args` (an inner product counts 2, an evaluated definition's column its own bound,
    `degrees` by its symbol): how many times the bits of the quantities its exact
    numerator and denominator may each take, which `Naming.defining` bounds (num35 F1).
    The column of `max(a/da, b/db)` holds `a*db` over `da*db`
    (`verify.numeric.instances._definition`), so the bound adds, over both arguments'
    numerators and denominators, each symbol's highest exponent times its own degree: the
    larger of a sum's terms, or of the two arguments, was no
    bound (fix35 F1: a chain of `max(1/(d + 1) + 1/(t + 2), 0)`, each of degree 1 by that
    measure, doubled its bits at each level)."""
    total = 0
    for arg in args:
        for part in quotient_split(arg):
            symbols = sorted(part.free_symbols, key=lambda s: s.name)
            if not symbols:
                continue
            exponents = sympy.Poly(part, *symbols).degree_list()
            total += sum(e * degrees.get(s.name, 2 if gram_pair(s) else 1)
                         for s, e in zip(symbols, exponents, strict=True))
    return total


#: The definitions (`proofs.definitions.FUNCTIONS`) whose value is a root: irrational in
#: general, so no exact run can hold it.
ROOTS = ("norm(", "sqrt(")


def defined_unbound(names: Sequence[str], defined: Mapping[str, str],
                    too_high: Mapping[str, int] | None = None) -> str:
    """Why a step mentioning `[define]`d names that the run neither offers nor evaluates is
    not run. The audit evaluates on each row a definition exact on rationals (`EXACT`:
    `Naming.defining`); a root is irrational in general, so no exact run can hold it, and
    a definition reading a root is no better. Any other defined name is read on runs only as
    a quantity the run offers under that name, and may not be bound in `[numeric] names`
    (`proofs.proof_file`: it would be another quantity under its name). So the line names
    each definition, says which root makes it inexact, and advises no binding (red team 9:
    it said `bind it in [numeric] names`, and the binding it led to checked another
    quantity)."""
    first = names[0]
    text = defined[first]
    root = _root(first, defined)
    high = _reads(first, defined, lambda n: n in (too_high or {}))
    if root is None and high is not None:  # num35 F1: exact, but past the degree bound
        assert too_high is not None
        what = (f", of degree {too_high[high]}" if high == first else
                f", which reads {high} = {defined[high]}, of degree {too_high[high]}")
        more = "".join(f"; {n} as {defined[n]}" for n in names[1:])
        return (f"{first} is defined as {text} ([define]){what} in the run's quantities "
                f"(its exact value's numerator and denominator over both arguments counted "
                f"together, through the definitions it reads){more}: the audit evaluates on "
                f"runs only definitions of degree at most {MAX_DEGREE} in them, as it reads "
                "any expression (an exact value's size grows with its degree; each "
                "definition may raise the one before it to a power, or double its size): "
                "checked symbolically only")
    what = (", which reads a sum or a family member, which the audit evaluates on runs in a "
            "step's statement but never inside a definition" if root is None and (
                "sum(" in text or "[" in text) else
            "" if root is None else
            ", a root, irrational in general, which no exact run can hold" if root == first
            else f", which reads {root} = {defined[root]}, a root, irrational in general, "
                 "which no exact run can hold")
    more = "".join(f"; {n} as {defined[n]}" for n in names[1:])
    return (f"{first} is defined as {text} ([define]){what}{more}: the audit evaluates on "
            f"runs only definitions exact on rationals ({', '.join(EXACT)} of rational "
            "functions; a defined name is otherwise read only as a quantity the run offers "
            "under its name, and may not be bound in [numeric] names): checked symbolically "
            "only")


def _root(name: str, defined: Mapping[str, str]) -> str | None:
    """The root (`ROOTS`) the definition of `name` is, or reads through other definitions
    (None: none)."""
    return _reads(name, defined, lambda n: defined[n].startswith(ROOTS))


def _reads(name: str, defined: Mapping[str, str], hit: Callable[[str], bool]) -> str | None:
    """The first definition, `name`'s own or one it reads through others, that `hit`
    (None: none)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop(0)
        if current in seen:
            continue
        seen.add(current)
        if hit(current):
            return current
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", defined[current]))
        todo.extend(n for n in defined if n in words)
    return None


def sorts(judgement: Judgement, defined: Sequence[Defined] = ()) -> tuple[set[str], set[str]]:
    """The scalar quantities a judgement reads, and the vector ones (those of its Gram
    symbols). A `defined` name's column is made from what its arguments read, so a row set
    must bind those, not the column's own name (no run offers it)."""
    made = {d.symbol for d in defined}
    symbols = {s for s in judgement.symbols() if s.name not in made} | {
        s for d in defined for a in d.args for s in a.free_symbols if s.name not in made}
    atoms = {s for s in symbols if is_atom(s.name)}  # a sum: the quantities it reads
    symbols -= atoms
    scalars = {s.name for s in symbols if gram_pair(s) is None}
    vectors = {n for s in symbols if (pair := gram_pair(s)) for n in pair}
    for atom in atoms:
        read = atom_reads(atom.name)
        scalars |= read[0] - made  # a definition read inside a sum: its column is made
        vectors |= read[1]
    return scalars, vectors


def binding_of(judgement: Judgement, run: str | RunKind = "online",
               defined: Sequence[Defined] = ()) -> str | None:
    """The first row set of a `run` run binding every quantity the judgement reads, each of
    its own sort (a scalar `d` is not the online runs' direction vector `d`); `defined`: the
    definitions it reads that the rows evaluate (`sorts`)."""
    scalars, vectors = sorts(judgement, defined)
    found = run if isinstance(run, RunKind) else kind(run)
    if not families_read(judgement) <= set(found.families) or _member_products(judgement):
        return None
    return found.binding_for(scalars | vectors, scalars, vectors)


def _free_indices(judgement: Judgement) -> set[str]:
    """The names in the index of a family member outside any sum (`j` of `y[j]`, of
    `dot(w, x[j])`): a step about one member, which no run binds (review: its reason said
    `j is no quantity of a batch run: bind it in [numeric] names`, advice no file can
    follow)."""
    found: set[str] = set()
    for symbol in judgement.symbols():
        if not is_atom(symbol.name):
            continue
        atom = structure(symbol)
        for part in atom if isinstance(atom, tuple) else (atom,):
            if isinstance(part, Family):
                found.update(s.name for s in part.index.free_symbols
                             if not s.name.startswith("#"))
    return found


_PRODUCTS = ("it reads an inner product of a family member outside any sum, of which the rows "
             "make no column (inside a sum's body they are evaluated): checked symbolically "
             "only")


def _member_products(judgement: Judgement) -> bool:
    """Whether the judgement reads an inner product of a family member outside any sum
    (`<theta,X[N]>`): the rows make no column of it (a sum's body reads them)."""
    return any(is_atom(s.name) and isinstance(structure(s), tuple) for s in judgement.symbols())


def natural_terms(naturals: Iterable[str], names: Naming, judgement: Judgement,
                  defined: Sequence[Defined] = ()) -> tuple[sympy.Expr, ...] | str:
    """The run terms the statement's `naturals` denote, each a hypothesis `term in Nat` of
    the statement on runs (`CompiledJudgement.naturals`: a row where one is not a natural
    number is no instance of it), or why they cannot be read on the rows that bind the
    judgement. A natural whose term reads none of the judgement's quantities is left out
    (a constant one that is no natural number leaves no instance at all): the judgement
    does not depend on it, and some natural exists, so the statement holds on a row exactly
    where the judgement does. One that reads some of them and a quantity the judgement does
    not (`k = t + s` where only `t` is left) would need that quantity too."""
    scalars, vectors = sorts(judgement, defined)
    read = scalars | vectors
    terms: list[sympy.Expr] = []
    for name in sorted(naturals):
        term = sympy.expand(names.replaced(sympy.Symbol(name)))
        own = sorts(Judgement((), Fact(term, ">=")), defined)
        needs = own[0] | own[1]
        if not needs and not (term.is_Integer and term >= 0):
            return (f"its natural {name} denotes {term} on runs, which is no natural number: "
                    "no row is an instance of the statement")
        if not needs & read:
            continue
        if not needs <= read:
            return (f"its natural {name} denotes {term} on runs, which reads "
                    f"{', '.join(sorted(needs - read))}, a quantity the statement on runs "
                    "does not read: where it is a natural cannot be told on its rows")
        terms.append(term)
    return tuple(terms)


def on_runs(stated: kernel.Statement, names: Naming) -> Judgement:
    """A step's statement as one judgement over run quantities, divisions cleared (their
    conditions become hypotheses: the statement says nothing where they fail), each name
    replaced by what it denotes on runs."""
    return labelled_on_runs(stated, names)[0]


def labelled_on_runs(stated: kernel.Statement, names: Naming
                     ) -> tuple[Judgement, tuple[str, ...]]:
    """`on_runs`, and for each hypothesis of its judgement, in order, the text it comes from
    as the step writes it (a division's condition: `the divisors of TEXT nonzero`), so that
    a report can say which hypothesis its rows fail (newcomer 34 N1: "mostly vacuous"
    named none)."""
    plain = {normal_form(r, r.text)[0] for r in stated.hypotheses if not r.divisors}
    forms = [(_on_rows(r, plain), r.text) for r in (*stated.hypotheses, stated.claim)]
    (claim, conditions), said = forms.pop()
    labelled: dict[Fact, str] = {}
    for (fact, side), text in forms:
        for condition in side:
            labelled.setdefault(condition, f"the divisors of {text} nonzero")
        labelled.setdefault(fact, text)
    for condition in conditions:
        labelled.setdefault(condition, f"the divisors of {said} nonzero")
    return names.judgement(tuple(labelled), claim), tuple(labelled.values())


def slack_scale(stated: kernel.Statement, claim: Fact, names: Naming) -> sympy.Expr | None:
    """`M` with `claim` (the judgement `on_runs` made of `stated`) `== gap * M`, `gap` the
    claim's slack as written (`rhs - lhs` of `<=` and `<`, `lhs - rhs` of the others), each
    name replaced as in the judgement; None when `M` is 1. Clearing a division multiplies by
    a factor positive where the statement is defined (`_on_rows`), so the least slack of the
    claim as written is the least of `claim / M` (newcomer 28 F10: `t <= N/(eta*gamma**2)`
    reported the least of `(N/(eta*gamma**2) - t)*eta*gamma**2` as its "least slack", 1/10
    where the bound was never within 10 of t)."""
    relation = stated.claim
    gap = (relation.rhs - relation.lhs if relation.op in ("<=", "<")
           else relation.lhs - relation.rhs)
    if not relation.divisors and not any(
            power.exp.is_negative for e in (relation.lhs, relation.rhs)
            for power in e.atoms(sympy.Pow)):
        return None  # no division: the claim is the gap, expanded
    written = names.judgement((), Fact(sympy.together(gap), ">=")).claim.expr
    scale = sympy.cancel(sympy.together(claim.expr / written))
    return None if scale == 1 or written == 0 else scale


def _on_rows(relation: kernel.Rel, given: set[Fact]) -> tuple[Fact, tuple[Fact, ...]]:
    """`relation` as a polynomial fact that says what it says wherever it is defined, and
    the conditions (`> 0` facts) that say where that is: where no divisor is 0 (red team 12
    D: `1/(t - 10^6) <= 0` was vacuous on every row, though defined and true on each).

    The kernel's `normal_form` clears a denominator by taking each of its factors c > 0 as a
    condition (a proof must show it); a run's row only has to be one where the relation is
    defined, and a factor may be negative there. The kernel's form is kept where every c is
    a square (c > 0 exactly where c != 0) or among `given`, the step's hypotheses free of
    division (false, so the row vacuous, wherever c <= 0). Else `N/D op 0` becomes
    `N*E op 0`, E the constant and the factors of odd multiplicity of D = c*E*q**2
    (`sympy.sqf_list`): the same where D != 0, multiplied by D*E = (c*E*q)**2 > 0. D is
    reduced (`sympy.cancel`: where every divisor is nonzero the quotient is defined, so its
    reduced denominator is nonzero), and each divisor d (written, or left in the relation)
    gives `d**2 > 0` (the kernel admits no division inside a divisor). Exact: SymPy
    rationals, no float."""
    fact, conditions = normal_form(relation, relation.text)
    if all(c in given or _square(c.expr) for c in conditions):
        return fact, conditions
    num, den = sympy.fraction(sympy.cancel(sympy.together(relation.lhs - relation.rhs)))
    constant, factors = sympy.sqf_list(den)
    odd = constant * sympy.Mul(*(f for f, k in factors if k % 2))
    cleared, _ = normal_form(kernel.Rel(sympy.expand(num * odd), relation.op,
                                        sympy.Integer(0), relation.text), relation.text)
    divisors = (*relation.divisors, *(b for e in (relation.lhs, relation.rhs)
                                      for b in reciprocal_bases(e, relation.text)))
    defined = (sympy.expand(d**2) for d in divisors)
    return cleared, tuple(dict.fromkeys(Fact(d, ">") for d in defined if not d.is_number))


def _square(expr: sympy.Expr) -> bool:
    """Whether `expr` is a positive constant times a square of a polynomial: > 0 exactly
    where it is nonzero."""
    constant, factors = sympy.sqf_list(expr)
    return bool(constant > 0) and all(k % 2 == 0 for _, k in factors)


def _unknown(text: str, run: str) -> tuple[str, str] | None:
    """`'xx' is no quantity of online runs (closest ...); they offer: ...` for the first name
    of `text` that the run does not offer, and that name (None: every name is offered, or
    Python cannot read `text`). Called where the expression parser refused `text`, which
    may be for its length or depth: Python's own parser then fails otherwise than with a
    SyntaxError (red team 32: `t*t*...*t`, 3000 factors, was a RecursionError traceback
    where the parser's one line was due)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in called and \
                node.id not in kind(run).offered:
            return (f"{node.id!r} is no quantity of {run} runs{closest(node.id, run)}; they "
                    f"offer: {', '.join(kind(run).offered)}", node.id)
    return None


def law(run: str, name: str) -> Judgement:
    """The law `name` of the run kind `run` (`RunKind.laws`: a relation over its quantities
    that holds on every row by definition, such as the update rule), as a judgement."""
    text = kind(run).laws[name]
    relation = parse_relation(text, quantities(run))
    fact, conditions = normal_form(kernel.Rel(relation.lhs, relation.op, relation.rhs, text), text)
    if conditions:
        raise ValueError(f"law {name} of {run} runs divides: {text}")
    return Naming(run, {}, {}).judgement((), fact)
