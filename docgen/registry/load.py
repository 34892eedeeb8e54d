"""Load ``profiles.yaml``: read it safely, check it against schema and rules, build the model.

Every problem found is collected and raised once, sorted by location, so a user
fixes a whole registry in one round.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path

from docgen import parallel
from docgen.config import Config, Project
from docgen.errors import Problem, RegistryError, decode
from docgen.io import files
from docgen.registry import schema
from docgen.registry.builder import build
from docgen.registry.fastyaml import load_fast
from docgen.registry.model import Registry
from docgen.registry.rules import Checker
from docgen.registry.source import Document, load_text
from docgen.registry.yaml_errors import refuse_foreign_breaks

#: Largest registry file docgen reads (bounded time and memory on hostile input).
MAX_BYTES = files.MAX_BYTES


def load_registry(project: Project) -> Registry:
    """The validated registry of a project."""
    return load_bytes(_project_bytes(project), project.config.registry)


def loaded(project: Project) -> AbstractContextManager[Registry]:
    """The registry of a project, for a block that may start work on it before the checks
    are done: see ``checked``."""
    name = project.config.registry
    return checked(decode(_project_bytes(project), name), name)


def _project_bytes(project: Project) -> bytes:
    """The bytes of a project's registry; a missing file is told where docgen looked and,
    for the default name, how to start a project."""
    missing = f"registry file not found in the project's folder {project.root}"
    if project.config.registry == Config().registry:
        missing += (
            ": start a project there with `docgen init`, or name its folder "
            "(--root; under pytest, --docgen-root)"
        )
    else:
        refuse_setting_of_no_file(project)
    return _read(project.registry_path, project.config.registry, project.root, missing)


def refuse_setting_of_no_file(project: Project) -> None:
    """A ``registry`` setting that names no file (nothing, or a folder): said at the
    setting, with the YAML files the root holds that it may have meant (nothing for a
    file that is there)."""
    folder = os.path.isdir(project.registry_path)
    if os.path.lexists(project.registry_path) and not folder:
        return
    from docgen.config import setting_location
    from docgen.errors import ConfigError, did_you_mean, one_line

    written = setting_location(project.root, "registry")
    if not written.line or project.registry_given:
        return  # given by --registry: said at the path, as any missing file
    near = [p.name for p in project.root.glob("*.y*ml") if p.is_file()]
    name = one_line(project.config.registry)
    what = "is a folder, not a file" if folder else "does not exist"
    raise ConfigError.at(written, f"the registry file '{name}' {what}{did_you_mean(name, near)}")


def load(path: Path, display: str | None = None, root: Path | None = None) -> Registry:
    """Read, validate and build the registry at ``path``; raise RegistryError.

    The file is read only inside ``root`` (default: its own folder), through any link,
    a regular file of at most ``MAX_BYTES``.
    """
    name = display or path.name
    return load_bytes(_read(path, name, root), name)


def _read(
    path: Path, name: str, root: Path | None, missing: str = "registry file not found"
) -> bytes:
    inside = files.Inside(root if root is not None else path.parent)
    return files.read_input_bytes(
        path, inside, "registry", display=name, error=RegistryError, missing=missing
    )


def load_bytes(raw: bytes, name: str, start_rules: bool = True) -> Registry:
    """Validate and build; libyaml reads the text unless ruamel.yaml must (see fastyaml).

    ``start_rules=False`` skips vLLM's start-time rules between flags: an older state of the
    registry (the base of a diff) may break one that the newer state fixes.
    """
    with checked(decode(raw, name), name, start_rules) as registry:
        return registry  # the checks' verdict is taken as the block ends


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
            return build(doc, history=True) if schema.is_valid(doc.data) else None
    except Exception:  # noqa: BLE001 - rules unchecked: the builder may break anywhere
        return None


@contextmanager
def checked(text: str, name: str, start_rules: bool = True) -> Iterator[Registry]:
    """The model of a registry ``text``, for the block, once its checks (schema and rules)
    pass; raise RegistryError with every problem they find.

    A large registry is checked by a forked copy while this process builds the model and
    goes on with the block: the verdict is taken when the block ends, and a registry the
    checks refuse raises its RegistryError then, in place of anything the block raised
    (an unchecked model may break whatever reads it). So the block must keep what it
    does to itself (in memory, or cleaned up as its error leaves) until it ends without
    error. A small registry (or any, where nothing is forked) is checked before the
    block starts.
    """
    from docgen.heap import collector_paused

    with ExitStack() as stack:
        with collector_paused():  # everything built here stays alive: nothing to collect
            held = [_document(text, name)]

            def problems() -> list[Problem]:
                """The copy checks the document it was forked with; this process lets go
                of it once the model is built, and parses the text again only to check
                it here (when the copy could not)."""
                return _problems(held[0] if held else _document(text, name), start_rules)

            if len(text) >= parallel.LARGE_REGISTRY and parallel.forks():
                verdict = stack.enter_context(parallel.started(problems))
            else:
                _refuse(_problems(held[0], start_rules))
                verdict = list  # nothing is left to find
            built = _built(held.pop())
        if isinstance(built, Exception):
            _refuse(verdict())
            raise built  # a registry the checks accept must build: this is a bug
        try:
            yield built
        except Exception:
            _refuse(verdict())
            raise
        _refuse(verdict())


def _document(text: str, name: str) -> Document:
    refuse_foreign_breaks(text, name)
    doc = load_fast(text, name) or load_text(text, name)
    if not isinstance(doc.data, dict):
        raise RegistryError.at(
            doc.positions.of_value(()), "the registry must be a mapping of sections"
        )
    return doc


def _problems(doc: Document, start_rules: bool) -> list[Problem]:
    """What is wrong with ``doc`` by the schema and the rules."""
    checker = Checker(doc, start_rules=start_rules)
    if schema.is_valid(doc.data):
        return checker.run()
    ruled = checker.run()
    said = {p.location for p in ruled}
    # An empty value the rules already word (``max-num-seqs:`` "cannot be null") is not
    # said a second time as the schema's list of types.
    shaped = [
        p
        for p in schema.validate(doc.data, doc.positions)
        if not (p.location in said and p.message.endswith(", got null"))
    ]
    return shaped + ruled


def _refuse(found: list[Problem]) -> None:
    if found:
        raise RegistryError(sorted(found, key=_order))


def _built(doc: Document) -> Registry | Exception:
    """The model of a document not yet checked, or what building it raised."""
    try:
        return build(doc)
    except Exception as exc:  # an unchecked document may break the builder
        return exc


def _order(problem: Problem) -> tuple[int, int, str]:
    loc = problem.location
    return (loc.line, loc.col, problem.message) if loc else (0, 0, problem.message)
