"""The mixed canonical sources' campaign results, pinned: a change made for speed (batching
runs, machine integers in place of Python ones, other bundling of shards) must leave every
verdict, count, least slack, counterexample and witness of the same seeds as it was.

The digest is of the results, never of timings; it was computed on main at 6da6e6f before
any change of the campaign's speed work (issue 30, target 2), and a change that alters it on
purpose (a new source, another distribution) says so and pins the new one.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from verify.numeric.campaign import (
    CampaignResult,
    canonical_checks,
    generated,
    run_campaign,
    tight,
    wrong_norm_growth,
)
from verify.numeric.executors import executor
from verify.numeric.shards import adversary_shards, generated_shards, run_sharded, tight_shards


def digest(result: CampaignResult) -> str:
    """sha256 of everything a campaign result says about its instances (not its seconds)."""
    doc = {
        "verdicts": [[check, source, v.status, v.instances, v.vacuous, v.violations,
                      str(v.min_slack), repr(v.counterexample), v.unevaluated, v.reason]
                     for (check, source), v in sorted(result.verdicts.items())],
        "runs": sorted(result.runs.items()),
        "witnesses": sorted((list(key), repr(scenario.origin))
                            for key, scenario in result.witnesses.items()),
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


#: The instances of the mixed sources below (a readable first check before the digest).
INSTANCES = 5769
#: `digest` of the mixed sources below: the first seeds of `benchmarks/campaign.py` part (2)
#: (generated 20000.., tight 30000.., adversary 40000..), fewer of them.
MIXED = "030885f16cd2f837a02e75e8ae5276b35db10811b377c99a82a7929e017103bb"
#: `digest` of the norm-growth step without its R2 term on tight and generated data: its
#: counterexamples (98 and 123 violations) and their witnesses.
WRONG = "92a7afcaebf4f5cd1dd298431e5d32e5396d9c25f91bfb532320d3f2a59cbdfe"


@pytest.mark.parametrize("per_task", [1, 3])
def test_mixed_sources_results_unchanged(per_task: int) -> None:
    """The same results in tasks of one shard and of three (`run_shards`' bundles)."""
    shards = (*generated_shards(20_000, 60), *tight_shards(30_000, 60),
              *adversary_shards(40_000, range(1, 6), 2))
    with executor(1, None) as pool:
        result, _ = run_sharded(canonical_checks(), shards, pool, per_task)
    assert result.instances == INSTANCES
    assert digest(result) == MIXED


def test_wrong_step_counterexamples_unchanged() -> None:
    """A violated step keeps the same first counterexample and witness per source."""
    result = run_campaign([wrong_norm_growth()], [("tight", tight(seed=8, count=20)),
                                                  ("generated", generated(seed=5, count=40))])
    assert any(v.violations for v in result.verdicts.values())
    assert digest(result) == WRONG
