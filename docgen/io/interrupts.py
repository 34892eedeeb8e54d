"""Ctrl-C and SIGTERM held while a write renames its files into place.

A signal handled in Python raises where the interpreter next checks for one, which after
a rename is often the very next instruction, before the step is noted as done: the
rollback then skipped that file, and an interrupted build left one new file behind. While
the renames run, a signal whose handler is Python's (Ctrl-C's, and the SIGTERM handler of
the ``docgen`` command) is noted instead; the renames stop at the next step, and the
handler then runs there, so the rollback knows every rename that was done.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: The signals held: Ctrl-C, and what ``timeout``, ``docker stop`` and CI cancels send.
HELD = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def held() -> Iterator[Callable[[], None]]:
    """Hold ``HELD`` signals for the block (in the main thread, where Python runs handlers,
    and only those with a handler of Python's: a default action is left as it is). The
    block is given a function to call between its steps: it runs the handler of a signal
    that arrived (which raises, as Ctrl-C raises KeyboardInterrupt). One that arrived
    after the last call runs as the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    arrived: list[int] = []
    previous: dict[int, Callable[[int, Any], Any]] = {}
    for number in HELD:
        handler = signal.getsignal(number)
        if callable(handler):
            previous[number] = handler
            signal.signal(number, lambda n, _frame: arrived.append(n))

    def deliver() -> None:
        if arrived:
            handler = previous[arrived[0]]
            _restore(previous)
            previous.clear()
            handler(arrived[0], None)

    try:
        yield deliver
        deliver()
    finally:
        _restore(previous)


def _restore(previous: dict[int, Callable[[int, Any], Any]]) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler)
