"""Core functions behind the smaller commands (``serve-command``)."""

from __future__ import annotations

from collections.abc import Iterable

from docgen.config import Project
from docgen.errors import ConfigError, Location, did_you_mean, one_line
from docgen.registry.load import load_registry
from docgen.registry.serve import ServeCommand, parse_extra_args, serve_command

#: The most ids a message lists when none is close to the one given.
LISTED = 8


def suggest_id(name: str, known: Iterable[str], none: str = "there are none") -> str:
    """Close matches for a long dotted id: ids containing ``name`` first, then similar ones;
    else the ids there are (or ``none``)."""
    ids = sorted(known)
    containing = [i for i in ids if name in i] if name else []  # "" is in every id
    if containing:
        shown = ", ".join(f"'{i}'" for i in containing[:3])
        return f"; did you mean {shown}?" if len(containing) == 1 else f"; matching ids: {shown}"
    close = did_you_mean(name, ids)
    if close or not ids:
        return close or f"; {none}"
    more = f" and {len(ids) - LISTED} more" if len(ids) > LISTED else ""
    return f"; known: {', '.join(one_line(i) for i in ids[:LISTED])}{more}"


def effective_command(
    project: Project, profile_id: str, override: str | None, extra_json: str | None
) -> ServeCommand:
    """The effective command of a profile after an override and extra tokens."""
    reg = load_registry(project)
    profile = reg.profiles.get(profile_id)
    if profile is None:
        raise ConfigError.at(
            Location("serve-command"),
            f"unknown profile '{one_line(profile_id)}'{suggest_id(profile_id, reg.profiles)}",
        )
    chosen = None
    if override is not None:
        chosen = profile.override(override)
        if chosen is None:
            hint = suggest_id(override, [o.id for o in profile.overrides], "it has none")
            raise ConfigError.at(
                Location("--override"),
                f"profile '{profile_id}' has no override '{one_line(override)}'{hint}",
            )
    extra = parse_extra_args(extra_json, reg.catalog()) if extra_json else []
    return serve_command(profile, chosen, extra)
