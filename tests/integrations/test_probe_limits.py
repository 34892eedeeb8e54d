"""The vLLM probe runs within bounds: a probe that never answers is stopped after
``PROBE_TIMEOUT`` seconds, one that prints without end after ``PROBE_OUTPUT_CAP`` bytes
(stdout and stderr together). Each is a clear exit-2 error naming the venv's python, with
the probe and everything it started killed; never a MemoryError or a hang. The fake
environment's python is a shell script (as in tests/bad_inputs/test_hostile_probe.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from docgen.integrations import vllm_env
from docgen.integrations import vllm_verify as verify

HINT = "recreate the environment with `docgen verify-vllm --setup`"
OK = '{"vllm": "0.34.0", "results": [{"ok": true}, {"ok": true}]}'


@pytest.fixture
def fake_venv(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / vllm_env.MARKER).write_text(json.dumps(vllm_env.wanted()), "utf-8")

    def running(script: str) -> Path:
        python = vllm_env.python_of(venv)
        python.write_text(f"#!/bin/sh\n{script}\n", "utf-8")
        python.chmod(0o755)
        return venv

    return running


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(verify, "PROBE_TIMEOUT", 1.0)
    monkeypatch.setattr(verify, "PROBE_OUTPUT_CAP", 100_000)


def stopped(result, venv: Path, what: str) -> None:
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.splitlines() == [
        f"{vllm_env.python_of(venv)}: error: vLLM's parser {what}; docgen stopped it); {HINT}"
    ]


def gone(pid: int) -> bool:
    """Whether process ``pid`` ended (a zombie not yet reaped by init counts)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


@pytest.mark.parametrize("stream", ["", ">&2"])
def test_a_probe_that_prints_without_end_is_stopped(
    make_project, run, fake_venv, small_limits, stream
):
    venv = fake_venv(f"cat >/dev/null\nexec yes {stream}")
    started = time.monotonic()
    result = run(make_project(), "verify-vllm", "--venv", str(venv))
    stopped(result, venv, "printed too much (more than 100,000 bytes of output")
    assert time.monotonic() - started < 30


def test_a_probe_that_never_answers_is_stopped_with_what_it_started(
    make_project, run, fake_venv, small_limits, tmp_path
):
    pids = tmp_path / "pids"
    venv = fake_venv(f"cat >/dev/null\nsh -c 'echo $$ > {pids}; exec sleep 1000' &\nwait")
    started = time.monotonic()
    result = run(make_project(), "verify-vllm", "--venv", str(venv))
    stopped(result, venv, "did not finish (no answer within 1 s")
    assert time.monotonic() - started < 30
    pid = int(pids.read_text())
    deadline = time.monotonic() + 10
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid), "the probe's child still runs"


def test_a_probe_that_reads_no_request_is_stopped(make_project, run, fake_venv, small_limits):
    venv = fake_venv("exec sleep 1000")
    result = run(make_project(), "verify-vllm", "--venv", str(venv))
    stopped(result, venv, "did not finish (no answer within 1 s")


def test_the_default_limits_are_generous_but_finite():
    assert 60 <= verify.PROBE_TIMEOUT <= 900
    assert 1_000_000 <= verify.PROBE_OUTPUT_CAP <= 64_000_000


def test_a_probe_within_bounds_is_read_with_its_logs(make_project, run, fake_venv, small_limits):
    logs = "i=0; while [ $i -lt 500 ]; do echo 'INFO vllm says hello' >&2; i=$((i+1)); done"
    venv = fake_venv(f"cat >/dev/null\n{logs}\ncat <<'EOF'\n{OK}\nEOF")
    result = run(make_project(), "verify-vllm", "--venv", str(venv))
    assert result.exit_code == 0, result.output


def test_a_large_request_reaches_the_probe(fake_venv, tmp_path, monkeypatch):
    """The request is written while the answer is read: a request larger than a pipe's
    buffer never deadlocks against a probe that answers as it reads."""
    venv = fake_venv("cat")  # echoes the request: its answer is the request itself
    request = {"commands": [["vllm", "serve", "m", f"--x{i}"] for i in range(20_000)]}
    assert len(json.dumps(request)) > 10 * 65536
    assert verify.run_probe(vllm_env.python_of(venv), request) == request
