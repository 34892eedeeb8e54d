"""Where ``check``'s time goes: cProfile of one in-sync ``check`` with its cache, and of
one on a fresh clone as docs CI runs it (``run.py --hotspots N``).

Nothing here imports docgen.
"""

from __future__ import annotations

import io
import pstats
import sys
import sysconfig
from pathlib import Path

from clone import fresh_clone, keyless
from harness import REPO, Bench, execute, expect


def hotspots(bench: Bench, tree: Path, top: int, env: dict[str, str] | None = None) -> str:
    """cProfile of one ``check`` of ``tree`` (in ``env``): docgen's functions by cumulative
    time, then every function by own time (where the time is spent, libraries included)."""
    out = bench.work / f"check-{tree.name}.prof"
    cmd = [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "docgen"]
    expect(execute([*cmd, "--root", str(tree), "check", "-q"], env=env), 0, "profiled check")
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


def profiled_checks(bench: Bench, profiles: int, top: int) -> list[str]:
    """The hot spots of an in-sync ``check`` with its cache, then on a fresh clone."""
    work = bench.work / f"n{profiles}"
    clone = fresh_clone(work / "origin", work / "clone-profiled")
    env = keyless(work / "no-key-profiled")
    return [
        "",
        "cProfile of one in-sync `check`, cache warm:",
        "",
        hotspots(bench, work / "cold-0", top),
        "cProfile of one `check` on a fresh clone (no cache, no key):",
        "",
        hotspots(bench, clone, top, env),
    ]
