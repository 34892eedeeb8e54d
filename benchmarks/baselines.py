"""The baselines printed beside docgen's figures: what the machine, the interpreter and
other tools take for comparable work (Python start, ruamel.yaml's load of the registry,
plain file writes, ``mkdocs build`` of the same pages).

Nothing here imports docgen.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from harness import Bench, Figure, execute, expect

RUAMEL_SNIPPET = (
    "import sys, time\n"
    "from ruamel.yaml import YAML\n"
    "text = open(sys.argv[1], encoding='utf-8').read()\n"
    "start = time.perf_counter()\n"
    "YAML(typ='rt').load(text)\n"
    "print(time.perf_counter() - start)\n"
)


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


SPEED_SNIPPET = (
    "import time\n"
    "start = time.perf_counter()\n"
    "total = 0\n"
    "for n in range(10_000_000):\n"
    "    total += n\n"
    "print(time.perf_counter() - start)\n"
)


def machine_speed(bench: Bench, when: str) -> Figure:
    """A fixed pure-Python loop, timed at the start and again at the end of a run: this
    virtual machine's speed drifts, and the two tell how far during the run."""
    figure = Figure(
        f"machine speed {when}: a pure-Python loop of 10 million additions",
        "s",
        note="loop only, in a fresh interpreter; compare runs by it (lower is faster)",
    )
    cmd = [sys.executable, "-c", SPEED_SNIPPET]
    for _ in bench.runs(3, figure):
        figure.samples.append(float(expect(execute(cmd), 0, figure.name).output.strip()))
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
