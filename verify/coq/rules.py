"""Structural rules in Coq: the opening of a proof, `uses`, case splits, direct steps.

Every exported proof opens the same way (`intros` of its variables and premises, a natural as
a `nat` read as the real `INR t` with `0 <= INR t` from `pos_INR`). `uses` applies the used
step's theorem, and an instance (`with`) applies it to the substituted terms; a step that
imports an instance's substituted premises through other steps applies the instance again, so
its substituted claim is derived there too. An existential claim is proved by `exists` of the
witness and destructed where it is used. A case split destructs the trichotomy (a
disjunction) and replays each case. An induction is handed to `induction`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import suppress
from dataclasses import replace

import sympy

from proofs.errors import ProofFileError
from proofs.language.expressions import ExpressionError
from proofs.step import CaseSplit, Direct, Induction, Step
from verify.coq.printer import (
    Written,
    bound_names,
    has_atoms,
    ident,
    kernel_relation,
    name,
    written_with_sums,
)
from verify.coq.replay import Script, nat_fact
from verify.coq.statement import (
    Exported,
    Goal,
    ProvedStep,
    Statements,
    Termwise,
    Unsupported,
    comment,
    term_names,
)
from verify.coq.sums import members, named
from verify.coq.sums.termwise import derive, of_use, premise
from verify.coq.sums.termwise import names as termwise_names
from verify.coq.sums.vectorsums import declare_written
from verify.kernel import KernelError, Rel, gram_pair


class Rules(Statements):
    """The proofs of direct steps and case splits, and the opening every proof shares."""

    def step(self, proved: ProvedStep) -> Exported:
        """Export one proved step (or record why it cannot be).

        A step with term-wise uses derives each used claim at every member from the used
        step's theorem (`verify.coq.sums.members`) unless it is in `assume`; if the step
        cannot be exported so, it is exported with those claims as premises instead."""
        deriving = proved.step.id not in self.assume
        try:
            exported = self._step(proved, deriving)
        except (Unsupported, ExpressionError, KernelError) as error:
            exported = Exported(proved.step.id, None, reason=str(error))
            if deriving and self.planned:  # the premises kept instead (else the first
                with suppress(Unsupported, ExpressionError, KernelError):  # reason stands)
                    exported = self._step(proved, False)
        exported.statement = proved.statement
        if exported.theorem is not None:
            exported.assumed = self.unexported(proved)
        self.done[proved.step.id] = exported
        return exported

    def unexported(self, proved: ProvedStep) -> tuple[str, ...]:
        """The steps this one uses whose theorems are not exported (plainly, transitively,
        or by an instance): their claims are premises of its theorem, assumed there."""
        used = [*self.imported(proved.step, proved.statement),
                *(u for u, _ in proved.instances)]
        return tuple(dict.fromkeys(
            s for s in used if (e := self.done.get(s)) is None or e.theorem is None))

    def _step(self, proved: ProvedStep, deriving: bool) -> Exported:
        step, st = proved.step, proved.statement
        self.planned = False  # whether it derives a premise at every member (`step`)
        exists = tuple(getattr(st, "exists", ()))
        if set(exists) != set(proved.witness):
            raise Unsupported(f"the claim says some {', '.join(exists)} exist; the witness "
                              f"names {', '.join(sorted(proved.witness)) or 'none'}")
        derived = self.derivable(step, st)
        applications: list[tuple[str, Mapping[str, object]]] = [(s, {}) for s in derived]
        # a substituted premise of this statement, printed from its original text
        printed: dict[Rel, tuple[Rel, Mapping[str, object]]] = {}
        claims = {self.done[s].claim for s in derived}
        lemmas = self.lemmas(step, st)  # an induction's: applied in its step lemma only
        instances = [i for i in proved.instances if i not in lemmas]
        for s in self.imported(step, st):  # an instance an imported step applies, applied here
            if (e := self.done.get(s)) is not None:  # too: its claim is imported with it
                instances += [i for i in e.instances if i not in instances]
        own: list[tuple[str, Mapping[str, object]]] = []
        for used_id, substitution in instances:
            used = self.done.get(used_id)
            if used is None or used.claim is None:
                continue  # not exported: its substituted statement stays assumed
            if (used_id, substitution) in proved.instances:
                own.append((used_id, substitution))
            hyps, claim = self.substituted(used_id, substitution)
            for original, relation in zip((*used.hypotheses, used.claim), (*hyps, claim),
                                          strict=True):
                # a relation the used step inherited from an instance, left as it is (the
                # kernel substitutes no name an inherited hypothesis reads): printed as there
                kept = (relation.lhs, relation.rhs) == (original.lhs, original.rhs)
                printed[relation] = (used.printed[original] if kept and original in used.printed
                                     else (original, substitution))
            claims.add(claim)
            applications.append((used_id, substitution))
        self.inherit(step, st, printed)
        given = {h for h, o in zip(st.hypotheses, st.origins, strict=True) if not o}
        derived_claims = claims - given  # type: ignore[operator]
        hypotheses = tuple(h for h in st.hypotheses if h not in derived_claims)
        termwise = self.termwise(step, hypotheses)
        main = [g for g in proved.goals if g.obligation.written is not None]
        sides = [g for g in proved.goals if g.obligation.written is None]
        theorem = ident(step.id)
        header = f"(* {comment(step.id)}: {comment(str(st))} *)\n"
        if isinstance(step.rule, Induction):
            return self.induction(proved, hypotheses, applications, derived_claims, main,
                                  sides, header, printed, tuple(own), lemmas)
        naturals = st.naturals | {  # the bounds of a sum printed from its text
            n for r in (*st.hypotheses, st.claim) for n in bound_names(r, self.proof.names)
            if n in self.proof.naturals}
        split = term_names(step.rule.on) if isinstance(step.rule, CaseSplit) else set()
        for term in (*proved.witness.values(), *(
                t for _, substitution in proved.instances for t in substitution.values())):
            split |= term_names(term)
        local = set(exists) | {n for s in derived for n in self.done[s].exists}  # destructed
        for summation in termwise.values():  # the premise in its place reads the claim
            split |= termwise_names(self.proof, summation)
        for relation in printed:  # its text (`... [a := w]`) is not source: read its terms
            split |= {n for side in (relation.lhs, relation.rhs) for sym in side.free_symbols
                      for n in gram_pair(sym) or (sym.name,)}
        stated = [r for r in (*st.hypotheses, st.claim) if r not in printed]
        variables = [v for v in self.variables(stated, split, naturals=naturals)
                     if v not in local]
        names = {h: f"hyp'{i}" for i, h in enumerate(hypotheses)}
        derivations = self.derivations(termwise, (set(hypotheses) | derived_claims) - set(
            termwise), variables, naturals) if deriving else {}
        self.planned = bool(derivations)
        vectors = [v for v in variables if v in self.proof.names.vectors
                   and v not in self.proof.names.indexed]
        script = Script(self.proof, vectors, {h: n for h, n in names.items() if h not in termwise},
                        {g.obligation.judgement.claim: g for g in sides})
        script.quantified = {h: names[h] for h in termwise if h not in derivations}
        script.note_goals(proved.goals)
        script.by_case = {(g.obligation.label.partition(": sum rule")[0],
                           g.obligation.judgement.claim): g
                          for g in sides if ": sum rule" in g.obligation.label}
        script.sums = any(has_atoms(Rel(f.expr, ">=", sympy.Integer(0), "")) for g in proved.goals
                          for f in (*g.obligation.judgement.hypotheses,
                                    g.obligation.judgement.claim))
        intros = self.introduce(script, variables, naturals,
                                [n for h, n in names.items() if h not in derivations],
                                applications, derived_claims, vectors,
                                derivations={names[h]: d for h, d in derivations.items()})
        declare_written(script, (*hypotheses, st.claim))  # sums of vectors as written
        named.declare(script, step.named, proved.goals)  # sums of vectors named as vectors
        for relation, summation in termwise.items():  # each summed claim, re-derived
            script.hyps[relation] = derive(self.proof, script, summation, relation,
                                           names[relation])
        if isinstance(step.rule, Direct):
            if len(main) != 1:
                raise Unsupported(f"{len(main)} main obligations for a direct step")
            claim_fact = main[0].obligation.judgement.claim
            label = script.replay(main[0])
        elif isinstance(step.rule, CaseSplit):
            claim_fact = main[0].obligation.judgement.claim
            label = self.cases(script, step.rule, main)
        else:
            raise Unsupported(f"rule {type(step.rule).__name__}")
        claim = st.claim
        if exists:  # the goal becomes the claim at the witness: the obligation's claim
            script.emit("exists " + ", ".join(
                self.coq_term(proved.witness[n], n, vectors, {}, script.nat) for n in exists)
                + ".")
            claim = main[0].obligation.written[1]  # type: ignore[index]
        script.conclude(claim, label, claim_fact)
        as_real = {n: f"(INR {name(n)})" for n in intros}
        shown = Written(self.proof.names, as_real)

        def text(relation: Rel) -> str:
            if relation in termwise:
                return premise(self.proof, termwise[relation], as_real,
                               {n: name(n) for n in intros})
            parts = (self.instance_text(printed[relation], vectors, as_real)
                     if relation in printed else shown.relation(relation))
            if parts is None and has_atoms(relation):  # its sums: the kernel's reading
                parts = kernel_relation(relation, as_real, {n: name(n) for n in intros})
            if parts is None and written_with_sums(relation):  # e.g. a sum inside a sum
                raise Unsupported(
                    f"{relation.text!r} cannot be stated in Coq yet: its sums cancel in the "
                    f"kernel's reading, which leaves {relation.lhs} {relation.op} "
                    f"{relation.rhs}; the export states sums as the kernel reads them, and "
                    "prints none from the text (a sum of vectors has no Coq form yet)")
            if parts is None:
                raise Unsupported(f"{relation.text!r} cannot be stated in Coq yet (it has "
                                  "no source text to print)")
            return " ".join(parts)

        premises = tuple(h for h in hypotheses if h not in derivations)
        body = "".join(f"{text(h)} ->\n    " for h in premises)
        conclusion = text(st.claim)
        if exists:
            binders = self.binder(exists).removeprefix("forall ").removesuffix(",")
            conclusion = f"exists {binders}, {conclusion}"
        statement = f"{self.binder(variables, naturals)}\n    {body}{conclusion}"
        out = (f"{header}Theorem {theorem} : {statement}.\nProof.\n"
               + "\n".join(script.lines) + "\nQed.\n")
        return Exported(step.id, theorem, out, hypotheses=premises,
                        variables=tuple(variables), naturals=naturals, claim=st.claim,
                        exists=exists, printed=printed, instances=tuple(own),
                        termwise=termwise, derived=frozenset(derivations))

    def derivations(self, termwise: Mapping[Rel, Termwise], kept: Collection[Rel],
                    variables: Sequence[str], naturals: frozenset[str]
                    ) -> dict[Rel, members.Derivation]:
        """The premises at every member (`termwise`) this step derives from their used
        steps' theorems (`members.plan`; `kept` the relations its opening puts in context,
        `variables` its binders, those in `naturals` bound as `nat`); any other stays a
        premise, and its line says it is assumed."""
        out = {}
        bound = frozenset(variables)
        for relation, summation in termwise.items():
            try:
                out[relation] = members.plan(relation, summation, self.done.get(summation.used),
                                             kept, bound, naturals & bound)
            except (Unsupported, KernelError):
                continue  # stays a premise (and the line says so)
        return out

    def termwise(self, step: Step, hypotheses: Sequence[Rel]) -> dict[Rel, Termwise]:
        """The premises stated as a used claim quantified over a set's members: the summed
        claims of this step's term-wise uses and of those its used steps state so.

        Each is derived as the first step that sums the claim does it (`self.summed`), but
        named by the step this one uses (its own use's, or its used step's): two found lemmas
        may have one claim, and the report names the step the kernel's statement names."""
        own: dict[Rel, Termwise] = {}
        for use in step.uses:
            used = self.done.get(use.step)
            if used is None:
                continue
            if not use.over:
                for relation, summation in used.termwise.items():
                    own.setdefault(relation, summation)
            elif used.statement is not None:
                try:
                    claim, summation = of_use(used.statement, use, self.proof)
                except (KernelError, ProofFileError, Unsupported):
                    continue  # stays a premise as the kernel states it (and says so)
                self.summed.setdefault(claim, summation)
                own[claim] = replace(self.summed[claim], used=use.step)
        return {h: own.get(h, self.summed[h]) for h in hypotheses if h in self.summed}

    def introduce(self, script: Script, variables: Sequence[str], naturals: frozenset[str],
                  premises: list[str], applications: Sequence[tuple[str, Mapping[str, object]]],
                  claims: set[Rel], zero_by: Sequence[str],
                  early: Callable[[dict[str, str], dict[str, str]], Collection[str]]
                  | None = None,
                  derivations: Mapping[str, members.Derivation] | None = None
                  ) -> dict[str, str]:
        """The opening of every exported proof (a direct step's, an induction lemma's): `intros`
        of its variables (a natural by a fresh `nat` name) and `premises`, the used theorems
        applied (`apply_uses`; a zero vector written by one of `zero_by`), then each natural
        read as the real `INR n` from there on, its `0 <= n` from `pos_INR` among the facts.
        `early` applies more theorems while the naturals are their `nat`s and returns those
        naturals a theorem applied after the opening takes: each keeps its equation `n = INR
        nat` (`Script.real_of`), since `clearbody` alone would make the two unrelated.
        `derivations` (by label) assert premises at every member among the applications
        (`apply_uses`). Returns each natural's `nat` name."""
        intros = {v: f"nat'{i}" for i, v in enumerate(v for v in variables if v in naturals)}
        script.nat = dict(intros)
        script.emit("intros " + " ".join([intros.get(v, name(v)) for v in variables]
                                         + premises) + ".")
        in_proof = {n: f"(INR {nat})" for n, nat in intros.items()}
        self.apply_uses(script, applications, claims, intros,
                        lambda term, zero: self.coq_term(term, zero, zero_by, in_proof,
                                                         intros), derivations)
        kept = early(intros, in_proof) if early is not None else ()
        for natural, nat in intros.items():
            fact = script.new("natge")
            script.emit(f"pose proof (pos_INR {nat}) as {fact}. "
                        f"set ({name(natural)} := INR {nat}) in *.")
            if script.sums:  # a bound of a sum reads it as an integer: say which real it is
                script.integral[natural] = script.new("zn")
                script.emit(f"assert ({script.integral[natural]} : IZR (Z.of_nat {nat}) = "
                            f"{name(natural)}) by (unfold {name(natural)}; symmetry; "
                            "apply INR_IZR_INZ).")
            if natural in kept:
                script.real_of[natural] = script.new("real")
                script.emit(f"assert ({script.real_of[natural]} : {name(natural)} = INR {nat}) "
                            "by reflexivity.")
            script.emit(f"clearbody {name(natural)}.")
            script.facts[nat_fact(natural)] = fact
        return intros

    def apply_uses(self, script: Script,
                   applications: Sequence[tuple[str, Mapping[str, object]]],
                   claims: set[Rel], intros: dict[str, str],
                   term: Callable[[object, str], str] | None = None,
                   derivations: Mapping[str, members.Derivation] | None = None) -> None:
        """`pose proof` of each used theorem, instantiated with this step's names (a
        natural by its `nat`, before it is replaced by the real `INR t`), or with the terms
        of its substitution; an existential claim is destructed into its witness's names.
        A theorem is applied once its premises are in context (one may need another's
        claim), until none is left to apply; so is each of `derivations` asserted, a
        premise at every member by its label (`members.Derivation.emit`): a used theorem
        that still takes it as a premise is applied after it."""
        pending = list(applications)
        waiting = dict(derivations or {})
        while pending or waiting:
            progress = False
            for label, derivation in list(waiting.items()):
                if derivation.ready(script):
                    derivation.emit(self.proof, script, label, intros)
                    del waiting[label]
                    progress = True
            left = []
            for used_id, substitution in pending:
                if not self.apply(script, used_id, substitution, claims, intros, term):
                    left.append((used_id, substitution))
            if not progress and len(left) == len(pending) and not left:
                derivation = next(iter(waiting.values()))
                missing = next((h.text for h in derivation.needs() if h not in script.hyps),
                               "a premise")
                raise Unsupported(f"deriving the claim of {derivation.termwise.used} at every "
                                  f"member needs {missing!r}")
            if not progress and len(left) == len(pending):
                used_id, substitution = left[0]
                used = self.done[used_id]
                hypotheses = (self.substituted(used_id, substitution)[0] if substitution
                              else used.hypotheses)
                missing = next((h.text for h in hypotheses if h not in (  # as `apply` reads
                    script.quantified if h in used.termwise else script.hyps)), "a premise")
                raise Unsupported(f"applying {used_id} needs {missing!r}")
            pending = left

    def apply(self, script: Script, used_id: str, substitution: Mapping[str, object],
              claims: set[Rel], intros: dict[str, str],
              term: Callable[[object, str], str] | None) -> bool:
        """Apply one used theorem (see `apply_uses`); False while a premise is missing."""
        used = self.done[used_id]
        hypotheses, claim = used.hypotheses, used.claim
        if substitution:
            if used.termwise:
                raise Unsupported(f"an instance of {used_id}, which states a term-wise "
                                  "premise, is not exported yet")
            hypotheses, claim = self.substituted(used_id, substitution)
        if claim not in claims or claim in script.hyps:
            return True
        renamed = {v: str(t) for v, t in substitution.items() if v in used.naturals}
        if any((renamed.get(v, v) in intros) != (v in used.naturals) for v in used.variables):
            raise Unsupported(f"{used_id} binds a name as a natural where this step does not "
                              "(or the reverse)")
        if any(h not in (script.quantified if h in used.termwise else script.hyps)
               for h in hypotheses):
            return False
        args = []
        for v in used.variables:
            if v in renamed:
                args.append(intros[renamed[v]])
            elif v in substitution:
                assert term is not None
                args.append(term(substitution[v], v))
            else:
                args.append(intros.get(v, name(v)))
        premises = [script.quantified[h] if h in used.termwise else script.hyps[h]
                    for h in hypotheses]
        label = script.new("use")
        # a natural made the opaque real `n` since (`introduce`): the theorem, which reads
        # it as `INR nat`, is brought to `n` by their kept equation before its premises,
        # which read `n` as every premise in context does, are given to it (`try`: a natural
        # the theorem reads only in a sum's bound, `Z.of_nat nat`, has no `INR` to rewrite)
        reals = [script.real_of[n] for v in used.variables
                 if (n := renamed.get(v, v)) in intros and n in script.real_of]
        if reals:
            script.emit(f"pose proof ({used.theorem} {' '.join(args)}) as {label}.")
            script.emit(" ".join(f"try rewrite <- {eq} in {label}." for eq in dict.fromkeys(reals)))
            if premises:
                script.emit(f"specialize ({label} {' '.join(premises)}).")
        else:
            script.emit(f"pose proof ({used.theorem} {' '.join([*args, *premises])}) as "
                        f"{label}.")
        if used.exists:
            pattern = label
            for n in reversed(used.exists):
                pattern = f"[{name(n)} {pattern}]"
            script.emit(f"destruct {label} as {pattern}.")
        script.hyps[claim] = label  # type: ignore[index]
        return True

    def cases(self, script: Script, rule: CaseSplit, goals: list[Goal]) -> str:
        """Destruct the trichotomy (or dichotomy) of the split polynomial; replay each case."""
        claim = goals[0].obligation.judgement.claim
        cases = [g.obligation.written[0][-1] for g in goals]  # type: ignore[index]
        ops = [c.op for c in cases]
        if ops != ([">", "==", "<"] if rule.zero_case else [">=", "<"]):
            raise Unsupported(f"cases {ops} are not the trichotomy (or dichotomy) in order")
        on = script.relation_text(cases[0])[0]
        lemma = "trichotomy" if rule.zero_case else "dichotomy"
        pattern = "[case' | [case' | case']]" if rule.zero_case else "[case' | case']"
        label = script.new("g")
        script.emit(f"assert ({label} : {script.prop(claim)}).")
        script.emit(f"{{ destruct ({lemma} {on}) as {pattern}.")
        for case, goal in zip(cases, goals, strict=True):
            saved = (dict(script.facts), dict(script.hyps), set(script.nonzero), script.indent)
            script.hyps[case] = "case'"
            script.case = goal.obligation.label
            script.emit(f"- (* case {comment(case.text)} *)")
            script.indent += "  "
            inner = script.replay(goal)
            script.emit(f"exact {inner}.")
            script.facts, script.hyps, script.nonzero, script.indent = saved
        script.case = ""
        script.emit("}")
        script.facts[claim] = label
        return label

    def induction(self, proved: ProvedStep, hypotheses: tuple[Rel, ...],
                  applications: list[tuple[str, Mapping[str, object]]], derived_claims: set[Rel],
                  main: list[Goal], sides: list[Goal], header: str,
                  printed: dict[Rel, tuple[Rel, Mapping[str, object]]],
                  instances: tuple[tuple[str, Mapping[str, object]], ...],
                  lemmas: list[tuple[str, Mapping[str, object]]]) -> Exported:
        """An induction over runs: exported by `induction.Inductions`, which overrides this."""
        raise Unsupported("induction over runs")
