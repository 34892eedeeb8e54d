"""Core functions behind ``diff``, ``changelog`` and the changelog checks of ``check``."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from docgen.changelog import changes as change_kinds
from docgen.changelog import entries as changelog
from docgen.changelog import history
from docgen.config import Config, Project, setting_location
from docgen.errors import ConfigError, Location, Problem, one_line
from docgen.io.files import as_lf_text
from docgen.plan import Output, Plan
from docgen.registry.model import Registry

if TYPE_CHECKING:
    from docgen.changelog import compose


def base_registry(
    project: Project, since: str | None, since_file: str | None, option: str = "--since"
) -> Registry:
    """The older registry state named by ``--since REF`` or ``--since-file FILE``, exactly
    one of them (the command line refuses others: ``usage_errors.one_base``; a git
    failure is reported against ``option``, the one that gave ``since``)."""
    from docgen.changelog import older

    if since is not None:
        return older.registry_at(project, since, option)
    assert since_file is not None
    if not since_file:  # "" would name the project's own folder
        raise ConfigError.at(Location("--since-file"), "give the file of the older registry")
    return older.registry_file(project, since_file)


def changes_since(
    project: Project, since: str | None, since_file: str | None, option: str = "--since"
) -> tuple[Registry, list[change_kinds.Change]]:
    from docgen.changelog import diff
    from docgen.registry.load import load_registry

    old = base_registry(project, since, since_file, option)
    new = load_registry(project)
    return new, diff.diff(old, new)


def write_changelog(
    project: Project,
    version: str,
    since: str | None,
    since_file: str | None,
    date: str | None,
    summary: str | None,
    dry_run: bool,
    notify: Callable[[str], None] | None = None,
) -> compose.Written:
    """Create the dated entry of ``version`` (``0.2.0`` is ``v0.2.0``; ``date`` defaults
    to today), refresh the overview, then remove the merged notes; nothing when ``dry_run``.

    Everything is composed and checked before the first write, under the build lock, so
    the tree is left in sync (``check`` passes when it passed before) or untouched.
    """
    from docgen import sync
    from docgen.changelog import compose
    from docgen.io.lock import build_lock
    from docgen.io.writes import Write

    _refuse_a_second_changelog(project)
    version = changelog.named_version(version)
    with build_lock(project, notify=notify):
        registry, changes = changes_since(project, since, since_file)
        day = datetime.date.today().isoformat() if date is None else date  # "" is malformed
        routes = partial(_routes, project, registry, day)  # planned only when needed
        written = compose.create_entry(project, registry, changes, version, day, summary, routes)
        hints = [str(h) for h in change_kinds.guard_hints(changes)]
        hints += _repeated(project, since) if since else []
        hints += _out_of_order(project, version, day)
        written = replace(written, hints=tuple(hints), version=version)
        if dry_run:
            return written
        refresh = sync.compare_outputs(project, _entry_outputs(project, registry, written))
        # The entry, the overview and the merged notes' removal: all of it, or none.
        entry = Write(written.path, written.text)
        merged = [Write(f.relative_to(project.root).as_posix(), None) for f in written.fragments]
        done = sync.apply(project, refresh, also=[entry, *merged])
    return replace(written, refreshed=tuple((c.status, c.path) for c in done))


def _refuse_a_second_changelog(project: Project) -> None:
    """Refuse to start the default changelog folder while the docs folder's ``changelog``
    holds dated entries (NemoClaw's tree keeps them there) and the setting is not written:
    the release would go to a second changelog, and the real one would stay unchecked."""
    cfg = project.config
    folder, found = project.path(cfg.changelog), project.path(cfg.docs) / "changelog"
    written = setting_location(project.root, "changelog")
    if written.line or folder.exists() or found == folder or not found.is_dir():
        return
    if any(changelog.DATED.match(p.name) for p in found.glob("*.mdx")):
        where = f"{cfg.docs}/changelog"
        raise ConfigError.at(
            written,
            f"the changelog folder '{one_line(cfg.changelog)}' does not exist, but "
            f"'{one_line(where)}' holds dated entries: set changelog = \"{one_line(where)}\" "
            "(or set changelog to the folder you mean, to start one there)",
        )


def _out_of_order(project: Project, version: str, day: str) -> list[str]:
    """A warning when the new release is dated before a release of a lower version (a
    typo in ``--date``, or a release of an older line, which may be meant): the overview
    lists releases by version, and their dates would then run backwards."""

    number = partial(changelog.parse_version, where=Location("--version"))  # checked already
    earlier = [
        (entry.day, section.version)
        for entry in changelog.entries(project)
        if changelog.entry_date(entry.day) is not None and entry.day > day
        for section in entry.sections  # each a release heading's well-written version
        if number(section.version) < number(version)
    ]
    if not earlier:
        return []
    then, which = max(earlier)
    return [
        f"--date: warning: {version} is dated {day}, before {which} ({then}), a lower version: "
        "the overview lists releases by version, so their dates run backwards there"
    ]


def _routes(project: Project, registry: Registry, day: str) -> set[str]:
    """The routes a new release's links may name, from the cached plan when it is current
    (see ``_routes_of``)."""
    from docgen.cache import cached_plan

    the_plan, _digest = cached_plan(project)
    return _routes_of(project, registry, the_plan, day)


def _routes_of(project: Project, registry: Registry, plan: Plan, day: str) -> set[str]:
    """The routes a release of ``day`` may link to: the pages ``plan`` publishes and the
    release pages, its own among them."""
    published = history.published_routes(project, plan.pages, registry, plan.navigation)
    published |= history.release_routes(project, registry, day, plan.navigation)
    return published  # still following the redirects (see ``redirects.Routes``)


def _entry_outputs(project: Project, registry: Registry, written: compose.Written) -> list[Output]:
    """The generated files that depend on the changelog entries, with ``written`` in them."""
    from docgen.overview import overview_output

    entries = [e for e in changelog.entries(project) if e.path != written.path]
    # Read as an entry on disk is read: an entry with Windows line ends keeps them.
    entries.append(changelog.parse_entry(written.path, as_lf_text(written.text)))
    overview = overview_output(project, registry, entries)
    return [] if overview is None else [overview]


def history_problems(project: Project, plan: Plan) -> list[Problem]:
    routes = history.published_routes(project, plan.pages, plan.registry, plan.navigation)
    return history.check_history(project, plan.registry, routes)


#: The registry's name unless a setting gives another.
DEFAULT_REGISTRY = Config().registry
#: The option of ``check`` that names the revision the changelog gate compares with.
GATE = "--changelog-since"


def changelog_gate(
    project: Project, ref: str, plan: Plan | None = None, day: str = ""
) -> list[Problem]:
    """A semantic registry change since ``ref`` needs a new entry or a fragment (a
    registry new since ``ref``, as in the change that adopts docgen, has nothing to
    compare with: it passes). ``plan``: the check's, whose pages the notes may link to
    (planned here when not given); ``day``: today (the core never reads the clock)."""
    from docgen.changelog import git  # runs git: only for the changelog gate

    # A branch is judged by what it changed: from where its history meets ``ref`` on.
    base = git.merge_base(project, ref, GATE)
    try:
        registry, changes = changes_since(project, base, None, GATE)
    except git.NewSince:
        if not _used_docgen_at(project, base):
            return []  # no registry then: the change adopts docgen
        raise  # the registry was renamed since: the gate cannot compare, so it says so
    if not change_kinds.released(changes):
        return []
    if _new_releases(project, base):
        return []
    if _new_notes(project, base):
        if plan is None:
            from docgen.plan import plan as planned

            plan = planned(project, registry)
        _release_of_notes(project, plan, changes, day)  # a note it would refuse is an error
        return []
    return [_gate_problem(project, ref, changes), *change_kinds.guard_hints(changes)]


def _gate_problem(project: Project, ref: str, changes: list[change_kinds.Change]) -> Problem:
    """The gate's finding, at the first released change."""
    first = change_kinds.released(changes)[0].source
    return Problem(
        f"the registry changed since {one_line(ref)} "
        f"({change_kinds.counted(change_kinds.released(changes))}) but "
        f"there is no new changelog entry or note in {project.config.fragments}/: "
        "run `docgen changelog` or add a note",
        first.location if first else Location(project.config.registry),
        rule="changelog-gate",
    )


def _new_notes(project: Project, ref: str) -> bool:
    """Whether a note waits that is new or changed since ``ref``: one that already waited
    then says nothing of the changes made since."""
    from docgen.changelog import git

    waiting = {p.relative_to(project.root).as_posix() for p in changelog.fragment_files(project)}
    return bool(waiting & set(git.changed_since(project, ref, project.config.fragments, GATE)))


def _used_docgen_at(project: Project, ref: str) -> bool:
    """Whether the project used docgen at ``ref``: a registry by the default name, or
    docgen's settings (which may name another)."""
    from docgen.changelog import git

    if git.text_at(project, ref, DEFAULT_REGISTRY, GATE) is not None:
        return True
    if git.text_at(project, ref, "docgen.toml", GATE) is not None:
        return True
    pyproject = git.text_at(project, ref, "pyproject.toml", GATE)
    return pyproject is not None and "[tool.docgen" in pyproject


def _new_releases(project: Project, ref: str, option: str = GATE) -> list[str]:
    """The releases entries hold that no entry held at ``ref``: an entry edited, moved or
    deleted since is no new one (the overview is no entry: it is generated)."""
    from docgen.changelog import git

    touched = git.changed_since(project, ref, project.config.changelog, option)
    edited = {path for path in touched if changelog.is_entry_name(path.rpartition("/")[2])}
    now = changelog.entries(project)
    before = {s.version for e in now if e.path not in edited for s in e.sections}
    # The entries held then, in the folder the settings named then (it may have moved).
    before |= git.release_headings_at(project, ref, _changelog_at(project, ref), option)
    return [s.version for e in now for s in e.sections if s.version not in before]


def _changelog_at(project: Project, ref: str) -> str:
    """The changelog folder docgen's settings named at ``ref`` (the default without)."""
    from docgen.changelog import git
    from docgen.config import setting_in

    for name in ("docgen.toml", "pyproject.toml"):  # a docgen.toml holds all, as now
        text = git.text_at(project, ref, name, GATE)
        if text is None:
            continue
        folder = setting_in(text, name, "changelog")
        if isinstance(folder, str) or name == "docgen.toml":
            return folder if isinstance(folder, str) else Config().changelog
    return Config().changelog


def _repeated(project: Project, since: str) -> list[str]:
    """A note when a release since ``since`` is already written: this one describes the
    same registry changes again (a second run of the same command, say)."""
    earlier = _new_releases(project, since, "--since")
    if not earlier:
        return []
    return [
        f"--since: note: {', '.join(earlier)} already released changes since "
        f"{one_line(since)}; this release describes them again (give --since the revision "
        "of that release)"
    ]


def _release_of_notes(
    project: Project, plan: Plan, changes: list[change_kinds.Change], day: str
) -> None:
    """Compose, in memory, the release the waiting notes would go into (the next version,
    on ``day``), so that a note ``docgen changelog`` would refuse (empty, raw
    markup, a bad link) fails the gate with the same located error instead of passing
    it. Its links are checked against the routes of the check's own ``plan``."""
    from docgen.changelog import compose

    entries = changelog.entries(project)
    day = day or max((e.day for e in entries), default="2000-01-01")
    numbers = [
        changelog.parse_version(s.version, Location(e.path, s.line))
        for e in entries
        for s in e.sections
    ]
    major, minor, patch = max(numbers, default=(0, 0, 0))
    # The next patch, or (a version's numbers have at most 9 digits) minor or major.
    after = [(major, minor, patch + 1), (major, minor + 1, 0), (major + 1, 0, 0)]
    fits = [v for v in after if max(v) <= 999_999_999] or [(major, minor, patch)]
    routes = partial(_routes_of, project, plan.registry, plan, day)
    version = "v{}.{}.{}".format(*fits[0])
    compose.create_entry(project, plan.registry, changes, version, day, None, routes)


def release_notes(
    project: Project, version: str, site_url: str | None
) -> tuple[str, Problem | None]:
    """One release's section as plain Markdown, and a warning when its root-relative links
    stay relative (no site URL given or set as ``product.site_url``)."""
    from docgen.changelog import notes as changelog_notes
    from docgen.registry.load import load_registry

    registry = load_registry(project)
    url = site_url if site_url is not None else registry.product.site_url
    notes = changelog_notes.release_notes(project, registry, version, url)
    return notes, changelog_notes.relative_links_warning(notes, url)
