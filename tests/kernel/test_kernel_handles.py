"""Issue 30: the kernel's own values as used steps, its memos, and the copies it hands out.

A long proof's step uses the statements of all earlier ones. Handed over as Statements they
were validated again at every step (quadratic time in the proof's length); a `Theorem` or a
`kernel.Stated` (`kernel.state`) in a sequent's `uses` is read from the kernel's own copy
instead. These tests pin down that this reads exactly what the Statement does, that the
kernel's copies never reach a caller (whatever a caller changes in place, the kernel reads
what it made), and that the memos validate what they keep.
"""

from __future__ import annotations

import pytest
import sympy

from proofs.library import PROOFS, load_builtin
from verify import kernel
from verify.kernel import Fact, Judgement, KernelError, Rel, Sequent, algebra, rules
from verify.proof_checker import sequent, used_statement
from verify.prover import decide

x, y = sympy.Symbol("x"), sympy.Symbol("y")
ZERO, ONE = sympy.Integer(0), sympy.Integer(1)


def rel(lhs: sympy.Expr, op: str, rhs: sympy.Expr = ZERO) -> Rel:
    return Rel(lhs, op, rhs, f"{lhs} {op} {rhs}")


def seq(step: str, hyps: tuple[Rel, ...], claim: Rel, uses: tuple = ()) -> Sequent:
    return Sequent(step, frozenset(), frozenset({"x", "y"}), hyps, claim, uses=uses)


def proved(sequent: Sequent, used: tuple = ()) -> kernel.Theorem:
    evidence = []
    for ob in kernel.obligations(sequent):
        found = decide(ob.judgement).certificate
        assert found is not None, ob.label
        evidence.append((ob.judgement, found))
    return kernel.conclude(sequent, evidence, used)


#: a chain: x >= 0 |- x + 1 >= 1, then y >= 1 and that |- x + y >= 1, then all of it
FIRST = seq("first", (rel(x, ">="),), rel(x + 1, ">=", ONE))
SECOND_HYPS = (rel(y, ">=", ONE),)
SECOND_CLAIM = rel(x + y, ">=", ONE)
THIRD_CLAIM = rel(x + 2 * y, ">=", ONE)


def test_every_built_in_step_reads_the_same_from_a_stated_as_from_its_statement() -> None:
    """The statement and the obligations of every step of every built-in proof (direct,
    cases, inductions carrying invariants, one-update lemmas, instances, existentials), read
    once with the used steps' Statements and once with their `kernel.Stated`."""
    for name in PROOFS:
        proof = load_builtin(name)
        statements: dict[str, kernel.Statement] = {}
        readings: dict[str, kernel.Stated] = {}
        for step in proof.steps:
            plain = sequent(proof, step, [used_statement(u, statements[u.step])
                                          for u in step.uses])
            read = sequent(proof, step, [used_statement(u, readings[u.step])
                                         for u in step.uses])
            readings[step.id] = kernel.state(read)
            statements[step.id] = kernel.statement(plain)
            assert readings[step.id].statement == statements[step.id], (name, step.id)
            assert readings[step.id].obligations == kernel.obligations(plain), (name, step.id)


def test_a_step_using_theorems_is_the_step_using_their_statements() -> None:
    first = proved(FIRST)
    second = seq("second", SECOND_HYPS, SECOND_CLAIM, (first,))
    by_statement = seq("second", SECOND_HYPS, SECOND_CLAIM, (first.statement,))
    assert kernel.statement(second) == kernel.statement(by_statement)
    assert kernel.obligations(second) == kernel.obligations(by_statement)
    theorem = proved(second, (first,))
    assert theorem.statement == proved(by_statement, (first,)).statement
    # the third step inherits the first's hypothesis through the second (a set difference
    # that is not empty: x >= 0 is not among the third's own hypotheses)
    third = seq("third", (), THIRD_CLAIM, (theorem, first))
    assert [h.text for h in kernel.statement(third).hypotheses] == [
        "y >= 1", "x >= 0", "x + 1 >= 1", "x + y >= 1"]
    assert proved(third, (theorem, first)).statement == kernel.statement(third)


def test_a_stated_claims_nothing() -> None:
    """A Stated of a false step is read as its statement, but it is no Theorem: a step
    using it is proved only with a Theorem of it, which `conclude` cannot be given."""
    false = kernel.state(seq("false", (), rel(x, ">=", ONE)))
    use = seq("use", (), rel(x, ">=", ONE), (false,))
    evidence = [(ob.judgement, decide(ob.judgement).certificate) for ob in false.obligations]
    assert evidence[0][1] is None  # x >= 1 is false
    evidence = [(ob.judgement, decide(ob.judgement).certificate)
                for ob in kernel.obligations(use)]
    assert all(c is not None for _, c in evidence)  # x >= 1 |- x >= 1
    with pytest.raises(KernelError, match="own Theorem"):
        kernel.conclude(use, evidence, [false])
    with pytest.raises(KernelError, match="own Theorem"):
        kernel.conclude(use, evidence, [])


def test_a_forged_stated_is_not_read_as_the_kernels() -> None:
    forged = kernel.Stated.__new__(kernel.Stated)
    object.__setattr__(forged, "statement", kernel.statement(seq("t", (), rel(x, ">=", ONE))))
    with pytest.raises(KernelError, match="must be a Statement, not Stated"):
        kernel.statement(seq("use", (), rel(x, ">=", ONE), (forged,)))
    with pytest.raises(KernelError, match="only the kernel makes a Stated"):
        kernel.Stated(object(), statement=None)


def test_what_a_caller_changes_in_place_the_kernel_does_not_read() -> None:
    """`object.__setattr__` reaches frozen dataclasses: a caller may change the statement of
    a Theorem or a Stated, an obligation's relations and facts. None of them is the kernel's:
    a step using the value reads what the kernel made, and `conclude` checks against it."""
    first = proved(FIRST)
    read = kernel.state(seq("second", SECOND_HYPS, SECOND_CLAIM, (first,)))
    original = read.statement
    for value in (first.statement, read.statement):
        object.__setattr__(value.hypotheses[0], "lhs", -ONE)  # x >= 0 made -1 >= 0
        object.__setattr__(value, "claim", rel(ONE, "<=", ZERO))
    ob = read.obligations[0]
    object.__setattr__(ob.written[1], "rhs", -ONE)
    object.__setattr__(ob.judgement.claim, "expr", ONE)  # the claim made 1 >= 0
    object.__setattr__(ob.judgement.hypotheses[0], "expr", -ONE)
    again = kernel.state(seq("second", SECOND_HYPS, SECOND_CLAIM, (first,)))
    assert [h.text for h in again.statement.hypotheses] == [h.text for h in original.hypotheses]
    assert again.statement.hypotheses[1] == rel(x, ">=")  # read from the kernel's copy
    assert again.obligations[0].judgement.claim == Fact(x + y - 1, ">=")
    third = seq("third", (), THIRD_CLAIM, (read, first))
    assert kernel.statement(third).hypotheses[:2] == (rel(y, ">=", ONE), rel(x, ">="))


def test_the_normal_form_memo_hands_out_copies() -> None:
    """Found by issue 30's review: `obligations` handed out the memo's own facts, so a caller
    changing one in place (the claim of `x >= 1` made `x**2 >= 0`) changed what `conclude`
    then checked: a false step came out proved."""
    false = seq("false", (), rel(x, ">=", ONE))
    (ob,) = kernel.obligations(false)
    object.__setattr__(ob.judgement.claim, "expr", x**2)
    (again,) = kernel.obligations(false)
    assert again.judgement.claim == Fact(x - 1, ">=")
    assert decide(again.judgement).certificate is None
    fact, _ = algebra.normal_form(rel(x, ">=", ONE), "r")
    object.__setattr__(fact, "expr", x**2)
    assert algebra.normal_form(rel(x, ">=", ONE), "r")[0] == Fact(x - 1, ">=")
    with pytest.raises(KernelError, match="evidence is for another judgement"):
        kernel.conclude(false, [(ob.judgement, decide(ob.judgement).certificate)], [])


def test_the_memos_keep_validated_values_only() -> None:
    class Liar(sympy.Symbol):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = sympy.Symbol.__hash__

    # (names no other test uses: a liar equal to a key already kept would only be handed
    # that key's value, which is the value of the expression it claims to be)
    with pytest.raises(KernelError, match="not a SymPy core class"):
        algebra.symbols_of(Liar("liar_symbols"))
    with pytest.raises(KernelError, match=r"^e .*not a SymPy core class"):
        algebra.expanded((x,), Liar("liar_expanded"), "e")
    with pytest.raises(KernelError, match=r"^e .*not a SymPy core class"):
        algebra.reciprocal_bases(Liar("liar_bases"), "e")
    with pytest.raises(KernelError, match=r"^e: division inside the divisor"):
        algebra.reciprocal_bases(1 / (1 + 1 / x), "e")

    class LyingRel(Rel):  # equal to every relation: kept, it would answer for x >= 0
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 30

    with pytest.raises(KernelError, match="expected a Rel, not LyingRel"):
        rules._form(LyingRel(y, ">=", ZERO, "x >= 0"))
    assert rules._form(rel(x, ">="))[0] == Fact(x, ">=")
    assert algebra.symbols_of(x + y) == {x, y}
    assert algebra.reciprocal_bases(1 / (x + 1) + y, "e") == [x + 1]


def test_expressions_are_walked_once_and_the_memo_is_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(algebra, "MAX_VALID", 2)
    monkeypatch.setattr(algebra, "_VALID", {})
    first, second, third = x + 1, x + 2, x + 3
    for e in (first, second, first, third):
        assert algebra.expr(e, "e") is e
    assert list(algebra._VALID.values()) == [third]  # full at 2: cleared, then third kept
    with pytest.raises(KernelError, match="float"):
        algebra.expr(x + sympy.Float(0.5), "e")


def test_a_judgement_lists_its_symbols_scalars_first() -> None:
    w = algebra.gram("u", "w")
    judgement = Judgement((Fact(w + y, ">="),), Fact(x, ">"))
    assert judgement.symbols() == (x, y, w)


def test_a_dead_statements_callback_forgets_its_own_entry_only() -> None:
    """Review 33 (kern35): the weak callback of a statement the kernel handed out popped the
    entry under its `id` whatever it held. CPython runs it before the id can be reused;
    where it runs later (an interpreter that collects lazily), a newer statement handed out
    under the same id would lose its entry, and the kernel would read it again as a
    caller's (its starts unknown). Here the newer entry is put under the dead one's id by
    hand, the dead one's weak reference kept alive (its callback pending): the callback
    must leave the newer entry, and forget its own."""
    import gc

    dead = kernel.statement(FIRST)
    key = id(dead)
    newer = kernel.statement(seq("newer", SECOND_HYPS, SECOND_CLAIM))
    pending, entry = rules._ISSUED[key], rules._ISSUED[id(newer)]
    rules._ISSUED[key] = entry  # `newer` as if handed out under `dead`'s id
    try:
        del dead
        gc.collect()
        assert pending[0]() is None and rules._ISSUED.get(key) is entry
    finally:
        if rules._ISSUED.get(key) is entry:
            del rules._ISSUED[key]
    assert rules._ISSUED[id(newer)] is entry
    gone = kernel.statement(FIRST)
    key, own = id(gone), rules._ISSUED[id(gone)]
    del gone
    gc.collect()
    assert own[0]() is None and rules._ISSUED.get(key) is not own  # its own: forgotten
