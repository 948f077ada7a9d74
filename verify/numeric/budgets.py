"""Campaign budgets: how many adversarial runs each source contributes to an audit.

Kept apart from `verify.audit.job` so the command line can list the budgets without loading the
machinery that runs them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verify.runs.quantity import Scenario

#: The most updates (an online run's) and iterations (a batch run's) all of one plug-in's
#: runs may make in one audit, by default (`verify.runs.plugin.Plugin.work`,
#: `--max-plugin-updates`): a budget of work, never of seconds, so that where it cuts is the
#: same on any machine under any load (counted in shard order: `verify.numeric.shards.merge`).
#: The per-call guards bound one call, not an audit: a plug-in that rarely converges (the
#: label forgotten in its test, newcomer 24) made runs of `verify.runs.plugin.MAX_UPDATES`
#: updates each on many scenarios and kept a default audit busy for 29 minutes (24.5
#: CPU-minutes, 61.9 M instances).
#: The correct margin perceptron makes 14 971 updates in that audit (446 runs); this is about
#: 13 times that, about a minute of a buggy plug-in's audit on two cores (2026-11-28).
PLUGIN_WORK = 200_000

#: The most processes an audit runs its proofs and shards in: `--jobs` and
#: `audit_proofs(jobs=...)` alike (red team 32: the API took 300 where the command line
#: refused more than 256).
MAX_JOBS = 256


@dataclass(frozen=True)
class Budget:
    """Campaign sizes: how many runs each adversarial source contributes."""

    generated: int
    tight: int
    adversary_bounds: int
    orders: int
    real: int = 0  # orders per real dataset (file order first); 0: no real source
    unit_margin: int = 0  # seeds of long runs on integer data at margin 1 (numeric.unit_margin)
    orthonormal: int = 0  # orthonormal families labelled +1 (numeric.orthonormal), tightness
    passes: int = 0  # single passes per planted family (numeric.passes: noisy, adversarial, tight)
    prefix_orders: int = 0  # orders per real dataset read by prefix (numeric.passes)
    # cyclic runs (numeric.epochs, issue 31): planted separable data, data that are not
    # separable (short runs, and long ones of 10^4 epochs), the families tight at every margin
    separable_epochs: int = 0
    inseparable: int = 0
    inseparable_long: int = 0
    margin_families: int = 0

    def sources(self, seed: int) -> dict[str, Iterable[Scenario]]:
        """The seeded sources of this budget (the seed is printed in every origin)."""
        from verify.numeric import campaign

        sources: dict[str, Iterable[Scenario]] = {
            "generated": campaign.generated(seed, self.generated),
            "tight": campaign.tight(seed, self.tight),
            "adversary": campaign.adversary(
                seed, tuple(range(1, self.adversary_bounds + 1)), sweeps=1
            ),
        }
        if self.orders:
            sources["orders"] = campaign.orders(seed, self.orders)
        if self.real:
            sources["real"] = campaign.real(seed, self.real)
        if self.unit_margin:
            from verify.numeric.unit_margin import unit_margin

            sources["unit-margin"] = unit_margin(seed, self.unit_margin)
        if self.orthonormal:
            from verify.numeric.orthonormal import orthonormal_positive

            sources["orthonormal"] = orthonormal_positive(seed, self.orthonormal)
        from verify.numeric import epochs

        for name, count, make in (("separable-epochs", self.separable_epochs,
                                   epochs.separable_epochs),
                                  ("inseparable", self.inseparable, epochs.inseparable),
                                  ("inseparable-long", self.inseparable_long,
                                   epochs.inseparable_long),
                                  ("margin-family", self.margin_families,
                                   epochs.margin_families)):
            if count:
                sources[name] = make(seed, count)
        if self.passes:
            from verify.numeric import passes

            sources["noisy"] = passes.noisy(seed, self.passes)
            sources["adversarial"] = passes.adversarial(seed, self.passes)
            sources["tight-pass"] = passes.tight(seed, self.passes)
        if self.prefix_orders:
            from verify.numeric import passes

            sources["real-prefix"] = passes.real_prefix(seed, self.prefix_orders)
        return sources


BUDGETS: dict[str, Budget] = {
    "small": Budget(generated=20, tight=20, adversary_bounds=10, orders=0, orthonormal=12,
                    passes=4, separable_epochs=6, inseparable=8, margin_families=24),
    # unit_margin: long runs, so that steps about states and batch iterates are checked on
    # at least 10^4 instances too (the other sources give them a few thousand). orthonormal:
    # its families have k + 1 states for k = 1..12, 90 per cycle of twelve, so 112 cycles give
    # its state steps 10 080 instances (the only source that binds them).
    "default": Budget(generated=150, tight=150, adversary_bounds=50, orders=5, real=1,
                      unit_margin=120, orthonormal=1344, passes=30, prefix_orders=4,
                      separable_epochs=60, inseparable=40, inseparable_long=2,
                      margin_families=396),
    "large": Budget(generated=1500, tight=1500, adversary_bounds=50, orders=50, real=4,
                    unit_margin=1200, orthonormal=6720, passes=400,
                    prefix_orders=20, separable_epochs=600, inseparable=400,
                    inseparable_long=20, margin_families=3960),
}
