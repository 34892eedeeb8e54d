"""Tables and lists for generated pages: a GFM table, a sentence list, and the tables
docgen generates from the registry (host defaults; the models, each registered host and
its minimum compute capability)."""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterable, Mapping, Sequence, Set
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import jinja2
from jinja2.filters import make_attrgetter
from markupsafe import Markup

from docgen.registry.model import Host, ModelOnHost, Registry
from docgen.render import mdx

#: A ``|`` no backslash escapes: it ends a table cell.
_CELL_BREAK = re.compile(r"(?<!\\)(?:\\\\)*\|")
#: What a template prints as it is (an undefined name raises where it is printed).
PRINTABLE = (str, int, float, datetime.date, jinja2.Undefined)


def printed(value: Any) -> str:
    """The text a template prints for ``value``, before it is escaped for where it lands:
    ``true``/``false`` for a boolean, nothing for none, text and numbers as they are.
    Anything else (a list, a mapping, a registry object) is refused: Python's text for it
    (``None``, ``True``, ``['a']``) would land in the page, in ``{{ }}``, in a context
    filter and in a table cell alike."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if not isinstance(value, PRINTABLE):
        raise ValueError(_unprintable(value))
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{{{{ }}}} printed {value}, no number a page can show")
    return str(value)


def _unprintable(value: Any) -> str:
    """Why a template cannot print a value that is no text: Python's own text for it
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
    if callable(value):
        name = getattr(value, "name", None) or getattr(value, "__name__", "")  # a macro's
        return f"{{{{ }}}} printed a function without calling it: call it, {name}{_call(value)}"
    return (
        f"{{{{ }}}} printed a {type(value).__name__} object, which a page cannot show as it "
        "is: print one of its fields"
    )


def _call(function: Any) -> str:
    """How a call of ``function`` is written: ``()``, or ``(...)`` when it takes arguments
    (or says nothing of them: a macro)."""
    import inspect  # only when a template printed a function

    if isinstance(arguments := getattr(function, "arguments", None), tuple):  # a macro
        return "(...)" if arguments else "()"
    try:
        needed = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return "(...)"
    empty = inspect.Parameter.empty
    return (
        "(...)"
        if any(p.default is empty and p.kind <= p.POSITIONAL_OR_KEYWORD for p in needed)
        else "()"
    )


def _code(value: str) -> Markup:
    return Markup(mdx.inline_code(value, in_table=True))  # noqa: S704 - escaped for a cell


def gb(size: int | None, digits: int = 2) -> str:
    """Bytes as decimal gigabytes with two decimals: ``9.60 GB``, as NemoClaw's own docs
    test writes them, ``(bytes / 1e9).toFixed(2)``. JavaScript rounds the double's exact
    value half up (``0.125`` gives ``0.13``), where Python's format rounds a tie to even."""
    if not 0 <= digits <= 20:  # as toFixed's own bound, within what a decimal holds exactly
        raise ValueError(f"gb takes 0 to 20 decimals, got {digits}")
    if size is None:  # a blank figure on a page: "approximately ` `"
        raise ValueError(
            "gb was given none: the registry does not state this size; test it with {% if %} first"
        )
    if size < 0:  # a size is never negative: "-0.00 GB" for -5
        raise ValueError(f"gb takes a size in bytes, 0 or more, got {size}")
    try:
        return f"{Decimal(size / 1e9).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)} GB"
    except InvalidOperation:  # more digits than a decimal holds (its message is a class list)
        raise ValueError(f"gb cannot show {size} bytes: the number is too large") from None


def sentence_list(items: Iterable[Any], conjunction: str = "and") -> str:
    """``a, b, and c`` with an Oxford comma. When any item is Markup (already MDX), the
    others are escaped for prose and the list is Markup, so nothing is escaped twice."""
    given = list(items)
    if any(isinstance(i, Markup) for i in given):
        return Markup(sentence_list([markup_text(i) for i in given], conjunction))
    words = [str(i) for i in given]
    if len(words) <= 2:
        return f" {conjunction} ".join(words)
    return ", ".join(words[:-1]) + f", {conjunction} " + words[-1]


def long_date(iso: str) -> str:
    """``2026-08-04`` as a reader reads it: ``August 4, 2026``."""
    return (
        datetime.date.fromisoformat(str(iso))
        .strftime("%B {day}, %Y")
        .format(day=int(str(iso)[8:10]))
    )


def markup_text(item: Any) -> str:
    """The MDX text of an item: Markup as written, anything else escaped for prose."""
    return str(item) if isinstance(item, Markup) else mdx.escape_prose(str(item))


@jinja2.pass_environment
def join(
    environment: jinja2.Environment,
    items: Iterable[Any],
    separator: str = "",
    attribute: str | int | None = None,
) -> str:
    """Jinja's ``join`` that keeps Markup items as written (Jinja's own returns plain
    text without autoescape, which docgen would then escape a second time). An
    ``attribute`` (``"model.hf"``, an index) is looked up as Jinja looks it up, through
    the environment, which records the read."""
    given = list(map(make_attrgetter(environment, attribute), items)) if attribute else list(items)
    if any(isinstance(i, Markup) for i in given):
        return Markup(markup_text(separator).join(markup_text(i) for i in given))
    return separator.join(str(i) for i in given)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> Markup:
    """A GFM table; plain cells are escaped, Markup cells (e.g. ``mdx_code``) kept."""

    def cell(value: Any) -> str:
        if not isinstance(value, Markup):
            return mdx.escape_cell(printed(value))
        if _CELL_BREAK.search(value) or "\n" in value:  # it would end the cell or the table
            raise ValueError(
                "a table cell holds markup with a '|' or a line break, which ends the cell: "
                "give the value itself (table escapes it), or value | mdx_code(true) for code"
            )
        return str(value)

    lines = ["| " + " | ".join(cell(h) for h in headers) + " |"]
    lines.append("|" + "|".join("---" for _ in headers) + "|")
    for number, given in enumerate(rows, start=1):
        row = list(given)  # any iterable a template passes
        if len(row) != len(headers):  # GFM drops a cell past the headers, or pads a row
            cells, heads = len(row), len(headers)
            raise ValueError(
                f"table row {number} has {cells} cell{'s' * (cells != 1)}, but the table has "
                f"{heads} header{'s' * (heads != 1)}: give each row one value per header"
            )
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
    return Markup("\n".join(lines))


def host_defaults_table(registry: Registry) -> Markup:
    """``Host profile | Default model`` for every host with a default profile."""
    rows = []
    for host in registry.hosts.values():
        profile = registry.host_default(host.id)
        if profile is not None:
            rows.append((host.name, _code(profile.model.hf)))
    return table(["Host profile", "Default model"], rows)


def models_table(registry: Registry) -> Markup:
    """One row per model: slug, Hugging Face id, every host it is registered for, its
    minimum compute capability (per host where they differ), notes; "None" where the
    registry declares nothing."""
    rows = []
    for model in registry.models.values():
        registered = registry.registered_hosts(model)
        hosts = registry.hosts
        rows.append(
            (
                _code(model.id),
                _code(model.hf),
                ", ".join(hosts[r.host].name for r in registered) or "None",
                _capabilities(registered, hosts),
                model.notes or "None",
            )
        )
    headers = [
        "Slug",
        "Hugging Face model",
        "Registered host profiles",
        "Minimum compute capability",
        "Notes",
    ]
    return table(headers, rows)


def profiles_table(registry: Registry) -> Markup:
    """The serving profiles as a profile list shows them: stable id, display name,
    backend, model, topology, selection, support and estimated downloads (the image's
    compressed layers and the model files, None where the registry lacks a size)."""
    rows = []
    for profile in registry.profiles.values():
        model_bytes = profile.model.download_bytes
        image_bytes = profile.image.compressed_bytes if profile.image else None
        known = model_bytes is not None and image_bytes is not None
        downloads = _code(gb((model_bytes or 0) + (image_bytes or 0))) if known else "None"
        rows.append(
            (
                _code(profile.id),
                f"{profile.model.label} on one {profile.host.name}"
                if profile.topology == "single-node"
                else f"{profile.model.label} on {profile.host.name} nodes",
                "vLLM",
                _code(profile.model.hf),
                profile.topology,
                profile.selection,
                profile.support,
                downloads,
            )
        )
    headers = ["Stable ID", "Name", "Backend", "Model", "Topology", "Selection", "Support",
               "Estimated downloads"]  # fmt: skip
    return table(headers, rows)


def _capabilities(registered: Sequence[ModelOnHost], hosts: Mapping[str, Host]) -> Markup | str:
    """The minimum compute capability cell: one value as code, or each value with the hosts
    it holds on, lowest first ("12.0 on Linux; 12.1 on DGX Spark"), or None where no host
    declares a minimum."""
    values = sorted({r.min_compute_capability for r in registered}, key=_version)
    if values in ([], [""]):
        return "None"
    if len(values) == 1:
        return _code(values[0])
    parts = []
    for value in values:
        names = [hosts[r.host].name for r in registered if r.min_compute_capability == value]
        shown = _code(value) if value else "None"
        parts.append(f"{shown} on {mdx.escape_cell(sentence_list(names))}")
    return Markup("; ".join(parts))


def _version(value: str) -> tuple[int, ...]:
    return tuple(int(part) for part in value.split(".")) if value else ()
