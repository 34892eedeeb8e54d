"""What every measurement of the benchmark shares: one timed subprocess, a figure of
samples with the targets it must meet, the settings of one run.

Nothing here imports docgen.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NEUTRAL = Path(tempfile.gettempdir())
PROFILE_KEY = re.compile(r"^  (vllm\.[^:\s]+):\s*$")
GMU_LINE = re.compile(r"^(\s+gpu-memory-utilization:\s*)(\S+)\s*$")


# -- running one command ------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One subprocess: wall seconds, CPU seconds (user + sys), peak RSS in MiB, exit code,
    combined output."""

    seconds: float
    cpu: float
    rss_mb: float
    code: int
    output: str


def execute(
    cmd: list[str], cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> Sample:
    """Run ``cmd`` once; output goes to a file so a long diff cannot block the pipe.

    The default folder is a neutral one, so a checkout in the current folder cannot
    shadow ``--source`` on ``sys.path`` (``python -c`` and ``-m`` put the cwd first).
    ``env`` replaces the environment (default: this process's).
    """
    with tempfile.TemporaryFile() as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=cwd or NEUTRAL, env=env, stdout=sink, stderr=subprocess.STDOUT
        )
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        sink.seek(0)
        output = sink.read().decode("utf-8", errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return Sample(seconds, cpu, usage.ru_maxrss / 1024, proc.returncode, output)


def expect(sample: Sample, code: int | tuple[int, ...], what: str) -> Sample:
    """Stop the benchmark when a command did not do what the figure assumes."""
    if sample.code not in (code if isinstance(code, tuple) else (code,)):
        tail = "\n".join(sample.output.splitlines()[-20:])
        raise SystemExit(f"{what}: exit {sample.code}, expected {code}\n{tail}")
    return sample


def docgen_script() -> str:
    """The console script of the running interpreter (a pyenv shim would add ~50 ms)."""
    local = Path(sys.executable).parent / "docgen"
    found = str(local) if local.is_file() else shutil.which("docgen")
    if found is None:
        raise SystemExit("docgen console script not found: pip install -e . first")
    return found


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- figures ------------------------------------------------------------------------


@dataclass
class Figure:
    """A named list of samples with the upper bounds to meet, by the issue that set each.

    A timed figure may carry ``memory``: the figure that receives each run's peak RSS.
    """

    name: str
    unit: str
    samples: list[float] = field(default_factory=list)
    targets: dict[int, float] = field(default_factory=dict)
    note: str = ""
    cpu: list[float] = field(default_factory=list)
    memory: Figure | None = None

    def add(self, sample: Sample) -> None:
        """A timed run: its wall and CPU seconds, and its peak RSS to ``memory``."""
        self.samples.append(sample.seconds)
        self.cpu.append(sample.cpu)
        if self.memory is not None:
            self.memory.samples.append(sample.rss_mb)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def missed(self) -> list[int]:
        """The issues whose bound the median exceeds."""
        return [issue for issue, bound in sorted(self.targets.items()) if self.median > bound]

    def status(self) -> str:
        if not self.targets:
            return ""
        missed = self.missed()
        if not missed:
            return "met"
        return "**missed** (" + ", ".join(f"#{issue}" for issue in missed) + ")"

    def bounds(self) -> str:
        """The bounds, tightest first, each with its issue: ``≤ 0.90 s (#18)``."""
        ordered = sorted(self.targets.items(), key=lambda item: (item[1], -item[0]))
        return ", ".join(f"≤ {self.shown(bound)} (#{issue})" for issue, bound in ordered)

    def shown(self, value: float | None = None) -> str:
        value = self.median if value is None else value
        if self.unit == "s":
            return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
        if self.unit == "MB":
            return f"{value:.0f} MB"
        return f"{value:g}"


def timed(name: str, memory: str | None = None) -> Figure:
    """A figure of wall seconds, with a companion figure of peak RSS when ``memory`` names it."""
    return Figure(name, "s", memory=None if memory is None else Figure(memory, "MB"))


def with_memory(*figures: Figure) -> Iterator[Figure]:
    """Each figure, followed by its peak-RSS companion when it has one."""
    for figure in figures:
        yield figure
        if figure.memory is not None:
            yield figure.memory


@dataclass
class Bench:
    """Settings shared by every measurement of one run."""

    script: str
    work: Path
    repeat: int
    cold_repeat: int
    budget: float
    package: str = ""

    def docgen(self, root: Path, *args: str) -> list[str]:
        return [self.script, "--root", str(root), *args]

    def runs(self, count: int, figure: Figure) -> Iterator[int]:
        """Up to ``count`` runs; no new one once the figure's runs add up to the budget."""
        for index in range(count):
            if index and sum(figure.samples) >= self.budget:
                return
            yield index


# -- trees --------------------------------------------------------------------------


def copy_tree(src: Path, dst: Path) -> Path:
    """A fresh copy, flushed to disk so that its writeback does not land on the next timing."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)
    os.sync()
    return dst


def edit_registry(path: Path) -> str:
    """Change the middle profile's gpu-memory-utilization; return that profile's id."""
    lines = path.read_text("utf-8").split("\n")
    starts = [i for i, line in enumerate(lines) if PROFILE_KEY.match(line)]
    first = starts[len(starts) // 2]
    for index in range(first + 1, len(lines)):
        if PROFILE_KEY.match(lines[index]):
            break
        match = GMU_LINE.match(lines[index])
        if match:
            new = "0.55" if match[2] != "0.55" else "0.65"
            lines[index] = f"{match[1]}{new}"
            path.write_text("\n".join(lines), "utf-8")
            return PROFILE_KEY.match(lines[first])[1]  # type: ignore[index]
    raise SystemExit(f"no gpu-memory-utilization in the middle profile of {path}")
