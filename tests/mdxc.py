"""Compile MDX with the real MDX 3 compiler (tests/mdx/compile.mjs), many documents per call.

Every helper runs node once for the whole batch. When node or the harness's
node_modules is missing, the calling test skips, or fails when the CI environment
variable is set, with the command that installs the harness.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HARNESS = Path(__file__).parent / "mdx"
SCRIPT = HARNESS / "compile.mjs"
PACKAGES = ("@mdx-js/mdx", "remark-frontmatter", "remark-gfm")
INSTALL_HINT = "run `npm ci --prefix tests/mdx`"


@dataclass(frozen=True)
class Readback:
    """What the compiler made of one document (see compile.mjs --text)."""

    error: str | None
    text: str | None
    tables: list[list[int]]
    frontmatter: str | None


def unavailable() -> str | None:
    """Why the harness cannot run, or None when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    for package in PACKAGES:
        if not (HARNESS / "node_modules" / package / "package.json").is_file():
            return f"tests/mdx/node_modules has no {package}"
    return None


def mdx_available() -> bool:
    """True when node and the harness's node_modules are installed."""
    return unavailable() is None


def require_mdx() -> None:
    """Skip the calling test (fail it when $CI is set) unless the harness can run."""
    reason = unavailable()
    if reason is None:
        return
    message = f"MDX compiler unavailable ({reason}): {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _run(docs: dict[str, str], *args: str) -> list[dict[str, Any]]:
    """Send the documents to compile.mjs in one node process and return its results."""
    require_mdx()
    batch = json.dumps([{"name": name, "text": text} for name, text in docs.items()])
    proc = subprocess.run(
        ["node", str(SCRIPT), *args],
        input=batch.encode("ascii"),
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"compile.mjs exited {proc.returncode}: {proc.stderr.decode()}")
    results: list[dict[str, Any]] = json.loads(proc.stdout.decode("utf-8"))
    return results


def _message(result: dict[str, Any]) -> str | None:
    """`line:column: reason` for a failed document, None for a compiled one."""
    if result["ok"]:
        return None
    line, column = result["line"], result["column"]
    where = f"{line}:{column}: " if line is not None else ""
    return f"{where}{result['error']}"


def compile_mdx(docs: dict[str, str]) -> dict[str, str | None]:
    """Compile every document; map each name to its error message, or None if it compiled."""
    return {str(result["name"]): _message(result) for result in _run(docs)}


def mdx_read(docs: dict[str, str]) -> dict[str, Readback]:
    """Compile every document and read back its literal text, table shapes and frontmatter."""
    readbacks: dict[str, Readback] = {}
    for result in _run(docs, "--text"):
        readbacks[str(result["name"])] = Readback(
            error=_message(result),
            text=result["text"],
            tables=result["tables"],
            frontmatter=result["frontmatter"],
        )
    return readbacks


def mdx_text_of(docs: dict[str, str]) -> dict[str, str]:
    """Literal text (text, inlineCode and code nodes) of every document; raise if one fails."""
    readbacks = mdx_read(docs)
    failed = {name: rb.error for name, rb in readbacks.items() if rb.error is not None}
    if failed:
        raise AssertionError(f"MDX did not compile: {failed}")
    return {name: rb.text or "" for name, rb in readbacks.items()}


def mdx_trees(docs: dict[str, str]) -> dict[str, Any]:
    """Compile every document; map each name to its mdast (plain JSON, no positions), or to
    the error message when it does not compile."""
    return {
        str(result["name"]): result["tree"] if result["ok"] else _message(result)
        for result in _run(docs, "--tree")
    }
