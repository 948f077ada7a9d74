"""Signs of products of sign-known atoms (newcomer 23, M1 and M2): a lecturer's proof with a
learning rate `eta` proves as its eta-free twin does, with no lemma `t*eta*g >= 0` written
by hand, and its false variants are never proved.

With `eta` the textbook steps need a product of four hypotheses (`t*eta*g` times the
progress invariant) and a multiplier of three (`t*eta**2`), one more than `hypothesis
products` tries; `verify.search.products.sign_product_terms` and `sign_multipliers` supply
them, and the kernel checks every certificate as before."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest
import sympy

from proofs.language.terms import Vec
from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Fact, Judgement, Obligation
from verify.proof_checker import ProofReport, _check_step, _factor_advice, check_proof
from verify.search.polynomials import Context
from verify.search.products import sign_multipliers, sign_products
from verify.search.work import BUDGETS, DEFAULT_BUDGET
from verify.verdict import Stop, Verdict

LECTURE = """
title = "Lecture 3: perceptron with step eta"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "R", "g", "eta"]
naturals = ["t"]

[[step]]
id = "norm-invariant"
claim = "norm2(w) <= t*eta**2*R**2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2", "eta > 0"]
constants = ["R", "eta"]

[[step]]
id = "progress-invariant"
claim = "dot(w, u) >= t*eta*g"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y*dot(u, x) >= g", "eta > 0"]
constants = ["u", "g", "eta"]

[[step]]
id = "squared-lower-bound"
uses = ["progress-invariant"]
given = ["norm2(u) == 1", "g > 0", "eta > 0"]
claim = "t**2*eta**2*g**2 <= norm2(w)"
hints = ["w - dot(w, u)*u"]

[[step]]
id = "mistake-bound"
uses = ["norm-invariant", "squared-lower-bound"]
given = ["g > 0", "eta > 0"]
claim = "t <= R**2/g**2"
split = { on = "t" }
"""

# the two steps stated directly (their used claims as `given`), so a false variant is
# refuted outright rather than left unknown as a point no run may reach
DIRECT = """
title = "eta steps, direct"
vectors = ["w", "u"]
scalars = ["t", "R", "g", "eta"]
naturals = ["t"]

[[step]]
id = "squared-lower-bound"
given = ["dot(w, u) >= t*eta*g", "norm2(u) == 1", "g > 0", "eta > 0"]
claim = "t**2*eta**2*g**2 <= norm2(w)"
hints = ["w - dot(w, u)*u"]

[[step]]
id = "mistake-bound"
given = ["norm2(w) <= t*eta**2*R**2", "t**2*eta**2*g**2 <= norm2(w)", "g > 0", "eta > 0"]
claim = "t <= R**2/g**2"
split = { on = "t" }
"""


def statuses(text: str) -> dict[str, str]:
    report = check_proof(parse_proof(text.encode(), "eta.toml"))
    return {step.step.id: step.status for step in report.steps}


def test_the_lecturers_eta_proof_as_written_is_proved() -> None:
    report = check_proof(parse_proof(LECTURE.encode(), "lecture.toml"))
    by_id = {step.step.id: step for step in report.steps}
    assert [s.status for s in report.steps] == ["proved"] * 4, [s.message for s in report.steps]
    assert by_id["squared-lower-bound"].message == "certificate by sign products"
    # every certificate is the kernel's to accept: re-check each piece
    for step in report.steps:
        for goal in step.goals:
            for judgement, certificate in goal.pieces:
                kernel.check_certificate(judgement, certificate)


def test_the_direct_steps_are_proved_and_their_false_variants_refuted() -> None:
    assert statuses(DIRECT) == {"squared-lower-bound": "proved", "mistake-bound": "proved"}
    # without eta > 0 (eta = 0 or negative breaks both), or with the inequality reversed
    no_eta = DIRECT.replace(', "eta > 0"]', "]")
    assert statuses(no_eta) == {"squared-lower-bound": "refuted", "mistake-bound": "refuted"}
    reversed_ = DIRECT.replace('claim = "t**2*eta**2*g**2 <= norm2(w)"',
                               'claim = "t**2*eta**2*g**2 >= norm2(w)"').replace(
        'claim = "t <= R**2/g**2"', 'claim = "t >= R**2/g**2"')
    assert statuses(reversed_) == {"squared-lower-bound": "refuted", "mistake-bound": "refuted"}


def test_the_lecturers_false_variants_are_never_proved() -> None:
    no_eta = LECTURE.replace('given = ["norm2(u) == 1", "g > 0", "eta > 0"]',
                             'given = ["norm2(u) == 1", "g > 0"]').replace(
        'given = ["g > 0", "eta > 0"]\nclaim = "t <=', 'given = ["g > 0"]\nclaim = "t <=')
    found = statuses(no_eta)
    assert found["squared-lower-bound"] != "proved"
    assert found["mistake-bound"] != "proved"
    reversed_ = LECTURE.replace('claim = "t <= R**2/g**2"', 'claim = "t >= R**2/g**2"')
    assert statuses(reversed_)["mistake-bound"] != "proved"


def test_sign_products_and_multipliers_are_read_off_the_judgement() -> None:
    t, g, eta, R = sympy.symbols("t g eta R")
    ww, uw = sympy.Symbol("<w,w>"), sympy.Symbol("<u,w>")
    progress = Judgement((Fact(t, ">="), Fact(g, ">"), Fact(eta, ">"),
                          Fact(uw - t * eta * g, ">=")),
                         Fact(ww - t**2 * eta**2 * g**2, ">="), ("u", "w"), ("t", "g", "eta"))
    # t*eta*g (hypotheses 0, 1, 2) from the progress fact; the claim's t**2*eta**2*g**2
    # is past MAX_SIGN_FACTORS
    assert sign_products(Context(progress)) == [(0, 1, 2)]
    bound = Judgement((Fact(t, ">"), Fact(g, ">"), Fact(eta, ">"),
                       Fact(t * eta**2 * R**2 - ww, ">="),
                       Fact(ww - t**2 * eta**2 * g**2, ">=")),
                      Fact(R**2 - g**2 * t, ">="), ("w",), ("t", "g", "eta", "R"))
    assert sign_multipliers(Context(bound)) == [(0, 2, 2)]  # t*eta**2
    # t only known >= 0: no multiplier may use it (a nonnegative m could be 0)
    weak = Judgement((Fact(t, ">="), *bound.hypotheses[1:]), bound.claim, ("w",),
                     bound.scalars)
    assert sign_multipliers(Context(weak)) == []


def test_an_unsplit_bound_is_told_which_factor_a_split_lets_it_cancel() -> None:
    """Newcomer 23, M2: the advice named a split on t only; it now names the factor
    t*eta**2 that the case t > 0 cancels, and following it proves the step."""
    unsplit = LECTURE.replace('split = { on = "t" }\n', "")
    proof = parse_proof(unsplit.encode(), "unsplit.toml")
    report = check_proof(proof)
    # gaps33: the checker takes the advice itself (t >= 0 is stated)
    assert report.steps[-1].status == "proved", report.steps[-1].message
    assert "by cases on t, a split the checker chose" in report.steps[-1].message
    # the step as written, before the checker's own tries, is told the factor
    last = _check_step(proof, proof.steps[-1], DEFAULT_BUDGET, None,
                       {s.step.id: s for s in report.steps}, None, None)
    assert last.status == "unknown"
    assert last.message.startswith(
        "main: cancelling the positive factor eta**2*t proves the claim once `t > 0` is known"
        " (the kernel accepted that certificate with it added): split on t (`split = { on ="
        ' "t" }`), so that its case t > 0 knows it'), last.message
    assert statuses(LECTURE)["mistake-bound"] == "proved"  # the advice followed


def test_the_factor_advice_names_facts_to_add_for_scalars_of_no_known_sign() -> None:
    t = sympy.Symbol("t")
    judgement = Judgement((Fact(t, ">="),), Fact(t, ">="), (), ("t", "eta"))
    goal = Obligation("main", judgement, True, ("natural",))
    stop = Stop("factor", names=("eta**2*t", "eta", "t"))
    assert _factor_advice(goal, [stop]) == (
        "cancelling the positive factor eta**2*t proves the claim once `eta > 0` and `t > 0`"
        " are known (the kernel accepted that certificate with them added): add `eta > 0` and"
        " `t > 0` to `given` if they hold, or prove them in a step this one uses")
    # one scalar, known >= 0: a split on it gives the case that knows it
    assert _factor_advice(goal, [Stop("factor", names=("t", "t"))]).endswith(
        'split on t (`split = { on = "t" }`), so that its case t > 0 knows it')
    assert _factor_advice(goal, [Stop("factor", names=("eta", "eta"))]).endswith(
        "add `eta > 0` to `given` if it holds, or prove it in a step this one uses")
    assert _factor_advice(goal, [Stop("exhausted")]) is None


def test_a_step_split_on_another_name_is_not_told_to_split_again() -> None:
    """A step has one split (newcomer 21: a second `split =` is a TOML error), so a step split
    on g whose case lacks t > 0 is told to add or prove that fact instead."""
    other = LECTURE.replace('split = { on = "t" }', 'split = { on = "g" }')
    report = check_proof(parse_proof(other.encode(), "split-g.toml"))
    last = report.steps[-1]
    assert last.status == "unknown"
    assert last.message.startswith(
        "case g > 0: no certificate in this case: cancelling the positive factor eta**2*t "
        "proves the claim once `t > 0` is known (the kernel accepted that certificate with it "
        "added): add `t > 0` to `given` if it holds, or prove it in a step this one uses"
    ), last.message
    assert "split on t" not in last.message


NO_SIGN = """
title = "mistake bound with a radius of no sign"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "R2", "g"]
naturals = ["t"]
[[step]]
id = "norm-invariant"
claim = "norm2(w) <= t*R2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
constants = ["R2"]
[[step]]
id = "progress-invariant"
claim = "dot(w, u) >= t*g"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y*dot(u, x) >= g"]
constants = ["u", "g"]
[[step]]
id = "squared-lower-bound"
uses = ["progress-invariant"]
given = ["norm2(u) == 1", "g > 0"]
claim = "t**2*g**2 <= norm2(w)"
hints = ["w - dot(w, u)*u"]
[[step]]
id = "mistake-bound"
uses = ["norm-invariant", "squared-lower-bound"]
given = ["g > 0", "1000*R2 + 1 >= 0"]
claim = "t*g**2 <= R2"
split = { on = "t" }
"""


def test_the_case_t_equal_0_is_never_told_to_add_t_positive() -> None:
    """Red team 26, R1: in the case `t == 0` of a split on t, adding `t > 0` makes the case
    vacuous, so the kernel accepted "that certificate" trivially, and the step was told to
    add `t > 0` to `given`, which no state of that case satisfies. (The step is false at the
    run with no update: t = 0, w = 0, R2 = -1/2000.) It is told what it lacks instead, and
    no "point" is spoken of where the search found none."""
    report = check_proof(parse_proof(NO_SIGN.encode(), "no-sign.toml"))
    last = report.steps[-1]
    assert last.status == "unknown"
    assert last.message.startswith("case t == 0: no certificate in this case: it may need a "
                                   "fact the step lacks (a sign such as `R2 >= 0`"), last.message
    assert "`t > 0`" not in last.message and "its point" not in last.message
    t = sympy.Symbol("t")
    case = Judgement((Fact(t, ">="), Fact(t, "==")), Fact(t, ">"), (), ("t",))
    from verify.search.strategies import missing_factor
    from verify.search.work import DEFAULT_BUDGET, Work
    assert missing_factor(case, (), Work(DEFAULT_BUDGET)) is None


# newcomer 28, F1: the lecturer's margin perceptron with a separator u that is NOT normalised
ETA_MARGIN = """
title = "margin perceptron with learning rate eta, u not normalised"
theorem = "mistake-bound"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "eta", "beta", "R2", "gamma"]
naturals = ["t"]
[[step]]
id = "norm-growth"
claim = "norm2(w) <= t*(eta**2*R2 + 2*eta*beta)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R2", "eta > 0"]
constants = ["eta", "beta", "R2"]
[[step]]
id = "progress"
claim = "dot(w, u) >= t*eta*gamma"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y*dot(u, x) >= gamma", "eta > 0"]
constants = ["u", "eta", "gamma"]
[[step]]
id = "cauchy-schwarz"
claim = "dot(w, u)**2 <= norm2(w)*norm2(u)"
hints = ["dot(u, u)*w - dot(w, u)*u"]
[[step]]
id = "squared-lower-bound"
uses = ["progress", "cauchy-schwarz"]
given = ["gamma > 0", "eta > 0"]
claim = "t**2*eta**2*gamma**2 <= norm2(w)*norm2(u)"
[[step]]
id = "mistake-bound"
uses = ["norm-growth", "squared-lower-bound"]
given = ["gamma > 0", "eta > 0", "beta >= 0", "R2 >= 0"]
claim = "t <= (eta*R2 + 2*beta)*norm2(u)/(eta*gamma**2)"
split = { on = "t" }
"""


def _decided(given: list[str], claim: str, kind: str = ">=") -> Verdict:
    """`decide` on `given |- 0 <kind> claim` over the scalars eta, R2, beta, c and the
    vectors u, w."""
    from verify.prover import decide

    names = {n: sympy.Symbol(n) for n in ("eta", "R2", "beta", "c")}
    names["norm2_u"] = sympy.Symbol("<u,u>")
    names["dot_uw"] = sympy.Symbol("<u,w>")
    names["norm2_w"] = sympy.Symbol("<w,w>")
    facts = []
    for text in given:
        expr, fact_kind = text.split(" ")
        facts.append(Fact(sympy.sympify(expr, locals=names), fact_kind))
    judgement = Judgement(tuple(facts), Fact(sympy.sympify(claim, locals=names), kind),
                          ("u", "w"), ("eta", "R2", "beta", "c"))
    found = decide(judgement)
    if found.status == "proved":
        kernel.check_certificate(judgement, found.certificate)
    return found


def test_products_of_sign_facts_with_a_squared_norm_are_found() -> None:
    """Newcomer 28, F1: `eta > 0, R2 >= 0 |- 0 <= eta*R2*norm2(u)` was unknown at every
    budget, with hints and with a split, though its certificate is one product
    `[eta > 0]*[R2 >= 0]*|u|^2` (the scalar twin `eta*R2*y**2` was proved). Products of up
    to two hypotheses (and the sign products the judgement writes) now weight the squared
    norms and Gram minors: each is found, the kernel accepts it, the same twice."""
    found = _decided(["eta >", "R2 >="], "eta*R2*norm2_u")
    assert found.status == "proved", found.message
    assert found.message == "certificate by products with squared norms"
    (product,) = found.certificate.products
    assert product.hyps == (0, 1) and product.sigma == (kernel.NormSquare(1, Vec.named("u")),)
    assert _decided(["eta >", "R2 >="], "eta*R2*norm2_u").certificate == found.certificate
    # strict facts, a sum with a one-factor term, three sign atoms, a Gram minor
    assert _decided(["eta >", "R2 >"], "eta*R2*norm2_u").status == "proved"
    assert _decided(["eta >", "beta >=", "R2 >="],
                    "(eta*R2 + 2*beta)*norm2_u").status == "proved"
    assert _decided(["eta >", "beta >=", "R2 >="], "eta*R2*beta*norm2_u").status == "proved"
    assert _decided(["eta >", "R2 >="],
                    "eta*R2*(norm2_u*norm2_w - dot_uw**2)").status == "proved"
    # a strict claim gets its strictly positive part from a strict fact
    assert _decided(["eta >", "R2 >=", "c >"], "c + eta*R2*norm2_u", ">").status == "proved"
    # and the false variants are not proved: u = 0, or R2 of no sign
    assert _decided(["eta >", "R2 >"], "eta*R2*norm2_u", ">").status == "refuted"
    assert _decided(["eta >"], "eta*R2*norm2_u").status == "refuted"


@lru_cache(maxsize=1)
def _eta_margin() -> ProofReport:
    return check_proof(parse_proof(ETA_MARGIN.encode(), "eta-margin.toml"))


def test_the_lecturers_bound_with_a_separator_not_normalised_is_proved() -> None:
    """Newcomer 28, F1: the case t == 0 of the final step (`0 <= (eta*R2 + 2*beta)*|u|^2`
    beside `t == 0`) was unknown, so the whole proof was; the lecturer had to write a lemma
    `a >= 0 |- 0 <= a*norm2(u)`. Proved as written now, every certificate the kernel's."""
    report = _eta_margin()
    assert [s.status for s in report.steps] == ["proved"] * 5, [s.message for s in report.steps]
    for step in report.steps:
        for goal in step.goals:
            for judgement, certificate in goal.pieces:
                kernel.check_certificate(judgement, certificate)


def test_the_advice_never_names_a_sign_the_step_already_has() -> None:
    """Newcomer 28, F1: an unknown case t == 0 was told it "may need a fact the step lacks
    (a sign such as `R2 >= 0`, a bound)", a fixed text, though `R2 >= 0` was in its `given`:
    a student adds it again and nothing changes. The example is now a sign of a scalar of the
    claim that no hypothesis states (or implies by itself: `beta >= 1`), else only a bound.
    (Asked of the case's own obligation, as if its search had found nothing.)"""
    from verify.proof_checker import _obstacle

    last = _eta_margin().steps[-1]
    (case,) = [g.goal for g in last.goals if g.goal.label == "case t == 0"]
    signed = _obstacle(case, [], last.step)
    assert "a fact the step lacks (a bound)" in signed, signed
    assert "`R2 >= 0`" not in signed and "sign such as" not in signed
    # R2 of no sign: named; `beta >= 1` implies beta's sign, so beta is not
    r2, beta = sympy.symbols("R2 beta")
    kept = [(h, o) for h, o in zip(case.judgement.hypotheses, case.origins, strict=True)
            if h.expr not in (r2, beta)]
    kept.append((Fact(beta - 1, ">="), ""))
    unsigned = replace(case, judgement=replace(case.judgement, hypotheses=tuple(
        h for h, _ in kept)), origins=tuple(o for _, o in kept))
    told = _obstacle(unsigned, [], last.step)
    assert "a fact the step lacks (a sign such as `R2 >= 0`, a bound)" in told, told


def test_products_past_degree_four_are_found() -> None:
    """Newcomer 29, F1: Chan's ratio step `norm2(w) <= c**2*R2, dot(u, w)**2 >= c**2*beta**2,
    R2 > 0 |- R2*dot(u, w)**2 >= beta**2*norm2(w)` was unknown at every budget and with
    hints: its certificate `R2*[h2] + beta**2*[h1]` has columns of degree 5, past the bound
    of 4 every earlier LP keeps. `higher-degree products` raises it; the kernel accepts the
    certificate, and the same is found twice. A judgement whose columns fit the old bound
    gets no such round (its verdict and certificate are those of before)."""
    given = ["c**2*R2-norm2_w >=", "dot_uw**2-c**2*beta**2 >=", "R2 >"]
    found = _decided(given, "R2*dot_uw**2 - beta**2*norm2_w")
    assert found.status == "proved", found.message
    assert found.message == "certificate by higher-degree products"
    assert _decided(given, "R2*dot_uw**2 - beta**2*norm2_w").certificate == found.certificate
    # each half alone fits degree 4, and is proved as before
    assert _decided(given[1:], "R2*dot_uw**2 - c**2*R2*beta**2").message == \
        "certificate by hypothesis products"
    assert _decided(given[:1], "c**2*R2*beta**2 - beta**2*norm2_w").message == \
        "certificate by weighted squares"
    # the false twin (the square on the wrong side) is not proved
    assert _decided(given, "R2*dot_uw**2 - beta**4*norm2_w").status != "proved"


# Newcomer 29 F1 as the TA wrote it, in a proof file: the cleared step and the one with its
# divisions (its main judgement is the cleared one) are proved by `higher-degree products`,
# the kernel checking each; the false twin is not proved.
RATIO = """
title = "Chan's ratio step, cleared of its denominators"
vectors = ["theta_star", "xbar"]
scalars = ["mk", "gamma", "R2"]

[[step]]
id = "cleared"
given = ["norm2(xbar) <= mk**2*R2", "dot(theta_star, xbar)**2 >= mk**2*gamma**2", "R2 > 0"]
claim = "R2*dot(theta_star, xbar)**2 >= gamma**2*norm2(xbar)"

[[step]]
id = "twice-too-much"
given = ["norm2(xbar) <= mk**2*R2", "dot(theta_star, xbar)**2 >= mk**2*gamma**2", "R2 > 0"]
claim = "R2*dot(theta_star, xbar)**2 >= 2*gamma**2*norm2(xbar)"

[[step]]
id = "with-the-divisions"
given = ["norm2(xbar) <= mk**2*R2", "dot(theta_star, xbar)**2 >= mk**2*gamma**2", "R2 > 0",
         "norm2(xbar) > 0"]
claim = "dot(theta_star, xbar)**2/norm2(xbar) >= gamma**2/R2"
"""


def test_the_degree_five_certificate_is_found_and_its_false_twin_is_not() -> None:
    report = check_proof(parse_proof(RATIO.encode(), "ratio.toml"), store=None)
    by_id = {step.step.id: step for step in report.steps}
    assert by_id["cleared"].status == "proved", by_id["cleared"].message
    assert by_id["cleared"].message == "certificate by higher-degree products"
    assert by_id["with-the-divisions"].status == "proved", by_id["with-the-divisions"].message
    # gamma**2*norm2(xbar) = mk**2*R2*gamma**2 = R2*dot**2 holds them all with equality:
    # doubled, the claim is false (refuted or left unknown, never proved)
    assert by_id["twice-too-much"].status != "proved"


def test_norm_squares_scaled_on_both_sides_are_found() -> None:
    """Newcomer 27: the Cauchy–Schwarz of a perceptron with a bias, `(<u,w> + beta*c)**2 <=
    (|w|^2 + beta**2)*(|u|^2 + c**2)`, was unknown without a hint at every budget: its
    certificate is the Gram minor of (u, w) plus `|beta*u - c*w|^2`, a norm square scaled on
    both sides, which no pool held (`|w - c*u|^2` only), and its SDP is over the size budget.
    `cross-scaled norm squares` finds it, the kernel accepts it, the same twice."""
    claim = "(norm2_w + beta**2)*(norm2_u + c**2) - (dot_uw + beta*c)**2"
    found = _decided([], claim)
    assert found.status == "proved", found.message
    assert found.message == "certificate by cross-scaled norm squares"
    assert _decided([], claim).certificate == found.certificate
    # the false twins (the cross term doubled; a scale on one side dropped) are refuted
    assert _decided([], "(norm2_w + beta**2)*(norm2_u + c**2) - (dot_uw + 2*beta*c)**2"
                    ).status == "refuted"
    assert _decided([], "(norm2_w + beta**2)*norm2_u - (dot_uw + beta*c)**2").status == "refuted"


# Newcomer 29, probe2: the ratio step as the TA first wrote it, `mk` signed only by `mk >= 1`
PROBE2 = """
title = "probe2: Chan's ratio step as a TA first writes it"
vectors = ["theta_star", "xbar"]
scalars = ["mk", "gamma", "R2"]
[[step]]
id = "ratio-bound"
given = ["norm2(xbar) <= mk**2*R2", "dot(theta_star, xbar) >= mk*gamma", "mk >= 1",
         "gamma > 0", "R2 > 0", "norm2(xbar) > 0"]
claim = "dot(theta_star, xbar)**2/norm2(xbar) >= gamma**2/R2"
"""


def test_a_product_of_four_hypotheses_proves_the_ratio_step_with_a_lower_bound() -> None:
    """Newcomer 29, probe2 (searchgaps #6): unknown at every budget, its certificate
    `R2*[h2]**2 + 2*R2*g*[mk - 1]*[h2] + 2*R2*g*[h2] + g**2*[h1]` holding a product of four
    hypotheses (`mk` is signed only by `mk >= 1`). `products of four or five hypotheses`
    finds it, the kernel accepts every piece; without `mk >= 1`, or with the bound doubled,
    it is false and refuted."""
    report = check_proof(parse_proof(PROBE2.encode(), "probe2.toml"), store=None)
    (step,) = report.steps
    assert step.status == "proved", step.message
    (main,) = [g for g in step.goals if g.goal.label == "main"]
    assert main.verdict.message == "certificate by products of four or five hypotheses"
    assert any(len(p.hyps) == 4 for p in main.verdict.certificate.products)
    for goal in step.goals:
        for judgement, certificate in goal.pieces:
            kernel.check_certificate(judgement, certificate)
    for twin in (PROBE2.replace('"mk >= 1",\n         ', ""),
                 PROBE2.replace(">= gamma**2/R2", ">= 2*gamma**2/R2")):
        assert twin != PROBE2
        assert statuses(twin) == {"ratio-bound": "refuted"}


# Newcomer 31, F5: Chan's per-iteration decrease of the batch rule, as the newcomer wrote it
PER_ITERATION = """
title = "Chan's per-iteration decrease"
vectors = ["th", "ts", "xb"]
scalars = ["a", "m", "g", "R"]
[[step]]
id = "per-iteration"
given = ["R > 0", "g > 0", "m >= 1", "norm2(xb) > 0", "a*norm2(xb) == dot(ts, xb)",
         "dot(th, xb) <= 0", "dot(ts, xb) >= m*g", "norm2(xb) <= m**2*R**2"]
claim = "R**2*norm2(th + a*xb - ts) <= R**2*norm2(th - ts) - g**2"
"""


def test_a_product_of_five_hypotheses_proves_chans_per_iteration_decrease() -> None:
    """Newcomer 31, F5: unknown at every budget. Times `norm2(xb) > 0` (the multiplier), the
    gap is `R**2*P**2 - 2*R**2*P*Q - g**2*X` modulo `a*X == P` (P = `<ts,xb>`, Q =
    `<th,xb>`, X = `|xb|^2`), whose certificate holds `[R]*[R]*[-Q]*[m - 1]*[g]` and
    `[R]*[R]*[hP]*[hP]` (hP = `P - m*g`): five and four hypotheses, R signed only by `R >
    0`. Found now, the kernel accepts it; with the decrease doubled, or without `Q <= 0`,
    the step is false and refuted."""
    report = check_proof(parse_proof(PER_ITERATION.encode(), "per.toml"), store=None)
    (step,) = report.steps
    assert step.status == "proved", step.message
    assert step.message == "certificate by products of four or five hypotheses"
    for goal in step.goals:
        for judgement, certificate in goal.pieces:
            assert any(len(p.hyps) == 5 for p in certificate.products)
            kernel.check_certificate(judgement, certificate)
    for twin in (PER_ITERATION.replace('- g**2"', '- 2*g**2"'),
                 PER_ITERATION.replace('\n         "dot(th, xb) <= 0", ', '\n         ')):
        assert twin != PER_ITERATION
        assert statuses(twin) == {"per-iteration": "refuted"}


# Newcomer 26, F7: the norm bound alone with the step size e = 1/(t + 1) as an equality
STEP_SIZE = """
title = "norm bound alone"
vectors = ["w", "x"]
scalars = ["y", "t", "R2", "e"]
naturals = ["t"]
[[step]]
id = "norm-bound"
claim = "(t + 1)*norm2(w) <= 2*t*R2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + e*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2", "e*(t + 1) == 1"]
constants = ["R2"]
"""


def test_the_sign_an_equality_gives_a_step_size_is_derived() -> None:
    """Newcomer 26, F7 (searchgaps #7): the step needs `e >= 0`, which no hypothesis states
    but `e*(t + 1) == 1` with `t >= 0` gives (`e = (t + 1)*e**2 - e*[e*(t + 1) - 1]`); it
    was unknown at every budget. `signs from equalities` proves the step with `e >= 0` added
    and rewrites the certificate into one of the step itself, which the kernel accepts. With
    `e*(t + 1) == -1` (a step size < 0) the invariant is not inductive, and not proved."""
    report = check_proof(parse_proof(STEP_SIZE.encode(), "nb2.toml"), store=None)
    (step,) = report.steps
    assert step.status == "proved", step.message
    (case,) = [g for g in step.goals if g.goal.label == "step"]
    assert case.verdict.message == "certificate by signs from equalities"
    e = sympy.Symbol("e")
    for goal in step.goals:
        for judgement, certificate in goal.pieces:
            assert Fact(e, ">=") not in judgement.hypotheses  # its own hypotheses only
            kernel.check_certificate(judgement, certificate)
    negative = STEP_SIZE.replace('"e*(t + 1) == 1"', '"e*(t + 1) == -1"')
    found = check_proof(parse_proof(negative.encode(), "neg.toml"), store=None).steps[0]
    assert found.status != "proved"
    assert "invariant is not inductive" in found.message, found.message


def test_derived_signs_are_read_off_equalities_of_the_form_x_times_positive() -> None:
    """`x*p == c` with `c > 0` and `p` a positive sum of products of sign atoms gives
    `x >= 0`; `p` of no known sign, a constant of the other sign or `x` squared give none."""
    from verify.search.products import derived_signs

    t, e, y = sympy.symbols("t e y")

    def signs(*facts: Fact) -> list[str]:
        judgement = Judgement((Fact(t, ">="), *facts), Fact(e, ">="), (), ("e", "t", "y"))
        ctx = Context(judgement)
        return [str(ctx.symbols[d.gen]) for d in derived_signs(ctx)]

    assert signs(Fact(e * (t + 1) - 1, "==")) == ["e"]
    assert signs(Fact(1 - 2 * e * t - e, "==")) == ["e"]
    assert signs(Fact(e * (t + 1) + 1, "==")) == []  # e*(t + 1) == -1: e < 0
    assert signs(Fact(e * (y + 1) - 1, "==")) == []  # y of no known sign
    assert signs(Fact(e ** 2 * (t + 1) - 1, "==")) == []
    assert signs(Fact(e * (t - 1) - 1, "==")) == []


def test_an_unknown_step_says_what_the_search_did_not_find_before_a_weak_invariant() -> None:
    """Newcomer 26, F7: the unknown step was told "the invariant may be too weak to carry
    itself over an update" first, though the invariant is inductive: its step lacked the
    sign of the step size. Written through `s == t + 1, e*s == 1` (no equality `e*p == c`
    with `p` of known sign: no derived sign), the step is still unknown; the message now says
    what was not found (a certificate, a point breaking the step), names the step size's sign
    as a fact to add (with `e >= 0` in `given` the step is proved) and a weak invariant
    last."""
    through = STEP_SIZE.replace('"e*(t + 1) == 1"', '"s == t + 1", "e*s == 1"').replace(
        '"R2", "e"]', '"R2", "e", "s"]')
    report = check_proof(parse_proof(through.encode(), "s.toml"), budget=BUDGETS["small"],
                         store=None)
    (step,) = report.steps
    assert step.status == "unknown"
    assert step.message.startswith(
        "step: no certificate that an update keeps the invariant, and no point found where it "
        "holds and an update breaks it: a hint (a polynomial or vector whose square helps) or "
        "a fact the update needs in the induction's `given` (a sign such as `e >= 0`, a bound) "
        "may find a certificate"), step.message
    told = step.message.split(" (linear combination")[0]
    assert told.endswith("or the invariant is too weak to carry itself over an update: "
                         "strengthen it"), told
    added = through.replace('"e*s == 1"]', '"e*s == 1", "e >= 0"]')
    assert statuses(added) == {"norm-bound": "proved"}


#: Chan's iterations bound (the last step of the batch bound): its given, and a false twin
#: (the claim's text replaced) that must be refuted.
ITERATIONS_BOUND = """
title = "Chan's iterations bound"
vectors = ["th", "ts"]
scalars = ["k", "g", "R"]
[[step]]
id = "iterations-bound"
given = [%s"R**2*norm2(th - ts) <= R**2*norm2(ts) - k*g**2"]
claim = "k <= R**2*norm2(ts)/g**2"
"""


@pytest.mark.parametrize(("given", "twin"), [
    # newcomer 31: with R > 0 the certificate is the hypothesis plus `[R]*[R]*|th - ts|^2`, a
    # squared difference weighted by two hypotheses, which no pool held; halved, it is false
    ('"g > 0", "R > 0", ', ("R**2*norm2(ts)/g**2", "R**2*norm2(ts)/(2*g**2)")),
    # without R > 0 it is still true (`R**2*|th - ts|^2 = |R*th - R*ts|^2` needs no sign of
    # R), and was unknown at every budget: no hypothesis gives R a sign; the differences
    # scaled by the scalars the target writes squared beside a norm (`norm_scales`) find it
    ('"g > 0", ', ("R**2*norm2(ts)/g**2", "R**2*norm2(th)/g**2")),
], ids=["two-hypotheses", "scaled-without-a-sign"])
def test_a_squared_difference_is_found_and_its_false_twin_refuted(
        given: str, twin: tuple[str, str]) -> None:
    """`products with squared differences` proves Chan's iterations bound, the kernel accepts
    every piece, and the step's false twin is refuted."""
    text = ITERATIONS_BOUND % given
    report = check_proof(parse_proof(text.encode(), "bound.toml"), store=None)
    (step,) = report.steps
    assert step.status == "proved", step.message
    (main,) = [g for g in step.goals if g.goal.label == "main"]
    assert main.verdict.message == "certificate by products with squared differences"
    for goal in step.goals:
        for judgement, certificate in goal.pieces:
            kernel.check_certificate(judgement, certificate)
    assert statuses(text.replace(*twin)) == {"iterations-bound": "refuted"}


def test_an_equality_times_a_norm_the_judgement_never_writes_is_found() -> None:
    """Newcomer 32 N3: `norm2(u) == 0 |- dot(u, v)**2 <= 0` (Cauchy–Schwarz for a vector of
    norm 0) and `norm2(u) == 0 |- dot(u, v) == 0` (the lecturer's start theta_0 = 0 written
    as `norm2(v0) == 0`) were unknown at every budget: the certificate is the Gram minor of
    (u, v) minus `<v,v>` times the equality, and an equality's multipliers were monomials in
    the generators the judgement writes, never `<v,v>`. `equalities times unwritten squared
    norms` finds both, the kernel accepts them, and the false twins are refuted."""
    text = """
title = "a vector of norm 0"
vectors = ["u", "v"]
scalars = []
[[step]]
id = "cauchy-schwarz-at-zero"
given = ["norm2(u) == 0"]
claim = "dot(u, v)**2 <= 0"
[[step]]
id = "orthogonal-to-all"
given = ["norm2(u) == 0"]
claim = "dot(u, v) == 0"
"""
    report = check_proof(parse_proof(text.encode(), "zero.toml"), store=None)
    assert [s.status for s in report.steps] == ["proved", "proved"], [
        s.message for s in report.steps]
    first = report.steps[0]
    (main,) = [g for g in first.goals if g.goal.label == "main"]
    assert main.verdict.message == "certificate by equalities times unwritten squared norms"
    assert "equalities times unwritten squared norms" in report.steps[1].message
    for step in report.steps:
        for goal in step.goals:
            for judgement, certificate in goal.pieces:
                kernel.check_certificate(judgement, certificate)
    twin = text.replace('"norm2(u) == 0"', '"norm2(u) == 1"')
    assert statuses(twin) == {"cauchy-schwarz-at-zero": "refuted",
                              "orthogonal-to-all": "refuted"}


#: Newcomer 31 F5 and newcomer 32: true steps whose certificates mix products of two or more
#: hypotheses with weighted squares at degree 5 or 6, each written as a student writes it.
DEGREE_SIX = """
title = "true steps at degree six"
vectors = ["w", "u", "v0", "vs"]
scalars = ["t", "g", "eta", "R", "n", "marg", "R2"]
naturals = ["t", "n"]
[[step]]
id = "nonzero"
given = ["dot(w, u) >= t*eta*g", "g > 0", "eta > 0", "t >= 1"]
claim = "norm2(w)*norm2(u) >= eta**2*g**2"
[[step]]
id = "bound-direct"
given = ["dot(w, u) >= t*eta*g", "norm2(w) <= t*eta**2*R**2", "g > 0", "eta > 0"]
claim = "t*g**2 <= R**2*norm2(u)"
split = { on = "t" }
[[step]]
id = "bound-from-zero"
given = ["marg > 0", "R2 > 0", "norm2(v0) == 0", "n*marg**2 <= R2*norm2(v0 - vs)"]
claim = "n*marg**2 <= R2*norm2(vs)"
"""


@pytest.mark.parametrize(("step", "twin"), [
    # the progress invariant from t >= 1 on, squared through Cauchy–Schwarz: the twin asks
    # twice as much (t = 1, w = u = (1), eta = g = 1: 1 >= 2 fails)
    ("nonzero", ("norm2(w)*norm2(u) >= eta**2*g**2", "norm2(w)*norm2(u) >= 2*eta**2*g**2")),
    # Novikoff's bound from both invariants, no Cauchy–Schwarz step written (case t > 0 by
    # `t*eta**2` in refutation form): the twin, twice the bound, fails at t = R = 1
    ("bound-direct", ("t*g**2 <= R**2", "2*t*g**2 <= R**2")),
    # the batch bound from a start written `norm2(v0) == 0`: with `norm2(v0) == 1` the start
    # may point away from vs and the bound fails
    ("bound-from-zero", ('"norm2(v0) == 0"', '"norm2(v0) == 1"')),
])
def test_products_and_squares_to_degree_six_prove_true_steps_and_not_their_twins(
        step: str, twin: tuple[str, str]) -> None:
    """Each step was unknown at the default budget: its certificate needs two families the
    earlier strategies hold apart (a product of two or more hypotheses of degree 6, and a square or
    Gram minor weighted by a product of hypotheses), and the SDP weights by one hypothesis
    only. `products and squares to degree six` finds it, the kernel accepts every piece, and
    the false twin is refuted."""
    text = DEGREE_SIX.split("[[step]]")
    text = text[0] + "".join(f"[[step]]{s}" for s in text[1:] if f'id = "{step}"' in s)
    report = check_proof(parse_proof(text.encode(), "degree-six.toml"), store=None)
    (found,) = report.steps
    assert found.status == "proved", found.message
    by_search = [g.verdict.message for g in found.goals
                 if g.verdict.message.startswith("certificate by")]
    assert any(m.startswith("certificate by products and squares to degree six")
               for m in by_search), by_search
    for goal in found.goals:
        for judgement, certificate in goal.pieces:
            kernel.check_certificate(judgement, certificate)
    assert statuses(text.replace(*twin)) == {step: "refuted"}
