"""Ctrl-C and SIGTERM held while a write stages and renames its files.

A signal handled in Python raises where the interpreter next checks for one, which after
a rename is often the very next instruction, before the step is noted as done: the
rollback then skipped that file, and an interrupted build left one new file behind. While
a write runs, a signal whose handler is Python's (Ctrl-C's, and the SIGTERM handler of
the ``docgen`` command) is noted instead, and its handler runs between two steps, where
the write knows every step it did; the rollback runs held too, so a second signal does
not cut it short.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: The signals held: Ctrl-C, and what ``timeout``, ``docker stop`` and CI cancels send.
HELD = (signal.SIGINT, signal.SIGTERM)
#: A signal handler of Python's (what ``signal.getsignal`` gives when it is callable).
Handler = Callable[[int, Any], Any]


@contextmanager
def held() -> Iterator[Callable[[], None]]:
    """Hold ``HELD`` signals for the block (in the main thread, where Python runs handlers,
    and only those with a handler of Python's: a default action is left as it is). The
    block is given a function to call between its steps: it runs the handler of each
    signal that arrived (Ctrl-C's raises KeyboardInterrupt). One that arrived after the
    last call, or while the block raised, runs as the block ends, its handler restored."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    arrived: list[int] = []
    previous: dict[int, Handler] = {}
    for number in HELD:
        handler = signal.getsignal(number)
        if callable(handler):
            previous[number] = handler
            signal.signal(number, lambda n, _frame: arrived.append(n))

    def deliver() -> None:
        while arrived:  # a handler that returns (a host's flag) leaves the rest held
            number = arrived.pop(0)
            previous[number](number, None)

    try:
        yield deliver
    finally:
        for held_signal, handler in previous.items():
            signal.signal(held_signal, handler)
        deliver()
