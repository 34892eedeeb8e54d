"""Share independent work between this process and a forked copy of it.

Rendering thousands of pages is pure computation on data both processes already hold
after a fork (registry, compiled templates), so the copy renders every other item and
sends back only its results. Forking is used only where it is safe and pays: a POSIX
system, more than one usable processor, a single thread in this process (a fork copies
no other thread, and locks they hold would stay locked), and enough items. Anything the
copy cannot finish, this process redoes itself, so an error is raised here, exactly as
a sequential run would raise it.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")

#: Fewest items (pages) whose work pays for a fork.
MANY = 256
#: Smallest registry (its text, in bytes) whose loading pays for a fork beside it.
LARGE_REGISTRY = 200_000


def map_split(work: Callable[[T], R], items: Sequence[T], *, min_items: int = MANY) -> list[R]:
    """``[work(item) for item in items]``, computed by two processes when that pays.

    Both processes take the next few items from a counter they share, so neither
    waits for the other however unevenly the items cost.
    """
    if len(items) < min_items or not _can_fork():
        return [work(item) for item in items]
    queue = _Queue(len(items))
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: compute, send, and leave without running any exit handler
        os.close(reader)
        _serve(work, items, queue, writer)
    os.close(writer)
    try:
        mine = {index: work(items[index]) for index in queue}
        theirs = _received(reader)
    except BaseException:
        _stop(pid)
        raise
    finally:
        os.close(reader)
        queue.close()
    _reap(pid, theirs)
    if theirs is None or len(theirs) + len(mine) != len(items):
        missing = [i for i in range(len(items)) if i not in mine]
        theirs = {i: work(items[i]) for i in missing}  # raises the copy's error here, if any
    return [mine[i] if i in mine else theirs[i] for i in range(len(items))]


def map_split_with(
    side: Callable[[], S], work: Callable[[T], R], items: Sequence[T], worth: bool = True
) -> tuple[S, list[R]]:
    """``(side(), [work(item) for item in items])``. When the items are many enough to
    share with a forked copy, ``side`` is one more of them, the first either process takes
    (whichever takes it, the other goes on with the items); with fewer, where ``worth`` it,
    a forked copy computes ``side`` alone while this process does the items."""
    if len(items) + 1 < MANY or not _can_fork():
        return beside(side, lambda: [work(item) for item in items], worth)
    first = object()  # the same object in the forked copy
    marked: list[Any] = [first, *items]
    done: list[Any] = map_split(lambda item: side() if item is first else work(item), marked)
    return done[0], done[1:]


def beside(side: Callable[[], R], main: Callable[[], T], worth: bool = True) -> tuple[R, T]:
    """``(side(), main())``, with ``side`` computed by a forked copy while this process
    computes ``main``, where forking is possible and ``worth`` it (see ``started``). An
    error of ``main`` stops the copy and is raised as is."""
    with started(side, worth) as result:
        mine = main()
        return result(), mine


@contextlib.contextmanager
def started(work: Callable[[], R], worth: bool = True) -> Iterator[Callable[[], R]]:
    """Start ``work`` in a forked copy, where forking is possible and ``worth`` it, and
    give a function that returns its result: it waits for the copy, or computes ``work``
    here when the copy could not finish (so its error is raised here, as a sequential run
    raises it) or was never started.

    A result never asked for is dropped: leaving the block stops the copy.
    """
    if not worth or not _can_fork():
        yield work  # computed here, if it is asked for
        return
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: compute, send, and leave without running any exit handler
        os.close(reader)
        _serve(lambda _item: work(), [0], range(1), writer)
    os.close(writer)
    asked: list[R] = []
    running = [pid]

    def result() -> R:
        if not asked:
            if running:
                done = _received(reader)
                _reap(running.pop(), done)
                asked.append(done[0] if done is not None and 0 in done else work())
            else:
                asked.append(work())
        return asked[0]

    try:
        yield result
    finally:
        if running:
            _stop(running.pop())
        os.close(reader)


class _Queue:
    """Indexes ``0..total-1`` handed out a few at a time to whichever process asks.

    The next index lives in shared memory; a one-byte token in a pipe is the lock.
    """

    CHUNK = 8

    def __init__(self, total: int) -> None:
        self.total = total
        self.memory = mmap.mmap(-1, 8)
        self.token_out, self.token_in = os.pipe()
        os.write(self.token_in, b"t")

    def __iter__(self) -> Iterator[int]:
        while True:
            start = self._take()
            if start >= self.total:
                return
            yield from range(start, min(start + self.CHUNK, self.total))

    def _take(self) -> int:
        os.read(self.token_out, 1)
        try:
            start = int.from_bytes(self.memory[:8], "little")
            self.memory[:8] = (start + self.CHUNK).to_bytes(8, "little")
        finally:
            os.write(self.token_in, b"t")
        return start

    def close(self) -> None:
        os.close(self.token_out)
        os.close(self.token_in)
        self.memory.close()


def forks() -> bool:
    """Whether work given to ``map_split``, ``beside`` or ``started`` is shared with a
    forked copy (else it is all done in this process)."""
    return _can_fork()


def _can_fork() -> bool:
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    if os.environ.get("DOCGEN_JOBS", "") == "1":
        return False
    affinity = getattr(os, "sched_getaffinity", None)
    usable = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return usable > 1


def _serve(work: Callable[[T], R], items: Sequence[T], queue: Iterable[int], writer: int) -> None:
    """The copy's side: its share's results, pickled straight into the pipe (never whole in
    memory); None when the work failed: the parent redoes that share and raises the error
    itself. A result that cannot be pickled leaves a broken stream, which reads as None."""
    code = 0
    try:
        with os.fdopen(writer, "wb") as pipe:
            try:
                done: dict[int, Any] | None = {index: work(items[index]) for index in queue}
            except BaseException:
                done = None
            pickle.dump(done, pipe, pickle.HIGHEST_PROTOCOL)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _received(fd: int) -> dict[int, Any] | None:
    """The copy's results, unpickled as they arrive (the pickle is never held whole), or
    None when it sent none: it failed, died, or its stream broke off."""
    try:
        with os.fdopen(fd, "rb", closefd=False) as pipe:
            done = pickle.load(pipe)  # noqa: S301 - our own child, through our own pipe
    except Exception:  # a stream broken off anywhere raises whatever its last byte makes
        return None
    return done if isinstance(done, dict) else None


def _reap(pid: int, received: object) -> None:
    """Wait for a copy that sent its results; stop one that did not (it may still be
    writing into a pipe nobody reads)."""
    if received is None:
        _stop(pid)
    else:
        os.waitpid(pid, 0)


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
