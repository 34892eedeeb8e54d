"""The ``build`` and ``check`` verbs: plan the project, compare it with disk, then write or judge.

Both own the whole sequence every caller needs (the CLI, ``init``, the pytest plugin):
the build lock, the digest cache, re-planning when a cached plan finds drift (a cached
plan holds only digests, so it can prove a tree in sync but not name what drifted), the
changelog history rules and the changelog gate. A caller gets a ``Report``, never a plan.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any

from docgen import parallel, stamps, sync
from docgen.changes import DRIFTED, STALE, Report
from docgen.config import Project
from docgen.errors import ConfigError, Location, Problem, one_line
from docgen.io import files
from docgen.io.lock import build_lock
from docgen.outputs import verified_on_disk
from docgen.plan import Output, Plan, plan
from docgen.provenance import registry_sources
from docgen.registry.model import Registry, Source
from docgen.render.file_kinds import SUFFIXES
from docgen.verbs import releases


@dataclass(frozen=True)
class Built:
    """What ``build`` did (or, with ``dry_run``, would do) to each generated file, and
    the changelog history rules the entries break (``check``'s findings, which a build
    reports but cannot fix: entries are history that docgen never rewrites)."""

    report: Report
    dry_run: bool
    findings: list[Problem] = field(default_factory=list)

    @property
    def changed(self) -> int:
        return len(self.report.of(*DRIFTED))


def build(
    project: Project,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
    notify: Callable[[str], None] | None = None,
) -> Built:
    """Render every output and write the ones that changed; prune stale generated files.

    ``progress`` is called with the number of files written so far and the number to
    write; ``notify`` hears that another build holds the lock. Nothing is written when
    any input is broken. A changelog entry that breaks a history rule does not stop it
    (an entry is history docgen never rewrites): the build writes the rest and returns
    the findings ``check`` reports, for the caller to show and fail on.
    """
    from docgen.cache import remember
    from docgen.prestage import staged

    # Each page's text is staged as soon as it is rendered: no process holds them all.
    with build_lock(project, notify=notify), staged(project, wanted=not dry_run) as stage:
        the_plan, digest, report = _compared(project, stage=stage)
        # Read before anything is written: an entry that cannot be read is an input error.
        findings = releases.history_problems(project, the_plan)
        if not dry_run:
            total = len(report.of(*DRIFTED))
            step = None if progress is None else lambda done: progress(done, total)
            sync.apply(project, report, progress=step)
            remember(project, digest, the_plan)
            if total or report.known < len(report.held):  # else the stamps hold as they are
                stamps.record(project, report.held)
    return Built(report, dry_run, findings)


def check(
    project: Project,
    changelog_since: str | None = None,
    today: str = "",
    notify: Callable[[str], None] | None = None,
) -> Report:
    """Compare every output but the build products with disk, writing nothing, once a running
    build is done (``notify`` hears of it); apply the changelog history rules (and the gate
    since ``changelog_since``, its notes released ``today``, or the newest entry's day)."""
    with ExitStack() as stack:
        stack.enter_context(build_lock(project, notify=notify, shared=True))
        since: list[Callable[[], Any]] = []

        def started(registry: Registry) -> None:
            """Once the plan has loaded the registry, a forked copy (which shares it)
            learns what changed since the commit, where that pays; asked only on drift."""
            work = lambda: _since_commit(project, registry, changelog_since)  # noqa: E731
            since.append(stack.enter_context(parallel.started(work, _large(project))))

        # What a check renders and finds on disk as it is is kept as its digest only.
        verified = verified_on_disk(files.Inside(project.root))
        the_plan, _digest, report = _compared(
            project, products=False, stored=False, stage=verified, on_registry=started
        )
        if not report.in_sync:
            found = (
                since[0]()
                if since
                else _since_commit(project, the_plan.full_registry, changelog_since)
            )
            if found is not None:
                gone, kept = found
                report.changes = [
                    replace(c, gone=gone, kept=kept) if c.status in DRIFTED else c
                    for c in report.changes
                ]
        report.findings += releases.history_problems(project, the_plan)
        if changelog_since is not None:  # "" is a revision git does not know, not no gate
            report.findings += releases.changelog_gate(project, changelog_since, the_plan, today)
    return report


def _compared(
    project: Project,
    products: bool = True,
    stored: bool = True,
    stage: Callable[[Output], Output] | None = None,
    on_registry: Callable[[Registry], object] | None = None,
) -> tuple[Plan, str, Report]:
    """The plan, its input digest and its comparison with disk (of the build products too
    unless ``products`` is False; see ``cached_plan`` for ``stored`` and ``stage``): from
    the cached plan when that proves the tree in sync, else from a complete plan (which
    names the registry lines behind drift and holds, or has staged, the texts a build
    writes)."""
    from docgen.cache import cached_plan, with_partials

    the_plan, digest = cached_plan(project, stored, stage, on_registry)
    known = stamps.load(project) if digest else None  # none without a cache
    report = sync.compare(project, the_plan, products, known)
    outputs = the_plan.by_path()
    # A kept output carries only its digest: a drifted one is rendered for its text.
    unread = frozenset(
        c.path
        for c in report.changes
        if c.status in DRIFTED
        and c.path in outputs
        and not (outputs[c.path].text or outputs[c.path].staged)
    )
    if unread:
        record = with_partials(project, digest, the_plan.record)
        again = plan(project, the_plan.full_registry, record, render=unread)
        # What the first plan rendered stays as it is: planned again, it would be kept as a
        # digest (its reads hold), with neither its text nor where a build staged it.
        done = {o.path: o for o in the_plan.outputs if o.text or o.staged}
        the_plan = replace(again, outputs=tuple(done.get(o.path, o) for o in again.outputs))
        planned = the_plan.by_path()
        report = sync.compared_again(
            project, report, [planned[p] for p in sorted(unread) if p in planned], known
        )
        report = _kept_as_built(project, report, unread)
    _refuse_lost_templates(project, report)
    return the_plan, digest, report


def _kept_as_built(project: Project, report: Report, unread: frozenset[str]) -> Report:
    """``report`` with each change to an output the cache kept as built (``unread``) told
    so: perhaps a hand edit (``Change.edited``), surely one where no commit holds the text
    on disk (a check tells them; a build says which edits it undoes)."""
    from docgen.changelog.git import never_committed

    edited = never_committed(project, sorted(unread))
    report.changes = [
        replace(c, kept_as_built=c.path in unread, never_committed=c.path in edited)
        for c in report.changes
    ]
    return report


def _refuse_lost_templates(project: Project, report: Report) -> None:
    """Refuse to prune the pages (and the files of other kinds) templates made when the
    templates folder itself is gone (moved, or the setting left at its default): a located
    error at the first of them."""
    cfg = project.config
    pages = [
        c.path
        for c in report.of(STALE)
        if c.path.startswith(f"{cfg.docs}/")
        and not c.path.startswith(f"{cfg.variants}/")
        and c.path != cfg.export
        and c.path.endswith(SUFFIXES)
    ]
    if pages and not project.path(cfg.templates).is_dir():
        more = len(pages) - 1
        others = f" (with {more} more generated page{'s' if more > 1 else ''})" if more else ""
        raise ConfigError.at(
            Location(pages[0]),
            f"a build would delete this generated page{others}: the templates folder "
            f"'{one_line(cfg.templates)}' does not exist. Restore it, or set `templates` to "
            "where it went; to drop the pages, delete them",
        )


def _large(project: Project) -> bool:
    """Whether the registry is large enough that loading it pays for a fork."""
    try:
        return os.stat(project.registry_path).st_size >= parallel.LARGE_REGISTRY
    except OSError:
        return False


def _since_commit(
    project: Project, working: Registry | None, base: str | None = None
) -> tuple[tuple[Source, ...], frozenset[tuple[Any, str]]] | None:
    """What changed since the last commit, or else since ``base`` (``--changelog-since``:
    in docs CI the change is committed, and the docs on disk are the base's), for the
    blame of drifted files (None outside a git repository or when nothing did): the
    removed values, each where it stood, and every value that older registry held (a value
    it held unchanged is no cause). ``working``: the registry the plan loaded, when it
    loaded one (a cached plan has none).

    ``check`` computes this in a forked copy while it renders, and asks only on drift."""
    from docgen.blame import removed_sources
    from docgen.changelog.older import since_commit

    found = since_commit(project, working, ("HEAD", base) if base else ("HEAD",))
    if found is None:
        return None
    old, new = found
    return removed_sources(old, new), frozenset((s.keypath, s.text) for s in registry_sources(old))
