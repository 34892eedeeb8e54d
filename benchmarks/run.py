"""Time docgen at scale and print the figures of issues 8 and 18 as Markdown tables.

``python3 benchmarks/run.py [--profiles 2000] [--pages 200] [--growth] [--quick]``

Every figure is the median of several runs of the ``docgen`` console script (the one
installed next to ``sys.executable``, not a pyenv shim), each a fresh subprocess, so
wall times include interpreter start and imports. Peak resident memory is the child's
``ru_maxrss`` from ``os.wait4`` (one isolated process per sample), for every command.
The corpus comes from ``corpus.py`` in this folder; ``check`` is timed both on the
built tree with its cache and, as docs CI runs it, on a fresh ``git clone`` with no
cache and no cache key (``clone.py``). ``tables.py`` holds the targets and prints the
tables; ``harness.py`` runs one command. Nothing here imports docgen.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402  (sibling scripts, not a package)
from baselines import (  # noqa: E402
    file_writes,
    interpreter_start,
    machine_speed,
    mkdocs_build,
    ruamel_parse,
)
from clone import clone_figures  # noqa: E402
from harness import (  # noqa: E402
    REPO,
    Bench,
    Figure,
    copy_tree,
    docgen_script,
    edit_registry,
    execute,
    expect,
    log,
    timed,
    with_memory,
)
from hotspots import profiled_checks  # noqa: E402
from tables import (  # noqa: E402
    CHECK,
    CHECK_RSS,
    COLD,
    COLD_RSS,
    EDIT,
    EDIT_RSS,
    EXAMPLE,
    EXAMPLE_RSS,
    HELP,
    HELP_RSS,
    NOOP,
    NOOP_RSS,
    WRITTEN,
    Result,
    growth,
    header,
    main_table,
    set_targets,
)

SUMMARY = re.compile(r"(\d+) written, (\d+) updated, (\d+) pruned, (\d+) unchanged")
GROWTH = (250, 500, 1000, 2000)
__all__ = ["edit_registry", "execute", "main", "snapshot", "summary_count", "touched"]


# -- figures on a copy of the built corpus ------------------------------------------


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Path -> (mtime_ns, inode) of every file of the project; an atomic rewrite changes
    both. docgen's own ``.docgen-cache/`` is left out: a build keeps its stamps there up to
    date (a file it wrote is stamped by the next build, once read), as ``git status``
    refreshes git's index."""
    out = {}
    for path in root.rglob("*"):
        if path.is_file() and path.relative_to(root).parts[0] != ".docgen-cache":
            stat = path.stat()
            out[path.relative_to(root).as_posix()] = (stat.st_mtime_ns, stat.st_ino)
    return out


def touched(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> int:
    """Files created, rewritten or deleted between two snapshots."""
    return sum(before.get(p) != after.get(p) for p in before.keys() | after.keys())


def summary_count(output: str) -> int | None:
    """written + updated + pruned from build's summary line, or None when absent."""
    match = SUMMARY.search(output)
    return None if match is None else sum(int(match[i]) for i in (1, 2, 3))


def cold_builds(bench: Bench, base: Path) -> tuple[Figure, Path]:
    """Build fresh copies of the corpus; return the timed figure and one built tree."""
    times = timed(COLD, COLD_RSS)
    built = base
    for index in bench.runs(bench.cold_repeat, times):
        tree = copy_tree(base, bench.work / f"cold-{index}")
        times.add(expect(execute(bench.docgen(tree, "build", "-q")), 0, "cold build"))
        built = tree
    return times, built


def noop_builds(bench: Bench, tree: Path) -> tuple[Figure, Figure]:
    """Build an in-sync tree again; count files written by summary line and by stat."""
    times = timed(NOOP, NOOP_RSS)
    written = Figure(WRITTEN, "files", note="summary line and stat")
    for _ in bench.runs(bench.repeat, times):
        before = snapshot(tree)
        sample = expect(execute(bench.docgen(tree, "build")), 0, "no-op build")
        reported = summary_count(sample.output)
        if reported is None:
            raise SystemExit(f"no-op build printed no summary line:\n{sample.output[-2000:]}")
        times.add(sample)
        written.samples.append(max(reported, touched(before, snapshot(tree))))
    return times, written


def checks(bench: Bench, tree: Path) -> Figure:
    """``check`` on the in-sync tree a build just wrote, its cache warm."""
    times = timed(CHECK, CHECK_RSS)
    for _ in bench.runs(bench.repeat, times):
        times.add(expect(execute(bench.docgen(tree, "check", "-q")), 0, "check in sync"))
    return times


def edited_checks(bench: Bench, tree: Path) -> Figure:
    """``check`` after one registry edit on a copy of the built tree (its cache and the
    user's key there, no git): must exit 1 and name the profile's page."""
    edited = copy_tree(tree, bench.work / "edited")
    profile = edit_registry(edited / "profiles.yaml")
    figure = timed(EDIT, EDIT_RSS)
    for _ in bench.runs(bench.repeat, figure):
        sample = expect(execute(bench.docgen(edited, "check", "-q")), 1, "check after edit")
        if profile not in sample.output:
            raise SystemExit(f"check after editing {profile} did not report its page")
        figure.add(sample)
    return figure


def worked_example(work: Path) -> Path:
    """A copy of the repository's worked example, safe from concurrent edits."""
    root = work / "example"
    if root.exists():
        return root
    root.mkdir(parents=True)
    for name in ("profiles.yaml", "pyproject.toml", "docgen.toml"):
        if (REPO / name).is_file():
            shutil.copy(REPO / name, root / name)
    for folder in ("templates", "docs", "changelog", "changelog.d"):
        if (REPO / folder).is_dir():
            shutil.copytree(REPO / folder, root / folder)
    return root


def startup(bench: Bench) -> list[Figure]:
    """``docgen --help`` and ``docgen check`` on the worked example, after one warm-up,
    each followed by its peak RSS.

    The example's check may report drift (exit 1) while someone edits the repository;
    the figure then says so instead of stopping the run.
    """
    example = worked_example(bench.work)
    helps, check = timed(HELP, HELP_RSS), timed(EXAMPLE, EXAMPLE_RSS)
    figures = list(with_memory(helps, check))
    set_targets(figures)
    for figure, cmd, codes in (
        (helps, [bench.script, "--help"], (0,)),
        (check, bench.docgen(example, "check", "-q"), (0, 1)),
    ):
        if expect(execute(cmd), codes, figure.name).code:
            figure.name += " (drifted: exit 1)"
        for _ in bench.runs(max(bench.repeat, 5), figure):
            figure.add(expect(execute(cmd), codes, figure.name))
    return figures


# -- one corpus size ----------------------------------------------------------------


def corpus_figures(bench: Bench, base: Path) -> tuple[list[Figure], Path]:
    """Every timed figure of one corpus (builds, checks with the cache, checks on fresh
    clones), and one built tree."""
    cold, built = cold_builds(bench, base)
    log(f"  cold build {cold.shown()}")
    noop, written = noop_builds(bench, built)
    log(f"  no-op build {noop.shown()}")
    check = checks(bench, built)
    log(f"  check, cache warm {check.shown()}")
    edited = edited_checks(bench, built)
    log(f"  check after edit, with cache {edited.shown()}")
    fresh, fresh_edited = clone_figures(bench, built)
    log(f"  check on a fresh clone {fresh.shown()}, after edit {fresh_edited.shown()}")
    return [cold, noop, written, check, fresh, edited, fresh_edited], built


def measure(
    bench: Bench, profiles: int, pages: int, agents: int, seed: int, baselines: bool = True
) -> Result:
    """Generate a corpus and measure build, check, memory and (optionally) the baselines."""
    bench = replace(bench, work=bench.work / f"n{profiles}")
    base = bench.work / "corpus"
    if bench.work.exists():
        shutil.rmtree(bench.work)
    corpus.write(base, profiles, pages, agents, seed)
    log(f"corpus: {profiles} profiles, {pages} pages in {base}")
    timings, built = corpus_figures(bench, base)
    ordered = [*timings, *(f.memory for f in timings if f.memory is not None)]
    figures = {figure.name: figure for figure in ordered}
    set_targets(ordered)
    figures["ruamel"] = ruamel_parse(bench, base / "profiles.yaml")
    if baselines:
        figures["writes"] = file_writes(bench, built)
        figures["mkdocs"] = mkdocs_build(bench, built)
    outputs = sum(1 for p in (built / "docs").rglob("*") if p.is_file())
    size = (base / "profiles.yaml").stat().st_size
    return Result(profiles, pages, outputs, size, figures)


# -- main ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    # long: one add_argument call per option
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profiles", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--agents", type=int, default=3)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument(
        "--cold-repeat", type=int, default=3, help="runs of cold build and mkdocs (default 3)"
    )
    parser.add_argument(
        "--growth",
        action="store_true",
        help="also measure 250, 500, 1000 and 2000 profiles, pages scaled in proportion",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=300,
        help="seconds: start no further run of a figure once its runs add up to this (300)",
    )
    parser.add_argument("--quick", action="store_true", help="small smoke run (100 profiles)")
    parser.add_argument(
        "--hotspots",
        type=int,
        default=0,
        metavar="N",
        help="print the top N functions of a cProfiled check, cache warm and on a fresh clone",
    )
    parser.add_argument(
        "--source",
        type=Path,
        help="import docgen from this folder (e.g. a `git archive` of a commit) instead of "
        "the installed package, to measure a fixed version or compare two",
    )
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args(argv)
    args.source = args.source and args.source.resolve()
    args.work = args.work and args.work.resolve()
    if args.quick:
        args.profiles, args.pages, args.repeat, args.cold_repeat = 100, 10, 2, 1
    return args


def sizes(args: argparse.Namespace) -> Iterator[tuple[int, int]]:
    """(profiles, pages) to measure; growth scales pages with profiles."""
    if not args.growth:
        yield args.profiles, args.pages
        return
    steps = [s * args.profiles // 2000 for s in GROWTH] if args.quick else list(GROWTH)
    for count in sorted({*steps, args.profiles}):
        yield count, max(1, round(count * args.pages / args.profiles))


def run_all(args: argparse.Namespace, bench: Bench) -> str:
    """Measure every size, then print the main table for ``--profiles``."""
    start_load = os.getloadavg()[0]
    startup_figures = startup(bench)  # first: it is quick and fails fast
    floor = interpreter_start(bench)
    speed_before = machine_speed(bench, "at the start")
    log(f"startup: --help {startup_figures[0].shown()}, check {startup_figures[2].shown()}")
    results = [
        measure(bench, n, p, args.agents, args.seed, baselines=(n == args.profiles))
        for n, p in sizes(args)
    ]
    main = next(r for r in results if r.profiles == args.profiles)
    at_target = (main.profiles, main.pages, args.agents) == (2000, 200, 3)
    main.figures["python"] = floor
    main.figures["speed_start"] = speed_before
    main.figures["speed_end"] = machine_speed(bench, "at the end")
    parts = [
        header(bench, main, args.agents, args.seed, start_load),
        main_table(main, startup_figures, at_target),
    ]
    if args.growth:
        parts += growth(results, f"pages = profiles x {args.pages}/{args.profiles}")
    if args.hotspots:
        parts += profiled_checks(bench, args.profiles, args.hotspots)
    return "\n".join(parts)


def use_source(source: Path | None) -> str:
    """Point every subprocess at ``source`` (PYTHONPATH); return where docgen imports from."""
    if source is not None:
        if not (source / "docgen" / "__init__.py").is_file():
            raise SystemExit(f"--source {source}: no docgen/__init__.py there")
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(source.resolve()), os.environ.get("PYTHONPATH")) if p
        )
    probe = "import docgen, os; print(os.path.dirname(docgen.__file__))"
    return expect(execute([sys.executable, "-c", probe]), 0, "import docgen").output.strip()


def compile_bytecode(package: Path) -> None:
    """Write docgen's .pyc files, as pip does when it installs a package.

    An editable install or a ``--source`` tree has none, and with
    PYTHONDONTWRITEBYTECODE set every run would compile docgen from source again,
    which no installed copy does.
    """
    cmd = [sys.executable, "-m", "compileall", "-q", str(package)]
    expect(execute(cmd), 0, "compileall")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="docgen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    package = use_source(args.source)
    log(f"docgen imported from {package}")
    compile_bytecode(Path(package))
    bench = Bench(docgen_script(), work, args.repeat, args.cold_repeat, args.budget, package)
    try:
        print(run_all(args, bench))
    finally:
        if not args.keep and args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
