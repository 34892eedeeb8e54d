"""How the changelog's files are named: which names read as an entry's or a note's, and
the located refusal of one named in another way (``n.MD``, ``n.txt``, ``n.md.j2``), which
docgen would otherwise leave unread or unreleased."""

from __future__ import annotations

import re
from pathlib import Path

from docgen.errors import ConfigError, Location

#: Names an entry or a note could be given: all but ``.mdx`` (an entry) or ``.md`` (a
#: note) are refused, not left unchecked or unreleased.
ENTRY_LIKE = frozenset({".md", ".mdx", ".markdown"})
NOTE_LIKE = frozenset({*ENTRY_LIKE, ".txt", ".rst"})


def named_as(folder: Path, suffixes: frozenset[str]) -> list[Path]:
    """The files of ``folder`` (not below it) with one of ``suffixes`` in any case, sorted,
    but hidden ones and READMEs."""
    return sorted(p for p in folder.iterdir() if reads_as(p.name, suffixes))


def reads_as(name: str, suffixes: frozenset[str] = NOTE_LIKE) -> bool:
    """Whether a file ``name`` reads as a note's (or, with ``suffixes``, an entry's): it
    holds one of them in any case, as its suffix or followed by more (``n.md.j2``,
    ``n.md.orig``, ``n.md~``, ``n.md copy``, ``n.md ``), and it is not hidden (an editor's
    lock or swap file) nor a README (``README.md``, ``readme.txt``; ``readme-links.md``
    is a note)."""
    hidden = name.startswith(".") or name.split(".", 1)[0].upper() == "README"
    return not hidden and _split_at(name, suffixes) is not None


def _split_at(name: str, suffixes: frozenset[str]) -> tuple[str, str, str] | None:
    """``name`` split at the first of ``suffixes`` it holds in any case, as a suffix or
    followed by what no longer word can go on with (a dot, a space, ``~``): what comes
    before it, the suffix, what follows (``("v1.2", ".MD", ".j2")`` of ``v1.2.MD.j2``);
    None when it holds none."""
    for found in _SUFFIX.finditer(name):
        if found[0].lower() in suffixes:
            return name[: found.start()], found[0], name[found.end() :]
    return None


#: A suffix a note or an entry could be named with, not the start of a longer word
#: (``.mdx`` is no ``.md``; ``.markdown`` is one suffix).
_SUFFIX = re.compile(r"\.(?:markdown|mdx|md|txt|rst)(?![A-Za-z0-9_-])", re.IGNORECASE)


def refuse_misnamed(root: Path, paths: list[Path], suffix: str, what: str, kind: str) -> None:
    """Refuse the first of ``paths`` not named ``*<suffix>``: docgen would never read it."""
    for path in paths:
        if path.name.endswith(suffix):
            continue
        stem, found, after = _split_at(path.name, NOTE_LIKE) or (path.stem, path.suffix, "")
        if found.lower() != suffix:
            how = kind
        elif after:
            how = f"with nothing after it (this name ends {after!r})"
        else:
            how = "in lowercase"
        raise ConfigError.at(
            Location(path.relative_to(root).as_posix()),
            f"{what} is named *{suffix}, {how}: {stem}{suffix}",
        )
