"""The compiled inner loop of the integer engine (numba), for the machine-integer tiers.

`perceptron.algorithms.fast` proves, before a block of epochs, that every integer the run forms in
that block (coordinates of the iterate, every partial sum of every margin) stays below `2**53` (tier
`float64`) or `2**63` (tier `int64`). Under that proof the textbook loop — for each example in
order, the margin `<W, Z[i]>`, and `W += E * Z[i]` when it is below `q[i]` — is exact in machine
arithmetic, in any summation order: so it is compiled here with numba, with `reassoc`/`contract`
(vectorised sums and fused multiply-adds) allowed for the float64 tier, where every intermediate
value is an exactly representable integer. Beyond `2**63` the engine stays on exact Python integers
(`perceptron.algorithms.fast`), never here.

The same loop also does what `perceptron.algorithms.online.EpochDriver` does between epochs, so a
block of many epochs is one call: it stops at the first epoch without an update (converged), and
runs Brent's cycle detection on the iterates at the start of epochs with the driver's own state
(`saved`, `cycle = [saved_epoch, power, lam]`), so a repeat is found at the same epoch as in Python.

numba is imported lazily (`kernels()`): importing it costs a few tenths of a second, which a
small run does not repay (`perceptron.algorithms.fast.PrimalEngine` decides). `cache=True` keeps the
machine code on disk, so only the very first run on a machine compiles (a few seconds per
dtype combination); `AVAILABLE` is False when numba cannot be imported, and the engine then
keeps its numpy loop.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from functools import cache

import numpy as np

#: Whether numba is installed (checked without importing it).
AVAILABLE = importlib.util.find_spec("numba") is not None

#: Block statuses returned by the kernel.
RAN_ALL, CONVERGED, CYCLED = 0, 1, 2


def _primal_block(Z: np.ndarray, W: np.ndarray, E: object, q: np.ndarray, saved: np.ndarray,
                  cycle: np.ndarray, first_epoch: int, epochs: int, counts: np.ndarray,
                  indices: np.ndarray, record: bool) -> tuple[int, int]:
    """Up to `epochs` cyclic epochs from epoch `first_epoch`; returns (epochs run, status).

    `counts[k]` receives the number of updates of epoch `first_epoch + k`; with `record`, the
    positions that updated are written to `indices` in order (room for `n` per epoch).
    Status `CYCLED`: the iterate at the start of epoch `first_epoch + epochs run` equals the
    one at the start of epoch `cycle[0]` (that epoch is not run).
    """
    n, d = Z.shape
    used = 0
    done = 0
    zero = E - E  # 0 in the tier's type
    while done < epochs:
        epoch = first_epoch + done
        if epoch > 1:
            same = True
            for k in range(d):
                if W[k] != saved[k]:
                    same = False
                    break
            if same:
                return done, CYCLED
            cycle[2] += 1
            if cycle[2] == cycle[1]:
                saved[:] = W
                cycle[0] = epoch
                cycle[1] *= 2
                cycle[2] = 0
        updates = 0
        for i in range(n):
            s = zero
            for k in range(d):
                s += W[k] * Z[i, k]
            if s < q[i]:
                for k in range(d):
                    W[k] += E * Z[i, k]
                if record:
                    indices[used] = i
                    used += 1
                updates += 1
        counts[done] = updates
        done += 1
        if updates == 0:
            return done, CONVERGED
    return done, RAN_ALL


Kernel = Callable[..., tuple[int, int]]


def loaded() -> bool:
    """Whether numba is imported already (then compiling costs next to nothing more)."""
    return "numba" in sys.modules


@cache
def kernels() -> Kernel:
    """The compiled block kernel (numba is imported here, on first use)."""
    import numba

    return numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})(_primal_block)


def narrowest(a: np.ndarray, top: int) -> np.ndarray:
    """`a` (integers of magnitude at most `top`) in int8, int16 or int64, the narrowest that
    holds them: the loop reads the examples once per epoch, and small entries keep them in
    cache (int32 is left out: each dtype is one more compilation on a fresh machine, and
    entries that large are rare below the int64 tier)."""
    for dtype, largest in _NARROW:
        if top <= largest:
            return np.ascontiguousarray(a, dtype=dtype)
    return np.ascontiguousarray(a, dtype=np.int64)


#: The narrow dtypes `narrowest` tries, with their largest values (`np.iinfo` once: asked
#: at every run, it cost more than the conversion of a long run's few examples).
_NARROW = tuple((dtype, int(np.iinfo(dtype).max)) for dtype in (np.int8, np.int16))
