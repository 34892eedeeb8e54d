"""``<changelog>/overview.mdx``: the list of releases docgen writes from the entries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from docgen.config import Project
from docgen.errors import Location
from docgen.outputs import Output
from docgen.registry.model import Registry, Source
from docgen.render.syntax import notice, with_notice

if TYPE_CHECKING:
    from docgen.changelog.entries import Entry


def overview_output(
    project: Project, reg: Registry, entries: Sequence[Entry] | None = None
) -> Output | None:
    """``<changelog>/overview.mdx``: every release, newest first, linked to its entry.

    ``entries`` defaults to the ones on disk; ``docgen changelog`` passes them with the
    entry it is about to write, to refresh the overview in the same command; an entry
    whose file name is no date is left out (``check`` says so at the file). Each
    release's heading is a source, so drift names the entry behind it. None with the
    setting ``overview = "none"``: the project keeps its own overview, or none.
    """
    from docgen.changelog import entries as changelog
    from docgen.changelog.notes import overview_text

    if project.config.overview == "none":
        return None
    releases = []
    sources = []
    for entry in changelog.entries(project) if entries is None else entries:
        if changelog.entry_date(entry.day) is None:
            continue  # a file named as no date (its own error): no release day to list
        for section in entry.sections:
            summary = next((line for line in section.lines if line.strip()), "")
            releases.append((section.version, entry.day, summary))
            where = Location(entry.path, section.line, 1)
            sources.append(Source((section.version,), where, section.version))
    if not releases:
        return None
    text = overview_text(project, reg, releases)
    note = notice(f"the entries in {project.config.changelog}/", reg.path)
    path = f"{project.config.changelog}/{changelog.OVERVIEW}"
    noticed = with_notice(text, note, Location(path, 1), path)
    return Output(path, noticed, path, tuple(sources), "page", basis="changelog")
