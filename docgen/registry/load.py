"""Load ``profiles.yaml``: read it safely, check it against schema and rules, build the model.

Every problem found is collected and raised once, sorted by location, so a user
fixes a whole registry in one round.
"""

from __future__ import annotations

from pathlib import Path

from docgen import parallel
from docgen.config import Project
from docgen.errors import Problem, RegistryError, decode
from docgen.io import files
from docgen.registry import schema
from docgen.registry.builder import build
from docgen.registry.fastyaml import load_fast
from docgen.registry.model import Registry
from docgen.registry.rules import Checker
from docgen.registry.source import Document, load_text

#: Largest registry file docgen reads (bounded time and memory on hostile input).
MAX_BYTES = files.MAX_BYTES


def load_registry(project: Project) -> Registry:
    """The validated registry of a project."""
    return load(project.registry_path, project.config.registry, project.root)


def load(path: Path, display: str | None = None, root: Path | None = None) -> Registry:
    """Read, validate and build the registry at ``path``; raise RegistryError.

    The file is read only inside ``root`` (default: its own folder), through any link,
    a regular file of at most ``MAX_BYTES``.
    """
    name = display or path.name
    inside = files.Inside(root if root is not None else path.parent)
    raw = files.read_input_bytes(
        path,
        inside,
        "registry",
        display=name,
        error=RegistryError,
        missing="registry file not found",
    )
    return load_bytes(raw, name)


def load_bytes(raw: bytes, name: str, start_rules: bool = True) -> Registry:
    """Validate and build; libyaml reads the text unless ruamel.yaml must (see fastyaml).

    ``start_rules=False`` skips vLLM's start-time rules between flags: an older state of the
    registry (the base of a diff) may break one that the newer state fixes.
    """
    from docgen.heap import collector_paused

    with collector_paused():  # everything built here stays alive: nothing to collect
        return _load_text(decode(raw, name), name, start_rules)


def unchecked(raw: bytes, name: str) -> Registry | None:
    """The model of ``raw`` built without the rules: what an older state of the registry
    held (history need not pass today's rules, but it must have the schema's shape, which
    every reader of a model relies on); None when its text cannot be read, does not fit
    the schema, or no model can be built from it."""
    from docgen.heap import collector_paused

    try:
        with collector_paused():
            text = decode(raw, name)
            doc = load_fast(text, name) or load_text(text, name)
            return build(doc) if schema.is_valid(doc.data) else None
    except Exception:  # noqa: BLE001 - rules unchecked: the builder may break anywhere
        return None


def _load_text(text: str, name: str, start_rules: bool = True) -> Registry:
    """Check, then build. A large registry is checked by a forked copy while this process
    builds the model; the model of a registry the checks refuse is thrown away."""
    doc = load_fast(text, name) or load_text(text, name)
    if not isinstance(doc.data, dict):
        raise RegistryError.at(
            doc.positions.of_value(()), "the registry must be a mapping of sections"
        )
    checker = Checker(doc, start_rules=start_rules)

    def problems() -> list[Problem]:
        if schema.is_valid(doc.data):
            return checker.run()
        return schema.validate(doc.data, doc.positions) + checker.run()

    if len(text) < parallel.LARGE_REGISTRY:
        found, built = problems(), None
    else:
        found, built = parallel.beside(problems, lambda: _built(doc))
    if found:
        raise RegistryError(sorted(found, key=_order))
    if isinstance(built, Exception):
        raise built  # a registry the checks accept must build: this is a bug
    return build(doc) if built is None else built


def _built(doc: Document) -> Registry | Exception:
    """The model of a document not yet checked, or what building it raised."""
    try:
        return build(doc)
    except Exception as exc:  # an unchecked document may break the builder
        return exc


def _order(problem: Problem) -> tuple[int, int, str]:
    loc = problem.location
    return (loc.line, loc.col, problem.message) if loc else (0, 0, problem.message)
