"""The links of a changelog entry: where their targets are, and which targets it may hold
(a route the project publishes, or a web or mail address; never a script)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from docgen.changelog.entries import shown
from docgen.errors import Location, Problem

#: A link's target: after ``](``, blanks, an optional ``<``; up to a blank, ``)`` or ``>``.
#: Its text may hold brackets one level deep (``[the [beta] guide]``, ``[![badge](x.svg)]``).
LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([ \t]*<?((?:[^()\s>]|\([^()\s>]*\))+)")
#: A link reference definition (``[name]: target``), which a ``[name]`` link uses; its
#: target may stand on the next line (``DEFINED``).
DEFINITION = re.compile(r"^[ \t]*(?:(?:>|[-*+]|[0-9]{1,9}[.)])[ \t]*)*\[[^\]]+\]:[ \t]*<?([^\s>]+)")
#: An image's source (``![alt](src)``): a script is no more welcome there than in a link.
IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([ \t]*<?((?:[^()\s>]|\([^()\s>]*\))+)")
DEFINED = re.compile(r"^[ \t]*(?:(?:>|[-*+]|[0-9]{1,9}[.)])[ \t]*)*\[[^\]]+\]:[ \t]*$")
#: The target that stands alone on the line after ``DEFINED`` (with an optional title:
#: more words make that line a paragraph, and ``DEFINED`` no definition).
NEXT_TARGET = re.compile(r"""^[ \t>]*<?([^\s>]+)>?[ \t]*(?:"[^"]*"?|'[^']*'?|\([^)]*\)?)?[ \t]*$""")
#: A URL scheme (``javascript:``, ``https:``), and the links to elsewhere a link may be:
#: http(s), mail, or a host on the site's own scheme (``//cdn.example.org``). No other
#: scheme (``javascript:``, ``data:``, ``vbscript:``, ``file:``) is accepted.
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
#: Where a link target may begin, however the link's text is written (see _hidden_links).
ANY_TARGET = re.compile(r"\]\(\s*<?([^\s<>]+)|\]:\s*<?([^\s<>]+)")
#: A backslash escape, which MDX drops from a target (``javascript\:``).
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
WEB = re.compile(r"^(?:https?:)?//[^/\\]|^mailto:[^/]", re.IGNORECASE)

#: The rule id of a link whose target is not a root-absolute route or a web address.
LINK_RULE = "changelog-link-root-absolute"


def line_links(line: str, where: Location, routes: set[str]) -> list[Problem]:
    """The problems of the targets of the links, definitions and images on one line."""
    problems: list[Problem] = []
    for target in LINK.findall(line) + DEFINITION.findall(line):
        problems += link_problem(target, where, routes)
    for written in IMAGE.findall(line):  # a file beside the page is fine: a script is not
        # MDX decodes `&#58;` in it, and a browser drops blanks and tabs from a scheme.
        source = re.sub(r"[\x00-\x20]", "", html.unescape(written))
        if SCHEME.match(source) or source.startswith("/\\"):
            problems += link_problem(source, where, set())
    return problems


def hidden_links(text: str, path: str, linked: set[int]) -> Iterator[Problem]:
    """A script or off-site target in ``text`` (the file ``path``) that the patterns
    above cannot see (link text holding ``\\]`` or a code span, or running over lines; a
    target after a line end): every ``](`` and ``]:`` is where a target may begin. Lines
    in ``linked`` (already said to link wrongly) are skipped, and those said are added."""
    number, counted = 1, 0  # the line number at offset ``counted``
    for match in ANY_TARGET.finditer(text):
        raw, start = (_closed(match[1]), match.start(1)) if match[1] else (match[2], match.start(2))
        opened = number + text.count("\n", counted, match.start())
        number, counted = opened + text.count("\n", match.start(), start), start
        # As MDX reads a target: entities decoded, escapes dropped; a browser drops blanks.
        target = re.sub(r"[\x00-\x20]", "", html.unescape(ESCAPED.sub(r"\1", raw)))
        off_site = (SCHEME.match(target) or target.startswith("/\\")) and not WEB.match(target)
        if off_site and opened not in linked and number not in linked:
            linked.add(number)  # said where a definition's target, or a link's ``](``, is
            yield from link_problem(target, Location(path, number if match[2] else opened), set())


def _closed(target: str) -> str:
    """An inline link's target up to the ``)`` that closes the link (nested pairs kept)."""
    depth = 0
    for index, char in enumerate(target):
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return target[:index]
    return target


def link_problem(target: str, where: Location, routes: set[str]) -> list[Problem]:
    if WEB.match(target) or target.startswith("#"):
        return []
    scheme = SCHEME.match(target)
    if scheme is not None or target.startswith(("//", "/\\")):
        what = f"uses the scheme '{scheme[0]}'" if scheme else "is not a route"
        return [
            Problem(
                f"link '{shown(target)}' {what}; changelog links are root-absolute "
                "routes such as /user-guide/..., http(s):// or mailto: URLs",
                where,
                rule=LINK_RULE,
            )
        ]
    if not target.startswith("/"):
        return [
            Problem(
                f"relative link '{target}': changelog links must be root-absolute "
                "routes such as /user-guide/...",
                where,
                rule=LINK_RULE,
            )
        ]
    route = target.split("#", 1)[0].rstrip("/")
    if routes and route not in routes:
        message = f"link '{target}' does not resolve to a page the project publishes"
        return [Problem(message, where, rule="changelog-link-published")]
    return []
