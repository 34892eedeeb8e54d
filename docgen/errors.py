"""Errors that a user must fix, each carrying the place in an input that caused it.

The core raises these; only the edges (``cli.py``, the MkDocs and pytest plugins)
turn them into exit codes or framework errors. Nothing here imports click.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

#: What a terminal acts on beyond C0: DEL, C1, the line and paragraph separators and the
#: bidirectional controls (U+061C, U+200E/F, U+202A-E, U+2066-9). The one list every
#: class below (and so each escape docgen prints) is made of.
_ACTED_ON = "\x7f-\x9f\u2028-\u202e\u200e\u200f\u2066-\u2069\u061c"
#: Control characters: C0 (newline and tab too) and ``_ACTED_ON``. No name in the registry
#: holds one (its schema's ``plain`` class is this one), and a message shows an echoed
#: input's as escapes.
CONTROL = re.compile(f"[\x00-\x1f{_ACTED_ON}]")
#: A line break or another control character that one line of text may not hold: C0,
#: DEL, C1, U+2028 and U+2029 (a bidirectional control keeps a line one line).
BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: ``BREAKING``, or the ``*/`` that would end the comment a text is written into.
COMMENT_BREAKING = re.compile(f"{BREAKING.pattern}|\\*/")
#: The ``CONTROL`` characters but newline and tab: what a printed text never holds raw,
#: whatever it quotes (a carriage return or a bidirectional override would rewrite what
#: the terminal shows of the line); a message holds ``_UNQUOTED`` none.
_UNPRINTED = re.compile(f"[\x00-\x08\x0b-\x1f{_ACTED_ON}]")
#: Unicode's other format characters (category Cf, beyond the bidirectional controls):
#: a soft hyphen, zero-width spaces and joiners, a byte-order mark, tags. Each shows as
#: nothing, so a message quoting an input that holds one said "got '4'" for ``4\ufeff``.
_INVISIBLE = (
    "\xad\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200d\u2060-\u2064"
    "\u206a-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
#: What a message never holds raw: ``_UNPRINTED`` and ``_INVISIBLE``.
_UNQUOTED = re.compile(f"[\x00-\x08\x0b-\x1f{_ACTED_ON}{_INVISIBLE}]")
#: What JSON leaves raw that a terminal acts on (JSON escapes C0 itself).
_JSON_UNPRINTED = re.compile(f"[{_ACTED_ON}]")


def _escaped(found: re.Match[str]) -> str:
    """A character as Python writes it escaped (``\\u202e``, ``\\n``)."""
    return repr(found[0])[1:-1]


#: A lone surrogate, the only character UTF-8 cannot encode: what a JSON or YAML escape
#: such as ``\ud800`` gives, and how Python keeps a command-line byte that is not UTF-8
#: (U+DC80 to U+DCFF).
SURROGATE = re.compile("[\ud800-\udfff]")


def surrogate_problem(text: str) -> str | None:
    """What a lone surrogate in ``text`` is, worded for a message (``it holds the byte
    0xE9, which is not UTF-8``), or None when it holds none: no page, shell or site can
    carry one."""
    found = SURROGATE.search(text)
    if found is None:
        return None
    code = ord(found[0])
    if code >= 0xDC80:  # a byte the command line could not decode
        return f"it holds the byte 0x{code - 0xDC00:02X}, which is not UTF-8"
    return f"it holds a lone surrogate (U+{code:04X}), which is no character"


#: A control character no page shows as text: ``CONTROL`` but a tab (the texts searched
#: for it are lines: a line end ends them).
UNSHOWN = re.compile(f"(?!\t){CONTROL.pattern}")


def unshown_problem(found: str, what: str, verb: str = "holds") -> str:
    """Why ``what`` (``the note``) may not hold (``verb``) the ``UNSHOWN`` character ``found``."""
    return (
        f"{what} {verb} U+{ord(found):04X}, a control character no page shows as text (an "
        "escape, or a bidirectional override that reorders what a reader sees): remove it"
    )


def printable(text: str) -> str:
    """``text`` with every ``CONTROL`` character but newline and tab written as its escape
    (``\\u202e``): what docgen prints of an input's text or a diff (a message escapes
    the invisible format characters too, see ``Problem``)."""
    return _UNPRINTED.sub(_escaped, text)


def printable_message(text: str) -> str:
    """``printable``, with each invisible format character written as its escape too: a
    message quotes input, where one shows as nothing (``got '4'`` for ``4\ufeff``)."""
    return _UNQUOTED.sub(_escaped, text)


def printable_json(text: str) -> str:
    """JSON ``text`` with what it leaves raw that a terminal acts on written as ``\\uXXXX``
    escapes (JSON already escapes the other control characters): the same data."""
    return _JSON_UNPRINTED.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def without_surrogates(value: Any) -> Any:
    """``value`` with each lone surrogate in its strings written as its escape text
    (``\\udcff``, as the text report shows a file name byte that is not UTF-8): JSON holds
    no such character, and a strict reader refuses the JSON escape of one."""
    if isinstance(value, str):
        return SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", value)
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [without_surrogates(item) for item in value]
    return value


def text_location(path: str, text: str, at: int) -> Location:
    """Where character ``at`` of ``text`` (the file at ``path``) stands: 1-based line and
    column."""
    return Location(path, text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at))


def one_line(text: str) -> str:
    """``text`` with every ``CONTROL`` character written as its escape (``\\n``), for
    quoting an input's name in a message that must stay one line."""
    return CONTROL.sub(_escaped, text)


#: Location names that are docgen itself, one of its commands or a part of its work, not
#: a file (``tests/system/test_shown_paths.py`` holds every such name in docgen to it).
NOT_FILES = frozenset({"docgen", "serve-command", "release-notes", "overview"})
#: How the running command shows a project path (see ``shown_path``).
_SHOWN: ContextVar[Callable[[str], str] | None] = ContextVar("docgen_shown_path", default=None)


def names_file(path: str, root: Path | None = None) -> bool:
    """Whether a location's ``path`` is a file of the tree: not a command-line option
    (``--since``), standard input, docgen or one of its commands, nor a file at a git
    revision (``HEAD~1:profiles.yaml``), unless a file of that name lies under ``root``
    (a template ``a:b.mdx.j2``)."""
    if path.startswith(("-", "<")) or path in NOT_FILES:
        return False
    return ":" not in path or (root is not None and os.path.lexists(root / path))


def shown_path(path: str) -> str:
    """A project-relative ``path`` as the running command prints it (see ``paths_shown``);
    as it is outside a command."""
    show = _SHOWN.get()
    return path if show is None else show(path)


@contextmanager
def paths_shown(show: Callable[[str], str]) -> Iterator[None]:
    """For the block, print each project-relative path as ``show`` gives it (from the
    folder docgen runs in: ``../profiles.yaml`` run from ``docs/``), so a terminal or an
    editor opens the file a line names; ``show`` leaves a location that names no file (see
    ``names_file``) as it is."""
    token = _SHOWN.set(show)
    try:
        yield
    finally:
        _SHOWN.reset(token)


@dataclass(frozen=True, order=True)
class Location:
    """A place in an input file: 1-based line and column; 0 means unknown."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        path = one_line(shown_path(self.path))  # a name never breaks its line
        if self.line and self.col:
            return f"{path}:{self.line}:{self.col}"
        if self.line:
            return f"{path}:{self.line}"
        return path


@dataclass(frozen=True)
class Problem:
    """One located finding, printed gcc style: ``path:line:col: error: message``.

    ``rule`` is a stable id of the rule that was broken (``changelog-version-unique``,
    ``registry``, ...): reports and plugins tell problems apart by it, never by wording.
    """

    message: str
    location: Location | None = None
    severity: str = "error"
    rule: str = ""

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.severity}: {printable_message(self.message)}"


E = TypeVar("E", bound="DocgenError")


class DocgenError(Exception):
    """Base of every error a user can cause; exit code 2 at the command line."""

    exit_code = 2
    #: The rule id given to each of its problems that names none of its own.
    rule = "input"

    def __init__(self, problems: Problem | Sequence[Problem]) -> None:
        given = (problems,) if isinstance(problems, Problem) else tuple(problems)
        self.problems: tuple[Problem, ...] = tuple(
            p if p.rule else replace(p, rule=self.rule) for p in given
        )
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls: type[E], location: Location | None, message: str) -> E:
        return cls(Problem(message, location))


class RegistryError(DocgenError):
    """The registry file cannot be read, parsed or validated."""

    rule = "registry"


class TemplateError(DocgenError):
    """A template does not compile or fails while rendering."""

    rule = "template"


class PageError(DocgenError):
    """A hand-written page has broken AgentOnly blocks or docgen regions."""

    rule = "page"


class ConfigError(DocgenError):
    """Project configuration or a command-line argument is invalid."""

    rule = "settings"


class OwnershipError(DocgenError):
    """docgen was asked to overwrite a file it does not own."""

    rule = "ownership"


class WriteError(DocgenError):
    """A file could not be written (read-only folder, full disk); nothing was changed."""

    rule = "write"


def did_you_mean(name: str, candidates: Iterable[str], quote: str = "'") -> str:
    """Return ``"; did you mean 'x'?"`` for the closest candidates (up to three, none
    much farther than the closest: ``tool-call-parsr`` is not offered ``offload-params``
    beside ``tool-call-parser``), or ``""``."""
    import difflib

    close = difflib.get_close_matches(name, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return ""
    ratio = [difflib.SequenceMatcher(None, name, found).ratio() for found in close]
    close = [found for found, r in zip(close, ratio, strict=True) if r >= ratio[0] - _NEAR]
    return f"; did you mean {_listed(close, 'or', quote)}?"


#: How much less alike than the closest candidate another may be, and still be offered.
_NEAR = 0.15


def known_as(name: str, candidates: Iterable[str], what: str) -> str:
    """``did_you_mean``'s suggestion, or, with no close candidate, the few there are:
    ``"; the agents are 'alpha' and 'beta'"`` (``what``: "the agents")."""
    names = sorted(set(candidates))
    close = did_you_mean(name, names)
    if close or not names or len(names) > 10:
        return close
    return f"; {what} {'is' if len(names) == 1 else 'are'} {_listed(names, 'and')}"


def _listed(names: list[str], conjunction: str, quote: str = "'") -> str:
    """``'a', 'b' or 'c'``: each name quoted on one line, the last after ``conjunction``."""
    quoted = [f"{quote}{one_line(n)}{quote}" for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"


def decode(raw: bytes, path: str, what: str = "", error: type[DocgenError] | None = None) -> str:
    """UTF-8 text of ``raw`` (a leading BOM dropped), or an ``error`` (default: a registry
    error) at the first bad byte's line and column; ``what`` names the input."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        message = f"invalid UTF-8 byte 0x{raw[exc.start]:02x}" + (f" in the {what}" if what else "")
        raise (error or RegistryError).at(Location(path, line, col), message) from None
    return text[1:] if text.startswith("\ufeff") else text
