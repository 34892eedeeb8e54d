"""``plan()``: every output docgen owns, rendered in memory, with the registry nodes behind it.

``build`` writes this list, ``check`` compares it with disk, and the MkDocs and
pytest plugins serve it, so no two verbs can disagree.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from docgen.config import Project
from docgen.errors import Location, TemplateError
from docgen.model import Profile, Registry, Source
from docgen.registry import load_registry
from docgen.render import NOTICE_MARK, Renderer
from docgen.serve import serve_command

PROFILE_SLOT = "[profile]"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class Output:
    """One file docgen owns: project-relative POSIX path, full text, provenance."""

    path: str
    text: str
    origin: str
    sources: tuple[Source, ...] = ()


@dataclass(frozen=True)
class Plan:
    registry: Registry
    outputs: tuple[Output, ...]

    def by_path(self) -> dict[str, Output]:
        return {o.path: o for o in self.outputs}


def plan(project: Project, registry: Registry | None = None) -> Plan:
    """Render every output of ``project`` in memory; raise on the first broken input."""
    reg = registry or load_registry(project)
    renderer = Renderer(reg, [project.path(project.config.templates)])
    outputs = [*_pages(project, reg, renderer), _export(project, reg)]
    return Plan(reg, tuple(outputs))


def notice(origin: str, registry: str, comment: str = "mdx") -> str:
    """The generated-file notice that marks a file as docgen's to rewrite or delete."""
    text = (
        f"This file is {NOTICE_MARK} from {registry} and {origin}. "
        "Do not edit it by hand: change those and run `docgen build`."
    )
    return f"{{/* {text} */}}" if comment == "mdx" else text


def with_notice(text: str, note: str) -> str:
    """Insert ``note`` after the frontmatter (or at the top when there is none)."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            cut = end + len("\n---\n")
            return f"{text[:cut]}\n{note}\n{text[cut:]}"
    return f"{note}\n\n{text}"


def page_templates(project: Project) -> list[str]:
    """Template names (POSIX, relative to the templates folder) that become pages."""
    root = project.path(project.config.templates)
    if not root.is_dir():
        return []
    names = []
    for path in root.rglob("*.j2"):
        rel = PurePosixPath(path.relative_to(root).as_posix())
        if not any(part.startswith(("_", ".")) for part in rel.parts):
            names.append(str(rel))
    return sorted(names)


def _pages(project: Project, reg: Registry, renderer: Renderer) -> Iterator[Output]:
    cfg = project.config
    for name in page_templates(project):
        display = f"{cfg.templates}/{name}"
        target = f"{cfg.docs}/{name[: -len('.j2')]}"
        if PROFILE_SLOT in name:
            for profile in reg.profiles.values():
                path = target.replace(PROFILE_SLOT, profile.id)
                yield _render(renderer, reg, name, display, path, profile=profile)
        else:
            yield _render(renderer, reg, name, display, target)


def _render(
    renderer: Renderer,
    reg: Registry,
    name: str,
    display: str,
    path: str,
    profile: Profile | None = None,
) -> Output:
    context: dict[str, Any] = {"page": {"path": path, "template": display}}
    if profile is not None:
        context["profile"] = profile
    text = renderer.render(name, display, **context)
    if not text.strip():
        raise TemplateError.at(Location(display, 1), "template rendered an empty page")
    note = notice(display, reg.path)
    sources = _profile_sources(profile) if profile else _all_sources(reg)
    return Output(path, with_notice(text, note), display, sources)


def _profile_sources(profile: Profile) -> tuple[Source, ...]:
    out = [profile.source, profile.model.source, profile.host.source]
    if profile.image:
        out.append(profile.image.source)
    out += [a.source for a in profile.args]
    for override in profile.overrides:
        out += [override.source, *(a.source for a in override.args)]
    return tuple(out)


def _all_sources(reg: Registry) -> tuple[Source, ...]:
    out: list[Source] = [a.source for a in reg.agents]
    out += [h.source for h in reg.hosts.values()]
    out += [i.source for i in reg.images.values()]
    out += [m.source for m in reg.models.values()]
    for profile in reg.profiles.values():
        out += _profile_sources(profile)
    return tuple(dict.fromkeys(out))


def export_data(reg: Registry) -> dict[str, Any]:
    """The machine-readable registry for runtime code (shape version 1)."""
    return {
        "$comment": notice("docgen's export", reg.path, comment="plain"),
        "version": EXPORT_VERSION,
        "product": reg.product.name,
        "agents": [
            {"id": a.id, "cli": a.cli, "env": dict(a.env), "default": a.default} for a in reg.agents
        ],
        "profiles": [_export_profile(p) for p in reg.profiles.values()],
    }


def _export_profile(p: Profile) -> dict[str, Any]:
    return {
        "id": p.id,
        "model": p.model.id,
        "hf": p.model.hf,
        "host": p.host.id,
        "default": p.default,
        "support": p.support,
        "selection": p.selection,
        "image": None if p.image is None else {"ref": p.image.ref, "digest": p.image.digest},
        "env": dict(p.env),
        "argv": serve_command(p).argv,
        "overrides": {o.id: list(o.tokens) for o in p.overrides},
    }


def _export(project: Project, reg: Registry) -> Output:
    text = json.dumps(export_data(reg), indent=2, ensure_ascii=False) + "\n"
    return Output(project.config.export, text, "docgen export", _all_sources(reg))


def owned(text: str) -> bool:
    """Whether a file's text carries docgen's notice near its top."""
    return NOTICE_MARK in text[:2000]


def project_relative(project: Project, path: Path) -> str:
    return path.relative_to(project.root).as_posix()
