"""Talking to the vLLM probe: one run bounded in time and output, and its JSON answer
checked against the shape ``vllm_probe.answer`` promises before any of it is read.

The probe runs the python of a venv docgen does not control: ``bounded`` stops it (and
everything it started) when it prints more than a cap or outlives a deadline, so a broken
or hostile environment is a clear error, never a hang or a MemoryError.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: What the probe answers to a request for ``count`` commands.
ANSWER_SHAPE = '{"vllm": "<version>", "results": [...]}, one result per command'
RESULT_SHAPE = '{"ok": true} or {"ok": false, "error": "<message>"}'


def problem(answer: Any, count: int) -> str | None:
    """What is wrong with ``answer`` to a request for ``count`` commands, or None."""
    if not isinstance(answer, dict):
        return f"got {_brief(answer)}; expected {ANSWER_SHAPE}"
    results = answer.get("results")
    if not isinstance(answer.get("vllm"), str) or not isinstance(results, list):
        return f"got {_brief(answer)}; expected {ANSWER_SHAPE}"
    if len(results) != count:
        return f"got {len(results)} results for {count} commands"
    for index, result in enumerate(results, start=1):
        if not _is_result(result):
            return f"result {index} is {_brief(result)}; expected {RESULT_SHAPE}"
    return None


def _is_result(result: Any) -> bool:
    if not isinstance(result, dict):
        return False
    return result.get("ok") is True or (
        result.get("ok") is False and isinstance(result.get("error"), str)
    )


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else f"{text[:77]}..."


# --- one bounded run ------------------------------------------------------------------


@dataclass(frozen=True)
class Ran:
    """What a finished run gave: its exit code and its output."""

    returncode: int
    stdout: str
    stderr: str


class Overrun(Exception):
    """The run was stopped: it printed more than the cap (``output``) or outlived its
    deadline (``time``)."""

    def __init__(self, limit: str) -> None:
        super().__init__(limit)
        self.limit = limit


def bounded(
    argv: Sequence[str], request: str, env: dict[str, str], seconds: float, cap: int
) -> Ran:
    """Run ``argv`` in its own process group with ``request`` on stdin; its output once it
    ends. Raise ``Overrun`` (the group killed) past ``cap`` bytes of stdout and stderr
    together or ``seconds``; ``OSError`` when it cannot start."""
    process = subprocess.Popen(  # noqa: S603 - argv is the venv's python and the probe
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + seconds
    try:
        out, err = _exchange(process, request.encode("utf-8"), deadline, cap)
        process.wait(max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        raise Overrun("time") from None
    finally:
        _stop(process)
    text = (out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
    return Ran(process.returncode, *text)


def _exchange(
    process: subprocess.Popen[bytes], request: bytes, deadline: float, cap: int
) -> tuple[bytes, bytes]:
    """Write ``request`` while reading stdout and stderr until both close (a request
    larger than a pipe never deadlocks against a probe that answers as it reads)."""
    assert process.stdin and process.stdout and process.stderr
    read: dict[int, bytearray] = {process.stdout.fileno(): bytearray()}
    read[process.stderr.fileno()] = bytearray()
    sent = 0
    with selectors.DefaultSelector() as selector:
        for fd in read:
            selector.register(fd, selectors.EVENT_READ)
        selector.register(process.stdin, selectors.EVENT_WRITE)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                raise Overrun("time")
            for key, _events in selector.select(left):
                if key.fileobj is process.stdin:
                    sent = _send(selector, process, request, sent)
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fd)
                read[key.fd] += chunk
                if sum(len(data) for data in read.values()) > cap:
                    raise Overrun("output")
    return bytes(read[process.stdout.fileno()]), bytes(read[process.stderr.fileno()])


def _send(
    selector: selectors.BaseSelector, process: subprocess.Popen[bytes], request: bytes, sent: int
) -> int:
    """Write the next piece of ``request`` (at most one pipe buffer: never blocks); close
    stdin once all is sent or the probe stopped reading."""
    assert process.stdin is not None
    try:
        sent += os.write(process.stdin.fileno(), request[sent : sent + select.PIPE_BUF])
    except BrokenPipeError:
        sent = len(request)
    if sent >= len(request):
        selector.unregister(process.stdin)
        process.stdin.close()
    return sent


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the run's process group (whatever it started too), reap it, close its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):  # all ended already
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
