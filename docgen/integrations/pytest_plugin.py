"""pytest plugin: ``pytest --docgen`` makes "the docs match the registry" ordinary tests.

One item per generated output (it fails with the diff and the registry lines behind
it) and one per changelog entry (it fails with each located finding). Registry or
template errors become one failing item that shows the located messages.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docgen.errors import DocgenError, Problem


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("docgen")
    group.addoption(
        "--docgen",
        action="store_true",
        help="Check that the generated docs match the registry, one item per file.",
    )
    group.addoption(
        "--docgen-root",
        metavar="DIR",
        default=None,
        help=(
            "Project root for --docgen, relative to where pytest runs (in the configuration "
            "file's addopts: to its folder) [default: the project `docgen check` finds from "
            "where pytest runs (the nearest folder upward that holds docgen.toml, "
            "[tool.docgen] or profiles.yaml) when it lies within pytest's rootdir or holds "
            "it; else the rootdir]."
        ),
    )


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if not config.getoption("docgen"):
        return
    root = _project_root(config)
    collector = DocgenProject.from_parent(session, path=root, name="docgen")
    found: list[pytest.Item | pytest.Collector] = list(collector.collect())
    # Reported as any collector's result, so "collected N items" and --collect-only count them.
    report = pytest.CollectReport(collector.nodeid, "passed", None, found)
    config.hook.pytest_collectreport(report=report)
    items.extend(item for item in found if isinstance(item, pytest.Item))


def _project_root(config: pytest.Config) -> Path:
    """``--docgen-root``, else the project the ``docgen`` command would find from where
    pytest runs (see ``discovery.find_project``) when it lies within pytest's rootdir (a
    ``setup.py`` above a project must not take the run away from it) or holds it (pytest
    run in the project's ``docs/``, where no configuration file roots it higher), else the
    rootdir."""
    from docgen.discovery import nearest_project

    given = config.getoption("docgen_root")
    if given:
        return _base_of_root(config) / str(given)
    rootdir = Path(config.rootpath).absolute()
    found = nearest_project(Path(config.invocation_params.dir))
    if found is not None and (found in (rootdir, *rootdir.parents) or rootdir in found.parents):
        return found
    return rootdir


def _base_of_root(config: pytest.Config) -> Path:
    """Where a relative ``--docgen-root`` starts: the folder pytest runs in when the
    command line or ``PYTEST_ADDOPTS`` gives it, else (the configuration file's
    ``addopts``) that file's folder."""
    typed = [*map(str, config.invocation_params.args)]
    typed += shlex.split(os.environ.get("PYTEST_ADDOPTS", ""))
    if any(arg.split("=")[0] == "--docgen-root" for arg in typed):
        return Path(config.invocation_params.dir)
    return Path(config.inipath.parent if config.inipath else config.rootpath)


class DocgenFailure(Exception):
    """A mismatch or a broken rule, shown without a Python traceback."""


class DocgenProject(pytest.Collector):
    """Checks the project once and yields an item per output and per changelog entry."""

    def collect(self) -> Iterator[pytest.Item]:
        from docgen.changelog.entries import entry_files
        from docgen.config import load_project
        from docgen.verbs.build import check

        try:
            project = load_project(self.path)
            report = check(project)
            entries = [p.relative_to(project.root).as_posix() for p in entry_files(project)]
        except DocgenError as exc:  # said with the project it is about (--docgen-root)
            where = f"in the docgen project at {self.path} (--docgen-root chooses another):"
            yield ProblemItem.from_parent(self, name="registry", problems=exc.problems, head=where)
            return
        for change in report.changes:
            yield OutputItem.from_parent(self, name=change.path, change=change)
        by_item: dict[str, list[Problem]] = {name: [] for name in [*entries, ACROSS_ENTRIES]}
        for problem in report.findings:
            path = problem.location.path if problem.location else ""
            across = problem.rule == UNIQUE_VERSIONS or path not in by_item
            by_item[ACROSS_ENTRIES if across else path].append(problem)
        for name, problems in by_item.items():
            yield ProblemItem.from_parent(self, name=name, problems=tuple(problems))


#: The history rule checked across entries, and the item that shows it (with any finding
#: that is not about one entry).
UNIQUE_VERSIONS = "changelog-version-unique"
ACROSS_ENTRIES = "changelog-versions-unique"


class DocgenItem(pytest.Item):
    """Shows a DocgenFailure as its plain text, without a Python traceback."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, DocgenFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"docgen: {self.name}"


class OutputItem(DocgenItem):
    def __init__(self, *, change: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.change = change

    def runtest(self) -> None:
        from docgen.report import drift_failure

        if self.change.status != "unchanged":
            raise DocgenFailure(drift_failure(self.change))


class ProblemItem(DocgenItem):
    def __init__(self, *, problems: tuple[Problem, ...], head: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems, self.head = problems, head

    def runtest(self) -> None:
        if self.problems:
            lines = [self.head] if self.head else []
            raise DocgenFailure("\n".join([*lines, *(str(p) for p in self.problems)]))
