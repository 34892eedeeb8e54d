"""Bounded time and memory on hostile input: each case stops with a clear located error.

Every case runs docgen in a child process and reads that child's own resource usage
with ``os.wait4`` (the per-child form of ``getrusage(RUSAGE_CHILDREN)``, which would
also count every other child the test session ever waited for): its processor time
(user + system) must stay under ``TIME_LIMIT`` and its peak resident memory under
``MEMORY_LIMIT``. Processor time, unlike the wall clock, does not grow when other
jobs share the machine; the wall clock (``time.monotonic``) is a backstop: a child
still running after ``WALL_LIMIT`` seconds is killed, so a case that is not bounded
fails in bounded time too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryFile

import pytest
import yaml
from conftest import MINIMAL_REGISTRY

from docgen.registry.depth import MAX_DEPTH
from docgen.registry.load import MAX_BYTES
from docgen.registry.source import MAX_NODES

TIME_LIMIT = 10.0  # seconds of processor time; generous for a slow CI machine
WALL_LIMIT = 3 * TIME_LIMIT
MEMORY_LIMIT = 400 * 1024  # KiB of peak resident memory
#: Runs the docgen command line with the template render deadline set (0: the default).
#: It reports its own peak resident memory (``VmHWM``, which starts afresh at exec) to the
#: file named by ``sys.argv[1]`` as it exits: ``ru_maxrss`` would also count the test
#: session's own peak, which Linux carries into a child across fork and exec.
DRIVER = """\
import atexit
import sys
import docgen.render.environment
peak_file = sys.argv.pop(1)


def report_peak():
    with open("/proc/self/status") as status, open(peak_file, "w") as out:
        out.write(next(line.split()[1] for line in status if line.startswith("VmHWM:")))


atexit.register(report_peak)
seconds = int(sys.argv.pop(1))
if seconds:
    docgen.render.environment.RENDER_SECONDS = seconds
from docgen.cli import main
sys.argv[0] = "docgen"
main()
"""


@dataclass(frozen=True)
class Run:
    exit_code: int  # negative: killed by that signal
    seconds: float  # wall clock
    cpu_seconds: float  # user + system
    peak_kib: int
    stdout: str
    stderr: str


def docgen_bounded(
    root: Path, *args: str, render_seconds: int = 0, kill_after: float = WALL_LIMIT
) -> Run:
    """Run docgen in a child; kill it after ``kill_after`` s; return its own time and memory."""
    peak_file = root.parent / f"{root.name}.peak"
    peak_file.unlink(missing_ok=True)
    with TemporaryFile() as out, TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-c", DRIVER, str(peak_file), str(render_seconds)]
            + ["--root", str(root), *args],
            stdout=out,
            stderr=err,
        )
        timer = threading.Timer(kill_after, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        stdout, stderr = out.read().decode(), err.read().decode()
        # Killed before it could report: its maxrss is at least its own peak.
        reported = peak_file.read_text() if peak_file.is_file() else ""
        peak = int(reported) if reported.isdigit() else usage.ru_maxrss
        return Run(proc.returncode, seconds, cpu, peak, stdout, stderr)


def assert_bounded(run: Run, expected: str) -> None:
    assert run.exit_code == 2, (run.exit_code, run.stderr[-2000:])
    assert run.cpu_seconds < TIME_LIMIT and run.seconds < WALL_LIMIT
    assert run.peak_kib < MEMORY_LIMIT
    assert "Traceback" not in run.stderr
    assert run.stderr.splitlines() == [expected]


@pytest.fixture
def root(make_project) -> Path:
    return make_project().root


def test_alias_bomb(root: Path) -> None:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, 10)]
    (root / "profiles.yaml").write_text("\n".join(lines) + "\n", "utf-8")  # 10**10 nodes
    assert_bounded(
        docgen_bounded(root, "validate"),
        f"profiles.yaml:6:1: error: YAML aliases expand to more than {MAX_NODES:,} nodes "
        "(an alias bomb?)",
    )


def test_registry_of_50_megabytes(root: Path) -> None:
    size = 50_000_000
    pad = "# padding\n" * ((size - len(MINIMAL_REGISTRY)) // 10)
    text = MINIMAL_REGISTRY + pad
    (root / "profiles.yaml").write_text(text + "#" * (size - len(text) - 1) + "\n", "utf-8")
    assert (root / "profiles.yaml").stat().st_size == size
    assert_bounded(
        docgen_bounded(root, "build"),
        f"profiles.yaml:1:1: error: the registry is 50.0 MB; docgen reads registries up to "
        f"{MAX_BYTES / 1e6:.0f} MB",
    )


def test_deeply_nested_block_mappings(root: Path) -> None:
    levels = 1500
    text = "".join(f"{'  ' * i}k{i}:\n" for i in range(levels)) + "  " * levels + "leaf\n"
    (root / "profiles.yaml").write_text(text, "utf-8")
    assert_bounded(
        docgen_bounded(root, "validate"),
        f"profiles.yaml:66:131: error: YAML nesting deeper than {MAX_DEPTH} levels",
    )


def test_template_that_loops_forever(make_project) -> None:
    loop = (
        "---\ntitle: x\n---\n\n{% for i in range(10**7) %}{% for j in range(10**7) %}"
        "{% endfor %}{% endfor %}\n"
    )
    project = make_project(templates={"loop.mdx.j2": loop})
    before = project.snapshot()
    assert_bounded(
        docgen_bounded(project.root, "build", render_seconds=2),
        "templates/loop.mdx.j2:5: error: template rendering took longer than 2 s "
        "(an endless loop?)",
    )
    assert project.snapshot() == before


def test_deeply_nested_flow_lists(root: Path) -> None:
    levels = 10_000
    (root / "profiles.yaml").write_text("[" * levels + "]" * levels + "\n", "utf-8")
    assert_bounded(
        docgen_bounded(root, "validate"),
        f"profiles.yaml:1:66: error: YAML nesting deeper than {MAX_DEPTH} levels",
    )


def test_nesting_through_aliases(root: Path) -> None:
    half = MAX_DEPTH // 2 + 4
    text = f"a: &a {'[' * half}x{']' * half}\nb: {'[' * half}*a{']' * half}\n"
    (root / "profiles.yaml").write_text(text, "utf-8")
    run = docgen_bounded(root, "validate")
    assert run.exit_code == 2
    assert run.stderr.startswith("profiles.yaml:1:35: error:")  # the node nested too deep
    assert run.stderr.rstrip("\n").endswith(f"error: YAML nesting deeper than {MAX_DEPTH} levels")


class LimitedLibyaml:
    """libyaml as bundled with PyYAML 6.0.2 and later: it refuses flow nesting past 1,000
    levels while scanning ahead, before handing out the events that show the depth."""

    LIMIT = 1000
    REAL = yaml.CBaseLoader

    def __init__(self, text: str) -> None:
        self._real = self.REAL(text)
        depth = 0
        for index, char in enumerate(text):
            depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(char, 0)
            if depth > self.LIMIT:
                mark = yaml.Mark("<unicode string>", index, 0, index, text, index)
                self._refusal = yaml.scanner.ScannerError(
                    "while increasing flow level", mark, "exceeded maximum nesting depth", mark
                )
                return
        self._refusal = None

    def get_event(self):
        if self._refusal is not None:
            raise self._refusal
        return self._real.get_event()

    def dispose(self) -> None:
        self._real.dispose()


@pytest.mark.parametrize("levels", [LimitedLibyaml.LIMIT + 1, 10_000])
def test_libyamls_own_nesting_limit_gives_docgens_located_error(monkeypatch, levels) -> None:
    """Whatever PyYAML release is installed, libyaml's refusal reads as docgen's own."""
    from docgen.errors import RegistryError
    from docgen.registry.load import load_bytes

    monkeypatch.setattr(yaml, "CBaseLoader", LimitedLibyaml)
    text = "[" * levels + "]" * levels + "\n"
    with pytest.raises(RegistryError) as caught:
        load_bytes(text.encode(), "profiles.yaml")
    assert [str(p) for p in caught.value.problems] == [
        f"profiles.yaml:1:66: error: YAML nesting deeper than {MAX_DEPTH} levels"
    ]


def test_very_deeply_nested_flow_lists(root: Path) -> None:
    levels = 40_000
    (root / "profiles.yaml").write_text("[" * levels + "]" * levels + "\n", "utf-8")
    run = docgen_bounded(root, "validate")
    assert run.exit_code == 2, run.exit_code
    assert run.cpu_seconds < TIME_LIMIT


def test_nesting_just_past_the_depth_limit_is_named_as_such(root: Path) -> None:
    levels = MAX_DEPTH + 36
    (root / "profiles.yaml").write_text("[" * levels + "]" * levels + "\n", "utf-8")
    run = docgen_bounded(root, "validate")
    assert run.exit_code == 2
    assert run.stderr.rstrip("\n").endswith(f"error: YAML nesting deeper than {MAX_DEPTH} levels")


def largest_registry(last_host: str = "") -> str:
    """A valid registry just under MAX_BYTES (hosts), optionally ending in ``last_host``."""
    head, tail = MINIMAL_REGISTRY.split("hosts:\n", 1)
    hosts = []
    size = len(MINIMAL_REGISTRY) + len(last_host) + 100
    for i in range(MAX_BYTES):
        line = f"  h{i}: {{name: Host {i}, arch: amd64}}\n"
        if size + len(line) > MAX_BYTES:
            break
        hosts.append(line)
        size += len(line)
    return f"{head}hosts:\n{''.join(hosts)}{last_host}{tail}"


def test_largest_accepted_registry(root: Path) -> None:
    (root / "profiles.yaml").write_text(largest_registry(), "utf-8")
    assert (root / "profiles.yaml").stat().st_size > MAX_BYTES - 200
    run = docgen_bounded(root, "validate", kill_after=TIME_LIMIT)
    assert run.exit_code == 0, run.stderr
    assert run.cpu_seconds < TIME_LIMIT and run.peak_kib < MEMORY_LIMIT


@pytest.mark.parametrize(
    ("last_host", "below", "message"),
    [
        ("  last: {name: Last, arch: sparc}\n", 0, "expected one of: arm64, amd64"),
        # libyaml notices the missing brace on the next line, as ruamel.yaml does.
        ("  last: {name: Last, arch: amd64\n", 1, "did not find expected ',' or '}'"),
    ],
    ids=["semantic", "syntax"],
)
def test_largest_registry_with_one_error_at_the_end(
    root: Path, last_host: str, below: int, message: str
) -> None:
    text = largest_registry(last_host)
    (root / "profiles.yaml").write_text(text, "utf-8")
    run = docgen_bounded(root, "validate", kill_after=TIME_LIMIT)
    assert run.exit_code == 2
    assert run.cpu_seconds < TIME_LIMIT and run.peak_kib < MEMORY_LIMIT
    line = text[: text.index("  last:")].count("\n") + 1 + below
    assert run.stderr.startswith(f"profiles.yaml:{line}:"), run.stderr[:300]
    assert message in run.stderr
