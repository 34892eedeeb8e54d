"""The links of a changelog entry: where their targets are, and which targets it may hold
(a route the project publishes, or a web or mail address; never a script)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping

from docgen.changelog.entries import shown
from docgen.changelog.fences import text_lines, without_code
from docgen.errors import Location, Problem

#: What may stand before a block's ``[`` on its line: indentation, quote and list markers,
#: a footnote's label (``[^a]: [x]: target`` defines ``x`` inside the footnote).
BLOCK_START = re.compile(r"[ \t]*(?:(?:>|[-*+]|[0-9]{1,9}[.)]|\[\^[^\]\s]*\]:)[ \t]*)*")
#: A link's target: after ``](``, blanks, an optional ``<``; up to a blank, ``)`` or ``>``.
#: Its text may hold brackets one level deep (``[the [beta] guide]``, ``[![badge](x.svg)]``).
LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([ \t]*<?((?:[^()\s>]|\([^()\s>]*\))+)")
#: What may follow a definition's target on its line: an optional title (one that goes
#: on to the next line included).
TITLE = re.compile(r""">?[ \t]*(?:"[^"]*"?|'[^']*'?|\([^)]*\)?)?[ \t]*""")
#: A link reference definition (``[name]: target``), which a ``[name]`` link uses: only a
#: title may follow its target on the line (else the line is text); its target may stand
#: on the next line (``DEFINED``).
DEFINITION = re.compile(rf"^{BLOCK_START.pattern}\[[^\]]+\]:[ \t]*<?([^\s>]+)(?={TITLE.pattern}$)")
#: An image's source (``![alt](src)``): a script is no more welcome there than in a link.
IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\([ \t]*<?((?:[^()\s>]|\([^()\s>]*\))+)")
DEFINED = re.compile(rf"^{BLOCK_START.pattern}\[[^\]]+\]:[ \t]*$")
#: The target that stands alone on the line after ``DEFINED`` (with an optional title:
#: more words make that line a paragraph, and ``DEFINED`` no definition).
NEXT_TARGET = re.compile(r"""^[ \t>]*<?([^\s>]+)>?[ \t]*(?:"[^"]*"?|'[^']*'?|\([^)]*\)?)?[ \t]*$""")
#: A URL scheme (``javascript:``, ``https:``), and the links to elsewhere a link may be:
#: http(s), mail, or a host on the site's own scheme (``//cdn.example.org``). No other
#: scheme (``javascript:``, ``data:``, ``vbscript:``, ``file:``) is accepted.
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
WEB = re.compile(r"^(?:https?:)?//[^/\\]|^mailto:[^/]", re.IGNORECASE)
#: Where a link target may begin, whatever the link text (see ``hidden_link_problems``).
ANY_TARGET = re.compile(r"\]\(\s*<?([^\s<>]+)|\]:\s*<?([^\s<>]+)")
#: A backslash escape, which MDX drops from a target (``javascript\:``).
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")

#: The rule id of a link whose target is not a root-absolute route or a web address.
LINK_RULE = "changelog-link-root-absolute"


def line_links(line: str, where: Location, routes: set[str]) -> list[Problem]:
    """The problems of the targets of the links, definitions and images on one line, each
    at its target's column (``where`` is the line)."""
    problems: list[Problem] = []
    for found in (*LINK.finditer(line), *DEFINITION.finditer(line)):
        problems += link_problem(found[1], _column(where, found.start(1)), routes)
    for found in IMAGE.finditer(line):  # a file beside the page is fine: a script is not
        source = _as_read(found[1])
        if SCHEME.match(source) or source.startswith("/\\"):
            problems += link_problem(source, _column(where, found.start(1)), set())
    return problems


def _column(where: Location, index: int) -> Location:
    return Location(where.path, where.line, index + 1)


def text_link_problems(text: str, path: str) -> list[Problem]:
    """Every link target in ``text`` (the file ``path``) that the rules refuse, outside
    code and whatever the link text: a route is not looked up (no routes are known)."""
    problems: list[Problem] = []
    for index, line in text_lines(text.split("\n")):
        problems += line_links(without_code(line), Location(path, index + 1), set())
    said = {p.location.line for p in problems if p.location}
    return problems + list(hidden_link_problems(text, path, said))


def hidden_link_problems(
    text: str, path: str, said: set[int], read: Mapping[int, str] | None = None
) -> Iterator[Problem]:
    """A script or off-site target in ``text`` (the file ``path``) that the patterns
    above cannot see (link text holding ``\\]`` or a code span, or running over lines; a
    target after a line end): outside code, every ``](``, and every ``]:`` whose ``[``
    opens a block and whose target ends its line, is where a target may begin. Lines in
    ``said`` (already refused) are skipped, and those refused here are added. ``read``:
    the lines as ``comments.read_as_text`` gives them, when the caller has them."""
    from docgen.changelog.comments import read_as_text

    lines = text.split("\n")
    if read is None:  # code spans and comments blanked, as MDX reads from the left
        read = read_as_text(lines)
    masked = "\n".join(read.get(i, " " * len(line)) for i, line in enumerate(lines))
    number, counted = 1, 0  # the line number at offset ``counted``
    for match in ANY_TARGET.finditer(masked):
        raw, start = (_closed(match[1]), match.start(1)) if match[1] else (match[2], match.start(2))
        if match[2] and not _defines(masked, match):
            continue
        opened = number + masked.count("\n", counted, match.start())
        number, counted = opened + masked.count("\n", match.start(), start), start
        target = _as_read(ESCAPED.sub(r"\1", raw))  # MDX drops a target's escapes
        off_site = (SCHEME.match(target) or target.startswith("/\\")) and not WEB.match(target)
        if off_site and opened not in said and number not in said:
            said.add(number)  # said where a definition's target, or a link's ``](``, is
            where = Location(path, number if match[2] else opened)
            yield from link_problem(target, where, set())


def _as_read(target: str) -> str:
    """``target`` as a browser follows it: MDX decodes its entities (``&#58;``), and a
    browser drops blanks and tabs from a scheme."""
    return re.sub(r"[\x00-\x20]", "", html.unescape(target))


def _defines(text: str, match: re.Match[str]) -> bool:
    """Whether the ``]:`` of ``match`` can end a link reference definition's label: its
    ``[`` opens a block, and nothing but a title follows its target on the line."""
    opened = text.rfind("[", 0, match.start())
    start = text.rfind("\n", 0, opened) + 1
    end = text.find("\n", match.end())
    rest = text[match.end() : end if end >= 0 else len(text)]
    return (
        opened >= 0
        and bool(BLOCK_START.fullmatch(text[start:opened]))
        and bool(TITLE.fullmatch(rest))
    )


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
    route = re.split(r"[#?]", target, maxsplit=1)[0].rstrip("/")  # a query leads to the page
    if routes and route not in routes:
        message = f"link '{target}' does not resolve to a page the project publishes"
        return [Problem(message, where, rule="changelog-link-published")]
    return []
