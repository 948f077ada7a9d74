"""`novikoff check` reads a proof's `[numeric]` table as the audit does (newcomer trial 19).

docs/proof-files.md said `check` does not read `[numeric]`, yet it refused a data path
outside the folder and an unknown key while `run = "onlin"` and `algorithm = "nonesuch"`
passed it and failed the audit. A table the audit would refuse is refused by `check`, in
the audit's words, placed in the file, with the file's other errors in the same run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.cli import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

PROOF = '''title = "t"
vectors = ["w", "x"]
scalars = ["y", "R2"]

[[step]]
id = "one-update-growth"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
claim = "norm2(w + y*x) <= norm2(w) + R2"

[numeric]
run = "{run}"
{algorithm}
'''


def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *argv: str
          ) -> tuple[int, str]:
    path = tmp_path / "p.toml"
    path.write_text(text)
    code = main(["check", str(path), *argv])
    return code, capsys.readouterr().err


def test_unknown_run_kind_refused_with_did_you_mean(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    code, err = check(tmp_path, capsys, PROOF.format(run="onlin", algorithm=""))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "p.toml:11:8: numeric.run = 'onlin': no run kind 'onlin' (closest: 'online')" \
        in lines[0]


def test_unknown_algorithm_refused_with_did_you_mean(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code, err = check(tmp_path, capsys,
                      PROOF.format(run="online", algorithm='algorithm = "margin-perceptorn"'))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert ("p.toml:12:14: numeric.algorithm 'margin-perceptorn' is no known algorithm; did "
            "you mean 'margin-perceptron'?") in lines[0]


def test_plugin_name_given_is_known(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    """A plug-in named with `--algorithm` (as the audit takes it; its code is not loaded)
    is a known algorithm; without it the name is refused, as by the audit."""
    text = PROOF.format(run="online", algorithm='algorithm = "nonesuch"')
    code, err = check(tmp_path, capsys, text)
    assert code == 2 and "'nonesuch' is no known algorithm" in err
    code, err = check(tmp_path, capsys, text, "--algorithm", "nonesuch=absent.py:f")
    assert code == 0, err
    code, err = check(tmp_path, capsys, text, "--algorithm", "nonesuch=absent.py:f",
                      "--algorithm", "other=absent.py:f")  # named by no proof: as the audit
    assert code == 2
    assert err == ("novikoff: error: --algorithm other: the proof does not name it "
                   "([numeric] algorithm = \"other\")\n")


@pytest.mark.parametrize(("spec", "problem"), [
    ("nonesuch=", "give MODULE:FUNCTION, FILE.py:FUNCTION or an installed entry point's name "
     "after NAME="),
    ("", "give MODULE:FUNCTION, FILE.py:FUNCTION or an installed entry point's name"),
    ("=", "the NAME before '=' is empty"),
    ("=m:f", "the NAME before '=' is empty"),
    ("no such=m:f", "'no such' is no algorithm id ([a-z0-9-]+"),
    ("nonesuch=m:", "FUNCTION '' after the last ':' is not a Python name"),
    ("nonesuch=m:f-g", "FUNCTION 'f-g' after the last ':' is not a Python name"),
    ("nonesuch=:f", "MODULE '' before the last ':' is neither a dotted Python module name"),
    ("nonesuch=a:b:c", "MODULE 'a:b' before the last ':' is neither"),
    ("nonesuch=x y:f", "MODULE 'x y' before the last ':' is neither"),
    ("nonesuch=.py:f", "MODULE '.py' before the last ':' is neither"),
    ("nonesuch= spaced ", "the entry point's name ' spaced ' has spaces around it"),
])
def test_malformed_plugin_spec_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       spec: str, problem: str) -> None:
    """`check` never loads `--algorithm`'s code, so it read any text as a known name and
    passed (exit 0): a spelling the audit could never load is one line, exit 2, in what it
    says (its module or function as written, never as loaded); a well-formed one that names
    nothing loadable still passes, as the code is not loaded (above)."""
    text = PROOF.format(run="online", algorithm='algorithm = "nonesuch"')
    code, err = check(tmp_path, capsys, text, "--algorithm", spec)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"novikoff: error: --algorithm {spec!r}: ")
    assert problem in err
    for fine in ("nonesuch=absent.py:f", "nonesuch=pkg.mod:fit", "nonesuch=entry-point"):
        assert check(tmp_path, capsys, text, "--algorithm", fine)[0] == 0


def test_numeric_errors_with_the_files_others(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown key (a parse error) and an unknown algorithm: both, in file order."""
    code, err = check(tmp_path, capsys, PROOF.format(
        run="online", algorithm='algorithm = "nonesuch"\nbogus = 1'))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert "p.toml:12:14: numeric.algorithm 'nonesuch'" in lines[0]
    assert "p.toml:13:1: unknown key 'bogus' in numeric" in lines[1]


def test_plugin_example_checks_with_its_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(EXAMPLES / "batch-unit-step.toml"), "--algorithm",
                 f"{EXAMPLES / 'plugins' / 'batch_perceptron.py'}:unit_step"])
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize(("table", "argv", "code"), [
    ('algorithm = "nonesuch"', (), 2),  # a plug-in nobody named
    ('algorithm = "nonesuch"', ("--algorithm", "nonesuch=absent.py:f"), 0),
    ('algorithm = "nonesuch"', ("--algorithm", "other=absent.py:f"), 2),  # not the proof's
    ('algorithm = "margin-perceptorn"', (), 2),  # a typo of a built-in
    ("", (), 0),
])
def test_explain_reads_a_file_as_check_does(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            table: str, argv: tuple[str, ...], code: int
                                            ) -> None:
    """Newcomer 28 (low): `check FILE` refused a file whose `[numeric] algorithm` names a
    plug-in unless `--algorithm` named it, while `explain FILE STEP` took the same file and
    had no such option. Both read the table as the audit does: the same exit, the same one
    line, and `--algorithm` (its code not loaded) on both."""
    text = PROOF.format(run="online", algorithm=table)
    checked, check_err = check(tmp_path, capsys, text, *argv)
    explained = main(["explain", str(tmp_path / "p.toml"), "one-update-growth", *argv])
    explain_err = capsys.readouterr().err
    assert (checked, explained) == (code, code), (check_err, explain_err)
    assert explain_err == check_err
    if code == 2:
        assert explain_err.count("\n") == 1 and explain_err.startswith("novikoff: error: ")
    assert main(["explain", str(tmp_path / "p.toml"), *argv]) == 2  # no step: still refused
    no_step = capsys.readouterr().err
    assert (no_step == check_err) if code == 2 else "no step given" in no_step


def test_explain_of_a_plugin_example_needs_its_plugin_named(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The example of docs/proof-files.md: refused alone, in the audit's words, explained
    with the plug-in named (its code not loaded)."""
    example = str(EXAMPLES / "passive-aggressive.toml")
    assert main(["explain", example, "progress-term"]) == 2
    assert "numeric.algorithm 'passive-aggressive' is no known algorithm" in \
        capsys.readouterr().err
    assert main(["explain", example, "progress-term", "--algorithm",
                 "passive-aggressive=absent.py:f"]) == 0
    assert "status: proved" in capsys.readouterr().out


def test_numeric_errors_are_in_file_order(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Docs33 (ends35): a `[numeric]` table whose `names` come before its `algorithm` had
    its errors printed algorithm first (line 7 before line 6): each check's errors were
    listed in the order the checks ran. In file order now, by `check` and the audit."""
    text = PROOF.format(run="online", algorithm='algorithm = "nonesuch"').replace(
        "[numeric]\n", '[numeric]\nnames = { R2 = "tt" }\n')
    code, err = check(tmp_path, capsys, text)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert "p.toml:11:17: numeric.names.R2 = 'tt'" in lines[0]
    assert "p.toml:13:14: numeric.algorithm 'nonesuch'" in lines[1]
    assert main(["audit", str(tmp_path / "p.toml"), "--budget", "small"]) == 2
    audited = capsys.readouterr().err.strip().splitlines()
    at = [n for n, line in enumerate(audited) if "p.toml:1" in line]
    assert len(at) == 2 and "numeric.names.R2" in audited[at[0]], audited
