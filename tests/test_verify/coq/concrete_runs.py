"""Concrete finite runs that instantiate the Coq theorems of inductions (issue 26, point 3).

An induction's Coq theorem is about runs of `N'` updates. That it is not vacuous (its
premises not contradictory, as they were when every index had to be an update) is shown by
applying it to a concrete run with at least one update and discharging every premise in Coq.

The model. `InnerProduct.v` axiomatises the space (`V`, `vadd`, `vscal`, `ip` are
parameters), and nothing can be computed in an abstract `V`: even `w 0 = vscal 0 (w 0)`, the
base of a run from the zero vector, is not provable there. So the exported proof files are
compiled a second time, unchanged, against `MODEL`: the same preamble with the four axioms
replaced by definitions on `R * R` (the Euclidean plane) and the axioms *proved* as lemmas.
The exported theorems then hold in the plane, where a run is a list of pairs of rationals and
each premise is closed arithmetic (`lra` after unfolding; no `nra`). A model of the axioms in
which the premises hold for a run that updates is what non-vacuity means.

The run. `find_run` draws small rationals (the plane's vectors from a few integer points) with
a seeded generator: the constants (positive scalars, nonzero vectors: where the theorem means
something) until the theorem's hypotheses hold, then each update's fresh values until its
facts hold, the iterated names following the `base` and `step` terms
exactly (`Fraction`). A family of the run (a constant `R -> V` or `R -> R`) is one drawn
value at every index, `fun _ : R => v`, so its members reduce by beta in Coq. A run is kept
only if an iterated value moves, so a run that updates nothing cannot pass for one that does.
"""

from __future__ import annotations

import atexit
import random
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import sympy
from coq_preamble import compile_inner_product

from proofs.step import Induction, Proof
from verify.coq.build import LOGICAL, ProofFile, module_names, write_project
from verify.coq.export import Exported, export_proof
from verify.coq.preamble import PREAMBLE
from verify.coq.printer import number
from verify.kernel import Rel, atoms, gram_pair

Value = Fraction | tuple[Fraction, Fraction]

AXIOMS = PREAMBLE[PREAMBLE.index("Parameter V"):PREAMBLE.index("Lemma ip_add_r")]
PLANE = r"""Definition V : Type := (R * R)%type.
Definition vadd (u v : V) : V := (fst u + fst v, snd u + snd v).
Definition vscal (r : R) (u : V) : V := (r * fst u, r * snd u).
Definition ip (u v : V) : R := fst u * fst v + snd u * snd v.

Lemma ip_sym : forall u v, ip u v = ip v u.
Proof. intros u v. unfold ip. ring. Qed.
Lemma ip_add_l : forall u v w, ip (vadd u v) w = ip u w + ip v w.
Proof. intros u v w. unfold ip, vadd. simpl. ring. Qed.
Lemma ip_scal_l : forall r u w, ip (vscal r u) w = r * ip u w.
Proof. intros r u w. unfold ip, vscal. simpl. ring. Qed.
Lemma ip_pos : forall v, 0 <= ip v v.
Proof. intros v. exact (Rplus_le_le_0_compat _ _ (Rle_0_sqr (fst v)) (Rle_0_sqr (snd v))). Qed.
"""
MODEL = PREAMBLE.replace(AXIOMS, PLANE)
assert MODEL != PREAMBLE, "the preamble's axioms were not found"

# a premise at the start (a hypothesis, a base equation) is closed arithmetic once unfolded;
# one over the updates is that at each n' < N' (and `lia` for the indices past the run)
TACTICS = r"""Require Import Lra Lia.

Ltac nv_fact := cbv beta iota fix delta [vadd vscal ip fst snd INR];
  match goal with |- (_, _) = (_, _) => f_equal; lra | _ => lra end.
"""

POINTS = [(Fraction(a), Fraction(b)) for a in (1, 0, -1, 2) for b in (0, 1, -1, 2)]
SCALARS = [Fraction(1), Fraction(2), Fraction(1, 2), Fraction(0), Fraction(-1)]
# a run's constants as the theory has them (a margin, a radius, a rate: positive; vectors
# nonzero): the premises must hold where the theorem means something, not only where a
# degenerate constant (gamma <= 0, a negative radius) makes them trivial
CONSTANT_POINTS = [p for p in POINTS if p != (0, 0)]
CONSTANT_SCALARS = [s for s in SCALARS if s > 0]


class Unevaluable(ValueError):
    """A relation this evaluator cannot read at a point (a division by zero, an odd term)."""


def _lookup(name: str, env: Mapping[str, Value]) -> Value:
    """A name's value, or a family member's: the family's (a run's family is one value at
    every index, so a member is read by beta reduction in Coq too)."""
    if name in env:
        return env[name]
    member = atoms.structure(sympy.Symbol(name))
    if not isinstance(member, atoms.Family):
        raise KeyError(name)
    return env[member.family]


def evaluate(expr: sympy.Expr, env: Mapping[str, Value]) -> Fraction:
    """`expr` (scalars, family members and Gram symbols `dot(a, b)`) at exact values."""
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    if expr.is_Symbol:
        pair = gram_pair(expr)
        if pair is None:
            value = _lookup(expr.name, env)
            assert isinstance(value, Fraction)
            return value
        a, b = (_lookup(n, env) for n in pair)
        assert isinstance(a, tuple) and isinstance(b, tuple)
        return a[0] * b[0] + a[1] * b[1]
    args = [evaluate(a, env) for a in expr.args]
    if expr.is_Add:
        return sum(args, Fraction(0))
    if expr.is_Mul:
        out = Fraction(1)
        for a in args:
            out *= a
        return out
    if expr.is_Pow and expr.exp.is_Integer:
        if args[0] == 0 and expr.exp < 0:
            raise Unevaluable("division by zero")
        return args[0] ** int(expr.exp)
    raise Unevaluable(f"cannot evaluate {expr}")


def holds(relation: Rel, env: Mapping[str, Value]) -> bool:
    """Whether `relation` holds at `env` (False where it cannot be evaluated)."""
    try:
        gap = evaluate(relation.lhs, env) - evaluate(relation.rhs, env)
    except (Unevaluable, KeyError):
        return False
    return {"<=": gap <= 0, "<": gap < 0, ">=": gap >= 0, ">": gap > 0, "==": gap == 0}[
        relation.op]


def term(value: object, env: Mapping[str, Value], vector: bool) -> Value:
    """An induction's base or update term at `env` (a vector as `{name: coefficient}`)."""
    if isinstance(value, Mapping):
        x, y = Fraction(0), Fraction(0)
        for n, c in value.items():
            v, k = _lookup(n, env), evaluate(c, env)
            assert isinstance(v, tuple)
            x, y = x + k * v[0], y + k * v[1]
        return (x, y)
    assert not vector
    return evaluate(value, env)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ConcreteRun:
    """A run of `length` updates: constants, and each sequence's values by index."""

    length: int
    constants: dict[str, Value]
    sequences: dict[str, list[Value]]
    families: frozenset[str] = frozenset()  # constants that are families: one value for all


def _draw(name: str, vectors: frozenset[str], naturals: frozenset[str],
          rng: random.Random, constant: bool = False) -> Value:
    if name in naturals:
        return Fraction(rng.randrange(3))
    if name in vectors:
        return rng.choice(CONSTANT_POINTS if constant else POINTS)
    return rng.choice(CONSTANT_SCALARS if constant else SCALARS)


def find_run(proof: Proof, exported: Exported, length: int, seed: int = 0,
             tries: int = 400) -> ConcreteRun | None:
    """A run of `length` updates satisfying the theorem's premises in the plane, or None."""
    run, rule = exported.run, proof.step(exported.step_id).rule
    assert run is not None and isinstance(rule, Induction)
    vectors = frozenset(proof.names.vectors)
    iterated = [*rule.base, *(k for k in rule.step if k not in rule.base)]
    fresh = [s for s in run.binders if s in run.sequences and s not in iterated]
    constants = [s for s in run.binders if s not in run.sequences]
    rng = random.Random(f"{exported.step_id}:{seed}")
    for _ in range(tries):
        const = {c: _draw(c, vectors, run.naturals, rng, True) for c in constants}
        if not all(holds(h, const) for h in run.hypotheses):
            continue
        env: dict[str, Value] = {**const, rule.variable: Fraction(0)}
        for k in iterated:
            env[k] = (term(rule.base[k], env, k in vectors) if k in rule.base
                      else _draw(k, vectors, run.naturals, rng))
        states = [dict(env)]
        drawn: list[dict[str, Value]] = []
        for index in range(length):
            for _ in range(tries):
                at = {**states[-1], rule.variable: Fraction(index),
                      **{s: _draw(s, vectors, run.naturals, rng) for s in fresh}}
                if all(holds(u, at) for u in run.update):
                    break
            else:
                break
            drawn.append({s: at[s] for s in fresh})
            states.append({**at, **{k: term(rule.step[k], at, k in vectors)
                                    for k in rule.step}})
        if len(drawn) < length or all(states[-1][k] == states[0][k] for k in iterated):
            continue
        sequences = {k: [s[k] for s in states] for k in iterated}
        sequences |= {s: [d[s] for d in drawn] or [Fraction(0)] for s in fresh}
        return ConcreteRun(length, const, sequences,
                           frozenset(proof.names.indexed) & set(constants))
    return None


def coq_value(value: Value, natural: bool) -> str:
    """A value in the plane's Coq: `(x, y)` for a vector, a real, or `k%nat`."""
    if isinstance(value, tuple):
        return f"(@pair R R {number(value[0])} {number(value[1])})"
    if natural:
        return f"{value.numerator}%nat"
    return number(value)


def coq_sequence(values: Sequence[Value], natural: bool) -> str:
    """A sequence over `nat` holding `values` (the last one past the end)."""
    cases = "".join(f"| {i}%nat => {coq_value(v, natural)} " for i, v in
                    enumerate(values[:-1]))
    return (f"(fun n : nat => match n with {cases}| _ => {coq_value(values[-1], natural)} "
            "end)")


def instance(module: str, exported: Exported, found: ConcreteRun) -> str:
    """The theorem (of the Coq module `module`) applied to the concrete run, every premise
    discharged by a tactic, and its invariant at the run's last state (`n' = N'`)."""
    run = exported.run
    assert run is not None and exported.theorem is not None
    args = [coq_sequence(found.sequences[b], b in run.naturals) if b in run.sequences
            else f"(fun _ : R => {coq_value(found.constants[b], False)})"
            if b in found.families else coq_value(found.constants[b], b in run.naturals)
            for b in run.binders]
    n = found.length
    at_start = len(run.hypotheses) + len(run.base)
    over_updates = len(run.step) + len(run.update)
    every = (f"ltac:(intros k' h'; do {n} (destruct k' as [|k']; [nv_fact|]); "
             "exfalso; lia)")
    proofs = ["ltac:(nv_fact)"] * at_start + [every] * over_updates
    name = f"run_{module}_{exported.theorem}"
    return (f"Definition {name} :=\n  {module}.{exported.theorem} {' '.join(args)} {n}%nat\n    "
            + "\n    ".join(proofs) + ".\n"
            f"Definition {name}_end := {name} {n}%nat (le_n {n}).\n")


#: coqc's outputs for a file, by the texts of the files compiled before it in its directory
#: and its own (what its `.vo` can depend on), kept from a compile that succeeded
_compiled: dict[tuple[tuple[str, str], ...], Path] = {}


def _outputs(file: str) -> list[str]:
    stem = file.removesuffix(".v")
    return [f"{stem}.vo", f"{stem}.vos", f"{stem}.vok", f"{stem}.glob"]


def coqc_in(directory: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """coqc each file in `directory` in order (`-R . Novikoff`), stopping at an error.

    A file whose text, and the texts of the files compiled before it in this call, were
    compiled so before in this process gets a copy of coqc's outputs, as the preamble does
    (`tests/coq_preamble.py`): the proof modules compiled against the plane once for the
    tests that apply their theorems to different runs."""
    done = subprocess.CompletedProcess[str]([], 0, "", "")
    chain: tuple[tuple[str, str], ...] = ()
    for file in files:
        chain += ((file, (directory / file).read_text(encoding="utf-8")),)
        kept = _compiled.get(chain)
        if kept is not None:
            for name in _outputs(file):
                if (kept / name).exists():
                    shutil.copyfile(kept / name, directory / name)
            continue
        if file == "InnerProduct.v":  # the same text compiled once (tests/coq_preamble.py)
            done = compile_inner_product(directory)
        else:
            done = subprocess.run(["coqc", "-R", ".", LOGICAL, file], cwd=directory,
                                  capture_output=True, text=True, check=False)
        if done.returncode:
            break
        if file != "Runs.v":  # a run's instances are each test's own
            kept = Path(tempfile.mkdtemp(prefix="novikoff-plane-"))
            atexit.register(shutil.rmtree, kept, True)
            for name in _outputs(file):
                if (directory / name).exists():
                    shutil.copyfile(directory / name, kept / name)
            _compiled[chain] = kept
    return done


def runs_file(modules: Sequence[str], instances: Sequence[str]) -> str:
    """`Runs.v`: the proof modules, the tactics, and each theorem applied to its run."""
    head = "Require Import Reals.\nRequire Import Novikoff.InnerProduct.\n" + "".join(
        f"Require Novikoff.{m}.\n" for m in modules) + "Open Scope R_scope.\n"
    return head + TACTICS + "\n" + "\n".join(instances)


def in_the_plane(directory: Path, proofs: Sequence[tuple[str, Proof, Sequence[object]]],
                 runs: Mapping[tuple[str, str], ConcreteRun]
                 ) -> subprocess.CompletedProcess[str]:
    """Export `proofs`, compile them against `MODEL`, then each induction `(proof id, step
    id)` of `runs` applied to its run; coqc's result for the last file."""
    files, instances = [], []
    modules = module_names([proof_id for proof_id, _, _ in proofs])  # as the export names them
    for (proof_id, proof, reports), module in zip(proofs, modules, strict=True):
        steps = export_proof(proof, reports)
        files.append(ProofFile(module, proof.title, tuple(steps)))
        instances += [instance(module, e, runs[(proof_id, e.step_id)]) for e in steps
                      if (proof_id, e.step_id) in runs]
    write_project(directory, files)
    (directory / "InnerProduct.v").write_text(MODEL, encoding="utf-8")
    (directory / "Runs.v").write_text(runs_file([f.module for f in files], instances),
                                      encoding="utf-8")
    return coqc_in(directory, "InnerProduct.v", *(f"{f.module}.v" for f in files), "Runs.v")
