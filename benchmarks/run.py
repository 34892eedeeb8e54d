"""Time docgen at scale and print the figures of issue 8 as Markdown tables.

``python3 benchmarks/run.py [--profiles 2000] [--pages 200] [--growth] [--quick]``

Every figure is the median of several runs of the ``docgen`` console script (the one
installed next to ``sys.executable``, not a pyenv shim), each a fresh subprocess, so
wall times include interpreter start and imports. Peak resident memory is the child's
``ru_maxrss`` from ``os.wait4`` (one isolated process per sample). The corpus comes
from ``corpus.py`` in this folder; nothing here imports docgen.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402  (a sibling script, not a package)

REPO = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"(\d+) written, (\d+) updated, (\d+) pruned, (\d+) unchanged")
PROFILE_KEY = re.compile(r"^  (vllm\.[^:\s]+):\s*$")
GMU_LINE = re.compile(r"^(\s+gpu-memory-utilization:\s*)(\S+)\s*$")
GROWTH = (250, 500, 1000, 2000)
BASELINES = ("ruamel", "writes", "mkdocs", "python")
NEUTRAL = Path(tempfile.gettempdir())
RUAMEL_SNIPPET = (
    "import sys, time\n"
    "from ruamel.yaml import YAML\n"
    "text = open(sys.argv[1], encoding='utf-8').read()\n"
    "start = time.perf_counter()\n"
    "YAML(typ='rt').load(text)\n"
    "print(time.perf_counter() - start)\n"
)


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


def execute(cmd: list[str], cwd: Path | None = None) -> Sample:
    """Run ``cmd`` once; output goes to a file so a long diff cannot block the pipe.

    The default folder is a neutral one, so a checkout in the current folder cannot
    shadow ``--source`` on ``sys.path`` (``python -c`` and ``-m`` put the cwd first).
    """
    with tempfile.TemporaryFile() as sink:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd or NEUTRAL, stdout=sink, stderr=subprocess.STDOUT)
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


# -- figures ------------------------------------------------------------------------


@dataclass
class Figure:
    """A named list of samples with an optional upper bound to meet."""

    name: str
    unit: str
    samples: list[float] = field(default_factory=list)
    target: float | None = None
    note: str = ""
    cpu: list[float] = field(default_factory=list)

    def add(self, sample: Sample) -> None:
        """A timed run: its wall and CPU seconds."""
        self.samples.append(sample.seconds)
        self.cpu.append(sample.cpu)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def status(self) -> str:
        if self.target is None:
            return ""
        return "met" if self.median <= self.target else "**missed**"

    def shown(self, value: float | None = None) -> str:
        value = self.median if value is None else value
        if self.unit == "s":
            return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
        if self.unit == "MB":
            return f"{value:.0f} MB"
        return f"{value:g}"


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


def copy_tree(src: Path, dst: Path) -> Path:
    """A fresh copy, flushed to disk so that its writeback does not land on the next timing."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)
    os.sync()
    return dst


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Path -> (mtime_ns, inode) of every file; an atomic rewrite changes both."""
    out = {}
    for path in root.rglob("*"):
        if path.is_file():
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


def cold_builds(bench: Bench, base: Path) -> tuple[Figure, Figure, Path]:
    """Build fresh copies of the corpus; return time, peak memory and one built tree."""
    times = Figure("cold `build` (fresh copy, nothing generated)", "s")
    rss = Figure("peak RSS, cold `build`", "MB")
    built = base
    for index in bench.runs(bench.cold_repeat, times):
        tree = copy_tree(base, bench.work / f"cold-{index}")
        sample = expect(execute(bench.docgen(tree, "build", "-q")), 0, "cold build")
        times.add(sample)
        rss.samples.append(sample.rss_mb)
        built = tree
    return times, rss, built


def noop_builds(bench: Bench, tree: Path) -> tuple[Figure, Figure, Figure]:
    """Build an in-sync tree again; count files written by summary line and by stat."""
    times = Figure("no-op `build`", "s")
    written = Figure("files written by no-op `build`", "files", note="summary line and stat")
    rss = Figure("peak RSS, no-op `build`", "MB")
    for _ in bench.runs(bench.repeat, times):
        before = snapshot(tree)
        sample = expect(execute(bench.docgen(tree, "build")), 0, "no-op build")
        reported = summary_count(sample.output)
        if reported is None:
            raise SystemExit(f"no-op build printed no summary line:\n{sample.output[-2000:]}")
        times.add(sample)
        written.samples.append(max(reported, touched(before, snapshot(tree))))
        rss.samples.append(sample.rss_mb)
    return times, written, rss


def checks(bench: Bench, tree: Path) -> tuple[Figure, Figure]:
    """``check`` on an in-sync tree: time and peak memory."""
    times = Figure("`check`, tree in sync", "s")
    rss = Figure("peak RSS, `check`", "MB")
    for _ in bench.runs(bench.repeat, times):
        sample = expect(execute(bench.docgen(tree, "check", "-q")), 0, "check in sync")
        times.add(sample)
        rss.samples.append(sample.rss_mb)
    return times, rss


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


def edited_checks(bench: Bench, tree: Path) -> Figure:
    """``check`` after one registry edit: must exit 1 and name the profile's page."""
    edited = copy_tree(tree, bench.work / "edited")
    profile = edit_registry(edited / "profiles.yaml")
    figure = Figure("`check` after one registry edit (exit 1)", "s")
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


def startup(bench: Bench) -> tuple[Figure, Figure]:
    """``docgen --help`` and ``docgen check`` on the worked example, after one warm-up.

    The example's check may report drift (exit 1) while someone edits the repository;
    the figure then says so instead of stopping the run.
    """
    example = worked_example(bench.work)
    helps = Figure("`docgen --help`", "s", target=0.15)
    check = Figure("`docgen check`, worked example", "s", target=0.35)
    for figure, cmd, codes in (
        (helps, [bench.script, "--help"], (0,)),
        (check, bench.docgen(example, "check", "-q"), (0, 1)),
    ):
        if expect(execute(cmd), codes, figure.name).code:
            figure.name += " (drifted: exit 1)"
        for _ in bench.runs(max(bench.repeat, 5), figure):
            figure.add(expect(execute(cmd), codes, figure.name))
    return helps, check


# -- baselines ----------------------------------------------------------------------


def interpreter_start(bench: Bench) -> Figure:
    """``python3 -c pass``: the floor under every startup figure on this machine."""
    figure = Figure(
        "Python start alone, `python3 -c pass`",
        "s",
        note="same interpreter as the console script, site-packages .pth files included; "
        "the floor under the two startup figures",
    )
    cmd = [sys.executable, "-c", "pass"]
    expect(execute(cmd), 0, figure.name)
    for _ in bench.runs(max(bench.repeat, 5), figure):
        figure.add(expect(execute(cmd), 0, figure.name))
    return figure


def ruamel_parse(bench: Bench, registry: Path) -> Figure:
    """ruamel.yaml's round-trip load of the registry, timed inside a fresh interpreter."""
    figure = Figure(
        'ruamel.yaml `YAML(typ="rt").load` of the registry',
        "s",
        note="load call only: no interpreter start, import or file read",
    )
    cmd = [sys.executable, "-c", RUAMEL_SNIPPET, str(registry)]
    for _ in bench.runs(bench.repeat, figure):
        figure.samples.append(float(expect(execute(cmd), 0, "ruamel parse").output.strip()))
    return figure


def mkdocs_site(tree: Path, dest: Path) -> int:
    """A minimal MkDocs project holding every .mdx page of ``tree/docs`` renamed .md."""
    if dest.exists():
        shutil.rmtree(dest)
    docs = dest / "docs"
    count = 0
    for page in sorted((tree / "docs").rglob("*.mdx")):
        rel = page.relative_to(tree / "docs").with_suffix(".md")
        target = docs / Path(*(part.lstrip("_") for part in rel.parts))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, target)
        count += 1
    (docs / "index.md").write_text("# Corpus\n", "utf-8")
    (dest / "mkdocs.yml").write_text(
        "site_name: docgen corpus baseline\nplugins: []\nnav:\n  - index.md\n", "utf-8"
    )
    return count


def mkdocs_build(bench: Bench, tree: Path) -> Figure:
    """``mkdocs build`` of the same pages docgen wrote or filled."""
    site = bench.work / "mkdocs"
    pages = mkdocs_site(tree, site)
    figure = Figure(
        "`mkdocs build` of the same pages",
        "s",
        note=f"{pages} .mdx pages of docs/ (generated, variants, hand-written) renamed .md; "
        "default theme, no plugins, nav of one page; wall time incl. interpreter start",
    )
    for index in bench.runs(bench.cold_repeat, figure):
        # A new site folder per run: deleting thousands of files slows every file
        # creation on this kind of virtual machine for about a minute afterwards.
        out = site / f"site-{index}"
        cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.yml", "-d", str(out)]
        figure.add(expect(execute(cmd, cwd=site), 0, "mkdocs build"))
    return figure


WRITE_SNIPPET = (
    "import os, sys, time\n"
    "src, dst = sys.argv[1], sys.argv[2]\n"
    "files = []\n"
    "for top, _, names in os.walk(src):\n"
    "    for name in names:\n"
    "        path = os.path.join(top, name)\n"
    "        with open(path, 'rb') as f:\n"
    "            files.append((os.path.join(dst, os.path.relpath(path, src)), f.read()))\n"
    "start = time.perf_counter()\n"
    "for path, data in files:\n"
    "    os.makedirs(os.path.dirname(path), exist_ok=True)\n"
    "    with open(path, 'xb') as f:\n"
    "        f.write(data)\n"
    "print(time.perf_counter() - start)\n"
)


def file_writes(bench: Bench, built: Path) -> Figure:
    """The machine's own cost of creating the files a cold build writes, without docgen."""
    figure = Figure(
        "plain writes of the same files",
        "s",
        note="every file under docs/ after a build, written to a new folder with "
        "open/write/close in one Python process (write loop only); the floor under "
        "cold `build`'s file creation",
    )
    for index in bench.runs(bench.cold_repeat, figure):
        os.sync()
        dest = bench.work / f"writes-{index}"
        cmd = [sys.executable, "-c", WRITE_SNIPPET, str(built / "docs"), str(dest)]
        figure.samples.append(float(expect(execute(cmd), 0, "plain writes").output.strip()))
    return figure


# -- one corpus size ----------------------------------------------------------------


@dataclass
class Result:
    """Every figure at one corpus size."""

    profiles: int
    pages: int
    outputs: int
    registry_bytes: int
    figures: dict[str, Figure]


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
    figures: dict[str, Figure] = {}
    cold, cold_rss, built = cold_builds(bench, base)
    log(f"  cold build {cold.shown()}")
    noop, written, noop_rss = noop_builds(bench, built)
    log(f"  no-op build {noop.shown()}")
    check, check_rss = checks(bench, built)
    log(f"  check {check.shown()}")
    edited = edited_checks(bench, built)
    log(f"  check after edit {edited.shown()}")
    for figure in (cold, noop, written, check, edited, cold_rss, noop_rss, check_rss):
        figures[figure.name] = figure
    figures["ruamel"] = ruamel_parse(bench, base / "profiles.yaml")
    if baselines:
        figures["writes"] = file_writes(bench, built)
        figures["mkdocs"] = mkdocs_build(bench, built)
    outputs = sum(1 for p in (built / "docs").rglob("*") if p.is_file())
    size = (base / "profiles.yaml").stat().st_size
    return Result(profiles, pages, outputs, size, figures)


def set_targets(result: Result) -> None:
    """Issue 8's bounds, which hold for 2,000 profiles, 200 shared pages and 3 agents."""
    bounds = {
        "cold `build` (fresh copy, nothing generated)": 4.0,
        "no-op `build`": 1.5,
        "files written by no-op `build`": 0,
        "`check`, tree in sync": 1.5,
        "peak RSS, cold `build`": 300,
        "peak RSS, no-op `build`": 300,
        "peak RSS, `check`": 300,
    }
    for name, bound in bounds.items():
        result.figures[name].target = bound


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- printing -----------------------------------------------------------------------


def cpu(figure: Figure) -> str:
    """Median CPU seconds of a timed figure (robust when other load shares the cores)."""
    return figure.shown(statistics.median(figure.cpu)) if figure.cpu else ""


def row(figure: Figure, status: str) -> str:
    target = "" if figure.target is None else f"≤ {figure.shown(figure.target)}"
    cells = [figure.name, figure.shown(), cpu(figure), str(len(figure.samples)), target, status]
    return "| " + " | ".join(cells) + " |"


def main_table(result: Result, startup_figures: tuple[Figure, ...], at_target: bool) -> str:
    """Figures with targets and status, then the baselines with what they measured."""
    rows = ["| figure | median | CPU | runs | target | status |", "|---|---:|---:|---:|---:|---|"]
    ordered = [f for k, f in result.figures.items() if k not in BASELINES]
    for figure in ordered:
        sized = at_target or figure.target is None
        rows.append(row(figure, figure.status() if sized else "n/a at this size"))
    rows += [row(figure, figure.status()) for figure in startup_figures]
    rows += ["", "| baseline | median | runs | what was measured |", "|---|---:|---:|---|"]
    for key in BASELINES:
        if key in result.figures:
            f = result.figures[key]
            rows.append(f"| {f.name} | {f.shown()} | {len(f.samples)} | {f.note} |")
    return "\n".join(rows)


GROWTH_COLUMNS = (
    ("cold build", "cold `build` (fresh copy, nothing generated)"),
    ("no-op build", "no-op `build`"),
    ("check in sync", "`check`, tree in sync"),
    ("check after edit", "`check` after one registry edit (exit 1)"),
    ("peak RSS check", "peak RSS, `check`"),
    ("ruamel rt load", "ruamel"),
)


def both(figure: Figure) -> str:
    """Median wall time with median CPU time in brackets, when there is one."""
    return f"{figure.shown()} ({cpu(figure)})" if figure.cpu else figure.shown()


def growth_table(results: list[Result]) -> str:
    """One row per size, plus the in-sync check's cost per profile."""
    head = ["profiles", "pages", "files in docs/", *[c for c, _ in GROWTH_COLUMNS]]
    rows = ["| " + " | ".join(head) + " | check CPU per profile |", "|" + "---:|" * (len(head) + 1)]
    for r in results:
        cells = [str(r.profiles), str(r.pages), str(r.outputs)]
        cells += [both(r.figures[key]) for _, key in GROWTH_COLUMNS]
        per = statistics.median(r.figures["`check`, tree in sync"].cpu) / r.profiles * 1000
        rows.append("| " + " | ".join(cells) + f" | {per:.1f} ms |")
    return "\n".join(rows)


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
        f"mkdocs), fewer once a figure's runs add up to {bench.budget:g} s.\n"
    )


# -- hot spots ----------------------------------------------------------------------


def hotspots(bench: Bench, tree: Path, top: int) -> str:
    """cProfile of one in-sync ``check``: docgen's functions by cumulative time, then every
    function by own time (where the time is actually spent, libraries included)."""
    import io
    import pstats
    import sysconfig

    out = bench.work / "check.prof"
    cmd = [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "docgen"]
    expect(execute([*cmd, "--root", str(tree), "check", "-q"]), 0, "profiled check")
    text = io.StringIO()
    stats = pstats.Stats(str(out), stream=text)
    stats.sort_stats("cumulative").print_stats(r"/docgen/(?!cli\.py|__main__)", top)
    stats.sort_stats("tottime").print_stats(top)
    for prefix in (
        f"{Path(bench.package).parent}/",
        f"{REPO}/",
        f"{sysconfig.get_paths()['purelib']}/",
        f"{sys.prefix}/",
    ):
        text = io.StringIO(text.getvalue().replace(prefix, ""))
    return text.getvalue()


# -- main ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
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
        help="print the top N functions of a cProfiled check",
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
    log(f"startup: --help {startup_figures[0].shown()}, check {startup_figures[1].shown()}")
    results = [
        measure(bench, n, p, args.agents, args.seed, baselines=(n == args.profiles))
        for n, p in sizes(args)
    ]
    main = next(r for r in results if r.profiles == args.profiles)
    at_target = (main.profiles, main.pages, args.agents) == (2000, 200, 3)
    set_targets(main)
    main.figures["python"] = floor
    parts = [
        header(bench, main, args.agents, args.seed, start_load),
        main_table(main, startup_figures, at_target),
    ]
    if args.growth:
        scale = f"pages = profiles x {args.pages}/{args.profiles}"
        parts += [
            "",
            f"Growth ({scale}; medians as above, wall time with CPU time in brackets):",
            "",
            growth_table(results),
        ]
    if args.hotspots:
        tree = bench.work / f"n{args.profiles}" / "cold-0"
        parts += ["", "cProfile of one in-sync `check`:", "", hotspots(bench, tree, args.hotspots)]
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
