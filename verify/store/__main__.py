"""`python -m verify.store`: search every built-in proof and write the certificate store, and
the separators kept for the campaign's sources (`verify.store.separators`); `--check`: say
what the store as shipped lacks (exit 1 if anything), writing nothing."""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    """Regenerate the store, or check it (`--check`)."""
    parser = argparse.ArgumentParser(prog="python -m verify.store", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="check the store against the built-in proofs; write nothing")
    parser.add_argument("proofs", nargs="*", help="only these built-in proofs (default: all)")
    args = parser.parse_args(argv)
    from verify.store import separators, write

    start = time.perf_counter()
    if args.check:
        found = write.problems() + ([] if args.proofs else separators.problems())
        for line in found:
            print(line)
        print(f"certificate store: {len(found)} problem(s) "
              f"({time.perf_counter() - start:.1f} s)", file=sys.stderr)
        return 1 if found else 0
    counts = write.regenerate(proofs=args.proofs or None)
    print(f"certificate store: {sum(counts.values())} entries for {len(counts)} proofs "
          f"written to {write.FOLDER} ({time.perf_counter() - start:.1f} s)")
    if not args.proofs:
        print(f"separators: {separators.regenerate()} kept in {separators.cyclic.KEPT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
