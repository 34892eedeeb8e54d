"""Refuse YAML nested deeper than ``MAX_DEPTH``, located at the first node too deep.

libyaml's event stream is read flat, so no parser recurses into a deep document
before this check has located the node that goes too deep.
"""

from __future__ import annotations

from typing import Any

from docgen.errors import Location, RegistryError

#: Deepest nesting accepted (mappings and sequences inside each other).
MAX_DEPTH = 64
#: How libyaml words its own nesting limit (1,000 levels since the libyaml bundled with
#: PyYAML 6.0.2); older releases have no limit and never say it.
_LIBYAML_DEPTH = "maximum nesting depth"


def too_deep() -> str:
    """The message for nesting deeper than ``MAX_DEPTH``."""
    return f"YAML nesting deeper than {MAX_DEPTH} levels"


def check_depth(text: str, path: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` before a recursive composer meets it."""
    refusal = _depth_refusal(text, path)
    if refusal is not None:
        raise refusal


def _depth_refusal(text: str, path: str) -> RegistryError | None:
    """The located error for the first node nested deeper than ``MAX_DEPTH``, if any."""
    try:
        import yaml

        parser = yaml.CBaseLoader(text)
    except (ImportError, AttributeError):
        return None
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    depth = -1  # levels below the root, as the composers count them: the root is level 0
    try:
        while (event := parser.get_event()) is not None:
            if isinstance(event, starts):
                depth += 1
                if depth > MAX_DEPTH:
                    mark: Any = event.start_mark
                    return RegistryError.at(
                        Location(path, mark.line + 1, mark.column + 1), too_deep()
                    )
            elif isinstance(event, ends):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        return libyaml_depth_refusal(exc, text, path)
    except yaml.YAMLError:
        pass  # the composer words it
    finally:
        parser.dispose()
    return None


def libyaml_depth_refusal(exc: Any, text: str, path: str) -> RegistryError | None:
    """Map libyaml's own nesting refusal to docgen's, at the node docgen would name.

    libyaml scans ahead of the events it hands out, so a document past its limit is
    refused before a single event shows how deep it is. Its limit lies far beyond
    ``MAX_DEPTH``, so the text before the refusal holds the node docgen names: measure
    that prefix, which libyaml can read.
    """
    if _LIBYAML_DEPTH not in str(exc.problem or ""):
        return None
    mark = exc.problem_mark
    prefix = text[: mark.index] if mark is not None and 0 < mark.index < len(text) else ""
    refusal = _depth_refusal(prefix, path) if prefix else None
    if refusal is not None:
        return refusal
    where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
    return RegistryError.at(where, too_deep())
