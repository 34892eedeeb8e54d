"""What kind of file a page template renders, told by the name it renders to: where
docgen's notice goes in it, how ``{{ value }}`` prints there, and which parser must
read what the template rendered.

- MDX (``.mdx``, and ``.md``, which Fern compiles as MDX): the notice is an MDX
  comment; every value is escaped as MDX prose unless a context filter made it safe.
- JSON (``.json``): the rendered text must be one JSON object; the notice is its first
  member, ``"$comment"``, as in the registry export.
- Files with ``#`` comments (YAML, TOML, shell, ``.env``, Python): the notice is a ``#``
  line, first in the file or after its ``#!`` line; YAML and TOML must parse.

In a JSON or ``#`` file a value prints as it is (``printed``): its template quotes it
for the file (``tojson``, ``shell_quote``), and the parser is the judge of the result.
A template of any other kind is a located error: docgen could not mark the file as its
own, so could never rewrite or prune it.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

from docgen.errors import Location, RegistryError, TemplateError, one_line
from docgen.registry.depth import check_depth
from docgen.render.syntax import hash_owned, notice, owned, with_notice

MDX, JSON, HASH = "mdx", "json", "hash"
_KINDS = {
    ".mdx": MDX,
    ".md": MDX,
    ".json": JSON,
    ".yaml": HASH,
    ".yml": HASH,
    ".toml": HASH,
    ".sh": HASH,
    ".bash": HASH,
    ".env": HASH,
    ".py": HASH,
}
#: The names docgen may write, and so may find stale and prune.
SUFFIXES = tuple(_KINDS)

#: How many renders of a JSON or ``#`` file this process is inside.
_plain = 0


def kind_of(name: str) -> str | None:
    """The kind of the file ``name`` (an output's path, or a template's name with or
    without ``.j2``), or None for one docgen cannot mark as its own."""
    base = name.removesuffix(".j2")
    dot = base.rfind(".")
    # A name that is all suffix (``.env``) is a hidden file, not a kind.
    return None if dot <= base.rfind("/") + 1 else _KINDS.get(base[dot:])


def owned_file(text: str, path: str) -> bool:
    """Whether the file ``path`` (its ``text``) carries docgen's notice where its kind puts
    it (a ``#`` file's MDX notice too: docgen wrote one there before it knew the kind)."""
    return (kind_of(path) == HASH and hash_owned(text)) or owned(text)


def machine_file(path: str, origin: str) -> bool:
    """Whether the output ``path`` is a JSON or ``#`` file a template (``origin``) made,
    which a page may link to as a download."""
    return origin.endswith(".j2") and kind_of(path) in (JSON, HASH)


def refuse_unknown(name: str, display: str) -> None:
    """Refuse the page template ``name`` (shown as ``display``) whose file docgen could
    not mark as its own."""
    if kind_of(name) is None:
        known = ", ".join(SUFFIXES)
        raise TemplateError.at(
            Location(display),
            f"docgen cannot mark the file this template renders "
            f"({one_line(name.removesuffix('.j2'))}) as its own: no notice can go in a file "
            f"of that kind. Name the template for one of {known}, followed by .j2, or move "
            "it under a folder whose name starts with `_` to make it a partial",
        )


@contextmanager
def printing(name: str) -> Iterator[None]:
    """Render the template ``name`` as its kind prints values (see the module)."""
    global _plain
    plain = kind_of(name) in (JSON, HASH)
    _plain += plain
    try:
        yield
    finally:
        _plain -= plain


def plain() -> bool:
    """Whether values print as they are here (in a JSON or ``#`` file's render)."""
    return _plain > 0


def noticed(text: str, path: str, origin: str, registry: str, cli_token: str) -> str:
    """The text ``origin`` (a template) rendered for the file ``path``, with docgen's
    notice in its place (naming ``origin`` and ``registry``); a located error at the
    template when that kind of file refuses it."""
    where = Location(origin, 1)
    if kind_of(path) != MDX and cli_token in text:
        raise TemplateError.at(
            where,
            f"{one_line(path)} is one file for every agent, so the CLI token "
            f"'{one_line(cli_token)}' cannot be resolved in it (only a page gets a variant "
            "per agent): name each agent's own command (`agent.cli`) instead",
        )
    if kind_of(path) == MDX:
        return with_notice(text, notice(origin, registry), where, path)
    return _marked(text, path, notice(origin, registry, comment="plain"), where)


def _marked(text: str, path: str, statement: str, where: Location) -> str:
    """The rendered ``text`` of the JSON or ``#`` file ``path``, checked by its parser,
    with the notice ``statement`` in its place; a located error at ``where`` (the
    template) when it does not parse or cannot hold the notice."""
    if kind_of(path) == JSON:
        return _json_marked(text, path, statement, where)
    _refuse_unparsed(path, text, where)
    first, _newline, rest = text.partition("\n")
    if first.startswith("#!"):  # the interpreter's line stays first, on a line of its own
        return f"{first}\n# {statement}\n{rest}"
    return f"# {statement}\n{text}"


def _json_marked(text: str, path: str, statement: str, where: Location) -> str:
    members = _json_object(text, path, where)
    if any(key == "$comment" for key, _value in members):
        raise TemplateError.at(
            where, 'the rendered JSON already has a "$comment" member, where docgen\'s notice goes'
        )
    rest = text.lstrip()[1:]
    if not members:  # only blanks before its "}": no comma after the notice
        return f'{{\n  "$comment": {json.dumps(statement)}\n{rest.lstrip()}'
    rest = rest.lstrip(" \t")
    rest = rest if rest.startswith(("\n", "\r\n")) else f"\n  {rest}"
    return f'{{\n  "$comment": {json.dumps(statement)},{rest}'


def _json_object(text: str, path: str, where: Location) -> list[tuple[str, object]]:
    """The members of the one JSON object ``text`` holds, as a strict reader takes it: no
    key twice in an object, no ``NaN`` or ``Infinity`` (which Python alone reads)."""
    try:
        members = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_constant,
            parse_float=_finite,
            parse_int=_finite_int,
        )
    except json.JSONDecodeError as exc:
        raise _unparsed(where, "JSON", exc.msg, path, (exc.lineno, exc.colno)) from None
    except (ValueError, RecursionError) as exc:
        why = str(exc) if isinstance(exc, ValueError) else "it nests too deep"
        raise _unparsed(where, "JSON", why, path) from None
    if not isinstance(members, list) or not text.lstrip().startswith("{"):
        raise TemplateError.at(
            where,
            "a JSON file docgen writes must be one JSON object: its notice is the object's "
            'first member, "$comment"',
        )
    return members


def _pairs(members: list[tuple[str, object]]) -> list[tuple[str, object]]:
    seen: set[str] = set()
    for key, _value in members:
        if key in seen:
            raise ValueError(f"the key {json.dumps(key)} is in one object twice")
        seen.add(key)
    return members


def _constant(name: str) -> object:
    raise ValueError(f"{name} is no JSON value (only Python reads it)")


def _finite(text: str) -> float:
    """A number past a double's range is refused: readers take it for infinity."""
    if math.isinf(value := float(text)):
        raise ValueError(f"the number {_shown(text)} is past a double's range")
    return value


def _finite_int(text: str) -> int:
    """A JSON integer past a double's range is refused, as a number with a fraction is."""
    if len(text.lstrip("-")) > 308:  # 1e308 has 309 digits: nothing shorter overflows
        _finite(text)
    return int(text)


def _shown(number: str | int) -> str:
    """A number as a message shows it: its first 40 characters."""
    if isinstance(number, int) and number.bit_length() >= 4000:  # past what str() writes
        return "of over 1,200 digits"
    text = str(number)
    return one_line(text if len(text) <= 40 else f"{text[:40]}...")


def _toml_float(text: str) -> float:
    """A TOML float: ``inf`` and ``nan`` as TOML writes them, but no number past a
    double's range (read as infinity)."""
    return float(text) if "inf" in text or "nan" in text else _finite(text)


def _refuse_wide_integers(data: object) -> None:
    """A TOML integer beyond 64 bits, which the TOML standard bids readers refuse."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending += item.values()
        elif isinstance(item, list):
            pending += item
        elif isinstance(item, int) and not -(2**63) <= item < 2**63:
            raise ValueError(f"the integer {_shown(item)} is beyond 64 bits")


def _read_every_document(text: str) -> None:
    """Read each YAML document of ``text`` with ruamel.yaml's pure reader, installed or
    not the C one: the same verdict and words on every machine (their scanners word an
    escape past U+10FFFF apart), its failures placed at their node (``yaml_guard``)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import SafeConstructor

    from docgen.registry.yaml_guard import guarded
    from docgen.registry.yaml_tabs import for_ruamel

    reader = YAML(typ="safe", pure=True)
    reader.Constructor = guarded(SafeConstructor)
    spaced, _tab = for_ruamel(text, "")  # a tab in an unquoted value: ruamel.yaml refuses
    for _document in reader.load_all(spaced):
        pass


def _refuse_unparsed(path: str, text: str, where: Location) -> None:
    """Refuse the text of the YAML or TOML file ``path`` that its reader refuses (a YAML
    key twice in a mapping too, as ruamel.yaml and Go's yaml.v3 refuse it)."""
    from ruamel.yaml.error import YAMLError  # only a rendered YAML file needs it

    from docgen.registry.yaml_errors import escape_problem

    suffix = path[path.rfind(".") :].lower()
    try:
        if suffix in (".yaml", ".yml"):
            # A C composer may overflow the stack before Python knows: refused first.
            _refuse_deep(text, path, where)
            _read_every_document(text)
        elif suffix == ".toml":
            _refuse_wide_integers(tomllib.loads(text, parse_float=_toml_float))
    except YAMLError as exc:
        mark, problem = getattr(exc, "problem_mark", None), getattr(exc, "problem", None)
        at = None if mark is None else (mark.line + 1, mark.column + 1)
        raise _unparsed(where, "YAML", problem or str(exc).split("\n", 1)[0], path, at) from None
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_AT.search(str(exc))
        at = None if found is None else (int(found[1]), int(found[2]))
        raise _unparsed(where, "TOML", _TOML_AT.sub("", str(exc)), path, at) from None
    except RecursionError:
        raise _unparsed(where, suffix[1:].upper(), "it nests too deep", path) from None
    except (ValueError, OverflowError) as exc:  # read, but past what the format allows
        escape = escape_problem(path, text) if suffix != ".toml" else None  # see there
        if escape is not None:
            placed = escape.location
            at = None if placed is None else (placed.line, placed.col)
            raise _unparsed(where, "YAML", escape.message, path, at) from None
        raise _unparsed(where, suffix[1:].upper(), str(exc), path) from None


def _refuse_deep(text: str, path: str, where: Location) -> None:
    """Refuse YAML nested deeper than the registry may be (libyaml reads it flat first)."""
    try:
        check_depth(text, "")
    except RegistryError as exc:
        at = exc.problems[0].location
        place = None if at is None else (at.line, at.col)
        raise _unparsed(where, "YAML", exc.problems[0].message, path, place) from None


#: Where tomllib says an error is: `` (at line 3, column 5)``.
_TOML_AT = re.compile(r" \(at line (\d+), column (\d+)\)")


def _unparsed(
    where: Location, kind: str, why: str, path: str, at: tuple[int, int] | None = None
) -> TemplateError:
    """The error of a rendered file its parser refuses: at the template (``where``), or,
    when known, at the line and column ``at`` of the text it rendered for ``path`` (which
    its loops and includes make: the caller locates that line in the templates)."""
    message = f"what the template rendered is not valid {kind}: {one_line(why.strip())}"
    return TemplateError.at(where if at is None else Location(path, *at), message)
