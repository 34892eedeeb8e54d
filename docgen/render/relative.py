"""Relative paths in a page (an MDX import, a file link, an image's ``src``), re-aimed from
the page's folder to the folder of its variant, which docgen writes elsewhere."""

from __future__ import annotations

import posixpath
import re

IMPORT_PATH = re.compile(r"""^(import\s[^"']*from\s*["'])(\.{1,2}/[^"']+)(["'];?\s*)$""")
LINK_PATH = re.compile(r"""(!?\[[^\]]*\]\(|\bsrc=["'])(\.{1,2}/[^)"'\s#?]+\.[A-Za-z0-9]+)""")


def rewrite_paths(text: str, source: str, target: str) -> str:
    """Relative import paths and file links, re-aimed from ``source``'s folder to ``target``'s."""
    if "./" not in text:
        return text  # nothing relative to re-aim
    src_dir, dst_dir = posixpath.dirname(source), posixpath.dirname(target)

    def move(rel: str) -> str:
        moved = posixpath.relpath(posixpath.normpath(posixpath.join(src_dir, rel)), dst_dir)
        return moved if moved.startswith(".") else f"./{moved}"

    lines = []
    for line in text.split("\n"):
        match = IMPORT_PATH.match(line)
        if match:
            line = f"{match[1]}{move(match[2])}{match[3]}"
        else:
            line = LINK_PATH.sub(lambda m: f"{m[1]}{move(m[2])}", line)
        lines.append(line)
    return "\n".join(lines)
