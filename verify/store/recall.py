"""A stored decision handed to the kernel instead of searched again, or a note saying why not.

`recall` turns an entry into the `Verdict` the search gave when the store was written, but
only after the kernel accepts its evidence here, now, against the judgement being decided:
a certificate by `kernel.check_certificate`, a counterexample by `kernel.check_counterexample`
(one on concrete sets by `kernel.refute`, against the step as written: the caller's `refutes`).
An entry the kernel rejects, or that cannot be read, counts as a miss: the caller searches,
exactly as without a store, and the note says so (a tampered or corrupted store can cost
time, never a verdict).
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter

from verify import kernel
from verify.kernel import Certificate, Counterexample, Judgement
from verify.store import codec
from verify.store.library import Entry, Form, Purpose, Store
from verify.verdict import Verdict

Evidence = Certificate | Counterexample
NOTHING_TO_STORE = "the search finds neither a certificate nor a counterexample: nothing to store"
#: The note of a search on concrete sets that finds no counterexample (it seeks no certificate).
NO_COUNTEREXAMPLE_ON_SETS = "the search finds no counterexample on concrete sets: nothing to store"
#: A judgement's note once the search on concrete sets refutes it after all (red team 19 F9:
#: the note said the search found no counterexample of a step the same run reported refuted).
REFUTED_ON_SETS = ("the search with its sums as unknowns finds neither a certificate nor a "
                   "counterexample, so nothing of its own to store; the search on concrete "
                   "sets then refutes it, as its note says")
UNSTORED = (NOTHING_TO_STORE, NO_COUNTEREXAMPLE_ON_SETS, REFUTED_ON_SETS)  # no entry is missing


def unstored(note: str) -> bool:
    """Whether a note of `Store.searched` is of a search whose verdict carries no evidence
    (so no entry of the store is missing for it)."""
    return note.endswith(tuple(f"({text})" for text in UNSTORED))


def recall(store: Store, key: str, purpose: Purpose, judgement_of: Callable[[Form], Judgement],
           what: str, refutes: Callable[[Counterexample], object] | None = None
           ) -> Verdict | None:
    """The kernel-checked stored verdict of `key`, or None (noted in `store.searched`).

    `judgement_of(form)` is the judgement the entry's evidence must prove: the obligation,
    its core or its refutation form (`verify.store.library.Form`); `what` names the decision
    in the note. `refutes`, if given, is the kernel's check of a stored counterexample
    instead (it raises `KernelError` when the kernel does not accept it)."""
    start = perf_counter()
    entry = store.find(key)
    if entry is None:
        why = store.stale or ("no stored counterexample" if purpose == "sets" else
                              "no stored certificate")
        store.searched.append(f"{what}: searched ({why})")
        return None
    try:
        judgement = judgement_of(entry.form)
        evidence = _checked(entry, judgement, purpose, refutes)
    except (codec.StoreFormatError, kernel.KernelError) as error:
        store.searched.append(f"{what}: searched (the kernel rejected the stored "
                              f"{'certificate' if entry.status == 'proved' else 'counterexample'}"
                              f": {str(error)[:200]})")
        return None
    store.recalled += 1
    if isinstance(evidence, Certificate):
        return Verdict("proved", evidence, None, entry.message, perf_counter() - start,
                       judgement=None if entry.form == "whole" else judgement)
    return Verdict("refuted", None, evidence, entry.message, perf_counter() - start)


def _checked(entry: Entry, judgement: Judgement, purpose: Purpose,
             refutes: Callable[[Counterexample], object] | None = None) -> Evidence:
    """The entry's evidence, read back and accepted by the kernel for `judgement` (a
    counterexample by `refutes` when given)."""
    if entry.purpose != purpose:
        raise codec.StoreFormatError(f"an entry for a {entry.purpose}, not a {purpose}")
    if purpose == "sets" and entry.status != "refuted":
        raise codec.StoreFormatError("an entry on concrete sets holds a counterexample only")
    if entry.status == "proved":
        found = codec.certificate(entry.certificate, frozenset(judgement.vectors))
        kernel.check_certificate(judgement, found)
        return found
    if entry.form != "whole":  # a refutation of a weakened judgement refutes nothing
        raise codec.StoreFormatError("a stored counterexample must be to the whole judgement")
    cex = codec.counterexample(entry.counterexample)
    if refutes is not None:
        refutes(cex)
    else:
        kernel.check_counterexample(judgement, cex)
    return cex


def keep(store: Store, key: str, purpose: Purpose, where: str, form: Form,
         verdict: Verdict, judgement: Judgement) -> None:
    """Record a searched verdict of `judgement` when the store is recording (unknown ones
    carry no evidence, so they are never stored: such a judgement is searched every run)."""
    if verdict.status == "unknown":
        if store.searched and store.searched[-1].startswith(f"{where}: searched"):
            none = NO_COUNTEREXAMPLE_ON_SETS if purpose == "sets" else NOTHING_TO_STORE
            store.searched[-1] = f"{where}: searched ({none})"
        return
    if store.recording is not None:
        store.recording.setdefault(key, (purpose, where, form, verdict, judgement.vectors))


def refuted_on_sets(store: Store, where: str) -> None:
    """The note of the judgement `where` (`step: label`), kept as unknown by its own search,
    saying that the search on concrete sets then refuted it (called when it does)."""
    unknown = f"{where}: searched ({NOTHING_TO_STORE})"
    for k, note in enumerate(store.searched):
        if note == unknown:
            store.searched[k] = f"{where}: searched ({REFUTED_ON_SETS})"
