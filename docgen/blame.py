"""Blame: which registry entries (or changelog entries) are behind a drifted file.

``check`` names, under each drifted file's diff, the entries whose values the lines that
differ show: see ``attribute``.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from docgen.outputs import Output
from docgen.registry.model import Registry, Source

if TYPE_CHECKING:
    from docgen.drift_diff import LineDiff


def attribute(
    old: str,
    output: Output,
    gone: Sequence[Source] = (),
    kept: frozenset[tuple[Any, str]] = frozenset(),
    lines: LineDiff | None = None,
    as_built: bool = False,
) -> list[Source]:
    """Registry entries whose current value shows more often in the new text than the old,
    then removed values (``gone``, located in the older registry) that show more often in
    the old text than the new. Values the older registry held unchanged (``kept``) are
    not blamed, unless nothing else is (the product's words, which stand on many lines,
    not even then). Nor are the product's words behind an output ``as_built`` (the
    build's cache kept it: nothing it read changed since, the product's name included),
    so a hand edit of a line that shows them is told as one.

    A value that merely shares a rewritten line (a prose sentence listing several
    settings) appears on both sides and is not blamed. The export is compared as one
    line per value (see ``_export_view``), so an argument's tokens, one per JSON line,
    read as the words its source holds; values are counted, not the paths that key them.
    A page made from changelog entries has one line per release: every release whose
    line differs is behind it. ``lines``, when given, are ``old``'s and the text's lines.
    """
    from docgen.drift_diff import LineDiff

    export = output.kind == "export"
    if export:
        more, fewer = LineDiff(*_export_view(old, output.text)).changed()
    else:
        more, fewer = (lines or LineDiff(old, output.text)).changed()
    added, removed = _joined(more, export), _joined(fewer, export)
    if output.basis == "changelog":
        both = f"{added}\n{removed}"
        return [s for s in output.sources if s.text and _count(s.text, both)]
    sources = output.sources
    if as_built:
        sources = tuple(s for s in sources if s.keypath[0] != "product")
    return _registry_blame(sources, added, removed, gone, kept)


def _registry_blame(
    sources: Sequence[Source],
    added: str,
    removed: str,
    gone: Sequence[Source],
    kept: frozenset[tuple[Any, str]],
) -> list[Source]:
    """The registry nodes behind lines ``added`` and ``removed`` (see ``attribute``)."""
    # Many entries hold the same text (a port, a flag's value): each text is counted once.
    texts = {t for t in {s.text for s in sources} if t and any(_shown(f, added) for f in _forms(t))}
    oftener = {t for t in texts if _counted(t, added) > _counted(t, removed)}
    shown = [s for s in sources if s.text in oftener]
    changed = [s for s in shown if _new(s, kept)]
    went = [s for s in gone if s.text and _counted(s.text, removed) > _counted(s.text, added)]
    if changed or went:
        return _fields_first(list(dict.fromkeys(changed + went)))
    if kept and (moved := [s for s in sources if s.text in texts and _new(s, kept)]):
        return _fields_first(moved)  # values that changed places (two digests swapped)
    if kept and (bare := _bare_blame(sources, added, removed, kept)):
        return bare
    # The product's words stand on many lines: one that merely shows them is not behind it.
    return [s for s in shown if s.keypath[0] != "product"]


def _new(source: Source, kept: frozenset[tuple[Any, str]]) -> bool:
    """Whether the older registry did not hold ``source`` as it is (see ``attribute``)."""
    return (source.keypath, source.text) not in kept


def _fields_first(blamed: list[Source]) -> list[Source]:
    """``blamed`` without an entry whose field of the same text is blamed too (an image's
    digest): the field's line is where the change stands."""
    fields = {(s.keypath[:2], s.text) for s in blamed if len(s.keypath) == 3}
    return [s for s in blamed if len(s.keypath) != 2 or (s.keypath, s.text) not in fields]


def _bare_blame(
    sources: Sequence[Source], added: str, removed: str, kept: frozenset[tuple[Any, str]]
) -> list[Source]:
    """The arguments the older registry did not hold as they are (``kept``) whose value
    alone (``6`` of ``--max-num-seqs 6``: "`6` concurrent sequences") shows more often in
    the lines ``added`` than ``removed``. A bare value says nothing of whose it is, so only
    a value that changed since that registry is taken for one."""
    found = []
    for s in sources:
        value = _bare_value(s.text) if _new(s, kept) else ""
        if value and _count(value, added) > _count(value, removed):
            found.append(s)
    return found


def removed_sources(old: Registry, new: Registry) -> tuple[Source, ...]:
    """The values of ``old`` that ``new`` no longer has, each located where it stood in
    ``old`` (``HEAD:profiles.yaml:117:7``): what ``check`` blames a pure removal on. A
    removed profile is blamed by its id (which its table row and its page's name show) and
    by every value of it that no other entry held, before or now (a page that lists
    profiles by model and host shows no id); a removed override by its arguments, summary
    and tradeoffs (which its example and the export show). A renamed profile is blamed,
    where it now stands, by its old id leaving a page."""
    from docgen.changelog.diff import diff

    changes = diff(old, new)
    removed = [c.subject for c in changes if c.kind == "profile-removed"]
    only = _only_in(removed, old, new) if removed else {}
    gone: list[Source] = []
    for change in changes:
        if change.kind == "profile-renamed" and change.source is not None:
            gone.append(replace(change.source, text=change.old))
        deleted = change.kind in _ENTRY_FIELDS and change.old and not change.new
        if deleted and (fields := _field_sources(old, change)):
            gone += fields  # a model's notes, a host's notes, deleted: where they stood
            continue
        if change.new is not None or change.source is None:
            continue
        if change.kind == "profile-removed":
            texts = [change.subject, *only[change.subject]]
            gone += [replace(change.source, text=text) for text in texts]
        elif change.kind == "override-removed":
            override = change.extra["override"]  # the older registry's, located there
            gone += [replace(override.source, text=change.old), *override.texts]
        else:
            gone.append(change.source)
    return tuple(s for s in gone if s.text)


#: The section whose entry's own field a change kind names.
_ENTRY_FIELDS = {"model-changed": "models", "host-changed": "hosts", "image-updated": "images"}


def _field_sources(old: Registry, change: Any) -> list[Source]:
    """Where the field a change deleted stood in the older registry."""
    entry = getattr(old, _ENTRY_FIELDS[change.kind]).get(change.subject)
    return [s for s in (entry.texts if entry else ()) if s.keypath[-1] == change.name]


def _only_in(removed: list[str], old: Registry, new: Registry) -> dict[str, list[str]]:
    """For each removed profile, the texts of its values that no other entry held, before
    or now: what left a page only because the profile did (a value another profile held
    too may have left it with that profile's edit)."""
    from collections import Counter

    from docgen.provenance import profile_sources, registry_sources

    held = {s.text for s in registry_sources(new)}
    holders = Counter(s.text for s in registry_sources(old))  # each source counted once
    found: dict[str, list[str]] = {}
    for pid in removed:
        own = set(profile_sources(old.profiles[pid]))
        mine = Counter(s.text for s in own)
        found[pid] = [
            text
            for text, count in mine.items()
            if text and text not in held and holders[text] == count
        ]
    return found


def _joined(lines: set[str], export: bool) -> str:
    """The differing lines as one text to count values in; of the export, each line's
    value alone (its path keeps equal values apart but is no registry entry's text)."""
    return "\n".join(sorted(line.partition(": ")[2] if export else line for line in lines))


def _export_view(old: str, new: str) -> tuple[str, str]:
    """Both export texts as one ``path: value`` line per value, each list of strings (an
    argv) on one line as its words, shell-quoted as pages and registry sources show them;
    the texts as they are when either is not JSON."""
    try:
        old_data, new_data = _tagged(old), _tagged(new)
    except ValueError:
        return old, new
    return _flat_lines(old_data, new_data), _flat_lines(new_data, old_data)


def _tagged(text: str) -> Any:
    """JSON ``text`` with each number read as ``(NUMBER, its text as Python prints it)``:
    then two values are equal exactly when JSON writes them alike (in Python, ``True == 1``
    and ``1 == 1.0``)."""
    return json.loads(
        text,
        parse_int=lambda s: (NUMBER, str(int(s))),
        parse_float=lambda s: (NUMBER, str(float(s))),
        parse_constant=lambda s: (NUMBER, str(float(s))),
    )


NUMBER = "number"


def _keyed(items: list[Any]) -> dict[Any, Any]:
    """A list's items by their ids, when each is an object with an id of its own, else
    by position."""
    ids = [item.get("id") if isinstance(item, dict) else None for item in items]
    if all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids):
        return dict(zip(ids, items, strict=True))
    return dict(enumerate(items))


def _flat_lines(data: Any, other: Any) -> str:
    return "\n".join(_flat(data, "", other))


def _flat(value: Any, path: str, other: Any) -> Iterator[str]:
    """One ``path: value`` line per value; a list's objects are keyed by their ids (a
    profile removed or added moves no other profile's lines), other items by position,
    which keeps equal values apart (lines are compared by what they hold). An object that
    ``other`` (the other export) holds at the same key, equal, gives the same lines on
    both sides, none of which can differ: it is left out (most of a large export, when
    one profile changed)."""
    if isinstance(value, dict):
        fields = other if isinstance(other, dict) else {}
        for key, item in value.items():
            yield from _flat(item, f"{path}.{key}", fields.get(key))
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        yield f"{path}: {shlex.join(value)}"
    elif isinstance(value, list):
        mine, theirs = _keyed(value), _keyed(other if isinstance(other, list) else [])
        for key, item in mine.items():
            twin = theirs.get(key)
            if isinstance(item, dict) and item == twin:
                continue
            yield from _flat(item, f"{path}[{key}]", twin)
    else:
        yield f"{path}: {value[1] if isinstance(value, tuple) else value}"


#: What MDX prose or a table cell may show escaped (without it, a text shows as it is).
_ESCAPABLE = frozenset("\\[]{}<>*_`|&!#~")
#: A start prose escapes at a line's start: a block marker, a number, ``import``, ``export``.
_STARTS_A_BLOCK = re.compile(r"[-+>#=]|[0-9]+[.)]|(?:import|export)\b")


@lru_cache(maxsize=8192)
def _forms(text: str) -> tuple[str, ...]:
    """``text`` as a page may show it: as it is (in code, in frontmatter), and as MDX
    prose and a table cell escape it (``DGX Spark \\[x\\]``), where that differs."""
    if _ESCAPABLE.isdisjoint(text) and not _STARTS_A_BLOCK.match(text):
        return (text,)
    from docgen.render.mdx import escape_cell, escape_prose

    return tuple(dict.fromkeys((text, escape_prose(text), escape_cell(text))))


def _counted(text: str, haystack: str) -> int:
    """Occurrences of ``text`` in any form a page shows it in (see ``_forms``); an escaped
    form that holds the text itself (``\\<4 GB`` holds ``<4 GB``) counts once."""
    found = _count(text, haystack)
    for form in _forms(text)[1:]:
        found += _count(form, haystack) * (1 - _count(text, form))
    return found


def _count(text: str, haystack: str) -> int:
    """Occurrences of ``text`` as a whole token, neither preceded nor followed by a word
    character, a dot or a dash (``1`` is not in ``12`` nor ``0.1``, profile ``a`` not in
    ``a-2``; a sentence's last dot is no part of a token), an argument's
    (``--max-num-seqs 2``) also as its tokens in a JSON array, as an override's
    ``..._EXTRA_ARGS_JSON='["--max-num-seqs","2"]'`` shows them."""
    found, at, size = 0, haystack.find(text), len(text)
    while at != -1:  # str.find runs in C; a regex's lookbehind would read every character
        end = at + size
        if (at == 0 or not _joins(haystack[at - 1])) and not _joined_after(haystack, end):
            found += 1
            at = haystack.find(text, end)
        else:
            at = haystack.find(text, at + 1)
    return found + (_arrays(text, haystack) if '"--' in haystack else 0)


def _joined_after(haystack: str, end: int) -> bool:
    """Whether the character at ``end`` continues the token before it; a dot that ends a
    sentence after a word (at the end, or before a blank) does not (``MTP off.``), one
    before more of a token does (``1.5``), and so does one after a number (``2.``, an
    ordered list's marker, or a sentence's: either way no number's own)."""
    if end == len(haystack) or not _joins(haystack[end]):
        return False
    after = end + 1
    if haystack[end] != "." or haystack[end - 1].isdigit():
        return True
    return after < len(haystack) and not haystack[after].isspace()


def _joins(char: str) -> bool:
    """Whether ``char`` beside a value makes it part of a longer token (``\\w``, ``.``, ``-``)."""
    return char.isalnum() or char in "_.-"


def _shown(text: str, haystack: str) -> bool:
    if text in haystack:
        return True
    return '"--' in haystack and _arrays(text, haystack) > 0


@lru_cache(maxsize=4096)
def _argument(text: str) -> tuple[str, ...]:
    """An argument's words (``--max-num-seqs``, ``6``); none for a text that is no
    argument with a value."""
    if not text.startswith("--"):
        return ()
    try:
        tokens = tuple(shlex.split(text))
    except ValueError:
        return ()
    return tokens if len(tokens) > 1 else ()


def _bare_value(text: str) -> str:
    """An argument's one value (``6`` of ``--max-num-seqs 6``); "" for any other text."""
    words = _argument(text)
    return words[1] if len(words) == 2 else ""


@lru_cache(maxsize=4096)
def _in_array(text: str) -> str:
    """An argument's tokens as they stand in a JSON array (``"--x","2"``); "" for a text
    that is no argument."""
    return ",".join(json.dumps(t) for t in _argument(text))


def _arrays(text: str, haystack: str) -> int:
    """How often an argument's tokens stand in a JSON array there, written tight
    (``"--x","2"``, as an override's setting) or with a blank (``"--x", "2"``, as Jinja's
    ``tojson`` and ``json.dumps`` write them)."""
    array = _in_array(text)
    if not array:
        return 0
    return haystack.count(array) + haystack.count(array.replace('","', '", "'))
