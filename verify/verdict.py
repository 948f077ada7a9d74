"""The outcome of deciding one step: proved, refuted or unknown, with its evidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from verify.kernel import Certificate, Counterexample, Judgement

Status = Literal["proved", "refuted", "unknown"]


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

    def __post_init__(self) -> None:
        if (self.status == "proved") != ((self.certificate is None) != (self.halves is None)):
            raise ValueError("a proved verdict needs a certificate or two halves, and only it "
                             "has one")
        if self.halves is not None and any(
                h.certificate is None or h.judgement is None for h in self.halves):
            raise ValueError("each half is a certificate with the judgement it proves")
        if (self.status == "refuted") != (self.counterexample is not None):
            raise ValueError("a refuted verdict needs a counterexample, and only it has one")

    @property
    def pieces(self) -> tuple[tuple[Judgement | None, Certificate], ...]:
        """Each certificate with the judgement it proves (None: the one decided): one piece,
        or the two halves of an equality by antisymmetry; none unless proved."""
        if self.halves is not None:
            return tuple((h.judgement, h.certificate) for h in self.halves)  # type: ignore[misc]
        return () if self.certificate is None else ((self.judgement, self.certificate),)
