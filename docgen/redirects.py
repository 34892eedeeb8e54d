"""Fern's redirects: a link to a route a page has moved from still resolves.

Fern's ``docs.yml`` (setting ``fern_docs``; default ``fern/docs.yml`` when it exists)
may list ``redirects``, each a ``source`` path and a ``destination``. A source is a
path-to-regexp pattern: ``:name`` matches one segment, ``:name?`` one or none,
``:name+`` one or more, ``:name*`` (or a bare ``*``) any number, and the destination
takes what each matched. A route resolves when it is published or when its redirects
lead to a published route (or to another site); a source docgen cannot read (a
parameter with its own regular expression, or more than two of any number of segments)
leads nowhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from docgen.config import Project
from docgen.errors import ConfigError, Location
from docgen.io.files import Inside
from docgen.io.reads import read_input

#: The default place of Fern's docs.yml.
DEFAULT = "fern/docs.yml"
#: Most redirects one link may go through (a loop goes nowhere).
MAX_HOPS = 20
#: A parameter: ``:name`` and its modifier, or a bare ``*``.
_PARAM = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)([?+*]?)|\*")
#: What a pattern holds besides parameters and literal text.
_UNREADABLE = re.compile(r"[()\[\]{}]")


@dataclass(frozen=True)
class Redirect:
    """One redirect: the route pattern it matches and where it sends a match."""

    source: re.Pattern[str]
    destination: str
    where: Location

    def target(self, route: str) -> str | None:
        """Where ``route`` is sent, or None when this redirect does not match it."""
        found = self.source.fullmatch(route)
        if found is None:
            return None
        taken = {k: v or "" for k, v in found.groupdict().items()}

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

    def __contains__(self, route: object) -> bool:
        if set.__contains__(self, route):
            return True
        if not isinstance(route, str):
            return False
        seen = {route}
        for _ in range(MAX_HOPS):
            route = next((t for r in self.redirects if (t := r.target(route)) is not None), "")
            if not route or route in seen:
                return False
            if route.lower().startswith(("https://", "http://")) or set.__contains__(self, route):
                return True
            seen.add(route)
        return False


def load(project: Project) -> tuple[Redirect, ...]:
    """The redirects of the project's Fern ``docs.yml``; none without one."""
    from docgen.navigation import located_yaml

    rel = project.config.fern_docs or DEFAULT
    path = project.path(rel)
    if not project.config.fern_docs and not os.path.lexists(path):
        return ()
    data = located_yaml(read_input(path, Inside(project.root), "Fern docs.yml", display=rel), rel)
    listed = data.get("redirects") if isinstance(data, Mapping) else None
    if listed is None:
        return ()
    if not isinstance(listed, list):
        raise ConfigError.at(_at(data, "redirects", rel), "redirects must be a list")
    found = (_redirect(listed, index, item, rel) for index, item in enumerate(listed))
    return tuple(r for r in found if r is not None)


def _redirect(listed: list[object], index: int, item: object, path: str) -> Redirect | None:
    where = _item_at(listed, index, path)
    source = item.get("source") if isinstance(item, Mapping) else None
    destination = item.get("destination") if isinstance(item, Mapping) else None
    if not isinstance(source, str) or not isinstance(destination, str):
        raise ConfigError.at(where, "a redirect needs a source and a destination, both text")
    try:
        pattern = None if _unreadable(source) else _pattern(_route(source))
    except re.error:  # a name twice, two bare stars
        pattern = None
    return None if pattern is None else Redirect(pattern, _route(destination), where)


def _unreadable(source: str) -> bool:
    """A source docgen does not read: a parameter with its own regular expression, or more
    than two that take any number of segments (matching those could take very long)."""
    many = sum(1 for p in _PARAM.finditer(source) if p[1] is None or p[2] in ("*", "+"))
    return bool(_UNREADABLE.search(source)) or many > MAX_SPANS


#: Most parameters of any number of segments (``:name*``, ``:name+``, ``*``) a source holds.
MAX_SPANS = 2


def _route(path: str) -> str:
    """A path as a link's route is compared: no anchor, no trailing slash."""
    return path.split("#", 1)[0].rstrip("/") or "/"


def _pattern(source: str) -> re.Pattern[str]:
    """The regular expression of a path-to-regexp ``source`` (named groups; ``_star`` for
    a bare ``*``)."""
    out, last = [], 0
    for param in _PARAM.finditer(source):
        literal = source[last : param.start()]
        name, modifier = param[1] or "_star", "*" if param[1] is None else param[2]
        if modifier in ("*", "?") and literal.endswith("/"):
            # ``/:name*`` and ``/:name?`` also match nothing, slash included
            body = "[^/]+" if modifier == "?" else ".+"
            out += [re.escape(literal[:-1]), f"(?:/(?P<{name}>{body}))?"]
        else:
            body = {"": "[^/]+", "?": "[^/]*", "+": ".+", "*": ".*"}[modifier]
            out += [re.escape(literal), f"(?P<{name}>{body})"]
        last = param.end()
    out.append(re.escape(source[last:]))
    return re.compile("".join(out))


def _at(node: object, key: str, path: str) -> Location:
    try:
        line, col = node.lc.value(key)  # type: ignore[attr-defined]
    except (AttributeError, KeyError, TypeError):
        return Location(path)
    return Location(path, line + 1, col + 1)


def _item_at(items: object, index: int, path: str) -> Location:
    try:
        line, col = items.lc.item(index)  # type: ignore[attr-defined]
    except (AttributeError, KeyError, TypeError):
        return Location(path)
    return Location(path, line + 1, col + 1)
