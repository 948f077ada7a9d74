"""Proved steps as Coq theorems, proved by replaying our certificates (issue 18).

The exporter has one module per job: `statement` (what each theorem states, and the records
read from the checker), `replay` (certificates and facts), `rules` (the opening of a proof,
`uses`, case splits, direct steps) and `induction` (induction over finite runs). This module
is the door: `export_proof` exports every step of a proof, in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from proofs.step import Proof
from verify.coq.induction import Inductions
from verify.coq.statement import Exported, Run, proved_step

if TYPE_CHECKING:  # the checker's report, read here only
    from verify.proof_checker import StepReport

__all__ = ["Exported", "ProofExport", "Run", "export_proof"]

ProofExport = Inductions  # the whole exporter of one proof's Coq file


def export_proof(proof: Proof, reports: Iterable[StepReport],
                 assume: frozenset[str] = frozenset()) -> list[Exported]:
    """Every step of `proof`, in order: exported, or the reason it is not. The steps in
    `assume` keep their term-wise uses' claims at every member as premises (`Rules.step`)."""
    exporter = ProofExport(proof, assume)
    out = []
    for report in reports:
        proved = proved_step(report)
        step = report.step
        if proved is None:
            exported = Exported(step.id, None, reason="not proved by our kernel")
            exporter.done[step.id] = exported
        else:
            exported = exporter.step(proved)
        out.append(exported)
    return out
