"""The units of work a plan renders: every page a template renders (once per profile for
a ``[profile]`` template), then every hand-written page, each with the key a record
keeps it under (see ``docgen.incremental``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docgen import incremental
from docgen.config import Project
from docgen.io import files
from docgen.registry.model import Registry
from docgen.render.pages import PROFILE_SLOT, page_templates


@dataclass(frozen=True)
class Job:
    """One page a template renders (once per profile for a ``[profile]`` template)."""

    name: str
    display: str
    path: str
    profile: str | None = None


def every_unit(project: Project, reg: Registry) -> list[Job | Path]:
    """The units of work: every template page, then every hand-written page."""
    jobs = list(_jobs(project, reg))
    return [*jobs, *_hand_written_pages(project, {j.path for j in jobs})]


def unit_key(project: Project, unit: Job | Path) -> incremental.UnitKey:
    """What a record keeps ``unit`` under (see ``docgen.incremental``)."""
    if isinstance(unit, Job):
        return ("job", unit.name, unit.profile or "")
    return ("page", unit.relative_to(project.root).as_posix(), "")


def _jobs(project: Project, reg: Registry) -> Iterator[Job]:
    cfg = project.config
    for name in page_templates(project):
        display = f"{cfg.templates}/{name}"
        target = f"{cfg.docs}/{name[: -len('.j2')]}"
        if PROFILE_SLOT in name:
            for profile in reg.profiles:
                yield Job(name, display, target.replace(PROFILE_SLOT, profile), profile)
        else:
            yield Job(name, display, target)


def _hand_written_pages(project: Project, skip: set[str]) -> list[Path]:
    """MDX pages under the docs folder that people write (no notice, not generated).

    The variants folder is not entered, and neither is a linked folder or file: a page
    is read only where it really lies inside the docs folder (never a FIFO or a device).
    """
    pages = [f for f in files.pages(project) if f.kind == files.FILE and f.rel not in skip]
    return sorted((Path(f.path) for f in pages), key=lambda path: path.parts)
