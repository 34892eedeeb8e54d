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

The CLI token and ``<AgentOnly>`` blocks are resolved before this, by the variants
engine: this module sees one agent's page.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from docgen.errors import Location, PageError
from docgen.render.variants import split_frontmatter

LinkFunction = Callable[[str], "str | None"]
"""Maps a link target to its new target, or to None to show the link text alone."""

CALLOUTS = {
    "Note": "note",
    "Info": "info",
    "Tip": "tip",
    "Warning": "warning",
    "Error": "danger",
    "Success": "success",
    "Check": "success",
    "Launch": "note",
}
_NAMES = "|".join(CALLOUTS)
_ATTR = r"""(?:\s+title=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'))?"""
CALLOUT_OPEN = re.compile(rf"^(?P<indent> *)<(?P<name>{_NAMES}){_ATTR}\s*>(?P<rest>.*)$")
CALLOUT_CLOSE = re.compile(rf"^(?P<before>.*?)</(?:{_NAMES})>\s*$")
FENCE_OPEN = re.compile(r"^(?P<indent> *)(?P<marker>`{3,}|~{3,})(?P<info>[^`]*)$")
LIST_ITEM = re.compile(r"^(?P<indent> *)(?P<marker>[-*+]|\d{1,9}[.)])(?P<gap> +|$)")
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
class Fence:
    """A fenced code block; ``body`` lines have the fence's indentation removed."""

    indent: int
    marker: str
    lang: str
    body: tuple[str, ...]


Block = str | Fence  # a prose line, or a whole fenced code block


@dataclass(frozen=True)
class Converted:
    """One page as MkDocs Markdown, with the title taken from its frontmatter."""

    title: str | None
    markdown: str


def convert(text: str, path: str = "<page>", link: LinkFunction | None = None) -> Converted:
    """Turn one MDX page into MkDocs Markdown; ``link`` re-aims link targets."""
    frontmatter, _has, body = split_frontmatter(text.replace("\r\n", "\n"))
    meta = read_meta(frontmatter, path)
    title = _string(meta.get("title"))
    blocks = list(_blocks(line.text for line in body))
    blocks = list(drop_esm(strip_comments(blocks)))
    blocks = list(callouts(list(reindent_lists(blocks))))
    lines = [(code, line if code else _inline(line, link)) for code, line in render_blocks(blocks)]
    return Converted(title, _head(title, _string(meta.get("description"))) + _tidy(lines))


def read_meta(frontmatter: str, path: str) -> dict[str, object]:
    """The frontmatter as a mapping; invalid YAML is a located error."""
    if not frontmatter.strip():
        return {}
    try:
        data = YAML(typ="safe", pure=True).load(frontmatter)
    except YAMLError as exc:
        raise PageError.at(
            _yaml_location(exc, path), f"invalid YAML frontmatter: {_yaml_problem(exc)}"
        ) from None
    if not isinstance(data, dict):
        raise PageError.at(Location(path, 2), "frontmatter must be a mapping of keys to values")
    return {str(k): v for k, v in data.items()}


def _yaml_location(exc: YAMLError, path: str) -> Location:
    """Where in the page file a frontmatter error is (the frontmatter starts on line 2)."""
    mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
    if mark is None:
        return Location(path, 2)
    return Location(path, int(mark.line) + 2, int(mark.column) + 1)


def _yaml_problem(exc: YAMLError) -> str:
    parts = [getattr(exc, "context", None), getattr(exc, "problem", None)]
    words = [str(p) for p in parts if p]
    return ": ".join(words) if words else str(exc).splitlines()[0]


def _string(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _head(title: str | None, description: str | None) -> str:
    """A minimal YAML meta block (HTML-escaped: MkDocs themes print titles raw) and the H1."""
    fields = {"title": title, "description": description}
    meta = [
        f"{k}: {json.dumps(html.escape(v), ensure_ascii=False)}" for k, v in fields.items() if v
    ]
    head = "---\n" + "\n".join(meta) + "\n---\n\n" if meta else ""
    return head + (f"# {markdown_text(title)}\n\n" if title else "")


def markdown_text(text: str) -> str:
    """Plain text that Python-Markdown shows literally (for a generated heading)."""
    return re.sub(r"([\\`*_\[\]{}#!])", r"\\\1", html.escape(text, quote=False))


def _blocks(lines: Iterable[str]) -> Iterator[Block]:
    """Group the body into prose lines and fenced code blocks (an unclosed fence runs on)."""
    pending = iter(lines)
    for line in pending:
        match = FENCE_OPEN.match(line)
        if match is None or ("`" in match["marker"] and "`" in match["info"]):
            yield line
            continue
        indent, marker = len(match["indent"]), match["marker"]
        body = []
        for inner in pending:
            if re.match(rf"^ *{re.escape(marker[0])}{{{len(marker)},}}\s*$", inner):
                break
            body.append(_dedent(inner, indent))
        yield Fence(indent, marker, _language(match["info"]), tuple(body))


def _dedent(line: str, count: int) -> str:
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, count) :]


def _language(info: str) -> str:
    """The first word of a fence's info string (``bash title="x"`` -> ``bash``)."""
    word = info.strip().split(" ", 1)[0] if info.strip() else ""
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


def _indent(block: Block) -> int:
    if isinstance(block, Fence):
        return block.indent
    return len(block) - len(block.lstrip(" "))


def _shift(block: Block, indent: int) -> Block:
    """The block moved to ``indent`` spaces."""
    if isinstance(block, Fence):
        return replace(block, indent=indent)
    return " " * indent + block.lstrip(" ")


@dataclass
class _ListLevel:
    marker: int  # column of the item's marker in the MDX
    source: int  # column where this item's content starts in the MDX
    target: int  # column where it must start for Python-Markdown (a multiple of four)
    loose: bool = False  # a blank line occurred inside the item


def reindent_lists(blocks: list[Block]) -> Iterator[Block]:
    """CommonMark list nesting (content under the marker) as Python-Markdown's four spaces."""
    levels: list[_ListLevel] = []
    previous = ""  # the last prose line ("" after a blank line or a fence)
    for block in blocks:
        if isinstance(block, str) and not block.strip():
            previous = ""
            if levels:
                levels[-1].loose = True
            yield block
            continue
        item = LIST_ITEM.match(block) if isinstance(block, str) else None
        if isinstance(block, str) and item is not None:
            yield from _list_item(block, item, levels, previous)
        else:
            yield _continuation(block, levels, after_blank=not previous)
        previous = block if isinstance(block, str) else ""


def _list_item(
    line: str, item: re.Match[str], levels: list[_ListLevel], previous: str
) -> Iterator[str]:
    column = len(item["indent"])
    while levels and levels[-1].marker > column:
        levels.pop()
    sibling = bool(levels) and levels[-1].source > column  # another item of the same list
    if previous and (levels[-1].loose if sibling else not LIST_ITEM.match(previous)):
        yield ""  # Python-Markdown needs a blank line before a list that follows a paragraph,
        # and between items once an item holds more than one block
    if sibling:
        levels.pop()
    target = levels[-1].target if levels else 0
    content = column + len(item["marker"]) + max(len(item["gap"]), 1)
    levels.append(_ListLevel(column, content, target + 4))
    yield " " * target + line.lstrip(" ")


def _continuation(block: Block, levels: list[_ListLevel], after_blank: bool) -> Block:
    column = _indent(block)
    if after_blank:
        while levels and levels[-1].source > column:
            levels.pop()
    for level in reversed(levels):
        if column >= level.source:
            return _shift(block, level.target + column - level.source)
    return block


def callouts(blocks: list[Block]) -> Iterator[Block]:
    """``<Note>`` ... ``</Note>`` as ``!!! note`` with its content four spaces deeper."""
    depth = 0
    for block in blocks:
        if isinstance(block, Fence):
            yield _shift(block, block.indent + 4 * depth)
            continue
        opened = CALLOUT_OPEN.match(block)
        closed = CALLOUT_CLOSE.match(block)
        if opened is not None:
            lines, depth = _open_callout(opened, depth)
            yield from lines
        elif closed is not None and depth:
            if closed["before"].strip():
                yield " " * (4 * depth) + closed["before"]
            depth -= 1
            yield ""
        else:
            yield " " * (4 * depth) + block if block.strip() else block


def _open_callout(opened: re.Match[str], depth: int) -> tuple[list[str], int]:
    """The admonition line, any content on the tag's line, and the new depth."""
    column = len(opened["indent"]) + 4 * depth
    kind = CALLOUTS[opened["name"]]
    raw = opened["dq"] if opened["dq"] is not None else opened["sq"]
    title = f' "{html.escape(html.unescape(raw))}"' if raw else ""
    lines = ["", " " * column + f"!!! {kind}{title}"]
    rest = opened["rest"]
    closed = CALLOUT_CLOSE.match(rest)
    if closed is not None:
        rest = closed["before"]
    if rest.strip():
        lines.append(" " * (column + 4) + rest.strip())
    if closed is not None:
        return [*lines, ""], depth
    return lines, depth + 1


def render_blocks(blocks: list[Block]) -> Iterator[tuple[bool, str]]:
    """Lines tagged with whether they are code; nested fences become indented code."""
    for block in blocks:
        if isinstance(block, str):
            yield False, block
        elif block.indent == 0:
            yield True, f"{block.marker}{block.lang}"
            yield from ((True, line) for line in block.body)
            yield True, block.marker
        else:
            yield False, ""
            pad = " " * (block.indent + 4)
            yield from ((True, pad + line if line.strip() else "") for line in block.body)
            yield False, ""


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
