"""A new release checked before it is written: the history rules on the text it adds, each
problem placed where that text came from (a note's line, the ``--summary`` flag).

``check`` applies the same rules to every entry on disk, and an entry is history that
docgen never rewrites: a release that broke one would fail every later ``check``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from docgen.changelog.entries import parse_entry, parse_version
from docgen.changelog.history import check_entry
from docgen.errors import BREAKING, ConfigError, Location, Problem, surrogate_problem
from docgen.registry.model import Registry

if TYPE_CHECKING:
    from docgen.changelog.compose import Release


def summary_problem(summary: str) -> str | None:
    """Why ``summary`` cannot be a release's summary, one line of text; None when it can."""
    found = BREAKING.search(summary)
    if found is not None:
        return (
            f"the summary is one line of text, but it holds U+{ord(found[0]):04X}, a line "
            "break or control character"
        )
    if not summary.strip():
        return "the summary is empty; give a sentence, or leave --summary out"
    if summary.rstrip().endswith("\\"):
        return (
            "the summary ends in a backslash, which would escape the full stop that ends its "
            "sentence: end it with a word or a punctuation mark"
        )
    lone = surrogate_problem(summary)
    return None if lone is None else f"the summary is no text to write: {lone}"


def refuse_broken(
    path: str,
    head: str,
    release: Release,
    existing: str | None,
    registry: Registry,
    routes: set[str],
) -> None:
    """Raise a located error for every history rule the new release breaks: in its own
    text (as the entry ``path`` would hold it, under the header ``head``), or in its
    order above the releases already in that entry (``existing``)."""
    section = release.section()
    text = f"{head}\n{section}" if head else section
    offset = head.count("\n") + 1 if head else 0
    found = check_entry(parse_entry(path, text), registry, routes)
    origins = {  # the entry's line number -> where the user wrote that line, and its shift
        offset + number: (origin, shift)
        for number, (origin, shift) in enumerate(
            zip(release.origins, release.shifts or [None] * len(release.origins), strict=True),
            start=1,
        )
        if origin is not None
    }
    problems = [_placed(p, origins) for p in found]
    problems += _order(path, release, existing)
    if problems:
        raise ConfigError(problems)


def _placed(problem: Problem, origins: dict[int, tuple[Location, int | None]]) -> Problem:
    """``problem`` at the note line (and column) or flag its line came from; one in what
    docgen worded stays at the entry's line, and says so."""
    where = problem.location
    found = origins.get(where.line) if where is not None and where.line else None
    if found is not None:
        origin, shift = found
        if shift is not None and where is not None and where.col:
            origin = replace(origin, col=max(1, where.col + shift))
        return replace(problem, location=origin)
    return replace(problem, message=f"{problem.message} (in the release docgen would write)")


def _order(path: str, release: Release, existing: str | None) -> list[Problem]:
    """The new release goes on top of the entry: it must be newer than the releases there."""
    sections = parse_entry(path, existing).sections if existing is not None else ()
    if not sections:
        return []
    top = sections[0]
    new = parse_version(release.version, Location("--version"))
    if new > parse_version(top.version, Location(path, top.line)):
        return []
    message = (
        f"{release.version} would go on top of {top.version} in {path}, but is not newer: "
        "an entry lists its releases newest first"
    )
    return [Problem(message, Location("--version"), rule="changelog-order")]
