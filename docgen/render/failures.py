"""Where a template failed, and why, in the words a located error gives: the deepest
template frame of the traceback (Jinja rewrites frames to template lines), in the file
it stands in."""

from __future__ import annotations

import os
import traceback

import jinja2

from docgen.errors import Location


def reason(exc: BaseException) -> str:
    """Why a render failed, in a few words."""
    if isinstance(exc, RecursionError):
        return "recursion too deep"
    if isinstance(exc, MemoryError):
        return "out of memory (a value too large to build?)"
    return str(exc)


def syntax_file(filename: str | None, display: str, name: str) -> str:
    """The file a syntax error stands in: the page's own (``display``), or another."""
    if filename and filename.endswith(name):
        return display
    return filename or display


def failed_at(exc: BaseException, display: str, page: jinja2.Template | None) -> Location:
    """The deepest template frame of ``exc``'s traceback (Jinja rewrites them): its line,
    in the file it stands in (an included template is shown as the page's is shown)."""
    deepest = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(".j2"):
            deepest = frame
    if deepest is None:
        return Location(display, 0)
    return Location(_shown_as_page(deepest.filename, display, page), deepest.lineno or 0)


def _shown_as_page(filename: str, display: str, page: jinja2.Template | None) -> str:
    """``filename`` as ``display`` shows the page's own file: a template beside it (under
    the folder its name is relative to) by its path there, another one as it is."""
    if page is None or page.filename is None or filename == page.filename:
        return display
    name, own = page.name or "", page.filename
    if not (name and own.endswith(name) and display.endswith(name)):
        return filename
    folder = own[: len(own) - len(name)]
    if not filename.startswith(folder):
        return filename
    return display[: len(display) - len(name)] + filename[len(folder) :].replace(os.sep, "/")
