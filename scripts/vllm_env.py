"""Create, or reuse, the isolated vLLM environment that ``docgen verify-vllm`` parses with.

Usage: ``python3 scripts/vllm_env.py [--root DIR] [--venv DIR]``

The same as ``docgen verify-vllm --setup`` without the verification: a venv at
``--venv``, else ``$DOCGEN_VLLM_VENV``, else ``.cache/vllm-0.34.0`` in the project
root, holding vLLM 0.34.0 installed with ``--no-deps`` beside the CPU build of torch
2.13.0 and the dependencies pinned in ``docgen/data/vllm-parser-lock.txt`` (see
``docgen/vllm_env.py``). A venv that is already complete is reused. The last line
printed is the environment's python.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from docgen.errors import DocgenError  # noqa: E402
from docgen.integrations import vllm_env  # noqa: E402  (the repository root is on the path now)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root")
    parser.add_argument("--venv", type=Path, help="where the environment goes")
    args = parser.parse_args(argv)
    try:
        python = vllm_env.create(vllm_env.venv_path(args.root.absolute(), args.venv))
    except DocgenError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return exc.exit_code
    print(python)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
