"""Defined names: `max`, `min`, `sqrt` and `norm` by their defining facts (issue 16).

A proof file may define a declared scalar once, at the top level:

    [define]
    d = "max(0, gamma - y*dot(u, x))"    # d >= 0, d >= gamma - y<u, x>, d*(d - (...)) == 0
    n = "norm(w)"                        # n >= 0, n**2 == <w, w>
    r = "sqrt(T)"                        # r >= 0, r**2 == T

Meaning: the name stands for that value. Every step whose hypotheses or claim mention it gets
its defining facts as hypotheses, transitively through other defined names (for an induction,
a name its update or its update facts read gets them among the update facts, and a name its
base reads among the hypotheses). The facts determine the value uniquely where it exists
(max(a, b) is the m with m >= a, m >= b and (m - a)(m - b) = 0; the square root the r >= 0
with r**2 = e), so a step with the facts says exactly what it says with the function; where
`sqrt(e)` is undefined (e < 0) no value satisfies them and the step says nothing there.
Nothing is trusted here: the facts are ordinary hypotheses, shown in the statement the kernel
checks (as written here, so that their text reads back to them: divisions included).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import sympy

from proofs.errors import ProofFileError, quoted
from proofs.language.expressions import (
    MAX_CHARS,
    ExpressionError,
    Names,
    Relation,
    parse_relation,
    source_tree,
)
from proofs.language.indexed import names_in
from proofs.language.terms import Vec
from proofs.step import Induction, Step, Term, parts

#: function -> (number of arguments, defining facts of `n` in terms of the arguments' texts)
FUNCTIONS = {
    "max": (2, ("{n} >= {a}", "{n} >= {b}", "({n} - {a})*({n} - {b}) == 0")),
    "min": (2, ("{n} <= {a}", "{n} <= {b}", "({n} - {a})*({n} - {b}) == 0")),
    "sqrt": (1, ("{n} >= 0", "{n}**2 == {a}")),
    "norm": (1, ("{n} >= 0", "{n}**2 == norm2({a})")),
}
MAX_DEFINITIONS = 64


@dataclass(frozen=True)
class Definition:
    """`name := text`, given by its defining `facts`."""

    name: str
    text: str
    facts: tuple[Relation, ...]


def parse_definitions(table: Mapping[str, object], names: Names) -> tuple[Definition, ...]:
    """The `[define]` table: declared scalars to `max(a, b)`, `min(a, b)`, `sqrt(e)`, `norm(v)`."""
    if len(table) > MAX_DEFINITIONS:
        raise ProofFileError(f"{len(table)} definitions, more than {MAX_DEFINITIONS}")
    out: list[Definition] = []
    for name, text in table.items():
        try:
            out.append(_definition(name, text, names, set(table) - {d.name for d in out}))
        except ProofFileError as error:  # placed at its entry (newcomer 32 N2: it was 1:1)
            if error.key is not None:
                raise
            raise ProofFileError(error.problem, key=f"define.{name}", fix=error.fix,
                                 text=text if isinstance(text, str) else None) from None
    return tuple(out)


def _definition(name: str, text: object, names: Names, later: set[str]) -> Definition:
    """One entry `name = text` of `[define]`; `later`, itself and the names defined after
    it (which its arguments may not read)."""
    if name in names.vectors:
        raise ProofFileError(
            f"define: {name!r} is a vector; [define] defines scalars only (by max, min, "
            "sqrt or norm): write the vector's expression where the steps use it")
    if name not in names.scalars:
        raise ProofFileError(f"define: {name!r} is not a declared scalar")
    if not isinstance(text, str):
        raise ProofFileError(f"define: {name} must be a string such as \"max(0, a)\"")
    return Definition(name, " ".join(text.split()), _facts(name, text, names, later))


def adopted(defined: Mapping[str, tuple[str, str]], own: Sequence[Definition],
            names: Names) -> tuple[Definition, ...]:
    """The definitions an import gave (`Declared.defined`: name -> text, source) that the
    file does not make itself, as definitions of this file: names are shared as within one
    file, so a step of the importing file that mentions such a name gets its defining facts
    like the copies do (kernadv31 K1: `r = max(a, b)` from an import, `r >= a` in the
    importing file was refuted at a = 1, r = 0). Each source checked its own order."""
    mine = {d.name for d in own}
    texts = {name: text for name, (text, _) in defined.items()}
    for name, (text, source) in defined.items():  # two files' definitions reading each other
        if name in _reads(name, texts):  # (kernadv31 O3): a cycle neither file has alone
            raise ProofFileError(f"define: {name} = {text} (from {source}) reads itself through "
                                 "the definitions of the imports: a name defined by a cycle "
                                 "has no value; rename it in one of them")
    return tuple(Definition(name, " ".join(text.split()), _facts(name, text, names, set()))
                 for name, (text, _) in defined.items() if name not in mine)


def _facts(name: str, text: str, names: Names, later: set[str]) -> tuple[Relation, ...]:
    """The defining facts of `name := text`, each parsed like any hypothesis; its arguments
    may use names defined before it only (a cycle would define nothing). The text is bounded
    like any expression before Python's parser sees it (its memory grows with the nesting)."""
    if len(text) > MAX_CHARS:
        raise ProofFileError(f"define: {name} has {len(text)} characters, more than {MAX_CHARS}")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ProofFileError(f"define: {name} = {quoted(text)} is not an expression") from None
    function = tree.func.id if isinstance(tree, ast.Call) and isinstance(
        tree.func, ast.Name) else None
    if function not in FUNCTIONS or tree.keywords:  # type: ignore[union-attr]
        raise ProofFileError(f"define: {name} = {quoted(text)} must be one of "
                             "max(a, b), min(a, b), sqrt(e), norm(v)")
    arity, templates = FUNCTIONS[function]
    if len(tree.args) != arity:  # type: ignore[union-attr]
        raise ProofFileError(f"define: {function} takes {arity} argument(s)")
    args = [_operand(text.strip(), arg) for arg in tree.args]  # type: ignore[union-attr]
    if circular := sorted({n.id for arg in tree.args for n in ast.walk(arg)  # type: ignore[union-attr]
                           if isinstance(n, ast.Name)} & later):
        raise ProofFileError(f"define: {name} uses {', '.join(circular)}, defined at or after "
                             "it (definitions may use earlier ones only)")
    facts = []
    for template in templates:
        try:
            relation = parse_relation(template.format(n=name, a=args[0], b=args[-1]), names)
        except ExpressionError as error:
            raise ProofFileError(f"define: {name}: {error}") from None
        facts.append(relation)
    return tuple(facts)


def _operand(text: str, node: ast.expr) -> str:
    """The argument as written, parenthesised unless it is a name or a number."""
    written = " ".join((ast.get_source_segment(text, node) or ast.unparse(node)).split())
    return written if isinstance(node, ast.Name | ast.Constant) else f"({written})"


def mentioned(relations: Iterable[Relation], coefficients: Iterable[sympy.Expr] = ()) -> set[str]:
    """Every name the relations (their text too: SymPy cancels `a*d/d`, the text does not) and
    the coefficients mention, vectors included (through their Gram symbols)."""
    out: set[str] = set()
    for r in relations:
        out |= written_names(source_tree(r.text))
        out |= names_in(r.lhs) | names_in(r.rhs)
    for c in coefficients:
        out |= names_in(c)
    return out


def written_names(tree: ast.AST) -> set[str]:
    """The names a text mentions free: a sum's index is bound in its body, so it is no
    mention of a defined name spelled the same (`sum(r in 1..N, y[r])` says nothing of a
    defined `r`, and must not get r's facts as hypotheses)."""
    if (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "sum"
            and len(tree.args) == 2 and isinstance(head := tree.args[0], ast.Compare)
            and isinstance(head.left, ast.Name)):
        return set().union(*map(written_names, head.comparators)) | (
            written_names(tree.args[1]) - {head.left.id})
    if isinstance(tree, ast.Name):
        return {tree.id}
    return set().union(*map(written_names, ast.iter_child_nodes(tree)))


def defining(names: set[str], definitions: tuple[Definition, ...]) -> tuple[Relation, ...]:
    """The defining facts of every defined name in `names`, transitively, in file order."""
    wanted, grown = set(names), True
    while grown:
        extra = {n for d in definitions if d.name in wanted for n in mentioned(d.facts)}
        grown = not extra <= wanted
        wanted |= extra
    return tuple(f for d in definitions if d.name in wanted for f in d.facts)


def with_definitions(step: Step, definitions: tuple[Definition, ...]) -> Step:
    """`step` with the defining facts of the defined names it mentions among its hypotheses
    (and, for an induction, those its update or update facts read among the update facts)."""
    if not definitions:
        return step
    rule = step.rule
    terms = [*step.witness.values(), *(t for u in step.uses for _, t in u.with_)]
    if isinstance(rule, Induction):
        terms += rule.base.values()
    own = defining(mentioned((*step.hypotheses, step.claim),
                             [c for term in terms for c in parts(term)]), definitions)
    hypotheses = (*step.hypotheses, *(f for f in own if f not in step.hypotheses))
    if isinstance(rule, Induction):
        update = defining(mentioned(rule.hypotheses, [
            c for term in rule.step.values() for c in parts(term)]), definitions)
        rule = replace(rule, hypotheses=(*rule.hypotheses,
                                         *(f for f in update if f not in rule.hypotheses)))
    return replace(step, hypotheses=hypotheses, rule=rule)


def redefining_uses(steps: Sequence[Step], defined: Mapping[str, str]) -> list[ProofFileError]:
    """The `with` instances that would give a defined name another value, one error each.

    A step that mentions a defined name carries its defining facts as hypotheses of its own,
    so an instance of it replaces names in them too: `with = { w = "0*w" }` on a step about
    `n = norm(w)` brings in `n**2 == norm2(0)`, facts that say `n` is 0 while the file says
    it is `norm(w)` (red team 6: `n == 0` came out proved from no hypothesis the user wrote;
    `r = max(0, a)` with `a := 5` made `r >= 5`). The kernel is right about the instance;
    the file's reading of the name is what it breaks. So an instance may replace neither a
    defined name that the used step mentions (itself or through the steps it uses) nor a
    name such a name's definition reads; to use the step at another value, define a name for
    that value and state the step with it."""
    if not defined or not any(use.with_ for step in steps for use in step.uses):
        return []
    reads = {name: _reads(name, defined) for name in defined}
    # what each step mentions, itself or through the steps it uses: uses name earlier steps
    # only (a later one is an error said elsewhere), so one pass in file order, no recursion
    # (a chain of a thousand uses)
    mentions: dict[str, set[str]] = {}
    for step in steps:
        relations = (*step.hypotheses, step.claim, *(
            step.rule.hypotheses if isinstance(step.rule, Induction) else ()))
        mentions[step.id] = mentioned(relations).union(
            *(mentions.get(use.step, set()) for use in step.uses))

    errors = []
    for step in steps:
        for use in step.uses:
            replaced = {name for name, term in use.with_ if not _itself(name, term)}
            if not replaced:
                continue
            fixed = {name: reads[name] | {name}
                     for name in mentions.get(use.step, set()) & set(reads)}
            clash = sorted((name, defined_name) for defined_name, held in fixed.items()
                           for name in replaced & held)
            if clash:
                name, defined_name = clash[0]
                what = "is defined" if name == defined_name else \
                    f"is read by the definition of {defined_name}"
                errors.append(ProofFileError(
                    f"uses {use.step}: its instance replaces {name}, which {what} "
                    f"({defined_name} = {defined[defined_name]}); {use.step} carries "
                    f"{defined_name}'s defining facts, and with {name} replaced they would give "
                    f"{defined_name} another value under the same name",
                    step=step.id, key="uses", text=use.step,
                    fix=f"define a name for the value you mean and state a step with it, or "
                        f"leave {name} as it is"))
    return errors


def redefining_runs(steps: Sequence[Step], defined: Mapping[str, str]) -> list[ProofFileError]:
    """An induction whose counter or iterated names include a defined name, one error each.

    A defined name has one value, its definition's (`t = max(a, 0)`), where an induction's
    counter and iterated names change along the run: the definition was dropped for the
    counter, or turned into update facts that cut the runs to the updates where the name
    happens to equal its definition (red team 8: proved, each statement true as printed,
    the file's own declaration contradicted without a word)."""
    errors = []
    for step in steps:
        rule = step.rule
        if not isinstance(rule, Induction):
            continue
        for name in sorted({rule.variable, *rule.base, *rule.step} & set(defined)):
            role = "counts the runs" if name == rule.variable else "is updated"
            errors.append(ProofFileError(
                f"induction: {name} {role}, but [define] gives it one value ({name} = "
                f"{defined[name]})", step=step.id, key="induction",
                fix=f"use another name for the changing quantity, or remove {name} from "
                    "[define]"))
    return errors


def _reads(name: str, defined: Mapping[str, str]) -> set[str]:
    """The names `name`'s definition reads (`written_names`, the function names aside),
    through the definitions it reads."""
    out: set[str] = set()
    todo = [name]
    while todo:
        text = defined.get(todo.pop())
        if text is None:
            continue
        found = written_names(source_tree(text)) - set(FUNCTIONS)
        todo += sorted(found - out - {name})
        out |= found
    return out


def _itself(name: str, term: Term) -> bool:
    """Whether `name := term` replaces nothing (the term is the name)."""
    if isinstance(term, Vec):
        return dict(term.items()) == {name: 1}
    return term == sympy.Symbol(name)
