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
# ASCII digits only (re.ASCII): `\d` alone also takes `٣` and `１`, which `int` reads as 3
# and 1, so `--seed ٣` was seed 3; proof files take ASCII digits only, and so does data.
_RATIO = re.compile(r"^\s*([+-]?\d+)\s*[/%]\s*([+-]?\d+)\s*$", re.ASCII)
_DECIMAL = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?\s*$", re.ASCII)
#: The largest exponent a decimal text may write (4 digits), which bounds a Decimal's too.
_MAX_EXPONENT = 9999
#: A decimal whose exponent has more digits than `_DECIMAL` takes: a number, but one whose
#: exact value (`1e999999999` is a billion-digit integer) no memory holds.
_HUGE_EXPONENT = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d{5,}\s*$", re.ASCII)


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
    if _HUGE_EXPONENT.match(text):
        raise DataError(f"exponent out of range in {text.strip()!r}: at most 4 digits (|e| < "
                        "10000); a number that large or that small has no exact value "
                        "memory could hold")
    if any(c.isdigit() and not c.isascii() for c in text):
        raise DataError(f"not a number: {text.strip()!r} (digits are ASCII 0-9 only)")
    if _DECIMAL.match(text.replace(",", ".", 1)):  # `2,5` in a `;`-separated file
        raise DataError(f"not a number: {text.strip()!r} (a decimal is written with a "
                        "point: 2.5, not 2,5)")
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
        _sign, digits, exponent = value.as_tuple()
        if len(digits) > MAX_TOKEN:  # as a text read from a file is bounded (red team 33 F7)
            raise DataError(f"Decimal of {len(digits)} digits is too long")
        if abs(int(exponent)) > _MAX_EXPONENT + MAX_TOKEN:  # 1E-999999999: 10**999999999
            raise DataError(f"exponent out of range in Decimal {value}: a number that large or "
                            "that small has no exact value memory could hold")
        return Fraction(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real) and hasattr(value, "dtype") and value.dtype.kind == "f":
        try:  # numpy's: a long double has more bits than float() keeps (red team 33 F3)
            n, d = value.as_integer_ratio()  # type: ignore[attr-defined]
        except (OverflowError, ValueError):
            raise DataError(f"{value} is not a finite number") from None
        return Fraction(int(n), int(d))
    if isinstance(value, numbers.Real):
        f = float(value)
        if not math.isfinite(f):
            raise DataError(f"{f} is not a finite number")
        return Fraction(f)
    raise DataError(f"{type(value).__name__} value {value!r} is not a number")


def as_text(q: Fraction) -> str:
    """The report form of an exact number: `"p/q"`, or `"p"` when integral.

    Exact at any size: integers beyond Python's 4300-digit `str()` limit go through
    `int_text`, so a report of huge data prints rather than raising `ValueError`.
    """
    if q.denominator == 1:
        return int_text(q.numerator)
    return f"{int_text(q.numerator)}/{int_text(q.denominator)}"


#: Digits per leaf of `int_text`: below Python's default 4300-digit `str()` limit.
_CHUNK = 1000
_LEAF = 10**_CHUNK  # computed once: raising it per call was most of `run --json` on 10^6 values


def int_text(n: int) -> str:
    """The decimal digits of `n`, exactly, whatever its size.

    Python refuses `str(n)` beyond 4300 digits (a guard against its quadratic conversion);
    this splits `n` by powers `10**(1000 * 2**k)` (divide and conquer, faster than `str()`
    with the limit lifted) and converts leaves of at most 1000 digits, never touching the
    process-wide limit.
    """
    if -_LEAF < n < _LEAF:
        return str(n)
    if n < 0:
        return "-" + int_text(-n)
    powers = [_LEAF]
    while powers[-1].bit_length() * 2 <= n.bit_length() + 1:
        powers.append(powers[-1] * powers[-1])

    def digits(m: int, k: int, pad: bool) -> str:
        if k < 0:
            text = str(m)
            return text.zfill(_CHUNK) if pad else text
        high, low = divmod(m, powers[k])
        if high == 0 and not pad:
            return digits(low, k - 1, False)
        return digits(high, k - 1, pad) + digits(low, k - 1, True)

    return digits(n, len(powers) - 1, False)


def digit_count(n: int) -> int:
    """The number of decimal digits of `|n|` (1 for 0), exactly, in time linear in its size."""
    n = abs(n)
    if n < 10**_CHUNK:
        return len(str(n))
    # floor(log10 n) is floor(log10 2**(bits-1)) or one more.
    low = int((n.bit_length() - 1) * 0.30102999566398120)
    return low + 2 if n >= 10 ** (low + 1) else low + 1


def log10_abs(q: Fraction) -> float:
    """`log10(|q|)` for a nonzero exact number of any size (never overflows; display only)."""
    if q == 0:
        raise ValueError("log10 of 0")
    return _log10_int(abs(q.numerator)) - _log10_int(q.denominator)


def _log10_int(n: int) -> float:
    shift = max(n.bit_length() - 64, 0)
    return math.log10(n >> shift) + shift * 0.30102999566398120


def approximate(q: Fraction, digits: int = 6) -> str:
    """`q` to about `digits` significant digits (`"1.5e+5000"`), for reading only.

    Never converts through `float(q)`, which overflows beyond 1e308 and underflows to 0
    below 1e-324; exact reports keep `as_text`.
    """
    if q == 0:
        return "0"
    if abs(q.numerator) < 2**1000 and q.denominator < 2**1000:
        value = q.numerator / q.denominator
        if value != 0 and math.isfinite(value) and 1e-300 < abs(value) < 1e300:
            return f"{value:.{digits}g}"
    exponent = math.floor(log10_abs(q))
    scaled = abs(q) * Fraction(10) ** -exponent  # in [1, 10), up to rounding of the estimate
    if scaled >= 10:
        scaled, exponent = scaled / 10, exponent + 1
    elif scaled < 1:
        scaled, exponent = scaled * 10, exponent - 1
    mantissa = f"{float(scaled):.{digits}g}"
    if float(mantissa) >= 10:  # 9.9999... rounded up
        mantissa, exponent = f"{float(scaled) / 10:.{digits}g}", exponent + 1
    sign = "-" if q < 0 else ""
    return f"{sign}{mantissa}e{exponent:+d}"


def approximate_text(text: str, digits: int = 9) -> str:
    """`approximate` of an exact `"p/q"` or `"p"` text of any length, read from its leading
    digits (linear time: no conversion of the whole text, which Python refuses beyond 4300
    digits)."""
    numerator, _, denominator = text.strip().partition("/")
    sign = -1 if numerator.startswith("-") else 1
    numerator = numerator.lstrip("+-")
    denominator = denominator or "1"
    keep = digits + 8

    def lead(part: str) -> tuple[int, int]:
        return int(part[:keep]), max(len(part) - keep, 0)

    (p, p_shift), (q, q_shift) = lead(numerator), lead(denominator)
    return approximate(sign * Fraction(p, q) * Fraction(10) ** (p_shift - q_shift), digits)


#: Digits (numerator and denominator together) past which `beside` adds a decimal.
LEGIBLE_DIGITS = 40


def beside(q: Fraction) -> str:
    """`as_text(q)`, with `(≈ 3.05e-151)` after it when its digits pass `LEGIBLE_DIGITS`: a
    person reads the decimal, the exact value stays in full beside it (newcomer 30: float
    deviations of 2^-500 and scores of 2^-1000 printed as 150- and 300-digit fractions and
    nothing else). For reading only: nothing is decided on the approximation."""
    if digit_count(q.numerator) + digit_count(q.denominator) <= LEGIBLE_DIGITS:
        return as_text(q)
    return f"{as_text(q)} (≈ {approximate(q, 3)})"


def shown(q: Fraction, max_digits: int) -> str:
    """`as_text(q)` when at most `max_digits` long, else `approximate(q)` with the digit
    counts: a report for a person stays readable whatever the data (JSON keeps `as_text`)."""
    if digit_count(q.numerator) + digit_count(q.denominator) <= max_digits:
        return as_text(q)
    size = (f"{digit_count(q.numerator)} digits" if q.denominator == 1 else
            f"{digit_count(q.numerator)}/{digit_count(q.denominator)} digits")
    return f"~{approximate(q, 9)} (exact: {size}; see --json)"


def to_float(q: Fraction) -> float:
    """`q` as the nearest float, saturating to +-inf beyond the float range and to 0 below it
    (display and untrusted warm starts only: nothing decided by it)."""
    try:
        return q.numerator / q.denominator
    except OverflowError:
        return math.inf if q > 0 else -math.inf
