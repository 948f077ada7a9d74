"""Errors in proofs and proof files: one line naming the file, the step and the problem."""

from __future__ import annotations


class ProofFileError(ValueError):
    """A proof (file) that cannot be checked; the CLI prints it as one line, exit code 2.

    The message reads `FILE: step ID: problem`, leaving out the parts that are unknown, so a
    user can go straight to the offending step.
    """

    def __init__(self, problem: str, *, file: str | None = None, step: str | None = None) -> None:
        self.problem = " ".join(problem.split())
        self.file = file
        self.step = step
        where = [part for part in (file, f"step {step}" if step is not None else None) if part]
        super().__init__(": ".join([*where, self.problem]))

    def located(self, file: str) -> ProofFileError:
        """The same error, attributed to `file` (structure checks do not know the file)."""
        return ProofFileError(self.problem, file=file, step=self.step)
