"""Fern's slugs as docgen reads a navigation: the slug Fern derives from a node's title,
what a slug a navigation gives may hold, and which routes a link reaches."""

from __future__ import annotations

import re

from docgen.errors import Location, Problem, one_line

#: A slug a navigation may give: one path segment of a route, nothing a link could break on.
SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._~-]*")
#: What a slug may hold, as messages say it.
SLUG_CHARACTERS = "letters, digits, '-', '_', '.' and '~', starting with a letter or digit"


def slug_of(title: str) -> str:
    """A title's slug, as Fern gives one to a node without its own ``slug``: lodash's
    ``kebabCase`` (pydash's port of it), which splits camel case and digits from letters
    (``vLLM Profiles`` is ``v-llm-profiles``, ``GB10`` is ``gb-10``) and folds accents.
    A title of plain ASCII words is split as lodash splits it, without importing pydash
    (lodash's own fast path: ``_ASCII_WORDS``)."""
    if not _UNICODE_WORD.search(title):
        return "-".join(word.lower() for word in _ASCII_WORDS.findall(title))
    from pydash import kebab_case

    return str(kebab_case(title))


#: lodash's ``hasUnicodeWord``: a title it splits with its full word pattern (a case or
#: digit boundary inside a word, or any character but ASCII letters, digits and spaces).
_UNICODE_WORD = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[0-9][a-zA-Z]|[a-zA-Z][0-9]|[^a-zA-Z0-9 ]")
#: The words of any other title, as lodash's ``asciiWords`` finds them.
_ASCII_WORDS = re.compile(r"[A-Za-z0-9]+")


def linkable(route: str, derived: dict[str, Location], where: Location) -> Problem | None:
    """None when every segment of ``route`` is one a link reaches; else a problem at the
    node whose title gave the first that is not (``derived``: the route each such slug
    ends, and where its title stands; ``where`` when no title gave it). A title beyond ASCII gives a
    segment Fern publishes but calls every link into broken (``日本語-リリース``); one
    of punctuation alone gives none (``//`` in the route)."""
    segments = route.split("/")[1:]
    at = next((i for i, s in enumerate(segments) if not SLUG.fullmatch(s)), None)
    if at is None:
        return None
    node = derived.get("/" + "/".join(segments[: at + 1]), where)
    return Problem(
        f"the route {one_line(route)} holds '{one_line(segments[at])}', which no link reaches "
        f"(docgen links to each release under it): give the node a slug of {SLUG_CHARACTERS}",
        node,
    )
