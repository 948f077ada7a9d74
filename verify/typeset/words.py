"""Counted nouns in prose, for every output: "1 finding", "2 findings", "0 mistakes".

One home, so that no output writes "1 findings" or "1 mistakes" (a newcomer trial found
both): the reports' templates use it as the Jinja filter `counted`, the CLI directly.
"""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number noun`, the noun in the plural unless `number` is 1 (`plural`, else `noun`+s)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
