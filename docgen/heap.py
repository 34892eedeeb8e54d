"""Keep Python's cycle collector out of docgen's two allocation-heavy phases.

Loading a registry creates hundreds of thousands of containers that all stay alive,
and rendering creates and frees millions of small objects around a large, long-lived
registry. The collector would traverse the live objects again and again (a sixth of
the time of a large build) and, after a fork, touch every page of the shared heap,
making the copy duplicate it. Reference counting still frees everything as usual.
The ``docgen`` command turns the collector off for its whole run (``docgen.console``);
these blocks keep it out of the same phases where docgen runs inside another program
(MkDocs, pytest), whose collector stays on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block (for building data that all stays alive)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def settled() -> Iterator[None]:
    """Collections inside the block skip every object that exists when it starts."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
