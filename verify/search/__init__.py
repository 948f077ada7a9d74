"""Untrusted search for certificates and counterexamples (floats allowed, kernel decides).

`strategies.STRATEGIES` yields exact candidate certificates, cheapest strategy first;
`counterexamples.CounterexampleSearch` finds and shrinks rational counterexamples. Nothing
here is believed: `verify.prover` hands every candidate to `verify.kernel`.
"""
