"""The MDX filters: each makes a value safe for the MDX context it lands in.

Every ``{{ value }}`` is escaped as MDX prose (``finalize``) unless a context filter
(``mdx_cell``, ``mdx_code``, ``mdx_attr``, ``mdx_fm``, ``code_block``, ``in_code``) made it
safe, so registry text can never become markup, JSX or an expression.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence, Set
from typing import Any

import jinja2
from markupsafe import Markup

from docgen.registry.storage import StorageEstimate
from docgen.render import mdx
from docgen.render.tables import gb

#: What ``{{ value }}`` prints as it is: text, numbers and dates (undefined values raise).
_PRINTABLE = (str, int, float, datetime.date, jinja2.Undefined)


def finalize(value: Any) -> Any:
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is not None and not isinstance(value, _PRINTABLE):
        raise ValueError(_unprintable(value))
    return mdx.escape_prose("" if value is None else str(value))


def _unprintable(value: Any) -> str:
    """Why ``{{ value }}`` cannot print a value that is no text: Python's own text for it
    would land in the page."""
    if isinstance(value, (Sequence, Set)):
        return (
            "{{ }} printed a list, which a page cannot show as it is: print its items in a "
            "loop, or join them (| join(', '))"
        )
    if isinstance(value, Mapping):
        return (
            "{{ }} printed a mapping, which a page cannot show as it is: print one of its "
            "entries, or loop over them"
        )
    return (
        f"{{{{ }}}} printed a {type(value).__name__} object, which a page cannot show as it "
        "is: print one of its fields"
    )


def _safe(text: str) -> Markup:
    return Markup(text)  # noqa: S704 - the text was escaped for its MDX context


def mdx_prose(value: Any) -> Markup:
    return _safe(mdx.escape_prose(str(value)))


def mdx_cell(value: Any) -> Markup:
    return _safe(mdx.escape_cell(str(value)))


def mdx_code(value: Any, in_table: bool = False) -> Markup:
    return _safe(mdx.inline_code(str(value), in_table=in_table))


def mdx_attr(value: Any) -> Markup:
    return _safe(mdx.attribute_string(str(value)))


def mdx_fm(value: Any) -> Markup:
    return _safe(mdx.frontmatter_string(str(value)))


def code_block(value: Any, lang: str = "") -> Markup:
    return _safe(mdx.code_block(str(value), lang).rstrip("\n"))


def in_code(value: Any) -> Markup:
    """Text placed inside a fenced block the template wrote; refuses a fence inside."""
    text = str(value)
    if any(line.lstrip().startswith(("```", "~~~")) for line in text.splitlines()):
        raise ValueError("a code fence inside generated code; use code_block instead")
    return _safe(text.replace("\x00", "\ufffd"))


def fm_comment(value: Any) -> Markup:
    """Text inside a YAML ``#`` comment line of the frontmatter: one line, no NUL."""
    text = " ".join(str(value).replace("\x00", "\ufffd").splitlines())
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
