"""The outcome of deciding one step: proved, refuted or unknown, with its evidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from verify.kernel import Certificate, Counterexample, Judgement
from verify.typeset.indices import readable

Status = Literal["proved", "refuted", "unknown"]

#: What stopped a search short of a verdict (`Stop`): a count of the budget ran out
#: (`exhausted`), an LP or an SDP was over the size budget (`lp-over`: rows, columns and the
#: budget's two; `sdp-over`: unknowns and the budget's), an SDP's point could not be rounded
#: to exact rationals (`rounding`); a counterexample off the naturals that the naturals next
#: to it do not mend: none refutes and every natural was covered (`natural-only`), none was
#: found (`natural-none`), or one was and the kernel rejected it (`natural-rejected`); the
#: user's wall-clock cap (`--time-limit`) reached (`time-cap`: the clock, not the budget);
#: a positive factor would clear the claim if some of its atoms were known > 0 (`factor`:
#: `names` holds the factor, then those atoms; a certificate the kernel accepted with them);
#: a base's point where an invariant the induction carries fails at the start, so the kernel
#: refused it as a refutation (`carried-start`, red team 29 F2).
StopKind = Literal["exhausted", "lp-over", "sdp-over", "rounding", "natural-only",
                   "natural-none", "natural-rejected", "time-cap", "factor", "carried-start"]


@dataclass(frozen=True)
class Stop:
    """One thing that stopped a search short, carried with its unknown verdict: the advice
    (`verify.proof_checker._obstacle`) reads these, never the words of the message, where a
    claim's own text (a scalar named `exhausted`) once passed for a budget run out."""

    kind: StopKind
    sizes: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # a `factor`'s text, then its atoms not known > 0


@dataclass(frozen=True)
class Verdict:
    """`proved` carries a kernel-checked certificate, `refuted` a kernel-checked counterexample.

    `message` says what decided the step, or for `unknown` what was tried; `seconds` is the
    wall-clock time spent deciding it (reported, never deciding anything). An equality
    `g == 0` that is no combination of equalities may be proved by antisymmetry instead: then
    `halves` holds two proved verdicts, for `g >= 0` and `-g >= 0` (each with the judgement it
    proves), and the verdict itself has no certificate (`kernel.conclude`'s four-item
    evidence).
    """

    status: Status
    certificate: Certificate | None
    counterexample: Counterexample | None
    message: str
    seconds: float
    judgement: Judgement | None = None  # what the certificate proves, if fewer hypotheses
    halves: tuple[Verdict, Verdict] | None = None  # g >= 0 and -g >= 0, for g == 0
    stops: tuple[Stop, ...] = ()  # what stopped the search short (an unknown's)

    def __post_init__(self) -> None:
        if (self.status == "proved") != ((self.certificate is None) != (self.halves is None)):
            raise ValueError("a proved verdict needs a certificate or two halves, and only it "
                             "has one")
        if self.halves is not None and any(
                h.certificate is None or h.judgement is None for h in self.halves):
            raise ValueError("each half is a certificate with the judgement it proves")
        if (self.status == "refuted") != (self.counterexample is not None):
            raise ValueError("a refuted verdict needs a counterexample, and only it has one")
        # a message names sums as a proof file writes them, never by the kernel's `#1`
        object.__setattr__(self, "message", readable(self.message))

    @property
    def pieces(self) -> tuple[tuple[Judgement | None, Certificate], ...]:
        """Each certificate with the judgement it proves (None: the one decided): one piece,
        or the two halves of an equality by antisymmetry; none unless proved."""
        if self.halves is not None:
            return tuple((h.judgement, h.certificate) for h in self.halves)  # type: ignore[misc]
        return () if self.certificate is None else ((self.judgement, self.certificate),)
