"""A step's statement as a reader should meet it, and as the kernel read it: the run an
induction ranges over (with what the kernel also assumes of it: invariants carried at every
state, one-update lemmas at each update), the naturals and the step's own hypotheses, what it
inherits from the steps it uses (marked so), and its claim in pieces that may break across
lines.

Every fact comes from the kernel's statement (`verify.kernel.rules.Statement`), never from a
second reading of the proof file: a used step's hypotheses are shown only where the kernel
imported them (an induction's one-update lemma brings none: it is a fact of each update), so
the theorem a report states is the one the kernel checked (`check --statements`). Only the
typesetting is the author's: each relation is printed from its source text, `norm-growth` not
as an unconditional claim but as "for every run from w = 0 of updates w ← w + y x, each with
..., after t updates: ‖w‖² ≤ t R²".
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import sympy

from proofs.definitions import parse_definitions
from proofs.errors import ProofFileError
from proofs.language.terms import Vec, gram_pair
from proofs.step import CaseSplit, Induction, Proof, Step, Term, Use
from verify import kernel
from verify.kernel.algebra import normal_form
from verify.proof_checker import StepReport
from verify.proof_checker import over as summations
from verify.typeset.indices import as_source, readable
from verify.typeset.names import spelling
from verify.typeset.written import TEXT, Format, Printer
from verify.uses import UsedAs, agrees, mentions, moving, used_as

Piece = tuple[str, str]
"""`("text", words)` or `("math", formula)`: a renderer escapes the first, wraps the second
(`joined`)."""


def joined(pieces: Sequence[Piece], math: Callable[[str], str],
           escape: Callable[[str], str]) -> str:
    """Words and formulas on one line, as every renderer writes a run or a case split:
    each formula wrapped by `math` (`$...$`, `<math>...</math>`), each run of words escaped
    by `escape` with the spaces at its edges kept. The escapes of Markdown and LaTeX fold
    whitespace and drop it at the edges, which once ran words into formulas (`from$w = 0$`,
    `after$t$updates`)."""
    out = []
    for kind, text in pieces:
        if kind == "math":
            out.append(math(text))
            continue
        words = escape(text.strip())
        lead = " " if text[:1].isspace() else ""
        trail = " " if text[-1:].isspace() and words else ""
        out.append(lead + words + trail)
    return "".join(out)


@dataclass(frozen=True)
class Statement:
    """One step's statement in one format."""

    run: tuple[Piece, ...]  # an induction's run, a case split's cases ((): neither)
    given: tuple[tuple[str, ...], ...]  # naturals, then the step's own hypotheses, in chunks
    inherited: tuple[tuple[str, tuple[str, ...]], ...]  # (used step, a fact in chunks)
    claim: tuple[str, ...]  # `⊢ claim` in chunks (`Printer.chunks`)
    widths: tuple[int, ...]  # each chunk's length in plain text (to break lines)
    #: `where D is the set of the integers j from 1 to n with ...`: each declared set of
    #: the proof (`[sets]`) the statement reads, defined (`defined_sets`), then each
    #: `[define]` name whose facts it holds, with them (`defined_names`); () when none
    sets: tuple[Piece, ...] = ()
    #: the runs the claims of the inductions it imports hold on (`runs_of`), for a statement
    #: read alone, as a theorem is; () when it imports none, or is an induction itself
    context: tuple[Piece, ...] = ()
    #: `given` without the counter of `context`'s runs (`after t updates` says t is natural)
    given_in_context: tuple[tuple[str, ...], ...] = ()

    @property
    def width(self) -> int:
        """The claim's length in plain text, on one line."""
        return sum(self.widths) + len(self.widths) - 1


def term_text(term: Term) -> str:
    """A base or update term (SymPy, or a vector combination) in proof-file syntax."""
    if isinstance(term, Vec):
        term = sum((c * sympy.Symbol(n) for n, c in term.items()), sympy.Integer(0))
    renamed = {s: sympy.Symbol(f"dot({p[0]}, {p[1]})")
               for s in term.free_symbols if (p := gram_pair(s)) is not None}
    return str(term.xreplace(renamed))


def statement(proof: Proof, step: Step, fmt: Format, stated: kernel.Statement | None,
              statements: Mapping[str, kernel.Statement | None]) -> Statement:
    """`step` of `proof` as the kernel read it (`stated`; None: it read no statement, and
    the step's own hypotheses are shown), in `fmt`, names by the proof's `[notation]`;
    `statements` holds the kernel's statements of the steps it uses, by id (`verify.uses`)."""
    notation: Mapping[str, str] = spelling(proof)
    printer, plain = Printer(fmt, notation), Printer(TEXT, notation)
    if stated is None:
        own, inherited, naturals, exists = [h.text for h in step.hypotheses], [], [], ()
        uses: tuple[UsedAs, ...] = ()
        fresh: list[str] = []
        relations: list[kernel.Rel] = []
    else:
        uses = used_as(step, stated, statements, proof)
        if not agrees(stated, uses):
            raise ValueError(f"{step.id}: the uses read here are not the kernel's: "
                             f"{stated.run}")
        own = [h.text for h, o in zip(stated.hypotheses, stated.origins, strict=True) if not o]
        inherited = [(o, h.text) for h, o in zip(stated.hypotheses, stated.origins,
                                                 strict=True) if o]
        relations = [h for h, o in zip(stated.hypotheses, stated.origins, strict=True) if o]
        counter = step.rule.variable if isinstance(step.rule, Induction) else None
        # a natural read afresh at each update is a fact of each update, not one value given
        # for the whole run (red team 26 R6 aside, red team 28: `given k ∈ ℕ` for an
        # induction's per-update k, which takes a new natural value at every update)
        fresh = sorted((moving(stated) & stated.naturals) - {counter} - {
            *getattr(step.rule, "base", ()), *getattr(step.rule, "step", ())})
        naturals = [n for n in sorted(stated.naturals) if n != counter and n not in fresh]
        exists = stated.exists
    own, definitions = defined_names(proof, own, printer)
    given = [(fmt.natural(printer.expression(n)),) for n in naturals]
    given += [tuple(printer.chunks(text)) for text in own]
    # a used step's claim that it also assumes (`a >= 0 |- a >= 0`) is kept once by the
    # kernel: an assumption of this step, not a fact derived by that one
    claims = {(u.use.step, u.statement.claim.text) for u in uses
              if u.statement.claim.text not in {h.text for h in u.statement.hypotheses}}
    # a fact the kernel kept once, with the first step that brought it (a hypothesis of b),
    # may be the claim of another step used: it is derived, so it reads `From a`, never as
    # an assumption of the theorem (red team 28: `uses = ["b", "a"]` with b given `a >= 0`
    # and a claiming it read `Given as a hypothesis of b`, and `From a` in the other order)
    # (unless that step assumes it too: then it is an assumption whichever step brought it)
    # A claim written otherwise (an instance's `dot(a, b)**2 <= ... [a := w, b := u]` against
    # `dot(w, u)**2 <= ...`) is kept beside the fact, which is still derived: compared in the
    # kernel's normal form, it reads `From cs with a := w, b := u`.
    proved_by: dict[str, str] = {}
    proved_form: dict[object, tuple[str, str]] = {}
    for u in uses:
        if u.statement.claim.text not in {h.text for h in u.statement.hypotheses}:
            proved_by.setdefault(u.statement.claim.text, u.use.step)
            if (form := _form(u.statement.claim)) is not None and form not in {
                    _form(h) for h in u.statement.hypotheses}:
                proved_form.setdefault(form, (u.use.step, u.statement.claim.text))
    facts = []
    for (origin, text), relation in zip(inherited, relations, strict=True):
        if (origin, text) not in claims and text in proved_by:
            origin = proved_by[text]
        elif (origin, text) not in claims and (by := proved_form.get(_form(relation))):
            source, substituted = written(by[1], proof)  # shown as the claim that proves it
            fact = (provenance(by[0], substituted, (False, None)), tuple(printer.chunks(source)))
            if fact not in facts:  # that claim itself is among the facts too, said once
                facts.append(fact)
            continue
        source, substituted = written(text, proof)
        fact = (provenance(origin, substituted, _held(origin, text, claims, statements)),
                tuple(printer.chunks(source)))
        if fact not in facts:  # a claim already shown for a fact it proves (above)
            facts.append(fact)
    claim_text = step.claim.text if stated is None else stated.claim.text
    claim, shown = printer.chunks(claim_text), plain.chunks(claim_text)
    claim[0] = fmt.row([*_turnstile(printer, exists), claim[0]])
    shown[0] = TEXT.row([*_turnstile(plain, exists), shown[0]])
    read = [*own, *(written(text, proof)[0] for _, text in inherited), claim_text]
    context, counter = ((), None) if stated is None or isinstance(step.rule, Induction) \
        else runs_of(proof, stated, statements, printer)
    in_context = [(fmt.natural(printer.expression(n)),) for n in naturals if n != counter]
    in_context += given[len(naturals):]
    return Statement(_rule(step, printer, uses, proof, fresh), tuple(given), tuple(facts),
                     tuple(claim), tuple(len(c) for c in shown),
                     _where(defined_sets(proof, read_sets(proof, read), printer), definitions),
                     context, tuple(in_context))


def inductions_of(stated: kernel.Statement,
                  statements: Mapping[str, kernel.Statement | None]) -> tuple[str, ...]:
    """The inductions whose claims `stated` imports (as the claim of a step it uses, or
    passed on as a hypothesis of one: `_held`), in the order of its hypotheses: the steps
    whose runs it speaks of."""
    found: list[str] = []
    for h, origin in zip(stated.hypotheses, stated.origins, strict=True):
        if not origin:
            continue
        hypothesis, whose = _held(origin, h.text, set(), statements)
        owner = whose if hypothesis else origin
        used = statements.get(owner) if owner else None
        if used is not None and used.over is not None and owner not in found:
            found.append(owner)
    return tuple(found)


def runs_of(proof: Proof, stated: kernel.Statement,
            statements: Mapping[str, kernel.Statement | None],
            printer: Printer) -> tuple[tuple[Piece, ...], str | None]:
    """The runs a statement that imports inductions' claims speaks of, in words, and the
    counter they count updates with (None when the runs are not one kind of run).

    The kernel proves such a statement for all values that satisfy its hypotheses, the
    inductions' claims among them; each claim holds after t updates of every run of its
    induction (`verify.kernel.rules`). Inductions over the same runs (an equal rule: counter,
    start and update; `Statement.over`) therefore give one theorem: for every run from that
    start, each of whose updates satisfies every one of their update facts, after t updates
    the statement holds. A handout showed the theorem as an implication between lemma
    conclusions, the runs only in the step boxes further down (newcomer 27, F2). Inductions
    whose runs are parts of one run (`one_run`: one pass moving w, s, q, ... at once) give
    that run; others are each described with their own runs, nothing merged."""
    names = inductions_of(stated, statements)
    steps = {s.id: s for s in proof.steps}
    described: list[tuple[str, Step, kernel.Statement]] = []
    for name in names:
        step, used = steps.get(name), statements.get(name)
        if step is None or used is None or not isinstance(step.rule, Induction):
            return ((("text", f"It rests on the induction {name}, whose runs are not "
                              "described here:"),), None)
        described.append((name, step, used))
    if not described:
        return (), None
    if one_run(tuple(used for _, _, used in described)):
        return _joint_run(proof, described, statements, printer)
    pieces: list[Piece] = [("text", "Its facts from inductions hold on their runs: ")]
    for k, (name, step, used) in enumerate(described):
        assert isinstance(step.rule, Induction)
        run = _rule(step, printer, used_as(step, used, statements, proof), proof)
        pieces += [("text", "; " if k else ""), ("text", f"{name} "), *run[:-1],
                   ("text", run[-1][1].removesuffix(":"))]
    return (*pieces, ("text", ".")), None


def one_run(inductions: Sequence[kernel.Statement]) -> bool:
    """Whether the runs of `inductions` are parts of one run: the same counter, every name
    iterated by two of them started and updated alike, and a name one of them iterates
    either moving in each other that reads it (iterated alike, or per-update: any value at
    each update) or not read there. Then a run of all their iterated names at once, each of
    whose updates satisfies every one of their update facts, is a run of each of them (its
    part in each one's names), so each claim holds after t updates of it. A name one of
    them holds fixed (a constant, a name it reads but does not move) that another moves
    makes the runs different: no run is one of both."""
    overs = [i.over for i in inductions]
    if not overs or any(o is None for o in overs) or len({o[0] for o in overs}) != 1:  # type: ignore[index]
        return False
    for i, stated in enumerate(inductions):
        base, step = dict(overs[i][1]), dict(overs[i][2])  # type: ignore[index]
        free = moving(stated) - set(base) - set(step)  # its counter and per-update names
        read = mentions(stated)
        for other in overs[:i] + overs[i + 1:]:
            other_base, other_step = dict(other[1]), dict(other[2])  # type: ignore[index]
            for name in {*other_base, *other_step}:
                if name in base or name in step:
                    if base.get(name) != other_base.get(name) or step.get(
                            name) != other_step.get(name):
                        return False
                elif name in read and (name not in free or name == overs[i][0]):  # type: ignore[index]
                    return False
    return True


def _joint_run(proof: Proof, described: Sequence[tuple[str, Step, kernel.Statement]],
               statements: Mapping[str, kernel.Statement | None],
               printer: Printer) -> tuple[tuple[Piece, ...], str]:
    """`runs_of` for inductions whose runs are parts of one run (`one_run`): that run, its
    start and update the union of theirs, each update fact once, tagged with the inductions
    that assumed it (when there are several), then the clauses of each (the invariants it
    carries, the one-update lemmas it assumes), each once."""
    rules = [step.rule for _, step, _ in described]
    assert all(isinstance(r, Induction) for r in rules)
    first = rules[0]
    assert isinstance(first, Induction)
    merged = replace(first, base={k: v for r in rules for k, v in r.base.items()},  # type: ignore[union-attr]
                     step={k: v for r in rules for k, v in r.step.items()},  # type: ignore[union-attr]
                     written={key: {k: v for r in rules  # type: ignore[union-attr]
                                    for k, v in r.written.get(key, {}).items()}
                              for key in ("base", "step")})
    start, _, _ = _induction(merged, printer, (), proof)
    owners: dict[str, list[str]] = {}
    clauses: list[Piece] = []
    seen: set[tuple[Piece, ...]] = set()
    for name, step, used in described:
        rule = step.rule
        assert isinstance(rule, Induction)
        for fact in rule.hypotheses:
            owners.setdefault(printer.relation(fact.text), []).append(name)
        _, _, extra = _induction(rule, printer, used_as(step, used, statements, proof), proof)
        if tuple(extra) not in seen:
            seen.add(tuple(extra))
            clauses += extra
    several = len(described) > 1
    facts: list[Piece] = []
    shown = list(owners.items())
    for k, (fact, by) in enumerate(shown):
        facts += [("text", ", " if facts else ", each with "), ("math", fact)]
        if several and (k + 1 == len(shown) or shown[k + 1][1] != by):
            facts.append(("text", f" ({', '.join(by)})"))
    whose = ", ".join(n for n, _, _ in described)
    return (("text", "For every run "), *start, *facts, *clauses,
            ("text", ", after "), ("math", printer.expression(first.variable)),
            ("text", f" updates (the runs of the induction{'s' if several else ''} "
                     f"{whose}, whose claim{'s' if several else ''} it rests on):")), \
        first.variable


def _form(relation: kernel.Rel) -> object:
    """A relation's kernel normal form (its fact and side conditions), the same for two
    texts of one relation; None where the kernel cannot read it."""
    try:
        return normal_form(relation, relation.text)
    except kernel.KernelError:
        return None


def read_sets(proof: Proof, texts: Iterable[str]) -> tuple[str, ...]:
    """The declared sets of `proof` (`[sets]`) that `texts` read (`sum(j in D, ...)`), in
    the order the proof declares them."""
    read = " ".join(texts)
    return tuple(name for name in proof.sets
                 if re.search(rf"\bin\s+{re.escape(name)}\b", read))


def defined_sets(proof: Proof, names: Iterable[str], printer: Printer) -> tuple[Piece, ...]:
    """The sets `names` of `proof` defined as the proof declares them, in words and
    formulas: `where D is the set of the integers j from 1 to n with F1 and F2` (no period:
    a claim inline puts it in parentheses). A theorem box showed `∑_{j ∈ D}` with D defined
    nowhere in the report (only in the proof file)."""
    pieces: list[Piece] = []
    for name in names:
        declared = proof.sets[name]
        pieces += [("text", "where " if not pieces else "; "),
                   ("math", printer.expression(name)),
                   ("text", " is the set of the integers "),
                   ("math", printer.expression(declared.index)), ("text", " from "),
                   ("math", printer.expression(declared.lo)), ("text", " to "),
                   ("math", printer.expression(declared.hi))]
        for k, condition in enumerate(declared.where):
            pieces += [("text", " with " if k == 0 else " and "),
                       ("math", printer.relation(condition))]
    return tuple(pieces)


def defined_names(proof: Proof, own: Sequence[str], printer: Printer
                  ) -> tuple[list[str], tuple[Piece, ...]]:
    """`own` (a step's own hypotheses, as texts) without the defining facts of the proof's
    `[define]` names, and those names defined in words and formulas: `l = max(0, −y g),
    given by l ≥ 0, l ≥ −y g and (l − 0)(l − (−y g)) = 0` (no `where`, no period).

    The checker adds a defined name's facts to the hypotheses of every step that reads it
    (`proofs.definitions`); shown among the step's *Given*, they read as assumptions its
    author made about an unexplained name, and a claim about `max(0, -y*g)` written with no
    hypothesis read as the tautology `l ≥ −y g ⊢ l ≥ −y g` (newcomer 29 F5: the definition
    appeared nowhere in the handout). Every fact is still shown, under the definition it
    comes from. A fact the author also wrote is the same fact: it is shown there too."""
    if not proof.definitions:
        return list(own), ()
    try:
        definitions = parse_definitions(proof.definitions, proof.names)
    except ProofFileError:  # not expected of a proof that was read; then shown as given
        return list(own), ()
    pieces: list[Piece] = []
    shown: set[str] = set()
    for definition in definitions:
        facts = [f.text for f in definition.facts if f.text in own]
        if not facts:
            continue
        shown.update(facts)
        if pieces:
            pieces.append(("text", "; "))
        pieces += [("math", printer.relation(f"{definition.name} == {definition.text}")),
                   ("text", ", given by ")]
        for k, fact in enumerate(facts):
            if k:
                pieces.append(("text", " and " if k == len(facts) - 1 else ", "))
            pieces.append(("math", printer.relation(fact)))
    return [text for text in own if text not in shown], tuple(pieces)


def _where(sets: tuple[Piece, ...], definitions: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """The sets a statement reads, then the names it reads defined: one `where` clause."""
    if not definitions:
        return sets
    return (*sets, ("text", "; " if sets else "where "), *definitions)


def statements_of(reports: Iterable[StepReport]) -> dict[str, kernel.Statement | None]:
    """The kernel's statements of `reports` by step id, with those of the term-wise lemmas
    each was decided with (`StepReport.termwise`): the `statements` a step's statement is
    typeset from, so that a fact a used step holds summed names the lemma summed."""
    return {r.step.id: r.statement for report in reports
            for r in (*report.termwise, report)}


def statement_text(report: StepReport,
                   statements: Mapping[str, kernel.Statement | None]) -> str:
    """`report`'s full statement as the kernel reads it (`StepReport.statement_text`: the
    kernel's own text), each inherited fact tagged as the typeset statement says where it
    comes from: `[c]` for what c brought as its claim or its own hypothesis, `[b (through
    c)]` for b's claim that c holds as a hypothesis (newcomer 19: `[squared-progress]` for
    progress's claim); a fact c holds summed keeps `[c]`, its text saying it is summed.
    `statements`: the kernel's statements of the proof's steps, by id (`statements_of`)."""
    stated = report.statement
    if stated is None:
        return report.statement_text
    tags = []
    for h, origin in zip(stated.hypotheses, stated.origins, strict=True):
        hypothesis, whose = _held(origin, h.text, set(), statements) if origin else (False,
                                                                                     None)
        summed = " summed over " in h.text
        tags.append(f"{whose} (through {origin})" if hypothesis and whose and not summed
                    else origin)
    return readable(str(replace(stated, origins=tuple(tags))))


def provenance(used: str, done: str, held: tuple[bool, str | None]) -> str:
    """Where an inherited fact comes from, in words that are true of it: `used` the step it
    comes through, `done` what the kernel did to it (`written`), `held` whether it is one of
    that step's own hypotheses (else its claim) and, if so, the step whose claim it is when
    that is known (`_held`). A used step's claim reads `c`; a hypothesis of c that no known
    step proves reads `c (its hypothesis)` (newcomer 23 L5: a given of c read as derived
    from c); a hypothesis c holds that is b's
    claim reads `b (through c)` (newcomer 19: `From squared-progress: <w, u> >= k*gam` named
    the step that passed on progress's claim as its source), and one c holds summed, where c
    was proved (a use c wrote, or a term-wise lemma the checker found for c), reads
    `c (its hypothesis: b's claim, summed)`, or without `b's claim` when the summed step is
    not known (red team 17 F2: it read as if c were summed); the sum itself, over what and
    with which filters, is the fact's formula (`written`)."""
    hypothesis, whose = held
    if not hypothesis:
        return used + done
    if SUMMED in done.lstrip(", ").split(", then "):
        claim = f": {whose}'s claim" if whose else ""
        return f"{used} (its hypothesis{claim}{done})"
    # a hypothesis of `used` that no known step proves: given there, not derived by it
    # (newcomer 23 L5: `from squared-lower-bound ||u||^2 = 1` read as its result)
    return f"{whose}{done} (through {used})" if whose else f"{used} (its hypothesis{done})"


def heading(used: str) -> tuple[str, str]:
    """How a report introduces an inherited fact (`provenance`'s words, `used`): `("From",
    used)`, but a hypothesis of the used step that no step proves, `c (its hypothesis)`, is
    an assumption of the theorem: `("Given as a hypothesis of", "c")` (newcomer 26: the
    margin `γ_u > 0` read 'From combine (its hypothesis)' among the derived facts)."""
    mark = " (its hypothesis)"
    return ("Given as a hypothesis of", used[:-len(mark)]) if used.endswith(mark) \
        else ("From", used)


def _held(used: str, text: str, claims: set[tuple[str, str]],
          statements: Mapping[str, kernel.Statement | None]) -> tuple[bool, str | None]:
    """Whether the fact `text` that the step `used` brought is one of `used`'s hypotheses
    (not its claim), and then the step whose claim it is, summed: followed through the
    statements of `statements` that hold it as a hypothesis, to the one that holds it as
    its claim (None when the trail leaves `statements` or ends at a statement's own
    hypothesis). `claims`: (step, claim) of each use the typesetter read; a step it did not
    read (a term-wise lemma a report's step was decided with) is asked of `statements`:
    a known statement without the fact among its hypotheses brought it as its claim, an
    unknown one is taken to hold it (so the fact is never called its claim unread). `text`
    may carry the substitutions of an instance (` [a := w]`), which the used statement's
    own hypothesis does not."""
    if (used, text) in claims:
        return False, None
    bare = {text}
    while text.endswith("]") and " [" in text:
        text = text.rpartition(" [")[0]
        bare.add(text)

    def holder(step: str) -> str | None:  # who brought the fact to `step` ('' its own);
        stated = statements.get(step)  # None: not among its hypotheses
        return None if stated is None else next(
            (o for h, o in zip(stated.hypotheses, stated.origins, strict=True) if h.text in bare),
            None)

    if used in statements and statements[used] is not None and holder(used) is None:
        return False, None  # the step's claim, summed where this step used it
    at, seen = used, set()
    while at not in seen and (held := holder(at)):
        seen.add(at)
        if statements.get(held) is not None and holder(held) is None:
            return True, held
        at = held
    return True, None


def _turnstile(printer: Printer, exists: tuple[str, ...]) -> list[str]:
    """`⊢`, or `⊢ ∃ B:` before a claim that some B exists (the kernel's `exists`)."""
    fmt = printer.fmt
    return [fmt.op("⊢"), *([fmt.exists([printer.expression(n) for n in exists])]
                           if exists else [])]


SUMMED = "summed"
"""The word for a fact a term-wise use brought (`written`): its formula says over what."""


def written(text: str, proof: Proof | None = None) -> tuple[str, str]:
    """A kernel relation's text apart: the relation to typeset, and what the kernel did to
    it as words for a label. The kernel writes the substitutions of instances after the
    text (`text [a := w, b := u]`, one bracket per instance): they read ` with a := w, b :=
    u`, and the relation is the text as written. It writes a term-wise use's fact bracketed
    (`(claim summed over j in lo..hi where F1, F2)`, one hypothesis in a list): that fact is
    the sum over the set of the claim's two sides' difference, and it is typeset so, never
    as the claim about one member (newcomer 21 H2: a handout showed `y_j<θ*, x_j> - γ >= 0`,
    j free, a statement the kernel never used): `sum(j in U, y[j]*dot(ts, x[j]) - gam) >= 0`,
    the set by its name when a set of `proof` (`[sets]`) reads exactly as the kernel's, else
    by its range with its filters under the sum (`sum(j in lo..hi, body, F1, F2)`, as
    `Printer` reads it); a strict claim sums to a weak one (`kernel.summed`: the set may be
    empty). The words then say `, summed` (`SUMMED`); instances and sums in order, joined
    by `, then`, nested sums once: ` with a := b, then summed, then with b := c`."""
    source, events = _apart(text, proof)
    words = ", then ".join(events)
    return source, (", " if events[0] == SUMMED else " ") + words if events else ""


def _apart(text: str, proof: Proof | None) -> tuple[str, list[str]]:
    """`written`'s relation, and its words as a list of events, inner first."""
    after: list[str] = []
    while text.endswith("]") and " [" in text:
        text, _, substitution = text.rpartition(" [")
        after.insert(0, "with " + as_source(substitution[:-1]))
    if not (text.startswith("(") and text.endswith(")") and " summed over " in text):
        return text, after
    body, _, over = text[1:-1].rpartition(" summed over ")  # the outermost sum is the last
    inner, events = _apart(body, proof)
    tree = _expr(inner)
    if not isinstance(tree, ast.Compare) or len(tree.ops) != 1:
        raise ValueError(f"{inner!r} is not one relation")
    index, _, rest = over.partition(" in ")
    bounds, _, where = rest.partition(" where ")
    lo, _, hi = bounds.partition("..")
    name = _declared(proof, index, over)
    members: ast.expr = (ast.Name(name) if name else
                         ast.BinOp(_expr(lo), ast.RShift(), _expr(hi)))
    filters = [] if name or not where else [_expr(f) for f in _top_level(where)]
    total = ast.Call(ast.Name("sum"), [ast.Compare(ast.Name(index), [ast.In()], [members]),
                                       _difference(tree), *filters], [])
    kind = type(tree.ops[0])
    if _zero(tree.left) and not _zero(tree.comparators[0]):  # `0 <= g`: the sum of g >= 0
        kind = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}.get(
            kind, kind)
    op = {ast.Eq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.LtE}.get(kind, ast.GtE)()
    source = ast.unparse(ast.Compare(total, [op], [ast.Constant(0)]))
    return source, [*events, *([] if events[-1:] == [SUMMED] else [SUMMED]), *after]


def _plain(text: str) -> str:
    """A relation's text as Python reads it (`lo..hi` as `>>`, as `Printer` reads it)."""
    return " ".join(text.split()).replace("..", ">>")


def _expr(text: str) -> ast.expr:
    return ast.parse(_plain(text), mode="eval").body


def _zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0


def _difference(relation: ast.Compare) -> ast.expr:
    """The term the kernel sums for `lhs (op) rhs`: `lhs - rhs`, or the side that is not 0."""
    left, right = relation.left, relation.comparators[0]
    if _zero(right):
        return left
    return right if _zero(left) else ast.BinOp(left, ast.Sub(), right)


def _top_level(text: str) -> list[str]:
    """`F1, F2` apart at the commas outside brackets (`dot(ts, x[j]) >= g, y[j] >= 0`)."""
    parts, depth, start = [], 0, 0
    for k, c in enumerate(text):
        depth += (c in "([") - (c in ")]")
        if c == "," and depth == 0:
            parts.append(text[start:k].strip())
            start = k + 1
    return [*parts, text[start:].strip()]


def _declared(proof: Proof | None, index: str, over: str) -> str | None:
    """The set of `proof` that a use `sum = "<index> in <set>"` reads as the kernel's sum
    `over` (`j in lo..hi where F1, F2`, the kernel's text, `kernel.summed`), if one does."""
    for name in (proof.sets if proof is not None else {}):
        try:
            [(j, lo, hi, filters)] = summations(Use("", over=f"{index} in {name}"), proof)
        except ProofFileError:  # a set whose conditions name the index: not this one
            continue
        where = " where " * bool(filters) + ", ".join(f.text for f in filters)
        if f"{j} in {lo}..{hi}{where}" == over:
            return name
    return None


def _rule(step: Step, printer: Printer, uses: tuple[UsedAs, ...],
          proof: Proof, fresh: Sequence[str] = ()) -> tuple[Piece, ...]:
    """An induction's run in words and formulas (with the invariants the kernel carries at
    every state and the one-update lemmas it assumes at each update, and `fresh`, its
    per-update naturals, natural at each update); a case split's cases."""
    rule = step.rule
    if isinstance(rule, CaseSplit):
        on = printer.expression(term_text(rule.on))
        if isinstance(rule.on, sympy.Symbol) and rule.on.name in proof.naturals_of(step):
            # newcomer 23 L5: "(> 0, = 0, < 0)" for a natural t listed a case that cannot
            # occur; the kernel still checks it, with t >= 0 among its hypotheses: vacuous
            kept = "> 0, = 0" if rule.zero_case else ">= 0"
            return (("text", "by cases on the sign of "), ("math", on),
                    ("text", f" ({kept}; the case < 0 is vacuous: "),
                    ("math", printer.fmt.natural(on)), ("text", "):"))
        cases = "> 0, = 0, < 0" if rule.zero_case else ">= 0, < 0"  # the kernel's cases
        return (("text", "by cases on the sign of "), ("math", on), ("text", f" ({cases}):"))
    if not isinstance(rule, Induction):
        return ()
    start, facts, clauses = _induction(rule, printer, uses, proof, fresh)
    return (("text", "for every run "), *start,
            *((("text", ", each with "), *facts) if facts else ()), *clauses,
            ("text", ", after "), ("math", printer.expression(rule.variable)),
            ("text", " updates:"))


def _induction(rule: Induction, printer: Printer, uses: tuple[UsedAs, ...], proof: Proof,
               fresh: Sequence[str] = ()) -> tuple[list[Piece], list[Piece], list[Piece]]:
    """An induction's runs in three parts: `from w = 0 of updates w ← w + y x`, its update
    facts (joined by commas; its per-update naturals `fresh` first, natural at each update),
    and what its one-update lemmas give at each update (their claims follow there from the
    update's facts, so are said as following, not as assumed) and the invariants it carries
    at every state (`uses`), each clause with its opening."""
    fmt = printer.fmt

    def assign(mapping: Mapping[str, Term], sign: str, key: str) -> list[Piece]:
        written = rule.written.get(key, {})  # the author's text where the file gave it
        pieces: list[Piece] = []
        for k, (name, term) in enumerate(mapping.items()):
            pieces += [("text", ", ")] if k else []
            # a zero term (`0*w`, the file's idiom for the zero vector) reads as 0
            text = written.get(name) or term_text(term) if term else "0"
            pieces.append(("math", fmt.row([printer.expression(name), fmt.op(sign),
                                            printer.expression(text)])))
        return pieces

    # the update facts are facts of each update, not the rule that makes one: "updating w ←
    # w + y x when y<u, x> >= g" read as the perceptron's update rule (newcomer 27, F3)
    start: list[Piece] = [("text", "from "), *assign(rule.base, "==", "base")]
    start += [("text", " of updates "), *assign(rule.step, "←", "step")]
    facts: list[Piece] = []
    each = [fmt.natural(printer.expression(n)) for n in fresh] + [
        printer.relation(fact.text) for fact in rule.hypotheses]
    for k, fact in enumerate(each):
        facts += [("text", ", ")] if k else []
        facts.append(("math", fact))
    # a one-update lemma's claim is no condition of the runs: the kernel admits the lemma only
    # where each of its hypotheses is a fact of the update, so its claim follows there from
    # the lemma; said right after those facts, as following from them (newcomer 34 N4: "at
    # each update also ..." read as one more fact every update was assumed to satisfy)
    clauses: list[Piece] = []
    for k, used in enumerate(u for u in uses if u.kind == "lemma"):
        source, substituted = written(used.statement.claim.text, proof)
        clauses += [("text", "; by the lemma " if k else ", and so at each update, by the lemma "),
                    ("text", f"{used.statement.step}{substituted}, "),
                    ("math", printer.relation(source))]
    for k, used in enumerate(u for u in uses if u.kind == "carried"):
        source, substituted = written(used.statement.claim.text, proof)
        clauses += [("text", ", " if k else ", where at every state "),
                    ("math", printer.relation(source)),
                    ("text", f" ({used.statement.step}{substituted})")]
    return start, facts, clauses
