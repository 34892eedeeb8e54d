"""Project settings: ``[tool.docgen]`` in pyproject.toml or a ``docgen.toml``.

Every path is relative to the project root and may not leave it.
"""

from __future__ import annotations

import os
import posixpath
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path, PurePosixPath
from typing import Any

from docgen.errors import (
    ConfigError,
    Location,
    Problem,
    did_you_mean,
    one_line,
)
from docgen.setting_values import NAME_BYTES as NAME_BYTES
from docgen.setting_values import (
    PRODUCTS,
    checked_path,
    link_problem,
    placement_problem,
    products_problem,
    routes_problems,
    text_problem,
)
from docgen.settings_file import docgen_table, key_location, settings_text, toml_position

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class Config:
    """Where a project keeps its inputs and outputs, relative to its root."""

    registry: str = "profiles.yaml"
    templates: str = "templates"
    docs: str = "docs"
    changelog: str = "changelog"
    variants: str = "docs/_build/agent-variants"
    variant_pattern: str = "{dir}/{stem}.{agent}.generated.mdx"
    export: str = "docs/_build/registry.json"
    fragments: str = "changelog.d"
    changelog_link: str = ""  # page a changelog bullet links to; default: first template page
    release_route: str = "release-notes/{year}/{month}/{day}"
    routes: Mapping[str, str] = field(default_factory=dict)  # page path -> published route
    navigation: str = ""  # Fern's navigation file; default: <docs>/index.yml when it exists
    fern_docs: str = ""  # Fern's docs.yml (its redirects); default: fern/docs.yml when it exists
    overview: str = "generated"  # the changelog overview: "generated", or "none" (kept by hand)
    #: Outputs ``build`` writes and ``check`` does not compare (``PRODUCTS``' names).
    build_products: tuple[str, ...] = ()

    def route(self, page: str) -> str:
        """The published route of a page (``docs/a/b.mdx`` -> ``a/b`` unless mapped)."""
        if page in self.routes:
            return self.routes[page].strip("/")
        prefix = f"{self.docs}/"
        rel = page[len(prefix) :] if page.startswith(prefix) else page
        stem, dot, suffix = rel.rpartition(".")
        return stem if dot and "/" not in suffix else rel

    def build_product(self, path: str, kind: str | None = None) -> bool:
        """Whether ``path`` is a build product (setting ``build_products``), which
        ``build`` writes and ``check`` does not compare: a planned output by its
        ``kind``, a file found on disk (``kind`` None) by where it lies."""
        if kind is not None:
            return any(PRODUCTS[name] == kind for name in self.build_products)
        if "variants" in self.build_products and path.startswith(f"{self.variants}/"):
            return True
        return "export" in self.build_products and path == self.export


def setting_in(text: str, file: str, key: str) -> object:
    """Setting ``key`` as a settings file's ``text`` gives it (``docgen.toml``, else the
    ``[tool.docgen]`` table of a ``pyproject.toml``); None when it does not, or when the
    text is no TOML (an older revision's settings, read only to learn a folder)."""
    try:
        data: object = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    for table in () if file == "docgen.toml" else ("tool", "docgen"):
        data = data.get(table) if isinstance(data, dict) else None
    return data.get(key) if isinstance(data, dict) else None


PATH_FIELDS = (
    "registry",
    "templates",
    "docs",
    "changelog",
    "variants",
    "export",
    "fragments",
    "navigation",
    "fern_docs",
)


@dataclass(frozen=True)
class Project:
    """A project root with its settings; every verb starts from one."""

    root: Path
    config: Config
    registry_given: bool = False  # the registry named by --registry, not by the settings

    def path(self, relative: str) -> Path:
        return self.root / relative

    @property
    def registry_path(self) -> Path:
        return self.root / self.config.registry


def variant_path(project: Project, source: str, agent: str) -> str:
    """Where an agent's variant of ``source`` goes.

    ``docs/inference/x.mdx`` -> ``docs/_build/agent-variants/inference/x.hermes.generated.mdx``.
    """
    cfg = project.config
    folder, stem = _folder_and_stem(source, cfg.docs)
    name = cfg.variant_pattern.format(dir=folder, stem=stem, agent=agent)
    return posixpath.normpath(f"{cfg.variants}/{name}")


def _folder_and_stem(source: str, docs: str) -> tuple[str, str]:
    """``source``'s folder relative to ``docs`` ("." for ``docs`` itself) and its name
    without the last suffix, as PurePosixPath says them; by string operations where both
    paths are plain (each page of a large project asks three times)."""
    prefix = f"{docs}/"
    plain = f"/{source}/".find("/.") == -1 and "//" not in source and not source.endswith("/")
    if not (plain and source.startswith(prefix) and _PLAIN_FOLDER.fullmatch(docs)):
        rel = PurePosixPath(source).relative_to(docs)
        return rel.parent.as_posix(), rel.stem
    folder, _, name = source[len(prefix) :].rpartition("/")
    dot = name.rfind(".")
    return folder or ".", name[:dot] if 0 < dot < len(name) - 1 else name


#: A folder path PurePosixPath keeps as written: relative, no empty, "." or ".." part.
_PLAIN_FOLDER = re.compile(r"[^/.][^/]*(?:/[^/.][^/]*)*")


def load_project(root: Path, registry: str | None = None) -> Project:
    """Read the settings of the project at ``root``; ``registry`` overrides the file."""
    if not root.is_dir():
        what = "is not a directory" if os.path.lexists(root) else "does not exist"
        raise ConfigError.at(Location(str(root)), f"project root {what}")
    try:
        os.getcwd()
    except FileNotFoundError:  # "." still opens, but nothing names it
        raise ConfigError.at(Location(str(root)), "the current folder was deleted") from None
    config = _read_settings(root)
    if registry is not None:
        config = replace(config, registry=_relative(root, registry))
    _refuse_files_as_folders(root, config)
    return Project(root.resolve(), config, registry is not None)


#: The settings that name a folder, and the setting that names a file docgen writes.
FOLDER_FIELDS = ("templates", "docs", "changelog", "variants", "fragments")


def _refuse_files_as_folders(root: Path, config: Config) -> None:
    """A folder setting that names a file (``changelog = "profiles.yaml"``), or the export
    setting that names a folder, is an error at the setting: docgen would otherwise skip
    the history or fail to write, naming a page and not the setting."""
    problems = []
    for key in (*FOLDER_FIELDS, "export"):
        path = root / getattr(config, key)
        try:
            wrong = path.is_dir() if key == "export" else path.exists() and not path.is_dir()
        except OSError:  # a folder this user may not look into: the reads say so, located
            continue
        if wrong:
            must, found = ("file", "folder") if key == "export" else ("folder", "file")
            shown = one_line(getattr(config, key))
            where, setting = setting_location(root, key), f"'{key}'"
            if not where.line:  # not written in a settings file: the default names it
                where, setting = Location(shown), f"'{key}' (by default '{shown}')"
            message = f"setting {setting} must name a {must}; '{shown}' is a {found}"
            problems.append(Problem(message, where))
    if problems:
        raise ConfigError(problems)


def _relative(root: Path, given: str) -> str:
    path, where = Path(given), Location(one_line(given) or "--registry")
    if path.is_absolute():
        try:
            inside = path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            raise ConfigError.at(where, "the registry must lie inside the project root") from None
        return checked_path(inside, where)
    try:
        return checked_path(given, where)
    except ConfigError:
        meant = _from_the_root(root, path)
        if meant is None:
            raise
        raise ConfigError.at(
            Location("--registry"),
            "the path names a file from the project root, not from the current folder: "
            f"write '{one_line(meant)}'",
        ) from None


def _from_the_root(root: Path, path: Path) -> str | None:
    """The root-relative name of the file a relative ``path`` with ``..`` names from a
    folder below the root (the current one), when that name is one a setting may hold;
    else None."""
    try:
        here = Path.cwd().resolve()
        meant = (here / path).resolve().relative_to(root.resolve()).as_posix()
        checked_path(meant, Location("--registry"))
    except (OSError, ValueError, ConfigError):
        return None
    return meant if ".." in path.parts and here != root.resolve() else None


def _read_settings(root: Path) -> Config:
    toml, pyproject = root / "docgen.toml", root / "pyproject.toml"
    own = _parse(toml) if _settings_file(toml) else None
    tool = _pyproject_tool(pyproject, quietly=own is not None)
    table = docgen_table(tool, pyproject, alone=own is None)
    if own is not None and table is not None:
        raise ConfigError.at(
            Location(toml.name),
            "settings are in both docgen.toml and pyproject.toml's [tool.docgen]: keep one",
        )
    if own is not None:
        return _from_table(own, toml, "")
    return Config() if table is None else _from_table(table, pyproject, "[tool.docgen]")


def _pyproject_tool(path: Path, quietly: bool) -> Any:
    """The ``tool`` table of pyproject.toml, if any. Beside a docgen.toml (``quietly``)
    it is read only to tell settings in both files: a pyproject.toml docgen cannot read
    then (a link out of the root, bad TOML) is another tool's, and none of docgen's."""
    try:
        return _parse(path).get("tool") if _settings_file(path) else None
    except ConfigError:
        if quietly:
            return None
        raise


def _settings_file(path: Path) -> bool:
    """Whether a settings file lies at ``path``; a folder, a FIFO or a device there (or a
    link to one) is an error, not a file docgen quietly goes without."""
    if not os.path.lexists(path):
        return False
    if not path.is_file():
        raise ConfigError.at(Location(path.name), "the settings file is not a regular file")
    return True


def _parse(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(settings_text(path))
    except tomllib.TOMLDecodeError as exc:
        line, col = toml_position(str(exc))
        raise ConfigError.at(Location(path.name, line, col), f"invalid TOML: {exc}") from None


def _from_table(table: dict[str, Any], path: Path, section: str) -> Config:
    names = [f.name for f in fields(Config)]
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    for key, value in table.items():
        where = key_location(path, key)
        if key == "tool" and not section:  # [tool.docgen] copied from a pyproject.toml
            message = (
                "docgen.toml holds its settings at the top level: remove the [tool.docgen] line"
            )
            problems.append(Problem(message, where))
        elif key not in names:
            problems.append(Problem(f"unknown setting '{key}'{did_you_mean(key, names)}", where))
        elif key == "routes":
            found = routes_problems(value, path, where)
            problems += found
            if not found:
                values[key] = value
        elif key == "build_products":
            if (problem := products_problem(value)) is not None:
                problems.append(Problem(problem, where))
            values[key] = tuple(value) if isinstance(value, list) else ()
        elif not isinstance(value, str):
            problems.append(Problem(f"setting '{key}' must be a string", where))
        elif (problem := text_problem(key, value)) is not None:
            problems.append(Problem(problem, where))
        else:
            values[key] = checked_path(value, where) if key in PATH_FIELDS else value
            if key == "variant_pattern":
                checked_path(
                    value.replace("{dir}", "d").replace("{stem}", "s").replace("{agent}", "a"),
                    where,
                )
    if problems:
        raise ConfigError(problems)
    return _placed(Config(**values), path)


def _placed(config: Config, path: Path) -> Config:
    """``config``, unless ``changelog_link`` names no page, or a path lies where docgen must
    not write (``placement_problem``): a located error at that setting in the file ``path``."""
    if (problem := link_problem(config.changelog_link, config.docs)) is not None:
        raise ConfigError.at(key_location(path, "changelog_link"), problem)
    paths = {key: getattr(config, key) for key in PATH_FIELDS}
    paths["navigation"] = config.navigation or f"{config.docs}/index.yml"
    paths["fern_docs"] = config.fern_docs or "fern/docs.yml"
    if (found := placement_problem(path.parent, paths)) is not None:
        raise ConfigError.at(key_location(path, found[0]), found[1])
    return config


def setting_location(root: Path, key: str) -> Location:
    """Where the setting ``key`` is written (its line in docgen.toml or pyproject.toml), or
    the settings file alone when it is not written there (docgen.toml, when there is none)."""
    toml = root / "docgen.toml"
    path = toml if toml.is_file() else root / "pyproject.toml"
    return key_location(path, key) if path.is_file() else Location(toml.name)
