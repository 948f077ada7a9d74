"""Where independent tasks run: in this process, in local processes, or on a Dask cluster.

Every executor here is a `concurrent.futures.Executor`, so a call site submits tasks and
gathers their futures the same way whichever it gets (`as_completed` included):

- `executor(jobs=1)`: `Inline`, each task run at once in this process (no pickling, so a
  debugger and a profiler see everything);
- `executor(jobs=N)`: a `ProcessPoolExecutor` of N local processes (the default path);
- `executor(scheduler="tcp://HOST:PORT")`: the workers of a running Dask distributed
  scheduler, through `distributed.Client.get_executor` (Dask is imported only then).

Results never depend on which one runs a task: callers cut their work into pieces that do not
depend on the number of workers and merge the results in input order (`gather`), so the
exact integers and Fractions they add up are the same sums in the same order.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

SCHEDULER_ADDRESS = re.compile(r"(tcp|tls)://[^\s/:]+:(\d{1,5})", re.ASCII)
"""What a Dask scheduler's address looks like here (`tcp://127.0.0.1:8786`): anything else
is refused before Dask is asked to reach it (it raised a traceback after a minute)."""


class Inline(Executor):
    """Run each task when it is submitted, in this process; its future is already done."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        """Call `fn` now and return a finished future holding its result or its error."""
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # delivered through the future, as a pool delivers it
            future.set_exception(exc)
        return future


@contextmanager
def executor(jobs: int = 1, scheduler: str | None = None) -> Iterator[Executor]:
    """The executor for `jobs` local processes, or for a Dask scheduler's workers.

    With `scheduler` (an address such as `tcp://127.0.0.1:8786`) the tasks run on that
    cluster's workers, which must be able to import this package (same environment); `jobs`
    is then ignored. Otherwise 1 job runs inline and N jobs in N local processes.
    """
    if scheduler is not None:
        from distributed import Client  # Dask only when asked for

        try:
            client = Client(scheduler, set_as_default=False)
        except (OSError, ValueError) as error:  # unreachable (TimeoutError is an OSError)
            raise OSError(f"the Dask scheduler at {scheduler}: {error}") from None
        with client:
            pool = client.get_executor(pure=False)
            try:
                yield pool
            finally:
                pool.shutdown(wait=True)
    elif jobs <= 1:
        yield Inline()
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker,
                                 initargs=(os.getpid(),)) as pool:
            yield pool


#: How much more address space than it had when it started a pool's worker may take
#: (`limit_memory`): the default audit's workers hold about 0.4 GB of it.
WORKER_MEMORY = 4 * 2**30


def _worker(parent: int) -> None:
    """A pool worker's start: it ends with its parent (`watch_parent`) and may take at
    most `WORKER_MEMORY` more address space (`limit_memory`)."""
    watch_parent(parent)
    limit_memory(WORKER_MEMORY)


def limit_memory(more: int) -> None:
    """Let this process take at most `more` bytes of address space beyond what it has now
    (`RLIMIT_AS`, never raised past its hard limit): past it an allocation fails here with a
    `MemoryError`, which the task's caller receives as its error, where the system would
    otherwise kill the largest process on the machine once its memory ran out (newcomer 26,
    F6: an audit's worker grew to 12 GB on a large data file and was killed, the audit ended
    with a traceback). Where `/proc` or `RLIMIT_AS` is missing, nothing is limited."""
    try:
        import resource

        with open("/proc/self/statm", "rb") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = size + more if hard == resource.RLIM_INFINITY else min(size + more, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError, AttributeError):
        return


def watch_parent(parent: int, every: float = 1.0) -> None:
    """In a worker: end this process once `parent` (the process that made the pool, named
    by it: a worker that asked its own parent late could get a stranger) has ended. A
    pool's workers outlived an audit killed with SIGTERM (by `timeout`, or a CI job
    cancelled), reparented and waiting for work for ever (red team 4). A daemon thread polls;
    it decides nothing about the work, only when to stop."""

    def watch() -> None:
        while not _ended(parent):
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="novikoff-parent-watch", daemon=True).start()


def _ended(pid: int) -> bool:
    """Whether process `pid` has ended: gone, or a zombie (ended, not yet reaped by its own
    parent), read from /proc where there is one, else asked of the system."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                return stat.read().rpartition(b")")[2].split()[0] in (b"Z", b"X")
        except FileNotFoundError:
            return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's: not ours, but not ended
        return False
    return False


def gather(pool: Executor, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """`fn` of every item, computed on `pool`, returned in the order of `items` (all tasks
    are submitted before the first result is awaited, so they run concurrently)."""
    futures = [pool.submit(fn, item) for item in items]
    return [future.result() for future in futures]
