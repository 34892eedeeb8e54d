"""Where a template failed, and why, in the words a located error gives: the deepest
template frame of the traceback (Jinja rewrites frames to template lines), in the file
it stands in."""

from __future__ import annotations

import dataclasses
import os
import posixpath
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import jinja2

from docgen.errors import Location, Problem, did_you_mean, one_line, text_location


def reason(exc: BaseException, names: Iterable[str] = (), filters: Iterable[str] = ()) -> str:
    """Why a render failed, in a few words: an undefined name with the closest of the
    ``names`` the template sees (or, for one of its ``filters``, how a filter is used), a
    missing attribute of one of docgen's objects with the closest of its own, a helper
    called with the wrong arguments by the name the template calls it."""
    if isinstance(exc, RecursionError):
        return "recursion too deep"
    if isinstance(exc, MemoryError):
        return "out of memory (a value too large to build?)"
    text = str(exc)
    if (unknown := _unknown_filter(text, filters)) is not None:
        return unknown  # a filter in a branch: Jinja looks it up as the branch runs
    if isinstance(exc, NameError):  # only Jinja's ``inf`` reaches here: see ``Renderer``
        return "a number too large for a float (written as a literal, such as 1e400)"
    if isinstance(exc, TypeError):
        return _called(text)
    if not isinstance(exc, jinja2.UndefinedError):
        return text
    if found := _UNDEFINED.fullmatch(text):
        if found[1] in filters:
            return f"{text}: '{found[1]}' is a filter, written after its value: value | {found[1]}"
        return text + did_you_mean(found[1], names)
    if text.startswith("'None' has no attribute"):
        return f"{text} {_NONE_HINT}"
    if found := _NO_ATTRIBUTE.fullmatch(text):
        module, _, kind = found[1].rpartition(".")
        shown = f"'{kind}' object has no attribute '{one_line(found[2])}'"
        known = list(dict.fromkeys(_attributes(module, kind)))
        near = did_you_mean(found[2], known)
        return shown + (near or (f"; a {kind} has {', '.join(known)}" if known else ""))
    return text


#: Where a None a template reads a field of most often comes from.
_NONE_HINT = (
    "(perhaps a lookup that found nothing: a profile's arg(name) and override(id) give None "
    "for a name it does not hold, and an arg's name is written without its dashes)"
)
#: Jinja's words for a filter it does not know: as it compiles, or as a branch runs.
_NO_FILTER = re.compile(r"No filter named '(.*)'(?: found)?\.", re.S)


def _unknown_filter(message: str, filters: Iterable[str]) -> str | None:
    """Jinja's message for a filter it does not know, with the closest of ``filters``."""
    found = _NO_FILTER.fullmatch(message)
    return (
        None if found is None else f"no filter named '{found[1]}'{did_you_mean(found[1], filters)}"
    )


_UNDEFINED = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)' is undefined")
#: Python's words for a call with the wrong arguments: ``Renderer.serve_command() takes ...``.
_CALL = re.compile(r"(?P<qualified>[\w.<>]+)\(\) (?P<rest>(?:missing|takes|got) .*)", re.S)


def _called(text: str) -> str:
    """Python's message for a helper or method called with the wrong arguments, by the
    name a template calls it (``serve_command()``, not ``Renderer.serve_command()``), the
    arguments of a method counted as a template passes them (without ``self``)."""
    found = _CALL.fullmatch(text)
    if found is None:
        return text
    parts = found["qualified"].split(".")
    rest = found["rest"]
    if len(parts) == 2 and parts[0][:1].isupper() and rest.startswith("takes "):
        rest = re.sub(r"\d+", lambda n: str(int(n[0]) - 1), rest)  # Python counts self
        rest = _ARGUMENTS.sub(_arguments, rest)
        rest = _GIVEN.sub(lambda m: f"{m[1]} {'was' if m[1] == '1' else 'were'} given", rest)
    name = parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1]
    return f"{name}() {rest}"


#: A count of arguments (``from 0 to 1`` is a range: plural), and how many were given.
_ARGUMENTS = re.compile(r"\b(\d+ to )?(\d+) positional arguments?")
_GIVEN = re.compile(r"\b(\d+) (?:was|were) given")


def _arguments(count: re.Match[str]) -> str:
    one = not count[1] and count[2] == "1"
    return f"{count[1] or ''}{count[2]} positional argument{'' if one else 's'}"


_NO_ATTRIBUTE = re.compile(r"'(docgen\.[\w.]+) object' has no attribute '(.*)'", re.S)


def _attributes(module: str, kind: str) -> list[str]:
    """The public attributes of docgen's class ``kind`` in ``module`` (already imported)."""
    found = getattr(sys.modules.get(module), kind, None)
    if not isinstance(found, type):
        return []
    fields = [f.name for f in dataclasses.fields(found)] if dataclasses.is_dataclass(found) else []
    return [name for name in [*fields, *dir(found)] if not name.startswith("_")]


def jinja_asserted(exc: AssertionError) -> bool:
    """Whether Jinja's own code raised ``exc``: some of its filters check their arguments
    with ``assert`` (``truncate(1)``), which is a template's mistake, not docgen's."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return bool(frames) and frames[-1].startswith(os.path.dirname(jinja2.__file__) + os.sep)


def failed_at(exc: BaseException, display: str, page: jinja2.Template | None) -> Location:
    """The deepest template frame of ``exc``'s traceback (Jinja rewrites them): its line,
    in the file it stands in (an included template is shown as the page's is shown)."""
    import traceback  # only when a template fails

    deepest = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(".j2"):
            deepest = frame
    if deepest is None:
        return Location(display, 0)
    return Location(file_of(deepest.filename, display, page), deepest.lineno or 0)


def file_of(filename: str | None, display: str, page: jinja2.Template | None) -> str:
    """The template file a failure stands in, shown as ``display`` shows the page's own:
    the page itself (also when it did not load, or no file is named), a template beside
    it (under the folder its name is relative to) by its path there, another as it is."""
    if not filename or page is None or page.filename is None or filename == page.filename:
        return display
    name, own = page.name or "", page.filename
    if not (name and own.endswith(name) and display.endswith(name)):
        return filename
    folder = own[: len(own) - len(name)]
    if not filename.startswith(folder):
        return filename
    return display[: len(display) - len(name)] + filename[len(folder) :].replace(os.sep, "/")


_UNEXPECTED_CHAR = re.compile(r"unexpected char (.+) at ([0-9]+)")


def syntax_problem(
    exc: jinja2.TemplateSyntaxError, path: str, filters: Iterable[str] = ()
) -> Problem:
    """A template's syntax error at its line in ``path`` (a filter it does not know, with
    the closest of ``filters``); Jinja's lexer names an unexpected character by its offset
    in the template, shown as its line and column."""
    found = _UNEXPECTED_CHAR.fullmatch(exc.message or "")
    source = exc.source if isinstance(exc.source, str) else None
    if found is None or source is None or int(found[2]) > len(source):
        message = exc.message or ""
        message = _unknown_filter(message, filters) or message
        return Problem(f"template syntax: {message}", Location(path, exc.lineno or 0))
    at = int(found[2])  # in the text as Jinja reads it: every line end one "\n"
    source = source.replace("\r\n", "\n").replace("\r", "\n")
    hint = "a tag or expression left open before it, or a character Jinja does not read there?"
    return Problem(
        f"template syntax: unexpected character {found[1]} ({hint})",
        text_location(path, source, at),
    )


def template_texts(folder: Path, name: str, loaded: Mapping[str, str], page: str) -> dict[str, str]:
    """The text of each template the template ``page`` renders with (itself, and what it
    includes, imports or extends, named as literals, and so on; every ``loaded`` one when
    it names one by a value) that lies in the project's templates folder (``folder``,
    named ``name`` in the project), by its project path."""
    used = _reached(page, loaded)
    return {
        f"{name}/{posixpath.normpath(n)}": text  # included as "./_p/a.j2": _p/a.j2
        for n, text in loaded.items()
        if (used is None or n in used) and (folder / n).is_file()
    }


def _reached(page: str, loaded: Mapping[str, str]) -> set[str] | None:
    """``page`` and every template it reaches through literal names (one never loaded,
    in a branch not taken, rendered nothing); None when one is named by a value (it
    could be any) or cannot be parsed."""
    from jinja2 import meta

    parser, reached, todo = jinja2.Environment(), set(), [page]
    while todo:
        name = todo.pop()
        if name in reached or name not in loaded:
            continue
        reached.add(name)
        try:
            names = list(meta.find_referenced_templates(parser.parse(loaded[name])))
        except jinja2.TemplateError:
            return None
        if None in names:
            return None
        todo += [n for n in names if n is not None]
    return reached


def in_template(
    problem: Problem, page: str, rendered: str, template: str, sources: Mapping[str, str]
) -> Problem:
    """A ``problem`` found in the text the template ``template`` ``rendered`` for
    ``page``, located in the templates: at the one line of all their ``sources`` (each
    template's text by its project path: the page's own, the partials it includes, the
    macros it calls) that reads as the rendered line does, when exactly one does, else at
    ``template`` itself. The message keeps the line of the rendered text (its notice not
    yet added), as the lines the message itself names are."""
    where = problem.location
    if where is None or where.path != page:
        return problem
    lines = rendered.split("\n")
    said = lines[where.line - 1].strip() if 0 < where.line <= len(lines) else ""
    numbered = [
        (Location(path, number), line.strip())
        for path, text in sources.items()
        for number, line in enumerate(text.split("\n"), 1)
    ]
    found = [at for at, line in numbered if said and line == said]
    if not found and said:  # a line that prints values: its words around them must fit
        found = [at for at, line in numbered if _fits(line, said)]
    at = found[0] if len(found) == 1 else Location(template)
    message = f"{problem.message} (line {where.line} of the text it renders for {page})"
    return dataclasses.replace(problem, message=message, location=at)


#: A tag, expression or comment of a template line.
_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")
#: Fewest characters of a template line's own text (besides spaces) that name it.
_OWN_TEXT = 3


def _fits(line: str, said: str) -> bool:
    """Whether template ``line``, its tags printing anything, can render as ``said``: its
    own text, in order, starting and ending the line (a line of tags alone fits any).
    Each word is found leftmost after the one before (which leaves the most room for the
    rest), so a line costs one pass over ``said``, whatever it holds."""
    words = _TAG.split(line)
    if len(words) < 2 or len("".join(words).replace(" ", "")) < _OWN_TEXT:
        return False
    first, *middle, last = words
    if not (first.strip() or last.strip()):  # tags at both ends fit too much
        return False
    end = len(said) - len(last)
    if not (said.startswith(first) and said.endswith(last) and len(first) <= end):
        return False
    at = len(first)
    for word in middle:
        at = said.find(word, at, end)
        if at == -1:
            return False
        at += len(word)
    return True
