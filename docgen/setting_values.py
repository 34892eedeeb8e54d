"""What the text of each setting may be: the words, format fields and route characters
it may hold, where a path setting may lie, and why a value is refused, worded for the
located error ``config`` raises (a path's own checks, ``checked_path``, raise it here)."""

from __future__ import annotations

import os
import posixpath
import re
import string
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from docgen.errors import (
    CONTROL,
    ConfigError,
    Location,
    Problem,
    did_you_mean,
    one_line,
    surrogate_problem,
)
from docgen.settings_file import key_location

#: Settings docgen fills in with ``str.format``, and the only fields each may name.
FORMAT_FIELDS = {
    "variant_pattern": ("dir", "stem", "agent"),
    "release_route": ("year", "month", "day"),
}
#: Settings that take one of a few words, and those words.
CHOICES = {"overview": ("generated", "none")}
#: What ``build_products`` may name: a setting whose outputs are then build products,
#: and the kind of output (``Output.kind``) that setting places.
PRODUCTS = {"variants": "variant", "export": "export"}
#: Settings that become part of a route (a link in a page) or of a file name, and the
#: only characters their own text may hold besides their fields: no blank, parenthesis,
#: bracket, brace, quote, ``:`` or ``%`` can end a link or start another.
ROUTE_SAFE = re.compile(r"[A-Za-z0-9._~/-]*")
ROUTE_SETTINGS = ("variant_pattern", "release_route", "changelog_link")
#: What ``ROUTE_SAFE`` allows, worded for a message.
ROUTE_CHARS = "ASCII letters, digits, . _ ~ / -"
#: Longest file or folder name file systems hold (NAME_MAX on Linux and macOS).
NAME_BYTES = 255


def products_problem(value: Any) -> str | None:
    """Why ``value`` cannot be the ``build_products`` list, or None: a list of the
    settings whose outputs are build products, each named once."""
    names = " and ".join(f"'{name}'" for name in PRODUCTS)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return f"setting 'build_products' must be a list of output settings: {names}"
    for n, name in enumerate(value):
        if name not in PRODUCTS:
            return (
                f"setting 'build_products' lists '{one_line(name)}', which is not an output "
                f"setting (they are {names}){did_you_mean(name, PRODUCTS)}"
            )
        if name in value[:n]:
            return f"setting 'build_products' lists '{one_line(name)}' twice"
    return None


def text_problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be the text of setting ``key``: one of its words, a format
    string's fields, then the characters of a route or file name; None when it can be."""
    if key in CHOICES and value not in CHOICES[key]:
        words = " or ".join(f"'{w}'" for w in CHOICES[key])
        return f"setting '{key}' is {words}, got '{one_line(value)}'"
    problem = _format_problem(key, value) if key in FORMAT_FIELDS else None
    if problem is None and key in ROUTE_SETTINGS:
        problem = route_problem(key, value)
    if problem is None and key == "release_route":
        problem = _one_route_a_day(value)
    return problem


def _one_route_a_day(value: str) -> str | None:
    """Why ``release_route`` could give two release days one route, or None: it names
    ``{year}``, ``{month}`` and ``{day}``, and text with a non-digit stands between any two
    fields (``{month}{day}`` is 111 on both January 11 and November 1)."""
    parts = [(text, name) for text, name, _spec, _conversion in string.Formatter().parse(value)]
    named = {name for _text, name in parts if name}
    # Each part is the text before a field, then the field: the text between two fields
    # is the second one's.
    pairs = zip(parts, parts[1:], strict=False)
    between = [text for (_t, first), (text, then) in pairs if first and then]
    apart = all(any(not c.isdigit() for c in text) for text in between)
    if named == set(FORMAT_FIELDS["release_route"]) and apart:
        return None
    return (
        "setting 'release_route' must name {year}, {month} and {day}, with text between any "
        "two of them (such as 'release-notes/{year}/{month}/{day}'): each release needs a "
        f"route of its own, got '{one_line(value)}'"
    )


def _fields(key: str) -> str:
    """The fields of setting ``key``, worded: ``{year}, {month} and {day}``."""
    names = [f"{{{name}}}" for name in FORMAT_FIELDS[key]]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _format_problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be the format string of setting ``key``, or None: only its
    plain fields (``{agent}``), no index, attribute, conversion or format spec, so filling
    it in can neither fail nor read anything else nor grow without bound."""
    allowed = _fields(key)
    try:
        parts = list(string.Formatter().parse(value))
    except ValueError:
        return f"setting '{key}' has an unmatched brace; its fields are {allowed}"
    for _text, name, spec, conversion in parts:
        if name is not None and (name not in FORMAT_FIELDS[key] or spec or conversion):
            field = (
                f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
            )
            return (
                f"setting '{key}' may use only the fields {allowed} (no index, attribute, "
                f"conversion or format spec), got '{field}'"
            )
    return None


def route_problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be the setting ``key``, text that becomes a route or a file
    name; None when it can. Its text outside its fields holds only ``ROUTE_SAFE``
    characters, and a route (``release_route``, ``routes``) is relative parts joined by
    single slashes: no part empty, ``.`` or ``..`` (``routes`` may start or end in ``/``)."""
    fields = FORMAT_FIELDS.get(key, ())
    text = value
    for name in fields:
        text = text.replace(f"{{{name}}}", "x")
    bad = next((c for c in text if not ROUTE_SAFE.fullmatch(c)), None)
    if bad is not None:
        what = f", and the fields {_fields(key)}" if fields else ""
        return (
            f"setting '{one_line(key)}' holds {one_line(repr(bad))}, which a route or file "
            f"name cannot hold; use only {ROUTE_CHARS}{what}"
        )
    if key in ("variant_pattern", "changelog_link"):
        return None  # paths: checked as paths when they are used
    mapped = key.startswith("routes.")
    route = text.strip("/") if mapped else text
    if (route or not mapped) and any(p in ("", ".", "..") for p in route.split("/")):
        edges = "" if mapped else ", none at the start or end"
        return (
            f"setting '{one_line(key)}' is the route '{one_line(value)}'; a route is names "
            f"joined by single slashes{edges}, and no name is . or .."
        )
    return None


def routes_problems(value: Any, path: Path, where: Location) -> list[Problem]:
    """What is wrong with the ``routes`` setting: each page's route a string, a route."""
    if not isinstance(value, dict):
        return [Problem("setting 'routes' must map page paths to routes", where)]
    problems = []
    for page, mapped in value.items():
        if isinstance(mapped, str):
            problem = route_problem(f"routes.{page}", mapped)
        else:
            problem = f"setting 'routes' maps '{one_line(page)}' to no route: write a string"
        if problem is not None:
            at = key_location(path, page)
            problems.append(Problem(problem, at if at.line else where))
    return problems


#: Git's own folder: no path setting may lie in one, and docgen follows no link into one.
GIT_FOLDER = ".git"


def in_git_folder(path: str, sep: str = "/") -> bool:
    """Whether ``path`` (its segments split at ``sep``) lies in a git folder: one of them is
    ``.git``, in any case (some file systems compare names so)."""
    folded = path.casefold()
    return GIT_FOLDER in folded and GIT_FOLDER in folded.split(sep)


#: The settings naming what docgen reads, how a message names each, and for a folder the
#: ending of the files it reads there ("" for a file): the export, which docgen writes,
#: may be none of those files.
INPUT_PATHS = {
    "registry": ("the registry", ""),
    "templates": ("a template in the templates folder", ".j2"),
    "changelog": ("an entry in the changelog folder", ".mdx"),
    "fragments": ("a note in the notes folder", ".md"),
    "navigation": ("the navigation", ""),
    "fern_docs": ("Fern's docs.yml", ""),
}


def placement_problem(root: Path, paths: Mapping[str, str]) -> tuple[str, str] | None:
    """The setting (of ``paths``: each path setting's value, defaults filled in) that puts
    a path where docgen must not write, and why: in git's own ``.git`` folder, or the
    export on a file docgen reads. Paths are compared as the file system resolves them
    (through links inside ``root``), and without regard to case, as some file systems
    compare names; None when every path is in its place."""
    real = {key: _resolved(root, value) for key, value in paths.items() if value}
    for key, place in real.items():
        if in_git_folder(place):
            return key, f"path '{one_line(paths[key])}' lies in git's own folder, .git"
    if (notes := _notes_problem(root, paths, real)) is not None:
        return "fragments", notes
    export = real.get("export", "")
    for key, (what, ending) in INPUT_PATHS.items():
        place = real.get(key, "")
        inside = export.startswith(f"{place}/") and export.endswith(ending)
        if place and (export == place if not ending else inside):
            return "export", (
                f"setting 'export' puts the export at {one_line(paths['export'])}, {what} "
                f"(setting '{key}'), which docgen reads: write it elsewhere"
            )
    return None


#: The folders whose files are others' (the docs' pages, the entries, the templates), where
#: a notes folder would have ``changelog`` take their ``.md`` files for notes and delete them.
_NOT_NOTES = {
    "docs": "the docs folder",
    "changelog": "the changelog folder",
    "templates": "the templates folder",
}


def _notes_problem(root: Path, paths: Mapping[str, str], real: Mapping[str, str]) -> str | None:
    """Why the notes folder (``fragments``, as given in ``paths`` and resolved in ``real``)
    lies where a release would delete files that are no notes: the project's root (its
    README and CONTRIBUTING pages), or in, or above, a folder of ``_NOT_NOTES`` that is not
    the root; None when it has a place of its own."""
    notes, given = real.get("fragments", ""), paths.get("fragments", "")
    base = os.path.realpath(root)
    if not notes:
        return None
    where = "the project's root" if _at(base, given) == base else None
    for key, what in _NOT_NOTES.items():
        place = real.get(key, "")
        if where or not place or _at(base, paths.get(key, "")) == base:
            continue
        if notes == place or notes.startswith(f"{place}/"):
            where = f"{'' if notes == place else 'in '}{what} (setting '{key}')"
        elif place.startswith(f"{notes}/"):
            where = f"a folder that holds {what} (setting '{key}')"
    if where is None:
        return None
    return (
        f"setting 'fragments' puts the notes folder at {one_line(given)}, {where}: a release "
        "merges and deletes the .md files there, so give notes a folder of their own, such "
        "as changelog.d"
    )


def _at(base: str, value: str) -> str:
    """Where ``value`` leads from the real path ``base``, as the file system resolves it."""
    return os.path.realpath(os.path.join(base, value))


def _resolved(root: Path, value: str) -> str:
    """``value`` below ``root`` as the file system resolves it, relative to the root's own
    real path, in lowercase (the value as written when it leads outside)."""
    base = os.path.realpath(root)
    real = os.path.realpath(os.path.join(base, value))
    inside = real.startswith(base + os.sep)
    return (real[len(base) + 1 :] if inside else value).replace(os.sep, "/").lower()


def link_problem(given: str, docs_folder: str) -> str | None:
    """Why the ``changelog_link`` setting ``given`` names no page of the docs folder (the
    page a changelog bullet links to, by its route), or None."""
    page, docs = posixpath.normpath(given), posixpath.normpath(docs_folder)
    outside = page.startswith(("/", "../")) or page == ".."
    inside = not outside and (docs == "." or page.startswith(f"{docs}/"))
    if not given or (inside and page.endswith((".mdx", ".md"))):
        return None
    example = "index.mdx" if docs == "." else f"{docs}/index.mdx"
    return (
        f"setting 'changelog_link' names '{one_line(given)}', which is no page of the docs "
        f"folder: name the page changelog bullets link to, such as '{example}'"
    )


def checked_path(value: str, where: Location) -> str:
    """A relative path inside the project that every file system can hold, else a
    located error: no control characters, no part longer than ``NAME_BYTES``."""
    pure = PurePosixPath(value.replace("\\", "/"))
    shown = one_line(value if len(value) <= 80 else f"{value[:77]}...")
    if pure.is_absolute() or ".." in pure.parts or not value.strip():
        raise ConfigError(
            Problem(f"path '{shown}' must be relative and stay inside the project", where)
        )
    if in_git_folder(pure.as_posix()):
        raise ConfigError(Problem(f"path '{shown}' lies in git's own folder, .git", where))
    if CONTROL.search(value):
        raise ConfigError(Problem(f"path '{shown}' holds a control character", where))
    if (undecoded := surrogate_problem(value)) is not None:
        raise ConfigError(Problem(f"path '{shown}' is no file name: {undecoded}", where))
    if any(len(part.encode("utf-8", "replace")) > NAME_BYTES for part in pure.parts):
        raise ConfigError(
            Problem(f"path '{shown}' has a name longer than {NAME_BYTES} bytes", where)
        )
    return pure.as_posix()
