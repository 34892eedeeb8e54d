"""Managed regions: docgen fills ``{/* docgen:begin NAME ARGS */}`` ... ``{/* docgen:end */}``.

Text outside the markers stays byte for byte as written. Built-in regions are
``models-table``, ``host-defaults``, ``serve-command PROFILE`` and
``override-examples PROFILE``; a project adds its own as
``templates/_regions/NAME.mdx.j2`` (which receives ``args``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypedDict

from docgen.config import Project
from docgen.errors import Location, PageError, Problem, did_you_mean
from docgen.registry.model import Profile

if TYPE_CHECKING:
    from docgen.render.environment import Renderer

BEGIN = re.compile(r"^\{/\*\s*docgen:begin\s+([A-Za-z0-9_.-]+)((?:\s+[^\s*]+)*)\s*\*/\}\s*$")
END = re.compile(r"^\{/\*\s*docgen:end\s*\*/\}\s*$")
ANY_MARKER = re.compile(r"docgen:(begin|end)\b")
_WORD = re.compile(r"\S+")
_MALFORMED = (
    "malformed docgen marker: write {/* docgen:begin NAME */} or {/* docgen:end */} alone on a line"
)
BUILTIN = ("models-table", "host-defaults", "serve-command", "override-examples")


class CustomRegionContext(TypedDict):
    """What a project's region template (``templates/_regions/NAME.mdx.j2``) receives: the
    marker's arguments."""

    args: list[str]


class BuiltinRegionContext(TypedDict):
    """What a built-in region template receives: the profile its marker names."""

    p: Profile


@dataclass(frozen=True)
class Region:
    name: str
    args: tuple[str, ...]
    begin: int  # index of the begin marker line
    end: int  # index of the end marker line
    line: int  # 1-based line of the begin marker
    cols: tuple[int, ...] = (1,)  # 1-based columns of its name, then of each argument


def custom_regions(project: Project) -> set[str]:
    """The names of the project's own regions (``templates/_regions/NAME.mdx.j2``)."""
    folder = project.path(project.config.templates) / "_regions"
    if not folder.is_dir():
        return set()
    return {p.name[: -len(".mdx.j2")] for p in folder.glob("*.mdx.j2")}


def has_markers(text: str) -> bool:
    return "docgen:begin" in text or "docgen:end" in text


def find(path: str, lines: list[str]) -> list[Region]:
    """The regions of a page; unbalanced or malformed markers are located errors."""
    problems: list[Problem] = []
    regions = list(_scan(path, lines, problems))
    if problems:
        raise PageError(problems)
    return regions


def refuse_in_generated(path: str, text: str, project: Project) -> None:
    """A page a template writes holds no region: docgen fills regions only in hand-written
    pages, so markers a template prints would keep whatever lies between them, stale, in a
    page every check calls in sync. Only well-formed regions count (prose may name a
    marker), and markers inside fenced code are examples, as anywhere."""
    if not has_markers(text):
        return
    found = list(_scan(path, text.split("\n"), []))
    custom = custom_regions(project) if found else set()  # a project's own come first
    problems = [
        Problem(
            f"region '{region.name}' in a page a template writes: docgen fills regions only "
            f"in hand-written pages; write {_in_a_template(region, custom)} in the template "
            "instead",
            Location(path, region.line),
        )
        for region in found
    ]
    if problems:
        raise PageError(problems)


def _in_a_template(region: Region, custom: set[str]) -> str:
    """What a template writes for what ``region`` holds (the project's own region
    template where it has one, as ``fill`` uses it)."""
    builtin = region.name not in custom
    if builtin and region.name == "models-table":
        return "{{ models_table() }}"
    if builtin and region.name == "host-defaults":
        return "{{ host_defaults_table() }}"
    if builtin and region.name in ("serve-command", "override-examples"):
        profile = json.dumps(region.args[0] if len(region.args) == 1 else "PROFILE-ID")
        name = f"_builtin/{region.name}.mdx.j2"
        return (
            f'{{% with p = registry.profiles[{profile}] %}}{{% include "{name}" %}}{{% endwith %}}'
        )
    args = json.dumps(list(region.args))
    name = f"_regions/{region.name}.mdx.j2"
    return f'{{% with args = {args} %}}{{% include "{name}" %}}{{% endwith %}}'


def _in_code(lines: list[str]) -> list[bool]:
    """Which lines lie in fenced code, where a marker is an example, not a region."""
    from docgen.render.syntax import PROSE, roles

    return [role != PROSE for role, _fence in roles(lines)]


def _scan(path: str, lines: list[str], problems: list[Problem]) -> Iterator[Region]:
    opened: Region | None = None  # its end not known yet
    code = _in_code(lines) if any(ANY_MARKER.search(line) for line in lines) else []
    for index, text in enumerate(lines):
        if code and code[index] and opened is None:
            continue  # inside a region, its own content may hold fences: they are its own
        where = Location(path, index + 1, 1)  # a marker stands alone on its line
        begin, end = BEGIN.match(text), END.match(text)
        if begin and opened is not None:
            message = f"docgen:begin inside region '{opened.name}' (opened on line {opened.line})"
            problems.append(Problem(f"{message}; close it first", where))
        elif begin:
            opened = _opening(index, begin)
        elif end and opened is None:
            problems.append(Problem("docgen:end without a docgen:begin", where))
        elif end and opened is not None:
            yield replace(opened, end=index)
            opened = None
        elif found := ANY_MARKER.search(text):
            where = Location(path, index + 1, found.start() + 1)
            problems.append(Problem(_MALFORMED, where))
    if opened is not None:
        message = f"region '{opened.name}' is never closed: add {{/* docgen:end */}}"
        problems.append(Problem(message, Location(path, opened.line, 1)))


def _opening(index: int, begin: re.Match[str]) -> Region:
    """The region a begin marker on line ``index`` opens (its end not known yet), with
    the column of its name and of each argument."""
    args = list(_WORD.finditer(begin[2]))
    cols = (begin.start(1) + 1, *(begin.start(2) + a.start() + 1 for a in args))
    return Region(begin[1], tuple(a[0] for a in args), index, -1, index + 1, cols)


def fill(path: str, text: str, renderer: Renderer, custom: set[str]) -> str:
    """The page with every region's content rendered afresh from the registry."""
    lines = text.split("\n")
    regions = find(path, lines)
    problems: list[Problem] = []
    contents = [_content(path, r, renderer, custom, problems) for r in regions]
    problems += [
        p for r, text in zip(regions, contents, strict=True) if (p := _breaks(path, r, text))
    ]
    if problems:
        raise PageError(problems)
    out: list[str] = []
    cursor = 0
    for region, content in zip(regions, contents, strict=True):
        out += lines[cursor : region.begin + 1]
        out += ["", content.strip("\n"), ""]
        cursor = region.end
    out += lines[cursor:]
    return "\n".join(out)


def _live(content: str) -> bool:
    """Whether a region's rendered ``content`` names a marker that the next run, reading
    it inside the region, would take for the region's end or refuse (inside a region, a
    fenced block is the region's own: its end marker ends the region there too)."""
    if not has_markers(content):
        return False
    found: list[Problem] = []
    lines = ["{/* docgen:begin r */}", *content.split("\n"), "{/* docgen:end */}"]
    read = list(_scan("", lines, found))
    return bool(found) or [r.end for r in read] != [len(lines) - 1]


def _breaks(path: str, region: Region, content: str) -> Problem | None:
    """Why a region's rendered ``content`` would break how the next run reads the page: a
    marker in it (see ``_live``), or a code fence it leaves open, which would run on over
    the page's later regions (their markers read as code, never filled again)."""
    from docgen.render.syntax import PROSE, roles

    if _live(content):
        why = (
            "a docgen:begin or docgen:end marker, which the next run would read as this "
            "page's own and cut the region there (a fenced block inside a region is the "
            "region's own): leave it out of the region's content"
        )
    elif list(roles([*content.split("\n"), ""]))[-1][0] != PROSE:
        why = "a code fence it never closes, which would run on over the rest of the page: close it"
    else:
        return None
    return Problem(f"region '{region.name}' rendered {why}", Location(path, region.line))


def _content(
    path: str, region: Region, renderer: Renderer, custom: set[str], problems: list[Problem]
) -> str:
    where = Location(path, region.line, region.cols[0])
    if region.name in custom:
        context = CustomRegionContext(args=list(region.args))
        return renderer.render(f"_regions/{region.name}.mdx.j2", f"{path}:{region.line}", context)
    builder = BUILDERS.get(region.name)
    if builder is None:
        names = sorted({*BUILTIN, *custom})
        problems.append(
            Problem(f"unknown region '{region.name}'{did_you_mean(region.name, names)}", where)
        )
        return ""
    try:
        return builder(renderer, region.args)
    except LookupError as exc:  # its second argument: the index of the argument it is about
        at = exc.args[1] + 1 if len(exc.args) > 1 else 0
        where = Location(path, region.line, region.cols[at] if at < len(region.cols) else 1)
        problems.append(Problem(str(exc.args[0]), where))
        return ""


def _profile(renderer: Renderer, args: tuple[str, ...], region: str) -> Profile:
    if len(args) != 1:
        raise LookupError(f"region '{region}' takes one profile id, got {len(args)} arguments")
    profiles = renderer.registry.profiles
    if args[0] not in profiles:
        raise LookupError(
            f"unknown profile '{args[0]}' in region '{region}'{did_you_mean(args[0], profiles)}",
            0,
        )
    return profiles[args[0]]


def _no_args(region: str, args: tuple[str, ...]) -> None:
    if args:
        raise LookupError(f"region '{region}' takes no arguments", 0)


def _models(renderer: Renderer, args: tuple[str, ...]) -> str:
    _no_args("models-table", args)
    return str(renderer.models_table())


def _host_defaults(renderer: Renderer, args: tuple[str, ...]) -> str:
    _no_args("host-defaults", args)
    return str(renderer.host_defaults_table())


def _serve(renderer: Renderer, args: tuple[str, ...]) -> str:
    profile = _profile(renderer, args, "serve-command")
    context = BuiltinRegionContext(p=profile)
    return renderer.render("_builtin/serve-command.mdx.j2", "docgen:serve-command", context)


def _overrides(renderer: Renderer, args: tuple[str, ...]) -> str:
    profile = _profile(renderer, args, "override-examples")
    context = BuiltinRegionContext(p=profile)
    return renderer.render("_builtin/override-examples.mdx.j2", "docgen:override-examples", context)


BUILDERS: dict[str, Callable[[Renderer, tuple[str, ...]], str]] = {
    "models-table": _models,
    "host-defaults": _host_defaults,
    "serve-command": _serve,
    "override-examples": _overrides,
}


def strip_regions(text: str) -> str:
    """The page with every region's content removed (the markers kept)."""
    out: list[str] = []
    inside = False
    lines = text.split("\n")
    code = _in_code(lines)
    for index, line in enumerate(lines):
        if END.match(line) and inside:
            inside = False
        if not inside:
            out.append(line)
        if BEGIN.match(line) and not code[index]:
            inside = True
    return "\n".join(out)
