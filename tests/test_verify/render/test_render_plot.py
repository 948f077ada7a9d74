"""Teaching outputs of `novikoff run`: the built-in examples, the exact plot series, the plot.

The series are checked by value on the 10-607 worked example (iterates (0,0), (1,-2), (2,-1),
(3,1); max-margin separator (1,0) with margin 1; R^2 = 5) and on the adversary, where both
inequalities hold with equality at every update and the mistakes reach the bound.
"""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from perceptron.algorithms.online import run_online
from perceptron.conventions import DEFAULT, Conventions
from perceptron.errors import DataError
from perceptron.examples import ADVERSARY_BOUND, EXAMPLES, adversary, orthonormal, xor
from perceptron.generators.tight import orthonormal as tight_orthonormal
from verify.cli import main
from verify.render.plot import BoundSeries, bound_series, check_target, draw

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def series_of(name: str, conventions: Conventions = DEFAULT) -> BoundSeries:
    """The exact series of a run on the built-in example `name`."""
    data = EXAMPLES[name].build()
    return bound_series(data, run_online(data, conventions, keep_trace=True))


def test_series_of_the_10_607_example_by_value() -> None:
    s = series_of("10-607")
    assert s.u == (Fraction(1), Fraction(0)) and s.gamma_u == 1 and s.u_norm2 == 1
    assert s.certified_optimal
    assert s.R2 == 5 and s.gamma2 == 1 and s.bound == 5
    assert s.mistakes == 3 and s.converged
    assert s.alignment == (0, 1, 2, 3)  # <w_t, (1,0)> for w_t = (0,0), (1,-2), (2,-1), (3,1)
    assert s.norms2 == (0, 5, 5, 10)
    assert [s.progress_floor(t) for t in range(4)] == [0, 1, 2, 3]
    assert [s.norm_ceiling(t) for t in range(4)] == [0, 5, 10, 15]
    assert s.progress_tight() == (1, 2, 3) and s.norm_tight() == (1,)
    assert s.progress_ratio() == (1, 1) and s.norm_ratio() == (1, 1)
    assert s.progress_holds() and s.norm_holds() and s.within_bound()
    assert all(type(v) is Fraction for v in (*s.alignment, *s.norms2, s.R2, s.gamma2))


def test_series_scale_with_the_learning_rate() -> None:
    s = series_of("10-607", Conventions(eta=Fraction(1, 2)))
    assert s.alignment == tuple(Fraction(t, 2) for t in range(4))
    assert s.norms2 == (0, Fraction(5, 4), Fraction(5, 4), Fraction(10, 4))
    assert s.progress_tight() == (1, 2, 3) and s.norm_holds() and s.bound == 5


def test_adversary_meets_both_inequalities_and_the_bound_with_equality() -> None:
    s = series_of("adversary")
    assert s.mistakes == ADVERSARY_BOUND == s.bound
    assert s.progress_tight() == s.norm_tight() == tuple(range(1, ADVERSARY_BOUND + 1))
    assert s.within_bound()


def test_orthonormal_example_is_the_tight_family() -> None:
    data = orthonormal()
    family = tight_orthonormal(data.y)
    assert data.X == family.data.X and data.name == "orthonormal-4"
    s = series_of("orthonormal")
    assert s.mistakes == family.mistakes == s.bound == family.bound == 4


def test_adversary_example_is_the_adversary_sequence() -> None:
    data = adversary()
    assert data.n == ADVERSARY_BOUND and data.name == f"adversary-{ADVERSARY_BOUND}"
    assert run_online(data, keep_trace=False).mistakes == ADVERSARY_BOUND


def test_series_needs_separable_data() -> None:
    data = xor()
    result = run_online(data, Conventions(bias=True), max_epochs=20, keep_trace=True)
    with pytest.raises(DataError, match="not separable"):
        bound_series(data, result)


def test_series_needs_the_trace() -> None:
    data = EXAMPLES["10-607"].build()
    with pytest.raises(ValueError, match="trace"):
        bound_series(data, run_online(data, keep_trace=False))


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_draw_writes_a_valid_image(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"plot{suffix}"
    draw(series_of("10-607"), target)
    content = target.read_bytes()
    assert len(content) > 20_000
    if suffix == ".png":
        assert content.startswith(PNG_MAGIC)
    else:
        assert content.lstrip().startswith(b"<?xml") and b"<svg" in content[:2000]


def test_plot_is_a_figure_and_draws_into_given_axes() -> None:
    """`plot` returns a matplotlib Figure (for a notebook), outside pyplot's registry, or
    draws into three Axes the caller owns and returns their Figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from verify.render.plot import plot

    before = plt.get_fignums()
    figure = plot(series_of("10-607"))
    assert isinstance(figure, Figure) and len(figure.axes) == 3
    assert plt.get_fignums() == before  # nothing left open in pyplot
    assert all(ax.lines for ax in figure.axes)
    own, axes = plt.subplots(1, 3)
    try:
        assert plot(series_of("10-607"), ax=axes) is own and all(a.lines for a in axes)
    finally:
        plt.close(own)


def test_one_mistake_is_one_mistake_in_the_title_and_the_note() -> None:
    """Red team 9: the plot of a run with one update was titled `1 mistakes`."""
    import matplotlib

    matplotlib.use("Agg")
    from perceptron.dataset import Dataset
    from verify.render.plot import plot

    data = Dataset.of([[1, 1], [1, 0]], [1, 1], "one update")
    series = bound_series(data, run_online(data, keep_trace=True))
    figure = plot(series)
    title = figure.get_suptitle()
    assert "one update: 1 mistake ≤" in title and "mistakes" not in title, title
    texts = [t.get_text() for ax in figure.axes for t in ax.texts]
    assert texts[-1].endswith("\n1 mistake, 1 below the bound"), texts
    assert texts[0].endswith("\nequality at its one update (tight)"), texts
    assert "3 mistakes ≤" in plot(series_of("10-607")).get_suptitle()


def test_check_target_refuses_bad_extensions_and_missing_folders(tmp_path: Path) -> None:
    assert check_target(str(tmp_path / "a.PNG")) == tmp_path / "a.PNG"
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        check_target(str(tmp_path / "a.pdf"))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="no directory"):
        check_target(str(blocker / "a.png"))
    (tmp_path / "folder.png").mkdir()
    with pytest.raises(ValueError, match="is a directory"):
        check_target(str(tmp_path / "folder.png"))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`novikoff run ARGS`: exit code (argparse's own exits included), stdout, stderr."""
    try:
        code = main(["run", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["10-607", "orthonormal", "adversary"])
def test_run_example_with_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               name: str) -> None:
    target = tmp_path / f"{name}.png"
    code, out, err = cli(capsys, "--example", name, "--plot", str(target))
    assert code == 0 and err == ""
    assert re.search(rf"^plot +{re.escape(str(target))}$", out, re.MULTILINE)
    assert target.read_bytes().startswith(PNG_MAGIC)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--example", "nope"], "invalid choice"),
        (["--plot", "out.pdf"], ".png or .svg"),
        (["--plot", "/nonexistent-folder/x.png"], "no directory"),
        (["--example", "xor", "--plot", "x.png"], "not separable"),
    ],
)
def test_run_errors_are_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, args: list[str],
                                        says: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("novikoff: error:") and says in err
    assert not (tmp_path / "x.png").exists()


def test_run_help_explains_plot_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--help")
    assert code == 0
    assert "--plot FILE" in out and ".svg" in out and "adversary" in out and "10-607" in out


def test_matplotlib_is_loaded_only_when_drawing() -> None:
    code = ("import sys, verify.cli, verify.render.plot; verify.cli.build_parser(); "
            "print(sorted(m for m in ('matplotlib', 'sympy', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "matplotlib" not in out


def test_a_verdict_box_never_hides_the_runs_own_point_when_a_corner_can_avoid_it() -> None:
    """Newcomer 32 N8: on a one-update run (`novikoff run sep.csv --plot`) every corner of
    panel 1 hid some point of the sampled bound line, and the fallback, the last corner,
    hid the run's only point, <w_1, u>. The box now goes where it hides the fewest of the
    run's points first."""
    import matplotlib

    matplotlib.use("Agg")
    from perceptron.dataset import Dataset
    from verify.render.plot import plot

    half = Fraction(1, 2)
    data = Dataset.of([[2, 1], [1, 3], [half, half], [-1, -2], [-3, half], [-half, -1]],
                      [1, 1, 1, -1, -1, -1], "sep")
    series = bound_series(data, run_online(data, keep_trace=True))
    assert series.mistakes == 1
    figure = plot(series)
    figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    for ax in figure.axes:
        (box,) = [t.get_window_extent(renderer) for t in ax.texts
                  if t.get_text().startswith("✔")]
        for line in ax.lines:
            if "(this run)" not in str(line.get_label()):
                continue
            for px, py in ax.transData.transform(line.get_xydata()):
                assert not box.contains(px, py), (ax.get_title(), line.get_label())
