"""Fern-flavoured MDX to the Markdown that MkDocs (Python-Markdown) renders the same way.

Pure text in, text out; no MkDocs import. What changes:

- Frontmatter: only ``title`` (and ``description``) survive, as a clean YAML block, so
  SPDX ``#`` lines and Fern-only keys cannot trip MkDocs' meta reader; the title also
  becomes the page's ``# H1``, as Fern shows it.
- ``<Note>``, ``<Tip>``, ``<Info>``, ``<Warning title="...">`` (and Fern's other
  callouts) become ``!!! note`` admonitions (the ``admonition`` extension).
- MDX comments ``{/* ... */}`` and ESM ``import``/``export`` blocks are removed.
- Backslash escapes become numeric character references: Python-Markdown does not
  know ``\\<``, ``\\&``, ``\\~`` or ``\\:``, and an entity reads literally everywhere.
- CommonMark list indentation (content under the marker) becomes Python-Markdown's
  four spaces, a list that interrupts a paragraph gets its blank line, and fenced code
  that ends up nested (in a list or a callout), where ``fenced_code`` cannot see it,
  becomes an indented code block.
- Links go through a caller's function, so route-style links can be re-aimed.

Lists, callouts and nested code are re-indented by ``markdown_nesting``. The CLI token
and ``<AgentOnly>`` blocks are resolved before this, by the variants engine: this module
sees one agent's page.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from docgen.integrations.markdown_nesting import (
    Block,
    Code,
    callouts,
    reindent_lists,
    render_blocks,
)
from docgen.render import frontmatter, syntax

LinkFunction = Callable[[str], "str | None"]
"""Maps a link target to its new target, or to None to show the link text alone."""

ESM = re.compile(r"^(?:import|export)\s")
WHOLE_LINE_COMMENT = re.compile(r"^[ \t]*\{/\*.*?\*/\}[ \t]*(?:\n|\Z)", re.M | re.S)
CODE_OR_COMMENT = re.compile(
    r"(?P<code>(?<!`)(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`))|(?P<comment>\{/\*.*?\*/\})",
    re.S,
)
CODE_SPAN = re.compile(r"(?<![`\\])(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`)")
ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
LINK = re.compile(
    r"(?P<bang>!?)\[(?P<text>[^\]]*)\]\((?P<target>[^()\s]*)(?P<title>\s+\"[^\"]*\")?\)"
)
PLACEHOLDER = re.compile("\x00(\\d+)\x00")


@dataclass(frozen=True)
class Converted:
    """One page as MkDocs Markdown, with the title taken from its frontmatter."""

    title: str | None
    markdown: str


def convert(text: str, path: str = "<page>", link: LinkFunction | None = None) -> Converted:
    """Turn one MDX page into MkDocs Markdown; ``link`` re-aims link targets."""
    parts = syntax.split(text.replace("\r\n", "\n"))
    meta = frontmatter.read(parts.frontmatter, path).data
    title = _string(meta.get("title"))
    blocks = list(_blocks(parts.body.split("\n")))
    blocks = list(drop_esm(strip_comments(blocks)))
    blocks = list(callouts(list(reindent_lists(blocks))))
    lines = [(code, line if code else _inline(line, link)) for code, line in render_blocks(blocks)]
    return Converted(title, _head(title, _string(meta.get("description"))) + _tidy(lines))


def _string(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _head(title: str | None, description: str | None) -> str:
    """A minimal YAML meta block (HTML-escaped: MkDocs themes print titles raw) and the H1.

    The block is written even with nothing in it (``{}``): MkDocs takes the metadata from
    a YAML block at the top or else from leading ``key: value`` lines, so without one the
    page's own first lines (a ``---`` block after a comment that was removed, ``Title:``)
    would be read as metadata, unescaped."""
    fields = {"title": title, "description": description}
    meta = [
        f"{k}: {json.dumps(html.escape(v), ensure_ascii=False)}" for k, v in fields.items() if v
    ]
    head = "---\n" + ("\n".join(meta) or "{}") + "\n---\n\n"
    return head + (f"# {markdown_text(title)}\n\n" if title else "")


def markdown_text(text: str) -> str:
    """Plain text that Python-Markdown shows literally (for a generated heading)."""
    return re.sub(r"([\\`*_\[\]{}#!])", r"\\\1", html.escape(text, quote=False))


def _blocks(lines: list[str]) -> Iterator[Block]:
    """The body as prose lines and fenced code blocks (each body line out of its fence's
    indentation)."""
    for block in syntax.code_blocks(lines):
        if isinstance(block, str):
            yield block
            continue
        fence = block.fence
        body = tuple(_dedent(line, fence.indent) for line in block.body)
        yield Code(fence.indent, fence.marker, _language(fence.language), body)


def _dedent(line: str, count: int) -> str:
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, count) :]


def _language(word: str) -> str:
    """The fence's language, when Python-Markdown can take it as a class name."""
    return word if re.fullmatch(r"[\w#.+-]+", word) else ""


def strip_comments(blocks: list[Block]) -> list[Block]:
    """Remove MDX comments from prose (across lines), never from code."""
    out: list[Block] = []
    run: list[str] = []
    for block in blocks:
        if isinstance(block, str):
            run.append(block)
            continue
        out += _uncomment(run)
        run = []
        out.append(block)
    return out + _uncomment(run)


def _uncomment(lines: list[str]) -> list[str]:
    if not lines:
        return []
    text = WHOLE_LINE_COMMENT.sub("", "\n".join(lines))
    text = CODE_OR_COMMENT.sub(lambda m: m["code"] or "", text)
    return text.split("\n")


def drop_esm(blocks: list[Block]) -> Iterator[Block]:
    """Drop MDX ``import``/``export`` paragraphs (column 0, after a blank line)."""
    blank, in_esm = True, False
    for block in blocks:
        if isinstance(block, str):
            if not block.strip():
                blank, in_esm = True, False
            elif in_esm or (blank and ESM.match(block)):
                in_esm = True
                continue
            else:
                blank = False
        else:
            blank = in_esm = False
        yield block


def _inline(line: str, link: LinkFunction | None) -> str:
    """Escapes as entities and links re-aimed, outside code spans."""
    spans: list[str] = []

    def keep(match: re.Match[str]) -> str:
        spans.append(match.group())
        return f"\x00{len(spans) - 1}\x00"

    text = CODE_SPAN.sub(keep, line)
    text = ESCAPE.sub(lambda m: f"&#{ord(m[1])};", text)
    if link is not None:
        text = LINK.sub(lambda m: _link(m, link), text)
    in_table = line.lstrip().startswith("|")
    return PLACEHOLDER.sub(lambda m: _restore(spans[int(m[1])], in_table), text)


def _restore(span: str, in_table: bool) -> str:
    """A code span as written; GFM's ``\\|`` in a table cell is a plain pipe there."""
    return span.replace("\\|", "|") if in_table else span


def _link(match: re.Match[str], link: LinkFunction) -> str:
    if match["bang"]:
        return match.group()
    target = link(match["target"])
    if target is None:
        return match["text"]
    return f"[{match['text']}]({target}{match['title'] or ''})"


def _tidy(lines: list[tuple[bool, str]]) -> str:
    """Join lines: no blank runs outside code, no leading blank lines, one final newline."""
    out: list[str] = []
    for code, line in lines:
        if code or line.strip() or (out and out[-1].strip()):
            out.append(line if code or line.strip() else "")
    return "\n".join(out).strip("\n") + "\n"
