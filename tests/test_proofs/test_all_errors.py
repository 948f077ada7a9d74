"""Every independent error of a proof file in one run (issue 27, item 8): each at its
file:line:column with its step and, where one is known, a fix; dependent errors once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import sympy

from proofs.errors import MAX_REPORTED, ProofFileError, ProofFileErrors, Source
from proofs.proof_file import load_proof, parse_proof
from verify.cli import main
from verify.proof_checker import statements

x_, y_ = sympy.symbols("x y")

MANY = """title = "Many errors"
vectors = ["w", "x"]
scalars = ["y", "gamma", "R"]
colour = "blue"

[[step]]
id = "a"
given = ["y^2 == 1", "y*dot(w, x) <= 0"]
claim = "dot(w + y*x, w + y*x) <= dot(w, w) + gama"

[[step]]
id = "b"
uses = ["a"]
claim = "R >= 0"

[[step]]
id = "c"
clam = "R >= 0"
claim = "y.real >= 0"

[[step]]
id = "d"
uses = ["c2"]
claim = "R**2 >= 0"
"""

REFUSED = """title = "Two refusals"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]

[[step]]
id = "one"
claim = "dot(w, x) >= 0"
[step.induction]
variable = "t"
base = { w = "x" }
step = { w = "w + y*x" }
constants = []

[[step]]
id = "uses-one"
uses = ["one"]
claim = "dot(w, x) >= 0"

[[step]]
id = "two"
claim = "y*t >= 0"
[step.induction]
variable = "t"
base = { w = "x" }
step = { w = "w + y*x" }
constants = []
"""


def errors(text: str) -> tuple[ProofFileError, ...]:
    with pytest.raises(ProofFileError) as caught:
        parse_proof(text.encode(), "many.toml")
    return caught.value.errors


def test_every_independent_error_is_reported_at_its_line_and_column() -> None:
    found = [str(e) for e in errors(MANY)]
    assert found == [
        "many.toml:4:1: unknown key 'colour' in top level (expected one of: title, source, "
        "vectors, scalars, naturals, numeric, define, step, imports, theorem, notation, indexed, "
        "sets)",
        "many.toml:8:11: step a: given[0]: operator BitXor is not allowed; use ** for powers "
        "(y**2, not y^2) in 'y^2'",
        "many.toml:9:47: step a: claim: undeclared name 'gama' in 'gama'; did you mean "
        "'gamma'?",
        "many.toml:18:1: step c: unknown key 'clam' in a step (expected one of: id, given, "
        "claim, uses, hints, source, note, split, induction, witness); did you mean 'claim'?",
        "many.toml:19:10: step c: claim: Attribute is not allowed in 'y.real'",
        "many.toml:23:10: step d: uses 'c2', which is not a step; did you mean 'c'?",
    ]


def test_a_step_using_a_broken_step_is_not_reported_again() -> None:
    """b uses a, whose claim is broken: b's only error would be a's, so b is not named."""
    assert "b" not in {e.step for e in errors(MANY)}


def test_the_error_reads_as_its_first_line() -> None:
    """Callers that show one line show the most important: the first error."""
    with pytest.raises(ProofFileErrors) as caught:
        parse_proof(MANY.encode(), "many.toml")
    assert str(caught.value) == str(caught.value.errors[0])
    assert "\n" not in str(caught.value)


def test_at_most_a_bounded_number_are_listed_then_counted() -> None:
    steps = "".join(f'[[step]]\nid = "s{k}"\nclaim = "z{k} >= 0"\n' for k in range(30))
    found = errors('title = "t"\nscalars = ["y"]\n' + steps)
    assert len(found) == 30
    lines = ProofFileErrors(found).lines()
    assert len(lines) == MAX_REPORTED + 1 and lines[-1] == f"... and {30 - MAX_REPORTED} more"
    assert lines[0].startswith("many.toml:5:10: step s0: claim: undeclared name 'z0'")


def test_kernel_refusals_are_all_reported_at_their_steps() -> None:
    proof = parse_proof(REFUSED.encode(), "refused.toml")
    with pytest.raises(ProofFileError) as caught:
        statements(proof)
    located = caught.value.located("refused.toml", proof.origin)
    assert [(e.step, e.line, e.column) for e in located.errors] == [
        ("one", 8, 10), ("two", 22, 10)]  # uses-one uses a refused step: not named
    assert "mentions x: fresh at every update" in str(located.errors[0])


def test_the_cli_prints_one_line_per_error(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    for name, text, count in (("many.toml", MANY, 6), ("refused.toml", REFUSED, 2)):
        path = tmp_path / name
        path.write_text(text)
        assert main(["check", str(path)]) == 2
        out, err = capsys.readouterr()
        lines = err.splitlines()
        assert out == "" and len(lines) == count
        assert all(line.startswith(f"novikoff: error: {path}:") for line in lines)


def test_the_locator_falls_back_to_coarser_places() -> None:
    source = Source("f.toml", '[[step]]\nid = "a"\nclaim = "y >= 0"\n[[step]]\nid = "b"\n'
                    'given = [\n  "x >= 0",\n]\nclaim = "y >= 0"\n')
    assert source.where("b", "claim", "y >= 0", "y") == (9, 10)  # the string, in b's table
    assert source.where("b", "given[0]", "x >= 0", None) == (7, 4)  # in a multi-line array
    assert source.where("b", "claim", "not there", None) == (9, 1)  # the key's line
    assert source.where("#2", None, None, None) == (4, 1)  # by position: the 2nd header
    assert source.where("b", None, None, None) == (5, 1)  # the step's id line
    assert source.where("gone", None, None, None) == (1, 1)


# -- newcomer trial, item 16: errors placed where they are, follow-on errors once -------------


def _lines(text: str, tmp_path: Path, name: str = "p.toml") -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProofFileError) as caught:
        parse_proof(path.read_bytes(), name)
    return [str(e) for e in caught.value.errors]


def test_a_unicode_name_is_placed_and_said_to_be_no_ascii_identifier(tmp_path: Path) -> None:
    """`γ` was "not an identifier" at 1:1; it is one (in Python), not ASCII, on line 3."""
    text = 'title = "u"\nvectors = ["w"]\nscalars = ["t", "γ"]\n[[step]]\nid = "s"\n' \
           'claim = "t*t >= 0"\n'
    assert _lines(text, tmp_path) == [
        "p.toml:3:18: name 'γ' is not an ASCII identifier: names are ASCII letters, digits "
        "and _; write 'gamma': the reports print it as γ"]
    bad = text.replace('"γ"', '"2x"')
    assert _lines(bad, tmp_path) == [
        "p.toml:3:18: name '2x' is not an identifier (letters, digits and _, not starting "
        "with a digit)"]


def test_a_bad_run_kind_is_placed_at_its_value(tmp_path: Path) -> None:
    """A kind of run is open (registered with verify.runs): the file refuses only a value
    that cannot name one, at its value; an unregistered name is the audit's to refuse, with
    the closest registered kind (test_runs_registry)."""
    text = ('title = "r"\nvectors = ["w"]\n[numeric]\nrun = "on line"\n[[step]]\nid = "a"\n'
            'claim = "norm2(w) >= 0"\n')
    assert _lines(text, tmp_path) == [
        "p.toml:4:8: numeric.run must name a run kind (online, batch, single-pass, cyclic, or "
        "one registered with verify.runs)"]


def test_a_set_whose_range_names_its_index_is_placed_at_the_set(tmp_path: Path) -> None:
    """Red-team finding: the error was placed at the first `j` of the file (the `scalars`
    line), the index's one-letter text located anywhere; it belongs to the set."""
    text = ('title = "s"\nscalars = ["y", "N", "j"]\nnaturals = ["N"]\nindexed = ["y"]\n'
            '[sets]\nM = { index = "j", range = "j..N", where = [] }\n[[step]]\nid = "a"\n'
            'claim = "sum(j in M, y[j]**2) >= 0"\n')
    assert _lines(text, tmp_path) == ["p.toml:6:1: set 'M': its range mentions its own index j"]


def test_a_misspelt_claim_is_one_error_not_two_out_of_order(tmp_path: Path) -> None:
    """The docs' many.toml without a `claim` line printed "16:1 unknown key 'clam'" and then
    "15:1 missing 'claim'", a follow-on of the same slip, out of line order."""
    text = ('title = "m"\nscalars = ["y"]\n[[step]]\nid = "b"\nclaim = "y**2 >= 0"\n\n'
            '[[step]]\nid = "c"\nclam = "y**2 >= 0"\n')
    assert _lines(text, tmp_path) == [
        "p.toml:9:1: step c: unknown key 'clam' in a step (expected one of: id, given, claim, "
        "uses, hints, source, note, split, induction, witness); did you mean 'claim'?"]
    missing = text.replace('clam = "y**2 >= 0"', 'note = "no claim"')
    assert _lines(missing, tmp_path) == ["p.toml:8:1: step c: missing 'claim'"]


def test_a_missing_import_is_placed_in_the_importing_file(tmp_path: Path) -> None:
    """It was `no-such-file.toml: No such file or directory`: no line, no importer."""
    text = ('title = "i"\nvectors = ["w"]\n[imports]\nlem = "no-such-file.toml"\n[[step]]\n'
            'id = "s"\nuses = ["lem/x"]\nclaim = "norm2(w) >= 0"\n')
    (found,) = _lines(text, tmp_path, "importer.toml")
    assert found.startswith("importer.toml:4:8: imports no-such-file.toml: no such file or "
                            "directory (")
    assert main(["check", str(tmp_path / "importer.toml")]) == 2



LEMMA_R = 'title = "lem"\nscalars = ["r", "T"]\n[define]\nr = "sqrt(T)"\n[[step]]\n' \
    'id = "nonneg"\nclaim = "r >= 0"\n'


def test_a_name_defined_otherwise_by_an_import_is_refused_at_the_define(
        tmp_path: Path) -> None:
    """Regression: `r = "max(a, a)"` here and `r = "sqrt(T)"` in the import were both read,
    the import's facts about another value under this file's name (`use` refuted at
    a = -1, r = 0, although r = max(a, a) >= 0 would give a >= 0). Names are shared across
    imports, so the second meaning is refused; the same definition is accepted."""
    (tmp_path / "lem.toml").write_text(LEMMA_R, encoding="utf-8")
    text = ('title = "main2"\nscalars = ["r", "a"]\n[define]\nr = "max(a, a)"\n[imports]\n'
            'lem = "lem.toml"\n[[step]]\nid = "use"\nuses = ["lem/nonneg"]\n'
            'claim = "a >= 0"\n')
    path = tmp_path / "main2.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    with pytest.raises(ProofFileError) as caught:
        parse_proof(text.encode(), str(path))
    assert [e.line_text() for e in caught.value.errors] == [
        f"{path}:4:6: 'r' is defined as max(a, a) in this file and as sqrt(T) in lem: a name "
        "means one thing across imports; rename it in one of them"]
    same = text.replace('"r", "a"', '"r", "a", "T"').replace("max(a, a)", "sqrt( (T) )").replace(
        "a >= 0", "r >= 0")
    proof = parse_proof(same.encode(), str(path))
    assert proof.definitions == {"r": "sqrt(T)"}  # the import's spelling, adopted first


def test_two_imports_defining_a_name_otherwise_are_refused(tmp_path: Path) -> None:
    """The same clash between two imported files (neither is the importing one)."""
    (tmp_path / "lem.toml").write_text(LEMMA_R, encoding="utf-8")
    (tmp_path / "lem2.toml").write_text(LEMMA_R.replace("sqrt(T)", "max(T, 0)"),
                                        encoding="utf-8")
    text = ('title = "m"\nscalars = ["a"]\n[imports]\nlem = "lem.toml"\nlem2 = "lem2.toml"\n'
            '[[step]]\nid = "use"\nuses = ["lem/nonneg", "lem2/nonneg"]\nclaim = "1 >= 0"\n')
    with pytest.raises(ProofFileError) as caught:
        parse_proof(text.encode(), str(tmp_path / "m.toml"))
    assert "'r' is defined as max(T, 0) in lem2 and as sqrt(T) in lem" in str(caught.value)


# -- issue 27's review: entries of [numeric] and uses placed where they are; errors together --

NUMERIC = """title = "h"
vectors = ["w", "x", "u"]
scalars = ["y", "t", "R2"]
[numeric]
run = "online"
names = { R2 = "x" }

[[step]]
id = "s"
given = ["R2 >= 0"]
claim = "norm2(w) >= 0"
"""


def test_an_entry_of_numeric_is_searched_in_numeric_not_the_whole_file() -> None:
    """`names = { R2 = "x" }` was placed at 2:18, the "x" of the `vectors` line."""
    source = Source("h.toml", NUMERIC)
    assert source.where(None, "numeric.names.R2", "x", None) == (6, 17)
    assert source.where(None, "numeric.run", "online", None) == (5, 8)
    assert source.where(None, "numeric.names.nosuch", None, None) == (4, 1)  # the header
    inline = Source("h.toml", 'vectors = ["x"]\nnumeric = { names = { R2 = "x" } }\n')
    # no header: the whole file, where the string after its key comes first (not `vectors`)
    assert inline.where(None, "numeric.names.R2", "x", None) == (2, 29)


def test_a_string_is_found_after_its_key_not_in_an_earlier_entry(tmp_path: Path) -> None:
    """docs32: with `title = "t"` (or `source = "t"`) above `naturals = ["t"]`, the error
    about naturals' `t` was placed at the title's string, the first `"t"` of the file."""
    path = tmp_path / "g.toml"
    path.write_text('title = "x"\nsource = "t"\nvectors = ["w"]\nscalars = ["y"]\n'
                    'naturals = ["t"]\n\n[[step]]\nid = "s"\nclaim = "y <= y"\n')
    with pytest.raises(ProofFileError) as error:
        load_proof(path)
    assert str(error.value).startswith(f"{path}:5:14: naturals lists 't'")
    source = Source("g.toml", 'title = "t"\n[[step]]\nid = "s"\nclaim = "t >= 0"\n'
                    'given = ["t >= 0"]\n')
    assert source.where("s", "given[0]", "t >= 0", None) == (5, 11)  # not the claim's


@pytest.mark.parametrize(("entry", "found"), [
    ('data = "my.csv"', "h.toml:7:1: 'numeric.data' must be a list of strings, not a string"),
    ("run = 5", "h.toml:5:1: 'numeric.run' must be a string, not an integer"),
    ("algorithm = 3", "h.toml:7:1: 'numeric.algorithm' must be a string, not an integer"),
])
def test_a_numeric_entry_of_the_wrong_type_is_placed_at_its_key(entry: str, found: str,
                                                                tmp_path: Path) -> None:
    """They were placed at 1:1."""
    text = NUMERIC.replace('names = { R2 = "x" }', "")
    text = text.replace('run = "online"', entry) if entry.startswith("run") else \
        text.replace('run = "online"\n', f'run = "online"\n\n{entry}\n')
    assert _lines(text, tmp_path, "h.toml") == [found]


def test_an_algorithm_id_may_name_a_plug_in(tmp_path: Path) -> None:
    """The message said "a source algorithm id", although a plug-in's name is allowed."""
    text = NUMERIC.replace('names = { R2 = "x" }', 'algorithm = "My Alg"')
    (found,) = _lines(text, tmp_path, "h.toml")
    assert found.startswith("h.toml:6:14: numeric.algorithm must be an algorithm id")
    assert "plug-in" in found


def test_numeric_errors_come_with_the_steps_errors(tmp_path: Path) -> None:
    """The reviewer's many4.toml: a step error hid the [numeric] table's, which hid each
    other (five runs for five errors)."""
    text = NUMERIC.replace('names = { R2 = "x" }', 'algorithm = "Bad Alg"\ndata = "a.csv"\n'
                           'colour = "red"').replace("norm2(w) >= 0", "norm2(ww) >= 0")
    assert [line.split(": ", 2)[1][:40] for line in _lines(text, tmp_path, "h.toml")] == [
        "numeric.algorithm must be an algorithm i", "'numeric.data' must be a list of strings",
        "unknown key 'colour' in numeric (expecte", "step s"]


def test_a_bad_cross_proof_use_is_placed_and_hides_no_other_step(tmp_path: Path) -> None:
    """`uses = ["/s"]` was `1:1: uses /...: '' is neither ...`, and a bad use of the library
    (`norm-grow`) hid every error of every step, at 1:1 with no did-you-mean."""
    text = ('title = "u"\nvectors = ["w", "x"]\nscalars = ["y"]\n[[step]]\nid = "a"\n'
            'claim = "gama >= 0"\n[[step]]\nid = "b"\nuses = ["/s"]\nclaim = "y**2 >= 0"\n'
            '[[step]]\nid = "c"\nuses = ["canonical-online/norm-grow"]\nclaim = "y**2 >= 0"\n'
            '[[step]]\nid = "d"\nuses = ["canonicl-online/norm-growth"]\nclaim = "y**2 >= 0"\n')
    assert _lines(text, tmp_path, "u.toml") == [
        "u.toml:6:10: step a: claim: undeclared name 'gama' in 'gama'; declare it in scalars "
        "(or vectors)",
        "u.toml:9:10: uses '/s': a step of another proof is written SOURCE/STEP (SOURCE a "
        "built-in proof id or an alias of [imports])",
        "u.toml:13:10: uses canonical-online/norm-grow: no step 'norm-grow' there; did you "
        "mean 'canonical-online/norm-growth'?",
        "u.toml:17:10: uses canonicl-online/...: 'canonicl-online' is neither a built-in "
        "proof nor an alias of [imports]; did you mean 'canonical-online'?"]


def test_a_file_importing_itself_is_one_cycle_said_once(tmp_path: Path) -> None:
    """It read `h.toml:6:7: imports h.toml: h.toml:6:7: imports h.toml: a cycle` (the
    located error wrapped again); a cycle through another file names both."""
    text = ('title = "h"\nvectors = ["w"]\n[imports]\nh = "h.toml"\n[[step]]\nid = "s"\n'
            'uses = ["h/s"]\nclaim = "norm2(w) >= 0"\n')
    path = tmp_path / "h.toml"
    path.write_text(text)
    with pytest.raises(ProofFileError) as caught:
        load_proof(path)
    (error,) = caught.value.errors
    assert str(error) == f"{path}:4:6: imports h.toml: a cycle ({path} -> {path})"
    (tmp_path / "g.toml").write_text(text.replace('"h.toml"', '"h2.toml"'))
    (tmp_path / "h2.toml").write_text(text.replace('"h.toml"', '"g.toml"'))
    with pytest.raises(ProofFileError) as caught:
        load_proof(tmp_path / "g.toml")
    assert str(caught.value).count("a cycle") == 1
    assert str(caught.value).endswith(f"a cycle ({tmp_path / 'g.toml'} -> "
                                      f"{tmp_path / 'h2.toml'} -> {tmp_path / 'g.toml'})")


def test_an_unused_import_is_a_note_and_is_never_read(tmp_path: Path) -> None:
    """Regression (red team 8): an import no step uses, of the file itself or of a path that
    is no proof, was accepted silently; it is still never read (no cycle, no error), and the
    file gets a note at its `[imports]` entry. A used one gets none."""
    text = ('title = "h"\nvectors = ["w"]\n[imports]\nh = "h.toml"\nz = "/dev/zero"\n'
            '[[step]]\nid = "s"\nclaim = "norm2(w) >= 0"\n')
    path = tmp_path / "h.toml"
    path.write_text(text)
    assert load_proof(path).notes == tuple(
        f"{path}:{line}: note: [imports] {alias}: no step uses it, so it is not read; remove it"
        for line, alias in ((4, "h"), (5, "z")))
    (tmp_path / "g.toml").write_text(text.replace('h = "h.toml"\nz = "/dev/zero"',
                                                  'h = "h.toml"'))
    used = load_proof(tmp_path / "g.toml")
    assert used.notes == (f"{tmp_path / 'g.toml'}:4: note: [imports] h: no step uses it, so "
                          "it is not read; remove it",)
    (tmp_path / "f.toml").write_text(text.replace('z = "/dev/zero"\n', '').replace(
        '"h.toml"', '"g.toml"').replace('[[step]]\nid = "s"\n', '[[step]]\nid = "s"\n'
                                         'uses = ["h/s"]\n'))
    assert load_proof(tmp_path / "f.toml").notes == ()


def test_a_copy_is_checked_with_the_naturals_of_its_own_file(tmp_path: Path) -> None:
    """Regression (kernadv31 O1): `|- t >= 0`, refuted in its own file (t a real there), read
    `proved p--tpos` in a file declaring t natural: names are shared, so the copy was checked
    with t natural, under the source's step id (a note said so). Now each copy is checked with
    its own file's naturals, so its verdict is its own file's; this file's step still reads t
    natural; the note is gone, having nothing left to explain."""
    from verify.proof_checker import check_proof

    (tmp_path / "plain.toml").write_text('title = "p"\nscalars = ["t"]\nnaturals = []\n'
                                         '[[step]]\nid = "tpos"\nclaim = "t >= 0"\n')
    text = ('title = "n"\nscalars = ["t"]\nnaturals = ["t"]\n[imports]\np = "plain.toml"\n'
            '[[step]]\nid = "use"\nuses = ["p/tpos"]\nclaim = "t >= 0"\n')
    path = tmp_path / "n.toml"
    path.write_text(text + '[[step]]\nid = "mine"\nclaim = "t >= 0"\n')
    proof = load_proof(path)
    assert proof.notes == () and proof.step("p--tpos").naturals == ()
    report = {r.step.id: r for r in check_proof(proof, store=None).steps}
    (own,) = check_proof(load_proof(tmp_path / "plain.toml"), store=None).steps
    assert report["p--tpos"].status == own.status == "refuted"  # at t = -1, in both
    assert str(report["p--tpos"].statement) == " |- t >= 0"  # t a real (no `t in Nat`)
    assert report["mine"].status == "proved"  # t natural in this file's own steps
    assert report["use"].status == "unknown"  # it uses the refuted copy
    # a `with` copy of a copy: the natural k replaced by the natural m is natural in it
    (tmp_path / "nat.toml").write_text(
        'title = "k"\nscalars = ["k"]\nnaturals = ["k"]\n[[step]]\nid = "kpos"\n'
        'claim = "k >= 0"\n[[step]]\nid = "kuse"\nuses = ["kpos"]\nclaim = "k + 1 >= 1"\n')
    path.write_text('title = "m"\nscalars = ["m"]\nnaturals = ["k", "m"]\n[imports]\n'
                    'b = "nat.toml"\n[[step]]\nid = "use"\n'
                    'uses = [{ step = "b/kuse", with = { k = "m" } }]\nclaim = "m + 1 >= 1"\n')
    steps = check_proof(proof := load_proof(path), store=None).steps
    assert [(r.step.id, r.step.naturals, r.status) for r in steps] == [
        ("b--kpos", ("k",), "proved"), ("b--kuse", ("k",), "proved"),
        ("b--kuse--with-1", ("m",), "proved"), ("use", None, "proved")]


def test_a_name_defined_here_but_plain_in_an_import_is_a_note(tmp_path: Path) -> None:
    """Regression (kernadv31 O2): `q = max(a, 0)` here, `|- q >= 0` about a plain q in the
    import: the copy p--qpos was refuted at q = -1, a value this file's q cannot take, with
    nothing saying that the copy reads q as its own file does. The file now gets a note."""
    (tmp_path / "plain.toml").write_text('title = "p"\nscalars = ["q", "a"]\n[[step]]\n'
                                         'id = "qpos"\nclaim = "q >= 0"\n')
    text = ('title = "d"\nscalars = ["q", "a"]\n[define]\nq = "max(a, 0)"\n[imports]\n'
            'p = "plain.toml"\n[[step]]\nid = "use"\nuses = ["p/qpos"]\nclaim = "q >= 0"\n')
    path = tmp_path / "d.toml"
    path.write_text(text)
    assert load_proof(path).notes == (
        f"{path}:4: note: [define] q: defined here as max(a, 0), but p--qpos reads it as a "
        "plain scalar, as in its own file: checked for every value of it",)
    same = text.replace('q = "max(a, 0)"\n', "")
    path.write_text(same)
    assert load_proof(path).notes == ()


@pytest.mark.parametrize("kind", ["a character device", "a named pipe", "a directory"])
def test_a_proof_path_that_is_no_regular_file_is_one_line(kind: str, tmp_path: Path) -> None:
    """`novikoff audit /dev/zero` said "file is larger than 1024 KiB"; a named pipe nobody
    writes would block forever (a stranger's `[imports]` may name one)."""
    path = {"a character device": Path("/dev/zero"), "a named pipe": tmp_path / "p.toml",
            "a directory": tmp_path / "d.toml"}[kind]
    if kind == "a named pipe":
        os.mkfifo(path)
    elif kind == "a directory":
        path.mkdir()
    with pytest.raises(ProofFileError) as caught:
        load_proof(path)
    assert str(caught.value) == (f"{path}: is {kind}, not a regular file: a proof is read "
                                 "from a file (on the command line, from standard input as -)")
    importer = tmp_path / "i.toml"
    importer.write_text(f'title = "i"\nvectors = ["w"]\n[imports]\nlib = "{path}"\n[[step]]\n'
                        'id = "s"\nuses = ["lib/x"]\nclaim = "norm2(w) >= 0"\n')
    with pytest.raises(ProofFileError) as caught:
        load_proof(importer)
    inside = kind != "a character device"  # /dev/zero is outside the importer's folder
    assert (f"i.toml:4:8: imports {path}: {path}: is {kind}, not a regular file" if inside
            else f"i.toml:4:8: imports {path}: outside the importing file's folder") in \
        str(caught.value)


LEMMA = ('title = "lemma"\nscalars = ["a"]\n[[step]]\nid = "sq"\nclaim = "a**2 >= 0"\n')


def _importing(target: str) -> str:
    return (f'title = "i"\nscalars = ["a"]\n[imports]\nlib = "{target}"\n[[step]]\nid = "s"\n'
            'uses = ["lib/sq"]\nclaim = "a**2 + 1 >= 0"\n')


@pytest.mark.parametrize("target", ["/etc/passwd", "../secret.toml", "sub/../../secret.toml",
                                    "link.toml", "linked/lemma.toml", "{home}/.ssh/config"])
def test_an_import_outside_the_importing_files_folder_is_refused_unread(
        tmp_path: Path, target: str) -> None:
    """Review: `[imports]` read any path (`/etc/passwd`, `~/.ssh/...`) and the TOML error
    quoted what it found there. As `[numeric] data`, an import is a file beside the
    importing file or below it, `..` and symbolic links resolved (a link inside pointing
    outside is outside); the refusal is one line at the entry and reads nothing."""
    secret = tmp_path / "secret.toml"
    secret.write_text('password = "hunter2"\n' + LEMMA, encoding="utf-8")
    home = tmp_path / "proofs"
    (home / "sub").mkdir(parents=True)
    (home / "link.toml").symlink_to(secret)
    (home / "linked").symlink_to(tmp_path)
    shutil.copy(secret, tmp_path / "lemma.toml")
    target = target.format(home=os.path.expanduser("~"))
    (found,) = _errors_of(_importing(target), home / "main.toml")
    assert found == (f"{home / 'main.toml'}:4:8: imports {target}: outside the importing "
                     "file's folder; a proof imports proof files beside it or below it "
                     "(symbolic links followed), or a built-in proof by its id")
    assert "password" not in found and "hunter2" not in found


def test_an_import_beside_or_below_is_read_and_a_built_in_id_still_imports(
        tmp_path: Path) -> None:
    """What stays allowed: a file below (`sub/lemma.toml`, `./sub/../lemma.toml`), a link
    inside the folder to a file inside it, a nested import below the imported file, and a
    built-in proof named by its id."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "lemma.toml").write_text(LEMMA, encoding="utf-8")
    (tmp_path / "lemma.toml").write_text(LEMMA, encoding="utf-8")
    (tmp_path / "alias.toml").symlink_to(tmp_path / "sub" / "lemma.toml")
    for target in ("sub/lemma.toml", "./sub/../lemma.toml", "alias.toml"):
        assert _errors_of(_importing(target), tmp_path / "main.toml") == [], target
    (tmp_path / "sub" / "mid.toml").write_text(
        _importing("lemma.toml").replace('"s"', '"sq"'), encoding="utf-8")
    assert _errors_of(_importing("sub/mid.toml"), tmp_path / "main.toml") == []
    text = ('title = "b"\nvectors = ["w", "x"]\nscalars = ["y"]\n[imports]\n'
            'lib = "canonical-online"\n[[step]]\nid = "s"\nuses = ["lib/norm-growth"]\n'
            'claim = "norm2(w) >= 0"\n')
    assert not any("imports" in e for e in _errors_of(text, tmp_path / "b.toml"))


def test_a_nested_import_outside_its_own_files_folder_is_refused(tmp_path: Path) -> None:
    """Each file imports from its own folder down: `sub/mid.toml` may not reach back up to
    `../lemma.toml` (so nothing reached through imports lies outside the first file's
    folder)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "lemma.toml").write_text(LEMMA, encoding="utf-8")
    (tmp_path / "sub" / "mid.toml").write_text(
        _importing("../lemma.toml").replace('"s"', '"sq"'), encoding="utf-8")
    (found,) = _errors_of(_importing("sub/mid.toml"), tmp_path / "main.toml")
    assert "imports sub/mid.toml: " in found and \
        "imports ../lemma.toml: outside the importing file's folder" in found


def test_an_alias_that_is_a_built_in_id_is_refused(tmp_path: Path) -> None:
    """Review: `[imports] canonical-online = "mine.toml"` made copies named, and said to
    come, from the built-in `canonical-online`; such an alias is refused at its entry."""
    (tmp_path / "mine.toml").write_text(LEMMA, encoding="utf-8")
    text = ('title = "i"\nscalars = ["a"]\n[imports]\ncanonical-online = "mine.toml"\n'
            '[[step]]\nid = "s"\nuses = ["canonical-online/sq"]\nclaim = "a**2 + 1 >= 0"\n')
    (found,) = _errors_of(text, tmp_path / "main.toml")
    assert found == (f"{tmp_path / 'main.toml'}:4:1: imports canonical-online: "
                     "'canonical-online' is a built-in proof's id; an alias must be another "
                     "name (its copies would be named, and said to come from, that proof); "
                     "rename it, e.g. my-canonical-online")
    assert _errors_of(text.replace("canonical-online", "mine"), tmp_path / "main.toml") == []


def _chain(folder: Path, depth: int, references: int) -> Path:
    """Files L0 .. L{depth}, each importing the next and using `references` of its steps."""
    for k in range(depth + 1):
        lines = [f'title = "L{k}"', 'scalars = ["x"]']
        if k < depth:
            lines += ["[imports]", f'a = "L{k + 1}.toml"']
        for i in range(references):
            lines += ["[[step]]", f'id = "s{i}"', 'claim = "x**2 >= 0"']
        if k < depth:
            uses = ", ".join(f'"a/s{i}"' for i in range(references))
            lines += ["[[step]]", 'id = "t"', f"uses = [{uses}]", 'claim = "x**2 >= 0"']
        (folder / f"L{k}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "L0.toml"


def test_a_file_imported_by_many_references_is_read_once_per_depth(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team 3 (F4): every reference read its file again, with that file's own imports,
    so three levels of twenty references took 126 s (twenty to the depth); each file is now
    read once per depth of one outermost read (counted, not timed)."""
    import proofs.proof_file as proof_file

    reads: list[str] = []
    real = proof_file.load_proof

    def counted(path: str | Path) -> object:
        reads.append(os.path.basename(str(path)))
        return real(path)

    monkeypatch.setattr(proof_file, "load_proof", counted)
    top = _chain(tmp_path, 4, 20)
    proof = counted(top)
    assert sorted(reads) == ["L0.toml", "L1.toml", "L2.toml", "L3.toml", "L4.toml"]
    assert [s.id for s in proof.steps[:2]] == ["a--s0", "a--s1"]  # type: ignore[attr-defined]


def test_two_imports_whose_copies_would_share_an_id_are_refused(tmp_path: Path) -> None:
    """Red team 3 (F6): alias `a` with step `b--c` and alias `a--b` with step `c` both copy
    to `a--b--c`; the second reference read the first file's step (a true statement, but
    not the one named)."""
    (tmp_path / "one.toml").write_text(
        'title = "one"\nscalars = ["x"]\n[[step]]\nid = "b--c"\ngiven = ["x >= 1"]\n'
        'claim = "x >= 0"\n', encoding="utf-8")
    (tmp_path / "two.toml").write_text(
        'title = "two"\nscalars = ["x"]\n[[step]]\nid = "c"\ngiven = ["x >= 5"]\n'
        'claim = "x >= 4"\n', encoding="utf-8")
    text = ('title = "m"\nscalars = ["x"]\n[imports]\na = "one.toml"\na--b = "two.toml"\n'
            '[[step]]\nid = "s1"\nuses = ["a/b--c"]\nclaim = "x >= 0"\n'
            '[[step]]\nid = "s2"\nuses = ["a--b/c"]\nclaim = "x >= 4"\n')
    (found,) = _errors_of(text, tmp_path / "m.toml")
    assert "'a--b--c' would name the copies of two different steps" in found
    assert main(["check", str(tmp_path / "m.toml")]) == 2


def test_definitions_across_imports_compare_decimals_as_written(tmp_path: Path) -> None:
    """Red team 3 (F7): the texts were compared after `ast.unparse`, through floats, so
    `sqrt(0.10000000000000001)` here and `sqrt(0.1)` in the import were one meaning."""
    (tmp_path / "src.toml").write_text(
        'title = "src"\nscalars = ["r"]\n[define]\nr = "sqrt(0.1)"\n[[step]]\nid = "pos"\n'
        'claim = "r >= 0"\n', encoding="utf-8")
    text = ('title = "imp"\nscalars = ["r"]\n[define]\nr = "sqrt(0.10000000000000001)"\n'
            '[imports]\ns = "src.toml"\n[[step]]\nid = "big"\nuses = ["s/pos"]\n'
            'claim = "r >= 0"\n')
    (found,) = _errors_of(text, tmp_path / "imp.toml")
    assert "'r' is defined as sqrt(0.10000000000000001) in this file and as sqrt(0.1)" in found
    assert _errors_of(text.replace("0.10000000000000001", "(0.1)"), tmp_path / "imp.toml") == []


def _errors_of(text: str, path: Path) -> list[str]:
    """The errors of the file `text` written at `path` (its imports read beside it)."""
    path.write_text(text, encoding="utf-8")
    try:
        load_proof(path)
    except ProofFileError as caught:
        return [str(e) for e in caught.errors]
    return []


@pytest.mark.parametrize(("rule", "where"), [
    ('base = { s = "0" }\nstep = { s = "s + x/x" }',
     "induction.step.s = 's + x/x' must not divide by x:"),
    ('base = { s = "x/(2*x)" }\nstep = { s = "s + 1" }',
     "induction.base.s = 'x/(2*x)' must not divide by 2*x:"),
])
def test_a_term_that_divides_by_a_name_is_refused(tmp_path: Path, rule: str, where: str) -> None:
    """Red team 3: the docs refuse a division in an induction's `base` or `step` (and in a
    `with` term), but SymPy had cancelled `x/x` before the check saw it; a division by a
    constant stays allowed."""
    text = ('title = "i"\nscalars = ["s", "t", "x"]\nnaturals = ["t"]\n[[step]]\nid = "count"\n'
            'claim = "s == t"\n[step.induction]\nvariable = "t"\n%s\n')
    (found,) = _lines(text % rule, tmp_path)
    assert where in found
    proof = parse_proof((text % 'base = { s = "0" }\nstep = { s = "s + 2/2" }').encode(), "p.toml")
    assert str(proof.steps[0].rule.step["s"]) == "s + 1"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("term", "where"), [
    ('witness = { y = "x/x" }', "witness.y = 'x/x' must not divide by x:"),
    ('witness = { y = "(y + 1)/(y + 1)" }', "witness.y = '(y + 1)/(y + 1)' must not divide by "
     "y + 1:"),
    ('witness = { w = "w*x/x" }', "witness.w = 'w*x/x' must not divide by x:"),
    ('witness = { w = "w/x" }', "witness.w = 'w/x' must not divide by x:"),
    ('uses = [{ step = "base", with = { y = "y*x/x" } }]',
     "step s: with.y = 'y*x/x' must not divide by x:"),
])
def test_a_term_dividing_by_a_name_is_refused_whatever_sympy_cancels(
        tmp_path: Path, term: str, where: str) -> None:
    """The term parser gives what its text divides by (`parse_term`, the record a relation
    keeps as `Relation.divisors`): `x/x`, cancelled to 1 before anything sees the term, a
    vector term and a `with` term are refused as a plain division by a name is."""
    text = ('title = "d"\nvectors = ["w"]\nscalars = ["x", "y"]\n[[step]]\nid = "base"\n'
            'claim = "y**2 >= 0"\n[[step]]\nid = "s"\nclaim = "y**2 + x**2 >= 0"\n%s\n')
    found = [line for line in _lines(text % term, tmp_path) if "must not divide" in line]
    assert len(found) == 1 and where in found[0], found


def test_a_term_dividing_by_a_constant_is_read_and_its_divisors_are_the_walkers() -> None:
    """A constant divisor is no division by a name (`x/2`, or `x/(y - y + 2)`, which is 2);
    a term records its divisors as a relation does, in the order the text reads them."""
    from proofs.language.expressions import parse_relation, parse_term
    from proofs.step import declare

    names = declare(["w"], ["x", "y"])
    assert parse_term("x/2 + y", names, vector=False) == (sympy.Rational(1, 2) * x_ + y_, ())
    assert parse_term("x/(y - y + 2)", names, vector=False)[1] == ()
    assert parse_term("x/x + y/(x + 1)", names, vector=False) == (
        1 + y_ / (x_ + 1), (x_, x_ + 1))
    assert parse_term("w*y/x", names, vector=True)[1] == (x_,)
    assert parse_relation("x/x + y/(x + 1) >= 0", names).divisors == (x_, x_ + 1)


def test_imports_that_fan_out_are_refused_once_past_the_step_limit(tmp_path: Path) -> None:
    """Red team 4: twenty aliases of the next file per file, each step `s` using all twenty
    copies of the next file's `s`, grow twenty-fold per level (20^8 copies at the allowed
    depth); the limit of a proof's steps was counted only once every copy was built (a
    level of four did not end in 200 s). It is counted as the copies are made."""
    depth, fan = 4, 20
    for k in range(depth + 1):
        lines = [f'title = "L{k}"', 'scalars = ["x"]']
        if k < depth:
            lines += ["[imports]", *(f'a{i} = "L{k + 1}.toml"' for i in range(fan))]
        lines += ["[[step]]", 'id = "s"', 'claim = "x*x >= 0"']
        if k < depth:
            lines.append("uses = [" + ", ".join(f'"a{i}/s"' for i in range(fan)) + "]")
        (tmp_path / f"L{k}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (found,) = _errors_of((tmp_path / "L0.toml").read_text(), tmp_path / "L0.toml")
    assert found.endswith("steps, more than 1000"), found  # said once, not per alias


def test_the_files_a_proof_imports_are_listed_each_read_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`imported_files` (the audit's list of files a report may not overwrite) follows
    `[imports]` transitively, as the parser resolves them, TOML only; each real file is read
    once: twenty links to the file's own folder (`l0/a.toml` ... `l19/a.toml`, each another
    path to one file) would otherwise be 20**8 reads. What is refused (outside the folder)
    or a built-in id is left out; a file named but missing is listed (a report written there
    would become what the proof imports)."""
    import proofs.proof_file as proof_file

    for k in range(20):
        (tmp_path / f"l{k}").symlink_to(tmp_path)
    (tmp_path / "a.toml").write_text(
        LEMMA + "[imports]\n" + "".join(f'a{k} = "l{k}/a.toml"\n' for k in range(20)),
        encoding="utf-8")
    (tmp_path / "main.toml").write_text(
        _importing("a.toml")[: -1] + '\n', encoding="utf-8")
    text = (tmp_path / "main.toml").read_text(encoding="utf-8").replace(
        '[imports]\n', '[imports]\nout = "../elsewhere.toml"\nnone = "missing.toml"\n'
        'builtin = "canonical-online"\n')
    (tmp_path / "main.toml").write_text(text, encoding="utf-8")
    reads: list[str] = []
    real = proof_file.read_regular
    monkeypatch.setattr(proof_file, "read_regular", lambda p: reads.append(p) or real(p))
    found = proof_file.imported_files(tmp_path / "main.toml")
    assert found == [str(tmp_path / "missing.toml"), str(tmp_path / "a.toml")]
    assert len(reads) == 3, reads  # main.toml, a.toml, and the attempt at missing.toml


WITH = """title = "wf"
vectors = ["w"]
scalars = ["y", "z", "c", "N"]
naturals = ["N"]
indexed = ["y", "z"]

[[step]]
id = "base"
given = ["y[1] >= 0"]
claim = "sum(j in 1..1, y[j]) >= 0"

[[step]]
id = "fam"
given = ["z[1] >= 0"]
claim = "sum(j in 1..1, z[j]) >= 0"
uses = [{ step = "base", with = { y = "z" } }]

[[step]]
id = "famscalar"
given = ["c >= 0"]
claim = "c >= 0"
uses = [{ step = "base", with = { y = "c" } }]

[[step]]
id = "after-fam"
uses = ["fam"]
claim = "c**2 >= 0"
"""


def test_a_rules_refusal_comes_with_the_readers_errors(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """Red team 19 (after F9): a `with` the reader refuses (step fam) hid the kernel's
    refusal of an independent `with` (step famscalar), reported only once the first was
    fixed. Both now, in file order; a step using the broken one is not read (its error
    would be that one's); and a file read whole is refused by the rules as before."""
    path = tmp_path / "wf.toml"
    path.write_text(WITH)
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        f"novikoff: error: {path}:16:40: step fam: with.y: z is a family: write a member, "
        "z[j] in 'z'",
        f"novikoff: error: {path}:19:1: step famscalar: instance of base: 'y' is not a name "
        "it can substitute"]
    assert main(["audit", str(path), "--budget", "small"]) == 2  # the audit reads it so too
    assert capsys.readouterr().err.splitlines()[-2:] == err.splitlines()
    path.write_text(WITH.replace('uses = [{ step = "base", with = { y = "z" } }]', ''))
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"novikoff: error: {path}:19:1: step famscalar: instance of base: 'y' is not a name "
        "it can substitute"]


HARMONIC = """title = "harmonic"
theorem = "bound"
vectors = ["w", "x", "u"]
scalars = ["y", "t", "gamma_u"]
naturals = ["t"]

[[step]]
id = "margin"
given = ["y*dot(u, x) >= gamma_u", "gamma_u > 0"]
claim = "y*dot(u, x) > 0"

[[step]]
id = "bound"
given = []
claim = "dot(w, u) >= 0"

[step.induction]
variable = "t"
constants = ["u", "gamma_u"]
base = { w = "0*w" }
step = { w = "w + y*x/(t + 1)" }
given = ["y*dot(u, x) >= gamma_u", "gamma_u > 0"]
"""


def test_a_theorem_whose_step_has_errors_reports_those_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """User finding (high): `theorem = "bound"` over a step `bound` whose update divides by
    t + 1 printed only `harmonic.toml:2:12: theorem names 'bound', which is not a step`
    (the proof of the steps read without errors, built to report the rules' refusals too,
    lacked `bound` and refused its own `theorem`); the step's error is reported instead.
    A `theorem` naming no step at all is still an error, beside the steps' own."""
    path = tmp_path / "harmonic.toml"
    path.write_text(HARMONIC)
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        f"novikoff: error: {path}:20:10: step bound: induction.step.w = 'w + y*x/(t + 1)' "
        "must not divide by t + 1: a term divides by constants only (SymPy cancels `x/x` to "
        "1, and with it where the statement is undefined)"]
    path.write_text(HARMONIC.replace('theorem = "bound"', 'theorem = "bund"'))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "theorem names 'bund', which is not a step; did you mean 'bound'?" in err
    assert "step bound: induction.step.w = 'w + y*x/(t + 1)' must not divide" in err


def test_a_misspelt_theorem_is_told_the_step_it_is_close_to(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer 31, F2: `theorem = "mistake-bond"` printed "theorem names 'mistake-bond',
    which is not a step" with no fix, where a misspelt `uses` is told `did you mean ...?`
    (docs/proof-files.md, *Errors*). A name close to no step gets no guess."""
    text = ('title = "t"\nscalars = ["a"]\ntheorem = "mistake-bond"\n'
            '[[step]]\nid = "mistake-bound"\nclaim = "a**2 >= 0"\n')
    path = tmp_path / "t.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"novikoff: error: {path}:3:12: theorem names 'mistake-bond', which is not a step; "
        "did you mean 'mistake-bound'?"]
    path.write_text(text.replace("mistake-bond", "zzz"))
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"novikoff: error: {path}:3:12: theorem names 'zzz', which is not a step"]


def test_errors_cross_processes_whole() -> None:
    """An audit's worker sends a file's errors to the parent pickled: `ProofFileErrors` could
    not be unpickled (its constructor takes errors, its `args` held the message), and a
    `ProofFileError` lost its file, step and place (found 2026-11-28)."""
    import pickle

    one = ProofFileError("bad", file="f.toml", step="s", key="claim", text="a", segment="a",
                         fix="write b", line=3, column=7)
    both = ProofFileErrors([one, ProofFileError("worse", step="t")])
    again = pickle.loads(pickle.dumps(both))
    assert type(again) is ProofFileErrors and str(again) == str(both)
    assert [e.line_text() for e in again.errors] == [e.line_text() for e in both.errors]
    assert vars(pickle.loads(pickle.dumps(one))) == vars(one)


def test_data_errors_cross_processes_whole() -> None:
    """The same for the data's errors: `DataErrors` and `NotSeparableError` could not be
    unpickled (their constructors take errors, a certificate), `DataError` lost its place."""
    import pickle
    from fractions import Fraction

    from perceptron.errors import DataError, DataErrors
    from perceptron.geometry.max_margin import NotSeparableError
    from perceptron.geometry.separators import Inseparable

    one = DataError("bad", source="f.csv", line=2, column=3)
    for error in (one, DataErrors([one, DataError("worse", source="g.csv")]),
                  NotSeparableError(Inseparable((Fraction(1), Fraction(1)), "xor"), bias=True)):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert {k: v for k, v in vars(again).items() if k != "errors"} == {
            k: v for k, v in vars(error).items() if k != "errors"}
        assert list(map(repr, getattr(again, "errors", ()))) == list(map(
            repr, getattr(error, "errors", ())))
