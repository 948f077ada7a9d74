"""Each seed source's perceptron, as that source defines it (plain data for the engine).

The five seeds differ exactly where conventions matter: which margins trigger an update,
what `sign(0)` is, whether iterates are counted from 0 or 1, batch or online, and the step
size. `SOURCE_ALGORITHMS[id]` records each as written (the readings chosen for ambiguous or
garbled text are in `proofs/library/seeds/README.md`); `conventions()` turns one into the
engine's `perceptron.conventions.Conventions` so its claims are tested on its own iterates.

No SymPy here (docs/design.md §1): numbers only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from perceptron.conventions import Conventions

Mode = Literal["online", "batch"]
Step = Literal["constant", "optimal"]


@dataclass(frozen=True)
class SourceAlgorithm:
    """One source's algorithm.

    - `rule`: the update condition, in `Conventions` terms: `"le"` (y<w,x> <= 0), `"lt"`
      (y<w,x> < 0) or `"mistake"` (sign(<w,x>) != y with `sign(0) = sign_zero`).
    - `sign_zero`: the source's prediction at a zero score (`None`: the source leaves it
      undefined; the engine then uses +1, recorded in `reading`).
    - `first_index`: the source's index of the initial iterate (0: w_0 is initial and w_t
      follows t updates; 1: θ^(1) = 0 is initial and θ^(k+1) follows k updates).
    - `counts`: what the index counts, `"updates"` (mistakes) or `"examples"` (time).
    - `mode`: online (one example per update) or batch (sum over the misclassified set M_k).
    - `step`: `"constant"` with `eta`, or `"optimal"` (Chan's alpha_k = <θ*, x̄>/||x̄||^2,
      which needs the separator θ*).
    - `bias`: the source augments x with a constant 1 (the bias in θ).
    - `normalised`: the source assumes ||x_i|| <= 1 (its bounds carry no radius), so its runs
      are made on the data divided by a rational bound on max ||x_i||
      (`verify.runs.online.as_source_runs`); otherwise its steps would be tested outside their
      standing assumption.
    - `reading`: the choice made where the text is ambiguous, in one sentence.
    """

    id: str
    rule: str
    sign_zero: int | None
    first_index: int
    counts: Literal["updates", "examples"]
    mode: Mode
    step: Step = "constant"
    eta: Fraction = Fraction(1)
    bias: bool = False
    normalised: bool = False
    reading: str = ""

    def conventions(self) -> Conventions:
        """The engine's conventions for this source (sign(0) = +1 where the source is silent)."""
        sign_zero = 1 if self.sign_zero is None else self.sign_zero
        return Conventions(rule=self.rule, sign_zero=sign_zero, bias=self.bias, eta=self.eta)

    def engine_index(self, source_index: int) -> int:
        """The number of updates (or examples) behind the source's iterate `source_index`."""
        if source_index < self.first_index:
            first = self.first_index
            raise ValueError(f"{self.id} has no iterate {source_index} (first is {first})")
        return source_index - self.first_index


SOURCE_ALGORITHMS: dict[str, SourceAlgorithm] = {
    "chan-batch": SourceAlgorithm(
        id="chan-batch",
        rule="lt",
        sign_zero=None,
        first_index=0,
        counts="updates",
        mode="batch",
        step="optimal",
        bias=True,
        reading=(
            "M_k = {j : y_j g(x_j) < 0} as the algorithm slide writes it (strict), θ^(0) = 0 "
            "as the theorem says although the loop reads 'for k = 1, 2, ...'; batch step "
            "alpha_k = <θ*, x̄>/||x̄||^2 from the appendix (constant alpha_k = 1 also run)."
        ),
    ),
    "joeyonng-online": SourceAlgorithm(
        id="joeyonng-online",
        rule="le",
        sign_zero=None,
        first_index=1,
        counts="updates",
        mode="online",
        bias=True,
        reading=(
            "prediction read as sign(w^T x) (the text sets ŷ = w^T x); the decision rule is "
            "undefined at 0, so a tie is a mistake (update on y w^T x <= 0, else w = 0 never "
            "moves); ŵ_t makes the t-th mistake, so the initial vector is ŵ_1 (called ŵ_0 at "
            "the end of each chain)."
        ),
    ),
    "ng-cs229": SourceAlgorithm(
        id="ng-cs229",
        rule="mistake",
        sign_zero=1,
        first_index=1,
        counts="updates",
        mode="online",
        reading="g(z) = 1 for z >= 0; update when h_θ(x) != y; θ^(1) = 0 (weights at mistake 1).",
    ),
    "telgarsky-online": SourceAlgorithm(
        id="telgarsky-online",
        rule="le",
        sign_zero=1,
        first_index=0,
        counts="examples",
        mode="online",
        normalised=True,
        reading=(
            "w' = w + xy 1[<w, -xy> >= 0] (subgradient 1 at 0), w_0 = 0, w_i after example i; "
            "predictions 2*1[<w,x> >= 0] - 1 (sign(0) = +1) are counted separately from updates; "
            "the lecture's standing assumption ||x_i|| <= 1 holds (the data are normalised)."
        ),
    ),
    "virtue-online": SourceAlgorithm(
        id="virtue-online",
        rule="le",
        sign_zero=1,
        first_index=1,
        counts="updates",
        mode="online",
        reading=(
            "Algorithm 1 (Online) of the proof: update on y θ^(k).x <= 0, θ^(1) = 0; the "
            "worked example predicts positive iff w.x >= 0 (sign(0) = +1, same updates there)."
        ),
    ),
}

#: Variants the sources also state, for runs that compare them with the main reading.
SOURCE_VARIANTS: dict[str, SourceAlgorithm] = {
    "chan-batch/le": SourceAlgorithm(
        id="chan-batch/le", rule="le", sign_zero=None, first_index=0, counts="updates",
        mode="batch", step="optimal", bias=True,
        reading="the appendix's own condition y θ^T x <= 0 for j in M_k (the algorithm can start).",
    ),
    "chan-batch/online": SourceAlgorithm(
        id="chan-batch/online", rule="lt", sign_zero=None, first_index=0, counts="updates",
        mode="online", bias=True,
        reading="'online mode': one j from M_k per iteration (the slide picks it at random).",
    ),
    "virtue-online/algorithm-1-sign0": SourceAlgorithm(
        id="virtue-online/algorithm-1-sign0", rule="mistake", sign_zero=0, first_index=1,
        counts="updates", mode="online",
        reading="Algorithm 1 with the later slide's sign(0) = 0 (identical to the 'le' rule).",
    ),
    "virtue-online/worked-example": SourceAlgorithm(
        id="virtue-online/worked-example", rule="mistake", sign_zero=1, first_index=1,
        counts="updates", mode="online",
        reading="'predict positive iff w_t . x >= 0', update on a wrong prediction.",
    ),
}
