"""The changes outside profiles: host defaults, models, the launcher, hosts, images, agents,
the product and the vllm settings; every field a page can show."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from docgen.changelog.changes import Change
from docgen.registry.model import Arg, Profile, Registry, Source
from docgen.registry.serve import quote
from docgen.render.tables import gb


def shared_changes(
    old: Registry, new: Registry, renamed: Mapping[str, str] | None = None
) -> Iterator[Change]:
    """Host defaults, models, the launcher, then the other sections, in that order
    (``renamed``: new profile id -> old, whose rename is its own change)."""
    yield from _host_defaults(old, new, renamed or {})
    yield from _models(old, new)
    yield from _launcher(old, new)
    yield from _sections(old, new)


def _host_defaults(old: Registry, new: Registry, renamed: Mapping[str, str]) -> Iterator[Change]:
    for hid, host in new.hosts.items():
        before, after = old.host_default(hid), new.host_default(hid)
        models = (_id(before and before.model), _id(after and after.model))
        was = renamed.get(_id(after) or "", _id(after))  # a renamed default is no move
        if hid not in old.hosts or (_id(before), models[0]) == (was, models[1]):
            continue
        # The model, unless the default moved to another profile of the same model.
        field, (b, a) = ("default model", models)
        if models[0] == models[1]:
            field, (b, a) = ("default profile", (_id(before), _id(after)))
        context = {"host": host, "old_profile": before, "profile": after}
        yield Change(
            "host-default-changed",
            hid,
            field,
            b,
            a,
            after.source if after else host.source,
            context,
        )


def _id(item: Any) -> str | None:
    return None if item is None else str(item.id)


MODEL_FIELDS = (
    "hf",
    "label",
    "served_name",
    "revision",
    "min_compute_capability",
    "download_bytes",
    "gated",
    "notes",
    "hosts",
)


def _models(old: Registry, new: Registry) -> Iterator[Change]:
    for slug, model in new.models.items():
        before = old.models.get(slug)
        if before is None:
            continue
        for name in MODEL_FIELDS:
            was, now = _model_value(before, name), _model_value(model, name)
            if was != now:
                yield Change("model-changed", slug, name, was, now, model.source, {"model": model})


def _model_value(model: Any, name: str) -> Any:
    """A model field as ``diff`` shows it; the hosts it is registered for as text, with
    what a host entry declares (``dgx-spark; linux (12.0, experimental)``)."""
    value = getattr(model, name)
    if name != "hosts":
        return value
    shown = []
    for host, on in value.items():
        facts = [on.declared, on.support, on.selection]
        stated = ", ".join(f for f in facts if f is not None)
        shown.append(f"{host} ({stated})" if stated else host)
    return "; ".join(shown) or None


def _launcher(old: Registry, new: Registry) -> Iterator[Change]:
    """The launcher's shared args and steps: they change every profile's command."""
    args_old = {a.name: a for a in old.launcher.shared_args}
    args_new = {a.name: a for a in new.launcher.shared_args}
    for name in dict.fromkeys([*args_new, *args_old]):
        was, now = args_old.get(name), args_new.get(name)
        if was is None or now is None or was.tokens != now.tokens:
            where = (now or was).source  # type: ignore[union-attr]
            values = (was and " ".join(was.tokens), now and " ".join(now.tokens))
            kind = "arg-moved" if _same_in_every_command(old, new, name) else "launcher-changed"
            yield Change(kind, "launcher", f"--{name}", *values, where)
    shared = new.launcher.shared_args
    where = shared[0].source if shared else None
    yield from args_reordered("launcher", old.launcher.shared_args, shared, where)
    if old.launcher.storage != new.launcher.storage:
        sizes = (_storage_text(old.launcher.storage), _storage_text(new.launcher.storage))
        where = (new.launcher.storage or old.launcher.storage).source  # type: ignore[union-attr]
        yield Change("launcher-changed", "launcher", "storage", *sizes, where)
    before = {s.id: s for s in old.launcher.steps}
    after = {s.id: s for s in new.launcher.steps}
    for sid in dict.fromkeys([*before, *after]):
        step_was, step_now = before.get(sid), after.get(sid)
        if _step(step_was) != _step(step_now):
            step = step_now or before[sid]
            text = (_step_text(step_was), _step_text(step_now))
            yield Change("launcher-changed", "launcher", sid, *text, step.source)
        elif step_was and step_now and step_was.summary != step_now.summary:
            said = (step_was.summary or None, step_now.summary or None)
            yield Change("step-summary-changed", "launcher", sid, *said, step_now.source)


def _same_in_every_command(old: Registry, new: Registry, name: str) -> bool:
    """Whether every profile of both states gives flag ``name`` the same argv words, and
    one gives it any (the flag moved between the launcher's shared args and the profiles'
    own); never where no profile is in both states to tell."""
    pairs = [
        (_words(old.profiles[pid], name), _words(profile, name))
        for pid, profile in new.profiles.items()
        if pid in old.profiles
    ]
    return any(was is not None for was, _now in pairs) and all(was == now for was, now in pairs)


def _words(profile: Profile, name: str) -> tuple[str, ...] | None:
    """The argv words the command of ``profile`` gives flag ``name`` (its last, which
    vLLM takes), or None when it gives none."""
    found = [a.tokens for a in profile.effective_args if a.name == name]
    if found:
        return found[-1]
    value = profile.model.flags.get(name)
    return None if value is None else (f"--{name}", value)


def args_reordered(
    subject: str, old: tuple[Arg, ...], new: tuple[Arg, ...], where: Source | None
) -> Iterator[Change]:
    """The args both states set, in another order (the command shows them in order)."""
    order = _reordered([a.name for a in old], [a.name for a in new])
    if order is not None:
        yield Change("args-reordered", subject, "args", *order, where)


def _reordered(old: list[str], new: list[str]) -> tuple[str, str] | None:
    """The names both lists hold, in the old order and the new, when the two differ."""
    both = set(old) & set(new)
    kept = [name for name in new if name in both]
    was = [name for name in old if name in both]
    return None if kept == was else (", ".join(was), ", ".join(kept))


def _storage_text(storage: Any) -> str | None:
    """The reserves a storage estimate adds, in GB as the pages show them."""
    if storage is None:
        return None
    staging, writable = storage.staging_reserve_bytes, storage.writable_allowance_bytes
    return (
        f"a {gb(staging, 3)} model-download staging reserve and "
        f"a {gb(writable, 3)} writable allowance"
    )


def _step(step: Any) -> Any:
    """What a step does (its summary, which a page may show, is step-summary-changed)."""
    return None if step is None else (step.run, dict(step.when))


def _step_text(step: Any) -> str | None:
    """A step's command as the page prints it (each word shell-quoted)."""
    return None if step is None else " ".join(quote(word) for word in step.run)


#: Fields compared per item of the other sections, by change kind.
SECTION_FIELDS = {
    "host-changed": ("hosts", ("name", "arch", "notes", "image")),
    "image-updated": (
        "images",
        ("ref", "digest", "compressed_bytes", "unpacked_bytes", "platform", "vllm", "notes"),
    ),
}


def _sections(old: Registry, new: Registry) -> Iterator[Change]:
    """Hosts, images, models, agents, product and vllm settings: every field a page can
    show, so that any change of output is a change ``diff`` reports."""
    for kind, (section, names) in SECTION_FIELDS.items():
        items_old, items_new = getattr(old, section), getattr(new, section)
        for key, item in items_new.items():
            was = items_old.get(key)
            for name in names if was is not None else ():
                if getattr(was, name) != getattr(item, name):
                    yield Change(
                        kind, key, name, getattr(was, name), getattr(item, name), item.source
                    )
        for key in dict.fromkeys([*items_old, *items_new]):
            if (key in items_old) != (key in items_new):
                item = items_new.get(key) or items_old[key]
                state = "removed" if key in items_old else "added"
                yield Change(kind, key, state, source=item.source)
    for slug in dict.fromkeys([*old.models, *new.models]):
        if (slug in old.models) != (slug in new.models):
            kind = "model-removed" if slug in old.models else "model-added"
            yield Change(kind, slug, source=(new.models.get(slug) or old.models[slug]).source)
    yield from _agents(old, new)
    yield from _product(old, new)
    if old.vllm != new.vllm:
        yield Change("vllm-changed", "vllm", "extra_flags/extra_values")


def _agents(old: Registry, new: Registry) -> Iterator[Change]:
    """Each agent added, removed, or with a field changed."""
    agents_old = {a.id: a for a in old.agents}
    for agent in new.agents:
        was = agents_old.get(agent.id)
        if was is None:
            yield Change("agent-changed", agent.id, "added", source=agent.source)
        for name in ("title", "cli", "env", "default") if was is not None else ():
            before, after = getattr(was, name), getattr(agent, name)
            if before != after:
                yield Change(
                    "agent-changed", agent.id, name, _plain(before), _plain(after), agent.source
                )
    for removed in sorted(set(agents_old) - {a.id for a in new.agents}):
        yield Change("agent-changed", removed, "removed", source=agents_old[removed].source)
    order = _reordered([a.id for a in old.agents], [a.id for a in new.agents])
    if order is not None:  # each agent's pages and variants are listed in this order
        first = new.agents[0].source  # where the section's list starts
        yield Change("agent-changed", "agents", "order", *order, first)


def _product(old: Registry, new: Registry) -> Iterator[Change]:
    """Each field of the product section that changed."""
    for name in ("name", "cli_token", "model_env", "extra_args_env", "provider_env", "onboard",
                 "docs_base", "site_url", "spdx"):  # fmt: skip
        before, after = getattr(old.product, name), getattr(new.product, name)
        if before != after:
            where = _field_place(old.product.texts, new.product.texts, name)
            yield Change("product-changed", "product", name, _plain(before), _plain(after), where)


def _field_place(old: tuple[Source, ...], new: tuple[Source, ...], name: str) -> Source | None:
    """Where the product's field ``name`` now stands: the text in it that changed (a
    mapping's), else its first; None once it is deleted."""
    was = {(s.keypath, s.text) for s in old}
    mine = [s for s in new if s.keypath[1] == name]
    return next((s for s in mine if (s.keypath, s.text) not in was), mine[0] if mine else None)


def _plain(value: Any) -> Any:
    """A value ``Change`` can print: mappings and dataclasses as ``key=value, ...``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)
