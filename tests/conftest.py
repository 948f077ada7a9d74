"""Shared test configuration: bounded, derandomized hypothesis profiles, the small audit
every audit, report and handout test reads (its documents, its handouts), and the Coq preamble
compiled once (`preamble_once`)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from verify.audit.job import Audit

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
# The bounded, reproducible profile is the default, so the README's test command is CI's.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: Tests that share something costly run on one pytest-xdist worker, so that it is made once
#: and not once per worker (pyproject.toml: `--dist loadgroup`): each group's test files, by
#: path prefix; every other test is sent on its own. Named here, by file, because pytest 9.2
#: no longer reads the test ids xdist 3.8 renames for its `xdist_group` marks.
GROUPS: dict[str, tuple[str, ...]] = {
    # the small audit and its documents (the fixtures below), the seed proofs' reports
    "small-audit": ("tests/test_verify/audit/test_audit.py",
                    "tests/test_verify/audit/test_audit_honest.py",
                    "tests/test_verify/render/test_render_handouts.py",
                    "tests/test_proofs/test_library_seeds.py"),
    # the preamble compiled once (`preamble_once`), the canonical proofs' exports
    "coq": ("tests/test_verify/coq/",),
    # every built-in proof's obligations
    "step-invariance": ("tests/test_verify/test_step_invariance.py",),
    # the red team's attacks, checked in one file once (`verdicts`, about 10 s): split over two
    # workers, each checked the whole file
    "finite-sums-redteam": ("tests/test_verify/sums/test_sums_redteam.py",),
    # the plug-in audits their module shares (`audited`: one per plug-in, about 2 s each)
    "plugin-ends": ("tests/test_verify/plugins/test_plugin_ends.py",),
    # the lecturer's margin proof, searched once (`_eta_margin`, ~3 s) for two tests
    "sign-products": ("tests/test_verify/test_prover_sign_products.py",),
    # their module's audits
    "render-documents": ("tests/test_verify/render/test_render_documents.py",),
    "audit-schema": ("tests/test_verify/audit/test_audit_schema.py",),
    # the unstated-facts file, checked once (`checked`, about 20 CPU-seconds) for its tests
    "unstated-facts": ("tests/test_verify/search/lemmas/test_lemmas_signs.py",),
    # what their module makes once (a module fixture or a cache), made on each worker that
    # ran one of its tests when the tests were sent one by one
    "sums-named": ("tests/test_verify/sums/test_sums_named.py",),
    "mutants": ("tests/test_verify/testing/test_testing_mutants.py",),
    "render-text": ("tests/test_verify/render/test_render_text.py",),
    "counterexample-names": ("tests/test_verify/audit/test_audit_counterexample_names.py",),
    "search-naturals": ("tests/test_verify/search/test_search_naturals.py",),
    "honest-texts": ("tests/test_verify/render/test_render_honest_texts.py",),
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """With `--dist loadgroup`: xdist's scheduler, the groups of `GROUPS` added. xdist sends
    the groups first (those with the most tests first), then the other tests one by one."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class Grouped(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((name for name, files in GROUPS.items() if nodeid.startswith(files)),
                        super()._split_scope(nodeid))

    return Grouped(config, log)


@pytest.fixture(scope="session")
def small_audit() -> Audit:
    """Every built-in proof with the small campaign (seed 3), made once per test process:
    the audit, report and handout tests read it (three modules each made their own)."""
    from verify.audit.job import run_audit

    return run_audit(budget="small", seed=3)


@pytest.fixture(scope="session")
def small_audit_documents(small_audit: Audit) -> dict[str, tuple[str, list[str]]]:
    """The small audit rendered whole in each format (`markdown`, `html`, `latex`), with the
    pieces that could not be rendered, made once: the honesty and handout tests read the
    same documents (each takes seconds to render)."""
    from verify.render import html, latex, markdown

    documents = {}
    for fmt, render in (("markdown", markdown.render), ("html", html.render),
                        ("latex", latex.render)):
        failures: list[str] = []
        documents[fmt] = render(small_audit, failures), failures
    return documents


@pytest.fixture(scope="session")
def small_audit_handouts(small_audit: Audit
                         ) -> Callable[[str], dict[str, tuple[str, list[str]]]]:
    """One built-in proof's part of the small audit (as `--only` gives it) rendered in each
    format, with the pieces that could not be rendered: made once per proof, on first use.
    The honesty and handout tests read the same handouts (about 1 s a proof)."""
    from verify.render import html, latex, markdown

    made: dict[str, dict[str, tuple[str, list[str]]]] = {}

    def handouts(proof_id: str) -> dict[str, tuple[str, list[str]]]:
        if proof_id not in made:
            alone = dataclasses.replace(small_audit, proofs=tuple(
                p for p in small_audit.proofs if p.id == proof_id))
            made[proof_id] = {}
            for fmt, render in (("markdown", markdown.render), ("html", html.render),
                                ("latex", latex.render)):
                failures: list[str] = []
                made[proof_id][fmt] = render(alone, failures), failures
        return made[proof_id]

    return handouts


@pytest.fixture
def preamble_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`export_and_check` compiles each project's `InnerProduct.v` through
    `tests/coq_preamble.py`: coqc runs on a text of it once per test process (about 1.5 s
    each time, some 35 times in the suite), every other file of the project as before."""
    from coq_preamble import FILE, compile_inner_product

    from verify.coq import build

    compile_file = build._run

    def run(executable: str, directory: Path, file: str) -> tuple[bool, str]:
        if file != FILE:
            return compile_file(executable, directory, file)
        done = compile_inner_product(directory, executable)
        return done.returncode == 0, (done.stderr + done.stdout).strip()

    monkeypatch.setattr(build, "_run", run)
