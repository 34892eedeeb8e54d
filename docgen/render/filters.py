"""The MDX filters: each makes a value safe for the MDX context it lands in.

Every ``{{ value }}`` is escaped as MDX prose (``finalize``) unless a context filter
(``mdx_cell``, ``mdx_code``, ``mdx_attr``, ``mdx_fm``, ``code_block``, ``in_code``) made it
safe, so registry text can never become markup, JSX or an expression.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from docgen.registry.storage import StorageEstimate
from docgen.render import file_kinds, mdx
from docgen.render.tables import gb, printed


def finalize(value: Any) -> Any:
    """What ``{{ value }}`` prints: escaped as MDX prose, unless a context filter made it
    safe or the file is one whose values print as they are (see ``file_kinds``)."""
    if isinstance(value, Markup):
        return value
    return printed(value) if file_kinds.plain() else mdx.escape_prose(printed(value))


def _safe(text: str) -> Markup:
    return Markup(text)  # noqa: S704 - the text was escaped for its MDX context


def mdx_prose(value: Any) -> Markup:
    return _safe(mdx.escape_prose(printed(value)))


def mdx_cell(value: Any) -> Markup:
    return _safe(mdx.escape_cell(printed(value)))


def mdx_code(value: Any, in_table: bool = False) -> Markup:
    if value is None:  # as {{ none }}: nothing, not an empty code span
        return _safe("")
    return _safe(mdx.inline_code(printed(value), in_table=in_table))


def mdx_attr(value: Any) -> Markup:
    return _safe(mdx.attribute_string(printed(value)))


def mdx_fm(value: Any) -> Markup:
    return _safe(mdx.frontmatter_string(printed(value)))


def code_block(value: Any, lang: str = "") -> Markup:
    return _safe(mdx.code_block(printed(value), lang).rstrip("\n"))


def in_code(value: Any) -> Markup:
    """Text placed inside a fenced block the template wrote; refuses a fence inside."""
    text = printed(value)
    if any(line.lstrip().startswith(("```", "~~~")) for line in text.splitlines()):
        raise ValueError("a code fence inside generated code; use code_block instead")
    return _safe(mdx.clean(text))


def fm_comment(value: Any) -> Markup:
    """Text inside a YAML ``#`` comment line of the frontmatter: one line, no NUL."""
    text = " ".join(mdx.clean(printed(value)).splitlines())
    return _safe(text)


def storage_parts(estimate: StorageEstimate) -> list[Markup]:
    """Each part of a storage estimate as a page names it: the size in GB to three decimals
    as code, then what it is (``model files``)."""
    if estimate is None:
        raise ValueError(
            "storage_parts was given none: storage_estimate(p) is none for a profile whose "
            "image or model size the registry does not state; test it with {% if %} first"
        )
    return [_safe(f"{mdx_code(gb(size, 3))} {what}") for what, size in estimate.parts]
