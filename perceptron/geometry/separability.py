"""Linear separability through the origin, decided with an exact certificate either way.

Either a rational `w` with `y_i <w, x_i> > 0` for every example (`Separable`), or a Gordan
certificate: rational `lam >= 0`, not all zero, with `sum_i lam_i y_i x_i = 0`
(`Inseparable`). By Gordan's theorem exactly one of the two exists, so each certificate
proves its answer. For separability with a bias, ask about `data.augmented()`.

A certificate found earlier for the same examples and labels (`known`, keyed by
`fingerprint`) is tried first: it proves its answer whoever found it once it checks exactly
here, so it is never trusted, only re-checked. Then the quick answers
(`perceptron.geometry.separators`: SciPy's LP, whose import alone is 0.45 CPU-seconds), and
when they do not settle it the exact Lawson–Hanson method of
`perceptron.geometry.max_margin`, so the answer is never undecided.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction

from perceptron.dataset import Dataset
from perceptron.geometry.max_margin import exact_ldp
from perceptron.geometry.separators import Inseparable, Separable, quick_separability

__all__ = ["Inseparable", "Separable", "fingerprint", "known_json", "read_known",
           "separability"]

Certificate = Separable | Inseparable


def separability(data: Dataset, known: Mapping[str, Certificate] | None = None
                 ) -> Certificate:
    """Decide whether some `w` has `y_i <w, x_i> > 0` for all i, with a checked certificate:
    `known[fingerprint(data)]` when there is one and it checks exactly, else one found."""
    if known:
        stored = known.get(fingerprint(data))
        if stored is not None and stored.check(data):
            return stored
    found = quick_separability(data)
    if found is not None:
        return found
    outcome = exact_ldp(data, bias=False, max_steps=None)
    if isinstance(outcome, Inseparable):
        return outcome
    return Separable(outcome.w, method="exact Lawson-Hanson")


def fingerprint(data: Dataset) -> str:
    """SHA-256 of the examples and labels, exactly (each coordinate as `p/q`, one line per
    example with its label; not the name): the key of a certificate kept for these data. Two
    data sets with one key are the same data, so a certificate kept for one is re-checked on
    the other, never assumed."""
    digest = hashlib.sha256(f"{data.n} {data.d}\n".encode())
    for x, y in zip(data.X, data.y, strict=True):
        digest.update(f"{y}:{','.join(map(_text, x))}\n".encode())
    return digest.hexdigest()


def _text(v: Fraction) -> str:
    return f"{v.numerator}/{v.denominator}"


def known_json(certificates: Mapping[str, Certificate]) -> str:
    """Certificates by fingerprint as JSON (`read_known` reads it back exactly): `w` of a
    separator or `lam` of a Gordan certificate, each number `p/q`, keys sorted, one
    certificate a line (a change to one is a line of the diff)."""
    lines = [f'{json.dumps(key)}: ' + json.dumps(
        {"w": list(map(_text, c.w))} if isinstance(c, Separable)
        else {"lam": list(map(_text, c.lam))}) for key, c in sorted(certificates.items())]
    return '{"format": 1, "certificates": {\n' + ",\n".join(lines) + "\n}}\n"


def read_known(text: str) -> dict[str, Certificate]:
    """`known_json`'s certificates back, every number an exact Fraction (from `p/q`, no
    float). Nothing read here is believed: `separability` checks each one it uses; and an
    entry that does not read (a malformed number such as `1/0`, a missing field, a file
    that is not such JSON) is left out as one that does not check is, so the data it was
    kept for are decided afresh rather than the whole lookup failing (review 11)."""
    try:
        found = json.loads(text)["certificates"]
        entries = list(found.items())
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}
    known: dict[str, Certificate] = {}
    for key, c in entries:
        try:
            known[key] = (Separable(tuple(map(Fraction, c["w"])), method="kept, checked exactly")
                          if "w" in c else
                          Inseparable(tuple(map(Fraction, c["lam"])),
                                      method="kept, checked exactly"))
        except (ValueError, KeyError, TypeError, ZeroDivisionError):
            continue
    return known
