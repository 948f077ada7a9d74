"""Two case lemmas and a step that uses both: the proof-file text the vacuity, audit and
Coq tests vary (contradicting case conditions make the step VACUOUS)."""

from __future__ import annotations

#: Two case lemmas, each proved under its own case condition, and a step that uses both:
#: `{op}` as `<` makes the case conditions contradict (the step is VACUOUS), `<=` overlap.
TWO_CASES = """title = "two case lemmas"
scalars = ["t", "g", "n", "R2"]

[[step]]
id = "far"
given = ["t*g - n >= 0", "g > 0"]
claim = "t*g >= n"

[[step]]
id = "near"
given = ["t*g - n {op} 0", "g > 0"]
claim = "t*g <= n"

[[step]]
id = "both"
uses = ["far", "near"]
given = ["g > 0"]
claim = "t*g == n"
"""
