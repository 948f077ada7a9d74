"""The store's keys, its files in the package, and what one lookup gives back.

A decision is keyed by a SHA-256 of everything the search is given: what is decided (a
step's obligation, the vacuity probe of its hypotheses, or the obligation's refutation on
concrete sets, its sums unfolded), the exact judgement (the canonical
`srepr` of every hypothesis and of the claim, the declared names, where each hypothesis comes
from), the step's hints and the work budget. A statement that changes, by a character of its
normal form, gets another key, so an old entry is simply not found. The files also record a
fingerprint of the search code (`SEARCH_SOURCES`): the store holds what *this* search finds,
so that using it never changes a verdict; after any change to the search the whole store is
stale, every judgement is searched (and says so), and the store test fails until
`python -m verify.store` writes it again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

import sympy

from proofs.language.terms import Vec
from verify.kernel import Judgement
from verify.search.work import SearchBudget

Purpose = Literal["goal", "vacuity", "sets"]
"""What an entry decides: an obligation, a vacuity probe, or an obligation with sums as its
step is written, refuted at a point with concrete small sets (`proof_checker._on_sets`)."""
Form = Literal["whole", "core", "refutation"]
"""Which judgement a goal's evidence is for (`proof_checker._decide`): the obligation, its
core without the inherited hypotheses, or its refutation form (the negated claim added)."""

HERE = Path(__file__).resolve().parent
FOLDER = HERE / "certificates"
ROOT = HERE.parent.parent
#: The code whose answers are stored: the prover, its strategies and the proof checker's
#: calls to it (which judgements it asks, in which order, with which share of the budget).
SEARCH_SOURCES = ("verify/prover.py", "verify/relevance.py", "verify/proof_checker.py",
                  "verify/search")


@cache
def search_fingerprint() -> str:
    """SHA-256 of the search's source files (line endings normalised), in path order."""
    digest = hashlib.sha256()
    for name in SEARCH_SOURCES:
        path = ROOT / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(ROOT).as_posix().encode())
            digest.update(file.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()


_srepr = lru_cache(maxsize=1 << 14)(sympy.srepr)
"""`sympy.srepr`, once per expression: each step of a long proof keys the hypotheses of all
the steps it uses (printing them was most of such a proof's time)."""


def _hint(hint: sympy.Expr | Vec) -> str:
    if isinstance(hint, Vec):
        return "vec(" + ", ".join(f"{n}: {_srepr(c)}" for n, c in hint.items()) + ")"
    return _srepr(hint)


def key_of(purpose: Purpose, judgement: Judgement, origins: Sequence[str],
           hints: Iterable[sympy.Expr | Vec], budget: SearchBudget) -> str:
    """The hash that finds a decision again: see the module docstring for what goes in."""
    lines = [purpose, repr(budget), "vectors " + " ".join(judgement.vectors),
             "scalars " + " ".join(judgement.scalars), "origins " + "|".join(origins),
             *(f"hint {_hint(h)}" for h in hints),
             *(f"hypothesis {h.kind} {_srepr(h.expr)}" for h in judgement.hypotheses),
             f"claim {judgement.claim.kind} {_srepr(judgement.claim.expr)}"]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One stored decision: a certificate (proved) or a counterexample (refuted) in the JSON
    form of `verify.render.json`, the verdict's message, and where it was first met."""

    key: str
    purpose: Purpose
    where: str
    status: Literal["proved", "refuted"]
    message: str
    form: Form = "whole"
    certificate: Any = None
    counterexample: Any = None

    def to_json(self) -> dict[str, Any]:
        """The entry as written in a store file (key order fixed, for stable diffs)."""
        return {"key": self.key, "purpose": self.purpose, "where": self.where,
                "status": self.status, "form": self.form, "message": self.message,
                "certificate": self.certificate, "counterexample": self.counterexample}


@dataclass
class Store:
    """Entries by key, and the counts of one run's lookups (per process).

    `used` collects the keys found, so that a run over every built-in proof can name the
    entries no statement asks for any more (stale); `recalled` and `searched` are what the
    proof checker copies into each step's report (they cross process boundaries there)."""

    entries: dict[str, Entry] = field(default_factory=dict)
    stale: str | None = None  # why the whole store is unused (made by another search)
    used: set[str] = field(default_factory=set)
    recalled: int = 0  # judgements decided from the store (the kernel accepted the entry)
    searched: list[str] = field(default_factory=list)  # one note per judgement searched
    #: With a dict: every decision searched is also kept here, raw (`verify.store.write`
    #: serialises it), by key: purpose, where, form, the search's verdict and the vector
    #: names of its judgement (which tell vectors from scalars when it is read back).
    recording: dict[str, tuple[Purpose, str, Form, Any, tuple[str, ...]]] | None = None

    def find(self, key: str) -> Entry | None:
        """The entry of `key`, or None (none, or the whole store is stale)."""
        if self.stale is not None:
            return None
        entry = self.entries.get(key)
        if entry is not None:
            self.used.add(key)
        return entry


def read_file(path: Path) -> tuple[str, list[Entry]]:
    """A store file's search fingerprint and entries (a malformed file raises ValueError)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise ValueError(f"{path}: not a certificate store file")
    entries = []
    for item in data["entries"]:
        if not isinstance(item, dict) or item.get("status") not in ("proved", "refuted") \
                or item.get("purpose") not in ("goal", "vacuity", "sets") \
                or item.get("form", "whole") not in ("whole", "core", "refutation"):
            raise ValueError(f"{path}: malformed entry {str(item)[:80]}")
        entries.append(Entry(str(item["key"]), item["purpose"], str(item.get("where", "")),
                             item["status"], str(item.get("message", "")),
                             item.get("form", "whole"), item.get("certificate"),
                             item.get("counterexample")))
    return str(data.get("search", "")), entries


def load(folder: Path = FOLDER) -> Store:
    """Every store file of `folder` merged; stale as a whole when any was made by a search
    other than this one (the files are written together, so one stale file means all)."""
    store = Store()
    for path in sorted(folder.glob("*.json")):
        try:
            made_by, entries = read_file(path)
        except (OSError, ValueError) as error:
            store.stale = f"{path.name} cannot be read ({error})"
            continue
        if made_by != search_fingerprint():
            store.stale = (f"{path.name} was written by another version of the search; "
                           "regenerate it: python -m verify.store")
        for entry in entries:
            store.entries.setdefault(entry.key, entry)
    return store


@cache
def shipped() -> Store:
    """The package's store, read once per process."""
    return load()
