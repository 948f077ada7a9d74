"""Users' own algorithms (issue 27.3): the contract, its faults, and the audit around them."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from perceptron.algorithms.margin import run_margin
from perceptron.dataset import Dataset
from perceptron.geometry.linear import radius2
from verify.api import audit_proofs
from verify.numeric import campaign
from verify.runs.plugin import Plugin, PluginFault, plugins

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT))
from examples.plugins.margin_perceptron import margin_perceptron  # noqa: E402
from examples.plugins.passive_aggressive import passive_aggressive  # noqa: E402

DATA = Dataset.of([[1, 2], [2, -1], [-1, 1]], [1, 1, -1], "three")
U = (Fraction(1), Fraction(0))

PROOF = """
title = "t is a natural"
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
{algorithm}
[[step]]
id = "count"
claim = "t >= 0"
"""


def test_the_margin_perceptron_as_a_plug_in_is_the_built_in_one() -> None:
    """The documented example: the same updates and the same iterates as run_margin at
    beta = R2/3, on planted data of the campaign."""
    plugin = Plugin.of("mp", margin_perceptron)
    for scenario in campaign.generated(3, 8):
        built_in = run_margin(scenario.data, radius2(scenario.data) / 3, max_epochs=1000)
        run = plugin.run(scenario.data, scenario.u, 10**5)
        assert [k.x for k in run.updates] == [scenario.data.X[i] for i in built_in.indices]
        assert run.states[-1] == built_in.w
        assert set(run.steps or ()) <= {Fraction(1)}  # tau = 1: the perceptron's step


def test_a_run_reads_each_update_s_step_exactly() -> None:
    run = Plugin.of("pa", passive_aggressive).run(DATA, U, 100)
    first = run.updates[0]
    assert first.w_next == (Fraction(1, 5), Fraction(2, 5))  # tau = 1/5 on x = (1, 2)
    assert run.steps is not None and run.steps[0] == Fraction(1, 5)


def _projection(w: tuple[Fraction, ...], after: tuple[Fraction, ...], x: tuple[Fraction, ...],
                y: int) -> Fraction | None:
    """The step by its definition: `tau = y <delta, x> / ||x||^2`, kept when `after = w +
    tau y x` (the reading `plugin._step` replaced, in Fractions throughout)."""
    norm = sum((v * v for v in x), Fraction(0))
    delta = [a - b for a, b in zip(after, w, strict=True)]
    if norm == 0:
        return Fraction(0) if not any(delta) else None
    tau = y * sum((d * v for d, v in zip(delta, x, strict=True)), Fraction(0)) / norm
    return tau if all(d == tau * y * v for d, v in zip(delta, x, strict=True)) else None


def test_the_step_read_in_integers_is_the_projection() -> None:
    """`_step` reads `tau` off one coordinate and checks the others in integers (it was a
    fifth of an audit's CPU in Fractions): the same step, or none, as the projection, on
    seeded vectors along `y x` (any step), equal, zero and unrelated, with zero
    coordinates and denominators; `_signed_sum` is `sum y_j x_j` as Fractions add it."""
    import random

    from verify.runs.plugin import _signed_sum, _step

    rng = random.Random(27)

    def q() -> Fraction:
        return Fraction(rng.randint(-9, 9), rng.choice([1, 1, 2, 3, 7])) \
            if rng.random() < 0.8 else Fraction(0)

    found = {True: 0, False: 0}
    for _ in range(3000):
        d, y = rng.randint(1, 4), rng.choice([-1, 1])
        x, w = tuple(q() for _ in range(d)), tuple(q() for _ in range(d))
        kind = rng.random()
        tau = q()
        after = (tuple(a + tau * y * b for a, b in zip(w, x, strict=True)) if kind < 0.5 else
                 w if kind < 0.6 else tuple(q() for _ in range(d)))
        step = _step(w, after, x, y)
        assert step == _projection(w, after, x, y), (w, after, x, y)
        assert step is None or type(step) is Fraction
        found[step is not None] += 1
    assert min(found.values()) > 500  # both answers were tried
    for _ in range(500):
        n, d = rng.randint(1, 6), rng.randint(1, 4)
        data = Dataset(tuple(tuple(q() for _ in range(d)) for _ in range(n)),
                       tuple(rng.choice([-1, 1]) for _ in range(n)), "r")
        members = tuple(sorted(rng.sample(range(n), rng.randint(1, n))))
        assert _signed_sum(data, members) == tuple(
            sum((data.y[j] * data.X[j][c] for j in members), Fraction(0)) for c in range(d))

def _raises(_data: Dataset, _cap: int) -> list[tuple[int, tuple[int, ...]]]:
    raise RuntimeError("boom")


def _floats(_data: Dataset, _cap: int) -> list[tuple[int, tuple[float, ...]]]:
    return [(0, (0.5, 1.0))]


def _bad_index(_data: Dataset, _cap: int) -> list[tuple[int, tuple[int, ...]]]:
    return [(7, (1, 2))]


def _endless(_data: Dataset, _cap: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    while True:
        yield 0, (1, 2)


def _never_returns(_data: Dataset, _cap: int) -> list[tuple[int, tuple[int, int]]]:
    while True:
        pass


@pytest.mark.parametrize(("function", "fault"), [
    (_raises, "raised RuntimeError: boom"),
    (_floats, "update 0's w_after has coordinate 0 = 0.5, a float, not an int or a "
              "Fraction (exact)"),
    (_bad_index, "names example 7"),
    (_endless, "returned more than 5 updates"),
])
def test_every_fault_is_one_line_naming_the_plug_in(function, fault) -> None:
    with pytest.raises(PluginFault) as raised:
        Plugin.of("mine", function).run(DATA, U, 5)
    assert str(raised.value).startswith("plug-in mine") and fault in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_plug_in_that_never_returns_is_stopped_by_the_guard() -> None:
    plugin = Plugin("loop", None, _never_returns, seconds=0.2)
    with pytest.raises(PluginFault, match=r"plug-in loop did not return within 0\.2 CPU-seconds"):
        plugin.run(DATA, U, 5)


def test_specs_load_from_a_file_and_travel_as_specs() -> None:
    spec = f"{EXAMPLES / 'plugins' / 'passive_aggressive.py'}:passive_aggressive"
    plugin = Plugin.parse(spec)
    assert plugin.name == "passive-aggressive"
    again = pickle.loads(pickle.dumps(plugin))
    assert again.function is None  # the worker imports it again by its spec
    assert tuple(again.run(DATA, U, 100).updates) == tuple(plugin.run(DATA, U, 100).updates)
    with pytest.raises(PluginFault, match="cannot be loaded"):
        Plugin.parse("pa=no_such_module_here:f")
    with pytest.raises(PluginFault, match="no entry point"):
        Plugin.parse("no-such-entry-point")
    with pytest.raises(PluginFault, match="built-in"):
        plugins({"margin-perceptron": margin_perceptron}, ["margin-perceptron"])


def test_a_module_beside_the_user_not_on_the_path_names_its_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Newcomer nc35 K5: `--algorithm mine=mybatch:fit` beside `mybatch.py` said only
    `ModuleNotFoundError: No module named 'mybatch'` (the `novikoff` script does not put the
    working directory on Python's path); the fault now gives the spelling that loads it.
    A module the plug-in itself imports that is missing is said as before."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    (tmp_path / "mybatch.py").write_text("def fit(data, n, theta0, theta_star):\n    return ()\n")
    (tmp_path / "needs.py").write_text("import no_such_module_at_all\n")
    with pytest.raises(PluginFault) as fault:
        Plugin.parse("mine=mybatch:fit")
    assert str(fault.value).endswith(
        "no module named 'mybatch' on Python's path (the `novikoff` command does not put the "
        "working directory there); the file mybatch.py is here: give it as "
        "mine=mybatch.py:fit, or set PYTHONPATH"), fault.value
    assert Plugin.parse("mine=mybatch.py:fit").name == "mine"  # the spelling said loads it
    with pytest.raises(PluginFault, match="No module named 'no_such_module_at_all'"):
        Plugin.parse("n=needs.py:fit")
    with pytest.raises(PluginFault, match="cannot be loaded: ModuleNotFoundError"):
        Plugin.parse("pa=no_such_module_here:f")  # no file of that name here


def test_a_failing_plug_in_costs_only_its_own_proof(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(PROOF.format(algorithm='algorithm = "bad"'))
    other = tmp_path / "other.toml"
    other.write_text(PROOF.format(algorithm=""))
    audit = audit_proofs(mine, other, budget="small", algorithms={"bad": _raises})
    assert len(audit.errors) == 1 and audit.errors[0].startswith("plug-in bad raised")
    by_id = {p.id: p for p in audit.proofs}
    assert by_id["other"].status == "verified" and by_id["other"].steps[0].numeric is not None
    step = by_id["mine"].steps[0]
    assert step.numeric is None and step.reason == audit.errors[0]  # the fault itself


def test_no_plug_in_code_runs_from_a_proof_file_alone(tmp_path: Path) -> None:
    """A proof naming an algorithm nobody gave is refused, naming the option to give."""
    mine = tmp_path / "mine.toml"
    mine.write_text(PROOF.format(algorithm='algorithm = "pa"'))
    audit = audit_proofs(mine, budget="small")
    assert not audit.proofs and "--algorithm pa=MODULE:FUNCTION" in audit.errors[0]


def test_a_plug_in_no_proof_names_is_refused_before_it_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 9: a plug-in given for a proof that names no algorithm was never called, and
    the audit passed (exit 0, `passed()` True) as if it had been checked. It is now one line
    (exit 2; a ValueError from the API), before its code runs or any work is done; a proof
    that names it is audited as before."""
    from verify.audit.job import UnnamedPlugin
    from verify.cli import main

    other = tmp_path / "other.toml"
    other.write_text(PROOF.format(algorithm=""))
    called = tmp_path / "called"
    module = tmp_path / "mine.py"
    module.write_text(f"open({str(called)!r}, 'w').close()\n"
                      "def mine(data, max_updates):\n    return []\n")
    line = '--algorithm mine: no proof audited names it ([numeric] algorithm = "mine")'
    code = main(["audit", str(other), "--budget", "small", "--jobs", "1",
                 "--algorithm", f"mine={module}:mine"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err == f"novikoff: error: {line}\n"
    assert not called.exists()  # refused before the module was loaded
    with pytest.raises(UnnamedPlugin, match=r'^plug-in pa: no proof audited names it '
                       r'\(\[numeric\] algorithm = "pa"\)$'):
        audit_proofs(other, budget="small", algorithms={"pa": passive_aggressive})
    assert issubclass(UnnamedPlugin, ValueError)
    named = tmp_path / "named.toml"
    named.write_text(PROOF.format(algorithm='algorithm = "pa"'))
    with pytest.raises(UnnamedPlugin, match=r"^plug-in mp: .* \(nor pa\)$"):  # all said
        audit_proofs(other, budget="small", algorithms={"mp": margin_perceptron,
                                                        "pa": passive_aggressive})
    assert audit_proofs(named, other, budget="small",
                        algorithms={"pa": passive_aggressive}).passed()


def test_the_cli_runs_the_example_and_exits_2_on_a_broken_plug_in(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Through the command line's entry, in this process (`main`, as `python -m verify`
    calls it; standard output and error read at the descriptors, the pool's processes'
    too): a real `python -m verify audit --algorithm` process exits 0 in
    `test_plugin_faults.py` (a plug-in printing as it loads) and 2 in
    `test_cli_hostile_data.py`."""
    from verify.cli import main

    example = str(EXAMPLES / "passive-aggressive.toml")
    plugin = f"{EXAMPLES / 'plugins' / 'passive_aggressive.py'}:passive_aggressive"
    command = ["audit", example, "--budget", "small", "--jobs", "2"]
    code = main([*command, "--algorithm", plugin])
    out, err = capfd.readouterr()
    assert code == 0, err
    assert "passive-aggressive           verified" in out
    broken = tmp_path / "broken.py"
    broken.write_text("def passive_aggressive(data, cap):\n    return [(0, (0.5,) * 9)]\n")
    code = main([*command, "--algorithm", f"{broken}:passive_aggressive"])
    out, err = capfd.readouterr()
    assert code == 2
    errors = [line for line in err.splitlines() if line.startswith("novikoff: error")]
    assert len(errors) == 1 and "plug-in passive-aggressive: update 0" in errors[0]


# Parameters (issue 27.3): `--param KEY=VALUE` after `--algorithm`, exact rationals only.

MARGIN_RUN = "examples.plugins.margin_perceptron:run"


def test_a_parameter_reaches_the_function_as_an_exact_rational() -> None:
    """`run` with `--param beta=1/2` is the built-in margin perceptron at beta = 1/2."""
    plugin = Plugin.parse(f"mp={MARGIN_RUN}", ["beta=1/2"])
    assert plugin.params == (("beta", Fraction(1, 2)),)
    for scenario in campaign.generated(3, 4):
        built_in = run_margin(scenario.data, Fraction(1, 2), max_epochs=1000)
        run = plugin.run(scenario.data, scenario.u, 10**5)
        assert [k.x for k in run.updates] == [scenario.data.X[i] for i in built_in.indices]
        assert run.states[-1] == built_in.w
    wider = Plugin.parse(f"mp={MARGIN_RUN}", ["beta=3"]).run(DATA, U, 100)
    assert len(wider.updates) > len(plugin.run(DATA, U, 100).updates)  # it matters
    again = pickle.loads(pickle.dumps(plugin))  # a worker gets the parameters too
    assert again.function is None and again.params == plugin.params
    assert tuple(again.run(DATA, U, 100).updates) == tuple(plugin.run(DATA, U, 100).updates)


@pytest.mark.parametrize(("params", "fault"), [
    (["beta=0.5e1"], "'0.5e1' is not an exact rational"),
    (["beta=nan"], "'nan' is not an exact rational"),
    (["beta=1.5.2"], "is not an exact rational"),
    (["beta=½"], "is not an exact rational"),
    (["beta=1/0"], "divides by zero"),
    (["beta"], "is not KEY=VALUE"),
    (["beta="], "--param 'beta=' gives beta no value (write beta=VALUE, VALUE an exact "
                "rational"),  # issue 27's review: it printed `'beta='` and `''`
    (["2beta=1"], "is not KEY=VALUE"),
    (["beta=1", "beta=2"], "--param beta given twice"),
    (["gamma=1"], "cannot be called with (data, max_updates, gamma=1)"),
    (["gamma=3/2"], "cannot be called with (data, max_updates, gamma=3/2)"),  # it said `gamma=)`
    (["beta=" + "9" * 5000], "too long a number"),
])
def test_a_bad_parameter_is_one_line_before_anything_runs(params: list[str], fault: str) -> None:
    with pytest.raises(PluginFault) as raised:
        Plugin.parse(f"mp={MARGIN_RUN}", params)
    assert fault in str(raised.value) and "\n" not in str(raised.value)
    assert len(str(raised.value)) < 300


def test_a_function_given_through_the_api_takes_parameters_too() -> None:
    from examples.plugins.margin_perceptron import run

    plugin = Plugin.of("mp", run, ["beta=1/2"])
    assert tuple(plugin.run(DATA, U, 100).updates) == tuple(
        Plugin.parse(f"mp={MARGIN_RUN}", ["beta=1/2"]).run(DATA, U, 100).updates)
    with pytest.raises(PluginFault, match="cannot be called"):
        Plugin.of("pa", passive_aggressive, ["beta=1"])  # takes no parameter


def test_the_options_that_give_a_plug_in_give_it_again() -> None:
    plugin = Plugin.parse(f"mp={MARGIN_RUN}", ["beta=1/2"])
    assert plugin.options() == f"--algorithm mp={MARGIN_RUN} --param beta=1/2"


def test_the_cli_passes_parameters_and_refuses_bad_ones_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    mine = tmp_path / "mine.toml"
    mine.write_text(PROOF.format(algorithm='algorithm = "mp"'))
    base = ["audit", str(mine), "--budget", "small", "--algorithm", f"mp={MARGIN_RUN}"]
    assert main([*base, "--param", "beta=1/2"]) == 0, capsys.readouterr().err
    assert "verified" in capsys.readouterr().out
    # a parameter that is not an exact rational, or one given before any --algorithm: a
    # usage error, one line, before any plug-in is loaded
    for args, said in (([*base, "--param", "beta=0.1e1"], "'0.1e1' is not an exact rational"),
                       (["audit", str(mine), "--param", "beta=1/2", "--algorithm",
                         f"mp={MARGIN_RUN}"], "give it after the --algorithm it is for")):
        assert main(args) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1 and said in err, err
    # a parameter the function does not take: the plug-in cannot be used (and the proof
    # that needs it says so), exit 2
    assert main([*base, "--param", "gamma=1"]) == 2
    err = capsys.readouterr().err
    assert "plug-in mp cannot be called with (data, max_updates, gamma=1)" in err


def test_the_command_line_reads_each_proofs_toml_once_for_unnamed_plug_ins(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing note 10: the command line refused a plug-in no proof names (reading every
    proof's TOML before loading any plug-in), then `run_audit` read every TOML again for
    the same check. The command line's check is the audit's: once per proof."""
    from verify.audit.targets import Target
    from verify.cli import main

    reads: list[str] = []
    real = Target.algorithm

    def counted(self: Target) -> str | None:
        reads.append(self.name)
        return real(self)

    monkeypatch.setattr(Target, "algorithm", counted)
    named = tmp_path / "named.toml"
    named.write_text(PROOF.format(algorithm='algorithm = "pa"'))
    code = main(["audit", str(named), "--budget", "small", "--jobs", "1", "--algorithm",
                 "pa=examples.plugins.passive_aggressive:passive_aggressive"])
    capsys.readouterr()
    assert code == 0 and reads == [str(named)]


HISTORY = """
title = "a plug-in's history"
scalars = ["t", "time", "yu"]
vectors = ["w", "xu"]
naturals = ["t", "time"]
indexed = ["xu", "yu"]
[numeric]
run = "online"
algorithm = "mp"
names = { xu = "XU", yu = "YU" }
[[step]]
id = "iterate"
claim = "norm2(w - sum(k in 1..t, yu[k]*xu[k])) == 0"
[[step]]
id = "time"
claim = "time >= t"
"""


@pytest.mark.slow
def test_a_plug_ins_runs_offer_their_updates_and_no_time(tmp_path: Path) -> None:
    """The margin perceptron as a plug-in (tau = 1, from w_0 = 0): `w` is the sum of its
    updates' `YU[k] XU[k]` on every state; `time`, the stream's, is no quantity of its runs
    (their order is their own), and the step naming it is not run, its reason saying so.
    Slow (181 s here under load: a child process per run of the small budget's campaign)."""
    path = tmp_path / "history.toml"
    path.write_text(HISTORY)
    audit = audit_proofs(path, budget="small", algorithms={"mp": margin_perceptron})
    steps = {s.step.id: s for s in audit.proofs[0].steps}
    iterate = steps["iterate"].numeric
    assert iterate is not None and iterate.status == "held" and iterate.instances >= 50
    assert steps["time"].numeric is None
    assert "which the plug-in mp's runs do not have" in (steps["time"].reason or "")
