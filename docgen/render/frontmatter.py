"""A page's YAML frontmatter, read as the MkDocs preview and Fern read it: a mapping of
keys to values, or a located error at its line in the page.

libyaml reads the common frontmatter (as it reads the registry: ``fastyaml``); what it
declines, a syntax error included, ruamel.yaml reads and words, up to ``CAREFUL_MAX``
(its time grows fast with size). As in the registry, a character YAML would read as a
line break where editors see none (U+2028, U+2029, U+0085, a lone CR) is refused, and so
is a string holding a lone surrogate (an escape like ``"\\ud800"``, no character at
all). A page that opens a frontmatter with ``---`` and a ``key:`` line and never closes it
is refused too: MDX would show its lines as text, under a thematic break.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from docgen.errors import (
    SURROGATE,
    Location,
    PageError,
    Problem,
    RegistryError,
    one_line,
    text_location,
)
from docgen.registry.source import Positions
from docgen.render import syntax

#: The frontmatter's first line in its page (after the opening ``---``).
FIRST_LINE = 2
#: Largest frontmatter (characters) ruamel.yaml reads when libyaml declines it.
CAREFUL_MAX = 16_000
#: A line that starts a YAML mapping (a plain or quoted key), after any comment lines: after
#: an opening ``---`` that nothing closes, it says a frontmatter was meant (a ``---``
#: before a blank line or prose is a thematic break).
_KEY = re.compile(r"""(?:#[^\n]*\n)*(?:[A-Za-z_][\w-]*|"[^"\n]*"|'[^'\n]*')[ \t]*:""")
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2}")


@dataclass(frozen=True)
class Frontmatter:
    """A page's frontmatter: its data, and where its keys stand when libyaml read it."""

    data: dict[str, Any]
    positions: Positions | None = None

    def key_location(self, key: str) -> Location | None:
        """Where ``key`` stands in the page, when that is known."""
        if self.positions is None or (key,) not in self.positions.keys:
            return None
        return self.positions.of_key((key,))


def check(text: str, path: str) -> None:
    """Refuse a page whose frontmatter is not closed or not a YAML mapping."""
    parts = syntax.split(text)
    if parts.has_frontmatter:
        read(parts.frontmatter, path)
    elif (opening := syntax.FRONTMATTER_OPENING.match(text)) and _KEY.match(text, opening.end()):
        raise PageError.at(
            Location(path, 1, 1),
            "this '---' opens a frontmatter that no '---' line closes: close it (MDX "
            "would show its lines as text)",
        )


def read(frontmatter: str, path: str) -> Frontmatter:
    """The frontmatter (the lines between its ``---`` lines) as a mapping."""
    if not frontmatter.strip():
        return Frontmatter({})
    placed = "\n" * (FIRST_LINE - 1) + frontmatter  # read at its lines in the page
    from docgen.registry.yaml_errors import refuse_foreign_breaks

    refuse_foreign_breaks(placed, path, PageError)
    doc = _fast(placed, path)  # over CAREFUL_MAX, libyaml alone reads and words errors
    if doc is not None:  # libyaml refuses a surrogate escape: none is in what it read
        data, positions = doc.data, doc.positions
    else:
        data, positions = _careful(placed, path), None
        _refuse_surrogates(data, placed, path)
    if data is None:  # comments only
        return Frontmatter({})
    if not isinstance(data, dict):
        raise PageError.at(
            Location(path, FIRST_LINE), "frontmatter must be a mapping of keys to values"
        )
    return Frontmatter({str(k): v for k, v in data.items()}, positions)


def _fast(text: str, path: str) -> Any:
    """The document libyaml reads, or None where it declines (ruamel.yaml then reads)."""
    from docgen.registry.fastyaml import load_fast

    try:
        return load_fast(text, path, careful_max=CAREFUL_MAX)
    except RegistryError as exc:  # too deep, too large for the careful reader, a long number
        raise PageError([_in_page(p) for p in exc.problems]) from None


def _careful(text: str, path: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from docgen.registry.yaml_errors import escape_problem, marked_problem, unmarked_problem
    from docgen.registry.yaml_tabs import for_ruamel

    spaced, tab = for_ruamel(text, path)
    if tab is not None:
        raise PageError(_in_page(tab))  # said as the fast path says it
    yaml = YAML(typ="safe", pure=True)
    yaml.Constructor = _constructor()
    try:
        return yaml.load(spaced)
    except RecursionError:
        raise PageError.at(
            Location(path, FIRST_LINE), "invalid YAML frontmatter: nested too deeply"
        ) from None
    except MarkedYAMLError as exc:  # worded as the registry's syntax errors are
        raise PageError(_in_page(marked_problem(exc, path, text))) from None
    except (YAMLError, ValueError, OverflowError) as exc:  # a value Python will not read
        if isinstance(getattr(exc, "position", None), int):  # a character YAML refuses
            raise PageError(_in_page(unmarked_problem(exc, path, text))) from None
        if not isinstance(exc, YAMLError) and (escape := escape_problem(path, text)):
            raise PageError(_in_page(escape)) from None  # ``chr()`` of an escape past U+10FFFF
        said = str(exc).strip().splitlines() or [type(exc).__name__]
        raise PageError.at(
            Location(path, FIRST_LINE), f"invalid YAML frontmatter: {one_line(said[0])}"
        ) from None


@cache
def _constructor() -> Any:
    """ruamel.yaml's safe constructor, reading a timestamp as its text, as libyaml's path
    reads it (YAML 1.2's core schema has no timestamps): a date is never judged twice."""
    from ruamel.yaml.constructor import SafeConstructor

    from docgen.registry.yaml_guard import guarded

    return guarded(SafeConstructor)


#: The YAML readers' words for a file, said of a frontmatter.
_SAID_OF_THE_FRONTMATTER = (
    ("the file ends", "the frontmatter ends"),
    ("the registry", "the frontmatter"),
    ("a file over", "a frontmatter over"),
    ("would take minutes at this size", "would take too long at this size"),
)


def _in_page(problem: Problem) -> Problem:
    """A problem of the YAML read, said of the frontmatter."""
    said = problem.message
    for file_words, frontmatter_words in _SAID_OF_THE_FRONTMATTER:
        said = said.replace(file_words, frontmatter_words)
    return Problem(f"invalid YAML frontmatter: {said}", problem.location)


def _refuse_surrogates(data: Any, text: str, path: str) -> None:
    """Refuse a string that holds a lone surrogate: no character, which no UTF-8 page or
    site can carry. Located at the first surrogate escape of the text."""
    if not any(SURROGATE.search(s) for s in _strings(data)):
        return
    escape = _SURROGATE_ESCAPE.search(text)
    where = text_location(path, text, escape.start()) if escape else Location(path, FIRST_LINE)
    raise PageError.at(
        where,
        "invalid YAML frontmatter: this escape names a surrogate (U+D800 to U+DFFF), which "
        "is no character: write the character itself",
    )


def _strings(data: Any) -> Iterator[str]:
    """Every string (key or value) of ``data``, each container visited once (an alias
    repeats one)."""
    seen: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, (dict, list)) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.items() if isinstance(item, dict) else item)
        elif isinstance(item, tuple):  # a mapping's (key, value)
            stack.extend(item)
