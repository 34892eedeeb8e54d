"""A page's YAML frontmatter, read as the MkDocs preview and Fern read it: a mapping of
keys to values, or a located error at its line in the page.

libyaml reads the common frontmatter (as it reads the registry: ``fastyaml``); what it
declines, a syntax error included, ruamel.yaml reads and words. A page that opens a
frontmatter with ``---`` and never closes it is refused too: MDX would show its lines as
text, under a thematic break.
"""

from __future__ import annotations

from typing import Any

from docgen.errors import Location, PageError, Problem, RegistryError
from docgen.render import syntax

#: The frontmatter's first line in its page (after the opening ``---``).
FIRST_LINE = 2


def check(text: str, path: str) -> None:
    """Refuse a page whose frontmatter is not closed or not a YAML mapping."""
    parts = syntax.split(text)
    if parts.has_frontmatter:
        read(parts.frontmatter, path)
    elif text.startswith(("---\n", "---\r\n")):
        raise PageError.at(
            Location(path, 1, 1),
            "this '---' opens a frontmatter that no '---' line closes: close it (MDX "
            "would show its lines as text)",
        )


def read(frontmatter: str, path: str) -> dict[str, Any]:
    """The frontmatter (the lines between its ``---`` lines) as a mapping."""
    if not frontmatter.strip():
        return {}
    placed = "\n" * (FIRST_LINE - 1) + frontmatter  # read at its lines in the page
    data = _fast(placed, path)
    if data is None:
        data = _careful(placed, path)
    if not isinstance(data, dict):
        raise PageError.at(
            Location(path, FIRST_LINE), "frontmatter must be a mapping of keys to values"
        )
    return {str(k): v for k, v in data.items()}


def _fast(text: str, path: str) -> Any:
    """The data libyaml reads, or None where it declines (ruamel.yaml then reads)."""
    from docgen.registry.fastyaml import load_fast

    try:
        doc = load_fast(text, path)
    except RegistryError as exc:  # too deep, or too large for the careful reader
        raise PageError([_in_page(p) for p in exc.problems]) from None
    return None if doc is None else doc.data


def _careful(text: str, path: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from docgen.registry.yaml_errors import marked_problem

    try:
        return YAML(typ="safe", pure=True).load(text)
    except RecursionError:
        raise PageError.at(
            Location(path, FIRST_LINE), "invalid YAML frontmatter: nested too deeply"
        ) from None
    except MarkedYAMLError as exc:  # worded as the registry's syntax errors are
        raise PageError(_in_page(marked_problem(exc, path, text))) from None
    except YAMLError as exc:
        said = str(exc).strip().splitlines() or [type(exc).__name__]
        raise PageError.at(
            Location(path, FIRST_LINE), f"invalid YAML frontmatter: {said[0]}"
        ) from None


def _in_page(problem: Problem) -> Problem:
    """A problem of the YAML read, said of the frontmatter."""
    said = problem.message.replace("the file ends", "the frontmatter ends")
    return Problem(f"invalid YAML frontmatter: {said}", problem.location)
