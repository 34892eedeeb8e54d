"""Escape registry text for the MDX context it lands in: prose, table cell, code, frontmatter.

The output is Fern-flavoured MDX 3 (``@mdx-js/mdx`` with remark-frontmatter and
remark-gfm). Registry text always renders literally: it never becomes Markdown markup,
JSX or an MDX expression. The one exception is GFM's literal autolinking: a bare URL
or e-mail address still becomes a link, but its text stays exactly the input. Prose and
cells carry a backslash only where the compiler's tree would differ without it
(docgen.render.escapes says where).

Every filter first makes the text representable: a control character (C0 but tab and
line ends, DEL, C1: a terminal escape, a bell) and a lone surrogate become U+FFFD, and
Unicode bidirectional controls are removed. Prose, table cells and inline
code are one-line contexts: each line ending (CRLF, CR or LF) becomes one space.
The CLI token (``$$nemoclaw``) passes through untouched so that per-agent variants
still replace it. Markdown drops spaces and tabs at the edges of a line, and two
trailing spaces before a line break make a hard break: templates should not end a
line with a value that may end in spaces.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from docgen.render.escapes import escape_line

__all__ = [
    "clean",
    "code_block",
    "escape_cell",
    "escape_prose",
    "frontmatter_string",
    "inline_code",
]

_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DROP = re.compile(f"[{_BIDI_CONTROLS}]")
_REPLACE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_ASCII_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LINE_ENDING = re.compile(r"\r\n|\r|\n")

_BACKTICK_RUN = re.compile(r"`+")
# A pipe preceded by an odd run of backslashes cannot sit inside a code span in a table.
_TABLE_PIPE_BACKSLASHES = re.compile(r"\\+(?=\|)")
# Characters YAML does not allow raw in a double-quoted scalar, or that readers treat
# as line breaks (NEL, LS, PS) or byte-order marks.
_YAML_ESCAPE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def clean(text: str) -> str:
    """Drop bidirectional controls and turn control characters (but tab and line ends)
    and lone surrogates into U+FFFD."""
    if text.isascii() and (text.isprintable() or _ASCII_CONTROL.search(text) is None):
        return text
    return _REPLACE.sub("\ufffd", _DROP.sub("", text))


def _one_line(text: str) -> str:
    """Clean the text and turn every line ending into one space."""
    return _LINE_ENDING.sub(" ", clean(text))


def escape_prose(text: str) -> str:
    """Escape text for an MDX paragraph, list item or heading so that it reads literally."""
    return escape_line(_one_line(text), cell=False)


def escape_cell(text: str) -> str:
    """Escape text for a GFM table cell: `|` too, and no block syntax (none starts there)."""
    return escape_line(_one_line(text), cell=True)


def _fence_for(text: str, minimum: int) -> str:
    """A backtick fence longer than any backtick run in the text."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    return "`" * max(minimum, longest + 1)


def _needs_padding(content: str) -> bool:
    """True when a code span must pad its content with one space on each side."""
    if content[0] == "`" or content[-1] == "`":
        return True
    return content[0] == content[-1] == " " and content.strip(" ") != ""


def _code_span(content: str, in_table: bool) -> str:
    """One code span whose literal content is exactly `content` (one space when empty)."""
    if not content:
        return "` `"
    fence = _fence_for(content, 1)
    pad = " " if _needs_padding(content) else ""
    body = content.replace("|", "\\|") if in_table else content
    return f"{fence}{pad}{body}{pad}{fence}"


def _table_code(text: str) -> str:
    """Code spans for a table cell; a backslash right before `|` goes between two spans."""
    pieces: list[str] = []
    start = 0
    for run in _TABLE_PIPE_BACKSLASHES.finditer(text):
        if len(run.group()) % 2:
            pieces.append(text[start : run.end() - 1])
            start = run.end()
    pieces.append(text[start:])
    spans = [_code_span(piece, True) if piece else "" for piece in pieces]
    return "\\\\".join(spans) or "` `"


@lru_cache(maxsize=8192)  # registry values repeat on every page that shows them
def inline_code(text: str, in_table: bool = False) -> str:
    """A complete inline code span (backticks included) showing the text literally."""
    flat = _one_line(text)
    return _table_code(flat) if in_table else _code_span(flat, False)


@lru_cache(maxsize=8192)
def code_block(text: str, lang: str = "") -> str:
    """A fenced code block with the text verbatim (line endings as LF), ending in a newline."""
    if "`" in lang or _LINE_ENDING.search(lang):
        raise ValueError(f"code block language must be one line without backticks: {lang!r}")
    body = _LINE_ENDING.sub("\n", clean(text))
    if body and not body.endswith("\n"):
        body += "\n"
    fence = _fence_for(body, 3)
    return f"{fence}{lang}\n{body}{fence}\n"


def attribute_string(text: str) -> str:
    """Text for a double-quoted JSX attribute value (``title="..."``), on one line: MDX
    decodes character references there and takes everything else as it is (``{``, ``<``,
    a backslash), so only ``&`` and ``"`` are escaped."""
    return _one_line(text).replace("&", "&amp;").replace('"', "&quot;")


@lru_cache(maxsize=8192)
def frontmatter_string(text: str) -> str:
    """A double-quoted YAML (and JSON) scalar holding the text, safe on one frontmatter line."""
    quoted = json.dumps(clean(text), ensure_ascii=False)
    return _YAML_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)
