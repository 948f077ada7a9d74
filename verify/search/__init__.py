"""Untrusted search for certificates and counterexamples (floats allowed, kernel decides).

`strategies.STRATEGIES` yields exact candidate certificates, cheapest strategy first, built
from the columns of `lp` (hypothesis `products`, `sos` squares, `equalities`) and rounded by
`rationalize`; `counterexamples.CounterexampleSearch` finds rational counterexamples and
`shrinking` makes them small. Nothing here is believed: `verify.prover` hands every candidate
to `verify.kernel`, which is the oracle's only judge (Mathlib's Linarith split: the oracle
adds no trusted code).
"""
