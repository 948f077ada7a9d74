"""A plug-in's budget of work in one audit (newcomer 24: a user report, severity High).

A lecturer audited her proof with a buggy plug-in perceptron that forgets the label in its
test (`if <w, x> <= 0`), so it rarely converges: the default audit ran 29 min 20 s (24.5
CPU-minutes, 61.9 M instances), its calls each within the 60 CPU-second guard, which bounds
one call, not the audit. Now each plug-in's runs may make `PLUGIN_WORK` updates and
iterations in one audit (`--max-plugin-updates`), counted in shard order: the shard that
passes it and every later one are not checked, the proof is not verified, and the report
says what was cut, how much was checked and how to raise it. A count, never seconds: the
same cut twice, on any machine. The budgets here are tiny, so each test takes about a second.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from cases.plugins.perceptrons import PROOF, dot, perceptron

from perceptron.dataset import Dataset, Vector
from verify.api import audit_proofs
from verify.audit.job import Audit
from verify.audit.report import to_json, to_text
from verify.numeric.budgets import PLUGIN_WORK
from verify.numeric.campaign import CampaignResult
from verify.numeric.instances import NumericVerdict
from verify.numeric.shards import merge
from verify.runs.plugin import Plugin


def no_label(data: Dataset, max_updates: int) -> Iterator[tuple[int, Vector]]:
    """The lecturer's student's bug: `if <w, x> <= 0`, the label forgotten in the test
    (the update `w += y x` is right): it rarely converges, so most runs make `max_updates`."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    made = 0
    while made < max_updates:
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if dot(w, x) <= 0 and made < max_updates:
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                made, updated = made + 1, True
                yield i, w
        if not updated:
            return


def _audit(tmp_path: Path, function: object, work: int | None) -> Audit:
    """The small audit of `PROOF` with `function` as the plug-in `mine`, its budget `work`
    (None: the default), its calls in this process (fast; the budget is the same so)."""
    mine = tmp_path / "mine.toml"
    mine.write_text(PROOF)
    plugin = dataclasses.replace(Plugin.of("mine", function), work=work,  # type: ignore[arg-type]
                                 isolated=False)
    return audit_proofs(mine, budget="small", algorithms=[plugin])


def _numbers(audit: Audit) -> object:
    """What a rerun must repeat: the report's JSON without its timings."""
    report = json.loads(json.dumps(to_json(audit)))
    for proof in report["proofs"]:
        for step in proof["steps"]:
            step.pop("seconds", None)
    return report


def test_a_plug_in_that_rarely_converges_is_cut_the_same_way_twice(tmp_path: Path) -> None:
    """The same cut, counts and report on a rerun; the proof is incomplete (not verified),
    its step not run, and the text, the JSON and the proof's `runs not made` say what was
    cut, how much was checked and how to raise the budget."""
    first, again = (_audit(tmp_path, no_label, 2_000) for _ in range(2))
    assert _numbers(first) == _numbers(again)
    assert first.plugin_work == again.plugin_work == (("mine", 2_000, 0, True),)
    (proof,) = first.proofs
    assert proof.status == "incomplete" and not first.passed()
    (cut,) = [line for line in first.plugins if "budget" in line]
    assert cut.startswith("plug-in mine: its runs passed the audit's budget of 2000 updates "
                          "and iterations of a plug-in (--max-plugin-updates)")
    assert "checked on none of its runs" in cut and "(generated, scenarios 0-19)" in cut
    assert "raise it with --max-plugin-updates N" in cut
    assert any(cut in each.line for each in proof.unmade)
    text = to_text(first)
    assert "runs not made" in text and f"  mine: {cut}" in text.splitlines()
    # said once (newcomer 28: once per proof, again for each step and under the plug-in):
    # the step not run and the plug-in's runs name it by its subject
    assert text.count(cut) == 1
    assert "  mine/count: plug-in mine: as said under runs not made" in text.splitlines()
    assert text.rstrip().splitlines()[-1] == "  plug-in mine: as said under runs not made"
    report = to_json(first)
    assert report["summary"]["plugin_work"] == [
        {"plugin": "mine", "budget": 2_000, "checked": 0, "cut": True}]
    (step,) = report["proofs"][0]["steps"]
    assert step["numeric"]["status"] == "not-run" and step["numeric"]["reason"] == cut
    import jsonschema

    from verify import schema

    valid = jsonschema.Draft202012Validator(schema.load("audit"))
    assert list(valid.iter_errors(json.loads(json.dumps(report)))) == []
    import html as entities

    from verify.render import html, markdown

    # every report says it too, once
    assert markdown.render(first).replace("\\_", "_").count(cut) == 1
    assert entities.unescape(html.render(first)).count(cut) == 1


def test_a_cut_keeps_the_shards_before_it_and_says_how_much(tmp_path: Path) -> None:
    """The correct perceptron makes 201 updates in the small audit: with a budget of 201 it
    is not cut (nothing changes: counts, verdict, lines), with 150 the shards before the
    one that passes it are checked and counted, and only they."""
    whole = _audit(tmp_path, perceptron, None)
    assert whole.plugin_work == (("mine", PLUGIN_WORK, 201, False),)
    assert whole.proofs[0].status == "verified"
    exact = _audit(tmp_path, perceptron, 201)
    assert exact.plugin_work == (("mine", 201, 201, False),)
    assert exact.plugins == whole.plugins and exact.plugin_ends == whole.plugin_ends
    assert exact.proofs[0].steps[0].numeric == whole.proofs[0].steps[0].numeric
    assert exact.proofs[0].status == "verified"

    cut = _audit(tmp_path, perceptron, 150)
    ((_, budget, checked, was_cut),) = cut.plugin_work
    assert (budget, was_cut) == (150, True) and 0 < checked <= 150
    ((_, _, ran),) = cut.plugin_ends
    assert ran.updates == checked  # the runs counted are the runs checked
    verdict = cut.proofs[0].steps[0].numeric
    assert verdict is not None and verdict.status == "held"
    assert 0 < verdict.instances < whole.proofs[0].steps[0].numeric.instances
    assert cut.proofs[0].status == "incomplete"
    line = cut.plugins[-1]
    assert ("checked on the runs of the campaign's first " in line
            and f"shards only ({checked} updates and iterations), not on shard " in line)


def _part(spent: int, *, over: bool = False, fault: str | None = None) -> CampaignResult:
    """A shard's result of the plug-in `mine` (budget 10) that made `spent` updates."""
    verdict = NumericVerdict("held", spent, 0, 0, Fraction(0), None)
    return CampaignResult(verdicts={("p/s", "generated"): verdict},
                          plugin_checks={"mine": frozenset({"p/s"})}, spent={"mine": spent},
                          budgets={"mine": 10}, over={"mine": 0} if over else {},
                          faults={"mine": fault} if fault else {})


@pytest.mark.parametrize("third", [_part(5), _part(1, over=True)])
def test_the_merge_cuts_at_the_first_shard_past_the_budget(third: CampaignResult) -> None:
    """Whether the shard that passes it ran whole (its count says so) or stopped because
    the shards before it had posted enough (`over`), the cut is at that shard: the same
    verdicts in every schedule; the shards after it, even under the budget, are dropped."""
    total = merge([_part(4), _part(3), third, _part(0)])
    assert total.over == {"mine": 2} and total.spent == {"mine": 7}
    assert total.verdicts[("p/s", "generated")].instances == 7


def test_a_fault_after_the_budget_is_not_reported_one_before_it_is() -> None:
    """A shard whose runs pass the budget before a call fails: in another schedule it would
    have stopped before that call, so the budget, not the fault, ends the plug-in."""
    late = merge([_part(4), _part(7, fault="plug-in mine raised ValueError")])
    assert late.over == {"mine": 1} and late.faults == {}
    early = merge([_part(4, fault="plug-in mine raised ValueError"), _part(20)])
    assert early.faults == {"mine": "plug-in mine raised ValueError"} and early.over == {}


def test_the_command_line_gives_each_plug_in_the_budget() -> None:
    """`--max-plugin-updates N` sets every `--algorithm`'s budget (`Plugin.work`)."""
    from verify.cli import build_parser
    from verify.cli.audit import given_plugins

    args = build_parser().parse_args(["audit", "--max-plugin-updates", "7"])
    assert args.max_plugin_updates == 7
    loaded, refused = given_plugins(["fractions:Fraction"], (), 7)
    assert refused == [] and [p.work for p in loaded.values()] == [7]
    loaded, _ = given_plugins(["fractions:Fraction"])
    assert [p.work for p in loaded.values()] == [None]  # the campaign's PLUGIN_WORK


def test_a_cut_shared_by_several_proofs_is_one_line_naming_them(tmp_path: Path) -> None:
    """Newcomer 28 (Low): four proof files with one plug-in printed the same cut line four
    times under runs not made, and a fifth time under the plug-in: now once, naming them."""
    files = []
    for name in ("one", "two"):
        (tmp_path / f"{name}.toml").write_text(PROOF)
        files.append(tmp_path / f"{name}.toml")
    plugin = dataclasses.replace(Plugin.of("mine", no_label), work=2_000, isolated=False)  # type: ignore[arg-type]
    audit = audit_proofs(*files, budget="small", algorithms=[plugin])
    (cut,) = [line for line in audit.plugins if "budget" in line]
    text = to_text(audit)
    assert text.count(cut) == 1 and f"  one, two: {cut}" in text.splitlines()
