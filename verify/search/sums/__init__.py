"""Untrusted search for steps with finite sums: which sum rules a step needs (`rules`), and
counterexamples on concrete small sets (`worlds`). Nothing here is believed: the kernel checks
every rule as an instance of its schema and proves its conditions, and refutes a step only on
a point where it evaluates the sums itself (`verify.kernel.atoms`, `verify.kernel.sums`)."""
