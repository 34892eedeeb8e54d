"""Fuzz docgen for longer than CI does: new random hostile edits of the worked example.

Usage::

    python scripts/fuzz.py                   # 500 examples
    python scripts/fuzz.py --examples 5000 --seed 7

Each example edits a copy of the worked example (registry, a setting, a page, a note, a
link, or a command's arguments: tests/fuzzing.py) and runs docgen's commands on it,
checking every promise of README's Guarantees; the pages its builds write are compiled
as MDX at the end. The first broken promise stops the run and prints the smallest edit
hypothesis found that breaks it. CI runs the same fuzzer bounded and derandomized
(tests/system/test_fuzz.py); this script is for a longer search before a release.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from fuzzing import Edit, edits, exercise  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from mdxc import INSTALL_HINT, compile_mdx, unavailable  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500, help="how many (default 500)")
    parser.add_argument("--seed", type=int, default=None, help="repeat a run (default: random)")
    args = parser.parse_args(argv)
    unable = unavailable()  # the pages are compiled at the end: say so before, not after
    if unable is not None:
        parser.error(f"the MDX compiler cannot run ({unable}): {INSTALL_HINT}")
    pages: dict[str, str] = {}
    done = 0
    start = time.monotonic()

    with tempfile.TemporaryDirectory(prefix="docgen-fuzz-") as base:

        @settings(
            max_examples=args.examples,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(edit=edits)
        def one(edit: Edit) -> None:
            nonlocal done
            run = exercise(Path(base) / "fuzz", edit)
            pages.update({f"{edit!r} {name}": text for name, text in run.pages.items()})
            done += 1
            if done % 50 == 0:
                print(f"{done} examples, {time.monotonic() - start:.0f} s", flush=True)

        if args.seed is not None:
            one = seed(args.seed)(one)
        one()
    failed = {name: error for name, error in compile_mdx(pages).items() if error}
    for name, error in failed.items():
        print(f"does not compile: {name}: {error}")
    print(f"{done} examples, {len(pages)} pages compiled, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
