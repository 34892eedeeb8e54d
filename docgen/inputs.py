"""Digests of every input of a plan: the key of the cached plan, and the digest of the
inputs all pages share (which an incremental plan's record must match).

The key reads what the plan reads and nothing more: not the generated pages nor the
release overview (outputs, which a build rewrites after computing the key), not a file
linked from outside the root (the plan refuses or ignores those: the key holds the link
instead), and never a file that is not a regular file (a FIFO, /dev/zero). The template
folder is hashed as the template loader reads it: through links that stay inside the
root. Folders count too (their names), so a folder where the plan expects a file (a
template or entry name) misses the cache and the plan reports it: a warm cache never
hides an error.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from docgen.changelog.entries import OVERVIEW
from docgen.config import Project
from docgen.io import files, user_cache
from docgen.render.syntax import NOTICE_REACH, owned

FORMAT = b"docgen-plan-cache-6\n"


def key(project: Project) -> str:
    """A digest of every input of the plan."""
    return _digest_of(_inputs(project, shared_only=False))


def shared_key(project: Project) -> str:
    """A digest of the inputs every page shares: docgen itself, the settings, the
    templates and the navigation (not the registry, the pages or the changelog)."""
    return _digest_of(_inputs(project, shared_only=True))


def _digest_of(inputs: Iterator[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256(FORMAT)
    for name, data in inputs:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(data)
    return digest.hexdigest()


def _inputs(project: Project, shared_only: bool) -> Iterator[tuple[str, bytes]]:
    """Each input's name and the SHA-256 of what of it can change the plan."""
    yield "config", _sha(repr(project.config).encode())
    yield "docgen", user_cache.code_digest()
    inside = files.Inside(project.root)
    if not shared_only:
        yield "registry", _file_digest(project.registry_path, inside)
    cfg = project.config
    navigation = cfg.navigation or f"{cfg.docs}/index.yml"
    yield navigation, _navigation_input(project.path(navigation), inside)
    overview = f"{cfg.changelog}/{OVERVIEW}"  # an output, not an input
    for folder in (cfg.templates,) if shared_only else (cfg.templates, cfg.changelog):
        listed = files.listing(project, folder)
        if not listed.inside:
            yield folder, b"\0outside"
        for found in listed.folders:  # linked folders inside the root are read through
            yield from _tree_input(project, found, inside)
        for found in listed.files:
            if found.rel != overview:
                yield found.rel, _file_digest(found.path, inside)
    for stray in files.stray_templates(project):  # an error the key must not hide
        yield stray, b"\0stray template"
    for found in () if shared_only else files.pages(project):
        text = _page_input(found.path, inside)
        if text is not None:
            yield found.rel, _sha(text)


def _tree_input(
    project: Project, found: files.Found, inside: files.Inside
) -> Iterator[tuple[str, bytes]]:
    """A folder's name (a folder where a file is expected is an error the key must not
    hide); for a linked one, where it leads and, when inside the root, all below it."""
    yield found.rel, _file_digest(found.path, inside)  # a marker: no folder is read
    if found.kind != files.DIR and inside.contains(found.path):
        for below in files.followed(project, found.rel):
            yield below.rel, _file_digest(below.path, inside)


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _page_input(path: str, inside: files.Inside) -> bytes | None:
    """What of a page can change the plan: nothing for a generated page, the text outside
    its regions for a page with regions, else all of it (a marker where it is not read)."""
    from docgen.render.regions import strip_regions

    where = files.readable(path, inside)
    if where is None:
        return _file_digest(path, inside)
    try:
        raw = files.read_bytes(where)
    except OSError:
        raw = None
    if raw is None:
        return MISSING
    head = raw[: 4 * NOTICE_REACH].decode("utf-8", "replace")  # UTF-8: up to 4 bytes a char
    if owned(head):
        return None
    if b"docgen:" in raw:
        return strip_regions(raw.decode("utf-8", "replace")).encode()
    return raw


MISSING = b"\0missing"


def _navigation_input(path: Path, inside: files.Inside) -> bytes:
    """What of the navigation can change the plan: all but what its managed regions hold
    (docgen writes that, from the rest)."""
    from docgen.navigation import outside_regions

    where = files.readable(path, inside)
    raw = None if where is None else files.read_bytes(where)
    if raw is None:
        return _file_digest(path, inside)
    return _sha(outside_regions(files.as_lf_text(raw.decode("utf-8", "replace"))).encode())


def _file_digest(path: str | Path, inside: files.Inside | None) -> bytes:
    """The SHA-256 of a file's bytes, read in blocks; for a file that is not read (see
    ``files.readable``), a marker of what lies there instead."""
    where = files.readable(path, inside)
    if where is None:
        try:
            return b"\0not read:" + os.fsencode(os.readlink(path))
        except OSError:  # not a link: missing, or not a regular file
            return MISSING if not os.path.lexists(path) else b"\0not a file"
    digest = hashlib.sha256()
    try:
        with open(where, "rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    except OSError:
        return MISSING
    return digest.digest()
