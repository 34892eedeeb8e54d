"""Which registry nodes stand behind an output: a per-profile page's are its profile's (and
the model, host, image and args it holds), any other page's every node of the registry;
drift names the nodes whose text the changed lines show."""

from __future__ import annotations

from docgen.registry.model import Host, Image, Model, Profile, Registry, Source


def page_sources(reg: Registry, profile: Profile) -> tuple[Source, ...]:
    """What a per-profile page can show: the product's words, each agent's CLI (which its
    variants put in the CLI token's place) and the profile's own nodes."""
    clis = (t for a in reg.agents for t in a.texts)
    return (*reg.product.texts, *clis, *profile_sources(profile))


def profile_sources(profile: Profile) -> tuple[Source, ...]:
    out = [profile.source, *profile.texts, profile.model.source, *profile.model.texts]
    out += [profile.host.source, *profile.host.texts]
    if profile.image:
        out += [profile.image.source, *profile.image.texts]
    # The launcher's shared args and steps are in its command too.
    out += [a.source for a in (*profile.shared_args, *profile.args)]
    out += [step.source for step in profile.launcher_steps]
    for override in profile.overrides:
        out += [override.source, *(a.source for a in override.args), *override.texts]
    return tuple(out)


_ALL_SOURCES: dict[int, tuple[Registry, tuple[Source, ...]]] = {}


def registry_sources(reg: Registry) -> tuple[Source, ...]:
    """Every registry node a whole-registry page can show (computed once per registry)."""
    cached = _ALL_SOURCES.get(id(reg))
    if cached is not None and cached[0] is reg:
        return cached[1]
    result = _collect_sources(reg)
    _ALL_SOURCES.clear()
    _ALL_SOURCES[id(reg)] = (reg, result)
    return result


def _collect_sources(reg: Registry) -> tuple[Source, ...]:
    out: list[Source] = [*reg.product.texts, *(t for a in reg.agents for t in a.texts)]
    entries: list[Host | Image | Model] = [*reg.hosts.values(), *reg.images.values()]
    for entry in [*entries, *reg.models.values()]:
        out += [entry.source, *entry.texts]
    for profile in reg.profiles.values():
        out += profile_sources(profile)
    return tuple(dict.fromkeys(out))
