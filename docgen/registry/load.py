"""Load ``profiles.yaml``: read it safely, check it against schema and rules, build the model.

Every problem found is collected and raised once, sorted by location, so a user
fixes a whole registry in one round.
"""

from __future__ import annotations

from pathlib import Path

from docgen.config import Project
from docgen.errors import Location, Problem, RegistryError, decode
from docgen.registry import schema
from docgen.registry.builder import build
from docgen.registry.fastyaml import load_fast
from docgen.registry.model import Registry
from docgen.registry.rules import Checker
from docgen.registry.source import load_text

#: Largest registry file docgen reads (bounded time and memory on hostile input).
MAX_BYTES = 4_000_000


def load_registry(project: Project) -> Registry:
    """The validated registry of a project."""
    return load(project.registry_path, project.config.registry)


def load(path: Path, display: str | None = None) -> Registry:
    """Read, validate and build the registry at ``path``; raise RegistryError."""
    name = display or path.name
    if path.is_symlink() and not _within(path):
        raise RegistryError.at(
            Location(name),
            "the registry is a symbolic link that leaves "
            "the project root; docgen reads only files inside it",
        )
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise RegistryError.at(
                Location(name, 1, 1),
                f"the registry is {size / 1e6:.1f} MB; "
                f"docgen reads registries up to {MAX_BYTES / 1e6:.0f} MB",
            )
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RegistryError.at(Location(name), "registry file not found") from None
    except OSError as exc:
        raise RegistryError.at(Location(name), f"cannot read registry: {exc.strerror}") from None
    return load_bytes(raw, name)


def _within(path: Path) -> bool:
    root = path.parent.resolve()
    return path.resolve().is_relative_to(root)


def load_bytes(raw: bytes, name: str) -> Registry:
    """Validate and build; libyaml reads the text unless ruamel.yaml must (see fastyaml)."""
    from docgen.heap import collector_paused

    with collector_paused():  # everything built here stays alive: nothing to collect
        return _load_text(decode(raw, name), name)


def _load_text(text: str, name: str) -> Registry:
    doc = load_fast(text, name) or load_text(text, name)
    if not isinstance(doc.data, dict):
        raise RegistryError.at(
            doc.positions.of_value(()), "the registry must be a mapping of sections"
        )
    if schema.is_valid(doc.data):
        problems = Checker(doc).run()
    else:
        problems = schema.validate(doc.data, doc.positions) + Checker(doc).run()
    if problems:
        raise RegistryError(sorted(problems, key=_order))
    return build(doc)


def _order(problem: Problem) -> tuple[int, int, str]:
    loc = problem.location
    return (loc.line, loc.col, problem.message) if loc else (0, 0, problem.message)
