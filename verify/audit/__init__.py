"""The audit, the main job: every built-in proof judged symbolically and numerically (`job`),
the JSON contract and terminal summary of its report (`report`), and what each proof cites.

`from verify.audit import run_audit` (and the report's datatypes) keep working from here.
"""

from verify.audit.job import Audit, ProofAudit, StepAudit, run_audit

__all__ = ["Audit", "ProofAudit", "StepAudit", "run_audit"]
