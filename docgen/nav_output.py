"""The managed regions of a Fern navigation, written: ``# docgen:begin profiles`` in a
variant's layout lists every per-profile page as that variant publishes it (its generated
variant, or the page itself), one ``- page:`` entry each, and nothing else, so a new
profile's page is published and a removed one's entry is pruned. Every byte outside the
regions is kept."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from docgen.config import Project, variant_path
from docgen.errors import ConfigError, Location, Problem, one_line
from docgen.outputs import Output

if TYPE_CHECKING:
    from docgen.navigation import Navigation, NavRegion
    from docgen.registry.model import Source

#: The regions docgen writes in a navigation, by name.
REGIONS = ("profiles",)
_TITLE = re.compile(r"^title:[ \t]*(.*?)[ \t]*$", re.MULTILINE)
#: A title line's value taken as it is written: double-quoted with no escape, or plain
#: without a character YAML gives a meaning there (a plain number or ``true`` is shown as
#: written, as the navigation's title); anything else is read by the YAML reader.
_AS_IT_STANDS = re.compile(r'"[^"\\]*"|[^\s"\'#&*!|>%@`{}\[\],?:-][^#:]*')
#: What follows a title line whose value ends with it: no line that continues a plain
#: value (indented, or after a blank line).
_LINE_ENDS_VALUE = re.compile(r"\n?(?:$|[^ \t\n])")


def navigation_written(
    project: Project,
    nav: Navigation,
    made: list[Output],
    outputs: list[Output],
    varying: Collection[str],
    sources: tuple[Source, ...] = (),
) -> Navigation:
    """List the per-profile pages ``made`` in the navigation's managed regions (not any
    other file, JSON or YAML, a per-profile template makes): the file joins the ``outputs`` (the
    author's, like a page with regions; ``sources``: the registry entries behind it, for
    blame); return what it then publishes. ``varying``: the pages whose text holds what
    only agent variants resolve."""
    from docgen.navigation import read
    from docgen.render.file_kinds import MDX, kind_of

    pages = sorted((o for o in made if kind_of(o.path) == MDX), key=lambda o: o.path)
    _refuse_agentless(project, nav, pages, outputs, varying)
    text = filled(project, nav, pages, {o.path for o in outputs})
    # The file is the author's: written back in the form it has (line ends, BOM).
    written = nav.form.written(text)
    outputs.append(Output(nav.path, written, nav.path, kind="region", sources=sources))
    return replace(read(text, nav.path), form=nav.form)


def _refuse_agentless(
    project: Project,
    nav: Navigation,
    pages: Sequence[Output],
    outputs: Sequence[Output],
    varying: Collection[str],
) -> None:
    """A region in a variant no agent's variants are made for, while the pages it lists
    vary per agent (they have variants, or hold what only ``varying`` pages' variants
    resolve: a navigation without variants makes none), is a located error: it would
    list them as they are (a navigation variant is an agent's by its slug)."""
    made = {o.path for o in outputs if o.kind == "variant"}
    varied = {o.origin for o in outputs if o.kind == "variant"} | set(varying)
    if not any(p.path in varied for p in pages):
        return
    for region in nav.regions:
        if not region.variant:
            owner = "this region stands in no navigation variant"
        elif not any(variant_path(project, p.path, region.variant) in made for p in pages):
            owner = f"this region's navigation variant '{region.variant}' is no agent's"
        else:
            continue
        raise ConfigError.at(
            Location(nav.path, region.begin, 1),
            f"{owner} (a variant is an agent's by its slug), and the pages it lists vary per "
            "agent: it would list them as they are; put the region in an agent's variant",
        )


def refuse_unknown(nav: Navigation) -> None:
    """A region docgen does not write is a located error."""
    problems = [
        Problem(
            f"docgen writes no navigation region '{region.name}'; "
            f"the one it writes is {', '.join(repr(r) for r in REGIONS)}",
            Location(nav.path, region.begin, 1),
        )
        for region in nav.regions
        if region.name not in REGIONS
    ]
    if problems:
        raise ConfigError(problems)


def filled(project: Project, nav: Navigation, pages: Sequence[Output], variants: set[str]) -> str:
    """The navigation's text with each region holding the per-profile ``pages`` (their
    generated variants where ``variants`` holds their paths)."""
    _refuse_shared_slugs(nav, pages)
    lines = nav.text.split("\n")
    for region in reversed(nav.regions):  # from the bottom: line numbers stay true
        entries = [_entry(project, nav, region, page, variants) for page in pages]
        lines[region.begin : region.end - 1] = [line for entry in entries for line in entry]
    return "\n".join(lines)


def _entry(
    project: Project, nav: Navigation, region: NavRegion, page: Output, variants: set[str]
) -> list[str]:
    target = variant_path(project, page.path, region.variant) if region.variant else ""
    path = target if target in variants else page.path
    slug = _slug(page)
    title = _title(page) or slug
    rel = posixpath.relpath(path, posixpath.dirname(nav.path) or ".")
    pad = region.indent
    return [
        f"{pad}- page: {json.dumps(title)}",
        f"{pad}  path: {_scalar(rel)}",
        f"{pad}  slug: {_scalar(slug)}",
    ]


def _slug(page: Output) -> str:
    """The last part of a page's route: its file's stem, or its folder's name for an
    ``index`` page (``profiles/<id>/index.mdx``)."""
    path = PurePosixPath(page.path)
    return path.parent.name if path.stem == "index" and path.parent.name else path.stem


def _refuse_shared_slugs(nav: Navigation, pages: Sequence[Output]) -> None:
    """Two pages a region would list under one slug (two per-profile templates, say) are
    a located error at the region: a reader could reach only one of them."""
    first: dict[str, str] = {}
    for page in pages:
        other = first.setdefault(_slug(page), page.path)
        if other != page.path:
            raise ConfigError.at(
                Location(nav.path, nav.regions[0].begin, 1),
                f"this region would list {one_line(other)} and {one_line(page.path)} under "
                f"one slug, '{one_line(_slug(page))}', so a reader could reach only one: "
                "give one of their templates a file name of its own around [profile] "
                "(such as '[profile]-more.mdx.j2')",
            )


#: A path or slug YAML reads as the text it is when written plain: a letter, ``_`` or a
#: relative ``./`` or ``../`` first, then only letters, digits and ``_./-``, and not a
#: word YAML 1.1 reads as a boolean or null.
_PLAIN = re.compile(r"(?:[A-Za-z_]|\.\.?/)[A-Za-z0-9_./-]*")
_YAML_WORDS = re.compile(r"(?i:y|yes|n|no|true|false|on|off|null)")


def _scalar(text: str) -> str:
    """``text`` as a YAML value on one line: plain where YAML reads it as written,
    double-quoted otherwise (a `` #`` starts a comment, a ``: `` a mapping)."""
    if _PLAIN.fullmatch(text) and not _YAML_WORDS.fullmatch(text):
        return text
    return json.dumps(text)


def _title(page: Output) -> str | None:
    """The page's frontmatter title as its readers see it (a generated title is a quoted
    YAML string: ``mdx_fm`` escapes a quote, a backslash, a line separator); the same
    whether the plan holds the page's text or not."""
    match = _TITLE.search(page.frontmatter)
    if match is None:
        return None
    value = match[1]
    ends = _LINE_ENDS_VALUE.match(page.frontmatter, match.end()) is not None
    if ends and _AS_IT_STANDS.fullmatch(value):
        return value[1:-1] if value.startswith('"') else value
    from docgen.render import frontmatter

    title = frontmatter.read(page.frontmatter, page.path).data.get("title")
    return title if isinstance(title, str) else None
