"""Writing the store from the search, and checking that it is whole and current.

`regenerate` searches every judgement of every built-in proof (no store consulted) and
writes one file per proof, each entry the JSON of `verify.render.json` that `codec` reads
back to the very same values (checked before anything is written). `problems` runs every
built-in proof against the store as shipped and names what a run would still search: a
statement with no entry (new or changed), an entry the kernel rejects, an entry no statement
asks for (stale), a store written by another version of the search.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from proofs.library import PROOFS, load_builtin
from verify.proof_checker import check_proof
from verify.render import json as serialize
from verify.store import codec
from verify.store.library import FOLDER, Entry, Store, read_file, search_fingerprint
from verify.store.recall import unstored
from verify.verdict import Verdict


def entry(key: str, purpose: Any, where: str, form: Any, verdict: Verdict,
          vectors: frozenset[str]) -> Entry:
    """A searched verdict as a store entry, after checking that it reads back exactly."""
    certificate = None if verdict.certificate is None else serialize.certificate(
        verdict.certificate)
    counterexample = None if verdict.counterexample is None else serialize.counterexample(
        verdict.counterexample)
    if certificate is not None:
        back = codec.certificate(certificate, vectors)
        if back != verdict.certificate or serialize.certificate(back) != certificate:
            raise ValueError(f"{where}: its certificate does not read back exactly")
    if counterexample is not None:
        read = codec.counterexample(counterexample)
        if read != verdict.counterexample:
            raise ValueError(f"{where}: its counterexample does not read back exactly")
    status = "proved" if verdict.status == "proved" else "refuted"
    return Entry(key, purpose, where, status, verdict.message, form, certificate,
                 counterexample)


def searched(proof_id: str) -> list[Entry]:
    """Every decision of the built-in proof `proof_id`, searched, in the order met."""
    recording = Store(recording={})
    check_proof(load_builtin(proof_id), store=recording)
    assert recording.recording is not None
    return [entry(key, purpose, f"{proof_id}/{where}", form, verdict, frozenset(vectors))
            for key, (purpose, where, form, verdict, vectors) in recording.recording.items()]


def text(entries: list[Entry]) -> str:
    """A store file: the search's fingerprint and the entries, one JSON document."""
    document = {"search": search_fingerprint(),
                "entries": [e.to_json() for e in entries]}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def regenerate(folder: Path = FOLDER, proofs: list[str] | None = None) -> dict[str, int]:
    """Search every built-in proof (or `proofs`) and write its store file; entries per file.
    Files of proofs no longer built in are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    chosen = proofs or list(PROOFS)
    counts = {}
    for proof_id in chosen:
        found = searched(proof_id)
        (folder / f"{proof_id}.json").write_text(text(found), encoding="utf-8")
        counts[proof_id] = len(found)
    if proofs is None:
        for path in folder.glob("*.json"):
            if path.stem not in PROOFS:
                path.unlink()
    return counts


def problems(folder: Path = FOLDER, proofs: list[str] | None = None) -> list[str]:
    """What keeps the store from answering every judgement of the built-in proofs (or of
    `proofs`, with their files only), one line each; empty: each one is answered from the
    store and the kernel accepts it, and no entry is stale. A judgement the search cannot
    decide either way has nothing to store and is not a problem."""
    chosen = proofs or list(PROOFS)
    store = Store()
    for proof_id in chosen:
        path = folder / f"{proof_id}.json"
        if not path.is_file():
            store.stale = f"no store file for {proof_id}"
            return [f"the store is stale: {store.stale}"]
        store = _merged(store, path)
    if store.stale is not None:
        return [f"the store is stale: {store.stale}"]
    lines = []
    for proof_id in chosen:
        for step in check_proof(load_builtin(proof_id), store=store).steps:
            lines.extend(f"{proof_id}/{note}" for note in step.searched
                         if not unstored(note))
    unused = sorted(store.entries.keys() - store.used)
    lines.extend(f"stale entry {store.entries[k].where} ({k[:12]}): no built-in statement "
                 "asks for it" for k in unused)
    if proofs is None:
        lines.extend(f"a store file for no built-in proof: {path.name}"
                     for path in sorted(folder.glob("*.json")) if path.stem not in PROOFS)
    return lines


def _merged(store: Store, path: Path) -> Store:
    """`store` with the entries of the file `path` (stale if written by another search)."""
    try:
        made_by, entries = read_file(path)
    except (OSError, ValueError) as error:
        store.stale = f"{path.name} cannot be read ({error})"
        return store
    if made_by != search_fingerprint():
        store.stale = f"{path.name} was written by another version of the search"
    for found in entries:
        store.entries.setdefault(found.key, found)
    return store
