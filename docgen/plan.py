"""``plan()``: every output docgen owns, rendered in memory, with the registry nodes behind it.

``build`` writes this list, ``check`` compares it with disk, and the MkDocs and
pytest plugins serve it, so no two verbs can disagree.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from docgen import regions, variants
from docgen.config import Project
from docgen.errors import Location, PageError, TemplateError
from docgen.model import Profile, Registry, Source
from docgen.notice import NOTICE_MARK
from docgen.registry import load_registry

if TYPE_CHECKING:
    from docgen.render import Renderer
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
    kind: str = "page"  # page | region | variant | export

    @property
    def owned(self) -> bool:
        """Whether docgen owns the whole file (a region page is the author's)."""
        return self.kind != "region"


@dataclass(frozen=True)
class Plan:
    registry: Registry
    outputs: tuple[Output, ...]
    #: Every published page (not variants) with the ids of the agents it is published for.
    pages: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: False for a cached plan without the registry's profiles and the outputs' sources.
    complete: bool = True

    def by_path(self) -> dict[str, Output]:
        return {o.path: o for o in self.outputs}


def plan(project: Project, registry: Registry | None = None) -> Plan:
    """Render every output of ``project`` in memory; raise on the first broken input."""
    from docgen.render import Renderer

    reg = registry or load_registry(project)
    renderer = Renderer(reg, [project.path(project.config.templates)])
    pages = list(_pages(project, reg, renderer))
    hand = list(_hand_written(project, reg, renderer, {o.path for o, _ in pages}))
    outputs = [o for o, _ in pages] + [h.output for h in hand if h.output is not None]
    shared = [(o.path, raw) for o, raw in pages if o.path.endswith(".mdx")]
    behind = {o.path: o.sources for o, _ in pages}
    shared += [(h.path, h.text) for h in hand if variants.is_shared(h.text, reg.product.cli_token)]
    audiences: dict[str, tuple[str, ...]] = {}
    outputs += _variants(project, reg, shared, audiences, behind)
    outputs.append(_export(project, reg))
    overview = _overview(project, reg)
    if overview is not None:
        outputs.append(overview)
    everyone = tuple(a.id for a in reg.agents)
    published = [o.path for o, _ in pages if o.path.endswith(".mdx")] + [h.path for h in hand]
    return Plan(reg, tuple(outputs), tuple((p, audiences.get(p, everyone)) for p in published))


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


def _pages(project: Project, reg: Registry, renderer: Renderer) -> Iterator[tuple[Output, str]]:
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
) -> tuple[Output, str]:
    context: dict[str, Any] = {"page": {"path": path, "template": display}}
    if profile is not None:
        context["profile"] = profile
    text = renderer.render(name, display, **context)
    if not text.strip():
        raise TemplateError.at(Location(display, 1), "template rendered an empty page")
    note = notice(display, reg.path)
    sources = _profile_sources(profile) if profile else _all_sources(reg)
    return Output(path, with_notice(text, note), display, sources), text


def hand_written_pages(project: Project, skip: set[str]) -> list[Path]:
    """MDX pages under the docs folder that people write (no notice, not generated)."""
    docs = project.path(project.config.docs)
    if not docs.is_dir():
        return []
    variants_dir = project.path(project.config.variants)
    out = []
    for path in sorted(docs.rglob("*.mdx")):
        rel = path.relative_to(project.root).as_posix()
        if rel in skip or path.is_symlink() or variants_dir in path.parents:
            continue
        out.append(path)
    return out


@dataclass(frozen=True)
class HandPage:
    """A page a person wrote; ``output`` is set when docgen fills regions in it."""

    path: str
    text: str
    output: Output | None


def _hand_written(
    project: Project, reg: Registry, renderer: Renderer, skip: set[str]
) -> Iterator[HandPage]:
    custom = _custom_regions(project)
    for path in hand_written_pages(project, skip):
        text = read_text(project, path)
        if owned(text):
            continue
        rel = project_relative(project, path)
        if regions.has_markers(text):
            text = regions.fill(rel, text, renderer, custom)
            yield HandPage(rel, text, Output(rel, text, rel, _all_sources(reg), kind="region"))
        else:
            yield HandPage(rel, text, None)


def read_text(project: Project, path: Path) -> str:
    """A page's text; invalid UTF-8 is a located error at its project path."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        where = Location(project_relative(project, path), line)
        raise PageError.at(where, "invalid UTF-8 in page") from None


def _custom_regions(project: Project) -> set[str]:
    folder = project.path(project.config.templates) / "_regions"
    if not folder.is_dir():
        return set()
    return {p.name[: -len(".mdx.j2")] for p in folder.glob("*.mdx.j2")}


def variant_path(project: Project, source: str, agent: str) -> str:
    """Where an agent's variant of ``source`` goes.

    ``docs/inference/x.mdx`` -> ``docs/_build/agent-variants/inference/x.hermes.generated.mdx``.
    """
    cfg = project.config
    rel = PurePosixPath(source).relative_to(cfg.docs)
    folder = rel.parent.as_posix()
    name = cfg.variant_pattern.format(dir=folder, stem=rel.stem, agent=agent)
    return posixpath.normpath(f"{cfg.variants}/{name}")


def _variants(
    project: Project,
    reg: Registry,
    shared: list[tuple[str, str]],
    audiences: dict[str, tuple[str, ...]],
    behind: dict[str, tuple[Source, ...]],
) -> Iterator[Output]:
    token = reg.product.cli_token
    for source, text in shared:
        page = variants.parse(source, text, reg.agents)
        audience = variants.published_for(page, reg.agents)
        audiences[source] = tuple(a.id for a in audience)
        variants.check(page, audience, token)
        if len(audience) < 2 and token not in text and "<AgentOnly" not in text:
            continue
        for agent in audience:
            target = variant_path(project, source, agent.id)
            body = variants.render(page, agent, token, target)
            note = notice(f"{source} (the {agent.id} variant)", reg.path)
            sources = behind.get(source) or _all_sources(reg)
            yield Output(target, with_notice(body, note), source, sources, "variant")


def _overview(project: Project, reg: Registry) -> Output | None:
    """``<changelog>/overview.mdx``: every release, newest first, linked to its entry."""
    from docgen import changelog

    releases = []
    for entry in changelog.entries(project):
        day = entry.path.rsplit("/", 1)[-1][: -len(".mdx")]
        for section in entry.sections:
            summary = next((line for line in section.lines if line.strip()), "")
            releases.append((section.version, day, summary))
    if not releases:
        return None
    text = changelog.overview_text(project, reg, releases)
    note = notice(f"the entries in {project.config.changelog}/", reg.path)
    path = f"{project.config.changelog}/overview.mdx"
    return Output(path, with_notice(text, note), path, (), "page")


def _profile_sources(profile: Profile) -> tuple[Source, ...]:
    out = [profile.source, profile.model.source, profile.host.source]
    if profile.image:
        out.append(profile.image.source)
    out += [a.source for a in profile.args]
    for override in profile.overrides:
        out += [override.source, *(a.source for a in override.args)]
    return tuple(out)


_ALL_SOURCES: dict[int, tuple[Registry, tuple[Source, ...]]] = {}


def _all_sources(reg: Registry) -> tuple[Source, ...]:
    """Every registry node a whole-registry page can show (computed once per registry)."""
    cached = _ALL_SOURCES.get(id(reg))
    if cached is not None and cached[0] is reg:
        return cached[1]
    result = _collect_sources(reg)
    _ALL_SOURCES.clear()
    _ALL_SOURCES[id(reg)] = (reg, result)
    return result


def _collect_sources(reg: Registry) -> tuple[Source, ...]:
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
    return Output(project.config.export, text, "docgen export", _all_sources(reg), "export")


def owned(text: str) -> bool:
    """Whether a file's text carries docgen's notice near its top."""
    return NOTICE_MARK in text[:2000]


def project_relative(project: Project, path: Path) -> str:
    return path.relative_to(project.root).as_posix()
