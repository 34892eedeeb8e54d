"""The figures' names, the targets of issues 8 and 18, and the Markdown tables printed.

A figure may have a bound from each issue; the target column lists them tightest first,
and the status names every issue whose bound the median misses. The corpus figures'
targets hold for 2,000 profiles, 200 shared pages and 3 agents only.
"""

from __future__ import annotations

import os
import statistics
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from clone import FRESH, FRESH_EDIT, FRESH_EDIT_RSS, FRESH_RSS
from harness import Bench, Figure

COLD = "cold `build` (fresh copy, nothing generated)"
COLD_RSS = "peak RSS, cold `build`"
NOOP = "no-op `build`"
NOOP_RSS = "peak RSS, no-op `build`"
WRITTEN = "files written by no-op `build`"
CHECK = "`check`, tree in sync, cache warm"
CHECK_RSS = "peak RSS, `check` in sync, cache warm"
EDIT = "`check` after one registry edit, built copy with its cache (exit 1)"
EDIT_RSS = "peak RSS, `check` after one registry edit, built copy"
HELP = "`docgen --help`"
HELP_RSS = "peak RSS, `docgen --help`"
EXAMPLE = "`docgen check`, worked example"
EXAMPLE_RSS = "peak RSS, `docgen check`, worked example"
BASELINES = ("ruamel", "writes", "mkdocs", "python", "speed_start", "speed_end")
#: Issue 18: peak RSS of any command.
RSS_BOUND = 150
TARGETS: dict[str, dict[int, float]] = {
    COLD: {8: 4.0, 18: 1.3},
    NOOP: {8: 1.5},
    WRITTEN: {8: 0},
    CHECK: {8: 1.5},
    FRESH: {18: 0.9},
    EDIT: {18: 0.8},
    COLD_RSS: {8: 300, 18: RSS_BOUND},
    NOOP_RSS: {8: 300, 18: RSS_BOUND},
    CHECK_RSS: {8: 300, 18: RSS_BOUND},
    EDIT_RSS: {18: RSS_BOUND},
    FRESH_RSS: {18: RSS_BOUND},
    FRESH_EDIT_RSS: {18: RSS_BOUND},
    HELP: {8: 0.15},
    HELP_RSS: {18: RSS_BOUND},
    EXAMPLE: {8: 0.35, 18: 0.15},
    EXAMPLE_RSS: {18: RSS_BOUND},
}


def set_targets(figures: Iterable[Figure]) -> None:
    """Give each figure the bounds issues 8 and 18 set for it."""
    for figure in figures:
        figure.targets = dict(TARGETS.get(figure.name, {}))


@dataclass
class Result:
    """Every figure at one corpus size."""

    profiles: int
    pages: int
    outputs: int
    registry_bytes: int
    figures: dict[str, Figure]


# -- the main table -----------------------------------------------------------------


def cpu(figure: Figure) -> str:
    """Median CPU seconds of a timed figure (robust when other load shares the cores)."""
    return figure.shown(statistics.median(figure.cpu)) if figure.cpu else ""


def row(figure: Figure, status: str) -> str:
    cells = [figure.name, figure.shown(), cpu(figure), str(len(figure.samples))]
    return "| " + " | ".join([*cells, figure.bounds(), status]) + " |"


def main_table(result: Result, startup_figures: Iterable[Figure], at_target: bool) -> str:
    """Figures with targets and status, then the baselines with what they measured."""
    rows = [
        "| figure | median | CPU | runs | target (issue) | status |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for figure in (f for k, f in result.figures.items() if k not in BASELINES):
        sized = at_target or not figure.targets
        rows.append(row(figure, figure.status() if sized else "n/a at this size"))
    rows += [row(figure, figure.status()) for figure in startup_figures]
    rows += ["", "| baseline | median | runs | what was measured |", "|---|---:|---:|---|"]
    for key in BASELINES:
        if key in result.figures:
            f = result.figures[key]
            rows.append(f"| {f.name} | {f.shown()} | {len(f.samples)} | {f.note} |")
    return "\n".join(rows)


# -- growth -------------------------------------------------------------------------

TIME_COLUMNS = (
    ("cold build", COLD),
    ("no-op build", NOOP),
    ("check in sync, cache warm", CHECK),
    ("check, fresh clone", FRESH),
    ("check after edit, with cache", EDIT),
    ("check after edit, fresh clone", FRESH_EDIT),
    ("ruamel rt load", "ruamel"),
)
RSS_COLUMNS = (
    ("cold build", COLD_RSS),
    ("no-op build", NOOP_RSS),
    ("check in sync, cache warm", CHECK_RSS),
    ("check, fresh clone", FRESH_RSS),
    ("check after edit, with cache", EDIT_RSS),
    ("check after edit, fresh clone", FRESH_EDIT_RSS),
)


def both(figure: Figure) -> str:
    """Median wall time with median CPU time in brackets, when there is one."""
    return f"{figure.shown()} ({cpu(figure)})" if figure.cpu else figure.shown()


def per_profile(result: Result, name: str) -> str:
    """Median CPU milliseconds per profile of a timed figure."""
    return f"{statistics.median(result.figures[name].cpu) / result.profiles * 1000:.1f} ms"


def growth_times(results: list[Result]) -> str:
    """One row per size: every timed figure, then the two checks' CPU per profile."""
    head = ["profiles", "pages", "files in docs/", *[c for c, _ in TIME_COLUMNS]]
    head += ["check CPU per profile, cache warm", "check CPU per profile, fresh clone"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for r in results:
        cells = [str(r.profiles), str(r.pages), str(r.outputs)]
        cells += [both(r.figures[key]) for _, key in TIME_COLUMNS]
        cells += [per_profile(r, CHECK), per_profile(r, FRESH)]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def growth_memory(results: list[Result]) -> str:
    """One row per size: the peak RSS of every command."""
    head = ["profiles", *[c for c, _ in RSS_COLUMNS]]
    rows = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for r in results:
        cells = [str(r.profiles), *[r.figures[key].shown() for _, key in RSS_COLUMNS]]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def growth(results: list[Result], scale: str) -> list[str]:
    """The growth tables with their captions."""
    return [
        "",
        f"Growth ({scale}; medians as above, wall time with CPU time in brackets):",
        "",
        growth_times(results),
        "",
        "Growth, peak RSS (medians as above):",
        "",
        growth_memory(results),
    ]


def header(bench: Bench, result: Result, agents: int, seed: int, start_load: float) -> str:
    load = os.getloadavg()
    return (
        f"docgen benchmark: {result.profiles} profiles, {result.pages} shared pages, "
        f"{agents} agents (seed {seed}); registry {result.registry_bytes / 1e6:.1f} MB, "
        f"{result.outputs} files under docs/ after build.\n"
        f"Console script {bench.script} importing {bench.package} (its bytecode compiled "
        "beforehand, as pip does on install); "
        f"Python {sys.version.split()[0]}; "
        f"{os.cpu_count()} CPUs; 1-minute load average {start_load:.2f} at the start, "
        f"{load[0]:.2f} at the end. "
        f"Medians of up to {bench.repeat} runs ({bench.cold_repeat} for cold builds and "
        f"mkdocs), fewer once a figure's runs add up to {bench.budget:g} s. "
        "Fresh clones: the built corpus committed once without `.docgen-cache/`, one "
        "`git clone --depth 1` per run (not timed), `XDG_CACHE_HOME` an empty folder "
        "(no cache key); the edit is not committed.\n"
    )
