"""A YAML syntax error of ruamel.yaml or libyaml as a located problem, worded for a person."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from docgen.errors import DocgenError, Location, Problem, RegistryError, one_line, text_location


def marked_problem(exc: Any, path: str, text: str = "") -> Problem:
    """A ruamel.yaml or libyaml syntax error as a located problem, worded for a person:
    the parser's words for the common slips said plainly, with where the block or the
    bracket it was reading began."""
    mark = exc.problem_mark or exc.context_mark
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    if "found duplicate key" in problem or type(exc).__name__ == "DuplicateKeyError":
        problem = _duplicate_message(exc, text)
    elif "\\t" in problem or "'\\t'" in problem or "tab character" in problem:
        problem = _tab_problem(mark, text)
    elif "for merging" in problem:
        problem, mark = _merge_problem(problem, exc.context_mark or mark, text)
    else:
        problem, mark = (
            _run_on_quote(problem, mark, text)
            or _unclosed_bracket(exc, problem, text)
            or _plain(exc, problem, mark)
        )
        if problem == _NOT_YAML and re.search(r"(?m)^%", text):
            problem = _DIRECTIVE
    if mark is not None and (bom := _bom_near(text, mark.line)) is not None:
        problem, mark = _BOM, bom
    where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
    return Problem(problem, where)


_BOM = (
    "a byte-order mark (U+FEFF) stands here, which YAML allows only at the start of the "
    "file: remove it"
)


def _bom_near(text: str, line: int) -> _Mark | None:
    """Where a byte-order mark past the file's start opens what ``line`` (0-based) of
    ``text`` or the line before holds, after its indentation (the parser stops a line
    after a key it cannot end); None when neither line starts so (one inside a quoted
    value is text, and no cause)."""
    if "\ufeff" not in text[1:]:
        return None
    lines = text.split("\n")
    for number in (line - 1, line):
        if 0 <= number < len(lines):
            content = lines[number].lstrip(" ")
            column = len(lines[number]) - len(content)
            if content.startswith("\ufeff") and (number, column) != (0, 0):
                return _Mark(number, column)
    return None


def _tab_problem(mark: Any, text: str) -> str:
    """What to say of a tab the YAML reader refuses: in the indentation, or after text on
    its line (between a key and its value, before a comment, at the end)."""
    lines = text.split("\n")
    before = lines[mark.line][: mark.column] if mark and mark.line < len(lines) else ""
    if before.strip(" \t"):
        return (
            "a tab character here: docgen's YAML reader takes a tab only inside quotes, "
            "comments and block text; use spaces"
        )
    return "tab characters are not allowed for indentation; use spaces"


class _Mark(NamedTuple):
    line: int
    column: int


_MERGE_KEY = re.compile(r"<<[ \t]*:")


def _merge_problem(problem: str, opened: Any, text: str) -> tuple[str, Any]:
    """ruamel.yaml's words for a merge key whose value merges no mapping, at the ``<<`` key
    of the block mapping it stands in: a key at the mapping's own column, before a line
    that ends the mapping (one indented less); else where the mapping starts."""
    merged = problem.rsplit("found ", 1)[-1]
    said = f"a merge key ('<<') takes a mapping or a list of mappings, but it merges a {merged}"
    if opened is None:
        return said, opened
    lines, column = text.splitlines(), opened.column
    for number in range(opened.line, len(lines)):
        line = lines[number]
        lead = line[:column]
        if number > opened.line and line.strip() and lead.strip(" -"):
            break  # a line indented less than the mapping's keys: it has ended
        if not lead.strip(" -") and _MERGE_KEY.match(line, column):
            return said, _Mark(number, column)
    return said, opened


def _run_on_quote(problem: str, mark: Any, text: str) -> tuple[str, _Mark] | None:
    """For text found right after a quote that closed a string opened on an earlier line
    (``label: "Nemotron`` with its closing quote left out): that slip, at its quote."""
    if not problem.startswith(_TEXT_AFTER) or mark is None or not text:
        return None
    lines = text.splitlines()
    if mark.line >= len(lines) or not 0 < mark.column <= len(lines[mark.line]):
        return None
    quote = lines[mark.line][mark.column - 1]
    if quote not in "\"'":
        return None
    for number in range(mark.line - 1, max(-1, mark.line - 20), -1):
        opened = _unclosed_value(lines[number], quote)
        if opened is not None:
            return (
                f"this quoted string runs on to the {quote} on line {mark.line + 1}: "
                f"is its closing {quote} missing?",
                _Mark(number, opened),
            )
    return None


def _unclosed_bracket(exc: Any, problem: str, text: str) -> tuple[str, _Mark] | None:
    """For a file that ends while a flow node is still expected (``key: [`` last): the
    '[' or '{' left open, at its place."""
    if "<stream end>" not in problem or "flow node" not in (exc.context or "") or not text:
        return None
    opened = _last_open_bracket(text)
    if opened is None:
        return None
    at, bracket = opened
    where = text_location("", text, at)
    words = _UNCLOSED["flow sequence" if bracket == "[" else "flow mapping"]
    return words, _Mark(where.line - 1, where.col - 1)


def _last_open_bracket(text: str) -> tuple[int, str] | None:
    """The offset and kind of the innermost '[' or '{' the text leaves open, outside
    quoted strings and comments (read as a flow collection reads them)."""
    opened: list[tuple[int, str]] = []
    quote, at = "", 0
    while at < len(text):
        char = text[at]
        if quote:
            if char == "\\" and quote == '"':
                at += 1
            elif char == quote:
                quote = ""
        elif char == "#" and (at == 0 or text[at - 1] in " \t\n"):
            at = text.find("\n", at)
            at = len(text) if at < 0 else at
            continue
        elif char in "'\"" and (at == 0 or text[at - 1] in " \t\n[{,:"):
            quote = char
        elif char in "[{":
            opened.append((at, char))
        elif char in "]}" and opened:
            opened.pop()
        at += 1
    return opened[-1] if opened else None


#: A line whose value (after ``key:`` or a list's ``-``) opens with a quote.
_QUOTED_VALUE = re.compile(r"""[ \t]*(?:-[ \t]+)?(?:[^\s'"#][^#]*?:[ \t]+)?(['"])""")
#: The rest of a quoted scalar up to its closing quote: ' doubled, or " after escapes.
_CLOSES = {"'": re.compile(r"(?:[^']|'')*'"), '"': re.compile(r'(?:[^"\\]|\\.)*"')}


def _unclosed_value(line: str, quote: str) -> int | None:
    """The column of the ``quote`` a line's value opens with and does not close there."""
    found = _QUOTED_VALUE.match(line)
    if found is None or found[1] != quote or _CLOSES[quote].match(line, found.end()):
        return None
    return found.start(1)


def _plain(exc: Any, problem: str, mark: Any) -> tuple[str, Any]:
    """A syntax problem and its mark, in plain words where the parser's are its own."""
    opened = exc.context_mark
    if problem.startswith(_NO_COLON) and opened is not None:
        return "this key has no ':' after it", opened  # the parser stops a line later
    if problem.startswith(_MISPLACED_VALUE):
        return _MISPLACED, mark
    if "another document" in problem:  # the parser's context is its expectation here
        return _ONE_DOCUMENT, mark
    if problem.startswith("expected '<document start>'"):
        return _NOT_YAML, mark
    if opened is None or not exc.context:
        return problem, mark
    unclosed = _unclosed(problem, exc.context)
    if unclosed:
        return unclosed, opened  # it runs to the end of the file: where it opens is the cause
    if opened.line == getattr(mark, "line", None):
        return problem, mark
    if problem == _BLOCK_END:  # a key indented unlike its block's (not text after a quote)
        problem = "this line is not indented as the block it is in"
    within = re.sub(r"^while (?:parsing|scanning|constructing) ", "", exc.context)
    return f"{problem} (in {within} that starts at {opened.line + 1}:{opened.column + 1})", mark


def _unclosed(problem: str, context: str) -> str | None:
    """The plain words for a quoted string, ``[`` list or ``{`` mapping that the file
    ends inside, or None for another problem."""
    if "end of stream" not in problem and "<stream end>" not in problem:
        return None
    for kind, words in _UNCLOSED.items():
        if kind in context:
            return words
    return None


_UNCLOSED = {
    "quoted": "this quoted string is never closed",
    "flow sequence": "this '[' list is never closed: the file ends before its ']'",
    "flow mapping": "this '{' mapping is never closed: the file ends before its '}'",
}

_ONE_DOCUMENT = (
    "a second YAML document starts here: this file is one document; remove the '---' "
    "(or '...') line and what follows, or merge it into the first"
)
_DIRECTIVE = (
    "a '%' directive line must be followed by a '---' line: remove the directive (a YAML "
    "file needs none)"
)
_NOT_YAML = (
    "this line is not YAML (a '[section]' header is TOML or INI); this file is a YAML "
    "mapping of 'key: value' lines"
)

#: How ruamel.yaml and libyaml word a key without its colon, a value where none fits, and
#: a line indented otherwise than its block.
_NO_COLON = "could not find expected ':'"
_MISPLACED_VALUE = "mapping values are not allowed"
_BLOCK_END = "expected <block end>, but found '<block mapping start>'"
_TEXT_AFTER = "expected <block end>, but found '<scalar>'"
_MISPLACED = (
    "a 'key: value' cannot start here: check the line's indentation, "
    "or quote a value that holds ': '"
)


def _duplicate_message(exc: Any, text: str) -> str:
    problem = str(exc.problem or "")
    key = problem.split('"')[1] if '"' in problem else problem.rsplit(" ", 1)[-1]
    first = _first_definition(text, exc.context_mark, key)
    seen = f" (first defined on line {first})" if first else ""
    return f"duplicate key '{key}'{seen}"


def _first_definition(text: str, mapping_mark: Any, key: str) -> int | None:
    """The line of ``key``'s first definition in the mapping that starts at the mark.

    ruamel.yaml marks the mapping, not the first key; its node tree (composed without
    constructing, so duplicates are kept) holds the key's own position.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.nodes import MappingNode, Node

    if not text or mapping_mark is None:
        return None
    try:
        root: Node | None = YAML(typ="rt").compose(text)
    except (YAMLError, RecursionError):
        return None
    todo = [root] if root is not None else []
    while todo:
        node = todo.pop()
        children = node.value if isinstance(node.value, list) else []
        if isinstance(node, MappingNode):
            start = node.start_mark
            if (start.line, start.column) == (mapping_mark.line, mapping_mark.column):
                for name, _value in children:
                    if str(name.value) == key:
                        return int(name.start_mark.line) + 1
            todo.extend(child for pair in children for child in pair)
        else:
            todo.extend(child for child in children if isinstance(child, Node))
    return None


#: What YAML reads as a line break where docgen, editors and git see none: a carriage
#: return alone, NEXT LINE, LINE SEPARATOR and PARAGRAPH SEPARATOR.
_FOREIGN_BREAK = re.compile("\r(?!\n)|[\x85\u2028\u2029]")
_BREAK_NAMES = {
    "\r": "a carriage return without a newline after it",
    "\x85": "U+0085 (NEXT LINE)",
    "\u2028": "U+2028 (LINE SEPARATOR)",
    "\u2029": "U+2029 (PARAGRAPH SEPARATOR)",
}


def refuse_foreign_breaks(text: str, path: str, error: type[DocgenError] = RegistryError) -> None:
    """A located ``error`` at the first character YAML would read as a line break that
    ends no line of ``text`` (every line and column after it would be miscounted)."""
    found = _FOREIGN_BREAK.search(text)
    if found is None:
        return
    raise error.at(
        text_location(path, text, found.start()),
        f"{_BREAK_NAMES[found[0]]}, which YAML reads as a line break and editors do not: "
        "end lines with a newline, and write such a character in a double-quoted string "
        "as its escape",
    )


#: A ``\U`` escape (written with an odd number of backslashes, so an escape) and its digits.
_LONG_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\U([0-9A-Fa-f]{8})")
#: The last character there is.
_LAST_CHARACTER = 0x10FFFF


def escape_problem(path: str, text: str) -> Problem | None:
    """The first ``\\U`` escape in ``text`` past U+10FFFF, the last character, located;
    None when it holds none. ruamel.yaml's scanner fails on such an escape in a
    double-quoted string with Python's own ValueError or OverflowError (``chr()``), not
    a YAML error, so a reader that catches those asks this what they were."""
    for found in _LONG_ESCAPE.finditer(text):
        if int(found[2], 16) > _LAST_CHARACTER:
            escape = found.start() + len(found[1])
            return Problem(
                f"the escape '\\U{found[2]}' names no character (the last is U+10FFFF): "
                "write the character itself, or an escape up to \\U0010FFFF",
                text_location(path, text, escape),
            )
    return None


def unmarked_problem(exc: Exception, path: str, text: str) -> Problem:
    """A YAML error that carries no mark, located: a character YAML refuses (ruamel.yaml's
    ReaderError gives its offset) at its line and column, anything else at the file."""
    at, code = getattr(exc, "position", None), getattr(exc, "character", None)
    if isinstance(at, int) and isinstance(code, int) and 0 <= at <= len(text):
        return Problem(
            f"YAML allows no character U+{code:04X} here (no control character but tab "
            "and line breaks): remove it, or write it as an escape in a double-quoted string",
            text_location(path, text, at),
        )
    first = str(exc).strip().split("\n", 1)[0]
    return Problem(f"cannot parse YAML: {one_line(first)}", Location(path, 1, 1))
