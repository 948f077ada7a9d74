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
    wall-clock time spent deciding it (reported, never deciding anything).
    """

    status: Status
    certificate: Certificate | None
    counterexample: Counterexample | None
    message: str
    seconds: float
    judgement: Judgement | None = None  # what the certificate proves, if fewer hypotheses

    def __post_init__(self) -> None:
        if (self.status == "proved") != (self.certificate is not None):
            raise ValueError("a proved verdict needs a certificate, and only it has one")
        if (self.status == "refuted") != (self.counterexample is not None):
            raise ValueError("a refuted verdict needs a counterexample, and only it has one")
