"""Which template files become pages, and where: one per template, or one per profile."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TypedDict

from docgen.config import Project, setting_location
from docgen.errors import ConfigError, Location, Problem, one_line
from docgen.io.files import listing, stray_templates, vet_name
from docgen.registry.model import Profile
from docgen.render.file_kinds import refuse_unknown


class PageInfo(TypedDict):
    """``page`` in a page template: where the page goes and which template made it."""

    path: str
    template: str


class PageContext(TypedDict, total=False):
    """What a page template receives: ``page`` always, ``profile`` once per profile."""

    page: PageInfo
    profile: Profile


#: In a template's name, the slot a profile id fills: the template renders once per profile.
PROFILE_SLOT = "[profile]"


def page_templates(project: Project) -> list[str]:
    """Template names (POSIX, relative to the templates folder) that become pages; a
    template whose path holds a control character is a located error."""
    root = project.path(project.config.templates)
    _refuse_stray_templates(project)  # with no templates folder too: where one was meant
    if not root.is_dir():
        written = setting_location(project.root, "templates")
        if written.line:  # a folder the settings name must be there (a typo would prune)
            raise ConfigError.at(
                written,
                f"the templates folder '{one_line(project.config.templates)}' "
                "does not exist or is not a folder",
            )
        return []
    listing(project, project.config.templates)  # a folder it cannot list is an error
    names = []
    for path in root.rglob("*.[jJ]2"):
        shown = vet_name(path.relative_to(project.root).as_posix())
        rel = PurePosixPath(path.relative_to(root).as_posix())
        if not any(part.startswith(("_", ".")) for part in rel.parts):
            if not path.name.endswith(".j2"):  # left out, it would never render: say so
                raise ConfigError.at(
                    Location(shown), "a page template's name ends in .j2, in lowercase"
                )
            refuse_unknown(str(rel), path.relative_to(project.root).as_posix())
            names.append(str(rel))
    return sorted(names)


def _refuse_stray_templates(project: Project) -> None:
    """Each stray template (see ``stray_templates``), said where it goes."""
    docs, templates = project.config.docs.strip("/"), project.config.templates.strip("/")
    problems = [
        Problem(
            "a template under the docs folder is never rendered: move it to "
            f"{templates}/{rel[len(docs) + 1 :]}",
            Location(vet_name(rel)),
        )
        for rel in stray_templates(project)
    ]
    if problems:
        raise ConfigError(problems)


def page_path(project: Project, name: str) -> str:
    """The project-relative page template ``name`` renders to (before a profile fills
    its slot): ``models.mdx.j2`` -> ``docs/models.mdx``."""
    return f"{project.config.docs}/{name[: -len('.j2')]}"
