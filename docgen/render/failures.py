"""Where a template failed, and why, in the words a located error gives: the deepest
template frame of the traceback (Jinja rewrites frames to template lines), in the file
it stands in."""

from __future__ import annotations

import os

import jinja2

from docgen.errors import Location


def reason(exc: BaseException) -> str:
    """Why a render failed, in a few words."""
    if isinstance(exc, RecursionError):
        return "recursion too deep"
    if isinstance(exc, MemoryError):
        return "out of memory (a value too large to build?)"
    return str(exc)


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
