"""Render only what an edit can reach: what each page of the last plan read, and whether
that still holds.

While a plan renders a page (a unit: the page and its agent variants), it records which
registry parts the page read (``docgen.render.reads``), with the digest of each part as
it was (``docgen.registry.parts``), and for a hand-written page the digest of its own
text. The next plan of the same project, with the same docgen, settings, templates and
navigation (``shared``), takes a unit's outputs from the record when every part it read
has the same digest, and the page the same text: only the digests of its outputs are
kept, which is what ``check`` compares and what ``build`` needs to leave a file alone.
Any other unit is rendered, and recorded afresh.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from docgen.registry.parts import DERIVED, Part

if TYPE_CHECKING:  # a record is loaded without importing the template engine
    from docgen.render.partials import PartialKey

#: A partial's text and its reads, each part with its digest (plain data: loading a
#: record imports no template engine).
PartialRecord = tuple[str, tuple[tuple[Part, str], ...]]

#: A unit's key: ("job", template name, profile id or "") or ("page", relative path).
UnitKey = tuple[str, str, str]


@dataclass(frozen=True)
class UnitRecord:
    """What one unit read (each part with its digest then) and what it gave."""

    reads: tuple[tuple[Part, str], ...]
    page: bytes | None  # a hand-written page's input digest; None for a template page
    result: Any  # the unit's outputs with digests only (plan._Unit)


@dataclass(frozen=True)
class Record:
    """Every unit of one plan, the partials its pages included (see
    ``docgen.render.partials``), and the digest of the inputs they all share."""

    shared: str
    units: Mapping[UnitKey, UnitRecord] = field(default_factory=dict)
    partials: Mapping[PartialKey, PartialRecord] = field(default_factory=dict)
    included: Mapping[UnitKey, tuple[PartialKey, ...]] = field(default_factory=dict)


def with_digests(
    reads: Mapping[Part, str],
    parts: Mapping[Part, str],
    shared: dict[tuple[Part, str], tuple[Part, str]] | None = None,
) -> tuple[tuple[Part, str], ...]:
    """The reads of a render with each registry part's digest filled in (a derived read
    carries its own); a part the registry lacks reads as ``""``. Each read is the one
    equal read in ``shared``, when given: a record then holds (and pickles) once what
    every page reads."""
    found = (
        (part, digest if part[0] == DERIVED else parts.get(part, ""))
        for part, digest in reads.items()
    )
    if shared is None:
        return tuple(sorted(found))
    return tuple(sorted(shared.setdefault(read, read) for read in found))


def holds(
    unit: UnitRecord,
    parts: Mapping[Part, str],
    derived: Callable[[str], str],
    page: bytes | None,
) -> bool:
    """Whether a recorded unit still gives the same outputs: every part it read has the
    digest it had (a derived value the digest of its result now), and its page the same
    text."""
    return unit.page == page and reads_hold(unit.reads, parts, derived)


def reads_hold(
    reads: tuple[tuple[Part, str], ...], parts: Mapping[Part, str], derived: Callable[[str], str]
) -> bool:
    """Whether every part read has the digest it had (a derived value, the digest of its
    result now); a part the registry lacked then never holds."""
    for part, digest in reads:
        now = derived(part[1]) if part[0] == DERIVED else parts.get(part, "")
        if now != digest or not now:
            return False
    return True


def derived_digests(renderer: Any) -> Callable[[str], str]:
    """The digest of each derived value (a table) of ``renderer``'s registry, computed
    once when first asked."""
    done: dict[str, str] = {}

    def digest_of(name: str) -> str:
        if name not in done:
            text = str(renderer.derived(name)).encode("utf-8", "surrogatepass")
            done[name] = hashlib.sha256(text).hexdigest()
        return done[name]

    return digest_of


def page_digest(project: Any, path: Any) -> bytes:
    """What of a hand-written page its unit reads: its text outside managed regions."""
    from docgen.io import files
    from docgen.render.regions import has_markers, strip_regions

    text, form = files.read_page(project, path)
    kept = strip_regions(text) if has_markers(text) else text
    return hashlib.sha256(form.written(kept).encode("utf-8", "surrogatepass")).digest()


def kept(
    registry: Any,
    digest_of: Callable[[str], str],
    record: Record | None,
    pages: Mapping[UnitKey, bytes | None],
    render: frozenset[str],
) -> dict[UnitKey, Any]:
    """The units whose record still holds and none of whose outputs must be rendered
    (``render``), each with its recorded outputs (digests only); ``digest_of`` gives a
    derived value's digest now (see ``derived_digests``)."""
    if record is None:
        return {}
    out = {}
    for key, page in pages.items():
        unit = record.units.get(key)
        if unit is None or any(path in render for path in _paths(unit.result)):
            continue
        if holds(unit, registry.parts, digest_of, page):
            out[key] = unit.result
    return out


def record_of(
    shared: str,
    registry: Any,
    pages: Mapping[UnitKey, bytes | None],
    done: list[Any],
    partials: Mapping[PartialKey, Any],
    included: Mapping[UnitKey, tuple[PartialKey, ...]],
) -> Record:
    """The record of a plan's units, the ``partials`` they include (each a text and its
    reads) and which each unit ``included``, made with the ``shared`` inputs digest."""
    units = {}
    same: dict[tuple[Part, str], tuple[Part, str]] = {}
    for (key, page), unit in zip(pages.items(), done, strict=True):
        reads = with_digests(dict(unit.reads), registry.parts, same)
        units[key] = UnitRecord(reads, page, _slim(unit, reads))
    texts = {
        key: (text, with_digests(dict(reads), registry.parts, same))
        for key, (text, reads) in partials.items()
    }
    keys = {key: key for key in texts}  # one object per key, however many units hold it
    held = {unit: tuple(keys.get(k, k) for k in found) for unit, found in included.items()}
    return Record(shared, units, texts, {unit: found for unit, found in held.items() if found})


def partials_of(
    renderer: Any,
    record: Record | None,
    fresh: list[Any],
    done: Mapping[UnitKey, Any],
    kept: Mapping[UnitKey, Any],
) -> tuple[dict[PartialKey, Any], dict[UnitKey, tuple[PartialKey, ...]]]:
    """The partials a record keeps (those some unit includes: a rendered unit says which,
    and a ``kept`` one's record does; a kept unit's still hold) and the keys each unit
    includes; ``fresh`` are the units rendered now (a forked copy's partials come back
    with them)."""
    for unit in fresh:
        renderer.partials.add(dict(unit.partials))
    earlier = record.included if record is not None else {}
    included = {k: earlier.get(k, ()) if k in kept else u.included for k, u in done.items()}
    found = renderer.partials.kept()
    return {k: found[k] for keys in included.values() for k in keys if k in found}, included


def _paths(unit: Any) -> list[str]:
    outputs = [unit.page] if unit.page is not None else []
    return [o.path for o in (*outputs, *unit.variants)]


def _slim(unit: Any, reads: tuple[tuple[Part, str], ...]) -> Any:
    """A unit's outputs as digests of their text (a kept unit's already are)."""

    page = None if unit.page is None else unit.page.digest_only()
    variants = tuple(v.digest_only() for v in unit.variants)
    return replace(
        unit, page=page, variants=variants, text="", reads=reads, partials=(), included=()
    )
