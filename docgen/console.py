"""The ``docgen`` command's entry point: the command runs without the cycle collector
and its process ends as soon as the command has, its heap left to the system; Ctrl-C
while the command line is still loading ends the run as Ctrl-C does later (exit 130,
nothing printed), not with a traceback; a reader that goes away (``docgen check |
head -1``, or stderr's) or a terminal that cannot show a character never changes the
exit code, and a report that cannot be written (a full disk) is said, with exit code 2.
SIGTERM (``timeout``, ``docker stop``, a cancelled CI job) ends the run as Ctrl-C does,
what a build staged removed and its renames undone, with exit code 143."""

from __future__ import annotations

import atexit
import codecs
import contextlib
import gc
import os
import signal
import sys
from typing import Any, TextIO

#: The exit code of a run stopped with Ctrl-C, as shells report SIGINT.
INTERRUPTED = 130
#: The exit code of a run stopped with SIGTERM, as shells report it.
TERMINATED = 143
#: The exit code of a bug in docgen (see ``docgen.terminal``).
INTERNAL_ERROR = 3


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run is, so that it ends as Ctrl-C ends it."""


#: Whether SIGTERM stopped this run (its exit code is then ``TERMINATED``).
_TERMINATED: list[bool] = []


def _on_sigterm(_number: int, _frame: Any) -> None:
    _TERMINATED.append(True)
    raise _Terminated


def main() -> None:
    """The ``docgen`` command (its console script and ``python -m docgen``): ``run``,
    then the process ends at once with the command's exit code.

    A large run leaves a large heap; tearing it down (module by module, then a last pass
    of the cycle collector over every object) took about a tenth of a 2,000-profile
    check, for a process that ends anyway. By then every file docgen wrote is closed (a
    context manager closes each) and docgen registers no exit handler (one that another
    library registered runs first); standard output and error are flushed first. A run
    under a profiler or a tracer (``python -m cProfile``, ``coverage run``) ends as Python
    ends: they write what they gathered as it does.
    """
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        run()
        code: object = 0
    except SystemExit as done:
        code = done.code
    finally:  # the command is done: SIGTERM ends the process as it would have, untraced
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _TERMINATED and code == INTERRUPTED:
        code = TERMINATED
    code = _written(code)
    if _watched() or not _exit_handlers_ran():
        raise SystemExit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as Python ends a ``sys.exit("message")``
        code = 1
    with contextlib.suppress(AttributeError, OSError, ValueError):  # none, gone, closed
        sys.stderr.flush()  # standard output is (``_written``)
    os._exit(code or 0)


def _written(code: object) -> object:
    """``code``, unless standard output lost what the run printed (a full disk; see
    ``_Unread``): that is then said on standard error, and the run ends with exit code 2."""
    with contextlib.suppress(AttributeError, OSError, ValueError):  # none, or closed
        sys.stdout.flush()
    lost = getattr(sys.stdout, "lost", None)
    if lost is None:
        return code
    reason = lost.strerror or type(lost).__name__
    print(f"docgen: error: cannot write the output: {reason}", file=sys.stderr)
    return code if code in (INTERNAL_ERROR, INTERRUPTED, TERMINATED) else 2  # they say more


def _watched() -> bool:
    """Whether a profiler or a tracer waits for the interpreter's own end to write what it
    gathered (``python -m cProfile -o``, ``coverage run``)."""
    return sys.getprofile() is not None or sys.gettrace() is not None


def _exit_handlers_ran() -> bool:
    """Run the exit handlers someone registered (``logging``'s, say), as the interpreter's
    end would; where Python cannot run them here, whether there are none to run."""
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is not None:
        run_handlers()  # each runs once: ``atexit`` forgets them as it runs them
        return True
    handlers = getattr(atexit, "_ncallbacks", None)
    return handlers is not None and handlers() == 0


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
            stream.reconfigure(encoding=_encoding(stream), errors="backslashreplace")
    sys.stdout, sys.stderr = _Unread(sys.stdout), _Unread(sys.stderr)
    # One command is one short process: reference counting frees what it drops, and the
    # cycle collector would only walk the registry, the plan and the report again and
    # again (about a tenth of a large check; see docgen.heap).
    gc.disable()
    try:
        command()
    finally:
        gc.enable()


def _encoding(stream: TextIO) -> str | None:
    """UTF-8 for a stream that says ASCII, else None (its own): click takes ASCII for a
    misconfigured locale and writes UTF-8 there anyway, through a writer of its own made
    over the stream's bytes, which ``_Unread`` would not guard (``| head`` then ended the
    run with exit code 1)."""
    try:
        ascii_only = codecs.lookup(stream.encoding).name == "ascii"
    except (LookupError, TypeError):
        return None
    return "utf-8" if ascii_only else None


class _Unread:
    """Standard output (or error) that, once its reader is gone (a closed pipe), sends the
    rest of the run's output nowhere, so the run ends with its own exit code (0 in sync, 1
    on drift, 2 on an input to fix) rather than the one a failed write would give. Output
    that cannot be written otherwise (a full disk) goes nowhere too, and is ``lost``: for
    standard output, the run then says so and ends with exit code 2 (see ``_written``);
    what standard error loses is lost."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:  # not raised on: click probes streams with writes it catches
            self._gone(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self._gone(exc)

    def _gone(self, exc: OSError) -> None:
        """From here on, the output (what is still buffered too) goes to the null device."""
        if not isinstance(exc, BrokenPipeError) and self.lost is None:
            self.lost = exc
        nowhere = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(nowhere, self._stream.fileno())
        finally:
            os.close(nowhere)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
