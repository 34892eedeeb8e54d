"""The dated changelog entries and fragments on disk: finding, reading and parsing them.

An entry is ``<changelog>/YYYY-MM-DD.mdx``: the exact SPDX header as an MDX comment,
then one ``## vX.Y.Z`` section per release (newest first), each with a summary that
starts with the product name and version, and bullets of one sentence per line.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from docgen.changelog.markup import prose_lines
from docgen.changelog.names import ENTRY_LIKE, NOTE_LIKE, named_as, reads_as, refuse_misnamed
from docgen.config import Project
from docgen.errors import BREAKING, ConfigError, Location
from docgen.io.files import (
    LINK,
    MAX_BYTES,
    Inside,
    Listing,
    as_lf_text,
    listing,
    read_input,
    vet_name,
)
from docgen.registry.model import Registry

#: One number of a version: no leading zero (as semver), at most 9 digits.
_NUMBER = r"(?:0|[1-9][0-9]{0,8})"
VERSION = re.compile(rf"v({_NUMBER})\.({_NUMBER})\.({_NUMBER})")
HEADING = re.compile(rf"^## (v{_NUMBER}\.{_NUMBER}\.{_NUMBER})[ \t]*$")
#: A version written with a leading zero or too many digits (told apart in messages).
_LOOSE_VERSION = re.compile(r"v[0-9]+\.[0-9]+\.[0-9]+")
DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})\.mdx$")
#: The most of a bad value a message quotes.
SHOWN = 40


def header(registry: Registry) -> str:
    """The exact four-line SPDX MDX comment, or ``""`` when the product has no SPDX."""
    spdx = registry.product.spdx
    if spdx is None:
        return ""
    return (
        f"{{/*\n * SPDX-FileCopyrightText: {spdx.copyright}\n"
        f" * SPDX-License-Identifier: {spdx.license}\n */}}\n"
    )


def named_version(text: str) -> str:
    """The version ``text`` names: ``0.2.0`` is ``v0.2.0``, as a tag is often written
    either way; anything else as it is (to be checked as it was typed)."""
    return f"v{text}" if VERSION.fullmatch(f"v{text}") else text


def parse_version(text: str, where: Location) -> tuple[int, int, int]:
    """``vX.Y.Z`` as three numbers (they order releases); anything else is an error."""
    match = VERSION.fullmatch(text)
    if match is None:
        raise ConfigError.at(where, version_problem(text))
    return int(match[1]), int(match[2]), int(match[3])


def version_problem(text: str) -> str:
    """Why ``text`` is not a version: ``vX.Y.Z``, each number without a leading zero and
    of at most 9 digits (so one release has one spelling, and numbers stay small)."""
    if _LOOSE_VERSION.fullmatch(text) is None:
        return f"malformed version '{shown(text)}'; expected vX.Y.Z, e.g. v0.0.102"
    numbers = text[1:].split(".")
    if any(len(n) > 9 for n in numbers):
        return f"version '{shown(text)}' has a number of more than 9 digits"
    plain = "v" + ".".join(str(int(n)) for n in numbers)
    return f"version '{text}' has a leading zero; write {plain}"


def shown(text: str) -> str:
    """``text`` as a message quotes it: cut to ``SHOWN`` characters, each line break or
    control character as its escape (``\\n``)."""
    cut = text if len(text) <= SHOWN else f"{text[: SHOWN - 3]}..."
    return BREAKING.sub(lambda m: repr(m[0])[1:-1], cut)


def parse_date(text: str, where: Location) -> _dt.date:
    """A real date written ``YYYY-MM-DD`` (as ``entry_date`` reads an entry's name);
    anything else is an error."""
    date = entry_date(text)
    if date is None:
        raise ConfigError.at(
            where, f"malformed date '{shown(text)}'; expected a real date as YYYY-MM-DD"
        )
    return date


@dataclass(frozen=True)
class Section:
    version: str
    line: int  # 1-based line of the ## heading
    lines: tuple[str, ...]  # the section's lines after the heading


@dataclass(frozen=True)
class Entry:
    path: str  # project-relative
    text: str
    sections: tuple[Section, ...]

    @property
    def day(self) -> str:
        """The file name without ``.mdx``: the entry's date, when it is well named."""
        return self.path.rsplit("/", 1)[-1][: -len(".mdx")]


#: The release overview docgen generates in the changelog folder: an output, not an entry.
OVERVIEW = "overview.mdx"


def is_entry_name(name: str) -> bool:
    """Whether a file of the changelog folder is an entry: any MDX page but the overview."""
    return name.endswith(".mdx") and name != OVERVIEW


def entry_files(project: Project) -> list[Path]:
    """The dated entries, sorted; refuse one that leads outside the project root, and one
    named as an entry in another way (``2026-09-01.md``, ``.MDX``), which ``check`` would
    otherwise pass unread while Fern may publish it."""
    folder = project.path(project.config.changelog)
    if not folder.is_dir():
        return []
    walked = listing(project, project.config.changelog)  # one it cannot list is an error
    _refuse_outside(walked, project.config.changelog, "changelog folder")
    named = named_as(folder, ENTRY_LIKE)
    refuse_misnamed(project.root, named, ".mdx", "a changelog entry", "an MDX page")
    files = sorted(p for p in named if is_entry_name(p.name))
    return _inside_root(project, files, "changelog entry")


def fragment_files(project: Project) -> list[Path]:
    """The notes waiting for the next release, sorted; refuse one outside the root or one
    that is no regular file (a folder, a FIFO), as reading it would, and one named as a
    note in another way (``n.MD``, ``n.txt``) or lying in a folder below, which no release
    would take. A hidden file (``.#note.md``, an editor's lock or swap file) is no note,
    nor is a README."""
    folder = project.path(project.config.fragments)
    if not folder.is_dir():
        return []
    walked = listing(project, project.config.fragments)  # one it cannot list is an error
    _refuse_outside(walked, project.config.fragments, "notes folder")
    _refuse_nested_notes(project, walked)
    files = _inside_root(project, named_as(folder, NOTE_LIKE), "changelog fragment")
    refuse_misnamed(project.root, files, ".md", "a note", "a Markdown file")
    for path in files:
        if not path.is_file():  # a folder or a FIFO named as a note
            read_input(path, Inside(project.root), "changelog note", display=_rel(project, path))
    return files


def _refuse_nested_notes(project: Project, walked: Listing) -> None:
    """Refuse a note in a folder below the notes folder, or a link to a folder there that
    may hold one (docgen follows none), which no release would take. (The settings keep
    the project's other folders out of the notes folder.)"""
    folder = walked.folder
    for linked in walked.folders:
        parts = PurePosixPath(os.path.relpath(linked.path, folder)).parts
        hidden = any(part.startswith(".") for part in parts)
        if linked.kind == LINK and not hidden and (why := _linked_notes(project, linked.path)):
            raise ConfigError.at(
                Location(linked.rel),
                f"{why}, so no release would take a note there: move the notes into "
                f"{_rel(project, folder)} itself, or remove the link",
            )
    for found in walked.files:
        *below, name = PurePosixPath(os.path.relpath(found.path, folder)).parts
        hidden = any(part.startswith(".") for part in below)  # an editor's, git's
        if below and not hidden and reads_as(name):
            raise ConfigError.at(
                Location(found.rel),
                "a note lies in the notes folder itself, not in a folder below it, or no "
                f"release takes it: move it to {_rel(project, folder / name)}",
            )


def _linked_notes(project: Project, path: str) -> str | None:
    """Why the folder a link in the notes folder leads to may hide notes: it lies outside
    the root, where docgen reads nothing, or holds a file named as a note; None for one
    of other files (images a note shows)."""
    if not within_root(project, Path(path)):
        return "this link leads to a folder outside the project root, where docgen reads nothing"
    failed: list[OSError] = []
    walked = os.walk(path, onerror=failed.append)  # links below it not followed
    held = sorted(name for _folder, _subs, names in walked for name in names if reads_as(name))
    if failed:
        return f"this link leads to a folder docgen cannot list ({failed[0].strerror or failed[0]})"
    if not held:
        return None
    return f"this link leads to a folder holding {held[0]}, and docgen follows no link here"


def _refuse_outside(walked: Listing, setting: str, what: str) -> None:
    """Refuse a folder that is (or lies in) a symbolic link leaving the project root (its
    ``listing`` walked nothing there), before a name in it is read: docgen neither reads
    nor shows what lies outside."""
    if not walked.inside:
        raise ConfigError.at(
            Location(setting.rstrip("/")),
            f"the {what} is a symbolic link that leaves the project root; docgen reads "
            "only files inside it",
        )


def _inside_root(project: Project, files: list[Path], what: str) -> list[Path]:
    """``files``, unless one's name holds a control character or one is a symbolic link
    that leaves the project root."""
    for path in files:
        vet_name(path.relative_to(project.root).as_posix())
        if not within_root(project, path):
            raise ConfigError.at(
                Location(path.relative_to(project.root).as_posix()),
                f"the {what} is a symbolic link that leaves "
                "the project root; docgen reads only files inside it",
            )
    return files


def refuse_oversized(path: str, text: str) -> str:
    """The text of a new entry file ``path``, unless it is larger than docgen reads: a
    located error before anything is written (``check``, ``build`` and ``release-notes``
    would refuse it ever after; notes just under the limit grow as indented bullets)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise ConfigError.at(
            Location(path),
            f"the changelog entry would be {size / 1e6:.1f} MB; docgen reads changelog "
            f"entries up to {MAX_BYTES / 1e6:.0f} MB: release fewer or shorter notes at once",
        )
    return text


def within_root(project: Project, path: Path) -> bool:
    """Whether ``path``, through any symbolic links, lies inside the project root."""
    return Inside(project.root).contains(str(path))


def read_entry(project: Project, path: Path) -> Entry:
    """The entry in the file ``path``; one that is not a regular file inside the root, is
    too large or is not UTF-8 is a located error."""
    return parse_entry(_rel(project, path), read_changelog_file(project, path, "entry"))


def read_changelog_file(project: Project, path: Path, what: str) -> str:
    """The text of a changelog ``what`` (``entry``, ``note``), read as every input is
    (see ``io.reads``): a regular file inside the root, bounded, UTF-8; else an error.
    Lines end in ``\n``: a checkout that ends them in ``\r\n`` (Windows) reads the same."""
    return as_lf_text(read_changelog_as_written(project, path, what))


def read_changelog_as_written(project: Project, path: Path, what: str) -> str:
    """The text of a changelog ``what`` as ``read_changelog_file`` reads it, line ends and
    all (an entry docgen adds a release to keeps them)."""
    return read_input(path, Inside(project.root), f"changelog {what}", display=_rel(project, path))


def _rel(project: Project, path: Path) -> str:
    return path.relative_to(project.root).as_posix()


@lru_cache(maxsize=256)
def parse_entry(path: str, text: str) -> Entry:
    """The entry at project-relative ``path`` whose text is ``text`` (parsed once: a
    command reads the entries in several places, and an entry is immutable)."""
    return Entry(path, text, tuple(_sections(text)))


def _sections(text: str) -> Iterator[Section]:
    lines = text.split("\n")
    # A heading in fenced code is code: it starts no release.
    starts = [i for i, line in prose_lines(lines, comments=False) if HEADING.match(line)]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        match = HEADING.match(lines[start])
        assert match is not None
        yield Section(match[1], start + 1, tuple(lines[start + 1 : end]))


def entries(project: Project) -> list[Entry]:
    """Every dated entry on disk, in file name order."""
    return [read_entry(project, p) for p in entry_files(project)]


def known_versions(project: Project) -> dict[str, Location]:
    """Version -> where an entry holds it: its ``## vX.Y.Z`` heading."""
    return {s.version: Location(e.path, s.line, 1) for e in entries(project) for s in e.sections}


def agent_base(registry: Registry, agent: str) -> str:
    """The root-absolute route an agent's pages are published under, without ``/``."""
    return registry.product.docs_base.replace("{agent}", agent).rstrip("/")


def release_route(project: Project, day: str) -> str:
    """The route of the release page for the entry of ``day`` (the name if no date)."""
    date = entry_date(day)
    if date is None:
        return day
    return project.config.release_route.format(year=date.year, month=date.month, day=date.day)


def entry_date(day: str) -> _dt.date | None:
    """The real date ``day`` (an entry's name without ``.mdx``) writes as ``YYYY-MM-DD``,
    or None: on every Python, as ``check`` reads names (3.11 reads ``20260102`` too)."""
    named = DATED.match(f"{day}.mdx")
    try:
        return None if named is None else _dt.date.fromisoformat(named[1])
    except ValueError:  # 2026-02-30
        return None
