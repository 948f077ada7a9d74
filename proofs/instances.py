"""Instances of steps that use other steps, as copies proved again (issue 27, item 7).

`uses = [{ step = "S", with = { a = "w" } }]` imports S's statement with `a` replaced by `w`
(the kernel's `instance`). The kernel refuses to replace a name that S's *inherited*
hypotheses read (the claims of the steps S uses): such a hypothesis is tagged with the step
it came from, and an induction's claim holds at run states only, so the instance would mislead.
So when S uses other steps, the use is read here, in the untrusted layer, as a use of a
specialised copy of S: S's own hypotheses, claim, hints and case split with the names
replaced at once (their texts rewritten and parsed again, so every division is read as
written), and S's uses instantiated the same way, recursively (a used step with uses of its
own gets its copy too; one without is instantiated by the kernel, as before). The copy gets
a fresh id, `S--with-1`, and a note saying what it is an instance of; the kernel proves it
again like any step, so nothing is trusted because S was proved: a copy whose proof fails
leaves the step that uses it unknown, naming the copy. A sum's index is renamed where a
substituted term names it (`substituted`), so no term is captured. No instance of a
statement with inherited hypotheses reaches the kernel, except one whose copy would not be
the instance (`_kernels`: a natural replaced by a non-natural, a name a summed set reads):
the kernel judges that one by its own rules (an instance, a refusal or an unknown), as for a
step without uses.

Only a direct or case step without a witness is copied (an induction's runs and an
existential are no statements over free names: the kernel's rules for them stay in force).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Sequence
from dataclasses import replace

import sympy

from proofs.errors import ProofFileError
from proofs.language.expressions import (
    ExpressionError,
    IndexSet,
    Names,
    Relation,
    parse_relation,
    parse_scalar,
    parse_vector,
    source_tree,
    spelt_tree,
)
from proofs.language.indexed import names_in
from proofs.language.terms import Vec, gram_pair
from proofs.step import STEP_ID, CaseSplit, Direct, Step, Term, Use

Texts = dict[str, str]
"""A substitution as texts of the proof language: name -> the term, as a user would write it."""


def with_instances(steps: Sequence[Step], names: Names, naturals: Collection[str] = ()
                   ) -> tuple[tuple[Step, ...], dict[str, tuple[str, str]]]:
    """`steps` with every instance of a step that uses other steps read as a use of its
    specialised copy, each copy placed just before the first step that needs it (unless the
    copy would not be the instance: `_kernels`); and for each copy, the step and `uses`
    entry it was first made for (where its errors are placed: `Source.copies`)."""
    done: dict[str, Step] = {}  # every step so far, copies included, in order
    made: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}  # (step, texts) -> copy id
    taken = {s.id for s in steps}
    origins: dict[str, tuple[str, str]] = {}
    for step in steps:
        uses = []
        for use in step.uses:
            used = done.get(use.step)
            if used is not None and use.with_ and _copied(used):
                try:
                    texts = written(use)
                    if not _kernels(used, texts, naturals, names):
                        before = set(done)
                        named, use = use.step, Use(_copy(used, texts, naturals, names,
                                                         done, made, taken))
                        origins.update(dict.fromkeys(set(done) - before, (step.id, named)))
                except (ExpressionError, ProofFileError, SyntaxError) as error:
                    raise ProofFileError(f"uses {use}: its instance (a copy of "
                                         f"{use.step}, proved again) cannot be read: {error}",
                                         step=step.id, key="uses", text=use.step) from None
            uses.append(use)
        done[step.id] = replace(step, uses=tuple(uses))
    return tuple(done.values()), origins


def _copied(step: Step) -> bool:
    """Whether an instance of `step` is read as a copy: it uses other steps, and is a
    statement over free names (direct or by cases, no witness)."""
    return bool(step.uses) and isinstance(step.rule, Direct | CaseSplit) and not step.witness


def _kernels(step: Step, texts: Texts, naturals: Collection[str], names: Names) -> bool:
    """Whether the instance `texts` of `step` is the kernel's to judge, not copied, because a
    copy would not be that instance (it would be refuted, untruly, as the instance):

    - it replaces a natural by anything but a natural name. A natural may be replaced by a
      name only, and the instance then holds for that name natural only (`kernel.instance`),
      so the kernel refuses `t := a - 1`, and leaves the step using `t := a` unknown until
      `a` is declared natural, as for a step without uses; a copy would read `a >= 0` for a
      real `a`;
    - it replaces a name that a set `step` sums over reads (`M`: `y[j] >= c`, `c := d`). A
      set means what it is declared as, so the copy's `sum(j in M, ...)` would still filter
      on `c`; the kernel's instance replaces `c` in the filter too."""
    read = _read(step)
    replaced = {n for n, t in texts.items() if n in read and t != n}
    in_sets = set().union(*(_set_reads(names.sets[m]) for m in read if m in names.sets))
    own = naturals if step.naturals is None else step.naturals  # a copy's: its file's
    return bool(replaced & in_sets) or any(n in own and texts[n] not in naturals
                                           for n in replaced)


def _set_reads(declared: IndexSet) -> set[str]:
    """The names a declared set's range and conditions read, its own index aside."""
    return {n.id for text in (declared.lo, declared.hi, *declared.where)
            for n in ast.walk(source_tree(text)) if isinstance(n, ast.Name)} - {declared.index}


def _copy(step: Step, texts: Texts, naturals: Collection[str], names: Names,
          done: dict[str, Step],
          made: dict[tuple[str, tuple[tuple[str, str], ...]], str], taken: set[str],
          why: str = "an instance of a step that uses other steps is its copy") -> str:
    """The id of the copy of `step` with `texts` substituted, made (with the copies it
    needs, ahead of it in `done`) unless an equal one was made already."""
    texts = {n: t for n, t in texts.items() if t != n}  # `a := a` replaces nothing
    key = (step.id, tuple(sorted(texts.items())))
    if key in made:
        return made[key]
    uses = []
    for use in step.uses:
        used = done[use.step]
        own = {n: substituted(t, texts, names) for n, t in written(use).items()}
        composed = {**{n: t for n, t in texts.items() if n not in own}, **own}
        if use.over and (summed := _summed(use, used, composed, naturals, names, done, made,
                                           taken)) is not None:
            uses.append(summed)
            continue
        if _copied(used) and not _kernels(used, composed, naturals, names):
            uses.append(Use(_copy(used, composed, naturals, names, done, made, taken)))
            continue
        read = _read(used)
        kept = {n: t for n, t in composed.items() if n in read and t != n}
        uses.append(Use(used.id, tuple(sorted(
            (n, _parsed_term(n, t, names)) for n, t in kept.items())),
            texts=tuple(sorted(kept.items()))))
    rule = step.rule
    if isinstance(rule, CaseSplit):
        on = substituted(rule.text or text(rule.on), texts, names)
        rule = CaseSplit(parse_scalar(on, names), on, rule.zero_case)
    shown = ", ".join(f"{n} := {t}" for n, t in sorted(texts.items()))
    hint_images = tuple(substituted(h, texts, names) for h in (
        step.hint_texts if len(step.hint_texts) == len(step.hints)
        else tuple(map(text, step.hints))))
    copy = replace(
        step, id=_fresh(step.id, taken), uses=tuple(uses), rule=rule,
        hypotheses=tuple(_relation(h, texts, names) for h in step.hypotheses),
        claim=_relation(step.claim, texts, names),
        hints=tuple(_parsed_term("", image, names, vector=isinstance(h, Vec))
                    for h, image in zip(step.hints, hint_images, strict=True)),
        hint_texts=hint_images, naturals=None if step.naturals is None else tuple(
            texts.get(n, n) for n in step.naturals),  # a natural replaced by a natural name
        note=f"the instance {shown} of step {step.id}, proved again here ({why})")
    done[copy.id] = copy
    made[key] = copy.id
    return copy.id


def _summed(use: Use, used: Step, texts: Texts, naturals: Collection[str], names: Names,
            done: dict[str, Step], made: dict[tuple[str, tuple[tuple[str, str], ...]], str],
            taken: set[str]) -> Use | None:
    """A term-wise use (`sum = "j in S"`) inside a copy: the used step's copy with the names
    it reads replaced (or the step itself, when it reads none of them), summed over the
    range with its bounds replaced too (the kernel's term-wise rule, on a step the kernel
    proves again). The index is bound by the summation, so it is replaced nowhere (`j := k`
    on the copied step does not reach the member's `j`). None (the use is then read as an
    instance, which the kernel does not sum: the copy stays unknown) when the summation
    cannot be carried as it is: a replaced name is one a set of the use reads, a term names
    an index (it would be read at one member and summed at all), or the used step is not a
    statement over free names."""
    parts = [part.partition(" in ") for part in use.over.split(";")]
    indices = {index.strip() for index, _, _ in parts}
    moving = {n: t for n, t in texts.items() if n not in indices}
    terms = {n.id for t in moving.values() for n in ast.walk(source_tree(f"({t})"))
             if isinstance(n, ast.Name)}
    sets = set().union(*(_set_reads(names.sets[w.strip()]) for _, _, w in parts
                         if w.strip() in names.sets))
    if terms & indices or set(moving) & sets:
        return None
    over = ";".join(f"{index.strip()} in {where.strip()}" if where.strip() in names.sets else
                    f"{index.strip()} in " + "..".join(
                        substituted(bound, moving, names) for bound in where.split(".."))
                    for index, _, where in parts)
    read = _read(used)
    kept = {n: t for n, t in moving.items() if n in read}
    if not kept:
        return Use(used.id, over=over)
    if used.witness or not isinstance(used.rule, Direct | CaseSplit) or _kernels(
            used, kept, naturals, names):
        return None
    return Use(_copy(used, kept, naturals, names, done, made, taken,
                     "a copy sums it term-wise"), over=over)


def written(use: Use) -> Texts:
    """The terms of `use`'s `with` as written (`Use.texts`), or printed (`text`) for a use
    built in Python."""
    return dict(use.texts) if use.texts else {n: text(t) for n, t in use.with_}


def text(term: Term | sympy.Expr) -> str:
    """`term` as the proof language writes it: Gram symbols as `dot(a, b)`, a vector as a
    sum of scalar multiples of names (parsing it gives `term` back)."""
    if isinstance(term, Vec):
        if not term:
            raise ExpressionError("the zero vector has no name to write it with")
        return " + ".join(n if c == 1 else f"-{n}" if c == -1 else f"({text(c)})*{n}"
                          for n, c in term.items())
    table = {s: sympy.Symbol(f"dot({pair[0]}, {pair[1]})") for s in term.free_symbols
             if (pair := gram_pair(s))}
    return sympy.sstr(term.xreplace(table), order="lex")


def substituted(written: str, texts: Texts, names: Names) -> str:
    """`written` (an expression or relation of the proof language) with the names in
    `texts` replaced at once by their terms, parenthesised. A sum's index is bound: replaced
    nowhere in its body, and renamed first (`j` to `j_1`, a name free nowhere in `written`,
    the terms or the file's declarations) where a term names it, as the kernel's
    substitution does, so no term is captured (`c := y[j]` in `sum(j in S, y[j]*c)` reads
    `sum(j_1 in S, y[j_1]*y[j])`, not `sum(j in S, y[j]*y[j])`)."""
    if not texts:
        return written
    tree = spelt_tree(written)
    images = {n: spelt_tree(f"({t})") for n, t in texts.items()}
    imaged = {n.id for image in images.values() for n in ast.walk(image)
              if isinstance(n, ast.Name)}
    taken = imaged | {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | set(
        names.vectors) | set(names.scalars) | set(names.indexed) | set(names.sets)
    bound: list[str] = []

    class Replace(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return node if node.id in bound else images.get(node.id, node)

        def visit_Call(self, node: ast.Call) -> ast.AST:
            """In `sum(j in S, body)` the index j is bound: replaced nowhere in the body."""
            index = _index(node)
            if index is None:
                return self.generic_visit(node)
            node.args[0].comparators = [self.visit(c) for c in node.args[0].comparators]
            if index in imaged:
                fresh = next(f"{index}_{k}" for k in range(1, len(taken) + 2)
                             if f"{index}_{k}" not in taken)
                taken.add(fresh)
                node.args[1:] = [_Rename(index, fresh).visit(a) for a in node.args[1:]]
                node.args[0].left = ast.Name(fresh, ast.Load())
                index = fresh
            bound.append(index)
            node.args[1:] = [self.visit(a) for a in node.args[1:]]
            bound.pop()
            return node

    return ast.unparse(Replace().visit(tree)).replace(" >> ", "..")


def _index(node: ast.Call) -> str | None:
    """The index of `sum(j in S, body)` (None: `node` is no such sum)."""
    if (isinstance(node.func, ast.Name) and node.func.id == "sum" and node.args
            and isinstance(node.args[0], ast.Compare)
            and isinstance(node.args[0].left, ast.Name)):
        return node.args[0].left.id
    return None


class _Rename(ast.NodeTransformer):
    """A sum's body with its index `old` written `new`, except inside an inner sum that
    binds `old` again (there `old` is the inner index; only that sum's range is renamed)."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(self.new, node.ctx) if node.id == self.old else node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _index(node) != self.old:
            return self.generic_visit(node)
        node.args[0].comparators = [self.visit(c) for c in node.args[0].comparators]
        return node


def _relation(relation: Relation, texts: Texts, names: Names) -> Relation:
    return parse_relation(substituted(relation.text, texts, names), names)


def _parsed_term(name: str, written: str, names: Names, *, vector: bool | None = None) -> Term:
    """A term of `name`'s sort (or of the sort `vector` says), parsed from `written`."""
    if vector if vector is not None else name in names.vectors:
        return parse_vector(written, names)
    return parse_scalar(written, names)


def _read(step: Step) -> set[str]:
    """Every name `step`'s own statement reads (a step without uses: its whole statement)."""
    found: set[str] = set()
    for r in (*step.hypotheses, step.claim):
        found |= names_in(r.lhs) | names_in(r.rhs)
        found |= {n.id for n in ast.walk(source_tree(r.text))
                  if isinstance(n, ast.Name)}  # SymPy cancels `a*d/d`; the text does not
    return found


def _fresh(step_id: str, taken: set[str]) -> str:
    """`ID--with-K` for the first K not taken (cut to fit a step id)."""
    for k in range(1, len(taken) + 2):
        suffix = f"--with-{k}"
        candidate = f"{step_id[:64 - len(suffix)]}{suffix}"
        if candidate not in taken and STEP_ID.fullmatch(candidate):
            taken.add(candidate)
            return candidate
    raise AssertionError("unreachable: more candidates than ids taken")
