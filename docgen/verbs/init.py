"""``docgen init``: scaffold a small working project that passes ``check`` at once.

Everything is checked before the first write: the folder can be made, and no file or
folder of the scaffold is already there (a dangling symbolic link counts: writing
through it would write where it leads). The scaffold is written in one staged write
(``docgen.io.writes.apply``), then built; when the build fails, exactly what ``init``
wrote is removed again, so a refused ``init`` leaves the folder as it found it.
"""

from __future__ import annotations

import os
import shlex
from contextlib import suppress
from dataclasses import replace
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from docgen.changes import DRIFTED
from docgen.config import Config, Project, load_project
from docgen.discovery import PYPROJECT, holds_project, nearest_project
from docgen.errors import (
    CONTROL,
    ConfigError,
    DocgenError,
    Location,
    Problem,
    one_line,
    surrogate_problem,
)
from docgen.io import files, writes
from docgen.io.writes import Write

#: Files whose presence means a project is already there (as does a ``pyproject.toml``
#: with a ``[tool.docgen]`` table).
PROJECT_FILES = ("profiles.yaml", "docgen.toml")
#: Those, then the scaffold's own files and folders that an earlier project leaves.
EXISTING = (*PROJECT_FILES, "templates", "mkdocs.yml", "changelog")
EMPTY_FOLDERS = ("changelog", "site_extra", "changelog.d")


def scaffold_files() -> dict[str, str]:
    """Relative path -> text of every file the scaffold ships."""
    root = resources.files("docgen").joinpath("scaffold")
    return dict(_walk(root, ""))


def _walk(node: Traversable, prefix: str) -> list[tuple[str, str]]:
    out = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            out += _walk(child, f"{rel}/")
        elif not child.name.endswith((".pyc",)):
            out.append((rel, child.read_text("utf-8")))
    return out


#: What the tools a project runs make inside it and git must not take: the vLLM parser's
#: environment (``verify-vllm --setup``, 1.9 GB) and the MkDocs site.
GITIGNORE = (
    "# Made by tools, never committed: vLLM's parser environment, the MkDocs site.\n"
    "/.cache/\n/site/\n"
)


def ignores_missing(target: Path) -> list[str]:
    """The lines of ``GITIGNORE`` that a ``.gitignore`` the folder already had lacks: all
    of them when it is no regular file of at most ``files.MAX_BYTES`` in the folder (a
    link out of it, a FIFO, a device), which is never read."""
    wanted = [line for line in GITIGNORE.splitlines() if line.startswith("/")]
    path = target / ".gitignore"
    if not os.path.lexists(path):
        return []
    raw = files.read_quietly(path, files.Inside(target.resolve()), files.MAX_BYTES)
    kept = [] if raw is None else raw.decode("utf-8", errors="replace").splitlines()
    return [line for line in wanted if line not in {k.strip() for k in kept}]


def said(target: Path, made: list[str]) -> list[str]:
    """What ``init`` says of the project it made at ``target``: each file it created, a
    note when the folder's ``.gitignore`` lacks docgen's lines, and the next step, each
    path named from the current folder."""
    shown = _from_here(target)
    lines = [
        f"create {one_line(path if shown == '.' else os.path.join(shown, path))}" for path in made
    ]
    if missing := ignores_missing(target):
        lines.append(f"note: kept .gitignore as it was; add {' and '.join(missing)} to it")
    folder = f"./{shown}" if shown.startswith("-") else shown  # ``cd -x`` takes an option
    go = "" if shown == "." else f"cd {_shell_word(folder)} && "
    return [*lines, f"next: {go}docgen check && mkdocs serve"]


def _shell_word(name: str) -> str:
    """``name`` as one word bash (and zsh) reads back as it is: quoted, or, when it holds a
    control character or a byte that is no UTF-8, in ``$'...'`` with each written as its
    escape (``'bad\\nname'`` in plain quotes is no newline)."""
    if not CONTROL.search(name) and surrogate_problem(name) is None:
        return shlex.quote(name)
    escaped = []
    for char in name:
        if char in "\\'":
            escaped.append(f"\\{char}")
        elif CONTROL.match(char) or surrogate_problem(char) is not None:
            # The bytes the folder's name holds, which bash reads back in any locale (its
            # \\u escapes need a UTF-8 one); a byte that is no UTF-8 is one of them.
            escaped += [f"\\x{byte:02x}" for byte in os.fsencode(char)]
        else:
            escaped.append(char)
    return f"$'{''.join(escaped)}'"


def _from_here(target: Path) -> str:
    """``target`` as the current folder names it (``.``, ``proj``), or as given when it
    lies elsewhere."""
    shown = os.path.relpath(target.resolve(), Path.cwd().resolve())
    return str(target) if shown == ".." or shown.startswith("../") else shown


def _named_from_here(problem: Problem, shown: str) -> Problem:
    """``problem`` located at a path of the new project (``docs/x.mdx``) as the current
    folder names the project (``shown``: ``proj/docs/x.mdx``), as ``init``'s own lines
    name its files."""
    where = problem.location
    if where is None or shown == "." or not where.path or os.path.isabs(where.path):
        return problem
    return replace(problem, location=replace(where, path=os.path.join(shown, where.path)))


def init(target: Path) -> list[str]:
    """Write the scaffold into ``target`` (made if missing) and build it; refuse to touch an
    existing project, and leave the folder as it was when anything fails. A folder that
    has a ``.gitignore`` keeps it as it is."""
    todo = _scaffold()
    if not os.path.lexists(target / ".gitignore"):
        todo.append(Write(".gitignore", GITIGNORE, new=True))
    _refuse_inside_another(target)
    made = _make_root(target)
    if not target.is_dir():
        raise ConfigError.at(Location(str(target)), "the project folder is not a folder")
    try:
        _refuse_existing(target, todo)
        project = Project(target.resolve(), Config())
        new = [project.root / f for f in _folders(todo) if not os.path.lexists(project.root / f)]
        own = project.root / files.OWN_FOLDER  # the staged write makes it
        new += [] if os.path.lexists(own) else [own]
        writes.apply(project, todo)
    except BaseException as exc:
        _remove_folders(made)
        if not isinstance(exc, DocgenError):
            raise
        shown = _from_here(target)  # a scaffold file a link leads out: named as the build's
        raise type(exc)([_named_from_here(p, shown) for p in exc.problems]) from None
    from docgen.verbs.build import build

    try:
        built = build(load_project(target))
    except BaseException as exc:
        with suppress(Exception):
            writes.apply(project, [Write(w.path, None) for w in todo])
        _remove_folders([*made, *new])
        if not isinstance(exc, DocgenError):
            raise
        shown = _from_here(target)
        problems = [_named_from_here(p, shown) for p in exc.problems]
        if _found_here(exc, todo, target):
            problems.append(Problem(ADOPT, Location(str(target)), "note"))
        raise type(exc)(problems) from None
    return [w.path for w in todo] + [c.path for c in built.report.of(*DRIFTED)]


#: Said when the scaffold cannot build what the folder already held.
ADOPT = (
    "docgen init scaffolds a new project, and its registry (agents 'main' and 'lite', the "
    "CLI token '$$example') cannot build the pages that were already here; to adopt "
    "docgen in an existing docs tree, write its profiles.yaml and templates for that "
    "tree instead (README: Adopting an existing docs tree)"
)


def _found_here(error: DocgenError, todo: list[Write], target: Path) -> bool:
    """Whether ``error`` is about a file ``init`` did not write that is still there, once
    what it wrote is removed again: one the folder already held (not a page the build
    could not write)."""
    ours = {w.path for w in todo}
    return any(
        p.location and p.location.path not in ours and os.path.lexists(target / p.location.path)
        for p in error.problems
    )


def _scaffold() -> list[Write]:
    """The files ``init`` writes: the scaffold, and a ``.gitkeep`` in each empty folder."""
    todo = [Write(rel, text, new=True) for rel, text in scaffold_files().items()]
    return todo + [Write(f"{folder}/.gitkeep", "", new=True) for folder in EMPTY_FOLDERS]


def _refuse_inside_another(target: Path) -> None:
    """Refuse a folder inside a folder of the project found above it (its docs, templates,
    changelog or notes): that project's build would take the new one's files for its own
    (and prune its pages)."""
    real = Path(os.path.realpath(target))  # where it lies: ``docs/../../x`` is not in docs
    try:
        outer = nearest_project(real.parent)
        project = None if outer is None else load_project(outer)
    except (OSError, DocgenError):
        return  # no project above, or one whose settings say nothing here
    if project is None:
        return
    cfg = project.config
    for name in ("docs", "templates", "changelog", "fragments"):
        folder = Path(os.path.realpath(project.path(getattr(cfg, name))))
        if real == folder or folder in real.parents:
            raise ConfigError.at(
                Location(str(target)),
                f"this folder lies in the {name} folder of the project at {project.root}: "
                "its build would take the new project's files for its own; make the new "
                "project elsewhere",
            )


def _make_root(target: Path) -> list[Path]:
    """Make ``target`` and its missing parents; the folders made, deepest last."""
    missing = [p for p in (target, *target.parents) if not os.path.lexists(p)][::-1]
    if os.path.islink(target) and not os.path.exists(target):
        raise ConfigError.at(
            Location(str(target)),
            f"the project folder is a symbolic link to '{one_line(os.readlink(target))}', "
            "which leads nowhere: make the folder it names, or remove the link",
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError.at(
            Location(str(target)), f"cannot make the project folder: {exc.strerror or exc}"
        ) from None
    return missing


def _refuse_existing(target: Path, todo: list[Write]) -> None:
    """Refuse a folder that holds a project, or any file or folder of the scaffold; a
    symbolic link there counts, even one that leads nowhere. Each error is located in
    the new project (``init`` names it from the current folder)."""
    for name in dict.fromkeys([*EXISTING, *(w.path for w in todo)]):
        path = target / name
        if os.path.lexists(path):
            kind = "folder" if path.is_dir() else "file"
            what = (
                "a project is already here"
                if name in PROJECT_FILES
                else f"this {kind} is already here"
            )
            link = " (a symbolic link)" if path.is_symlink() else ""
            raise ConfigError.at(
                Location(name), f"{what}{link}; docgen init never overwrites files"
            )
    if holds_project(target):  # neither file above: a [tool.docgen] table
        raise ConfigError.at(
            Location(PYPROJECT),
            "a project is already here (its [tool.docgen] table); docgen init never "
            "overwrites files",
        )


def _folders(todo: list[Write]) -> list[str]:
    """Every folder the files of ``todo`` lie in, parents first."""
    every = {str(p) for w in todo for p in Path(w.path).parents if str(p) != "."}
    return sorted(every, key=lambda f: (f.count("/"), f))


def _remove_folders(made: list[Path]) -> None:
    """Remove the folders ``init`` made (parents first in ``made``), deepest first."""
    for folder in reversed(made):
        with suppress(OSError):
            if folder.name == files.OWN_FOLDER:
                writes.remove(folder / ".gitignore")
            folder.rmdir()
