"""THE shared table of perceptron mutants: buggy perceptrons and correct rewrites, each with
the conventions it claims and whether `check_implementation` (with its defaults) must kill it.

Looped over by `test_verify/testing/test_testing_mutants.py`, which also holds docs/api.md's
kill rate to this table. The bugs are `bugs.py` (the textbook of `base.py` with one hook
changed), the rewrites `rewrites.py` (written independently of it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mutants import base, bugs, rewrites
from perceptron.conventions import DEFAULT, Conventions
from verify import sklearn_fit

KILLED = "killed"
SURVIVES = "survives"
BIAS = Conventions(bias=True)
HALF = Conventions(eta=Fraction(1, 2))
MISTAKE_PLUS = Conventions(rule="mistake", sign_zero=1)


@dataclass(frozen=True)
class Mutant:
    """A perceptron under test: its kind of bug (or `rewrite`), the verdict expected from
    `check_implementation(fit, conventions=claims)`, and its one-line description."""

    name: str
    kind: str
    expected: str
    fit: Callable[..., Any]
    claims: Conventions = DEFAULT

    @property
    def says(self) -> str:
        """The docstring's line: the bug, or how the rewrite is written."""
        return (self.fit.__doc__ or "").strip().splitlines()[0]


def _bug(kind: str, cls: type, claims: Conventions = DEFAULT) -> Mutant:
    return Mutant(cls.__name__, kind, KILLED, cls(), claims)


def _rewrite(fit: Callable[..., Any], claims: Conventions = DEFAULT) -> Mutant:
    name = getattr(fit, "__name__", type(fit).__name__)
    return Mutant(name, "rewrite", SURVIVES, fit, claims)


MUTANTS: tuple[Mutant, ...] = (
    _bug("epochs", bugs.OnePass),
    _bug("epochs", bugs.IgnoresEpochs),
    _bug("epochs", bugs.OneEpochEarly),
    _bug("epochs", bugs.OneEpochLate),
    _bug("epochs", bugs.StopsOnPlateau),
    _bug("epochs", bugs.StopsAtOneMistake),
    _bug("epochs", bugs.CapsEpochsAt56),
    _bug("epochs", bugs.CapsMistakesAt100),
    _bug("state", bugs.WarmStart),
    _bug("state", bugs.MistakesCarryOver),
    _bug("state", bugs.IteratesCarryOver),
    _bug("inputs", bugs.FoldsLabelsIntoX),
    _bug("inputs", bugs.FoldsAndRestores),
    _bug("inputs", bugs.RelabelsInPlace),
    _bug("sign(0)", bugs.PredictsPlusAtZero),
    _bug("sign(0)", bugs.PredictsMinusAtZero),
    _bug("sign(0)", bugs.NumpySignAtZero, MISTAKE_PLUS),
    _bug("sign(0)", bugs.WrongSignAtZero, MISTAKE_PLUS),
    _bug("rule", bugs.StrictComparison),
    _bug("rule", bugs.LabelMissingInCondition),
    _bug("rule", bugs.MarginOfOne),
    _bug("rule", bugs.UpdatesBelowOne),
    _bug("rule", bugs.UpdatesAtHalf),
    _bug("update", bugs.MissingLabel),
    _bug("update", bugs.DoubledStep),
    _bug("update", bugs.IgnoresEta, HALF),
    _bug("update", bugs.NormalisedStep),
    _bug("update", bugs.PreviousLabel),
    _bug("examples", bugs.SkipsLastExample),
    _bug("examples", bugs.SkipsFirstExample),
    _bug("examples", bugs.StopsReadingAt8),
    _bug("examples", bugs.StopsReadingAt25),
    _bug("examples", bugs.StaleScores),
    _bug("precision", bugs.Float32Weights),
    _bug("precision", bugs.IntegerWeights, HALF),
    _bug("reporting", bugs.CountsEveryVisit),
    _bug("reporting", bugs.CountsW0),
    _bug("reporting", bugs.CountsLastEpochOnly),
    _bug("reporting", bugs.AliasedIterates),
    _bug("reporting", bugs.RecordsBeforeUpdate),
    _bug("reporting", bugs.ReturnsPenultimate),
    _bug("bias", bugs.BiasNeverUpdated, BIAS),
    _bug("bias", bugs.BiasWithoutLabel, BIAS),
    _bug("bias", bugs.BiasDropped, BIAS),
    _rewrite(base.Textbook()),
    _rewrite(base.Augmented(), BIAS),
    _rewrite(rewrites.index_loops),
    _rewrite(rewrites.in_place),
    _rewrite(rewrites.folded),
    _rewrite(rewrites.predicts_with_numpy_sign),
    _rewrite(rewrites.exact_fractions),
    _rewrite(rewrites.augmented_bias, BIAS),
    _rewrite(rewrites.scalar_bias, BIAS),
    _rewrite(rewrites.HalfStepEstimator(), HALF),
    _rewrite(rewrites.mistake_rule_plus_at_zero, MISTAKE_PLUS),
    _rewrite(sklearn_fit()),
)
