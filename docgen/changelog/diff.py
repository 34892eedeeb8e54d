"""The semantic difference between two registry states, change by change.

Profiles are matched by id; a profile that disappears while another with the same
model and host appears is a rename, when it is the only one of each. Each change names
the registry node behind it (in the newer state where it exists, else the older).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docgen.changelog.changes import Change, arg_value, shown
from docgen.changelog.shared_diff import args_reordered, shared_changes
from docgen.registry.model import Arg, Override, Profile, Registry, Source
from docgen.vllm.argv import same_object


def diff(old: Registry, new: Registry) -> list[Change]:
    """Every semantic change from ``old`` to ``new``, in registry order."""
    renamed = _renames(old, new)
    changes: list[Change] = []
    for pid, profile in new.profiles.items():
        before_id = pid if pid in old.profiles else renamed.get(pid)
        if before_id is None:
            changes.append(
                Change("profile-added", pid, source=profile.source, extra={"profile": profile})
            )
            continue
        before = old.profiles[before_id]
        if before_id != pid:
            changes.append(
                Change(
                    "profile-renamed",
                    pid,
                    old=before_id,
                    new=pid,
                    source=profile.source,
                    extra={"profile": profile},
                )
            )
        changes += _profile_changes(before, profile)
    gone = set(old.profiles) - set(new.profiles) - set(renamed.values())
    changes += [
        Change(
            "profile-removed",
            pid,
            source=old.profiles[pid].source,
            extra={"profile": old.profiles[pid]},
        )
        for pid in old.profiles
        if pid in gone
    ]
    changes += list(shared_changes(old, new, renamed))
    return changes


def _renames(old: Registry, new: Registry) -> dict[str, str]:
    """New id -> old id for profiles whose id changed but model and host did not.

    Only an unambiguous pair is a rename: exactly one removed and exactly one added
    profile of that model and host; anything else stays removed and added.
    """
    added = [p for pid, p in new.profiles.items() if pid not in old.profiles]
    removed = [p for pid, p in old.profiles.items() if pid not in new.profiles]
    out: dict[str, str] = {}
    for profile in added:
        key = (profile.model.id, profile.host.id)
        match = [r for r in removed if (r.model.id, r.host.id) == key]
        rivals = [a for a in added if (a.model.id, a.host.id) == key]
        if len(match) == 1 and len(rivals) == 1 and match[0].id not in out.values():
            out[profile.id] = match[0].id
    return out


def _profile_changes(old: Profile, new: Profile) -> Iterator[Change]:
    ctx = {"profile": new, "old_profile": old}
    yield from _field_changes(old, new, ctx)
    yield from _moved_kept(old, new, _arg_changes(new.id, old.args, new.args, new.source, ctx))
    yield from args_reordered(new.id, old.args, new.args, new.source)
    yield from _command_changes(old, new, ctx)
    for attr, kind in (("support", "support-changed"), ("selection", "selection-changed")):
        if getattr(old, attr) != getattr(new, attr):
            yield Change(
                kind, new.id, attr, getattr(old, attr), getattr(new, attr), new.source, ctx
            )
    if _image_key(old) != _image_key(new):
        yield Change(
            "image-changed",
            new.id,
            "image",
            _image_text(old),
            _image_text(new),
            new.image.source if new.image else new.source,
            ctx,
        )
    yield from _override_changes(old, new, ctx)
    if (old.expect_absent, dict(old.expect_present)) != (
        new.expect_absent,
        dict(new.expect_present),
    ):
        yield Change(
            "expect-changed",
            new.id,
            "expect",
            _expect_text(old),
            _expect_text(new),
            new.source,
            ctx,
        )
    if _evidence(old) != _evidence(new):
        yield Change("evidence-changed", new.id, "evidence", None, None, new.source, ctx)


def _moved_kept(old: Profile, new: Profile, changes: Iterator[Change]) -> Iterator[Change]:
    """Leave out an arg that moved between the profile's own args and the launcher's shared
    args with the same argv: the command still sets it as before."""
    shared_now = {a.name: a.tokens for a in new.shared_args}
    shared_was = {a.name: a.tokens for a in old.shared_args}
    for change in changes:
        if change.kind == "arg-removed":
            if shared_now.get(change.name) == change.extra["old_arg"].tokens:
                continue
        elif (
            change.kind == "arg-added" and shared_was.get(change.name) == change.extra["arg"].tokens
        ):
            continue
        yield change


def _field_changes(old: Profile, new: Profile, ctx: dict[str, Any]) -> Iterator[Change]:
    """The model or host a profile names, and its summary."""
    for attr in ("model", "host"):
        before, after = getattr(old, attr), getattr(new, attr)
        if before.id != after.id:
            yield Change("profile-changed", new.id, attr, before.id, after.id, new.source, ctx)
    for attr in ("summary", "topology"):
        before, after = getattr(old, attr), getattr(new, attr)
        if before != after:
            yield Change("profile-changed", new.id, attr, before, after, new.source, ctx)


def _command_changes(old: Profile, new: Profile, ctx: dict[str, Any]) -> Iterator[Change]:
    """The rest of the serve command: each environment variable added, changed or removed,
    and what the profile omits of the launcher section."""
    for name in dict.fromkeys([*old.env, *new.env]):
        before, after = old.env.get(name), new.env.get(name)
        if before != after:
            yield Change("env-changed", new.id, name, before, after, new.source, ctx)
    for attr in ("omit_args", "omit_steps"):
        was, now = getattr(old, attr), getattr(new, attr)
        if was != now:
            dashes = "--" if attr == "omit_args" else ""
            before = ", ".join(f"{dashes}{n}" for n in was) or None
            after = ", ".join(f"{dashes}{n}" for n in now) or None
            yield Change("launcher-changed", new.id, attr, before, after, new.source, ctx)


def _evidence(profile: Profile) -> list[tuple[Any, ...]]:
    return [(e.date, e.host, e.setup, e.results) for e in profile.evidence]


def _arg_changes(
    subject: str, old: tuple[Arg, ...], new: tuple[Arg, ...], fallback: Source, ctx: dict[str, Any]
) -> Iterator[Change]:
    """Args added and changed in the newer order, then the removed ones (located at
    ``fallback``, as they have no node in the newer state)."""
    before = {a.name: a for a in old}
    after = {a.name: a for a in new}
    for name, arg in after.items():
        was = before.get(name)
        if was is None:
            yield Change(
                "arg-added", subject, name, None, arg_value(arg), arg.source, {**ctx, "arg": arg}
            )
        elif was.tokens != arg.tokens and not same_object(was.value, arg.value):
            context = {**ctx, "arg": arg, "old_arg": was}
            yield Change(
                "arg-changed", subject, name, arg_value(was), arg_value(arg), arg.source, context
            )
        elif _written(was.value) != _written(arg.value):  # the same argv, written otherwise
            context = {**ctx, "arg": arg, "old_arg": was}
            old_form, new_form = _written(was.value), _written(arg.value)
            yield Change("arg-restated", subject, name, old_form, new_form, arg.source, context)
    for name, arg in before.items():
        if name not in after:
            # The removed value has no node in the newer state: the change names the line
            # where it stood in the older one (the profile it belonged to is the subject).
            context = {**ctx, "old_arg": arg, "now": fallback}
            yield Change("arg-removed", subject, name, arg_value(arg), None, arg.source, context)


def _written(value: Any) -> str:
    """A value with its YAML type: a mapping and its JSON text give the same argv."""
    return f"{type(value).__name__}: {value!r}"


def _override_changes(old: Profile, new: Profile, ctx: dict[str, Any]) -> Iterator[Change]:
    before = {o.id: o for o in old.overrides}
    after = {o.id: o for o in new.overrides}
    renamed = _override_renames(before, after)
    for oid, override in after.items():
        here = {**ctx, "override": override}
        was = before.get(renamed.get(oid, oid))
        if oid in renamed:
            yield Change("override-renamed", new.id, oid, renamed[oid], oid, override.source, here)
        if was is None:
            text = _override_text(override)
            yield Change("override-added", new.id, oid, None, text, override.source, here)
        elif (shown := _override_difference(was, override)) is not None:
            yield Change("override-changed", new.id, oid, *shown, here)
    for oid, override in before.items():
        if oid not in after and oid not in renamed.values():
            text = _override_text(override)
            here = {**ctx, "override": override}
            yield Change("override-removed", new.id, oid, text, None, new.source, here)


def _override_renames(before: dict[str, Override], after: dict[str, Override]) -> dict[str, str]:
    """New id -> old id of a profile's one override whose id changed and args did not:
    exactly one removed and one added, with the same argv (anything else stays removed
    and added: the same setting must not be announced as new and as gone)."""
    added = [o for oid, o in after.items() if oid not in before]
    removed = [o for oid, o in before.items() if oid not in after]
    one = len(added) == 1 and len(removed) == 1
    if one and _override_text(added[0]) == _override_text(removed[0]):
        return {added[0].id: removed[0].id}
    return {}


def _override_text(override: Override) -> str:
    return " ".join(override.tokens)


def _override_difference(old: Override, new: Override) -> tuple[str, str, Source] | None:
    """What of an override changed, as ``diff`` shows it: its args, else its summary (at
    the summary's line), else its tradeoffs; None when nothing did."""
    if _override_text(old) != _override_text(new):
        return _override_text(old), _override_text(new), new.source
    if old.summary != new.summary:
        return old.summary, new.summary, new.texts[0] if new.texts else new.source
    if old.tradeoffs != new.tradeoffs:
        return " / ".join(old.tradeoffs), " / ".join(new.tradeoffs), new.source
    return None


def _image_key(profile: Profile) -> tuple[str, str]:
    return (profile.image.ref, profile.image.digest) if profile.image else ("", "")


def _image_text(profile: Profile) -> str | None:
    if profile.image is None:
        return None
    return (
        f"{profile.image.ref}@{profile.image.digest}" if profile.image.digest else profile.image.ref
    )


def _expect_text(profile: Profile) -> str:
    parts = [f"absent {', '.join(profile.expect_absent)}"] if profile.expect_absent else []
    parts += [f"{k}={shown(v)}" for k, v in profile.expect_present.items()]
    return "; ".join(parts) or "(none)"
