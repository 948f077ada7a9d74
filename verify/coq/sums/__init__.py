"""How the Coq export replays the kernel's rules of finite sums (issue 31), one module per
kind of replay: `termwise` states a term-wise use's premise for every member and derives the
summed claim, `vectorsums` states a sum of vectors as written (`vzsum`) where the kernel's
reading cancels it, `identities` replays a congruence (an index by an equal one) and a swap
of a double sum, `ranges` a split of a sum's range and a shift of its index, `within` a rule
inside a sum's body (lifted out through the enclosing sums), `named` defines a sum of
vectors the checker named as a vector (`Step.named`) and proves the kernel's facts of it,
and `linear` proves a raw sum the kernel's canonical reading of it (the split by linearity
the term-wise rule, `within` and `named` end with). Their lemmas are the preamble's
(`verify.coq.preamble`), proved there by induction, with no axiom of ours."""
