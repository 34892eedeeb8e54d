"""The project's template loader: a template is read only inside the project root.

Templates are trusted code, but the files they name are not: a template (or the
templates folder, or a folder in it) that is a symbolic link leaving the project root
is a located error, never read, and so is a name that is not a regular file or is
larger than ``docgen.io.files.MAX_BYTES``. Every read goes through
``docgen.io.files.read_input``; names that climb out with ``..`` are not found, as
Jinja's own loaders do.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path

from docgen.errors import TemplateError
from docgen.io import files


class ConfinedLoader(jinja2.BaseLoader):
    """Loads templates from ``folders`` in order, reading only inside ``root`` (each
    folder itself when no root is given)."""

    def __init__(self, folders: Sequence[str | Path], root: str | Path | None = None) -> None:
        self.folders = [os.fspath(folder) for folder in folders]
        self.root = None if root is None else os.fspath(root)

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)  # TemplateNotFound for ".." and the like
        if not pieces:  # "" or "/": the templates folder itself, no template
            raise jinja2.TemplateNotFound(template)
        for folder in self.folders:
            inside = files.Inside(self.root if self.root is not None else folder)
            path = os.path.join(folder, *pieces)
            leaves = inside.real(path, os.path.islink(path)) is None
            if not leaves and not os.path.lexists(path):
                continue
            text = files.read_input(path, inside, "template", error=TemplateError)
            return text, path, _unchanged_since(path)
        raise jinja2.TemplateNotFound(template)


def _unchanged_since(path: str) -> Callable[[], bool]:
    """Whether the file at ``path`` still has the modification time it had when read."""
    mtime = _mtime(path)
    return lambda: mtime is not None and _mtime(path) == mtime


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
