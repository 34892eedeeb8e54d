"""The ``docgen`` command's entry point: the command runs without the cycle collector
and its process ends as soon as the command has, its heap left to the system; Ctrl-C
while the command line is still loading ends the run as Ctrl-C does later (exit 130,
nothing printed), not with a traceback; a reader that goes away (``docgen check |
head -1``) or a terminal that cannot show a character never changes the exit code."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys
from typing import Any, TextIO

#: The exit code of a run stopped with Ctrl-C, as shells report SIGINT.
INTERRUPTED = 130


def main() -> None:
    """The ``docgen`` command (its console script and ``python -m docgen``): ``run``,
    then the process ends at once with the command's exit code.

    A large run leaves a large heap; tearing it down (module by module, then a last pass
    of the cycle collector over every object) took about a tenth of a 2,000-profile
    check, for a process that ends anyway. By then every file docgen wrote is closed (a
    context manager closes each) and docgen registers no exit handler; standard output
    and error are flushed first. A run under a profiler or a tracer (``python -m
    cProfile``, ``coverage run``), or with an exit handler someone registered, ends as
    Python ends: they write what they gathered as it does.
    """
    try:
        run()
        code: object = 0
    except SystemExit as done:
        code = done.code
    if not _ends_at_once():
        raise SystemExit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as Python ends a ``sys.exit("message")``
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):  # none, gone, closed
            stream.flush()
    os._exit(code or 0)


def _ends_at_once() -> bool:
    """Whether nothing waits for the interpreter's own end: no profiler, no tracer and no
    exit handler (where Python cannot say, it is assumed that something does)."""
    handlers = getattr(atexit, "_ncallbacks", None)
    if handlers is None or handlers():
        return False
    return sys.getprofile() is None and sys.gettrace() is None


def run() -> None:
    """Load the command line, then run it (see ``docgen.cli.main``); raise SystemExit
    with its exit code."""
    try:
        from docgen.cli import main as command
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    # Started with standard output or error closed (``>&-``): what is said goes nowhere.
    sys.stdout = sys.stdout or open(os.devnull, "w")  # noqa: SIM115 - for the whole run
    sys.stderr = sys.stderr or open(os.devnull, "w")  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # ``—`` on a latin-1 console: ``\u2014``
            stream.reconfigure(errors="backslashreplace")
    sys.stdout = _Unread(sys.stdout)
    # One command is one short process: reference counting frees what it drops, and the
    # cycle collector would only walk the registry, the plan and the report again and
    # again (about a tenth of a large check; see docgen.heap).
    gc.disable()
    try:
        command()
    finally:
        gc.enable()


class _Unread:
    """Standard output that, once its reader is gone (a closed pipe), sends the rest of
    the run's output nowhere, so the run ends with its own exit code (0 in sync, 1 on
    drift) rather than the one a failed write would give."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self) -> None:
        """From here on, the output (what is still buffered too) goes to the null device."""
        nowhere = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(nowhere, self._stream.fileno())
        finally:
            os.close(nowhere)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
