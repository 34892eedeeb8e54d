"""The ``docgen`` MkDocs plugin: the project's documentation as a site, from the same plan.

With ``plugins: [docgen]`` in mkdocs.yml, every page comes from ``plan()`` in memory
(nothing has to be built first), converted from Fern MDX to MkDocs Markdown, one
section per agent variant, release pages included. ``mkdocs serve`` rebuilds when the
registry, a template, a page, a changelog entry or the project settings change. Registry
and template errors fail the build with the same located lines ``docgen check`` prints.
The HTML of every page the plugin makes is sanitized (``safe_html``): page text and
entries are untrusted.

Options: ``root`` (the project, relative to mkdocs.yml; default its folder),
``registry`` (default from the project settings), ``agents`` (ids to publish;
default all) and ``unresolved_links`` (``info`` or ``warn``: how to report route
links that are not pages of the site; ``warn`` makes ``mkdocs build --strict`` fail).
"""

from __future__ import annotations

import logging
import os
import re
import stat
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from docgen.errors import DocgenError, Location, Problem
from docgen.io.reads import Inside

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.pages import Page

    from docgen.config import Project
    from docgen.integrations.preview import Site

log = logging.getLogger(f"mkdocs.plugins.{__name__}")
#: The line of mkdocs.yml that gives the plugin's agents.
_AGENTS = re.compile(r"\s*(?:-\s*)?agents\s*:")


class DocgenPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    root = c.Type(str, default=".")
    registry = c.Optional(c.Type(str))
    agents = c.ListOfItems(c.Type(str), default=[])
    unresolved_links = c.Choice(("info", "warn"), default="info")


class DocgenPlugin(BasePlugin[DocgenPluginConfig]):  # type: ignore[no-untyped-call]
    """Serve the project's pages, per agent, from ``plan()``."""

    project_root = Path(".")
    made: set[str] = set()  # the site paths of the pages this plugin made
    own_nav = False  # whether mkdocs.yml left the nav to the plugin
    config_file = ""  # mkdocs.yml, as MkDocs found it
    site: Site | None = None  # planned before this build cleaned the site folder

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        folder = Path(config.config_file_path or ".").resolve().parent
        self.project_root = (folder / self.config.root).resolve()
        self.own_nav = config.nav is None
        self.config_file = config.config_file_path or ""
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Plan the site before MkDocs empties ``site_dir``: a broken input fails the
        build with the site of the last good one still there."""
        self.site = self._site()

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        site, self.site = self.site or self._site(), None
        self.made = set()
        _refuse_outside(files, config.docs_dir, self.project_root)
        served = {file.dest_uri: file for file in files}  # MkDocs' docs_dir, by address
        for page in site.pages:
            if page.uri == "index.md" and files.get_file_from_path("index.md") is not None:
                continue
            _add(files, File.generated(config, page.uri, content=page.markdown), served)
            self.made.add(page.uri)
        for uri, path in site.assets:
            _add(files, File.generated(config, uri, abs_src_path=str(path)), served)
        if self.own_nav:
            config.nav = site.nav
        self._report_links(site)
        return files

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """A page as HTML, with nothing in it that could run (``safe_html``): the plan's,
        and a page of MkDocs' own docs folder too (page text is untrusted)."""
        return safe_html(html)

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        for path in self._watched():
            server.watch(str(path))
        return server

    def _project(self) -> Project:
        from docgen.config import load_project

        return load_project(self.project_root, self.config.registry)

    def _site(self) -> Site:
        from docgen.integrations.preview import build_site
        from docgen.plan import plan

        try:
            project = self._project()
            return build_site(project, plan(project), self.config.agents, self._agents_at())
        except DocgenError as exc:
            raise PluginError(located(exc)) from None

    def _agents_at(self) -> Location | None:
        """Where mkdocs.yml gives the plugin's ``agents`` (its line, when one says so)."""
        if not self.config.agents or not self.config_file:
            return None
        shown = os.path.relpath(self.config_file)
        try:
            text = Path(self.config_file).read_text("utf-8", errors="replace")
        except OSError:
            return Location(shown)
        lines = text.splitlines()
        line = next((n for n, t in enumerate(lines, 1) if _AGENTS.match(t)), 0)
        return Location(shown, line)

    def _watched(self) -> list[Path]:
        """The inputs of the site: registry, templates, docs and changelog folders, project
        settings."""
        try:
            project = self._project()
        except DocgenError as exc:
            raise PluginError(located(exc)) from None
        cfg = project.config
        paths = [project.registry_path, project.path(cfg.templates), project.path(cfg.docs)]
        paths.append(project.path(cfg.changelog))
        paths += [project.root / "pyproject.toml", project.root / "docgen.toml"]
        return [p for p in paths if p.exists()]

    def _report_links(self, site: Site) -> None:
        """Each unresolved route, as a warning with ``warn``, else as an INFO note (whose
        text then says ``note``, not ``warning``)."""
        for problem in site.clashes:
            log.warning("%s", problem)
        warn = self.config.unresolved_links == "warn"
        for problem in site.unresolved:
            if warn:
                log.warning("%s", replace(problem, severity="warning"))
            else:
                log.info("%s", replace(problem, severity="note"))


def safe_html(html: str) -> str:
    """``html`` with only the elements and attributes a page of text needs, through the
    Ammonia sanitizer (``nh3``): page text and changelog entries are untrusted, and a
    preview of a pull request must run none of its code (no script, style, frame, event
    handler or ``javascript:`` link). Ids and classes stay, for anchors, admonitions and
    highlighted code."""
    import nh3

    return nh3.clean(html, attributes=_allowed_attributes())


@cache
def _allowed_attributes() -> dict[str, set[str]]:
    """Ammonia's attributes for each tag, and ids, classes, titles and languages on any
    (worked out once, not for every page)."""
    import nh3

    attributes = {tag: set(names) for tag, names in nh3.ALLOWED_ATTRIBUTES.items()}
    attributes["*"] = {"class", "id", "title", "lang"}
    return attributes


def _refuse_outside(files: Files, docs_dir: str, root: Path) -> None:
    """Leave out a file of MkDocs' docs folder that a link leads out of the project to
    (``leak.png`` -> ``/etc/passwd``), or into its ``.git`` folder, and one that is no
    regular file (a FIFO, a device such as ``/dev/zero``, which MkDocs would copy until
    the disk is full), each with one warning (for a linked folder, at the link: the
    names below it are not shown). The theme's own files (outside the project, where the
    theme is installed) stay."""
    folder, inside = os.path.realpath(docs_dir), Inside(root)
    said: set[tuple[str, str]] = set()
    for file in list(files):
        source = file.abs_src_path
        if not source or os.path.realpath(file.src_dir or "") != folder:
            continue
        if not inside.contains(source):
            why = _LEADS_OUT
        elif not _regular(source):
            why = "not a regular file (a FIFO, a device): the preview does not copy it"
        else:
            continue
        files.remove(file)
        shown = file.src_uri
        if why == _LEADS_OUT:  # below a linked folder that leads out: said at the link
            shown = _link_out_above(docs_dir, file.src_uri, inside) or shown
        if (shown, why) not in said:
            said.add((shown, why))
            where = Location(os.path.join(os.path.relpath(file.src_dir or "."), shown))
            log.warning("%s", Problem(why, where, severity="warning"))


_LEADS_OUT = "a link that leads out of the project (or into .git): the preview does not copy it"


def _regular(path: str) -> bool:
    """Whether ``path`` leads to a regular file."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _link_out_above(docs_dir: str, uri: str, inside: Inside) -> str | None:
    """The first folder of ``uri`` (below ``docs_dir``) that is a symbolic link leading
    out of the project, or None."""
    parts = uri.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        folder = os.path.join(docs_dir, *parts[:depth])
        if os.path.islink(folder) and not inside.contains(folder):
            return "/".join(parts[:depth])
    return None


def _add(files: Files, made: File, served: dict[str, File]) -> None:
    """``made`` in the site, in place of a file of MkDocs' docs folder at its address
    (``a.md`` or ``a/index.md`` for the page ``a``), which is said as a warning: MkDocs
    would replace it with a Python warning, or overwrite it in the built site."""
    found = served.pop(made.dest_uri, None)
    if found is not None:
        files.remove(found)
        where = Location(os.path.join(os.path.relpath(found.src_dir or "."), found.src_uri))
        why = "docgen's preview serves its own file at this address; this one is not served"
        log.warning("%s", Problem(why, where, severity="warning"))
    files.append(made)


def located(exc: DocgenError) -> str:
    """The error's problems, one ``path:line:col: error: message`` line each."""
    return "\n".join(str(problem) for problem in exc.problems)
