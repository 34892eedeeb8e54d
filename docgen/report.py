"""What ``build`` and ``check`` found, worded for a terminal, a JSON reader, GitHub or pytest.

Every function returns lines; the caller chooses the stream. Each line is a ``Line``
whose ``channel`` says where it belongs: ``out`` (always printed), ``diff`` (printed,
styled as a diff line on a terminal), ``info`` (left out by ``-q``) and ``err`` (stderr).

Page text and file names are data: in GitHub Actions (``GITHUB_ACTIONS=true``) the text
reports print them between ``::stop-commands::TOKEN`` and ``::TOKEN::`` (``shielded``), so
the runner reads no line of them as a workflow command; ``--format github`` escapes each
line of data instead (``_inert``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from docgen.changes import CHANGED, DRIFTED, NEW, STALE, UNCHANGED, Change, Report, causes
from docgen.errors import (
    Location,
    Problem,
    names_file,
    one_line,
    printable,
    printable_message,
    shown_path,
    without_surrogates,
)
from docgen.verbs.build import Built


class Line(NamedTuple):
    text: str
    channel: str = "out"


_BUILD_WORDS = {NEW: "write", CHANGED: "update", STALE: "delete", UNCHANGED: "keep"}


def in_actions() -> bool:
    """Whether docgen runs in a GitHub Actions step (whose runner reads its output)."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def shielded(lines: Sequence[Line]) -> list[Line]:
    """``lines`` of data (diffs, names, messages), and in GitHub Actions between
    ``::stop-commands::TOKEN`` and ``::TOKEN::`` with a fresh random token: GitHub's way
    to print untrusted text, which the runner then reads as no workflow command. The two
    markers share the lines' channel (``err``, or ``info`` when all are; else ``out``)."""
    if not lines or not in_actions():
        return list(lines)
    channels = {line.channel for line in lines}
    channel = next(iter(channels)) if channels in ({"err"}, {"info"}) else "out"
    assert "err" not in channels or channel == "err", "one stream per block"
    import secrets  # only in GitHub Actions: not paid for by every run

    token = secrets.token_hex(16)
    return [Line(f"::stop-commands::{token}", channel), *lines, Line(f"::{token}::", channel)]


def build_lines(built: Built, verbose: bool) -> list[Line]:
    """One line per file written, updated or pruned (and kept, when ``verbose``), then
    the counts; prefixed with "would" for a dry run, whose pending changes are the drift
    ``-q`` still prints."""
    verb = "would " if built.dry_run else ""
    report = built.report
    lines = [
        line
        for c in report.changes
        if c.status != UNCHANGED or verbose
        for line in (
            Line(f"{verb}{_BUILD_WORDS[c.status]} {_shown(c.path)}", _channel(built, c.status)),
            *_undone(c),
        )
    ]
    n = {s: len(report.of(s)) for s in DRIFTED}
    unchanged = len(report.changes) - built.changed
    if built.dry_run:
        summary = (
            f"would write {n[NEW]}, update {n[CHANGED]} and prune {n[STALE]}; {unchanged} unchanged"
        )
    else:
        summary = (
            f"{n[NEW]} written, {n[CHANGED]} updated, {n[STALE]} pruned, {unchanged} unchanged"
        )
    return [*shielded(lines), Line(summary, "info")]


def _undone(change: Change) -> list[Line]:
    """For a file a build rewrites over a hand edit (see ``Change.edited``), a line of its
    own saying where the edit belongs (the path's line stays as scripts read it; ``-q``
    leaves this one out)."""
    if not change.edited:
        return []
    return [Line(f"  edited by hand: make the edit in {change.made_in}", "info")]


def _channel(built: Built, status: str) -> str:
    return "out" if built.dry_run and status != UNCHANGED else "info"


def written_line(status: str, path: str) -> Line:
    """How a file another verb refreshed is reported (``docgen changelog``)."""
    return Line(f"{_BUILD_WORDS[status]} {_shown(path)}", "info")


def _shown(path: str) -> str:
    """A generated file's path as a report line names it (see ``errors.shown_path``)."""
    return one_line(shown_path(path))


def check_text(report: Report, verbose: bool) -> list[Line]:
    """Each finding, each drifted file with its diff and the entries behind it (all of
    it data, ``shielded``), then a verdict."""
    lines = [Line(str(finding)) for finding in report.findings]
    drifted = report.of(*DRIFTED)
    for change in drifted:
        shown = change.shown(one_line(change.path)) if change.status == CHANGED else None
        where = f"{_shown(change.path)}:{shown.line if shown else 1}:1"
        lines.append(Line(f"{where}: error: {change.why}"))
        if shown is not None:
            lines += [Line(printable(text), "diff") for text in _diff_lines(shown.diff)]
            lines += [Line(f"  {change.behind_label} behind it: {s}") for s in shown.behind]
    if verbose:
        lines += [Line(f"{_shown(c.path)}: in sync", "info") for c in report.of(UNCHANGED)]
    lines = shielded(lines)
    if report.in_sync:
        lines.append(Line(matching(len(report.changes)), "info"))
        if report.not_compared:
            n = len(report.not_compared)
            what = f"{n} build product{'s' if n > 1 else ''} (setting build_products)"
            lines.append(Line(f"{what} not compared: `docgen build` writes them", "info"))
    elif drifted:
        n = len(drifted)
        count = f"{n} generated file{'s are' if n > 1 else ' is'}"
        hand = sum(c.edited for c in drifted)
        if hand == n:
            verdict = f"{count} edited by hand: `docgen build` would undo the edits"
        else:
            undo = " (it undoes the hand edits)" if hand else ""
            verdict = f"{count} out of sync with {causes(drifted)}: run `docgen build`{undo}"
        lines.append(Line(verdict, "err"))
    else:  # every file matches; the rules found what is said above
        n = sum(f.severity != "note" for f in report.findings)
        said = f"{n} problem{'s' if n != 1 else ''} above fail{'s' if n == 1 else ''} the check"
        lines.append(Line(f"{matching(len(report.changes))}, but {said}", "err"))
    return lines


def drift_failure(change: Change) -> str:
    """Why one generated file fails, as the pytest plugin shows it."""
    shown = change.shown(one_line(change.path)) if change.status == CHANGED else None
    lines = [f"{one_line(change.path)}:{shown.line if shown else 1}:1: error: {change.why}"]
    if shown is not None:
        lines.append(shown.diff.rstrip("\n"))
        lines += [f"{change.behind_label} behind it: {s}" for s in shown.behind]
    lines.append("run `docgen build` to bring the docs back in sync")
    return "\n".join(lines)


def check_json(report: Report, root: Path | None = None) -> dict[str, Any]:
    """The stable ``check --format json`` shape (version 1), with no lone surrogate (see
    ``without_surrogates``)."""
    files = [_file_json(change) for change in report.changes]
    findings = []
    for finding in report.findings:
        loc, message = _placed(finding, root)
        findings.append(
            {
                "file": loc.path if loc else None,
                "line": (loc.line or None) if loc else None,
                "column": (loc.col or None) if loc else None,
                "message": message,
                "severity": finding.severity,
                "rule": finding.rule,
            }
        )
    shape = {
        "version": 1,
        "in_sync": report.in_sync,
        "files": files,
        "findings": findings,
        "not_compared": report.not_compared,
    }
    clean: dict[str, Any] = without_surrogates(shape)
    return clean


def _file_json(change: Change) -> dict[str, Any]:
    """One file of ``check --format json``: its status, and for a changed file where it
    first differs, its diff, whether it reads as edited, where a link at its path leads
    and the entries behind it."""
    item: dict[str, Any] = {"path": change.path, "status": change.status}
    if change.status == CHANGED:
        shown = change.shown()
        item.update(line=shown.line, diff=shown.diff, edited=change.edited)
        if change.link:
            item["link"] = change.link
        item["sources"] = [
            {
                "key": s.name,
                "file": s.location.path,
                "line": s.location.line,
                "column": s.location.col,
            }
            for s in shown.behind
        ]
    return item


def check_github(report: Report, root: Path | None = None) -> list[Line]:
    """Workflow commands: an error per finding, per drifted file and per distinct registry
    (or changelog) location behind the drift, a summary notice, then each drifted file's
    diff in a collapsed group of the log. Each file is named from the workflow's
    workspace, so a project ``root`` in a subfolder (a monorepo) annotates its files."""
    at = workspace_prefix(root)
    lines = [_finding_annotation(finding, at, root) for finding in report.findings]
    drifted = report.of(*DRIFTED)
    behind: dict[tuple[str, int, int], tuple[str, list[str]]] = {}
    diffs = []
    for change in drifted:
        escaped = _escape_data(change.path)
        shown = change.shown(escaped)  # a new or stale file: line 1, and all of it
        lines.append(annotation(change.why, at + change.path, shown.line))
        diffs.append((escaped, shown.diff))
        for source in shown.behind:
            loc = source.location
            where = (loc.path, loc.line, loc.col)
            behind.setdefault(where, (source.name, []))[1].append(change.path)
    for (path, line, col), (name, paths) in behind.items():
        more = len(paths) - 1
        others = f" and {more} other generated file{'s' if more > 1 else ''}" if more else ""
        update = f"run docgen build to update {paths[0]}{others}"
        if names_file(path, root):
            lines.append(annotation(f"{name} changed; {update}", at + path, line, col))
        else:  # removed since a revision (``HEAD:site/profiles.yaml``): no file of the tree
            stood = Location(path, line, col)
            lines.append(annotation(f"{stood}: {name} was removed; {update}"))
    if drifted:  # a notice: GitHub shows 10 errors per step, and notices besides
        n = len(drifted)
        summary = f"{n} generated file{'s are' if n > 1 else ' is'} out of sync with "
        lines.append(annotation(f"{summary}{causes(drifted)}; run docgen build", level="notice"))
    for escaped, diff in diffs:
        lines.append(Line(f"::group::{escaped}"))
        lines += [Line(_inert(printable(text))) for text in _diff_lines(diff)]
        lines.append(Line("::endgroup::"))
    if report.in_sync:  # the log says so; an annotation would only add noise to the run
        lines.append(Line(matching(len(report.changes)), "info"))
    return lines


def _finding_annotation(finding: Problem, at: str, root: Path | None) -> Line:
    """A finding's workflow command, its file named from the workspace (``at``)."""
    loc, message = _placed(finding, root)
    level = LEVELS.get(finding.severity, "error")
    if loc is None:
        return annotation(message, level=level)
    return annotation(message, at + loc.path, loc.line or 1, loc.col, level)


def workspace_prefix(root: Path | None) -> str:
    """Where the project ``root`` lies in the workflow's workspace (``$GITHUB_WORKSPACE``,
    else the working folder), as a prefix of its files' paths: ``site/``, or "" for the
    workspace itself or a root outside it."""
    if root is None:
        return ""
    base = os.environ.get("GITHUB_WORKSPACE") or os.getcwd()
    try:
        rel = Path(root).resolve().relative_to(Path(base).resolve())
    except (ValueError, OSError):
        return ""
    return "" if rel == Path() else f"{rel.as_posix()}/"


def matching(count: int) -> str:
    """The line that says a tree is in sync."""
    return f"{count} generated file{'s match' if count != 1 else ' matches'} the registry"


def _placed(finding: Problem, root: Path | None = None) -> tuple[Location | None, str]:
    """A finding's file location and message; a command-line option (``--since``) or a
    file at a git revision (``HEAD~1:profiles.yaml``) is no file of the tree, so it leads
    the message instead. A name with a colon that is a file under ``root`` (a template
    ``a:b.mdx.j2``) is one."""
    loc = finding.location
    if loc is None or names_file(loc.path, root):
        return loc, finding.message
    return None, f"{loc}: {finding.message}"


#: The workflow command of each severity of a finding.
LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def annotation(
    message: str,
    file: str | None = None,
    line: int | None = None,
    col: int | None = None,
    level: str = "error",
) -> Line:
    """One ``::error`` (or ``::warning``, ``::notice``) workflow command, properties and
    message escaped."""
    props = ",".join(
        f"{key}={_escape_property(str(value))}"
        for key, value in (("file", file), ("line", line), ("col", col))
        if value
    )
    return Line(f"::{level}{' ' if props else ''}{props}::{_escape_data(message)}")


def _diff_lines(diff: str) -> list[str]:
    """The lines of a unified diff, cut at newlines only (``splitlines`` also cuts at a
    form feed or a LINE SEPARATOR a page holds, which ``printable`` then never sees)."""
    return diff.removesuffix("\n").split("\n") if diff else []


def _escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped as GitHub reads them (a lone
    surrogate, which no UTF-8 output can carry, as its ``\\udXXX`` escape, and every other
    control, bidirectional or invisible format character as its escape, see
    ``printable_message``)."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return printable_message(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


#: Where the runner finds a workflow command in a line: ``::`` after leading whitespace
#: (the current form), or ``##[`` anywhere in it (the legacy form it still reads).
_COMMAND = re.compile(r"^\s*::|##\[")


def _inert(line: str) -> str:
    """A line of data (a diff line) that the runner cannot read as a workflow command:
    as it is, or, when it would start one, with ``%``, ``:`` and ``[`` percent-escaped."""
    if _COMMAND.search(line) is None:
        return line
    return line.replace("%", "%25").replace(":", "%3A").replace("[", "%5B")


def _escape_property(text: str) -> str:
    """A workflow command's property value: as a message, plus ``:`` and ``,``."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
