"""The certificate store: the search's results for the built-in proofs, kept in the package.

The search is untrusted and deterministic, so what it found can be kept and handed to the
kernel again instead of searched again: `library` keys each decision by a hash of the exact
judgement it was asked (and of the search code that answered), `codec` reads certificates
and counterexamples back from the JSON that `verify.render.json` writes (exactly, without
eval), `recall` hands a stored entry to the kernel, `write` regenerates the files in
`certificates/` (`python -m verify.store`). The kernel checks every stored certificate on
every run; one it rejects, or a judgement with no entry, is searched as before and counted in
a note. Nothing here can make a step proved.
"""
