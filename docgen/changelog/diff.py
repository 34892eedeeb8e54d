"""The semantic difference between two registry states, change by change.

Profiles are matched by id; a profile that disappears while another with the same
model and host appears is a rename, when it is the only one of each. Each change names
the registry node behind it (in the newer state where it exists, else the older).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from docgen.changelog import git
from docgen.changelog.changes import Change, arg_value, shown
from docgen.changelog.shared_diff import args_reordered, shared_changes
from docgen.config import Project
from docgen.errors import DocgenError, Location, RegistryError
from docgen.io import files
from docgen.registry.load import load_bytes, unchecked
from docgen.registry.model import Arg, Override, Profile, Registry, Source


def registry_at(project: Project, ref: str, option: str = git.SINCE) -> Registry:
    """The registry as committed at git revision ``ref`` (named by the command-line
    ``option``, which a git failure is reported against)."""
    raw, name = git.registry_bytes_at(project, ref, option)
    return _history(raw, name)


def registry_file(project: Project, path: str) -> Registry:
    """The registry in the file ``path`` (project-relative, or absolute): a file the user
    named, so it may lie anywhere, but it is read as the registry is (a regular file of at
    most ``MAX_BYTES``; never a FIFO or a device, but for standard input, ``-``, and a pipe
    outside the project, as a process substitution gives). A name inside the project is
    read only inside it: a link there that leads out (untrusted, as the tree is) is
    refused."""
    if path == "-":  # standard input: ``git show REV:profiles.yaml | docgen diff ...``
        if sys.stdin is None:  # started with it closed (``<&-``)
            raise RegistryError.at(Location("--since-file"), "there is no standard input to read")
        return _history(_streamed(sys.stdin.buffer, STDIN), STDIN)
    target = Path(os.path.normpath(project.root / path))  # an absolute path stays itself
    within = target.is_relative_to(project.root)
    if not within and _a_pipe(target):  # a process substitution: <(git show REV:profiles.yaml)
        with open(target, "rb") as pipe:
            return _history(_streamed(pipe, path), path)
    inside = files.Inside(project.root) if within else None
    # Named as every file of the project is, from its root (from docs/, ../old.yaml too).
    shown = target.relative_to(project.root).as_posix() if within else path
    raw = files.read_input_bytes(target, inside, "registry", display=shown)
    return _history(raw, shown)


#: How the older registry read from standard input is named in locations.
STDIN = "<stdin>"


def _streamed(stream: BinaryIO, name: str) -> bytes:
    """What a pipe holds, up to ``MAX_BYTES`` (more is a located error)."""
    raw = stream.read(files.MAX_BYTES + 1)
    if len(raw) > files.MAX_BYTES:
        raise RegistryError.at(Location(name), f"the registry is over {files.MAX_BYTES} bytes")
    return raw


def _a_pipe(path: Path) -> bool:
    """Whether ``path`` (outside the project: named on the command line) is a pipe, as a
    shell's process substitution gives (``/dev/fd/63``)."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _history(raw: bytes, name: str) -> Registry:
    """An older state of the registry: checked, without vLLM's start-time rules; else, as
    history need not pass today's rules (an upgrade's catalog may no longer know a flag it
    set), its model as the schema shapes it; else the checks' located errors."""
    try:
        return load_bytes(raw, name, start_rules=False)
    except RegistryError:
        older = unchecked(raw, name)
        if older is None:
            raise
        return older


def since_commit(
    project: Project, working: Registry | None, revisions: Sequence[str] = ("HEAD",)
) -> tuple[Registry, Registry] | None:
    """The registry as committed at the first of ``revisions`` where it differs from the
    working file (the last commit, then e.g. the base a pull request is checked against,
    whose docs its checkout still holds), and the working one; the committed one is built
    without its checks (it is history: it need not pass today's rules). The working one
    is ``working`` when given, else also built without them: a caller that computes this
    beside the load that checks it (``check``, in a forked copy) is stopped there by a
    registry the rules refuse.

    None outside a git repository, when either registry is missing or cannot be built,
    or when the working file is the same at every revision: nothing changed since."""
    now = files.read_quietly(project.registry_path, files.Inside(project.root), files.MAX_BYTES)
    if now is None:
        return None
    for revision in revisions:
        try:
            raw, name = git.registry_bytes_at(project, revision)
        except DocgenError:
            continue
        if raw != now:
            break
    else:
        return None
    old = unchecked(raw, name)
    new = working if working is not None else unchecked(now, project.config.registry)
    return None if old is None or new is None else (old, new)


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
        elif was.tokens != arg.tokens:
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
