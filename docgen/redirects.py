"""Fern's redirects: a link to a route a page has moved from still resolves.

Fern's ``docs.yml`` (setting ``fern_docs``; default ``fern/docs.yml`` when it exists)
may list ``redirects``, each a ``source`` path and a ``destination``. A source is a
path-to-regexp pattern: ``:name`` matches one segment, ``:name?`` one or none,
``:name+`` one or more, ``:name*`` (or a bare ``*``) any number, and the destination
takes what each matched. A route resolves when it is published or when its redirects
lead to a published route (or to another site). A source is matched segment by segment,
each place in it and in the route tried once; one docgen cannot read (a segment that
mixes text with a parameter, a parameter with its own regular expression, a name twice,
more than ``MAX_PARTS`` segments or ``MAX_SPANS`` parameters taking several) leads
nowhere, so a link through it is not taken for published.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from docgen.config import Project
from docgen.errors import ConfigError, Location, one_line
from docgen.io.files import Inside
from docgen.io.reads import read_input
from docgen.navigation import located, located_yaml

#: The default place of Fern's docs.yml.
DEFAULT = "fern/docs.yml"
#: Most redirects one link may go through (a loop goes nowhere).
MAX_HOPS = 20
#: A parameter: ``:name`` and its modifier, or a bare ``*``.
_PARAM = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)([?+*]?)|\*")
#: What a segment of literal text never holds.
_UNREADABLE = re.compile(r"[()\[\]{}:*?+]")
#: Most segments a route may have for a redirect to match it.
MAX_SEGMENTS = 200
#: Most segments a source may have, and most of them that take any number of segments
#: (``:name+``, ``:name*``, ``*``): matching costs grow with both.
MAX_PARTS = 32
MAX_SPANS = 2
#: Most tries matching sources with parameters may make over a check's lookups: real
#: redirects need a few per link; a hostile set of them is a located error within seconds.
MAX_STEPS = 20_000_000
#: How many segments a parameter takes, by its modifier: fewest and most.
_TAKES = {"": (1, 1), "?": (0, 1), "+": (1, MAX_SEGMENTS), "*": (0, MAX_SEGMENTS)}


class _Part(NamedTuple):
    """One segment of a source: its literal text, or a parameter (its name, ``_star`` for
    a bare ``*``) with the fewest and most segments it takes."""

    text: str
    name: str = ""
    least: int = 1
    most: int = 1


@dataclass(frozen=True)
class Redirect:
    """One redirect: the route pattern it matches and where it sends a match."""

    source: tuple[_Part, ...]
    destination: str
    where: Location

    def target(self, route: str, steps: list[int] | None = None) -> str | None:
        """Where ``route`` is sent, or None when this redirect does not match it; matching
        spends ``steps`` (a budget shared by the caller's lookups), and one that runs out
        is a located error here."""
        segments = [s for s in route.split("/") if s]
        budget = steps if steps is not None else [MAX_STEPS]
        taken = _match(self.source, segments, budget) if len(segments) <= MAX_SEGMENTS else None
        if budget[0] < 0:
            raise ConfigError.at(
                self.where,
                f"matching links against the redirects took more than {MAX_STEPS:,} steps "
                f"(here, for '{one_line(route)}'): simplify the sources with several "
                "parameters",
            )
        if taken is None:
            return None

        def filled(param: re.Match[str]) -> str:
            return taken.get(param[1] or "_star", "")

        sent = _PARAM.sub(filled, self.destination)
        # an empty ``/:name*`` or ``/:name?`` drops its slash, as path-to-regexp does
        return sent if not sent.startswith("/") else _route(re.sub("/{2,}", "/", sent))


class Routes(set[str]):
    """The routes a project publishes; ``in`` also holds a route that redirects lead from
    to one of them (or to another site)."""

    def __init__(self, routes: Iterable[str] = (), redirects: Iterable[Redirect] = ()) -> None:
        super().__init__(routes)
        self.redirects = tuple(redirects)
        self.steps = [MAX_STEPS]  # what matching patterns may still spend, over every lookup
        # A source without parameters is looked up, not matched: the first of each wins.
        self.exact: dict[str, int] = {}
        for index, redirect in enumerate(self.redirects):
            if not any(part.name for part in redirect.source):
                self.exact.setdefault(_segments(p.text for p in redirect.source), index)
        self.patterns = [i for i, r in enumerate(self.redirects) if any(p.name for p in r.source)]

    def __contains__(self, route: object) -> bool:
        if set.__contains__(self, route):
            return True
        if not isinstance(route, str):
            return False
        seen = {route}
        for _ in range(MAX_HOPS):
            route = self._sent(route)
            if not route or route in seen:
                return False
            if route.lower().startswith(("https://", "http://")) or set.__contains__(self, route):
                return True
            seen.add(route)
        return False

    def _sent(self, route: str) -> str:
        """Where the first redirect that matches ``route`` sends it ("" for none)."""
        first = self.exact.get(_segments(route.split("/")), len(self.redirects))
        for index in self.patterns:
            if index > first:
                break
            sent = self.redirects[index].target(route, self.steps)
            if sent is not None:
                return sent
        if first == len(self.redirects):
            return ""  # no source without parameters is this route
        return self.redirects[first].target(route, self.steps) or ""


def load(project: Project) -> tuple[Redirect, ...]:
    """The redirects of the project's Fern ``docs.yml``; none without one."""
    rel = project.config.fern_docs or DEFAULT
    path = project.path(rel)
    if not project.config.fern_docs and not os.path.lexists(path):
        return ()
    data = located_yaml(read_input(path, Inside(project.root), "Fern docs.yml", display=rel), rel)
    listed = data.get("redirects") if isinstance(data, Mapping) else None
    if listed is None:
        return ()
    if not isinstance(listed, list):
        raise ConfigError.at(located(data, "redirects", rel), "redirects must be a list")
    bases = _bases(data)
    found = (_redirect(listed, index, item, rel, bases) for index, item in enumerate(listed))
    return tuple(r for r in found if r is not None)


def _redirect(
    listed: list[object], index: int, item: object, path: str, bases: tuple[str, ...] = ()
) -> Redirect | None:
    where = located(listed, index, path)
    source = item.get("source") if isinstance(item, Mapping) else None
    destination = item.get("destination") if isinstance(item, Mapping) else None
    if not isinstance(source, str) or not isinstance(destination, str):
        raise ConfigError.at(where, "a redirect needs a source and a destination, both text")
    parts = _parts(_route(_on_site(source, bases)))
    return None if parts is None else Redirect(parts, _route(_on_site(destination, bases)), where)


def _bases(data: object) -> tuple[str, ...]:
    """What a path on the site may start with before a page's route: an instance's subpath
    (``url`` or ``custom-domain`` ``docs.example.com/product``), a version's slug, or both;
    longest first. Fern's redirects name the subpath (``/product/latest/guide/x``), while
    a page's route and a changelog's links do not (``/guide/x``)."""
    fern = data if isinstance(data, Mapping) else {}
    paths = {""}
    for instance in _listed(fern, "instances"):
        for key in ("url", "custom-domain"):  # a custom domain may be a list of them
            found = instance.get(key) if isinstance(instance, Mapping) else None
            for url in found if isinstance(found, list) else [found]:
                if isinstance(url, str):
                    paths.add(_subpath(url))
    versions = _listed(fern, "versions")
    slugs = {""} | {v["slug"] for v in versions if isinstance(v, Mapping) and _text(v.get("slug"))}
    found = {f"{p}/{s}" if s else p for p in paths for s in slugs} - {""}
    return tuple(sorted(found, key=lambda base: (-len(base), base)))


def _subpath(url: str) -> str:
    """The path of a site's address (``/product`` of ``docs.example.com/product``), read
    as text: an address no URL parser takes is Fern's to refuse."""
    host_and_path = url.split("://", 1)[-1].lstrip("/")
    path = host_and_path.partition("/")[2].split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return f"/{path}" if path else ""


def _listed(data: Mapping[str, object], key: str) -> list[object]:
    found = data.get(key)
    return found if isinstance(found, list) else []


def _text(value: object) -> bool:
    return isinstance(value, str) and value.strip("/") != "" and "/" not in value


def _on_site(path: str, bases: tuple[str, ...]) -> str:
    """``path`` without the subpath and version slug the site puts before routes."""
    for base in bases:
        if path == base or path.startswith(f"{base}/"):
            return path[len(base) :] or "/"
    return path


def _segments(parts: Iterable[str]) -> str:
    """A route as its non-empty segments joined (how a source without parameters matches)."""
    return "/".join(part for part in parts if part)


def _route(path: str) -> str:
    """A path as a link's route is compared: no anchor, no trailing slash."""
    return path.split("#", 1)[0].rstrip("/") or "/"


def _parts(source: str) -> tuple[_Part, ...] | None:
    """The segments of a source, or None for one docgen does not read."""
    parts = []
    for piece in (p for p in source.split("/") if p):
        param = _PARAM.fullmatch(piece)
        if param is not None:
            least, most = _TAKES["*" if param[1] is None else param[2]]
            parts.append(_Part("", param[1] or "_star", least, most))
        elif _UNREADABLE.search(piece):
            return None  # text mixed with a parameter, or a regular expression
        else:
            parts.append(_Part(piece))
    names = [p.name for p in parts if p.name]
    spans = sum(p.most > 1 for p in parts)
    readable = len(names) == len(set(names)) and len(parts) <= MAX_PARTS and spans <= MAX_SPANS
    return tuple(parts) if readable else None


def _match(
    parts: tuple[_Part, ...], segments: list[str], steps: list[int]
) -> dict[str, str] | None:
    """What each parameter takes where ``parts`` match all of ``segments``, or None; each
    place in both is tried once (a failure is remembered), each try spending a step of
    ``steps`` (none is tried once it is spent)."""
    failed: set[tuple[int, int]] = set()

    def at(i: int, j: int) -> dict[str, str] | None:
        steps[0] -= 1
        if steps[0] < 0:
            return None
        if i == len(parts):
            return {} if j == len(segments) else None
        if (i, j) in failed:
            return None
        part = parts[i]
        if not part.name:
            rest = at(i + 1, j + 1) if j < len(segments) and segments[j] == part.text else None
            if rest is not None:
                return rest
        else:
            for k in range(part.least, min(part.most, len(segments) - j) + 1):
                if (rest := at(i + 1, j + k)) is not None:
                    return {**rest, part.name: "/".join(segments[j : j + k])}
        failed.add((i, j))
        return None

    return at(0, 0)
