"""The shell commands of a page's shell code blocks, read as bash reads them: logical
lines (continuations and open quotes joined), their words, and the ``vllm serve`` argv."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Sequence

from docgen.render.syntax import CLOSING, CODE, roles

SHELL_LANGUAGES = frozenset({"bash", "sh", "shell", "zsh", "console", "shell-session"})
_OPERATOR = re.compile(r"^[();<>|&]+$")


def logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, logical line) in shell code blocks, as bash reads them.

    A backslash at the end of a line joins the next one; a quote left open does too
    (with the newline kept, inside the quoted word).
    """
    pending: str | None = None
    start, quote = 0, ""
    lines = text.splitlines()
    for number, (line, (role, fence)) in enumerate(zip(lines, roles(lines), strict=True), 1):
        if role == CLOSING and pending is not None:
            yield start, _unprompt(pending)
        if role != CODE:
            pending = None
            continue
        if fence is None or fence.language.lower() not in SHELL_LANGUAGES:
            continue
        if pending is None:
            start, pending, quote = number, "", ""
        quote, goes_on = _quoting(line.rstrip(), quote)
        if goes_on:  # a backslash escapes the newline: the line goes on
            pending += line.rstrip()[:-1]
        elif quote:  # inside quotes: the newline is part of the word
            pending += line + "\n"
        else:
            yield start, _unprompt(pending + line)
            pending = None


def _quoting(line: str, quote: str) -> tuple[str, bool]:
    """Where bash stands at the end of ``line``, begun inside ``quote`` (``'``, ``"`` or
    ""): the quote still open, and whether a backslash escapes the newline (the line
    goes on; inside single quotes a backslash is a character like any other)."""
    at, end = 0, len(line)
    while at < end:
        char = line[at]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            if at + 1 == end:
                return quote, True
            at += 1  # the escaped character
        elif quote:
            quote = "" if char == '"' else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1] in " \t;&|("):
            return quote, False  # a comment: its quotes open nothing
        at += 1
    return quote, False


def _unprompt(line: str) -> str:
    stripped = line.lstrip()
    return stripped[2:] if stripped.startswith("$ ") else line


def words(command: str) -> list[str]:
    """Shell words as bash splits them; a ``#`` that starts a word starts a comment."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    for word in lexer:
        if word.startswith("#"):
            break
        words.append(word)
    return words


def serve_argv(words: Sequence[str]) -> list[str] | None:
    """``["vllm", "serve", ...]`` up to the first shell operator, or None if absent."""
    for at in range(len(words) - 1):
        if words[at].rsplit("/", 1)[-1] == "vllm" and words[at + 1] == "serve":
            rest = list(words[at + 2 :])
            end = next((i for i, w in enumerate(rest) if _OPERATOR.match(w)), len(rest))
            return ["vllm", "serve", *rest[:end]]
    return None
