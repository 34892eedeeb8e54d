"""Mutation testing of docgen's core: how much of its behaviour would the suite notice break?

Usage::

    python scripts/mutation.py                      # every core module, 60 minutes at most
    python scripts/mutation.py diff serve --budget 900
    python scripts/mutation.py --report             # the table of the last run, no new run

mutmut (``pip install -e '.[dev]'``) makes each mutant (a flipped comparison, a changed
constant, a dropped argument ...) and runs only the tests that reach the mutated function.
This script keeps a copy of the repository under ``.cache/mutation/`` (ignored by git) for
mutmut to work in, so the checkout is never touched. A later run re-checks every mutant of a
function whose code changed and every mutant that met no test; ``--recheck`` also tries
every survivor again (against the tests as they are now); a killed mutant stays killed.

Tests that run docgen in a child process (bounds, interruption, concurrency, determinism,
the browser, pre-commit, the real vLLM parser, benchmarks) are left out: a child imports the
installed docgen, not the mutant, so they could never kill one.

The report prints, per module, the mutants killed (a test failed or timed out), survived,
equivalent (listed in ``scripts/mutation_equivalent.toml`` with the reason no test can tell
them apart from the original) and not checked (the budget ran out), the score, killed /
(killed + survived), and then every surviving mutant as a diff.

Not run in CI: a full run takes about an hour on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / ".cache" / "mutation"
EQUIVALENT = REPO / "scripts" / "mutation_equivalent.toml"

#: The core modules issue 13 measures, by the name the report gives them.
CORE = {
    "diff": [
        "docgen/changelog/diff.py",
        "docgen/changelog/changes.py",
        "docgen/changelog/shared_diff.py",
    ],
    "changelog": [
        "docgen/changelog/entries.py",
        "docgen/changelog/history.py",
        "docgen/changelog/compose.py",
        "docgen/changelog/notes.py",
        "docgen/changelog/git.py",
        "docgen/changelog/release_check.py",
        "docgen/verbs/releases.py",
    ],
    "cache": [
        "docgen/cache.py",
        "docgen/inputs.py",
        "docgen/incremental.py",
        "docgen/registry/parts.py",
        "docgen/render/reads.py",
    ],
    "sync": ["docgen/sync.py", "docgen/io/writes.py", "docgen/io/vetting.py"],
    "serve": ["docgen/registry/serve.py"],
    "prose": ["docgen/render/prose.py"],
    "regions": ["docgen/render/regions.py"],
    "registry": [
        "docgen/registry/load.py",
        "docgen/registry/rules.py",
        "docgen/registry/launcher_rules.py",
        "docgen/registry/host_rules.py",
        "docgen/registry/builder.py",
        "docgen/vllm/requirements.py",
    ],
}

#: Tests whose docgen runs in a child process (see the module docstring).
CHILD_PROCESS_TESTS = [
    "tests/system/test_bounds.py",
    "tests/core/test_interruption.py",
    "tests/system/test_concurrency.py",
    "tests/system/test_determinism.py",
    "tests/integrations/test_browser.py",
    "tests/integrations/test_precommit.py",
    "tests/integrations/test_vllm_verify.py",
    "tests/system/test_benchmarks.py",
    "tests/core/test_parallel.py",
    # pytester's subprocess and mkdocs import the installed docgen, never the mutant:
    "tests/integrations/test_pytest_plugin.py",
    "tests/integrations/test_mkdocs_plugin.py",
]

#: Single tests that start a child process importing the installed docgen (see above).
CHILD_PROCESS_NODES = [
    "tests/integrations/test_integrations.py::test_init_scaffolds_a_project_that_is_in_sync",
]

#: Tests whose judge is an external program that takes seconds a run (the Fern CLI): the
#: pages it judges are pinned byte for byte by the build tests, which do run.
SLOW_EXTERNAL_TESTS = ["tests/integrations/test_fern_check.py"]

#: Tests that read docgen's source files as text (sizes, imports): mutmut's copy of a
#: module is a trampoline many times its size, so they would fail there, mutant or not.
SOURCE_TESTS = ["tests/test_architecture.py"]

#: What mutmut's own test run needs besides docgen/ and tests/ (it copies those itself).
ALSO_COPY = [
    "benchmarks",
    "scripts",
    "profiles.yaml",
    "templates",
    "docs",
    "changelog",
    "mkdocs.yml",
    "site_extra",
    "README.md",
    ".pre-commit-hooks.yaml",
    "fern",
]

KILLED = {"killed", "timeout"}
#: mutmut's exit codes for "survived" (0) and "no tests" (5, 33).
UNDECIDED = {0, 5, 33}
RESULT_LINE = re.compile(r"^\s*(?P<name>docgen\.\S+): (?P<status>[a-z ]+)$")


def sync_copy(ref: str | None) -> None:
    """Bring the working copy up to date with the checkout (tracked and new files), or
    with commit ``ref`` (so that work in progress in the checkout stays out of the run)."""
    source_root = REPO
    if ref is not None:
        source_root = WORK.parent / "mutation-source"
        shutil.rmtree(source_root, ignore_errors=True)
        source_root.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", "--format=tar", ref], cwd=REPO, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(source_root)], input=archive, check=True)
        listing = ["git", "ls-tree", "-r", "-z", "--name-only", ref]
    else:
        listing = ["git", "ls-files", "-co", "--exclude-standard", "-z"]
    listed = subprocess.run(listing, cwd=REPO, check=True, capture_output=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source, target = source_root / name, WORK / name
        if not source.is_file():
            continue
        if target.is_file() and target.read_bytes() == source.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    _sync_data_files(source_root)


def _sync_data_files(source_root: Path) -> None:
    """mutmut copies docgen's Python files into mutants/ on every run, but its data files
    (the registry schema, the vLLM catalog, templates) only once: bring those up to date."""
    for source in (source_root / "docgen").rglob("*"):
        if source.is_file() and source.suffix not in (".py", ".pyc"):
            target = WORK / "mutants" / source.relative_to(source_root)
            if target.parent.is_dir() and not (
                target.is_file() and target.read_bytes() == source.read_bytes()
            ):
                shutil.copy2(source, target)
    modules = REPO / "tests" / "mdx" / "node_modules"
    link = WORK / "tests" / "mdx" / "node_modules"
    if modules.is_dir() and not link.exists():
        link.symlink_to(modules)


def forget_unmutated(paths: list[str]) -> None:
    """Drop mutmut's plain copy of each of ``paths`` that an earlier run did not mutate:
    mutmut takes a copy newer than its source for a finished mutation and would make no
    mutants of a module added to the selection. Its record of which tests reach which
    function then goes too (it only knows the functions mutated when it was made)."""
    added = False
    for path in paths:
        copy = WORK / "mutants" / path
        if not copy.with_name(copy.name + ".meta").is_file():
            copy.unlink(missing_ok=True)
            added = True
    if added:
        (WORK / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)


def recheck_survivors(survived_too: bool) -> None:
    """Forget the verdict on every mutant that met no test (and, with ``survived_too``, on
    every survivor), so that this run tries it again with the tests as they are now (mutmut
    keeps verdicts while the mutated function is unchanged, even when new tests would kill
    the mutant). A survivor runs every test that reaches it, minutes each, so survivors are
    only tried again on request."""
    undecided = UNDECIDED if survived_too else UNDECIDED - {0}
    for meta in (WORK / "mutants").rglob("*.meta"):
        data = json.loads(meta.read_text("utf-8"))
        codes = data["exit_code_by_key"]
        stale = [name for name, code in codes.items() if code in undecided]
        if stale:
            codes.update(dict.fromkeys(stale))
            meta.write_text(json.dumps(data), "utf-8")


def write_config(paths: list[str]) -> None:
    """Append the ``[tool.mutmut]`` table to the copy's pyproject.toml."""
    pyproject = WORK / "pyproject.toml"
    text = (REPO / "pyproject.toml").read_text("utf-8")
    ignores = [
        f"--ignore={name}" for name in CHILD_PROCESS_TESTS + SOURCE_TESTS + SLOW_EXTERNAL_TESTS
    ]
    ignores += [f"--deselect={node}" for node in CHILD_PROCESS_NODES]
    args = ["-o", "addopts=", "-p", "no:cacheprovider", "-q", *ignores]
    table = (
        "\n[tool.mutmut]\n"
        'source_paths = ["docgen"]\n'
        f"only_mutate = {paths!r}\n"
        f"also_copy = {ALSO_COPY!r}\n"
        f"pytest_add_cli_args = {args!r}\n"
    )
    pyproject.write_text(text + table.replace("'", '"'), "utf-8")


def run_mutmut(jobs: int, budget: float, names: list[str] | None = None) -> bool:
    """Run mutmut in the copy for at most ``budget`` seconds (only the mutants ``names``,
    when given); False if it was cut short."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "CI": ""}
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *(names or [])]
    # mutmut redraws one progress line; off a terminal it goes to a log instead.
    log = None if sys.stdout.isatty() else open(WORK / "mutmut-run.log", "w")  # noqa: SIM115
    if log is not None:
        print(f"mutmut is running; its progress: {log.name}", flush=True)
    with subprocess.Popen(
        command, cwd=WORK, env=env, start_new_session=True, stdout=log, stderr=log
    ) as proc:
        try:
            proc.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            return False
        finally:
            if log is not None:
                log.close()
    return proc.returncode == 0


def results() -> dict[str, str]:
    """Every mutant's status, by name, from mutmut's records in the copy."""
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=WORK,
        capture_output=True,
        text=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        if match := RESULT_LINE.match(line):
            found[match["name"]] = match["status"].strip()
    return found


def module_of(name: str) -> str | None:
    """The core module a mutant name (``docgen.serve.x_quote__mutmut_1``) belongs to."""
    for module, paths in CORE.items():
        for path in paths:
            dotted = path.removesuffix(".py").replace("/", ".") + "."
            if name.startswith(dotted):
                return module
    return None


def equivalent() -> dict[str, str]:
    if not EQUIVALENT.is_file():
        return {}
    return dict(tomllib.loads(EQUIVALENT.read_text("utf-8")).get("equivalent", {}))


def sample(found: dict[str, str], modules: list[str], size: int) -> dict[str, list[str]]:
    """A uniform random sample of ``size`` mutants per module, the same on every run for
    the same code (seeded), so that a budget too small for every mutant
    still gives an unbiased score: mutmut runs the mutants with the cheapest tests first,
    and those are not a fair sample of the rest."""
    chosen: dict[str, list[str]] = {}
    for module in modules:
        # Drawn from every mutant, equivalents too (the report leaves them out), so that
        # judging a mutant equivalent does not change which mutants are drawn.
        names = sorted(n for n in found if module_of(n) == module)
        chosen[module] = sorted(
            random.Random(f"docgen-{module}").sample(names, min(size, len(names)))
        )
    return chosen


def wilson_low(killed: int, judged: int, z: float = 1.96) -> float:
    """The lower end of the 95% Wilson score interval of killed / judged."""
    if judged == 0:
        return 0.0
    p = killed / judged
    centre = p + z * z / (2 * judged)
    spread = z * math.sqrt(p * (1 - p) / judged + z * z / (4 * judged * judged))
    return (centre - spread) / (1 + z * z / judged)


def _verdict(status: str) -> str:
    """killed, survived (no test reaches it counts as survived) or open (not run yet)."""
    if status in KILLED:
        return "killed"
    return "survived" if status in ("survived", "no tests") else "open"


def sample_report(found: dict[str, str], chosen: dict[str, list[str]]) -> int:
    """Print the score of each module's sample with its 95% lower bound; 0 when every
    sample is fully judged and scores 85% or more."""
    print(
        "| module | sampled | killed | survived | equivalent | not checked | score "
        "| 95% lower bound |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    low = False
    same = equivalent()
    for module, names in chosen.items():
        c = Counter("equivalent" if n in same else _verdict(found[n]) for n in names)
        judged = c["killed"] + c["survived"]
        score = c["killed"] / judged if judged else 0.0
        low = low or score < 0.85 or c["open"] > 0
        print(
            f"| {module} | {len(names)} | {c['killed']} | {c['survived']} | {c['equivalent']} "
            f"| {c['open']} "
            f"| {score:.0%} | {wilson_low(c['killed'], judged):.0%} |"
        )
    return 1 if low else 0


def report(found: dict[str, str], modules: list[str], diffs: bool) -> int:
    """Print the score table and the survivors; 0 when every module scores 85% or more."""
    same = equivalent()
    counts: dict[str, Counter[str]] = {m: Counter() for m in modules}
    survivors: list[str] = []
    for name, status in sorted(found.items()):
        module = module_of(name)
        if module not in counts:
            continue
        if name in same:
            counts[module]["equivalent"] += 1
        elif status in KILLED:
            counts[module]["killed"] += 1
        elif status == "survived":
            counts[module]["survived"] += 1
            survivors.append(name)
        else:
            counts[module]["not checked"] += 1
    print("| module | mutants | killed | survived | equivalent | not checked | score |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    low = False
    for module in modules:
        c = counts[module]
        judged = c["killed"] + c["survived"]
        score = c["killed"] / judged if judged else 0.0
        low = low or score < 0.85 or c["not checked"] > 0
        total = sum(c.values())
        print(
            f"| {module} | {total} | {c['killed']} | {c['survived']} | {c['equivalent']} "
            f"| {c['not checked']} | {score:.0%} |"
        )
    for name in survivors:
        print(f"\nsurvived: {name}")
        if diffs:
            shown = subprocess.run(
                [sys.executable, "-m", "mutmut", "show", name],
                cwd=WORK,
                capture_output=True,
                text=True,
            )
            print(shown.stdout.rstrip())
    for name, why in sorted(same.items()):
        if module_of(name) in counts:
            print(f"equivalent: {name}: {why}")
    return 1 if low else 0


def run_sample(args: argparse.Namespace, modules: list[str]) -> None:
    """Run the sample's mutants that have no verdict (and, with ``--recheck``, its
    survivors). mutmut makes the mutants of changed code again only when it starts, which
    can reset verdicts and change the sample, so a second pass runs what the first left."""
    start, tried = time.monotonic(), set()
    for _ in range(2):
        found = results()
        chosen = sample(found, modules, args.sample)
        settled = {*KILLED} if args.recheck else {*KILLED, "survived"}
        same = equivalent()
        names = [
            n
            for ns in chosen.values()
            for n in ns
            if found[n] not in settled and n not in same and n not in tried
        ]
        left = args.budget - (time.monotonic() - start)
        if not names or left <= 0:
            return
        tried.update(names)
        if not run_mutmut(args.jobs, left, names):
            print(
                f"mutmut stopped before it judged every mutant (its budget of {args.budget:.0f} s "
                "ran out, or it failed: see its output above)",
                file=sys.stderr,
            )
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help=f"of {', '.join(CORE)} (default: all)")
    parser.add_argument("--budget", type=float, default=3600, help="seconds (default 3600)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel mutants")
    parser.add_argument("--report", action="store_true", help="only print the last run's table")
    parser.add_argument("--no-diffs", action="store_true", help="list survivors without diffs")
    parser.add_argument(
        "--ref", metavar="COMMIT", help="mutate this commit's code and tests, not the checkout's"
    )
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="check only a seeded random sample of N mutants per module (those not yet "
        "judged) and print that sample's score with its 95%% lower bound",
    )
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="try every survivor again (after tests were added for them); by default a run "
        "only checks mutants with no verdict, since a survivor runs minutes of tests",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start from a new copy (after files moved: the copy only ever gains files)",
    )
    args = parser.parse_args(argv)
    modules = args.modules or list(CORE)
    unknown = sorted(set(modules) - set(CORE))
    if unknown:
        parser.error(f"unknown module {unknown[0]!r}; choose from {', '.join(CORE)}")
    if args.report and not WORK.is_dir():
        parser.error(f"no run to report: {WORK.relative_to(REPO)} holds none yet")
    if not args.report:
        if args.fresh:
            shutil.rmtree(WORK, ignore_errors=True)
        WORK.mkdir(parents=True, exist_ok=True)
        sync_copy(args.ref)
        paths = [path for m in modules for path in CORE[m]]
        forget_unmutated(paths)
        # With a sample, --recheck tries the sample's survivors again (named below).
        recheck_survivors(survived_too=args.recheck and not args.sample)
        write_config(paths)
        if args.sample:
            run_sample(args, modules)
        elif not run_mutmut(args.jobs, args.budget):
            print(f"mutmut stopped (budget of {args.budget:.0f} s or an error)", file=sys.stderr)
    if args.sample:
        found = results()
        status = report(found, modules, not args.no_diffs)
        print("\nThe sample (a seeded uniform choice of mutants per module):\n")
        return sample_report(found, sample(found, modules, args.sample)) or status
    return report(results(), modules, not args.no_diffs)


if __name__ == "__main__":
    raise SystemExit(main())
