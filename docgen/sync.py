"""Drift: compare a plan with the files on disk, into a ``docgen.changes.Report``
(``docgen.blame`` says which registry entries are behind a drifted file).

``build`` writes what differs (through ``docgen.io.writes``), ``check`` reports it.
Nothing is written until every output has rendered and every ownership check has
passed, so a failed build leaves the tree exactly as it was.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from docgen import stamps
from docgen.changes import CHANGED, NEW, OWNABLE, STALE, UNCHANGED, Change, Report
from docgen.config import Project
from docgen.errors import ConfigError, Location, OwnershipError, Problem, WriteError
from docgen.io import files, writes
from docgen.io.reads import not_a_file
from docgen.io.writes import Write
from docgen.plan import Output, Plan
from docgen.render.file_kinds import owned_file
from docgen.render.syntax import NOTICE_REACH
from docgen.stamps import Stamps

if TYPE_CHECKING:
    pass


def compare(
    project: Project, plan: Plan, products: bool = True, known: Stamps | None = None
) -> Report:
    """Classify every planned output and every stale owned file; refuse foreign files.

    Without ``products`` (``check``), build products (setting ``build_products``) are
    neither read nor compared, planned or stale: present, missing or out of date, they
    are ``build``'s to write and prune. A file whose stat ``known`` holds for its digest
    is unchanged without being read.
    """
    cfg = project.config
    product = [not products and cfg.build_product(o.path, o.kind) for o in plan.outputs]
    compared = [o for o, skip in zip(plan.outputs, product, strict=True) if not skip]
    report = compare_outputs(project, compared, known)
    report.not_compared = [o.path for o, skip in zip(plan.outputs, product, strict=True) if skip]
    wanted = {o.path for o in plan.outputs}
    # A planned output reached by another name (a folder linked inside the root) is no
    # stale file: one file, compared once.
    found = list(owned_files(project, skip=wanted))
    stale = files.other_files(project, found, wanted) if found else found
    _refuse_listed_stale(plan, stale)
    report.changes += [Change(p, STALE) for p in stale if products or not cfg.build_product(p)]
    return report


def compared_again(
    project: Project, report: Report, outputs: Iterable[Output], known: Stamps | None = None
) -> Report:
    """``report`` with the changes of ``outputs`` (drifted outputs planned again, now with
    their text) compared anew; every other change, and the stale files, as they were."""
    fresh = {c.path: c for c in compare_outputs(project, outputs, known).changes}
    report.changes = [fresh.get(c.path, c) for c in report.changes]
    return report


def _refuse_listed_stale(plan: Plan, stale: list[str]) -> None:
    """A stale file the navigation lists (a renamed page's variant): a build would delete
    the file and leave the entry, which Fern fails on, while check passed."""
    nav = plan.navigation
    listed = [page for path in stale for page in nav.listed(path)] if nav else []
    if nav is not None and listed:
        why = (
            "which no page makes any more (its page was renamed or removed) and a build "
            "would delete: list what replaced it, or remove the entry"
        )
        raise ConfigError([Problem(f"{nav.path} lists {p.path}, {why}", p.where) for p in listed])


def compare_outputs(
    project: Project, outputs: Iterable[Output], known: Stamps | None = None
) -> Report:
    """Classify some outputs (no stale files: ``compare`` adds those); refuse foreign files."""
    # long: one pass that classifies each output, every case a short branch of its own
    report = Report()
    foreign: list[Problem] = []
    unowned: list[Output] = []
    inside = files.Inside(project.root)
    base = str(project.root)
    for output in outputs:
        if output.verified:  # the plan found exactly its text there (so also the notice)
            report.changes.append(Change(output.path, UNCHANGED, output, None))
            if output.stat:
                report.hold(output.path, output.digest, output.stat, known)
            continue
        real, info, link = _found(os.path.join(base, output.path), inside, output.path)
        if real is None:
            foreign.append(_outside(output))
            continue
        if link:  # a file of its own goes here
            report.changes.append(_linked(output, real, inside, info))
            continue
        if info is not None and stat.S_ISDIR(info.st_mode):  # may hold a person's files
            foreign.append(_in_the_way(output))  # not "missing": a build cannot write there
            continue
        if known is not None and info is not None and known.hold(output.path, output.digest, info):
            report.changes.append(Change(output.path, UNCHANGED, output, None))
            report.hold(output.path, output.digest, stamps.of(info), known)
            continue
        if info is None or not stat.S_ISREG(info.st_mode):  # nothing, or a FIFO, a socket
            stands = "" if info is None else not_a_file(info.st_mode)
            report.changes.append(Change(output.path, NEW, output, None, stands=stands))
            continue
        found = _read(real, output.path)
        if found is None:  # replaced meanwhile by what is no file
            report.changes.append(Change(output.path, NEW, output, None))
            continue
        same, old = _against(found, output)
        if same:  # a text the write stages (the export) is stamped by its digest too
            report.hold(output.path, output.text_digest, stamps.of(info), known)
        # A file holding exactly its planned text holds the notice that text carries.
        if output.owned and not same and not _notice_on(files.as_lf(found), output.path):
            unowned.append(output)
        report.changes.append(Change(output.path, UNCHANGED if same else CHANGED, output, old))
    foreign += [_foreign(output) for output in _hand_written(project, unowned)]
    if foreign:
        raise OwnershipError(foreign)
    return report


def _linked(output: Output, real: str, inside: files.Inside, info: Any) -> Change:
    """An output whose path holds a symbolic link (to ``real``, inside the root, where
    ``info`` stands): drift, whatever it leads to, since a build writes a file of its own
    in its place (what is no file there, a socket say, is not opened)."""
    found = _read(real, output.path) if info is not None and stat.S_ISREG(info.st_mode) else None
    old = None if found is None else found.decode("utf-8", errors="replace")
    return Change(output.path, CHANGED, output, old, link=files.shown(real, inside))


def _against(found: bytes, output: Output) -> tuple[bool, str | None]:
    """Whether a file's bytes hold ``output`` (Windows line ends are no drift), and, when
    they do not, the old text its diff shows (none for a staged text: a build writes it
    without one)."""
    if output.digest:  # a cached plan: compare digests
        raw = found
        same = hashlib.sha256(raw).hexdigest() == output.digest
        if not same and b"\r\n" in found:
            raw = files.as_lf(found)
            same = hashlib.sha256(raw).hexdigest() == output.digest
        return same, None if same or output.staged else raw.decode("utf-8", errors="replace")
    text = found.decode("utf-8", errors="replace")
    same = text == output.text
    if not same and ("\r\n" in text or "\r\n" in output.text):
        same = files.as_lf_text(text) == files.as_lf_text(output.text)
    if same:
        return True, None
    # An author's CRLF page is diffed with the file as it is; a generated one with LF.
    return False, text if "\r\n" in output.text else files.as_lf_text(text)


def _found(target: str, inside: files.Inside, path: str) -> tuple[str | None, Any, bool]:
    """Where the file at ``target`` really lies (None: outside the root), what lies there
    (None: nothing yet, a new file, when its folder is inside) and whether ``target``
    itself is a symbolic link."""
    try:
        return files.lookup_link(target, inside)
    except (FileNotFoundError, NotADirectoryError):
        return inside.real(target, link=False), None, False
    except OSError as exc:  # a folder this user may not look into
        raise _unreadable(path, exc) from None


def _read(real: str, path: str) -> bytes | None:
    """The bytes of the file at ``path`` (its real path ``real``); one that cannot be read
    is a located error, as docgen can neither compare nor overwrite what it cannot read."""
    try:
        return files.read_bytes(real)
    except OSError as exc:
        raise _unreadable(path, exc) from None


def _unreadable(path: str, exc: OSError) -> WriteError:
    reason = exc.strerror or type(exc).__name__
    return WriteError.at(Location(path), f"cannot read it to compare it: {reason}")


def _notice_on(raw: bytes, path: str) -> bool:
    """Whether a file's bytes open with docgen's notice (looked for within its reach, at
    up to 4 bytes a character)."""
    return owned_file(raw[: 4 * NOTICE_REACH].decode("utf-8", errors="replace"), path)


#: What is said of an output whose path leads out of the root: ``check`` and ``build`` alike.
LEADS_OUT = (
    "it leads outside the project root (through a symbolic link), where docgen neither reads "
    "nor writes: replace the link with a file or folder inside the root"
)


def _outside(output: Output) -> Problem:
    return Problem(LEADS_OUT, Location(output.path, 1, 1))


def _in_the_way(output: Output) -> Problem:
    """A folder where an output goes (a FIFO or a device there holds nothing to lose: a
    build puts the file in its place)."""
    return Problem(
        f"a folder stands where docgen generates this file from {output.origin}: move it "
        "away or delete it to let docgen generate it",
        Location(output.path, 1, 1),
    )


def _hand_written(project: Project, unowned: list[Output]) -> list[Output]:
    """The files without docgen's notice that docgen must not overwrite: all of them but
    the build products git ignores (a git-ignored build product is a build's, whoever
    built it, such as a script the project used before docgen)."""
    cfg = project.config
    products = [o.path for o in unowned if cfg.build_product(o.path, o.kind)]
    if not products:
        return unowned
    from docgen.changelog.git import ignored  # it starts git: only when there is one to ask

    skip = ignored(project, products)
    return [o for o in unowned if o.path not in skip]


def _foreign(output: Output) -> Problem:
    return Problem(
        f"written by hand (it has no docgen notice), but docgen generates this path from "
        f"{output.origin} and never overwrites a hand-written file: move it away or delete it "
        "to let docgen generate it",
        Location(output.path, 1, 1),
    )


def owned_files(project: Project, skip: set[str] | None = None) -> Iterator[str]:
    """Project-relative paths of files under the docs, changelog and variants folders
    that carry the notice (not a changelog overview the project keeps by hand).

    A folder that leads outside the project root (a symbolic link) is not entered: what
    lies there is never docgen's to read or delete. Links below it are not followed.
    """
    from docgen.changelog.entries import OVERVIEW

    cfg = project.config
    found: dict[str, files.Found] = {}
    for folder in _output_folders(cfg.docs, cfg.changelog, cfg.variants):
        listed = files.listing(project, folder)
        if listed.inside:
            found.update((f.path, f) for f in listed.files if f.path.endswith(OWNABLE))
    kept = {f"{cfg.changelog}/{OVERVIEW}"} if cfg.overview == "none" else set()
    for name in sorted(found):
        rel = found[name].rel
        if (skip is not None and rel in skip) or found[name].kind != files.FILE or rel in kept:
            continue
        head = files.read_head(name, 4 * NOTICE_REACH)  # UTF-8: up to 4 bytes a character
        if head is not None and owned_file(head.decode("utf-8", errors="replace"), rel):
            yield rel


def _output_folders(*folders: str) -> list[str]:
    """The folders to look through, each once: none that lies inside another."""
    return [
        f
        for i, f in enumerate(folders)
        if not any(f == o or f.startswith(f"{o}/") for o in folders[:i])
    ]


def apply(
    project: Project,
    report: Report,
    progress: Callable[[int], None] | None = None,
    also: Sequence[Write] = (),
) -> list[Change]:
    """Write new and changed outputs and delete stale ones, with ``also`` (more files to
    write or delete), all or nothing; return what changed of the outputs."""
    todo = report.of(NEW, CHANGED, STALE)
    for change in todo:
        output = change.output
        if output is not None and output.digest and not output.staged:  # even under -O
            raise AssertionError(f"no text to write for {change.path}: a digest-only plan")
    # Not Write(..., new=True) for NEW: a new page's path may hold a dangling link or a
    # FIFO (no file to compare), which a failed build must put back.
    planned = [
        Write(c.path, c.output.text, staged=c.output.staged or None)
        if c.output
        else Write(c.path, None)
        for c in todo
    ]
    stale = [c.path for c in todo if c.status == STALE]
    near = [c.path for c in report.changes] + _leftovers(project)
    writes.apply(project, [*also, *planned], near, progress, stale)
    return todo


def _leftovers(project: Project) -> list[str]:
    """What an interrupted write left beside its targets, wherever under the docs folder:
    beside a page no output is any more (its template removed), no sweep looked."""
    from docgen.io.staging import leftover

    listed = files.listing(project, project.config.docs).files
    return [found.rel for found in listed if leftover(found.rel.rpartition("/")[2])]
