"""Print pip constraints that pin every direct dependency to its lowest allowed version.

Usage: ``python scripts/lowest_constraints.py [EXTRA ...] > lowest.txt``, then
``pip install -c lowest.txt 'DIST[EXTRA]'``. CI runs the suite once with the newest
versions and once under these constraints, so the lower bounds in ``pyproject.toml``
are tested, not guessed. Each requirement must state its lower bound as ``>=`` (or
``==``); one without is an error, since nothing then says which version is the lowest.
"""

from __future__ import annotations

import sys
from pathlib import Path

import tomllib
from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def lowest(requirement: str) -> str:
    """``name==lowest`` for one requirement string (its marker kept)."""
    req = Requirement(requirement)
    floors = [spec.version for spec in req.specifier if spec.operator in (">=", "==")]
    if len(floors) != 1:
        raise SystemExit(f"{PYPROJECT}: error: {requirement!r} states no single lower bound")
    marker = f"; {req.marker}" if req.marker else ""
    return f"{req.name}=={floors[0]}{marker}"


def main(extras: list[str]) -> int:
    project = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    for line in sorted({lowest(r) for r in requirements}):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
