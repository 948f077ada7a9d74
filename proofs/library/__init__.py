"""The built-in proof library: proof ids and their TOML files (docs/design.md §5, §6).

Every built-in proof is an ordinary proof file, so `novikoff check` and the audit read it the
way they read a user's. `PROOFS` maps each id to its file; `load_builtin(id)` parses one.
The canonical proofs come first; each variant of the online proof is a proof of its own.
"""

from __future__ import annotations

import difflib
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # the registry is read by command-line parsers: no SymPy until a proof loads
    from proofs.step import Proof

from proofs.errors import ProofFileError
from proofs.library.paths import CANONICAL, HERE, PROOFS, RESULTS, SOURCES, VARIANTS

__all__ = ["CANONICAL", "HERE", "PROOFS", "RESULTS", "SOURCES", "VARIANTS", "Summary",
           "load_builtin", "load_named", "summary"]


def load_builtin(proof_id: str) -> Proof:
    """The built-in proof `proof_id`, parsed by the proof-file loader.

    Raises KeyError naming the known ids for an unknown one.
    """
    from proofs.proof_file import load_proof

    try:
        path = PROOFS[proof_id]
    except KeyError:
        known = ", ".join(sorted(PROOFS))
        raise KeyError(f"no built-in proof {proof_id!r} (known: {known})") from None
    return load_proof(path)


def load_named(name: str) -> Proof:
    """A proof named as on the command line: a file path, or a built-in id. A file of that
    name wins over a built-in id, so a user's `canonical-online` file in the current
    directory is never shadowed."""
    from proofs.proof_file import load_proof

    if name in PROOFS and not _exists(name):
        return load_builtin(name)
    if "[[step]]" in name and "\n" in name and not _exists(name):
        # newcomer 31: `audit_proofs(TEXT)` quoted the whole text as a file name (a file
        # named so is still read, and refused); its first line shown, printable only
        first = "".join(c for c in name.lstrip().splitlines()[0][:40] if c.isprintable())
        raise ProofFileError("this is a proof's text, not a file name nor a built-in id: "
                             "write it to a file and give its path (docs/api.md)",
                             file=f"{first}...")
    if not _exists(name) and not name.endswith(".toml"):  # neither: say both
        close = difflib.get_close_matches(name, PROOFS, n=1)
        raise ProofFileError("no such file, and no built-in proof of that id"
                             + (f" (did you mean {close[0]}?)" if close else
                                f" (built-in: {', '.join(PROOFS)})"), file=name)
    return load_proof(name)


def _exists(name: str) -> bool:
    """Whether a file or folder `name` exists; False for a name no file can have (a part
    over the system's 255 bytes: `Path.exists` raises `OSError` for it on Python 3.11, so a
    proof's text of more than 255 characters given as a name was quoted whole as a file name,
    "...: File name too long", red team 31 B1)."""
    try:
        return Path(name).exists()
    except (OSError, ValueError):  # ENAMETOOLONG; a NUL byte
        return False


class Summary(NamedTuple):
    """What `novikoff list` shows of a built-in proof."""

    title: str
    steps: int
    source: str


def summary(proof_id: str) -> Summary:
    """The title, step count and source of built-in proof `proof_id`, read from its TOML
    without parsing its statements (no SymPy: `novikoff list` answers in a fraction of the
    time). The built-in files are the library's own; `load_builtin` validates them, and the
    tests check that both read the same."""
    document = _document(proof_id)
    return Summary(document["title"], len(_step_ids(proof_id)), document.get("source", ""))


@cache
def _document(proof_id: str) -> dict[str, Any]:
    """The TOML of built-in proof `proof_id`, parsed once per process: a proof that others
    copy steps from is read for each of them (`_closure`), and tomllib, pure Python, was
    most of `novikoff list`'s time when every file was parsed for every mention."""
    return tomllib.loads(PROOFS[proof_id].read_text(encoding="utf-8"))


def _step_ids(proof_id: str) -> list[str]:
    """The ids of a built-in proof's steps as the loader makes them, read from the TOML
    alone: the steps copied from another built-in proof (`uses = ["PROOF/STEP"]`, with the
    steps they use there, transitively, as `PROOF--STEP`, `proofs.imports`) and its own. The
    built-in files use no `[imports]` aliases; the tests check that this counts what the
    loader loads."""
    steps = _document(proof_id)["step"]
    copies: dict[str, None] = {}
    for table in steps:
        for entry in table.get("uses", []):
            reference = entry["step"] if isinstance(entry, dict) else entry
            if "/" in reference:
                source, _, step_id = reference.rpartition("/")
                for used in _closure(source, step_id):
                    copies.setdefault(f"{source}--{used}", None)
    return [*copies, *(table["id"] for table in steps)]


def _closure(proof_id: str, step_id: str) -> list[str]:
    """`step_id` of the built-in proof `proof_id` and the steps it uses there, transitively,
    in the proof's order (its own copies included)."""
    ids = _step_ids(proof_id)
    steps = _document(proof_id)["step"]
    uses: dict[str, set[str]] = {}
    for table in steps:
        named = {entry["step"] if isinstance(entry, dict) else entry
                 for entry in table.get("uses", [])}
        uses[table["id"]] = {n.replace("/", "--") for n in named}
    needed = {step_id}
    for current in reversed(ids):
        if current in needed:
            needed |= uses.get(current, set())
    return [i for i in ids if i in needed]
