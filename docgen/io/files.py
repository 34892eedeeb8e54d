"""Reading project files without leaving the project root, and one walk of each folder per command.

Inputs are opened by ``docgen.io.reads`` (re-exported here: ``read_input``, ``Inside``,
``readable``): within the root, regular files only, size-capped. A folder is walked once
per ``Project`` (one command's view of the tree): the cache key, the plan, the stale scan
and the preview all read the same listing, and a write through
``docgen.io.writes.apply`` drops it. A walk never enters a linked folder; ``followed``
(the template folder's walk) enters those that stay inside the root. A walk refuses a
file whose path holds a control character (``vet_name``), as every lister of inputs does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from docgen.config import Project
from docgen.errors import CONTROL, DocgenError, Location, PageError, decode, surrogate_problem
from docgen.io.reads import MAX_BYTES as MAX_BYTES
from docgen.io.reads import Inside as Inside
from docgen.io.reads import Refused as Refused
from docgen.io.reads import lookup as lookup
from docgen.io.reads import lookup_link as lookup_link
from docgen.io.reads import read_bytes as read_bytes
from docgen.io.reads import read_head as read_head
from docgen.io.reads import read_input as read_input
from docgen.io.reads import read_input_bytes as read_input_bytes
from docgen.io.reads import read_quietly as read_quietly
from docgen.io.reads import readable as readable
from docgen.io.reads import shown as shown

#: What a walked name is: a regular file, a symbolic link, anything else (FIFO, device),
#: or (in a ``followed`` walk only) a folder.
FILE, LINK, OTHER, DIR = "file", "link", "other", "dir"
#: docgen's own folder at the root (the plan cache, staged writes), ignored by git.
OWN_FOLDER = ".docgen-cache"


class PageForm(NamedTuple):
    """How a page's file holds its text: CRLF line ends (a Windows checkout), a leading
    BOM. docgen writes the author's page back in the form it has."""

    crlf: bool = False
    bom: bool = False
    #: A file that ends some lines with CRLF and others with LF: its lines (as LF text)
    #: and whether each ends with CRLF.
    mixed: tuple[tuple[str, ...], tuple[bool, ...]] | None = None

    def written(self, text: str) -> str:
        """``text`` (LF, no BOM) as the file holds it: in a file of mixed line ends, each
        line the file held ends as it did, and each other line as the one before it."""
        if self.mixed is not None:
            text = _with_line_ends(text, *self.mixed)
        elif self.crlf:
            text = text.replace("\n", "\r\n")
        return "\ufeff" + text if self.bom else text


def form_of(text: str, bom: bool) -> PageForm:
    """The form of a file's ``text`` (its line ends as read, without the BOM)."""
    if "\r\n" not in text or all_crlf(text):
        return PageForm("\r\n" in text, bom)
    lines = text.split("\n")
    ends = tuple(line.endswith("\r") for line in lines[:-1])
    return PageForm(False, bom, (tuple(as_lf_text(text).split("\n")), ends))


def _with_line_ends(text: str, held: tuple[str, ...], crlf: tuple[bool, ...]) -> str:
    """LF ``text`` with the line ends of the file that ``held`` these lines (``crlf``
    tells which ended with CRLF). docgen changes such a file only between the markers of
    its regions (``docgen:begin`` ... ``docgen:end``), so the lines are matched by place:
    each stretch outside the regions, and each marker, keeps its ends, and a region's
    lines end as its begin marker does. Should the markers not pair up (no region of
    docgen's), each line ends as most of the file's did."""
    lines = text.split("\n")
    ends = _ends_by_place(held, crlf, lines)
    if ends is None:
        ends = [sum(crlf) * 2 > len(crlf)] * (len(lines) - 1)
    ended = zip(lines[:-1], ends, strict=True)
    return "".join(line + ("\r\n" if end else "\n") for line, end in ended) + lines[-1]


#: A line that opens or closes a region docgen writes (a navigation's or a page's).
_MARKER = re.compile(r"docgen:(begin|end)\b")


def _ends_by_place(
    held: tuple[str, ...], crlf: tuple[bool, ...], lines: list[str]
) -> list[bool] | None:
    """Each of ``lines``' ends (but the last line's), matched by place with ``held``'s
    (see ``_with_line_ends``); None when the markers or a stretch outside the regions do
    not pair up."""
    old = [i for i, line in enumerate(held) if _MARKER.search(line)]
    new = [j for j, line in enumerate(lines) if _MARKER.search(line)]
    if [held[i] for i in old] != [lines[j] for j in new]:
        return None

    def end_of(i: int) -> bool:  # the last line has none: as the line before it
        return crlf[i] if i < len(crlf) else bool(crlf and crlf[-1])

    ends: list[bool] = []
    inside = False
    stretches = zip(_stretches(old, len(held)), _stretches(new, len(lines)), strict=True)
    for (i0, i1), (j0, j1) in stretches:
        if inside:  # a region's lines: as its begin marker ends
            ends += [end_of(i0 - 1)] * (j1 - j0)
        elif i1 - i0 != j1 - j0:
            return None
        else:
            ends += [end_of(i) for i in range(i0, i1)]
        if i1 < len(held):  # the marker after the stretch keeps its own end
            ends.append(end_of(i1))
            inside = "docgen:begin" in held[i1]
    return ends[: len(lines) - 1]


def _stretches(marks: list[int], count: int) -> list[tuple[int, int]]:
    """The runs of line indexes between the ``marks`` (and before the first, after the
    last), each as (start, stop)."""
    bounds = [-1, *marks, count]
    return [(a + 1, b) for a, b in pairwise(bounds)]


def read_page(project: Project, path: Path) -> tuple[str, PageForm]:
    """A page's text (read by ``read_input``) with its CRLF line ends as LF (a checkout's
    line ends are git's business, as Jinja reads templates) and without a leading BOM, and
    the form its file holds it in; invalid UTF-8 is a located error at its project path."""
    rel = path.relative_to(project.root).as_posix()
    raw = read_input_bytes(path, inside_of(project), "page", display=rel, error=PageError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        decode(raw, rel, "page", PageError)  # raises it at the first bad byte, as any input
        raise
    bom = text.startswith("\ufeff")  # MDX reads the frontmatter after it, as docgen must
    text = text[1:] if bom else text
    return as_lf_text(text), form_of(text, bom)


def all_crlf(text: str) -> bool:
    """Whether every line of ``text`` ends with CRLF (and there is one)."""
    return "\r\n" in text and text.count("\n") == text.count("\r\n")


def as_lf(raw: bytes) -> bytes:
    """``raw`` with its CRLF line ends as LF: a file checked out with Windows line ends
    (``core.autocrlf``) holds the same text as one with LF."""
    return raw.replace(b"\r\n", b"\n") if b"\r\n" in raw else raw


def as_lf_text(text: str) -> str:
    """``text`` with its CRLF line ends as LF (see ``as_lf``)."""
    return text.replace("\r\n", "\n") if "\r\n" in text else text


def vet_name(rel: str) -> str:
    """``rel`` (a project-relative path docgen found), unless one of its names is not
    UTF-8 or holds a control character: then a located error naming it escaped. No page
    or site can carry the one (Python keeps an undecodable byte as a lone surrogate); the
    other would break a line of docgen's output (a newline then ``::error`` forges a
    workflow command)."""
    undecoded = surrogate_problem(rel)
    if undecoded is not None:
        raise DocgenError.at(
            Location(rel),
            f"the file name {undecoded.removeprefix('it ')}; docgen reads and writes only "
            "files whose names are UTF-8: rename it",
        )
    found = CONTROL.search(rel)
    if found is None:
        return rel
    raise DocgenError.at(
        Location(rel),
        f"the file name holds a control character (U+{ord(found[0]):04X}); docgen reads "
        "and writes only files whose names have none: rename it",
    )


# -- one walk of a folder ------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """One name under a walked folder."""

    path: str  # the folder's path joined with the names below it (links not resolved)
    rel: str  # project-relative, POSIX
    kind: str  # FILE, LINK or OTHER (as the name itself is, not what a link leads to)


@dataclass(frozen=True)
class Listing:
    """Every file under one folder, folders and names in sorted order, each folder's own
    files before the folders below it (linked folders are not entered), and the folders
    (DIR, or LINK for a linked one) in the same order."""

    folder: Path
    inside: bool  # whether the folder, through links, lies inside the project root
    files: tuple[Found, ...]
    folders: tuple[Found, ...] = ()


_LISTINGS: dict[int, tuple[Project, dict[str, Listing]]] = {}


def listing(project: Project, folder: str) -> Listing:
    """The files under the project folder ``folder`` (``docs``, ``templates``, ...),
    walked the first time this command's ``project`` asks."""
    held = _LISTINGS.get(id(project))
    if held is None or held[0] is not project:
        _LISTINGS.clear()  # one command, one project
        held = _LISTINGS[id(project)] = (project, {})
    found = held[1].get(folder)
    if found is None:
        path = project.path(folder)
        inside = Inside(project.root).contains(str(path))
        walked = _walk(project, str(path)) if inside else ((), ())  # nothing read outside
        found = held[1][folder] = Listing(path, inside, *walked)
    return found


def forget(project: Project) -> None:
    """Drop the listings of ``project``: files were written, the next reader walks again."""
    _LISTINGS.pop(id(project), None)
    _INSIDE.pop(id(project), None)


_INSIDE: dict[int, tuple[Project, Inside]] = {}


def inside_of(project: Project) -> Inside:
    """One ``Inside`` per command's project, so each folder's real path is looked up once."""
    held = _INSIDE.get(id(project))
    if held is None or held[0] is not project:
        _INSIDE.clear()
        held = _INSIDE[id(project)] = (project, Inside(project.root))
    return held[1]


def _walk(project: Project, top: str) -> tuple[tuple[Found, ...], tuple[Found, ...]]:
    """The files and the folders ``os.walk(top)`` finds (sorted, links to folders not
    entered), with each name's kind from the same directory read."""
    return _tree(project, top, None)


def _tree(
    project: Project, top: str, follow: Inside | None
) -> tuple[tuple[Found, ...], tuple[Found, ...]]:
    """The files and folders under ``top``; with ``follow``, linked folders that stay
    inside the root are entered too, each real folder once, docgen's own folder never."""
    cut = len(str(project.root)) + 1
    own = None if follow is None else os.path.join(follow.root, OWN_FOLDER)
    found: list[Found] = []
    folders: list[Found] = []
    seen: set[str] = set()
    pending = [top]
    while pending:
        current = pending.pop()
        if follow is not None:
            real = os.path.realpath(current)
            if real in seen or real == own:
                continue
            seen.add(real)
        try:
            with os.scandir(current) as listed:
                entries = sorted(listed, key=lambda entry: entry.name)
        except (FileNotFoundError, NotADirectoryError):
            continue  # nothing there (yet), or a file where the folder would be
        except OSError as exc:  # unreadable, or too deep: its files would pass unseen
            where = Location(current[cut:].replace(os.sep, "/") or ".")
            raise DocgenError.at(where, f"cannot list this folder: {exc.strerror}") from None
        below = []
        for entry in entries:
            rel, linked = entry.path[cut:].replace(os.sep, "/"), entry.is_symlink()
            if _is_dir(entry):
                enter = not linked or (follow is not None and follow.contains(entry.path))
                folders.append(Found(entry.path, rel, DIR if enter else LINK))
                below += [entry.path] if enter else []
            else:
                found.append(Found(entry.path, vet_name(rel), LINK if linked else _kind(entry)))
        pending += reversed(below)
    return tuple(found), tuple(folders)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _kind(entry: os.DirEntry[str]) -> str:
    try:
        return FILE if entry.is_file(follow_symlinks=False) else OTHER
    except OSError:
        return OTHER


def pages(project: Project) -> list[Found]:
    """The hand-written pages (``.mdx``: an ``.md`` file under the docs folder may be
    anything, a README or a package's notes) under the docs folder, outside the variants
    folder, in walk order; none when the docs folder leads outside the project root."""
    docs = listing(project, project.config.docs)
    if not docs.inside:
        return []
    variants = str(project.path(project.config.variants))
    skip = variants + os.sep if variants.startswith(str(docs.folder) + os.sep) else None
    return [
        f
        for f in docs.files
        if f.path.endswith(".mdx") and (skip is None or not f.path.startswith(skip))
    ]


def stray_templates(project: Project) -> list[str]:
    """Templates under the docs folder (not in the templates folder, as the file system
    resolves it, nor in a hidden or ``_`` folder); none when the docs folder is the root."""
    if (docs := project.config.docs.strip("/")) in ("", "."):
        return []
    templates = os.path.realpath(project.path(project.config.templates)) + os.sep
    return [
        found.rel
        for found in listing(project, docs).files
        if found.rel.lower().endswith(".j2")
        and not os.path.realpath(found.path).startswith(templates)
        and not any(p.startswith(("_", ".")) for p in found.rel[len(docs) + 1 :].split("/"))
    ]


def followed(project: Project, folder: str) -> tuple[Found, ...]:
    """Every folder (kind DIR) and then every file under the project folder ``folder``,
    entering linked folders that stay inside the root: what a reader that follows such
    links (the template loader) can open there. A link to a folder above cannot loop:
    each real folder is entered once, docgen's own folder never."""
    found, folders = _tree(project, str(project.path(folder)), Inside(project.root))
    return folders + found


def other_files(project: Project, paths: list[str], others: Iterable[str]) -> list[str]:
    """``paths`` (project-relative) without those that reach the same file as one of
    ``others`` by another name: through a folder linked to another inside the root."""
    inside = Inside(project.root)
    base = str(project.root)
    taken = {inside.real(os.path.join(base, path), link=False) for path in others}
    return [p for p in paths if inside.real(os.path.join(base, p), link=False) not in taken]
