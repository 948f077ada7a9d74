"""Untrusted lemmas for a step the search left unknown: facts it needs but does not state,
each proposed as a step of its own (`signs`). Nothing here is believed: the checker proves
each lemma through the kernel and uses the proved ones as a user's `uses` does."""
