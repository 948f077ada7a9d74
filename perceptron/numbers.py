"""Exact numbers from text and from Python/numpy values: the one place input becomes a Fraction.

Decimal strings are exact (`0.1` is 1/10); a float is taken as the exact binary value it
denotes; NaN and infinities are rejected. Nothing here ever rounds.
"""

from __future__ import annotations

import math
import numbers
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from perceptron.errors import DataError

#: Longest numeric token accepted from a file: enough for any real data, bounded for strangers.
MAX_TOKEN = 4096
_RATIO = re.compile(r"^\s*([+-]?\d+)\s*[/%]\s*([+-]?\d+)\s*$")
_DECIMAL = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?\s*$")


def parse_exact(text: str) -> Fraction:
    """Parse `p/q`, `p % q`, an integer or a decimal (optionally with exponent) exactly.

    Raises `DataError` (without location; callers add it) for anything else.
    """
    if len(text) > MAX_TOKEN:
        raise DataError(f"number of {len(text)} characters is too long")
    ratio = _RATIO.match(text)
    if ratio:
        p, q = int(ratio.group(1)), int(ratio.group(2))
        if q == 0:
            raise DataError(f"zero denominator in {text.strip()!r}")
        return Fraction(p, q)
    if _DECIMAL.match(text):
        try:
            return Fraction(Decimal(text.strip()))
        except (InvalidOperation, ValueError) as exc:  # pragma: no cover - regex guards this
            raise DataError(f"not a number: {text.strip()!r}") from exc
    raise DataError(f"not a number: {text.strip()!r}")


def exact(value: object) -> Fraction:
    """Any exact-convertible value as a Fraction: int, Fraction, float (its binary value),
    numpy scalar, Decimal or numeric string. Booleans, NaN and infinities are rejected."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or (hasattr(value, "dtype") and value.dtype.kind == "b"):
        raise DataError(f"boolean {value!r} is not a number")
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, str):
        return parse_exact(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise DataError(f"{value} is not a finite number")
        return Fraction(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        f = float(value)
        if not math.isfinite(f):
            raise DataError(f"{f} is not a finite number")
        return Fraction(f)
    raise DataError(f"{type(value).__name__} value {value!r} is not a number")


def as_text(q: Fraction) -> str:
    """The report form of an exact number: `"p/q"`, or `"p"` when integral."""
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
